//! The "Games in the store" window: the library's game list, one row per game; clicking a
//! game's id opens it. Read when the window is first shown and on Refresh (not every frame: a list
//! of thousands of games is folded once).

use egui::{RichText, ScrollArea};

use super::{ViewerApp, ERROR};

impl ViewerApp {
    pub(super) fn games_window(&mut self, ctx: &egui::Context) {
        let Some(location) = self.library.as_ref().map(|l| l.location()) else {
            self.show_games = false;
            return;
        };
        if self.games.is_none() {
            self.refresh_games();
        }
        let mut open = self.show_games;
        let mut to_open: Option<String> = None;
        let mut to_record: Option<String> = None;
        let can_record = self.rec.recorder.is_some();
        let mut refresh = false;
        egui::Window::new("Games in the store")
            .open(&mut open)
            .default_pos([360.0, 80.0])
            .default_size([620.0, 360.0])
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    ui.weak(&location);
                    refresh = ui.button("Refresh").clicked();
                });
                match &self.games {
                    None => {}
                    Some(Err(e)) => {
                        ui.colored_label(ERROR, e);
                    }
                    Some(Ok(list)) if list.is_empty() => {
                        ui.weak("no games yet: import logs with `carc import FILE...`");
                    }
                    Some(Ok(list)) => {
                        let row_height = ui.spacing().interact_size.y + 4.0;
                        ScrollArea::vertical().auto_shrink([false, true]).show_rows(
                            ui,
                            row_height,
                            list.len(),
                            |ui, rows| {
                                egui::Grid::new("games")
                                    .striped(true)
                                    .num_columns(6)
                                    .min_row_height(row_height - 4.0)
                                    .show(ui, |ui| {
                                        for entry in &list[rows] {
                                            let current = self.last_stored_game.as_deref()
                                                == Some(entry.game.as_str())
                                                && self.game.is_some();
                                            let name = RichText::new(&entry.game);
                                            let name = if current { name.strong() } else { name };
                                            if ui
                                                .button(name)
                                                .on_hover_text("open this game")
                                                .clicked()
                                            {
                                                to_open = Some(entry.game.clone());
                                            }
                                            // A game that takes moves can be continued in
                                            // record mode.
                                            let open = !entry.sealed
                                                && !entry.finished
                                                && entry.problem.is_none();
                                            if can_record
                                                && open
                                                && ui.small_button("Continue recording").clicked()
                                            {
                                                to_record = Some(entry.game.clone());
                                            } else if !(can_record && open) {
                                                ui.label("");
                                            }
                                            ui.label(entry.players.join(", "));
                                            ui.label(format!("{} events", entry.events));
                                            match &entry.problem {
                                                Some(p) => ui.colored_label(ERROR, p),
                                                None => ui.label(entry.outcome()),
                                            };
                                            ui.end_row();
                                        }
                                    });
                            },
                        );
                    }
                }
            });
        if refresh {
            self.refresh_games();
        }
        if let Some(id) = to_open {
            self.open_stored(&id);
        }
        if let Some(id) = to_record {
            if let Err(e) = self.continue_recording(&id) {
                self.open_error = Some(format!("cannot continue recording {id}: {e}"));
            }
        }
        self.show_games = open;
    }
}
