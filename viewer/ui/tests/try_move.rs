//! Trying moves on the board, driven headless (egui_kittest): a tile placed by a click, turned
//! with R and the wheel, the meeple chosen, the next tile chosen from the bag, each move saved
//! as a variation beside the log.

use std::fs;
use std::path::{Path, PathBuf};

use carc_events::variation::{variations_path, VariationRecord};
use carc_events::Event;
use carc_rules::{Action, Phase, Pos};
use carc_viewer_ui::board::square_center;
use carc_viewer_ui::loaded::LoadedGame;
use carc_viewer_ui::{trial, Command, ViewerApp};
use egui::Key;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

fn copied_game() -> (tempfile::TempDir, PathBuf) {
    copied_log("short-game-rulings.jsonl")
}

/// The sample log `name` copied to a scratch folder (variations are saved beside it).
fn copied_log(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("g.jsonl");
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../logs")
            .join(name),
        &log,
    )
    .unwrap();
    (dir, log)
}

fn harness(path: &Path) -> Harness<'static, ViewerApp> {
    let mut app = ViewerApp::new();
    app.open(path);
    assert!(app.open_error().is_none(), "{:?}", app.open_error());
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
    h.run();
    h
}

/// The screen point of a square's centre on the board as last drawn.
fn on_board(h: &Harness<'_, ViewerApp>, at: Pos) -> egui::Pos2 {
    square_center(h.state().view(), h.state().board_rect().unwrap(), at)
}

fn click_at(h: &mut Harness<'_, ViewerApp>, p: egui::Pos2) {
    h.hover_at(p);
    h.run();
    h.drag_at(p);
    h.drop_at(p);
    h.run();
}

fn press_r(h: &mut Harness<'_, ViewerApp>, times: usize) {
    for _ in 0..times {
        h.key_press(Key::R);
        h.run();
    }
}

/// The variation records written beside the log, last first.
fn records(log: &Path) -> Vec<VariationRecord> {
    let text = fs::read_to_string(variations_path(log)).unwrap_or_default();
    let mut out: Vec<VariationRecord> = text
        .lines()
        .map(|l| carc_events::variation::parse_variation(l, 2).unwrap())
        .collect();
    out.reverse();
    out
}

#[test]
fn a_tile_placed_by_a_click_then_a_meeple_and_a_tile_from_the_bag_make_a_saved_variation() {
    // Given the short game after event 17 (Brandt drew N, which the game puts at (-1,1))
    let (_dir, log) = copied_game();
    let mut h = harness(&log);
    h.state_mut().command(Command::JumpTo(17));
    h.run();
    h.get_by_label_contains("Try a move: click a lit square to place N");
    let state = h.state().state().unwrap().clone();
    let placements = trial::placements(&state);
    let other = placements
        .iter()
        .find(|p| p.at != Pos::new(-1, 1))
        .expect("N fits elsewhere too")
        .at;
    let rotation = trial::rotations_at(&placements, other)[0];
    // When another lit square is clicked
    let p = on_board(&h, other);
    click_at(&mut h, p);
    // Then "try 1" branches from the game after event 17 with N there, saved beside the log,
    // and is shown at its move
    assert_eq!(h.state().current_variation(), Some("try 1"));
    assert_eq!(h.state().cursor(), 18);
    let VariationRecord::Set(v) = &records(&log)[0] else {
        panic!("a variation is written")
    };
    assert_eq!(
        (v.name.as_str(), v.parent.as_deref(), v.after),
        ("try 1", None, 17)
    );
    match &v.events[0].event {
        Event::TilePlaced {
            tile,
            at,
            rotation: r,
            ..
        } => {
            assert_eq!(tile.as_str(), "N");
            assert_eq!((at.x, at.y), (other.x, other.y));
            assert_eq!(u32::from(r.degrees()), rotation.degrees());
        }
        e => panic!("{e:?}"),
    }
    // When a meeple spot is chosen in the bar above the board (it offers "no meeple" too)
    let offers = trial::offers(h.state().state().unwrap());
    assert_eq!(offers[0].label, "no meeple");
    h.get_by_label("no meeple");
    let spot = offers
        .iter()
        .find(|o| o.label.starts_with("meeple on "))
        .expect("a free spot on the tile")
        .label
        .clone();
    let supply = h.state().state().unwrap().supply()[1];
    h.get_by_label(&spot).click();
    h.run();
    // Then the variation is extended at its end with that meeple, not forked
    assert_eq!(h.state().current_variation(), Some("try 1"));
    assert_eq!(h.state().cursor(), 19);
    let VariationRecord::Set(v) = &records(&log)[0] else {
        panic!()
    };
    assert_eq!(v.events.len(), 2);
    let Event::MeeplePlaced { on, player, .. } = &v.events[1].event else {
        panic!("{:?}", v.events[1])
    };
    assert_eq!((*player, format!("meeple on {on}")), (1, spot.clone()));
    assert_eq!(
        h.state().state().unwrap().supply()[1],
        supply - 1,
        "Brandt's meeple left his supply"
    );
    // And the score difference against the game is shown
    h.get_by_label_contains("Against the game after event 19: Ada ");
    // When the next tile is chosen from the bag
    h.get_by_label("next tile from the bag").click();
    h.run();
    let choice = {
        let state = h.state().state().unwrap();
        let (tile, left) = trial::tiles_in_bag(state)[0];
        format!("{} ({left} left)", state.tiles().get(tile).id)
    };
    h.get_by_label(&choice).click();
    h.run();
    // Then the draw is the variation's third move, with Ada to place that tile
    assert_eq!(h.state().cursor(), 20);
    let VariationRecord::Set(v) = &records(&log)[0] else {
        panic!()
    };
    assert_eq!(v.events.len(), 3);
    let Event::TileDrawn { tile, player } = &v.events[2].event else {
        panic!("{:?}", v.events[2])
    };
    assert_eq!(*player, 0);
    assert!(
        choice.starts_with(&format!("{} (", tile.as_str())),
        "{choice}"
    );
    // And reopening the log finds the variation
    let again = harness(&log);
    again.get_by_label("try 1");
}

