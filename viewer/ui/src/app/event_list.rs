//! The event list on the left: one row per event (annotation glyph, move-quality mark, scoring
//! events in bold), the row of an illegal or unreadable line last; a click jumps there.

use egui::{Align, RichText, ScrollArea};

use crate::model::Command;
use crate::text;

use super::{ViewerApp, ERROR};

impl ViewerApp {
    pub(super) fn event_list(&mut self, ui: &mut egui::Ui) {
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
}
