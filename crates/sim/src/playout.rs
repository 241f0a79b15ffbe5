//! Playouts: any position played to its end with what the players cannot know (the tiles left
//! in the bag, the gift deck) dealt anew from a seed, optionally after one of the turn's moves
//! ([`TurnMove`], listed with the greedy player's values by [`turn_moves`]). The unit of work
//! of the move-quality analysis.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use carc_rules::{Action, Game, GiftCard, MeepleStep, Move, Phase, Placement, Pos};

use crate::driver::{drive, next_gift, place_starts, take_start_tile, Buffers};
use crate::error::PlayoutError;
use crate::players::{for_each_move, Strategy};

/// One turn's decisions after the drawn tile is in hand: where it goes, which arrow it
/// activates when several could be (20th Anniversary), and the meeple step
/// ([`Action::PlaceMeeple`], [`Action::PlaceArrowMeeple`] or [`Action::SkipMeeple`]).
/// A gift card earned by the placement is chance and not part of the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnMove {
    pub placement: Placement,
    /// The tile whose arrow is chosen, when the placement asks for a choice.
    pub arrow: Option<Pos>,
    pub meeple: Action,
}

impl From<Move> for TurnMove {
    /// The rules' move as the playouts' (the same decisions; the meeple step as its action).
    fn from(m: Move) -> TurnMove {
        TurnMove {
            placement: m.placement,
            arrow: m.arrow,
            meeple: m.step.action(),
        }
    }
}

impl TurnMove {
    /// The rules' move, when the meeple slot holds a meeple-step action (`None` otherwise:
    /// the slot takes any action).
    pub fn to_move(&self) -> Option<Move> {
        Some(Move {
            placement: self.placement,
            arrow: self.arrow,
            step: MeepleStep::of_action(self.meeple)?,
        })
    }
}

/// Every move of the turn at `game` (waiting in [`Phase::Place`] for a tile that fits
/// somewhere), each with the greedy player's immediate value (twice the point difference and
/// more: see [`Strategy::Greedy`]), into `out`, in the greedy player's order: placements as
/// the rules list them (symmetric rotations once), then arrow choices, then "no meeple",
/// meeple spots and arrow-meeple targets. Empty when the tile fits nowhere or the game is not
/// waiting for a placement.
pub fn turn_moves(game: &Game, buffers: &mut Buffers, out: &mut Vec<(TurnMove, i64)>) {
    out.clear();
    let Phase::Place { tile } = game.phase() else {
        return;
    };
    game.legal_placements(tile, &mut buffers.placements);
    for_each_move(
        game,
        &buffers.placements,
        (
            &mut buffers.spots,
            &mut buffers.arrow_spots,
            &mut buffers.choices,
        ),
        &mut buffers.fx,
        |value, plan| {
            if let Some(meeple) = plan.meeple {
                let arrow = match plan.choice {
                    Some(Action::ChooseArrow { arrow }) => Some(arrow),
                    _ => None,
                };
                out.push((
                    TurnMove {
                        placement: plan.placement,
                        arrow,
                        meeple,
                    },
                    value,
                ));
            }
        },
    );
}

/// Plays `game` to its end from wherever it stands and returns the final scores, seat order.
///
/// What the players cannot know is dealt anew from `seed`: the tiles left in the bag are
/// shuffled (the rules know only how many of each are left), and so is the gift deck (The
/// Gifts). The opponents' gift hands are kept as they are. If `first` is given, the player to
/// move plays it first (the game must wait for the placement of the drawn tile; a gift card it
/// earns comes off the shuffled deck), then every seat plays by its strategy (`strategies`,
/// cycled over the seats). Any phase is accepted, the start tiles of a map included; a decision
/// pending without a plan (an arrow to choose, a meeple step) is taken by the strategy.
///
/// The same game, move, seed and strategies give the same scores. Chance is dealt before the
/// move is played, so two moves tried with the same seed meet the same tiles in the same order
/// (common random numbers).
pub fn playout(
    game: &Game,
    first: Option<&TurnMove>,
    seed: u64,
    strategies: &[Strategy],
    buffers: &mut Buffers,
) -> Result<Vec<u32>, PlayoutError> {
    playout_recorded(game, first, seed, strategies, buffers, None)
}

