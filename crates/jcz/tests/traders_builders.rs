//! JCloisterZone saved games with Traders & Builders (tile set `traders-and-builders:1`, the
//! elements `traders`, `builder` and `pig`, the figures `"<player>.builder.1"` and
//! `"<player>.pig.1"`; the builder's double turn is the same player's next `PLACE_TILE`): our
//! samples and simulated games written and read back event for event, alone and with the
//! Abbot, the River and Inns & Cathedrals; bad input named by its replay entry.

mod common;
use common::{events, read_err, sample, written};

use carc_events::{setup_from_header, Event, Figure, Log, RulesOptions};
use serde_json::{json, Value};

const SAMPLES: [&str; 2] = [
    "sim-2p-traders-builders-mixed.jsonl",
    "sim-4p-river-abbot-inns-traders.jsonl",
];

/// A whole simulated game with Traders & Builders and `others` (random players).
fn simulated(seed: u64, players: u8, farmers: bool, others: &[&str]) -> Log {
    let mut expansions: Vec<String> = others.iter().map(|e| e.to_string()).collect();
    expansions.push("traders_builders".into());
    let mut sets = vec!["base"];
    for (expansion, set) in [("river", "river"), ("inns_cathedrals", "inns_cathedrals")] {
        if others.contains(&expansion) {
            sets.push(set);
        }
    }
    sets.push("traders_builders");
    let rules = RulesOptions {
        expansions,
        farmers,
        ..RulesOptions::default()
    };
    let header = common::seated_header(format!("sim-tb-{seed}"), players, rules, &sets);
    let setup = setup_from_header(&header, &[]).unwrap();
    common::played(header, setup, seed)
}

fn figures(log: &Log, figure: Figure) -> usize {
    events(log)
        .iter()
        .filter(|e| matches!(e, Event::MeeplePlaced { figure: f, .. } if *f == figure))
        .count()
}

#[test]
fn the_traders_builders_samples_survive_ours_jcz_ours_event_for_event() {
    for name in SAMPLES {
        // Given a sample (two players; four with the River, the Abbot and Inns & Cathedrals)
        let log = sample(name);
        // When it is written as a saved game and read back
        let text = carc_jcz::write(&log).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = carc_jcz::read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Then the events are the same, event for event, builders and pigs included
        assert_eq!(events(&back), events(&log), "{name}");
        assert!(figures(&back, Figure::Builder) > 0, "{name}");
        assert!(figures(&back, Figure::Pig) > 0, "{name}");
        // And so are the rules and the tile sets; writing again gives the same file, and the
        // same final scores and goods
        let (a, b) = common::assert_the_rest_survives(&log, &back, &text, name);
        for seat in 0..log.header.players.len() as u8 {
            assert_eq!(a.goods(seat), b.goods(seat), "{name}");
        }
    }
}

#[test]
fn simulated_traders_builders_games_whole_and_cut_short_survive_ours_jcz_ours() {
    for (seed, players, farmers, others) in [
        (1, 2, true, &[][..]),
        (2, 3, false, &[][..]),
        (3, 4, true, &["abbot"][..]),
        (4, 5, true, &["river", "abbot", "inns_cathedrals"][..]),
        (5, 6, false, &["inns_cathedrals"][..]),
    ] {
        // Given a whole simulated game (with farmers or not; with the Abbot, the River and
        // Inns & Cathedrals or not)
        let log = simulated(seed, players, farmers, others);
        for cut in [log.events.len(), 61, 7] {
            // When it (or its first events: a game in progress) is written and read back
            let part = common::cut(&log, cut);
            let text = carc_jcz::write(&part).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let back = carc_jcz::read(&text).unwrap_or_else(|e| panic!("seed {seed}, {cut}: {e}"));
            // Then the events are the same
            assert_eq!(events(&back), events(&part), "seed {seed}, cut {cut}");
            assert_eq!(back.header.rules.expansions, log.header.rules.expansions);
        }
        let (a, _) = common::replay(&log);
        assert!(a.is_over(), "seed {seed}");
    }
}

