//! Validating game files and storing the legal ones: the work behind `carc import` and
//! `carc rebuild`. The storage mapping (one stream per game, one store event per log line)
//! lives in the `carc-archive` crate and is described in `docs/store-cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use carc_archive::{check_game_id, event_id, read_game, split_lines};
use carc_events::{read_log, write_log, Log};
use carc_replay::fold;
use carc_rules::TileSet;
use carc_store::{AppendOptions, ExpectedVersion, NewEvent, PreparedBatch, Store};
use serde_json::{json, Value};

use crate::companions;
use crate::game_summary::timeline_summary;
use crate::input;
use crate::log_problem::log_problem;
use crate::store_context::Ctx;

/// What happened to one file.
enum Outcome {
    /// Stored (`extended`: the store held an earlier part of the same game, the rest was
    /// appended).
    Imported {
        game: String,
        lines: usize,
        sealed: bool,
        extended: bool,
        /// Annotation and variation records of a bundle stored beside the game.
        records: usize,
    },
    /// The store already holds exactly this log (`records`: as for `Imported`).
    Skipped { game: String, records: usize },
    /// Not stored; nothing changed. `line` 0: the file as a whole (cannot be read).
    Rejected {
        line: usize,
        message: String,
        /// The file could not be read at all (exit 2, not 1).
        unreadable: bool,
    },
}

impl Outcome {
    /// A file read but refused: its content is not a legal game (exit 1).
    fn rejected(line: usize, message: String) -> Self {
        Outcome::Rejected {
            line,
            message,
            unreadable: false,
        }
    }
}

/// A file read and checked without looking at the store: the part of an import that runs on
/// worker threads, in parallel with the storing of the files before it.
enum Prepared {
    /// A legal game log, ready to be compared with the store and stored.
    Game(Box<Validated>),
    /// A bundle (a game with annotation or variation records), decoded: its records are
    /// checked against the store, so the rest is done on the store's thread.
    Bundle { bytes: Vec<u8>, log: Box<Log> },
    /// Refused before the store is looked at.
    Refused(Outcome),
}

/// A legal game's bytes, with what storing it needs.
struct Validated {
    game: String,
    bytes: Vec<u8>,
    /// Its lines as store events (`<game>#<n>`, the line's bytes), built on the worker that
    /// validated it: the store's thread only takes those the store lacks. The batch is checked
    /// there too, and a finished game's brings its sealed record's body, deflated (the record
    /// stored is the same; the store's thread only adds its position and checksum).
    events: PreparedBatch,
    /// The game is over: it is stored sealed.
    finished: bool,
    /// Its `games` line, kept beside it in the store.
    summary: Vec<u8>,
}

/// Reads one file and checks it (decode, fold, assertions); touches no store.
fn prepare_file(path: &Path, loaded: &[TileSet]) -> Result<Prepared> {
    // Only a regular file of bounded size is opened: a pipe or device named by mistake is
    // refused from its metadata, so no worker blocks on it.
    let bytes = match carc_formats::read_game_bytes(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            return Ok(Prepared::Refused(Outcome::Rejected {
                line: 0,
                message: format!("cannot read: {}", e.reason()),
                unreadable: true,
            }))
        }
    };
    // Another program's game is converted; the store holds our format.
    let (bytes, original) = match input::read_converted(path, &bytes) {
        Some(Ok(log)) => (write_log(&log).into_bytes(), Some(bytes)),
        Some(Err(e)) => return Ok(Prepared::Refused(Outcome::rejected(e.line(), e.message()))),
        None => (bytes, None),
    };
    Ok(match read_log(&bytes) {
        Ok(log) if log.has_companions() => Prepared::Bundle {
            bytes,
            log: Box::new(log),
        },
        // Decoded once: the log is stored from exactly these bytes.
        Ok(log) => match validate(bytes, log, loaded)? {
            Ok(game) => Prepared::Game(Box::new(game)),
            // A claim of a converted file that our rules contradict is shown where the file
            // states it, not at a line of the converted log
            Err(Outcome::Rejected {
                line,
                message,
                unreadable,
            }) => {
                let (line, message) = match original
                    .and_then(|original| carc_formats::claim_in_file(path, &original, line))
                {
                    Some((at, position)) => (
                        position.line,
                        format!("{message} (stated at {at}, column {})", position.column),
                    ),
                    None => (line, message),
                };
                Prepared::Refused(Outcome::Rejected {
                    line,
                    message,
                    unreadable,
                })
            }
            Err(refused) => Prepared::Refused(refused),
        },
        Err(e) => Prepared::Refused(Outcome::rejected(e.line, e.kind.to_string())),
    })
}

