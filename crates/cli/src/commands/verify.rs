//! `carc verify`: the store checked and every stored game replayed.

use std::process::ExitCode;

use anyhow::Result;
use carc_archive::{game_ids, read_game};
use carc_replay::fold;
use carc_rules::TileSet;
use clap::Args;
use serde_json::json;

use crate::exit_code::exit_if;
use crate::log_problem::log_problem;
use crate::store_context::Ctx;

#[derive(Args)]
pub struct VerifyArgs {
    /// One JSON object on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Mend what can be mended without guessing: seal every finished game left unsealed (an
    /// import interrupted between its append and its seal by an older release). Reported.
    #[arg(long)]
    repair: bool,
}

/// What replaying one stored game found.
#[derive(Default)]
struct GameCheck {
    /// Problems to report, in the order they were found.
    problems: Vec<String>,
    /// Finished but not sealed: reported, or sealed with `--repair`.
    unsealed: bool,
}

/// Reads and replays one stored game; `None`: no such game any more. No writes: this runs on
/// worker threads.
fn check_game(store: &carc_store::Store, id: &str, loaded: &[TileSet]) -> Option<GameCheck> {
    let mut check = GameCheck::default();
    let sg = match read_game(store, id) {
        Ok(Some(sg)) => sg,
        Ok(None) => return None,
        Err(e) => {
            check.problems.push(format!("cannot read: {e:#}"));
            return Some(check);
        }
    };
    let log = match sg.effective_log() {
        Ok(log) => log,
        Err(e) => {
            check.problems.push(format!("{e:#}"));
            return Some(check);
        }
    };
    if log.header.game != id {
        check
            .problems
            .push(format!("the header names game {:?}", log.header.game));
    }
    let timeline = fold(log, loaded);
    if let Some((line, message)) = log_problem(&timeline) {
        check.problems.push(format!("line {line}: {message}"));
    } else if sg.sealed && !timeline.finished {
        check
            .problems
            .push("sealed but the game is not finished".into());
    } else if timeline.finished && !sg.sealed {
        check.unsealed = true;
    }
    Some(check)
}

pub fn verify(ctx: &Ctx, args: VerifyArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let store = ctx.open_for_reading()?;
    let mut game_problems: Vec<(String, String)> = Vec::new();
    let mut repaired: Vec<String> = Vec::new();
    // The store's own walk and the replay of every game run side by side, as both only read;
    // with `--repair` the walk comes first, so that no seal happens under it. Games are
    // replayed on worker threads and reported in id order.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let walked_first = if args.repair {
        Some(store.verify()?)
    } else {
        None
    };
    let (report, ids, bar) = std::thread::scope(|scope| -> Result<_> {
        // The walk starts first: listing the games (every `heads` key) takes this thread a
        // while, and the second core idled through it (issue 35).
        let walk = scope.spawn(|| match walked_first {
            Some(report) => Ok(report),
            None => {
                // The walk runs side by side with the replays; its thread merges what its
                // helpers found stream by stream (all of it on one core): a serial stage of
                // its own (`CARC_TIMINGS`).
                let cpu = crate::timings::thread_cpu();
                let walked = store.verify();
                crate::timings::serial_stage("store walk", cpu);
                walked
            }
        });
        let ids = game_ids(&store)?;
        let bar = crate::progress::bar(ctx.quiet, ids.len() as u64, "games");
        carc_in_order::map_in_order(
            ids.len(),
            threads,
            threads * 4,
            |i| check_game(&store, &ids[i], loaded),
            |i, checked| {
                bar.inc(1);
                let id = &ids[i];
                let check = match checked {
                    Ok(Some(check)) => check,
                    Ok(None) => return anyhow::Ok(()),
                    Err(panicked) => GameCheck {
                        problems: vec![panicked.to_string()],
                        unsealed: false,
                    },
                };
                for problem in check.problems {
                    game_problems.push((id.clone(), problem));
                }
                if check.unsealed {
                    if args.repair {
                        store.seal(id)?;
                        repaired.push(id.clone());
                    } else {
                        game_problems.push((
                            id.clone(),
                            "finished but not sealed (an import was interrupted between storing \
                             and sealing it); `carc verify --repair` seals it"
                                .into(),
                        ));
                    }
                }
                ctx.debug(format!("game {id}: checked"));
                Ok(())
            },
        )?;
        let walked = walk
            .join()
            .map_err(|_| anyhow::anyhow!("internal error: the store walk panicked"))?;
        Ok((walked?, ids, bar))
    })?;
    bar.finish_and_clear();
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
                "repaired": repaired.iter()
                    .map(|g| json!({"game": g, "action": "sealed"})).collect::<Vec<_>>(),
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
        for g in &repaired {
            println!("game {g}: finished but not sealed: sealed now");
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
