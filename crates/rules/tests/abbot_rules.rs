//! One test per worked example, rule and interpretation of The Abbot and gardens
//! (`shared/rules/abbot.md`), given/when/then on small hand-built boards.
//!
//! Every position starts from the start tile D at (0,0), rotation 0: city N, road W–E, field
//! S. Tiles used (base set split by `with_gardens`, rotation clockwise): `E+garden` at 180° is
//! a garden copy of E with its city S and fields N, E and W; B a monastery in a field; U at
//! 90° a straight road W–E; E at 0° a city N in a field.

mod common;

use carc_rules::*;
use common::*;

fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

fn abbot(players: u8, bag: &[(&str, u16)]) -> Table {
    abbot_table(players, bag, Options::default())
}

/// The local segment `label` names on the tile at `at`.
fn seg(t: &Table, at: Pos, label: &str) -> u8 {
    let label: SegmentLabel = label.parse().unwrap();
    let placed = t.game.tile_at(at).unwrap();
    t.game
        .tiles()
        .get(placed.tile)
        .find_segment(placed.rotation, &label)
        .unwrap()
}

fn place_abbot(t: &mut Table, at: Pos, label: &str, portal: bool) -> Result<(), RuleViolation> {
    let segment = seg(t, at, label);
    t.game.apply(
        &Action::PlaceAbbot {
            at,
            segment,
            portal,
        },
        &mut t.fx,
    )
}

/// Draws and places a tile; the meeple step is left to the test.
fn put(t: &mut Table, tile: &str, x: i32, y: i32, degrees: u32) -> Effects {
    t.draw(tile).unwrap_or_else(|e| panic!("draw {tile}: {e}"));
    t.place(x, y, degrees)
        .unwrap_or_else(|e| panic!("place {tile} at ({x},{y}): {e}"));
    t.fx.clone()
}

fn has(fx: &Effects, f: impl Fn(&Note) -> bool) -> bool {
    fx.notes.iter().any(f)
}

// ---- Contents and setup ----------------------------------------------------------------------

#[test]
fn garden_copies_are_tiles_of_their_own() {
    // Given the base set as played with the abbot
    let base = TileSet::base();
    let split = base.with_gardens();
    // Then each of the eight letters with a garden has a plain tile and a garden copy
    for letter in ["E", "H", "I", "M", "N", "R", "U", "V"] {
        let plain = split.get(split.find(letter).unwrap());
        let garden = split.get(split.find(&format!("{letter}+garden")).unwrap());
        let whole = base.get(base.find(letter).unwrap());
        assert_eq!(plain.count + garden.count, whole.count, "{letter}");
        assert_eq!(garden.count, 1, "{letter}");
        assert!(plain.garden_segment().is_none());
        let g = garden.garden_segment().expect("a garden segment");
        assert_eq!(garden.segments[g as usize].kind, FeatureKind::Garden);
        assert_eq!(garden.segments.len(), whole.segments.len() + 1);
        // The edges are the plain tile's: it fits wherever the plain copy fits
        assert_eq!(garden.edges, whole.edges);
    }
    // And the set still holds 72 tiles, the start tile plain
    assert_eq!(split.total_count(), 72);
    assert_eq!(split.len(), base.len() + 8);
    assert_eq!(split.get(split.start_tile().unwrap()).id, "D");
    // And splitting twice changes nothing
    assert_eq!(split.with_gardens(), split);
}

#[test]
fn garden_copies_without_the_abbot_are_refused() {
    // Given the split set with the abbot off
    // When the game is set up
    let err = refused_setup(Options::default(), TileSet::base().with_gardens(), None);
    // Then the garden copies are named and the option is the rule
    assert_eq!(err.rule(), "abbot.option");
    assert!(err.to_string().contains("E+garden"), "{err}");
}

#[test]
fn the_abbot_is_not_a_meeple() {
    // Given a game with the abbot
    let t = abbot(2, &[("B", 1)]);
    // Then each player keeps 7 meeples and an abbot beside them
    assert_eq!(t.game.supply(), &[7, 7]);
    assert!(t.game.abbot_in_supply(0) && t.game.abbot_in_supply(1));
    assert_eq!(t.game.abbots().count(), 0);
    // And without the option nobody has one
    let plain = table(2, &[("B", 1)]);
    assert!(!plain.game.abbot_in_supply(0));
}

