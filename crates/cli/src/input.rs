//! Reading a game file: our JSON Lines log, or a JCloisterZone saved game converted to our log
//! model. A file is a JCloisterZone game if its name ends in `.jcz`, or, unless it ends in
//! `.jsonl`, if its content is one JSON object with `setup` and `replay`. Also which files of
//! the paths given are games (folders expanded).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::Context;
use carc_events::{read_log, DecodeError, Log};
use carc_jcz::JczError;

/// Why a game file could not be read.
pub enum InputError {
    /// Our log format, with its line.
    Log(DecodeError),
    /// A JCloisterZone file (it has no line numbers: the message names the JSON path).
    Jcz(JczError),
}

impl InputError {
    /// The line of our log the error is on; 0 for JCloisterZone files.
    pub fn line(&self) -> usize {
        match self {
            InputError::Log(e) => e.line,
            InputError::Jcz(_) => 0,
        }
    }

    /// The `rule` of `check --json`: what kind of input problem this is.
    pub fn rule(&self) -> &'static str {
        match self {
            InputError::Log(_) => "log.format",
            InputError::Jcz(JczError::Unsupported(_)) => "jcz.unsupported",
            InputError::Jcz(_) => "jcz.format",
        }
    }

    /// The message without the line.
    pub fn message(&self) -> String {
        match self {
            InputError::Log(e) => e.kind.to_string(),
            InputError::Jcz(e) => format!("JCloisterZone saved game: {e}"),
        }
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::Log(e) => write!(f, "{e}"),
            InputError::Jcz(_) => f.write_str(&self.message()),
        }
    }
}

/// Whether the file is a JCloisterZone saved game (by name, else by content).
pub fn is_jcz(path: &Path, bytes: &[u8]) -> bool {
    carc_jcz::is_jcz_file(path, bytes)
}

/// Whether the name says our JSON Lines format (the content is then not sniffed).
pub fn is_jsonl_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl"))
}

/// A JCloisterZone file converted to our log, its game id taken from the file name.
pub fn read_jcz(path: &Path, bytes: &[u8]) -> Result<Log, InputError> {
    carc_jcz::read_file(path, bytes).map_err(InputError::Jcz)
}

/// Any game file's bytes as our log.
pub fn read_game_file(path: &Path, bytes: &[u8]) -> Result<Log, InputError> {
    if is_jcz(path, bytes) {
        read_jcz(path, bytes)
    } else {
        read_log(bytes).map_err(InputError::Log)
    }
}

/// A log file or a JCloisterZone saved game, as our log.
pub fn load_log(path: &Path) -> anyhow::Result<Log> {
    let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    read_game_file(path, &bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// `*.jsonl` and `*.jcz` files of the given paths, folders expanded (sorted, not recursive).
/// In a folder, files kept beside logs (`*.annotations.jsonl`, `*.variations.jsonl`) are not games and
/// are passed over.
pub fn collect_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = fs::read_dir(path)
                .with_context(|| format!("cannot read folder {}", path.display()))?
                .map(|e| e.map(|e| e.path()))
                .collect::<io::Result<Vec<_>>>()
                .with_context(|| format!("cannot read folder {}", path.display()))?
                .into_iter()
                .filter(|p| {
                    p.is_file()
                        && p.extension().is_some_and(|e| e == "jsonl" || e == "jcz")
                        && !is_sidecar(p)
                })
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Whether the file holds records kept beside a log (`*.annotations.jsonl`,
/// `*.variations.jsonl`) rather than a game.
pub fn is_sidecar(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".annotations.jsonl") || name.ends_with(".variations.jsonl")
}
