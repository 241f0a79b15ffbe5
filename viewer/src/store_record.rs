//! Record mode over the carc store: the store is opened when a game is started or continued
//! and kept open for the whole session (one append per move, no reopening), and the game list
//! and annotations go through that same open store meanwhile ([`Held`]): sled lets one
//! process at a time hold a store, so `carc` waits until recording stops.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use carc_archive::{event_id, read_game, retraction_payload};
use carc_store::{AppendOptions, ExpectedVersion, NewEvent, Store};
use carc_viewer_ui::record::{RecordSink, Recorder};

/// The store held open by a record session, shared with the game library.
pub type Held = Rc<RefCell<Option<Rc<Store>>>>;

/// Who holds the store while the viewer records, for other `carc` processes to name.
pub const HOLDER: &str = "carc-viewer (record mode)";

/// Records games into the store folder `dir`.
pub struct StoreRecorder {
    dir: PathBuf,
    held: Held,
}

impl StoreRecorder {
    pub fn new(dir: PathBuf, held: Held) -> StoreRecorder {
        StoreRecorder { dir, held }
    }

    fn location(&self) -> String {
        format!("store {}", self.dir.display())
    }

    /// The store: the one a session holds, else opened (created for a first game) and held.
    fn open(&self) -> Result<Rc<Store>, String> {
        if let Some(store) = self.held.borrow().as_ref() {
            return Ok(store.clone());
        }
        // The one place record mode opens the store; while it is held, another `carc` is told
        // who holds it (the store's holder note).
        let store = Store::open_as(&self.dir, HOLDER)
            .map_err(|e| format!("cannot record into {}: {e}", self.location()))?;
        let store = Rc::new(store);
        *self.held.borrow_mut() = Some(store.clone());
        Ok(store)
    }

    fn sink(&self, store: Rc<Store>, game: &str, version: u64) -> Box<dyn RecordSink> {
        Box::new(StoreSink {
            store,
            held: self.held.clone(),
            location: self.location(),
            game: game.to_string(),
            version,
        })
    }
}

impl Recorder for StoreRecorder {
    fn start(&mut self, game: &str, lines: &[String]) -> Result<Box<dyn RecordSink>, String> {
        let store = self.open()?;
        let err = |e: carc_store::StoreError| format!("{}: game {game}: {e}", self.location());
        if store.version(game).map_err(err)?.is_some() {
            return Err(format!(
                "game {game:?} already exists in {}; pick another id, or continue it from Games",
                self.location()
            ));
        }
        let batch: Vec<NewEvent> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| NewEvent::new(event_id(game, i as u64 + 1), l.as_bytes().to_vec()))
            .collect();
        store
            .append(game, ExpectedVersion::NoStream, &batch)
            .map_err(err)?;
        Ok(self.sink(store, game, lines.len() as u64))
    }

    fn resume(&mut self, game: &str) -> Result<Box<dyn RecordSink>, String> {
        let store = self.open()?;
        let sg = read_game(&store, game)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("{} holds no game {game}", self.location()))?;
        if sg.sealed {
            return Err(format!(
                "game {game} is over; no further moves (it is sealed)"
            ));
        }
        Ok(self.sink(store, game, sg.version()))
    }
}

/// One game's stream in the open store.
pub struct StoreSink {
    store: Rc<Store>,
    held: Held,
    location: String,
    game: String,
    /// The stream's version after the last append this session made.
    version: u64,
}

impl StoreSink {
    fn err(&self, e: impl std::fmt::Display) -> String {
        format!("{}: game {}: {e}", self.location, self.game)
    }
}

impl RecordSink for StoreSink {
    fn location(&self) -> String {
        self.location.clone()
    }

    fn append(&mut self, lines: &[String], seal: bool) -> Result<(), String> {
        let batch: Vec<NewEvent> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                NewEvent::new(
                    event_id(&self.game, self.version + 1 + i as u64),
                    l.as_bytes().to_vec(),
                )
            })
            .collect();
        // The version this session last saw: a store changed behind its back is a conflict,
        // not an interleaving. The move that ends the game seals it in the same append (as
        // `carc record` does).
        self.store
            .append_with(
                &self.game,
                ExpectedVersion::Exactly(self.version),
                &batch,
                AppendOptions {
                    seal,
                    ..AppendOptions::default()
                },
            )
            .map_err(|e| self.err(e))?;
        self.version += batch.len() as u64;
        Ok(())
    }

    fn take_back(&mut self, lines: usize) -> Result<(), String> {
        let sg = read_game(&self.store, &self.game)
            .map_err(|e| self.err(e))?
            .ok_or_else(|| self.err("gone from the store"))?;
        let effective = sg.effective_seqs();
        if lines >= effective.len() {
            return Err(self.err(format!("cannot take back {lines} lines")));
        }
        let version = sg.version();
        // All the retractions in one append, as `carc record undo --turn` makes them.
        let batch: Vec<NewEvent> = effective[effective.len() - lines..]
            .iter()
            .enumerate()
            .map(|(i, &seq)| {
                NewEvent::new(
                    event_id(&self.game, version + 1 + i as u64),
                    retraction_payload(seq),
                )
            })
            .collect();
        self.store
            .append(&self.game, ExpectedVersion::Exactly(version), &batch)
            .map_err(|e| self.err(e))?;
        self.version = version + batch.len() as u64;
        Ok(())
    }

    fn log(&self) -> Result<Vec<u8>, String> {
        let sg = read_game(&self.store, &self.game)
            .map_err(|e| self.err(e))?
            .ok_or_else(|| self.err("gone from the store"))?;
        sg.effective_bytes().map_err(|e| self.err(e))
    }
}

