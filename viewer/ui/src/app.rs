//! The window: panels around the board. Every input becomes a [`Command`]; the commands of a
//! frame are applied once, at its end.
//!
//! Layout: top bar (file, status), bottom timeline (score graph, transport buttons, scrubber),
//! left event list, right details (scores, the current event's scoring and ruling trace,
//! annotation), the board in the centre.

mod games_window;
mod variations_panel;

use std::path::{Path, PathBuf};

use carc_events::Header;
use carc_rules::{Game, Phase, Placement, Pos};
use egui::{Align, Color32, Key, Modifiers, RichText, ScrollArea, Sense, TextEdit};
use serde::{Deserialize, Serialize};

use crate::annotations::{AnnotationHome, Glyph};
use crate::board::{self, BoardView, Overlay};
use crate::graph;
use crate::library::{GameLibrary, LibraryEntry};
use crate::loaded::{GameSource, LoadedGame};
use crate::model::{Command, ViewModel, SPEEDS};
use crate::quality::QualityPanel;
use crate::text;
use carc_replay::describe::{describe_event_as, describe_gifts, describe_hands, View};

/// Red for problems, readable on both themes.
const ERROR: Color32 = Color32::from_rgb(230, 70, 60);
const WARN: Color32 = Color32::from_rgb(220, 150, 40);

/// Labels of the transport buttons (plain text: the default fonts lack media glyphs).
pub const BUTTONS: [&str; 10] = [
    "|<",
    "<<",
    "<",
    "Play",
    "Pause",
    ">",
    ">>",
    ">|",
    "Prev score",
    "Next score",
];

/// Every fixed text the UI shows (checked against the fonts by a test).
pub const UI_TEXT: &[&str] = &[
    "Log file:",
    "Open",
    "Games",
    "Games in the store",
    "Refresh",
    "game",
    "players",
    "events",
    "result",
    "Fit",
    "Events",
    "Scores",
    "player",
    "points",
    "meeples",
    "Scoring",
    "Meeples returned",
    "Ruling trace",
    "Annotation",
    "none",
    "Comment:",
    "Save annotation",
    "Delete annotation",
    "speed",
    "event",
    "before the first event",
    "to play",
    "This game cannot be set up: see the message at the top.",
    "Tiles",
    "Tile set",
    "No tile yet: step forward with Right or >.",
    "Drop the log file to open it",
    "Open a game log (.jsonl) or a JCloisterZone game (.jcz): type its path above and press Open, or drop the file here.",
    "drag to pan, scroll to zoom; hover a square for its features",
    "!! ! !? ?! ? ??",
    "°×–…",
];

/// What eframe keeps between runs (with the window geometry and panel sizes it keeps itself).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Persisted {
    pub last_file: Option<PathBuf>,
    /// The id of the last game opened from the store (when that was last, not a file).
    pub last_stored_game: Option<String>,
    pub speed: Option<f32>,
}

/// The annotation being edited.
#[derive(Clone, Debug, Default)]
struct Draft {
    seq: Option<u64>,
    glyph: Option<Glyph>,
    text: String,
}

/// The viewer.
pub struct ViewerApp {
    game: Option<LoadedGame>,
    vm: ViewModel,
    /// The game after `vm.cursor` events.
    state: Option<Game>,
    series: Vec<Vec<[f64; 2]>>,
    path_input: String,
    open_error: Option<String>,
    status: Option<String>,
    view: BoardView,
    pending: Vec<Command>,
    scroll_to_current: bool,
    /// Squares of the feature whose score line is hovered (this frame).
    highlight: Vec<Pos>,
    draft: Draft,
    last_file: Option<PathBuf>,
    last_stored_game: Option<String>,
    /// The store's games, when the shell provides a store.
    library: Option<Box<dyn GameLibrary>>,
    /// The game list as last read (`None`: not read yet).
    games: Option<Result<Vec<LibraryEntry>, String>>,
    /// The game-list window is open.
    pub show_games: bool,
    graph_rect: Option<egui::Rect>,
    board_rect: Option<egui::Rect>,
    /// The tile-set window is open.
    pub show_tiles: bool,
    /// The Gifts: whose point of view the event list and the hands take (other players'
    /// cards face down), or the full view.
    pub pov: View,
    /// The what-if variation shown in place of the game, if any.
    variation: Option<variations_panel::InVariation>,
    /// Move quality (run on demand, on a background thread).
    quality: QualityPanel,
}