/// Stores what [`prepare_file`] made of a file.
fn store_prepared(
    store: &Store,
    group: &mut Group,
    prepared: Prepared,
    loaded: &[TileSet],
) -> Result<Outcome> {
    match prepared {
        Prepared::Game(game) => store_validated(store, group, *game),
        Prepared::Bundle { bytes, log } => store_bundle(store, group, &bytes, &log, loaded),
        Prepared::Refused(outcome) => Ok(outcome),
    }
}

/// Stores a bundle (`log` is `bytes` decoded): its game's own lines as a game (see
/// [`store_game`]), then its annotation and variation lines in the game's companion streams,
/// once the game is stored or found stored already, and only if they are all valid.
fn store_bundle(
    store: &Store,
    group: &mut Group,
    bytes: &[u8],
    log: &Log,
    loaded: &[TileSet],
) -> Result<Outcome> {
    if let Err(why) = check_game_id(&log.header.game) {
        return Ok(Outcome::rejected(1, why));
    }
    let plan = match companions::plan_import(store, log, loaded)? {
        Ok(plan) => plan,
        Err((line, message)) => return Ok(Outcome::rejected(line, message)),
    };
    let outcome = store_game(store, group, companions::game_lines(bytes, log), loaded)?;
    // The records go beside a game that is stored: commit it first.
    group.commit(store)?;
    if matches!(outcome, Outcome::Rejected { .. }) {
        return Ok(outcome);
    }
    let added = plan.apply(store)?;
    Ok(match outcome {
        Outcome::Imported {
            game,
            lines,
            sealed,
            extended,
            ..
        } => Outcome::Imported {
            game,
            lines,
            sealed,
            extended,
            records: added,
        },
        Outcome::Skipped { game, .. } => Outcome::Skipped {
            game,
            records: added,
        },
        rejected => rejected,
    })
}

/// Validates a game's bytes (decode, fold, assertions) and, only if it is a legal game,
/// stores exactly these bytes.
fn store_game(
    store: &Store,
    group: &mut Group,
    bytes: Vec<u8>,
    loaded: &[TileSet],
) -> Result<Outcome> {
    let log: Log = match read_log(&bytes) {
        Ok(log) => log,
        Err(e) => return Ok(Outcome::rejected(e.line, e.kind.to_string())),
    };
    match validate(bytes, log, loaded)? {
        Ok(game) => store_validated(store, group, game),
        Err(refused) => Ok(refused),
    }
}

/// Checks that `log` (the decoding of `bytes`) is a legal game: its id can be stored, it
/// replays, its assertions hold. `Err` is the rejection.
fn validate(
    bytes: Vec<u8>,
    log: Log,
    loaded: &[TileSet],
) -> Result<std::result::Result<Validated, Outcome>> {
    let reject = |line: usize, message: String| Ok(Err(Outcome::rejected(line, message)));
    let game = log.header.game.clone();
    if let Err(why) = check_game_id(&game) {
        return reject(1, why);
    }
    let items = 1 + log.events.len() + log.assertions.len();
    let timeline = fold(log, loaded);
    if let Some((line, message)) = log_problem(&timeline) {
        return reject(line, message);
    }
    let events: Vec<NewEvent> = split_lines(&bytes)
        .iter()
        .enumerate()
        .map(|(i, line)| NewEvent::new(event_id(&game, i as u64 + 1), line.to_vec()))
        .collect();
    let lines = events.len();
    if lines != items {
        return reject(
            0,
            format!("internal: {lines} lines but {items} decoded items"),
        );
    }
    let summary = serde_json::to_vec(&timeline_summary(&game, &timeline))?;
    let events = if timeline.finished {
        PreparedBatch::sealing_new_stream(&game, events)
    } else {
        PreparedBatch::new(&game, events)
    };
    Ok(Ok(Validated {
        game,
        bytes,
        events,
        finished: timeline.finished,
        summary,
    }))
}

/// Whether a log line is an assertion (`"type":"expect_…"`): it claims, it does not play.
fn is_assertion(line: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(line).is_ok_and(|v| {
        v.get("seq").is_none()
            && v.get("type")
                .and_then(|t| t.as_str())
                .is_some_and(|t| t.starts_with("expect_"))
    })
}

