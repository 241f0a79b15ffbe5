//! Record mode on screen: the new-game window, the bar above the board (the palette of tiles
//! left in the bag, Undo turn, End game, Stop) and the record keys. The board's clicks, R and
//! the wheel, and the offers bar are try-a-move's (`try_move`); in record mode its moves go
//! here ([`ViewerApp::record_action`]) instead of into a variation.

use carc_events::{Color, TownVariant};
use carc_rules::{Action, Game, Phase, Placement, TileTypeId};
use egui::{Key, Sense};

use crate::board;
use crate::record::{self, NewGame, Recorder, Session};

use super::{ViewerApp, ERROR};

/// Record mode's part of the viewer.
#[derive(Default)]
pub(super) struct RecordUi {
    /// Where games are recorded (the shell's store), if anywhere.
    pub recorder: Option<Box<dyn Recorder>>,
    /// The new-game form, while its window is open.
    pub form: Option<NewGame>,
    /// Why the form could not start a game.
    pub form_error: Option<String>,
    /// The game being recorded.
    pub session: Option<Session>,
    /// On a map waiting for its start tiles: the tile picked (palette or letter) for the next
    /// start square; none picked, the set's start tile goes first.
    pub start_tile: Option<TileTypeId>,
}

/// Side of a tile picture in the palette.
const PALETTE_TILE: f32 = 44.0;

impl ViewerApp {
    /// Lets the viewer record games (the "Record" button), into `recorder`.
    pub fn set_recorder(&mut self, recorder: Box<dyn Recorder>) {
        self.rec.recorder = Some(recorder);
    }

    /// The id of the game being recorded, if one is.
    pub fn recording(&self) -> Option<&str> {
        self.rec.session.as_ref().map(|s| s.game.as_str())
    }

    /// Opens the new-game window.
    pub fn open_record_form(&mut self) {
        self.rec.form.get_or_insert_with(NewGame::default);
        self.rec.form_error = None;
    }

    /// Starts recording a new game from `form`.
    pub fn start_recording(&mut self, form: &NewGame) -> Result<(), String> {
        let recorder = self
            .rec
            .recorder
            .as_deref_mut()
            .ok_or("this viewer has no store to record into")?;
        let (session, timeline) = Session::start(recorder, form)?;
        self.begin(session, timeline, "started");
        Ok(())
    }

    /// Continues recording the stored game `game`.
    pub fn continue_recording(&mut self, game: &str) -> Result<(), String> {
        let recorder = self
            .rec
            .recorder
            .as_deref_mut()
            .ok_or("this viewer has no store to record into")?;
        let (session, timeline) = Session::resume(recorder, game)?;
        self.begin(session, timeline, "continuing");
        Ok(())
    }

    fn begin(&mut self, session: Session, timeline: carc_replay::Timeline, verb: &str) {
        let location = session.location();
        let game = session.game.clone();
        self.rec.session = Some(session);
        self.rec.form = None;
        self.show_recorded(&location, timeline);
        self.status = Some(format!("recording: {verb} game {game} in {location}"));
    }

    fn show_recorded(&mut self, location: &str, timeline: carc_replay::Timeline) {
        self.last_stored_game = Some(timeline.log.header.game.clone());
        self.install(crate::loaded::LoadedGame::recorded(location, timeline));
        self.games = None;
    }

    /// Ends record mode (the game stays stored as it is).
    pub fn stop_recording(&mut self) {
        if let Some(s) = self.rec.session.take() {
            self.status = Some(format!("stopped recording game {}", s.game));
        }
    }

    /// The tile the board places and its legal placements: the drawn tile, or in record mode
    /// on a map waiting for its start tiles, the start tile picked (at first the set's start
    /// tile) on the free start squares.
    pub(super) fn placing(&self, state: &Game) -> (Option<TileTypeId>, Vec<Placement>) {
        if let Phase::Place { tile } = state.phase() {
            return (Some(tile), crate::trial::placements(state));
        }
        let Some(tile) = self.start_tile(state) else {
            return (None, Vec::new());
        };
        (Some(tile), crate::trial::start_placements(state, tile))
    }

    /// The start tile the board offers while a recorded map game waits for its start tiles.
    fn start_tile(&self, state: &Game) -> Option<TileTypeId> {
        if self.rec.session.is_none() || state.phase() != Phase::Start || state.map().is_none() {
            return None;
        }
        self.rec
            .start_tile
            .filter(|&t| state.bag_count(t) > 0)
            .or_else(|| {
                (state.starts_placed() == 0)
                    .then(|| state.start_tile())
                    .flatten()
            })
    }