impl Default for ViewerApp {
    fn default() -> Self {
        ViewerApp::new()
    }
}

/// Maps a key press to a command (`None` for keys the viewer does not use).
pub fn key_command(key: Key, m: Modifiers) -> Option<Command> {
    let ctrl = m.ctrl || m.command || m.mac_cmd;
    Some(match key {
        Key::ArrowRight if ctrl => Command::NextScoring,
        Key::ArrowLeft if ctrl => Command::PrevScoring,
        Key::ArrowRight if m.shift => Command::NextTurn,
        Key::ArrowLeft if m.shift => Command::PrevTurn,
        Key::ArrowRight => Command::Next,
        Key::ArrowLeft => Command::Prev,
        Key::Home => Command::First,
        Key::End => Command::Last,
        Key::Space => Command::TogglePlay,
        _ => return None,
    })
}

impl ViewerApp {
    pub fn new() -> ViewerApp {
        ViewerApp {
            game: None,
            vm: ViewModel::default(),
            state: None,
            series: Vec::new(),
            path_input: String::new(),
            open_error: None,
            status: None,
            view: BoardView::default(),
            pending: Vec::new(),
            scroll_to_current: false,
            highlight: Vec::new(),
            draft: Draft::default(),
            last_file: None,
            last_stored_game: None,
            library: None,
            games: None,
            show_games: false,
            graph_rect: None,
            board_rect: None,
            show_tiles: false,
            pov: View::Full,
            variation: None,
            quality: QualityPanel::new(),
        }
    }

    /// Gives the viewer a game library (the store): the "Games" window lists its games.
    pub fn set_library(&mut self, library: Box<dyn GameLibrary>) {
        self.library = Some(library);
        self.games = None;
    }

    /// The game list as last read, if it was.
    pub fn games(&self) -> Option<&Result<Vec<LibraryEntry>, String>> {
        self.games.as_ref()
    }

    /// Reads the game list again from the library.
    pub fn refresh_games(&mut self) {
        self.games = self.library.as_ref().map(|l| l.list());
    }

    /// Restores what a previous run kept: the speed, and the last game (file or stored game)
    /// when `reopen`. Set the library first for a stored game to reopen.
    pub fn restore(&mut self, p: &Persisted, reopen: bool) {
        if let Some(speed) = p.speed.filter(|s| SPEEDS.contains(s)) {
            self.vm.playback.speed = speed;
        }
        if reopen {
            if let (Some(game), Some(_)) = (&p.last_stored_game, &self.library) {
                self.open_stored(game);
            } else if let Some(path) = &p.last_file {
                if path.exists() {
                    self.open(path);
                } else {
                    self.path_input = path.display().to_string();
                }
            }
        }
    }

    pub fn persisted(&self) -> Persisted {
        Persisted {
            last_file: self.last_file.clone(),
            last_stored_game: self.last_stored_game.clone(),
            speed: Some(self.vm.playback.speed),
        }
    }

    /// Opens a log. On failure the message is shown and the game open before (if any) stays.
    pub fn open(&mut self, path: &Path) {
        self.path_input = path.display().to_string();
        match LoadedGame::open(path) {
            Ok(game) => {
                self.last_file = Some(path.to_path_buf());
                self.last_stored_game = None;
                self.install(game);
            }
            Err(e) => self.open_error = Some(e),
        }
    }

    /// Opens a game of the library by id. On failure the message is shown and the game open
    /// before (if any) stays.
    pub fn open_stored(&mut self, id: &str) {
        let Some(library) = &self.library else {
            self.open_error = Some(format!("cannot open game {id}: no store is open"));
            return;
        };
        let location = library.location();
        match library
            .load(id)
            .and_then(|stored| LoadedGame::from_library(&location, id, &stored))
        {
            Ok(game) => {
                self.last_stored_game = Some(id.to_string());
                self.install(game);
            }
            Err(e) => self.open_error = Some(e),
        }
    }

    fn install(&mut self, game: LoadedGame) {
        // A variation belongs to the game it was entered from.
        self.variation = None;
        let speed = self.vm.playback.speed;
        self.vm = ViewModel::new(game.nav.clone());
        self.vm.playback.speed = speed;
        self.series = graph::series(&game.timeline.steps, game.players());
        self.quality.reset();
        self.open_error = None;
        self.status = if game.annotations.is_empty() {
            None
        } else {
            Some(format!(
                "{} annotation(s) from {}",
                game.annotations.len(),
                game.annotations.location()
            ))
        };
        self.game = Some(game);
        self.view.auto_fit = true;
        self.draft = Draft::default();
        self.refresh_state();
        self.scroll_to_current = true;
    }

