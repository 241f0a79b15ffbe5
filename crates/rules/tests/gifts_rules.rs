//! One test per rule, worked example, edge case and interpretation of The Gifts
//! (`shared/rules/gifts.md`), given/when/then on small hand-built boards.
//!
//! Every position starts from the start tile D at (0,0), rotation 0: city N, road W–E, field
//! S. Tiles used (base set, rotation clockwise): U at 90° is a straight road W–E, at 0° N–S;
//! B a monastery in a field; V at 0° a road S–W; G at 0° a city W–E between fields N and S,
//! at 90° a city N–S between fields E and W; K at 180° a road N–E with a city S; N at 0° a
//! city corner N–E; J at 270° a city W with a road N–E. The card a player receives is chance,
//! so each test names it.

mod common;

use carc_rules::*;
use common::*;

fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

fn gifts_table(players: u8, bag: &[(&str, u16)]) -> Table {
    table_with(
        players,
        bag,
        Options {
            gifts: true,
            ..Options::default()
        },
    )
}

/// The local segment `label` names on the tile at `at`.
fn seg(t: &Table, at: Pos, label: &str) -> u8 {
    let label: SegmentLabel = label.parse().unwrap();
    t.game
        .resolve_gift_segment(GiftCard::CashOut, at, &label)
        .unwrap()
}

fn open(t: &mut Table, gift: GiftAction) -> Result<(), RuleViolation> {
    t.game.apply(&Action::OpenGift { gift }, &mut t.fx)
}

fn receive(t: &mut Table, card: GiftCard) -> Result<(), RuleViolation> {
    t.game.apply(&Action::ReceiveGift { card }, &mut t.fx)
}

/// A whole legal turn: draw, open `gift` if any, place, receive `card` if a gift is due, then
/// the meeple step. Returns everything the turn did, and whether a gift was received.
fn turn(
    t: &mut Table,
    tile: &str,
    at: (i32, i32),
    deg: u32,
    gift: Option<GiftAction>,
    on: Option<&str>,
    card: GiftCard,
) -> (Effects, bool) {
    let mut all = Effects::default();
    let mut keep = |fx: &Effects| {
        all.notes.extend_from_slice(&fx.notes);
        all.scores.extend(fx.scores.iter().cloned());
        all.returned.extend_from_slice(&fx.returned);
    };
    t.draw(tile).unwrap();
    if let Some(gift) = gift {
        open(t, gift).unwrap_or_else(|e| panic!("open {gift:?}: {e}"));
        keep(&t.fx);
    }
    t.place(at.0, at.1, deg)
        .unwrap_or_else(|e| panic!("place {tile} at {at:?}: {e}"));
    keep(&t.fx);
    let got = matches!(t.game.phase(), Phase::ReceiveGift { .. });
    if got {
        receive(t, card).unwrap();
        keep(&t.fx);
    }
    t.meeple(on).unwrap();
    keep(&t.fx);
    (all, got)
}

const ANY: GiftCard = GiftCard::TakeTwo;

// ---- Contents and setup ----------------------------------------------------------------------

#[test]
fn the_deck_holds_twenty_five_cards_five_of_each_and_hands_start_empty() {
    let t = gifts_table(3, &[("U", 1)]);
    assert_eq!(t.game.gift_deck(), [5; 5]);
    assert_eq!(t.game.gift_cards_total(), 25);
    assert_eq!(t.game.hand_size(0), 0);
}

#[test]
fn gift_actions_without_the_expansion_are_refused() {
    let mut t = table(2, &[("U", 2)]);
    t.draw("U").unwrap();
    let err = open(&mut t, GiftAction::TakeTwo).unwrap_err();
    assert_eq!(err.rule(), "gifts.option");
}

// ---- Receiving a gift --------------------------------------------------------------------------

#[test]
fn extending_another_players_road_gives_one_gift_from_the_deck() {
    // Given seat 0's meeple on the road through D and (1,0)
    let mut t = gifts_table(2, &[("U", 3)]);
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    // When seat 1 extends it at (2,0)
    t.draw("U").unwrap();
    t.place(2, 0, 90).unwrap();
    // Then a gift is due, with its reason and rule id
    assert_eq!(t.game.phase(), Phase::ReceiveGift { at: p(2, 0) });
    let earned = Note::GiftEarned {
        kind: FeatureKind::Road,
        owner: 0,
    };
    assert!(t.fx.notes.contains(&earned));
    assert_eq!(earned.rule(), "gifts.receive");
    // and only a card of the deck can be received: it goes face down into seat 1's hand
    receive(&mut t, GiftCard::Synod).unwrap();
    assert_eq!(t.game.hand(1), [1, 0, 0, 0, 0]);
    assert_eq!(t.game.gift_deck(), [4, 5, 5, 5, 5]);
    assert!(matches!(t.game.phase(), Phase::Meeple { .. }));
}

