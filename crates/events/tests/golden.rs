//! A handwritten log decodes to the expected structs and writes back byte-identically.

use std::collections::BTreeMap;

use carc_events::{
    read_log, write_log, Assertion, Color, Envelope, Event, Figure, Header, Log, MeepleTarget,
    Player, Pos, Rotation, RulesOptions, Side, TileId,
};

const GOLDEN: &str = r#"{"format":"carcassonne-log","version":1,"game":"sim-s7-g0","players":[{"name":"Ada","color":"red"},{"name":"Bo","color":"blue"}],"rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":7},"tile_sets":["base"],"bag":null,"comment":"optional free text"}
{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}
{"seq":2,"type":"tile_drawn","player":0,"tile":"V"}
{"seq":3,"type":"tile_placed","player":0,"tile":"V","at":[1,0],"rotation":90}
{"seq":4,"type":"meeple_placed","player":0,"on":"road W"}
{"type":"expect_scores","after":4,"scores":[0,0]}
{"seq":5,"type":"tile_drawn","player":1,"tile":"X"}
{"seq":6,"type":"tile_set_aside","player":1,"tile":"X"}
{"seq":7,"type":"meeple_skipped","player":1}
{"type":"expect_scores","after":40,"scores":[12,30]}
{"type":"expect_final_scores","scores":[55,61]}
"#;

fn tile(id: &str) -> TileId {
    TileId::new(id).unwrap()
}

fn expected() -> Log {
    let ev = |seq, event| Envelope { seq, event };
    Log {
        header: Header {
            game: "sim-s7-g0".into(),
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
                expansions: vec![],
                farmers: true,
                two_tile_city: 4,
                meeples: 7,
                map: None,
            },
            tile_sets: vec!["base".into()],
            bag: None,
            source: None,
            comment: Some("optional free text".into()),
        },
        events: vec![
            (
                2,
                ev(
                    1,
                    Event::StartPlaced {
                        tile: tile("D"),
                        at: Pos::new(0, 0),
                        rotation: Rotation::R0,
                    },
                ),
            ),
            (
                3,
                ev(
                    2,
                    Event::TileDrawn {
                        player: 0,
                        tile: tile("V"),
                    },
                ),
            ),
            (
                4,
                ev(
                    3,
                    Event::TilePlaced {
                        player: 0,
                        tile: tile("V"),
                        at: Pos { x: 1, y: 0 },
                        rotation: Rotation::R90,
                    },
                ),
            ),
            (
                5,
                ev(
                    4,
                    Event::MeeplePlaced {
                        player: 0,
                        on: MeepleTarget::road(Side::W),
                        figure: Figure::Meeple,
                    },
                ),
            ),
            (
                7,
                ev(
                    5,
                    Event::TileDrawn {
                        player: 1,
                        tile: tile("X"),
                    },
                ),
            ),
            (
                8,
                ev(
                    6,
                    Event::TileSetAside {
                        player: 1,
                        tile: tile("X"),
                    },
                ),
            ),
            (9, ev(7, Event::MeepleSkipped { player: 1 })),
        ],
        assertions: vec![
            (
                6,
                Assertion::ExpectScores {
                    after: 4,
                    scores: vec![0, 0],
                },
            ),
            (
                10,
                Assertion::ExpectScores {
                    after: 40,
                    scores: vec![12, 30],
                },
            ),
            (
                11,
                Assertion::ExpectFinalScores {
                    scores: vec![55, 61],
                },
            ),
        ],
        annotations: vec![],
        variations: vec![],
    }
}

#[test]
fn golden_log_decodes_to_the_expected_structs() {
    assert_eq!(read_log(GOLDEN.as_bytes()), Ok(expected()));
}

#[test]
fn golden_log_writes_back_byte_identically() {
    assert_eq!(write_log(&read_log(GOLDEN.as_bytes()).unwrap()), GOLDEN);
    assert_eq!(write_log(&expected()), GOLDEN);
}

#[test]
fn missing_final_newline_is_accepted() {
    let trimmed = GOLDEN.strip_suffix('\n').unwrap();
    assert_eq!(read_log(trimmed.as_bytes()), Ok(expected()));
}

#[test]
fn crlf_line_ends_and_a_bom_are_accepted() {
    let crlf = format!("\u{feff}{}", GOLDEN.replace('\n', "\r\n"));
    assert_eq!(read_log(crlf.as_bytes()), Ok(expected()));
}

#[test]
fn defaults_fill_absent_rule_options_bag_and_comment() {
    let log = read_log(
        br#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"Ada","color":"gray"}],"rules":{"expansions":["anniversary","map:germany"]},"tile_sets":["base"]}"#,
    )
    .unwrap();
    assert_eq!(log.header.rules.expansions, ["anniversary", "map:germany"]);
    assert!(log.header.rules.farmers);
    assert_eq!(log.header.rules.two_tile_city, 4);
    assert_eq!(log.header.rules.meeples, 7);
    assert_eq!(log.header.bag, None);
    assert_eq!(log.header.comment, None);
    assert!(log.events.is_empty());
}

#[test]
fn bag_keeps_a_sorted_map_and_writes_it_in_key_order() {
    let text = r#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"Ada","color":"black"}],"rules":{"expansions":[],"farmers":false,"two_tile_city":2,"meeples":20},"tile_sets":["base"],"bag":{"V":3,"D":1,"A":0}}
"#;
    let log = read_log(text.as_bytes()).unwrap();
    let bag: BTreeMap<TileId, u16> = [(tile("A"), 0), (tile("D"), 1), (tile("V"), 3)].into();
    assert_eq!(log.header.bag, Some(bag));
    assert!(!log.header.rules.farmers);
    assert_eq!(log.header.rules.two_tile_city, 2);
    assert_eq!(log.header.rules.meeples, 20);
    assert!(write_log(&log).contains(r#""bag":{"A":0,"D":1,"V":3}}"#));
}

#[test]
fn every_meeple_target_form_decodes() {
    let mut text = String::from(
        r#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"Ada","color":"red"}],"rules":{"expansions":[]},"tile_sets":["base"]}"#,
    );
    let targets = [
        "city N",
        "road E",
        "field Sw",
        "monastery",
        "field Nw",
        "field En",
    ];
    for (i, on) in targets.iter().enumerate() {
        text.push_str(&format!(
            "\n{{\"seq\":{},\"type\":\"meeple_placed\",\"player\":0,\"on\":\"{on}\"}}",
            i + 1
        ));
    }
    let log = read_log(text.as_bytes()).unwrap();
    let got: Vec<String> = log
        .events
        .iter()
        .map(|(_, e)| match &e.event {
            Event::MeeplePlaced { on, .. } => on.to_string(),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(got, targets);
}
