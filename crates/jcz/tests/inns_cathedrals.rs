//! JCloisterZone saved games with Inns & Cathedrals (tile set `inns-and-cathedrals:1`, the
//! elements `big-follower`, `inn` and `cathedral`, the big follower `"<player>.big.1"` as our
//! large meeple): our samples written and read back event for event, alone and with the
//! River and the Abbot; what JCloisterZone has that carc does not is refused by name.

mod common;
use common::{events, read_err, sample, written};

use carc_events::{Event, Figure};
use serde_json::{json, Value};

const SAMPLES: [&str; 3] = [
    "sim-2p-inns-cathedrals-mixed.jsonl",
    "sim-6p-inns-cathedrals-mixed.jsonl",
    "sim-4p-river-abbot-inns-cathedrals.jsonl",
];

#[test]
fn the_inns_cathedrals_samples_survive_ours_jcz_ours_event_for_event() {
    for name in SAMPLES {
        // Given a sample (two and six players; four with the River and the Abbot)
        let log = sample(name);
        // When it is written as a saved game and read back
        let text = carc_jcz::write(&log).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = carc_jcz::read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Then the events are the same, event for event, large meeples included
        assert_eq!(events(&back), events(&log), "{name}");
        assert!(events(&back).iter().any(|e| matches!(
            e,
            Event::MeeplePlaced {
                figure: Figure::Large,
                ..
            }
        )));
        // And so are the rules and the tile sets; writing again gives the same file, and the
        // same final scores
        common::assert_the_rest_survives(&log, &back, &text, name);
    }
}

#[test]
fn a_game_cut_short_survives_ours_jcz_ours() {
    let log = sample(SAMPLES[0]);
    for cut in [12, 40, 101] {
        let part = common::cut(&log, cut);
        let back = carc_jcz::read(&carc_jcz::write(&part).unwrap()).unwrap();
        assert_eq!(events(&back), events(&part), "cut {cut}");
    }
}

#[test]
fn inns_cathedrals_is_written_with_jcloisterzone_names() {
    // Given the two-player sample written as a saved game
    let v = written(SAMPLES[0]);
    // Then the sets, the elements and the big follower carry JCloisterZone's names
    assert_eq!(
        v["setup"]["sets"],
        json!({"basic:1": 1, "inns-and-cathedrals:1": 1})
    );
    let elements = &v["setup"]["elements"];
    assert_eq!(elements["big-follower"], 1);
    assert_eq!(elements["inn"], true);
    assert_eq!(elements["cathedral"], true);
    let replay = v["replay"].as_array().unwrap();
    // Event 19 of the sample: Brandt's large meeple on the inn road of IC3 (JCZ IC/Rr.i)
    let big = replay
        .iter()
        .find(|e| e["payload"]["meepleId"] == "1.big.1")
        .unwrap();
    assert_eq!(big["type"], "DEPLOY_MEEPLE");
    assert_eq!(big["payload"]["pointer"]["feature"], "Road");
    let placed = replay
        .iter()
        .filter(|e| e["type"] == "PLACE_TILE")
        .find(|e| e["payload"]["position"] == big["payload"]["pointer"]["position"])
        .unwrap();
    assert_eq!(placed["payload"]["tileId"], "IC/Rr.i");
    // And the four-player sample names all three sets and the river's and abbot's elements
    let v = written(SAMPLES[2]);
    assert_eq!(
        v["setup"]["sets"],
        json!({"basic:2": 1, "inns-and-cathedrals:1": 1, "river/1:1": 1})
    );
}

#[test]
fn a_second_big_follower_on_the_board_is_refused_at_its_entry() {
    // Given the sample where a player's large meeple is on the board, and a later
    // deployment of a small meeple turned into the same big follower
    let mut v = written(SAMPLES[0]);
    let replay = v["replay"].as_array_mut().unwrap();
    let first = replay
        .iter()
        .position(|e| e["payload"]["meepleId"] == "1.big.1")
        .unwrap();
    let next = first
        + 1
        + replay[first + 1..]
            .iter()
            .position(|e| e["type"] == "DEPLOY_MEEPLE" && e["player"] == 1)
            .unwrap();
    replay[next]["payload"]["meepleId"] = json!("1.big.1");
    // When it is read
    let err = read_err(&v);
    // Then it is refused where it happens, with the rules' reason
    assert!(
        err.contains(&format!("replay[{next}] (DEPLOY_MEEPLE)")),
        "{err}"
    );
    assert!(err.contains("large meeple"), "{err}");
}

#[test]
fn a_big_follower_without_the_expansion_is_refused_by_the_rules() {
    // Given a base game (corpus) whose first meeple is made a big follower
    let text =
        std::fs::read_to_string(common::corpus_dir().join("city-and-road-scoring.jcz")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let replay = v["replay"].as_array_mut().unwrap();
    let at = replay
        .iter()
        .position(|e| e["type"] == "DEPLOY_MEEPLE")
        .unwrap();
    let id = replay[at]["payload"]["meepleId"]
        .as_str()
        .unwrap()
        .to_string();
    let owner = id.split('.').next().unwrap().to_string();
    replay[at]["payload"]["meepleId"] = json!(format!("{owner}.big.1"));
    // When it is read, then the entry is refused: the expansion is not on
    let err = read_err(&v);
    assert!(err.contains(&format!("replay[{at}]")), "{err}");
}

#[test]
fn inns_cathedrals_without_its_elements_is_refused_naming_them() {
    // Given the sample written, with the inns' element taken out
    let mut v = written(SAMPLES[0]);
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("inn");
    // Then it is refused as unsupported, naming the elements
    let err = read_err(&v);
    assert!(
        err.contains("Inns & Cathedrals without all of the elements"),
        "{err}"
    );
}

#[test]
fn a_farmer_on_jcloisterzones_inner_field_of_ic_cccc_is_refused_naming_it() {
    // Given the sample written, where IC/CCCC (our IC17) is placed and passed over, and a
    // farmer put on the small field JCloisterZone draws between its four cities
    let mut v = written(SAMPLES[0]);
    let replay = v["replay"].as_array_mut().unwrap();
    let at = replay
        .iter()
        .position(|e| e["payload"]["tileId"] == "IC/CCCC")
        .unwrap();
    assert_eq!(replay[at + 1]["type"], "PASS");
    let player = replay[at]["player"].clone();
    let position = replay[at]["payload"]["position"].clone();
    replay[at + 1] = json!({"type": "DEPLOY_MEEPLE", "player": player, "payload": {
        "pointer": {"position": position, "feature": "Field", "location": "I"},
        "meepleId": format!("{player}.small.7")}});
    // When it is read, then the entry is refused, naming the field carc's IC17 lacks
    let err = read_err(&v);
    assert!(err.contains(&format!("replay[{}]", at + 1)), "{err}");
    assert!(err.contains("inner field of IC/CCCC"), "{err}");
}

#[test]
fn the_garden_set_is_read_without_the_abbot_and_refused_with_it() {
    // Given the two-player sample written with the garden edition of the set: read without
    // the abbot as the same game, refused with it naming the set
    common::garden_set_reads_without_the_abbot_only(
        SAMPLES[0],
        "inns-and-cathedrals:1",
        "inns-and-cathedrals:2",
    );
}
