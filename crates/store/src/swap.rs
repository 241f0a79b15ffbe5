//! Putting a rebuilt store in the place of another, so that no kill leaves the path without a
//! store that the next open does not find again (issue 33).
//!
//! A folder cannot be swapped with another in one portable step: it takes two renames (the old
//! store aside, the new one into its place), and a kill between them leaves nothing at the
//! path; the next open would create an empty store there. So [`replace_with`] first writes a
//! **swap note**, `<store>.swap`, naming the rebuilt store and where the old one goes, synced
//! before the first rename, and removes it after the second. An open that finds a note
//! ([`finish_interrupted`], run by [`crate::Store::open`] before anything else) finishes the
//! swap: with no store at the path and the rebuilt one still beside it, it moves the rebuilt
//! one in. The process doing the swap holds a lock on the note meanwhile, so an open running
//! at the same moment waits for it (two renames) instead of finishing it twice.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fs2::FileExt;

use crate::StoreError;

/// How long an open waits for a swap that another process is doing (it is two renames).
const SWAP_WAIT: Duration = Duration::from_secs(2);

/// The longest swap note read: two paths and their newlines.
const MAX_NOTE_BYTES: u64 = 64 * 1024;

/// `<store><suffix>`, a sibling of the store folder.
pub fn sibling(store: &Path, suffix: &str) -> PathBuf {
    let mut name = store.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The swap note of `store`: `<store>.swap`.
pub fn note_path(store: &Path) -> PathBuf {
    sibling(store, ".swap")
}

/// What [`finish_interrupted`] found and did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Interrupted {
    /// A swap was killed between its renames: the rebuilt store was moved to the path now.
    Finished {
        /// Where the rebuilt store was (moved to the store's path).
        rebuilt: PathBuf,
        /// Where the old store went.
        old: PathBuf,
    },
    /// A swap was killed before its first rename: the old store is still at the path, and the
    /// rebuilt one beside it was left as it is.
    NotStarted {
        /// The rebuilt store, left beside the old one.
        rebuilt: PathBuf,
    },
    /// A swap was killed after its second rename (only its note was left, now removed), or
    /// there is no rebuilt store to move in.
    AlreadyDone,
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Syncs the folder holding `path`, so that a rename or a new file in it survives a crash.
fn sync_parent(path: &Path) -> Result<(), StoreError> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    fs::File::open(parent)
        .and_then(|d| d.sync_all())
        .map_err(io_err(parent))
}

/// Moves the store at `store` to `aside` and the store at `rebuilt` to `store`, through a
/// swap note (see the module), so that a kill at any moment leaves either the old store at
/// the path, or a note with which the next open finishes the swap. Both stores must be closed.
pub fn replace_with(store: &Path, rebuilt: &Path, aside: &Path) -> Result<(), StoreError> {
    replace_with_pause(store, rebuilt, aside, || Ok(()))
}

/// [`replace_with`], running `between` between the two renames (the tests stop there, as a
/// kill would).
fn replace_with_pause(
    store: &Path,
    rebuilt: &Path,
    aside: &Path,
    between: impl FnOnce() -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let note = note_path(store);
    // Created anew, never written through whatever is at the path (a planted link).
    match fs::remove_file(&note) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io_err(&note)(e)),
        _ => {}
    }
    let mut file = crate::safe_file::create_new(&note).map_err(io_err(&note))?;
    file.lock_exclusive().map_err(io_err(&note))?;
    let text = format!("{}\n{}\n", rebuilt.display(), aside.display());
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io_err(&note))?;
    sync_parent(&note)?;
    fs::rename(store, aside).map_err(io_err(store))?;
    between()?;
    fs::rename(rebuilt, store).map_err(io_err(rebuilt))?;
    sync_parent(store)?;
    fs::remove_file(&note).map_err(io_err(&note))?;
    sync_parent(&note)?;
    // The lock goes with the file.
    drop(file);
    Ok(())
}