/// Compares a legal game with what the store holds of it and stores what is new.
fn store_validated(store: &Store, group: &mut Group, validated: Validated) -> Result<Outcome> {
    let reject = |line: usize, message: String| Ok(Outcome::rejected(line, message));
    let Validated {
        game,
        bytes,
        events,
        finished,
        summary,
    } = validated;
    let count = events.events().len();

    // The same game twice in one group: the first must be stored before the second is
    // compared with it.
    if group.holds(&game) {
        group.commit(store)?;
    }
    let stored = read_game(store, &game)?;
    let (from, extended) = match &stored {
        None => (0, false),
        Some(s) => {
            let lines = split_lines(&bytes);
            let same = s
                .lines
                .iter()
                .zip(&lines)
                .take_while(|(a, b)| a.payload == **b)
                .count();
            let identical = (same == s.lines.len() && same == lines.len())
                || (s.has_retractions() && s.effective_bytes()? == bytes);
            // The same game with and without its assertions (a finished game's trailing
            // `expect_final_scores`, say) is the same game: the events alone are compared.
            // The file's assertions held (`validate`); the stored lines are kept as they are.
            let same_events = !identical
                && finished
                && s.lines
                    .iter()
                    .map(|l| l.payload.as_slice())
                    .filter(|l| !is_assertion(l))
                    .eq(lines.iter().copied().filter(|l| !is_assertion(l)));
            if identical || same_events {
                if finished && !s.sealed {
                    store.seal(&game)?;
                }
                return Ok(Outcome::Skipped { game, records: 0 });
            }
            if same == s.lines.len() && !s.sealed {
                (same, true)
            } else {
                let why = if same == lines.len() {
                    format!(
                        "the store holds a longer log of this game ({} stored lines)",
                        s.lines.len()
                    )
                } else if s.sealed && same == s.lines.len() {
                    "the stored game is finished and sealed".to_string()
                } else {
                    format!("line {} differs", same + 1)
                };
                return reject(
                    same.min(lines.len().saturating_sub(1)) + 1,
                    format!(
                        "a different log of game {game:?} is already stored ({why}); \
                         `carc export {game}` shows it"
                    ),
                );
            }
        }
    };
    let batch = if from == 0 {
        events
    } else {
        PreparedBatch::new(&game, events.into_events().split_off(from))
    };
    let expected = if from == 0 {
        ExpectedVersion::NoStream
    } else {
        ExpectedVersion::Exactly(from as u64)
    };
    // A finished game is appended and sealed in one transaction (never seen finished but
    // unsealed), with the summary `games` lists. It joins the group that `import_all`
    // commits in one sled transaction and one fsync, and reports only after that.
    let sealed = finished;
    group.items.push(Pending {
        game: game.clone(),
        expected,
        batch,
        seal: sealed,
        summary,
    });
    Ok(Outcome::Imported {
        game,
        lines: count,
        sealed,
        extended,
        records: 0,
    })
}

/// `, N annotation and variation records stored beside it` when N > 0.
fn records_note(records: usize) -> String {
    if records == 0 {
        String::new()
    } else {
        format!(", {records} annotation and variation records stored beside it")
    }
}

/// A game validated and waiting for its group's commit.
struct Pending {
    game: String,
    expected: ExpectedVersion,
    batch: PreparedBatch,
    seal: bool,
    summary: Vec<u8>,
}

/// The games of an import not committed yet.
#[derive(Default)]
pub struct Group {
    items: Vec<Pending>,
    /// The thread freeing the group committed before.
    freeing: Option<std::thread::JoinHandle<()>>,
}

impl Group {
    fn holds(&self, game: &str) -> bool {
        self.items.iter().any(|p| p.game == game)
    }

    /// Stores every waiting game in one transaction (each game atomically, checked as a
    /// single append would be), without flushing: the caller flushes before it reports.
    fn commit(&mut self, store: &Store) -> Result<()> {
        if self.items.is_empty() {
            return Ok(());
        }
        let items: Vec<_> = self
            .items
            .iter()
            .map(|p| {
                (
                    p.expected,
                    &p.batch,
                    AppendOptions {
                        seal: p.seal,
                        summary: Some(&p.summary),
                        defer_flush: true,
                    },
                )
            })
            .collect();
        let results = store.append_many_prepared(&items, true)?;
        for (p, r) in self.items.iter().zip(results) {
            r.with_context(|| format!("cannot store game {}", p.game))?;
        }
        // Freeing a group (two allocations a line of every game) is work of its own, in no
        // order: a thread of its own does it while this one stores the next group. One such
        // thread at a time, so a group's memory is given back before the next one's is.
        let done = std::mem::take(&mut self.items);
        if let Some(previous) = self.freeing.take() {
            let _ = previous.join();
        }
        self.freeing = std::thread::Builder::new()
            .name("import-free".into())
            .spawn(move || drop(done))
            .ok();
        Ok(())
    }
}

