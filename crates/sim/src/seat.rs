//! A seat's decision-maker as an object: the [`Player`] trait that a match game asks at each
//! decision (the turn's move, a gift to open, the Take 2 tile to give back), and the two
//! simulated players behind it ([`RandomPlayer`], [`GreedyPlayer`]). Search engines and
//! outside programs implement the same trait in their own crates.
//!
//! Unlike [`crate::play`], where the random seats draw from the game's one generator, each
//! player here owns its generator, so two games dealt from the same seed meet the same tiles
//! whatever the seats decide (the pairs of `carc match`).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use carc_rules::{Action, Game, GiftAction, Phase, TileTypeId};

use crate::driver::Buffers;
use crate::error::PlayoutError;
use crate::players::{choose_gift, greedy, greedy_return, Plan, Strategy};
use crate::playout::TurnMove;

/// Whoever decides for a seat of a match game.
pub trait Player {
    /// A short name for reports and logs, such as `greedy` or `engine:nodes=800`.
    fn name(&self) -> String;

    /// The turn's move: `game` waits in [`Phase::Place`] for the drawn tile, which fits
    /// somewhere. An error (an outside engine that crashed or lied) ends the game.
    fn turn(&mut self, game: &Game, buffers: &mut Buffers) -> Result<TurnMove, PlayoutError>;

    /// The Gifts: the gift to open before placing `tile` (`legal` is not empty), or none.
    /// By default the greedy player's choice.
    fn gift(
        &mut self,
        game: &Game,
        tile: TileTypeId,
        legal: &[GiftAction],
        buffers: &mut Buffers,
    ) -> Option<GiftAction> {
        // The greedy choice draws nothing from the generator.
        let mut unused = ChaCha8Rng::seed_from_u64(0);
        choose_gift(
            game,
            tile,
            Strategy::Greedy,
            legal,
            &mut unused,
            &mut buffers.fx,
        )
    }

    /// Take 2 (The Gifts): which of the two drawn tiles goes back. By default the greedy
    /// player's choice.
    fn give_back(
        &mut self,
        game: &Game,
        first: TileTypeId,
        second: TileTypeId,
        buffers: &mut Buffers,
    ) -> TileTypeId {
        greedy_return(
            game,
            first,
            second,
            (
                &mut buffers.placements,
                &mut buffers.spots,
                &mut buffers.arrow_spots,
                &mut buffers.choices,
            ),
            &mut buffers.fx,
        )
    }
}

/// A plan of the greedy player's as a [`TurnMove`].
pub(crate) fn plan_to_move(plan: Plan) -> Option<TurnMove> {
    let arrow = match plan.choice {
        Some(Action::ChooseArrow { arrow }) => Some(arrow),
        _ => None,
    };
    Some(TurnMove {
        placement: plan.placement,
        arrow,
        meeple: plan.meeple?,
    })
}

/// The greedy player's move at `game` (waiting for a placement), if the tile fits anywhere.
pub fn greedy_move(game: &Game, buffers: &mut Buffers) -> Option<(i64, TurnMove)> {
    let Phase::Place { tile } = game.phase() else {
        return None;
    };
    game.legal_placements(tile, &mut buffers.placements);
    let (value, plan) = greedy(
        game,
        &buffers.placements,
        (
            &mut buffers.spots,
            &mut buffers.arrow_spots,
            &mut buffers.choices,
        ),
        &mut buffers.fx,
    )?;
    Some((value, plan_to_move(plan)?))
}

/// [`Strategy::Greedy`] as a [`Player`].
#[derive(Clone, Debug, Default)]
pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn turn(&mut self, game: &Game, buffers: &mut Buffers) -> Result<TurnMove, PlayoutError> {
        greedy_move(game, buffers).map(|(_, m)| m).ok_or_else(|| {
            PlayoutError::Position("the greedy player found no move for the drawn tile".into())
        })
    }
}

/// [`Strategy::Random`] as a [`Player`], with a generator of its own.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    /// Uniform among placements, then among the arrows to choose from, then among "no
    /// meeple", the meeple spots, the arrow-meeple targets and the abbot's moves.
    fn turn(&mut self, game: &Game, buffers: &mut Buffers) -> Result<TurnMove, PlayoutError> {
        let Phase::Place { tile } = game.phase() else {
            return Err(PlayoutError::Position(
                "a turn is asked for where no drawn tile waits".into(),
            ));
        };
        game.legal_placements(tile, &mut buffers.placements);
        if buffers.placements.is_empty() {
            return Err(PlayoutError::Position("the drawn tile fits nowhere".into()));
        }
        let placement = buffers.placements[self.rng.gen_range(0..buffers.placements.len())];
        let mut placed = game.clone();
        placed.apply(
            &Action::Place {
                at: placement.at,
                rotation: placement.rotation,
            },
            &mut buffers.fx,
        )?;
        if let Phase::ReceiveGift { .. } = placed.phase() {
            // Which card arrives does not change the choices below; any card still to come.
            if let Some(card) = crate::players::any_gift_card(&placed) {
                placed.apply(&Action::ReceiveGift { card }, &mut buffers.fx)?;
            }
        }
        let mut arrow = None;
        if let Phase::ChooseArrow { .. } = placed.phase() {
            placed.legal_arrow_choices(&mut buffers.choices);
            if let Some(a) = buffers
                .choices
                .get(self.rng.gen_range(0..buffers.choices.len().max(1)))
            {
                arrow = Some(a.at);
                placed.apply(&Action::ChooseArrow { arrow: a.at }, &mut buffers.fx)?;
            }
        }
        placed.legal_meeples(&mut buffers.spots);
        placed.legal_arrow_meeples(&mut buffers.arrow_spots);
        placed.legal_abbot_moves(&mut buffers.abbot_moves);
        placed.legal_large_meeples(&mut buffers.large_spots);
        crate::players::special_moves(&placed, &mut buffers.special_moves);
        let l = buffers.large_spots.len();
        let n = buffers.spots.len();
        let a = buffers.arrow_spots.len();
        let b = buffers.abbot_moves.len();
        let choice = self
            .rng
            .gen_range(0..=n + a + b + l + buffers.special_moves.len());
        let meeple = if choice < n {
            Action::PlaceMeeple {
                segment: buffers.spots[choice].segment,
            }
        } else if let Some(s) = buffers.arrow_spots.get(choice - n) {
            Action::PlaceArrowMeeple {
                via: s.via,
                at: s.at,
                segment: s.segment,
            }
        } else if let Some(&m) = buffers.abbot_moves.get(choice - n - a) {
            m.action()
        } else if let Some(s) = buffers.large_spots.get(choice - n - a - b) {
            Action::PlaceLargeMeeple { segment: s.segment }
        } else if let Some((m, _)) = buffers.special_moves.get(choice - n - a - b - l) {
            *m
        } else {
            Action::SkipMeeple
        };
        Ok(TurnMove {
            placement,
            arrow,
            meeple,
        })
    }

    fn gift(
        &mut self,
        _game: &Game,
        _tile: TileTypeId,
        legal: &[GiftAction],
        _buffers: &mut Buffers,
    ) -> Option<GiftAction> {
        let r = self.rng.gen_range(0..3 * legal.len());
        legal.get(r).copied()
    }

    fn give_back(
        &mut self,
        _game: &Game,
        first: TileTypeId,
        second: TileTypeId,
        _buffers: &mut Buffers,
    ) -> TileTypeId {
        [first, second][self.rng.gen_range(0..2)]
    }
}