// ---- Worked examples ------------------------------------------------------------------------

#[test]
fn example_1_abbot_on_a_garden_eight_neighbours_arrive_nine_points_and_back() {
    // Given seat 0's abbot on the garden of E+garden south of D
    let mut t = abbot(2, &[("E+garden", 1), ("U", 3), ("B", 4), ("E", 1)]);
    put(&mut t, "E+garden", 0, -1, 180);
    place_abbot(&mut t, p(0, -1), "garden", false).unwrap();
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::AbbotPlaced { portal: false, .. }
    )));
    assert_eq!(
        t.game.abbot_of(0).map(|(at, l)| (at, l.to_string())),
        Some((p(0, -1), "garden".to_string()))
    );
    assert_eq!(t.game.supply(), &[7, 7]);
    // When the eight squares around it fill (D is the first)
    t.turn("U", -1, 0, 90, None);
    t.turn("U", 1, 0, 90, None);
    t.turn("B", -1, -1, 0, None);
    t.turn("B", 1, -1, 0, None);
    t.turn("B", -1, -2, 0, None);
    let fx = t.turn("B", 1, -2, 0, None);
    assert!(fx.scores.iter().all(|s| s.kind != FeatureKind::Garden));
    let fx = t.turn("E", 0, -2, 0, None);
    // Then the garden scores 9 for seat 0 at once and the abbot goes back
    let s = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Garden)
        .expect("the garden scored");
    assert_eq!(s.time, ScoreTime::Completed);
    assert_eq!(s.points, 9);
    assert_eq!(s.winners, vec![0]);
    assert_eq!(s.rule, "abbot.score.garden.completed");
    assert_eq!(s.formula, "1 for the garden + 8 surrounding tiles = 9");
    assert_eq!(t.scores(), vec![9, 0]);
    assert!(fx.returned.iter().any(|r| r.abbot && r.player == 0));
    assert!(t.game.abbot_in_supply(0));
}

#[test]
fn example_2_abbot_taken_back_with_five_tiles_scores_five_and_no_meeple_that_turn() {
    // Given seat 0's abbot on B south of D, with U west and east of D and B south-west
    let mut t = abbot(2, &[("B", 2), ("U", 4)]);
    put(&mut t, "B", 0, -1, 0);
    place_abbot(&mut t, p(0, -1), "monastery", false).unwrap();
    t.turn("U", -1, 0, 90, None);
    t.turn("U", 1, 0, 90, None);
    t.turn("B", -1, -1, 0, None);
    // When seat 0 places U away from it and takes the abbot back instead of a meeple
    put(&mut t, "U", 2, 0, 90);
    let mut moves = Vec::new();
    t.game.legal_abbot_moves(&mut moves);
    assert_eq!(
        moves,
        vec![AbbotMove::TakeBack {
            at: p(0, -1),
            label: "monastery".parse().unwrap()
        }]
    );
    t.game.apply(&Action::TakeBackAbbot, &mut t.fx).unwrap();
    // Then it scores 1 + 4 neighbours = 5 at once (during play, not in the final scoring),
    // back in supply, and the turn is over
    let s = &t.fx.scores[0];
    assert_eq!(s.source, ScoreSource::AbbotTakenBack);
    assert_eq!(s.time, ScoreTime::Completed);
    assert_eq!(s.points, 5);
    assert_eq!(s.winners, vec![0]);
    assert_eq!(s.rule, "abbot.take-back");
    assert_eq!(s.formula, "1 + 4 neighbours = 5");
    assert!(has(&t.fx, |n| matches!(n, Note::AbbotTakenBack { .. })));
    assert_eq!(t.scores(), vec![5, 0]);
    assert!(t.game.abbot_in_supply(0));
    assert_eq!(t.game.supply(), &[7, 7]);
    assert_eq!(t.game.meeples().count(), 0);
    assert_eq!(t.game.current_player(), 1);
    assert_eq!(t.game.phase(), Phase::Draw);
}

