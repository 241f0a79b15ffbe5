//! Record mode, driven headless (egui_kittest) by clicks and keys only: a new game started from
//! the form, turns entered with the palette's letters, board clicks, R and the meeple keys,
//! each move appended at once to the sink; undo takes back a whole turn; an illegal click
//! changes nothing. Every click and key sent is counted: the clicks and keys a turn takes.

use std::path::Path;

use carc_events::{read_log, Event};
use carc_rules::{Action, Phase, Pos};
use carc_viewer_ui::board::square_center;
use carc_viewer_ui::record::{MemoryRecorder, NewGame};
use carc_viewer_ui::{trial, ViewerApp};
use egui::Key;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

/// The harness and the clicks and keys sent to it.
struct Driver {
    h: Harness<'static, ViewerApp>,
    inputs: usize,
}

impl Driver {
    fn new(recorder: &MemoryRecorder) -> Driver {
        let mut app = ViewerApp::new();
        app.set_recorder(Box::new(recorder.clone()));
        let mut h = Harness::builder()
            .with_size(egui::vec2(1400.0, 1000.0))
            .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
        h.run();
        Driver { h, inputs: 0 }
    }

    fn click(&mut self, label: &str) {
        self.h.get_by_label(label).click();
        self.h.run();
        self.inputs += 1;
    }

    fn key(&mut self, key: Key) {
        self.h.key_press(key);
        self.h.run();
        self.inputs += 1;
    }

    fn type_into(&mut self, label: &str, text: &str) {
        self.h.get_by_label(label).focus();
        self.h.run();
        self.h.get_by_label(label).type_text(text);
        self.h.run();
    }

    fn app(&self) -> &ViewerApp {
        self.h.state()
    }

    fn state(&self) -> carc_rules::Game {
        self.app().state().unwrap().clone()
    }

    /// Points at square `at` (not counted: moving the mouse is not a click).
    fn hover(&mut self, at: Pos) -> egui::Pos2 {
        let p = square_center(self.app().view(), self.app().board_rect().unwrap(), at);
        self.h.hover_at(p);
        self.h.run();
        p
    }

    fn click_square(&mut self, at: Pos) {
        let p = self.hover(at);
        self.h.drag_at(p);
        self.h.drop_at(p);
        self.h.run();
        self.inputs += 1;
    }

    /// Draws `tile` by its letter when the letter draws it, else by its palette picture.
    fn draw(&mut self, tile: &str) {
        let state = self.state();
        let letter = tile.chars().next().unwrap().to_ascii_lowercase();
        let by_letter = carc_viewer_ui::record::tile_for_letter(&state, letter)
            .is_some_and(|t| state.tiles().get(t).id == tile);
        if by_letter {
            self.key(Key::from_name(&letter.to_string()).unwrap());
        } else {
            self.click(&format!("draw {tile}"));
        }
    }

    /// Places the drawn tile on `at` turned `degrees`: points at it, R until the ghost shows
    /// that rotation, click.
    fn place(&mut self, at: Pos, degrees: u32) {
        let state = self.state();
        let rotations = trial::rotations_at(&trial::placements(&state), at);
        let turns = rotations
            .iter()
            .position(|r| r.degrees() == degrees)
            .unwrap_or_else(|| panic!("{degrees}° is not legal on {at}: {rotations:?}"));
        self.hover(at);
        for _ in 0..turns {
            self.key(Key::R);
        }
        self.click_square(at);
    }

    /// The figure step: N for no meeple, A for the abbot when A makes that move, else the
    /// offer's button.
    fn figure(&mut self, event: &Event) {
        let state = self.state();
        if matches!(event, Event::MeepleSkipped { .. }) {
            return self.key(Key::N);
        }
        let is = |a: &Action| trial::event_of(&state, a).as_ref() == Ok(event);
        if carc_viewer_ui::record::abbot_action(&state).is_some_and(|a| is(&a)) {
            return self.key(Key::A);
        }
        let offer = trial::offers(&state)
            .into_iter()
            .find(|o| is(&o.action))
            .unwrap_or_else(|| panic!("{event:?} not offered"));
        self.click(&offer.label);
    }

