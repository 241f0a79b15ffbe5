//! The event vocabulary of carc and its wire format: JSON Lines logs, one game per file.
//!
//! This crate is the only place that knows the format (described for people in
//! `docs/log-format.md`). Line 1 is the [`Header`]; every further line is an event
//! ([`Envelope`]: `seq` + [`Event`]) or an [`Assertion`] (`"type":"expect_…"`).
//!
//! Decoding ([`read_log`], [`read_log_from`], [`read_log_prefix`]) takes untrusted input: it
//! never panics, never skips a line, and every [`DecodeError`] names its 1-based line. It does
//! not judge game rules; the rules engine does, per event, using the line numbers kept in
//! [`Log`].
//!
//! Writing ([`write_log`] and the per-line helpers) is deterministic, and
//! `read_log(write_log(log).as_bytes()) == Ok(log)` for every valid log whose line numbers run
//! 2, 3, … in order (as [`Log::push_event`] and decoding produce them).
//!
//! The annotation and variation records kept beside a game ([`annotation`], [`variation`])
//! are part of the wire format too. An exported *bundle* is a log followed by those records
//! as `{"type":"annotation",…}` and `{"type":"variation",…}` lines; [`read_log`] keeps them in
//! [`Log::annotations`] and [`Log::variations`].
//!
//! Versions: [`CURRENT_VERSION`] is written; older versions are passed line by line through
//! [`upcast`], the single place that knows old shapes.

pub mod annotation;
mod bridge;
mod error;
mod event_decode;
mod log;
mod model;
mod read;
mod tagged;
mod target;
pub mod text;
mod upcast;
pub mod variation;
mod write;

pub use bridge::{
    action_to_event, event_to_action, find_map, game_from_header, label_of, record_actions,
    register_map, rules_card, setup_from_header, start_tile_of, wire_card, SetupError,
};
pub use error::{DecodeError, DecodeErrorKind};
pub use log::Log;
pub use model::{
    ArrowMeepleAction, ArrowSymbol, Assertion, Color, EmptyTileId, Envelope, Event, Figure,
    GiftCard, Header, MapRules, Player, Pos, Rotation, RulesOptions, Source, TileId, TownVariant,
    ANNOTATION_TYPE, ASSERTION_TYPES, EVENT_TYPES, MAX_PLAYERS, VARIATION_TYPE,
};
pub use read::{read_log, read_log_from, read_log_prefix, read_log_prefix_from, LogPrefix};
pub use target::{
    Anchor, FeatureKind, InvalidMeepleTarget, MeepleTarget, Port, Side, MEEPLE_TARGET_GRAMMAR,
};
pub use upcast::{upcast, UpcastError};
pub use write::{
    write_annotation_line, write_assertion_line, write_event_line, write_header, write_log,
    write_log_to, write_variation_line,
};

/// The header's `format` value.
pub const FORMAT: &str = "carcassonne-log";

/// The format version this crate writes, and the newest it reads.
pub const CURRENT_VERSION: u32 = 1;

/// Longest accepted line in bytes, without its `\n` (1 MiB).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Text from the input for an error message: cut to 60 characters.
pub(crate) fn truncate(s: &str) -> String {
    const MAX_CHARS: usize = 60;
    match s.char_indices().nth(MAX_CHARS) {
        None => s.to_owned(),
        Some((cut, _)) => format!("{}…", &s[..cut]),
    }
}

/// Text from the input for an error message: cut to 60 characters and quoted.
pub(crate) fn short(s: &str) -> String {
    format!("{:?}", truncate(s))
}
