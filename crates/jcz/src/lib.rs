//! JCloisterZone saved games (`.jcz`) for carc: [`read`] turns one into our log model
//! ([`carc_events::Log`]: header and events), so every command that takes a log takes a `.jcz`
//! file too; [`write`] turns one of our logs into a saved game JCloisterZone can open.
//!
//! The base game is supported (with or without farmers, with the two-tile-city option), and
//! with it The Abbot, The River, Inns & Cathedrals and Traders & Builders.
//! A file that uses anything else is refused with [`JczError::Unsupported`], which lists all
//! of it: carc never replays a game it would get wrong. The mapping (tile ids, orientations,
//! coordinates, locations) is documented in `docs/jcz.md`.
//!
//! JCloisterZone's format is its own, not carc's wire format, so this crate parses JSON
//! itself; it produces and consumes our log model only through `carc-events`.

mod error;
mod file;
mod json;
mod location;
mod names;
mod read;
mod tiles;
mod write;

pub use error::{JczError, TextPosition, UnsupportedUse};
pub use file::{game_id_for, is_jcz_file, read_file};
pub use location::{pointer_of, Pointer};
pub use read::read;
pub use tiles::{jcz_id_of, letter_of};
pub use write::{write, APP_VERSION};

/// Whether a file's bytes look like a JCloisterZone saved game: one JSON object with a
/// `setup` and a `replay`. (Our logs are JSON Lines: one object per line, a header first.)
pub fn looks_like_jcz(bytes: &[u8]) -> bool {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Object(map)) => {
            map.contains_key("setup") && map.contains_key("replay")
        }
        _ => false,
    }
}