    /// Queues a command for the end of the frame.
    pub fn command(&mut self, command: Command) {
        self.pending.push(command);
    }

    /// Applies queued commands now (used at start-up, e.g. for `CARC_VIEWER_AT`).
    pub fn apply_now(&mut self) -> bool {
        let mut moved = false;
        for cmd in std::mem::take(&mut self.pending) {
            moved |= self.vm.apply(cmd);
        }
        if moved {
            self.refresh_state();
            self.scroll_to_current = true;
        }
        moved
    }

    pub fn cursor(&self) -> usize {
        self.vm.cursor.index()
    }

    pub fn is_playing(&self) -> bool {
        self.vm.playback.playing
    }

    pub fn game(&self) -> Option<&LoadedGame> {
        self.game.as_ref()
    }

    /// The game at the cursor.
    pub fn state(&self) -> Option<&Game> {
        self.state.as_ref()
    }

    pub fn open_error(&self) -> Option<&str> {
        self.open_error.as_deref()
    }

    /// Where the score graph was drawn last frame.
    pub fn graph_rect(&self) -> Option<egui::Rect> {
        self.graph_rect
    }

    /// Where the board was drawn last frame.
    pub fn board_rect(&self) -> Option<egui::Rect> {
        self.board_rect
    }

    /// Squares highlighted because a score line is hovered (last frame).
    pub fn highlighted(&self) -> &[Pos] {
        &self.highlight
    }

    pub fn view(&self) -> &BoardView {
        &self.view
    }

    /// The move-quality analysis of the open game.
    pub fn quality(&self) -> &QualityPanel {
        &self.quality
    }

    pub fn quality_mut(&mut self) -> &mut QualityPanel {
        &mut self.quality
    }

    /// The tile whose arrow the current event activated (20th Anniversary), if any.
    fn activated_arrow(&self) -> Option<Pos> {
        let g = self.game.as_ref()?;
        let step = &g.timeline.steps[self.vm.cursor.step()?];
        step.effects.notes.iter().find_map(|n| match n {
            carc_rules::Note::ArrowActivated { at, .. } => Some(*at),
            _ => None,
        })
    }

    fn refresh_state(&mut self) {
        self.state = self
            .game
            .as_ref()
            .and_then(|g| g.timeline.state_at(self.vm.cursor.index()).ok());
    }

    /// Draws one frame.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.take_dropped_file(&ctx);
        self.take_keys(&ctx);
        self.quality.poll(&ctx);
        if self.vm.playback.playing {
            let dt = ctx.input(|i| i.stable_dt).min(0.25);
            if self.vm.tick(dt) {
                self.refresh_state();
                self.scroll_to_current = true;
            }
            ctx.request_repaint();
        }
        self.highlight.clear();

        egui::Panel::top("top").show(ui, |ui| self.top_bar(ui));
        egui::Panel::bottom("timeline").show(ui, |ui| self.timeline(ui));
        egui::Panel::left("events")
            .default_size(340.0)
            .show(ui, |ui| self.event_list(ui));
        egui::Panel::right("details")
            .default_size(400.0)
            .show(ui, |ui| self.details(ui));
        egui::CentralPanel::default().show(ui, |ui| self.board(ui));
        if self.show_tiles {
            self.tile_window(&ctx);
        }
        if self.show_games {
            self.games_window(&ctx);
        }

