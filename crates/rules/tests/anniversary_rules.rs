//! One test per rule, edge case and interpretation of `shared/rules/anniversary.md`,
//! given/when/then on small hand-built boards.
//!
//! Every position starts from the start tile D at (0,0), rotation 0: city on its north side,
//! a road running west–east, field to the south. The anniversary tiles used here (authored
//! geometry, `crates/rules/data/anniversary.json`), at rotation 0:
//! - 20H: monastery in a field, portal arrow pointing E;
//! - 20O: field only, extra-turn arrow pointing E;
//! - 20E: city on N, companion arrow pointing S;
//! - 20A: city N, road E–W, companion arrow pointing S;
//! - 20M: crossroads, extra-turn arrow pointing N.
//!
//! Rotations are clockwise, so an arrow pointing E at 0° points S at 90°, W at 180°, N at 270°.

mod common;

use carc_rules::*;
use common::*;

fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

fn has(fx: &Effects, f: impl Fn(&Note) -> bool) -> bool {
    fx.notes.iter().any(f)
}

// ---- Contents and setup ----------------------------------------------------------------------

#[test]
fn the_fifteen_arrow_tiles_join_the_bag_when_the_expansion_is_on() {
    // Given base + anniversary tile sets with the expansion on
    let tiles = TileSet::combine(&[TileSet::base(), TileSet::anniversary()]).unwrap();
    let setup = Setup {
        players: 2,
        options: Options {
            anniversary: true,
            ..Options::default()
        },
        tiles: std::sync::Arc::new(tiles),
        bag: None,
        map: None,
    };
    // When the game starts
    let game = Game::new(setup).unwrap();
    // Then the bag holds the 72 base tiles and the 15 arrow tiles, five per symbol
    assert_eq!(game.bag_left(), 87);
    for symbol in ArrowSymbol::ALL {
        let n: u32 = game
            .tiles()
            .tiles()
            .iter()
            .filter(|t| t.arrow.map(|a| a.symbol) == Some(symbol))
            .map(|t| u32::from(t.count))
            .sum();
        assert_eq!(n, 5, "{symbol}");
    }
}

#[test]
fn arrow_tiles_without_the_expansion_are_refused_at_setup() {
    let tiles = TileSet::combine(&[TileSet::base(), TileSet::anniversary()]).unwrap();
    let err = Game::new(Setup {
        players: 2,
        options: Options::default(),
        tiles: std::sync::Arc::new(tiles),
        bag: None,
        map: None,
    })
    .unwrap_err();
    assert_eq!(err.rule(), "base.setup");
    assert_eq!(
        err.to_string(),
        "tile 20A carries an arrow, but the anniversary expansion is not on"
    );
}

// ---- Activating an arrow -----------------------------------------------------------------------

#[test]
fn case_1_an_arrow_pointing_at_no_tile_scores_two_at_once_and_the_turn_goes_on() {
    // Given the start tile
    let mut t = anniversary_table(2, &[("20H", 1), ("B", 1)]);
    t.draw("20H").unwrap();
    // When seat 0 puts 20H south of it unrotated: its arrow points east at the empty (1,-1)
    t.place(0, -1, 0).unwrap();
    // Then seat 0 scores 2 at once, with its explanation and rule id
    assert_eq!(t.scores(), vec![2, 0]);
    assert_eq!(t.fx.scores.len(), 1);
    let s = &t.fx.scores[0];
    assert_eq!(s.rule, "anniversary.arrow.no-tile");
    assert_eq!(s.formula, "arrow points at no tile: +2");
    assert_eq!(s.points, 2);
    assert_eq!(s.winners, vec![0]);
    assert_eq!(
        s.source,
        ScoreSource::Arrow {
            symbol: ArrowSymbol::Portal,
            side: Side::E
        }
    );
    assert_eq!(
        s.to_string(),
        "portal arrow of the tile at (0,-1), pointing east: arrow points at no tile: +2; seat 0 +2 [anniversary.arrow.no-tile]"
    );
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::ArrowNoTile {
            symbol: ArrowSymbol::Portal,
            side: Side::E,
            off_board: false
        }
    )));
    // And nothing else happens: no action, the normal meeple step follows
    assert_eq!(t.game.phase(), Phase::Meeple { at: p(0, -1) });
    assert_eq!(t.game.arrow_action(), None);
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    assert!(spots.is_empty());
    t.meeple(Some("monastery")).unwrap();
    // And the arrow keeps waiting for its square
    assert_eq!(t.game.arrows()[0].state, ArrowState::Waiting);
    assert_eq!(t.game.arrows()[0].target, Some(p(1, -1)));
}

