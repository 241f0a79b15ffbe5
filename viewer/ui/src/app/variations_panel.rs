//! The "Variations" panel: the open game's what-if variations. Entering one puts its line of
//! play (the game's events up to where it branches, then its own moves) in place of the
//! game's, so the event list, the board, the graph and the keys all step through it; the
//! game's own timeline waits in [`InVariation`] until "Back to the game".

use carc_events::variation::VariationRecord;
use carc_replay::variation::{fold_variation, score_difference};
use carc_replay::Timeline;
use egui::RichText;

use super::{ViewerApp, ERROR};
use crate::graph;
use crate::loaded::GameSource;
use crate::model::{Command, Nav, ViewModel};
use crate::variations::VariationHome;

/// A variation being stepped through, and the game's own line kept for the way back.
pub(super) struct InVariation {
    pub name: String,
    pub chain: Vec<String>,
    /// The game's last event the variation shares.
    pub branch: u64,
    /// Why the variation stops early, if a move is illegal.
    pub problem: Option<String>,
    pub main: Timeline,
    main_nav: Nav,
    main_cursor: usize,
}

impl ViewerApp {
    /// The variation being stepped through, if any.
    pub fn current_variation(&self) -> Option<&str> {
        self.variation.as_ref().map(|v| v.name.as_str())
    }

    /// Shows the variation `name` in place of the game, at its first own move.
    pub fn enter_variation(&mut self, name: &str) {
        self.show_variation(name, None);
    }

    /// Shows the variation `name` in place of the game at position `at` of its line (its first
    /// own move when `None`). Going from one variation to another keeps the game's event to
    /// come back to.
    pub fn show_variation(&mut self, name: &str, at: Option<usize>) {
        self.leave_variation();
        let Some(g) = &mut self.game else { return };
        let line = match fold_variation(&g.timeline.log, g.variations.items(), name, &[]) {
            Ok(line) => line,
            Err(e) => {
                self.status = Some(format!("cannot show variation {name:?}: {e}"));
                return;
            }
        };
        let problem = line.error();
        let main = std::mem::replace(&mut g.timeline, line.timeline);
        let main_nav = std::mem::replace(&mut g.nav, Nav::from_timeline(&g.timeline));
        let players = g.players();
        self.variation = Some(InVariation {
            name: name.to_string(),
            chain: line.chain,
            branch: line.branch,
            problem: problem.clone(),
            main,
            main_nav,
            main_cursor: self.vm.cursor.index(),
        });
        self.restart_at(at.unwrap_or(line.branch as usize + 1), players);
        self.status = Some(match problem {
            Some(why) => why,
            None => format!("showing variation {name:?}"),
        });
    }

    /// Puts the game's own line back, at the event shown before the variation was entered.
    pub fn leave_variation(&mut self) {
        let Some(v) = self.variation.take() else {
            return;
        };
        let Some(g) = &mut self.game else { return };
        g.timeline = v.main;
        g.nav = v.main_nav;
        let players = g.players();
        self.restart_at(v.main_cursor, players);
        self.status = None;
    }

    fn restart_at(&mut self, position: usize, players: usize) {
        let Some(g) = &self.game else { return };
        let speed = self.vm.playback.speed;
        self.vm = ViewModel::new(g.nav.clone());
        self.vm.playback.speed = speed;
        self.vm.apply(Command::JumpTo(position));
        self.series = graph::series(&g.timeline.steps, players);
        self.draft = Default::default();
        self.refresh_state();
        self.scroll_to_current = true;
    }

    /// Appends records to the library the game came from (a file's set writes its own).
    pub(super) fn persist(&mut self, records: &[VariationRecord]) -> Result<(), String> {
        let Some(g) = &self.game else { return Ok(()) };
        if !matches!(g.variations.home(), VariationHome::Library { .. }) {
            return Ok(());
        }
        let (GameSource::Library { game, .. }, Some(library)) = (&g.source, &self.library) else {
            return Err("the store this game came from is no longer open".to_string());
        };
        for r in records {
            library.append_variation(game, r.to_json().as_bytes())?;
        }
        Ok(())
    }

