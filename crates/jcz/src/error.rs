//! What can go wrong reading or writing a JCloisterZone saved game. Every error names where:
//! a JSON path (`setup.start[0].rotation`), a replay entry (`replay[7]`) or an event seq; a
//! file's errors also carry the line and column of the value ([`JczError::line`],
//! [`JczError::column`]), found once the error is known.

use std::fmt;

use thiserror::Error;

pub use carc_json_position::TextPosition;
use carc_json_position::{parent_path, value_positions};

/// How errors name the path of the whole document.
pub use carc_json_position::DOCUMENT;

/// One thing a file uses that carc does not implement, and where (JSON paths).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedUse {
    /// What it is, e.g. `tile set "inns-and-cathedrals:1"`.
    pub what: String,
    /// Every JSON path where it occurs, in the order read (setup, players, draw order,
    /// replay).
    pub paths: Vec<String>,
    /// Where the first of them starts in the text, when known.
    pub position: Option<TextPosition>,
}

/// At most this many places are named per unsupported thing; the rest are counted.
const PLACES_SHOWN: usize = 3;

impl UnsupportedUse {
    /// Something unsupported that is not in a file (found while writing).
    pub fn new(what: impl Into<String>) -> UnsupportedUse {
        UnsupportedUse {
            what: what.into(),
            paths: Vec::new(),
            position: None,
        }
    }
}

impl fmt::Display for UnsupportedUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.paths.is_empty() {
            return f.write_str(&self.what);
        }
        let shown = &self.paths[..self.paths.len().min(PLACES_SHOWN)];
        write!(f, "{} (at {}", self.what, shown.join(", "))?;
        if self.paths.len() > PLACES_SHOWN {
            write!(f, " and {} more", self.paths.len() - PLACES_SHOWN)?;
        }
        f.write_str(")")
    }
}

/// Why a `.jcz` file cannot be read, or a log cannot be written as one.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum JczError {
    /// The text is not JSON at all (or not UTF-8).
    #[error("not a JSON document (line {line}, column {column}): {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    /// A value has the wrong type or an impossible value.
    #[error("{path}: expected {expected}, found {found}")]
    Field {
        /// JSON path, e.g. `replay[3].payload.rotation` (`the document` for the whole file).
        path: String,
        expected: String,
        found: String,
        /// Where the value starts (for a missing field: the object that lacks it).
        position: Option<TextPosition>,
    },
    /// The game uses things carc does not implement (other tile sets, expansions' figures,
    /// rule options, move types). All of them are listed, so one run tells the whole story;
    /// a file that also has format errors is refused for this first.
    #[error(
        "the game uses what carc does not map to or from JCloisterZone (it maps the base game, the Abbot, the River, Inns & Cathedrals and Traders & Builders), so it is not replayed: {}",
        .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    Unsupported(Vec<UnsupportedUse>),
    /// A replay entry cannot be turned into a legal move: out of order, a location the tile
    /// does not have, or a move the rules refuse.
    #[error("replay[{index}] ({kind}): {message}")]
    Replay {
        index: usize,
        kind: String,
        message: String,
        /// Where the entry starts.
        position: Option<TextPosition>,
    },
    /// Writing: the log cannot be expressed as a JCloisterZone game (or is not legal).
    #[error("cannot write as a JCloisterZone game: {0}")]
    Export(String),
}

impl JczError {
    /// Where in the file the error is, when known: 1-based line and column (columns count
    /// bytes). A syntax error's own position; for other errors the start of the value (or
    /// replay entry) named; for [`JczError::Unsupported`], the first place of the first item.
    pub fn position(&self) -> Option<TextPosition> {
        match self {
            JczError::Json { line, column, .. } => Some(TextPosition {
                line: *line,
                column: *column,
            }),
            JczError::Field { position, .. } | JczError::Replay { position, .. } => *position,
            JczError::Unsupported(items) => items.first().and_then(|i| i.position),
            JczError::Export(_) => None,
        }
    }

    /// The 1-based line of [`JczError::position`].
    pub fn line(&self) -> Option<usize> {
        self.position().map(|p| p.line)
    }

    /// The 1-based column (in bytes) of [`JczError::position`].
    pub fn column(&self) -> Option<usize> {
        self.position().map(|p| p.column)
    }

    /// The JSON path the error is about (`replay[3].payload.rotation`, `replay[7]`), when it
    /// has one; for [`JczError::Unsupported`], the first place of the first item.
    pub fn path(&self) -> Option<String> {
        match self {
            JczError::Field { path, .. } => Some(path.clone()),
            JczError::Replay { index, .. } => Some(format!("replay[{index}]")),
            JczError::Unsupported(items) => items.first().and_then(|i| i.paths.first().cloned()),
            JczError::Json { .. } | JczError::Export(_) => None,
        }
    }

    /// Fills in where the error's value is in `text`, the file it came from.
    pub(crate) fn locate(mut self, text: &str) -> JczError {
        // Syntax errors come with their position, writing errors have none; only the others
        // need the scan (of a text serde_json has accepted).
        if matches!(self, JczError::Json { .. } | JczError::Export(_)) {
            return self;
        }
        let positions = value_positions(text);
        // A missing value is shown at the object that should hold it.
        let find = |path: &str| {
            let mut path = if path == DOCUMENT { "" } else { path };
            loop {
                if let Some(p) = positions.get(path) {
                    return Some(*p);
                }
                path = parent_path(path)?;
            }
        };
        match &mut self {
            JczError::Field { path, position, .. } => *position = find(path),
            JczError::Replay {
                index, position, ..
            } => *position = find(&format!("replay[{index}]")),
            JczError::Unsupported(items) => {
                for item in items {
                    item.position = item.paths.first().and_then(|p| find(p));
                }
            }
            JczError::Json { .. } | JczError::Export(_) => {}
        }
        self
    }
}