#[test]
fn case_2_an_arrow_pointing_at_a_placed_tile_is_activated() {
    let mut t = anniversary_table(2, &[("20H", 1), ("B", 1)]);
    t.draw("20H").unwrap();
    // When 20H goes south of the start tile turned 270°: its arrow points north at D
    t.place(0, -1, 270).unwrap();
    // Then the portal arrow is activated, no points
    assert_eq!(t.scores(), vec![0, 0]);
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::ArrowActivated {
            symbol: ArrowSymbol::Portal,
            filled: false,
            ..
        }
    )));
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Portal));
    assert_eq!(t.game.arrows()[0].state, ArrowState::Activated);
    let note =
        t.fx.notes
            .iter()
            .find(|n| matches!(n, Note::ArrowActivated { .. }))
            .unwrap();
    assert_eq!(note.rule(), "anniversary.arrow.activated");
    assert_eq!(
        note.to_string(),
        "the tile's portal arrow points north at a placed tile: it is activated"
    );
}

#[test]
fn case_3_any_tile_filling_the_square_an_arrow_points_at_activates_it_for_its_placer() {
    // Given seat 0's 20H at (0,-1) pointing east at the empty (1,-1)
    let mut t = anniversary_table(2, &[("20H", 1), ("B", 2)]);
    t.turn("20H", 0, -1, 0, None);
    // When seat 1 puts a plain B (no arrow) on (1,-1)
    t.draw("B").unwrap();
    t.place(1, -1, 0).unwrap();
    // Then seat 0's portal arrow is activated for seat 1
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::ArrowActivated {
            symbol: ArrowSymbol::Portal,
            filled: true,
            ..
        }
    )));
    assert_eq!(t.game.current_player(), 1);
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Portal));
    assert_eq!(t.game.arrows()[0].state, ArrowState::Activated);
}

#[test]
fn at_most_one_arrow_per_turn_the_player_chooses_and_the_choice_is_checked() {
    // Given seat 0's 20H at (0,-1) pointing east at (1,-1)
    let mut t = anniversary_table(2, &[("20H", 1), ("20O", 1), ("B", 1)]);
    t.turn("20H", 0, -1, 0, None);
    assert_eq!(t.scores(), vec![2, 0]);
    // When seat 1 puts 20O on (1,-1) with its own arrow pointing west back at 20H
    t.draw("20O").unwrap();
    t.place(1, -1, 180).unwrap();
    // Then there are no 2 points (its arrow points at a tile) and seat 1 must choose
    assert_eq!(t.scores(), vec![2, 0]);
    assert_eq!(t.game.phase(), Phase::ChooseArrow { at: p(1, -1) });
    assert!(has(&t.fx, |n| *n == Note::ArrowsToChoose { count: 2 }));
    let mut choices = Vec::new();
    t.game.legal_arrow_choices(&mut choices);
    let offered: Vec<(Pos, ArrowSymbol)> = choices.iter().map(|a| (a.at, a.symbol)).collect();
    assert_eq!(
        offered,
        vec![
            (p(0, -1), ArrowSymbol::Portal),
            (p(1, -1), ArrowSymbol::ExtraTurn)
        ]
    );
    // And a meeple before the choice is refused, as is an arrow that is not a candidate
    let err = t.meeple(None).unwrap_err();
    assert_eq!(err.rule(), "base.turn.phase");
    let err = t.choose(0, 0).unwrap_err();
    assert_eq!(err.rule(), "anniversary.arrow.one-per-turn");
    assert_eq!(
        err.to_string(),
        "no arrow of the tile at (0,0) can be chosen this turn; the arrows this placement activates are: the portal arrow of the tile at (0,-1), the extra turn arrow of the tile at (1,-1)"
    );
    assert_eq!(t.game.phase(), Phase::ChooseArrow { at: p(1, -1) });
    // When seat 1 chooses the extra-turn arrow
    t.choose(1, -1).unwrap();
    // Then only that one is activated; the portal arrow is spent for good
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::ArrowChosen {
            symbol: ArrowSymbol::ExtraTurn,
            ..
        }
    )));
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::ArrowSpent {
            symbol: ArrowSymbol::Portal,
            ..
        }
    )));
    assert_eq!(t.game.arrows()[0].state, ArrowState::Spent);
    assert_eq!(t.game.arrows()[1].state, ArrowState::Activated);
    assert_eq!(t.game.arrow_action(), None);
    assert!(t.game.extra_turn_pending());
    assert_eq!(t.game.phase(), Phase::Meeple { at: p(1, -1) });
}