    /// A start tile on a map: its letter picks it (unless it is picked already: the set's
    /// start tile at first), then the start square is clicked with the tile turned by R.
    fn start(&mut self, tile: &str, at: Pos, degrees: u32) {
        let state = self.state();
        let letter = tile.chars().next().unwrap().to_ascii_lowercase();
        let t = carc_viewer_ui::record::tile_for_letter(&state, letter).unwrap();
        assert_eq!(state.tiles().get(t).id, tile);
        let picked = state.starts_placed() == 0 && state.start_tile() == Some(t);
        if !picked && letter == 'r' {
            // R turns the tile: tile R is picked from the palette.
            self.click(&format!("start {tile}"));
        } else if !picked {
            self.key(Key::from_name(&letter.to_string()).unwrap());
        }
        let rotations = trial::rotations_at(&trial::start_placements(&state, t), at);
        let turns = rotations
            .iter()
            .position(|r| r.degrees() == degrees)
            .unwrap_or_else(|| panic!("{degrees}° is not legal on {at}: {rotations:?}"));
        self.hover(at);
        for _ in 0..turns {
            self.key(Key::R);
        }
        self.click_square(at);
    }

    /// Enters one event of a sample game the way a person would.
    fn enter(&mut self, event: &Event) {
        match event {
            Event::StartPlaced { tile, at, rotation } => self.start(
                tile.as_str(),
                Pos::new(at.x, at.y),
                u32::from(rotation.degrees()),
            ),
            Event::TileDrawn { tile, .. } => self.draw(tile.as_str()),
            Event::TilePlaced { at, rotation, .. } => {
                self.place(Pos::new(at.x, at.y), u32::from(rotation.degrees()))
            }
            e => self.figure(e),
        }
    }
}

fn form(game: &str, abbot: bool) -> NewGame {
    NewGame {
        game: game.into(),
        players: vec![
            ("Ada".into(), carc_events::Color::Red),
            ("Brandt".into(), carc_events::Color::Blue),
        ],
        abbot,
        ..NewGame::default()
    }
}

/// The events of the stored game (after its header), as the log reads them.
fn stored_events(recorder: &MemoryRecorder, game: &str) -> Vec<Event> {
    let g = recorder.game(game).unwrap();
    let log = read_log(g.lines.concat().as_bytes()).unwrap();
    log.events.into_iter().map(|(_, e)| e.event).collect()
}

fn sample(name: &str) -> Vec<Event> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    let log = read_log(&std::fs::read(path).unwrap()[..]).unwrap();
    log.events.into_iter().map(|(_, e)| e.event).collect()
}