#[test]
fn a_road_without_meeple_gives_no_gift() {
    let mut t = gifts_table(2, &[("U", 3)]);
    turn(&mut t, "U", (1, 0), 90, None, None, ANY);
    let (_, got) = turn(&mut t, "U", (2, 0), 90, None, None, ANY);
    assert!(!got);
}

#[test]
fn extending_your_own_road_gives_no_gift_and_the_meeple_placed_this_turn_does_not_count() {
    // Given seat 0's road
    let mut t = gifts_table(2, &[("U", 4), ("B", 1)]);
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    turn(&mut t, "B", (0, -1), 0, None, None, ANY);
    // When seat 0 extends its own road: no gift
    let (_, got) = turn(&mut t, "U", (2, 0), 90, None, None, ANY);
    assert!(!got);
    // [I] The test is made right after the placement: seat 1 extends an unoccupied road
    // and claims it in the meeple step of the same turn; that meeple does not count, and
    // the road had no meeple when the tile was placed: no gift.
    let mut t = gifts_table(2, &[("U", 3)]);
    turn(&mut t, "U", (1, 0), 90, None, None, ANY);
    let (_, got) = turn(&mut t, "U", (2, 0), 90, None, Some("road W"), ANY);
    assert!(!got);
}

#[test]
fn the_blue_green_example_one_gift_for_blues_road_none_for_the_city_shared_with_green() {
    // Seats: 0 = you, 1 = Blue, 2 = Green.
    for blue_on_road in [true, false] {
        let mut t = gifts_table(
            3,
            &[("G", 1), ("V", 1), ("K", 1), ("N", 1), ("J", 1), ("B", 3)],
        );
        // you: a city W–E south of D, with your meeple
        turn(&mut t, "G", (0, -1), 0, None, Some("city E"), ANY);
        // Blue: the road leaving D east turns south at (1,0); Blue's meeple on it (or not)
        let blue = blue_on_road.then_some("road W");
        turn(&mut t, "V", (1, 0), 0, None, blue, ANY);
        // Green: a separate city S of (-1,0) with Green's meeple
        turn(&mut t, "K", (-1, 0), 180, None, Some("city S"), ANY);
        // you: a corner joins your city and Green's: 1 meeple each, a tie, so no gift
        let (fx, got) = turn(&mut t, "N", (-1, -1), 0, None, None, ANY);
        assert!(!got, "{:?}", fx.notes);
        turn(&mut t, "B", (1, 1), 0, None, None, ANY);
        turn(&mut t, "B", (2, 0), 0, None, None, ANY);
        // When you place J at (1,-1): it extends Blue's road (N) and the shared city (W)
        t.draw("J").unwrap();
        t.place(1, -1, 270).unwrap();
        if blue_on_road {
            // Then one gift, for Blue's road
            assert_eq!(t.game.phase(), Phase::ReceiveGift { at: p(1, -1) });
            let earned: Vec<&Note> =
                t.fx.notes
                    .iter()
                    .filter(|n| matches!(n, Note::GiftEarned { .. }))
                    .collect();
            assert_eq!(
                earned,
                [&Note::GiftEarned {
                    kind: FeatureKind::Road,
                    owner: 1
                }]
            );
            receive(&mut t, GiftCard::CashOut).unwrap();
            assert!(matches!(t.game.phase(), Phase::Meeple { .. }));
            assert_eq!(t.game.hand_size(0), 1);
        } else {
            // Without Blue's meeple there is no gift: the city is yours (shared with Green)
            assert!(matches!(t.game.phase(), Phase::Meeple { .. }));
            assert_eq!(t.game.hand_size(0), 0);
        }
    }
}

#[test]
fn the_received_card_must_be_in_the_deck() {
    let mut t = gifts_table(2, &[("U", 40)]);
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    // seat 1 takes all five Synods, seat 0 extends west (its own road)
    let (mut east, mut west) = (2, -1);
    for _ in 0..5 {
        turn(&mut t, "U", (east, 0), 90, None, None, GiftCard::Synod);
        turn(&mut t, "U", (west, 0), 90, None, None, ANY);
        east += 1;
        west -= 1;
    }
    t.draw("U").unwrap();
    t.place(east, 0, 90).unwrap();
    let err = receive(&mut t, GiftCard::Synod).unwrap_err();
    assert_eq!(err.rule(), "gifts.deck");
    assert_eq!(
        err.to_string(),
        "Synod cannot be the card received: the gift deck holds 5 Road Sweeper, 5 Change Position, 5 Cash Out, 5 Take 2"
    );
    // a receipt out of turn order is refused too
    assert_eq!(
        t.game
            .apply(&Action::SkipMeeple, &mut t.fx)
            .unwrap_err()
            .rule(),
        "base.turn.phase"
    );
}

