//! Malformed or unsupported JCloisterZone files are refused with an error that says where and
//! what, never a panic and never a wrong replay. UNDO entries are honoured.

mod common;

use carc_jcz::JczError;
use serde_json::{json, Value};

fn corpus(name: &str) -> Value {
    let text = std::fs::read_to_string(common::corpus_dir().join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn read(v: &Value) -> Result<carc_events::Log, JczError> {
    carc_jcz::read(&v.to_string())
}

fn err(v: &Value) -> String {
    read(v).expect_err("must be refused").to_string()
}

#[test]
fn not_json_names_line_and_column() {
    let e = carc_jcz::read("{\"setup\": ").unwrap_err();
    assert!(matches!(e, JczError::Json { line: 1, .. }), "{e}");
    assert!(carc_jcz::read("").is_err());
    assert!(carc_jcz::read("[1,2]")
        .unwrap_err()
        .to_string()
        .contains("the document: expected an object"));
}

#[test]
fn wrong_types_name_the_json_path() {
    let mut v = corpus("tiny-city-rule.jcz");
    v["replay"][0]["payload"]["position"] = json!([0, "x"]);
    let e = err(&v);
    assert!(
        e.contains("replay[0].payload.position: expected a position [x, y]"),
        "{e}"
    );

    let mut v = corpus("tiny-city-rule.jcz");
    v["players"][0]["name"] = json!(7);
    assert!(err(&v).contains("players[0].name: expected a string, found the number 7"));

    let mut v = corpus("tiny-city-rule.jcz");
    v["replay"] = json!({});
    assert!(err(&v).contains("replay: expected an array"));

    let mut v = corpus("tiny-city-rule.jcz");
    v.as_object_mut().unwrap().remove("setup");
    assert!(err(&v).contains("setup: expected a value, found nothing"));

    let mut v = corpus("tiny-city-rule.jcz");
    v["setup"]["elements"]["small-follower"] = json!(0);
    assert!(err(&v).contains("setup.elements.small-follower: expected a number of meeples"));
}

#[test]
fn a_bad_rotation_is_refused() {
    let mut v = corpus("tiny-city-rule.jcz");
    v["replay"][0]["payload"]["rotation"] = json!("R45");
    let e = err(&v);
    assert!(
        e.contains("replay[0].payload.rotation: expected one of \"R0\""),
        "{e}"
    );
    assert!(e.contains("\"R45\""), "{e}");
    let mut v = corpus("tiny-city-rule.jcz");
    v["setup"]["start"][0]["rotation"] = json!(45);
    assert!(err(&v).contains("setup.start[0].rotation"));
}

#[test]
fn everything_unsupported_is_listed_at_once() {
    let mut v = corpus("city-and-road-scoring.jcz");
    v["setup"]["sets"]["tower:1"] = json!(1);
    v["setup"]["elements"]["tower"] = json!(1);
    v["setup"]["rules"]["princess-action"] = json!("must");
    v["replay"][0]["payload"]["tileId"] = json!("TO/CcR");
    v["replay"][4]["payload"]["meepleId"] = json!("1.phantom.1");
    v["replay"][2]["type"] = json!("FLOCK_EXPAND_OR_SCORE");
    let e = read(&v).unwrap_err();
    let JczError::Unsupported(items) = &e else {
        panic!("{e}")
    };
    let text = e.to_string();
    for expected in [
        "tile set \"tower:1\"",
        "game element \"tower\"",
        "rule \"princess-action\"",
        "tile \"TO/CcR\" (at replay[0].payload.tileId)",
        "figure \"phantom\"",
        "move \"FLOCK_EXPAND_OR_SCORE\" (at replay[2])",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in {text}");
    }
    assert_eq!(items.len(), 6, "{items:?}");
}

#[test]
fn an_unknown_tile_id_is_unsupported_wherever_it_is() {
    let mut v = corpus("tiny-city-rule.jcz");
    v["gameAnnotations"]["drawOrder"][1] = json!("BA/Nope");
    v["setup"]["start"][0]["tile"] = json!("RI/RFr");
    let e = err(&v);
    assert!(
        e.contains("tile \"BA/Nope\" (at gameAnnotations.drawOrder[1])"),
        "{e}"
    );
    assert!(
        e.contains("tile \"RI/RFr\" (at setup.start[0].tile)"),
        "{e}"
    );
}

#[test]
fn a_meeple_location_the_tile_does_not_have_lists_the_tile_features() {
    let mut v = corpus("tiny-city-rule.jcz");
    // The tile is BA/CFc.1 turned R90: its city runs N–S; there is no city on W–E.
    v["replay"][1]["payload"]["pointer"]["location"] = json!("WE");
    let e = err(&v);
    assert!(
        e.starts_with(
            "replay[1] (DEPLOY_MEEPLE): tile BA/CFc.1 (G) as placed has no City at location \"WE\""
        ),
        "{e}"
    );
    assert!(e.contains("City NS"), "{e}");

    let mut v = corpus("tiny-city-rule.jcz");
    v["replay"][1]["payload"]["pointer"]["location"] = json!("QQ");
    assert!(err(&v).contains("replay[1].payload.pointer.location: expected a location"));

    let mut v = corpus("tiny-city-rule.jcz");
    v["replay"][1]["payload"]["pointer"]["position"] = json!([5, 5]);
    assert!(err(&v).contains("the meeple goes to [5,5], but the tile just placed lies at [0,-1]"));
}

#[test]
fn illegal_moves_are_refused_with_the_rules_reason() {
    let mut v = corpus("tiny-city-rule.jcz");
    v["replay"][0]["payload"]["position"] = json!([3, 3]);
    let e = err(&v);
    assert!(e.starts_with("replay[0] (PLACE_TILE): "), "{e}");

    let mut v = corpus("tiny-city-rule.jcz");
    v["replay"][3]["payload"]["tileId"] = json!("BA/RRRR");
    let e = err(&v);
    assert!(e.contains("replay[3] (PLACE_TILE): places BA/RRRR, but gameAnnotations.drawOrder[1] says BA/CFC.2 was drawn"), "{e}");

    let mut v = corpus("tiny-city-rule.jcz");
    v["replay"].as_array_mut().unwrap().remove(2);
    let e = err(&v);
    assert!(
        e.contains("replay[2] (PLACE_TILE): out of order: expected COMMIT"),
        "{e}"
    );

    let mut v = corpus("tiny-city-rule.jcz");
    v["replay"][1]["payload"]["meepleId"] = json!("3.small.1");
    assert!(
        err(&v).contains("meeple \"3.small.1\" is player 3's, but it is player 0's turn (Wendy)")
    );

    let mut v = corpus("tiny-city-rule.jcz");
    v["gameAnnotations"]["drawOrder"] = json!(["BA/Cccc+", "BA/Cccc+"]);
    assert!(
        err(&v).contains("gameAnnotations.drawOrder: expected at most 1 copy of tile BA/Cccc+ (C)")
    );
}

#[test]
fn undo_takes_back_the_move_before_it_and_not_across_a_commit() {
    let v = corpus("tiny-city-rule.jcz");
    let plain = read(&v).unwrap();
    // An undone meeple on the field, then the real one: the same game as without.
    let mut undone = v.clone();
    let replay = undone["replay"].as_array_mut().unwrap();
    let wrong_meeple = json!({"type": "DEPLOY_MEEPLE", "payload": {"pointer": {"position": [0, -1],
        "feature": "Field", "location": "EL.ER"}, "meepleId": "0.small.1"}});
    replay.insert(1, wrong_meeple);
    replay.insert(2, json!({"type": "UNDO", "payload": {}}));
    let log = read(&undone).unwrap();
    assert_eq!(log.events, plain.events);

    // An undone placement.
    let mut undone = v.clone();
    let replay = undone["replay"].as_array_mut().unwrap();
    let elsewhere = json!({"type": "PLACE_TILE", "payload": {"tileId": "BA/CFc.1",
        "rotation": "R90", "position": [0, 1]}});
    replay.insert(0, elsewhere);
    replay.insert(1, json!({"type": "UNDO", "payload": {}}));
    assert_eq!(read(&undone).unwrap().events, plain.events);

    // Right after a COMMIT there is nothing to undo.
    let mut v = v;
    v["replay"]
        .as_array_mut()
        .unwrap()
        .insert(3, json!({"type": "UNDO", "payload": {}}));
    let e = err(&v);
    assert!(e.starts_with("replay[3] (UNDO): nothing to undo"), "{e}");
}

#[test]
fn a_game_without_farmers_offers_no_field() {
    let log = read(&corpus("farmers-no-farmers.jcz")).unwrap();
    assert!(!log.header.rules.farmers);
    let mut v = corpus("farmers-no-farmers.jcz");
    v["replay"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "DEPLOY_MEEPLE", "payload": {
        "pointer": {"position": [0, -1], "feature": "Field", "location": "NL.NR"},
        "meepleId": "0.small.1"}}));
    let e = err(&v);
    assert!(e.starts_with("replay[1] (DEPLOY_MEEPLE): "), "{e}");
}