#[test]
fn choosing_the_other_arrow_of_the_same_pair_gives_its_action_instead() {
    let mut t = anniversary_table(2, &[("20H", 1), ("20O", 1), ("B", 1)]);
    t.turn("20H", 0, -1, 0, None);
    t.draw("20O").unwrap();
    t.place(1, -1, 180).unwrap();
    t.choose(0, -1).unwrap();
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Portal));
    assert!(!t.game.extra_turn_pending());
    assert_eq!(t.game.arrows()[1].state, ArrowState::Spent);
}

#[test]
fn cases_1_and_3_together_two_points_for_your_arrow_and_the_other_arrow_activated() {
    // Given seat 0's 20H at (0,-1) pointing east at (1,-1)
    let mut t = anniversary_table(2, &[("20H", 1), ("20O", 1), ("B", 1)]);
    t.turn("20H", 0, -1, 0, None);
    // When seat 1 puts 20O on (1,-1) unrotated: its own arrow points east at nothing
    t.draw("20O").unwrap();
    t.place(1, -1, 0).unwrap();
    // Then seat 1 scores 2 for its arrow and seat 0's portal arrow is activated, no choice
    assert_eq!(t.scores(), vec![2, 2]);
    assert_eq!(t.game.phase(), Phase::Meeple { at: p(1, -1) });
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Portal));
    assert_eq!(t.game.arrows()[1].state, ArrowState::Waiting);
}

#[test]
fn an_activated_arrow_or_one_whose_square_is_filled_never_activates_again() {
    // Given the pair of the choice test, seat 1 having chosen the portal
    let mut t = anniversary_table(2, &[("20H", 1), ("20O", 1), ("B", 2)]);
    t.turn("20H", 0, -1, 0, None);
    t.draw("20O").unwrap();
    t.place(1, -1, 180).unwrap();
    t.choose(0, -1).unwrap();
    t.meeple(None).unwrap();
    // When seat 0 puts tiles next to both arrow tiles
    let fx = t.turn("B", 0, -2, 0, None);
    // Then nothing is activated: one arrow was used, the other's square is filled
    assert!(!has(&fx, |n| matches!(n, Note::ArrowActivated { .. })));
    let states: Vec<ArrowState> = t.game.arrows().iter().map(|a| a.state).collect();
    assert_eq!(states, vec![ArrowState::Activated, ArrowState::Spent]);
    assert_eq!(t.game.arrows()[1].to_owned().target, Some(p(0, -1)));
}

#[test]
fn interpretation_an_arrow_pointing_off_the_edge_of_the_board_points_at_no_tile() {
    // Given a start tile on the eastern edge of the coordinate plane
    let mut t = anniversary_table_at(2, &[("20H", 1), ("B", 1)], p(i32::MAX, 0));
    t.draw("20H").unwrap();
    // When 20H's arrow points east, off the board
    t.place(i32::MAX, -1, 0).unwrap();
    // Then it scores 2 [I] and can never be activated
    assert_eq!(t.scores(), vec![2, 0]);
    assert_eq!(
        t.fx.scores[0].formula,
        "arrow points off the board, at no tile: +2"
    );
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::ArrowNoTile {
            off_board: true,
            ..
        }
    )));
    assert_eq!(t.game.arrows()[0].target, None);
    assert_eq!(t.game.arrows()[0].state, ArrowState::Spent);
}

// ---- Companion -------------------------------------------------------------------------------

/// Seat 0 holds the city D+N (meeple at (0,1)); seat 1 holds the separate city of J at
/// (-1,0); seat 0 then puts 20E south of D with its companion arrow pointing north at D.
fn companion_table() -> Table {
    let mut t = anniversary_table(2, &[("N", 2), ("J", 1), ("20E", 1), ("20A", 1), ("B", 3)]);
    t.turn("N", 0, 1, 180, Some("city S"));
    t.turn("J", -1, 0, 0, Some("city N"));
    t.draw("20E").unwrap();
    t.place(0, -1, 180).unwrap();
    t
}

