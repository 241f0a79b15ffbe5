//! The carc store as the viewer's game library. The store is opened for each call and closed
//! right after, so that `carc` can use it while the viewer is open (sled lets one process at
//! a time hold a store); while record mode holds it open, its calls use that open store.

use std::path::PathBuf;
use std::rc::Rc;

use carc_archive::{
    append_annotation_record, append_record, game_ids, read_annotation_records, read_game,
    read_records, Companion,
};
use carc_store::Store;
use carc_viewer_ui::{GameLibrary, LibraryEntry, LibraryGame};

use crate::store_record::Held;

/// The store folder's environment variable, as for `carc`.
pub const STORE_ENV: &str = "CARC_STORE";

/// A store folder.
pub struct StoreLibrary {
    dir: PathBuf,
    /// The store a record session holds open, if one does.
    held: Held,
}

impl StoreLibrary {
    /// A library with no record session beside it (the tests').
    #[cfg(test)]
    pub fn new(dir: PathBuf) -> StoreLibrary {
        StoreLibrary::with_held(dir, Held::default())
    }

    /// A library that uses the store `held` holds while it holds one (record mode).
    pub fn with_held(dir: PathBuf, held: Held) -> StoreLibrary {
        StoreLibrary { dir, held }
    }

    /// `--store DIR` if given, else `$CARC_STORE`, else `./carc-store`: the same as `carc`.
    pub fn default_dir(flag: Option<PathBuf>) -> PathBuf {
        flag.or_else(|| std::env::var_os(STORE_ENV).map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("carc-store"))
    }

    /// Opens the store without creating it: looking at games never makes an empty store.
    fn open(&self) -> Result<Rc<Store>, String> {
        if let Some(store) = self.held.borrow().as_ref() {
            return Ok(store.clone());
        }
        if !self.dir.is_dir() {
            return Err(format!(
                "no store at {}: import games with `carc import FILE...` first (or start the viewer with --store DIR)",
                self.dir.display()
            ));
        }
        Store::open(&self.dir)
            .map(Rc::new)
            .map_err(|e| e.to_string())
    }
}

impl GameLibrary for StoreLibrary {
    fn location(&self) -> String {
        format!("store {}", self.dir.display())
    }

    fn list(&self) -> Result<Vec<LibraryEntry>, String> {
        let store = self.open()?;
        let ids = game_ids(&store).map_err(|e| e.to_string())?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            // A game that cannot be read is listed with the reason rather than left out.
            let entry =
                match read_game(&store, &id).map(|g| g.map(|g| (g.effective_bytes(), g.sealed))) {
                    Ok(Some((Ok(bytes), sealed))) => LibraryEntry::summarize(&id, sealed, &bytes),
                    Ok(None) => continue,
                    Ok(Some((Err(e), sealed))) => unreadable(&id, sealed, e.to_string()),
                    Err(e) => unreadable(&id, false, e.to_string()),
                };
            out.push(entry);
        }
        Ok(out)
    }

    fn load(&self, game: &str) -> Result<LibraryGame, String> {
        let store = self.open()?;
        let stored = read_game(&store, game)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("{} holds no game {game}", self.location()))?;
        let log = stored.effective_bytes().map_err(|e| e.to_string())?;
        let annotations = read_annotation_records(&store, game).map_err(|e| e.to_string())?;
        let variations =
            read_records(&store, Companion::Variations, game).map_err(|e| e.to_string())?;
        Ok(LibraryGame {
            log,
            annotations,
            variations,
        })
    }

    fn append_annotation(&self, game: &str, record: &[u8]) -> Result<(), String> {
        let store = self.open()?;
        append_annotation_record(&store, game, record)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn append_variation(&self, game: &str, record: &[u8]) -> Result<(), String> {
        let store = self.open()?;
        append_record(&store, Companion::Variations, game, record)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

fn unreadable(id: &str, sealed: bool, problem: String) -> LibraryEntry {
    LibraryEntry {
        game: id.to_string(),
        players: Vec::new(),
        events: 0,
        finished: false,
        sealed,
        scores: Vec::new(),
        problem: Some(problem),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_archive::{event_id, split_lines};
    use carc_store::{ExpectedVersion, NewEvent};
    use std::path::Path;

    fn sample() -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../logs/short-game-rulings.jsonl"),
        )
        .unwrap()
    }

    /// Runs a library call again while the store is still locked by the handle a test has just
    /// dropped: sled lets go of its lock only when its background flusher thread has dropped the
    /// database too, a moment later on a loaded machine.
    fn unlocked<T>(mut call: impl FnMut() -> Result<T, String>) -> Result<T, String> {
        for _ in 0..200 {
            match call() {
                Err(e) if e.contains("in use by another process") => {
                    std::thread::sleep(std::time::Duration::from_millis(25))
                }
                other => return other,
            }
        }
        call()
    }

    /// Stores a log the way `carc import` does: one store event per line.
    fn import(dir: &Path, game: &str, bytes: &[u8]) {
        let store = Store::open(dir).unwrap();
        let events: Vec<NewEvent> = split_lines(bytes)
            .iter()
            .enumerate()
            .map(|(i, l)| NewEvent::new(event_id(game, i as u64 + 1), l.to_vec()))
            .collect();
        store
            .append(game, ExpectedVersion::NoStream, &events)
            .unwrap();
    }

    #[test]
    fn lists_loads_and_annotates_a_stored_game() {
        // Given a store holding the sample game
        let dir = tempfile::tempdir().unwrap();
        import(dir.path(), "short-game-rulings", &sample());
        let library = StoreLibrary::new(dir.path().to_path_buf());
        // When the games are listed
        let list = unlocked(|| library.list()).unwrap();
        // Then the one game is there, finished 20-11
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].game, "short-game-rulings");
        assert_eq!(list[0].scores, [20, 11]);
        assert!(list[0].finished);
        // And loading it gives the imported bytes back and no annotations yet
        let game = unlocked(|| library.load("short-game-rulings")).unwrap();
        assert_eq!(game.log, sample());
        assert!(game.annotations.is_empty());
        // When an annotation is appended
        let record = br#"{"game":"short-game-rulings","seq":3,"glyph":"!","text":"nice"}"#;
        unlocked(|| library.append_annotation("short-game-rulings", record)).unwrap();
        // Then it is read back beside the game, the game's log is unchanged, and the list
        // still shows one game
        let game = unlocked(|| library.load("short-game-rulings")).unwrap();
        assert_eq!(game.annotations, vec![record.to_vec()]);
        assert_eq!(game.log, sample());
        assert_eq!(unlocked(|| library.list()).unwrap().len(), 1);
    }

    #[test]
    fn a_missing_store_or_game_is_a_clear_message() {
        let dir = tempfile::tempdir().unwrap();
        let missing = StoreLibrary::new(dir.path().join("nope"));
        let e = missing.list().unwrap_err();
        assert!(
            e.contains("no store at") && e.contains("carc import"),
            "{e}"
        );
        assert!(
            !dir.path().join("nope").exists(),
            "listing never creates a store"
        );
        import(dir.path(), "g", &sample());
        let library = StoreLibrary::new(dir.path().to_path_buf());
        let e = unlocked(|| library.load("other")).unwrap_err();
        assert!(e.contains("holds no game other"), "{e}");
    }
}