    /// The move a click on the lit square `at` makes, with the tile turned `rotation`.
    pub(super) fn place_action(
        &self,
        state: &Game,
        at: carc_rules::Pos,
        rotation: carc_rules::Rotation,
    ) -> Option<Action> {
        match state.phase() {
            Phase::Place { .. } => Some(Action::Place { at, rotation }),
            _ => self
                .start_tile(state)
                .map(|tile| Action::PlaceStart { tile, at, rotation }),
        }
    }

    /// Records `action` as the next move of the game being recorded: checked, appended at
    /// once, shown. A move the rules refuse, or one made away from the game's last event,
    /// changes nothing and says why.
    pub fn record_action(&mut self, action: Action) {
        let (Some(session), Some(g), Some(state)) =
            (&mut self.rec.session, &self.game, &self.state)
        else {
            return;
        };
        if self.vm.cursor.index() != g.timeline.steps.len() {
            self.status =
                Some("recording goes on from the last event: press End to go there".to_string());
            return;
        }
        match session.play(&g.timeline, state, &action) {
            Ok(timeline) => {
                self.rec.start_tile = None;
                let location = session.location();
                let finished = timeline.finished;
                let game = session.game.clone();
                let event = timeline.steps.last().map(|s| {
                    format!(
                        "event {}: {}",
                        s.seq,
                        carc_replay::describe::describe_step(&timeline.log.header, s)
                    )
                });
                self.show_recorded(&location, timeline);
                self.status = if finished {
                    self.rec.session = None;
                    Some(format!(
                        "game {game} is over: final scores stored, the game sealed in {location}"
                    ))
                } else {
                    event.map(|e| format!("recorded {e}"))
                };
            }
            Err(e) => self.status = Some(format!("not recorded: {e}")),
        }
    }

    /// Takes back the whole last turn of the game being recorded.
    pub fn record_undo(&mut self) {
        let (Some(session), Some(g)) = (&mut self.rec.session, &self.game) else {
            return;
        };
        match session.undo_turn(&g.timeline) {
            Ok((timeline, n)) => {
                let location = session.location();
                self.show_recorded(&location, timeline);
                self.status = Some(format!("took back the last turn: {n} event(s)"));
            }
            Err(e) => self.status = Some(format!("cannot undo: {e}")),
        }
    }

    /// The record keys, taken out of the input before the viewer's own: a letter draws that
    /// tile, N or Enter is "no meeple", A the abbot, a digit the gift card received (The
    /// Gifts, [`record::gift_key`]), Ctrl+Z takes back the last turn.
    pub(super) fn record_keys(&mut self, ctx: &egui::Context) {
        if self.rec.session.is_none() || ctx.text_edit_focused() {
            return;
        }
        let Some(state) = &self.state else { return };
        let phase = state.phase();
        let drawing = crate::trial::wants_tile(state);
        // A map's start tiles: a letter picks the tile for the next start square.
        let starting = phase == Phase::Start && state.map().is_some();
        let mut start_pick = None;
        let mut actions = Vec::new();
        let mut undo = false;
        ctx.input_mut(|i| {
            i.events.retain(|e| {
                let egui::Event::Key {
                    key,
                    pressed,
                    modifiers,
                    ..
                } = e
                else {
                    return true;
                };
                let ctrl = modifiers.ctrl || modifiers.command || modifiers.mac_cmd;
                let action = if *key == Key::Z && ctrl {
                    undo |= *pressed;
                    return false;
                } else if starting && !ctrl && *key != Key::R {
                    // R still turns the tile over a start square; tile R is picked from the
                    // palette.
                    let tile = key_letter(*key).and_then(|c| record::tile_for_letter(state, c));
                    if tile.is_some() && *pressed {
                        start_pick = tile;
                    }
                    return tile.is_none();
                } else if drawing && !ctrl {
                    key_letter(*key)
                        .and_then(|c| record::tile_for_letter(state, c))
                        .map(|tile| Action::Draw { tile })
                } else if matches!(phase, Phase::Meeple { .. }) && !ctrl {
                    match key {
                        Key::N | Key::Enter => Some(Action::SkipMeeple),
                        Key::A => record::abbot_action(state),
                        _ => None,
                    }
                } else if matches!(phase, Phase::ReceiveGift { .. }) && !ctrl {
                    // The Gifts: a digit picks the card received.
                    key_digit(*key).and_then(|c| record::gift_for_key(state, c))
                } else {
                    None
                };
                match action {
                    Some(a) => {
                        if *pressed {
                            actions.push(a);
                        }
                        false
                    }
                    None => true,
                }
            });
        });
        if start_pick.is_some() {
            self.rec.start_tile = start_pick;
        }
        if undo {
            self.record_undo();
        }
        // One move per frame: a second key acts on the position after the first.
        if let Some(a) = actions.into_iter().next() {
            self.record_action(a);
        }
    }