#[test]
fn companion_a_meeple_beside_your_own_meeple_anywhere_counts_for_majority() {
    // Given the companion arrow activated for seat 0
    let mut t = companion_table();
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Companion));
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    let offered: Vec<String> = spots
        .iter()
        .map(|s| format!("{} {}", s.at, s.label.code()))
        .collect();
    assert_eq!(offered, vec!["(0,1) city S"]);
    // When seat 0 puts a meeple beside its meeple on the city, far from the tile just placed
    t.arrow_meeple(ArrowSymbol::Companion, 0, 1, "city S")
        .unwrap();
    // Then the city holds two of seat 0's meeples, the turn is over, supply is 5
    assert!(has(&t.fx, |n| matches!(n, Note::CompanionPlaced { .. })));
    assert_eq!(t.game.supply(), &[5, 6]);
    assert_eq!(t.game.current_player(), 1);
    let standing = t.game.appraise(p(0, 1), 0).unwrap();
    assert_eq!(standing.meeples, vec![(0, 2)]);
    // When seat 1 joins its city (one meeple) to it, completing it
    let fx = t.turn("N", -1, 1, 90, None);
    // Then only seat 0, with two meeples against one, scores the 4-tile city
    let city = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::City)
        .unwrap();
    assert_eq!(city.meeples, vec![(0, 2), (1, 1)]);
    assert_eq!(city.winners, vec![0]);
    assert_eq!(city.points, 8);
    assert_eq!(t.game.supply(), &[7, 7]);
}

#[test]
fn companion_never_a_third_meeple_beside_two_that_stand_together_through_it() {
    // Given seat 0's pair on the city at (0,1), made by a companion
    let mut t = companion_table();
    t.arrow_meeple(ArrowSymbol::Companion, 0, 1, "city S")
        .unwrap();
    t.turn("B", 1, 1, 0, None);
    // When seat 0 activates a second companion arrow (20A's, pointing west at 20E)
    t.draw("20A").unwrap();
    t.place(1, -1, 90).unwrap();
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Companion));
    // Then the pair offers no target, and a third meeple beside it is refused with the facts
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    assert!(spots.is_empty());
    let err = t
        .arrow_meeple(ArrowSymbol::Companion, 0, 1, "city S")
        .unwrap_err();
    assert_eq!(err.rule(), "anniversary.companion.limit");
    assert_eq!(
        err.to_string(),
        "companion: seat 0's meeple on city S at (0,1) already stands beside another through a companion; no third meeple may join them"
    );
    // And beside an opponent's meeple is no companion either
    let err = t
        .arrow_meeple(ArrowSymbol::Companion, -1, 0, "city N")
        .unwrap_err();
    assert_eq!(err.rule(), "anniversary.companion");
    assert_eq!(
        err.to_string(),
        "companion: seat 0 has no meeple on city N at (-1,0) to stand beside"
    );
    assert_eq!(t.game.phase(), Phase::Meeple { at: p(1, -1) });
    // But the normal meeple on the tile just placed is still open
    t.meeple(Some("road S")).unwrap();
}

#[test]
fn companion_beside_a_monk_is_a_monk() {
    // Given seat 0's monk on B at (0,-1)
    let mut t = anniversary_table(2, &[("B", 2), ("U", 1), ("20E", 1)]);
    t.turn("B", 0, -1, 0, Some("monastery"));
    t.turn("U", 1, 0, 90, None);
    // When seat 0's 20E points west at B and the companion joins the monk
    t.draw("20E").unwrap();
    t.place(1, -1, 90).unwrap();
    t.arrow_meeple(ArrowSymbol::Companion, 0, -1, "monastery")
        .unwrap();
    // Then the monastery holds two monks of seat 0
    let standing = t.game.appraise(p(0, -1), 0).unwrap();
    assert_eq!(standing.kind, FeatureKind::Monastery);
    assert_eq!(standing.meeples, vec![(0, 2)]);
    let monks = t
        .game
        .meeples()
        .filter(|m| m.1 == p(0, -1) && m.3.kind == FeatureKind::Monastery)
        .count();
    assert_eq!(monks, 2);
}

