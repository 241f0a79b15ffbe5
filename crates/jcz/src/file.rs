//! A game file as a program meets it: told apart from our logs by name or content, and named
//! after the file (JCloisterZone's own `gameId` is not unique: its test games all say "1",
//! so two files would collide in a store). Shared by the CLI and the viewer so that both
//! accept the same files and give them the same id.

use std::path::Path;

use carc_events::Log;

use crate::error::JczError;

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Whether a file is a JCloisterZone saved game: named `.jcz`, or, unless named `.jsonl`,
/// one JSON object with `setup` and `replay`.
pub fn is_jcz_file(path: &Path, bytes: &[u8]) -> bool {
    has_extension(path, "jcz") || (!has_extension(path, "jsonl") && crate::looks_like_jcz(bytes))
}

/// The game id of a JCloisterZone file: its file name without the extension, made storable
/// (printable ASCII without spaces, at most 128 bytes).
pub fn game_id_for(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id: String = stem
        .chars()
        .map(|c| if c.is_ascii_graphic() { c } else { '_' })
        .take(128)
        .collect();
    if id.is_empty() {
        "jcz-game".into()
    } else {
        id
    }
}

/// A JCloisterZone file's bytes as our log, its game id taken from the file name.
pub fn read_file(path: &Path, bytes: &[u8]) -> Result<Log, JczError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        // Said where the first bad byte is, as for a JSON syntax error.
        let at = crate::error::TextPosition::of_offset(bytes, e.valid_up_to());
        JczError::Json {
            line: at.line,
            column: at.column,
            message: format!("not UTF-8 text: {e}"),
        }
    })?;
    let mut log = crate::read(text)?;
    log.header.game = game_id_for(path);
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn told_apart_by_name_then_content() {
        let jcz = br#"{"setup":{},"replay":[]}"#;
        assert!(is_jcz_file(Path::new("a.jcz"), b"anything"));
        assert!(is_jcz_file(Path::new("a.JCZ"), b""));
        assert!(is_jcz_file(Path::new("saved"), jcz));
        assert!(!is_jcz_file(Path::new("a.jsonl"), jcz));
        assert!(!is_jcz_file(
            Path::new("a.txt"),
            b"{\"format\":\"carcassonne-log\"}\n"
        ));
    }

    #[test]
    fn ids_come_from_the_file_name() {
        assert_eq!(game_id_for(Path::new("/x/my game.jcz")), "my_game");
        assert_eq!(game_id_for(Path::new("/x/.jcz")), ".jcz");
        assert_eq!(game_id_for(Path::new("")), "jcz-game");
    }
}