#[test]
fn traders_builders_is_written_with_jcloisterzone_names() {
    // Given the two-player sample written as a saved game
    let v = written(SAMPLES[0]);
    // Then the sets and the elements carry JCloisterZone's names
    assert_eq!(
        v["setup"]["sets"],
        json!({"basic:1": 1, "traders-and-builders:1": 1})
    );
    let elements = &v["setup"]["elements"];
    assert_eq!(elements["traders"], true);
    assert_eq!(elements["builder"], 1);
    assert_eq!(elements["pig"], 1);
    // And the builder and the pig are figures number 1, on a Road or City and on a Field
    let replay = v["replay"].as_array().unwrap();
    let deployed = |figure: &str| -> Vec<&Value> {
        replay
            .iter()
            .filter(|e| {
                e["type"] == "DEPLOY_MEEPLE"
                    && e["payload"]["meepleId"]
                        .as_str()
                        .unwrap()
                        .ends_with(&format!(".{figure}.1"))
            })
            .collect()
    };
    let builders = deployed("builder");
    let pigs = deployed("pig");
    assert_eq!(
        builders.len(),
        figures(&sample(SAMPLES[0]), Figure::Builder)
    );
    assert_eq!(pigs.len(), figures(&sample(SAMPLES[0]), Figure::Pig));
    assert!(builders
        .iter()
        .all(|b| ["Road", "City"].contains(&b["payload"]["pointer"]["feature"].as_str().unwrap())));
    assert!(pigs
        .iter()
        .all(|p| p["payload"]["pointer"]["feature"] == "Field"));
    // And the tiles are JCloisterZone's T&B ids
    assert!(replay.iter().any(|e| e["payload"]["tileId"]
        .as_str()
        .is_some_and(|t| t.starts_with("TB/"))));
    // And the four-player sample names all four sets
    let v = written(SAMPLES[1]);
    assert_eq!(
        v["setup"]["sets"],
        json!({"basic:2": 1, "inns-and-cathedrals:1": 1, "river/1:1": 1,
               "traders-and-builders:1": 1})
    );
}

/// The replay entries' players, one per turn (`PLACE_TILE`).
fn turn_players(v: &Value) -> Vec<i64> {
    v["replay"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "PLACE_TILE")
        .map(|e| e["player"].as_i64().unwrap())
        .collect()
}

#[test]
fn the_double_turn_is_the_same_players_next_place_tile() {
    // Given the two-player sample, where Ada's tile at event 40 extends her builder's road
    // or city (docs/rules.md, Traders & Builders: the double turn)
    let log = sample(SAMPLES[0]);
    let ours = seconds(&log);
    assert!(ours > 0);
    // When it is written
    let v = written(SAMPLES[0]);
    // Then as many turns are followed by another PLACE_TILE of the same player (two players
    // alternate otherwise)
    let players = turn_players(&v);
    let repeats = players.windows(2).filter(|w| w[0] == w[1]).count();
    assert_eq!(repeats, ours);
}

/// How many turns of the log are the builder's second turns: the same player draws twice
/// in a row.
fn seconds(log: &Log) -> usize {
    let drawers: Vec<u8> = events(log)
        .iter()
        .filter_map(|e| match e {
            Event::TilePlaced { player, .. } => Some(*player),
            _ => None,
        })
        .collect();
    drawers.windows(2).filter(|w| w[0] == w[1]).count()
}

#[test]
fn a_place_tile_by_the_other_player_during_the_double_turn_is_refused_at_its_entry() {
    // Given the two-player sample written, and the second part of a double turn given to
    // the other player
    let mut v = written(SAMPLES[0]);
    let replay = v["replay"].as_array_mut().unwrap();
    let places: Vec<usize> = (0..replay.len())
        .filter(|&i| replay[i]["type"] == "PLACE_TILE")
        .collect();
    let second = places
        .windows(2)
        .find(|w| replay[w[0]]["player"] == replay[w[1]]["player"])
        .map(|w| w[1])
        .unwrap();
    let other = 1 - replay[second]["player"].as_i64().unwrap();
    replay[second]["player"] = json!(other);
    // When it is read, then the entry is refused: it is still the builder's owner's turn
    let err = read_err(&v);
    assert!(
        err.contains(&format!("replay[{second}] (PLACE_TILE)")),
        "{err}"
    );
    assert!(
        err.contains(&format!("the entry is player {other}'s")),
        "{err}"
    );
}