#[test]
fn companion_is_unavailable_without_a_meeple_on_the_board_or_in_supply() {
    // Given no meeple of seat 0 on the board
    let mut t = anniversary_table(2, &[("20E", 1), ("B", 1)]);
    t.draw("20E").unwrap();
    t.place(0, -1, 180).unwrap();
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Companion));
    // Then there is no companion target, and naming one is refused
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    assert!(spots.is_empty());
    let err = t
        .arrow_meeple(ArrowSymbol::Companion, 0, 0, "city N")
        .unwrap_err();
    assert_eq!(err.rule(), "anniversary.companion");

    // Given a meeple on the board but an empty supply (one meeple per player)
    let tiles = TileSet::combine(&[TileSet::base(), TileSet::anniversary()]).unwrap();
    let mut game = Game::new(Setup {
        players: 2,
        options: Options {
            anniversary: true,
            meeples: 1,
            ..Options::default()
        },
        tiles: std::sync::Arc::new(tiles),
        bag: Some(
            [("D", 1), ("U", 2), ("20E", 1)]
                .map(|(k, v)| (k.to_string(), v))
                .into(),
        ),
        map: None,
    })
    .unwrap();
    let mut fx = Effects::default();
    let id = |g: &Game, s: &str| g.tiles().find(s).unwrap();
    let d = id(&game, "D");
    game.apply(
        &Action::PlaceStart {
            tile: d,
            at: p(0, 0),
            rotation: rot(0),
        },
        &mut fx,
    )
    .unwrap();
    for (tile, at, degrees, meeple) in [("U", p(1, 0), 90, true), ("U", p(-1, 0), 90, false)] {
        let tile = id(&game, tile);
        game.apply(&Action::Draw { tile }, &mut fx).unwrap();
        game.apply(
            &Action::Place {
                at,
                rotation: rot(degrees),
            },
            &mut fx,
        )
        .unwrap();
        let action = if meeple {
            Action::PlaceMeeple { segment: 0 }
        } else {
            Action::SkipMeeple
        };
        game.apply(&action, &mut fx).unwrap();
    }
    assert_eq!(game.supply(), &[0, 1]);
    let e = id(&game, "20E");
    game.apply(&Action::Draw { tile: e }, &mut fx).unwrap();
    game.apply(
        &Action::Place {
            at: p(0, -1),
            rotation: rot(180),
        },
        &mut fx,
    )
    .unwrap();
    assert_eq!(game.arrow_action(), Some(ArrowSymbol::Companion));
    // Then the companion offers nothing and is refused for want of a meeple
    let mut spots = Vec::new();
    game.legal_arrow_meeples(&mut spots);
    assert!(spots.is_empty());
    let before = game.clone();
    let err = game
        .apply(
            &Action::PlaceArrowMeeple {
                via: ArrowSymbol::Companion,
                at: p(1, 0),
                segment: 0,
            },
            &mut fx,
        )
        .unwrap_err();
    assert_eq!(err.rule(), "base.meeple.supply");
    assert_eq!(game.phase(), before.phase());
    assert_eq!(game.supply(), before.supply());
}

#[test]
fn interpretation_a_companion_may_join_a_meeple_on_a_feature_this_turn_completes() {
    // Given seat 0's meeple on the road D–U, closed in the east by the junction W at (2,0),
    // and seat 1's 20E at (-1,-1) whose companion arrow points north at the empty (-1,0)
    let mut t = anniversary_table(2, &[("U", 1), ("W", 1), ("B", 2), ("20E", 1), ("A", 1)]);
    t.turn("U", 1, 0, 90, Some("road W"));
    t.turn("W", 2, 0, 0, None);
    t.turn("B", 0, -1, 0, None);
    t.turn("20E", -1, -1, 180, None);
    assert_eq!(t.scores(), vec![0, 2]);
    // When seat 0 fills (-1,0) with A, whose road ends the road D–U in the west
    t.draw("A").unwrap();
    t.place(-1, 0, 270).unwrap();
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::Completed {
            kind: FeatureKind::Road,
            ..
        }
    )));
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Companion));
    // Then the companion may still join the meeple on the road it completes [I] …
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    assert_eq!(spots.len(), 1);
    t.arrow_meeple(ArrowSymbol::Companion, 1, 0, "road E")
        .unwrap();
    // … and both meeples are counted when the road scores at the end of the turn, then return
    let road = &t.fx.scores[0];
    assert_eq!(road.meeples, vec![(0, 2)]);
    assert_eq!(road.points, 4);
    assert_eq!(t.scores(), vec![4, 2]);
    assert_eq!(t.game.supply(), &[7, 7]);
}

