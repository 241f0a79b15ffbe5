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
        }
    }
}
