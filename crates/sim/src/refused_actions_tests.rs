//! A standing property of the rules, checked on every kind of game: an action the rules
//! refuse leaves the game as it was, and no action, however made up, panics. Random games are
//! played; at every few positions on the way, made-up actions (every kind, with tile ids of
//! a larger set, squares far off the board, segments past the tile's, any gift and arrow) are
//! tried on a copy of the game.

use std::panic::{catch_unwind, AssertUnwindSafe};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use carc_rules::{
    Action, ArrowSymbol, Effects, Game, GiftAction, GiftCard, Pos, Rotation, TileSet, TileTypeId,
};

use crate::players::Strategy;
use crate::simulate::play;
use crate::test_games::every_kind_of_game;

/// A square near the board most of the time, now and then one at the edge of `i32`.
fn square(rng: &mut ChaCha8Rng) -> Pos {
    match rng.gen_range(0..10) {
        0 => Pos::new(i32::MAX, i32::MIN),
        1 => Pos::new(rng.gen(), rng.gen()),
        _ => Pos::new(rng.gen_range(-12..=12), rng.gen_range(-12..=12)),
    }
}

/// The ids of every built-in kind (gardens included): ids cannot be made from numbers, so the
/// ids past a smaller game's own set are taken from this one.
fn many_ids() -> Vec<TileTypeId> {
    let all = TileSet::combine(&[
        TileSet::base(),
        TileSet::anniversary(),
        TileSet::river(),
        TileSet::inns_cathedrals(),
        TileSet::traders_builders(),
    ])
    .unwrap()
    .with_gardens();
    all.ids().collect()
}

/// A made-up action of any kind (`ids`: those of the game's set, and more).
fn any_action(rng: &mut ChaCha8Rng, ids: &[TileTypeId], kinds: usize) -> Action {
    let tile = match rng.gen_range(0..3) {
        0 if kinds < ids.len() => ids[rng.gen_range(kinds..ids.len())],
        _ => ids[rng.gen_range(0..kinds)],
    };
    let rotation = Rotation::ALL[rng.gen_range(0..4)];
    let segment = match rng.gen_range(0..8) {
        0 => u8::MAX,
        _ => rng.gen_range(0..20),
    };
    let at = square(rng);
    match rng.gen_range(0..17) {
        0 => Action::PlaceStart { tile, at, rotation },
        1 => Action::Draw { tile },
        2 => Action::SetAside,
        3 => Action::Place { at, rotation },
        4 => Action::PlaceMeeple { segment },
        5 => Action::SkipMeeple,
        6 => Action::ChooseArrow { arrow: at },
        7 => Action::PlaceArrowMeeple {
            via: ArrowSymbol::ALL[rng.gen_range(0..3)],
            at,
            segment,
        },
        8 => Action::ReceiveGift {
            card: GiftCard::ALL[rng.gen_range(0..5)],
        },
        9 => Action::OpenGift {
            gift: match rng.gen_range(0..5) {
                0 => GiftAction::Synod { at },
                1 => GiftAction::RoadSweeper { at, segment },
                2 => GiftAction::ChangePosition {
                    at,
                    from: segment,
                    to: rng.gen_range(0..20),
                },
                3 => GiftAction::CashOut { at, segment },
                _ => GiftAction::TakeTwo,
            },
        },
        10 => Action::ReturnTile { tile },
        11 => Action::EndGame,
        12 => Action::PlaceAbbot {
            at,
            segment,
            portal: rng.gen(),
        },
        13 => Action::TakeBackAbbot,
        14 => Action::PlaceLargeMeeple { segment },
        15 => Action::PlaceBuilder { segment },
        _ => Action::PlacePig { segment },
    }
}

#[test]
fn a_refused_action_changes_nothing_and_no_action_panics_in_any_kind_of_game() {
    let ids = many_ids();
    let mut tried = 0usize;
    let mut refused = 0usize;
    for (k, (name, setup)) in every_kind_of_game().into_iter().enumerate() {
        // Given a random game of this kind
        let seed = 4_600 + k as u64;
        let played = play(setup.clone(), seed, &[Strategy::Random]).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(setup).unwrap();
        let kinds = game.tiles().len();
        assert!(ids.len() >= kinds, "{name}: {kinds} kinds");
        let mut fx = Effects::default();
        for (i, action) in played.actions.iter().enumerate() {
            if i % 7 == 0 {
                let before = format!("{game:?}");
                for _ in 0..24 {
                    // When a made-up action is applied to a copy
                    let wrong = any_action(&mut rng, &ids, kinds);
                    let mut copy = game.clone();
                    let mut copy_fx = Effects::default();
                    let outcome =
                        catch_unwind(AssertUnwindSafe(|| copy.apply(&wrong, &mut copy_fx)));
                    tried += 1;
                    // Then it never panics, and when refused the game is as it was
                    let Ok(result) = outcome else {
                        panic!("{name}, seed {seed}, after {i} actions: {wrong:?} panicked");
                    };
                    if result.is_err() {
                        refused += 1;
                        assert_eq!(
                            format!("{copy:?}"),
                            before,
                            "{name}, seed {seed}, after {i} actions: {wrong:?} was refused \
                             ({result:?}) but changed the game"
                        );
                    }
                }
            }
            game.apply(action, &mut fx).unwrap();
        }
    }
    // And the probe mostly tried what the rules refuse (it is a test of refusals)
    assert!(refused * 10 > tried * 9, "{refused} refused of {tried}");
}
