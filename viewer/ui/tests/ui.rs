//! Headless UI tests (egui_kittest): no window, no GPU. They drive the real panels with key
//! presses and clicks and read back what the widgets show.

use std::path::{Path, PathBuf};

use carc_rules::Pos;
use carc_viewer_ui::annotations::{annotations_path, AnnotationStore, Glyph};
use carc_viewer_ui::board::square_center;
use carc_viewer_ui::{move_list, text, GameLibrary, LibraryEntry, LibraryGame, ViewerApp};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name)
}

fn harness(app: ViewerApp) -> Harness<'static, ViewerApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
    h.run();
    h
}

/// The viewer with `path` open, stepped back to the empty table (Home): a game opens on its
/// last position (see `a_game_opens_on_its_final_board_and_home_goes_to_the_empty_table`).
fn opened(path: &Path) -> Harness<'static, ViewerApp> {
    let mut app = ViewerApp::new();
    app.open(path);
    assert!(app.open_error().is_none(), "{:?}", app.open_error());
    let mut h = harness(app);
    h.key_press(Key::Home);
    h.run();
    h
}

fn press(h: &mut Harness<'_, ViewerApp>, key: Key, times: usize) {
    for _ in 0..times {
        h.key_press(key);
    }
    h.run();
}

/// Clicks at a screen point: move, press, release.
fn click_at(h: &mut Harness<'_, ViewerApp>, p: egui::Pos2) {
    h.hover_at(p);
    h.drag_at(p);
    h.drop_at(p);
    h.run();
}

#[test]
fn a_game_opens_on_its_final_board_and_home_goes_to_the_empty_table() {
    // Given a finished game
    let mut app = ViewerApp::new();
    app.open(&sample("short-game-rulings.jsonl"));
    let mut h = harness(app);
    // When it opens, then it stands after its last event (the final scores on the board)
    assert_eq!(h.state().cursor(), 34);
    h.get_by_label("34 / 34");
    // And the keys work at once, with no click first: Home goes to the empty table
    press(&mut h, Key::Home, 1);
    assert_eq!(h.state().cursor(), 0);
}

#[test]
fn a_wider_move_list_shows_more_of_a_long_name() {
    // Given a game whose first player's name (13 characters) is cut in the list as it opens
    let bga =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bga/366166200.json");
    let mut h = opened(&bga);
    let rows = |h: &Harness<'_, ViewerApp>, text: &str| h.query_all_by_label_contains(text).count();
    assert!(rows(&h, "  KokiYamag\u{2026}  ") > 0);
    assert_eq!(rows(&h, "  KokiYamaguchi  "), 0);
    // When the list is widened by dragging its edge to 900 pixels
    // (The panel's edge, where the pointer grabs it, is at 344 pixels.)
    let edge = egui::pos2(344.0, 400.0);
    h.hover_at(edge);
    h.run();
    h.drag_at(edge);
    h.run();
    for x in [500.0, 700.0, 900.0] {
        h.hover_at(egui::pos2(x, 400.0));
        h.run();
    }
    h.drop_at(egui::pos2(900.0, 400.0));
    h.run();
    // Then the name shows whole
    assert!(rows(&h, "  KokiYamaguchi  ") > 0, "the name is still cut");
}

