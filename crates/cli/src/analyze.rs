//! `carc analyze`: post-game statistics of one game (a file or a stored game) or of a folder of
//! games (aggregated, on every core, with a progress bar), and with `--quality` the move quality
//! of one game (playouts on every core, with a progress bar). The counting is `carc-analysis`;
//! this module gathers the games and lays the results out.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Result};
use carc_analysis::quality::{self, QualityOptions, QualityReport};
use carc_analysis::{analyze, move_quality, Aggregate, GameAnalysis};
use carc_archive::read_game;
use carc_rules::TileSet;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

use crate::store_cmds::{collect_files, Ctx};

#[derive(Args)]
pub struct AnalyzeArgs {
    /// A log or `.jcz` file, a stored game id, or a folder of logs (aggregated).
    #[arg(value_name = "FILE|GAME|DIR")]
    target: String,
    /// One JSON object on stdout instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    quality: QualityArgs,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
}

/// The move-quality options, shared by `analyze` and `export --format md`.
#[derive(Args, Clone)]
pub struct QualityArgs {
    /// Judge every move of the game against the best found by playouts (one game only; see
    /// docs/analysis.md): the marks ?! ? ?? and each player's average loss.
    #[arg(long)]
    pub quality: bool,
    /// Playouts per candidate move and stage, with --quality.
    #[arg(long, value_name = "K", default_value_t = quality::DEFAULT_PLAYOUTS,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub playouts: u32,
    /// Seed of the playouts, with --quality: the same seed gives the same marks.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// How every seat plays in the playouts, with --quality: random (fast) or greedy (about a
    /// hundred times slower).
    #[arg(long, value_name = "STRATEGY", default_value = "random", value_parser = ["random", "greedy"])]
    pub playout_strategy: String,
    /// Candidate moves screened per turn at most, with --quality (the best by immediate value;
    /// the move played is always in).
    #[arg(long, value_name = "N", default_value_t = quality::DEFAULT_MAX_CANDIDATES as u32,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub candidates: u32,
}

impl QualityArgs {
    pub fn options(&self, threads: Option<u32>) -> QualityOptions {
        QualityOptions {
            playouts: self.playouts,
            seed: self.seed,
            threads: threads.map_or(0, |t| t as usize),
            strategy: carc_sim::Strategy::parse(&self.playout_strategy)
                .unwrap_or(carc_sim::Strategy::Random),
            max_candidates: self.candidates as usize,
        }
    }
}

/// The move quality of a replayed game, with a progress bar on stderr (unless quiet or not a
/// terminal).
pub fn quality_of(
    ctx: &Ctx,
    timeline: &carc_replay::Timeline,
    options: &QualityOptions,
) -> Result<QualityReport> {
    let bar = if ctx.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} turns judged {elapsed} {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    };
    let report = move_quality(timeline, options, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    Ok(report?)
}