impl Drop for StoreSink {
    /// The store is let go of when no session holds it any more (a new session may already
    /// share it).
    fn drop(&mut self) {
        let mut held = self.held.borrow_mut();
        if held
            .as_ref()
            .is_some_and(|s| Rc::ptr_eq(s, &self.store) && Rc::strong_count(s) == 2)
        {
            *held = None;
        }
    }
}

// The record_move bench includes this file; its build strips the #[test] functions, which
// leaves this module's imports unused there.
#[cfg(test)]
#[allow(unused_imports)]
mod tests {
    use super::*;
    use carc_events::{read_log, Event};
    use carc_rules::{Action, Game};
    use carc_viewer_ui::record::NewGame;
    use carc_viewer_ui::{trial, ViewerApp};
    use std::path::Path;

    fn sample() -> Vec<Event> {
        let bytes = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../logs/sim-3p-abbot-mixed.jsonl"),
        )
        .unwrap();
        read_log(&bytes[..])
            .unwrap()
            .events
            .into_iter()
            .map(|(_, e)| e.event)
            .collect()
    }

    fn action_for(game: &Game, event: &Event) -> Action {
        trial::action_for(game, event).unwrap_or_else(|| panic!("{event:?} not offered"))
    }

    /// Opens the store again once the dropped session's handle has let go of it (sled lets
    /// go when its flusher thread has dropped the database too, a moment later).
    fn reopen(dir: &Path) -> Store {
        for _ in 0..200 {
            match Store::open(dir) {
                Ok(s) => return s,
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(25)),
            }
        }
        Store::open(dir).unwrap()
    }

    fn stored_events(store: &Store, game: &str) -> Vec<Event> {
        let bytes = read_game(store, game)
            .unwrap()
            .unwrap()
            .effective_bytes()
            .unwrap();
        read_log(&bytes[..])
            .unwrap()
            .events
            .into_iter()
            .map(|(_, e)| e.event)
            .collect()
    }

    #[test]
    fn a_record_session_appends_one_event_per_move_and_a_dropped_one_leaves_the_last_move() {
        // Given a viewer recording a new abbot game into a real store, kept open
        let dir = tempfile::tempdir().unwrap();
        let held = Held::default();
        let mut app = ViewerApp::new();
        app.set_recorder(Box::new(StoreRecorder::new(
            dir.path().to_path_buf(),
            held.clone(),
        )));
        let form = NewGame {
            game: "table".into(),
            players: vec![
                ("Ada".into(), carc_events::Color::Red),
                ("Bo".into(), carc_events::Color::Blue),
                ("Cleo".into(), carc_events::Color::Green),
            ],
            abbot: true,
            ..NewGame::default()
        };
        app.start_recording(&form).unwrap();
        let store = held
            .borrow()
            .clone()
            .expect("the session holds the store open");
        assert_eq!(store.version("table").unwrap(), Some(2));
        // And anyone else opening the store meanwhile is told who holds it
        match Store::open(dir.path()) {
            Err(carc_store::StoreError::InUse { holder, .. }) => {
                let holder = holder.expect("the holder named");
                assert!(
                    holder.starts_with("carc-viewer (record mode) (pid "),
                    "{holder}"
                );
            }
            other => panic!("expected the store in use, got {:?}", other.map(|_| ())),
        }
        // When the sample's first turns are recorded
        let moves = sample();
        for (n, e) in moves[1..13].iter().enumerate() {
            let action = action_for(app.state().unwrap(), e);
            app.record_action(action);
            // Then each move is one store event, in the store as soon as it is made
            assert_eq!(store.version("table").unwrap(), Some(3 + n as u64), "{e:?}");
        }
        assert_eq!(stored_events(&store, "table"), moves[..13]);
        // When the last turn is taken back: one append of its three retractions
        app.record_undo();
        assert_eq!(store.version("table").unwrap(), Some(14 + 3));
        assert_eq!(stored_events(&store, "table"), moves[..10]);
        // And a move is refused (a draw while the figure step waits): nothing is appended
        app.record_action(action_for(app.state().unwrap(), &moves[10]));
        app.record_action(action_for(app.state().unwrap(), &moves[11]));
        let before = store.version("table").unwrap();
        let tile = trial::tiles_in_bag(app.state().unwrap())[0].0;
        app.record_action(Action::Draw { tile });
        assert_eq!(store.version("table").unwrap(), before);
        assert!(app.status_text().unwrap().starts_with("not recorded"));
        // When the viewer goes away mid-game (the figure step of turn 4 not made)
        drop(store);
        drop(app);
        assert!(held.borrow().is_none(), "the store is let go of");
        // Then the store reopens at the last acknowledged move, and the game can be continued
        let store = reopen(dir.path());
        assert_eq!(stored_events(&store, "table"), moves[..12]);
        drop(store);
        let mut app = ViewerApp::new();
        app.set_recorder(Box::new(StoreRecorder::new(
            dir.path().to_path_buf(),
            held.clone(),
        )));
        let mut resumed = Err(String::new());
        for _ in 0..200 {
            resumed = app.continue_recording("table");
            if resumed.is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        resumed.unwrap();
        app.record_action(action_for(app.state().unwrap(), &moves[12]));
        let store = held.borrow().clone().unwrap();
        assert_eq!(stored_events(&store, "table"), moves[..13]);
    }
}