#[test]
fn right_ten_times_shows_the_scores_after_event_ten() {
    let mut h = opened(&sample("short-game-rulings.jsonl"));
    assert_eq!(h.state().cursor(), 0);
    press(&mut h, Key::ArrowRight, 10);
    assert_eq!(h.state().cursor(), 10);
    h.get_by_label("10 / 34");
    h.get_by_label("Event 10");
    h.get_by_label("Ada placed a meeple on monastery");
    // Score table: both on 0 points; Ada has 5 meeples left (city, monastery), Brandt 6.
    let state = h.state().state().unwrap();
    assert_eq!(state.scores(), &[0, 0]);
    assert_eq!(state.supply(), &[5, 6]);
    assert_eq!(h.query_all_by_label("0").count(), 2, "two scores of 0");
    h.get_by_label("5");
    h.get_by_label("6");

    // End: the final scores 20 and 11, every meeple back in supply.
    press(&mut h, Key::End, 1);
    assert_eq!(h.state().cursor(), 34);
    h.get_by_label("20");
    h.get_by_label("11");
    assert_eq!(h.query_all_by_label("7").count(), 2);
    h.get_by_label("the game is over");
    // The final event's scores are explained with the engine's formula and rule ids.
    h.get_by_label("rule: base.score.monastery.completed");
    h.get_by_label("rule: base.score.field.final");

    // Home, then Shift+Right: the end of turn 0 (the start tile), then of turn 1.
    press(&mut h, Key::Home, 1);
    assert_eq!(h.state().cursor(), 0);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowRight);
    h.run();
    assert_eq!(h.state().cursor(), 1);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowRight);
    h.run();
    assert_eq!(h.state().cursor(), 4);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().cursor(), 1);

    // Ctrl+Right: the first event that scored is 19 (two cities joined, a tie 8 to 8).
    h.key_press_modifiers(Modifiers::CTRL, Key::ArrowRight);
    h.run();
    assert_eq!(h.state().cursor(), 19);
    assert_eq!(h.query_all_by_label("8").count(), 2);
    h.get_by_label("majority: Ada and Brandt (+8 each)");
    h.key_press_modifiers(Modifiers::CTRL, Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().cursor(), 19, "no scoring event before 19");
    press(&mut h, Key::ArrowLeft, 1);
    assert_eq!(h.state().cursor(), 18);
}

#[test]
fn transport_buttons_and_slider_move_the_cursor() {
    let mut h = opened(&sample("short-game-rulings.jsonl"));
    h.get_by_label(">").click();
    h.run();
    assert_eq!(h.state().cursor(), 1);
    h.get_by_label(">>").click();
    h.run();
    assert_eq!(h.state().cursor(), 4);
    h.get_by_label(">|").click();
    h.run();
    assert_eq!(h.state().cursor(), 34);
    h.get_by_label("Prev score").click();
    h.run();
    assert_eq!(h.state().cursor(), 19);
    h.get_by_label("<").click();
    h.run();
    assert_eq!(h.state().cursor(), 18);
    h.get_by_label("|<").click();
    h.run();
    assert_eq!(h.state().cursor(), 0);
    h.get_by_label("Next score").click();
    h.run();
    assert_eq!(h.state().cursor(), 19);
    h.get_by_role_and_label(egui::Role::Slider, "event")
        .set_value_accesskit(12.0);
    h.run();
    assert_eq!(h.state().cursor(), 12);
}

/// The move-list row of the turn holding step `index` (as the list words it, no marks).
fn turn_row_of(h: &Harness<'_, ViewerApp>, index: usize, marks: &str) -> String {
    let g = h.state().game().unwrap();
    let steps = &g.timeline.steps;
    let groups = move_list::turn_groups(steps);
    let k = move_list::group_of(&groups, index).unwrap();
    let numbers = move_list::turn_numbers(steps, &groups);
    move_list::turn_row(
        &g.timeline.log.header,
        steps,
        groups[k].clone(),
        numbers[k],
        marks,
    )
}

#[test]
fn the_move_list_has_one_row_per_turn_and_its_events_one_click_away() {
    // Given the short game, before the first event
    let mut h = opened(&sample("short-game-rulings.jsonl"));
    let turn = turn_row_of(&h, 5, "");
    assert_eq!(turn, "  2  Brandt  J (-1,0) 0°  meeple on city N");
    let event = {
        let g = h.state().game().unwrap();
        text::event_row(&g.timeline.log.header, &g.timeline.steps, 5, None)
    };
    assert_eq!(event, "  6  Brandt  placed J at (-1,0) 0°");
    // Then one row per turn is listed and the events of a turn are not
    assert!(h.query_by_label(&event).is_none());
    // When the turn's row is clicked
    h.get_by_label(&turn).click();
    h.run();
    // Then the cursor is at the end of the turn, whose events are now listed
    assert_eq!(h.state().cursor(), 7);
    // When one of its events is clicked
    h.get_by_label(&event).click();
    h.run();
    // Then the cursor is on that event
    assert_eq!(h.state().cursor(), 6);
    h.get_by_label("Event 6");
    // When the list goes back before the first event, the turn's events close again
    h.get_by_label("  0  before the first event").click();
    h.run();
    assert_eq!(h.state().cursor(), 0);
    assert!(h.query_by_label(&event).is_none());
    // When the "+" of the turn is clicked (the third: start tile, turn 1, turn 2)
    h.get_all_by_label("+").nth(2).unwrap().click();
    h.run();
    // Then its events are listed without moving the cursor
    h.get_by_label(&event);
    assert_eq!(h.state().cursor(), 0);
}

