//! What the export reads for one game: its log, where it came from, and what is written
//! about it (annotations and variations). The caller (the CLI) gathers these from files or the
//! store; this crate does no reading of its own.

use std::collections::BTreeMap;

use carc_events::annotation::Annotation;
use carc_events::variation::Variation;
use carc_events::{Log, Source};

/// Where a game comes from: the `games.source` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Played by `carc simulate` (the header's `source` says so, with the seed).
    Simulated,
    /// Read from a JCloisterZone saved game (`.jcz`).
    Jcz,
    /// Imported from a Board Game Arena replay (the header's `source` says so).
    Bga,
    /// Any other log: entered move by move, or written by another program.
    Recorded,
}

impl Origin {
    /// The column's value.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Simulated => "simulated",
            Origin::Jcz => "jcz",
            Origin::Bga => "bga",
            Origin::Recorded => "recorded",
        }
    }

    /// The origin a log's header states, for a game not read from a `.jcz` file.
    pub fn of_log(log: &Log) -> Origin {
        match log.header.source {
            Some(Source::Simulated { .. }) => Origin::Simulated,
            Some(Source::Bga { .. }) => Origin::Bga,
            None => Origin::Recorded,
        }
    }
}

/// One game to export.
#[derive(Clone, Debug)]
pub struct GameInput {
    /// The game's events (companion records, if any, are ignored: pass them below).
    pub log: Log,
    pub origin: Origin,
    /// The file it was read from, for the `games.file` column; `None` for a stored game.
    pub file: Option<String>,
    /// The annotations in force, by event.
    pub annotations: BTreeMap<u64, Annotation>,
    /// The variations in force, by name.
    pub variations: BTreeMap<String, Variation>,
    /// The move quality, when the caller judged the game (`carc export --format parquet
    /// --quality`); `None` leaves the quality columns null.
    pub quality: Option<GameQuality>,
}

/// A game's move quality as the tables show it, from whichever judge the caller ran (this
/// crate judges nothing: `carc-analysis` does, in the caller).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameQuality {
    /// Per seat: the accuracy over its judged turns, 0..=100 (`None`: no turn judged, or a
    /// judge that measures no chance to win).
    pub accuracy: Vec<Option<f64>>,
    /// The judged turns, by the seq of their placement event.
    pub moves: BTreeMap<u64, JudgedMove>,
}

/// One judged turn, on the row of its placement event.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedMove {
    /// `?!`, `?` or `??`; `None` when the move is not marked.
    pub mark: Option<&'static str>,
    /// The chance to win the move gave away, in percentage points (the engine judge).
    pub win_lost: Option<f64>,
    /// The points of expected final margin it gave away.
    pub margin_lost: f64,
}

impl GameInput {
    /// A game with no annotations or variations; the origin is what its header says.
    pub fn new(log: Log) -> GameInput {
        GameInput {
            origin: Origin::of_log(&log),
            log,
            file: None,
            annotations: BTreeMap::new(),
            variations: BTreeMap::new(),
            quality: None,
        }
    }
}
