//! `carc variation`: what-if variations of a game, kept beside it (`FILE.variations.jsonl`, or
//! the store's `@variations/<game>` stream) and never inside its log. Every variation is
//! replayed by the rules engine before it is written; see `docs/variations.md`.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};
use carc_events::variation::{
    descendants, parse_variation, promote, Variation, VariationError, VariationRecord,
};
use carc_events::Log;
use carc_replay::describe::{describe_step, shown_name as seat_name};
use carc_replay::variation::{fold_variation, score_difference, VariationLine};
use carc_replay::{fold, Timeline};
use carc_rules::TileSet;
use clap::{Args, Subcommand};
use serde_json::{json, Map, Value};

use crate::companions::Annotated;
use crate::input::read_text_input;
use crate::store_context::Ctx;
use crate::variation_report::from_text;

#[derive(Subcommand)]
pub enum VariationCmd {
    /// Add a variation from a file of moves (JSON Lines events, as in a log); the moves are
    /// replayed by the rules before anything is written.
    Add(AddArgs),
    /// List a game's variations: where they branch, their moves, and the scores against the game.
    List(GameArgs),
    /// Step through one variation: each move in words with the scores and the difference
    /// against the game at the same event.
    Show(NameArgs),
    /// Delete a variation and every variation that branches from it.
    Delete(NameArgs),
    /// Promote a nested variation one level: it then branches from its parent's parent (its
    /// moves are unchanged).
    Promote(NameArgs),
}

#[derive(Args)]
pub struct GameArgs {
    /// A log file (or `.jcz` game), or a stored game id.
    #[arg(value_name = "FILE|GAME")]
    game: String,
    /// One JSON object per variation (list) or per move (show) on stdout.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct NameArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The variation's name.
    name: String,
}

#[derive(Args)]
pub struct AddArgs {
    /// A log file (or `.jcz` game), or a stored game id.
    #[arg(value_name = "FILE|GAME")]
    game: String,
    /// The new variation's name (up to 80 characters).
    #[arg(long)]
    name: String,
    /// The event of the parent line after which the variation branches (its `seq`; 0 =
    /// before the first event).
    #[arg(long, value_name = "N")]
    after: u64,
    /// Branch from this variation instead of the game's own moves.
    #[arg(long, value_name = "NAME")]
    parent: Option<String>,
    /// The moves: one event per line, as in a log; `seq` may be left out (the moves are
    /// numbered on from --after). `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    moves: PathBuf,
    /// Replace a variation of the same name instead of refusing.
    #[arg(long)]
    replace: bool,
}

pub fn run(ctx: &Ctx, cmd: VariationCmd, loaded: &[TileSet]) -> Result<ExitCode> {
    match cmd {
        VariationCmd::Add(a) => add(ctx, a, loaded),
        VariationCmd::List(a) => list(ctx, a, loaded),
        VariationCmd::Show(a) => show(ctx, a, loaded),
        VariationCmd::Delete(a) => delete(ctx, a),
        VariationCmd::Promote(a) => promote_cmd(ctx, a, loaded),
    }
}

/// Reads the moves file into event objects, each with its `seq` (numbered on from `after`
/// where left out). Errors name the file and line.
fn read_moves(path: &std::path::Path, after: u64) -> Result<Vec<Value>> {
    let name = if path.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        path.display().to_string()
    };
    let text = if path.as_os_str() == "-" {
        // Capped like a file: an endless stdin is refused, not read until memory runs out
        let mut bytes = Vec::new();
        io::stdin()
            .take(carc_formats::MAX_GAME_FILE + 1)
            .read_to_end(&mut bytes)
            .context("cannot read the moves from stdin")?;
        if bytes.len() as u64 > carc_formats::MAX_GAME_FILE {
            bail!(
                "the moves on stdin are longer than {} MiB, the most carc reads as one input",
                carc_formats::MAX_GAME_FILE / (1024 * 1024)
            );
        }
        String::from_utf8(bytes).context("the moves on stdin are not UTF-8 text")?
    } else {
        read_text_input(path, "--moves")?
    };
    let mut moves = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{name} line {}", i + 1);
        if line.trim().is_empty() {
            bail!("{}: empty line; every line must hold one event", at());
        }
        let mut fields: Map<String, Value> = serde_json::from_str(line)
            .map_err(|e| anyhow!("{}: not an event object: {e}", at()))?;
        let seq = after + 1 + moves.len() as u64;
        fields.entry("seq").or_insert(json!(seq));
        moves.push(Value::Object(fields));
    }
    if moves.is_empty() {
        bail!("{name} holds no moves; a variation needs at least one");
    }
    Ok(moves)
}

