//! The board in the centre: the Fit button, pan and zoom, fitting the view to the tiles (or the
//! whole map), the legal squares of the drawn tile, painting through `crate::board`, and what
//! the square under the pointer holds.

use carc_rules::{Phase, Placement, Pos};
use egui::Sense;

use crate::board::{self, Overlay};
use crate::text;

use super::ViewerApp;

impl ViewerApp {
    pub(super) fn board(&mut self, ui: &mut egui::Ui) {
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
                "Open a game log (.jsonl), a JCloisterZone game (.jcz) or a Board Game Arena replay (.json): type its path above and press Open, or drop the file here."
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
        board::paint_coordinates(ui.painter(), rect, &self.view);
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
