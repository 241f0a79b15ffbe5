//! A turn's move as one line of text, for the engine protocol, match reports and principal
//! lines: `X,Y ROT [arrow X,Y] SPOT`, with no space inside a field.
//!
//! - `X,Y`: the square, columns growing east, rows growing north; `ROT`: 0, 90, 180 or 270
//!   (clockwise, from the tile's own orientation), as in the log's `tile_placed`.
//! - `arrow X,Y`: only when the placement activates several arrows (20th Anniversary): the
//!   tile whose arrow is chosen.
//! - `SPOT`: `none`; a feature of the tile just placed as the log names it with `-` for the
//!   space (`city-E`, `road-N`, `field-Sw`, `monastery`); a meeple through an arrow,
//!   `companion@X,Y:road-N` or `portal@X,Y:city-E`; the abbot, `abbot@X,Y:garden` (through a
//!   portal `abbot-portal@X,Y:monastery`); the abbot taken back, `abbot-back`; the large
//!   meeple (Inns & Cathedrals) on a feature of the tile just placed, `large:city-E`; the
//!   builder and the pig (Traders & Builders), `builder:road-N`, `pig:field-Sw`.
//!
//! Examples: `1,0 90 city-E`, `-2,3 270 none`, `0,-1 0 arrow 1,0 portal@3,2:road-N`.

use carc_rules::{Action, ArrowSymbol, Game, Phase, Pos, SegmentLabel};
use carc_sim::TurnMove;

/// `label` as a field: the log's spelling (`field Sw`), the space a `-`.
fn field(label: SegmentLabel) -> String {
    label.code().replace(' ', "-")
}

fn square(at: Pos) -> String {
    format!("{},{}", at.x, at.y)
}

/// The text of `m`, a move of the turn at `game` (waiting for the drawn tile's placement).
/// A move the rules refuse at `game` still gets a text, with segments by number (`segment-3`).
pub fn move_text(game: &Game, m: &TurnMove) -> String {
    let mut out = format!(
        "{} {}",
        square(m.placement.at),
        m.placement.rotation.degrees()
    );
    if let Some(arrow) = m.arrow {
        out.push_str(&format!(" arrow {}", square(arrow)));
    }
    // Labels are read on the board after the placement (rotation applied).
    let mut placed = game.clone();
    let mut fx = carc_rules::Effects::quiet();
    let on_board = matches!(game.phase(), Phase::Place { .. })
        && placed
            .apply(
                &Action::Place {
                    at: m.placement.at,
                    rotation: m.placement.rotation,
                },
                &mut fx,
            )
            .is_ok();
    let label = |at: Pos, segment: u8| -> String {
        on_board
            .then(|| placed.segment_label_at(at, segment))
            .flatten()
            .map_or_else(|| format!("segment-{segment}"), field)
    };
    let spot = match m.meeple {
        Action::PlaceMeeple { segment } => label(m.placement.at, segment),
        Action::PlaceArrowMeeple { via, at, segment } => {
            let how = match via {
                ArrowSymbol::Companion => "companion",
                ArrowSymbol::Portal => "portal",
                ArrowSymbol::ExtraTurn => "extra-turn",
            };
            format!("{how}@{}:{}", square(at), label(at, segment))
        }
        Action::PlaceAbbot {
            at,
            segment,
            portal,
        } => format!(
            "{}@{}:{}",
            if portal { "abbot-portal" } else { "abbot" },
            square(at),
            label(at, segment)
        ),
        Action::TakeBackAbbot => "abbot-back".into(),
        Action::PlaceLargeMeeple { segment } => format!("large:{}", label(m.placement.at, segment)),
        Action::PlaceBuilder { segment } => format!("builder:{}", label(m.placement.at, segment)),
        Action::PlacePig { segment } => format!("pig:{}", label(m.placement.at, segment)),
        _ => "none".into(),
    };
    out.push(' ');
    out.push_str(&spot);
    out
}

/// A principal line as text, one entry per step: (seat, the tile's id, the move's text).
/// The line is replayed on a copy of `game` (its first step is the move of the turn at
/// `game`); it stops where a step cannot be replayed without a guess (a gift card to
/// receive, an arrow to choose that the step does not name) or is not legal.
pub fn line_text(game: &Game, line: &[crate::LineStep]) -> Vec<(u8, String, String)> {
    let mut out = Vec::new();
    let mut g = game.clone();
    let mut fx = carc_rules::Effects::quiet();
    for (i, step) in line.iter().enumerate() {
        if i > 0
            && (g.phase() != Phase::Draw
                || g.apply(&Action::Draw { tile: step.tile }, &mut fx).is_err())
        {
            break;
        }
        let Phase::Place { tile } = g.phase() else {
            break;
        };
        if g.current_player() != step.seat {
            break;
        }
        let text = move_text(&g, &step.mv);
        let id = g.tiles().get(tile).id.clone();
        let placed = g
            .apply(
                &Action::Place {
                    at: step.mv.placement.at,
                    rotation: step.mv.placement.rotation,
                },
                &mut fx,
            )
            .is_ok();
        if !placed || matches!(g.phase(), Phase::ReceiveGift { .. }) {
            if placed {
                out.push((step.seat, id, text));
            }
            break;
        }
        if let Phase::ChooseArrow { .. } = g.phase() {
            let Some(arrow) = step.mv.arrow else { break };
            if g.apply(&Action::ChooseArrow { arrow }, &mut fx).is_err() {
                break;
            }
        }
        if g.apply(&step.mv.meeple, &mut fx).is_err() {
            break;
        }
        out.push((step.seat, id, text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_rules::Setup;
    use carc_sim::{turn_moves, Buffers, Strategy};
    use std::collections::BTreeSet;

    #[test]
    fn every_move_of_a_turn_has_its_own_text_without_inner_spaces_in_fields() {
        // Given the positions of a greedy game where a tile waits to be placed
        let setup = Setup::base(2);
        let sim = carc_sim::play(setup.clone(), 3, &[Strategy::Greedy]).unwrap();
        let mut game = carc_rules::Game::new(setup).unwrap();
        let mut fx = carc_rules::Effects::quiet();
        let mut buffers = Buffers::default();
        let mut moves = Vec::new();
        let mut turns = 0;
        for a in &sim.actions {
            if let Phase::Place { .. } = game.phase() {
                turn_moves(&game, &mut buffers, &mut moves);
                // When every move is written
                let texts: Vec<String> = moves.iter().map(|(m, _)| move_text(&game, m)).collect();
                // Then no two moves share a text, and each has three fields (no arrows here)
                let distinct: BTreeSet<&String> = texts.iter().collect();
                assert_eq!(distinct.len(), texts.len(), "{texts:?}");
                for t in &texts {
                    assert_eq!(t.split(' ').count(), 3, "{t}");
                    assert!(!t.contains("segment-"), "{t}");
                    // the spot as the log spells it: `field-Sw`, `city-N`, `monastery`, `none`
                    let spot = t.rsplit(' ').next().unwrap();
                    let ok = spot == "none"
                        || spot == "monastery"
                        || ["city-", "road-", "field-"].iter().any(|k| {
                            spot.strip_prefix(k).is_some_and(|a| {
                                (1..=2).contains(&a.len())
                                    && a.chars().all(|c| c.is_ascii_alphabetic())
                            })
                        });
                    assert!(ok, "{t}");
                }
                turns += 1;
            }
            game.apply(a, &mut fx).unwrap();
        }
        assert!(turns > 60, "{turns}");
    }
}