#[test]
fn an_arrow_meeple_needs_that_symbol_activated_this_turn() {
    // Given the portal activated
    let mut t = anniversary_table(2, &[("20H", 1), ("B", 1)]);
    t.draw("20H").unwrap();
    t.place(0, -1, 270).unwrap();
    // When a companion is asked for
    let err = t
        .arrow_meeple(ArrowSymbol::Companion, 0, 0, "city N")
        .unwrap_err();
    // Then it is refused: the activated arrow is a portal
    assert_eq!(err.rule(), "anniversary.arrow.activated");
    assert_eq!(
        err.to_string(),
        "no companion arrow was activated this turn (the activated arrow is a portal arrow)"
    );
    // And with no arrow activated at all, neither action exists
    let mut t = anniversary_table(2, &[("B", 1), ("E", 1)]);
    t.draw("B").unwrap();
    t.place(0, -1, 0).unwrap();
    let err = t
        .arrow_meeple(ArrowSymbol::Portal, 0, 0, "city N")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "no portal arrow was activated this turn (no arrow was activated)"
    );
}

// ---- Portal ----------------------------------------------------------------------------------

#[test]
fn portal_a_meeple_on_any_unoccupied_incomplete_feature_anywhere() {
    // Given the portal activated by 20H south of D
    let mut t = anniversary_table(2, &[("20H", 1), ("B", 1)]);
    t.draw("20H").unwrap();
    t.place(0, -1, 270).unwrap();
    // Then every feature of the board is offered once: D's city, road and two fields
    // (the field south of D joined 20H's), and 20H's monastery
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    let offered: Vec<String> = spots
        .iter()
        .map(|s| format!("{} {}", s.at, s.label.code()))
        .collect();
    assert_eq!(
        offered,
        vec![
            "(0,0) city N",
            "(0,0) road E",
            "(0,0) field En",
            "(0,0) field Es",
            "(0,-1) monastery"
        ]
    );
    // When seat 0 sends its meeple to D's city
    t.arrow_meeple(ArrowSymbol::Portal, 0, 0, "city N").unwrap();
    // Then it stands there and the turn is over
    assert!(has(&t.fx, |n| matches!(n, Note::PortalPlaced { .. })));
    let meeples: Vec<(u8, Pos, String)> = t
        .game
        .meeples()
        .map(|(pl, at, _, l)| (pl, at, l.to_string()))
        .collect();
    assert_eq!(meeples, vec![(0, p(0, 0), "city N".to_string())]);
    assert_eq!(t.game.current_player(), 1);
}

#[test]
fn portal_unoccupied_means_the_whole_connected_feature_holds_no_meeple() {
    // Given seat 0's meeple on the road east of D (U at (1,0))
    let mut t = anniversary_table(2, &[("U", 1), ("20H", 1), ("B", 1)]);
    t.turn("U", 1, 0, 90, Some("road W"));
    // When seat 1 activates a portal and names D's part of that road
    t.draw("20H").unwrap();
    t.place(0, -1, 270).unwrap();
    let err = t
        .arrow_meeple(ArrowSymbol::Portal, 0, 0, "road W")
        .unwrap_err();
    // Then it is refused with the owner and where its meeple stands
    assert_eq!(err.rule(), "anniversary.portal.unoccupied");
    assert_eq!(
        err.to_string(),
        "portal target already occupied: the road joined to road E at (0,0) holds seat 0's meeple on road E at (1,0)"
    );
    assert_eq!(t.game.phase(), Phase::Meeple { at: p(0, -1) });
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    assert!(spots.iter().all(|s| s.label.kind != FeatureKind::Road));
}

#[test]
fn portal_fields_count_as_incomplete() {
    // Given the portal activated (fields have no completion in the rules)
    let mut t = anniversary_table(2, &[("20H", 1), ("B", 1)]);
    t.draw("20H").unwrap();
    t.place(0, -1, 270).unwrap();
    // When the meeple goes to the field north of D's road, far from 20H
    t.arrow_meeple(ArrowSymbol::Portal, 0, 0, "field Wn")
        .unwrap();
    // Then it is a farmer there
    let (_, at, _, label) = t.game.meeples().next().unwrap();
    assert_eq!((at, label.code()), (p(0, 0), "field En".to_string()));
}