#[test]
fn interpretation_no_take_back_from_a_garden_the_tile_just_placed_completes() {
    // Given seat 0's abbot on the garden south of D, seven of its eight squares filled
    let mut t = abbot(2, &[("E+garden", 1), ("U", 4), ("B", 4), ("E", 1)]);
    put(&mut t, "E+garden", 0, -1, 180);
    place_abbot(&mut t, p(0, -1), "garden", false).unwrap();
    t.turn("U", -1, 0, 90, None);
    t.turn("U", 1, 0, 90, None);
    t.turn("B", -1, -1, 0, None);
    t.turn("B", 1, -1, 0, None);
    t.turn("B", -1, -2, 0, None);
    t.turn("B", 1, -2, 0, None);
    t.turn("U", 2, 0, 90, None);
    // When seat 0 places the eighth tile around it
    put(&mut t, "E", 0, -2, 0);
    // Then taking the abbot back is not offered (the meeple step still offers a meeple)
    let mut moves = Vec::new();
    t.game.legal_abbot_moves(&mut moves);
    assert_eq!(moves, vec![]);
    let mut spots = Vec::new();
    t.game.legal_meeples(&mut spots);
    assert!(!spots.is_empty());
    // And asking for it is refused, the state left as it was
    let err = t.game.apply(&Action::TakeBackAbbot, &mut t.fx).unwrap_err();
    assert_eq!(err.rule(), "abbot.take-back");
    assert_eq!(
        err.to_string(),
        "the abbot on the garden at (0,-1) cannot be taken back: the tile just placed completes \
         the garden, which scores as completed this turn and sends the abbot home"
    );
    assert_eq!(t.game.phase(), Phase::Meeple { at: p(0, -2) });
    assert_eq!(t.game.abbot_of(0).map(|a| a.0), Some(p(0, -1)));
    assert_eq!(t.scores(), vec![0, 0]);
    // When seat 0 places no meeple
    t.meeple(None).unwrap();
    // Then the garden scores 9 as completed and the abbot comes home
    let s =
        t.fx.scores
            .iter()
            .find(|s| s.kind == FeatureKind::Garden)
            .expect("the garden scored");
    assert_eq!(
        (s.time, s.points, s.source),
        (ScoreTime::Completed, 9, ScoreSource::Feature)
    );
    assert_eq!(t.scores(), vec![9, 0]);
    assert!(t.game.abbot_in_supply(0));
}

#[test]
fn example_3_abbot_on_a_garden_with_three_neighbours_at_the_end_scores_four() {
    // Given seat 0's abbot on the garden south of D, U west and east of D
    let mut t = abbot(2, &[("E+garden", 1), ("U", 2)]);
    put(&mut t, "E+garden", 0, -1, 180);
    place_abbot(&mut t, p(0, -1), "garden", false).unwrap();
    t.turn("U", -1, 0, 90, None);
    // When the last tile is placed
    let fx = t.turn("U", 1, 0, 90, None);
    // Then final scoring gives 1 + 3 = 4 for the garden
    assert!(t.game.is_over());
    let s = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Garden)
        .unwrap();
    assert_eq!(s.time, ScoreTime::Final);
    assert_eq!(s.points, 4);
    assert_eq!(s.rule, "abbot.score.garden.final");
    assert_eq!(s.formula, "1 for the garden + 3 surrounding tiles = 4");
    assert_eq!(t.scores(), vec![4, 0]);
}

#[test]
fn example_3_quiet_effects_score_the_garden_the_same() {
    // Given the same game applied with quiet effects (rebuilds, simulations)
    let mut t = abbot(2, &[("E+garden", 1), ("U", 2)]);
    t.fx = Effects::quiet();
    put(&mut t, "E+garden", 0, -1, 180);
    place_abbot(&mut t, p(0, -1), "garden", false).unwrap();
    t.turn("U", -1, 0, 90, None);
    t.turn("U", 1, 0, 90, None);
    // Then the points are the same
    assert_eq!(t.scores(), vec![4, 0]);
}