fn add(ctx: &Ctx, args: AddArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let mut game = Annotated::open(ctx, &args.game)?;
    let mut variations = game.variations(ctx);
    if variations.contains_key(&args.name) && !args.replace {
        bail!(
            "game {} already has a variation named {:?}; choose another name, or --replace it",
            game.log.header.game,
            args.name
        );
    }
    if let Some(parent) = &args.parent {
        if !variations.contains_key(parent) {
            bail!(
                "--parent {parent:?}: game {} has no variation of that name{}",
                game.log.header.game,
                known(&variations)
            );
        }
    }
    let moves = read_moves(&args.moves, args.after)?;
    // The record goes through the same reader as every stored record, so what is accepted
    // here is exactly what will be read back.
    let line = json!({
        "game": game.log.header.game,
        "name": args.name,
        "parent": args.parent,
        "after": args.after,
        "events": moves,
    })
    .to_string();
    let moves_name = args.moves.display().to_string();
    let record = parse_variation(&line, game.log.header.players.len()).map_err(|e| match e {
        VariationError::Event { index, kind, .. } => {
            anyhow!("{moves_name} line {index}: {kind}")
        }
        other => anyhow!(other),
    })?;
    let VariationRecord::Set(variation) = &record else {
        bail!("internal: a new variation read back as a deletion");
    };
    variations.insert(variation.name.clone(), variation.clone());
    let replayed = fold_variation(&game.log, &variations, &args.name, loaded)?;
    if let Some(why) = replayed.error() {
        bail!("{why}; nothing was written");
    }
    let place = game.append_variation(&record)?;
    let main = fold(game.log.clone(), loaded);
    println!(
        "variation {:?} saved in {place}: {}",
        args.name,
        summary_text(&game.log, &main, &replayed, variation)
    );
    Ok(ExitCode::SUCCESS)
}

/// An error unless the game has a variation `name`.
fn require(game: &Annotated, variations: &BTreeMap<String, Variation>, name: &str) -> Result<()> {
    if !variations.contains_key(name) {
        bail!(
            "game {} has no variation {name:?}{}",
            game.log.header.game,
            known(variations)
        );
    }
    Ok(())
}

fn known(variations: &BTreeMap<String, Variation>) -> String {
    if variations.is_empty() {
        " (it has none)".to_string()
    } else {
        let names: Vec<String> = variations.keys().map(|n| format!("{n:?}")).collect();
        format!(" (it has {})", names.join(", "))
    }
}

