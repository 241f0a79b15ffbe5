//! The viewer's variations panel, driven headless (egui_kittest): entering a variation kept
//! beside a log, stepping through it against the game, going back, promoting and deleting.

use std::fs;
use std::path::{Path, PathBuf};

use carc_events::variation::{variations_path, Variation, VariationRecord};
use carc_events::{read_log, Envelope};
use carc_viewer_ui::ViewerApp;
use egui::Key;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

/// The short game copied into a folder, with "city north" (Brandt's tile N at (0,2) and a
/// meeple on its city, after event 17) and "deeper" (Ada's next turn, from "city north")
/// beside it.
fn game_with_variations() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("g.jsonl");
    let text = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl"),
    )
    .unwrap();
    fs::write(&log, &text).unwrap();
    let line = |json: &str| -> Vec<Envelope> {
        let events = read_log(format!("{}\n{json}", text.lines().next().unwrap()).as_bytes())
            .unwrap()
            .events;
        events.into_iter().map(|(_, e)| e).collect()
    };
    let mut city = line(concat!(
        r#"{"seq":1,"type":"tile_placed","player":1,"tile":"N","at":[0,2],"rotation":0}"#,
        "\n",
        r#"{"seq":2,"type":"meeple_placed","player":1,"on":"city N"}"#
    ));
    let mut next = line(concat!(
        r#"{"seq":1,"type":"tile_drawn","player":0,"tile":"V"}"#,
        "\n",
        r#"{"seq":2,"type":"tile_placed","player":0,"tile":"V","at":[-1,-1],"rotation":90}"#,
        "\n",
        r#"{"seq":3,"type":"meeple_skipped","player":0}"#
    ));
    for (i, e) in city.iter_mut().enumerate() {
        e.seq = 18 + i as u64;
    }
    for (i, e) in next.iter_mut().enumerate() {
        e.seq = 20 + i as u64;
    }
    let records = [
        VariationRecord::Set(Variation {
            game: "short-game-rulings".into(),
            name: "city north".into(),
            parent: None,
            after: 17,
            events: city,
        }),
        VariationRecord::Set(Variation {
            game: "short-game-rulings".into(),
            name: "deeper".into(),
            parent: Some("city north".into()),
            after: 19,
            events: next,
        }),
    ];
    let lines: Vec<String> = records.iter().map(VariationRecord::to_json).collect();
    fs::write(variations_path(&log), lines.join("\n") + "\n").unwrap();
    (dir, log)
}

fn harness(path: &Path) -> Harness<'static, ViewerApp> {
    let mut app = ViewerApp::new();
    app.open(path);
    assert!(app.open_error().is_none(), "{:?}", app.open_error());
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 1600.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
    h.run();
    h
}

#[test]
fn a_variation_is_entered_stepped_against_the_game_and_left() {
    // Given the short game with its variations beside it, at event 30
    let (_dir, log) = game_with_variations();
    let mut h = harness(&log);
    h.state_mut().command(carc_viewer_ui::Command::JumpTo(30));
    h.run();
    // When "city north" is clicked in the Variations panel
    h.get_by_label("city north").click();
    h.run();
    // Then the variation is shown from its first own move (event 18), level with the game
    assert_eq!(h.state().current_variation(), Some("city north"));
    assert_eq!(h.state().cursor(), 18);
    h.get_by_label("Showing variation \"city north\"");
    h.get_by_label("Against the game after event 18: Ada +0, Brandt +0");
    h.get_by_label("18 / 19");
    // When the next move is stepped to with the arrow key
    h.key_press(Key::ArrowRight);
    h.run();
    // Then the difference shows the 8 points each that the game's move scored
    h.get_by_label("Against the game after event 19: Ada -8, Brandt -8");
    // When "Back to the game" is clicked
    h.get_by_label("Back to the game").click();
    h.run();
    // Then the game's own line is back where it was left
    assert_eq!(h.state().current_variation(), None);
    assert_eq!(h.state().cursor(), 30);
    h.get_by_label("30 / 34");
}

