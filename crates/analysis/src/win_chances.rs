//! Each player's chance to win over a game, as the engine judge measured it: the points of the
//! win-probability graphs (the viewer's and the pages').
//!
//! What is known, and so what is drawn:
//! - Before the first event every player has the same chance, 1 / players.
//! - After each judged move, the mover's chance to win after the move played
//!   ([`WinEstimate::played`]). In a two-player game the other player's chance is the rest: the
//!   engine's reward is a logistic of the margin (or 1 / ½ / 0 at the end), and the two
//!   players' margins are opposite, so their chances always sum to 1. With three or more
//!   players the engine measures only the mover's chance, so each player's line has points at
//!   their own judged moves only.
//! - When the game is finished, the result: 1 for the winner, shared equally by tied winners, 0
//!   for the others.
//!
//! A point sits at the position after the judged turn's tile placement, where the move-quality
//! marks sit too, so a click on either jumps to the same position.

use carc_replay::Timeline;

use crate::verdict::{QualityReport, WinEstimate};

/// One point of a player's line: the chance to win (0..=1) at a position (the number of events
/// applied).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinPoint {
    pub position: usize,
    pub chance: f64,
}

/// Every player's line, per seat, each in position order.
#[derive(Clone, Debug, PartialEq)]
pub struct WinChances {
    pub seats: Vec<Vec<WinPoint>>,
}

impl WinChances {
    /// Seat `seat`'s chance at `position`: its last point at or before it (the start's equal
    /// share before its first).
    pub fn at(&self, seat: usize, position: usize) -> Option<f64> {
        let line = self.seats.get(seat)?;
        line.iter()
            .take_while(|p| p.position <= position)
            .last()
            .map(|p| p.chance)
    }
}

/// The lines of `report`'s game, replayed as `timeline`; `None` when no turn carries a chance to
/// win (the playout judge measures points only) or the game has no players.
pub fn win_chances(report: &QualityReport, timeline: &Timeline) -> Option<WinChances> {
    let players = timeline.log.header.players.len();
    if players == 0 || report.turns.iter().all(|t| t.win.is_none()) {
        return None;
    }
    let start = 1.0 / players as f64;
    let mut seats: Vec<Vec<WinPoint>> = (0..players)
        .map(|_| {
            vec![WinPoint {
                position: 0,
                chance: start,
            }]
        })
        .collect();
    let mut push = |seat: usize, position: usize, chance: f64| {
        if let Some(line) = seats.get_mut(seat) {
            line.push(WinPoint {
                position,
                chance: chance.clamp(0.0, 1.0),
            });
        }
    };
    for t in &report.turns {
        let Some(WinEstimate { played, .. }) = t.win else {
            continue;
        };
        let (position, mover) = (t.step + 1, usize::from(t.seat));
        push(mover, position, played);
        if players == 2 {
            push(1 - mover.min(1), position, 1.0 - played);
        }
    }
    if timeline.finished && timeline.error.is_none() {
        let finals = timeline.final_scores();
        let top = finals.iter().copied().max().unwrap_or(0);
        let winners = finals.iter().filter(|&&s| s == top).count().max(1);
        for (seat, &score) in finals.iter().enumerate() {
            let chance = if score == top {
                1.0 / winners as f64
            } else {
                0.0
            };
            push(seat, timeline.steps.len(), chance);
        }
    }
    Some(WinChances { seats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{MoveEstimate, QualityOptions, TurnQuality};
    use carc_events::read_log;
    use carc_replay::fold;

    fn timeline(path: &str) -> Timeline {
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
                .unwrap();
        fold(read_log(text.as_bytes()).unwrap(), &[])
    }

    fn estimate() -> MoveEstimate {
        MoveEstimate {
            text: String::new(),
            value: 0.0,
            mv: carc_sim::TurnMove {
                placement: carc_rules::Placement {
                    at: carc_rules::Pos::new(0, 1),
                    rotation: carc_rules::Rotation::new(0).unwrap(),
                },
                arrow: None,
                meeple: carc_rules::Action::SkipMeeple,
            },
        }
    }

    fn turn(step: usize, seat: u8, win: Option<f64>) -> TurnQuality {
        TurnQuality {
            seq: step as u64 + 1,
            step,
            turn: 0,
            seat,
            moves: 2,
            screened: 2,
            played: estimate(),
            best: estimate(),
            loss: 0.0,
            mark: None,
            win: win.map(|played| WinEstimate {
                played,
                best: played,
                lost: 0.0,
                accuracy: 100.0,
                exact: false,
            }),
            line: Vec::new(),
        }
    }

    fn report(turns: Vec<TurnQuality>) -> QualityReport {
        QualityReport {
            game: "g".into(),
            options: QualityOptions::default(),
            turns,
            players: Vec::new(),
            stopped: None,
        }
    }

    #[test]
    fn two_players_chances_sum_to_one_and_end_at_the_result() {
        // Given a finished two-player game (Ada 20, Brandt 11) judged at two moves
        let t = timeline("../../logs/short-game-rulings.jsonl");
        assert!(t.finished);
        let r = report(vec![turn(4, 0, Some(0.7)), turn(9, 1, Some(0.45))]);
        // When the lines are drawn
        let w = win_chances(&r, &t).unwrap();
        // Then both start even, each judged move sets both chances, and the result ends them
        let ada: Vec<(usize, f64)> = w.seats[0].iter().map(|p| (p.position, p.chance)).collect();
        let brandt: Vec<(usize, f64)> = w.seats[1].iter().map(|p| (p.position, p.chance)).collect();
        let end = t.steps.len();
        assert_eq!(ada, vec![(0, 0.5), (5, 0.7), (10, 0.55), (end, 1.0)]);
        assert_eq!(brandt.len(), 4);
        for (a, b) in ada.iter().zip(&brandt) {
            assert_eq!(a.0, b.0);
            assert!((a.1 + b.1 - 1.0).abs() < 1e-12, "{a:?} {b:?}");
        }
        // And the chance at a position is the last point at or before it
        assert_eq!(w.at(0, 7), Some(0.7));
        assert_eq!(w.at(1, 4), Some(0.5));
    }

    #[test]
    fn three_players_get_points_at_their_own_moves_only() {
        // Given a finished three-player game judged at one move of seat 1
        let t = timeline("../../logs/sim-3p-greedy.jsonl");
        assert!(t.finished);
        let w = win_chances(&report(vec![turn(6, 1, Some(0.6))]), &t).unwrap();
        // Then seat 1 has a point there and the others none: they stay at a third until the end
        assert_eq!(
            w.seats[1][1],
            WinPoint {
                position: 7,
                chance: 0.6
            }
        );
        assert_eq!(w.seats[0].len(), 2);
        assert_eq!(w.at(0, 7), Some(1.0 / 3.0));
        // And the end gives the result: the chances sum to one there
        let end = t.steps.len();
        let sum: f64 = (0..3).map(|s| w.at(s, end).unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_playout_judge_gives_no_lines() {
        let t = timeline("../../logs/short-game-rulings.jsonl");
        assert_eq!(win_chances(&report(vec![turn(4, 0, None)]), &t), None);
    }
}