#[test]
fn a_new_abbot_game_is_entered_by_clicks_and_keys_one_append_per_move() {
    // Given a viewer that records into memory
    let recorder = MemoryRecorder::default();
    let mut d = Driver::new(&recorder);
    // When a new game is started from the form (Record, the fields, a third player, The
    // Abbot, Start)
    d.click("Record");
    d.type_into("Game id:", "table-1");
    d.type_into("Player 1:", "Ada");
    d.type_into("Player 2:", "Brandt");
    d.click("Add player");
    d.type_into("Player 3:", "Cleo");
    d.click("The Abbot");
    d.click("Start recording");
    // Then the game is stored with its header and start tile in one append
    assert_eq!(d.app().recording(), Some("table-1"));
    let g = recorder.game("table-1").unwrap();
    assert_eq!((g.lines.len(), g.appends), (2, 1));
    assert!(
        g.lines[0].contains(r#""expansions":["abbot"]"#),
        "{}",
        g.lines[0]
    );
    assert!(
        g.lines[0].contains(r#"{"name":"Cleo","color":"green"}"#),
        "{}",
        g.lines[0]
    );
    // When the first turns of the abbot sample are entered by keys and clicks
    let moves = sample("sim-3p-abbot-mixed.jsonl");
    for e in &moves[1..10] {
        d.enter(e);
    }
    // Then the store holds exactly those events, each from its own append
    let g = recorder.game("table-1").unwrap();
    assert_eq!(stored_events(&recorder, "table-1"), moves[..10]);
    assert_eq!(g.appends, 1 + 9);
    // And the score table and status show the moves as they are made
    assert!(
        d.app()
            .status_text()
            .unwrap()
            .starts_with("recorded event 10"),
        "{:?}",
        d.app().status_text()
    );
}

#[test]
fn undo_takes_back_the_whole_last_turn_and_an_illegal_click_changes_nothing() {
    let recorder = MemoryRecorder::default();
    let mut d = Driver::new(&recorder);
    d.h.state_mut().start_recording(&form("u", false)).unwrap();
    d.h.run();
    let moves = sample("sim-2p-greedy-vs-random.jsonl");
    for e in &moves[1..7] {
        d.enter(e);
    }
    // Given two whole turns recorded and the third tile drawn
    d.enter(&moves[7]);
    let before = recorder.game("u").unwrap();
    assert_eq!(stored_events(&recorder, "u"), moves[..8]);
    // When a square that is not lit is clicked (the start tile's own square)
    let state = d.state();
    assert!(matches!(state.phase(), Phase::Place { .. }));
    d.click_square(Pos::new(0, 0));
    // Then nothing is stored and the tile still waits to be placed
    assert_eq!(recorder.game("u").unwrap(), before);
    assert!(matches!(d.state().phase(), Phase::Place { .. }));
    // When the third turn is finished and Ctrl+Z pressed
    d.enter(&moves[8]);
    d.enter(&moves[9]);
    assert_eq!(stored_events(&recorder, "u"), moves[..10]);
    let appends = recorder.game("u").unwrap().appends;
    d.h.key_press_modifiers(egui::Modifiers::CTRL, Key::Z);
    d.h.run();
    // Then the whole turn (draw, placement, figure) is taken back in one append
    assert_eq!(stored_events(&recorder, "u"), moves[..7]);
    assert_eq!(recorder.game("u").unwrap().appends, appends + 1);
    assert_eq!(d.app().cursor(), 7);
    // And the button takes back the turn before it
    d.click("Undo turn");
    assert_eq!(stored_events(&recorder, "u"), moves[..4]);
    // And the game goes on from there
    for e in &moves[4..10] {
        d.enter(e);
    }
    assert_eq!(stored_events(&recorder, "u"), moves[..10]);
}

/// Enters a whole sample game through record mode; returns the clicks and keys of each turn
/// that was a placement and a meeple step (placed or none).
fn enter_whole_game(name: &str, abbot: bool, river: bool) -> Vec<usize> {
    let recorder = MemoryRecorder::default();
    let mut d = Driver::new(&recorder);
    // The sample's players and colours, in seat order
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    let header = read_log(&std::fs::read(path).unwrap()[..]).unwrap().header;
    let mut form = form("whole", abbot);
    form.river = river;
    form.inns_cathedrals = header
        .rules
        .expansions
        .iter()
        .any(|e| e == "inns_cathedrals");
    form.traders_builders = header
        .rules
        .expansions
        .iter()
        .any(|e| e == "traders_builders");
    form.players = header
        .players
        .iter()
        .map(|p| (p.name.clone(), p.color))
        .collect();
    d.h.state_mut().start_recording(&form).unwrap();
    d.h.run();
    let moves = sample(name);
    let mut per_turn = Vec::new();
    let mut start = 0;
    for e in &moves[1..] {
        if matches!(e, Event::TileDrawn { .. }) {
            start = d.inputs;
        }
        d.enter(e);
        if matches!(e, Event::MeeplePlaced { .. } | Event::MeepleSkipped { .. }) {
            per_turn.push(d.inputs - start);
        }
    }
    // The log stored is the sample's, event for event; the game is over and sealed
    assert_eq!(stored_events(&recorder, "whole"), moves);
    let g = recorder.game("whole").unwrap();
    assert!(g.sealed);
    assert_eq!(
        g.appends,
        moves.len(),
        "one append per move after the start"
    );
    assert_eq!(d.app().recording(), None, "record mode ends with the game");
    per_turn
}

#[test]
fn a_whole_sample_game_entered_through_record_mode_is_the_sample_and_takes_few_inputs_a_turn() {
    let per_turn = enter_whole_game("sim-2p-greedy-vs-random.jsonl", false, false);
    let average = per_turn.iter().sum::<usize>() as f64 / per_turn.len() as f64;
    eprintln!(
        "clicks and keys per placement + meeple turn: {average:.2} over {} turns (max {})",
        per_turn.len(),
        per_turn.iter().max().unwrap()
    );
    assert!(average <= 4.0, "{average}");
}

#[test]
fn a_whole_abbot_sample_game_with_garden_tiles_and_the_a_key_is_the_sample() {
    // The Abbot: garden copies drawn from the palette or by letter, the abbot by A (placed
    // and taken back)
    let moves = sample("sim-3p-abbot-mixed.jsonl");
    assert!(moves
        .iter()
        .any(|e| matches!(e, Event::AbbotTakenBack { .. })));
    let per_turn = enter_whole_game("sim-3p-abbot-mixed.jsonl", true, false);
    assert!(!per_turn.is_empty());
}

#[test]
fn a_whole_river_sample_game_starts_at_the_spring_and_is_the_sample() {
    // The River: the spring is the start tile, the river tiles come first from the palette
    let moves = sample("sim-2p-river-mixed.jsonl");
    assert!(matches!(&moves[0], Event::StartPlaced { tile, .. } if tile.as_str() == "RS"));
    let per_turn = enter_whole_game("sim-2p-river-mixed.jsonl", false, true);
    assert!(!per_turn.is_empty());
}

#[test]
fn a_whole_inns_cathedrals_sample_game_with_large_meeples_is_the_sample() {
    // The large meeple is offered beside the meeple spots and clicked like them
    let name = "sim-2p-inns-cathedrals-mixed.jsonl";
    assert!(sample(name).iter().any(|e| matches!(
        e,
        Event::MeeplePlaced {
            figure: carc_events::Figure::Large,
            ..
        }
    )));
    enter_whole_game(name, false, false);
}

#[test]
fn a_whole_traders_builders_sample_game_with_builders_and_pigs_is_the_sample() {
    // The builder and the pig are offered beside the meeple spots (labelled `builder on …`,
    // `pig on …`) and clicked like them; the builder's second turns follow on their own
    let name = "sim-2p-traders-builders-mixed.jsonl";
    for figure in [carc_events::Figure::Builder, carc_events::Figure::Pig] {
        assert!(sample(name)
            .iter()
            .any(|e| matches!(e, Event::MeeplePlaced { figure: f, .. } if *f == figure)));
    }
    enter_whole_game(name, false, false);
}

#[test]
fn a_whole_gifts_sample_game_is_entered_with_cards_received_by_key_and_opened_from_the_offers() {
    // The Gifts with the anniversary: every card is received (by its digit key) and opened
    // (from the offers, with its target), Take 2 draws a second tile and returns one.
    let name = "sim-3p-anniversary-gifts-mixed.jsonl";
    let moves = sample(name);
    for kind in ["gift_received", "gift_opened", "tile_returned"] {
        assert!(moves.iter().any(|e| e.type_name() == kind), "{kind}");
    }
    let recorder = MemoryRecorder::default();
    let mut d = Driver::new(&recorder);
    // Given a new game from the form: the sample's three players, the anniversary, The Gifts
    d.click("Record");
    d.type_into("Game id:", "gifts");
    d.type_into("Player 1:", "Ada");
    d.type_into("Player 2:", "Brandt");
    d.click("Add player");
    d.type_into("Player 3:", "Cleo");
    d.click("20th Anniversary (arrows)");
    d.click("The Gifts (gift cards)");
    d.click("Start recording");
    let g = recorder.game("gifts").unwrap();
    assert!(
        g.lines[0].contains(r#""expansions":["anniversary","gifts"]"#)
            && g.lines[0].contains(r#""tile_sets":["base","anniversary"]"#),
        "{}",
        g.lines[0]
    );
    let enter = |d: &mut Driver, e: &Event| match e {
        Event::GiftReceived { card, .. } => {
            let key = carc_viewer_ui::record::gift_key(carc_events::rules_card(*card));
            d.key(Key::from_name(&key.to_string()).unwrap());
        }
        e => d.enter(e),
    };
    // When the sample is entered up to Brandt's Take 2 turn (draw, open, second draw, return,
    // placement: events 51 to 55)
    for e in &moves[1..55] {
        enter(&mut d, e);
    }
    assert_eq!(stored_events(&recorder, "gifts"), moves[..55]);
    // Then Undo turn takes it back whole, its gift events included
    d.click("Undo turn");
    assert_eq!(stored_events(&recorder, "gifts"), moves[..50]);
    // And the rest of the game entered from there is the sample, event for event
    for e in &moves[50..] {
        enter(&mut d, e);
    }
    assert_eq!(stored_events(&recorder, "gifts"), moves);
    let g = recorder.game("gifts").unwrap();
    assert!(g.sealed);
    assert_eq!(d.app().recording(), None, "record mode ends with the game");
}

#[test]
fn a_germany_map_game_starts_on_its_start_squares_and_is_the_sample_event_for_event() {
    let name = "sim-2p-germany-greedy-vs-random.jsonl";
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    let sample_header = read_log(&std::fs::read(path).unwrap()[..]).unwrap().header;
    let moves = sample(name);
    // Given a viewer that records into memory, a new game on the Germany map from the form
    let recorder = MemoryRecorder::default();
    let mut d = Driver::new(&recorder);
    d.click("Record");
    d.type_into("Game id:", "germany");
    d.type_into("Player 1:", "Ada");
    d.type_into("Player 2:", "Brandt");
    d.click("Map: Germany (Carcassonne Maps)");
    d.click("Start recording");
    // Then the stored game is its header alone, with the rules `carc simulate --map germany`
    // writes (the map, 2 start squares, 9 meeples), and the board shows the map
    let g = recorder.game("germany").unwrap();
    assert_eq!((g.lines.len(), g.appends), (1, 1));
    let header = read_log(g.lines.concat().as_bytes()).unwrap().header;
    assert_eq!(header.rules, sample_header.rules);
    assert_eq!(header.tile_sets, sample_header.tile_sets);
    assert_eq!(header.players, sample_header.players);
    let state = d.state();
    assert_eq!(state.phase(), Phase::Start);
    assert!(state.map().is_some());
    // And the start squares are lit: the start tile D is picked, a square off them does nothing
    d.click_square(Pos::new(1, 1));
    assert_eq!(recorder.game("germany").unwrap().lines.len(), 1);
    assert_eq!(d.state().phase(), Phase::Start);
    // When a start tile is put down by mistake and Ctrl+Z pressed, it alone is taken back
    d.enter(&Event::StartPlaced {
        tile: carc_events::TileId::new("D").unwrap(),
        at: carc_events::Pos::new(0, 0),
        rotation: carc_events::Rotation::R0,
    });
    assert_eq!(stored_events(&recorder, "germany").len(), 1);
    d.h.key_press_modifiers(egui::Modifiers::CTRL, Key::Z);
    d.h.run();
    assert!(stored_events(&recorder, "germany").is_empty());
    assert_eq!(d.state().phase(), Phase::Start);
    // When the sample's start tiles and first 20 turns are entered by keys and clicks
    let upto = moves
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Event::TileDrawn { .. }))
        .nth(20)
        .map(|(i, _)| i)
        .unwrap();
    for e in &moves[..upto] {
        d.enter(e);
    }
    // Then the store holds exactly those events, each from its own append
    assert_eq!(stored_events(&recorder, "germany"), moves[..upto]);
    assert_eq!(recorder.game("germany").unwrap().appends, 3 + upto);
}