/// Seat 1 receives all 25 cards (seat 0 holds the road east and builds west), opening Take 2
/// once so that one card is on the discard pile; returns the table with the deck empty and
/// seat 1 about to place (after opening) at `east`.
fn deck_emptied() -> (Table, i32) {
    let mut t = gifts_table(2, &[("U", 60)]);
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    let (mut east, mut west) = (2, -1);
    for i in 0..25 {
        let card = GiftCard::ALL[i / 5];
        let (_, got) = turn(&mut t, "U", (east, 0), 90, None, None, card);
        assert!(got);
        turn(&mut t, "U", (west, 0), 90, None, None, ANY);
        east += 1;
        west -= 1;
    }
    assert_eq!(t.game.gift_deck(), [0; 5]);
    assert_eq!(t.game.hand(1), [5; 5]);
    (t, east)
}

#[test]
fn an_empty_deck_is_refilled_by_shuffling_the_discard_pile() {
    // Given an empty deck and one opened card on the discard pile
    let (mut t, east) = deck_emptied();
    t.draw("U").unwrap();
    open(&mut t, GiftAction::TakeTwo).unwrap();
    let u = t.id("U");
    t.game.apply(&Action::Draw { tile: u }, &mut t.fx).unwrap();
    t.game
        .apply(&Action::ReturnTile { tile: u }, &mut t.fx)
        .unwrap();
    assert_eq!(t.game.gift_discard(), [0, 0, 0, 0, 1]);
    t.place(east, 0, 90).unwrap();
    // When a gift is due: only the discard pile's card can come, after the reshuffle
    let err = receive(&mut t, GiftCard::Synod).unwrap_err();
    assert!(err.to_string().contains("the deck is empty"), "{err}");
    receive(&mut t, GiftCard::TakeTwo).unwrap();
    assert!(t.fx.notes.contains(&Note::GiftDeckReshuffled { cards: 1 }));
    assert_eq!(
        Note::GiftDeckReshuffled { cards: 1 }.rule(),
        "gifts.deck.reshuffle"
    );
    assert_eq!(t.game.gift_discard(), [0; 5]);
    assert_eq!(t.game.gift_cards_total(), 25);
}

#[test]
fn no_gift_when_every_card_is_in_the_players_hands() {
    let (mut t, east) = deck_emptied();
    t.draw("U").unwrap();
    t.place(east, 0, 90).unwrap();
    assert!(matches!(t.game.phase(), Phase::Meeple { .. }));
    assert!(t.fx.notes.contains(&Note::GiftNoneLeft {
        kind: FeatureKind::Road,
        owner: 0
    }));
    assert_eq!(
        Note::GiftNoneLeft {
            kind: FeatureKind::Road,
            owner: 0
        }
        .rule(),
        "gifts.receive.none-left"
    );
}

// ---- Opening a gift ----------------------------------------------------------------------------

/// Seat 1 holds `card` (from extending seat 0's road at (2,0)); seat 0 holds that road
/// (D, (1,0), (2,0)) with one meeple and it is seat 0's turn.
fn seat1_holds(card: GiftCard, bag: &[(&str, u16)]) -> Table {
    let mut all = vec![("U", 2)];
    all.extend_from_slice(bag);
    let mut t = gifts_table(2, &all);
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    let (_, got) = turn(&mut t, "U", (2, 0), 90, None, None, card);
    assert!(got);
    t
}

#[test]
fn a_gift_is_opened_after_drawing_and_before_placing_and_only_by_its_holder() {
    let mut t = seat1_holds(GiftCard::TakeTwo, &[("B", 3)]);
    // seat 0 holds no gift
    t.draw("B").unwrap();
    let err = open(&mut t, GiftAction::TakeTwo).unwrap_err();
    assert_eq!(err.rule(), "gifts.open");
    assert_eq!(
        err.to_string(),
        "seat 0 holds no Take 2 gift (their gifts: none)"
    );
    t.place(0, -1, 0).unwrap();
    t.meeple(None).unwrap();
    // seat 1: not before drawing, not after placing
    let err = open(&mut t, GiftAction::TakeTwo).unwrap_err();
    assert_eq!(err.rule(), "base.turn.phase");
    t.draw("B").unwrap();
    t.place(1, -1, 0).unwrap();
    let err = open(&mut t, GiftAction::TakeTwo).unwrap_err();
    assert_eq!(err.rule(), "base.turn.phase");
    assert_eq!(t.game.hand(1), [0, 0, 0, 0, 1]);
}