#[test]
fn the_move_list_never_scrolls_sideways_and_keeps_turn_and_player() {
    // Given a game whose first player has a very long name, in a narrow window
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("long.jsonl");
    let text = std::fs::read_to_string(sample("short-game-rulings.jsonl"))
        .unwrap()
        .replacen(
            "\"Ada\"",
            "\"Adalberta Maximiliane von Hohenzollern-Sigmaringen\"",
            1,
        );
    std::fs::write(&log, text).unwrap();
    let mut app = ViewerApp::new();
    app.open(&log);
    let mut h = Harness::builder()
        .with_size(egui::vec2(900.0, 700.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
    h.run();
    press(&mut h, Key::End, 1);
    // Then the row of turn 1 starts with the number and the elided name
    let row = turn_row_of(&h, 2, "");
    assert!(row.starts_with("  1  Adalberta…  "), "{row}");
    let node = h.get_by_label(&row);
    // And it ends inside the move list, which has no horizontal scroll bar
    let list_right = node.rect().right();
    let board = h.state().board_rect().unwrap();
    assert!(
        list_right <= board.left(),
        "{list_right} > {}",
        board.left()
    );
}

#[test]
fn clicking_the_graph_jumps_to_the_event_under_the_pointer() {
    let mut h = opened(&sample("short-game-rulings.jsonl"));
    let rect = h.state().graph_rect().expect("graph drawn");
    assert!(rect.width() > 200.0, "{rect:?}");
    click_at(
        &mut h,
        egui::pos2(rect.left() + 0.75 * rect.width(), rect.center().y),
    );
    let at = h.state().cursor();
    assert!((18..=32).contains(&at), "jumped to {at}");
    click_at(
        &mut h,
        egui::pos2(rect.left() + 0.1 * rect.width(), rect.center().y),
    );
    let back = h.state().cursor();
    assert!(back < at && back <= 8, "jumped back to {back}");
}

#[test]
fn an_annotation_added_in_the_ui_is_stored_beside_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("game.jsonl");
    std::fs::copy(sample("short-game-rulings.jsonl"), &log).unwrap();
    let original = std::fs::read(&log).unwrap();
    let mut h = opened(&log);
    press(&mut h, Key::ArrowRight, 5);
    assert_eq!(h.state().cursor(), 5);

    h.get_by_label("?!").click();
    h.run();
    let comment = h.get_by_label("Comment:");
    comment.click();
    h.run();
    h.get_by_label("Comment:").type_text("why not the city?");
    h.run();
    // Keys go to the text field, not to the replay.
    press(&mut h, Key::ArrowRight, 2);
    press(&mut h, Key::Home, 1);
    assert_eq!(h.state().cursor(), 5);
    h.get_by_label("Save annotation").click();
    h.run();

    let path = annotations_path(&log);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text,
        "{\"game\":\"short-game-rulings\",\"seq\":5,\"glyph\":\"?!\",\"text\":\"why not the city?\"}\n"
    );
    assert_eq!(
        std::fs::read(&log).unwrap(),
        original,
        "the log is untouched"
    );
    // The list shows the glyph, on the event and on its turn.
    h.get_by_label("  5  Brandt  drew J  ?!");
    h.get_by_label(&turn_row_of(&h, 4, "?!"));

    // Reopening loads it.
    let store = AnnotationStore::load(path.clone(), "short-game-rulings").unwrap();
    assert_eq!(store.get(5).unwrap().glyph, Some(Glyph::Dubious));
    let h2 = opened(&log);
    h2.get_by_label(&turn_row_of(&h2, 4, "?!"));
    drop(h2);

    // Delete removes it (and the emptied file).
    h.get_by_label("Delete annotation").click();
    h.run();
    assert!(!path.exists());
}