#[test]
fn a_builder_without_a_meeple_on_its_feature_is_refused_at_its_entry() {
    // Given the two-player sample written, and a small meeple's deployment on a road or
    // city turned into the builder's (the player has no meeple there yet)
    let mut v = written(SAMPLES[0]);
    let replay = v["replay"].as_array_mut().unwrap();
    let at = replay
        .iter()
        .position(|e| {
            e["type"] == "DEPLOY_MEEPLE"
                && e["payload"]["meepleId"]
                    .as_str()
                    .unwrap()
                    .contains(".small.")
                && e["payload"]["pointer"]["feature"] == "Road"
        })
        .unwrap();
    let player = replay[at]["player"].as_i64().unwrap();
    replay[at]["payload"]["meepleId"] = json!(format!("{player}.builder.1"));
    // When it is read, then the entry is refused with the rules' reason
    let err = read_err(&v);
    assert!(
        err.contains(&format!("replay[{at}] (DEPLOY_MEEPLE)")),
        "{err}"
    );
    assert!(err.contains("builder"), "{err}");
}

#[test]
fn a_second_pig_while_the_first_is_on_the_board_is_refused_at_its_entry() {
    // Given the two-player sample written, where a pig is placed, and a later farmer of
    // the same player turned into the same pig
    let mut v = written(SAMPLES[0]);
    let replay = v["replay"].as_array_mut().unwrap();
    let first = replay
        .iter()
        .position(|e| {
            e["payload"]["meepleId"]
                .as_str()
                .is_some_and(|m| m.ends_with(".pig.1"))
        })
        .unwrap();
    let pig = replay[first]["payload"]["meepleId"].clone();
    let player = replay[first]["player"].clone();
    let later = (first + 1..replay.len()).find(|&i| {
        replay[i]["type"] == "DEPLOY_MEEPLE"
            && replay[i]["player"] == player
            && replay[i]["payload"]["pointer"]["feature"] == "Field"
    });
    let Some(later) = later else {
        panic!("no later farmer of player {player}")
    };
    replay[later]["payload"]["meepleId"] = pig;
    // When it is read, then that entry is refused: the pig is not in the supply
    let err = read_err(&v);
    assert!(
        err.contains(&format!("replay[{later}] (DEPLOY_MEEPLE)")),
        "{err}"
    );
    assert!(err.contains("pig"), "{err}");
}

#[test]
fn a_farmer_on_jcloisterzones_inner_field_of_a_traders_tile_is_refused_naming_it() {
    // Given a simulated game written where a tile with JCloisterZone's inner field (TB/CcCc.w,
    // TB/CcCC.c, TB/CCc.c, TB/CCc.w) is placed and passed over, and a farmer put on it
    let inner = ["TB/CcCc.w", "TB/CcCC.c", "TB/CCc.c", "TB/CCc.w"];
    let (mut v, at) = (1..40)
        .find_map(|seed| {
            let log = simulated(seed, 2, true, &[]);
            let v: Value = serde_json::from_str(&carc_jcz::write(&log).unwrap()).unwrap();
            let replay = v["replay"].as_array().unwrap();
            let at = (0..replay.len() - 1).find(|&i| {
                inner.contains(&replay[i]["payload"]["tileId"].as_str().unwrap_or(""))
                    && replay[i + 1]["type"] == "PASS"
            })?;
            Some((v, at))
        })
        .unwrap();
    let replay = v["replay"].as_array_mut().unwrap();
    let tile = replay[at]["payload"]["tileId"]
        .as_str()
        .unwrap()
        .to_string();
    let player = replay[at]["player"].clone();
    let position = replay[at]["payload"]["position"].clone();
    replay[at + 1] = json!({"type": "DEPLOY_MEEPLE", "player": player, "payload": {
        "pointer": {"position": position, "feature": "Field", "location": "I"},
        "meepleId": format!("{player}.small.7")}});
    // When it is read, then the entry is refused, naming the field carc's tile lacks
    let err = read_err(&v);
    assert!(err.contains(&format!("replay[{}]", at + 1)), "{err}");
    assert!(err.contains(&format!("inner field of {tile}")), "{err}");
}

#[test]
fn the_garden_set_is_read_without_the_abbot_and_refused_with_it() {
    // Given the two-player sample written with the garden edition of the set: read without
    // the abbot as the same game, refused with it naming the set
    common::garden_set_reads_without_the_abbot_only(
        SAMPLES[0],
        "traders-and-builders:1",
        "traders-and-builders:2",
    );
}

