//! `carc variation` and bundles (`carc export --format jsonl` with annotations and variations,
//! and `carc import` restoring them), end to end with the real binary.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{carc, carc_with_store, logs_dir, stderr, stdout};

const GAME: &str = "short-game-rulings";

/// Brandt's alternative on turn 6 of the short game: tile N at (0,2), a meeple on its city.
const CITY_NORTH: &str = r#"{"type":"tile_placed","player":1,"tile":"N","at":[0,2],"rotation":0}
{"type":"meeple_placed","player":1,"on":"city N"}
"#;

/// Ada's next turn, going on from "city north".
const NEXT_TURN: &str = r#"{"type":"tile_drawn","player":0,"tile":"V"}
{"type":"tile_placed","player":0,"tile":"V","at":[-1,-1],"rotation":90}
{"type":"meeple_skipped","player":0}
"#;

/// A copy of the short game in a fresh folder, with the two move files beside it.
fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("g.jsonl");
    fs::copy(logs_dir().join(format!("{GAME}.jsonl")), &log).unwrap();
    fs::write(dir.path().join("city.jsonl"), CITY_NORTH).unwrap();
    fs::write(dir.path().join("next.jsonl"), NEXT_TURN).unwrap();
    (dir, log)
}

fn ok(args: &[&str], dir: &Path) -> String {
    let out = carc(args, dir);
    assert!(
        out.status.success(),
        "carc {args:?} failed: {}",
        stderr(&out)
    );
    stdout(&out)
}

#[test]
fn a_variation_is_added_from_a_file_of_moves_and_compared_with_the_game() {
    // Given the short game
    let (dir, _) = setup();
    let d = dir.path();
    // When Brandt's alternative is added after event 17
    let said = add_variation(d, "city north", "17", None, "city.jsonl");
    // Then it is saved beside the log, and compared with the game: the game's move joined
    // two cities for 8 points each, the variation scores nothing yet
    assert!(said.contains("saved in g.jsonl.variations.jsonl"), "{said}");
    assert!(
        said.contains("against the game: Ada -8, Brandt -8"),
        "{said}"
    );
    // And the game's log is untouched
    let original = fs::read(logs_dir().join(format!("{GAME}.jsonl"))).unwrap();
    assert_eq!(fs::read(d.join("g.jsonl")).unwrap(), original);
    // And `show` steps through its moves in words, under a heading that names it once
    let shown = ok(&["variation", "show", "g.jsonl", "city north"], d);
    assert_eq!(
        shown.lines().next(),
        Some("variation \"city north\", branching from the game after event 17"),
        "{shown}"
    );
    assert!(
        shown.contains("18  Brandt placed tile N at (0,2)"),
        "{shown}"
    );
    assert!(
        shown.contains("19  Brandt placed a meeple on city N"),
        "{shown}"
    );
}

