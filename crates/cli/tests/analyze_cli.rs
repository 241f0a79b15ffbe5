//! `carc analyze`, run as the real binary: one game (file or stored) and a folder.

mod common;
use common::{carc_with_store, logs_dir, stderr, stdout};

#[test]
fn one_game_in_words_and_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = logs_dir().join("short-game-rulings.jsonl");
    let log = log.to_str().unwrap();
    let o = carc_with_store(&store, &["analyze", log]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("game short-game-rulings: 34 events, finished; won by Ada\n"),
        "{out}"
    );
    assert!(
        out.contains("Ada: 20 points (city 8, field 3, monastery 9)"),
        "{out}"
    );
    assert!(
        out.contains("event  34  lead change: Ada takes the lead (20 points, 9 ahead)"),
        "{out}"
    );
    let o = carc_with_store(&store, &["analyze", log, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["winners"], serde_json::json!(["Ada"]));
    assert_eq!(v["players"][1]["points_by_source"]["city"], 8);
    assert_eq!(v["players"][0]["meeples_placed"], 3);
    // The same game from the store
    assert!(carc_with_store(&store, &["import", log]).status.success());
    let o = carc_with_store(&store, &["analyze", "short-game-rulings", "--json"]);
    let stored: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(stored, v);
}

#[test]
fn a_folder_is_aggregated_and_an_unreadable_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    for name in ["short-game-rulings.jsonl", "sim-3p-greedy.jsonl"] {
        std::fs::copy(logs_dir().join(name), games.join(name)).unwrap();
    }
    std::fs::write(games.join("broken.jsonl"), "not a log\n").unwrap();
    // An annotation file beside a log is not a game: passed over, not unreadable
    std::fs::write(
        games.join("sim-3p-greedy.jsonl.annotations.jsonl"),
        "{\"game\":\"x\",\"seq\":1,\"glyph\":\"!\",\"text\":\"\"}\n",
    )
    .unwrap();
    let o = carc_with_store(
        &dir.path().join("store"),
        &["analyze", games.to_str().unwrap(), "--json"],
    );
    assert_eq!(o.status.code(), Some(1), "an unreadable file fails the run");
    assert!(
        stderr(&o).contains("broken.jsonl: cannot be analysed"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["finished"], 2);
    assert_eq!(v["unreadable"].as_array().unwrap().len(), 1);
    assert_eq!(v["seats"].as_array().unwrap().len(), 3);
    assert_eq!(v["seats"][0]["games"], 2);
    assert_eq!(v["scores"]["count"], 5);
}

