//! A whole simulated game: the bag and gift deck shuffled from the seed, the start tile placed,
//! then the driver to the end, every action kept for the log.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use carc_rules::{Action, Game, GiftCard, RuleViolation, Setup, GIFT_COPIES};

use crate::driver::{drive, place_starts, river_first, take_start_tile, Buffers};
use crate::error::PlayoutError;
use crate::players::Strategy;

/// A finished simulated game.
#[derive(Clone, Debug)]
pub struct SimGame {
    pub actions: Vec<Action>,
    pub scores: Vec<u32>,
    pub game: Game,
}

/// Plays a whole game. `strategies` gives one strategy per seat (cycled if shorter).
pub fn play(setup: Setup, seed: u64, strategies: &[Strategy]) -> Result<SimGame, RuleViolation> {
    let mut buffers = Buffers::default();
    let mut actions = Vec::with_capacity(256);
    let game = play_into(setup, seed, strategies, &mut buffers, &mut actions)?;
    Ok(SimGame {
        scores: game.scores().to_vec(),
        actions,
        game,
    })
}

/// [`play`] with caller-owned buffers (for benchmarks and bulk simulation).
pub fn play_into(
    setup: Setup,
    seed: u64,
    strategies: &[Strategy],
    buffers: &mut Buffers,
    actions: &mut Vec<Action>,
) -> Result<Game, RuleViolation> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(setup)?;
    actions.clear();

    // The bag: every copy in the game, shuffled; the start tile comes out first.
    let bag = &mut buffers.bag;
    bag.clear();
    for id in game.tiles().ids() {
        for _ in 0..game.in_game_count(id) {
            bag.push(id);
        }
    }
    let start = take_start_tile(&game, bag).map_err(PlayoutError::into_violation)?;
    bag.shuffle(&mut rng);
    river_first(&game, bag);

    // The gift deck, shuffled only with the option on, so other games draw exactly as before.
    let gift_deck = &mut buffers.gift_deck;
    gift_deck.clear();
    if game.options().gifts {
        for card in GiftCard::ALL {
            gift_deck.extend(std::iter::repeat_n(card, usize::from(GIFT_COPIES)));
        }
        gift_deck.shuffle(&mut rng);
    }

    place_starts(&mut game, Some(start), &mut rng, buffers, Some(actions))
        .map_err(PlayoutError::into_violation)?;
    drive(&mut game, strategies, &mut rng, buffers, Some(actions))
        .map_err(PlayoutError::into_violation)?;
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{abbot, anniversary, every_kind_of_game, river};
    use carc_rules::Effects;

    #[test]
    fn same_seed_same_game() {
        let a = play(Setup::base(3), 7, &[Strategy::Random]).unwrap();
        let b = play(Setup::base(3), 7, &[Strategy::Random]).unwrap();
        assert_eq!(a.actions, b.actions);
        let c = play(Setup::base(3), 8, &[Strategy::Random]).unwrap();
        assert_ne!(a.actions, c.actions);
    }

    #[test]
    fn a_game_uses_every_tile() {
        let g = play(Setup::base(2), 1, &[Strategy::Random]).unwrap();
        assert!(g.game.is_over());
        let draws = g
            .actions
            .iter()
            .filter(|a| matches!(a, Action::Draw { .. }))
            .count();
        assert_eq!(draws, 71, "72 tiles, one is the start tile");
        assert_eq!(g.game.placed().len() + g.game.set_aside().len(), 72);
    }

    #[test]
    fn anniversary_games_are_deterministic_use_every_tile_and_take_arrow_actions() {
        let mut arrow_meeples = 0;
        let mut choices = 0;
        for seed in 0..10 {
            for strategies in [
                &[Strategy::Random][..],
                &[Strategy::Greedy, Strategy::Random],
            ] {
                let a = play(anniversary(3), seed, strategies).unwrap();
                let b = play(anniversary(3), seed, strategies).unwrap();
                assert_eq!(a.actions, b.actions);
                assert!(a.game.is_over());
                assert_eq!(a.game.placed().len() + a.game.set_aside().len(), 87);
                arrow_meeples += a
                    .actions
                    .iter()
                    .filter(|x| matches!(x, Action::PlaceArrowMeeple { .. }))
                    .count();
                choices += a
                    .actions
                    .iter()
                    .filter(|x| matches!(x, Action::ChooseArrow { .. }))
                    .count();
            }
        }
        assert!(
            arrow_meeples > 0 && choices > 0,
            "{arrow_meeples} {choices}"
        );
    }

    #[test]
    fn river_games_deal_the_river_first_and_are_deterministic() {
        for seed in 0..6 {
            for (setup, strategies) in [
                (river(2, false), &[Strategy::Random][..]),
                (
                    abbot(river(3, true)),
                    &[Strategy::Greedy, Strategy::Random][..],
                ),
            ] {
                let a = play(setup.clone(), seed, strategies).unwrap();
                let b = play(setup.clone(), seed, strategies).unwrap();
                assert_eq!(a.actions, b.actions);
                assert!(a.game.is_over());
                // Every tile but the base start tile (out of the game with the river) is
                // placed or set aside
                assert_eq!(
                    (a.game.placed().len() + a.game.set_aside().len()) as u32,
                    setup.tiles.total_count() - 1
                );
                // The spring first, then the 10 river tiles, then the lake, then land
                let tiles = a.game.tiles();
                let kinds: Vec<u8> = a
                    .game
                    .placed()
                    .iter()
                    .map(|p| {
                        let t = tiles.get(p.tile);
                        match t.river_end {
                            Some(carc_rules::RiverEnd::Spring) => 0,
                            None if t.is_river() => 1,
                            Some(carc_rules::RiverEnd::Lake) => 2,
                            None => 3,
                        }
                    })
                    .collect();
                assert!(kinds.windows(2).all(|w| w[0] <= w[1]), "{kinds:?}");
                // A river that has wound into a dead end sets the rest of the river aside
                // (interpretation 4 of The River); the rest of the game is dealt as usual
                let set_aside_river = a
                    .game
                    .set_aside()
                    .iter()
                    .filter(|&&t| tiles.get(t).is_river())
                    .count();
                assert_eq!(
                    kinds.iter().filter(|&&k| k == 1 || k == 2).count() + set_aside_river,
                    11
                );
            }
        }
    }

    #[test]
    fn abbot_games_are_deterministic_use_every_tile_and_play_the_abbot() {
        let (mut placed, mut taken_back, mut portal) = (0, 0, 0);
        for seed in 0..10 {
            for (setup, strategies) in [
                (abbot(Setup::base(3)), &[Strategy::Random][..]),
                (abbot(anniversary(2)), &[Strategy::Greedy, Strategy::Random]),
            ] {
                let a = play(setup.clone(), seed, strategies).unwrap();
                let b = play(setup.clone(), seed, strategies).unwrap();
                assert_eq!(a.actions, b.actions);
                assert!(a.game.is_over());
                assert_eq!(
                    (a.game.placed().len() + a.game.set_aside().len()) as u32,
                    setup.tiles.total_count()
                );
                for x in &a.actions {
                    match x {
                        Action::PlaceAbbot { portal: p, .. } => {
                            placed += 1;
                            portal += usize::from(*p);
                        }
                        Action::TakeBackAbbot => taken_back += 1,
                        _ => {}
                    }
                }
            }
        }
        assert!(
            placed > 0 && taken_back > 0 && portal > 0,
            "{placed} {taken_back} {portal}"
        );
    }

    #[test]
    fn inns_games_are_deterministic_use_every_tile_and_play_the_large_meeple() {
        use crate::test_games::inns;
        let (mut random_large, mut greedy_large) = (0, 0);
        for seed in 0..4 {
            for (setup, strategies) in [
                (inns(Setup::base(2)), &[Strategy::Random][..]),
                (inns(Setup::base(6)), &[Strategy::Greedy][..]),
                (
                    inns(abbot(river(4, false))),
                    &[Strategy::Greedy, Strategy::Random],
                ),
            ] {
                let a = play(setup.clone(), seed, strategies).unwrap();
                let b = play(setup.clone(), seed, strategies).unwrap();
                assert_eq!(a.actions, b.actions);
                assert!(a.game.is_over());
                let larges = a
                    .actions
                    .iter()
                    .filter(|x| matches!(x, Action::PlaceLargeMeeple { .. }))
                    .count();
                if strategies == [Strategy::Random] {
                    random_large += larges;
                } else {
                    greedy_large += larges;
                }
            }
        }
        assert!(
            random_large > 0 && greedy_large > 0,
            "{random_large} {greedy_large}"
        );
    }

    #[test]
    fn traders_games_are_deterministic_and_play_the_builder_pig_and_goods() {
        use crate::test_games::{inns, traders};
        // (random builders, random pigs, greedy builders, greedy pigs, goods scored)
        let mut seen = [0usize; 5];
        for seed in 0..3 {
            for (setup, strategies) in [
                (traders(Setup::base(2)), &[Strategy::Random][..]),
                (traders(Setup::base(3)), &[Strategy::Greedy][..]),
                (
                    traders(inns(abbot(river(4, false)))),
                    &[Strategy::Greedy, Strategy::Random],
                ),
            ] {
                let a = play(setup.clone(), seed, strategies).unwrap();
                let b = play(setup.clone(), seed, strategies).unwrap();
                assert_eq!(a.actions, b.actions);
                assert!(a.game.is_over());
                let count = |f: fn(&Action) -> bool| a.actions.iter().filter(|x| f(x)).count();
                let builders = count(|x| matches!(x, Action::PlaceBuilder { .. }));
                let pigs = count(|x| matches!(x, Action::PlacePig { .. }));
                let greedy = usize::from(strategies[0] == Strategy::Greedy) * 2;
                seen[greedy] += builders;
                seen[greedy + 1] += pigs;
                // Every goods token of the tiles placed in completed cities went to someone
                let goods: u32 = (0..a.game.players())
                    .map(|p| a.game.goods(p).iter().map(|&g| u32::from(g)).sum::<u32>())
                    .sum();
                seen[4] += goods as usize;
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    #[test]
    fn quiet_effects_change_nothing_but_the_score_explanations() {
        use carc_rules::{Score, ScoreSource};
        for (name, setup) in every_kind_of_game() {
            for seed in 0..20 {
                // Given a simulated game (greedy and random seats, some without farmers)
                let mut setup = setup.clone();
                setup.options.farmers = seed % 4 != 3;
                let sim = play(setup.clone(), seed, &[Strategy::Greedy, Strategy::Random]).unwrap();
                // When it is replayed with explained and with quiet effects
                let mut loud = Game::new(setup.clone()).unwrap();
                let mut quiet = Game::new(setup.clone()).unwrap();
                let (mut fx, mut qfx) = (Effects::default(), Effects::quiet());
                for (i, a) in sim.actions.iter().enumerate() {
                    loud.apply(a, &mut fx).unwrap();
                    quiet.apply(a, &mut qfx).unwrap();
                    // Then both games agree after every action; only scores without a map
                    // go unexplained
                    let at = format!("{name}, seed {seed}, action {i}");
                    assert_eq!(loud.scores(), quiet.scores(), "{at}");
                    assert_eq!(loud.supply(), quiet.supply(), "{at}");
                    assert_eq!(loud.phase(), quiet.phase(), "{at}");
                    assert_eq!(fx.notes, qfx.notes, "{at}");
                    assert_eq!(fx.returned, qfx.returned, "{at}");
                    if setup.map.is_some() {
                        assert_eq!(fx.scores, qfx.scores, "{at}");
                    } else {
                        let explained = |s: &&Score| s.source != ScoreSource::Feature;
                        let kept: Vec<&Score> = fx.scores.iter().filter(explained).collect();
                        assert_eq!(kept, qfx.scores.iter().collect::<Vec<_>>(), "{at}");
                    }
                }
                assert!(quiet.is_over(), "{name}, seed {seed}");
            }
        }
    }
}
