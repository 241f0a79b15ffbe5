//! Puzzles written by `carc puzzles` (JSON Lines, `"puzzle_format": 1`, see docs/puzzles.md):
//! reading them, and saying how close a move tried at a puzzle's position came — the best
//! move found, the move played, or neither (the judge measured only those two). Plain Rust;
//! `app::puzzles_window` shows them.
//!
//! A move is compared in the rules' own terms: the tried move and the puzzle's moves (given
//! in the engine's notation) are both put in the form the rules list
//! ([`carc_analysis::notation::canonical`]), so a symmetric tile turned half round, with its
//! meeple on the same spot, is the same move.

use std::path::Path;

use carc_events::{event_to_action, read_log, Event, Log};
use carc_rules::{Action, Effects, Game, Phase, Placement, Pos, Rotation};
use carc_sim::TurnMove;
use serde::Deserialize;
use serde_json::Value;

/// Every fixed text the Puzzles window and its verdicts show (checked against the fonts by a
/// test, like `app::UI_TEXT`).
pub const UI_TEXT: &[&str] = &[
    "Puzzles",
    "No puzzles in this file.",
    "Choose a puzzle.",
    "1. short-game-rulings, turn 8: Brandt, tile A ?!",
    "Previous puzzle",
    "Next puzzle",
    "Puzzle 1 of 2: Brandt to move, tile A (?? in the game)",
    "This puzzle's game cannot be replayed to its position: see the message at the top.",
    "Find the best move: place the tile, rotate (R / wheel), choose the meeple.",
    "Now choose the meeple (or no meeple) above the board.",
    "To try another move, step back to the position (Left) and play again.",
    "Show the best move",
    "Best move found: the best move, 75.0 % chance to win (+3.5 expected margin)",
    "Move played: the move played, -2.0 expected margin",
    "The engine's line:",
    "The best move found: 75.0 % chance to win (+3.5 expected margin).",
    "The move played in the game: 25.0 %, against 75.0 % for the best move found (50.0 % lost).",
    "Not among the judged moves: the judge measured only its best move and the move played, so how close this one comes is not known.",
    "annotation of event 24 kept in memory only: a puzzle's game is not saved anywhere (nor are its tries); it is gone when another game is opened",
    "kept in memory only (a puzzle's game is not saved)",
];

/// The format version this viewer reads.
pub const PUZZLE_FORMAT: u64 = 1;
/// The largest puzzles file read (a puzzle repeats its game's log, a few kB a puzzle).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// The longest line (one puzzle with its game's log up to the position).
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;
/// The most puzzles in one file.
pub const MAX_PUZZLES: usize = 10_000;

/// A move the judge measured: the engine's notation, in words, the mover's chance to win
/// after it (none from the playout judge) and the expected margin.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Judged {
    #[serde(rename = "move")]
    pub notation: String,
    pub text: String,
    pub win: Option<f64>,
    pub value: f64,
}

/// One move of the engine's expected line after its best move.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LineStep {
    pub player: String,
    pub tile: String,
    #[serde(rename = "move")]
    pub notation: String,
}

/// The fields of a line, as written.
#[derive(Deserialize)]
struct Raw {
    puzzle_format: u64,
    game: String,
    #[serde(default)]
    source: String,
    turn: u64,
    event: u64,
    player: String,
    tile: String,
    mark: String,
    played: Judged,
    best: Judged,
    #[serde(default)]
    win_lost: Option<f64>,
    #[serde(default)]
    line: Vec<LineStep>,
    log: Vec<Value>,
}

/// One puzzle: where it comes from, the two judged moves and the game up to the position.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// Its line in the file (from 1).
    pub line: usize,
    pub game: String,
    pub source: String,
    pub turn: u64,
    /// The seq of the placement event the puzzle replaces.
    pub event: u64,
    pub player: String,
    pub tile: String,
    pub mark: String,
    pub played: Judged,
    pub best: Judged,
    pub win_lost: Option<f64>,
    pub line_moves: Vec<LineStep>,
    /// The game up to the position (its last event the draw of the tile to place).
    pub log: Log,
}

