//! `carc engine`: our engine as the server of the engine protocol
//! (`docs/engine-protocol.md`), on stdin and stdout: it reads a position as log lines, the
//! seat, the budget and the listed moves, and answers `info` lines and a `bestmove`.

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use carc_engine::{
    analyse, move_text, Budget, LineStep, SearchOptions, DEFAULT_NODES, MAX_NODES, MAX_TIME,
};
use carc_events::{event_to_action, game_from_header, read_log};
use carc_rules::{Action, Effects, Game, Phase, TileSet};
use clap::Args;

use crate::engine_protocol::{read_line, skip_rest_of_line, LineError, HELLO, MAX_SERVER_LINE};

#[derive(Args)]
pub struct EngineArgs {
    /// Iterations per move (default: the budget carc sends, else 2000; at most 100000000).
    #[arg(long, conflicts_with = "ms", value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    nodes: Option<u64>,
    /// Milliseconds per move (default: the budget carc sends; at most 3600000, an hour).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_MS))]
    ms: Option<u64>,
    /// Search threads (0 = every core).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The search's seed (each move's search is seeded from it and the turn).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// The most milliseconds a move may be given (the engine's [`MAX_TIME`]).
const MAX_MS: u64 = MAX_TIME.as_secs() * 1000;
/// The most bytes of a position's lines kept (a whole game's log is about 100 KB).
pub const MAX_POSITION_BYTES: usize = 16 * 1024 * 1024;
/// The most moves a `moves K` list may have (a turn has a few thousand at most).
pub const MAX_MOVES: usize = 100_000;
/// The most bytes of a list of moves kept.
const MAX_MOVES_BYTES: usize = 16 * 1024 * 1024;

/// What carc has said about the decision to come.
#[derive(Default)]
struct Pending {
    position: Option<String>,
    seat: Option<u8>,
    budget_ms: Option<u64>,
    moves: Vec<String>,
    /// What was wrong with what carc sent since the position (a line too long or not UTF-8,
    /// a position or list over its cap, a value that cannot be read): the next `go` is
    /// answered `error` with it.
    problem: Option<String>,
}

impl Pending {
    /// Notes the first problem of this decision.
    fn refuse(&mut self, why: String) {
        self.problem.get_or_insert(why);
    }
}

/// One line read from carc: its text, or why it could not be read (the line is then
/// skipped whole, and the server reads on).
type Line = Result<String, LineError>;

/// The next line, `None` at the end of stdin. A line too long is skipped to its end, so the
/// server reads on at the next line; only a failing read of stdin is an error.
fn next_line(input: &mut impl BufRead) -> Result<Option<Line>> {
    match read_line(input, MAX_SERVER_LINE) {
        Ok(Some(line)) => Ok(Some(Ok(line))),
        Ok(None) => Ok(None),
        Err(LineError::Io(e)) => Err(anyhow!("reading stdin: {e}")),
        Err(e @ LineError::TooLong(_)) => {
            skip_rest_of_line(input).map_err(|e| anyhow!("reading stdin: {e}"))?;
            Ok(Some(Err(e)))
        }
        Err(e @ LineError::NotUtf8) => Ok(Some(Err(e))),
    }
}

/// The commands, for a person at a terminal (`help`, and the greeting).
const COMMANDS: &str = "\
commands, one a line (docs/engine-protocol.md):
  carc-engine-protocol 1   the greeting: answered `id name ...`, then `ready`
  position                 then the game so far as a log's lines (header, events), then `end`
  seat N                   the seat to move (0-based), checked against the position
  budget ms T              milliseconds to think (unless --nodes or --ms was given)
  moves K                  then K lines: the moves to choose from (without: any legal move)
  go                       search: `info ...` lines, then `bestmove MOVE` (or `error TEXT`)
  help                     this list
  quit                     the end (so is the end of the input: Ctrl-D)";

pub fn engine(args: EngineArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let stdin = io::stdin();
    // A person typing gets a greeting and `help`; a program gets exactly the protocol (it
    // never reads stdin from a terminal), so nothing it does not expect is ever written.
    let person = stdin.is_terminal();
    if person {
        eprintln!(
            "carc engine {}: our engine, speaking the engine protocol on stdin and stdout.\n\
             {COMMANDS}",
            env!("CARGO_PKG_VERSION")
        );
    }
    let mut input = stdin.lock();
    serve(&args, loaded, &mut input, &mut io::stdout().lock(), person)?;
    Ok(ExitCode::SUCCESS)
}

/// The server's loop: reads `input` until `quit` or its end, answers on `out`. Nothing carc
/// sends ends it: every problem is answered `error` at the next `go`. With `person` (stdin is
/// a terminal), `help` lists the commands and an unknown command says so, both on stderr so
/// that stdout stays the protocol's.
fn serve(
    args: &EngineArgs,
    loaded: &[TileSet],
    input: &mut impl BufRead,
    out: &mut impl Write,
    person: bool,
) -> Result<()> {
    let mut pending = Pending::default();
    while let Some(line) = next_line(input)? {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                pending.refuse(format!("carc sent {e}; it was skipped"));
                continue;
            }
        };
        let (word, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        let rest = rest.trim();
        match word {
            "carc-engine-protocol" => {
                if line.trim() == HELLO {
                    writeln!(out, "id name carc engine {}", env!("CARGO_PKG_VERSION"))?;
                    writeln!(out, "ready")?;
                } else {
                    writeln!(out, "error this engine speaks {HELLO}, not {}", clean(rest))?;
                }
            }
            "position" => {
                pending = Pending::default();
                let mut text = String::new();
                loop {
                    match next_line(input)? {
                        Some(Ok(l)) if l == "end" => break,
                        Some(Ok(l)) => {
                            if text.len() + l.len() + 1 > MAX_POSITION_BYTES {
                                pending.refuse(format!(
                                    "the position is longer than {MAX_POSITION_BYTES} bytes"
                                ));
                            } else if pending.problem.is_none() {
                                text.push_str(&l);
                                text.push('\n');
                            }
                        }
                        Some(Err(e)) => {
                            pending.refuse(format!("the position has {e}; it was skipped"))
                        }
                        None => bail!("stdin ended inside a position (no `end` line)"),
                    }
                }
                if pending.problem.is_none() {
                    pending.position = Some(text);
                }
            }
            "seat" => match rest.parse() {
                Ok(seat) => pending.seat = Some(seat),
                Err(_) => pending.refuse(format!("`seat {}` is no seat number", clean(rest))),
            },
            "budget" => match rest.strip_prefix("ms ").map(|ms| ms.trim().parse::<u64>()) {
                Some(Ok(ms)) if (1..=MAX_MS).contains(&ms) => pending.budget_ms = Some(ms),
                Some(Ok(ms)) => pending.refuse(format!(
                    "`budget ms {ms}`: the budget must be 1 to {MAX_MS} ms (an hour)"
                )),
                _ => pending.refuse(format!(
                    "`budget {}` is not `budget ms T` with T a whole number",
                    clean(rest)
                )),
            },
            "moves" => {
                pending.moves.clear();
                match rest.parse::<usize>() {
                    Ok(n) if n <= MAX_MOVES => {
                        let mut bytes = 0;
                        for _ in 0..n {
                            match next_line(input)? {
                                Some(Ok(m)) => {
                                    bytes += m.len();
                                    if bytes > MAX_MOVES_BYTES {
                                        pending.refuse(format!(
                                            "the moves are longer than {MAX_MOVES_BYTES} bytes"
                                        ));
                                    } else {
                                        pending.moves.push(m);
                                    }
                                }
                                Some(Err(e)) => pending
                                    .refuse(format!("the list of moves has {e}; it was skipped")),
                                None => bail!("stdin ended inside the list of moves"),
                            }
                        }
                    }
                    // The lines that follow are not read as moves: read as commands, they
                    // are ignored (unknown) until the next position.
                    Ok(n) => pending.refuse(format!(
                        "`moves {n}`: a list of at most {MAX_MOVES} moves was expected"
                    )),
                    Err(_) => pending.refuse(format!(
                        "`moves {}` is not `moves K` with K a whole number",
                        clean(rest)
                    )),
                }
            }
            "go" => {
                let answered = match pending.problem.take() {
                    Some(why) => Err(anyhow!(why)),
                    None => answer(args, loaded, &pending),
                };
                match answered {
                    Ok(lines) => {
                        for l in lines {
                            writeln!(out, "{l}")?;
                        }
                    }
                    Err(e) => writeln!(out, "error {}", clean(&format!("{e:#}")))?,
                }
                out.flush()?;
            }
            "quit" => break,
            "help" if person => eprintln!("{COMMANDS}"),
            "" => {}
            _ if person => eprintln!(
                "unknown command `{}`: `help` lists the commands",
                clean(word)
            ),
            // Unknown lines are ignored, as UCI engines do: a later carc may say more.
            _ => {}
        }
        out.flush()?;
    }
    Ok(())
}

/// Text for one line of the answer: line breaks and other control characters are written
/// as spaces, and it is shortened (carc's words echoed back are untrusted).
fn clean(text: &str) -> String {
    const MAX: usize = 2000;
    text.chars()
        .take(MAX)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
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
                "seat {seat} is to move, says the `seat` line, but the position has seat {} \
                 to move",
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