#[test]
fn at_most_one_gift_per_turn() {
    let mut t = gifts_table(2, &[("U", 5), ("B", 2)]);
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    turn(&mut t, "U", (2, 0), 90, None, None, GiftCard::TakeTwo);
    turn(&mut t, "B", (0, -1), 0, None, None, ANY);
    turn(&mut t, "U", (3, 0), 90, None, None, GiftCard::TakeTwo);
    turn(&mut t, "B", (1, -1), 0, None, None, ANY);
    t.draw("U").unwrap();
    open(&mut t, GiftAction::TakeTwo).unwrap();
    let u = t.id("U");
    t.game.apply(&Action::Draw { tile: u }, &mut t.fx).unwrap();
    t.game
        .apply(&Action::ReturnTile { tile: u }, &mut t.fx)
        .unwrap();
    let err = open(&mut t, GiftAction::TakeTwo).unwrap_err();
    assert_eq!(err.rule(), "gifts.open.one-per-turn");
    let mut legal = Vec::new();
    t.game.legal_gifts(&mut legal);
    assert!(legal.is_empty());
}

// ---- Synod -------------------------------------------------------------------------------------

#[test]
fn synod_the_seed_example_you_score_nine_and_blue_and_green_nothing() {
    // Seats: 0 = you, 1 = Blue, 2 = Green. Blue holds the road along D.
    let mut t = gifts_table(3, &[("U", 8), ("B", 6)]);
    turn(&mut t, "U", (-1, 0), 90, None, None, ANY);
    turn(&mut t, "U", (1, 0), 90, None, Some("road E"), ANY);
    let (_, got) = turn(&mut t, "U", (2, 0), 90, None, None, GiftCard::Synod);
    assert!(got, "Green extends Blue's road");
    let (_, got) = turn(&mut t, "U", (-2, 0), 90, None, None, GiftCard::Synod);
    assert!(got, "you extend Blue's road");
    // Blue's monastery south of D, with Blue's meeple
    turn(&mut t, "B", (0, -1), 0, None, Some("monastery"), ANY);
    // Green and you each join it by Synod (occupied monasteries are fine)
    let synod = Some(GiftAction::Synod { at: p(0, -1) });
    turn(&mut t, "U", (3, 0), 90, synod, None, ANY);
    let (fx, _) = turn(&mut t, "U", (-3, 0), 90, synod, None, GiftCard::Synod);
    assert!(fx.notes.contains(&Note::SynodPlaced { at: p(0, -1) }));
    turn(&mut t, "B", (-1, -1), 0, None, None, ANY);
    turn(&mut t, "B", (1, -1), 0, None, None, ANY);
    // you add one more by Synod: you 2, Blue 1, Green 1
    turn(&mut t, "B", (-1, -2), 0, synod, None, ANY);
    assert_eq!(t.game.supply(), &[5, 5, 6]);
    turn(&mut t, "B", (0, -2), 0, None, None, ANY);
    // When Green completes the monastery
    let before = t.scores();
    let (fx, _) = turn(&mut t, "U", (4, 0), 90, None, None, ANY);
    assert_eq!(t.scores(), before, "not yet complete");
    assert!(fx.scores.is_empty());
    let (fx, _) = turn(&mut t, "B", (1, -2), 0, None, None, ANY);
    // Then you score 9, Blue and Green nothing for it
    let s = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Monastery && s.time == ScoreTime::Completed)
        .expect("the monastery scores");
    assert_eq!(s.points, 9);
    assert_eq!(s.winners, vec![0]);
    assert_eq!(s.meeples, vec![(0, 2), (1, 1), (2, 1)]);
}

#[test]
fn synod_needs_an_incomplete_monastery_and_a_meeple_in_supply() {
    let mut t = seat1_holds(GiftCard::Synod, &[("B", 10), ("U", 1)]);
    // a monastery, then all eight neighbours
    turn(&mut t, "B", (0, -1), 0, None, None, ANY);
    t.draw("B").unwrap();
    let err = open(&mut t, GiftAction::Synod { at: p(0, 0) }).unwrap_err();
    assert_eq!(err.rule(), "gifts.synod");
    assert_eq!(
        err.to_string(),
        "Synod needs an incomplete monastery; tile D at (0,0) has no monastery"
    );
    let err = open(&mut t, GiftAction::Synod { at: p(5, 5) }).unwrap_err();
    assert_eq!(err.to_string(), "Synod target square (5,5) holds no tile");
    t.place(-1, -1, 0).unwrap();
    t.meeple(None).unwrap();
    for (x, y) in [(1, -1), (-1, -2), (0, -2), (1, -2), (-1, 0)] {
        let (_, _) = turn(
            &mut t,
            if y == 0 { "U" } else { "B" },
            (x, y),
            90 * u32::from(y == 0),
            None,
            None,
            ANY,
        );
    }
    // seat 1 to move; the monastery at (0,-1) is complete
    assert_eq!(t.game.current_player(), 1);
    t.draw("B").unwrap();
    let err = open(&mut t, GiftAction::Synod { at: p(0, -1) }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Synod needs an incomplete monastery; the one at (0,-1) is complete"
    );
    // an incomplete one is fine
    open(&mut t, GiftAction::Synod { at: p(1, -1) }).unwrap();
}

