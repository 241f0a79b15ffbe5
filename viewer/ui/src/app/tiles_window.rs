//! The "Tile set" window: every tile type of the game (or of the base set) at rotation 0, as
//! the board draws it.

use egui::Sense;

use crate::board;

use super::ViewerApp;

impl ViewerApp {
    /// A window with every tile type of the game (or of the base set) at rotation 0.
    pub(super) fn tile_window(&mut self, ctx: &egui::Context) {
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
