//! The store-backed verbs: import, games, export, verify, rebuild, record (in `record`).
//! The storage mapping (one stream per game, one store event per log line) lives in the
//! `carc-archive` crate, shared with the viewer, and is described in `docs/store-cli.md`.
//!
//! Like `commands`, each verb returns the exit code; errors that stop a verb are `anyhow`
//! errors, printed by `main` with exit code 2 (among them "store … is in use by another
//! process").

mod record;

pub use carc_archive::read_game;
pub use record::{record, RecordCmd};

use std::fs;
use std::io::{self, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use carc_events::{read_log, read_log_from, write_log, Log};
use carc_replay::{check_assertions, fold, ReplayError, Timeline};
use carc_rules::TileSet;
use carc_store::{ExpectedVersion, NewEvent, Store};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

use crate::companions::{self, bundle_tail, Annotated, Home};
use crate::input;
use crate::json::seat_name;
use carc_archive::{check_game_id, event_id, game_ids, split_lines, StoredGame};

/// Where the store is and how chatty stderr is.
pub struct Ctx {
    pub store_dir: PathBuf,
    pub quiet: bool,
    pub verbose: bool,
}

impl Ctx {
    /// `--store DIR`, else `$CARC_STORE`, else `./carc-store`.
    pub fn new(store: Option<PathBuf>, quiet: bool, verbose: bool) -> Ctx {
        let store_dir = store
            .or_else(|| {
                std::env::var_os("CARC_STORE")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .unwrap_or_else(|| PathBuf::from("carc-store"));
        // Without a trailing `/`, so that `<dir>.old-<n>` is a sibling of the folder.
        let store_dir = store_dir.components().collect();
        Ctx {
            store_dir,
            quiet,
            verbose,
        }
    }

    /// Opens (creating on first use) the store. A store held by another process is the
    /// error "store <dir> is in use by another process".
    pub fn open(&self) -> Result<Store> {
        Ok(Store::open(&self.store_dir)?)
    }

    /// A note on stderr unless `--quiet`.
    pub fn info(&self, msg: impl std::fmt::Display) {
        if !self.quiet {
            eprintln!("carc: {msg}");
        }
    }

    /// A note on stderr with `--verbose` only.
    fn debug(&self, msg: impl std::fmt::Display) {
        if self.verbose {
            eprintln!("carc: {msg}");
        }
    }

    pub fn no_game(&self, game: &str) -> anyhow::Error {
        anyhow::anyhow!(
            "no game {game:?} in store {}; `carc games` lists the stored games",
            self.store_dir.display()
        )
    }
}

/// The one-line reason of a replay error, without its `line N: ` prefix.
fn replay_message(err: &ReplayError) -> String {
    match err {
        ReplayError::Setup(e) => format!("the header does not describe a playable game: {e}"),
        ReplayError::Rule {
            seq,
            event,
            rule,
            violation,
            ..
        } => format!("event {seq} ({event}) breaks rule {rule}: {violation}"),
    }
}

/// The first problem of a decoded log: an illegal event or a failed assertion, as
/// `(line, message)`.
fn log_problem(timeline: &Timeline) -> Option<(usize, String)> {
    if let Some(err) = &timeline.error {
        return Some((err.line(), replay_message(err)));
    }
    check_assertions(timeline).first().map(|f| {
        (
            f.line,
            format!(
                "{} claims scores {:?}, but {}",
                f.assertion, f.claimed, f.actual
            ),
        )
    })
}

// ---- import -----------------------------------------------------------------------------------

#[derive(Args)]
pub struct ImportArgs {
    /// Log files (JSON Lines) or JCloisterZone saved games (`.jcz`), or folders: a folder
    /// imports every `*.jsonl` and `*.jcz` in it, sorted.
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// One JSON object on stdout instead of the text summary.
    #[arg(long)]
    json: bool,
}

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
    Rejected { line: usize, message: String },
}

/// `*.jsonl` and `*.jcz` files of the given paths, folders expanded (sorted, not recursive).
/// In a folder, files kept beside logs (`*.annotations.jsonl`, `*.variations.jsonl`) are not games and
/// are passed over.
pub(crate) fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = fs::read_dir(path)
                .with_context(|| format!("cannot read folder {}", path.display()))?
                .map(|e| e.map(|e| e.path()))
                .collect::<io::Result<Vec<_>>>()
                .with_context(|| format!("cannot read folder {}", path.display()))?
                .into_iter()
                .filter(|p| {
                    p.is_file()
                        && p.extension().is_some_and(|e| e == "jsonl" || e == "jcz")
                        && !is_sidecar(p)
                })
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Whether the file holds records kept beside a log (`*.annotations.jsonl`,
/// `*.variations.jsonl`) rather than a game.
pub(crate) fn is_sidecar(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".annotations.jsonl") || name.ends_with(".variations.jsonl")
}

/// Validates one file (decode, fold, assertions) and, only if it is a legal game, stores it.
fn import_file(store: &Store, path: &Path, loaded: &[TileSet]) -> Result<Outcome> {
    let reject = |line: usize, message: String| Ok(Outcome::Rejected { line, message });
    if !input::is_jsonl_name(path) {
        let raw = match fs::read(path) {
            Ok(b) => b,
            Err(e) => return reject(0, format!("cannot read: {e}")),
        };
        if input::is_jcz(path, &raw) {
            // A JCloisterZone game is converted; the store holds our format.
            return match input::read_jcz(path, &raw) {
                Ok(log) => store_log(store, write_log(&log).into_bytes(), loaded),
                Err(e) => reject(0, e.message()),
            };
        }
    }
    // Decode from a reader first: an over-long line is refused without being read into memory.
    let file = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return reject(0, format!("cannot read: {e}")),
    };
    if let Err(e) = read_log_from(BufReader::new(file)) {
        return reject(e.line, e.kind.to_string());
    }
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) => return reject(0, format!("cannot read: {e}")),
    };
    store_log(store, bytes, loaded)
}