// ---- Road Sweeper ------------------------------------------------------------------------------

#[test]
fn road_sweeper_the_seed_example_four_points_meeple_back_then_a_new_meeple() {
    let mut t = gifts_table(2, &[("U", 6), ("V", 1), ("B", 2)]);
    // you (seat 0) hold the road through D
    turn(&mut t, "U", (1, 0), 90, None, Some("road E"), ANY);
    // seat 1's separate road south
    turn(&mut t, "V", (0, -1), 0, None, Some("road S"), ANY);
    // you extend seat 1's road: Road Sweeper
    let (_, got) = turn(&mut t, "U", (0, -2), 0, None, None, GiftCard::RoadSweeper);
    assert!(got);
    turn(&mut t, "U", (-1, 0), 90, None, None, ANY);
    // your road: (-1,0), D, (1,0), (2,0)
    turn(&mut t, "U", (2, 0), 90, None, None, ANY);
    turn(&mut t, "B", (1, -1), 0, None, None, ANY);
    // When you sweep your road, then extend it and put a new meeple on it
    let at = p(1, 0);
    let sweep = GiftAction::RoadSweeper {
        at,
        segment: seg(&t, at, "road W"),
    };
    let (fx, got) = turn(&mut t, "U", (3, 0), 90, Some(sweep), Some("road E"), ANY);
    // Then you score 4, your meeple came back before the placement, and you could place anew
    assert!(
        !got,
        "the swept road held no meeple when the tile was placed"
    );
    let s = &fx.scores[0];
    assert_eq!((s.points, s.winners.clone()), (4, vec![0]));
    assert_eq!(s.rule, "gifts.road-sweeper");
    assert_eq!(
        s.source,
        ScoreSource::Gift {
            card: GiftCard::RoadSweeper
        }
    );
    assert_eq!(s.formula, "swept now, as in final scoring: 1 × 4 tiles = 4");
    assert_eq!(fx.returned.len(), 1);
    assert_eq!(t.scores(), vec![4, 0]);
    assert_eq!(t.game.supply(), &[6, 6]);
}

#[test]
fn road_sweeper_returns_every_meeple_and_scores_for_nobody_on_an_empty_road() {
    // Seat 1 sweeps seat 0's road: seat 0 scores (majority), its meeple returns
    let mut t = seat1_holds(GiftCard::RoadSweeper, &[("B", 2), ("U", 2)]);
    turn(&mut t, "B", (0, -1), 0, None, None, ANY);
    let at = p(1, 0);
    let sweep = GiftAction::RoadSweeper {
        at,
        segment: seg(&t, at, "road W"),
    };
    let (fx, _) = turn(&mut t, "U", (3, 0), 90, Some(sweep), None, ANY);
    assert_eq!(fx.scores[0].winners, vec![0]);
    assert_eq!(fx.scores[0].points, 3);
    assert_eq!(fx.returned.len(), 1);
    assert_eq!(t.game.meeples().count(), 0);
}

#[test]
fn road_sweeper_needs_an_incomplete_road() {
    let mut t = seat1_holds(GiftCard::RoadSweeper, &[("B", 2)]);
    turn(&mut t, "B", (0, -1), 0, None, None, ANY);
    t.draw("B").unwrap();
    let gift = GiftAction::RoadSweeper {
        at: p(0, 0),
        segment: seg(&t, p(0, 0), "city N"),
    };
    let err = open(&mut t, gift).unwrap_err();
    assert_eq!(err.rule(), "gifts.road-sweeper");
    assert_eq!(
        err.to_string(),
        "Road Sweeper needs an incomplete road; city N at (0,0) is part of a city"
    );
}

#[test]
fn road_sweeper_on_a_road_the_tile_then_completes_scores_twice() {
    // [I] two separate scorings: the sweep now, the completion for whoever then holds it.
    // Given seat 0's road ending at the monastery A at (1,0), open to the west
    let mut t = gifts_table(2, &[("A", 2), ("U", 1), ("B", 2)]);
    turn(&mut t, "A", (1, 0), 90, None, Some("road W"), ANY);
    let (_, got) = turn(&mut t, "U", (-1, 0), 90, None, None, GiftCard::RoadSweeper);
    assert!(got);
    turn(&mut t, "B", (0, -1), 0, None, None, ANY);
    // When seat 1 sweeps it, then closes it with A at (-2,0) and claims it
    let at = p(0, 0);
    let sweep = GiftAction::RoadSweeper {
        at,
        segment: seg(&t, at, "road W"),
    };
    let (fx, _) = turn(&mut t, "A", (-2, 0), 270, Some(sweep), Some("road E"), ANY);
    // Then the road scored twice: 3 for seat 0 now, 4 for seat 1 on completion
    let points: Vec<(u32, Vec<u8>, &str)> = fx
        .scores
        .iter()
        .filter(|s| s.kind == FeatureKind::Road)
        .map(|s| (s.points, s.winners.clone(), s.rule))
        .collect();
    assert_eq!(
        points,
        [
            (3, vec![0], "gifts.road-sweeper"),
            (4, vec![1], "base.score.road.completed")
        ]
    );
}

