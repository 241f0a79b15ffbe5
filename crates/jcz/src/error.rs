//! What can go wrong reading or writing a JCloisterZone saved game. Every error names where:
//! a JSON path (`setup.start[0].rotation`), a replay entry (`replay[7]`) or an event seq.

use thiserror::Error;

/// Why a `.jcz` file cannot be read, or a log cannot be written as one.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum JczError {
    /// The text is not JSON at all.
    #[error("not a JSON document (line {line}, column {column}): {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    /// A value has the wrong type or an impossible value.
    #[error("{path}: expected {expected}, found {found}")]
    Field {
        /// JSON path, e.g. `replay[3].payload.rotation`.
        path: String,
        expected: String,
        found: String,
    },
    /// The game uses things carc does not implement (other tile sets, expansions' figures,
    /// rule options, move types). All of them are listed, so one run tells the whole story.
    #[error(
        "the game uses what carc does not implement (base game only), so it is not replayed: {}",
        .0.join("; ")
    )]
    Unsupported(Vec<String>),
    /// A replay entry cannot be turned into a legal move: out of order, a location the tile
    /// does not have, or a move the rules refuse.
    #[error("replay[{index}] ({kind}): {message}")]
    Replay {
        index: usize,
        kind: String,
        message: String,
    },
    /// Writing: the log cannot be expressed as a JCloisterZone game (or is not legal).
    #[error("cannot write as a JCloisterZone game: {0}")]
    Export(String),
}
