//! The export of many games: replayed on every core, written in the games' order.
//!
//! Workers take the next game index, load and replay the game, and hand its rows to the
//! writer (the calling thread), which writes the games strictly in index order, so the output
//! is the same on any number of threads (`carc-in-order`). A worker may run at most [`WINDOW_PER_THREAD`] games
//! per thread ahead of the writer: the games waiting to be written are bounded, and with them
//! the memory, whatever the number of games. The writer only cuts the rows into row groups:
//! encoder threads encode them ([`crate::encode`]) and the writer appends them in order.

use std::path::Path;

use carc_rules::TileSet;

use crate::error::TablesError;
use crate::input::GameInput;
use crate::rows::game_batches;
use crate::schema::Table;
use crate::writer::{TableSummary, TableWriter, WriteOptions};

/// How many replayed games per worker may wait for the writer. At 4 the workers filled the
/// window within a millisecond whenever the writer waited for a lane (a lane's queue full, a
/// row group's columns coming back) and then slept, so one core idled (issue 35); a game's
/// rows are tens of kilobytes, so 16 cost little memory.
pub const WINDOW_PER_THREAD: usize = 16;

/// How an export runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExportOptions {
    /// Worker threads; `None`: every core.
    pub threads: Option<usize>,
    pub write: WriteOptions,
}

/// A game left out of the export, by its index in the input, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub index: usize,
    pub why: String,
}

/// What an export wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportSummary {
    /// Games written.
    pub games: usize,
    /// Games that could not be loaded (or whose replay failed inside the engine), in index
    /// order. Their rows are absent; a game that turns illegal is not here: it is written up
    /// to its last legal event, with `games.stopped` saying why.
    pub skipped: Vec<Skipped>,
    /// Rows and files per table, in [`Table::ALL`] order.
    pub tables: Vec<TableSummary>,
}

/// Checks that `out` is a new or empty folder and creates it.
fn prepare(out: &Path) -> Result<(), TablesError> {
    if out.exists() {
        let mut entries = std::fs::read_dir(out).map_err(|e| TablesError::io(out, e))?;
        if entries.next().is_some() {
            return Err(TablesError::NotEmpty {
                path: out.to_path_buf(),
            });
        }
    }
    std::fs::create_dir_all(out).map_err(|e| TablesError::io(out, e))
}

/// Writes the tables of `count` games under `out` (a new or empty folder). `load(i)` gives
/// game `i` (or why it cannot be read); `done()` is called once per game written or skipped,
/// for a progress bar.
pub fn export_games<L, P>(
    count: usize,
    load: L,
    loaded: &[TileSet],
    out: &Path,
    options: &ExportOptions,
    done: P,
) -> Result<ExportSummary, TablesError>
where
    L: Fn(usize) -> Result<GameInput, String> + Sync,
    P: Fn() + Sync,
{
    prepare(out)?;
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, count.max(1));
    // The Parquet encoding runs on encoder threads beside the replays: this thread only cuts
    // row groups and appends them encoded, in order.
    crate::encode::with_encoders(threads, |encoders| {
        let writers = Table::ALL
            .iter()
            .map(|&t| TableWriter::create(out, t, options.write, encoders.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        drop(encoders);
        write_games(count, threads, load, loaded, writers, done)
    })
}

/// Replays the games on `threads` workers and writes their rows in order with `writers`.
fn write_games<L, P>(
    count: usize,
    threads: usize,
    load: L,
    loaded: &[TileSet],
    mut writers: Vec<TableWriter>,
    done: P,
) -> Result<ExportSummary, TablesError>
where
    L: Fn(usize) -> Result<GameInput, String> + Sync,
    P: Fn() + Sync,
{
    let mut skipped = Vec::new();
    let mut games = 0;
    // A panic in the engine is a bug, but it must not stop the export: it becomes this
    // game's reason to be skipped.
    let replay = |i: usize| {
        let input = load(i)?;
        game_batches(i as u64, &input, loaded).map_err(|e| format!("cannot build its rows: {e}"))
    };
    let written = carc_in_order::map_in_order(
        count,
        threads,
        threads * WINDOW_PER_THREAD,
        replay,
        |i, result| {
            let result =
                result.unwrap_or_else(|_| Err("internal error: the replay panicked".into()));
            let step = match result {
                Ok(batches) => {
                    games += 1;
                    writers
                        .iter_mut()
                        .zip(&batches.batches)
                        .try_for_each(|(w, b)| w.write(b))
                }
                Err(why) => {
                    skipped.push(Skipped { index: i, why });
                    Ok(())
                }
            };
            done();
            step
        },
    );
    written?;
    for w in &mut writers {
        w.end_rows()?;
    }
    let tables = writers
        .into_iter()
        .map(TableWriter::finish)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ExportSummary {
        games,
        skipped,
        tables,
    })
}