// ---- Change Position ---------------------------------------------------------------------------

#[test]
fn change_position_only_between_standing_and_lying_on_the_same_tile() {
    let mut t = gifts_table(2, &[("U", 2), ("G", 3), ("B", 2)]);
    // seat 0 stands on its road at (1,0)
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    let (_, got) = turn(
        &mut t,
        "U",
        (2, 0),
        90,
        None,
        None,
        GiftCard::ChangePosition,
    );
    assert!(got);
    turn(&mut t, "B", (1, -1), 0, None, None, ANY);
    // seat 1: no meeple of its own on the road; road to road keeps the stance
    t.draw("B").unwrap();
    let at = p(1, 0);
    let road = seg(&t, at, "road W");
    let north = seg(&t, at, "field Nw");
    let gift = GiftAction::ChangePosition {
        at,
        from: road,
        to: north,
    };
    let err = open(&mut t, gift).unwrap_err();
    assert_eq!(err.rule(), "gifts.change-position");
    assert_eq!(
        err.to_string(),
        "Change Position: seat 1 has no meeple on road E at (1,0)"
    );
    assert_eq!(t.game.hand(1), [0, 0, 1, 0, 0]);
}

#[test]
fn change_position_a_standing_meeple_lies_down_and_a_farmer_stands_up_even_on_an_occupied_feature()
{
    // Given seat 1's farmer beside seat 0's city (G at (0,1) extends D's city... D's city is
    // north, so the city runs N–S through (0,1) and (0,2))
    let mut t = gifts_table(2, &[("G", 3), ("U", 3), ("B", 2)]);
    turn(&mut t, "G", (0, 1), 90, None, Some("city N"), ANY);
    let (_, got) = turn(
        &mut t,
        "G",
        (0, 2),
        90,
        None,
        Some("field En"),
        GiftCard::ChangePosition,
    );
    assert!(got, "seat 1 extends seat 0's city");
    turn(&mut t, "U", (1, 0), 90, None, None, ANY);
    // When seat 1 stands its farmer up on the city of the same tile (occupied by seat 0)
    let at = p(0, 2);
    let gift = GiftAction::ChangePosition {
        at,
        from: seg(&t, at, "field En"),
        to: seg(&t, at, "city N"),
    };
    let (fx, _) = turn(&mut t, "U", (2, 0), 90, Some(gift), None, ANY);
    // Then it counts for the city's majority: a tie, both score when it completes
    let city = t.game.appraise(at, seg(&t, at, "city N")).unwrap();
    assert_eq!(city.meeples, vec![(0, 1), (1, 1)]);
    assert!(fx
        .notes
        .iter()
        .any(|n| matches!(n, Note::PositionChanged { .. })));
    // and standing to standing is refused: seat 1's meeple in the city of J at (-1,0) may
    // not step onto J's road, only lie down in one of J's fields
    let mut t = gifts_table(2, &[("U", 2), ("J", 1), ("B", 3)]);
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    let (_, got) = turn(
        &mut t,
        "U",
        (2, 0),
        90,
        None,
        None,
        GiftCard::ChangePosition,
    );
    assert!(got);
    turn(&mut t, "B", (1, -1), 0, None, None, ANY);
    turn(&mut t, "J", (-1, 0), 0, None, Some("city N"), ANY);
    turn(&mut t, "B", (2, -1), 0, None, None, ANY);
    t.draw("B").unwrap();
    let at = p(-1, 0);
    let gift = GiftAction::ChangePosition {
        at,
        from: seg(&t, at, "city N"),
        to: seg(&t, at, "road E"),
    };
    let err = open(&mut t, gift).unwrap_err();
    assert_eq!(err.rule(), "gifts.change-position");
    assert!(err.to_string().contains("keeps the stance"), "{err}");
    // lying down in a field of the same tile works; the farmer then counts in that field
    let gift = GiftAction::ChangePosition {
        at,
        from: seg(&t, at, "city N"),
        to: seg(&t, at, "field Wn"),
    };
    open(&mut t, gift).unwrap();
    let farmer = t.game.meeples().find(|m| m.0 == 1).unwrap();
    assert_eq!((farmer.1, farmer.3.kind), (at, FeatureKind::Field));
    assert_eq!(
        t.game
            .appraise(at, seg(&t, at, "field Wn"))
            .unwrap()
            .meeples,
        vec![(1, 1)]
    );
}

