//! Puzzles from a player's mistakes (`carc puzzles`): every turn of theirs that the review
//! marked `?` (mistake) or `??` (blunder) becomes a position to solve again — the game just
//! before that turn's placement, the drawn tile waiting, with the move played, the best move
//! found and what separated them. Pure: it reads a timeline and its [`QualityReport`] (judge
//! first with [`crate::move_quality`]); it judges nothing itself.
//!
//! A puzzle carries the turn's legal moves as the rules list them ([`turn_moves`]), so that
//! whoever shows it can let a player try any of them and say which of the judged moves (the
//! best, the move played) a try is; the judge measured those two only, and nothing here
//! pretends to know the value of any other.

use carc_events::{Header, Log};
use carc_replay::describe::seat_name;
use carc_replay::Timeline;
use carc_rules::{Game, Phase, TileTypeId};
use carc_sim::{turn_moves, Buffers, TurnMove};
use thiserror::Error;

use crate::notation::canonical;
use crate::verdict::{Mark, QualityReport, TurnQuality};

/// One position to solve again.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The seat whose move it was, and its player's name.
    pub seat: u8,
    pub player: String,
    /// The drawn tile waiting to be placed.
    pub tile: TileTypeId,
    /// The game just before the placement (the tile drawn, any gift of the turn opened).
    pub position: Game,
    /// The log up to the placement (header and every event before it; no assertions,
    /// annotations or variations): replayed, it gives [`Self::position`].
    pub prefix: Log,
    /// The turn as judged: the move played, the best move, the loss, the mark, the chances to
    /// win and the expected line.
    pub judged: TurnQuality,
    /// The turn's legal moves as the rules list them (symmetric rotations once).
    pub moves: Vec<TurnMove>,
    /// The move played among [`Self::moves`] (put in the listed form first).
    pub played: Option<usize>,
    /// The best move found among [`Self::moves`].
    pub best: Option<usize>,
}

/// Why puzzles cannot be made for a player.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PuzzleError {
    #[error(
        "game {game:?} has no player named {wanted:?}; its players are {}",
        quoted(players)
    )]
    NoSuchPlayer {
        game: String,
        wanted: String,
        players: Vec<String>,
    },
}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a mark makes a puzzle: a mistake or a blunder (an inaccuracy does not).
pub fn is_puzzle_mark(mark: Option<Mark>) -> bool {
    matches!(mark, Some(Mark::Mistake | Mark::Blunder))
}

/// The seats of `header` whose player is named `name` exactly (several when a name repeats).
pub fn seats_named(header: &Header, name: &str) -> Result<Vec<u8>, PuzzleError> {
    let seats: Vec<u8> = (0..header.players.len() as u8)
        .filter(|&s| seat_name(header, s) == name)
        .collect();
    if seats.is_empty() {
        return Err(PuzzleError::NoSuchPlayer {
            game: header.game.clone(),
            wanted: name.to_string(),
            players: header.players.iter().map(|p| p.name.clone()).collect(),
        });
    }
    Ok(seats)
}

