//! Importing small BGA replays written for these tests (`tests/fixtures/`: the first 40
//! packets of a corpus game, the same table abandoned, and that one with every display text
//! translated), and refusing bad ones with an error that says where, never a panic.

use carc_bga::{BgaError, Imported};
use carc_events::{write_log, Assertion, Color, Event, FeatureKind, Pos, Rotation, TileId};
use carc_replay::{check_assertions, fold};
use serde_json::{json, Value};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(path).unwrap()
}

fn fixture_json(name: &str) -> Value {
    serde_json::from_slice(&fixture(name)).unwrap()
}

fn import(v: &Value) -> Result<Imported, BgaError> {
    carc_bga::import(v.to_string().as_bytes())
}

fn err(v: &Value) -> BgaError {
    import(v).expect_err("must be refused")
}

/// The notification `n` of packet `p`.
fn note(v: &mut Value, p: usize, n: usize) -> &mut Value {
    &mut v["data"]["data"][p]["data"][n]
}

#[test]
fn a_cut_replay_imports_as_a_game_in_progress_that_replays_to_bga_s_scores() {
    let bytes = fixture("short.json");
    assert!(carc_bga::looks_like_bga(&bytes));
    let imported = carc_bga::import(&bytes).unwrap();
    assert!(!imported.finished);
    assert_eq!(imported.source.table, 366166200);
    assert_eq!(imported.source.players, vec![93033745, 84051152]);
    let log = imported.log;
    assert_eq!(log.header.game, "bga-366166200");
    let names: Vec<&str> = log.header.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["KokiYamaguchi", "Kithara"]);
    assert!(log
        .header
        .comment
        .as_deref()
        .unwrap()
        .contains("table 366166200, player ids 93033745, 84051152"));
    // …and as the header's `source` field, for tools.
    assert_eq!(
        log.header.source,
        Some(carc_events::Source::Bga {
            table: 366166200,
            players: vec![93033745, 84051152],
        })
    );
    let events: Vec<&Event> = log.events.iter().map(|(_, e)| &e.event).collect();
    let tile = |t: &str| TileId::new(t).unwrap();
    assert_eq!(
        events[..3],
        [
            &Event::StartPlaced {
                tile: tile("D"),
                at: Pos::new(0, 0),
                rotation: Rotation::R0
            },
            &Event::TileDrawn {
                player: 0,
                tile: tile("H")
            },
            // BGA's (0,-1) is north of the start tile: BGA's y grows southwards.
            &Event::TilePlaced {
                player: 0,
                tile: tile("H"),
                at: Pos::new(0, 1),
                rotation: Rotation::R0
            },
        ]
    );
    assert_eq!(
        events[3],
        &Event::MeeplePlaced {
            player: 0,
            on: "city S".parse().unwrap(),
            figure: carc_events::Figure::Meeple,
        }
    );
    // The city of the first turn: 4 points, stated as a feature claim and as running totals.
    let claims: Vec<&Assertion> = log.assertions.iter().map(|(_, a)| a).collect();
    assert_eq!(
        claims[..2],
        [
            &Assertion::ExpectPoints {
                after: 4,
                player: 0,
                feature: FeatureKind::City,
                points: 4
            },
            &Assertion::ExpectScores {
                after: 4,
                scores: vec![4, 0]
            },
        ]
    );
    assert!(!claims
        .iter()
        .any(|a| matches!(a, Assertion::ExpectFinalScores { .. })));
    let timeline = fold(log, &[]);
    assert!(timeline.error.is_none(), "{:?}", timeline.error);
    assert!(!timeline.finished);
    assert_eq!(check_assertions(&timeline), vec![]);
}

#[test]
fn an_abandoned_table_is_in_progress_with_names_and_colours_from_the_result() {
    let imported = carc_bga::import(&fixture("abandoned.json")).unwrap();
    assert!(!imported.finished, "the tiles were not all played");
    let log = imported.log;
    assert!(!log
        .assertions
        .iter()
        .any(|(_, a)| matches!(a, Assertion::ExpectFinalScores { .. })));
    let seats: Vec<(&str, Color)> = log
        .header
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.color))
        .collect();
    assert_eq!(
        seats,
        [("KokiYamaguchi", Color::Yellow), ("Kithara", Color::Black)]
    );
    let timeline = fold(log, &[]);
    assert!(timeline.error.is_none() && !timeline.finished);
    assert_eq!(check_assertions(&timeline), vec![]);
}

