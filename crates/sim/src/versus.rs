//! A whole game between [`Player`] objects: chance (the bag, the start squares, the gift deck,
//! where a Take 2 tile goes back) comes from one generator seeded from the game's seed and
//! nothing else, so the same seed deals the same tiles in the same order to any players. The
//! two games of a `carc match` pair are dealt from one seed with the seats swapped.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use carc_rules::{Action, Game, GiftCard, Phase, Setup, GIFT_COPIES};

use crate::driver::{place_starts, take_start_tile, Buffers};
use crate::error::PlayoutError;
use crate::playout::play_move;
use crate::seat::Player;
use crate::simulate::SimGame;

/// Why a game between players stopped before its end.
#[derive(Debug)]
pub struct VersusError {
    /// The seat whose decision failed, if a decision failed (else the rules or the setup).
    pub seat: Option<u8>,
    /// The actions played before the failure (a legal prefix of the game).
    pub actions: Vec<Action>,
    pub error: PlayoutError,
}

impl std::fmt::Display for VersusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.seat {
            Some(seat) => write!(
                f,
                "seat {seat} after {} actions: {}",
                self.actions.len(),
                self.error
            ),
            None => write!(f, "after {} actions: {}", self.actions.len(), self.error),
        }
    }
}

impl std::error::Error for VersusError {}

