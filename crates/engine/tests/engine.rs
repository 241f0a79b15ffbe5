//! The engine's promises, given/when/then: the same seed, node budget and thread count give
//! the same analysis; the search knows only what the player to move knows; every kind of game
//! we play is searched; the result is consistent (the best move is legal and most visited, the
//! line starts with it); a position without a decision is an error, not a panic.

use carc_engine::{analyse, compare, move_text, Budget, EngineError, SearchOptions};
use carc_rules::{Action, Effects, Game, GiftCard, Phase, Setup};
use carc_sim::{play, turn_moves, Buffers, Strategy};

mod common;
use common::{decisions, every_kind_of_game, inns, traders, with_options};

/// The positions of a greedy-against-random game where a tile waits to be placed.
fn decisions_gr(setup: &Setup, seed: u64) -> Vec<Game> {
    decisions(setup, seed, &[Strategy::Greedy, Strategy::Random])
}

fn nodes(n: u64, threads: usize, seed: u64) -> SearchOptions {
    SearchOptions {
        budget: Budget::Nodes(n),
        threads,
        seed,
        ..SearchOptions::default()
    }
}

#[test]
fn the_same_seed_nodes_and_threads_give_the_same_analysis() {
    // Given a position of the middle game
    let game = decisions_gr(&Setup::base(2), 3).swap_remove(30);
    for threads in [1, 2] {
        // When it is searched twice with the same seed, node budget and thread count
        let a = analyse(&game, &nodes(300, threads, 7)).unwrap();
        let b = analyse(&game, &nodes(300, threads, 7)).unwrap();
        // Then both analyses are the same, move for move and number for number
        assert_eq!(a, b, "threads {threads}");
        assert_eq!(a.nodes, 300);
    }
    // And another seed searches otherwise (the statistics differ)
    let a = analyse(&game, &nodes(300, 1, 7)).unwrap();
    let c = analyse(&game, &nodes(300, 1, 8)).unwrap();
    assert_ne!(a.moves, c.moves);
}

#[test]
fn the_search_knows_only_what_the_player_to_move_knows() {
    // Given a game with The Gifts where the other players hold cards
    let setup = with_options(3, |o| o.gifts = true);
    let mut checked = 0;
    for seed in 0..6 {
        for game in decisions_gr(&setup, seed).into_iter().step_by(7) {
            let me = game.current_player();
            let others: Vec<u8> = (0..3).filter(|&s| s != me).collect();
            if others.iter().all(|&s| game.hand_size(s) == 0) {
                continue;
            }
            // And the same game with the hidden cards (the others' hands, the deck) dealt
            // otherwise: the same cards, in reverse order
            let mut hidden = Vec::new();
            let mut counts = game.gift_deck();
            for &s in &others {
                for (c, n) in counts.iter_mut().zip(game.hand(s)) {
                    *c += n;
                }
            }
            for card in GiftCard::ALL.into_iter().rev() {
                hidden.extend(std::iter::repeat_n(card, usize::from(counts[card.index()])));
            }
            let mut other_deal = game.clone();
            other_deal.redeal_hidden_gifts(me, &hidden).unwrap();
            let differs = others.iter().any(|&s| other_deal.hand(s) != game.hand(s));
            // When both are searched with the same seed and budget
            let a = analyse(&game, &nodes(120, 1, 5)).unwrap();
            let b = analyse(&other_deal, &nodes(120, 1, 5)).unwrap();
            // Then the analyses are the same: the search never looked at the hidden cards
            assert_eq!(a, b, "seed {seed} turn {}", game.turn());
            checked += usize::from(differs);
        }
    }
    assert!(
        checked >= 3,
        "only {checked} positions had hands to deal otherwise"
    );
}

