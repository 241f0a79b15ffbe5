//! Output files written whole or not at all. A report, a picture or a simulated log is written
//! to a temporary file beside its place and renamed onto it once every byte is written, so a
//! full disk (or a kill) leaves either the old file or none, never half a file that looks
//! finished. The temporary file is removed when writing fails.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
///
/// The temporary file is made here rather than with `tempfile`, whose `tempfile_in` turns a
/// relative folder into an absolute one by asking the kernel for the working directory
/// (`getcwd`) on every call: `simulate` writes thousands of files, and on two threads those
/// calls contend with the other thread's renames (docs/benchmarks.md, "The second core"). A
/// relative path here goes to the kernel as it is: one `openat`, `write`, `close` and
/// `renameat` a file.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let (temp, mut file) = create_temporary(dir).with_context(cannot)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| {
            drop(file);
            fs::rename(&temp, path)
        })
        .with_context(cannot);
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// A new file `.carc-<process>-<n>.partial` in `dir`, made by this call (never one that was
/// there: a name left by a killed run is skipped). The mode is what `fs::write` gives a new
/// file: readable and writable by all, less the umask.
fn create_temporary(dir: &Path) -> io::Result<(PathBuf, fs::File)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    // Asked once: `getpid` is a system call each time.
    static PROCESS: OnceLock<u32> = OnceLock::new();
    let process = *PROCESS.get_or_init(std::process::id);
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".carc-{process}-{n}.partial"));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
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

    #[test]
    fn a_temporary_name_left_by_a_killed_run_is_skipped_and_kept() {
        // Given the temporary names this process would take next already in the folder
        // (as a killed run with the same process id could have left them),
        let dir = tempfile::tempdir().unwrap();
        let process = std::process::id();
        for n in 0..64 {
            let name = dir.path().join(format!(".carc-{process}-{n}.partial"));
            std::fs::write(name, b"left").unwrap();
        }
        // then a write skips them, writes the file, and leaves them as they were.
        write_whole(&dir.path().join("out.txt"), b"new").unwrap();
        assert_eq!(std::fs::read(dir.path().join("out.txt")).unwrap(), b"new");
        let left = std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name() != "out.txt")
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect::<Vec<_>>();
        assert_eq!(left.len(), 64);
        assert!(left.iter().all(|bytes| bytes == b"left"));
    }
}