/// Scores in words: `Ada 12, Brandt 9`.
fn scores_text(log: &Log, scores: &[u32]) -> String {
    scores
        .iter()
        .enumerate()
        .map(|(seat, s)| format!("{} {s}", seat_name(&log.header, seat as u8)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn diff_text(log: &Log, diff: &[i64]) -> String {
    diff.iter()
        .enumerate()
        .map(|(seat, d)| format!("{} {d:+}", seat_name(&log.header, seat as u8)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How a replayed variation ends, in words: its scores after its last event and the difference
/// against the game at the same event, or why it is not legal.
fn end_text(log: &Log, main: &Timeline, line: &VariationLine) -> String {
    let last = line.timeline.steps.last().map_or(0, |s| s.seq);
    match line.error() {
        Some(why) => format!("NOT LEGAL: {why}"),
        None => format!(
            "after event {last}: {}; against the game: {}",
            scores_text(log, &line.timeline.final_scores()),
            diff_text(log, &score_difference(main, &line.timeline, last))
        ),
    }
}

/// One line on a variation: where it branches, its moves, its scores and the difference.
fn summary_text(log: &Log, main: &Timeline, line: &VariationLine, v: &Variation) -> String {
    format!(
        "{}, {} moves; {}",
        from_text(v),
        v.events.len(),
        end_text(log, main, line)
    )
}

fn summary_json(log: &Log, main: &Timeline, line: &VariationLine, v: &Variation) -> Value {
    let last = line.timeline.steps.last().map_or(0, |s| s.seq);
    json!({
        "name": v.name,
        "parent": v.parent,
        "after": v.after,
        "moves": v.events.len(),
        "legal": line.is_legal(),
        "error": line.error(),
        "last_event": last,
        "scores": line.timeline.final_scores(),
        "difference": score_difference(main, &line.timeline, last),
        "players": log.header.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
    })
}

fn list(ctx: &Ctx, args: GameArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let game = Annotated::open(ctx, &args.game)?;
    let variations = game.variations(ctx);
    let main = fold(game.log.clone(), loaded);
    let mut all_legal = true;
    for (name, v) in &variations {
        let line = match fold_variation(&game.log, &variations, name, loaded) {
            Ok(line) => line,
            Err(e) => {
                all_legal = false;
                if args.json {
                    println!(
                        "{}",
                        json!({"name": name, "legal": false, "error": e.to_string()})
                    );
                } else {
                    println!("{name:?}: cannot be replayed: {e}");
                }
                continue;
            }
        };
        all_legal &= line.is_legal();
        if args.json {
            println!("{}", summary_json(&game.log, &main, &line, v));
        } else {
            println!("{name:?}: {}", summary_text(&game.log, &main, &line, v));
        }
    }
    if variations.is_empty() && !args.json {
        ctx.info(format!(
            "game {} has no variations ({})",
            game.log.header.game,
            game.place(carc_archive::Companion::Variations)
        ));
    }
    Ok(if all_legal {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn show(ctx: &Ctx, args: NameArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let game = Annotated::open(ctx, &args.game.game)?;
    let variations = game.variations(ctx);
    require(&game, &variations, &args.name)?;
    let main = fold(game.log.clone(), loaded);
    let line = fold_variation(&game.log, &variations, &args.name, loaded)?;
    let header = &game.log.header;
    if !args.game.json {
        // The chain of names only says something for a nested variation: a top-level one's
        // chain is its own name, which read twice (`variation "a" (a)`).
        let chain = if line.chain.len() > 1 {
            format!(" ({})", line.chain.join(" > "))
        } else {
            String::new()
        };
        println!(
            "variation {:?}{chain}, branching from the game after event {}",
            args.name, line.branch
        );
    }
    for step in line.timeline.steps.iter().filter(|s| s.seq > line.branch) {
        let diff = score_difference(&main, &line.timeline, step.seq);
        if args.game.json {
            println!(
                "{}",
                json!({"seq": step.seq, "event": step.event.type_name(),
                       "text": describe_step(header, step),
                       "scores": step.scores_after, "difference": diff})
            );
        } else {
            println!(
                "{:>4}  {}  | {} | against the game: {}",
                step.seq,
                describe_step(header, step),
                scores_text(&game.log, &step.scores_after),
                diff_text(&game.log, &diff)
            );
        }
    }
    if let Some(why) = line.error() {
        println!("NOT LEGAL: {why}");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn delete(ctx: &Ctx, args: NameArgs) -> Result<ExitCode> {
    let mut game = Annotated::open(ctx, &args.game.game)?;
    let variations = game.variations(ctx);
    require(&game, &variations, &args.name)?;
    // The furthest descendants first, so that no record read in between names a parent
    // that is gone.
    let mut names = descendants(&variations, &args.name);
    names.reverse();
    names.push(args.name.clone());
    let mut place = String::new();
    for name in &names {
        place = game.append_variation(&VariationRecord::Deleted {
            game: game.log.header.game.clone(),
            name: name.clone(),
        })?;
    }
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    println!("deleted {} from {place}", quoted.join(", "));
    Ok(ExitCode::SUCCESS)
}

fn promote_cmd(ctx: &Ctx, args: NameArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let mut game = Annotated::open(ctx, &args.game.game)?;
    let mut variations = game.variations(ctx);
    let promoted = promote(&variations, &args.name)?;
    variations.insert(promoted.name.clone(), promoted.clone());
    let replayed = fold_variation(&game.log, &variations, &args.name, loaded)?;
    if let Some(why) = replayed.error() {
        bail!("{why}; nothing was written");
    }
    let place = game.append_variation(&VariationRecord::Set(promoted.clone()))?;
    let from = match &promoted.parent {
        None => "the game".to_string(),
        Some(p) => format!("variation {p:?}"),
    };
    println!(
        "variation {:?} now branches from {from} after event {} ({} moves); saved in {place}",
        args.name,
        promoted.after,
        promoted.events.len()
    );
    Ok(ExitCode::SUCCESS)
}