pub fn run(ctx: &Ctx, args: AnalyzeArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let path = Path::new(&args.target);
    if path.is_dir() {
        if args.quality.quality {
            bail!(
                "--quality judges the moves of one game; {} is a folder",
                path.display()
            );
        }
        return folder(ctx, path, args.json, args.threads, loaded);
    }
    let log = if path.is_file() {
        crate::commands::load_log(path)?
    } else {
        let store = ctx.open()?;
        read_game(&store, &args.target)?
            .ok_or_else(|| ctx.no_game(&args.target))?
            .effective_log()?
    };
    let a = analyze(&log, loaded);
    let q = if args.quality.quality {
        let timeline = carc_replay::fold(log, loaded);
        Some(quality_of(
            ctx,
            &timeline,
            &args.quality.options(args.threads),
        )?)
    } else {
        None
    };
    if args.json {
        let mut v = game_json(&a);
        if let Some(q) = &q {
            v["quality"] = quality_json(q);
        }
        println!("{v}");
    } else {
        print!("{}", game_text(&a));
        if let Some(q) = &q {
            print!("{}", quality_text(q));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The move quality for the Markdown report: the mark and the best alternative under each
/// marked move, and a closing section with each player's totals.
pub fn quality_extras(q: &QualityReport) -> carc_report::Extras {
    use carc_report::{Column, EventNote, Extras, Section, Table};
    let mut extras = Extras::default();
    for t in &q.turns {
        let Some(mark) = t.mark else { continue };
        extras.events.insert(
            t.seq,
            EventNote {
                glyph: mark.glyph().to_string(),
                meaning: format!("move quality: {}, {:.1} points lost", mark.name(), t.loss),
                lines: vec![format!(
                    "move quality: {} {}, {:.1} points lost; best found: {} ({:+.1}, against {:+.1} for the move played)",
                    mark.glyph(),
                    mark.name(),
                    t.loss,
                    t.best.text,
                    t.best.value,
                    t.played.value
                )],
            },
        );
    }
    let column = |name: &str, numeric: bool| Column {
        name: name.to_string(),
        numeric,
    };
    extras.sections.push(Section {
        title: "Move quality".to_string(),
        paragraphs: vec![format!(
            "{} playouts per move and stage, seed {}, {} playouts. A move's value is the mover's final score minus the best final score of the other players, averaged over the playouts; the loss is the best value found minus the value of the move played. Marks: ?! inaccuracy (loss of {} points or more), ? mistake ({} or more), ?? blunder ({} or more).",
            q.options.playouts,
            q.options.seed,
            strategy_words(q),
            quality::INACCURACY,
            quality::MISTAKE,
            quality::BLUNDER
        )],
        items: Vec::new(),
        board: None,
        table: Some(Table {
            columns: vec![
                column("player", false),
                column("turns judged", true),
                column("average loss", true),
                column("?!", true),
                column("?", true),
                column("??", true),
            ],
            rows: q
                .players
                .iter()
                .map(|p| {
                    vec![
                        p.name.clone(),
                        p.turns.to_string(),
                        format!("{:.2}", p.average_loss),
                        p.inaccuracies.to_string(),
                        p.mistakes.to_string(),
                        p.blunders.to_string(),
                    ]
                })
                .collect(),
        }),
    });
    extras
}

fn strategy_words(q: &QualityReport) -> &'static str {
    q.options.strategy.name()
}

/// The move quality as JSON.
pub fn quality_json(q: &QualityReport) -> Value {
    let estimate = |e: &carc_analysis::MoveEstimate| json!({"move": e.text, "value": e.value});
    json!({
        "playouts": q.options.playouts,
        "seed": q.options.seed,
        "playout_strategy": strategy_words(q),
        "max_candidates": q.options.max_candidates,
        "value": "the mover's final score minus the best final score of the other players, averaged over the playouts",
        "thresholds": {"inaccuracy": quality::INACCURACY, "mistake": quality::MISTAKE, "blunder": quality::BLUNDER},
        "stopped": q.stopped,
        "turns": q.turns.iter().map(|t| json!({
            "event": t.seq,
            "turn": t.turn,
            "seat": t.seat,
            "player": q.players.get(usize::from(t.seat)).map(|p| p.name.clone()),
            "moves": t.moves,
            "screened": t.screened,
            "played": estimate(&t.played),
            "best": estimate(&t.best),
            "loss": t.loss,
            "mark": t.mark.map(|m| m.glyph()),
        })).collect::<Vec<_>>(),
        "players": q.players.iter().map(|p| json!({
            "name": p.name,
            "turns": p.turns,
            "average_loss": p.average_loss,
            "inaccuracies": p.inaccuracies,
            "mistakes": p.mistakes,
            "blunders": p.blunders,
        })).collect::<Vec<_>>(),
    })
}

/// The move quality in words: every judged turn (played move, best move, loss, mark), then
/// each player's totals.
pub fn quality_text(q: &QualityReport) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "\nmove quality: {} playouts per move and stage, seed {}, {} playouts; value = own final score minus the best other player's\n",
        q.options.playouts,
        q.options.seed,
        strategy_words(q)
    ));
    out.push_str(&format!(
        "marks: ?! inaccuracy (loss >= {}), ? mistake (>= {}), ?? blunder (>= {})\n",
        quality::INACCURACY,
        quality::MISTAKE,
        quality::BLUNDER
    ));
    if let Some(why) = &q.stopped {
        out.push_str(&format!(
            "(the moves after the last legal event are not judged: {why})\n"
        ));
    }
    for t in &q.turns {
        let who = q
            .players
            .get(usize::from(t.seat))
            .map_or("?", |p| p.name.as_str());
        let mark = t.mark.map_or(String::new(), |m| format!(" {}", m.glyph()));
        out.push_str(&format!(
            "  event {:>3}, turn {:>2}, {who}: {} ({:+.1}){mark}\n",
            t.seq, t.turn, t.played.text, t.played.value
        ));
        if t.best.mv == t.played.mv || t.loss == 0.0 {
            out.push_str(&format!(
                "      best: the move played; {} moves, {} screened\n",
                t.moves, t.screened
            ));
        } else {
            out.push_str(&format!(
                "      best: {} ({:+.1}); loss {:.1}; {} moves, {} screened\n",
                t.best.text, t.best.value, t.loss, t.moves, t.screened
            ));
        }
    }
    out.push_str("\nmove quality by player:\n");
    for p in &q.players {
        out.push_str(&format!(
            "  {}: {} turns judged, average loss {:.2}; {} ?!, {} ?, {} ??\n",
            p.name, p.turns, p.average_loss, p.inaccuracies, p.mistakes, p.blunders
        ));
    }
    out
}

