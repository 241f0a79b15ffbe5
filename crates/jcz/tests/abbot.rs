//! JCloisterZone saved games with The Abbot (elements `abbot` and `garden`, tile set
//! `basic:2` with the garden variants, the abbot deployed with DEPLOY_MEEPLE and taken back
//! with RETURN_MEEPLE from ABBOT_RETURN): written from our sample game and read back.

use carc_events::{read_log, Event, Log};
use serde_json::Value;

fn sample() -> Log {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs/sim-3p-abbot-mixed.jsonl");
    read_log(&std::fs::read(path).unwrap()).unwrap()
}

fn events(log: &Log) -> Vec<Event> {
    log.events.iter().map(|(_, e)| e.event.clone()).collect()
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
