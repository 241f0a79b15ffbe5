//! The window: panels around the board. Every input becomes a [`Command`]; the commands of a
//! frame are applied once, at its end.
//!
//! Layout: top bar (file, status), bottom timeline (score graph, transport buttons, scrubber),
//! left event list, right details (scores, the current event's scoring and ruling trace,
//! annotation, variations), the board in the centre.
//!
//! This module holds the viewer's state, opening games, the frame (which lays the panels out),
//! keys and what eframe keeps between runs; each panel and window is a child module that draws
//! itself from (and into) the [`ViewerApp`]:
//! - `top_bar`: the file field, the buttons, the game line, errors and status;
//! - `timeline_panel`: the score graph, the transport buttons, the speed and the scrubber;
//! - `event_list`: the move list, one row per turn (its events one click away), with
//!   annotation glyphs and move-quality marks;
//! - `score_table`, `current_event`, `annotation_editor`, `variations_panel`: the sections of
//!   the details panel, top to bottom;
//! - `board_panel`: the board, pan and zoom, legal squares and the square under the pointer;
//! - `try_move`: moves tried on the board, saved as variations;
//! - `best_move`: the best move a move-quality run found, drawn on the board and playable;
//! - `tiles_window`, `games_window`: the tile set, and the games in the store;
//! - `record_panel`: record mode (the new-game window, the palette, the record keys).
//! - `puzzles_window`: the puzzles of a `carc puzzles` file, a try judged.

mod annotation_editor;
mod best_move;
mod board_panel;
mod current_event;
mod event_list;
mod games_window;
mod puzzles_window;
mod record_panel;
mod score_table;
mod tiles_window;
mod timeline_panel;
mod top_bar;
mod try_move;
mod variations_panel;

use std::path::{Path, PathBuf};

use carc_events::Header;
use carc_replay::describe::View;
use carc_rules::{Game, Pos};
use egui::{Color32, Key, Modifiers, ScrollArea};
use serde::{Deserialize, Serialize};

use crate::board::BoardView;
use crate::graph;
use crate::library::{GameLibrary, LibraryEntry};
use crate::loaded::LoadedGame;
use crate::model::{Command, ViewModel, SPEEDS};
use crate::quality::QualityPanel;
use crate::text;

use annotation_editor::Draft;

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
    "Moves",
    "Try a move: click a lit square to place (R or the wheel turns it)",
    "next tile from the bag",
    "choose",
    "left",
    "Try:",
    "Play the best move found",
    "Best move found:",
    "plays it out as a variation, drawn as the ghost on the board",
    "this turn's events",
    "+ -",
    "Scores",
    "player",
    "points",
    "meeples",
    "Scoring",
    "Figures returned",
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
    "Record",
    "Record a new game",
    "Game id:",
    "Player 1:",
    "colour",
    "remove",
    "Add player",
    "Farmers (fields score)",
    "The Abbot",
    "20th Anniversary (arrows)",
    "The Gifts (gift cards)",
    "Inns & Cathedrals (the large meeple)",
    "Traders & Builders (goods, the builder, the pig)",
    "The placement earns a gift card: click the card received below (\"gift: …\"), or press its key: 1 Synod, 2 Road Sweeper, 3 Change Position, 4 Cash Out, 5 Take 2",
    "Before placing, a gift may be opened: the \"opened …\" buttons below (one per card and target)",
    "Take 2: click the tile put back into the bag (\"returned …\") below",
    "Map: Germany (Carcassonne Maps)",
    "Start squares:",
    "Towns: an extra turn",
    "Towns: cost 2 points",
    "Towns: +2 per town by a road",
    "Start tile 1 of 2 (the start tile first, then the tile drawn for each other start square): pick the tile here or type its letter (R: the palette), then click a lit start square (R turns it). Picked: D",
    "Start recording",
    "Recording",
    "Undo turn",
    "End game",
    "Stop recording",
    "Continue recording",
    "Draw: click the tile drawn, or type its letter",
    "N or Enter: no meeple; A: the abbot; or a button below",
    "Open a game log (.jsonl), a JCloisterZone game (.jcz) or a Board Game Arena replay (.json): type its path above and press Open, or drop the file here.",
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
    /// Where the win-probability graph was drawn last frame (`None`: not shown).
    win_graph_rect: Option<egui::Rect>,
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
    /// Turns of the move list whose events are shown (line key, first step of the turn).
    open_turns: std::collections::BTreeSet<(String, usize)>,
    /// The variations replayed for the move list's tree.
    tree: event_list::TreeLines,
    /// The drawn tile under the pointer while trying a move.
    aim: try_move::Aim,
    /// Wheel scrolling not yet turned into a quarter turn.
    wheel: f32,
    /// The name the next variation made by a move takes (else `try N`).
    name_next: Option<String>,
    /// Record mode: where games are recorded, the new-game form, the game being recorded.
    rec: record_panel::RecordUi,
    /// The puzzles file open (`carc puzzles`), if any.
    puzzles: Option<puzzles_window::PuzzleSet>,
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
            win_graph_rect: None,
            board_rect: None,
            show_tiles: false,
            pov: View::Full,
            variation: None,
            quality: QualityPanel::new(),
            open_turns: Default::default(),
            tree: Default::default(),
            aim: Default::default(),
            wheel: 0.0,
            name_next: None,
            rec: Default::default(),
            puzzles: None,
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
        if self.open_if_puzzles(path) {
            return;
        }
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
        self.open_turns.clear();
        self.tree.clear();
        let speed = self.vm.playback.speed;
        self.vm = ViewModel::new(game.nav.clone());
        self.vm.playback.speed = speed;
        // A game opens where it stands: a finished game on its final board and scores (as a
        // chess site opens a finished game on its last move), a game in progress where it
        // was left; Home goes to the empty table.
        self.vm.apply(Command::Last);
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

    /// The status line (what the last action did), if any.
    pub fn status_text(&self) -> Option<&str> {
        self.status.as_deref()
    }

    pub fn open_error(&self) -> Option<&str> {
        self.open_error.as_deref()
    }

    /// Where the score graph was drawn last frame.
    pub fn graph_rect(&self) -> Option<egui::Rect> {
        self.graph_rect
    }

    /// Where the win-probability graph was drawn last frame, if it was.
    pub fn win_graph_rect(&self) -> Option<egui::Rect> {
        self.win_graph_rect
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

    /// Starts the move-quality analysis of the open game, as the top bar's button does.
    pub fn analyse_quality(&mut self, ctx: &egui::Context) {
        if let Some(g) = &self.game {
            self.quality.start(&g.timeline, ctx);
        }
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

    /// The figures the final scoring sent home, when the cursor is on the event that ended
    /// the game: the board shows them where they stood (who farmed what).
    pub fn final_figures(&self) -> &[carc_rules::ReturnedMeeple] {
        let Some(g) = self.game.as_ref() else {
            return &[];
        };
        self.vm
            .cursor
            .step()
            .and_then(|i| g.timeline.steps.get(i))
            .map_or(&[], |step| step.effects.returned_at_final_scoring())
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
        self.record_keys(&ctx);
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
        self.record_window(&ctx);
        self.puzzles_window(&ctx);

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
        let mut turns = 0;
        ctx.input_mut(|i| {
            i.events.retain(|e| match e {
                // R turns the tile being tried (see `try_move`).
                egui::Event::Key {
                    key: Key::R,
                    pressed,
                    ..
                } => {
                    turns += usize::from(*pressed);
                    false
                }
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
        self.aim.turn += turns;
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

    /// The details panel on the right: its sections, top to bottom.
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