        self.scroll_to_current = false;
        if !self.pending.is_empty() {
            self.apply_now();
            ctx.request_repaint();
        }
    }

    fn take_dropped_file(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.first().map(|f| f.path().to_path_buf()));
        if let Some(path) = dropped {
            self.open(&path);
        }
    }

    /// Turns the viewer's keys into commands and removes them from the input, so that a
    /// focused button or slider does not act on them too. Nothing while a text field has
    /// focus.
    fn take_keys(&mut self, ctx: &egui::Context) {
        if ctx.text_edit_focused() {
            return;
        }
        let mut commands = Vec::new();
        ctx.input_mut(|i| {
            i.events.retain(|e| match e {
                egui::Event::Key {
                    key,
                    pressed,
                    modifiers,
                    ..
                } => match key_command(*key, *modifiers) {
                    Some(cmd) => {
                        if *pressed {
                            commands.push(cmd);
                        }
                        false
                    }
                    None => true,
                },
                _ => true,
            });
        });
        self.pending.extend(commands);
    }

    fn header(&self) -> Option<&Header> {
        self.game.as_ref().map(|g| &g.timeline.log.header)
    }

    fn player_colors(&self, dark: bool) -> (Vec<Color32>, Vec<Color32>) {
        let Some(h) = self.header() else {
            return (Vec::new(), Vec::new());
        };
        (
            h.players
                .iter()
                .map(|p| text::meeple_color(p.color))
                .collect(),
            h.players
                .iter()
                .map(|p| text::text_color(p.color, dark))
                .collect(),
        )
    }

    // ---- top bar ---------------------------------------------------------------------------

    fn top_bar(&mut self, ui: &mut egui::Ui) {
        ui.add_space(2.0);
        ui.horizontal(|ui| {
            let label = ui.label("Log file:");
            let edit = ui
                .add(
                    TextEdit::singleline(&mut self.path_input)
                        .hint_text("path to a .jsonl log or a .jcz game")
                        .desired_width(420.0),
                )
                .labelled_by(label.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if ui.button("Open").clicked() || enter {
                let path = PathBuf::from(self.path_input.trim());
                self.open(&path);
            }
            if let Some(library) = &self.library {
                let games = ui
                    .selectable_label(self.show_games, "Games")
                    .on_hover_text(format!("the games in {}", library.location()));
                if games.clicked() {
                    self.show_games = !self.show_games;
                }
            }
            if ui
                .selectable_label(self.show_tiles, "Tiles")
                .on_hover_text("the tile set, as the board draws it")
                .clicked()
            {
                self.show_tiles = !self.show_tiles;
            }
            self.quality
                .toolbar(ui, self.game.as_ref().map(|g| &g.timeline));
            if let Some(g) = &self.game {
                let h = &g.timeline.log.header;
                let state = if g.timeline.finished {
                    "finished"
                } else {
                    "not finished"
                };
                ui.label(format!(
                    "game {}: {} players, {} events, {state}",
                    h.game,
                    h.players.len(),
                    g.timeline.steps.len()
                ));
            }
        });
        if ui.ctx().input(|i| !i.raw.hovered_files.is_empty()) {
            ui.label(RichText::new("Drop the log file to open it").strong());
        }
        if let Some(e) = &self.open_error {
            ui.colored_label(ERROR, e);
        }
        if let Some(g) = &self.game {
            if let Some(p) = g.problem() {
                ui.colored_label(ERROR, p);
            }
            for w in &g.annotations.warnings {
                ui.colored_label(WARN, w);
            }
        }
        if let Some(s) = &self.status {
            ui.weak(s);
        }
        ui.add_space(2.0);
    }

    // ---- timeline --------------------------------------------------------------------------

    fn timeline(&mut self, ui: &mut egui::Ui) {
        let len = self.vm.nav.len();
        let cursor = self.vm.cursor.index();
        ui.add_space(4.0);
        if let Some(h) = self.header() {
            let names: Vec<String> = h.players.iter().map(|p| p.name.clone()).collect();
            let (_, colors) = self.player_colors(ui.visuals().dark_mode);
            let marks = (self.game.as_ref())
                .map_or_else(Vec::new, |g| self.quality.graph_marks(&g.timeline.steps));
            let data = graph::GraphData {
                series: &self.series,
                marks: &marks,
            };
            let g = graph::show(ui, data, &names, &colors, len, cursor, 150.0);
            self.graph_rect = Some(g.rect);
            if let Some(n) = g.jump {
                if n != cursor {
                    self.command(Command::JumpTo(n));
                }
            }
        }
        ui.horizontal(|ui| {
            let mut button = |ui: &mut egui::Ui, label: &str, tip: &str, cmd: Command| {
                if ui.button(label).on_hover_text(tip).clicked() {
                    self.pending.push(cmd);
                }
            };
            button(ui, "|<", "first (Home)", Command::First);
            button(ui, "<<", "previous turn (Shift+Left)", Command::PrevTurn);
            button(ui, "<", "previous event (Left)", Command::Prev);
            let play = if self.vm.playback.playing {
                "Pause"
            } else {
                "Play"
            };
            button(ui, play, "play or pause (Space)", Command::TogglePlay);
            button(ui, ">", "next event (Right)", Command::Next);
            button(ui, ">>", "next turn (Shift+Right)", Command::NextTurn);
            button(ui, ">|", "last (End)", Command::Last);
            ui.separator();
            button(
                ui,
                "Prev score",
                "previous event that scored (Ctrl+Left)",
                Command::PrevScoring,
            );
            button(
                ui,
                "Next score",
                "next event that scored (Ctrl+Right)",
                Command::NextScoring,
            );
            ui.separator();
            let speed = &mut self.vm.playback.speed;
            egui::ComboBox::from_label("speed")
                .selected_text(format!("{speed} events/s"))
                .show_ui(ui, |ui| {
                    for s in SPEEDS {
                        ui.selectable_value(speed, s, format!("{s} events/s"));
                    }
                });
            ui.separator();
            ui.label(format!("{cursor} / {len}"));
        });
        ui.horizontal(|ui| {
            ui.spacing_mut().slider_width = (ui.available_width() - 110.0).max(100.0);
            let mut n = cursor;
            let r = ui.add(egui::Slider::new(&mut n, 0..=len).text("event"));
            if r.changed() && n != cursor {
                self.pending.push(Command::JumpTo(n));
            }
        });
        ui.add_space(2.0);
    }

    // ---- event list ------------------------------------------------------------------------

    fn event_list(&mut self, ui: &mut egui::Ui) {
        ui.heading("Events");
        let Some(g) = &self.game else {
            ui.weak("no game open");
            return;
        };
        let header = &g.timeline.log.header;
        let steps = &g.timeline.steps;
        let cursor = self.vm.cursor.index();
        let mut jump = None;
        ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                let r = ui.selectable_label(
                    cursor == 0,
                    RichText::new(format!("{:>3}  before the first event", 0)).monospace(),
                );
                if r.clicked() {
                    jump = Some(0);
                }
                for i in 0..steps.len() {
                    let glyph = g
                        .annotations
                        .get(steps[i].seq)
                        .map(|a| a.glyph.map_or("*", |gl| gl.as_str()));
                    let mut row = text::event_row_as(header, steps, i, glyph, self.pov);
                    let mark = self.quality.row_suffix(steps[i].seq);
                    row.push_str(mark.as_deref().unwrap_or_default());
                    let mut rich = RichText::new(row).monospace();
                    if !steps[i].effects.scores.is_empty() {
                        rich = rich.strong();
                    }
                    if let Some(m) = self.quality.turn(steps[i].seq).and_then(|t| t.mark) {
                        rich = rich.color(crate::quality::mark_color(m));
                    }
                    let r = ui.selectable_label(cursor == i + 1, rich);
                    if r.clicked() {
                        jump = Some(i + 1);
                    }
                    if cursor == i + 1 && self.scroll_to_current {
                        r.scroll_to_me_animation(
                            Some(Align::Center),
                            egui::style::ScrollAnimation::none(),
                        );
                    }
                }
                if let Some(e) = &g.timeline.error {
                    if let Some(seq) = e.seq() {
                        ui.colored_label(
                            ERROR,
                            RichText::new(format!("{seq:>3}  ILLEGAL [{}]", e.rule())).monospace(),
                        )
                        .on_hover_text(e.to_string());
                    }
                } else if let Some(e) = &g.decode_error {
                    ui.colored_label(
                        ERROR,
                        RichText::new(format!("line {}: unreadable", e.line)).monospace(),
                    )
                    .on_hover_text(e.to_string());
                }
            });
        if let Some(n) = jump {
            if n != cursor {
                self.command(Command::JumpTo(n));
            }
        }
    }

    // ---- details ---------------------------------------------------------------------------

    fn details(&mut self, ui: &mut egui::Ui) {
        ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                self.score_table(ui);
                ui.separator();
                self.current_event(ui);
                ui.separator();
                self.annotation_editor(ui);
                ui.separator();
                self.variations_panel(ui);
            });
    }

    fn score_table(&mut self, ui: &mut egui::Ui) {
        ui.heading("Scores");
        let (Some(g), Some(state)) = (&self.game, &self.state) else {
            ui.weak("no game open");
            return;
        };
        let header = &g.timeline.log.header;
        let (meeple_colors, text_colors) = self.player_colors(ui.visuals().dark_mode);
        egui::Grid::new("scores")
            .striped(true)
            .num_columns(3)
            .spacing([16.0, 4.0])
            .show(ui, |ui| {
                ui.weak("player");
                ui.weak("points");
                ui.weak("meeples");
                ui.end_row();
                for (seat, p) in header.players.iter().enumerate() {
                    ui.horizontal(|ui| {
                        let (r, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), Sense::hover());
                        ui.painter().circle(
                            r.center(),
                            5.5,
                            meeple_colors[seat],
                            egui::Stroke::new(1.0, Color32::from_gray(200)),
                        );
                        ui.label(RichText::new(&p.name).color(text_colors[seat]).strong());
                        let acting = matches!(
                            state.phase(),
                            Phase::Draw | Phase::Place { .. } | Phase::Meeple { .. }
                        );
                        if acting && state.current_player() as usize == seat {
                            ui.weak("to play");
                        }
                    });
                    ui.label(state.scores()[seat].to_string());
                    ui.label(state.supply()[seat].to_string());
                    ui.end_row();
                }
            });
        if state.options().gifts {
            ui.horizontal(|ui| {
                let name = |v: View| match v {
                    View::Full => "everyone (full view)".to_string(),
                    View::Seat(s) => text::seat_name(header, s),
                };
                egui::ComboBox::from_label("Gifts, as seen by")
                    .selected_text(name(self.pov))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut self.pov, View::Full, name(View::Full));
                        for seat in 0..state.players() {
                            ui.selectable_value(
                                &mut self.pov,
                                View::Seat(seat),
                                name(View::Seat(seat)),
                            );
                        }
                    });
            });
            for line in describe_hands(header, state, self.pov) {
                ui.label(line);
            }
        }
        ui.label(describe_phase(header, state));
    }

    fn current_event(&mut self, ui: &mut egui::Ui) {
        let Some(g) = &self.game else { return };
        let header = &g.timeline.log.header;
        let Some(i) = self.vm.cursor.step() else {
            ui.label("Before the first event.");
            return;
        };
        let Some(step) = g.timeline.steps.get(i) else {
            return;
        };
        ui.heading(format!("Event {}", step.seq));
        ui.label(describe_event_as(header, &step.event, self.pov));
        let gifts = describe_gifts(header, step.seat, &step.effects);
        if !gifts.is_empty() {
            ui.add_space(4.0);
            ui.strong("Gifts");
            let r = ui
                .group(|ui| {
                    ui.set_width(ui.available_width());
                    for l in &gifts {
                        ui.label(l);
                    }
                })
                .response;
            // The opened card's target square, lit on the board while hovered.
            if let carc_events::Event::GiftOpened { at: Some(at), .. } = &step.event {
                if r.contains_pointer() {
                    self.highlight = vec![Pos::new(at.x, at.y)];
                }
            }
        }
        ui.weak(format!("line {}, turn {}", step.line, step.turn));
        self.quality.details(ui, step.seq);
        if !step.effects.scores.is_empty() {
            ui.add_space(4.0);
            ui.strong("Scoring");
            for s in &step.effects.scores {
                let lines = text::score_lines(header, s);
                let r = ui
                    .group(|ui| {
                        ui.set_width(ui.available_width());
                        ui.label(RichText::new(&lines.title).strong());
                        for l in &lines.lines {
                            ui.label(l);
                        }
                    })
                    .response;
                if r.contains_pointer() {
                    self.highlight = s.tiles.clone();
                }
            }
            ui.weak("hover a score to see its tiles on the board");
        }
        if !step.effects.returned.is_empty() {
            ui.add_space(4.0);
            ui.strong("Meeples returned");
            for r in &step.effects.returned {
                ui.label(format!(
                    "{} from {} at {}",
                    text::seat_name(header, r.player),
                    r.label,
                    r.at
                ));
            }
        }
        if !step.effects.notes.is_empty() {
            ui.add_space(4.0);
            egui::CollapsingHeader::new("Ruling trace")
                .default_open(true)
                .show(ui, |ui| {
                    for n in &step.effects.notes {
                        ui.label(text::note_line(n));
                    }
                });
        }
        if i + 1 == g.timeline.steps.len() {
            if let Some(p) = g.problem() {
                ui.colored_label(ERROR, p);
            }
        }
    }

    fn annotation_editor(&mut self, ui: &mut egui::Ui) {
        ui.heading("Annotation");
        if let Some(v) = &self.variation {
            ui.weak(format!(
                "Annotations are on the game's own events; go back to the game to annotate (variation {:?} is shown).",
                v.name
            ));
            return;
        }
        let Some(g) = &mut self.game else { return };
        let Some(i) = self.vm.cursor.step() else {
            ui.weak("step to an event to annotate it");
            return;
        };
        let seq = g.timeline.steps[i].seq;
        if self.draft.seq != Some(seq) {
            let a = g.annotations.get(seq);
            self.draft = Draft {
                seq: Some(seq),
                glyph: a.and_then(|a| a.glyph),
                text: a.map(|a| a.text.clone()).unwrap_or_default(),
            };
        }
        ui.horizontal_wrapped(|ui| {
            if ui
                .selectable_label(self.draft.glyph.is_none(), "none")
                .clicked()
            {
                self.draft.glyph = None;
            }
            for glyph in Glyph::ALL {
                let on = self.draft.glyph == Some(glyph);
                if ui
                    .selectable_label(on, glyph.as_str())
                    .on_hover_text(glyph.meaning())
                    .clicked()
                {
                    self.draft.glyph = if on { None } else { Some(glyph) };
                }
            }
        });
        let label = ui.label("Comment:");
        ui.add(
            TextEdit::multiline(&mut self.draft.text)
                .desired_rows(3)
                .desired_width(f32::INFINITY)
                .hint_text("a comment on this event"),
        )
        .labelled_by(label.id);
        ui.horizontal(|ui| {
            let save = ui.button("Save annotation").clicked();
            let delete = ui.button("Delete annotation").clicked();
            if save || delete {
                if delete {
                    self.draft.glyph = None;
                    self.draft.text.clear();
                }
                let record = g.annotations.set(seq, self.draft.glyph, &self.draft.text);
                let saved = match (g.annotations.home(), &g.source, &self.library) {
                    (AnnotationHome::File(_), _, _) => {
                        g.annotations.save().map_err(|e| e.to_string())
                    }
                    (AnnotationHome::Library { .. }, GameSource::Library { game, .. }, Some(l)) => {
                        l.append_annotation(game, record.to_json().as_bytes())
                    }
                    (AnnotationHome::Library { .. }, _, _) => {
                        Err("the store this game came from is no longer open".to_string())
                    }
                };
                let location = g.annotations.location();
                self.status = Some(match saved {
                    Ok(()) => format!("annotation of event {seq} saved to {location}"),
                    Err(e) => format!("cannot save the annotation to {location}: {e}"),
                });
            }
        });
        let home = match g.annotations.path() {
            Some(path) => path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            None => g.annotations.location(),
        };
        ui.weak(format!(
            "kept in {home} (the game's events are never changed)"
        ));
    }

    // ---- board -----------------------------------------------------------------------------

    fn board(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if ui
                .button("Fit")
                .on_hover_text("fit the board to the window")
                .clicked()
            {
                self.view.auto_fit = true;
            }
            ui.weak("drag to pan, scroll to zoom; hover a square for its features");
        });
        let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "board"));
        self.board_rect = Some(rect);
        let Some(state) = &self.state else {
            let hint = if self.game.is_some() {
                "This game cannot be set up: see the message at the top."
            } else {
                "Open a game log (.jsonl) or a JCloisterZone game (.jcz): type its path above and press Open, or drop the file here."
            };
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                hint,
                egui::FontId::proportional(15.0),
                ui.visuals().weak_text_color(),
            );
            return;
        };

        if resp.dragged() {
            self.view.pan(resp.drag_delta());
            self.view.auto_fit = false;
        }
        if resp.hovered() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta().y, i.zoom_delta()));
            let factor = zoom * (scroll * 0.002).exp();
            if (factor - 1.0).abs() > 1e-4 {
                if let Some(p) = resp.hover_pos() {
                    self.view.zoom_at(rect, p, factor);
                    self.view.auto_fit = false;
                }
            }
        }
        if self.view.auto_fit {
            let mut squares: Vec<Pos> = state.placed().iter().map(|p| p.at).collect();
            squares.extend(state.open_squares().iter().copied());
            // On a map board the view starts fitted to the whole map, not just its tiles.
            if let Some(map) = state.map() {
                squares.extend(
                    map.grid()
                        .filter(|(_, sq)| !matches!(sq, carc_rules::Square::Outside(_)))
                        .map(|(at, _)| at),
                );
            }
            self.view.fit(rect, squares);
        }

        let legal: Vec<Pos> = match state.phase() {
            Phase::Place { tile } => {
                let mut out: Vec<Placement> = Vec::new();
                state.legal_placements(tile, &mut out);
                let mut squares: Vec<Pos> = out.iter().map(|p| p.at).collect();
                squares.sort_unstable();
                squares.dedup();
                squares
            }
            _ => Vec::new(),
        };
        let hovered = resp.hover_pos().map(|p| self.view.square_at(rect, p));
        let (meeple_colors, _) = self.player_colors(ui.visuals().dark_mode);
        let overlay = Overlay {
            colors: &meeple_colors,
            last_placed: state.placed().last().map(|p| p.at),
            activated_arrow: self.activated_arrow(),
            highlight: &self.highlight,
            legal: &legal,
            hovered,
        };
        board::paint(ui.painter(), rect, &self.view, state, &overlay);
        if state.placed().is_empty() {
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "No tile yet: step forward with Right or >.",
                egui::FontId::proportional(15.0),
                ui.visuals().weak_text_color(),
            );
        }

        if let (Some(at), Some(h)) = (hovered, self.header()) {
            if let Some(lines) = text::square_info(h, state, at) {
                resp.on_hover_ui_at_pointer(|ui| {
                    for (k, l) in lines.iter().enumerate() {
                        if k == 0 {
                            ui.strong(l);
                        } else {
                            ui.label(l);
                        }
                    }
                });
            }
        }
    }
}

