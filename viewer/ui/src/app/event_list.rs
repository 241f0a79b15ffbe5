//! The move list on the left, a game record: one row per turn (see [`crate::move_list`]), its
//! events one click away (the `+` before the row; the turn being shown is always open), the
//! row of an illegal or unreadable line last. A click on a turn jumps to its end, a click on
//! an event to that event. The list only scrolls up and down: rows too long for the panel
//! are elided at their end, never at the turn number and the player.

use std::ops::Range;

use std::collections::BTreeMap;

use carc_events::variation::Variation;
use carc_replay::variation::{chain, fold_variation};
use carc_replay::{Step, Timeline};
use egui::{Align, RichText, ScrollArea};

use crate::annotations::AnnotationStore;
use crate::model::Command;
use crate::move_list::{final_rows, group_of, turn_groups, turn_numbers, turn_row_within};
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
    /// Position `n` of the variation's line (a row of its branch).
    Enter(String, usize),
    /// Position `n` of the game's own line (a row of the main line, seen from a variation).
    Main(usize),
}

/// Draws what hangs under a turn (its first and last seq): the variations leaving from it.
type AfterTurn<'a> = dyn FnMut(&mut egui::Ui, u64, u64, &mut Option<ListClick>) + 'a;

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
        // The characters the row has room for (the toggle before it takes about four), so a
        // long name shows whole once the list is wide enough.
        let glyph =
            ui.fonts_mut(|f| f.glyph_width(&egui::TextStyle::Monospace.resolve(ui.style()), '0'));
        let columns = (ui.available_width() / glyph.max(1.0)) as usize;
        let row = turn_row_within(
            self.header,
            self.steps,
            group.clone(),
            number,
            &marks,
            columns.saturating_sub(4),
        );
        // The hover text is worded only while the row is hovered (not every frame).
        let explanation = |q: &QualityPanel| {
            self.steps[group.clone()]
                .iter()
                .find_map(|s| q.row_explanation(s.seq))
        };
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
            let mut r = ui.add(egui::Button::selectable(here, rich).truncate());
            if let Some(q) = self.quality.filter(|_| r.hovered()) {
                if let Some(text) = explanation(q) {
                    r = r.on_hover_text(text);
                }
            }
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

    /// Every turn of the line, in order; after each, `after_turn(ui, first seq, last seq)`
    /// draws what hangs under it (the variations that leave from it).
    pub fn show_all(
        &self,
        ui: &mut egui::Ui,
        open_turns: &std::collections::BTreeSet<(String, usize)>,
        click: &mut Option<ListClick>,
        after_turn: &mut AfterTurn<'_>,
    ) {
        let all = turn_groups(self.steps);
        let numbers = turn_numbers(self.steps, &all);
        for group in self.groups() {
            let number = group_of(&all, group.start).map_or(0, |k| numbers[k]);
            let (first, last) = (self.steps[group.start].seq, self.steps[group.end - 1].seq);
            self.show_turn(ui, group, number, open_turns, click);
            after_turn(ui, first, last, click);
        }
        self.show_final_scoring(ui, click);
    }

    /// The final scoring's rows after the last turn, when the line ends with it: each one
    /// shows the end of the game, where the board still shows the figures that scored.
    fn show_final_scoring(&self, ui: &mut egui::Ui, click: &mut Option<ListClick>) {
        let rows = final_rows(self.header, self.steps);
        if rows.is_empty() || self.steps.len() <= self.from {
            return;
        }
        let end = self.steps.len();
        let here = self.cursor == Some(end);
        ui.label(RichText::new("     final scoring").monospace().weak());
        for row in rows {
            let rich = RichText::new(row).monospace().strong();
            let r = ui.add(egui::Button::selectable(here, rich).truncate());
            if r.clicked() {
                *click = Some(ListClick::Jump(end));
            }
        }
    }
}

/// The variations of the game, each replayed once (the tree's rows need their words).
#[derive(Default)]
pub(super) struct TreeLines {
    /// By name: the records of its chain (top level first) and its line of play.
    lines: BTreeMap<String, (Vec<Variation>, Timeline)>,
}

impl TreeLines {
    /// Replays the variations whose line changed since the last frame (the variation or one
    /// it branches from), forgets deleted ones.
    pub fn refresh(&mut self, main: &carc_events::Log, items: &BTreeMap<String, Variation>) {
        self.lines.retain(|name, _| items.contains_key(name));
        for name in items.keys() {
            let records: Vec<Variation> = chain(items, name)
                .unwrap_or_default()
                .iter()
                .filter_map(|n| items.get(n).cloned())
                .collect();
            if self.lines.get(name).is_some_and(|(old, _)| *old == records) {
                continue;
            }
            match fold_variation(main, items, name, &[]) {
                Ok(line) => {
                    self.lines.insert(name.clone(), (records, line.timeline));
                }
                Err(_) => {
                    self.lines.remove(name);
                }
            }
        }
    }