#[test]
fn interpretation_portal_onto_a_feature_this_turn_completes_is_refused() {
    // Given U east of D and seat 1's 20H at (1,1) pointing west at the empty (0,1)
    let mut t = anniversary_table(2, &[("U", 1), ("20H", 1), ("E", 1), ("B", 1)]);
    t.turn("U", 1, 0, 90, None);
    t.turn("20H", 1, 1, 180, None);
    // When seat 0 fills (0,1) with E, which completes the two-tile city with D
    t.draw("E").unwrap();
    t.place(0, 1, 180).unwrap();
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::Completed {
            kind: FeatureKind::City,
            ..
        }
    )));
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Portal));
    // Then the portal may not go onto that city [I] (a normal meeple still could)
    let err = t
        .arrow_meeple(ArrowSymbol::Portal, 0, 1, "city S")
        .unwrap_err();
    assert_eq!(err.rule(), "anniversary.portal.incomplete");
    assert_eq!(
        err.to_string(),
        "portal target city S at (0,1) belongs to a completed city; the portal reaches only incomplete features"
    );
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    assert!(spots.iter().all(|s| s.label.kind != FeatureKind::City));
    let mut normal = Vec::new();
    t.game.legal_meeples(&mut normal);
    assert!(normal.iter().any(|s| s.label.kind == FeatureKind::City));
    // And it may go onto the open road D–U
    t.arrow_meeple(ArrowSymbol::Portal, 1, 0, "road W").unwrap();
}

#[test]
fn portal_reaches_a_monastery() {
    let mut t = anniversary_table(2, &[("B", 1), ("U", 1), ("20H", 1), ("E", 1)]);
    t.turn("B", 0, -1, 0, None);
    t.turn("U", 1, 0, 90, None);
    // 20H at (1,-1) turned 180° points west at B
    t.draw("20H").unwrap();
    t.place(1, -1, 180).unwrap();
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Portal));
    t.arrow_meeple(ArrowSymbol::Portal, 0, -1, "monastery")
        .unwrap();
    assert_eq!(t.game.appraise(p(0, -1), 0).unwrap().meeples, vec![(0, 1)]);
}

#[test]
fn the_arrow_meeple_generator_agrees_with_the_validator_on_every_segment() {
    // A position with meeples of both seats, then a portal for seat 0
    let mut t = anniversary_table(2, &[("U", 2), ("B", 1), ("20H", 1), ("E", 1)]);
    t.turn("U", 1, 0, 90, Some("road W"));
    t.turn("B", 0, -1, 0, Some("monastery"));
    t.turn("U", -1, 0, 90, None);
    t.draw("20H").unwrap();
    t.place(1, -1, 270).unwrap();
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Portal));
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    let mut accepted_features = Vec::new();
    for tile in t.game.placed().to_vec() {
        let count = t.game.tiles().get(tile.tile).segments.len() as u8;
        for segment in 0..count {
            let mut g = t.game.clone();
            let mut fx = Effects::default();
            let ok = g
                .apply(
                    &Action::PlaceArrowMeeple {
                        via: ArrowSymbol::Portal,
                        at: tile.at,
                        segment,
                    },
                    &mut fx,
                )
                .is_ok();
            let feature = t.game.feature_segments(tile.at, segment);
            let listed = spots.iter().any(|s| {
                let label = t
                    .game
                    .tiles()
                    .get(t.game.tile_at(s.at).unwrap().tile)
                    .segment_label(t.game.tile_at(s.at).unwrap().rotation, s.segment);
                feature.contains(&(s.at, label))
            });
            assert_eq!(ok, listed, "{} segment {segment}", tile.at);
            if ok {
                accepted_features.push(feature);
            }
        }
    }
    accepted_features.sort_by_key(|f| format!("{f:?}"));
    accepted_features.dedup();
    assert_eq!(accepted_features.len(), spots.len());
}

// ---- Extra turn ------------------------------------------------------------------------------

#[test]
fn extra_turn_the_same_player_takes_one_more_full_turn_after_scoring() {
    // Given 20O south of D turned 270°: its extra-turn arrow points north at D
    let mut t = anniversary_table(2, &[("20O", 1), ("E", 1), ("B", 2)]);
    t.draw("20O").unwrap();
    t.place(0, -1, 270).unwrap();
    assert!(t.game.extra_turn_pending());
    assert!(has(&t.fx, |n| *n == Note::ExtraTurnGranted));
    // When seat 0 finishes the turn (meeple, scoring)
    t.meeple(None).unwrap();
    // Then seat 0 plays again: a new turn, marked as an extra turn
    assert!(has(&t.fx, |n| *n == Note::ExtraTurnBegins { seat: 0 }));
    assert_eq!(t.game.current_player(), 0);
    assert_eq!(t.game.turn(), 2);
    assert!(t.game.is_extra_turn());
    assert_eq!(t.game.phase(), Phase::Draw);
    // And it is a full turn: draw, place, meeple and scoring (E completes the city with D)
    let fx = t.turn("E", 0, 1, 180, Some("city S"));
    assert_eq!(fx.scores.len(), 1);
    assert_eq!(t.scores(), vec![4, 0]);
    // Then seat 1 is next
    assert_eq!(t.game.current_player(), 1);
    assert!(!t.game.is_extra_turn());
}