#[test]
fn quality_judges_each_turn_in_words_and_in_json_the_same_for_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = logs_dir().join("short-game-rulings.jsonl");
    let log = log.to_str().unwrap();
    // Given the sample game, judged with 30 playouts and seed 1
    let args = [
        "analyze",
        log,
        "--quality",
        "--playouts",
        "30",
        "--seed",
        "1",
    ];
    let o = carc_with_store(&store, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Then the usual analysis comes first, then every judged turn and the totals
    assert!(
        out.starts_with("game short-game-rulings: 34 events"),
        "{out}"
    );
    assert!(
        out.contains("move quality: 30 playouts per move and stage, seed 1, random playouts"),
        "{out}"
    );
    // Brandt's monastery placed at the edge without a meeple is at least a mistake
    let line = out
        .lines()
        .find(|l| l.contains("event  24, turn  8, Brandt: tile A at (2,0) rotated 90°, no meeple"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.ends_with(" ?") || line.ends_with(" ??"), "{line}");
    assert!(out.contains("meeple on monastery"), "{out}");
    assert!(out.contains("move quality by player:\n  Ada: 6 turns judged, average loss "));
    assert!(out.contains("\n  Brandt: 5 turns judged, average loss "));
    // And in JSON, the same figures, on one thread as on two
    let json = |threads: &str| {
        let mut a = args.to_vec();
        a.extend(["--json", "--threads", threads]);
        let o = carc_with_store(&store, &a);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let v = json("1");
    assert_eq!(v, json("2"));
    assert_eq!(
        v["winners"],
        serde_json::json!(["Ada"]),
        "the usual analysis is kept"
    );
    let q = &v["quality"];
    assert_eq!(q["playouts"], 30);
    assert_eq!(q["seed"], 1);
    let turns = q["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 11);
    let t24 = turns.iter().find(|t| t["event"] == 24).unwrap();
    assert_eq!(t24["player"], "Brandt");
    assert!(
        ["?", "??"].contains(&t24["mark"].as_str().unwrap()),
        "{t24}"
    );
    for t in turns {
        let (best, played) = (
            t["best"]["value"].as_f64().unwrap(),
            t["played"]["value"].as_f64().unwrap(),
        );
        assert!(best >= played, "{t}");
        assert!(
            (t["loss"].as_f64().unwrap() - (best - played)).abs() < 1e-9,
            "{t}"
        );
    }
    let marks: u64 = ["inaccuracies", "mistakes", "blunders"]
        .iter()
        .map(|k| q["players"][1][k].as_u64().unwrap())
        .sum();
    let marked = turns
        .iter()
        .filter(|t| t["player"] == "Brandt" && !t["mark"].is_null())
        .count() as u64;
    assert_eq!(marks, marked);
}

#[test]
fn quality_is_for_one_game_and_needs_a_playout() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    // Given a folder, then zero playouts
    let o = carc_with_store(
        &store,
        &["analyze", logs_dir().to_str().unwrap(), "--quality"],
    );
    // Then each is refused with a reason, before any work
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--quality judges the moves of one game"),
        "{}",
        stderr(&o)
    );
    let log = logs_dir().join("short-game-rulings.jsonl");
    let o = carc_with_store(
        &store,
        &[
            "analyze",
            log.to_str().unwrap(),
            "--quality",
            "--playouts",
            "0",
        ],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--playouts"), "{}", stderr(&o));
}

#[test]
fn the_markdown_report_with_quality_marks_moves_and_names_the_best_alternative() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = logs_dir().join("short-game-rulings.jsonl");
    let log = log.to_str().unwrap();
    // Given the report without and with the move quality (few playouts, fixed seed)
    let plain = carc_with_store(&store, &["export", log, "--format", "md"]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    let plain = stdout(&plain);
    let args = [
        "export",
        log,
        "--format",
        "md",
        "--quality",
        "--playouts",
        "20",
        "--seed",
        "1",
    ];
    let o = carc_with_store(&store, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    // Then the plain report has no marks
    assert!(!plain.contains("move quality"), "{plain}");
    // And the report with quality marks event 24 and names the best move under it
    let at = md.find("- **24** ?").unwrap_or_else(|| panic!("{md}"));
    let under = &md[at..md[at..].find("- **25**").unwrap() + at];
    assert!(under.contains("  - move quality: ?"), "{under}");
    assert!(under.contains("best found: tile A at"), "{under}");
    assert!(under.contains("meeple on monastery"), "{under}");
    // And closes with each player's totals
    assert!(md.contains("\n## Move quality\n"), "{md}");
    assert!(md.contains("| Brandt | 5 | "), "{md}");
    // And everything else is the plain report, line for line
    let mut stripped: Vec<String> = Vec::new();
    for line in md.lines() {
        if line == "## Move quality" {
            stripped.pop(); // the blank line before the section
            break;
        }
        if line.starts_with("  - move quality: ") {
            continue;
        }
        let mut line = line.to_string();
        for glyph in [" ??", " ?!", " ?"] {
            if let Some(rest) = line.strip_prefix("- **") {
                if let Some(end) = rest.find("**") {
                    let head = format!("- **{}**", &rest[..end]);
                    if line[head.len()..].starts_with(glyph) {
                        line = format!("{head}{}", &line[head.len() + glyph.len()..]);
                    }
                }
            }
        }
        stripped.push(line);
    }
    assert_eq!(stripped.join("\n") + "\n", plain);
    // And --quality goes with the report formats and the tables only
    let o = carc_with_store(&store, &["export", log, "--quality"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--format md, html or parquet"),
        "{}",
        stderr(&o)
    );
}

/// The events a Markdown report marks with a move-quality line.
fn marked_in_markdown(md: &str) -> Vec<u64> {
    let mut marked = Vec::new();
    let mut current: Option<u64> = None;
    for line in md.lines() {
        if let Some(rest) = line.strip_prefix("- **") {
            current = rest.split("**").next().and_then(|n| n.parse().ok());
        }
        if line.starts_with("  - move quality: ") {
            marked.extend(current);
        }
    }
    marked
}

#[test]
fn the_html_report_with_quality_marks_the_same_moves_in_the_list_and_on_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = logs_dir().join("short-game-rulings.jsonl");
    let log = log.to_str().unwrap();
    let quality = ["--quality", "--playouts", "20", "--seed", "1"];
    // Given the Markdown and the HTML reports with the move quality of the same seed
    let md = carc_with_store(
        &store,
        &[&["export", log, "--format", "md"][..], &quality].concat(),
    );
    assert!(md.status.success(), "{}", stderr(&md));
    let md = stdout(&md);
    let args = [
        &["export", log, "--format", "html", "--boards", "none"][..],
        &quality,
    ]
    .concat();
    let o = carc_with_store(&store, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    // Then the page marks exactly the events the Markdown report marks
    let marked = marked_in_markdown(&md);
    assert!(marked.contains(&24), "{md}");
    for seq in &marked {
        let item = format!("<li id=\"event-{seq}\"><span class=\"seq\">{seq}</span>");
        let at = page
            .find(&item)
            .unwrap_or_else(|| panic!("no event {seq} in {page}"));
        let line_end = at + page[at..].find('\n').unwrap();
        assert!(
            page[at..line_end].contains("<abbr class=\"glyph extra\" title=\"move quality: "),
            "{}",
            &page[at..line_end]
        );
        // And each mark is on the score graph, linked to its event
        assert!(
            page.contains(&format!("<a href=\"#event-{seq}\">")),
            "{seq}"
        );
    }
    assert_eq!(
        page.matches("<abbr class=\"glyph extra\"").count(),
        marked.len()
    );
    assert_eq!(page.matches("<a href=\"#event-").count(), marked.len());
    // And the best move found is listed under event 24
    assert!(
        page.contains("<ul class=\"extra\">\n<li>move quality: "),
        "{page}"
    );
    // And the page closes with each player's totals as a table
    assert!(
        page.contains("<h2 id=\"extra-1\">Move quality</h2>"),
        "{page}"
    );
    assert!(
        page.contains("<tr><td>Brandt</td><td class=\"num\">5</td>"),
        "{page}"
    );
}