/// [`playout`], keeping every action after `first` (chance and decisions) in `actions`.
fn playout_recorded(
    game: &Game,
    first: Option<&TurnMove>,
    seed: u64,
    strategies: &[Strategy],
    buffers: &mut Buffers,
    mut actions: Option<&mut Vec<Action>>,
) -> Result<Vec<u32>, PlayoutError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = game.clone();
    let bag = &mut buffers.bag;
    bag.clear();
    for id in game.tiles().ids() {
        for _ in 0..game.bag_count(id) {
            bag.push(id);
        }
    }
    let start = if game.phase() == Phase::Start && game.starts_placed() == 0 {
        Some(take_start_tile(&game, bag)?)
    } else {
        None
    };
    bag.shuffle(&mut rng);
    crate::driver::river_first(&game, bag);
    let gift_deck = &mut buffers.gift_deck;
    gift_deck.clear();
    if game.options().gifts {
        let deck = game.gift_deck();
        for card in GiftCard::ALL {
            gift_deck.extend(std::iter::repeat_n(card, usize::from(deck[card.index()])));
        }
        gift_deck.shuffle(&mut rng);
    }
    if game.phase() == Phase::Start {
        place_starts(&mut game, start, &mut rng, buffers, actions.as_deref_mut())?;
    }
    if let Some(m) = first {
        play_move(&mut game, m, &mut rng, buffers, None)?;
    }
    drive(&mut game, strategies, &mut rng, buffers, actions)?;
    Ok(game.scores().to_vec())
}