#[test]
fn the_games_own_move_is_followed_and_r_and_the_wheel_turn_the_tile() {
    // Given the short game after event 17, N to place
    let (_dir, log) = copied_game();
    let mut h = harness(&log);
    h.state_mut().command(Command::JumpTo(17));
    h.run();
    let state = h.state().state().unwrap().clone();
    let placements = trial::placements(&state);
    // When the game's own square is clicked with the game's rotation, 90°
    let own = trial::rotations_at(&placements, Pos::new(-1, 1));
    let turns = own.iter().position(|r| r.degrees() == 90).unwrap();
    let p = on_board(&h, Pos::new(-1, 1));
    h.hover_at(p);
    h.run();
    press_r(&mut h, turns);
    click_at(&mut h, p);
    // Then the game's own line is followed: no variation
    assert_eq!(h.state().current_variation(), None);
    assert_eq!(h.state().cursor(), 18);
    assert!(records(&log).is_empty());
    // Given a square (not the game's) where N has two or more legal rotations
    let (at, rotations) = placements
        .iter()
        .filter(|p| p.at != Pos::new(-1, 1))
        .map(|p| (p.at, trial::rotations_at(&placements, p.at)))
        .find(|(_, r)| r.len() >= 2)
        .expect("a square with two rotations");
    let placed_rotation = |log: &Path| {
        let VariationRecord::Set(v) = &records(log)[0] else {
            panic!("a variation is written")
        };
        let Event::TilePlaced { rotation, .. } = &v.events[0].event else {
            panic!()
        };
        u32::from(rotation.degrees())
    };
    // When, back at event 17, the pointer is on it, R is pressed once and the square clicked
    h.state_mut().command(Command::JumpTo(17));
    h.run();
    let p = on_board(&h, at);
    h.hover_at(p);
    h.run();
    press_r(&mut h, 1);
    click_at(&mut h, p);
    // Then the tile is placed at its second legal rotation
    assert_eq!(h.state().current_variation(), Some("try 1"));
    assert_eq!(placed_rotation(&log), rotations[1].degrees());
    // When, back at event 17 of "try 1", the wheel turns it one notch over the square instead
    let written = records(&log).len();
    h.state_mut().command(Command::JumpTo(17));
    h.run();
    let p = on_board(&h, at);
    h.hover_at(p);
    h.run();
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: egui::vec2(0.0, -1.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
        modifiers: egui::Modifiers::NONE,
    });
    h.run();
    click_at(&mut h, p);
    // Then it is the same move as try 1's (the second rotation), so try 1 is followed and
    // nothing is written; and the wheel did not zoom
    assert_eq!(h.state().current_variation(), Some("try 1"));
    assert_eq!(h.state().cursor(), 18);
    assert_eq!(records(&log).len(), written);
    assert!(
        h.state().view().auto_fit,
        "a zoom would have stopped the fitting"
    );
}