// ---- Cash Out ----------------------------------------------------------------------------------

#[test]
fn cash_out_the_seed_example_three_meeples_in_the_city_six_points() {
    // Seats 0, 1, 2. Seat 0's city runs north from D through G tiles.
    let mut t = gifts_table(3, &[("G", 4), ("U", 5)]);
    turn(&mut t, "G", (0, 1), 90, None, Some("city N"), ANY);
    // seats 1 and 2 extend it (a gift each: Change Position) and lie beside it as farmers
    let (_, got) = turn(
        &mut t,
        "G",
        (0, 2),
        90,
        None,
        Some("field En"),
        GiftCard::ChangePosition,
    );
    assert!(got);
    let (_, got) = turn(
        &mut t,
        "G",
        (0, 3),
        90,
        None,
        Some("field En"),
        GiftCard::ChangePosition,
    );
    assert!(got);
    turn(&mut t, "U", (1, 0), 90, None, Some("road E"), ANY);
    // seat 1 stands up in the city, and extends seat 0's road: a Cash Out
    let up = |t: &Table, y| GiftAction::ChangePosition {
        at: p(0, y),
        from: seg(t, p(0, y), "field En"),
        to: seg(t, p(0, y), "city N"),
    };
    let gift = up(&t, 2);
    let (_, got) = turn(&mut t, "U", (2, 0), 90, Some(gift), None, GiftCard::CashOut);
    assert!(got);
    // seat 2 stands up too, and extends the city it now shares 1–1–1: a tie, no gift
    let gift = up(&t, 3);
    let (_, got) = turn(&mut t, "G", (0, 4), 90, Some(gift), None, ANY);
    assert!(!got, "a tied majority is yours");
    turn(&mut t, "U", (-1, 0), 90, None, None, ANY);
    // When seat 1 cashes out its meeple in the city
    let at = p(0, 2);
    let cash = GiftAction::CashOut {
        at,
        segment: seg(&t, at, "city N"),
    };
    let before = t.scores();
    let (fx, _) = turn(&mut t, "U", (-2, 0), 90, Some(cash), None, ANY);
    // Then 3 meeples × 2 = 6 for seat 1, and its meeple is back
    let s = &fx.scores[0];
    assert_eq!(
        (s.points, s.winners.clone(), s.rule),
        (6, vec![1], "gifts.cash-out")
    );
    assert_eq!(
        s.formula,
        "2 × 3 meeples on the city (the one taken back included) = 6"
    );
    assert_eq!(t.scores()[1], before[1] + 6);
    assert_eq!(fx.returned.len(), 1);
    assert_eq!(t.game.supply()[1], 7);
}

#[test]
fn cash_out_needs_one_of_your_own_meeples() {
    let mut t = seat1_holds(GiftCard::CashOut, &[("U", 2)]);
    turn(&mut t, "U", (-1, 0), 90, None, None, ANY);
    t.draw("U").unwrap();
    let at = p(1, 0);
    let gift = GiftAction::CashOut {
        at,
        segment: seg(&t, at, "road W"),
    };
    let err = open(&mut t, gift).unwrap_err();
    assert_eq!(err.rule(), "gifts.cash-out");
    assert_eq!(
        err.to_string(),
        "Cash Out: seat 1 has no meeple on road E at (1,0)"
    );
    assert_eq!(t.game.hand(1), [0, 0, 0, 1, 0]);
}

#[test]
fn cash_out_with_two_of_your_meeples_on_the_feature_takes_back_one_and_counts_both() {
    let mut t = gifts_table(2, &[("U", 3), ("B", 6)]);
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    let (_, got) = turn(&mut t, "U", (2, 0), 90, None, None, GiftCard::Synod);
    assert!(got);
    turn(&mut t, "B", (0, -1), 0, None, None, ANY);
    turn(&mut t, "B", (1, -1), 0, None, Some("monastery"), ANY);
    turn(&mut t, "B", (-1, -1), 0, None, None, ANY);
    // seat 1 joins its own monastery by Synod, and earns a Cash Out on seat 0's road
    let synod = Some(GiftAction::Synod { at: p(1, -1) });
    let (_, got) = turn(&mut t, "U", (3, 0), 90, synod, None, GiftCard::CashOut);
    assert!(got);
    turn(&mut t, "B", (2, -1), 0, None, None, ANY);
    // When seat 1 cashes out one of its two monks
    let at = p(1, -1);
    let cash = GiftAction::CashOut {
        at,
        segment: seg(&t, at, "monastery"),
    };
    let (fx, _) = turn(&mut t, "B", (0, -2), 0, Some(cash), None, ANY);
    // Then 2 × 2 = 4, one comes back and the other stays
    assert_eq!(
        (fx.scores[0].points, fx.scores[0].winners.clone()),
        (4, vec![1])
    );
    assert_eq!(fx.returned.len(), 1);
    let left = t.game.appraise(at, seg(&t, at, "monastery")).unwrap();
    assert_eq!(left.meeples, vec![(1, 1)]);
}