#[test]
fn a_translated_replay_imports_to_exactly_the_same_log() {
    let translated = fixture("abandoned-translated.json");
    let text = String::from_utf8(translated.clone()).unwrap();
    // The fixture really is translated: templates, feature words and names.
    assert!(text.contains("pose une tuile") && text.contains("\"real_type\":\"ville\""));
    assert!(text.contains("Koki (traduit)") && !text.contains("plays a tile"));
    let original = carc_bga::read(&fixture("abandoned.json")).unwrap();
    let read = carc_bga::read(&translated).unwrap();
    assert_eq!(read, original);
    assert_eq!(write_log(&read), write_log(&original));
}

#[test]
fn unsupported_expansions_and_figures_are_listed_together() {
    let mut v = fixture_json("short.json");
    note(&mut v, 1, 0)["args"]["type"] = json!("37");
    note(&mut v, 3, 0)["args"]["ptype"] = json!("big");
    note(&mut v, 4, 0)["type"] = json!("playCathedral");
    let e = err(&v);
    let BgaError::Unsupported(items) = &e else {
        panic!("{e}");
    };
    assert_eq!(items.len(), 3, "{items:?}");
    let text = e.to_string();
    assert!(text.contains(
        "tile type 37 (not a base-game tile, though BGA tile id 20 is a base-game tile's) \
         (at packet 1 (playTile))"
    ));
    assert!(text.contains("large meeple (figure \"big\"; "));
    assert!(text.contains("was checked) (at packet 3 (playPartisan))"));
    assert!(text.contains("notification \"playCathedral\""));

    // A meeple of an expansion coming back from a scored feature.
    let mut v = fixture_json("short.json");
    note(&mut v, 3, 3)["args"]["part_to_recover"]["93033745"]["builder"] = json!(1);
    assert!(err(&v).to_string().contains("figure \"builder\""));
}

#[test]
fn malformed_json_names_line_and_column() {
    let text = "{\n  \"status\": 1,\n  \"data\": {\"valid\": 1, \"data\": [\n    {\"packet_id\": \"1\",, }\n";
    let e = carc_bga::import(text.as_bytes()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(4), Some(23)), "{e}");
    assert!(e
        .to_string()
        .starts_with("not a JSON document (line 4, column 23)"));

    let e = carc_bga::import(b"{\"data\": \xff}").unwrap_err();
    assert_eq!(e.line(), Some(1), "{e}");
    assert!(carc_bga::import(b"").is_err());
    assert!(!carc_bga::looks_like_bga(text.as_bytes()));
}

#[test]
fn wrong_values_name_the_json_path_and_the_packet() {
    let mut v = fixture_json("short.json");
    note(&mut v, 1, 0)["args"]["x"] = json!("east");
    let e = err(&v);
    assert_eq!(e.path(), Some("data.data[1].data[0].args.x"), "{e}");
    let place = e.place().unwrap();
    assert_eq!(
        (
            place.packet,
            place.packet_id.as_str(),
            place.move_id.as_str()
        ),
        (1, "2", "2")
    );
    assert!(e.to_string().contains(
        "data.data[1].data[0].args.x: expected an integer (a number or a string of digits), \
         found the string \"east\" (in packet 1 (packet_id 2, move_id 2), notification 0 \
         (playTile))"
    ));

    let mut v = fixture_json("short.json");
    v["data"]["data"] = json!({});
    assert_eq!(err(&v).path(), Some("data.data"));

    let mut v = fixture_json("short.json");
    note(&mut v, 3, 0)["args"]
        .as_object_mut()
        .unwrap()
        .remove("pos");
    let e = err(&v);
    assert!(e
        .to_string()
        .contains("data.data[3].data[0].args.pos: expected a value, found nothing"));

    assert!(err(&json!([1, 2]))
        .to_string()
        .contains("[0]: expected an object, found the number 1"));
    assert!(err(&json!("text"))
        .to_string()
        .contains("the document: expected an object"));
}