#[test]
fn an_illegal_event_is_reported_and_the_legal_part_can_be_stepped() {
    let text = std::fs::read_to_string(sample("short-game-rulings.jsonl")).unwrap();
    let bad = text.replace(
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,-1]",
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,0]",
    );
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("bad.jsonl");
    std::fs::write(&log, bad).unwrap();
    let mut h = opened(&log);
    h.get_by_label_contains(
        "line 10: event 9 is illegal [base.tile.empty-square]: square (0,0) already holds tile D; \
         you can step up to event 8, the last legal one",
    );
    press(&mut h, Key::End, 1);
    assert_eq!(h.state().cursor(), 8);
    press(&mut h, Key::ArrowRight, 3);
    assert_eq!(h.state().cursor(), 8);
}

#[test]
fn a_file_that_is_not_a_log_shows_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "hello\n").unwrap();
    let mut app = ViewerApp::new();
    app.open(&path);
    let mut h = harness(app);
    h.get_by_label_contains("line 1:");
    assert!(h.state().game().is_none());
    // Opening a good file through the path field and the Open button.
    h.get_by_label("Log file:").click();
    h.run();
    h.key_combination_modifiers(Modifiers::COMMAND, &[Key::A]);
    h.get_by_label("Log file:")
        .type_text(sample("short-game-rulings.jsonl").to_str().unwrap());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert!(
        h.state().open_error().is_none(),
        "{:?}",
        h.state().open_error()
    );
    assert_eq!(h.state().game().unwrap().timeline.steps.len(), 34);
}

#[test]
fn space_plays_and_pauses() {
    let mut h = opened(&sample("short-game-rulings.jsonl"));
    h.key_press(Key::Space);
    h.step();
    assert!(h.state().is_playing());
    h.run_steps(6);
    let at = h.state().cursor();
    assert!(at >= 3, "playback advanced to {at}");
    h.key_press(Key::Space);
    h.step();
    assert!(!h.state().is_playing());
    let paused = h.state().cursor();
    h.run_steps(4);
    assert_eq!(h.state().cursor(), paused);
}

#[test]
fn hovering_a_score_highlights_its_tiles_and_hovering_a_square_explains_it() {
    let mut h = opened(&sample("short-game-rulings.jsonl"));
    h.state_mut().command(carc_viewer_ui::Command::JumpTo(19));
    h.run();
    let title = h.get_by_label_contains("city (completed)");
    let p = title.rect().center();
    h.hover_at(p);
    h.run();
    let expected = h.state().game().unwrap().timeline.steps[18].effects.scores[0]
        .tiles
        .clone();
    assert_eq!(h.state().highlighted(), expected.as_slice());
    assert_eq!(expected.len(), 4);

    // Hover the monastery square: the tooltip values its features.
    let rect = h.state().board_rect().unwrap();
    let p = square_center(h.state().view(), rect, Pos::new(0, -1));
    h.hover_at(p);
    h.run();
    h.hover_at(p + egui::vec2(1.0, 0.0));
    h.run_steps(4);
    h.get_by_label("tile B at (0,-1), rotated 0°");
    h.get_by_label_contains("monastery: monastery, 5 of 9 squares, open; meeples: Ada 1");
}

#[test]
fn the_tile_set_window_lists_every_tile_type() {
    let mut h = opened(&sample("short-game-rulings.jsonl"));
    assert!(h.query_by_label("A ×2").is_none());
    h.get_by_label("Tiles").click();
    h.run();
    assert!(h.state().show_tiles);
    for t in ["A ×2", "D ×4", "V ×9", "X ×1"] {
        h.get_by_label(t);
    }
    h.get_by_label("Tiles").click();
    h.run();
    assert!(h.query_by_label("A ×2").is_none());
}

#[test]
fn a_header_that_cannot_be_set_up_is_reported() {
    let text = std::fs::read_to_string(sample("short-game-rulings.jsonl")).unwrap();
    let bad = text.replacen("\"tile_sets\":[\"base\"]", "\"tile_sets\":[\"moon\"]", 1);
    assert_ne!(bad, text);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("moon.jsonl");
    std::fs::write(&log, bad).unwrap();
    let mut h = opened(&log);
    h.get_by_label_contains("the header does not describe a playable game [base.setup]");
    assert!(h.state().state().is_none());
    press(&mut h, Key::End, 1);
    assert_eq!(h.state().cursor(), 0);
}

/// A game library in memory, shared with the test so that it can look at what was appended.
#[derive(Clone, Default)]
struct MemoryLibrary {
    games: std::rc::Rc<std::cell::RefCell<Vec<(String, LibraryGame)>>>,
}

