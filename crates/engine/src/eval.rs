//! The value of a position where the search stops: the scores the players would have if the
//! game ended now (every feature with a figure on it scored as at the end of the game, as
//! Board Game Arena's "potential score"), plus a value for each meeple still in supply while
//! tiles are left. From these, each seat's margin (its value minus the best other's) and a
//! reward in 0..=1 that estimates its chance to win: a logistic of the margin over a spread
//! that grows with the tiles left. A finished game is worth 1 to each winner (½ to each of
//! tied winners), 0 to the others, and its real margins. With Traders & Builders, the goods,
//! the builder and a second turn due are corrected ([`crate::traders`]).
//!
//! With [`Evaluation::Outlook`], each seat's value is the learned one ([`crate::value`]): its
//! potential score plus weighted terms of what the tiles left are expected to add to the
//! unfinished features it wins ([`crate::outlook`]) and of its meeples.

use carc_rules::{Action, Effects, Game, Phase};

use crate::options::{Evaluation, SearchOptions};
use crate::outlook::OutlookReader;
use crate::value::{committed_weights, seat_features};

/// Seats at most (the rules' limit).
pub(crate) const SEATS: usize = 6;

/// A leaf's value for every seat.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Leaf {
    /// Estimated chance to win, 0..=1.
    pub(crate) reward: [f64; SEATS],
    /// Value minus the best other seat's value, in points.
    pub(crate) margin: [f64; SEATS],
}

/// Tiles left at which a meeple in supply is worth the full [`SearchOptions::meeple_value`];
/// below, its worth falls linearly to 0 with an empty bag.
const MEEPLE_VALUE_TILES: f64 = 24.0;

/// Margins from per-seat values.
fn margins(values: &[f64], players: usize) -> [f64; SEATS] {
    let mut margin = [0.0; SEATS];
    for p in 0..players {
        let best_other = (0..players)
            .filter(|&q| q != p)
            .map(|q| values[q])
            .fold(f64::NEG_INFINITY, f64::max);
        margin[p] = values[p] - best_other;
    }
    margin
}

/// A finished game's value: 1 to the winner, an equal share to each of tied winners, 0 to the
/// others; the real margins. (The exact endings value their last positions with it too.)
pub(crate) fn final_leaf(game: &Game) -> Leaf {
    let players = usize::from(game.players());
    let mut values = [0.0; SEATS];
    for (v, &s) in values.iter_mut().zip(game.scores()) {
        *v = f64::from(s);
    }
    let margin = margins(&values, players);
    let winners = (0..players).filter(|&p| margin[p] >= 0.0).count().max(1);
    let mut reward = [0.0; SEATS];
    for p in 0..players {
        if margin[p] >= 0.0 {
            reward[p] = 1.0 / winners as f64;
        }
    }
    Leaf { reward, margin }
}

/// What valuing a leaf overwrites: a copy of the game to end it in, its effects, the bag's
/// reading; kept by each search thread.
pub(crate) struct LeafScratch {
    game: Game,
    fx: Effects,
    outlook: OutlookReader,
}

impl LeafScratch {
    /// Scratch for leaves of games like `game`.
    pub(crate) fn new(game: &Game) -> LeafScratch {
        LeafScratch {
            game: game.clone(),
            fx: Effects::quiet(),
            outlook: OutlookReader::default(),
        }
    }
}

/// The value of `game` for every seat.
pub(crate) fn evaluate(game: &Game, options: &SearchOptions, scratch: &mut LeafScratch) -> Leaf {
    let players = usize::from(game.players());
    let mut values = [0.0; SEATS];
    if game.is_over() {
        return final_leaf(game);
    }
    let mut potential = false;
    let scores: &[u32] = if game.phase() == Phase::Draw {
        scratch.game.clone_from(game);
        scratch.fx.clear();
        if scratch
            .game
            .apply(&Action::EndGame, &mut scratch.fx)
            .is_ok()
        {
            potential = true;
            scratch.game.scores()
        } else {
            game.scores()
        }
    } else {
        game.scores()
    };
    let left = f64::from(game.bag_left());
    let per_tile = (left / MEEPLE_VALUE_TILES).min(1.0);
    let per_meeple = options.meeple_value * per_tile;
    if potential && options.evaluation == Evaluation::Outlook {
        // The learned value refines the potential score, which values every feature as it
        // stands, by what the bag says; mid-turn (no potential score) the plain value serves.
        scratch.outlook.read(game);
        let weights = committed_weights();
        for (p, value) in values.iter_mut().enumerate().take(players) {
            let x = seat_features(game, &scratch.outlook.outlook, p as u8);
            *value = weights.value(f64::from(scores[p]), &x);
        }
    } else {
        for p in 0..players {
            values[p] = f64::from(scores[p]) + per_meeple * f64::from(game.supply()[p]);
        }
    }
    if game.options().traders_builders {
        crate::traders::correct(game, options, per_tile, potential, &mut values);
    }
    let margin = margins(&values, players);
    let spread = options.margin_scale * (left + 1.0).sqrt();
    let mut reward = [0.0; SEATS];
    for p in 0..players {
        reward[p] = 1.0 / (1.0 + (-margin[p] / spread).exp());
    }
    Leaf { reward, margin }
}