#[test]
fn a_move_our_rules_refuse_is_an_error_naming_the_notification() {
    // The first tile put far from the start tile.
    let mut v = fixture_json("short.json");
    note(&mut v, 1, 0)["args"]["x"] = json!("5");
    let e = err(&v);
    let BgaError::Replay { place, message } = &e else {
        panic!("{e}");
    };
    assert_eq!((place.packet, place.kind.as_str()), (1, "playTile"));
    assert!(
        message.contains("breaks rule base.tile.adjacent"),
        "{message}"
    );

    // A meeple on a spot the tile does not have.
    let mut v = fixture_json("short.json");
    note(&mut v, 3, 0)["args"]["pos"] = json!("9");
    let e = err(&v).to_string();
    assert!(
        e.contains(
            "packet 3 (packet_id 4, move_id 3), notification 0 (playPartisan): tile \
             type 10 (H) has no meeple spot 9"
        ),
        "{e}"
    );

    // A discard of a tile that fits: the rules set aside only tiles that fit nowhere.
    let mut v = fixture_json("short.json");
    v["data"]["data"][0]["data"]
        .as_array_mut()
        .unwrap()
        .push(json!({"uid": "x", "type": "cantPlay", "log": "", "args": {}}));
    let e = err(&v);
    assert_eq!(e.place().map(|p| p.kind.as_str()), Some("cantPlay"), "{e}");
    assert!(e.to_string().contains("breaks rule"), "{e}");

    // A tile placed by the player whose turn it is not.
    let mut v = fixture_json("short.json");
    note(&mut v, 1, 0)["args"]["player_id"] = json!("84051152");
    let e = err(&v).to_string();
    assert!(e.contains("player 84051152 acts, but it is"), "{e}");
}

#[test]
fn a_claim_our_rules_contradict_is_reported_with_both_numbers_the_feature_and_the_event() {
    let mut v = fixture_json("short.json");
    note(&mut v, 3, 4)["args"]["points"] = json!(5);
    note(&mut v, 3, 4)["args"]["score"] = json!("5");
    let imported = import(&v).unwrap();
    let failures = check_assertions(&fold(imported.log, &[]));
    let text: Vec<String> = failures.iter().map(ToString::to_string).collect();
    assert_eq!(failures.len(), 2, "{text:?}");
    // Each failed claim knows the notification that stated it: the points of packet 3,
    // notification 4
    for f in &failures {
        let (_, place) = imported
            .claims
            .iter()
            .find(|(line, _)| *line == f.line)
            .expect("every assertion has its notification");
        assert_eq!((place.packet, place.notification), (3, 4), "{f}");
    }
    assert_eq!(failures[0].assertion, "expect_points");
    assert_eq!(failures[0].claimed, vec![5]);
    assert!(
        text[0].contains(
            "expect_points claims 5 points, but the fold gives KokiYamaguchi 4 points, not 5, \
             for city features in event 4 (meeple_placed): city"
        ),
        "{}",
        text[0]
    );
    assert_eq!(failures[1].assertion, "expect_scores");
    assert!(
        text[1].contains("claims scores [5, 0], but the fold gives [4, 0]"),
        "{}",
        text[1]
    );
}

#[test]
fn no_prefix_of_a_replay_panics() {
    let bytes = fixture("short.json");
    for end in (0..bytes.len()).step_by(61) {
        let _ = carc_bga::import(&bytes[..end]);
    }
    // Every packet cut off after the last one still imports, as a shorter game.
    let v = fixture_json("short.json");
    for packets in 0..=v["data"]["data"].as_array().unwrap().len() {
        let mut cut = v.clone();
        cut["data"]["data"]
            .as_array_mut()
            .unwrap()
            .truncate(packets);
        if let Ok(imported) = import(&cut) {
            let timeline = fold(imported.log, &[]);
            assert!(timeline.error.is_none(), "{packets} packets");
            assert_eq!(check_assertions(&timeline), vec![], "{packets} packets");
        }
    }
}

#[test]
fn the_packets_without_bga_s_envelope_import_the_same() {
    let v = fixture_json("short.json");
    let packets = v["data"]["data"].clone();
    let log = import(&v).unwrap().log;
    assert_eq!(import(&packets).unwrap().log, log);
    assert_eq!(import(&json!({ "data": packets })).unwrap().log, log);
    // Paths then start at the list.
    let mut bare = packets.clone();
    bare[1]["data"][0]["args"]["x"] = json!(null);
    assert_eq!(err(&bare).path(), Some("[1].data[0].args.x"));
}
