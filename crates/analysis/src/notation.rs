//! A turn's move in the rules' own terms and in words: the judges compare the move played
//! with the moves the rules list, so a move made in a rotation the rules list under another is
//! first put in the listed form ([`canonical`]); [`move_text`] says a move before it is played.

use carc_rules::{Action, Game, Placement, TileTypeId};
use carc_sim::TurnMove;

/// The move as the rules list it: a rotation that gives the same placement as a smaller one is
/// replaced by the smaller one, and a meeple on the tile is named by its segment in that
/// rotation. Other moves are returned unchanged.
pub fn canonical(game: &Game, tile: TileTypeId, m: &TurnMove) -> TurnMove {
    let t = game.tiles().get(tile);
    let rotation = m.placement.rotation;
    // Which rotations look alike is the rules' one rule (it reads goods, inns and rivers).
    let smaller = t.listed_rotation(rotation);
    if smaller == rotation {
        return *m;
    }
    let same_segment = |segment: u8| {
        if usize::from(segment) >= t.segments.len() {
            return None;
        }
        t.find_segment(smaller, &t.segment_label(rotation, segment))
    };
    let at = m.placement.at;
    let meeple = match m.meeple {
        Action::PlaceMeeple { segment } => match same_segment(segment) {
            Some(segment) => Action::PlaceMeeple { segment },
            None => return *m,
        },
        Action::PlaceLargeMeeple { segment } => match same_segment(segment) {
            Some(segment) => Action::PlaceLargeMeeple { segment },
            None => return *m,
        },
        Action::PlaceBuilder { segment } => match same_segment(segment) {
            Some(segment) => Action::PlaceBuilder { segment },
            None => return *m,
        },
        Action::PlacePig { segment } => match same_segment(segment) {
            Some(segment) => Action::PlacePig { segment },
            None => return *m,
        },
        Action::PlaceArrowMeeple {
            via,
            at: target,
            segment,
        } if target == at => match same_segment(segment) {
            Some(segment) => Action::PlaceArrowMeeple {
                via,
                at: target,
                segment,
            },
            None => return *m,
        },
        Action::PlaceAbbot {
            at: target,
            segment,
            portal,
        } if target == at => match same_segment(segment) {
            Some(segment) => Action::PlaceAbbot {
                at: target,
                segment,
                portal,
            },
            None => return *m,
        },
        other => other,
    };
    TurnMove {
        placement: Placement {
            at,
            rotation: smaller,
        },
        arrow: m.arrow,
        meeple,
    }
}

/// A move in words, as seen before it is played.
pub fn move_text(game: &Game, tile: TileTypeId, m: &TurnMove) -> String {
    let t = game.tiles().get(tile);
    let p = m.placement;
    format!(
        "tile {} at {} rotated {}, {}",
        t.id,
        p.at,
        p.rotation,
        after_placement_text(game, tile, m)
    )
}