/// The current seat plays `m`: placement, the gift card it earns (the top of
/// `buffers.gift_deck`, which an empty deck refills from the discard pile shuffled with `rng`),
/// the arrow choice and the meeple step; `actions`, if given, receives each action played.
pub fn play_move(
    game: &mut Game,
    m: &TurnMove,
    rng: &mut ChaCha8Rng,
    buffers: &mut Buffers,
    mut actions: Option<&mut Vec<Action>>,
) -> Result<(), PlayoutError> {
    if !matches!(game.phase(), Phase::Place { .. }) {
        return Err(PlayoutError::Position(format!(
            "a move is tried only where a drawn tile waits to be placed, not in {:?}",
            game.phase()
        )));
    }
    let fx = &mut buffers.fx;
    let mut step = |game: &mut Game, action: Action| -> Result<(), PlayoutError> {
        game.apply(&action, fx)?;
        if let Some(a) = actions.as_mut() {
            a.push(action);
        }
        Ok(())
    };
    step(
        game,
        Action::Place {
            at: m.placement.at,
            rotation: m.placement.rotation,
        },
    )?;
    if let Phase::ReceiveGift { .. } = game.phase() {
        let card = next_gift(game, &mut buffers.gift_deck, rng)?;
        step(game, Action::ReceiveGift { card })?;
    }
    if let Phase::ChooseArrow { .. } = game.phase() {
        let Some(arrow) = m.arrow else {
            return Err(PlayoutError::Position(
                "the placement asks for an arrow to be chosen, and the move names none".into(),
            ));
        };
        step(game, Action::ChooseArrow { arrow })?;
    }
    step(game, m.meeple)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::play;
    use crate::test_games::{anniversary, every_kind_of_game, replayed};
    use carc_rules::{Effects, Rotation, Setup, TileTypeId};

    #[test]
    fn a_playout_finishes_the_game_from_every_phase_of_every_kind_of_game() {
        let mut phases = std::collections::BTreeSet::new();
        let mut buffers = Buffers::default();
        for (name, setup) in every_kind_of_game() {
            for seed in 0..3 {
                // Given every position of a simulated game (greedy and random seats)
                let sim = play(setup.clone(), seed, &[Strategy::Greedy, Strategy::Random]).unwrap();
                let mut game = Game::new(setup.clone()).unwrap();
                let mut fx = Effects::default();
                for (i, a) in sim.actions.iter().enumerate() {
                    phases.insert(
                        format!("{:?}", game.phase())
                            .split([' ', '{'])
                            .next()
                            .unwrap()
                            .to_string(),
                    );
                    // When it is played out (random everywhere, greedy every 7th position)
                    let strategy = if i % 7 == 0 {
                        Strategy::Greedy
                    } else {
                        Strategy::Random
                    };
                    let scores = playout(&game, None, seed + i as u64, &[strategy], &mut buffers)
                        .unwrap_or_else(|e| panic!("{name} seed {seed} action {i}: {e}"));
                    // Then the game reaches its end, and nobody loses points they had (no
                    // town costs in these setups)
                    assert_eq!(scores.len(), game.players() as usize);
                    if !game.options().map.town_cost {
                        for (after, before) in scores.iter().zip(game.scores()) {
                            assert!(after >= before, "{name} seed {seed} action {i}");
                        }
                    }
                    game.apply(a, &mut fx).unwrap();
                }
                // And from the finished game, a playout gives its final scores back
                let end = playout(&game, None, 1, &[Strategy::Random], &mut buffers).unwrap();
                assert_eq!(end, sim.scores);
            }
        }
        // The positions covered every phase a game passes through (a game's end included)
        for phase in [
            "Start",
            "Draw",
            "Place",
            "ChooseArrow",
            "Meeple",
            "ReceiveGift",
            "DrawSecond",
            "ReturnTile",
        ] {
            assert!(
                phases.contains(phase),
                "no position in phase {phase}: {phases:?}"
            );
        }
    }

    #[test]
    fn a_playout_deals_the_unseen_tiles_anew_from_the_seed_and_only_those() {
        // Given a base game after 40 actions
        let setup = Setup::base(2);
        let sim = play(setup.clone(), 3, &[Strategy::Random]).unwrap();
        let game = replayed(&setup, &sim.actions, 40);
        let mut buffers = Buffers::default();
        let draws = |seed: u64, buffers: &mut Buffers| {
            let mut actions = Vec::new();
            let scores = playout_recorded(
                &game,
                None,
                seed,
                &[Strategy::Random],
                buffers,
                Some(&mut actions),
            )
            .unwrap();
            let tiles: Vec<TileTypeId> = actions
                .iter()
                .filter_map(|a| match a {
                    Action::Draw { tile } => Some(*tile),
                    _ => None,
                })
                .collect();
            (scores, tiles)
        };
        // When it is played out with two seeds, and with the first seed again
        let (s1, t1) = draws(11, &mut buffers);
        let (_, t2) = draws(12, &mut buffers);
        let (s1_again, t1_again) = draws(11, &mut buffers);
        // Then the same seed gives the same game
        assert_eq!((s1, &t1), (s1_again, &t1_again));
        // And the two seeds draw the same tiles (those left in the bag) in other orders
        assert_ne!(t1, t2);
        let mut sorted1 = t1.clone();
        let mut sorted2 = t2.clone();
        sorted1.sort_unstable();
        sorted2.sort_unstable();
        assert_eq!(sorted1, sorted2);
        let mut bag: Vec<TileTypeId> = game
            .tiles()
            .ids()
            .flat_map(|t| std::iter::repeat_n(t, usize::from(game.bag_count(t))))
            .collect();
        bag.sort_unstable();
        assert_eq!(sorted1, bag);
        // And the real game's next draws are not simply replayed
        let real: Vec<TileTypeId> = sim.actions[40..]
            .iter()
            .filter_map(|a| match a {
                Action::Draw { tile } => Some(*tile),
                _ => None,
            })
            .collect();
        assert!(t1 != real || t2 != real);
    }

    #[test]
    fn moves_tried_with_the_same_seed_meet_the_same_tiles() {
        // Given a position waiting for a placement, and its moves
        let setup = Setup::base(2);
        let sim = play(setup.clone(), 5, &[Strategy::Random]).unwrap();
        let n = sim
            .actions
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, Action::Place { .. }))
            .nth(10)
            .unwrap()
            .0;
        let game = replayed(&setup, &sim.actions, n);
        let mut buffers = Buffers::default();
        let mut moves = Vec::new();
        turn_moves(&game, &mut buffers, &mut moves);
        assert!(moves.len() > 2, "{}", moves.len());
        // When two different moves are played out with the same seed
        let mut first_draws = Vec::new();
        for (m, _) in &moves[..2] {
            let mut actions = Vec::new();
            playout_recorded(
                &game,
                Some(m),
                9,
                &[Strategy::Random],
                &mut buffers,
                Some(&mut actions),
            )
            .unwrap();
            let draws: Vec<Action> = actions
                .into_iter()
                .filter(|a| matches!(a, Action::Draw { .. }))
                .take(5)
                .collect();
            first_draws.push(draws);
        }
        // Then they draw the same next tiles
        assert_eq!(first_draws[0], first_draws[1]);
        assert_eq!(first_draws[0].len(), 5);
    }

    #[test]
    fn turn_moves_are_every_legal_turn_and_hold_the_greedy_choice() {
        let setup = anniversary(3);
        let mut buffers = Buffers::default();
        let mut checked = 0;
        for seed in 0..3 {
            let sim = play(setup.clone(), seed, &[Strategy::Greedy]).unwrap();
            for (n, a) in sim.actions.iter().enumerate() {
                let Action::Place { at, rotation } = *a else {
                    continue;
                };
                // Given a position where the greedy player placed a tile
                let game = replayed(&setup, &sim.actions, n);
                let mut moves = Vec::new();
                // When its moves are listed
                turn_moves(&game, &mut buffers, &mut moves);
                // Then each one plays out, and the greedy player's choice is the first best
                let best = moves.iter().map(|(_, v)| *v).max().unwrap();
                let first_best = moves.iter().find(|(_, v)| *v == best).unwrap().0;
                assert_eq!(first_best.placement, Placement { at, rotation });
                let played_meeple = sim.actions[n + 1..]
                    .iter()
                    .find(|a| {
                        matches!(
                            a,
                            Action::PlaceMeeple { .. }
                                | Action::PlaceLargeMeeple { .. }
                                | Action::PlaceArrowMeeple { .. }
                                | Action::SkipMeeple
                        )
                    })
                    .unwrap();
                assert_eq!(first_best.meeple, *played_meeple);
                for (m, _) in moves.iter().step_by(5) {
                    playout(&game, Some(m), 1, &[Strategy::Random], &mut buffers).unwrap();
                }
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn an_illegal_or_misplaced_move_is_an_error_not_a_panic() {
        let setup = Setup::base(2);
        let sim = play(setup.clone(), 2, &[Strategy::Random]).unwrap();
        let mut buffers = Buffers::default();
        // Given a position waiting for a draw, and one waiting for a placement
        let draw = replayed(&setup, &sim.actions, 1);
        assert_eq!(draw.phase(), Phase::Draw);
        let place = replayed(&setup, &sim.actions, 2);
        assert!(matches!(place.phase(), Phase::Place { .. }));
        let far = TurnMove {
            placement: Placement {
                at: Pos::new(30, 30),
                rotation: Rotation::default(),
            },
            arrow: None,
            meeple: Action::SkipMeeple,
        };
        // When a move is tried where no tile waits, or a move the rules refuse
        let misplaced = playout(&draw, Some(&far), 1, &[Strategy::Random], &mut buffers);
        let illegal = playout(&place, Some(&far), 1, &[Strategy::Random], &mut buffers);
        // Then each is an error, and a position the simulator cannot go on from is one too
        assert!(
            matches!(misplaced, Err(PlayoutError::Position(_))),
            "{misplaced:?}"
        );
        assert!(matches!(illegal, Err(PlayoutError::Rule(_))), "{illegal:?}");
    }
}
