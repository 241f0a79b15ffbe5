//! A shared log is untrusted, and so is what a terminal does with the bytes `carc` prints: a
//! player name, game id, comment or annotation holding ESC, BEL or CR would retitle or clear
//! the terminal, and a line break in a name would forge a line of output. Every verb's human
//! output on such a log shows control characters escaped (`\u{1b}`), and `--json` keeps the
//! exact text (JSON escapes control characters itself).

mod common;

use std::fs;
use std::process::Output;

use common::{carc, carc_with_store, logs_dir, stderr, stdout};
use serde_json::Value;

/// Ada retitles the terminal, Brandt clears it, forges a result line, reverses the rest of
/// every line that names him (U+202E) and breaks it (U+2028).
const ADA: &str = "A\u{1b}]0;owned\u{7}da";
const BRANDT: &str = "Bo\r\nfake: ok \u{1b}[2J\u{202e}\u{2028}";

/// The short sample game with hostile names and comment; `game` is its id.
fn hostile_log(game: &str) -> String {
    let json = |s: &str| serde_json::to_string(s).unwrap();
    let text = fs::read_to_string(logs_dir().join("short-game-rulings.jsonl")).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let head = head
        .replacen("\"short-game-rulings\"", &json(game), 1)
        .replacen("\"Ada\"", &json(ADA), 1)
        .replacen("\"Brandt\"", &json(BRANDT), 1)
        .replacen(
            "\"comment\":\"",
            "\"comment\":\"\\u001b]0;comment\\u0007\\r\\nfake: ok \\u2067",
            1,
        );
    format!("{head}\n{rest}")
}

/// Everything a verb printed, on both streams, holds no control character but line breaks and
/// tabs, no bidi control or line separator, and no line starts with the forged text.
fn assert_terminal_safe(what: &str, o: &Output) {
    for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        let bad: Vec<char> = text
            .chars()
            .filter(|&c| carc_events::text::is_hazard(c) && !matches!(c, '\n' | '\t'))
            .collect();
        assert!(
            bad.is_empty(),
            "{what}: {stream} holds control characters {bad:?}:\n{text}"
        );
        assert!(
            !text.lines().any(|l| l.trim_start().starts_with("fake")),
            "{what}: {stream} has a forged line:\n{text}"
        );
    }
}

fn run(what: &str, o: Output) -> Output {
    assert_terminal_safe(what, &o);
    o
}

