//! `carc puzzles`: a player's mistakes as positions to solve again. Every game given is judged
//! (the move-quality judge of `analyze --quality`, same options, so the same seed gives the
//! same puzzles); each turn of the named player marked `?` or `??` becomes a puzzle, written as
//! JSON Lines (`docs/puzzles.md`) or as one self-contained HTML page (`carc-report`'s puzzle
//! page). The extraction is `carc_analysis::puzzles`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use carc_analysis::puzzles::{puzzles, seats_named, Puzzle};
use carc_analysis::{QualityOptions, QualityReport};
use carc_events::{write_event_line, write_header};
use carc_replay::describe::visible;
use carc_replay::Timeline;
use carc_rules::TileSet;
use clap::{Args, ValueEnum};
use serde_json::{json, Value};

use crate::input::collect_files;
use crate::quality::{quality_of, JudgeArgs};
use crate::store_context::Ctx;

/// The version of the JSON Lines puzzle format (`"puzzle_format"` on every line).
pub const PUZZLE_FORMAT: u32 = 1;

#[derive(Args)]
pub struct PuzzlesArgs {
    /// Games: log files, `.jcz` saved games, Board Game Arena replays, folders of them, or
    /// stored game ids.
    #[arg(value_name = "FILE|GAME|DIR", required = true)]
    targets: Vec<String>,
    /// The player whose `?` and `??` become puzzles (the name as the games spell it).
    #[arg(long, value_name = "NAME")]
    player: String,
    /// What to write: JSON Lines (one puzzle a line, docs/puzzles.md) or one HTML page to
    /// solve them on.
    #[arg(long, value_enum, default_value_t = PuzzleFormat::Jsonl)]
    format: PuzzleFormat,
    /// Write to FILE (written whole or not at all) instead of stdout.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        conflicts_with = "out"
    )]
    output: Option<PathBuf>,
    /// Write both, `puzzles.jsonl` and `puzzles.html`, into the folder DIR (created if need
    /// be); --format is then not used.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    judge: JudgeArgs,
    /// Worker threads of the judge (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PuzzleFormat {
    Jsonl,
    Html,
}

/// One game read and judged, and its puzzles.
struct Judged {
    source: String,
    timeline: Timeline,
    report: QualityReport,
    puzzles: Vec<Puzzle>,
}

