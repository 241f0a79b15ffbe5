//! Reading a game file: our JSON Lines log, a JCloisterZone saved game or a Board Game Arena
//! replay, converted to our log model (told apart by `carc-formats`, which the viewer shares).
//! Also which files of the paths given are games (folders expanded).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::Context;
use carc_events::Log;
pub use carc_formats::{read_converted, read_game_file};

/// A text input that is not a game (a tile-set or map-board file, a moves file), read with the
/// checks of a game file: a regular file of at most [`carc_formats::MAX_GAME_FILE`] bytes,
/// checked by its metadata before it is opened, so `/dev/zero` or a FIFO is refused at once.
/// `what` names the file for people ("tile-set file").
pub fn read_text_input(path: &Path, what: &str) -> anyhow::Result<String> {
    let bytes = carc_formats::read_input_bytes(path).with_context(|| what.to_string())?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{what}: cannot read {}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to() + 1
        )
    })
}

/// Whether a FILE|GAME argument names a file rather than a stored game id: anything at that
/// path but a folder (a FIFO, a device or a dangling link too, for the reader to refuse as
/// what it is, instead of looking for a stored game of that name).
pub fn names_a_file(arg: &Path) -> bool {
    fs::symlink_metadata(arg).is_ok_and(|m| !m.is_dir())
}

/// A game file of any format we read, as our log.
pub fn load_log(path: &Path) -> anyhow::Result<Log> {
    let bytes = carc_formats::read_game_bytes(path)?;
    read_game_file(path, &bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// `*.jsonl`, `*.jcz` and `*.json` (Board Game Arena replays) files of the given paths,
/// folders expanded (sorted, not recursive). An entry of a folder with such a name that is not
/// a regular file (a dangling or looping link, a FIFO, a device; folders excepted) is listed
/// too, for the reader to reject as unreadable.
/// In a folder, files kept beside logs (`*.annotations.jsonl`, `*.variations.jsonl`) are not games and
/// are passed over.
pub fn collect_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = fs::read_dir(path)
                .with_context(|| format!("cannot read folder {}", path.display()))?
                .map(|e| e.and_then(|e| Ok((e.path(), e.file_type()?))))
                .collect::<io::Result<Vec<_>>>()
                .with_context(|| format!("cannot read folder {}", path.display()))?
                .into_iter()
                // Every entry with a game's name that is not a folder, whatever it is: a
                // dangling link, a FIFO, a link loop or a device is handed on, so that the
                // reader rejects it as unreadable (it used to be passed over without a word,
                // and `rebuild --force` then dropped a stored game).
                .filter(|(p, kind)| {
                    !kind.is_dir()
                        && p.extension()
                            .is_some_and(|e| e == "jsonl" || e == "jcz" || e == "json")
                        && !is_sidecar(p)
                })
                .map(|(p, _)| p)
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// The sub-folders of the folders among `paths`, sorted: `collect_files` reads a folder one
/// level deep, so a verb that takes folders says which ones it left out.
pub fn sub_folders(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths.iter().filter(|p| p.is_dir()) {
        let Ok(entries) = fs::read_dir(path) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        found.sort();
        out.extend(found);
    }
    out
}

/// Whether the file holds records kept beside a log (`*.annotations.jsonl`,
/// `*.variations.jsonl`) rather than a game.
pub fn is_sidecar(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".annotations.jsonl") || name.ends_with(".variations.jsonl")
}
