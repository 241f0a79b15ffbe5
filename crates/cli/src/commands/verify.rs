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

pub fn verify(ctx: &Ctx, args: VerifyArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let store = ctx.open_for_reading()?;
    let report = store.verify()?;
    let mut game_problems: Vec<(String, String)> = Vec::new();
    let mut repaired: Vec<String> = Vec::new();
    let ids = game_ids(&store)?;
    let bar = crate::progress::bar(ctx.quiet, ids.len() as u64, "games");
    for id in &ids {
        bar.inc(1);
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
        } else if timeline.finished && !sg.sealed {
            if args.repair {
                store.seal(id)?;
                repaired.push(id.clone());
            } else {
                game_problems.push((
                    id.clone(),
                    "finished but not sealed (an import was interrupted between storing and \
                     sealing it); `carc verify --repair` seals it"
                        .into(),
                ));
            }
        }
        ctx.debug(format!("game {id}: checked"));
    }
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
