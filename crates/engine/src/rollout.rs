//! A short rollout before the leaf value: from the position an iteration reached, chance and
//! a cheap policy play on for a few turns in the iteration's guess, and the position they
//! reach is valued instead. The leaf value (the potential score) cannot see a move that hands
//! the next player points — a city it can close, a field it can join; a turn or two of
//! greedy play does (what the playout judge's playouts see, without their noise to the end).
//!
//! The policy: the greedy player's move, or (with `top` > 1) one of the greedy player's best
//! `top` moves drawn evenly from the iteration's generator, so the rollouts of one position
//! differ. Chance and the side decisions are [`advance`]'s.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use carc_rules::{Game, GiftAction, TileTypeId};
use carc_sim::{greedy_move, play_move, turn_moves, Buffers, PlayoutError, TurnMove};

use crate::determinize::advance;

/// How a rollout plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Policy {
    /// Turns (plies) to play at most.
    pub(crate) plies: u32,
    /// 1: the greedy player's move; n > 1: one of its best n, at random.
    pub(crate) top: u32,
}

/// Reusable space for [`rollout`].
#[derive(Default)]
pub(crate) struct Scratch {
    moves: Vec<(TurnMove, i64)>,
    gifts: Vec<GiftAction>,
}

/// Plays up to `policy.plies` turns of `game` (just after a move: chance is next) with the
/// policy, drawing from the guessed `bag`. Stops early at the end of the game. Returns the
/// turns played.
pub(crate) fn rollout(
    game: &mut Game,
    bag: &mut Vec<TileTypeId>,
    rng: &mut ChaCha8Rng,
    buffers: &mut Buffers,
    scratch: &mut Scratch,
    policy: Policy,
) -> Result<u32, PlayoutError> {
    let mut played = 0;
    while played < policy.plies {
        if !advance(game, bag, rng, buffers, &mut scratch.gifts)? {
            break;
        }
        let Some(mv) = choose(game, rng, buffers, scratch, policy.top) else {
            break;
        };
        play_move(game, &mv, rng, buffers, None)?;
        played += 1;
    }
    Ok(played)
}

/// The policy's move at `game` (waiting for a placement that fits).
fn choose(
    game: &Game,
    rng: &mut ChaCha8Rng,
    buffers: &mut Buffers,
    scratch: &mut Scratch,
    top: u32,
) -> Option<TurnMove> {
    if top <= 1 {
        return greedy_move(game, buffers).map(|(_, m)| m);
    }
    turn_moves(game, buffers, &mut scratch.moves);
    if scratch.moves.is_empty() {
        return None;
    }
    let n = (top as usize).min(scratch.moves.len());
    // The best n by value, ties in the listed order (stable), then one of them evenly.
    scratch.moves.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    Some(scratch.moves[rng.gen_range(0..n)].0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_rules::{Phase, Setup};
    use carc_sim::{place_positions, Strategy};
    use rand::SeedableRng;

    use crate::determinize::deal;

    /// The positions of a greedy-vs-random 2-player base game where a tile waits to be placed.
    fn decisions(seed: u64) -> Vec<Game> {
        let strategies = [Strategy::Greedy, Strategy::Random];
        place_positions(&Setup::base(2), seed, &strategies)
            .unwrap()
            .into_iter()
            .filter(|p| p.fits)
            .map(|p| p.game)
            .collect()
    }

    /// `root` with the unseen tiles dealt from `seed` and its first move played, as when a
    /// search reaches a new leaf; and the random source that goes on from there.
    fn at_a_leaf(
        root: &Game,
        seed: u64,
        bag: &mut Vec<TileTypeId>,
        buffers: &mut Buffers,
    ) -> (Game, ChaCha8Rng) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = root.clone();
        deal(
            root,
            root.current_player(),
            &mut rng,
            &mut game,
            bag,
            buffers,
        )
        .unwrap();
        let mut first = Vec::new();
        turn_moves(&game, buffers, &mut first);
        play_move(&mut game, &first[0].0, &mut rng, buffers, None).unwrap();
        (game, rng)
    }

    #[test]
    fn a_rollout_plays_legal_moves_and_stops_after_its_plies_or_at_the_end() {
        let mut buffers = Buffers::default();
        let mut scratch = Scratch::default();
        let mut bag = Vec::new();
        let games = decisions(3);
        // Early, middle and the last decisions (where the end of the game comes first).
        let picks = [0, games.len() / 2, games.len() - 3, games.len() - 1];
        for top in [1, 3] {
            for &i in &picks {
                // Given a first move played (as a tree leaf is reached)
                let (mut game, mut rng) = at_a_leaf(&games[i], i as u64, &mut bag, &mut buffers);
                let tiles_before = game.bag_left();
                // When a rollout of 4 plies is played (every move goes through the rules'
                // `apply`, which refuses an illegal one: an error here fails the test)
                let plies = 4;
                let played = rollout(
                    &mut game,
                    &mut bag,
                    &mut rng,
                    &mut buffers,
                    &mut scratch,
                    Policy { plies, top },
                )
                .unwrap();
                // Then it played exactly its plies, or fewer only because the game ended
                assert!(played <= plies, "{played} plies at decision {i}");
                if played < plies {
                    assert!(game.is_over(), "stopped after {played} at decision {i}");
                } else {
                    // each ply drew a tile (or more, when one fitted nowhere)
                    assert!(tiles_before - game.bag_left() >= plies, "decision {i}");
                    assert!(!game.is_over() || game.bag_left() == 0);
                }
                // and the game stands between turns, as the leaf value expects
                assert!(
                    matches!(game.phase(), Phase::Draw | Phase::Over),
                    "{:?}",
                    game.phase()
                );
            }
        }
        // Near the end, the game's end stops the rollout early at least once.
        let (mut game, mut rng) = at_a_leaf(games.last().unwrap(), 7, &mut bag, &mut buffers);
        let played = rollout(
            &mut game,
            &mut bag,
            &mut rng,
            &mut buffers,
            &mut scratch,
            Policy { plies: 8, top: 1 },
        )
        .unwrap();
        assert!(played < 8 && game.is_over(), "{played}");
    }

    #[test]
    fn the_greedy_policy_plays_the_greedy_players_moves() {
        let games = decisions(5);
        let root = &games[games.len() / 2];
        let mut buffers = Buffers::default();
        let mut scratch = Scratch::default();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let expected = greedy_move(root, &mut buffers).unwrap().1;
        assert_eq!(
            choose(root, &mut rng, &mut buffers, &mut scratch, 1),
            Some(expected)
        );
        // top 3 picks among the three best values only
        let mut all = Vec::new();
        turn_moves(root, &mut buffers, &mut all);
        let mut values: Vec<i64> = all.iter().map(|&(_, v)| v).collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        for _ in 0..20 {
            let m = choose(root, &mut rng, &mut buffers, &mut scratch, 3).unwrap();
            let v = all.iter().find(|(x, _)| *x == m).unwrap().1;
            assert!(v >= values[2.min(values.len() - 1)]);
        }
    }
}
