//! Puzzles of `carc puzzles` in the viewer, driven headless (egui_kittest): a puzzles file
//! opened like a log, a puzzle chosen in the Puzzles window, the best move made on the board
//! by a click, R and the meeple bar, and the window's verdict; then another move.
//!
//! The puzzles file is made here by hand in the documented format (docs/puzzles.md) from the
//! short sample game at Brandt's turn 8 (event 24, tile A): the move played is the game's
//! (`2,0 90 none`), the "best" another legal placement of A, so the test does not depend on
//! a search.

use std::fs;
use std::path::{Path, PathBuf};

use carc_rules::{Phase, Pos};
use carc_viewer_ui::board::square_center;
use carc_viewer_ui::{trial, ViewerApp};
use egui::Key;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use serde_json::{json, Value};

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl")
}

/// A puzzle line at the draw before placement event `seq` of the sample game.
fn puzzle(seq: u64, turn: u64, tile: &str, best: &str, played: &str) -> String {
    let text = fs::read_to_string(sample()).unwrap();
    let log: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| {
            let before = |key| v.get(key).and_then(Value::as_u64).is_some_and(|s| s < seq);
            v.get("format").is_some() || before("seq") || before("after")
        })
        .collect();
    json!({
        "puzzle_format": 1, "game": "short-game-rulings", "source": "sample", "turn": turn,
        "event": seq, "seat": 1, "player": "Brandt", "tile": tile, "mark": "?",
        "judge": "engine", "nodes": 200, "seed": 0,
        "played": {"move": played, "text": "the move played, in words", "win": 0.25, "value": -2.0},
        "best": {"move": best, "text": "the best move, in words", "win": 0.75, "value": 3.5},
        "loss": 5.5, "win_lost": 50.0,
        "line": [{"seat": 1, "player": "Brandt", "tile": tile, "move": best}],
        "moves": 12, "log": log,
    })
    .to_string()
}

fn harness(app: ViewerApp) -> Harness<'static, ViewerApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
    h.run();
    h
}

fn click_square(h: &mut Harness<'_, ViewerApp>, at: Pos, turns: usize) {
    let p = square_center(h.state().view(), h.state().board_rect().unwrap(), at);
    h.hover_at(p);
    h.run();
    for _ in 0..turns {
        h.key_press(Key::R);
        h.run();
    }
    h.drag_at(p);
    h.drop_at(p);
    h.run();
}

