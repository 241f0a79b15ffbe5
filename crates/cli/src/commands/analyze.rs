//! `carc analyze`: post-game statistics of one game (a file or a stored game) or of a folder of
//! games (aggregated, on every core, with a progress bar), and with `--quality` the move quality
//! of one game (playouts on every core, with a progress bar). The counting is `carc-analysis`;
//! this module gathers the games and lays the results out.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Result};
use carc_analysis::{analyze, Aggregate, GameAnalysis};
use carc_replay::describe::visible;
use carc_rules::TileSet;
use clap::Args;
use serde_json::{json, Value};

use crate::exit_code::exit_if;
use crate::input::collect_files;
use crate::quality::{quality_json, quality_of, quality_text, QualityArgs};
use crate::store_context::Ctx;

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
    /// A folder only: the statistics of each game (with `--json`, JSON Lines: one object per
    /// game, in file order) instead of the aggregate.
    #[arg(long)]
    per_game: bool,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
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
        return folder(ctx, path, &args, loaded);
    }
    if args.per_game {
        bail!(
            "--per-game lists the games of a folder; {} is one game",
            args.target
        );
    }
    let log = ctx.load_file_or_stored(&args.target)?;
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

fn game_json(a: &GameAnalysis) -> Value {
    json!({
        "game": a.game,
        "events": a.events,
        "finished": a.finished,
        "stopped": a.stopped,
        "winners": a.winners.iter().map(|&w| a.players[usize::from(w)].name.clone()).collect::<Vec<_>>(),
        "players": a.players.iter().enumerate().map(|(seat, p)| json!({
            "seat": seat,
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

/// The winners' names, joined with "and".
fn winner_names(a: &GameAnalysis) -> String {
    let names: Vec<String> = a
        .winners
        .iter()
        .map(|&w| visible(&a.players[usize::from(w)].name).into_owned())
        .collect();
    names.join(" and ")
}

fn game_text(a: &GameAnalysis) -> String {
    let mut out = String::new();
    let state = if a.finished {
        format!("finished; won by {}", winner_names(a))
    } else {
        "not finished".to_string()
    };
    out.push_str(&format!(
        "game {}: {} events, {state}\n",
        visible(&a.game),
        a.events
    ));
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
        out.push_str(&format!(
            "\n{}: {} points ({sources})\n",
            visible(&p.name),
            p.points
        ));
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
                visible(&m.text)
            ));
        }
    }
    out
}

/// Every game of a folder, analysed on all cores; the figures of the finished games.
fn folder(ctx: &Ctx, dir: &Path, args: &AnalyzeArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let (as_json, threads) = (args.json, args.threads);
    let files = collect_files(&[dir.to_path_buf()])?;
    let bar = crate::progress::bar(ctx.quiet, files.len() as u64, "games");
    let threads = threads
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        )
        .min(files.len().max(1));
    let next = AtomicUsize::new(0);
    let unreadable: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());
    // Each game's statistics by its index in `files`, kept only for `--per-game`.
    let per_game: Mutex<Vec<(usize, GameAnalysis)>> = Mutex::new(Vec::new());
    let mut total = Aggregate::default();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut part = Aggregate::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(file) = files.get(i) else { break };
                        match crate::input::load_log(file) {
                            Ok(log) => {
                                let a = analyze(&log, loaded);
                                part.add(&a);
                                if args.per_game {
                                    per_game
                                        .lock()
                                        .unwrap_or_else(|p| p.into_inner())
                                        .push((i, a));
                                }
                            }
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
    if args.per_game {
        let mut games = per_game.into_inner().unwrap_or_else(|p| p.into_inner());
        games.sort_by_key(|(i, _)| *i);
        print_per_game(&files, &games, as_json)?;
        return Ok(exit_if(unreadable.is_empty()));
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
        // Seats are numbered from 0, as in the JSON, the logs and `--as`.
        println!("seat  games  wins  win rate  min  median   mean  max");
        for s in &seats {
            println!(
                "{:>4}  {:>5}  {:>4}  {:>7.1}%  {:>3}  {:>6.1}  {:>5.1}  {:>3}",
                s.seat,
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
    Ok(exit_if(unreadable.is_empty()))
}

/// `--per-game`: one line (text) or one JSON object (JSON Lines) per game, in file order, with
/// the file it came from.
fn print_per_game(files: &[PathBuf], games: &[(usize, GameAnalysis)], as_json: bool) -> Result<()> {
    let mut out = crate::terminal::stdout();
    for (i, a) in games {
        let file = files[*i].display().to_string();
        if as_json {
            let mut v = game_json(a);
            v["file"] = json!(file);
            writeln!(out, "{v}")?;
        } else {
            let state = if a.finished {
                format!("won by {}", winner_names(a))
            } else {
                "not finished".to_string()
            };
            let points: Vec<String> = a
                .players
                .iter()
                .enumerate()
                .map(|(seat, p)| format!("seat {seat} {} {}", visible(&p.name), p.points))
                .collect();
            writeln!(
                out,
                "{}: game {}, {} events, {state}; {}",
                visible(&file),
                visible(&a.game),
                a.events,
                points.join(", ")
            )?;
        }
    }
    Ok(())
}
