//! The timeline at the bottom: the score graph (with move-quality marks; a click jumps there),
//! the win-probability graph once the engine has judged the game, the transport buttons, the
//! playback speed, the position, and the scrubber.

use crate::graph;
use crate::model::{Command, SPEEDS};

use super::ViewerApp;

impl ViewerApp {
    pub(super) fn timeline(&mut self, ui: &mut egui::Ui) {
        let len = self.vm.nav.len();
        let cursor = self.vm.cursor.index();
        ui.add_space(4.0);
        if let Some(h) = self.header() {
            let names: Vec<String> = (0..h.players.len())
                .map(|seat| crate::text::seat_name(h, seat as u8))
                .collect();
            let (_, colors) = self.player_colors(ui.visuals().dark_mode);
            let marks = (self.game.as_ref())
                .map_or_else(Vec::new, |g| self.quality.graph_marks(&g.timeline.steps));
            let data = graph::GraphData {
                measure: graph::Measure::Score,
                series: &self.series,
                marks: &marks,
            };
            let g = graph::show(ui, data, &names, &colors, len, cursor, 150.0);
            self.graph_rect = Some(g.rect);
            let mut jump = g.jump;
            // The judged game's chances; not over a what-if variation, which was not judged.
            let win = (self.game.as_ref())
                .filter(|_| self.variation.is_none())
                .and_then(|_| self.quality.win_graph());
            self.win_graph_rect = None;
            if let Some((series, marks)) = win {
                ui.label(egui::RichText::new("chance to win (engine)").small().weak())
                    .on_hover_text(
                        "each player's chance to win after every judged move, as the engine \
                     judge measured it; with three or more players the engine measures only \
                     the mover's chance, so each line has points at that player's moves",
                    );
                let data = graph::GraphData {
                    measure: graph::Measure::WinChance,
                    series,
                    marks,
                };
                let w = graph::show(ui, data, &names, &colors, len, cursor, 90.0);
                self.win_graph_rect = Some(w.rect);
                jump = jump.or(w.jump);
            }
            if let Some(n) = jump {
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
}