#[test]
fn every_verb_shows_hostile_names_and_text_escaped() {
    // Given the sample game with hostile names, comment and game id, an illegal copy (Ada
    // draws on Brandt's turn), a move file for a variation, and a partial copy in a store
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("g.jsonl"), hostile_log("g\u{1b}[2J\r\nfake: ok")).unwrap();
    let illegal = hostile_log("illegal").replacen(
        r#"{"seq":5,"type":"tile_drawn","player":1"#,
        r#"{"seq":5,"type":"tile_drawn","player":0"#,
        1,
    );
    fs::write(d.join("illegal.jsonl"), illegal).unwrap();
    fs::write(
        d.join("city.jsonl"),
        "{\"type\":\"tile_placed\",\"player\":1,\"tile\":\"N\",\"at\":[0,2],\"rotation\":0}\n\
         {\"type\":\"meeple_placed\",\"player\":1,\"on\":\"city N\"}\n",
    )
    .unwrap();
    let whole = hostile_log("hostile");
    let partial: Vec<&str> = whole.lines().take(20).collect();
    fs::write(d.join("partial.jsonl"), partial.join("\n") + "\n").unwrap();
    let store = d.join("store");

    // When every verb runs on them, then no output holds a control character or a forged line
    run("check", carc(&["check", "g.jsonl", "illegal.jsonl"], d));
    for at in 0..=34 {
        let at = at.to_string();
        run(
            &format!("explain --at {at}"),
            carc(&["explain", "g.jsonl", "--at", &at], d),
        );
        run(
            &format!("replay --at {at}"),
            carc(&["replay", "g.jsonl", "--at", &at], d),
        );
        run(
            &format!("legal --at {at}"),
            carc(&["legal", "g.jsonl", "--at", &at], d),
        );
    }
    for verb in ["explain", "replay", "legal"] {
        let o = run(verb, carc(&[verb, "illegal.jsonl", "--at", "5"], d));
        assert_eq!(o.status.code(), Some(1), "{verb}: {}", stderr(&o));
    }
    run("analyze", carc(&["analyze", "g.jsonl"], d));
    run(
        "analyze DIR --per-game",
        carc(&["analyze", ".", "--per-game"], d),
    );
    run(
        "annotate",
        carc(
            &[
                "annotate",
                "g.jsonl",
                "--at",
                "19",
                "--text",
                "\u{1b}[2J\nfake: ok",
                "--glyph",
                "?!",
            ],
            d,
        ),
    );
    run(
        "variation add",
        carc(
            &[
                "variation",
                "add",
                "g.jsonl",
                "--name",
                "city north",
                "--after",
                "17",
                "--moves",
                "city.jsonl",
            ],
            d,
        ),
    );
    run("variation list", carc(&["variation", "list", "g.jsonl"], d));
    run(
        "variation show",
        carc(&["variation", "show", "g.jsonl", "city north"], d),
    );
    let md = run(
        "export md",
        carc(&["export", "g.jsonl", "--format", "md"], d),
    );
    assert!(stdout(&md).contains("19"), "{}", stdout(&md));
    run(
        "import",
        carc_with_store(
            &store,
            &["import", &d.join("partial.jsonl").to_string_lossy()],
        ),
    );
    run("games", carc_with_store(&store, &["games"]));
    run(
        "record turn",
        carc_with_store(
            &store,
            &["record", "turn", "hostile", "V", "-1", "-1", "90", "none"],
        ),
    );
    run(
        "record (refused)",
        carc_with_store(&store, &["record", "draw", "hostile", "Z"]),
    );
    run(
        "record undo",
        carc_with_store(&store, &["record", "undo", "hostile"]),
    );

    // And the names are shown, escaped, where they were
    let o = carc(&["explain", "illegal.jsonl", "--at", "5"], d);
    assert!(
        stdout(&o)
            .contains(r"it is Bo\u{d}\u{a}fake: ok \u{1b}[2J\u{202e}\u{2028}'s turn, not A\u{1b}]0;owned\u{7}da's"),
        "{}",
        stdout(&o)
    );
    let o = carc(&["check", "g.jsonl"], d);
    assert!(
        stdout(&o).contains(
            r"final scores: A\u{1b}]0;owned\u{7}da 20, Bo\u{d}\u{a}fake: ok \u{1b}[2J\u{202e}\u{2028} 11"
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn json_keeps_the_exact_names() {
    // Given the hostile log
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("g.jsonl"), hostile_log("g\u{1b}")).unwrap();
    // When check, replay and analyze print JSON
    for args in [
        &["check", "g.jsonl", "--json"][..],
        &["replay", "g.jsonl", "--json"],
        &["analyze", "g.jsonl", "--json"],
    ] {
        let o = carc(args, d);
        // Then the names parse back exactly
        let v: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
        let text = v.to_string();
        assert!(
            text.contains(&serde_json::to_string(ADA).unwrap())
                && text.contains(&serde_json::to_string(BRANDT).unwrap()),
            "{args:?}: {text}"
        );
    }
}

/// `record new` refuses a name a terminal would act on; nothing is stored.
#[test]
fn record_new_refuses_control_characters_in_names() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let o = carc_with_store(
        &store,
        &["record", "new", "t", "--players", &format!("Ada,{BRANDT}")],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains(
            r#"player name "Bo\r\nfake: ok \u{1b}[2J\u{202e}\u{2028}" holds a control character"#
        ),
        "{}",
        stderr(&o)
    );
    assert_terminal_safe("record new", &o);
    let o = carc_with_store(&store, &["games"]);
    assert!(!stdout(&o).contains("t:"), "{}", stdout(&o));
}

/// `record new` refuses a name with a bidi control or a line separator too (they reorder or
/// break every line that names the player); nothing is stored.
#[test]
fn record_new_refuses_bidi_controls_and_separators_in_names() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    for (name, code) in [
        ("Eve\u{202e}kcab", "U+202E"),
        ("Eve\u{2066}x", "U+2066"),
        ("Eve\u{200f}", "U+200F"),
        ("Eve\u{2028}fake", "U+2028"),
    ] {
        let o = carc_with_store(
            &store,
            &["record", "new", "t", "--players", &format!("Ada,{name}")],
        );
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        assert!(
            stderr(&o).contains(&format!("holds the invisible formatting character {code}")),
            "{}",
            stderr(&o)
        );
        assert_terminal_safe("record new", &o);
    }
    let o = carc_with_store(&store, &["games"]);
    assert!(!stdout(&o).contains("t:"), "{}", stdout(&o));
}