    /// The bar above the board in record mode: the game and its buttons, and the palette of
    /// the tiles left in the bag while a tile is to be drawn.
    pub(super) fn record_bar(&mut self, ui: &mut egui::Ui) {
        let Some(session) = &self.rec.session else {
            return;
        };
        let mut chosen = None;
        let mut start_pick = None;
        let (mut undo, mut stop) = (false, false);
        ui.horizontal_wrapped(|ui| {
            ui.strong(format!("Recording {}", session.game));
            undo = ui
                .button("Undo turn")
                .on_hover_text("take back the whole last turn (Ctrl+Z)")
                .clicked();
            if ui
                .button("End game")
                .on_hover_text("the players stop here: final scoring now")
                .clicked()
            {
                chosen = Some(Action::EndGame);
            }
            stop = ui
                .button("Stop recording")
                .on_hover_text("the game stays stored as it is; continue it from Games")
                .clicked();
        });
        let start_tile = self.state.as_ref().and_then(|s| self.start_tile(s));
        if let Some(state) = &self.state {
            if state.phase() == Phase::Start && state.map().is_some() {
                let n = state.options().map.start_squares;
                let k = state.starts_placed() + 1;
                let picked =
                    start_tile.map_or("none".to_string(), |t| state.tiles().get(t).id.clone());
                ui.label(format!(
                    "Start tile {k} of {n} (the start tile first, then the tile drawn for each other start square): pick the tile here or type its letter (R: the palette), then click a lit start square (R turns it). Picked: {picked}"
                ));
                start_pick = palette(ui, state, start_tile, "start");
            } else if crate::trial::wants_tile(state) {
                ui.label("Draw: click the tile drawn, or type its letter");
                chosen = palette(ui, state, None, "draw").map(|tile| Action::Draw { tile });
            } else if matches!(state.phase(), Phase::Meeple { .. }) {
                ui.weak("N or Enter: no meeple; A: the abbot; or a button below");
            } else if matches!(state.phase(), Phase::ReceiveGift { .. }) {
                // The Gifts: the card is chance, entered like a tile drawn.
                let keys: Vec<String> = carc_replay::gifts::receivable_cards(state)
                    .into_iter()
                    .map(|c| format!("{} {}", record::gift_key(c), c.word()))
                    .collect();
                ui.label(format!(
                    "The placement earns a gift card: click the card received below (\"gift: …\"), \
                     or press its key: {}",
                    keys.join(", ")
                ));
            } else if !carc_replay::gifts::openings(state).is_empty() {
                ui.weak(
                    "Before placing, a gift may be opened: the \"opened …\" buttons below \
                     (one per card and target)",
                );
            } else if matches!(state.phase(), Phase::ReturnTile { .. }) {
                ui.label("Take 2: click the tile put back into the bag (\"returned …\") below");
            }
        }
        if start_pick.is_some() {
            self.rec.start_tile = start_pick;
        }
        if undo {
            self.record_undo();
        }
        if stop {
            self.stop_recording();
        }
        if let Some(a) = chosen {
            self.record_action(a);
        }
    }

