//! `carc` with Traders & Builders: simulate with `--expansions traders_builders` (alone and
//! with the others), `legal` offering the builder and the pig, `explain` naming the goods
//! taken, the second turn, the goods majorities and the pig's points, `check` refusing a
//! builder without its owner's meeple, and `analyze` reading the samples.

mod common;
use common::{carc, logs_dir, refused_with_a_map, simulated_and_checked, stderr, stdout};

const SAMPLE: &str = "sim-2p-traders-builders-mixed.jsonl";
const COMBINED: &str = "sim-4p-river-abbot-inns-traders.jsonl";

#[test]
fn simulate_with_traders_builders_alone_and_with_the_others_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    for (expansions, players, out) in [
        ("traders_builders", "2", "t.jsonl"),
        (
            "anniversary,gifts,abbot,river,inns_cathedrals,traders_builders",
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
                "--strategy",
                "greedy,random",
            ],
            out,
        );
        // The header names the expansion and its tile set; builders are placed
        assert!(log.contains("\"traders_builders\"]"), "{expansions}");
        assert!(log.contains(r#""figure":"builder""#), "{expansions}");
    }
    // And a map does not combine with the expansion
    refused_with_a_map(dir.path(), "traders_builders");
}

#[test]
fn legal_offers_the_builder_and_the_pig_in_text_and_json() {
    // Given the sample before Ada's builder (event 28) and Brandt's pig (event 79)
    let o = carc(&["legal", SAMPLE, "--at", "27"], &logs_dir());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("or the builder on: city S"),
        "{}",
        stdout(&o)
    );
    let o = carc(&["legal", SAMPLE, "--at", "27", "--json"], &logs_dir());
    assert!(
        stdout(&o).contains(r#""builder_on":["city S"]"#) && stdout(&o).contains(r#""pig_on":[]"#),
        "{}",
        stdout(&o)
    );
    let o = carc(&["legal", SAMPLE, "--at", "78", "--json"], &logs_dir());
    assert!(
        stdout(&o).contains(r#""pig_on":["field Es"]"#),
        "{}",
        stdout(&o)
    );
    // And a base-game position says nothing of them
    let o = carc(
        &[
            "legal",
            "sim-2p-greedy-vs-random.jsonl",
            "--at",
            "3",
            "--json",
        ],
        &logs_dir(),
    );
    assert!(!stdout(&o).contains("builder_on"), "{}", stdout(&o));
}

#[test]
fn explain_names_the_goods_the_second_turn_and_the_new_scorings() {
    // When the builder's placement is explained
    let o = carc(&["explain", SAMPLE, "--at", "28"], &logs_dir());
    let text = stdout(&o);
    assert!(text.contains("Ada placed the builder on city S"), "{text}");
    assert!(text.contains("[tb.builder.place]"), "{text}");
    // When Ada completes a wine city while extending her builder's city (event 40)
    let o = carc(&["explain", SAMPLE, "--at", "40"], &logs_dir());
    let text = stdout(&o);
    assert!(
        text.contains("Ada completed the city at (0,1) and takes 1 wine  [tb.goods.take]"),
        "{text}"
    );
    assert!(
        text.contains("Ada takes the builder's second turn now"),
        "{text}"
    );
    assert!(
        text.contains("builder returned: Ada from city S at (0,4)"),
        "{text}"
    );
    // And the final scoring: the pig's extra points and the goods majorities
    let o = carc(&["explain", SAMPLE, "--at", "286"], &logs_dir());
    let text = stdout(&o);
    assert!(
        text.contains(
            "pig: 1 × 4 completed cities = 4 (4 instead of 3 per city); Ada +4  [tb.pig.score]"
        ),
        "{text}"
    );
    assert!(
        text.contains("goods majority, grain (final scoring)"),
        "{text}"
    );
    assert!(text.contains("    grain tokens: Ada 2"), "{text}");
    // And a tied majority in the four-player game gives both 10
    let o = carc(&["explain", COMBINED, "--at", "373"], &logs_dir());
    let text = stdout(&o);
    assert!(
        text.contains("the most grain tokens (1): 10 for each who holds them; Ada and Cleo +10  [tb.goods.final]"),
        "{text}"
    );
    // And the JSON names the goods score's kind
    let o = carc(&["explain", SAMPLE, "--at", "286", "--json"], &logs_dir());
    assert!(stdout(&o).contains(r#""goods":"wine""#), "{}", stdout(&o));
}

#[test]
fn check_refuses_a_builder_without_its_owners_meeple() {
    // Given the sample with Brandt's meeple of his first meeple step turned into a builder
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(logs_dir().join(SAMPLE)).unwrap();
    let line = text
        .lines()
        .find(|l| {
            l.contains(r#""type":"meeple_placed","player":1"#)
                && !l.contains("figure")
                && (l.contains("\"road") || l.contains("\"city"))
        })
        .expect("Brandt places a meeple on a road or city");
    let seq: String = line
        .trim_start_matches("{\"seq\":")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let tampered = text.replacen(line, &line.replace("\"}", "\",\"figure\":\"builder\"}"), 1);
    std::fs::write(dir.path().join("t.jsonl"), tampered).unwrap();
    // When it is checked / Then it is refused at that event, naming the rule
    let o = carc(&["check", "t.jsonl"], dir.path());
    assert!(!o.status.success());
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains(&format!("event {seq}: [tb.builder.place]")),
        "{out}"
    );
    assert!(out.contains("already has a meeple"), "{out}");
}

#[test]
fn analyze_reads_the_samples() {
    // Given the Traders & Builders samples / When analysed / Then each is finished, the goods
    // and the pig among the points by source
    for name in [SAMPLE, COMBINED] {
        let o = carc(&["analyze", name], &logs_dir());
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(stdout(&o).contains("finished; won by"), "{}", stdout(&o));
    }
    let o = carc(&["analyze", SAMPLE], &logs_dir());
    assert!(
        stdout(&o).contains(
            "Ada: 193 points (city 93, field 12, goods 30, monastery 24, pig 4, road 30)"
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_jcloisterzone_export_writes_traders_builders_and_check_reads_it_back() {
    // Given the Traders & Builders samples (docs/jcz.md, Traders & Builders)
    for name in [SAMPLE, COMBINED] {
        // When exported as a JCloisterZone save
        let o = carc(&["export", "--format", "jcz", name], &logs_dir());
        // Then the save names JCloisterZone's set, the builder and the pig
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains("\"traders-and-builders:1\": 1"), "{name}");
        assert!(text.contains(".builder.1\""), "{name}");
        assert!(text.contains(".pig.1\""), "{name}");
        // And `carc check` reads the save back to the same final scores
        let dir = std::env::temp_dir().join(format!("carc-tb-jcz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(name.replace(".jsonl", ".jcz"));
        std::fs::write(&file, &text).unwrap();
        let back = carc(&["check", file.to_str().unwrap()], &logs_dir());
        let ours = carc(&["check", name], &logs_dir());
        assert!(back.status.success(), "{name}: {}", stderr(&back));
        let scores = |out: &str| {
            out.lines()
                .find_map(|l| l.split_once("final scores").map(|(_, s)| s.to_string()))
        };
        assert!(scores(&stdout(&ours)).is_some(), "{}", stdout(&ours));
        assert_eq!(scores(&stdout(&back)), scores(&stdout(&ours)), "{name}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
