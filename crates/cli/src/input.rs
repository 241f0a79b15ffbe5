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

/// What [`list_inputs`] found in the paths a bulk verb was given.
pub struct Inputs {
    /// The game files (see [`collect_files`]).
    pub files: Vec<PathBuf>,
    /// The sub-folders of the folders among the paths, sorted: folders are read one level
    /// deep, so a verb that takes folders says which ones it left out. A link to a folder is
    /// one.
    pub sub_folders: Vec<PathBuf>,
}

/// `*.jsonl`, `*.jcz` and `*.json` (Board Game Arena replays) files of the given paths,
/// folders expanded (sorted, not recursive). An entry of a folder with such a name that is not
/// a regular file (a dangling or looping link, a FIFO, a device; folders excepted) is listed
/// too, for the reader to reject as unreadable.
/// In a folder, files kept beside logs (`*.annotations.jsonl`, `*.variations.jsonl`) are not games and
/// are passed over.
pub fn collect_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    Ok(list_inputs(paths)?.files)
}

/// The game files of `paths` (as [`collect_files`]) and the sub-folders left out, in one
/// reading of each folder. Each entry's kind comes from the folder listing itself; only a link
/// is followed (to tell a link to a folder): a folder of 10,000 games used to be read twice and
/// every entry looked up once more (`stat`), a serial start of tens of milliseconds before any
/// worker had a file (issue 35).
pub fn list_inputs(paths: &[PathBuf]) -> anyhow::Result<Inputs> {
    let mut inputs = Inputs {
        files: Vec::new(),
        sub_folders: Vec::new(),
    };
    for path in paths {
        if path.is_dir() {
            let entries: Vec<(PathBuf, fs::FileType)> = fs::read_dir(path)
                .with_context(|| format!("cannot read folder {}", path.display()))?
                .map(|e| e.and_then(|e| Ok((e.path(), e.file_type()?))))
                .collect::<io::Result<Vec<_>>>()
                .with_context(|| format!("cannot read folder {}", path.display()))?;
            let mut found = Vec::new();
            let mut folders = Vec::new();
            for (p, kind) in entries {
                if kind.is_dir() || (kind.is_symlink() && p.is_dir()) {
                    folders.push(p.clone());
                }
                // Every entry with a game's name that is not a folder, whatever it is: a
                // dangling link, a FIFO, a link loop or a device is handed on, so that the
                // reader rejects it as unreadable (it used to be passed over without a word,
                // and `rebuild --force` then dropped a stored game).
                if !kind.is_dir()
                    && p.extension()
                        .is_some_and(|e| e == "jsonl" || e == "jcz" || e == "json")
                    && !is_sidecar(&p)
                {
                    found.push(p);
                }
            }
            found.sort();
            folders.sort();
            inputs.files.extend(found);
            inputs.sub_folders.extend(folders);
        } else {
            inputs.files.push(path.clone());
        }
    }
    Ok(inputs)
}

/// Whether the file holds records kept beside a log (`*.annotations.jsonl`,
/// `*.variations.jsonl`) rather than a game.
pub fn is_sidecar(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".annotations.jsonl") || name.ends_with(".variations.jsonl")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One reading of a folder gives the game files and the sub-folders (a link to a folder
    /// among them, told by following it), the same as reading it for each.
    #[test]
    fn one_listing_gives_the_game_files_and_the_sub_folders() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for name in [
            "b.jsonl",
            "a.jcz",
            "c.json",
            "a.annotations.jsonl",
            "notes.txt",
        ] {
            fs::write(d.join(name), "x").unwrap();
        }
        fs::create_dir(d.join("nested")).unwrap();
        fs::create_dir(d.join("folder.jsonl")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(d.join("nested"), d.join("link-to-nested")).unwrap();
            std::os::unix::fs::symlink(d.join("gone"), d.join("dangling.jsonl")).unwrap();
        }
        let inputs = list_inputs(&[d.to_path_buf(), d.join("b.jsonl")]).unwrap();
        let mut files = vec![d.join("a.jcz"), d.join("b.jsonl"), d.join("c.json")];
        let mut folders = vec![d.join("folder.jsonl"), d.join("nested")];
        #[cfg(unix)]
        {
            files.insert(3, d.join("dangling.jsonl"));
            folders.insert(1, d.join("link-to-nested"));
        }
        files.push(d.join("b.jsonl"));
        assert_eq!(inputs.files, files);
        assert_eq!(inputs.sub_folders, folders);
        assert_eq!(
            collect_files(&[d.to_path_buf()]).unwrap(),
            files[..files.len() - 1]
        );
    }
}
