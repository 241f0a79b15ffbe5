//! carc-report: a replayed game written up for people, with its annotations.
//!
//! - [`markdown`]: a turn-by-turn report to read or paste into a forum.
//!
//! The sentences are the ones `carc explain` and the viewer use (`carc_replay::describe`),
//! so a score reads the same everywhere.

pub mod markdown;

pub use markdown::{markdown, markdown_with, EventNote, Extras};
