//! Learning the value's weights ([`crate::value`]) by self-play, with TD(λ) (`docs/engine.md`,
//! "Weights learned by self-play").
//!
//! Each game is a 2-player base game dealt from its own seed (`seed + k` for game `k`). Both
//! seats play the move whose position after it has the best value for them under the weights
//! as they are (one ply, every legal move; chance, the tile order, gives the games their
//! variety). The value to learn is seat 0's margin, `V(s) = (potential₀ − potential₁) + w ·
//! (x₀ − x₁)`, read after every turn; the last position's value is the real final margin.
//! After each turn the weights move toward the next position's value: `δ = V(sₜ₊₁) − V(sₜ)`,
//! `e ← λ·e + ∇V(sₜ)`, `w ← w + α·δ·e` (linear, so `∇V` is `x₀ − x₁`); α falls linearly from
//! the plan's to a tenth of it over the games.
//!
//! It reads no clock and no file: the same plan gives the same weights with the same build.

use std::ops::ControlFlow;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use carc_rules::{Action, Effects, Game, Move, Phase, Pos, Rotation, Setup, TileTypeId};

use crate::error::EngineError;
use crate::outlook::OutlookReader;
use crate::value::{seat_features, Weights, FEATURES};

/// What to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingPlan {
    /// Games of self-play.
    pub games: u32,
    /// Game `k` is dealt from `seed + k`.
    pub seed: u64,
    /// TD(λ)'s trace decay.
    pub lambda: f64,
    /// The step size of the first game; it falls linearly to a tenth of it by the last.
    pub alpha: f64,
    /// Where the weights start.
    pub start: Weights,
}

impl Default for TrainingPlan {
    fn default() -> TrainingPlan {
        TrainingPlan {
            games: 2_000,
            seed: 1,
            lambda: 0.7,
            alpha: 2e-4,
            start: Weights::untrained(),
        }
    }
}

/// One game's account, for the trainer's progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameTrained {
    /// The game's index in the plan.
    pub game: u32,
    /// Seat 0's final margin.
    pub margin: f64,
    /// The mean |δ| over its turns: how far the values still were from their successors.
    pub mean_abs_delta: f64,
}

/// Trains by self-play (see the module): the weights after `plan.games` games. `progress` is
/// told of each game as it ends.
pub fn train(
    plan: &TrainingPlan,
    mut progress: impl FnMut(&GameTrained, &Weights),
) -> Result<Weights, EngineError> {
    let mut weights = plan.start.clone();
    let mut trainer = Trainer::default();
    for k in 0..plan.games {
        let seed = plan.seed.wrapping_add(u64::from(k));
        // The step falls linearly to a tenth of `alpha` by the last game: large steps while
        // the weights are far off, small ones to settle them.
        let alpha = plan.alpha * (1.0 - 0.9 * f64::from(k) / f64::from(plan.games));
        let account = trainer.play_and_learn(k, seed, plan.lambda, alpha, &mut weights)?;
        progress(&account, &weights);
    }
    Ok(weights)
}

/// The buffers one game of training reuses.
#[derive(Default)]
struct Trainer {
    outlook: OutlookReader,
    end: Option<Game>,
}

impl Trainer {
    /// Seat 0's value of `game` (after a turn) and its gradient.
    fn value(&mut self, game: &Game, weights: &Weights) -> (f64, [f64; FEATURES]) {
        if game.is_over() {
            let s = game.scores();
            return (f64::from(s[0]) - f64::from(s[1]), [0.0; FEATURES]);
        }
        let end = self.end.get_or_insert_with(|| game.clone());
        end.clone_from(game);
        let mut fx = Effects::quiet();
        let potential = if end.apply(&Action::EndGame, &mut fx).is_ok() {
            end.scores()
        } else {
            game.scores()
        };
        let potential = f64::from(potential[0]) - f64::from(potential[1]);
        self.outlook.read(game);
        let x0 = seat_features(game, &self.outlook.outlook, 0);
        let x1 = seat_features(game, &self.outlook.outlook, 1);
        let mut grad = [0.0; FEATURES];
        for i in 0..FEATURES {
            grad[i] = x0[i] - x1[i];
        }
        (weights.value(potential, &grad), grad)
    }