#[test]
fn example_4_no_meeple_on_a_garden_and_no_abbot_on_road_city_or_field() {
    // Given E+garden just placed south of D
    let mut t = abbot(2, &[("E+garden", 1), ("U", 1)]);
    put(&mut t, "E+garden", 0, -1, 180);
    // Then the garden is not a meeple target
    let mut spots = Vec::new();
    t.game.legal_meeples(&mut spots);
    assert!(spots.iter().all(|s| s.label.kind != FeatureKind::Garden));
    assert!(!spots.is_empty());
    // When a meeple is put on the garden anyway
    let garden = seg(&t, p(0, -1), "garden");
    let err = t
        .game
        .apply(&Action::PlaceMeeple { segment: garden }, &mut t.fx)
        .unwrap_err();
    // Then it is refused
    assert_eq!(err.rule(), "abbot.garden");
    assert_eq!(
        err.to_string(),
        "only the abbot may stand on a garden: no meeple on the garden at (0,-1)"
    );
    // And the abbot is refused on the city and the field (named for people: by its corner)
    for (label, said) in [("city S", "city S"), ("field Nw", "field, north-west")] {
        let err = place_abbot(&mut t, p(0, -1), label, false).unwrap_err();
        assert_eq!(err.rule(), "abbot.garden", "{label}");
        assert!(err.to_string().contains(said), "{err}");
    }
    // And on a road (D's, not the tile just placed, is refused first for the square)
    let err = place_abbot(&mut t, p(0, 0), "road E", false).unwrap_err();
    assert_eq!(err.rule(), "abbot.place");
    // And the state is unchanged: the garden is still the abbot's to take
    let mut moves = Vec::new();
    t.game.legal_abbot_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert!(matches!(moves[0], AbbotMove::Place { portal: false, .. }));
}

#[test]
fn example_4_the_abbot_on_a_road_of_the_tile_just_placed_is_refused() {
    // Given U just placed east of D
    let mut t = abbot(2, &[("U", 1), ("B", 1)]);
    put(&mut t, "U", 1, 0, 90);
    // When the abbot is put on its road
    let err = place_abbot(&mut t, p(1, 0), "road W", false).unwrap_err();
    // Then it is refused, and no abbot move is offered on a tile without monastery or garden
    assert_eq!(err.rule(), "abbot.garden");
    let mut moves = Vec::new();
    t.game.legal_abbot_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn example_5_portal_places_the_abbot_on_a_distant_unoccupied_monastery() {
    // Given B at (2,-1), far from the square where the portal tile 20H lands
    let mut t = abbot_table(
        2,
        &[("U", 2), ("B", 1), ("20H", 1), ("E", 1)],
        Options {
            anniversary: true,
            ..Options::default()
        },
    );
    t.turn("U", 1, 0, 90, None);
    t.turn("U", 2, 0, 90, None);
    t.turn("B", 2, -1, 0, None);
    // When seat 1 places 20H south of D, its arrow at D activating the portal
    put(&mut t, "20H", 0, -1, 270);
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Portal));
    // Then the abbot may go on 20H's own monastery or, through the portal, on B's
    let mut moves = Vec::new();
    t.game.legal_abbot_moves(&mut moves);
    let offered: Vec<(Pos, bool)> = moves
        .iter()
        .map(|m| match m {
            AbbotMove::Place { at, portal, .. } => (*at, *portal),
            AbbotMove::TakeBack { .. } => panic!("nothing to take back"),
        })
        .collect();
    assert_eq!(
        offered,
        vec![(p(0, -1), false), (p(2, -1), true), (p(0, -1), true)]
    );
    // When the abbot goes to B through the portal
    place_abbot(&mut t, p(2, -1), "monastery", true).unwrap();
    // Then it stands there and the turn is over
    assert!(has(&t.fx, |n| matches!(
        n,
        Note::AbbotPlaced { portal: true, .. }
    )));
    assert_eq!(t.game.abbot_of(1).map(|a| a.0), Some(p(2, -1)));
    assert_eq!(t.game.supply(), &[7, 7]);
    assert_eq!(t.game.phase(), Phase::Draw);
}

