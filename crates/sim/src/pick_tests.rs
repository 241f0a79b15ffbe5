//! The random player's shortcut to its placement agrees with the full list, at every placement
//! of a game of every kind: `Game::pick_placement` asked for index `k` gives the `k`-th of
//! `Game::legal_placements`, and it is offered the list's length (`None` when it is empty).

use carc_rules::{Effects, Game, Phase};

use crate::simulate::play;
use crate::test_games::every_kind_of_game;
use crate::Strategy;

#[test]
fn picking_a_placement_by_index_gives_that_entry_of_the_full_list_in_every_kind_of_game() {
    let (mut listed, mut scratch) = (Vec::new(), Vec::new());
    for (name, setup) in every_kind_of_game() {
        let sim = play(setup.clone(), 5, &[Strategy::Random]).unwrap();
        let mut game = Game::new(setup.clone()).unwrap();
        let mut fx = Effects::quiet();
        let mut checked = 0;
        for (i, a) in sim.actions.iter().enumerate() {
            if let Phase::Place { tile } = game.phase() {
                game.legal_placements(tile, &mut listed);
                // Every index, and the count it is drawn from
                for k in 0..listed.len().max(1) {
                    let mut offered = None;
                    let picked = game.pick_placement(tile, &mut scratch, |n| {
                        offered = Some(n);
                        k
                    });
                    assert_eq!(picked, listed.get(k).copied(), "{name}, action {i}, {k}");
                    let expected = (!listed.is_empty()).then_some(listed.len());
                    assert_eq!(offered, expected, "{name}, action {i}");
                    checked += 1;
                }
            }
            game.apply(a, &mut fx).unwrap();
        }
        assert!(checked > 500, "{name}: {checked} picks");
    }
}