/// Plays a whole game from `setup`, chance dealt from `seed`, seat `i` decided by
/// `players[i]` (there must be one per seat). Every action is returned, as [`crate::play`]
/// returns them, so the game can be written as a log.
pub fn play_versus(
    setup: Setup,
    seed: u64,
    players: &mut [&mut dyn Player],
    buffers: &mut Buffers,
) -> Result<SimGame, VersusError> {
    let mut actions = Vec::with_capacity(256);
    let fail = |seat, actions: &mut Vec<Action>, error| VersusError {
        seat,
        actions: std::mem::take(actions),
        error,
    };
    if players.len() != usize::from(setup.players) {
        return Err(fail(
            None,
            &mut actions,
            PlayoutError::Position(format!(
                "{} players for {} seats",
                players.len(),
                setup.players
            )),
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(setup).map_err(|e| fail(None, &mut actions, e.into()))?;

    // The bag and the gift deck, shuffled as `crate::play` shuffles them.
    let mut bag = std::mem::take(&mut buffers.bag);
    bag.clear();
    for id in game.tiles().ids() {
        for _ in 0..game.in_game_count(id) {
            bag.push(id);
        }
    }
    buffers.bag = bag;
    let start =
        take_start_tile(&game, &mut buffers.bag).map_err(|e| fail(None, &mut actions, e))?;
    buffers.bag.shuffle(&mut rng);
    crate::driver::river_first(&game, &mut buffers.bag);
    buffers.gift_deck.clear();
    if game.options().gifts {
        for card in GiftCard::ALL {
            buffers
                .gift_deck
                .extend(std::iter::repeat_n(card, usize::from(GIFT_COPIES)));
        }
        buffers.gift_deck.shuffle(&mut rng);
    }
    place_starts(
        &mut game,
        Some(start),
        &mut rng,
        buffers,
        Some(&mut actions),
    )
    .map_err(|e| fail(None, &mut actions, e))?;

    // The players' scratch: never the game's own buffers, whose bag holds the game's draws.
    let mut scratch = Buffers::default();
    loop {
        let seat = game.current_player();
        let player = &mut *players[usize::from(seat)];
        match game.phase() {
            Phase::Over => break,
            Phase::Start => {
                return Err(fail(
                    None,
                    &mut actions,
                    PlayoutError::Position("the start tiles are not placed".into()),
                ))
            }
            Phase::Draw | Phase::DrawSecond { .. } => {
                let Some(tile) = buffers.bag.pop() else {
                    return Err(fail(
                        None,
                        &mut actions,
                        PlayoutError::Position(
                            "a tile is to be drawn, but the bag is empty".into(),
                        ),
                    ));
                };
                apply(&mut game, Action::Draw { tile }, buffers, &mut actions)
                    .map_err(|e| fail(None, &mut actions, e))?;
            }
            Phase::ReturnTile { first, second } => {
                let back = player.give_back(&game, first, second, &mut scratch);
                apply(
                    &mut game,
                    Action::ReturnTile { tile: back },
                    buffers,
                    &mut actions,
                )
                .map_err(|e| fail(Some(seat), &mut actions, e))?;
                let at = rng.gen_range(0..=buffers.bag.len());
                buffers.bag.insert(at, back);
            }
            Phase::Place { tile } => {
                let mut gifts = std::mem::take(&mut buffers.gifts);
                game.legal_gifts(&mut gifts);
                let gift = if gifts.is_empty() {
                    None
                } else {
                    player.gift(&game, tile, &gifts, &mut scratch)
                };
                buffers.gifts = gifts;
                if let Some(gift) = gift {
                    apply(&mut game, Action::OpenGift { gift }, buffers, &mut actions)
                        .map_err(|e| fail(Some(seat), &mut actions, e))?;
                    continue;
                }
                game.legal_placements(tile, &mut buffers.placements);
                if buffers.placements.is_empty() {
                    apply(&mut game, Action::SetAside, buffers, &mut actions)
                        .map_err(|e| fail(None, &mut actions, e))?;
                    continue;
                }
                let m = player
                    .turn(&game, &mut scratch)
                    .map_err(|e| fail(Some(seat), &mut actions, e))?;
                // The move's actions, with the gift card it earns dealt from the chance
                // generator, recorded as the game plays them.
                play_move(&mut game, &m, &mut rng, buffers, Some(&mut actions))
                    .map_err(|e| fail(Some(seat), &mut actions, e))?;
            }
            Phase::ReceiveGift { .. } | Phase::ChooseArrow { .. } | Phase::Meeple { .. } => {
                // A turn's move plays these steps itself; reaching one here means a move
                // stopped half-way.
                return Err(fail(
                    Some(seat),
                    &mut actions,
                    PlayoutError::Position(format!(
                        "a turn stopped half-way, in {:?}",
                        game.phase()
                    )),
                ));
            }
        }
    }
    Ok(SimGame {
        scores: game.scores().to_vec(),
        actions,
        game,
    })
}

fn apply(
    game: &mut Game,
    action: Action,
    buffers: &mut Buffers,
    actions: &mut Vec<Action>,
) -> Result<(), PlayoutError> {
    game.apply(&action, &mut buffers.fx)?;
    actions.push(action);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::{GreedyPlayer, RandomPlayer};
    use crate::test_games::every_kind_of_game;
    use carc_rules::{Effects, TileTypeId};

    fn draws(actions: &[Action]) -> Vec<TileTypeId> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Draw { tile } => Some(*tile),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_kind_of_game_is_played_to_its_end_and_replays() {
        let mut buffers = Buffers::default();
        for (name, setup) in every_kind_of_game() {
            // Given a greedy player and random players in every seat but one
            let mut greedy = GreedyPlayer;
            let mut randoms: Vec<RandomPlayer> = (1..setup.players)
                .map(|s| RandomPlayer::new(u64::from(s)))
                .collect();
            let mut seats: Vec<&mut dyn Player> = vec![&mut greedy];
            seats.extend(randoms.iter_mut().map(|r| r as &mut dyn Player));
            // When they play a game
            let played = play_versus(setup.clone(), 4, &mut seats, &mut buffers)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            // Then it is over, and its actions replay to the same scores
            assert!(played.game.is_over(), "{name}");
            let mut game = Game::new(setup).unwrap();
            let mut fx = Effects::quiet();
            for a in &played.actions {
                game.apply(a, &mut fx)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            assert_eq!(game.scores(), &played.scores[..], "{name}");
        }
    }

    #[test]
    fn the_same_seed_deals_the_same_tiles_to_other_players() {
        // Given one seed, and a base game played by greedy v random, then random v greedy
        let mut buffers = Buffers::default();
        let setup = Setup::base(2);
        let (mut g, mut r) = (GreedyPlayer, RandomPlayer::new(7));
        let a = play_versus(setup.clone(), 11, &mut [&mut g, &mut r], &mut buffers).unwrap();
        let (mut g, mut r) = (GreedyPlayer, RandomPlayer::new(7));
        let b = play_versus(setup, 11, &mut [&mut r, &mut g], &mut buffers).unwrap();
        // Then both games drew the same tiles in the same order, and played differently
        assert_eq!(draws(&a.actions), draws(&b.actions));
        assert_ne!(a.actions, b.actions);
    }

    #[test]
    fn a_player_count_that_does_not_fit_the_seats_is_an_error() {
        let mut g = GreedyPlayer;
        let err =
            play_versus(Setup::base(3), 1, &mut [&mut g], &mut Buffers::default()).unwrap_err();
        assert!(err.to_string().contains("1 players for 3 seats"), "{err}");
    }
}