/// Finishes a swap of [`replace_with`] that was killed midway (see the module). `None` when
/// there is no swap note. Waits, a bounded time, for a swap that a live process is doing.
pub fn finish_interrupted(store: &Path) -> Result<Option<Interrupted>, StoreError> {
    let note = note_path(store);
    // Read only if it is a regular file: a FIFO would block every open, a link to /dev/zero
    // would be read until memory runs out.
    let file = match crate::safe_file::open_read(&note) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // No note, no store, and a rebuilt one beside the path: a swap of a release that
            // wrote no note was killed between its renames (or the store was moved away while
            // a rebuild was left). Whether the rebuilt store is whole is not known: refuse,
            // rather than create an empty store at the path.
            let rebuilt = sibling(store, ".rebuild");
            if !store.exists() && rebuilt.is_dir() {
                return Err(StoreError::Unfinished {
                    path: store.to_path_buf(),
                    rebuilt,
                });
            }
            return Ok(None);
        }
        // A path below a file has no note either (the open reports the file).
        Err(e) if e.kind() == io::ErrorKind::NotADirectory => return Ok(None),
        Err(e) => return Err(io_err(&note)(e)),
    };
    let deadline = Instant::now() + SWAP_WAIT;
    while file.try_lock_exclusive().is_err() {
        if Instant::now() >= deadline {
            return Err(io_err(&note)(io::Error::new(
                io::ErrorKind::WouldBlock,
                "a rebuild is putting its store in place; try again in a moment",
            )));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // The swap that held the lock may have finished and removed its note meanwhile.
    if !note.exists() {
        return Ok(None);
    }
    let mut text = String::new();
    (&file)
        .take(MAX_NOTE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io_err(&note))?;
    if text.len() as u64 > MAX_NOTE_BYTES {
        return Err(io_err(&note)(io::Error::new(
            io::ErrorKind::InvalidData,
            "is larger than any swap note (two paths); remove it if no rebuild is running",
        )));
    }
    let mut lines = text.lines();
    let rebuilt = lines
        .next()
        .map_or_else(|| sibling(store, ".rebuild"), PathBuf::from);
    let old = lines
        .next()
        .map_or_else(|| sibling(store, ".old-<n>"), PathBuf::from);
    let found = match (store.exists(), rebuilt.is_dir()) {
        // Killed between the renames (the note is synced before them).
        (false, true) => {
            fs::rename(&rebuilt, store).map_err(io_err(&rebuilt))?;
            sync_parent(store)?;
            Interrupted::Finished { rebuilt, old }
        }
        (true, true) => Interrupted::NotStarted { rebuilt },
        _ => Interrupted::AlreadyDone,
    };
    fs::remove_file(&note).map_err(io_err(&note))?;
    sync_parent(&note)?;
    Ok(Some(found))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ExpectedVersion, NewEvent, Store};

    fn store_with(dir: &Path, stream: &str) {
        let s = Store::open(dir).unwrap();
        s.append(
            stream,
            ExpectedVersion::NoStream,
            &[NewEvent::new(format!("{stream}#1"), b"x".to_vec())],
        )
        .unwrap();
    }

    #[test]
    fn a_swap_killed_between_its_renames_is_finished_by_the_next_open() {
        // Given an old store and a rebuilt one beside it
        let tmp = tempfile::tempdir().unwrap();
        let (store, rebuilt, aside) = (
            tmp.path().join("s"),
            tmp.path().join("s.rebuild"),
            tmp.path().join("s.old-1"),
        );
        store_with(&store, "old");
        store_with(&rebuilt, "new");

        // When the swap stops between its renames, as a kill would stop it
        let killed = replace_with_pause(&store, &rebuilt, &aside, || {
            Err(StoreError::Io {
                path: store.clone(),
                source: io::Error::other("killed"),
            })
        });
        assert!(killed.is_err());
        assert!(!store.exists() && note_path(&store).exists());

        // Then the next open finishes it: the rebuilt store, not an empty one, is at the path
        let s = Store::open(&store).unwrap();
        assert_eq!(s.streams().unwrap(), vec!["new".to_string()]);
        assert!(!note_path(&store).exists() && !rebuilt.exists());
        drop(s);
        assert_eq!(
            Store::open(&aside).unwrap().streams().unwrap(),
            vec!["old".to_string()]
        );
    }

    #[test]
    fn a_whole_swap_leaves_no_note_and_a_note_alone_is_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let (store, rebuilt, aside) = (
            tmp.path().join("s"),
            tmp.path().join("s.rebuild"),
            tmp.path().join("s.old-1"),
        );
        store_with(&store, "old");
        store_with(&rebuilt, "new");
        replace_with(&store, &rebuilt, &aside).unwrap();
        assert!(!note_path(&store).exists());
        assert_eq!(finish_interrupted(&store).unwrap(), None);
        // A note left by a kill after the second rename
        fs::write(note_path(&store), "x\ny\n").unwrap();
        assert_eq!(
            finish_interrupted(&store).unwrap(),
            Some(Interrupted::AlreadyDone)
        );
        assert!(!note_path(&store).exists());
    }

    #[test]
    fn no_store_with_a_rebuilt_one_beside_it_and_no_note_is_refused_not_created_empty() {
        let tmp = tempfile::tempdir().unwrap();
        let (store, rebuilt) = (tmp.path().join("s"), tmp.path().join("s.rebuild"));
        store_with(&rebuilt, "new");
        let e = Store::open(&store).unwrap_err();
        assert!(matches!(e, StoreError::Unfinished { .. }), "{e}");
        assert!(!store.exists());
    }
}