/// The puzzles of `seats` in a judged game, in game order: their turns marked `?` or `??`.
/// `report` is [`crate::move_quality`] of `timeline`. A marked turn whose position cannot be
/// rebuilt (none, for a report of this timeline) is left out.
pub fn puzzles(timeline: &Timeline, report: &QualityReport, seats: &[u8]) -> Vec<Puzzle> {
    let header = &timeline.log.header;
    let mut buffers = Buffers::default();
    let mut listed = Vec::new();
    report
        .turns
        .iter()
        .filter(|t| seats.contains(&t.seat) && is_puzzle_mark(t.mark))
        .filter_map(|t| {
            let position = timeline.state_at(t.step).ok()?;
            let Phase::Place { tile } = position.phase() else {
                return None;
            };
            turn_moves(&position, &mut buffers, &mut listed);
            let moves: Vec<TurnMove> = listed.iter().map(|(m, _)| *m).collect();
            let find = |m: &TurnMove| {
                let c = canonical(&position, tile, m);
                moves.iter().position(|l| *l == c)
            };
            let mut prefix = Log::new(header.clone());
            prefix.events = timeline
                .log
                .events
                .iter()
                .filter(|(_, e)| e.seq < t.seq)
                .cloned()
                .collect();
            Some(Puzzle {
                seat: t.seat,
                player: seat_name(header, t.seat),
                tile,
                played: find(&t.played.mv),
                best: find(&t.best.mv),
                moves,
                position,
                prefix,
                judged: t.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{MoveEstimate, QualityOptions, WinEstimate};
    use carc_events::read_log;
    use carc_replay::fold;

    fn timeline() -> Timeline {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../logs/short-game-rulings.jsonl"
        );
        fold(read_log(&std::fs::read(path).unwrap()).unwrap(), &[])
    }

    /// A judged turn at placement event `seq` of `t`, by `seat`, with `mark`: the move played
    /// is the log's; the "best" is another legal move (the judge's verdict stood in for, so
    /// that the extraction is tested apart from any search).
    fn judged(t: &Timeline, seq: u64, mark: Option<Mark>) -> TurnQuality {
        let step = t.index_of_seq(seq).unwrap();
        let game = t.state_at(step).unwrap();
        let mut listed = Vec::new();
        turn_moves(&game, &mut Buffers::default(), &mut listed);
        let d = crate::quality::decisions(t)
            .unwrap()
            .into_iter()
            .find(|d| d.seq == seq)
            .unwrap();
        let other = listed
            .iter()
            .map(|(m, _)| *m)
            .find(|m| *m != canonical(&game, tile_of(&game), &d.played))
            .unwrap();
        let estimate = |mv: TurnMove, value: f64| MoveEstimate {
            mv,
            text: String::new(),
            value,
        };
        TurnQuality {
            seq,
            step,
            turn: d.turn,
            seat: d.seat,
            moves: listed.len(),
            screened: listed.len(),
            played: estimate(d.played, 1.0),
            best: estimate(other, 9.0),
            loss: 8.0,
            mark,
            win: Some(WinEstimate {
                played: 0.2,
                best: 0.6,
                lost: 40.0,
                accuracy: 10.0,
                exact: false,
            }),
            line: Vec::new(),
        }
    }

    fn tile_of(game: &Game) -> TileTypeId {
        match game.phase() {
            Phase::Place { tile } => tile,
            _ => panic!("no tile waits"),
        }
    }

    #[test]
    fn a_player_s_mistakes_and_blunders_become_puzzles_and_nothing_else_does() {
        // Given the hand-written game judged: each placement of Ada (seat 0) and Brandt
        // (seat 1) with one of each mark, and one unmarked
        let t = timeline();
        let placements: Vec<(u64, u8)> = crate::quality::decisions(&t)
            .unwrap()
            .iter()
            .map(|d| (d.seq, d.seat))
            .collect();
        let ada: Vec<u64> = placements
            .iter()
            .filter(|p| p.1 == 0)
            .map(|p| p.0)
            .collect();
        let brandt: Vec<u64> = placements
            .iter()
            .filter(|p| p.1 == 1)
            .map(|p| p.0)
            .collect();
        assert!(ada.len() >= 4 && brandt.len() >= 2, "{placements:?}");
        let mut turns = vec![
            judged(&t, ada[0], Some(Mark::Mistake)),
            judged(&t, ada[1], Some(Mark::Inaccuracy)),
            judged(&t, ada[2], Some(Mark::Blunder)),
            judged(&t, ada[3], None),
            judged(&t, brandt[0], Some(Mark::Blunder)),
            judged(&t, brandt[1], Some(Mark::Mistake)),
        ];
        turns.sort_by_key(|x| x.seq);
        let report = QualityReport {
            game: t.log.header.game.clone(),
            options: QualityOptions::default(),
            turns,
            players: Vec::new(),
            stopped: None,
        };
        // When Ada's puzzles are made
        let seats = seats_named(&t.log.header, "Ada").unwrap();
        assert_eq!(seats, vec![0]);
        let found = puzzles(&t, &report, &seats);
        // Then her `?` and `??` are the puzzles, in game order; not her `?!`, not her unmarked
        // turn, not Brandt's marks
        let seqs: Vec<u64> = found.iter().map(|p| p.judged.seq).collect();
        assert_eq!(seqs, vec![ada[0], ada[2]]);
        for p in &found {
            assert_eq!((p.seat, p.player.as_str()), (0, "Ada"));
            // And the position waits for the drawn tile the log placed at that event
            let step = t.index_of_seq(p.judged.seq).unwrap();
            let carc_events::Event::TilePlaced { tile, .. } = &t.steps[step].event else {
                panic!("event {} is not a placement", p.judged.seq);
            };
            assert_eq!(p.position.tiles().get(p.tile).id.as_str(), tile.as_str());
            assert_eq!(tile_of(&p.position), p.tile);
            // And the log prefix ends just before the placement and replays to the position
            let last = p.prefix.events.last().unwrap().1.seq;
            assert!(last < p.judged.seq);
            assert_eq!(p.prefix.events.len(), step);
            let again = fold(p.prefix.clone(), &[]);
            assert!(again.error.is_none());
            assert_eq!(
                again.state_at(again.steps.len()).unwrap().placed().len(),
                p.position.placed().len()
            );
            // And the move played and the best move are among the listed moves, apart
            let (played, best) = (p.played.unwrap(), p.best.unwrap());
            assert_ne!(played, best);
            assert_eq!(p.moves[best], p.judged.best.mv);
        }
        // And Brandt's are his two
        let his = puzzles(&t, &report, &seats_named(&t.log.header, "Brandt").unwrap());
        assert_eq!(his.len(), 2);
    }

    #[test]
    fn a_name_not_in_the_game_is_an_error_naming_the_game_and_its_players() {
        let t = timeline();
        let e = seats_named(&t.log.header, "Zed").unwrap_err();
        assert_eq!(
            e.to_string(),
            "game \"short-game-rulings\" has no player named \"Zed\"; its players are \"Ada\", \"Brandt\""
        );
    }
}
