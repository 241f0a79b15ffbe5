//! A game file as a program meets it: our JSON Lines log, a JCloisterZone saved game (`.jcz`)
//! or a Board Game Arena replay (the JSON of a table's notification packets), told apart by
//! name and then by content, and read into our log model. The CLI and the viewer both read
//! files through here, so they accept the same files and say the same things about them.
//!
//! How a file is told apart: a name ending in `.jsonl` is our log (its content is not
//! sniffed: a log is read line by line and may be long); `.jcz` is JCloisterZone; any other
//! name is JCloisterZone if the content is one JSON object with `setup` and `replay`, Board
//! Game Arena if it is JSON holding a list of notification packets, and our log otherwise
//! (whose reader then says what is wrong with it, line by line).
//!
//! Paths are untrusted too: [`read_game_bytes`] reads only regular files of at most
//! [`MAX_GAME_FILE`] bytes.

use std::fmt;
use std::path::Path;

use carc_bga::BgaError;
use carc_events::{read_log, read_log_prefix, DecodeError, Log, LogPrefix};
use carc_jcz::JczError;
use carc_json_position::{parent_path, value_positions, TextPosition};

mod file;

pub use file::{
    check_game_path, read_game_bytes, read_input_bytes, read_side_file, ReadFileError,
    MAX_GAME_FILE,
};

/// The kinds of game file carc reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Our JSON Lines log (`docs/log-format.md`).
    Log,
    /// A JCloisterZone saved game (`docs/jcz.md`).
    Jcz,
    /// A Board Game Arena replay (`docs/bga.md`).
    Bga,
}

impl Format {
    /// The format's name for people.
    pub fn name(self) -> &'static str {
        match self {
            Format::Log => "carc log",
            Format::Jcz => "JCloisterZone saved game",
            Format::Bga => "Board Game Arena replay",
        }
    }
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Which format a file is in, by its name and then its content (see the crate comment).
pub fn detect(path: &Path, bytes: &[u8]) -> Format {
    if has_extension(path, "jsonl") {
        Format::Log
    } else if carc_jcz::is_jcz_file(path, bytes) {
        Format::Jcz
    } else if carc_bga::looks_like_bga(bytes) {
        Format::Bga
    } else {
        Format::Log
    }
}

/// Why a game file could not be read.
#[derive(Debug)]
pub enum InputError {
    /// Our log format, with its line.
    Log(DecodeError),
    /// A JCloisterZone file.
    Jcz(JczError),
    /// A Board Game Arena replay, with where the value at fault starts in the file (found
    /// after the fact by [`locate_bga`]; a syntax error carries its own position).
    Bga(BgaError, Option<TextPosition>),
}

impl InputError {
    /// The line of the file the error is on, where it is known; 0 for the file as a whole.
    pub fn line(&self) -> usize {
        match self {
            InputError::Log(e) => e.line,
            InputError::Jcz(e) => e.line().unwrap_or(0),
            InputError::Bga(e, at) => e.line().or(at.map(|p| p.line)).unwrap_or(0),
        }
    }

    /// The column (a byte offset in the line, from 1), where it is known.
    pub fn column(&self) -> Option<usize> {
        match self {
            // Our reader's messages name the column themselves.
            InputError::Log(_) => None,
            InputError::Jcz(e) => e.column(),
            InputError::Bga(e, at) => e.column().or(at.map(|p| p.column)),
        }
    }

    /// The JSON path of the value at fault in a converted file, where it is known.
    pub fn json_path(&self) -> Option<String> {
        match self {
            InputError::Log(_) => None,
            InputError::Jcz(e) => e.path(),
            InputError::Bga(e, _) => e.path().map(str::to_string),
        }
    }

    /// What kind of input problem this is (the `rule` of `check --json`).
    pub fn rule(&self) -> &'static str {
        match self {
            InputError::Log(_) => "log.format",
            InputError::Jcz(JczError::Unsupported(_)) => "jcz.unsupported",
            InputError::Jcz(_) => "jcz.format",
            InputError::Bga(BgaError::Unsupported(_), _) => "bga.unsupported",
            InputError::Bga(BgaError::Replay { .. }, _) => "bga.illegal",
            InputError::Bga(..) => "bga.format",
        }
    }

    /// The message without the line.
    pub fn message(&self) -> String {
        match self {
            InputError::Log(e) => e.kind.to_string(),
            InputError::Jcz(e) => format!("{}: {e}", Format::Jcz.name()),
            InputError::Bga(e, _) => format!("{}: {e}", Format::Bga.name()),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Log(e) => write!(f, "{e}"),
            // A syntax error's message already says where it is.
            InputError::Jcz(JczError::Json { .. }) | InputError::Bga(BgaError::Json { .. }, _) => {
                f.write_str(&self.message())
            }
            _ => match (self.line(), self.column()) {
                (0, _) => f.write_str(&self.message()),
                (line, Some(column)) => {
                    write!(f, "line {line}, column {column}: {}", self.message())
                }
                (line, None) => write!(f, "line {line}: {}", self.message()),
            },
        }
    }
}

