//! The top bar: the log file field and Open, the Games, Tiles and move-quality buttons, the
//! open game in one line; below, a drop hint, the errors (opening, an illegal event, bad
//! annotation lines) and the last status message.

use std::path::PathBuf;

use egui::{Key, RichText, TextEdit};

use super::{ViewerApp, ERROR, WARN};

impl ViewerApp {
    pub(super) fn top_bar(&mut self, ui: &mut egui::Ui) {
        ui.add_space(2.0);
        ui.horizontal(|ui| {
            let label = ui.label("Log file:");
            let edit = ui
                .add(
                    TextEdit::singleline(&mut self.path_input)
                        .hint_text("path to a .jsonl log, a .jcz game or a BGA replay")
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
            if self.rec.recorder.is_some()
                && ui
                    .selectable_label(self.rec.form.is_some(), "Record")
                    .on_hover_text("record a game played at the table, move by move")
                    .clicked()
            {
                self.open_record_form();
            }
            if ui
                .selectable_label(self.show_tiles, "Tiles")
                .on_hover_text("the tile set, as the board draws it")
                .clicked()
            {
                self.show_tiles = !self.show_tiles;
            }
            self.puzzles_button(ui);
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
                    carc_replay::describe::visible(&h.game),
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
}
