//! `carc games`: the stored games, one summary each.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use carc_archive::{game_listing, read_game, StoredGame};
use carc_replay::fold;
use carc_rules::TileSet;
use clap::Args;
use serde_json::{json, Value};

use crate::game_summary::timeline_summary;
use crate::store_context::Ctx;
use carc_replay::describe::visible;

#[derive(Args)]
pub struct GamesArgs {
    /// One JSON object per game on stdout (JSON Lines).
    #[arg(long)]
    json: bool,
}

/// The summary of one stored game (`games --json` shape), computed from its log.
fn game_summary(sg: &StoredGame, loaded: &[TileSet]) -> Value {
    let log = match sg.effective_log() {
        Ok(log) => log,
        Err(e) => return json!({"game": sg.game, "sealed": sg.sealed, "error": format!("{e:#}")}),
    };
    let mut v = timeline_summary(&sg.game, &fold(log, loaded));
    v["sealed"] = json!(sg.sealed);
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
                    .filter_map(|x| x.as_str().map(|t| visible(t).into_owned()))
                    .collect()
            })
            .unwrap_or_default()
    };
    // What the game is played with: its expansions and map board, or the base game alone.
    let mut expansions = names("expansions");
    if let Some(map) = v["map"].as_str() {
        expansions.push(format!("{} map", visible(map)));
    }
    let scores = crate::json::scores_words(&v["scores"]);
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
    let store = ctx.open_for_reading()?;
    let mut out = crate::terminal::stdout();
    let mut games = 0;
    for listed in game_listing(&store) {
        let listed = listed?;
        games += 1;
        let id = &listed.stream;
        // The summary kept at import when it describes the stored version; else the game is
        // read and replayed (games stored by `record`, or by an older release).
        let kept = listed
            .summary
            .as_deref()
            .and_then(|bytes| serde_json::from_slice::<Value>(bytes).ok())
            .filter(|v| v["game"] == json!(id));
        let v = match kept {
            Some(mut v) => {
                let sealed = match listed.sealed {
                    Some(sealed) => sealed,
                    None => store.is_sealed(id)?,
                };
                v["sealed"] = json!(sealed);
                v
            }
            None => {
                let Some(sg) = read_game(&store, id)? else {
                    continue;
                };
                game_summary(&sg, loaded)
            }
        };
        if args.json {
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "{}", summary_text(&v))?;
        }
    }
    if !args.json && games == 0 {
        ctx.info(format!("store {} holds no games", ctx.store_dir.display()));
    }
    Ok(ExitCode::SUCCESS)
}