    /// Plays game `index` of the plan, dealt from `seed`, learning after every turn.
    fn play_and_learn(
        &mut self,
        index: u32,
        seed: u64,
        lambda: f64,
        alpha: f64,
        weights: &mut Weights,
    ) -> Result<GameTrained, EngineError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(Setup::base(2)).map_err(refused)?;
        let start = game
            .tiles()
            .start_tile()
            .ok_or_else(|| EngineError::Training("the base set has no start tile".into()))?;
        let place_start = Action::PlaceStart {
            tile: start,
            at: Pos::new(0, 0),
            rotation: Rotation::default(),
        };
        game.apply(&place_start, &mut Effects::quiet())
            .map_err(refused)?;
        let mut bag: Vec<TileTypeId> = Vec::new();
        for id in game.tiles().ids() {
            bag.extend(std::iter::repeat_n(id, usize::from(game.bag_count(id))));
        }
        bag.shuffle(&mut rng);
        let mut trace = [0.0; FEATURES];
        let (mut before, mut grad) = self.value(&game, weights);
        let (mut deltas, mut turns) = (0.0, 0u32);
        let mut fx = Effects::quiet();
        while !game.is_over() {
            match game.phase() {
                Phase::Draw => {
                    let action = match bag.pop() {
                        Some(tile) => Action::Draw { tile },
                        None => Action::EndGame,
                    };
                    game.apply(&action, &mut fx).map_err(refused)?;
                    if !game.is_over() {
                        continue;
                    }
                }
                Phase::Place { tile } if game.first_placement(tile).is_none() => {
                    game.apply(&Action::SetAside, &mut fx).map_err(refused)?;
                    continue;
                }
                Phase::Place { .. } => {
                    let mover = game.current_player();
                    let chosen = self.best_move(&game, mover, weights).ok_or_else(|| {
                        EngineError::Training("a tile that fits has no move".into())
                    })?;
                    for action in chosen.actions() {
                        game.apply(&action, &mut fx).map_err(refused)?;
                    }
                }
                phase => {
                    return Err(EngineError::Training(format!(
                        "a base game stopped in {phase:?}"
                    )))
                }
            }
            // A turn was played (or the game ended): learn toward the position it led to.
            let (after, next_grad) = self.value(&game, weights);
            let delta = after - before;
            for i in 0..FEATURES {
                trace[i] = lambda * trace[i] + grad[i];
                weights.weights[i] += alpha * delta * trace[i];
            }
            deltas += delta.abs();
            turns += 1;
            (before, grad) = (after, next_grad);
        }
        let s = game.scores();
        Ok(GameTrained {
            game: index,
            margin: f64::from(s[0]) - f64::from(s[1]),
            mean_abs_delta: deltas / f64::from(turns.max(1)),
        })
    }

    /// The move whose position after it is best for `mover` under `weights` (the first of
    /// equals, in the rules' order).
    fn best_move(&mut self, game: &Game, mover: u8, weights: &Weights) -> Option<Move> {
        let sign = if mover == 0 { 1.0 } else { -1.0 };
        let mut best: Option<(f64, Move)> = None;
        let _: Option<()> = game.try_each_move(|mv, after| {
            let (v, _) = self.value(after, weights);
            if best.as_ref().is_none_or(|(b, _)| sign * v > *b) {
                best = Some((sign * v, mv));
            }
            ControlFlow::Continue(())
        });
        best.map(|(_, mv)| mv)
    }
}

/// A rules refusal in self-play (a bug: only legal moves are played).
fn refused(e: carc_rules::RuleViolation) -> EngineError {
    EngineError::Training(e.to_string())
}
