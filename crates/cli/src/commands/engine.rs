//! `carc engine`: our engine as the server of the engine protocol
//! (`docs/engine-protocol.md`), on stdin and stdout: it reads a position as log lines, the
//! seat, the budget and the listed moves, and answers `info` lines and a `bestmove`.

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use carc_engine::{analyse, move_text, Budget, LineStep, SearchOptions, DEFAULT_NODES};
use carc_events::{event_to_action, game_from_header, read_log};
use carc_rules::{Action, Effects, Game, Phase, TileSet};
use clap::Args;

use crate::engine_protocol::{read_line, HELLO, MAX_SERVER_LINE};

#[derive(Args)]
pub struct EngineArgs {
    /// Iterations per move (default: the budget carc sends, else 2000).
    #[arg(long, conflicts_with = "ms")]
    nodes: Option<u64>,
    /// Milliseconds per move (default: the budget carc sends).
    #[arg(long)]
    ms: Option<u64>,
    /// Search threads (0 = every core).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The search's seed (each move's search is seeded from it and the turn).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// What carc has said about the decision to come.
#[derive(Default)]
struct Pending {
    position: Option<String>,
    seat: Option<u8>,
    budget_ms: Option<u64>,
    moves: Vec<String>,
}

pub fn engine(args: EngineArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut pending = Pending::default();
    let next = |input: &mut io::StdinLock<'_>| -> Result<Option<String>> {
        read_line(input, MAX_SERVER_LINE).map_err(|e| anyhow!("reading stdin: {e}"))
    };
    while let Some(line) = next(&mut input)? {
        let (word, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        let rest = rest.trim();
        match word {
            "carc-engine-protocol" => {
                if line.trim() == HELLO {
                    println!("id name carc engine {}", env!("CARGO_PKG_VERSION"));
                    println!("ready");
                } else {
                    println!("error this engine speaks {HELLO}, not {rest}");
                }
            }
            "position" => {
                let mut text = String::new();
                loop {
                    match next(&mut input)? {
                        Some(l) if l == "end" => break,
                        Some(l) => {
                            text.push_str(&l);
                            text.push('\n');
                        }
                        None => bail!("stdin ended inside a position (no `end` line)"),
                    }
                }
                pending = Pending {
                    position: Some(text),
                    ..Pending::default()
                };
            }
            "seat" => pending.seat = rest.parse().ok(),
            "budget" => {
                pending.budget_ms = rest
                    .strip_prefix("ms ")
                    .and_then(|ms| ms.trim().parse().ok())
            }
            "moves" => {
                let n: usize = rest.parse().unwrap_or(0);
                pending.moves.clear();
                for _ in 0..n {
                    match next(&mut input)? {
                        Some(m) => pending.moves.push(m),
                        None => bail!("stdin ended inside the list of moves"),
                    }
                }
            }
            "go" => match answer(&args, loaded, &pending) {
                Ok(lines) => {
                    for l in lines {
                        println!("{l}");
                    }
                }
                Err(e) => println!("error {}", format!("{e:#}").replace(['\n', '\r'], " ")),
            },
            "quit" => break,
            // Unknown lines are ignored, as UCI engines do: a later carc may say more.
            _ => {}
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The position's game: the log's header, then its events applied.
fn game_of(text: &str, loaded: &[TileSet]) -> Result<Game> {
    let log = read_log(text.as_bytes()).map_err(|e| anyhow!("the position is no log: {e}"))?;
    let mut game = game_from_header(&log.header, loaded)?;
    let mut fx = Effects::quiet();
    for (line, envelope) in &log.events {
        let action = event_to_action(&game, &envelope.event)
            .map_err(|e| anyhow!("the position's line {line}: {e}"))?;
        game.apply(&action, &mut fx)
            .map_err(|e| anyhow!("the position's line {line}: {e}"))?;
    }
    Ok(game)
}

/// The lines that answer `go`: `info` lines, then `bestmove`.
fn answer(args: &EngineArgs, loaded: &[TileSet], pending: &Pending) -> Result<Vec<String>> {
    let Some(position) = &pending.position else {
        bail!("`go` before any position");
    };
    let game = game_of(position, loaded)?;
    if let Some(seat) = pending.seat {
        if seat != game.current_player() {
            bail!(
                "seat {seat} is to move, says carc, but the position has seat {} to move",
                game.current_player()
            );
        }
    }
    let budget = match (args.nodes, args.ms, pending.budget_ms) {
        (Some(n), _, _) => Budget::Nodes(n.max(1)),
        (None, Some(ms), _) | (None, None, Some(ms)) => Budget::Time(Duration::from_millis(ms)),
        (None, None, None) => Budget::Nodes(DEFAULT_NODES),
    };
    let options = SearchOptions {
        budget,
        threads: args.threads,
        seed: args
            .seed
            .wrapping_add(u64::from(game.turn()).wrapping_mul(0x2545_F491_4F6C_DD1D)),
        ..SearchOptions::default()
    };
    let analysis = analyse(&game, &options)?;
    // The most visited move that carc listed (the best, unless carc listed other moves).
    let listed = |t: &String| pending.moves.is_empty() || pending.moves.contains(t);
    let (chosen, best) = std::iter::once(&analysis.best)
        .chain(analysis.moves.iter().map(|m| &m.mv))
        .map(|m| (*m, move_text(&game, m)))
        .find(|(_, t)| listed(t))
        .ok_or_else(|| anyhow!("none of the moves listed is a legal move of the position"))?;
    // The figures of the move chosen; the line only when it is the search's own best.
    let (win, margin) = match analysis.stats(&chosen) {
        Some(s) if chosen != analysis.best => (
            s.win.unwrap_or(analysis.win),
            s.margin.unwrap_or(analysis.margin),
        ),
        _ => (analysis.win, analysis.margin),
    };
    let steps = if chosen == analysis.best {
        line_text(&game, &analysis.line)
    } else {
        Vec::new()
    };
    let mut out = vec![format!(
        "info win {win:.3} margin {margin:.1} nodes {}",
        analysis.nodes
    )];
    if !steps.is_empty() {
        out.push(format!("info line {}", steps.join(" ; ")));
    }
    out.push(format!("bestmove {best}"));
    Ok(out)
}

/// The principal line as `SEAT TILE MOVE` steps joined by ` ; `: each step is written at its
/// own position, reached by drawing the step's tile and playing the move before it. The line
/// stops where that cannot be followed (a gift card to receive: chance the line does not say).
fn line_text(game: &Game, line: &[LineStep]) -> Vec<String> {
    let mut g = game.clone();
    let mut fx = Effects::quiet();
    let mut steps = Vec::new();
    for (k, step) in line.iter().enumerate() {
        if k > 0
            && (!matches!(g.phase(), Phase::Draw)
                || g.apply(&Action::Draw { tile: step.tile }, &mut fx).is_err())
        {
            break;
        }
        if !matches!(g.phase(), Phase::Place { tile } if tile == step.tile) {
            break;
        }
        steps.push(format!(
            "{} {} {}",
            step.seat,
            g.tiles().get(step.tile).id,
            move_text(&g, &step.mv)
        ));
        let place = Action::Place {
            at: step.mv.placement.at,
            rotation: step.mv.placement.rotation,
        };
        if g.apply(&place, &mut fx).is_err() {
            break;
        }
        if let (Phase::ChooseArrow { .. }, Some(arrow)) = (g.phase(), step.mv.arrow) {
            if g.apply(&Action::ChooseArrow { arrow }, &mut fx).is_err() {
                break;
            }
        }
        if !matches!(g.phase(), Phase::Meeple { .. }) || g.apply(&step.mv.meeple, &mut fx).is_err()
        {
            break;
        }
    }
    steps
}