#[test]
fn every_kind_of_game_is_searched_and_the_result_is_consistent() {
    let mut buffers = Buffers::default();
    for (name, setup) in every_kind_of_game() {
        // Given positions at every stage of a simulated game
        let positions = decisions_gr(&setup, 1);
        for game in positions.iter().step_by(11) {
            // When the engine searches one
            let a = analyse(game, &nodes(150, 1, 2)).unwrap_or_else(|e| panic!("{name}: {e}"));
            // Then its best move is one of the turn's legal moves, each listed once
            let mut legal = Vec::new();
            turn_moves(game, &mut buffers, &mut legal);
            assert_eq!(a.moves.len(), legal.len(), "{name}");
            assert!(legal.iter().any(|(m, _)| *m == a.best), "{name}");
            // And it is the most visited, every iteration went through one move
            let visits: u32 = a.moves.iter().map(|m| m.visits).sum();
            assert!(u64::from(visits) <= a.nodes, "{name}");
            assert!(a
                .moves
                .iter()
                .all(|m| m.visits <= a.stats(&a.best).unwrap().visits));
            // And its estimates are in range, its line starts with it, for the seat to move
            assert!((0.0..=1.0).contains(&a.win), "{name}: {}", a.win);
            assert_eq!(a.line.first().map(|s| s.mv), Some(a.best), "{name}");
            assert_eq!(a.seat, game.current_player());
            assert!(!move_text(game, &a.best).is_empty());
            // And the move can be played
            let mut after = game.clone();
            let mut fx = Effects::quiet();
            after
                .apply(
                    &Action::Place {
                        at: a.best.placement.at,
                        rotation: a.best.placement.rotation,
                    },
                    &mut fx,
                )
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}

#[test]
fn a_time_budget_searches_until_its_deadline() {
    // Given a position and a budget of 30 ms on two threads
    let game = decisions_gr(&Setup::base(2), 4).swap_remove(10);
    let options = SearchOptions {
        budget: Budget::Time(std::time::Duration::from_millis(30)),
        threads: 2,
        ..SearchOptions::default()
    };
    // When it is searched, Then it returns a legal move after some iterations
    let a = analyse(&game, &options).unwrap();
    assert!(a.nodes > 0);
    assert!(a.stats(&a.best).is_some());
}

#[test]
fn a_position_without_a_decision_is_an_error_not_a_panic() {
    // Given a game waiting for a draw, and a finished game
    let setup = Setup::base(2);
    let sim = play(setup.clone(), 2, &[Strategy::Greedy]).unwrap();
    let mut game = Game::new(setup).unwrap();
    let mut fx = Effects::quiet();
    game.apply(&sim.actions[0], &mut fx).unwrap();
    assert_eq!(game.phase(), Phase::Draw);
    // When either is searched, Then the error says there is no placement to choose
    assert!(matches!(
        analyse(&game, &nodes(10, 1, 0)),
        Err(EngineError::NoDecision(_))
    ));
    assert!(matches!(
        analyse(&sim.game, &nodes(10, 1, 0)),
        Err(EngineError::NoDecision(_))
    ));
}

#[test]
fn a_move_that_completes_a_big_city_of_ones_own_is_chosen() {
    // Given positions where the greedy player would score 8 or more points at once for
    // itself alone (a feature completed with its meeple)
    let mut checked = 0;
    let mut buffers = Buffers::default();
    for seed in 10..16 {
        for game in decisions_gr(&Setup::base(2), seed) {
            let mut moves = Vec::new();
            turn_moves(&game, &mut buffers, &mut moves);
            let best_value = moves.iter().map(|(_, v)| *v).max().unwrap_or(0);
            // (greedy values are twice the point difference: 16 is 8 points)
            let next_best = moves
                .iter()
                .map(|(_, v)| *v)
                .filter(|&v| v < best_value)
                .max()
                .unwrap_or(0);
            if best_value < 16 || best_value - next_best < 16 {
                continue;
            }
            // When the engine searches it
            let a = analyse(&game, &nodes(400, 1, 1)).unwrap();
            // Then it takes a move worth that much at once
            let value = moves.iter().find(|(m, _)| *m == a.best).unwrap().1;
            assert!(
                value >= best_value - 4,
                "seed {seed} turn {}: chose a move of value {value}, best {best_value}",
                game.turn()
            );
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} such positions");
}

#[test]
fn compared_moves_get_equal_shares_on_the_same_guesses() {
    // Given a position and two of its moves: the greedy player's first and last
    let game = decisions_gr(&Setup::base(2), 6).swap_remove(20);
    let mut legal = Vec::new();
    turn_moves(&game, &mut Buffers::default(), &mut legal);
    let first = legal.first().unwrap().0;
    let last = legal.last().unwrap().0;
    // When they are compared with 301 iterations on two threads
    let a = compare(&game, &[first, last, first], &nodes(301, 2, 3)).unwrap();
    // Then only these two are measured, each in as many iterations (whole rounds), with
    // estimates for both, and the same seed gives the same figures
    assert_eq!(a.moves.len(), 2);
    assert_eq!(a.moves[0].visits, a.moves[1].visits);
    assert!(a.moves[0].visits >= 150);
    assert!(a
        .moves
        .iter()
        .all(|m| m.win.is_some() && m.margin.is_some()));
    assert_eq!(
        a,
        compare(&game, &[first, last], &nodes(301, 2, 3)).unwrap()
    );
    // And a move that is not legal here is refused
    let mut far = first;
    far.placement.at = carc_rules::Pos::new(40, 40);
    assert!(matches!(
        compare(&game, &[first, far], &nodes(10, 1, 0)),
        Err(EngineError::NotLegal(_))
    ));
}

#[test]
fn the_large_meeple_is_among_the_searched_moves_and_written_large() {
    // Given the first decision of an Inns & Cathedrals game, the large meeple in supply
    let game = decisions_gr(&inns(Setup::base(2)), 1).swap_remove(0);
    assert!(game.large_meeple_in_supply(game.current_player()));
    // When its moves are listed and searched
    let mut buffers = Buffers::default();
    let mut legal = Vec::new();
    turn_moves(&game, &mut buffers, &mut legal);
    let large: Vec<_> = legal
        .iter()
        .filter(|(m, _)| matches!(m.meeple, Action::PlaceLargeMeeple { .. }))
        .collect();
    // Then the large meeple is offered, once per meeple target, in the notation `large:SPOT`
    let meeples = legal
        .iter()
        .filter(|(m, _)| matches!(m.meeple, Action::PlaceMeeple { .. }))
        .count();
    assert_eq!(large.len(), meeples);
    assert!(large.iter().all(|(m, _)| move_text(&game, m)
        .split(' ')
        .nth(2)
        .unwrap()
        .starts_with("large:")));
    let a = analyse(&game, &nodes(150, 1, 2)).unwrap();
    assert_eq!(a.moves.len(), legal.len());
}

#[test]
fn the_builder_and_the_pig_are_among_the_searched_moves_and_written_so() {
    // Given the decisions of a Traders & Builders game, until one offers the builder and one
    // the pig (a meeple of the player's own must stand on the feature first)
    let mut buffers = Buffers::default();
    let mut seen = [false; 2];
    for game in decisions_gr(&traders(Setup::base(2)), 2) {
        let mut legal = Vec::new();
        turn_moves(&game, &mut buffers, &mut legal);
        for (which, prefix, is) in [
            (
                0,
                "builder:",
                (|a: &Action| matches!(a, Action::PlaceBuilder { .. })) as fn(&Action) -> bool,
            ),
            (1, "pig:", |a: &Action| matches!(a, Action::PlacePig { .. })),
        ] {
            let figures: Vec<_> = legal.iter().filter(|(m, _)| is(&m.meeple)).collect();
            if figures.is_empty() || seen[which] {
                continue;
            }
            seen[which] = true;
            // Then each is written `builder:SPOT` / `pig:SPOT`, and the search covers them
            assert!(figures.iter().all(|(m, _)| move_text(&game, m)
                .split(' ')
                .nth(2)
                .unwrap()
                .starts_with(prefix)));
            let a = analyse(&game, &nodes(100, 1, 2)).unwrap();
            assert_eq!(a.moves.len(), legal.len());
        }
        if seen == [true; 2] {
            break;
        }
    }
    assert_eq!(seen, [true; 2]);
}

#[test]
fn a_search_with_rollouts_is_reproducible_consistent_and_sees_otherwise() {
    let rollout = |n: u64, threads: usize, seed: u64, plies: u32, top: u32| SearchOptions {
        rollout: plies,
        rollout_top: top,
        ..nodes(n, threads, seed)
    };
    // Given a position of the middle game
    let game = decisions_gr(&Setup::base(2), 3).swap_remove(30);
    for (threads, top) in [(1, 1), (2, 3)] {
        // When it is searched twice with rollouts, the same seed, node budget and threads
        let a = analyse(&game, &rollout(200, threads, 7, 3, top)).unwrap();
        let b = analyse(&game, &rollout(200, threads, 7, 3, top)).unwrap();
        // Then both analyses are the same, number for number
        assert_eq!(a, b, "threads {threads} top {top}");
        assert_eq!(a.nodes, 200);
    }
    // And the rollouts change what the search measures (the same seed without them differs)
    let plain = analyse(&game, &nodes(200, 1, 7)).unwrap();
    let rolled = analyse(&game, &rollout(200, 1, 7, 3, 1)).unwrap();
    assert_ne!(plain.moves, rolled.moves);
    // And every kind of game is searched with them, to its last turns (where a rollout meets
    // the end of the game), and the best move is legal
    let mut buffers = Buffers::default();
    for (name, setup) in every_kind_of_game() {
        let positions = decisions_gr(&setup, 2);
        let last = positions.len() - 1;
        for game in [&positions[last / 2], &positions[last.saturating_sub(1)]] {
            let a =
                analyse(game, &rollout(40, 1, 2, 4, 2)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut legal = Vec::new();
            turn_moves(game, &mut buffers, &mut legal);
            assert!(legal.iter().any(|(m, _)| *m == a.best), "{name}");
            assert!((0.0..=1.0).contains(&a.win), "{name}: {}", a.win);
        }
    }
}
