//! A failed open leaves the store's files as it found them (issue 33).
//!
//! sled has no read-only mode, and its recovery writes before it has finished judging the
//! log: a flipped bit in the middle of the `db` file ends the log it recovers there, sled
//! zeroes the rest of that segment and every later segment, *then* finds that the log ends
//! before its snapshot and fails. What `carc salvage` could still have read is gone. Our own
//! opening checks (the layout version, the canonical-dedup promise) may write too.
//!
//! So before sled opens a store that already holds files, [`Backup::take`] copies every file
//! of the folder (`conf`, `db`, the snapshots, `blobs/`) to a temporary folder. When the open
//! fails, [`Backup::restore`] — once sled has let go of the store and this process holds its
//! lock, so that nobody else is writing — puts back every file whose bytes changed, removes
//! what the open created, and recreates what it removed. When the open succeeds the copy is
//! dropped. The copy costs the store's size in the temporary folder and the time to copy it
//! (on file systems with reflinks `std::fs::copy` shares the blocks instead).

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::reopen::OWN_RELEASE_WAIT;

/// A copy of a store folder's files taken before an open.
#[derive(Debug)]
pub(crate) struct Backup {
    copy: tempfile::TempDir,
    /// Every regular file and folder of the store, relative to it, in walk order (a folder
    /// before what it holds).
    entries: Vec<(PathBuf, Kind)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
}

/// What a failed open's restore did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Restored {
    /// Every file is as it was before the open (`rewritten`: how many had to be put back,
    /// removed or recreated).
    AsFound { rewritten: usize },
    /// The store was not restored: its lock was held by someone else after the failed open
    /// (another process opened it meanwhile).
    NotLocked,
}

impl Backup {
    /// Copies the files of `store` (recursively; links and other special files are left
    /// alone). `None` when the folder holds no file yet (a new store: nothing to protect).
    pub(crate) fn take(store: &Path) -> io::Result<Option<Backup>> {
        let mut entries = Vec::new();
        walk(store, Path::new(""), &mut entries)?;
        if !entries.iter().any(|(_, k)| *k == Kind::File) {
            return Ok(None);
        }
        let copy = tempfile::Builder::new().prefix("carc-open-").tempdir()?;
        for (rel, kind) in &entries {
            let to = copy.path().join(rel);
            match kind {
                Kind::Folder => fs::create_dir_all(&to)?,
                Kind::File => {
                    fs::copy(store.join(rel), &to)?;
                }
            }
        }
        Ok(Some(Backup { copy, entries }))
    }

    /// Puts `store` back as it was when the backup was taken. Waits (at most
    /// [`OWN_RELEASE_WAIT`]) for this process's sled threads to let go of the store's lock,
    /// then holds the lock while it restores; if someone else holds it, restores nothing.
    pub(crate) fn restore(&self, store: &Path) -> io::Result<Restored> {
        let _lock = match lock_store(store)? {
            Some(lock) => lock,
            None => return Ok(Restored::NotLocked),
        };
        let mut rewritten = 0;
        // What the open created: files and folders the backup does not have.
        let mut now = Vec::new();
        walk(store, Path::new(""), &mut now)?;
        for (rel, kind) in now.iter().rev() {
            if self.entries.iter().any(|(r, k)| r == rel && k == kind) {
                continue;
            }
            let path = store.join(rel);
            match kind {
                Kind::File => fs::remove_file(&path)?,
                Kind::Folder => {
                    if !self.entries.iter().any(|(r, _)| r == rel) {
                        fs::remove_dir_all(&path)?;
                    }
                }
            }
            rewritten += 1;
        }
        // What the open changed or removed.
        for (rel, kind) in &self.entries {
            let path = store.join(rel);
            let saved = self.copy.path().join(rel);
            match kind {
                Kind::Folder => {
                    if !path.is_dir() {
                        fs::create_dir_all(&path)?;
                        rewritten += 1;
                    }
                }
                Kind::File => {
                    if !same_bytes(&saved, &path)? {
                        // Truncates and writes in place: the file keeps its inode.
                        fs::copy(&saved, &path)?;
                        rewritten += 1;
                    }
                }
            }
        }
        if rewritten > 0 {
            // The restored bytes must survive a crash as the damaged ones did.
            if let Ok(db) = fs::File::open(store.join("db")) {
                db.sync_all()?;
            }
        }
        Ok(Restored::AsFound { rewritten })
    }
}

/// The regular files and folders under `root/rel`, relative to `root`.
fn walk(root: &Path, rel: &Path, out: &mut Vec<(PathBuf, Kind)>) -> io::Result<()> {
    let dir = root.join(rel);
    let mut found: Vec<_> = match fs::read_dir(&dir) {
        Ok(entries) => entries.collect::<io::Result<Vec<_>>>()?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    found.sort_by_key(|e| e.file_name());
    for entry in found {
        let ty = entry.file_type()?;
        let rel = rel.join(entry.file_name());
        if ty.is_dir() {
            out.push((rel.clone(), Kind::Folder));
            walk(root, &rel, out)?;
        } else if ty.is_file() {
            out.push((rel, Kind::File));
        }
    }
    Ok(())
}

/// Whether two files hold the same bytes (a missing `b` holds none).
fn same_bytes(a: &Path, b: &Path) -> io::Result<bool> {
    let (mut fa, mut fb) = match (fs::File::open(a), fs::File::open(b)) {
        (Ok(fa), Ok(fb)) => (fa, fb),
        (_, Err(e)) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    if fa.metadata()?.len() != fb.metadata()?.len() {
        return Ok(false);
    }
    let mut ba = vec![0u8; 1 << 16];
    let mut bb = vec![0u8; 1 << 16];
    loop {
        let n = read_full(&mut fa, &mut ba)?;
        let m = read_full(&mut fb, &mut bb)?;
        if n != m || ba[..n] != bb[..m] {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
    }
}

fn read_full(f: &mut fs::File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Takes sled's lock on `<store>/db` (the lock sled itself takes, with the same call), waiting
/// for this process's own sled threads to let go of it. `None` if it stays held. A store
/// without a `db` file has no lock to take: an empty guard.
fn lock_store(store: &Path) -> io::Result<Option<Option<fs::File>>> {
    use fs2::FileExt;
    // Read-only: a lock needs no write access, and a store on a read-only file system, which
    // an open cannot have changed, is compared and left alone.
    let db = match fs::File::open(store.join("db")) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Some(None)),
        Err(e) => return Err(e),
    };
    let deadline = Instant::now() + OWN_RELEASE_WAIT;
    let mut pause = Duration::from_millis(1);
    loop {
        match db.try_lock_exclusive() {
            Ok(()) => return Ok(Some(Some(db))),
            Err(_) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(10));
            }
            Err(_) => return Ok(None),
        }
    }
}
