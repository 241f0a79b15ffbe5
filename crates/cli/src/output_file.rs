//! Output files written whole or not at all. A report, a picture or a simulated log is written
//! to a temporary file beside its place and renamed onto it once every byte is written, so a
//! full disk (or a kill) leaves either the old file or none, never half a file that looks
//! finished. The temporary file is removed when writing fails.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".carc-").suffix(".partial");
    // What `fs::write` gives a new file: readable and writable by all, less the umask (a
    // temporary file's own default is owner-only).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(dir).with_context(cannot)?;
    // The file itself, not the wrapper, whose errors name the temporary path
    temp.as_file_mut().write_all(bytes).with_context(cannot)?;
    temp.persist(path)
        .map_err(|e| e.error)
        .with_context(cannot)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_written_and_a_failed_write_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_whole(&path, b"hello").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello");
        // A folder in the way: the bytes are written, the rename fails
        let blocked = dir.path().join("blocked");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("x"), b"").unwrap();
        let e = write_whole(&blocked, b"data").unwrap_err();
        assert!(format!("{e:#}").contains("cannot write"), "{e:#}");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(!names.iter().any(|n| n.ends_with(".partial")), "{names:?}");
    }
}
