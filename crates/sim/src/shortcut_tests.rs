//! The rules' shortcuts the greedy player relies on agree with the long way, at every action of
//! a game of every kind: `Game::clone_from` into a scratch game left at other positions
//! gives the same game as `clone`, `Game::appraise_points` gives `appraise`'s points, and
//! `Game::figure_of_on` finds what `Game::meeples` and `Game::abbots` show.

use carc_rules::{Effects, Game, Phase, Placement, Pos};

use crate::simulate::play;
use crate::test_games::every_kind_of_game;
use crate::Strategy;

/// What a player sees of a game, compared after the same action on a clone and a reused copy.
fn view(game: &Game, placements: &mut Vec<Placement>) -> String {
    if let Phase::Place { tile } = game.phase() {
        game.legal_placements(tile, placements);
    } else {
        placements.clear();
    }
    format!(
        "{:?} {:?} {:?} {:?} {} {:?} {placements:?}",
        game.phase(),
        game.scores(),
        game.placed(),
        game.meeples().collect::<Vec<_>>(),
        game.bag_left(),
        game.abbots().collect::<Vec<_>>(),
    )
}

#[test]
fn reused_copies_and_quick_appraisals_agree_with_the_long_way_in_every_kind_of_game() {
    let mut placements = Vec::new();
    for (name, setup) in every_kind_of_game() {
        let sim = play(setup.clone(), 3, &[Strategy::Random]).unwrap();
        let mut game = Game::new(setup.clone()).unwrap();
        // Given the game's last position (more tiles, features and figures than any
        // position before it)
        let mut end = Game::new(setup.clone()).unwrap();
        let mut fx = Effects::quiet();
        for a in &sim.actions {
            end.apply(a, &mut fx).unwrap();
        }
        // Two scratch games taking turns: each is refilled from a position two actions past
        // its own, so a field `clone_from` failed to copy would show (a scratch game always
        // refilled from the game it just followed would hold the right value anyway).
        let mut scratches = [end.clone(), end.clone()];
        let mut checked_points = 0;
        for (i, a) in sim.actions.iter().enumerate() {
            // When a scratch game is refilled from the last position, then from this one, and
            // both play the same action
            let scratch = &mut scratches[i % 2];
            scratch.clone_from(&end);
            scratch.clone_from(&game);
            game.apply(a, &mut fx).unwrap();
            scratch.apply(a, &mut fx).unwrap();
            // Then the two games stay the same
            assert_eq!(
                view(scratch, &mut placements),
                view(&game, &mut placements),
                "{name}, action {i}"
            );
            // and so does a full copy (every field, through its debug form), now and then
            if i % 40 == 0 {
                assert_eq!(
                    format!("{scratch:?}"),
                    format!("{:?}", game.clone()),
                    "{name}"
                );
            }
            // and every segment of the last tile placed, and every segment a figure stands
            // on, is worth `appraise`'s points, with its figures found by `figure_of_on`.
            let mut segments: Vec<(Pos, u8)> = game
                .meeples()
                .chain(game.abbots())
                .map(|(_, at, s, _)| (at, s))
                .collect();
            if let Some(last) = game.placed().last() {
                let n = setup.tiles.get(last.tile).segments.len() as u8;
                segments.extend((0..n + 1).map(|s| (last.at, s)));
            }
            for (at, s) in segments {
                let long = game.appraise(at, s).map(|score| score.points);
                assert_eq!(game.appraise_points(at, s), long, "{name}, {at:?} {s}");
                checked_points += usize::from(long.is_some());
                for seat in 0..game.players() {
                    let shown = game
                        .meeples()
                        .chain(game.abbots())
                        .any(|(p, pos, seg, _)| p == seat && pos == at && seg == s);
                    assert_eq!(game.figure_of_on(seat, at, s), shown, "{name}, {at:?} {s}");
                }
            }
        }
        assert!(checked_points > 100, "{name}: {checked_points} appraisals");
    }
}