#[test]
fn garbage_never_panics() {
    let base = corpus("city-and-road-scoring.jcz").to_string();
    // Cut the file at every length and replace single characters: errors, never panics.
    for cut in (0..base.len()).step_by(7) {
        let _ = carc_jcz::read(&base[..cut]);
    }
    let bytes = base.as_bytes();
    for i in (0..bytes.len()).step_by(3) {
        for b in [b'0', b'"', b'-', b'[', b'x'] {
            let mut changed = bytes.to_vec();
            changed[i] = b;
            if let Ok(text) = std::str::from_utf8(&changed) {
                let _ = carc_jcz::read(text);
            }
        }
    }
    for value in [
        json!(null),
        json!(1),
        json!("s"),
        json!([]),
        json!({}),
        json!({"setup": 1, "replay": 2, "players": 3}),
    ] {
        assert!(read(&value).is_err());
    }
}

#[test]
fn writing_refuses_what_jcloisterzone_cannot_hold() {
    let mut log = read(&corpus("tiny-city-rule.jcz")).unwrap();
    log.header.rules.expansions = vec!["inns".into()];
    log.header.tile_sets = vec!["base".into(), "mine".into()];
    let e = carc_jcz::write(&log).unwrap_err();
    let t = e.to_string();
    assert!(
        t.contains("expansion \"inns\"") && t.contains("tile sets"),
        "{t}"
    );
    // A game on a map board (Carcassonne Maps) has no JCloisterZone form.
    let mut on_map = read(&corpus("tiny-city-rule.jcz")).unwrap();
    on_map.header.rules.map = Some(carc_events::MapRules {
        name: "germany".into(),
        start_squares: 2,
        town_variants: Vec::new(),
    });
    let t = carc_jcz::write(&on_map).unwrap_err().to_string();
    assert!(t.contains("map board \"germany\""), "{t}");
    let mut empty = read(&corpus("tiny-city-rule.jcz")).unwrap();
    empty.events.clear();
    assert!(carc_jcz::write(&empty)
        .unwrap_err()
        .to_string()
        .contains("no start tile"));
}
