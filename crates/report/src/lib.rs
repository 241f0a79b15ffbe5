//! carc-report: a replayed game written up for people, with its annotations.
//!
//! - [`markdown`]: a turn-by-turn report to read or paste into a forum.
//! - [`html`]: the same report as one self-contained static web page, with board pictures
//!   (drawn by `carc-draw`), collapsible score breakdowns and a score graph.
//! - [`interactive`]: the game as one self-contained page to step through like the viewer:
//!   board, move list, scrubber, keys, the current event's scores and annotations.
//! - [`puzzles`]: a player's mistakes as positions to solve again on one page, built from the
//!   interactive page's parts (same policy, same escaping, same board fragments).
//! - [`Extras`]: what a caller adds to either (the CLI's move quality): marks and lines under
//!   events, closing sections, and a win-probability graph for the HTML pages (`win_graph`).
//!
//! Both writers render one outline of the game (`outline`), and their sentences are the ones
//! `carc explain` and the viewer use (`carc_replay::describe`), so a score reads the same
//! everywhere.

mod chart;
pub mod extras;
pub mod html;
pub mod interactive;
pub mod markdown;
mod markup;
mod outline;
pub mod puzzles;
mod win_graph;

pub use extras::{BoardAt, Column, EventNote, Extras, Section, Table, WinChart};
pub use html::{html, html_with, Boards, HtmlOptions};
pub use interactive::interactive_html;
pub use markdown::{markdown, markdown_with};
pub use puzzles::{puzzles_html, PageMove, PagePuzzle};