impl Drop for Group {
    /// The last group's freeing thread is joined here, so an import leaves no thread behind
    /// when it returns (its memory is given back before the report is printed).
    fn drop(&mut self) {
        if let Some(freeing) = self.freeing.take() {
            let _ = freeing.join();
        }
    }
}

/// The most file bytes an import reads ahead of the store (the largest game file, 64 MiB, is
/// read alone).
const IMPORT_BYTES_IN_FLIGHT: u64 = 64 * 1024 * 1024;

/// How many stored games one flush makes durable at most during an import. Every game is
/// committed atomically on its own; the group only shares the fsync, and nothing is reported
/// as imported before it.
const GROUP_COMMIT: usize = 128;

/// Counts and per-file results of an import run.
#[derive(Default)]
pub struct ImportReport {
    pub imported: usize,
    pub skipped: usize,
    pub rejected: usize,
    /// Of the rejected files, those that could not be read at all.
    pub unreadable: usize,
    /// Annotation and variation records stored beside games (from bundles).
    pub records: usize,
    /// One JSON entry per file, when [`ImportRun::file_entries`] asks for them.
    pub files: Vec<Value>,
    pub rejections: Vec<String>,
}

/// How [`import_all`] runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct ImportRun {
    /// Worker threads that read and check files (`None`: every core). The store, the report
    /// and the exit code are the same for any number.
    pub threads: Option<usize>,
    /// Keep a JSON entry per file in [`ImportReport::files`] (for `--json`). Without it the
    /// report holds counts and rejections only, so that its memory does not grow with the
    /// games imported.
    pub file_entries: bool,
}

/// Validates and stores each file in turn, with a progress bar on stderr (unless quiet or not
/// a terminal).
pub fn import_all(
    ctx: &Ctx,
    store: &Store,
    files: &[PathBuf],
    loaded: &[TileSet],
    run: ImportRun,
) -> Result<ImportReport> {
    let bar = crate::progress::bar(ctx.quiet, files.len() as u64, "files");
    let mut report = ImportReport::default();
    // Notes on stored games wait for the flush that makes them durable (group commit).
    let mut unflushed: Vec<String> = Vec::new();
    let mut group = Group::default();
    // Files are read and replayed on worker threads, a bounded window ahead; this thread
    // stores them in file order, so the store, the report and the exit code are the same as
    // one file at a time. The window is bounded in bytes too: a folder of large (hostile)
    // files is never held in memory many at a time.
    let threads = run
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // A group's worth of files beyond the workers' own few: while this thread commits a
    // group (sled's transaction, a few milliseconds), the workers go on with the next one
    // instead of waiting for room (with only `threads * 4` they filled the window within a
    // millisecond and slept: a core idle at every group, docs/benchmarks.md, issue 35).
    let window = carc_in_order::Window {
        inputs: threads * 4 + GROUP_COMMIT,
        weight: IMPORT_BYTES_IN_FLIGHT,
    };
    let size = |i: usize| std::fs::metadata(&files[i]).map_or(0, |m| m.len());
    let prepare = |i: usize| prepare_file(&files[i], loaded);
    std::thread::scope(|scope| {
        // The flush of the groups committed so far runs on a thread of its own while this one
        // stores the next group (an fsync sleeps: this thread used to sleep with it, and the
        // workers with a full window). Its notes are shown once it has returned; the last group
        // is flushed here before the report, so nothing is reported before it is durable.
        let mut flushing: Option<Flushing<'_>> = None;
        carc_in_order::map_in_order_weighted(
            files.len(),
            threads,
            window,
            size,
            prepare,
            |i, prepared| {
                let file = &files[i];
                let name = file.display().to_string();
                if !bar.is_hidden() {
                    bar.set_message(name.clone());
                }
                let outcome = match prepared {
                    Ok(prepared) => store_prepared(store, &mut group, prepared?, loaded)?,
                    // A bug in the checks: this file is refused with the bug named, the rest go on.
                    Err(panicked) => Outcome::rejected(0, format!("{panicked}; please report it")),
                };
                let entry = match outcome {
                    Outcome::Imported {
                        game,
                        lines,
                        sealed,
                        extended,
                        records,
                    } => {
                        report.imported += 1;
                        report.records += records;
                        // Notes and entries are made only where they are shown: this is the
                        // store's thread, which every file passes through.
                        if ctx.verbose {
                            unflushed.push(format!(
                                "{name}: imported game {game} ({lines} lines{}{}{})",
                                if extended {
                                    ", extended a stored earlier part"
                                } else {
                                    ""
                                },
                                if sealed {
                                    ", finished: sealed"
                                } else {
                                    ", in progress"
                                },
                                records_note(records)
                            ));
                        }
                        run.file_entries.then(|| {
                            json!({"file": name, "status": "imported", "game": game, "lines": lines,
                           "sealed": sealed, "extended": extended, "records": records})
                        })
                    }
                    Outcome::Skipped { game, records } => {
                        report.skipped += 1;
                        report.records += records;
                        bar.suspend(|| {
                            ctx.debug(format!(
                                "{name}: skipped, game {game} is already stored{}",
                                records_note(records)
                            ))
                        });
                        run.file_entries.then(|| {
                        json!({"file": name, "status": "skipped", "game": game, "records": records})
                    })
                    }
                    Outcome::Rejected {
                        line,
                        message,
                        unreadable,
                    } => {
                        report.rejected += 1;
                        report.unreadable += usize::from(unreadable);
                        let text = if line == 0 {
                            format!("{name}: {message}")
                        } else {
                            format!("{name}:{line}: {message}")
                        };
                        bar.suspend(|| ctx.debug(format!("rejected {text}")));
                        report.rejections.push(text);
                        let line = if line == 0 { json!(null) } else { json!(line) };
                        run.file_entries.then(|| {
                            json!({"file": name, "status": "rejected", "line": line,
                               "message": message})
                        })
                    }
                };
                report.files.extend(entry);
                bar.inc(1);
                if group.items.len() >= GROUP_COMMIT {
                    group.commit(store)?;
                    // One flush in flight at a time: the one before this group's has returned
                    // (and its notes are shown) before this one starts.
                    finish_flush(flushing.take(), ctx, &bar)?;
                    let notes = std::mem::take(&mut unflushed);
                    flushing = Some(Flushing {
                        thread: scope.spawn(move || store.flush()),
                        notes,
                    });
                }
                anyhow::Ok(())
            },
        )?;
        group.commit(store)?;
        finish_flush(flushing.take(), ctx, &bar)?;
        store.flush()?;
        bar.suspend(|| unflushed.drain(..).for_each(|n| ctx.debug(n)));
        anyhow::Ok(())
    })?;
    bar.finish_and_clear();
    Ok(report)
}

