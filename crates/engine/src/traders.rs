//! Traders & Builders at the leaf: what the potential score (the scores as if the game ended
//! now) gets wrong about the expansion's pieces, corrected for every seat. Used only in games
//! with the expansion, so no other game's search changes.
//!
//! - **Goods**: the potential score gives each kind's 10 points to whoever holds the most
//!   tokens now, so one token taken early swings the leaf by 10 or 20 points although most
//!   tokens are still to come. Here each seat gets 10 × an estimate of its chance to hold the
//!   most at the end: a logistic of its lead (+½, as a tie also scores) over a spread of
//!   `goods_spread · sqrt(tokens not yet taken)` (each token left goes to one seat or the
//!   other, so the lead's spread grows as their square root). With no token left it is the
//!   rules' majority.
//! - **The builder**: standing on a road or city of its owner's it is a future second turn,
//!   which the potential score does not see (it scores nothing itself): worth
//!   `builder_value` points while many tiles are left, falling with the bag as a meeple's.
//! - **A second turn due**: a leaf reached by the move that earned the builder's second turn
//!   has its player to move again; the leaf values the position, not the turn, so the
//!   turn is worth `second_turn_value` points.

use carc_rules::{Game, Good, Phase, Special};

use crate::options::SearchOptions;

/// Points for the most tokens of one kind (the rules' majority).
const MAJORITY: f64 = 10.0;

/// Adds the corrections to `values` (each seat's potential score and meeple value), at a
/// position with `per_tile` = the share of the full value a piece in play keeps (1 while 24
/// tiles or more are left, falling to 0 with the bag). `potential`: the values hold the
/// potential score (with its majorities), not the scores as they stand.
pub(crate) fn correct(
    game: &Game,
    options: &SearchOptions,
    per_tile: f64,
    potential: bool,
    values: &mut [f64],
) {
    let players = usize::from(game.players());
    if options.goods_spread > 0.0 && potential {
        goods(game, options.goods_spread, players, values);
    }
    if options.builder_value > 0.0 {
        for (p, v) in values.iter_mut().enumerate().take(players) {
            if game.special_of(p as u8, Special::Builder).is_some() {
                *v += options.builder_value * per_tile;
            }
        }
    }
    if options.second_turn_value > 0.0
        && game.phase() == Phase::Draw
        && game.is_extra_turn()
        && game.bag_left() > 0
    {
        values[usize::from(game.current_player())] += options.second_turn_value;
    }
}

/// Replaces the potential score's hard majorities by their estimated values.
fn goods(game: &Game, spread: f64, players: usize, values: &mut [f64]) {
    let mut total = [0u32; 3];
    let tiles = game.tiles();
    for id in tiles.ids() {
        let n = u32::from(game.in_game_count(id));
        if n == 0 {
            continue;
        }
        for seg in &tiles.get(id).segments {
            if let Some(g) = seg.goods {
                total[g.index()] += n;
            }
        }
    }
    for good in Good::ALL {
        let k = good.index();
        let held: Vec<f64> = (0..players)
            .map(|p| f64::from(game.goods(p as u8)[k]))
            .collect();
        let taken: f64 = held.iter().sum();
        let most = held.iter().copied().fold(0.0, f64::max);
        let left = (f64::from(total[k]) - taken).max(0.0);
        for p in 0..players {
            // What the potential score gave: the rules' majority now.
            if most > 0.0 && held[p] == most {
                values[p] -= MAJORITY;
            }
            let best_other = (0..players)
                .filter(|&q| q != p)
                .map(|q| held[q])
                .fold(0.0, f64::max);
            values[p] += MAJORITY * majority_chance(held[p], best_other, left, spread);
        }
    }
}

