//! Opening the small files the store keeps beside sled's (the holder note, the swap note, and
//! sled's own files read before an open) without trusting what is at their path (issue 46).
//!
//! Anyone who can write the store's folder can put a FIFO there (an open for reading blocks
//! until a writer comes, for ever), a link to `/dev/zero` (a read never ends), or a link to a
//! file elsewhere (a write through it overwrites that file: as root, any file). So reads open
//! with `O_NOFOLLOW | O_NONBLOCK` and refuse anything but a regular file, reads are capped by
//! their callers, and new files are created with `O_CREAT | O_EXCL | O_NOFOLLOW`, which never
//! follows or reuses what is already there.

use std::fs;
use std::io;
use std::path::Path;

/// Opens `path` for reading if it is a regular file itself (not a link to one); any other
/// kind of file is `InvalidData`, naming the path. Never blocks.
pub(crate) fn open_read(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        // `O_NOFOLLOW` on a link fails with ELOOP: say what it means.
        if e.raw_os_error() == Some(libc_eloop()) {
            not_regular(path, "a symbolic link")
        } else {
            e
        }
    })?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        let what = if kind.is_dir() {
            "a folder"
        } else {
            "a FIFO, socket or device"
        };
        return Err(not_regular(path, what));
    }
    Ok(file)
}

/// Creates `path` as a new regular file for writing; fails if anything (a link included) is
/// already there.
pub(crate) fn create_new(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    options.open(path)
}

fn not_regular(path: &Path, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{} is {what}, not a regular file: the store never makes one there; remove it",
            path.display()
        ),
    )
}

#[cfg(unix)]
fn libc_eloop() -> i32 {
    libc::ELOOP
}

#[cfg(not(unix))]
fn libc_eloop() -> i32 {
    -1
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_fifo_a_link_and_a_folder_are_refused_at_once_and_a_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let e = open_read(&fifo).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");

        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = open_read(&link).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");

        let e = open_read(dir.path()).unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");

        let file = dir.path().join("note");
        fs::write(&file, "hello").unwrap();
        let mut text = String::new();
        open_read(&file).unwrap().read_to_string(&mut text).unwrap();
        assert_eq!(text, "hello");
    }

    #[test]
    fn a_new_file_is_never_written_through_a_planted_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("precious");
        fs::write(&target, "keep me").unwrap();
        let planted = dir.path().join("holder.tmp-1");
        std::os::unix::fs::symlink(&target, &planted).unwrap();
        assert!(create_new(&planted).is_err());
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
    }
}