impl std::error::Error for InputError {}

/// A file of another program's format converted to our log; `None` for our own log.
/// (JCloisterZone games are named after the file; Board Game Arena games `bga-<table id>`.)
pub fn read_converted(path: &Path, bytes: &[u8]) -> Option<Result<Log, InputError>> {
    match detect(path, bytes) {
        Format::Log => None,
        Format::Jcz => Some(carc_jcz::read_file(path, bytes).map_err(InputError::Jcz)),
        Format::Bga => Some(carc_bga::read(bytes).map_err(|e| {
            let at = locate_bga(&e, bytes);
            InputError::Bga(e, at)
        })),
    }
}

/// Any game file's bytes as our log, whole or not at all.
pub fn read_game_file(path: &Path, bytes: &[u8]) -> Result<Log, InputError> {
    read_converted(path, bytes).unwrap_or_else(|| read_log(bytes).map_err(InputError::Log))
}

/// Any game file's bytes as our log, for a program that shows what it can: our log is read up
/// to its first bad line (the prefix keeps what came before and says what is wrong); a
/// converted file converts whole or not at all, since it has no lines to stop at. `Err` when
/// nothing can be shown.
pub fn read_game_prefix(path: &Path, bytes: &[u8]) -> Result<LogPrefix, InputError> {
    match read_converted(path, bytes) {
        None => read_log_prefix(bytes).map_err(InputError::Log),
        Some(converted) => converted.map(|log| LogPrefix { log, error: None }),
    }
}

/// The JSON path and position of a Board Game Arena notification. The packets are
/// `data.data`, `data` or the document itself (as `looks_like_bga` accepts them): the
/// notification is at the first of these paths the file has.
fn notification_at(
    positions: &std::collections::HashMap<String, TextPosition>,
    place: &carc_bga::Place,
) -> Option<(String, TextPosition)> {
    ["data.data", "data", ""].iter().find_map(|list| {
        let path = format!("{list}[{}].data[{}]", place.packet, place.notification);
        positions.get(&path).map(|p| (path, *p))
    })
}

/// Where a converted file states the claim of an assertion of its log: for a Board Game
/// Arena replay, the notification whose scores became the assertion on line `log_line` of
/// the converted log, as its JSON path and position (`None` for other formats, or a line
/// that holds no assertion). Found by converting the file again, so call it only for a
/// claim that failed.
pub fn claim_in_file(path: &Path, bytes: &[u8], log_line: usize) -> Option<(String, TextPosition)> {
    if detect(path, bytes) != Format::Bga {
        return None;
    }
    let imported = carc_bga::import(bytes).ok()?;
    let (_, place) = imported.claims.iter().find(|(line, _)| *line == log_line)?;
    let text = std::str::from_utf8(bytes).ok()?;
    notification_at(&value_positions(text), place)
}

/// Where the value a Board Game Arena error is about starts in `bytes`: the value at the
/// error's JSON path (a missing value: the object that should hold it), or the notification
/// of a move our rules refuse. `None` for a syntax error (it says where itself), a list of
/// unsupported content (about the whole file) and text that is not UTF-8.
pub fn locate_bga(error: &BgaError, bytes: &[u8]) -> Option<TextPosition> {
    let text = std::str::from_utf8(bytes).ok()?;
    match error {
        BgaError::Field { path, .. } => {
            let positions = value_positions(text);
            let mut path = if path == "the document" { "" } else { path };
            // A missing value is shown at the object that should hold it.
            loop {
                if let Some(p) = positions.get(path) {
                    return Some(*p);
                }
                path = parent_path(path)?;
            }
        }
        BgaError::Replay { place, .. } => {
            notification_at(&value_positions(text), place).map(|(_, position)| position)
        }
        BgaError::Json { .. } | BgaError::Unsupported(_) => None,
    }
}