/// A flush of the store running on a thread of its own, with the notes on the games it makes
/// durable.
struct Flushing<'scope> {
    thread: std::thread::ScopedJoinHandle<'scope, Result<(), carc_store::StoreError>>,
    notes: Vec<String>,
}

/// Waits for `flushing` (if any) to return, then shows its notes; its error is the import's.
fn finish_flush(
    flushing: Option<Flushing<'_>>,
    ctx: &Ctx,
    bar: &indicatif::ProgressBar,
) -> Result<()> {
    let Some(Flushing { thread, notes }) = flushing else {
        return Ok(());
    };
    thread
        .join()
        .map_err(|_| anyhow::anyhow!("internal error: the store's flush panicked"))??;
    bar.suspend(|| notes.into_iter().for_each(|n| ctx.debug(n)));
    Ok(())
}

impl ImportReport {
    /// The exit code of an import (the table in `exit_code`): 2 if a file could not be read,
    /// else 1 if one was rejected, else 0.
    pub fn exit_code(&self) -> std::process::ExitCode {
        crate::exit_code::worst([
            if self.unreadable > 0 {
                crate::exit_code::CANNOT_RUN
            } else {
                crate::exit_code::OK
            },
            if self.rejected > 0 {
                crate::exit_code::ILLEGAL
            } else {
                crate::exit_code::OK
            },
        ])
    }
}

/// The import summary on stdout: counts and rejections, or one JSON object.
pub fn print_import_report(report: &ImportReport, as_json: bool) -> Result<()> {
    let mut out = crate::terminal::stdout();
    if as_json {
        writeln!(
            out,
            "{}",
            json!({"imported": report.imported, "skipped": report.skipped,
                   "rejected": report.rejected, "records": report.records,
                   "files": report.files})
        )?;
    } else {
        writeln!(
            out,
            "imported {}, skipped {} (already present), rejected {}{}",
            report.imported,
            report.skipped,
            report.rejected,
            if report.records > 0 {
                format!(
                    "; {} annotation and variation records stored",
                    report.records
                )
            } else {
                String::new()
            }
        )?;
        for r in &report.rejections {
            writeln!(out, "rejected {r}")?;
        }
    }
    Ok(())
}
