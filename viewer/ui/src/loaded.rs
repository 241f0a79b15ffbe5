//! Opening a log: decode as much as is valid, fold it, and say clearly where and why it stops.

use std::path::{Path, PathBuf};

use carc_events::{read_log_prefix, DecodeError};
use carc_replay::{fold, ReplayError, Timeline};

use carc_events::annotation::Annotation;
use carc_events::variation::{variations_path, VariationRecord};

use crate::annotations::{annotations_path, AnnotationStore};
use crate::library::LibraryGame;
use crate::model::Nav;
use crate::variations::VariationSet;

/// Where an open game came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSource {
    File(PathBuf),
    /// A game of a [`crate::library::GameLibrary`]: its location in words and the game id.
    Library {
        location: String,
        game: String,
    },
    /// Puzzle `number` (from 1) of a puzzles file: its game up to the position, in memory.
    Puzzle {
        file: PathBuf,
        number: usize,
    },
}

impl std::fmt::Display for GameSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameSource::File(path) => write!(f, "{}", path.display()),
            GameSource::Library { location, game } => write!(f, "game {game} in {location}"),
            GameSource::Puzzle { file, number } => {
                write!(f, "puzzle {number} of {}", file.display())
            }
        }
    }
}

/// An open game.
pub struct LoadedGame {
    pub source: GameSource,
    pub timeline: Timeline,
    /// The first line that could not be decoded, if any (the timeline holds what came before).
    pub decode_error: Option<DecodeError>,
    pub nav: Nav,
    pub annotations: AnnotationStore,
    pub variations: VariationSet,
}

