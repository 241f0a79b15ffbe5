//! The score table, first in the details panel: each player's colour, name, points and meeples
//! in supply at the cursor, who is to play; with The Gifts, the hands from the chosen point of
//! view; then what the game waits for.

use carc_replay::describe::{describe_hands, View};
use carc_rules::Phase;
use egui::{Color32, RichText, Sense};

use crate::text;

use super::{describe_phase, ViewerApp};

impl ViewerApp {
    pub(super) fn score_table(&mut self, ui: &mut egui::Ui) {
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
                for seat in 0..header.players.len() {
                    ui.horizontal(|ui| {
                        let (r, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), Sense::hover());
                        ui.painter().circle(
                            r.center(),
                            5.5,
                            meeple_colors[seat],
                            egui::Stroke::new(1.0, Color32::from_gray(200)),
                        );
                        ui.label(
                            RichText::new(text::seat_name(header, seat as u8))
                                .color(text_colors[seat])
                                .strong(),
                        );
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
}
