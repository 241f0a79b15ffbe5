//! JCloisterZone saved games with The River (tile set `river/1:1`, the spring `RI/s` as start
//! tile, the river tiles first in the draw order and the lake after them): our River games
//! written and read back event for event, JCloisterZone's names and bag, and bad input named
//! by its replay entry.

mod common;
use common::events;

use carc_events::{read_log, setup_from_header, Log, RulesOptions};
use serde_json::{json, Value};

fn logs_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs")
}

/// Our sample logs of the River whose other expansions JCloisterZone export maps.
fn river_samples() -> Vec<(String, Log)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(logs_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let log = read_log(&std::fs::read(&path).unwrap()).unwrap();
        let rules = &log.header.rules;
        if rules.expansions.iter().any(|e| e == "river")
            && rules
                .expansions
                .iter()
                .all(|e| ["river", "abbot", "inns_cathedrals"].contains(&e.as_str()))
            && carc_jcz::write(&log).is_ok()
        {
            out.push((path.display().to_string(), log));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// A whole simulated River game (random players) as our log.
fn simulated(seed: u64, players: u8, abbot: bool) -> Log {
    let mut expansions = vec!["river".to_string()];
    if abbot {
        expansions.push("abbot".into());
    }
    let rules = RulesOptions {
        expansions,
        ..RulesOptions::default()
    };
    let header = common::seated_header(
        format!("sim-river-{seed}"),
        players,
        rules,
        &["base", "river"],
    );
    let setup = setup_from_header(&header, &[]).unwrap();
    common::played(header, setup, seed)
}

fn river_game() -> (String, Value) {
    let log = simulated(1, 2, false);
    let text = carc_jcz::write(&log).unwrap();
    let v = serde_json::from_str(&text).unwrap();
    (text, v)
}

#[test]
fn the_river_samples_survive_ours_jcz_ours_event_for_event() {
    // Given our sample River games (alone; with the Abbot and Inns & Cathedrals once mapped)
    let samples = river_samples();
    assert!(
        samples
            .iter()
            .any(|(p, _)| p.ends_with("sim-2p-river-mixed.jsonl")),
        "{:?}",
        samples.iter().map(|s| &s.0).collect::<Vec<_>>()
    );
    for (path, log) in samples {
        // When each is written as a saved game and read back
        let written = carc_jcz::write(&log).unwrap();
        let back = carc_jcz::read(&written).unwrap_or_else(|e| panic!("{path}: {e}"));
        // Then the events are the same, event for event, and so are the rules
        assert_eq!(events(&back), events(&log), "{path}");
        assert_eq!(back.header.rules, log.header.rules, "{path}");
        // And writing again gives the same file
        assert_eq!(carc_jcz::write(&back).unwrap(), written, "{path}");
        let (a, _) = common::replay(&log);
        let (b, _) = common::replay(&back);
        assert!(b.is_over(), "{path}");
        assert_eq!(a.scores(), b.scores(), "{path}");
    }
}

#[test]
fn simulated_river_games_whole_and_cut_short_survive_ours_jcz_ours() {
    for (seed, players, abbot) in [(2, 2, false), (3, 3, true), (4, 4, false), (5, 5, true)] {
        // Given a whole simulated River game (with the Abbot or not)
        let log = simulated(seed, players, abbot);
        for cut in [log.events.len(), 30, 5] {
            // When it (or its first events: a game in progress, on the river or after it)
            // is written and read back
            let part = common::cut(&log, cut);
            let written = carc_jcz::write(&part).unwrap();
            let back =
                carc_jcz::read(&written).unwrap_or_else(|e| panic!("seed {seed}, {cut}: {e}"));
            // Then the events are the same
            assert_eq!(events(&back), events(&part), "seed {seed}, cut {cut}");
            assert_eq!(back.header.rules.expansions, log.header.rules.expansions);
        }
    }
}

#[test]
fn the_river_is_written_with_jcloisterzone_names() {
    // Given a River game written as a saved game
    let (_, v) = river_game();
    // Then the sets are the base set and the first river without its garden curve, with
    // the client's element
    assert_eq!(v["setup"]["sets"], json!({"basic:1": 1, "river/1:1": 1}));
    assert_eq!(v["setup"]["elements"]["river"], true);
    // And the start tile is the spring at [0,0], its river flowing south as ours (JCZ R90)
    assert_eq!(
        v["setup"]["start"],
        json!([{"tile": "RI/s", "x": 0, "y": 0, "rotation": 90}])
    );
    // And the draw order deals the ten river tiles first, then the lake
    let order: Vec<&str> = v["gameAnnotations"]["drawOrder"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        order[..10].iter().all(|t| t.starts_with("RI.1/")),
        "{order:?}"
    );
    assert_eq!(order[10], "RI.1/I.e");
    assert_eq!(order.last(), Some(&"#END"));
    assert!(order[11..order.len() - 1]
        .iter()
        .all(|t| t.starts_with("BA/")));
    // And the first placement continues the river below the spring: JCZ's [0,1]
    assert_eq!(v["replay"][0]["payload"]["position"], json!([0, 1]));
}

#[test]
fn a_river_game_in_progress_reads_with_jcloisterzones_bag() {
    // Given a River game cut on the river, written without the end marker
    let log = common::cut(&simulated(6, 2, false), 8);
    let back = carc_jcz::read(&carc_jcz::write(&log).unwrap()).unwrap();
    // Then it reads with the bag JCloisterZone deals: the whole base set, all four copies of
    // the base start tile D included (the spring is the start tile), and the river's twelve
    let bag = back.header.bag.as_ref().expect("an explicit bag");
    assert_eq!(bag.get(&carc_events::TileId::new("D").unwrap()), Some(&4));
    assert_eq!(bag.values().map(|&n| u32::from(n)).sum::<u32>(), 72 + 12);
    // And it is still in progress
    let (game, _) = common::replay(&back);
    assert!(!game.is_over());
}

#[test]
fn a_land_tile_placed_before_the_river_is_done_is_refused_at_its_entry() {
    // Given a River game whose first placement is made the first land tile (swapped in the
    // draw order)
    let (_, mut v) = river_game();
    let order = v["gameAnnotations"]["drawOrder"].as_array_mut().unwrap();
    order.swap(0, 11);
    let land = order[0].clone();
    v["replay"][0]["payload"]["tileId"] = land;
    // When it is read
    let err = carc_jcz::read(&v.to_string()).unwrap_err();
    // Then the error names the replay entry and the river's draw order
    let text = err.to_string();
    assert!(text.contains("replay[0] (PLACE_TILE)"), "{text}");
    assert!(text.contains("river tiles are drawn before"), "{text}");
    assert_eq!(err.path().as_deref(), Some("replay[0]"));
}

#[test]
fn the_lake_before_the_last_river_tile_is_refused_at_its_entry() {
    // Given a River game whose first river tile is swapped for the lake
    let (_, mut v) = river_game();
    let order = v["gameAnnotations"]["drawOrder"].as_array_mut().unwrap();
    order.swap(0, 10);
    v["replay"][0]["payload"]["tileId"] = json!("RI.1/I.e");
    // When it is read
    let err = carc_jcz::read(&v.to_string()).unwrap_err().to_string();
    // Then the lake is refused where it is placed
    assert!(err.contains("replay[0] (PLACE_TILE)"), "{err}");
    assert!(
        err.contains("lake comes after every other river tile"),
        "{err}"
    );
}

#[test]
fn a_river_tile_that_does_not_continue_the_river_is_refused_at_its_entry() {
    // Given a River game whose first river tile is the straight one (swapped in the draw
    // order), placed east of the spring with its river N–S: its sides match the spring's
    // field, but the river's open end is south of the spring
    let (_, mut v) = river_game();
    let order = v["gameAnnotations"]["drawOrder"].as_array_mut().unwrap();
    let straight = order.iter().position(|t| t == "RI.1/IFI").unwrap();
    order.swap(0, straight);
    v["replay"][0]["payload"] =
        json!({"tileId": "RI.1/IFI", "rotation": "R90", "position": [1, 0]});
    // When it is read
    let err = carc_jcz::read(&v.to_string()).unwrap_err().to_string();
    // Then the placement is refused with the rules' reason, at its entry
    assert!(err.contains("replay[0] (PLACE_TILE)"), "{err}");
    assert!(err.contains("does not continue the river"), "{err}");
}

#[test]
fn the_base_start_tile_with_the_river_is_refused() {
    // Given a River game that starts on the base start tile instead of the spring
    let (_, mut v) = river_game();
    v["setup"]["start"] = json!([{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]);
    // When it is read, then the start is refused with the rules' reason
    let err = carc_jcz::read(&v.to_string()).unwrap_err().to_string();
    assert!(err.contains("setup.start[0]"), "{err}");
    assert!(err.contains("spring"), "{err}");
}

#[test]
fn the_garden_river_set_is_read_without_the_abbot_and_refused_with_it() {
    // Given a River game written with the second river set (one curve a garden variant)
    let (_, mut v) = river_game();
    let sets = v["setup"]["sets"].as_object_mut().unwrap();
    sets.remove("river/1:1");
    sets.insert("river/1:2".into(), json!(1));
    // Then without the abbot it reads (the garden has no effect)
    assert!(carc_jcz::read(&v.to_string()).is_ok());
    // And with the abbot it is refused, naming the set: carc's River has no garden
    v["setup"]["elements"]["abbot"] = json!(1);
    v["setup"]["elements"]["garden"] = json!(true);
    let sets = v["setup"]["sets"].as_object_mut().unwrap();
    sets.remove("basic:1");
    sets.insert("basic:2".into(), json!(1));
    let err = carc_jcz::read(&v.to_string()).unwrap_err().to_string();
    assert!(
        err.contains("tile set \"river/1:2\" with the abbot"),
        "{err}"
    );
}