    fn delete_variation(&mut self, name: &str) {
        // Leave first if the variation shown is this one or branches from it.
        if self
            .variation
            .as_ref()
            .is_some_and(|v| v.chain.iter().any(|n| n == name))
        {
            self.leave_variation();
        }
        let Some(g) = &mut self.game else { return };
        let location = g.variations.location();
        let result = g.variations.delete(name);
        self.status = Some(match result.and_then(|r| self.persist(&r).map(|()| r)) {
            Ok(records) => {
                let names: Vec<String> =
                    records.iter().map(|r| format!("{:?}", r.name())).collect();
                format!("deleted {} from {location}", names.join(", "))
            }
            Err(e) => format!("cannot delete variation {name:?}: {e}"),
        });
    }

    fn promote_variation(&mut self, name: &str) {
        let showing = self.current_variation() == Some(name);
        self.leave_variation();
        let Some(g) = &mut self.game else { return };
        let location = g.variations.location();
        let result = g.variations.promote(name);
        self.status = Some(
            match result.and_then(|r| self.persist(std::slice::from_ref(&r)).map(|()| r)) {
                Ok(_) => format!("variation {name:?} promoted one level; saved to {location}"),
                Err(e) => format!("cannot promote variation {name:?}: {e}"),
            },
        );
        if showing {
            self.enter_variation(name);
        }
    }

    pub(super) fn variations_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Variations");
        let Some(g) = &self.game else { return };
        if let Some(v) = &self.variation {
            ui.label(RichText::new(format!("Showing variation {:?}", v.name)).strong());
            if v.chain.len() > 1 {
                ui.weak(format!("through {}", v.chain.join(" > ")));
            }
            ui.label(format!(
                "The game's own moves up to event {}, then the variation's.",
                v.branch
            ));
            if let Some(p) = &v.problem {
                ui.colored_label(ERROR, p);
            }
            let seq = self
                .vm
                .cursor
                .step()
                .and_then(|i| g.timeline.steps.get(i))
                .map_or(0, |s| s.seq);
            let diff = score_difference(&v.main, &g.timeline, seq);
            let words: Vec<String> = diff
                .iter()
                .enumerate()
                .map(|(seat, d)| format!("{} {d:+}", g.seat_name(seat as u8)))
                .collect();
            ui.label(format!(
                "Against the game after event {seq}: {}",
                words.join(", ")
            ));
        }
        let mut action: Option<(&'static str, String)> = None;
        if self.variation.is_some() && ui.button("Back to the game").clicked() {
            action = Some(("leave", String::new()));
        }
        let items = g.variations.items();
        if items.is_empty() {
            ui.weak("None. `carc variation add` makes one from a file of moves.");
        }
        let showing = self.current_variation().map(str::to_string);
        for (name, v) in items {
            ui.horizontal_wrapped(|ui| {
                let selected = showing.as_deref() == Some(name.as_str());
                if ui.selectable_label(selected, name).clicked() {
                    action = Some(("enter", name.clone()));
                }
                let from = match &v.parent {
                    None => format!("after event {}", v.after),
                    Some(p) => format!("after event {} of {p:?}", v.after),
                };
                ui.weak(format!("{from}, {} moves", v.events.len()));
                if ui
                    .add_enabled(v.parent.is_some(), egui::Button::new("Promote"))
                    .on_disabled_hover_text(
                        "it branches from the game's own moves, which are never changed",
                    )
                    .clicked()
                {
                    action = Some(("promote", name.clone()));
                }
                if ui
                    .button("Delete")
                    .on_hover_text("deletes the variations that branch from it too")
                    .clicked()
                {
                    action = Some(("delete", name.clone()));
                }
            });
        }
        if !items.is_empty() {
            ui.weak(format!("kept in {}", g.variations.location()));
        }
        match action {
            Some(("enter", name)) => self.enter_variation(&name),
            Some(("leave", _)) => self.leave_variation(),
            Some(("promote", name)) => self.promote_variation(&name),
            Some(("delete", name)) => self.delete_variation(&name),
            _ => {}
        }
    }
}