impl GameLibrary for MemoryLibrary {
    fn location(&self) -> String {
        "store memory".to_string()
    }
    fn list(&self) -> Result<Vec<LibraryEntry>, String> {
        Ok(self
            .games
            .borrow()
            .iter()
            .map(|(id, g)| LibraryEntry::summarize(id, true, &g.log))
            .collect())
    }
    fn load(&self, game: &str) -> Result<LibraryGame, String> {
        self.games
            .borrow()
            .iter()
            .find(|(id, _)| id == game)
            .map(|(_, g)| g.clone())
            .ok_or_else(|| format!("store memory holds no game {game}"))
    }
    fn append_annotation(&self, game: &str, record: &[u8]) -> Result<(), String> {
        let mut games = self.games.borrow_mut();
        let (_, g) = games
            .iter_mut()
            .find(|(id, _)| id == game)
            .ok_or_else(|| format!("store memory holds no game {game}"))?;
        g.annotations.push(record.to_vec());
        Ok(())
    }
    fn append_variation(&self, game: &str, record: &[u8]) -> Result<(), String> {
        let mut games = self.games.borrow_mut();
        let (_, g) = games
            .iter_mut()
            .find(|(id, _)| id == game)
            .ok_or_else(|| format!("store memory holds no game {game}"))?;
        g.variations.push(record.to_vec());
        Ok(())
    }
}

#[test]
fn the_store_game_list_opens_a_game_and_keeps_its_annotations_in_the_store() {
    // Given a store with two games, one annotated already
    let library = MemoryLibrary::default();
    let short = std::fs::read(sample("short-game-rulings.jsonl")).unwrap();
    let sim = std::fs::read(sample("sim-3p-greedy.jsonl")).unwrap();
    library.games.borrow_mut().extend([
        (
            "short".to_string(),
            LibraryGame {
                log: short.clone(),
                annotations: vec![
                    br#"{"game":"short-game-rulings","seq":2,"glyph":"!","text":"good draw"}"#
                        .to_vec(),
                ],
                variations: Vec::new(),
            },
        ),
        (
            "sim".to_string(),
            LibraryGame {
                log: sim,
                annotations: Vec::new(),
                variations: Vec::new(),
            },
        ),
    ]);
    let mut app = ViewerApp::new();
    app.set_library(Box::new(library.clone()));
    let mut h = harness(app);

    // When the Games window is opened
    h.get_by_label("Games").click();
    h.run();
    // Then it lists both games with their results
    h.get_by_label("finished; Ada 20, Brandt 11");
    assert_eq!(h.state().games().unwrap().as_ref().unwrap().len(), 2);

    // When a game's id is clicked
    h.get_by_label("short").click();
    h.run();
    // Then that game is open, with its stored annotation shown in the event list
    let game = h.state().game().expect("a game is open");
    assert_eq!(game.timeline.steps.len(), 34);
    assert_eq!(game.source.to_string(), "game short in store memory");
    h.get_by_label(&turn_row_of(&h, 1, "!"));
    assert_eq!(
        h.state().persisted().last_stored_game.as_deref(),
        Some("short")
    );

    // When an annotation is written on event 5
    press(&mut h, Key::Home, 1);
    press(&mut h, Key::ArrowRight, 5);
    h.get_by_label("??").click();
    h.run();
    h.get_by_label("Save annotation").click();
    h.run();
    // Then one record is appended to the store, and the game's log is untouched
    let games = library.games.borrow();
    let stored = &games[0].1;
    assert_eq!(stored.annotations.len(), 2);
    assert_eq!(
        stored.annotations[1],
        br#"{"game":"short-game-rulings","seq":5,"glyph":"??","text":""}"#.to_vec()
    );
    assert_eq!(stored.log, short);
}

#[test]
fn a_store_that_cannot_be_read_shows_its_message_in_the_games_window() {
    struct Broken;
    impl GameLibrary for Broken {
        fn location(&self) -> String {
            "store ./s".into()
        }
        fn list(&self) -> Result<Vec<LibraryEntry>, String> {
            Err("store ./s is in use by another process".into())
        }
        fn load(&self, _: &str) -> Result<LibraryGame, String> {
            Err("unreachable".into())
        }
        fn append_annotation(&self, _: &str, _: &[u8]) -> Result<(), String> {
            Err("unreachable".into())
        }
        fn append_variation(&self, _: &str, _: &[u8]) -> Result<(), String> {
            Err("unreachable".into())
        }
    }
    let mut app = ViewerApp::new();
    app.set_library(Box::new(Broken));
    let mut h = harness(app);
    h.get_by_label("Games").click();
    h.run();
    h.get_by_label("store ./s is in use by another process");
    assert!(h.state().game().is_none());
}