/// A line that cannot be read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Whether `bytes` look like a puzzles file: its first non-empty line is a JSON object with
/// `puzzle_format` (a game log's first line is its header, without it).
pub fn is_puzzles(bytes: &[u8]) -> bool {
    let first = bytes
        .split(|b| *b == b'\n')
        .find(|l| !l.iter().all(u8::is_ascii_whitespace));
    first.is_some_and(|l| {
        serde_json::from_slice::<serde_json::Map<String, Value>>(l)
            .is_ok_and(|m| m.contains_key("puzzle_format"))
    })
}

/// Reads a puzzles file; the message names the file and the line.
pub fn read_puzzles(path: &Path) -> Result<Vec<Puzzle>, String> {
    // As the CLI reads a file: a regular file only, capped (a device or a FIFO is refused
    // at once, not read for ever or waited on).
    let bytes = carc_formats::read_input_bytes(path).map_err(|e| e.to_string())?;
    let size = bytes.len() as u64;
    if size > MAX_FILE_BYTES {
        return Err(format!(
            "{}: {size} bytes is more than a puzzles file may hold ({MAX_FILE_BYTES})",
            path.display()
        ));
    }
    parse_puzzles(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses puzzles, one a line (blank lines allowed). The first bad line stops it, named.
pub fn parse_puzzles(bytes: &[u8]) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut out = Vec::new();
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        let n = i + 1;
        let err = |message: String| PuzzleError { line: n, message };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if line.len() > MAX_LINE_BYTES {
            return Err(err(format!(
                "{} bytes is more than a puzzle line may hold ({MAX_LINE_BYTES})",
                line.len()
            )));
        }
        if out.len() == MAX_PUZZLES {
            return Err(err(format!("more than {MAX_PUZZLES} puzzles in one file")));
        }
        out.push(parse_line(n, line).map_err(err)?);
    }
    Ok(out)
}

fn parse_line(n: usize, line: &[u8]) -> Result<Puzzle, String> {
    let text = std::str::from_utf8(line).map_err(|e| format!("not UTF-8: {e}"))?;
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not a JSON object: {e}"))?;
    match value.get("puzzle_format").and_then(Value::as_u64) {
        Some(PUZZLE_FORMAT) => {}
        Some(other) => {
            return Err(format!(
                "puzzle_format {other} is not one this viewer reads ({PUZZLE_FORMAT})"
            ))
        }
        None => return Err("not a puzzle: no \"puzzle_format\": 1".to_string()),
    }
    let raw: Raw = serde_json::from_value(value).map_err(|e| format!("not a puzzle: {e}"))?;
    debug_assert_eq!(raw.puzzle_format, PUZZLE_FORMAT);
    // The log, as the log reader reads a file: one object a line.
    let lines: Vec<String> = raw.log.iter().map(Value::to_string).collect();
    let log = read_log(lines.join("\n").as_bytes())
        .map_err(|e| format!("its log (entry {} of \"log\"): {}", e.line, e.kind))?;
    match log.events.last().map(|(_, e)| &e.event) {
        Some(Event::TileDrawn { .. }) => {}
        _ => {
            return Err(format!(
                "its log does not end with the draw of the tile to place (puzzle at line {n})"
            ))
        }
    }
    Ok(Puzzle {
        line: n,
        game: raw.game,
        source: raw.source,
        turn: raw.turn,
        event: raw.event,
        player: raw.player,
        tile: raw.tile,
        mark: raw.mark,
        played: raw.played,
        best: raw.best,
        win_lost: raw.win_lost,
        line_moves: raw.line,
        log,
    })
}

/// How close a tried move came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The best move the judge found.
    Best,
    /// The move played in the game.
    Played,
    /// Neither: the judge measured only those two.
    NotJudged,
}

