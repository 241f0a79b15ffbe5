//! The lock on the store's folder, taken before anything of the store is read (issue 46).
//!
//! sled's own lock is on `<store>/db`, taken inside `sled::Config::open`, after sled has
//! created files and before its recovery writes. A process that wants to look at the files
//! first (the preflight, `crate::preflight`) must own the store before it looks, or it judges
//! files that their holder is writing. So every open takes an exclusive `flock` on the store
//! folder itself (a folder can be locked on Linux and macOS; it creates no file, so it writes
//! nothing to a damaged store) and keeps it for the life of the handle; a second open, from
//! this process or another, is refused at once. Inside it, while the preflight reads, the open
//! also holds sled's lock on `db` for a moment: that waits out this process's own sled threads
//! of a handle just dropped (`crate::reopen`), and it refuses a store that a release without
//! the folder lock holds.

use std::fs;
use std::io;
use std::path::Path;

use fs2::FileExt;

/// The folder lock of an open store; let go when dropped.
#[derive(Debug)]
pub(crate) struct FolderLock {
    /// The open folder holding the lock (`None` where folders cannot be opened as files: there
    /// sled's own lock is the only one).
    _folder: Option<fs::File>,
}

impl FolderLock {
    /// Takes the lock on `dir` (which exists), without waiting: `Ok(None)` if someone holds it.
    pub(crate) fn try_take(dir: &Path) -> io::Result<Option<FolderLock>> {
        let folder = match fs::File::open(dir) {
            Ok(f) => f,
            #[cfg(not(unix))]
            Err(_) => return Ok(Some(FolderLock { _folder: None })),
            #[cfg(unix)]
            Err(e) => return Err(e),
        };
        if !folder.metadata()?.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a folder", dir.display()),
            ));
        }
        match folder.try_lock_exclusive() {
            Ok(()) => Ok(Some(FolderLock {
                _folder: Some(folder),
            })),
            Err(e) if is_contended(&e) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Takes sled's lock on `<dir>/db` without waiting (`Ok(None)`: someone holds it), the same
/// `flock` sled takes; `Ok(Some(None))` when there is no `db` yet. Read-only: a lock needs no
/// write access.
pub(crate) fn try_lock_db(dir: &Path) -> io::Result<Option<Option<fs::File>>> {
    let db = match crate::safe_file::open_read(&dir.join("db")) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Some(None)),
        Err(e) => return Err(e),
    };
    match db.try_lock_exclusive() {
        Ok(()) => Ok(Some(Some(db))),
        Err(e) if is_contended(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether a `try_lock_exclusive` error means that someone else holds the lock.
fn is_contended(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::WouldBlock
        || e.raw_os_error() == fs2::lock_contended_error().raw_os_error()
}
