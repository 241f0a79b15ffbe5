//! The current event, in the details panel: the event in words, its gifts, its move-quality
//! verdict, its scores (hovering one lights its tiles on the board), the meeples and abbots it
//! returned
//! and its ruling trace.

use carc_replay::describe::{describe_gifts, describe_step_as};
use carc_rules::Pos;
use egui::RichText;

use crate::text;

use super::{ViewerApp, ERROR};

impl ViewerApp {
    pub(super) fn current_event(&mut self, ui: &mut egui::Ui) {
        let Some(g) = &self.game else { return };
        let header = &g.timeline.log.header;
        let Some(i) = self.vm.cursor.step() else {
            ui.label("Before the first event.");
            return;
        };
        let Some(step) = g.timeline.steps.get(i) else {
            return;
        };
        ui.heading(format!("Event {}", step.seq));
        ui.label(describe_step_as(header, step, self.pov));
        let gifts = describe_gifts(header, step.seat, &step.effects);
        if !gifts.is_empty() {
            ui.add_space(4.0);
            ui.strong("Gifts");
            let r = ui
                .group(|ui| {
                    ui.set_width(ui.available_width());
                    for l in &gifts {
                        ui.label(l);
                    }
                })
                .response;
            // The opened card's target square, lit on the board while hovered.
            if let carc_events::Event::GiftOpened { at: Some(at), .. } = &step.event {
                if r.contains_pointer() {
                    self.highlight = vec![Pos::new(at.x, at.y)];
                }
            }
        }
        ui.weak(format!("line {}, turn {}", step.line, step.turn));
        self.quality.details(ui, step.seq);
        if !step.effects.scores.is_empty() {
            ui.add_space(4.0);
            ui.strong("Scoring");
            for s in &step.effects.scores {
                let lines = text::score_lines(header, s);
                let r = ui
                    .group(|ui| {
                        ui.set_width(ui.available_width());
                        ui.label(RichText::new(&lines.title).strong());
                        for l in &lines.lines {
                            ui.label(l);
                        }
                    })
                    .response;
                if r.contains_pointer() {
                    self.highlight = s.tiles.clone();
                }
            }
            ui.weak("hover a score to see its tiles on the board");
        }
        if !step.effects.returned.is_empty() {
            ui.add_space(4.0);
            ui.strong("Figures returned");
            for r in &step.effects.returned {
                ui.label(text::returned_line(header, r));
            }
        }
        if !step.effects.notes.is_empty() {
            ui.add_space(4.0);
            egui::CollapsingHeader::new("Ruling trace")
                .default_open(true)
                .show(ui, |ui| {
                    for n in &step.effects.notes {
                        ui.label(text::note_line(header, n));
                    }
                });
        }
        if i + 1 == g.timeline.steps.len() {
            if let Some(p) = g.problem() {
                ui.colored_label(ERROR, p);
            }
        }
    }
}