#[test]
fn illegal_moves_are_refused_and_nothing_is_written() {
    // Given the short game and a move onto the start tile's square
    let (dir, _) = setup();
    let d = dir.path();
    fs::write(
        d.join("bad.jsonl"),
        r#"{"type":"tile_placed","player":1,"tile":"N","at":[0,0],"rotation":0}"#,
    )
    .unwrap();
    // When it is added
    let out = carc(
        &[
            "variation",
            "add",
            "g.jsonl",
            "--name",
            "bad",
            "--after",
            "17",
            "--moves",
            "bad.jsonl",
        ],
        d,
    );
    // Then it is refused with the rule, and no variations file appears
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(
            "variation \"bad\", event 18 (tile_placed) breaks rule base.tile.empty-square"
        ),
        "{err}"
    );
    assert!(!d.join("g.jsonl.variations.jsonl").exists());
    // And a move with the wrong seq is refused with the moves file's line
    fs::write(
        d.join("seq.jsonl"),
        "{\"seq\":3,\"type\":\"meeple_skipped\",\"player\":1}\n",
    )
    .unwrap();
    let out = carc(
        &[
            "variation",
            "add",
            "g.jsonl",
            "--name",
            "s",
            "--after",
            "17",
            "--moves",
            "seq.jsonl",
        ],
        d,
    );
    assert!(
        stderr(&out).contains("seq.jsonl line 1: event seq 3 out of sequence; expected 18"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn nested_variations_are_promoted_and_deleted_with_their_children() {
    // Given "city north" and "deeper" branching from it after its last move
    let (dir, _) = setup();
    let d = dir.path();
    add_variation(d, "city north", "17", None, "city.jsonl");
    add_variation(d, "deeper", "19", Some("city north"), "next.jsonl");
    // Then `show` names the chain it branches through
    let shown = ok(&["variation", "show", "g.jsonl", "deeper"], d);
    assert_eq!(
        shown.lines().next(),
        Some("variation \"deeper\" (city north > deeper), branching from the game after event 17"),
        "{shown}"
    );
    // When "deeper" is promoted
    let said = ok(&["variation", "promote", "g.jsonl", "deeper"], d);
    // Then it branches from the game after event 17 with all five moves
    assert!(
        said.contains("now branches from the game after event 17 (5 moves)"),
        "{said}"
    );
    // And promoting it again is refused: the game's own moves are never changed
    let out = carc(&["variation", "promote", "g.jsonl", "deeper"], d);
    assert!(stderr(&out).contains("never changed"), "{}", stderr(&out));
    // When a child is added back under "city north" and "city north" is deleted
    add_variation(d, "child", "19", Some("city north"), "next.jsonl");
    let said = ok(&["variation", "delete", "g.jsonl", "city north"], d);
    // Then the child goes with it, and the promoted one stays
    assert!(said.contains("deleted \"child\", \"city north\""), "{said}");
    let listed = ok(&["variation", "list", "g.jsonl"], d);
    assert!(
        listed.starts_with("\"deeper\": from event 17 of the game, 5 moves"),
        "{listed}"
    );
    assert_eq!(listed.lines().count(), 1, "{listed}");
}

#[test]
fn a_bundle_carries_annotations_and_variations_through_the_store_and_back() {
    // Given a log with an annotation (hostile text) and a variation beside it
    let (dir, _) = setup();
    let d = dir.path();
    add_variation(d, "city north", "17", None, "city.jsonl");
    ok(
        &[
            "annotate",
            "g.jsonl",
            "--at",
            "18",
            "--glyph",
            "?!",
            "--text",
            "<script>alert(1)</script>",
        ],
        d,
    );
    // When it is exported as a bundle
    ok(&["export", "g.jsonl", "--out", "bundle.jsonl"], d);
    let bundle = fs::read_to_string(d.join("bundle.jsonl")).unwrap();
    // Then the game's lines come first, then the annotation and the variation
    let last: Vec<&str> = bundle.lines().rev().take(2).collect();
    assert!(
        last[1].starts_with(
            r#"{"type":"annotation","game":"short-game-rulings","seq":18,"glyph":"?!""#
        ),
        "{}",
        last[1]
    );
    assert!(
        last[0]
            .starts_with(r#"{"type":"variation","game":"short-game-rulings","name":"city north""#),
        "{}",
        last[0]
    );
    // And the bundle checks clean as a log
    ok(&["check", "bundle.jsonl"], d);
    // When it is imported into an empty store, twice
    let store = d.join("store");
    let path = d.join("bundle.jsonl");
    let first = carc_with_store(&store, &["import", path.to_str().unwrap()]);
    let again = carc_with_store(&store, &["import", path.to_str().unwrap()]);
    // Then the first import stores the game and both records, the second adds nothing
    assert_eq!(
        stdout(&first).trim(),
        "imported 1, skipped 0 (already present), rejected 0; 2 annotation and variation records stored"
    );
    assert_eq!(
        stdout(&again).trim(),
        "imported 0, skipped 1 (already present), rejected 0"
    );
    // And exporting the stored game gives the bundle back byte for byte
    let exported = carc_with_store(&store, &["export", GAME]);
    assert!(exported.status.success(), "{}", stderr(&exported));
    assert_eq!(stdout(&exported), bundle);
    // And `--game-only` gives the game's lines alone, as imported
    let plain = carc_with_store(&store, &["export", GAME, "--game-only"]);
    let original = fs::read_to_string(logs_dir().join(format!("{GAME}.jsonl"))).unwrap();
    assert_eq!(stdout(&plain), original);
    // And the variation is listed from the store
    let listed = carc_with_store(&store, &["variation", "list", GAME]);
    assert!(
        stdout(&listed).starts_with("\"city north\": from event 17"),
        "{}",
        stdout(&listed)
    );
}

#[test]
fn a_bundle_with_an_illegal_variation_is_rejected_whole() {
    // Given a bundle whose variation places a tile where none can go
    let (dir, log) = setup();
    let d = dir.path();
    let mut text = fs::read_to_string(&log).unwrap();
    text.push_str(
        r#"{"type":"variation","game":"short-game-rulings","name":"x","parent":null,"after":17,"events":[{"seq":18,"type":"tile_placed","player":1,"tile":"N","at":[5,5],"rotation":0}]}"#,
    );
    text.push('\n');
    fs::write(d.join("bad-bundle.jsonl"), &text).unwrap();
    let line = text.lines().count();
    // When it is checked and imported
    let checked = carc(&["check", "bad-bundle.jsonl"], d);
    let store = d.join("store");
    let imported = carc_with_store(
        &store,
        &["import", d.join("bad-bundle.jsonl").to_str().unwrap()],
    );
    // Then both name the variation's line and the rule, and the store holds no game
    let expected = format!("bad-bundle.jsonl:{line}: ");
    assert_eq!(checked.status.code(), Some(1));
    assert!(stdout(&checked).contains(&expected), "{}", stdout(&checked));
    assert!(
        stdout(&checked)
            .contains("variation \"x\", event 18 (tile_placed) breaks rule base.tile.adjacent"),
        "{}",
        stdout(&checked)
    );
    assert!(
        stdout(&imported).contains("rejected 1"),
        "{}",
        stdout(&imported)
    );
    let games = carc_with_store(&store, &["games"]);
    assert_eq!(stdout(&games), "");
}

/// `carc variation add g.jsonl --name NAME --after AFTER [--parent PARENT] --moves MOVES` in
/// `d`, which must succeed; what it printed.
fn add_variation(d: &Path, name: &str, after: &str, parent: Option<&str>, moves: &str) -> String {
    let mut args = vec![
        "variation",
        "add",
        "g.jsonl",
        "--name",
        name,
        "--after",
        after,
        "--moves",
        moves,
    ];
    if let Some(p) = parent {
        args.extend(["--parent", p]);
    }
    ok(&args, d)
}

/// Adds "city north" after event 17 and "then V" nested in it, as the CLI does.
fn add_nested_pair(d: &Path) {
    add_variation(d, "city north", "17", None, "city.jsonl");
    add_variation(d, "then V", "19", Some("city north"), "next.jsonl");
}

#[test]
fn the_reports_show_each_variation_after_the_game_and_game_only_leaves_them_out() {
    // Given the short game with a variation, a nested one, and an annotation
    let (dir, _) = setup();
    let d = dir.path();
    add_nested_pair(d);
    ok(&["annotate", "g.jsonl", "--at", "5", "--text", "a note"], d);
    // When the Markdown report is written
    let md = ok(&["export", "g.jsonl", "--format", "md"], d);
    // Then after the final scores each variation has a section, the nested one after its
    // parent: where it branches, its own moves in words, and its scores against the game
    // (the text is escaped for Markdown: `>` is written `&gt;`)
    let tail = &md[md.find("## Final scores").unwrap()..];
    let city = tail.find("## Variation \"city north\"").unwrap();
    let then = tail.find("## Variation \"then V\"").unwrap();
    assert!(city < then, "{tail}");
    assert!(tail.contains(
        "Branches from event 17 of the game, 2 moves:\n\n- 18: Brandt placed tile N at (0,2) rotated 0°\n- 19: Brandt placed a meeple on city N\n\n| player | after event 19 | against the game |\n|---|---:|---:|\n| Ada | 0 | -8 |\n| Brandt | 0 | -8 |\n"
    ), "{tail}");
    assert!(tail.contains(
        "Branches from event 19 of variation \"city north\" (city north &gt; then V), 3 moves:\n\n- 20: Ada drew tile V\n"
    ), "{tail}");
    assert!(
        !tail[then..].contains("- 18:"),
        "only its own moves: {tail}"
    );
    assert!(md.contains("  > a note\n"));
    // And the HTML page has the same sections, escaped
    let page = ok(
        &["export", "g.jsonl", "--format", "html", "--boards", "none"],
        d,
    );
    assert!(page.contains(
        "<h2 id=\"extra-1\">Variation &quot;city north&quot;</h2>\n<section class=\"extra\">\n<p>Branches from event 17 of the game, 2 moves:</p>\n<ul class=\"items\">\n<li>18: Brandt placed tile N at (0,2) rotated 0°</li>"
    ), "{page}");
    assert!(page.contains("<h2 id=\"extra-2\">Variation &quot;then V&quot;</h2>"));
    // And each section ends with the board at the variation's end, drawn from pictures the
    // page defines (the variation's tiles included)
    // (unless the page has no boards at all)
    assert!(!page.contains("<figure class=\"board\">"));
    let with_boards = ok(&["export", "g.jsonl", "--format", "html", "--static"], d);
    let then = &with_boards[with_boards.find("<h2 id=\"extra-2\">").unwrap()..];
    assert!(then.contains(
        "<figcaption>The board at the end of variation &quot;then V&quot; (event 22)</figcaption>\n</figure>\n</section>"
    ), "{then}");
    for page in [&page, &with_boards] {
        for rest in page.split("href=\"#").skip(1) {
            let id = &rest[..rest.find('"').unwrap()];
            assert!(
                page.contains(&format!("id=\"{id}\"")),
                "#{id} is not defined"
            );
        }
    }
    // And --game-only leaves out the variations and the annotations of either report
    let alone = ok(&["export", "g.jsonl", "--format", "md", "--game-only"], d);
    let plain = ok(
        &[
            "export",
            &logs_dir().join(format!("{GAME}.jsonl")).to_string_lossy(),
            "--format",
            "md",
        ],
        d,
    );
    assert_eq!(alone, plain);
    let page = ok(&["export", "g.jsonl", "--format", "html", "--game-only"], d);
    assert!(!page.contains("Variation") && !page.contains("a note"));
    // And --game-only with jcz (which has neither) is refused
    let o = carc(&["export", "g.jsonl", "--format", "jcz", "--game-only"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("jcz has neither"), "{}", stderr(&o));
}