#[test]
fn an_anniversary_game_shows_the_activated_arrow_and_its_ruling() {
    // Given the 4-player anniversary sample
    let mut h = opened(&sample("sim-4p-anniversary-mixed.jsonl"));
    let steps = &h.state().game().unwrap().timeline.steps;
    let activated = steps
        .iter()
        .position(|s| {
            s.effects
                .notes
                .iter()
                .any(|n| matches!(n, carc_rules::Note::ArrowActivated { .. }))
        })
        .expect("an arrow is activated in the sample");
    // When the viewer jumps to the event that activates an arrow
    h.state_mut()
        .command(carc_viewer_ui::Command::JumpTo(activated + 1));
    h.run();
    // Then the ruling trace names the activation with its rule id
    assert_eq!(h.state().cursor(), activated + 1);
    assert!(h
        .query_all_by_label_contains("[anniversary.arrow.activated]")
        .next()
        .is_some());
    // And the event list marks the extra turns and the remote meeples
    assert!(h
        .query_all_by_label_contains("[extra turn]")
        .next()
        .is_some());
    assert!(h
        .query_all_by_label_contains("portal meeple on")
        .next()
        .is_some());
}

#[test]
fn a_game_on_the_germany_map_starts_fitted_to_the_map_and_names_the_border() {
    // Given the 2-player sample on the Germany map
    let mut h = opened(&sample("sim-2p-germany-greedy-vs-random.jsonl"));
    let map = h
        .state()
        .state()
        .unwrap()
        .map()
        .expect("a map game")
        .clone();
    // Then the board view is fitted to the whole map, not just the start tiles: every map
    // square (large cities included) lies inside the board rectangle
    let rect = h.state().board_rect().expect("the board is shown");
    let view = *h.state().view();
    for (at, square) in map.grid() {
        if matches!(square, carc_rules::Square::Outside(_)) {
            continue;
        }
        let sq = view.square_rect(rect, at);
        assert!(rect.expand(1.0).contains_rect(sq), "{at} outside {rect:?}");
    }
    // When the viewer jumps to an event whose road or city ends at the border
    let steps = &h.state().game().unwrap().timeline.steps;
    let border = steps
        .iter()
        .position(|s| {
            s.effects
                .notes
                .iter()
                .any(|n| matches!(n, carc_rules::Note::Border { .. }))
        })
        .expect("a feature reaches the border in the sample");
    h.state_mut()
        .command(carc_viewer_ui::Command::JumpTo(border + 1));
    h.run();
    // Then the ruling trace names the border and its rule id
    assert!(
        h.query_all_by_label_contains("at the border toward")
            .next()
            .is_some()
            || h.query_all_by_label_contains("ends at the")
                .next()
                .is_some()
    );
    assert!(h
        .query_all_by_label_contains("[maps.border")
        .next()
        .is_some());
}

#[test]
fn gifts_are_face_up_in_the_full_view_and_face_down_from_another_players_point_of_view() {
    let path = sample("sim-3p-anniversary-gifts-mixed.jsonl");
    let log = carc_events::read_log(&std::fs::read(&path).unwrap()).unwrap();
    let (seq, player) = log
        .events
        .iter()
        .find_map(|(_, e)| match e.event {
            carc_events::Event::GiftReceived { player, .. } => Some((e.seq, player)),
            _ => None,
        })
        .expect("the sample receives gifts");
    let mut h = opened(&path);
    press(&mut h, Key::ArrowRight, seq as usize);
    // Full view: the card is named, in the event panel and in the hands
    h.get_by_label_contains("received a gift: ");
    // From another seat: face down
    h.state_mut().pov = carc_replay::describe::View::Seat((player + 1) % 3);
    h.run();
    h.get_by_label_contains("received a gift card (face down)");
    h.get_by_label_contains("1 card, face down");
    // From the receiver's own seat: face up again
    h.state_mut().pov = carc_replay::describe::View::Seat(player);
    h.run();
    h.get_by_label_contains("received a gift: ");
}

