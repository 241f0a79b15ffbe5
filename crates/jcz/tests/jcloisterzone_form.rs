//! Files written the way JCloisterZone writes them and read the way it reads them (issue 18):
//! no PASS where JCloisterZone offers no meeple; the draw order is the first tiles dealt,
//! the whole game only with `"#END"` or a draw limit; what other expansions use is reported
//! before any format error.

mod common;
use common::events;

use carc_events::{Event, Log};
use carc_jcz::JczError;
use carc_rules::{Effects, MeepleSpot};
use serde_json::{json, Value};

fn corpus(name: &str) -> Value {
    let text = std::fs::read_to_string(common::corpus_dir().join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn entry_types(v: &Value) -> Vec<String> {
    v["replay"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect()
}

/// For each skipped meeple step of the log, whether JCloisterZone offers a meeple there.
fn skips_with_options(log: &Log) -> Vec<bool> {
    let mut game = carc_events::game_from_header(&log.header, &[]).unwrap();
    let mut fx = Effects::default();
    let mut spots: Vec<MeepleSpot> = Vec::new();
    let mut out = Vec::new();
    for (_, env) in &log.events {
        if matches!(env.event, Event::MeepleSkipped { .. }) {
            game.legal_meeples(&mut spots);
            out.push(!spots.is_empty());
        }
        let action = carc_events::event_to_action(&game, &env.event).unwrap();
        game.apply(&action, &mut fx).unwrap();
    }
    out
}

// Point 1: JCloisterZone refuses a PASS where it offers no meeple action.

#[test]
fn a_pass_is_written_only_where_jcloisterzone_offers_a_meeple() {
    let (mut with, mut without) = (0, 0);
    for (seed, players, farmers) in [(1, 2, false), (2, 3, true), (3, 5, false), (4, 6, true)] {
        let log = common::simulated(seed, players, farmers);
        let skips = skips_with_options(&log);
        let written = carc_jcz::write(&log).unwrap();
        let v: Value = serde_json::from_str(&written).unwrap();
        let types = entry_types(&v);
        let passes = types.iter().filter(|t| *t == "PASS").count();
        assert_eq!(
            passes,
            skips.iter().filter(|&&offered| offered).count(),
            "seed {seed}"
        );
        // Every turn still ends with a COMMIT: one per tile placed.
        let placed = types.iter().filter(|t| *t == "PLACE_TILE").count();
        assert_eq!(
            types.iter().filter(|t| *t == "COMMIT").count(),
            placed,
            "seed {seed}"
        );
        // Each PASS comes straight after its PLACE_TILE and before the COMMIT.
        for (i, t) in types.iter().enumerate() {
            if t == "PASS" {
                assert_eq!(types[i - 1], "PLACE_TILE", "seed {seed}");
                assert_eq!(types[i + 1], "COMMIT", "seed {seed}");
            }
        }
        with += passes;
        without += skips.len() - passes;
        let back = carc_jcz::read(&written).unwrap();
        assert_eq!(events(&back), events(&log), "seed {seed}");
    }
    // Both kinds of skipped turn occurred, so the test could have failed either way.
    assert!(
        with > 0 && without > 0,
        "{with} passes, {without} bare commits"
    );
}

#[test]
fn both_forms_of_a_skipped_meeple_read_the_same() {
    let log = common::simulated(5, 2, false);
    let written = carc_jcz::write(&log).unwrap();
    let mut v: Value = serde_json::from_str(&written).unwrap();
    // The old form: a PASS at every meeple step, as carc wrote before.
    let mut old = Vec::new();
    let mut after_place = false;
    for e in v["replay"].as_array().unwrap() {
        if after_place && e["type"] == "COMMIT" {
            old.push(json!({"type": "PASS", "payload": {}}));
        }
        after_place = e["type"] == "PLACE_TILE";
        old.push(e.clone());
    }
    assert!(old.len() > v["replay"].as_array().unwrap().len());
    v["replay"] = Value::Array(old);
    let back = carc_jcz::read(&v.to_string()).unwrap();
    assert_eq!(events(&back), events(&log));
}

// Point 2: the draw order is what JCloisterZone dealt first, not the whole bag.

#[test]
fn an_unfinished_game_comes_back_unfinished() {
    // A game cut after the first turn in which a meeple was placed: 0 points so far. Read as
    // the whole bag, the draw order ended the game there and final scoring gave points.
    let log = common::simulated(7, 2, true);
    let first_meeple = log
        .events
        .iter()
        .position(|(_, e)| matches!(e.event, Event::MeeplePlaced { .. }))
        .unwrap();
    let cut = common::cut(&log, first_meeple + 1);
    let (game, _) = common::replay(&cut);
    assert!(!game.is_over());
    assert!(game.scores().iter().all(|&s| s == 0));

    let written = carc_jcz::write(&cut).unwrap();
    let v: Value = serde_json::from_str(&written).unwrap();
    let order = v["gameAnnotations"]["drawOrder"].as_array().unwrap();
    assert!(!order.contains(&json!("#END")), "{order:?}");
    let back = carc_jcz::read(&written).unwrap();
    assert_eq!(events(&back), events(&cut));
    assert_eq!(
        back.header.bag, None,
        "the rest of the base set is still to come"
    );
    let (game, scores) = common::replay(&back);
    assert!(!game.is_over());
    assert!(game.scores().iter().all(|&s| s == 0), "{:?}", game.scores());
    assert!(scores.is_empty());
}

#[test]
fn a_finished_game_is_written_with_the_end_marker_and_comes_back_finished() {
    let log = common::simulated(8, 3, true);
    let (game, _) = common::replay(&log);
    assert!(game.is_over());
    let written = carc_jcz::write(&log).unwrap();
    let v: Value = serde_json::from_str(&written).unwrap();
    let order = v["gameAnnotations"]["drawOrder"].as_array().unwrap();
    assert_eq!(order.last(), Some(&json!("#END")));
    assert_eq!(order.iter().filter(|t| *t == "#END").count(), 1);
    let back = carc_jcz::read(&written).unwrap();
    assert_eq!(events(&back), events(&log));
    let (again, _) = common::replay(&back);
    assert!(again.is_over());
    assert_eq!(again.scores(), game.scores());
}

#[test]
fn jcloisterzone_test_games_without_an_end_are_in_progress() {
    // Neither file caps its draw order: JCloisterZone goes on drawing after it. The points
    // are those its test asserts, with no final scoring.
    for (name, points) in [
        ("city-and-road-scoring.jcz", vec![7, 16]),
        ("tiny-city-rule.jcz", vec![8]),
    ] {
        let log = carc_jcz::read(&corpus(name).to_string()).unwrap();
        assert_eq!(log.header.bag, None, "{name}");
        let (game, _) = common::replay(&log);
        assert!(!game.is_over(), "{name}");
        assert_eq!(game.scores(), points.as_slice(), "{name}");
    }
    // With a draw limit (endTurn) the game is over after that many tiles.
    for (name, points) in [
        ("field-scoring.jcz", vec![9, 0]),
        ("monastery-scoring.jcz", vec![9, 4]),
    ] {
        let log = carc_jcz::read(&corpus(name).to_string()).unwrap();
        let (game, _) = common::replay(&log);
        assert!(game.is_over(), "{name}");
        assert_eq!(game.scores(), points.as_slice(), "{name}");
    }
}

#[test]
fn the_end_marker_and_the_draw_limit_end_the_game() {
    // tiny-city-rule plays its three tiles; with "#END" after them the game is over.
    let mut v = corpus("tiny-city-rule.jcz");
    v["gameAnnotations"]["drawOrder"]
        .as_array_mut()
        .unwrap()
        .push(json!("#END"));
    let log = carc_jcz::read(&v.to_string()).unwrap();
    assert!(common::replay(&log).0.is_over());
    assert_eq!(
        log.header.bag.as_ref().map(|b| b.values().sum::<u16>()),
        Some(4)
    );

    // A limit shorter than the order: the tiles after it are never drawn.
    let mut v = corpus("tiny-city-rule.jcz");
    v["gameAnnotations"]["endTurn"] = json!(2);
    v["replay"].as_array_mut().unwrap().truncate(6);
    let log = carc_jcz::read(&v.to_string()).unwrap();
    assert!(common::replay(&log).0.is_over());
    // ... and a move after the limit is refused.
    let mut v = corpus("tiny-city-rule.jcz");
    v["gameAnnotations"]["endTurn"] = json!(2);
    let e = carc_jcz::read(&v.to_string()).unwrap_err().to_string();
    assert!(
        e.contains("the game ended after 2 tiles drawn (gameAnnotations.endTurn)"),
        "{e}"
    );

    // A limit beyond the order: the last tiles were drawn at random, and the PLACE_TILE
    // entries say which; the game still ends at the limit.
    let full = carc_jcz::read(&corpus("monastery-scoring.jcz").to_string()).unwrap();
    let mut v = corpus("monastery-scoring.jcz");
    v["gameAnnotations"]["drawOrder"]
        .as_array_mut()
        .unwrap()
        .truncate(6);
    let log = carc_jcz::read(&v.to_string()).unwrap();
    assert_eq!(events(&log), events(&full));
    assert_eq!(log.header.bag, full.header.bag);
    assert!(common::replay(&log).0.is_over());

    // The marker anywhere but last is malformed.
    let mut v = corpus("tiny-city-rule.jcz");
    v["gameAnnotations"]["drawOrder"][0] = json!("#END");
    let e = carc_jcz::read(&v.to_string()).unwrap_err().to_string();
    assert!(
        e.contains("gameAnnotations.drawOrder[0]: expected a tile id"),
        "{e}"
    );
}

#[test]
fn a_game_cut_between_turns_after_its_draw_order_waits_for_a_random_draw() {
    let log = common::simulated(9, 2, true);
    // Cut right after a meeple step: the next tile is not drawn yet.
    let at = log
        .events
        .iter()
        .enumerate()
        .filter(|(_, (_, e))| matches!(e.event, Event::MeepleSkipped { .. }))
        .nth(5)
        .unwrap()
        .0;
    let cut = common::cut(&log, at + 1);
    let back = carc_jcz::read(&carc_jcz::write(&cut).unwrap()).unwrap();
    assert_eq!(events(&back), events(&cut));
    assert_eq!(common::replay(&back).0.phase(), carc_rules::Phase::Draw);
}

// Point 3: what other expansions use is reported before anything looks malformed.

#[test]
fn other_expansions_are_refused_for_what_they_use() {
    // German Monasteries' abbot space, which the base-game reader cannot parse (The Abbot of
    // the base box is read: `tests/abbot.rs`).
    let mut v = corpus("city-and-road-scoring.jcz");
    v["setup"]["elements"]["monastery"] = json!(true);
    v["replay"][4]["payload"]["pointer"]["location"] = json!("AS_ABBOT");
    v["replay"][4]["payload"]["pointer"]["feature"] = json!("Monastery");
    let e = carc_jcz::read(&v.to_string()).unwrap_err();
    let JczError::Unsupported(items) = &e else {
        panic!("{e}")
    };
    let text = e.to_string();
    assert!(text.contains("game element \"monastery\""), "{text}");
    assert!(
        text.contains("location \"AS_ABBOT\" (at replay[4].payload.pointer.location)"),
        "{text}"
    );
    assert_eq!(items.len(), 2, "{items:?}");

    // A quarter of Carcassonne city, alone.
    let mut v = corpus("city-and-road-scoring.jcz");
    v["replay"][4]["payload"]["pointer"]["location"] = json!("QUARTER_BLACKSMITH");
    let e = carc_jcz::read(&v.to_string()).unwrap_err();
    assert!(matches!(e, JczError::Unsupported(_)), "{e}");

    // Nine players: JCloisterZone seats them, carc does not.
    let mut v = corpus("city-and-road-scoring.jcz");
    v["players"] = Value::Array(
        (0..9)
            .map(|i| json!({"name": format!("P{i}"), "slot": i}))
            .collect(),
    );
    let e = carc_jcz::read(&v.to_string()).unwrap_err();
    assert!(matches!(e, JczError::Unsupported(_)), "{e}");
    assert!(
        e.to_string().contains("9 players (carc seats 1 to 6)"),
        "{e}"
    );

    // A format error elsewhere does not hide the unsupported content.
    let mut v = corpus("city-and-road-scoring.jcz");
    v["replay"][0]["payload"]["rotation"] = json!("R45");
    v["setup"]["sets"]["abbey-and-mayor:1"] = json!(1);
    let e = carc_jcz::read(&v.to_string()).unwrap_err();
    assert!(matches!(e, JczError::Unsupported(_)), "{e}");
    // Without it, the format error is what is reported.
    v["setup"]["sets"]
        .as_object_mut()
        .unwrap()
        .remove("abbey-and-mayor:1");
    let e = carc_jcz::read(&v.to_string()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("replay[0].payload.rotation: expected one of"),
        "{e}"
    );
}