/// The turn's move made by `events` from `position` (waiting for the tile's placement): the
/// placement, the arrow chosen, the meeple step. `None` until the meeple step is taken, or if
/// an event is not a move of that turn.
pub fn tried_move(position: &Game, events: &[Event]) -> Option<TurnMove> {
    let mut game = position.clone();
    let mut fx = Effects::quiet();
    let mut tried: Option<TurnMove> = None;
    for event in events {
        let action = event_to_action(&game, event).ok()?;
        game.apply(&action, &mut fx).ok()?;
        match (action, tried.as_mut()) {
            (Action::Place { at, rotation }, None) => {
                tried = Some(TurnMove {
                    placement: Placement { at, rotation },
                    arrow: None,
                    meeple: Action::SkipMeeple,
                });
            }
            (Action::ChooseArrow { arrow }, Some(m)) => m.arrow = Some(arrow),
            (
                meeple @ (Action::PlaceMeeple { .. }
                | Action::PlaceArrowMeeple { .. }
                | Action::SkipMeeple
                | Action::PlaceAbbot { .. }
                | Action::TakeBackAbbot
                | Action::PlaceLargeMeeple { .. }
                | Action::PlaceBuilder { .. }
                | Action::PlacePig { .. }),
                Some(m),
            ) => {
                m.meeple = meeple;
                return tried;
            }
            // A gift opened before the placement is part of the position's choices, not the
            // move; anything else after the placement ends the turn without a meeple step.
            (Action::OpenGift { .. }, None) => {}
            _ => return None,
        }
    }
    None
}

/// The move written `text` in the engine's notation at `position`, in the rules' form; `None`
/// when no legal move of the turn is written so.
pub fn move_of_text(position: &Game, text: &str) -> Option<TurnMove> {
    let Phase::Place { tile } = position.phase() else {
        return None;
    };
    let mut fields = text.split_whitespace();
    let (x, y) = fields.next()?.split_once(',')?;
    let at = Pos::new(x.parse().ok()?, y.parse().ok()?);
    let rotation = Rotation::from_degrees(fields.next()?.parse().ok()?)?;
    let mut placed = position.clone();
    placed
        .apply(&Action::Place { at, rotation }, &mut Effects::quiet())
        .ok()?;
    let placement = Placement { at, rotation };
    // The arrow choices (20th Anniversary), each with its meeple steps.
    let mut branches: Vec<(Option<Pos>, Game)> = Vec::new();
    if let Phase::ChooseArrow { .. } = placed.phase() {
        let mut arrows = Vec::new();
        placed.legal_arrow_choices(&mut arrows);
        for a in arrows {
            let mut g = placed.clone();
            if g.apply(&Action::ChooseArrow { arrow: a.at }, &mut Effects::quiet())
                .is_ok()
            {
                branches.push((Some(a.at), g));
            }
        }
    } else {
        branches.push((None, placed));
    }
    for (arrow, g) in branches {
        let mut steps: Vec<Action> = crate::trial::offers(&g)
            .into_iter()
            .map(|o| o.action)
            .collect();
        if steps.is_empty() {
            steps.push(Action::SkipMeeple);
        }
        for meeple in steps {
            let m = TurnMove {
                placement,
                arrow,
                meeple,
            };
            if carc_engine::move_text(position, &m) == text {
                return Some(carc_analysis::notation::canonical(position, tile, &m));
            }
        }
    }
    None
}

/// How close `tried` (a move at the puzzle's `position`) came: compared in the rules' form
/// with the puzzle's best move and move played.
pub fn verdict(puzzle: &Puzzle, position: &Game, tried: &TurnMove) -> Verdict {
    let Phase::Place { tile } = position.phase() else {
        return Verdict::NotJudged;
    };
    let mine = Some(carc_analysis::notation::canonical(position, tile, tried));
    if mine == move_of_text(position, &puzzle.best.notation) {
        Verdict::Best
    } else if mine == move_of_text(position, &puzzle.played.notation) {
        Verdict::Played
    } else {
        Verdict::NotJudged
    }
}

/// A chance to win as the puzzle page writes it (`35.5 %`), or that the judge did not
/// measure it (the playout judge).
pub fn percent(win: Option<f64>) -> String {
    win.map_or_else(
        || "not measured".to_string(),
        |w| format!("{:.1} %", 100.0 * w),
    )
}

