//! carc-tables: replayed games as tables for DataFrame and SQL engines (DuckDB, Polars,
//! DataFusion, Spark), written as Parquet.
//!
//! A small star schema (`docs/tables.md` describes every column): `games` (one row per game)
//! and `players` (one per seat) as dimensions; `moves` (one per legal event), `scores` (one per
//! score awarded to a seat), `annotations` and `variations` as facts, all keyed by `game`.
//!
//! - [`schema`]: the tables and their Arrow schemas.
//! - [`input`]: what the caller hands over for one game (log, origin, annotations, variations).
//! - [`rows`]: one game replayed with the rules engine into a record batch per table.
//! - [`writer`]: a table as a folder of Parquet part files, row groups flushed as they fill.
//! - [`encode`]: the row groups encoded on worker threads, appended in order by the writer.
//! - [`export`]: many games replayed on every core and written in order (deterministic
//!   output, bounded memory).
//!
//! Everything is derived from a replay with the rules engine, never from a log's claims.

pub mod encode;
pub mod error;
pub mod export;
pub mod input;
pub mod rows;
pub mod schema;
pub mod writer;

pub use error::TablesError;
pub use export::{export_games, ExportOptions, ExportSummary, Skipped, GAMES_PER_TASK};
pub use input::{GameInput, GameQuality, JudgedMove, Origin};
pub use rows::{game_batches, score_source, GameBatches};
pub use schema::Table;
pub use writer::{part_name, TableSummary, WriteOptions};
