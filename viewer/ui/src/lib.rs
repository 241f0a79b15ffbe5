//! carc-viewer-ui: the egui replay and analysis viewer for Carcassonne game logs, without its
//! window.
//!
//! All UI logic lives in this library so it can be tested headless (egui_kittest); the
//! `carc-viewer` binary (the shell, in `viewer/`) parses its arguments, opens the window and
//! provides the store's game list through [`library::GameLibrary`].
//!
//! - [`model`]: the replay cursor, the commands that move it, playback (plain Rust).
//! - [`annotations`]: comments and glyphs on events, in a JSON Lines file beside the log.
//! - [`variations`]: what-if variations beside the game: stepped through, promoted, deleted.
//! - [`loaded`]: opening a log, with clear messages for bad lines and illegal events.
//! - [`trial`]: moves tried on the board: what a position offers, and which variation a
//!   move goes to.
//! - [`record`]: record mode: a game played at the table entered move by move, each move
//!   stored at once through [`record::RecordSink`] (the shell's store, kept open).
//! - [`library`]: games kept elsewhere (the store), behind a trait: this crate has no database.
//! - [`move_list`]: the move list as a game record, one row per turn.
//! - [`text`]: words for events, scores (the engine's [`carc_rules::Score`]) and squares.
//! - [`board`]: the board on screen: pan, zoom, hit-testing, and painting the shapes that
//!   `carc-draw` makes from the tile data (the same shapes as `carc render`'s pictures).
//! - [`graph`]: the score graph.
//! - [`puzzles`]: puzzles of `carc puzzles` (JSON Lines): read, and a tried move judged.
//! - [`quality`]: move quality (`carc-analysis`) run on a background thread, its marks.
//! - [`app`]: the window, with one child module per panel or window.

pub mod annotations;
pub mod app;
pub mod board;
pub mod graph;
pub mod library;
pub mod loaded;
pub mod model;
pub mod move_list;
pub mod puzzles;
pub mod quality;
pub mod record;
pub mod text;
pub mod trial;
pub mod variations;

pub use app::ViewerApp;
pub use library::{GameLibrary, LibraryEntry, LibraryGame};
pub use model::{Command, ReplayCursor, ViewModel};

/// Environment variable: jump to this event right after opening (used by the screenshot check).
pub const AT_ENV: &str = "CARC_VIEWER_AT";

/// Environment variable: show this variation of the game right after opening (before
/// [`AT_ENV`] jumps, which then counts in the variation's line; used by the screenshot check).
pub const VARIATION_ENV: &str = "CARC_VIEWER_VARIATION";

/// Environment variable: continue recording this stored game right after opening (record
/// mode; used by the screenshot check).
pub const RECORD_ENV: &str = "CARC_VIEWER_RECORD";

/// Environment variable: `1` opens the tile-set window at start.
pub const TILES_ENV: &str = "CARC_VIEWER_TILES";

/// Environment variable: `1` starts the move-quality analysis of the game opened at start (for a
/// real-window screenshot of its marks and the win-probability graph).
pub const QUALITY_ENV: &str = "CARC_VIEWER_QUALITY";