impl LoadedGame {
    /// Reads and folds a log, or a game of another program's format (a JCloisterZone saved game
    /// or a Board Game Arena replay, converted). `Err` only when nothing can be shown: the
    /// file cannot be read, its header (line 1) is not a header, or the other program's game
    /// cannot be converted (the message lists why). A bad line or an illegal event later on
    /// gives a game that ends there, with [`LoadedGame::problem`] saying so.
    pub fn open(path: &Path) -> Result<LoadedGame, String> {
        let bytes = carc_formats::read_game_bytes(path).map_err(|e| e.to_string())?;
        let prefix = carc_formats::read_game_prefix(path, &bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // A bundle's own annotation and variation lines come before those of the files
        // beside it; the game is folded without them.
        let bundled: Vec<Annotation> = prefix
            .log
            .annotations
            .iter()
            .map(|(_, a)| a.clone())
            .collect();
        let bundled_variations: Vec<VariationRecord> = prefix
            .log
            .variations
            .iter()
            .map(|(_, v)| v.clone())
            .collect();
        let timeline = fold(prefix.log.without_companions(), &[]);
        let nav = Nav::from_timeline(&timeline);
        let game = timeline.log.header.game.clone();
        let variations = VariationSet::load(
            variations_path(path),
            &game,
            timeline.log.header.players.len(),
            &bundled_variations,
        );
        let apath = annotations_path(path);
        let annotations = match AnnotationStore::load_after(apath.clone(), &game, &bundled) {
            Ok(store) => store,
            Err(e) => {
                let mut store = AnnotationStore::empty(apath, &game);
                store
                    .warnings
                    .push(format!("cannot read {}: {e}", store.location()));
                store
            }
        };
        Ok(LoadedGame {
            source: GameSource::File(path.to_path_buf()),
            timeline,
            decode_error: prefix.error,
            nav,
            annotations,
            variations,
        })
    }

    /// Folds a game of a library, like [`LoadedGame::open`] does a file.
    pub fn from_library(
        location: &str,
        id: &str,
        stored: &LibraryGame,
    ) -> Result<LoadedGame, String> {
        let source = GameSource::Library {
            location: location.to_string(),
            game: id.to_string(),
        };
        let prefix = read_log_prefix(&stored.log).map_err(|e| format!("{source}: {e}"))?;
        let timeline = fold(prefix.log, &[]);
        let nav = Nav::from_timeline(&timeline);
        let annotations =
            AnnotationStore::from_records(location, &timeline.log.header.game, &stored.annotations);
        let variations = VariationSet::from_records(
            location,
            &timeline.log.header.game,
            timeline.log.header.players.len(),
            &stored.variations,
        );
        Ok(LoadedGame {
            source,
            timeline,
            decode_error: prefix.error,
            nav,
            annotations,
            variations,
        })
    }

    /// A game being recorded (see [`crate::record`]): its timeline as folded after the last
    /// move, with no annotations or variations yet.
    pub fn recorded(location: &str, timeline: Timeline) -> LoadedGame {
        let game = timeline.log.header.game.clone();
        let players = timeline.log.header.players.len();
        LoadedGame {
            source: GameSource::Library {
                location: location.to_string(),
                game: game.clone(),
            },
            nav: Nav::from_timeline(&timeline),
            annotations: AnnotationStore::from_records(location, &game, &[]),
            variations: VariationSet::from_records(location, &game, players, &[]),
            decode_error: None,
            timeline,
        }
    }

    /// A puzzle's game up to its position (`carc puzzles`): tries are kept in memory only.
    pub fn from_puzzle(file: &Path, number: usize, log: carc_events::Log) -> LoadedGame {
        let source = GameSource::Puzzle {
            file: file.to_path_buf(),
            number,
        };
        let timeline = fold(log, &[]);
        let nav = Nav::from_timeline(&timeline);
        let game = timeline.log.header.game.clone();
        let annotations = AnnotationStore::from_records(&source.to_string(), &game, &[]);
        let variations = VariationSet::in_memory(
            &source.to_string(),
            &game,
            timeline.log.header.players.len(),
        );
        LoadedGame {
            source,
            timeline,
            decode_error: None,
            nav,
            annotations,
            variations,
        }
    }

    /// Why the replay stops before the end of the file, naming the line and the rule; `None`
    /// for a log that replays completely.
    pub fn problem(&self) -> Option<String> {
        let last = self.timeline.steps.len();
        let upto = if last == 0 {
            "no event can be shown".to_string()
        } else {
            format!("you can step up to event {last}, the last legal one")
        };
        if let Some(e) = &self.timeline.error {
            let what = match e {
                ReplayError::Setup(_) => format!(
                    "{}: the header does not describe a playable game [{}]: {}",
                    self.source,
                    e.rule(),
                    e.message()
                ),
                ReplayError::Rule { .. } => format!(
                    "{}: line {}: event {} is illegal [{}]: {}",
                    self.source,
                    e.line(),
                    e.seq().unwrap_or(0),
                    e.rule(),
                    e.message()
                ),
            };
            return Some(format!("{what}; {upto}"));
        }
        self.decode_error.as_ref().map(|e| {
            format!(
                "{}: line {}: cannot be read [log.format]: {}; {upto}",
                self.source, e.line, e.kind
            )
        })
    }

    /// Player name of a seat as shown (`describe::visible`), or `seat N` for a seat the
    /// header does not list.
    pub fn seat_name(&self, seat: u8) -> String {
        self.timeline
            .log
            .header
            .players
            .get(seat as usize)
            .map_or_else(
                || format!("seat {seat}"),
                |p| carc_replay::describe::visible(&p.name).into_owned(),
            )
    }

    pub fn players(&self) -> usize {
        self.timeline.log.header.players.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../logs")
            .join(name)
    }

    /// Runs `f` on a thread and waits at most ten seconds for it: a read that blocks (on a
    /// FIFO) fails the test instead of hanging it.
    fn within_ten_seconds<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(10))
            .expect("the viewer blocked reading a file")
    }

    #[cfg(unix)]
    fn fifo(path: &Path) {
        let made = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(made.success());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_is_refused_as_the_cli_refuses_it_without_blocking() {
        // Given a FIFO named as a log, and /dev/zero
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("game.jsonl");
        fifo(&pipe);
        // When the viewer opens them, as a game, as puzzles, and through the app's open
        let (as_game, as_puzzles, zero) = within_ten_seconds({
            let pipe = pipe.clone();
            move || {
                (
                    LoadedGame::open(&pipe).err(),
                    crate::puzzles::read_puzzles(&pipe).err(),
                    crate::puzzles::read_puzzles(Path::new("/dev/zero")).err(),
                )
            }
        });
        // Then each is refused with the CLI's words, naming the file
        let as_game = as_game.expect("a FIFO is no game");
        assert!(
            as_game.contains("game.jsonl: it is a pipe (FIFO), not a regular file"),
            "{as_game}"
        );
        let as_puzzles = as_puzzles.expect("a FIFO is no puzzles file");
        assert!(as_puzzles.contains("it is a pipe (FIFO)"), "{as_puzzles}");
        let zero = zero.expect("/dev/zero is no puzzles file");
        assert!(zero.contains("/dev/zero: it is a device"), "{zero}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_beside_a_log_as_its_annotations_or_variations_is_a_warning_not_a_hang() {
        // Given a sample log whose side files are FIFOs
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("g.jsonl");
        std::fs::copy(sample("short-game-rulings.jsonl"), &log).unwrap();
        fifo(&annotations_path(&log));
        fifo(&variations_path(&log));
        // When it is opened
        let g = within_ten_seconds(move || LoadedGame::open(&log).unwrap());
        // Then the game opens, and both side files are named as unreadable
        assert_eq!(g.timeline.steps.len(), 34);
        let said = format!("{:?} {:?}", g.annotations.warnings, g.variations.warnings);
        assert!(
            said.contains("g.jsonl.annotations.jsonl: it is a pipe"),
            "{said}"
        );
        assert!(
            said.contains("g.jsonl.variations.jsonl: it is a pipe"),
            "{said}"
        );
    }

    #[test]
    fn a_good_log_replays_completely() {
        let g = LoadedGame::open(&sample("short-game-rulings.jsonl")).unwrap();
        assert_eq!(g.timeline.steps.len(), 34);
        assert_eq!(g.nav.len(), 34);
        assert!(g.problem().is_none());
        assert_eq!(g.seat_name(1), "Brandt");
        assert_eq!(g.seat_name(7), "seat 7");
    }

    #[test]
    fn an_illegal_event_names_line_and_rule_and_keeps_the_prefix() {
        let text = std::fs::read_to_string(sample("short-game-rulings.jsonl")).unwrap();
        // Event 9 puts B at (0,-1); move it onto the start tile's square instead.
        let bad = text.replace(
            "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,-1]",
            "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,0]",
        );
        assert_ne!(bad, text);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.jsonl");
        std::fs::write(&path, bad).unwrap();
        let g = LoadedGame::open(&path).unwrap();
        assert_eq!(g.nav.len(), 8);
        let p = g.problem().unwrap();
        assert!(p.contains("line 10"), "{p}");
        assert!(p.contains("event 9"), "{p}");
        assert!(p.contains("base.tile.empty-square"), "{p}");
        assert!(p.contains("up to event 8"), "{p}");
    }

    #[test]
    fn an_undecodable_line_names_the_line() {
        let text = std::fs::read_to_string(sample("short-game-rulings.jsonl")).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines[5] = "{\"seq\":5,\"type\":\"tile_drawn\""; // line 6, cut short
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cut.jsonl");
        std::fs::write(&path, lines.join("\n")).unwrap();
        let g = LoadedGame::open(&path).unwrap();
        assert_eq!(g.nav.len(), 4);
        let p = g.problem().unwrap();
        assert!(p.contains("line 6"), "{p}");
        assert!(p.contains("up to event 4"), "{p}");
    }

    #[test]
    fn a_jcloisterzone_game_opens_converted_and_an_unsupported_one_says_why() {
        // Given a JCloisterZone saved game of the conformance corpus
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/jcz");
        let path = corpus.join("city-and-road-scoring.jcz");
        let bytes = std::fs::read(&path).expect("the JCloisterZone corpus beside the project");
        // When it is opened
        let g = LoadedGame::open(&path).unwrap();
        // Then it replays completely, named after its file
        assert!(g.problem().is_none(), "{:?}", g.problem());
        assert!(g.nav.len() > 10);
        assert_eq!(g.timeline.log.header.game, "city-and-road-scoring");
        // And one that uses an expansion JCloisterZone's mapping lacks is refused with the reason
        let text = String::from_utf8(bytes)
            .unwrap()
            .replace("\"basic:1\"", "\"tower:1\"");
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other.jcz");
        std::fs::write(&other, text).unwrap();
        let e = LoadedGame::open(&other).err().unwrap();
        assert!(e.contains("JCloisterZone") && e.contains("tower:1"), "{e}");
    }

    #[test]
    fn a_board_game_arena_replay_opens_converted_with_its_scores_checked() {
        // Given a Board Game Arena replay of the corpus, under a name that says nothing
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bga");
        let bytes = std::fs::read(corpus.join("366166200.json"))
            .expect("the Board Game Arena corpus beside the project");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("downloaded");
        std::fs::write(&path, &bytes).unwrap();
        // When it is opened
        let g = LoadedGame::open(&path).unwrap();
        // Then it is told apart by its content and replays to BGA's final scores
        assert!(g.problem().is_none(), "{:?}", g.problem());
        assert_eq!(g.timeline.log.header.game, "bga-366166200");
        assert!(g.timeline.finished);
        assert_eq!(g.timeline.final_scores(), vec![96, 70]);
        assert!(carc_replay::check_assertions(&g.timeline).is_empty());
        // And a cut one is still told apart and says where its JSON breaks
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        let e = LoadedGame::open(&path).err().unwrap();
        assert!(e.contains("Board Game Arena replay"), "{e}");
        assert!(e.contains("(line ") && e.contains(", column "), "{e}");
    }

    #[test]
    fn a_missing_file_or_bad_header_is_an_error() {
        let e = LoadedGame::open(Path::new("/nonexistent/x.jsonl"))
            .err()
            .unwrap();
        assert!(e.contains("cannot read"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.jsonl");
        std::fs::write(&path, "hello\n").unwrap();
        let e = LoadedGame::open(&path).err().unwrap();
        assert!(e.contains("line 1"), "{e}");
    }
}