// ---- Take 2 ------------------------------------------------------------------------------------

#[test]
fn take_2_draws_a_second_tile_places_one_and_returns_the_other() {
    let mut t = seat1_holds(GiftCard::TakeTwo, &[("B", 2), ("V", 1)]);
    turn(&mut t, "B", (0, -1), 0, None, None, ANY);
    let bag = t.game.bag_left();
    t.draw("B").unwrap();
    open(&mut t, GiftAction::TakeTwo).unwrap();
    assert!(matches!(t.game.phase(), Phase::DrawSecond { .. }));
    t.draw("V").unwrap();
    // a tile that was not drawn cannot be returned
    let u = t.id("U");
    let err = t
        .game
        .apply(&Action::ReturnTile { tile: u }, &mut t.fx)
        .unwrap_err();
    assert_eq!(err.rule(), "gifts.take-2");
    let b = t.id("B");
    t.game
        .apply(&Action::ReturnTile { tile: b }, &mut t.fx)
        .unwrap();
    // the V is placed; the B is back in the bag
    assert_eq!(t.game.phase(), Phase::Place { tile: t.id("V") });
    assert_eq!(t.game.bag_left(), bag - 1);
    assert_eq!(t.game.bag_count(b), 1);
}

#[test]
fn take_2_with_the_last_tile_draws_nothing_and_uses_up_the_card() {
    let mut t = seat1_holds(GiftCard::TakeTwo, &[("U", 2)]);
    turn(&mut t, "U", (-1, 0), 90, None, None, ANY);
    t.draw("U").unwrap();
    assert_eq!(t.game.bag_left(), 0);
    open(&mut t, GiftAction::TakeTwo).unwrap();
    assert!(t.fx.notes.contains(&Note::TakeTwoNoTile));
    assert_eq!(t.game.hand(1), [0; 5]);
    assert_eq!(t.game.gift_discard(), [0, 0, 0, 0, 1]);
    assert!(matches!(t.game.phase(), Phase::Place { .. }));
}

// ---- End of the game ---------------------------------------------------------------------------

#[test]
fn unopened_gifts_score_two_each_as_their_own_line() {
    let mut t = seat1_holds(GiftCard::CashOut, &[("U", 1)]);
    let before = t.scores();
    let (fx, _) = turn(&mut t, "U", (-1, 0), 90, None, None, ANY);
    assert!(t.game.is_over());
    let s = fx
        .scores
        .iter()
        .find(|s| s.source == ScoreSource::UnopenedGifts { cards: 1 })
        .expect("a line for the unopened gift");
    assert_eq!(
        (s.points, s.winners.clone(), s.rule),
        (2, vec![1], "gifts.final.unopened")
    );
    assert_eq!(s.formula, "2 × 1 unopened gift (1 Cash Out) = 2");
    assert!(s.tiles.is_empty());
    // the road: 4 tiles for seat 0 at the end; seat 1 gets only its gift
    assert_eq!(t.scores(), vec![before[0] + 4, before[1] + 2]);
}

// ---- Legal moves -------------------------------------------------------------------------------

#[test]
fn every_listed_gift_action_is_accepted() {
    let mut t = gifts_table(2, &[("U", 4), ("B", 3), ("G", 1)]);
    turn(&mut t, "B", (0, -1), 0, None, Some("monastery"), ANY);
    turn(&mut t, "U", (1, 0), 90, None, Some("road W"), ANY);
    // seat 0 extends seat 1's road four times over the game; give it all the kinds
    for (i, card) in [GiftCard::Synod, GiftCard::ChangePosition]
        .into_iter()
        .enumerate()
    {
        let (_, got) = turn(&mut t, "U", (-1 - i as i32, 0), 90, None, None, card);
        assert!(got);
        turn(&mut t, "B", (1 + i as i32, -1), 0, None, None, ANY);
    }
    t.draw("G").unwrap();
    let mut legal = Vec::new();
    t.game.legal_gifts(&mut legal);
    assert!(legal.iter().any(|g| matches!(g, GiftAction::Synod { .. })));
    assert!(legal
        .iter()
        .any(|g| matches!(g, GiftAction::ChangePosition { .. })));
    for gift in &legal {
        let mut g = t.game.clone();
        let mut fx = Effects::default();
        g.apply(&Action::OpenGift { gift: *gift }, &mut fx)
            .unwrap_or_else(|e| panic!("{gift:?}: {e}"));
        assert_eq!(g.gift_cards_total(), 25);
    }
}