#[test]
fn the_abbot_elsewhere_without_a_portal_is_refused() {
    // Given B at (0,-1) and U just placed east of D, no portal
    let mut t = abbot(2, &[("B", 1), ("U", 1), ("E", 1)]);
    t.turn("B", 0, -1, 0, None);
    put(&mut t, "U", 1, 0, 90);
    // When the abbot is sent to B as if through a portal, or without one
    let err = place_abbot(&mut t, p(0, -1), "monastery", true).unwrap_err();
    assert_eq!(err.rule(), "anniversary.arrow.activated");
    let err = place_abbot(&mut t, p(0, -1), "monastery", false).unwrap_err();
    // Then both are refused
    assert_eq!(err.rule(), "abbot.place");
    assert_eq!(
        err.to_string(),
        "the abbot goes on the tile just placed at (1,0), not at (0,-1) (elsewhere only through an activated portal)"
    );
}

// ---- Placing ---------------------------------------------------------------------------------

#[test]
fn one_abbot_per_player_and_nothing_to_take_back_from_supply() {
    // Given seat 0's abbot on B
    let mut t = abbot(2, &[("B", 3), ("U", 1)]);
    put(&mut t, "B", 0, -1, 0);
    // When seat 0 takes back an abbot still in supply
    let err = t.game.apply(&Action::TakeBackAbbot, &mut t.fx).unwrap_err();
    // Then it is refused
    assert_eq!(err.rule(), "abbot.take-back");
    place_abbot(&mut t, p(0, -1), "monastery", false).unwrap();
    t.turn("U", 1, 0, 90, None);
    // When seat 0 places another monastery and tries its abbot again
    put(&mut t, "B", 1, -1, 0);
    let err = place_abbot(&mut t, p(1, -1), "monastery", false).unwrap_err();
    // Then it is refused: the abbot is on the board
    assert_eq!(err.rule(), "abbot.place");
    assert_eq!(
        err.to_string(),
        "seat 0's abbot is not in their supply: it stands on the monastery at (0,-1)"
    );
    // And a monk may still go on the new monastery
    t.meeple(Some("monastery")).unwrap();
}

#[test]
fn a_monastery_with_an_abbot_is_occupied_for_a_portal_meeple() {
    // Given seat 0's abbot on B at (2,-1)
    let mut t = abbot_table(
        2,
        &[("U", 2), ("B", 1), ("20H", 1), ("E", 1)],
        Options {
            anniversary: true,
            ..Options::default()
        },
    );
    t.turn("U", 1, 0, 90, None);
    t.turn("U", 2, 0, 90, None);
    put(&mut t, "B", 2, -1, 0);
    place_abbot(&mut t, p(2, -1), "monastery", false).unwrap();
    // When seat 1 activates a portal and sends a meeple there
    put(&mut t, "20H", 0, -1, 270);
    let err = t
        .arrow_meeple(ArrowSymbol::Portal, 2, -1, "monastery")
        .unwrap_err();
    // Then it is refused, naming the abbot's owner
    assert_eq!(err.rule(), "anniversary.portal.unoccupied");
    assert!(err.to_string().contains("seat 0"), "{err}");
    // And the portal does not offer the monastery, nor 20H's garden-free field twice
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    assert!(spots.iter().all(|s| s.at != p(2, -1)));
}

#[test]
fn an_abbot_at_the_end_on_a_monastery_scores_like_a_monk() {
    // Given seat 1's abbot on B south of D
    let mut t = abbot(2, &[("U", 1), ("B", 1), ("E", 1)]);
    t.turn("U", 1, 0, 90, None);
    put(&mut t, "B", 0, -1, 0);
    place_abbot(&mut t, p(0, -1), "monastery", false).unwrap();
    // When the game ends with D and U around it
    let fx = t.turn("E", 0, 1, 180, None);
    // Then it scores 1 + 2 = 3 for seat 1
    assert!(t.game.is_over());
    let s = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Monastery)
        .unwrap();
    assert_eq!((s.points, s.winners.clone()), (3, vec![1]));
    assert_eq!(t.scores(), vec![0, 3]);
}

// ---- With the 20th Anniversary and The Gifts -------------------------------------------------

