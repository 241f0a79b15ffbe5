//! `carc` with Inns & Cathedrals: simulate with `--expansions inns_cathedrals` (alone, with
//! the others, six players), `legal` offering the large meeple, `explain` naming the inn and
//! cathedral scorings, and `check` refusing a second large meeple.

mod common;
use common::{
    carc, carc_with_store, logs_dir, record_shell, refused_with_a_map, simulated_and_checked,
    stderr, stdout,
};

const SAMPLE: &str = "sim-2p-inns-cathedrals-mixed.jsonl";

#[test]
fn simulate_with_inns_cathedrals_alone_and_with_the_others_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    for (expansions, players, out) in [
        ("inns_cathedrals", "6", "i.jsonl"),
        (
            "anniversary,gifts,abbot,river,inns_cathedrals",
            "3",
            "all.jsonl",
        ),
    ] {
        let log = simulated_and_checked(
            dir.path(),
            &[
                "--expansions",
                expansions,
                "--players",
                players,
                "--seed",
                "4",
            ],
            out,
        );
        // The header names the expansion and its tile set; the sixth seat plays grey
        assert!(log.contains("\"inns_cathedrals\"]"), "{expansions}");
        if players == "6" {
            assert!(log.contains(r#""color":"gray""#));
        }
    }
    // And a map does not combine with the expansion
    refused_with_a_map(dir.path(), "inns_cathedrals");
}

#[test]
fn legal_offers_the_large_meeple_and_explain_names_the_new_scorings() {
    // Given the sample at seat 1's second meeple step (its first offers the road of IC3)
    let o = carc(&["legal", SAMPLE, "--at", "12"], &logs_dir());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("or the large meeple on: road N;"),
        "{}",
        stdout(&o)
    );
    let o = carc(&["legal", SAMPLE, "--at", "12", "--json"], &logs_dir());
    assert!(
        stdout(&o).contains(r#""large_meeple_on":["road N","#),
        "{}",
        stdout(&o)
    );
    // When the large meeple's placement that completes a road with an inn is explained
    let o = carc(&["explain", SAMPLE, "--at", "250"], &logs_dir());
    let text = stdout(&o);
    assert!(text.contains("placed the large meeple on road W"), "{text}");
    assert!(text.contains("[inns.large-meeple.place]"), "{text}");
    assert!(
        text.contains("road with an inn: 2 × 3 tiles = 6; Ada +6  [inns.score.inn.completed]"),
        "{text}"
    );
    assert!(
        text.contains("meeples (a large meeple counts 2): Ada 2"),
        "{text}"
    );
    assert!(
        text.contains("large meeple returned: Ada from road W at (1,7)"),
        "{text}"
    );
    // And the final scoring: a cathedral city and an inn road left open score nothing
    let o = carc(&["explain", SAMPLE, "--at", "268"], &logs_dir());
    let text = stdout(&o);
    assert!(text.contains("[inns.score.cathedral.final]"), "{text}");
    assert!(text.contains("[inns.score.inn.final]"), "{text}");
}

#[test]
fn check_refuses_a_second_large_meeple() {
    // Given the sample with seat 1's meeple of event 19 made a large meeple, while seat 1's
    // large meeple of event 13 still stands on the road at (-1,1)
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(logs_dir().join(SAMPLE)).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with(r#"{"seq":19,"type":"meeple_placed","player":1"#))
        .expect("seat 1 places a meeple at event 19");
    let tampered = text.replacen(line, &line.replace("\"}", "\",\"figure\":\"large\"}"), 1);
    std::fs::write(dir.path().join("t.jsonl"), tampered).unwrap();
    // When it is checked / Then it is refused at that event, naming the rule
    let o = carc(&["check", "t.jsonl"], dir.path());
    assert!(!o.status.success());
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains("event 19: [inns.large-meeple.place] seat 1's large meeple is not in their supply: it stands on road N at (-1,1)"),
        "{out}"
    );
}

#[test]
fn analyze_reads_the_samples() {
    // Given the Inns & Cathedrals samples / When analysed / Then each is finished, its points
    // by source listed, the large meeples counted among the meeples placed
    for name in [
        SAMPLE,
        "sim-4p-river-abbot-inns-cathedrals.jsonl",
        "sim-6p-inns-cathedrals-mixed.jsonl",
    ] {
        let o = carc(&["analyze", name], &logs_dir());
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(stdout(&o).contains("finished; won by"), "{}", stdout(&o));
    }
    let o = carc(&["analyze", SAMPLE], &logs_dir());
    assert!(
        stdout(&o).contains("Ada: 145 points (city 76, field 3, monastery 11, road 55)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_two_player_sample_entered_through_the_record_shell_is_the_sample_with_its_large_meeples() {
    // Given a new recorded game with the sample's players and Inns & Cathedrals
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let o = carc_with_store(
        &store,
        &[
            "record",
            "new",
            "g",
            "--players",
            "Ada,Brandt",
            "--expansions",
            "inns_cathedrals",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // When each of the sample's moves is typed into the record shell, the large meeple as
    // `meeple large SPOT`
    let text = std::fs::read_to_string(logs_dir().join(SAMPLE)).unwrap();
    let events: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\"seq\"") && !l.contains("\"start_placed\""))
        .collect();
    let input: String = events
        .iter()
        .map(|l| {
            let e: serde_json::Value = serde_json::from_str(l).unwrap();
            let s = |k: &str| e[k].as_str().unwrap().to_string();
            let line = match e["type"].as_str().unwrap() {
                "tile_drawn" => format!("draw {}", s("tile")),
                "tile_placed" => format!("place {} {} {}", e["at"][0], e["at"][1], e["rotation"]),
                "meeple_placed" if e["figure"] == "large" => format!("meeple large {}", s("on")),
                "meeple_placed" => format!("meeple {}", s("on")),
                "meeple_skipped" => "meeple none".to_string(),
                other => panic!("no shell line for {other}"),
            };
            line + "\n"
        })
        .collect();
    assert!(
        input.contains("meeple large "),
        "the sample has large meeples"
    );
    let o = record_shell(&store, "g", &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Then the stored game is the sample, event for event, the large meeples marked as such
    let o = carc_with_store(&store, &["export", "g", "--game-only"]);
    let stored = stdout(&o);
    let stored_events: Vec<&str> = stored
        .lines()
        .skip(1)
        .filter(|l| !l.contains("\"start_placed\""))
        .collect();
    assert_eq!(stored_events, events);
}
