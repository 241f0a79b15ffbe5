//! What can go wrong reading a Board Game Arena replay. Every error says where: the line and
//! column of a syntax error, the JSON path of a wrong value, and the packet and notification
//! (index in the file, BGA's `packet_id` and `move_id`) of a move our rules refuse.

use std::fmt;

use thiserror::Error;

/// A notification of the replay: where it is in the file and what BGA calls it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// Index of the packet in `data.data` (0-based).
    pub packet: usize,
    /// The packet's `packet_id`, as BGA wrote it.
    pub packet_id: String,
    /// The packet's `move_id`, as BGA wrote it.
    pub move_id: String,
    /// Index of the notification in the packet's `data` (0-based).
    pub notification: usize,
    /// The notification's `type`.
    pub kind: String,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "packet {} (packet_id {}, move_id {}), notification {} ({})",
            self.packet, self.packet_id, self.move_id, self.notification, self.kind
        )
    }
}

/// `" in <place>"` when the place is known.
fn in_place(place: &Option<Box<Place>>) -> String {
    place
        .as_ref()
        .map(|p| format!(" (in {p})"))
        .unwrap_or_default()
}

/// Why a BGA replay cannot be imported.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BgaError {
    /// The text is not JSON (or not UTF-8).
    #[error("not a JSON document (line {line}, column {column}): {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    /// A value is missing, has the wrong type or an impossible value.
    #[error("{path}: expected {expected}, found {found}{}", in_place(.place))]
    Field {
        /// JSON path, e.g. `data.data[3].data[0].args.x`.
        path: String,
        expected: String,
        found: String,
        /// The notification the value belongs to, when it is inside one.
        place: Option<Box<Place>>,
    },
    /// The game uses what the importer does not read (expansions, other figures, unknown tile
    /// types or notifications; some expansions carc's rules do implement, but their BGA
    /// numbers are not mapped). All of it is listed, so one run tells the whole story.
    #[error(
        "the game uses what carc does not read from Board Game Arena (the base game only), so it is not imported: {}",
        .0.join("; ")
    )]
    Unsupported(Vec<String>),
    /// A notification cannot be turned into a legal move: out of order, a meeple spot the tile
    /// does not have, or a move our rules refuse.
    #[error("{place}: {message}")]
    Replay { place: Box<Place>, message: String },
}

impl BgaError {
    /// The 1-based line of a syntax error.
    pub fn line(&self) -> Option<usize> {
        match self {
            BgaError::Json { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// The 1-based column of a syntax error.
    pub fn column(&self) -> Option<usize> {
        match self {
            BgaError::Json { column, .. } => Some(*column),
            _ => None,
        }
    }

    /// The JSON path of the value at fault, when one is.
    pub fn path(&self) -> Option<&str> {
        match self {
            BgaError::Field { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The notification at fault, when one is.
    pub fn place(&self) -> Option<&Place> {
        match self {
            BgaError::Field { place, .. } => place.as_deref(),
            BgaError::Replay { place, .. } => Some(place),
            _ => None,
        }
    }

    /// The same error, said to be inside `place` (unless it already names a place).
    pub(crate) fn within(self, at: &Place) -> BgaError {
        match self {
            BgaError::Field {
                path,
                expected,
                found,
                place: None,
            } => BgaError::Field {
                path,
                expected,
                found,
                place: Some(Box::new(at.clone())),
            },
            other => other,
        }
    }
}