/// The rest of a move in words, after its placement: the arrow activated (if the placement
/// asks for a choice) and the meeple step (`meeple on road E`, `no meeple`, …). A puzzle page
/// offers these as the choices left once the tile is on its square.
pub fn after_placement_text(game: &Game, tile: TileTypeId, m: &TurnMove) -> String {
    let t = game.tiles().get(tile);
    let p = m.placement;
    let mut text = String::new();
    if let Some(arrow) = m.arrow {
        text.push_str(&format!("the arrow at {arrow} activated, "));
    }
    let label = |at: carc_rules::Pos, segment: u8| {
        if at == p.at {
            (usize::from(segment) < t.segments.len())
                .then(|| t.segment_label(p.rotation, segment).to_string())
        } else {
            game.segment_label_at(at, segment).map(|l| l.to_string())
        }
        .unwrap_or_else(|| format!("segment {segment}"))
    };
    match m.meeple {
        Action::PlaceMeeple { segment } => {
            text.push_str(&format!("meeple on {}", label(p.at, segment)));
        }
        Action::PlaceArrowMeeple { via, at, segment } => {
            text.push_str(&format!(
                "meeple on {} at {at} through the {via} arrow",
                label(at, segment)
            ));
        }
        Action::PlaceAbbot { at, segment, .. } if at == p.at => {
            text.push_str(&format!("abbot on {}", label(at, segment)));
        }
        Action::PlaceAbbot { at, segment, .. } => {
            text.push_str(&format!(
                "abbot on {} at {at} through the portal",
                label(at, segment)
            ));
        }
        Action::TakeBackAbbot => text.push_str("abbot taken back"),
        Action::PlaceLargeMeeple { segment } => {
            text.push_str(&format!("large meeple on {}", label(p.at, segment)));
        }
        Action::PlaceBuilder { segment } => {
            text.push_str(&format!("builder on {}", label(p.at, segment)));
        }
        Action::PlacePig { segment } => {
            text.push_str(&format!("pig on {}", label(p.at, segment)));
        }
        _ => text.push_str("no meeple"),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_rules::{Effects, Rotation};
    use carc_sim::{turn_moves, Buffers};

    #[test]
    fn a_move_in_a_rotation_the_rules_list_under_another_is_matched_to_the_listed_one() {
        use carc_rules::{Pos, Setup};
        let mut fx = Effects::default();
        let mut buffers = Buffers::default();
        let mut symmetric = 0;
        let base = Game::new(Setup::base(2)).unwrap();
        for (t, tile) in base.tiles().tiles().iter().zip(base.tiles().ids()) {
            if Rotation::ALL.iter().all(|&r| t.is_distinct_rotation(r)) {
                continue;
            }
            symmetric += 1;
            // Given a tile with symmetric rotations drawn beside the start tile
            let start = base.tiles().start_tile().unwrap();
            let mut game = base.clone();
            game.apply(
                &Action::PlaceStart {
                    tile: start,
                    at: Pos::new(0, 0),
                    rotation: Rotation::default(),
                },
                &mut fx,
            )
            .unwrap();
            if game.apply(&Action::Draw { tile }, &mut fx).is_err() {
                continue;
            }
            let mut listed = Vec::new();
            turn_moves(&game, &mut buffers, &mut listed);
            let squares: Vec<Pos> = listed.iter().map(|(m, _)| m.placement.at).collect();
            for &at in &squares {
                for rotation in Rotation::ALL {
                    let mut placed = game.clone();
                    if placed
                        .apply(&Action::Place { at, rotation }, &mut fx)
                        .is_err()
                    {
                        continue;
                    }
                    let meeples = (0..t.segments.len() as u8)
                        .map(|segment| Action::PlaceMeeple { segment })
                        .chain([Action::SkipMeeple]);
                    for meeple in meeples {
                        let mut played = placed.clone();
                        if played.apply(&meeple, &mut fx).is_err() {
                            continue;
                        }
                        // When the move, in any rotation, is put in the rules' terms
                        let m = TurnMove {
                            placement: Placement { at, rotation },
                            arrow: None,
                            meeple,
                        };
                        let c = canonical(&game, tile, &m);
                        // Then it is a listed move, and it makes the same board
                        assert!(
                            listed.iter().any(|(l, _)| *l == c),
                            "tile {} {m:?} -> {c:?}",
                            t.id
                        );
                        let mut same = game.clone();
                        same.apply(
                            &Action::Place {
                                at: c.placement.at,
                                rotation: c.placement.rotation,
                            },
                            &mut fx,
                        )
                        .unwrap();
                        same.apply(&c.meeple, &mut fx).unwrap();
                        let board = |g: &Game| {
                            let mut v: Vec<String> = g
                                .meeples()
                                .map(|(p, at, _, label)| format!("{p} {at} {label}"))
                                .collect();
                            v.sort();
                            v
                        };
                        assert_eq!(board(&same), board(&played), "tile {}", t.id);
                        assert_eq!(same.scores(), played.scores());
                    }
                }
            }
        }
        assert!(symmetric >= 3, "{symmetric} symmetric tiles");
    }
}