#[test]
fn the_set_without_its_elements_or_the_elements_without_the_set_are_unsupported() {
    // Given the two-player sample written without the pig
    let mut v = written(SAMPLES[0]);
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("pig");
    let err = read_err(&v);
    assert!(
        err.contains("Traders & Builders without all of the elements"),
        "{err}"
    );
    // And a base game given a builder
    let mut v = written(SAMPLES[0]);
    v["setup"]["sets"]
        .as_object_mut()
        .unwrap()
        .remove("traders-and-builders:1");
    let err = read_err(&v);
    assert!(
        err.contains("the elements \"traders\", \"builder\" or \"pig\" without the tile set"),
        "{err}"
    );
    // And two pigs per player is a value carc does not read
    let mut v = written(SAMPLES[0]);
    v["setup"]["elements"]["pig"] = json!(2);
    let err = read_err(&v);
    assert!(err.contains("setup.elements.pig"), "{err}");
    assert!(err.contains("1 (one pig per player)"), "{err}");
}

/// At each skipped meeple step of `log`: whether JCloisterZone offers a figure there, and
/// whether our rules offered the builder only on a road or city the tile just completed.
fn skips(log: &Log) -> Vec<(bool, bool)> {
    use carc_rules::{Phase, ScoreTime, Special};
    let mut game = carc_events::game_from_header(&log.header, &[]).unwrap();
    let mut fx = carc_rules::Effects::default();
    let (mut spots, mut abbot) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for (_, env) in &log.events {
        if let (Event::MeepleSkipped { .. }, Phase::Meeple { at }) = (&env.event, game.phase()) {
            let mut offered = false;
            game.legal_meeples(&mut spots);
            offered |= !spots.is_empty();
            game.legal_large_meeples(&mut spots);
            offered |= !spots.is_empty();
            game.legal_abbot_moves(&mut abbot);
            offered |= !abbot.is_empty();
            game.legal_specials(Special::Pig, &mut spots);
            offered |= !spots.is_empty();
            // JCloisterZone's small field inside four T&B tiles and IC/CCCC
            let tile = &game.tiles().get(game.tile_at(at).unwrap().tile).id;
            let seat = game.current_player();
            offered |= ["IC17", "TB3", "TB4", "TB13", "TB14"].contains(&tile.as_str())
                && log.header.rules.farmers
                && (game.supply()[usize::from(seat)] > 0 || game.large_meeple_in_supply(seat));
            game.legal_specials(Special::Builder, &mut spots);
            let open = |s: &carc_rules::MeepleSpot| {
                game.appraise(at, s.segment).unwrap().time != ScoreTime::Completed
            };
            let only_completed = !offered && !spots.is_empty() && !spots.iter().any(open);
            offered |= spots.iter().any(open);
            out.push((offered, only_completed));
        }
        let action = carc_events::event_to_action(&game, &env.event).unwrap();
        game.apply(&action, &mut fx).unwrap();
    }
    out
}

#[test]
fn a_pass_is_written_only_where_jcloisterzone_offers_a_figure() {
    // JCloisterZone never offers the builder on a road or city the tile just completed
    // (docs/jcz.md, Traders & Builders): where that was our only figure move, the turn is
    // PLACE_TILE and COMMIT, or JCloisterZone refuses the PASS ("Pass is not allowed").
    let mut only_completed = 0;
    for (seed, players, farmers, others) in [
        (2007, 2, false, &[][..]),
        (2001, 2, true, &[][..]),
        (4013, 4, true, &[][..]),
        (2004, 2, true, &["abbot"][..]),
        (4000, 4, true, &["river", "abbot", "inns_cathedrals"][..]),
    ] {
        // Given a simulated game with builders and pigs (and large meeples and abbots)
        let log = simulated(seed, players, farmers, others);
        let skips = skips(&log);
        // When it is written
        let v: Value = serde_json::from_str(&carc_jcz::write(&log).unwrap()).unwrap();
        let passes = v["replay"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "PASS")
            .count();
        // Then a PASS stands exactly where JCloisterZone offers a figure
        assert_eq!(passes, skips.iter().filter(|s| s.0).count(), "seed {seed}");
        only_completed += skips.iter().filter(|s| s.1).count();
    }
    // And some turns offered our builder only on a completed feature: the test could fail
    assert!(only_completed > 0);
}

#[test]
fn the_pig_herd_element_changes_nothing_without_pig_herd_tiles() {
    // Given the two-player sample written with JCloisterZone's element "pig-herd", which its
    // client turned on with Traders & Builders (no tile of the mapped sets has a pig herd)
    let mut v = written(SAMPLES[0]);
    v["setup"]["elements"]["pig-herd"] = json!(true);
    // When it is read, then it is the same game
    let back = carc_jcz::read(&v.to_string()).unwrap();
    assert_eq!(events(&back), events(&sample(SAMPLES[0])));
    assert_eq!(back.header.rules, sample(SAMPLES[0]).header.rules);
}