/// A judged move's measure as the page writes it: `35.5 % chance to win (+1.2 expected
/// margin)`, or the margin alone from the playout judge.
pub fn measured(j: &Judged) -> String {
    match j.win {
        Some(_) => format!(
            "{} chance to win ({:+.1} expected margin)",
            percent(j.win),
            j.value
        ),
        None => format!("{:+.1} expected margin", j.value),
    }
}

/// What the verdict says, in the words of the puzzle page.
pub fn verdict_text(puzzle: &Puzzle, verdict: Verdict) -> String {
    match verdict {
        Verdict::Best => format!("The best move found: {}.", measured(&puzzle.best)),
        Verdict::Played => {
            let lost = match (puzzle.best.win, puzzle.played.win) {
                (Some(b), Some(p)) => format!(" ({} lost)", percent(Some(b - p))),
                _ => String::new(),
            };
            format!(
                "The move played in the game: {}, against {} for the best move found{lost}.",
                measured(&puzzle.played),
                measured(&puzzle.best)
            )
        }
        Verdict::NotJudged => "Not among the judged moves: the judge measured only its best move \
             and the move played, so how close this one comes is not known."
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_events::read_log;
    use carc_replay::fold;

    /// A puzzle line for the short sample game at the draw before event 24 (Brandt, tile A),
    /// with `best` and `played` as given.
    fn line(best: &str, played: &str) -> String {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../logs/short-game-rulings.jsonl"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let log: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|v| v.get("seq").and_then(Value::as_u64).is_none_or(|s| s < 24))
            .collect();
        serde_json::json!({
            "puzzle_format": 1, "game": "short-game-rulings", "source": "x", "turn": 8,
            "event": 24, "seat": 1, "player": "Brandt", "tile": "A", "mark": "?",
            "played": {"move": played, "text": "played", "win": 0.2, "value": -3.0},
            "best": {"move": best, "text": "best", "win": 0.5, "value": 1.0},
            "loss": 4.0, "win_lost": 30.0, "line": [], "moves": 10, "log": log,
        })
        .to_string()
    }

    fn position(p: &Puzzle) -> Game {
        let t = fold(p.log.clone(), &[]);
        t.state_at(t.steps.len()).unwrap()
    }

    #[test]
    fn a_good_line_is_read_with_its_log_ending_at_the_draw() {
        let text = format!("\n{}\n", line("0,-1 0 none", "2,0 90 none"));
        assert!(is_puzzles(text.as_bytes()));
        let p = parse_puzzles(text.as_bytes()).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].line, p[0].turn, p[0].event), (2, 8, 24));
        assert_eq!((p[0].player.as_str(), p[0].tile.as_str()), ("Brandt", "A"));
        let game = position(&p[0]);
        assert!(matches!(game.phase(), Phase::Place { .. }));
        assert_eq!(p[0].log.events.last().unwrap().1.seq, 23);
    }

    #[test]
    fn garbage_and_hostile_lines_are_named_by_line() {
        let good = line("0,-1 0 none", "2,0 90 none");
        let bad = format!("{good}\n{{\"puzzle_format\": 1, \"game\": 3}}\n");
        let e = parse_puzzles(bad.as_bytes()).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("not a puzzle"), "{e}");
        let e = parse_puzzles(b"\n\nnot json").unwrap_err();
        assert_eq!(
            (e.line, e.message.starts_with("not a JSON object")),
            (3, true)
        );
        let e = parse_puzzles(b"{\"puzzle_format\": 2}").unwrap_err();
        assert!(e.to_string().starts_with("line 1: puzzle_format 2"), "{e}");
        // A log that is not a log: its entry is named
        let hostile = good.replace("\"format\":\"carcassonne-log\"", "\"format\":\"evil\"");
        assert_ne!(hostile, good);
        let e = parse_puzzles(hostile.as_bytes()).unwrap_err();
        assert!(e.message.contains("its log (entry 1"), "{e}");
        // A game log is not a puzzles file
        assert!(!is_puzzles(b"{\"format\":\"carcassonne-log\"}\n"));
    }

    #[test]
    fn a_line_too_long_is_refused_before_it_is_parsed() {
        let mut long = vec![b' '; MAX_LINE_BYTES + 1];
        long[0] = b'{';
        let e = parse_puzzles(&long).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.message.contains("more than a puzzle line may hold"),
            "{e}"
        );
    }

    #[test]
    fn a_tried_move_is_the_best_the_played_or_not_judged_in_the_rules_form() {
        // Given the puzzle of event 24 (A placed at (2,0) 90° in the game), its best move
        // another legal placement of A
        let probe = &parse_puzzles(line("2,0 90 none", "2,0 90 none").as_bytes()).unwrap()[0];
        let game = position(probe);
        let places = crate::trial::placements(&game);
        let other = places
            .iter()
            .find(|p| p.at != Pos::new(2, 0))
            .expect("A fits elsewhere");
        let best_text = format!(
            "{},{} {} none",
            other.at.x,
            other.at.y,
            other.rotation.degrees()
        );
        let p = &parse_puzzles(line(&best_text, "2,0 90 none").as_bytes()).unwrap()[0];
        let tried = |at: Pos, rotation: Rotation, meeple: Action| TurnMove {
            placement: Placement { at, rotation },
            arrow: None,
            meeple,
        };
        let r90 = Rotation::from_degrees(90).unwrap();
        // Then each is recognised, and the move played with a meeple is neither
        let played = tried(Pos::new(2, 0), r90, Action::SkipMeeple);
        assert_eq!(verdict(p, &game, &played), Verdict::Played);
        assert_eq!(
            verdict_text(p, Verdict::Played),
            "The move played in the game: 20.0 % chance to win (-3.0 expected margin), against \
             50.0 % chance to win (+1.0 expected margin) for the best move found (30.0 % lost)."
        );
        let best = tried(other.at, other.rotation, Action::SkipMeeple);
        assert_eq!(verdict(p, &game, &best), Verdict::Best);
        let spot = crate::trial::offers(&{
            let mut g = game.clone();
            g.apply(
                &Action::Place {
                    at: Pos::new(2, 0),
                    rotation: r90,
                },
                &mut Effects::quiet(),
            )
            .unwrap();
            g
        })
        .into_iter()
        .find(|o| o.label.starts_with("meeple on"))
        .expect("a spot on A")
        .action;
        assert_eq!(
            verdict(p, &game, &tried(Pos::new(2, 0), r90, spot)),
            Verdict::NotJudged
        );
        // From events: the placement alone is not a move yet; with the meeple step it is
        let place = crate::trial::event_of(
            &game,
            &Action::Place {
                at: Pos::new(2, 0),
                rotation: r90,
            },
        )
        .unwrap();
        assert_eq!(tried_move(&game, std::slice::from_ref(&place)), None);
        let skip = Event::MeepleSkipped { player: 1 };
        assert_eq!(tried_move(&game, &[place, skip]), Some(played));
        assert_eq!(move_of_text(&game, "99,99 0 none"), None);
        assert_eq!(move_of_text(&game, "garbage"), None);
    }

    #[test]
    fn a_symmetric_tile_turned_half_round_is_the_same_move() {
        // Given a position of the sample game whose tile looks the same turned half round
        let full = fold(
            read_log(
                &std::fs::read(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../logs/short-game-rulings.jsonl"
                ))
                .unwrap(),
            )
            .unwrap(),
            &[],
        );
        let (game, twin, listed) = (0..full.steps.len())
            .filter_map(|i| {
                let game = full.state_at(i).ok()?;
                let Phase::Place { tile } = game.phase() else {
                    return None;
                };
                let t = game.tiles().get(tile);
                crate::trial::placements(&game).into_iter().find_map(|p| {
                    let turned = Rotation::from_degrees((p.rotation.degrees() + 180) % 360)?;
                    (!t.is_distinct_rotation(turned)).then_some((game.clone(), turned, p))
                })
            })
            .next()
            .expect("the sample has a symmetric tile");
        // When the best move is written in the rotation the rules do not list
        let text = format!("{},{} {} none", listed.at.x, listed.at.y, twin.degrees());
        let found = move_of_text(&game, &text).expect("the turned move is read");
        // Then it is the listed placement
        assert_eq!(found.placement, listed);
        assert_eq!(found.meeple, Action::SkipMeeple);
    }
}
