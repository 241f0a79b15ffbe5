//! The random player's shortcuts agree with the full lists, at every action of a game of every
//! kind: `Game::pick_placement` asked for index `k` gives the `k`-th of
//! `Game::legal_placements`, and it is offered the list's length (`None` when it is empty);
//! `Game::each_builder_and_pig_target` gives `Game::legal_specials` of the builder, then of
//! the pig (`legal_specials` is now that pass filtered by figure, so this part checks the
//! order and the filter; the rule itself is tested from the rules text in
//! `crates/rules/tests/traders_builders_rules.rs`).

use carc_rules::{Effects, Game, MeepleSpot, Phase, Setup, Special};

use crate::simulate::play;
use crate::test_games::{every_kind_of_game, traders};
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

#[test]
fn the_builder_and_pig_targets_in_one_pass_are_the_two_lists_in_every_kind_of_game() {
    // Every kind of game once, and Traders & Builders (with and without farmers) more often:
    // a turn offering both figures a target is not common.
    let mut games: Vec<(&str, Setup, u64)> = every_kind_of_game()
        .into_iter()
        .map(|(name, setup)| (name, setup, 1))
        .collect();
    let mut no_farmers = traders(Setup::base(4));
    no_farmers.options.farmers = false;
    games.push(("traders_builders", traders(Setup::base(4)), 20));
    games.push(("traders_builders, no farmers", no_farmers, 10));
    let mut spots = Vec::new();
    let (mut found, mut both) = ([0; 2], 0);
    for (name, setup, seeds) in games {
        for seed in 1..=seeds {
            let sim = play(setup.clone(), seed, &[Strategy::Random]).unwrap();
            let mut game = Game::new(setup.clone()).unwrap();
            let mut fx = Effects::quiet();
            for (i, a) in sim.actions.iter().enumerate() {
                if let Phase::Meeple { .. } = game.phase() {
                    let mut listed: Vec<(Special, MeepleSpot)> = Vec::new();
                    for (n, which) in [Special::Builder, Special::Pig].into_iter().enumerate() {
                        game.legal_specials(which, &mut spots);
                        listed.extend(spots.iter().map(|&s| (which, s)));
                        found[n] += spots.len();
                    }
                    let mut passed = Vec::new();
                    game.each_builder_and_pig_target(|which, s| passed.push((which, s)));
                    assert_eq!(passed, listed, "{name}, seed {seed}, action {i}");
                    both += usize::from(
                        listed.first().is_some_and(|l| l.0 == Special::Builder)
                            && listed.last().is_some_and(|l| l.0 == Special::Pig),
                    );
                }
                game.apply(a, &mut fx).unwrap();
            }
        }
    }
    assert!(
        found[0] > 50 && found[1] > 50 && both > 2,
        "{found:?} {both}"
    );
}
