//! Decoding errors. Every error names the 1-based line it was found on.

use crate::model::{ASSERTION_TYPES, EVENT_TYPES};
use crate::{CURRENT_VERSION, FORMAT, MAX_LINE_BYTES};

/// A log that cannot be read, and where. Displays as `line N: …`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct DecodeError {
    /// 1-based line number (the header is line 1).
    pub line: usize,
    /// What is wrong.
    pub kind: DecodeErrorKind,
}

/// What is wrong with a line. Columns are 1-based byte offsets within the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    /// The reader failed.
    #[error("read error: {message}")]
    Io {
        /// The IO error's kind.
        kind: std::io::ErrorKind,
        /// The IO error's message.
        message: String,
    },
    /// The line is not UTF-8.
    #[error("not valid UTF-8 (first bad byte at column {column}); logs are UTF-8 text")]
    NotUtf8 {
        /// Column of the first bad byte.
        column: usize,
    },
    /// The line exceeds [`MAX_LINE_BYTES`] (the rest is not read).
    #[error("longer than {MAX_LINE_BYTES} bytes")]
    LineTooLong,
    /// An empty or blank line.
    #[error("empty line; every line must hold one JSON object")]
    EmptyLine,
    /// The input has no bytes at all.
    #[error("missing header: the file is empty; line 1 must be the header {{\"format\":\"{FORMAT}\",\"version\":{CURRENT_VERSION},…}}")]
    EmptyFile,
    /// Not JSON (syntax error, or cut short).
    #[error("invalid JSON at column {column}: {message}{}", if *.truncated { " (the line ends too early: is it truncated?)" } else { "" })]
    InvalidJson {
        /// Where the parser stopped.
        column: usize,
        /// serde_json's message, without its position.
        message: String,
        /// The line ended in the middle of a value.
        truncated: bool,
    },
    /// Well-formed JSON with the wrong content: unknown or missing field, wrong type, bad value
    /// (rotation, meeple target, player list, …).
    #[error("{message}{}", match .column { Some(c) => format!(" (column {c})"), None => String::new() })]
    Invalid {
        /// Column, when the parser knows it.
        column: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// Line 1 is an event or assertion.
    #[error("missing header: line 1 is an event or assertion; the header {{\"format\":\"{FORMAT}\",…}} must come first")]
    HeaderNotFirst,
    /// Line 1 is an object without `format`.
    #[error("missing header: line 1 has no \"format\"; expected {{\"format\":\"{FORMAT}\",\"version\":{CURRENT_VERSION},…}}")]
    MissingFormat,
    /// `format` is not [`FORMAT`].
    #[error("not a carcassonne log: \"format\" is {found}, expected \"{FORMAT}\"")]
    WrongFormat {
        /// The value found, as JSON (shortened).
        found: String,
    },
    /// `version` is missing or not a positive integer.
    #[error("\"version\" must be a positive integer, found {found}")]
    InvalidVersion {
        /// The value found, as JSON (shortened), or `nothing`.
        found: String,
    },
    /// `version` is newer than [`CURRENT_VERSION`].
    #[error("log format version {found} is newer than this program reads (up to {CURRENT_VERSION}); upgrade carc")]
    VersionTooNew {
        /// The version found.
        found: u64,
    },
    /// An older version's line could not be upcast.
    #[error("{0}")]
    Upcast(#[from] crate::upcast::UpcastError),
    /// A header after line 1.
    #[error("a second header; the header belongs on line 1 only")]
    SecondHeader,
    /// A line that is neither an event nor an assertion.
    #[error("expected an event (an object with \"seq\" and \"type\"), an assertion (\"type\":\"expect_…\"), or an annotation or variation (\"type\":\"annotation\" or \"variation\")")]
    UnrecognizedLine,
    /// An event (has `seq`) without `type`.
    #[error("event has no \"type\"; known event types: {}", EVENT_TYPES.join(", "))]
    MissingType,
    /// An event `type` this version does not know.
    #[error("unknown event type {found}; known event types: {}", EVENT_TYPES.join(", "))]
    UnknownEventType {
        /// The type found, quoted (shortened).
        found: String,
    },
    /// An `expect_…` type this version does not know.
    #[error("unknown assertion type {found}; known assertion types: {}", ASSERTION_TYPES.join(", "))]
    UnknownAssertionType {
        /// The type found, quoted (shortened).
        found: String,
    },
    /// An event type without `seq`.
    #[error("{event_type} event has no \"seq\"; every event line starts with {{\"seq\":N,…}}")]
    MissingSeq {
        /// The event type.
        event_type: String,
    },
    /// `seq` is not a non-negative integer.
    #[error("\"seq\" must be a positive integer, found {found}")]
    InvalidSeq {
        /// The value found, as JSON (shortened).
        found: String,
    },
    /// `seq` is not previous + 1 (the first event has seq 1).
    #[error("event seq {found} out of sequence; expected {expected}")]
    SeqOutOfSequence {
        /// The seq on the line.
        found: u64,
        /// The seq that was due.
        expected: u64,
    },
    /// A seat index beyond the header's player list.
    #[error("player {player} does not exist; the game has {players} players (seats 0 to {})", .players.saturating_sub(1))]
    PlayerOutOfRange {
        /// The seat index on the line.
        player: u8,
        /// Number of players in the header.
        players: usize,
    },
    /// An annotation or variation line (in an exported bundle) that cannot be read.
    #[error("{what} line: {message}")]
    Companion {
        /// `annotation` or `variation`.
        what: &'static str,
        /// What is wrong.
        message: String,
    },
    /// An annotation or variation line that belongs to another game.
    #[error("{what} line for game {found}, but this is the log of game {expected}")]
    CompanionOtherGame {
        /// `annotation` or `variation`.
        what: &'static str,
        /// The record's game, quoted (shortened).
        found: String,
        /// The header's game, quoted (shortened).
        expected: String,
    },
    /// An assertion whose score list does not have one score per player.
    #[error("{assertion} lists {found} scores but the game has {players} players")]
    ScoreCount {
        /// Assertion type.
        assertion: &'static str,
        /// Number of scores on the line.
        found: usize,
        /// Number of players in the header.
        players: usize,
    },
}

impl DecodeErrorKind {
    /// Attaches a line number.
    pub fn at_line(self, line: usize) -> DecodeError {
        DecodeError { line, kind: self }
    }

    /// Converts a serde_json error on a single line (positions are within the line).
    pub(crate) fn from_json(err: &serde_json::Error) -> Self {
        let full = err.to_string();
        if err.line() == 0 {
            // No position (deserialized from a `Value`).
            return DecodeErrorKind::Invalid {
                column: None,
                message: full,
            };
        }
        let suffix = format!(" at line {} column {}", err.line(), err.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
        // serde_json reports column 0 when it fails before consuming the line's first byte.
        let column = err.column().max(1);
        match err.classify() {
            serde_json::error::Category::Syntax => DecodeErrorKind::InvalidJson {
                column,
                message,
                truncated: false,
            },
            serde_json::error::Category::Eof => DecodeErrorKind::InvalidJson {
                column,
                message,
                truncated: true,
            },
            serde_json::error::Category::Data | serde_json::error::Category::Io => {
                DecodeErrorKind::Invalid {
                    column: Some(column),
                    message,
                }
            }
        }
    }
}