#[test]
fn extra_turn_never_three_consecutive_turns() {
    // Given seat 0's extra turn
    let mut t = anniversary_table(2, &[("20O", 1), ("20M", 1), ("B", 2)]);
    t.turn("20O", 0, -1, 270, None);
    assert!(t.game.is_extra_turn());
    // When seat 0 activates another extra-turn arrow in it (20M east of D, arrow west at D)
    t.draw("20M").unwrap();
    t.place(1, 0, 270).unwrap();
    // Then it is activated but gives nothing
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::ArrowActivated {
            symbol: ArrowSymbol::ExtraTurn,
            ..
        }
    )));
    let denied =
        t.fx.notes
            .iter()
            .find(|n| **n == Note::ExtraTurnDenied)
            .unwrap();
    assert_eq!(denied.rule(), "anniversary.extra-turn.limit");
    assert!(!t.game.extra_turn_pending());
    t.meeple(None).unwrap();
    // And seat 1 plays next
    assert_eq!(t.game.current_player(), 1);
    assert!(has(&t.fx, |n| *n == Note::NextPlayer { seat: 1 }));
}

#[test]
fn extra_turn_the_other_symbols_still_work_during_it() {
    // Given seat 0's extra turn
    let mut t = anniversary_table(2, &[("20O", 1), ("20H", 1), ("B", 1)]);
    t.turn("20O", 0, -1, 270, None);
    assert!(t.game.is_extra_turn());
    // When seat 0 puts 20H south of 20O pointing north at it
    t.draw("20H").unwrap();
    t.place(0, -2, 270).unwrap();
    // Then the portal works as usual
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Portal));
    t.arrow_meeple(ArrowSymbol::Portal, 0, 0, "city N").unwrap();
    assert_eq!(t.game.current_player(), 1);
}

#[test]
fn extra_turn_on_the_last_tile_the_game_simply_ends() {
    let mut t = anniversary_table(2, &[("20O", 1)]);
    t.turn("20O", 0, -1, 270, None);
    assert!(t.game.is_over());
    assert!(has(&t.fx, |n| *n == Note::BagEmpty));
    assert!(!has(&t.fx, |n| matches!(n, Note::ExtraTurnBegins { .. })));
}

// ---- Final scoring ---------------------------------------------------------------------------

#[test]
fn features_holding_arrow_tiles_score_by_the_normal_rules_at_the_end() {
    // Given 20A (city N, road E–W, companion arrow S) east of D, claimed on its city, as the
    // last tile of the bag
    let mut t = anniversary_table(2, &[("20A", 1)]);
    let fx = t.turn("20A", 1, 0, 0, Some("city N"));
    // Then the arrow pointed at no tile (+2), and the final scoring values the open city of
    // the arrow tile as any other: 1 per tile
    assert!(t.game.is_over());
    let city = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::City && s.source == ScoreSource::Feature)
        .unwrap();
    assert_eq!(city.rule, "base.score.city.final");
    assert_eq!(city.tiles, vec![p(1, 0)]);
    assert_eq!(city.points, 1);
    assert_eq!(t.scores(), vec![3, 0]);
}

// ---- Legal placements with arrows ------------------------------------------------------------

#[test]
fn an_arrow_tile_lists_every_rotation_even_when_its_terrain_is_symmetric() {
    let mut t = anniversary_table(2, &[("20O", 1), ("B", 1)]);
    t.draw("20O").unwrap();
    let mut out = Vec::new();
    t.game.legal_placements(t.id("20O"), &mut out);
    // Only (0,-1) takes an all-field tile; four rotations, four arrow directions
    assert_eq!(out.len(), 4);
    let mut b = Vec::new();
    t.game.legal_placements(t.id("B"), &mut b);
    assert_eq!(b.len(), 1, "B is symmetric and has no arrow");
}