    pub fn clear(&mut self) {
        self.lines.clear();
    }
}

/// What the tree of variations needs to draw a branch.
struct Branches<'a> {
    tree: &'a TreeLines,
    header: &'a carc_events::Header,
    /// The variation shown and the cursor in its line.
    shown: Option<(&'a str, usize)>,
    open_turns: &'a std::collections::BTreeSet<(String, usize)>,
    pov: carc_replay::describe::View,
    scroll_to_current: bool,
}

impl Branches<'_> {
    /// The variations branching from `parent` after an event in `first..=last`, each as a
    /// collapsible branch (open by default) with its own moves and, under them, its own
    /// branches.
    fn show(
        &self,
        ui: &mut egui::Ui,
        parent: Option<&str>,
        first: u64,
        last: u64,
        click: &mut Option<ListClick>,
    ) {
        for (name, (records, line)) in &self.tree.lines {
            let Some(v) = records.last() else { continue };
            if v.parent.as_deref() != parent || v.after < first || v.after > last {
                continue;
            }
            let title = format!("{name}: from event {}, {} moves", v.after, v.events.len());
            egui::CollapsingHeader::new(RichText::new(title).italics())
                .id_salt(("branch", name))
                .default_open(true)
                .show(ui, |ui| {
                    let cursor = self.shown.filter(|(n, _)| *n == name).map(|(_, c)| c);
                    let rows = LineRows {
                        header: self.header,
                        steps: &line.steps,
                        from: (v.after as usize).min(line.steps.len()),
                        cursor,
                        key: name,
                        annotations: None,
                        quality: None,
                        pov: self.pov,
                        scroll_to_current: self.scroll_to_current,
                    };
                    let mut inner = None;
                    rows.show_all(ui, self.open_turns, &mut inner, &mut |ui, f, l, c| {
                        self.show(ui, Some(name), f, l, c);
                    });
                    // Clicks on the branch's own rows are positions of its line.
                    if let Some(ListClick::Jump(n)) = inner {
                        inner = Some(ListClick::Enter(name.clone(), n));
                    }
                    if inner.is_some() {
                        *click = inner;
                    }
                });
        }
    }
}

impl ViewerApp {
    pub(super) fn event_list(&mut self, ui: &mut egui::Ui) {
        ui.heading("Moves");
        if let Some(g) = &self.game {
            let main = self.variation.as_ref().map_or(&g.timeline, |v| &v.main);
            self.tree.refresh(&main.log, g.variations.items());
        }
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
                // The game's own line stays listed while a variation is shown; each variation
                // hangs under the turn it leaves from.
                let (main, shown) = match &self.variation {
                    Some(v) => (&v.main, Some((v.name.as_str(), cursor))),
                    None => (&g.timeline, None),
                };
                let main_cursor = match &self.variation {
                    None => Some(cursor),
                    Some(v) if cursor as u64 <= v.branch => Some(cursor),
                    Some(_) => None,
                };
                let rows = LineRows {
                    header: &main.log.header,
                    steps: &main.steps,
                    from: 0,
                    cursor: main_cursor,
                    key: "",
                    annotations: Some(&g.annotations),
                    quality: Some(&self.quality),
                    pov: self.pov,
                    scroll_to_current: self.scroll_to_current,
                };
                let branches = Branches {
                    tree: &self.tree,
                    header: &main.log.header,
                    shown,
                    open_turns: &self.open_turns,
                    pov: self.pov,
                    scroll_to_current: self.scroll_to_current,
                };
                branches.show(ui, None, 0, 0, &mut click);
                let mut main_click = None;
                rows.show_all(ui, &self.open_turns, &mut main_click, &mut |ui, f, l, c| {
                    branches.show(ui, None, f.max(1), l, c)
                });
                if let (Some(ListClick::Jump(n)), Some(_)) = (&main_click, &self.variation) {
                    main_click = Some(ListClick::Main(*n));
                }
                if main_click.is_some() {
                    click = main_click;
                }
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
            Some(ListClick::Enter(name, n)) => {
                if self.current_variation() == Some(name.as_str()) {
                    self.command(Command::JumpTo(n));
                } else {
                    self.show_variation(&name, Some(n));
                }
            }
            Some(ListClick::Main(n)) => {
                self.leave_variation();
                self.command(Command::JumpTo(n));
            }
            _ => {}
        }
    }
}
