//! The board in the centre: the Fit button, pan and zoom, fitting the view to the tiles (or the
//! whole map), the legal squares of the drawn tile, painting through `crate::board`, and what
//! the square under the pointer holds.

use carc_rules::Pos;
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
        self.record_bar(ui);
        self.try_bar(ui);
        self.best_bar(ui);
        let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "board"));
        self.board_rect = Some(rect);
        // A copy: trying a move changes the viewer while the board is drawn.
        let Some(state) = self.state.clone() else {
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

        let state = &state;
        // The drawn tile, or in record mode a map's start tile.
        let (placing, placements) = self.placing(state);
        let hovered = resp.hover_pos().map(|p| self.view.square_at(rect, p));
        let aiming = hovered.filter(|at| placements.iter().any(|p| p.at == *at));
        if resp.dragged() {
            self.view.pan(resp.drag_delta());
            self.view.auto_fit = false;
        }
        // Over a lit square the wheel turns the tile being tried; elsewhere it zooms.
        if resp.hovered() && aiming.is_some() {
            self.wheel_turns(ui);
        } else if resp.hovered() {
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

        let mut legal: Vec<Pos> = placements.iter().map(|p| p.at).collect();
        legal.sort_unstable();
        legal.dedup();
        let (meeple_colors, _) = self.player_colors(ui.visuals().dark_mode);
        let overlay = Overlay {
            colors: &meeple_colors,
            last_placed: state.placed().last().map(|p| p.at),
            activated_arrow: self.activated_arrow(),
            highlight: &self.highlight,
            legal: &legal,
            hovered,
            final_figures: self.final_figures(),
        };
        board::paint(ui.painter(), rect, &self.view, state, &overlay);
        if let Some(ghost) = self.best_ghost() {
            board::paint_extra(ui.painter(), rect, &self.view, &ghost);
        }
        // The drawn tile under the pointer, as it would lie; a click places it.
        let mut place = None;
        if let (Some(at), Some(tile)) = (aiming, placing) {
            if let Some(rotation) = self.aimed_rotation(&placements, at) {
                let ghost = carc_draw::ghost::ghost_move(
                    state.tiles().get(tile),
                    rotation,
                    at,
                    carc_draw::color::HIGHLIGHT,
                    None,
                );
                board::paint_extra(ui.painter(), rect, &self.view, &ghost);
                if resp.clicked() {
                    place = self.place_action(state, at, rotation);
                }
            }
        }
        board::paint_coordinates(ui.painter(), rect, &self.view);
        if state.placed().is_empty() && self.rec.session.is_none() {
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
        if let Some(action) = place {
            self.try_action(action);
        }
    }
}