impl ViewerApp {
    /// A window with every tile type of the game (or of the base set) at rotation 0.
    fn tile_window(&mut self, ctx: &egui::Context) {
        let base;
        let tiles = match &self.state {
            Some(g) => g.tiles(),
            None => {
                base = carc_rules::TileSet::base();
                &base
            }
        };
        let mut open = self.show_tiles;
        egui::Window::new("Tile set")
            .open(&mut open)
            .default_pos([360.0, 80.0])
            .resizable(false)
            .show(ctx, |ui| {
                ui.weak(format!("{}: {} tile types", tiles.name, tiles.len()));
                egui::Grid::new("tiles").spacing([8.0, 8.0]).show(ui, |ui| {
                    for (i, t) in tiles.tiles().iter().enumerate() {
                        ui.vertical(|ui| {
                            let (r, _) =
                                ui.allocate_exact_size(egui::vec2(56.0, 56.0), Sense::hover());
                            board::paint_tile_type(
                                ui.painter(),
                                r,
                                t,
                                carc_rules::Rotation::default(),
                            );
                            ui.label(format!("{} ×{}", t.id, t.count));
                        });
                        if i % 8 == 7 {
                            ui.end_row();
                        }
                    }
                });
            });
        self.show_tiles = open;
    }
}

/// What the game waits for, in words (as `carc replay` says it).
pub use carc_replay::describe::describe_phase;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_commands() {
        let none = Modifiers::NONE;
        assert_eq!(key_command(Key::ArrowRight, none), Some(Command::Next));
        assert_eq!(key_command(Key::ArrowLeft, none), Some(Command::Prev));
        assert_eq!(
            key_command(Key::ArrowRight, Modifiers::SHIFT),
            Some(Command::NextTurn)
        );
        assert_eq!(
            key_command(Key::ArrowLeft, Modifiers::SHIFT),
            Some(Command::PrevTurn)
        );
        assert_eq!(
            key_command(Key::ArrowRight, Modifiers::CTRL),
            Some(Command::NextScoring)
        );
        assert_eq!(
            key_command(Key::ArrowLeft, Modifiers::COMMAND),
            Some(Command::PrevScoring)
        );
        assert_eq!(key_command(Key::Home, none), Some(Command::First));
        assert_eq!(key_command(Key::End, none), Some(Command::Last));
        assert_eq!(key_command(Key::Space, none), Some(Command::TogglePlay));
        assert_eq!(key_command(Key::A, none), None);
    }

    #[test]
    fn persisted_state_round_trips_and_tolerates_missing_fields() {
        let p = Persisted {
            last_file: Some(PathBuf::from("/x/y.jsonl")),
            last_stored_game: None,
            speed: Some(10.0),
        };
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<Persisted>(&json).unwrap(), p);
        assert_eq!(
            serde_json::from_str::<Persisted>("{}").unwrap(),
            Persisted::default()
        );
        let mut app = ViewerApp::new();
        app.restore(&p, true);
        assert_eq!(app.vm.playback.speed, 10.0);
        assert!(app.game().is_none(), "a missing file is not opened");
        assert_eq!(app.path_input, "/x/y.jsonl");
    }
}