/// The estimated chance that a seat holding `mine` tokens of a kind, against at most
/// `best_other` held by another seat, holds the most (a tie included) when `left` more are
/// taken: the rules' majority when none are left, else a logistic of the lead + ½ over
/// `spread · sqrt(left)`.
fn majority_chance(mine: f64, best_other: f64, left: f64, spread: f64) -> f64 {
    let lead = mine - best_other;
    if left <= 0.0 {
        return f64::from(u8::from(mine > 0.0 && lead >= 0.0));
    }
    1.0 / (1.0 + (-(lead + 0.5) / (spread * left.sqrt())).exp())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use carc_rules::{Action, Effects, Pos, Rotation, Setup, TileSet};

    use super::*;
    use crate::eval::{evaluate, LeafScratch};

    /// A 2-player Traders & Builders game, every tile in the bag: seat 0 extends the start
    /// tile's city with TB21 (a wine), seat 1 closes it with E, nobody's meeple on it; seat 1
    /// takes the wine (1 of the set's 9).
    fn one_wine_taken() -> Game {
        let mut setup = Setup::base(2);
        setup.tiles =
            Arc::new(TileSet::combine(&[TileSet::base(), TileSet::traders_builders()]).unwrap());
        setup.options.traders_builders = true;
        let mut game = Game::new(setup).unwrap();
        let mut fx = Effects::quiet();
        let id = |g: &Game, t: &str| g.tiles().find(t).unwrap();
        let rot = |d: u32| Rotation::from_degrees(d).unwrap();
        let d = id(&game, "D");
        game.apply(
            &Action::PlaceStart {
                tile: d,
                at: Pos::new(0, 0),
                rotation: rot(0),
            },
            &mut fx,
        )
        .unwrap();
        for (tile, y, degrees) in [("TB21", 1, 0), ("E", 2, 180)] {
            let tile = id(&game, tile);
            for action in [
                Action::Draw { tile },
                Action::Place {
                    at: Pos::new(0, y),
                    rotation: rot(degrees),
                },
                Action::SkipMeeple,
            ] {
                game.apply(&action, &mut fx).unwrap();
            }
        }
        assert_eq!(game.goods(1), [1, 0, 0]);
        assert_eq!(game.phase(), Phase::Draw);
        game
    }

    #[test]
    fn one_wine_taken_early_is_worth_far_less_than_the_majoritys_ten() {
        // Given seat 1 holding the only wine taken, 8 of 9 still to come
        let game = one_wine_taken();
        let mut scratch = LeafScratch::new(&game);
        // When the position is valued as the potential score has it, and corrected
        let hard = evaluate(&game, &SearchOptions::default(), &mut scratch);
        let options = SearchOptions {
            goods_spread: 0.6,
            ..SearchOptions::default()
        };
        let soft = evaluate(&game, &options, &mut scratch);
        // Then the potential score puts seat 1 the whole majority (10) ahead; corrected, its
        // lead is its better chance at the wine: 10 × (0.708 − 0.427) ≈ 2.8 points
        assert_eq!(hard.margin[1], 10.0);
        assert!((soft.margin[1] - 2.81).abs() < 0.05, "{}", soft.margin[1]);
        assert_eq!(soft.margin[0], -soft.margin[1]);
    }

    #[test]
    fn with_no_token_left_the_chance_is_the_rules_majority() {
        // The most, a tie for the most (both score), fewer, none at all (nobody scores).
        assert_eq!(majority_chance(3.0, 2.0, 0.0, 0.6), 1.0);
        assert_eq!(majority_chance(2.0, 2.0, 0.0, 0.6), 1.0);
        assert_eq!(majority_chance(1.0, 2.0, 0.0, 0.6), 0.0);
        assert_eq!(majority_chance(0.0, 0.0, 0.0, 0.6), 0.0);
    }

    #[test]
    fn an_early_lead_of_one_token_is_far_from_a_sure_majority() {
        // One wine of 9 taken: the potential score gives the whole 10 points.
        let early = majority_chance(1.0, 0.0, 8.0, 0.6);
        assert!(early > 0.6 && early < 0.8, "{early}");
        // The one behind keeps a real chance.
        let behind = majority_chance(0.0, 1.0, 8.0, 0.6);
        assert!(behind > 0.2 && behind < 0.5, "{behind}");
        // A lead of 4 with 2 left is all but decided.
        assert!(majority_chance(5.0, 1.0, 2.0, 0.6) > 0.99);
        // The chance grows with the lead and shrinks as more tokens are left.
        assert!(majority_chance(2.0, 0.0, 8.0, 0.6) > early);
        assert!(majority_chance(1.0, 0.0, 16.0, 0.6) < early);
    }
}