/// A file dropped onto the window, as the window shell hands it to egui.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn a_log_dropped_onto_the_window_opens() {
    // Given the viewer showing one game
    let mut h = opened(&sample("short-game-rulings.jsonl"));
    assert_eq!(h.state().game().unwrap().timeline.steps.len(), 34);
    // When another log is dropped onto the window
    let other = sample("sim-3p-greedy.jsonl");
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(other.clone())));
    h.run();
    // Then that game is open, on its last position, and the path field shows it
    let game = h.state().game().expect("a game is open");
    assert_eq!(game.timeline.log.header.players.len(), 3);
    assert_eq!(h.state().cursor(), game.timeline.steps.len());
    assert_eq!(
        h.state().persisted().last_file.as_deref(),
        Some(other.as_path())
    );
    // And a dropped file that is not a log leaves the open game and says why
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("notes.txt");
    std::fs::write(&junk, "shopping list\n").unwrap();
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(junk)));
    h.run();
    assert_eq!(
        h.state().game().unwrap().timeline.log.header.players.len(),
        3
    );
    assert!(h.state().open_error().unwrap().contains("notes.txt"));
}

#[test]
fn move_quality_runs_in_the_background_and_marks_the_event_list_and_the_graph() {
    // Given the short sample game, and few playouts with a fixed seed
    let mut app = ViewerApp::new();
    app.open(&sample("short-game-rulings.jsonl"));
    app.quality_mut().options.judge = carc_analysis::Judge::Playouts;
    app.quality_mut().options.playouts = 20;
    app.quality_mut().options.seed = 1;
    let mut h = harness(app);
    press(&mut h, Key::Home, 1);
    assert!(
        h.query_by_label_contains("  engine ").is_none(),
        "no mark before the analysis"
    );
    // When "Analyse move quality" is clicked
    h.get_by_label("Analyse move quality").click();
    h.step();
    h.step();
    // Then the window keeps drawing frames (a spinner, the progress) while the worker judges
    // the moves
    assert!(h.state().quality().report().is_none());
    let started = std::time::Instant::now();
    while h.state().quality().is_running() {
        assert!(
            started.elapsed().as_secs() < 120,
            "the analysis did not finish"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    h.run();
    assert_eq!(h.state().quality().error(), None);
    let report = h.state().quality().report().expect("the report is in");
    assert_eq!(report.turns.len(), 11);
    // And Brandt's edge monastery without a meeple (event 24) is marked in the event list
    let g = h.state().game().unwrap();
    let suffix = h
        .state()
        .quality()
        .row_suffix(24)
        .expect("event 24 is marked");
    assert!(
        (suffix.starts_with("  engine ? -") || suffix.starts_with("  engine ?? -"))
            && suffix.ends_with(" pts"),
        "{suffix}"
    );
    // And hovering the row explains whose mark it is and what it measures
    let explained = h.state().quality().row_explanation(24).unwrap();
    assert!(
        explained.contains("the engine's mark") && explained.contains("your own annotation"),
        "{explained}"
    );
    let _ = g;
    let row = turn_row_of(&h, 23, suffix.trim());
    assert!(row.starts_with("  8  Brandt  A (2,0) 90°"), "{row}");
    h.get_by_label(&row);
    let marked = report.turns.iter().filter(|t| t.mark.is_some()).count();
    let marked_rows = ["  engine ?! -", "  engine ? -", "  engine ?? -"]
        .iter()
        .map(|m| h.query_all_by_label_contains(m).count())
        .sum::<usize>();
    assert_eq!(marked_rows, marked);
    // And on the score graph, one mark per marked move, on the mover's score
    let g = h.state().game().unwrap();
    let marks = h.state().quality().graph_marks(&g.timeline.steps);
    assert_eq!(marks.len(), marked);
    let m24 = marks
        .iter()
        .find(|m| m.x == 24.0)
        .expect("a mark after event 24");
    assert_eq!(m24.y, 8.0, "Brandt had 8 points after event 24");
    // And stepping onto the event shows the best move found
    press(&mut h, Key::ArrowRight, 24);
    assert_eq!(h.state().cursor(), 24);
    h.get_by_label_contains("best found: tile A at");
    h.get_by_label_contains("move quality: Ada ");
}

#[test]
fn the_move_quality_settings_choose_the_engine_iterations_of_the_next_run() {
    // Given an open game and the default settings (the engine judges)
    let mut app = ViewerApp::new();
    app.open(&sample("short-game-rulings.jsonl"));
    let mut h = harness(app);
    assert_eq!(h.state().quality().options.nodes, 2_000);
    // When the iterations box (which says "2000 iterations") is opened and 8000 chosen
    let settings =
        "engine iterations per search for the next analysis: more is steadier and slower";
    let value = |h: &Harness<'static, ViewerApp>| h.get_by_label(settings).value();
    assert_eq!(value(&h).as_deref(), Some("2000 iterations"));
    h.get_by_label(settings).click();
    h.run();
    h.get_by_label("8000 iterations").click();
    h.run();
    // Then the next run uses 8000 iterations, and the box says so
    assert_eq!(h.state().quality().options.nodes, 8_000);
    assert_eq!(value(&h).as_deref(), Some("8000 iterations"));
    // And the seed is there to change, starting at 0
    assert_eq!(h.state().quality().options.seed, 0);
    assert_eq!(h.get_by_label("seed").value().as_deref(), Some("seed 0"));
}

#[test]
fn the_final_scoring_has_rows_of_its_own_and_its_board_shows_the_figures_that_scored() {
    // Given the short game, whose last event completes a monastery and ends the game
    let mut h = opened(&sample("short-game-rulings.jsonl"));
    let (last_turn, finals) = {
        let g = h.state().game().unwrap();
        let steps = &g.timeline.steps;
        (
            turn_row_of(&h, steps.len() - 1, ""),
            move_list::final_rows(&g.timeline.log.header, steps),
        )
    };
    // Then the last turn's row counts only what its move scored (the monastery it completed)
    assert_eq!(last_turn, " 11  Ada  E (1,-2) 180°  no meeple  (Ada +9)");
    // And the final scoring is listed after it, one row per player and feature: the field
    // both farm gives each of them a row
    assert_eq!(
        finals,
        vec![
            "     Ada  +3  field, north-east at (0,0)".to_string(),
            "     Brandt  +3  field, north-east at (0,0)".to_string(),
        ]
    );
    h.get_by_label("     final scoring");
    // And before the end the board shows no figure that the final scoring sent home
    assert!(h.state().final_figures().is_empty());
    // When a final-scoring row is clicked
    h.get_by_label(&finals[1]).click();
    h.run();
    // Then the cursor is at the end, and the board shows the figures that scored there
    assert_eq!(h.state().cursor(), 34);
    let figures = h.state().final_figures();
    assert!(figures.iter().any(|r| r.player == 0));
    assert!(figures.iter().any(|r| r.player == 1));
}

#[test]
fn bidi_controls_and_line_separators_in_names_are_shown_escaped() {
    // Given the short game with a bidi override, an isolate and a line separator in a name
    // and in the game id (one U+202E once reversed every line naming the player)
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sample("short-game-rulings.jsonl")).unwrap();
    let text = text
        .replacen(
            "{\"name\":\"Ada\"",
            "{\"name\":\"Ada\\u202eevil\\u2066x\\u2028y\"",
            1,
        )
        .replacen(
            "\"game\":\"short-game-rulings\"",
            "\"game\":\"g\\u202e1\"",
            1,
        );
    let path = dir.path().join("bidi.jsonl");
    std::fs::write(&path, text).unwrap();
    // When it is opened and stepped to a turn of hers and to the end
    let mut h = opened(&path);
    for key in [Key::ArrowRight, Key::ArrowRight, Key::ArrowRight, Key::End] {
        press(&mut h, key, 1);
        // Then no widget shows those characters raw
        for c in ['\u{202e}', '\u{2066}', '\u{2028}'] {
            let raw = c.to_string();
            let shown: Vec<String> = h
                .query_all_by_label_contains(&raw)
                .map(|n| format!("{n:?}"))
                .collect();
            assert!(shown.is_empty(), "U+{:04X} shown raw: {shown:?}", c as u32);
        }
        // And the name is shown with them escaped
        assert!(
            h.query_all_by_label_contains(r"Ada\u{202e}evil\u{2066}x\u{2028}y")
                .next()
                .is_some(),
            "the escaped name is not shown"
        );
    }
}
