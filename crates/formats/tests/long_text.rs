//! Issue 33 item 7: a player name or an annotation text longer than its cap
//! (`carc_events::text`) is refused by every reader with the cap named, before it can
//! multiply through a report (a 4 MiB name once made an 898 MB page).

use std::path::Path;

use carc_events::text::{MAX_ANNOTATION_CHARS, MAX_NAME_CHARS};
use carc_formats::read_game_file;
use serde_json::{json, Value};

fn read_json(path: &str) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn refused(file: &str, bytes: &[u8]) -> String {
    read_game_file(Path::new(file), bytes)
        .expect_err("a name over the cap is refused")
        .to_string()
}

#[test]
fn a_name_over_the_cap_is_refused_by_every_reader() {
    let long = "n".repeat(MAX_NAME_CHARS + 1);
    let fits = "n".repeat(MAX_NAME_CHARS);
    let said = format!(
        "it is {} characters long, more than the 200 allowed",
        MAX_NAME_CHARS + 1
    );

    // Our log
    let log = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../logs/short-game-rulings.jsonl"
    ))
    .unwrap();
    let e = refused(
        "g.jsonl",
        log.replacen("\"Ada\"", &json!(long).to_string(), 1)
            .as_bytes(),
    );
    assert!(e.contains("line 1") && e.contains(&said), "{e}");
    let fine = log.replacen("\"Ada\"", &json!(fits).to_string(), 1);
    assert!(read_game_file(Path::new("g.jsonl"), fine.as_bytes()).is_ok());

    // A JCloisterZone game
    let mut jcz = read_json(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/jcz/tiny-city-rule.jcz"
    ));
    jcz["players"][0]["name"] = json!(long);
    let e = refused("g.jcz", jcz.to_string().as_bytes());
    assert!(e.contains(&said), "{e}");

    // A Board Game Arena replay (the name BGA gives a player in its end-of-game result)
    let bga = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bga/tests/fixtures/short.json"
    ))
    .unwrap();
    assert!(bga.contains("KokiYamaguchi"));
    let bga = bga.replace("KokiYamaguchi", &long);
    let e = refused("table.json", bga.as_bytes());
    assert!(e.contains(&said), "{e}");
}

#[test]
fn an_annotation_text_over_the_cap_is_refused_in_a_bundle_and_a_record() {
    let log = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../logs/short-game-rulings.jsonl"
    ))
    .unwrap();
    let line = |text: &str| {
        json!({"type": "annotation", "game": "short-game-rulings", "seq": 3, "text": text})
            .to_string()
    };
    let long = "x".repeat(MAX_ANNOTATION_CHARS + 1);
    let bundle = format!("{log}{}\n", line(&long));
    let e = refused("g.jsonl", bundle.as_bytes());
    assert!(
        e.contains("text: it is 10001 characters long, more than the 10000 allowed"),
        "{e}"
    );
    let bundle = format!("{log}{}\n", line(&"x".repeat(MAX_ANNOTATION_CHARS)));
    assert!(read_game_file(Path::new("g.jsonl"), bundle.as_bytes()).is_ok());
    // A record of an annotation file or stream
    let record =
        json!({"game": "short-game-rulings", "seq": 3, "glyph": null, "text": long}).to_string();
    let e = carc_events::annotation::parse_annotation(&record).unwrap_err();
    assert!(e.to_string().contains("more than the 10000 allowed"), "{e}");
}