#[test]
fn promoting_and_deleting_append_records_beside_the_log() {
    // Given the game with "city north" and "deeper" (nested in it)
    let (_dir, log) = game_with_variations();
    let mut h = harness(&log);
    // When the Promote button of "deeper" is clicked (the second Promote; the first is
    // disabled for the top-level variation)
    let promote = h
        .get_all_by_label("Promote")
        .nth(1)
        .expect("two Promote buttons");
    promote.click();
    h.run();
    // Then "deeper" branches from the game after event 17, with five moves
    h.get_by_label("after event 17, 5 moves");
    // When "city north" is deleted
    h.get_all_by_label("Delete")
        .next()
        .expect("a Delete button")
        .click();
    h.run();
    // Then only "deeper" is left, and reopening the log reads the same from the file
    assert!(h.query_by_label("city north").is_none());
    let reopened = harness(&log);
    reopened.get_by_label("deeper");
    assert!(reopened.query_by_label("city north").is_none());
    let written = fs::read_to_string(variations_path(&log)).unwrap();
    assert_eq!(written.lines().count(), 4, "{written}");
}

#[test]
fn the_move_list_shows_each_variation_as_a_branch_under_the_move_it_leaves_from() {
    // Given the game with "city north" (after event 17) and "deeper" (nested, after 19)
    let (_dir, log) = game_with_variations();
    let mut h = harness(&log);
    let city = "city north: from event 17, 2 moves";
    // (Turn 7 of the game is the same as deeper's; turn 8 is the game's alone.)
    let (turn8, end8) = {
        let g = h.state().game().unwrap();
        let steps = &g.timeline.steps;
        let groups = carc_viewer_ui::move_list::turn_groups(steps);
        let row = carc_viewer_ui::move_list::turn_row(
            &g.timeline.log.header,
            steps,
            groups[8].clone(),
            8,
            "",
        );
        (row, groups[8].end)
    };
    assert!(turn8.starts_with("  8  Brandt  "), "{turn8}");
    let deeper = "deeper: from event 19, 3 moves";
    // Then both branches are listed, open, "deeper" inside "city north"
    h.get_by_label(city);
    h.get_by_label(deeper);
    let branch_row = h.query_all_by_label_contains("Brandt  N (0,2) 0°").count();
    assert_eq!(branch_row, 1, "the branch's own turn is listed once");
    // And the branch sits under the main line's turn of event 17 (Brandt drew N), before the
    // next turn of the game
    let y =
        |h: &Harness<'static, ViewerApp>, label: &str| h.get_by_label_contains(label).rect().top();
    assert!(y(&h, "  6  Brandt  N (-1,1) 90°") < y(&h, city));
    assert!(y(&h, city) < y(&h, &turn8));
    // When the branch's header is clicked, it collapses: its moves and sub-branch are hidden
    h.get_by_label(city).click();
    h.run();
    assert!(h.query_by_label(deeper).is_none());
    assert_eq!(
        h.query_all_by_label_contains("Brandt  N (0,2) 0°").count(),
        0
    );
    // When it is clicked again it expands
    h.get_by_label(city).click();
    h.run();
    h.get_by_label(deeper);
    // When the branch's own turn is clicked
    h.get_by_label_contains("Brandt  N (0,2) 0°").click();
    h.run();
    // Then that variation is shown at the end of the turn, and the game's line stays listed
    assert_eq!(h.state().current_variation(), Some("city north"));
    assert_eq!(h.state().cursor(), 19);
    h.get_by_label_contains("  6  Brandt  N (-1,1) 90°");
    h.get_by_label(&turn8);
    // When a turn of the game's line is clicked, the game is shown again there
    h.get_by_label(&turn8).click();
    h.run();
    assert_eq!(h.state().current_variation(), None);
    assert_eq!(h.state().cursor(), end8);
}
