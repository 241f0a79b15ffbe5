//! JCloisterZone saved games with The Abbot (elements `abbot` and `garden`, tile set
//! `basic:2` with the garden variants, the abbot deployed with DEPLOY_MEEPLE and taken back
//! with RETURN_MEEPLE from ABBOT_RETURN): written from our sample game and read back.

mod common;
use common::events;

use carc_events::{read_log, Event, Log};
use serde_json::Value;

fn sample() -> Log {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs/sim-3p-abbot-mixed.jsonl");
    read_log(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn an_abbot_game_survives_ours_jcz_ours() {
    // Given the abbot sample game
    let log = sample();
    // When it is written as a saved game and read back
    let written = carc_jcz::write(&log).unwrap();
    let back = carc_jcz::read(&written).unwrap();
    // Then the events, the rules and the bag are the same, garden copies included
    assert_eq!(events(&back), events(&log));
    assert_eq!(back.header.rules, log.header.rules);
    assert_eq!(back.header.rules.expansions, vec!["abbot".to_string()]);
    assert!(events(&back).iter().any(|e| matches!(e,
        Event::TileDrawn { tile, .. } if tile.as_str().ends_with("+garden"))));
    // And writing is deterministic
    assert_eq!(carc_jcz::write(&back).unwrap(), written);
}

#[test]
fn the_abbot_is_written_the_jcloisterzone_way() {
    let written = carc_jcz::write(&sample()).unwrap();
    let v: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(v["setup"]["sets"]["basic:2"], 1);
    assert_eq!(v["setup"]["elements"]["abbot"], 1);
    assert_eq!(v["setup"]["elements"]["garden"], true);
    let replay = v["replay"].as_array().unwrap();
    // Event 25 of the sample: Brandt's abbot on the garden at (-1,-2), JCloisterZone's [-1,2]
    let deploy = replay
        .iter()
        .find(|e| e["type"] == "DEPLOY_MEEPLE" && e["payload"]["meepleId"] == "1.abbot.1")
        .unwrap();
    assert_eq!(deploy["payload"]["pointer"]["feature"], "Garden");
    assert_eq!(deploy["payload"]["pointer"]["location"], "I");
    assert_eq!(
        deploy["payload"]["pointer"]["position"],
        serde_json::json!([-1, 2])
    );
    let back = replay
        .iter()
        .find(|e| e["type"] == "RETURN_MEEPLE")
        .unwrap();
    assert_eq!(back["payload"]["source"], "ABBOT_RETURN");
    assert_eq!(back["payload"]["pointer"]["meepleId"], "2.abbot.1");
    assert_eq!(
        back["payload"]["pointer"]["featurePointer"]["feature"],
        "Garden"
    );
    // The garden variants are named in the draw order
    let order = v["gameAnnotations"]["drawOrder"].as_array().unwrap();
    assert!(order
        .iter()
        .any(|t| t.as_str().is_some_and(|t| t.ends_with('G'))));
}

#[test]
fn the_abbot_without_gardens_and_other_returns_are_refused_as_unsupported() {
    let written = carc_jcz::write(&sample()).unwrap();
    // Given the file without the garden element
    let mut v: Value = serde_json::from_str(&written).unwrap();
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("garden");
    let err = carc_jcz::read(&v.to_string()).unwrap_err().to_string();
    assert!(err.contains("the abbot without gardens"), "{err}");
    // Given a return of another source (a princess, a festival…)
    let mut v: Value = serde_json::from_str(&written).unwrap();
    let replay = v["replay"].as_array_mut().unwrap();
    let back = replay
        .iter_mut()
        .find(|e| e["type"] == "RETURN_MEEPLE")
        .unwrap();
    back["payload"]["source"] = "FESTIVAL".into();
    let err = carc_jcz::read(&v.to_string()).unwrap_err().to_string();
    assert!(
        err.contains(r#"RETURN_MEEPLE of figure "abbot" by "FESTIVAL""#),
        "{err}"
    );
}

#[test]
fn a_base_game_reads_the_garden_variants_as_plain_tiles() {
    // Given the abbot sample written, then told it has no abbot (and no abbot moves)
    let mut log = sample();
    log.header.rules.expansions.clear();
    let text = carc_jcz::write(&sample()).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let elements = v["setup"]["elements"].as_object_mut().unwrap();
    elements.remove("abbot");
    elements.remove("garden");
    let replay = v["replay"].as_array_mut().unwrap();
    replay.retain(|e| {
        !(e["type"] == "RETURN_MEEPLE"
            || (e["type"] == "DEPLOY_MEEPLE"
                && e["payload"]["meepleId"]
                    .as_str()
                    .is_some_and(|m| m.contains("abbot"))))
    });
    // When it is read
    let read = carc_jcz::read(&v.to_string()).unwrap();
    // Then it is a base game whose tiles are the plain letters
    assert!(read.header.rules.expansions.is_empty());
    assert!(events(&read).iter().all(|e| match e {
        Event::TileDrawn { tile, .. } => !tile.as_str().contains('+'),
        _ => true,
    }));
}

/// Seat 0 (one meeple, out on a road) completes the garden its abbot stands on and places
/// no figure: the log of that game, in progress.
fn garden_completed_by_its_abbot_owner() -> Log {
    use carc_events::{game_from_header, Color, Header, Player, RulesOptions};
    use carc_rules::{Action, Effects, Pos, Rotation, SegmentLabel};
    let header = Header {
        game: "garden-completed".into(),
        players: vec![
            Player {
                name: "Ada".into(),
                color: Color::Red,
            },
            Player {
                name: "Bo".into(),
                color: Color::Blue,
            },
        ],
        rules: RulesOptions {
            expansions: vec!["abbot".into()],
            meeples: 1,
            ..RulesOptions::default()
        },
        tile_sets: vec!["base".into()],
        bag: None,
        source: None,
        comment: None,
    };
    let mut game = game_from_header(&header, &[]).unwrap();
    let mut fx = Effects::default();
    let mut actions = Vec::new();
    let mut act = |game: &mut carc_rules::Game, action: Action| {
        game.apply(&action, &mut fx)
            .unwrap_or_else(|e| panic!("{action:?}: {e}"));
        actions.push(action);
    };
    let tile = |game: &carc_rules::Game, id: &str| game.tiles().find(id).unwrap();
    let d = tile(&game, "D");
    act(
        &mut game,
        Action::PlaceStart {
            tile: d,
            at: Pos::new(0, 0),
            rotation: Rotation::default(),
        },
    );
    // (tile, square, degrees, what follows: a meeple's label, the abbot's, or nothing)
    let turns: [(&str, i32, i32, u32, &str); 9] = [
        ("E+garden", 0, -1, 180, "abbot garden"),
        ("U", -1, 0, 90, ""),
        ("U", 1, 0, 90, "road W"),
        ("B", -1, -1, 0, ""),
        ("B", 1, -1, 0, ""),
        ("B", -1, -2, 0, ""),
        ("B", 1, -2, 0, ""),
        ("U", 2, 0, 90, ""),
        // The eighth square around the garden, by the abbot's owner, who has no meeple left
        ("E", 0, -2, 0, ""),
    ];
    for (id, x, y, degrees, then) in turns {
        let t = tile(&game, id);
        act(&mut game, Action::Draw { tile: t });
        let at = Pos::new(x, y);
        let rotation = Rotation::from_degrees(degrees).unwrap();
        act(&mut game, Action::Place { at, rotation });
        let step = if let Some(label) = then.strip_prefix("abbot ") {
            let label: SegmentLabel = label.parse().unwrap();
            let segment = game.resolve_abbot_target(at, &label).unwrap();
            Action::PlaceAbbot {
                at,
                segment,
                portal: false,
            }
        } else if then.is_empty() {
            Action::SkipMeeple
        } else {
            let label: SegmentLabel = then.parse().unwrap();
            Action::PlaceMeeple {
                segment: game.resolve_meeple_target(&label).unwrap(),
            }
        };
        act(&mut game, step);
    }
    let start = game_from_header(&header, &[]).unwrap();
    carc_events::record_actions(header, start, &actions)
        .unwrap()
        .0
}

#[test]
fn no_pass_where_only_a_take_back_from_the_completed_garden_would_be_offered() {
    // Given a game whose last turn completes the garden of the player's own abbot, with no
    // meeple in the player's supply and nothing placed
    let log = garden_completed_by_its_abbot_owner();
    assert!(log
        .events
        .iter()
        .any(|(_, e)| matches!(e.event, Event::MeepleSkipped { player: 0 })));
    // When it is written as a saved game
    let written = carc_jcz::write(&log).unwrap();
    let v: Value = serde_json::from_str(&written).unwrap();
    let replay = v["replay"].as_array().unwrap();
    // Then the last turn is PLACE_TILE and COMMIT: JCloisterZone offers no move there (no
    // meeple, and no take-back from a garden the tile completes), so it would refuse a PASS
    let types: Vec<&str> = replay.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types[types.len() - 2..],
        ["PLACE_TILE", "COMMIT"],
        "{types:?}"
    );
    assert_eq!(
        replay[replay.len() - 2]["payload"]["position"],
        serde_json::json!([0, 2])
    );
    // And it reads back as the same game
    let back = carc_jcz::read(&written).unwrap();
    assert_eq!(events(&back), events(&log));
}

#[test]
fn the_garden_element_is_on_with_any_value_as_in_jcloisterzone() {
    // Given our game written as a saved game, its element `garden` set the way JCloisterZone's
    // own test game `basic/garden-scoring.jcz` has it (`1`), or to another non-null value
    let log = garden_completed_by_its_abbot_owner();
    let written = carc_jcz::write(&log).unwrap();
    for value in [
        serde_json::json!(1),
        serde_json::json!("yes"),
        serde_json::json!({}),
    ] {
        let mut v: Value = serde_json::from_str(&written).unwrap();
        v["setup"]["elements"]["garden"] = value.clone();
        // When it is read
        let back =
            carc_jcz::read(&v.to_string()).unwrap_or_else(|e| panic!("\"garden\": {value}: {e}"));
        // Then it is the same abbot game, and the garden scores 9 for its abbot's owner
        assert_eq!(events(&back), events(&log), "\"garden\": {value}");
        let (game, _) = common::replay(&back);
        assert_eq!(game.scores().to_vec(), vec![9, 0], "\"garden\": {value}");
    }
    // And `null`, as JCloisterZone reads it, is no element: the abbot without gardens
    let mut v: Value = serde_json::from_str(&written).unwrap();
    v["setup"]["elements"]["garden"] = Value::Null;
    let err = carc_jcz::read(&v.to_string()).unwrap_err().to_string();
    assert!(err.contains("the abbot without gardens"), "{err}");
}
