//! Reopening, in the same process, a store this process has just closed.
//!
//! sled takes an exclusive lock on its file and lets it go when the file is closed, which
//! happens when the last `Arc` of the database is dropped — and sled's I/O threads hold
//! clones of it while they finish writing a buffer. So after the last [`crate::Store`] of a
//! database is dropped, the lock can outlive it by a moment, and an immediate reopen in the
//! same process would be told that the store is in use (the viewer reopens a store; tests do
//! it constantly).
//!
//! The process keeps the folders whose last handle it dropped. An open that meets the lock on
//! one of them waits for sled's threads, a bounded time ([`OWN_RELEASE_WAIT`]); the lock of any
//! other folder belongs to another process and is reported at once, as before.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The longest an open waits for this process's own sled threads to let go of a store.
pub const OWN_RELEASE_WAIT: Duration = Duration::from_secs(2);

/// Folders (canonical paths) whose last store handle this process dropped, and that it has
/// not opened again since.
static RELEASED_HERE: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

fn released_here() -> MutexGuard<'static, BTreeSet<PathBuf>> {
    // Plain inserts and removals: a panic elsewhere cannot leave the set inconsistent.
    RELEASED_HERE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Marks a folder as released by this process when the last clone of a store drops (it is
/// held in an `Arc` by every clone of the store).
#[derive(Debug)]
pub(crate) struct ReleaseOnDrop {
    folder: PathBuf,
}

impl ReleaseOnDrop {
    pub(crate) fn new(folder: PathBuf) -> Self {
        ReleaseOnDrop { folder }
    }
}

impl Drop for ReleaseOnDrop {
    fn drop(&mut self) {
        released_here().insert(self.folder.clone());
    }
}

/// Opens with `open` (sled's open of `folder`, canonical); when it fails on the lock and this
/// process released `folder`, tries again until the lock is free or [`OWN_RELEASE_WAIT`] has
/// passed. A successful open takes the folder out of the released set.
pub(crate) fn open_after_own_release<T, E>(
    folder: &Path,
    is_lock_error: impl Fn(&E) -> bool,
    mut open: impl FnMut() -> Result<T, E>,
) -> Result<T, E> {
    let deadline = Instant::now() + OWN_RELEASE_WAIT;
    let mut pause = Duration::from_millis(1);
    loop {
        match open() {
            Ok(opened) => {
                released_here().remove(folder);
                return Ok(opened);
            }
            Err(e)
                if is_lock_error(&e)
                    && released_here().contains(folder)
                    && Instant::now() < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(e) => return Err(e),
        }
    }
}
