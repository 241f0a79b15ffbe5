//! The engine at Traders & Builders: the leaf value's corrections for the expansion's goods,
//! builder and second turn change the search of its games only.

use carc_engine::{analyse, compare, Budget, SearchOptions};
use carc_rules::{Game, Phase, Setup};
use carc_sim::{play_move, turn_moves, Buffers, Strategy};

mod common;
use common::{decisions, traders};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The positions of a greedy-against-greedy game where a tile waits to be placed.
fn decisions_gg(setup: &Setup, seed: u64) -> Vec<Game> {
    decisions(setup, seed, &[Strategy::Greedy, Strategy::Greedy])
}

/// 300 iterations, one thread, seed 5, the corrections as given.
fn options(goods: f64, builder: f64, turn: f64) -> SearchOptions {
    SearchOptions {
        budget: Budget::Nodes(300),
        threads: 1,
        seed: 5,
        goods_spread: goods,
        builder_value: builder,
        second_turn_value: turn,
        ..SearchOptions::default()
    }
}

#[test]
fn the_corrections_leave_a_game_without_traders_and_builders_alone() {
    // Given positions of a base game
    for game in decisions_gg(&Setup::base(2), 4).into_iter().step_by(15) {
        // When searched without the corrections and with large ones
        let off = analyse(&game, &options(0.0, 0.0, 0.0)).unwrap();
        let on = analyse(&game, &options(0.3, 20.0, 20.0)).unwrap();
        // Then the analyses are the same, number for number
        assert_eq!(off, on, "turn {}", game.turn());
    }
}

#[test]
fn the_corrections_change_the_search_of_a_traders_and_builders_game() {
    // Given positions of a Traders & Builders game (the control for the test above: the same
    // corrections do reach its leaves)
    let games = decisions_gg(&traders(Setup::base(2)), 4);
    let changed = games
        .iter()
        .step_by(15)
        .filter(|game| {
            analyse(game, &options(0.0, 0.0, 0.0)).unwrap().moves
                != analyse(game, &options(0.3, 20.0, 20.0)).unwrap().moves
        })
        .count();
    assert!(changed > 0);
}

#[test]
fn the_builders_second_turn_is_searched_as_the_same_players() {
    // Given a Traders & Builders position where a move extends the mover's builder's road or
    // city (a second turn follows at once)
    let mut buffers = Buffers::default();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut found = None;
    'games: for seed in 1..40 {
        for game in decisions_gg(&traders(Setup::base(2)), seed) {
            let mut moves = Vec::new();
            turn_moves(&game, &mut buffers, &mut moves);
            for (mv, _) in moves {
                let mut after = game.clone();
                play_move(&mut after, &mv, &mut rng, &mut buffers, None).unwrap();
                if after.phase() == Phase::Draw
                    && after.is_extra_turn()
                    && after.current_player() == game.current_player()
                {
                    found = Some((game, mv));
                    break 'games;
                }
            }
        }
    }
    let (game, mv) = found.expect("a move that earns the builder's second turn");
    // When that move alone is searched
    let a = compare(&game, &[mv], &options(0.0, 0.0, 0.0)).unwrap();
    // Then the line goes on with the same seat placing the next tile (the tree's node for the
    // second turn is the mover's, not the other seat's)
    assert!(a.line.len() >= 2, "{:?}", a.line);
    assert_eq!(a.line[0].seat, game.current_player());
    assert_eq!(a.line[1].seat, game.current_player());
}