#[test]
fn a_puzzle_opens_at_its_position_and_a_try_is_judged() {
    // Given the position before event 24 (Brandt to place A) and a legal move of A other
    // than the game's, at a square away from (2,0)
    let text = fs::read_to_string(sample()).unwrap();
    let prefix: Vec<&str> = text
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v.get("seq").and_then(Value::as_u64).is_none_or(|s| s < 24)
        })
        .collect();
    let timeline = carc_replay::fold(
        carc_events::read_log(prefix.join("\n").as_bytes()).unwrap(),
        &[],
    );
    let position = timeline.state_at(timeline.steps.len()).unwrap();
    let places = trial::placements(&position);
    let best = *places
        .iter()
        .find(|p| p.at != Pos::new(2, 0))
        .expect("A fits elsewhere");
    let best_text = format!(
        "{},{} {} none",
        best.at.x,
        best.at.y,
        best.rotation.degrees()
    );
    // And a puzzles file with it (and a second puzzle, at event 12)
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.jsonl");
    let lines = [
        puzzle(24, 8, "A", &best_text, "2,0 90 none"),
        puzzle(12, 4, "U", "1,0 90 none", "1,0 90 none"),
    ];
    fs::write(&file, lines.join("\n") + "\n").unwrap();

    // When the file is opened as a log would be
    let mut app = ViewerApp::new();
    app.open(&file);
    assert!(app.open_error().is_none(), "{:?}", app.open_error());
    assert_eq!(app.puzzle_list().map(<[_]>::len), Some(2));
    let mut h = harness(app);
    // Then the Puzzles window lists them; choosing the first opens its game at the position
    h.get_by_label("Choose a puzzle.");
    h.get_by_label_contains("1. short-game-rulings, turn 8: Brandt, tile A ?")
        .click();
    h.run();
    h.get_by_label_contains("Find the best move: place the tile, rotate (R / wheel)");
    h.get_by_label_contains("Try a move: click a lit square to place A");
    let state = h.state().state().unwrap().clone();
    assert!(matches!(state.phase(), Phase::Place { .. }));
    assert_eq!(state.current_player(), 1, "Brandt to move");
    assert_eq!(h.state().cursor(), timeline.steps.len());

    // When the best move is made: its square, turned to its rotation, then no meeple
    let rotations = trial::rotations_at(&places, best.at);
    let turns = rotations.iter().position(|r| *r == best.rotation).unwrap();
    click_square(&mut h, best.at, turns);
    assert_eq!(h.state().current_variation(), Some("try 1"));
    h.get_by_label("Now choose the meeple (or no meeple) above the board.");
    assert!(h.query_by_label_contains("The best move found").is_none());
    h.get_by_label("no meeple").click();
    h.run();
    // Then the window says it is the best move found, with its chance to win
    h.get_by_label_contains("The best move found: 75.0 % chance to win (+3.5 expected margin).");

    // When Brandt goes back to the position and plays A where the game did, with a meeple
    h.key_press(Key::ArrowLeft);
    h.run();
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().cursor(), timeline.steps.len());
    let own = trial::rotations_at(&places, Pos::new(2, 0));
    let turns = own.iter().position(|r| r.degrees() == 90).unwrap();
    click_square(&mut h, Pos::new(2, 0), turns);
    assert_eq!(h.state().current_variation(), Some("try 2"));
    let spot = trial::offers(h.state().state().unwrap())
        .into_iter()
        .find(|o| o.label.starts_with("meeple on "))
        .expect("a free spot on A")
        .label;
    h.get_by_label(&spot).click();
    h.run();
    // Then it is not among the judged moves
    h.get_by_label_contains("Not among the judged moves");
    assert!(h.query_by_label_contains("The best move found").is_none());

    // When the best move is shown
    h.get_by_label("Show the best move").click();
    h.run();
    // Then both moves are told in words, with the engine's line
    h.get_by_label_contains(
        "Best move found: the best move, in words, 75.0 % chance to win (+3.5 expected margin)",
    );
    h.get_by_label_contains(
        "Move played: the move played, in words, 25.0 % chance to win (-2.0 expected margin)",
    );
    h.get_by_label_contains(&format!("Brandt: tile A {best_text}"));

    // When the next puzzle is chosen, its own position opens, tile X waiting
    h.get_by_label("Next puzzle").click();
    h.run();
    h.get_by_label_contains("Puzzle 2 of 2: Brandt to move, tile U");
    h.get_by_label_contains("Try a move: click a lit square to place U");
    assert_eq!(h.state().current_variation(), None);
}

#[test]
fn a_bad_puzzles_file_says_which_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.jsonl");
    let good = puzzle(24, 8, "A", "2,0 90 none", "2,0 90 none");
    fs::write(&file, format!("{good}\n{{\"puzzle_format\": 1}}\n")).unwrap();
    let mut app = ViewerApp::new();
    app.open_puzzles(&file);
    let e = app.open_error().expect("an error").to_string();
    assert!(e.contains("puzzles.jsonl: line 2: not a puzzle"), "{e}");
    assert!(app.puzzle_list().is_none());
}

#[test]
fn an_annotation_on_a_puzzle_says_it_is_kept_in_memory_only() {
    // Given a puzzle open at its position
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.jsonl");
    let line = puzzle(24, 8, "A", "2,0 90 none", "2,0 90 none");
    fs::write(&file, line + "\n").unwrap();
    let mut app = ViewerApp::new();
    app.open(&file);
    let mut h = harness(app);
    h.get_by_label_contains("1. short-game-rulings, turn 8: Brandt, tile A ?")
        .click();
    h.run();
    // When a comment is written on the position's last event and saved
    h.get_by_label("Comment:").focus();
    h.run();
    h.get_by_label("Comment:").type_text("a fine draw");
    h.run();
    h.get_by_label("Save annotation").click();
    h.run();
    // Then the status says where it really is: in memory, not in a store that went away
    let status = h.state().status_text().unwrap_or_default().to_string();
    assert!(
        status.starts_with(
            "annotation of event 23 kept in memory only: a puzzle's game is not saved anywhere"
        ),
        "{status}"
    );
    h.get_by_label("kept in memory only (a puzzle's game is not saved)");
}