#[test]
fn interpretation_a_companion_cannot_join_an_abbot() {
    // Given seat 0's abbot on B south of D and no meeple of seat 0 on the board
    let mut t = abbot_table(
        2,
        &[("B", 1), ("U", 1), ("20D", 1), ("E", 1)],
        Options {
            anniversary: true,
            ..Options::default()
        },
    );
    put(&mut t, "B", 0, -1, 0);
    place_abbot(&mut t, p(0, -1), "monastery", false).unwrap();
    t.turn("U", 1, 0, 90, None);
    // When seat 0 places 20D west of B, its arrow at B activating the companion
    put(&mut t, "20D", -1, -1, 0);
    assert_eq!(t.game.arrow_action(), Some(ArrowSymbol::Companion));
    // Then nothing is offered beside the abbot, and naming it is refused
    let mut spots = Vec::new();
    t.game.legal_arrow_meeples(&mut spots);
    assert!(spots.is_empty());
    let err = t
        .arrow_meeple(ArrowSymbol::Companion, 0, -1, "monastery")
        .unwrap_err();
    assert_eq!(err.rule(), "anniversary.companion");
}

fn gifts_abbot(bag: &[(&str, u16)]) -> Table {
    abbot_table(
        2,
        bag,
        Options {
            gifts: true,
            ..Options::default()
        },
    )
}

/// Finishes a placement that earned a gift with `card`, then skips the meeple.
fn receive_and_skip(t: &mut Table, card: GiftCard) {
    assert!(matches!(t.game.phase(), Phase::ReceiveGift { .. }));
    t.game
        .apply(&Action::ReceiveGift { card }, &mut t.fx)
        .unwrap();
    t.meeple(None).unwrap();
}

#[test]
fn interpretation_synod_does_not_join_an_abbot() {
    // Given seat 0's road east of D, which seat 1 extends for a Synod, and seat 0's abbot on B
    let mut t = gifts_abbot(&[("U", 3), ("B", 1)]);
    t.turn("U", 1, 0, 90, Some("road W"));
    put(&mut t, "U", 2, 0, 90);
    receive_and_skip(&mut t, GiftCard::Synod);
    put(&mut t, "B", 0, -1, 0);
    place_abbot(&mut t, p(0, -1), "monastery", false).unwrap();
    // When seat 1 draws and looks at its gifts
    t.draw("U").unwrap();
    let mut gifts = Vec::new();
    t.game.legal_gifts(&mut gifts);
    // Then Synod is not offered on the abbot's monastery, and naming it is refused
    assert!(!gifts.contains(&GiftAction::Synod { at: p(0, -1) }));
    let err = t
        .game
        .apply(
            &Action::OpenGift {
                gift: GiftAction::Synod { at: p(0, -1) },
            },
            &mut t.fx,
        )
        .unwrap_err();
    assert_eq!(err.rule(), "abbot.unoccupied");
    assert_eq!(
        err.to_string(),
        "seat 0's abbot stands on the monastery at (0,-1): no meeple may join it (monk and abbot are not mixed)"
    );
}

#[test]
fn interpretation_change_position_never_stands_a_farmer_on_a_garden() {
    // Given seat 1's farmer on the field of E+garden, and a Change Position in seat 1's hand
    let mut t = gifts_abbot(&[("U", 6), ("E+garden", 1)]);
    t.turn("U", 1, 0, 90, Some("road W"));
    t.turn("E+garden", 0, -1, 180, Some("field Nw"));
    t.turn("U", -1, 0, 90, None);
    put(&mut t, "U", 2, 0, 90);
    receive_and_skip(&mut t, GiftCard::ChangePosition);
    t.turn("U", -2, 0, 90, None);
    // When seat 1 opens Change Position to stand the farmer up on the garden
    t.draw("U").unwrap();
    let field = seg(&t, p(0, -1), "field Nw");
    let garden = seg(&t, p(0, -1), "garden");
    let gift = GiftAction::ChangePosition {
        at: p(0, -1),
        from: field,
        to: garden,
    };
    let mut gifts = Vec::new();
    t.game.legal_gifts(&mut gifts);
    assert!(!gifts.contains(&gift));
    let err = t
        .game
        .apply(&Action::OpenGift { gift }, &mut t.fx)
        .unwrap_err();
    // Then it is refused
    assert_eq!(err.rule(), "abbot.garden");
}
