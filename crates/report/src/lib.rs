//! carc-report: a replayed game written up for people, with its annotations.
//!
//! - [`markdown`]: a turn-by-turn report to read or paste into a forum.
//! - [`html`]: the same report as one self-contained web page, with board pictures (drawn by
//!   `carc-draw`), collapsible score breakdowns and a score graph.
//!
//! The sentences are the ones `carc explain` and the viewer use (`carc_replay::describe`),
//! so a score reads the same everywhere.

pub mod html;
pub mod markdown;

pub use html::{html, Boards, HtmlOptions};
pub use markdown::{markdown, markdown_with, EventNote, Extras};
