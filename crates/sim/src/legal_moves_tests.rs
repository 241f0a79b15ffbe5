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

/// What a position shows of itself, to tell two positions apart.
fn summary(game: &Game) -> String {
    format!(
        "{:?} turn {} scores {:?} supply {:?} bag {} tiles {} meeples {:?}",
        game.phase(),
        game.turn(),
        game.scores(),
        game.supply(),
        game.bag_left(),
        game.placed().len(),
        game.meeples().collect::<Vec<_>>()
    )
}

#[test]
fn each_move_leads_where_playing_its_actions_leads_in_every_kind_of_game() {
    let mut moves_seen = 0;
    for (k, (name, setup)) in every_kind_of_game().into_iter().enumerate() {
        // Given a random game of this kind, at every seventh placement on the way
        let seed = 4_800 + k as u64;
        let played = play(setup.clone(), seed, &[Strategy::Random]).unwrap();
        let mut game = Game::new(setup).unwrap();
        let mut fx = Effects::default();
        let mut listed = Vec::new();
        let mut placements = 0;
        for action in &played.actions {
            if matches!(game.phase(), Phase::Place { .. }) {
                placements += 1;
                if placements % 7 == 0 {
                    // When the rules give each move with the position it leads to
                    let mut given = Vec::new();
                    let stopped: Option<()> = game.try_each_move(|m, after| {
                        given.push((m, summary(after)));
                        std::ops::ControlFlow::Continue(())
                    });
                    assert_eq!(stopped, None);
                    game.legal_moves(&mut listed);
                    // Then those are the listed moves, in order
                    let moves: Vec<Move> = given.iter().map(|(m, _)| *m).collect();
                    assert_eq!(moves, listed, "{name}, seed {seed}");
                    // And each position is the one its actions lead to (a gift card earned is
                    // the one the rules' listing deals: the first kind left)
                    for (m, after) in &given {
                        let mut played = game.clone();
                        for a in m.actions() {
                            played.apply(&a, &mut fx).unwrap();
                            if let Phase::ReceiveGift { .. } = played.phase() {
                                let card = played.a_gift_card_left().unwrap();
                                played
                                    .apply(&carc_rules::Action::ReceiveGift { card }, &mut fx)
                                    .unwrap();
                            }
                        }
                        assert_eq!(&summary(&played), after, "{name}, seed {seed}, {m:?}");
                        moves_seen += 1;
                    }
                    // And a walk stopped early stops at the move that asked
                    if given.len() > 1 {
                        let mut seen = 0;
                        let stopped = game.try_each_move(|_, _| {
                            seen += 1;
                            std::ops::ControlFlow::Break(seen)
                        });
                        assert_eq!(stopped, Some(1));
                    }
                }
            }
            game.apply(action, &mut fx).unwrap();
        }
    }
    assert!(moves_seen > 1000, "{moves_seen} moves");
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
