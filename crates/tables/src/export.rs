//! The export of many games: replayed on every core, written in the games' order.
//!
//! Workers take the next few games (at most [`GAMES_PER_TASK`]), load and replay them, and hand
//! their rows to the writer (the calling thread), which writes the games strictly in index order,
//! so the output is the same on any number of threads (`carc-in-order`). The workers may run at
//! most [`TASKS_PER_THREAD`] tasks per thread ahead of the writer: the games waiting to be written
//! are bounded, and with them the memory, whatever the number of games. The writer only cuts the
//! rows into row groups: encoder threads encode them ([`crate::encode`]) and the writer appends
//! them in order.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, SchemaRef};
use carc_rules::TileSet;

use crate::error::TablesError;
use crate::input::GameInput;
use crate::rows::{game_batches, GameBatches};
use crate::schema::Table;
use crate::writer::{TableSummary, TableWriter, WriteOptions};

/// How an export runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExportOptions {
    /// Worker threads; `None`: every core.
    pub threads: Option<usize>,
    pub write: WriteOptions,
    /// Games a worker replays as one task; `None`: as many as leaves every worker
    /// [`MIN_TASKS_PER_THREAD`] tasks, and at most [`GAMES_PER_TASK`]. The files do not depend
    /// on it: each game's rows are written on their own.
    pub games_per_task: Option<usize>,
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
        let per_task = games_per_task(count, threads, options.games_per_task);
        write_games(count, threads, per_task, load, loaded, writers, done)
    })
}

/// The most games a worker replays as one task. Their rows are joined into one batch per table on
/// the worker, where each game's Arrow arrays were made and are freed; only the joined arrays cross
/// to the encoder lanes, which free them. Freeing memory that another thread allocated goes through
/// the allocator's shared free lists, and one game's arrays are a few hundred small allocations: on
/// two cores those frees made `export` spend ~10 % more CPU than on one (issue 35,
/// `docs/benchmarks.md`).
pub const GAMES_PER_TASK: usize = 16;

/// Tasks every worker gets at least, where there are games enough: with few games, tasks of
/// fewer games keep every core busy, which matters most where a game is slow to load
/// (`--quality` judges every move of it with the engine).
pub const MIN_TASKS_PER_THREAD: usize = 8;

/// The games of a task: `asked`, or as many as leaves every one of `threads` workers
/// [`MIN_TASKS_PER_THREAD`] of the `count` games' tasks; from 1 to [`GAMES_PER_TASK`].
fn games_per_task(count: usize, threads: usize, asked: Option<usize>) -> usize {
    asked
        .unwrap_or(count / (threads.max(1) * MIN_TASKS_PER_THREAD))
        .clamp(1, GAMES_PER_TASK)
}

/// How many tasks per worker may wait for the writer (each up to [`GAMES_PER_TASK`] games). When
/// a worker could be only 4 games ahead, the workers filled the window within a millisecond
/// whenever the writer waited for a lane (a lane's queue full, a row group's columns coming
/// back) and then slept, so one core idled (issue 35); a game's rows are tens of kilobytes, so
/// 32 games cost little memory.
pub const TASKS_PER_THREAD: usize = 2;

/// The rows of up to [`GAMES_PER_TASK`] consecutive games, replayed by one worker.
struct Task {
    /// Per game, in order: its rows in each table (in [`Table::ALL`] order), or why it was
    /// left out.
    games: Vec<Result<Vec<usize>, String>>,
    /// One batch per table: the rows of the task's written games, one game after the other.
    batches: Vec<RecordBatch>,
}

