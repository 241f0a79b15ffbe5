//! The move list on the left, a game record: one row per turn (see [`crate::move_list`]), its
//! events one click away (the `+` before the row; the turn being shown is always open), the
//! row of an illegal or unreadable line last. A click on a turn jumps to its end, a click on
//! an event to that event. The list only scrolls up and down: rows too long for the panel
//! are elided at their end, never at the turn number and the player.

use std::ops::Range;

use carc_replay::Step;
use egui::{Align, RichText, ScrollArea};

use crate::annotations::AnnotationStore;
use crate::model::Command;
use crate::move_list::{group_of, turn_groups, turn_numbers, turn_row};
use crate::quality::QualityPanel;
use crate::text;

use super::{ViewerApp, ERROR};

/// What a click in the list asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ListClick {
    /// Position `n` of the line shown.
    Jump(usize),
    /// Open or close the events of a turn (line key, first step of the turn).
    Toggle(String, usize),
}

/// What the rows of one line of play need.
pub(super) struct LineRows<'a> {
    pub header: &'a carc_events::Header,
    pub steps: &'a [Step],
    /// Which steps to list (a variation lists its own moves only).
    pub from: usize,
    /// The cursor when this line is the one shown, else `None`.
    pub cursor: Option<usize>,
    /// Distinguishes the lines' open turns and widget ids.
    pub key: &'a str,
    pub annotations: Option<&'a AnnotationStore>,
    pub quality: Option<&'a QualityPanel>,
    pub pov: carc_replay::describe::View,
    pub scroll_to_current: bool,
}

impl LineRows<'_> {
    /// The groups of the listed steps.
    pub fn groups(&self) -> Vec<Range<usize>> {
        turn_groups(self.steps)
            .into_iter()
            .filter(|g| g.end > self.from)
            .map(|g| g.start.max(self.from)..g.end)
            .collect()
    }

    fn marks(&self, group: &Range<usize>) -> (String, Option<egui::Color32>) {
        let mut marks = Vec::new();
        let mut color = None;
        for step in &self.steps[group.clone()] {
            if let Some(a) = self.annotations.and_then(|a| a.get(step.seq)) {
                marks.push(a.glyph.map_or("*", |g| g.as_str()).to_string());
            }
            if let Some(q) = self.quality {
                if let Some(s) = q.row_suffix(step.seq) {
                    marks.push(s.trim().to_string());
                }
                if let Some(m) = q.turn(step.seq).and_then(|t| t.mark) {
                    color = Some(crate::quality::mark_color(m));
                }
            }
        }
        (marks.join(" "), color)
    }

    /// Draws the row of one turn (`k`-th group, record number `number`) and, when open, its
    /// events.
    pub fn show_turn(
        &self,
        ui: &mut egui::Ui,
        group: Range<usize>,
        number: usize,
        open_turns: &std::collections::BTreeSet<(String, usize)>,
        click: &mut Option<ListClick>,
    ) {
        let here = self
            .cursor
            .and_then(|c| c.checked_sub(1))
            .is_some_and(|i| group.contains(&i));
        let toggled = open_turns.contains(&(self.key.to_string(), group.start));
        let open = toggled || here;
        let (marks, color) = self.marks(&group);
        let row = turn_row(self.header, self.steps, group.clone(), number, &marks);
        let scored = self.steps[group.clone()]
            .iter()
            .any(|s| !s.effects.scores.is_empty());
        ui.horizontal(|ui| {
            let sign = if open { "-" } else { "+" };
            let toggle = ui
                .add_enabled(!here, egui::Button::new(sign).small())
                .on_hover_text("this turn's events");
            if toggle.clicked() {
                *click = Some(ListClick::Toggle(self.key.to_string(), group.start));
            }
            let mut rich = RichText::new(row).monospace();
            if scored {
                rich = rich.strong();
            }
            if let Some(c) = color {
                rich = rich.color(c);
            }
            let r = ui.add(egui::Button::selectable(here, rich).truncate());
            if r.clicked() {
                *click = Some(ListClick::Jump(group.end));
            }
            if here && self.scroll_to_current {
                r.scroll_to_me_animation(Some(Align::Center), egui::style::ScrollAnimation::none());
            }
        });
        if !open {
            return;
        }
        ui.indent((self.key, group.start), |ui| {
            for i in group {
                let glyph = self
                    .annotations
                    .and_then(|a| a.get(self.steps[i].seq))
                    .map(|a| a.glyph.map_or("*", |gl| gl.as_str()));
                let mut row = text::event_row_as(self.header, self.steps, i, glyph, self.pov);
                if let Some(q) = self.quality {
                    row.push_str(
                        q.row_suffix(self.steps[i].seq)
                            .as_deref()
                            .unwrap_or_default(),
                    );
                }
                let mut rich = RichText::new(row).monospace();
                if !self.steps[i].effects.scores.is_empty() {
                    rich = rich.strong();
                }
                let selected = self.cursor == Some(i + 1);
                let r = ui.add(egui::Button::selectable(selected, rich).truncate());
                if r.clicked() {
                    *click = Some(ListClick::Jump(i + 1));
                }
            }
        });
    }

    /// Every turn of the line, in order.
    pub fn show_all(
        &self,
        ui: &mut egui::Ui,
        open_turns: &std::collections::BTreeSet<(String, usize)>,
        click: &mut Option<ListClick>,
    ) {
        let all = turn_groups(self.steps);
        let numbers = turn_numbers(self.steps, &all);
        for group in self.groups() {
            let number = group_of(&all, group.start).map_or(0, |k| numbers[k]);
            self.show_turn(ui, group, number, open_turns, click);
        }
    }
}

impl ViewerApp {
    pub(super) fn event_list(&mut self, ui: &mut egui::Ui) {
        ui.heading("Moves");
        let Some(g) = &self.game else {
            ui.weak("no game open");
            return;
        };
        let cursor = self.vm.cursor.index();
        let mut click = None;
        ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                let r = ui.add(egui::Button::selectable(
                    cursor == 0,
                    RichText::new(format!("{:>3}  before the first event", 0)).monospace(),
                ));
                if r.clicked() {
                    click = Some(ListClick::Jump(0));
                }
                let rows = LineRows {
                    header: &g.timeline.log.header,
                    steps: &g.timeline.steps,
                    from: 0,
                    cursor: Some(cursor),
                    key: "",
                    annotations: Some(&g.annotations),
                    quality: Some(&self.quality),
                    pov: self.pov,
                    scroll_to_current: self.scroll_to_current,
                };
                rows.show_all(ui, &self.open_turns, &mut click);
                if let Some(e) = &g.timeline.error {
                    if let Some(seq) = e.seq() {
                        ui.add(
                            egui::Label::new(
                                RichText::new(format!("{seq:>3}  ILLEGAL [{}]", e.rule()))
                                    .monospace()
                                    .color(ERROR),
                            )
                            .truncate(),
                        )
                        .on_hover_text(e.to_string());
                    }
                } else if let Some(e) = &g.decode_error {
                    ui.add(
                        egui::Label::new(
                            RichText::new(format!("line {}: unreadable", e.line))
                                .monospace()
                                .color(ERROR),
                        )
                        .truncate(),
                    )
                    .on_hover_text(e.to_string());
                }
            });
        match click {
            Some(ListClick::Jump(n)) if n != cursor => self.command(Command::JumpTo(n)),
            Some(ListClick::Toggle(key, first))
                if !self.open_turns.remove(&(key.clone(), first)) =>
            {
                self.open_turns.insert((key, first));
            }
            _ => {}
        }
    }
}
