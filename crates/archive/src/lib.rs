//! carc-archive: game logs kept in the carc event store.
//!
//! The store (`carc-store`) knows streams of opaque payloads; this crate knows which streams
//! are games and how a game's stream gives back its log, and where annotations go. The CLI's
//! store verbs and the viewer's game list both go through it, so they agree on the mapping
//! (described in `docs/store-cli.md`).
//!
//! - [`ids`]: which streams are games and which hold what is written about one.
//! - [`stream`]: one stream per game, one store event per log line, retractions.
//! - [`companions`]: what is written about a game (annotations, variations), one stream per
//!   kind and game, beside its game stream.

pub mod companions;
pub mod error;
pub mod ids;
pub mod stream;

pub use companions::{
    annotation_stream, append_annotation_record, append_record, read_annotation_records,
    read_records,
};
pub use error::ArchiveError;
pub use ids::{check_game_id, Companion, ANNOTATIONS_PREFIX, VARIATIONS_PREFIX};
pub use stream::{
    event_id, game_ids, game_listing, read_game, retraction_payload, split_lines, Kind, StoredGame,
    StoredLine, RETRACTION_TYPE,
};
