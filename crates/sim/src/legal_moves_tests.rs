//! The rules' list of a turn's moves (`Game::legal_moves`) against the playouts' own
//! (`turn_moves`, which the greedy player, the engine and the protocol use): the same moves in
//! the same order, at positions of every kind of game.

use carc_rules::{Effects, Game, Move, Phase};

use crate::players::Strategy;
use crate::playout::{turn_moves, TurnMove};
use crate::simulate::play;
use crate::test_games::every_kind_of_game;
use crate::Buffers;

#[test]
fn the_rules_list_the_same_moves_as_the_playouts_in_every_kind_of_game() {
    let mut positions = 0;
    let mut moves_seen = 0;
    for (k, (name, setup)) in every_kind_of_game().into_iter().enumerate() {
        // Given a random game of this kind, at every third placement on the way
        let seed = 4_700 + k as u64;
        let played = play(setup.clone(), seed, &[Strategy::Random]).unwrap();
        let mut game = Game::new(setup).unwrap();
        let mut fx = Effects::default();
        let mut buffers = Buffers::default();
        let (mut ours, mut theirs) = (Vec::<Move>::new(), Vec::new());
        let mut placements = 0;
        for (i, action) in played.actions.iter().enumerate() {
            if matches!(game.phase(), Phase::Place { .. }) {
                placements += 1;
                if placements % 3 == 0 {
                    // When both list the turn's moves
                    game.legal_moves(&mut ours);
                    turn_moves(&game, &mut buffers, &mut theirs);
                    // Then they are the same moves in the same order
                    let ours: Vec<TurnMove> = ours.iter().map(|&m| m.into()).collect();
                    let theirs: Vec<TurnMove> = theirs.iter().map(|(m, _)| *m).collect();
                    assert_eq!(ours, theirs, "{name}, seed {seed}, after {i} actions");
                    // And every move can be told back as the rules' move
                    for m in &theirs {
                        assert_eq!(TurnMove::from(m.to_move().unwrap()), *m);
                    }
                    positions += 1;
                    moves_seen += ours.len();
                }
            }
            game.apply(action, &mut fx).unwrap();
        }
    }
    assert!(
        positions > 100 && moves_seen > 1000,
        "{positions} positions, {moves_seen} moves"
    );
}

#[test]
fn no_moves_are_listed_outside_a_placement() {
    // Given a game waiting for its start tile, then for a draw
    let game = Game::new(carc_rules::Setup::base(2)).unwrap();
    let mut out = vec![];
    // Then no move is listed
    game.legal_moves(&mut out);
    assert!(out.is_empty());
}