/// Validates a log's bytes and stores them (see [`store_game`]). A bundle's annotation and
/// variation lines go to the game's companion streams, once the game is stored or found
/// stored already, and only if they are all valid.
fn store_log(store: &Store, bytes: Vec<u8>, loaded: &[TileSet]) -> Result<Outcome> {
    let log = match read_log(&bytes) {
        Ok(log) if log.has_companions() => log,
        Ok(_) => return store_game(store, bytes, loaded),
        Err(e) => {
            return Ok(Outcome::Rejected {
                line: e.line,
                message: e.kind.to_string(),
            })
        }
    };
    if let Err(why) = check_game_id(&log.header.game) {
        return Ok(Outcome::Rejected {
            line: 1,
            message: why,
        });
    }
    let plan = match companions::plan_import(store, &log, loaded)? {
        Ok(plan) => plan,
        Err((line, message)) => return Ok(Outcome::Rejected { line, message }),
    };
    let outcome = store_game(store, companions::game_lines(&bytes, &log), loaded)?;
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
fn store_game(store: &Store, bytes: Vec<u8>, loaded: &[TileSet]) -> Result<Outcome> {
    let reject = |line: usize, message: String| Ok(Outcome::Rejected { line, message });
    // Decode the bytes actually stored (the file may have changed in between).
    let log: Log = match read_log(&bytes) {
        Ok(log) => log,
        Err(e) => return reject(e.line, e.kind.to_string()),
    };
    let game = log.header.game.clone();
    if let Err(why) = check_game_id(&game) {
        return reject(1, why);
    }
    let items = 1 + log.events.len() + log.assertions.len();
    let timeline = fold(log, loaded);
    if let Some((line, message)) = log_problem(&timeline) {
        return reject(line, message);
    }
    let lines = split_lines(&bytes);
    if lines.len() != items {
        return reject(
            0,
            format!("internal: {} lines but {items} decoded items", lines.len()),
        );
    }

    let stored = read_game(store, &game)?;
    let (from, extended) = match &stored {
        None => (0, false),
        Some(s) => {
            let same = s
                .lines
                .iter()
                .zip(&lines)
                .take_while(|(a, b)| a.payload == **b)
                .count();
            let identical = (same == s.lines.len() && same == lines.len())
                || (s.has_retractions() && s.effective_bytes()? == bytes);
            if identical {
                if timeline.finished && !s.sealed {
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
    let batch: Vec<NewEvent> = lines
        .iter()
        .enumerate()
        .skip(from)
        .map(|(i, line)| NewEvent::new(event_id(&game, i as u64 + 1), line.to_vec()))
        .collect();
    let expected = if from == 0 {
        ExpectedVersion::NoStream
    } else {
        ExpectedVersion::Exactly(from as u64)
    };
    store
        .append(&game, expected, &batch)
        .with_context(|| format!("cannot store game {game}"))?;
    let sealed = timeline.finished;
    if sealed {
        store
            .seal(&game)
            .with_context(|| format!("cannot seal game {game}"))?;
    }
    Ok(Outcome::Imported {
        game,
        lines: lines.len(),
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

/// Counts and per-file results of an import run.
#[derive(Default)]
struct ImportReport {
    imported: usize,
    skipped: usize,
    rejected: usize,
    /// Annotation and variation records stored beside games (from bundles).
    records: usize,
    files: Vec<Value>,
    rejections: Vec<String>,
}

fn import_all(
    ctx: &Ctx,
    store: &Store,
    files: &[PathBuf],
    loaded: &[TileSet],
) -> Result<ImportReport> {
    let bar = if ctx.quiet || !io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(files.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    };
    let mut report = ImportReport::default();
    for file in files {
        let name = file.display().to_string();
        bar.set_message(name.clone());
        let outcome = import_file(store, file, loaded)?;
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
                let msg = format!(
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
                );
                bar.suspend(|| ctx.debug(&msg));
                json!({"file": name, "status": "imported", "game": game, "lines": lines,
                       "sealed": sealed, "extended": extended, "records": records})
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
                json!({"file": name, "status": "skipped", "game": game, "records": records})
            }
            Outcome::Rejected { line, message } => {
                report.rejected += 1;
                let text = if line == 0 {
                    format!("{name}: {message}")
                } else {
                    format!("{name}:{line}: {message}")
                };
                bar.suspend(|| ctx.debug(format!("rejected {text}")));
                report.rejections.push(text);
                let line = if line == 0 { json!(null) } else { json!(line) };
                json!({"file": name, "status": "rejected", "line": line, "message": message})
            }
        };
        report.files.push(entry);
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(report)
}

fn print_import_report(report: &ImportReport, as_json: bool) -> Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
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

pub fn import(ctx: &Ctx, args: ImportArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let files = collect_files(&args.paths)?;
    let store = ctx.open()?;
    let report = import_all(ctx, &store, &files, loaded)?;
    print_import_report(&report, args.json)?;
    Ok(exit_if(report.rejected == 0))
}

fn exit_if(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

// ---- games ------------------------------------------------------------------------------------

#[derive(Args)]
pub struct GamesArgs {
    /// One JSON object per game on stdout (JSON Lines).
    #[arg(long)]
    json: bool,
}

/// The summary of one stored game (`games --json` shape).
fn game_summary(sg: &StoredGame, loaded: &[TileSet]) -> Value {
    let log = match sg.effective_log() {
        Ok(log) => log,
        Err(e) => return json!({"game": sg.game, "sealed": sg.sealed, "error": format!("{e:#}")}),
    };
    let header = log.header.clone();
    let timeline = fold(log, loaded);
    let scores = timeline.final_scores();
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners: Vec<String> = if timeline.finished {
        scores
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == best)
            .map(|(seat, _)| seat_name(&header, seat as u8))
            .collect()
    } else {
        Vec::new()
    };
    let mut v = json!({
        "game": sg.game,
        "players": header.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        "expansions": header.rules.expansions,
        "tile_sets": header.tile_sets,
        "events": timeline.log.events.len(),
        "turns": timeline.steps.last().map_or(0, |s| s.turn),
        "finished": timeline.finished,
        "sealed": sg.sealed,
        "winners": winners,
        "scores": scores.iter().enumerate()
            .map(|(seat, s)| json!({"player": seat_name(&header, seat as u8), "score": s}))
            .collect::<Vec<_>>(),
    });
    if let Some((line, message)) = log_problem(&timeline) {
        v["error"] = json!(format!("line {line}: {message}"));
    }
    v
}

fn summary_text(v: &Value) -> String {
    let game = v["game"].as_str().unwrap_or("?");
    if v.get("players").is_none() {
        return format!(
            "{game}: cannot be read: {}",
            v["error"].as_str().unwrap_or("?")
        );
    }
    let names = |key: &str| -> Vec<String> {
        v[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let expansions = names("expansions");
    let scores: Vec<String> = v["scores"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| format!("{} {}", s["player"].as_str().unwrap_or("?"), s["score"]))
                .collect()
        })
        .unwrap_or_default();
    let status = if v["finished"] == json!(true) {
        format!(
            "finished, winner {}; final scores",
            names("winners").join(" and ")
        )
    } else {
        "in progress; scores".to_string()
    };
    let mut text = format!(
        "{game}: {} [{}], {} events, {} turns, {status} {}",
        names("players").join(", "),
        if expansions.is_empty() {
            "base".to_string()
        } else {
            expansions.join(", ")
        },
        v["events"],
        v["turns"],
        scores.join(", ")
    );
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        text.push_str(&format!(" (PROBLEM: {e})"));
    }
    text
}

pub fn games(ctx: &Ctx, args: GamesArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let store = ctx.open()?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let ids = game_ids(&store)?;
    for id in &ids {
        let Some(sg) = read_game(&store, id)? else {
            continue;
        };
        let v = game_summary(&sg, loaded);
        if args.json {
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "{}", summary_text(&v))?;
        }
    }
    if !args.json && ids.is_empty() {
        ctx.info(format!("store {} holds no games", ctx.store_dir.display()));
    }
    Ok(ExitCode::SUCCESS)
}

// ---- export -----------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The JSON Lines log format (docs/log-format.md).
    Jsonl,
    /// A JCloisterZone saved game (docs/jcz.md), base game only.
    Jcz,
    /// A turn-by-turn report in Markdown, with every score's breakdown and the annotations.
    Md,
    /// The same report as one self-contained web page, with board pictures and a score graph.
    Html,
}

#[derive(Args)]
pub struct ExportArgs {
    /// The game: a stored game id (the header's `game`), or a log or `.jcz` file.
    game: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    format: ExportFormat,
    /// Write to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Every stored line, retracted lines and retraction records included (an audit view; not
    /// a valid log when the game has retractions). Stored games in the jsonl format only.
    #[arg(long, conflicts_with = "game_only")]
    raw: bool,
    /// The game alone: a jsonl export without the annotation and variation lines it otherwise
    /// ends with (a bundle); a report without the annotations and the variations.
    #[arg(long)]
    game_only: bool,
    #[command(flatten)]
    quality: crate::analyze::QualityArgs,
    /// HTML only: board pictures after `every` turn (the default), after the turns listed
    /// (`3,10,25`; 0 is the start tile), or `none`.
    #[arg(long, value_name = "every|none|N,M,...")]
    boards: Option<String>,
}

/// `--boards`: `every`, `none`, or a comma-separated list of turn numbers.
fn parse_boards(value: &str) -> Result<carc_report::Boards> {
    let value = value.trim();
    match value {
        "every" => return Ok(carc_report::Boards::EveryTurn),
        "none" => return Ok(carc_report::Boards::None),
        _ => {}
    }
    let mut turns = std::collections::BTreeSet::new();
    for part in value.split(',') {
        let turn = part.trim().parse::<u32>().map_err(|_| {
            anyhow::anyhow!(
                "--boards {value:?}: expected every, none or turn numbers like 3,10,25 (not {:?})",
                part.trim()
            )
        })?;
        turns.insert(turn);
    }
    Ok(carc_report::Boards::Turns(turns))
}

/// A report's format and, for HTML, which boards to draw.
enum Report {
    Md,
    Html(carc_report::HtmlOptions),
}

/// The bytes to export: a game (a stored game's lines as stored) with its annotations and
/// variations, or its lines alone, or the game in another format.
fn export_bytes(ctx: &Ctx, args: &ExportArgs, loaded: &[TileSet]) -> Result<Vec<u8>> {
    if args.raw && args.format != ExportFormat::Jsonl {
        bail!("--raw shows the stored lines; it goes with --format jsonl only");
    }
    if args.game_only && args.format == ExportFormat::Jcz {
        bail!("--game-only leaves out annotations and variations; jcz has neither");
    }
    if args.quality.quality && !matches!(args.format, ExportFormat::Md | ExportFormat::Html) {
        bail!("--quality marks the moves in the report; it goes with --format md or html only");
    }
    let kind = report_kind(args)?;
    // A file path that exists is a file; anything else is a stored game id.
    let is_file = Path::new(&args.game).is_file();
    if args.raw {
        if is_file {
            bail!("--raw is for stored games; {} is a file", args.game);
        }
        let store = ctx.open()?;
        let sg = read_game(&store, &args.game)?.ok_or_else(|| ctx.no_game(&args.game))?;
        return Ok(sg.raw_bytes());
    }
    let game = Annotated::open(ctx, &args.game)?;
    Ok(match args.format {
        ExportFormat::Jsonl => {
            let mut bytes = match &game.home {
                Home::File(_) => write_log(&game.log).into_bytes(),
                // Exactly the stored lines (retracted ones left out).
                Home::Store { store, game: id } => read_game(store, id)?
                    .ok_or_else(|| ctx.no_game(id))?
                    .effective_bytes()?,
            };
            if !args.game_only {
                let tail = bundle_tail(&game.annotations(ctx), &game.variations(ctx));
                bytes.extend_from_slice(tail.as_bytes());
            }
            bytes
        }
        ExportFormat::Jcz => carc_jcz::write(&game.log)
            .with_context(|| format!("game {}", args.game))?
            .into_bytes(),
        ExportFormat::Md | ExportFormat::Html => {
            let (annotations, variations) = if args.game_only {
                Default::default()
            } else {
                (game.annotations(ctx), game.variations(ctx))
            };
            let timeline = fold(game.log, loaded);
            let extras = crate::variation::report_sections(&timeline, &variations, loaded);
            report(ctx, &timeline, &annotations, extras, kind, args)?
        }
    })
}

/// The report the arguments ask for (checked before any game is read).
fn report_kind(args: &ExportArgs) -> Result<Report> {
    match (args.format, &args.boards) {
        (ExportFormat::Html, boards) => Ok(Report::Html(carc_report::HtmlOptions {
            boards: boards
                .as_deref()
                .map(parse_boards)
                .transpose()?
                .unwrap_or_default(),
        })),
        (_, Some(_)) => bail!("--boards chooses the board pictures of --format html only"),
        (_, None) => Ok(Report::Md),
    }
}

/// The Markdown or HTML report of a replayed game with the annotations in force, the
/// `extras` given (the variations) and, when asked for, the move quality (after the cheap
/// checks, as it takes seconds).
fn report(
    ctx: &Ctx,
    timeline: &Timeline,
    annotations: &std::collections::BTreeMap<u64, carc_events::annotation::Annotation>,
    mut extras: carc_report::Extras,
    kind: Report,
    args: &ExportArgs,
) -> Result<Vec<u8>> {
    if let Report::Html(carc_report::HtmlOptions {
        boards: carc_report::Boards::Turns(turns),
    }) = &kind
    {
        let last = timeline.steps.last().map_or(0, |s| s.turn);
        if let Some(t) = turns.iter().find(|&&t| t > last) {
            bail!(
                "--boards: there is no turn {t}; game {} has turns 0 to {last}",
                timeline.log.header.game
            );
        }
    }
    if args.quality.quality {
        let options = args.quality.options(None);
        let quality =
            crate::analyze::quality_extras(&crate::analyze::quality_of(ctx, timeline, &options)?);
        extras.events.extend(quality.events);
        extras.sections.extend(quality.sections);
    }
    Ok(match kind {
        Report::Md => carc_report::markdown_with(timeline, annotations, &extras).into_bytes(),
        Report::Html(options) => {
            carc_report::html_with(timeline, annotations, &extras, &options).into_bytes()
        }
    })
}

pub fn export(ctx: &Ctx, args: ExportArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let bytes = export_bytes(ctx, &args, loaded)?;
    match &args.out {
        Some(path) => {
            fs::write(path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
            ctx.info(format!("wrote game {} to {}", args.game, path.display()));
        }
        None => {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            out.write_all(&bytes)?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The effective log of a stored game, if the store folder exists and holds it. Used by
/// `main` to let replay/explain/legal take a game id instead of a file. Never creates the store.
pub fn stored_log_bytes(ctx: &Ctx, game: &str) -> Result<Option<Vec<u8>>> {
    if !ctx.store_dir.is_dir() || check_game_id(game).is_err() {
        return Ok(None);
    }
    let store = ctx.open()?;
    match read_game(&store, game)? {
        Some(sg) => Ok(Some(sg.effective_bytes()?)),
        None => Ok(None),
    }
}

// ---- verify -----------------------------------------------------------------------------------

#[derive(Args)]
pub struct VerifyArgs {
    /// One JSON object on stdout instead of text.
    #[arg(long)]
    json: bool,
}

pub fn verify(ctx: &Ctx, args: VerifyArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let store = ctx.open()?;
    let report = store.verify()?;
    let mut game_problems: Vec<(String, String)> = Vec::new();
    let ids = game_ids(&store)?;
    for id in &ids {
        let sg = match read_game(&store, id) {
            Ok(Some(sg)) => sg,
            Ok(None) => continue,
            Err(e) => {
                game_problems.push((id.clone(), format!("cannot read: {e:#}")));
                continue;
            }
        };
        let log = match sg.effective_log() {
            Ok(log) => log,
            Err(e) => {
                game_problems.push((id.clone(), format!("{e:#}")));
                continue;
            }
        };
        if log.header.game != *id {
            game_problems.push((
                id.clone(),
                format!("the header names game {:?}", log.header.game),
            ));
        }
        let timeline = fold(log, loaded);
        if let Some((line, message)) = log_problem(&timeline) {
            game_problems.push((id.clone(), format!("line {line}: {message}")));
        } else if sg.sealed && !timeline.finished {
            game_problems.push((id.clone(), "sealed but the game is not finished".into()));
        }
        ctx.debug(format!("game {id}: checked"));
    }
    let ok = report.is_ok() && game_problems.is_empty();
    if args.json {
        println!(
            "{}",
            json!({
                "ok": ok,
                "store": {
                    "streams": report.streams, "events": report.events, "sealed": report.sealed,
                    "position": report.position,
                    "problems": report.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
                },
                "games": ids.len(),
                "game_problems": game_problems.iter()
                    .map(|(g, m)| json!({"game": g, "message": m})).collect::<Vec<_>>(),
            })
        );
    } else {
        print!("store {}: {report}", ctx.store_dir.display());
        if report.is_ok() {
            println!();
        }
        for (g, m) in &game_problems {
            println!("game {g}: {m}");
        }
        println!(
            "{} games: {}",
            ids.len(),
            if game_problems.is_empty() {
                "all decode and replay legally".to_string()
            } else {
                format!("{} with problems", game_problems.len())
            }
        );
    }
    Ok(exit_if(ok))
}

// ---- rebuild ----------------------------------------------------------------------------------

#[derive(Args)]
pub struct RebuildArgs {
    /// Folder of JSON Lines logs (every `*.jsonl` in it is imported).
    #[arg(long, value_name = "DIR")]
    from: PathBuf,
    /// If the store already holds games, move its folder aside to `<store>.old-<n>` first.
    #[arg(long)]
    force: bool,
    /// One JSON object on stdout instead of the text summary.
    #[arg(long)]
    json: bool,
}

pub fn rebuild(ctx: &Ctx, args: RebuildArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    if !args.from.is_dir() {
        bail!("{} is not a folder of logs", args.from.display());
    }
    let files = collect_files(std::slice::from_ref(&args.from))?;
    let mut store = ctx.open()?;
    let held = store.streams()?.len();
    if held > 0 {
        if !args.force {
            bail!(
                "store {} already holds {held} games; use --force to move it aside to {}.old-<n> and rebuild",
                ctx.store_dir.display(),
                ctx.store_dir.display()
            );
        }
        store.flush()?;
        drop(store);
        let aside = (1..)
            .map(|n| {
                let mut name = ctx.store_dir.as_os_str().to_owned();
                name.push(format!(".old-{n}"));
                PathBuf::from(name)
            })
            .find(|p| !p.exists())
            .expect("some free name");
        fs::rename(&ctx.store_dir, &aside).with_context(|| {
            format!(
                "cannot move {} aside to {}",
                ctx.store_dir.display(),
                aside.display()
            )
        })?;
        ctx.info(format!(
            "moved the old store ({held} games) to {}",
            aside.display()
        ));
        store = ctx.open()?;
    }
    let report = import_all(ctx, &store, &files, loaded)?;
    ctx.info(format!(
        "rebuilt store {} from {}",
        ctx.store_dir.display(),
        args.from.display()
    ));
    print_import_report(&report, args.json)?;
    Ok(exit_if(report.rejected == 0))
}