fn game_json(a: &GameAnalysis) -> Value {
    json!({
        "game": a.game,
        "events": a.events,
        "finished": a.finished,
        "stopped": a.stopped,
        "winners": a.winners.iter().map(|&w| a.players[usize::from(w)].name.clone()).collect::<Vec<_>>(),
        "players": a.players.iter().map(|p| json!({
            "name": p.name,
            "points": p.points,
            "points_by_source": p.points_by_source,
            "meeples_placed": p.meeples_placed,
            "meeples_returned": p.meeples_returned,
            "meeples_out_at_end": p.meeples_out_at_end,
            "average_turns_out": p.average_turns_out,
            "features_completed": p.features_completed,
            "features_shared": p.features_shared,
            "arrows_activated": p.arrows_activated,
            "tiles_set_aside": p.tiles_set_aside,
            "town_costs": p.town_costs,
            "gifts_received": p.gifts_received,
            "gifts_opened": p.gifts_opened,
        })).collect::<Vec<_>>(),
        "moments": a.moments.iter().map(|m| json!({
            "event": m.seq, "kind": m.kind.as_str(), "text": m.text,
        })).collect::<Vec<_>>(),
    })
}

fn game_text(a: &GameAnalysis) -> String {
    let mut out = String::new();
    let state = if a.finished {
        let names: Vec<&str> = a
            .winners
            .iter()
            .map(|&w| a.players[usize::from(w)].name.as_str())
            .collect();
        format!("finished; won by {}", names.join(" and "))
    } else {
        "not finished".to_string()
    };
    out.push_str(&format!("game {}: {} events, {state}\n", a.game, a.events));
    if let Some(why) = &a.stopped {
        out.push_str(&format!("the analysis stops early: {why}\n"));
    }
    for p in &a.players {
        let sources: Vec<String> = p
            .points_by_source
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let sources = if sources.is_empty() {
            "nothing".to_string()
        } else {
            sources.join(", ")
        };
        out.push_str(&format!("\n{}: {} points ({sources})\n", p.name, p.points));
        let avg = p
            .average_turns_out
            .map_or_else(|| "-".to_string(), |t| format!("{t:.1}"));
        out.push_str(&format!(
            "  meeples: {} placed, {} returned, {} still out; {avg} turns out on average\n",
            p.meeples_placed, p.meeples_returned, p.meeples_out_at_end
        ));
        out.push_str(&format!(
            "  features completed: {}, shared: {}; arrows activated: {}; tiles set aside: {}\n",
            p.features_completed, p.features_shared, p.arrows_activated, p.tiles_set_aside
        ));
        if p.gifts_received > 0 || p.gifts_opened > 0 {
            out.push_str(&format!(
                "  gifts: {} received, {} opened\n",
                p.gifts_received, p.gifts_opened
            ));
        }
        if p.town_costs > 0 {
            out.push_str(&format!("  towns covered cost {} points\n", p.town_costs));
        }
    }
    if !a.moments.is_empty() {
        out.push_str("\nnotable moments:\n");
        for m in &a.moments {
            out.push_str(&format!(
                "  event {:>3}  {}: {}\n",
                m.seq,
                m.kind.as_str(),
                m.text
            ));
        }
    }
    out
}