/// Replays games `range` and joins their rows (see [`GAMES_PER_TASK`]): a task.
fn replay_task(
    range: std::ops::Range<usize>,
    replay: impl Fn(usize) -> Result<GameBatches, String>,
) -> Result<Task, ArrowError> {
    let mut games = Vec::with_capacity(range.len());
    let mut per_table: Vec<Vec<RecordBatch>> = Table::ALL.iter().map(|_| Vec::new()).collect();
    for i in range {
        // A panic in the engine is a bug, but it must not stop the export, nor lose the
        // task's other games: it becomes this game's reason to be skipped.
        let result = catch_unwind(AssertUnwindSafe(|| replay(i)))
            .unwrap_or_else(|_| Err("internal error: the replay panicked".into()));
        games.push(result.map(|game| {
            let rows = game.batches.iter().map(RecordBatch::num_rows).collect();
            for (table, batch) in per_table.iter_mut().zip(game.batches) {
                table.push(batch);
            }
            rows
        }));
    }
    let batches = Table::ALL
        .iter()
        .zip(per_table)
        .map(|(table, batches)| join(table.schema(), batches))
        .collect::<Result<_, _>>()?;
    Ok(Task { games, batches })
}

/// The batches' rows as one batch (the only one as it is).
fn join(schema: SchemaRef, mut batches: Vec<RecordBatch>) -> Result<RecordBatch, ArrowError> {
    if batches.len() == 1 {
        return Ok(batches.swap_remove(0));
    }
    arrow_select::concat::concat_batches(&schema, &batches)
}

/// Replays the games on `threads` workers and writes their rows in order with `writers`:
/// each game's rows are handed to the writers as they were built (its rows of the task's
/// joined batches), so the files are those of writing the games one by one.
fn write_games<L, P>(
    count: usize,
    threads: usize,
    per_task: usize,
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
    let replay = |i: usize| {
        let input = load(i)?;
        game_batches(i as u64, &input, loaded).map_err(|e| format!("cannot build its rows: {e}"))
    };
    let tasks = count.div_ceil(per_task);
    let range = |t: usize| t * per_task..((t + 1) * per_task).min(count);
    let written = carc_in_order::map_in_order(
        tasks,
        threads.min(tasks).max(1),
        threads * TASKS_PER_THREAD,
        |t| replay_task(range(t), replay),
        |t, result| {
            let task = match result {
                Ok(Ok(task)) => task,
                // Joining batches of one schema fails only on a bug; it is the export's error.
                Ok(Err(e)) => {
                    return Err(TablesError::Internal(format!(
                        "cannot join the games' rows: {e}"
                    )))
                }
                Err(panicked) => return Err(TablesError::Internal(panicked.0)),
            };
            let mut offsets = vec![0; writers.len()];
            for (i, game) in range(t).zip(task.games) {
                let step = match game {
                    Ok(rows) => {
                        games += 1;
                        writers
                            .iter_mut()
                            .zip(&task.batches)
                            .zip(offsets.iter_mut().zip(rows))
                            .try_for_each(|((w, batch), (offset, rows))| {
                                let written = w.write_rows(batch, *offset, rows);
                                *offset += rows;
                                written
                            })
                    }
                    Err(why) => {
                        skipped.push(Skipped { index: i, why });
                        Ok(())
                    }
                };
                done();
                step?;
            }
            Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_export_gives_every_worker_tasks_and_a_large_one_joins_the_most_games() {
        // Given few games for the threads: a game a task, so that no core idles
        assert_eq!(games_per_task(8, 2, None), 1);
        assert_eq!(games_per_task(0, 4, None), 1);
        // … more: every worker still gets at least 8 tasks
        assert_eq!(games_per_task(160, 2, None), 10);
        // … many: at most `GAMES_PER_TASK` a task
        assert_eq!(games_per_task(10_000, 2, None), GAMES_PER_TASK);
        // … and a size asked for is kept within the same bounds
        assert_eq!(games_per_task(10_000, 2, Some(4)), 4);
        assert_eq!(games_per_task(10_000, 2, Some(0)), 1);
        assert_eq!(games_per_task(10_000, 2, Some(1_000)), GAMES_PER_TASK);
    }
}