    /// The new-game window, while open.
    pub(super) fn record_window(&mut self, ctx: &egui::Context) {
        let Some(form) = &mut self.rec.form else {
            return;
        };
        let mut open = true;
        let mut start = false;
        egui::Window::new("Record a new game")
            .open(&mut open)
            .default_pos([360.0, 80.0])
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    let l = ui.label("Game id:");
                    ui.text_edit_singleline(&mut form.game).labelled_by(l.id);
                });
                let mut remove = None;
                for (seat, (name, color)) in form.players.iter_mut().enumerate() {
                    ui.horizontal(|ui| {
                        let l = ui.label(format!("Player {}:", seat + 1));
                        ui.text_edit_singleline(name).labelled_by(l.id);
                        egui::ComboBox::new(("colour", seat), "colour")
                            .selected_text(color.to_string())
                            .show_ui(ui, |ui| {
                                for c in Color::ALL {
                                    ui.selectable_value(color, c, c.to_string());
                                }
                            });
                        if ui.small_button("remove").clicked() {
                            remove = Some(seat);
                        }
                    });
                }
                if let Some(seat) = remove.filter(|_| form.players.len() > 2) {
                    form.players.remove(seat);
                }
                if form.players.len() < Color::ALL.len() && ui.button("Add player").clicked() {
                    let free = Color::ALL
                        .into_iter()
                        .find(|c| form.players.iter().all(|(_, p)| p != c))
                        .unwrap_or(Color::ALL[0]);
                    form.players.push((String::new(), free));
                }
                ui.checkbox(&mut form.farmers, "Farmers (fields score)");
                ui.checkbox(&mut form.abbot, "The Abbot");
                ui.checkbox(&mut form.anniversary, "20th Anniversary (arrows)");
                ui.checkbox(&mut form.river, "The River (the spring starts)");
                ui.checkbox(&mut form.gifts, "The Gifts (gift cards)");
                ui.checkbox(
                    &mut form.inns_cathedrals,
                    "Inns & Cathedrals (the large meeple)",
                );
                ui.checkbox(
                    &mut form.traders_builders,
                    "Traders & Builders (goods, the builder, the pig)",
                );
                ui.checkbox(&mut form.germany, "Map: Germany (Carcassonne Maps)");
                if form.germany {
                    ui.horizontal(|ui| {
                        ui.label("Start squares:");
                        for n in [2, 3] {
                            ui.radio_value(&mut form.start_squares, n, n.to_string());
                        }
                    });
                    for (v, label) in [
                        (TownVariant::ExtraTurn, "Towns: an extra turn"),
                        (TownVariant::Cost, "Towns: cost 2 points"),
                        (TownVariant::RoadBonus, "Towns: +2 per town by a road"),
                    ] {
                        let mut on = form.town_variants.contains(&v);
                        if ui.checkbox(&mut on, label).changed() {
                            form.town_variants.retain(|&t| t != v);
                            if on {
                                form.town_variants.push(v);
                                // In wire order, as `carc record new --town-variants` keeps them.
                                form.town_variants.sort();
                            }
                        }
                    }
                }
                if let Some(e) = &self.rec.form_error {
                    ui.colored_label(ERROR, e);
                }
                start = ui.button("Start recording").clicked();
            });
        if start {
            let form = form.clone();
            if let Err(e) = self.start_recording(&form) {
                self.rec.form_error = Some(e);
            }
        }
        if !open {
            self.rec.form = None;
        }
    }
}

/// The digit a key types, if it is a digit key (1 to 9).
fn key_digit(key: Key) -> Option<char> {
    let name = key.name();
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_digit() => Some(c),
        _ => None,
    }
}

/// The palette of the tiles left in the bag, each a button `VERB X` (`draw V`): the tile
/// clicked, if one was; `picked` is outlined.
fn palette(
    ui: &mut egui::Ui,
    state: &Game,
    picked: Option<TileTypeId>,
    verb: &str,
) -> Option<TileTypeId> {
    let mut clicked = None;
    ui.horizontal_wrapped(|ui| {
        for (t, n) in crate::trial::tiles_in_bag(state) {
            let tile = state.tiles().get(t);
            let (r, resp) = ui.allocate_exact_size(
                egui::vec2(PALETTE_TILE, PALETTE_TILE + 14.0),
                Sense::click(),
            );
            let label = format!("{verb} {}", tile.id);
            resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
            let pic = egui::Rect::from_min_size(r.min, egui::vec2(PALETTE_TILE, PALETTE_TILE));
            board::paint_tile_type(ui.painter(), pic, tile, carc_rules::Rotation::default());
            if resp.hovered() || picked == Some(t) {
                ui.painter().rect_stroke(
                    pic,
                    2.0,
                    ui.visuals().selection.stroke,
                    egui::StrokeKind::Outside,
                );
            }
            ui.painter().text(
                egui::pos2(r.center().x, r.max.y),
                egui::Align2::CENTER_BOTTOM,
                format!("{} ×{n}", tile.id),
                egui::FontId::proportional(11.0),
                ui.visuals().text_color(),
            );
            if resp.clicked() {
                clicked = Some(t);
            }
        }
    });
    clicked
}

/// The letter a key types, if it is a letter key.
fn key_letter(key: Key) -> Option<char> {
    let name = key.name();
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c),
        _ => None,
    }
}