pub fn run(ctx: &Ctx, args: PuzzlesArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let sources = sources(&args.targets)?;
    let options = args.judge.options(args.threads);
    let mut games: Vec<Judged> = Vec::new();
    let mut without: Vec<String> = Vec::new();
    for source in &sources {
        let log = ctx
            .load_file_or_stored(source)
            .with_context(|| format!("{}: cannot be read", visible(source)))?;
        let seats = match seats_named(&log.header, &args.player) {
            Ok(seats) => seats,
            // One game named: the player must be in it. Several: a game without the player
            // is passed over, and said so.
            Err(e) if sources.len() == 1 => bail!("{}: {e}", visible(source)),
            Err(e) => {
                let line = format!("{}: {e}", visible(source));
                if !ctx.quiet {
                    eprintln!("carc: {line}; passed over");
                }
                without.push(line);
                continue;
            }
        };
        let timeline = carc_replay::fold(log, loaded);
        // Only the named player's turns become puzzles, so only theirs are judged.
        let options = QualityOptions {
            seats: Some(seats.clone()),
            ..options.clone()
        };
        let report = quality_of(ctx, &timeline, &options)
            .with_context(|| format!("{}: cannot judge its moves", visible(source)))?;
        let found = puzzles(&timeline, &report, &seats);
        games.push(Judged {
            source: source.clone(),
            timeline,
            report,
            puzzles: found,
        });
    }
    if games.is_empty() {
        bail!(
            "no game given has a player named {:?}:\n  {}",
            args.player,
            without.join("\n  ")
        );
    }
    let count: usize = games.iter().map(|g| g.puzzles.len()).sum();
    if count == 0 {
        eprintln!(
            "carc: no puzzles: none of {:?}'s moves in {} judged game(s) is marked ? or ??",
            args.player,
            games.len()
        );
    } else if !ctx.quiet {
        eprintln!(
            "carc: {count} puzzle(s) from {} game(s) for {:?}",
            games.len(),
            args.player
        );
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create folder {}", dir.display()))?;
        write(&dir.join("puzzles.jsonl"), jsonl(&games).as_bytes())?;
        write(
            &dir.join("puzzles.html"),
            html(&args.player, &games).as_bytes(),
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let bytes = match args.format {
        PuzzleFormat::Jsonl => jsonl(&games),
        PuzzleFormat::Html => html(&args.player, &games),
    };
    match &args.output {
        Some(path) => write(path, bytes.as_bytes())?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::output_file::write_whole(path, bytes)
}

/// The games named: files and stored game ids as given, folders expanded to their games.
fn sources(targets: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for t in targets {
        let path = Path::new(t);
        if path.is_dir() {
            let files = collect_files(&[path.to_path_buf()])?;
            if files.is_empty() {
                bail!("{}: a folder with no games in it", visible(t));
            }
            out.extend(files.iter().map(|f| f.display().to_string()));
        } else {
            out.push(t.clone());
        }
    }
    Ok(out)
}

/// Every puzzle as one JSON line (`docs/puzzles.md`).
fn jsonl(games: &[Judged]) -> String {
    let mut out = String::new();
    for g in games {
        for p in &g.puzzles {
            out.push_str(&puzzle_json(g, p).to_string());
            out.push('\n');
        }
    }
    out
}

fn puzzle_json(g: &Judged, p: &Puzzle) -> Value {
    let t = &p.judged;
    let header = &g.timeline.log.header;
    let estimate = |e: &carc_analysis::MoveEstimate, win: Option<f64>| {
        json!({
            "move": carc_engine::move_text(&p.position, &e.mv),
            "text": e.text,
            "win": win,
            "value": e.value,
        })
    };
    let mut log: Vec<Value> = Vec::with_capacity(p.prefix.events.len() + 1);
    log.push(serde_json::from_str(&write_header(&p.prefix.header)).unwrap_or(Value::Null));
    for (_, e) in &p.prefix.events {
        log.push(serde_json::from_str(&write_event_line(e)).unwrap_or(Value::Null));
    }
    json!({
        "puzzle_format": PUZZLE_FORMAT,
        "game": header.game,
        "source": g.source,
        "turn": t.turn,
        "event": t.seq,
        "seat": p.seat,
        "player": p.player,
        "tile": p.position.tiles().get(p.tile).id.as_str(),
        "mark": t.mark.map(|m| m.glyph()),
        "judge": g.report.options.judge.name(),
        "nodes": g.report.options.nodes,
        "seed": g.report.options.seed,
        "played": estimate(&t.played, t.win.map(|w| w.played)),
        "best": estimate(&t.best, t.win.map(|w| w.best)),
        "loss": t.loss,
        "win_lost": t.win.map(|w| w.lost),
        "line": t.line.iter().map(|m| json!({
            "seat": m.seat,
            "player": carc_replay::describe::seat_name(header, m.seat),
            "tile": m.tile,
            "move": m.text,
        })).collect::<Vec<_>>(),
        "moves": p.moves.len(),
        "log": log,
    })
}

/// The puzzle page.
fn html(player: &str, games: &[Judged]) -> String {
    // Each puzzle's game up to its placement, replayed for its board.
    let prefixes: Vec<Timeline> = games
        .iter()
        .flat_map(|g| {
            g.puzzles
                .iter()
                .map(|p| carc_replay::fold(p.prefix.clone(), g.timeline.loaded_tile_sets()))
        })
        .collect();
    let mut k = 0;
    let mut page = Vec::new();
    for g in games {
        let header = &g.timeline.log.header;
        for p in &g.puzzles {
            let t = &p.judged;
            let line = t
                .line
                .iter()
                .map(|m| {
                    format!(
                        "{} {} {}",
                        carc_replay::describe::seat_name(header, m.seat),
                        m.tile,
                        m.text
                    )
                })
                .collect();
            page.push(carc_report::PagePuzzle {
                timeline: &prefixes[k],
                source: g.source.clone(),
                seat: p.seat,
                turn: t.turn,
                seq: t.seq,
                mark: t.mark.map_or("", |m| m.glyph()).to_string(),
                tile: p.tile,
                moves: p
                    .moves
                    .iter()
                    .map(|m| carc_report::PageMove {
                        at: m.placement.at,
                        rotation: m.placement.rotation,
                        rest: carc_analysis::notation::after_placement_text(&p.position, p.tile, m),
                    })
                    .collect(),
                played: p.played,
                best: p.best,
                played_text: t.played.text.clone(),
                best_text: t.best.text.clone(),
                played_win: t.win.map(|w| w.played),
                best_win: t.win.map(|w| w.best),
                played_value: t.played.value,
                best_value: t.best.value,
                line,
            });
            k += 1;
        }
    }
    carc_report::puzzles_html(player, &page)
}