/// Every game of a folder, analysed on all cores; the figures of the finished games.
fn folder(
    ctx: &Ctx,
    dir: &Path,
    as_json: bool,
    threads: Option<u32>,
    loaded: &[TileSet],
) -> Result<ExitCode> {
    let files = collect_files(&[dir.to_path_buf()])?;
    let bar = if ctx.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(files.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    };
    let threads = threads
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        )
        .min(files.len().max(1));
    let next = AtomicUsize::new(0);
    let unreadable: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());
    let mut total = Aggregate::default();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut part = Aggregate::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(file) = files.get(i) else { break };
                        match crate::commands::load_log(file) {
                            Ok(log) => part.add(&analyze(&log, loaded)),
                            Err(e) => unreadable
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .push((file.clone(), format!("{e:#}"))),
                        }
                        bar.inc(1);
                    }
                    part
                })
            })
            .collect();
        for w in workers {
            // A worker that panicked would take its games with it: never drop them silently.
            match w.join() {
                Ok(part) => total.merge(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    bar.finish_and_clear();
    let mut unreadable = unreadable.into_inner().unwrap_or_else(|p| p.into_inner());
    unreadable.sort();
    for (file, why) in &unreadable {
        eprintln!("carc: {}: cannot be analysed: {why}", file.display());
    }
    let all = total.overall();
    let seats = total.seats();
    if as_json {
        let v = json!({
            "folder": dir.display().to_string(),
            "games": total.games,
            "finished": total.finished,
            "stopped": total.stopped,
            "unreadable": unreadable.iter().map(|(f, why)| json!({"file": f.display().to_string(), "error": why})).collect::<Vec<_>>(),
            "scores": json!({"count": all.count, "min": all.min, "max": all.max, "mean": all.mean, "median": all.median}),
            "seats": seats.iter().map(|s| json!({
                "seat": s.seat, "games": s.games, "wins": s.wins, "win_rate": s.win_rate(),
                "min": s.scores.min, "max": s.scores.max, "mean": s.scores.mean, "median": s.scores.median,
            })).collect::<Vec<_>>(),
        });
        println!("{v}");
    } else {
        println!(
            "{}: {} games, {} finished, {} stopped at an illegal event, {} unreadable",
            dir.display(),
            total.games,
            total.finished,
            total.stopped,
            unreadable.len()
        );
        println!(
            "final scores of all players: min {}, median {:.1}, mean {:.1}, max {}",
            all.min, all.median, all.mean, all.max
        );
        println!("seat  games  wins  win rate  min  median   mean  max");
        for s in &seats {
            println!(
                "{:>4}  {:>5}  {:>4}  {:>7.1}%  {:>3}  {:>6.1}  {:>5.1}  {:>3}",
                s.seat + 1,
                s.games,
                s.wins,
                100.0 * s.win_rate(),
                s.scores.min,
                s.scores.median,
                s.scores.mean,
                s.scores.max
            );
        }
        println!("(a shared win counts for every tied seat; only finished games count)");
    }
    Ok(if unreadable.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