#[test]
fn the_best_move_found_is_drawn_and_played_as_a_variation() {
    // Given the short game judged with few playouts and a fixed seed
    let (_dir, log) = copied_game();
    let mut app = ViewerApp::new();
    app.open(&log);
    app.quality_mut().options.judge = carc_analysis::Judge::Playouts;
    app.quality_mut().options.playouts = 20;
    app.quality_mut().options.seed = 1;
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
    h.run();
    h.get_by_label("Analyse move quality").click();
    h.step();
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
    // When the cursor is just before Brandt's marked placement of event 24
    h.state_mut().command(Command::JumpTo(23));
    h.run();
    // Then the best move found is drawn on the board and offered
    let best = h
        .state()
        .best_here()
        .expect("event 24 is not the best move")
        .clone();
    assert_eq!(best.seq, 24);
    assert!(h.state().best_ghost().is_some());
    h.get_by_label_contains("Best move found: tile A at");
    // When it is played
    h.get_by_label("Play the best move found").click();
    h.run();
    // Then it is a variation from event 23: the placement and the meeple step of the best move
    assert_eq!(h.state().current_variation(), Some("best at event 24"));
    let VariationRecord::Set(v) = &records(&log)[0] else {
        panic!("a variation is written")
    };
    assert_eq!((v.after, v.parent.as_deref()), (23, None));
    let Event::TilePlaced { at, rotation, .. } = &v.events[0].event else {
        panic!("{:?}", v.events[0])
    };
    assert_eq!(
        (at.x, at.y),
        (best.best.mv.placement.at.x, best.best.mv.placement.at.y)
    );
    assert_eq!(
        u32::from(rotation.degrees()),
        best.best.mv.placement.rotation.degrees()
    );
    assert!(matches!(
        v.events.last().unwrap().event,
        Event::MeeplePlaced { .. } | Event::MeepleSkipped { .. } | Event::ArrowMeeplePlaced { .. }
    ));
    assert_eq!(h.state().cursor(), 23 + v.events.len());
}

#[test]
fn the_abbot_placed_by_a_click_makes_a_saved_variation() {
    // Given the abbot game at the first meeple step where the abbot could go on the
    // monastery or garden of the tile just placed and the game did something else
    let (_dir, log) = copied_log("sim-3p-abbot-mixed.jsonl");
    let g = LoadedGame::open(&log).unwrap();
    let steps = &g.timeline.steps;
    let (after, label, played) = (0..steps.len())
        .find_map(|n| {
            let game = g.timeline.state_at(n).unwrap();
            if !matches!(game.phase(), Phase::Meeple { .. }) {
                return None;
            }
            let o = trial::offers(&game)
                .into_iter()
                .find(|o| matches!(o.action, Action::PlaceAbbot { portal: false, .. }))?;
            let event = trial::event_of(&game, &o.action).unwrap();
            (steps[n].event != event).then_some((n, o.label, event))
        })
        .expect("an abbot placement the game did not play");
    let mut h = harness(&log);
    h.state_mut().command(Command::JumpTo(after));
    h.run();
    let player = played.player().unwrap();
    assert!(h.state().state().unwrap().abbot_in_supply(player));
    // When the abbot's button in the bar above the board is clicked
    assert!(label.starts_with("abbot on "), "{label}");
    h.get_by_label(&label).click();
    h.run();
    // Then "try 1" branches there with the abbot placed, saved beside the log, and is shown
    assert_eq!(h.state().current_variation(), Some("try 1"));
    assert_eq!(h.state().cursor(), after + 1);
    let VariationRecord::Set(v) = &records(&log)[0] else {
        panic!("a variation is written")
    };
    assert_eq!((v.name.as_str(), v.after), ("try 1", after as u64));
    assert_eq!(v.events.len(), 1);
    assert_eq!(v.events[0].event, played);
    let Event::AbbotPlaced { at, .. } = played else {
        panic!("{played:?}")
    };
    // And the abbot stands on the tile just placed, out of its owner's supply
    let state = h.state().state().unwrap();
    assert!(!state.abbot_in_supply(player));
    let (on, _) = state.abbot_of(player).expect("the abbot is on the board");
    assert_eq!((on.x, on.y), (at.x, at.y));
}
