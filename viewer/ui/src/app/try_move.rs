//! Trying moves on the board. Where a tile waits to be placed, the board lights the legal
//! squares; the drawn tile follows the pointer over them as a ghost (R or the mouse wheel
//! turns it through its legal rotations) and a click places it. The bar above the board
//! offers the rest of the turn (meeple spots, "no meeple", arrows, gifts) and the next tile,
//! chosen from the bag. Each move is saved at once as a variation ([`crate::trial`] says
//! which: the line's own move is followed, the variation shown is extended at its end, else
//! a new one, `try N`, branches), and the viewer shows it.

use carc_rules::{Action, Placement, Pos, Rotation};

use crate::model::Command;
use crate::trial::{self, Plan, Shown};

use super::ViewerApp;

/// The drawn tile under the pointer: its square and which of its legal rotations is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Aim {
    pub at: Option<Pos>,
    pub turn: usize,
}

/// Pixels of wheel scrolling per quarter turn.
const WHEEL_STEP: f32 = 40.0;

impl ViewerApp {
    /// Plays `action` at the cursor (a move tried, or chance chosen): follows the line if it
    /// is its own next move, else saves it as a variation and shows it.
    pub fn try_action(&mut self, action: Action) {
        // Record mode: the move is the game's next, stored at once (not a variation).
        if self.rec.session.is_some() {
            self.record_action(action);
            return;
        }
        let (Some(state), Some(g)) = (&self.state, &self.game) else {
            return;
        };
        let event = match trial::event_of(state, &action) {
            Ok(e) => e,
            Err(e) => {
                self.status = Some(format!("cannot play that here: {e}"));
                return;
            }
        };
        let cursor = self.vm.cursor.index();
        let steps = &g.timeline.steps;
        let seq = cursor.checked_sub(1).map_or(0, |i| steps[i].seq);
        let chain: &[String] = self.variation.as_ref().map_or(&[], |v| &v.chain);
        let shown = Shown {
            chain,
            seq,
            next: steps.get(cursor).map(|s| &s.event),
        };
        let plan = trial::plan(g.variations.items(), &shown, &event);
        let Some(v) = trial::record_for(
            g.variations.items(),
            &g.timeline.log.header.game,
            &plan,
            event,
            self.name_next.as_deref(),
        ) else {
            self.command(Command::Next);
            return;
        };
        let name = v.name.clone();
        let location = g.variations.location();
        let Some(g) = &mut self.game else { return };
        let saved = g
            .variations
            .set(v)
            .and_then(|r| self.persist(std::slice::from_ref(&r)));
        if let Err(e) = saved {
            self.status = Some(format!("cannot save variation {name:?}: {e}"));
            return;
        }
        self.aim = Aim::default();
        self.show_variation(&name, Some(cursor + 1));
        let verb = match plan {
            Plan::Extend(_) => "extended",
            _ => "made",
        };
        self.status = Some(format!("{verb} variation {name:?}; saved to {location}"));
    }

    /// The legal rotation shown for the drawn tile on `at`, after `turns` quarter turns asked
    /// for (R, the wheel) since the pointer came onto the square.
    pub(super) fn aimed_rotation(&mut self, placements: &[Placement], at: Pos) -> Option<Rotation> {
        let rotations = trial::rotations_at(placements, at);
        if rotations.is_empty() {
            return None;
        }
        if self.aim.at != Some(at) {
            self.aim = Aim {
                at: Some(at),
                turn: 0,
            };
        }
        Some(rotations[self.aim.turn % rotations.len()])
    }

    /// Turns the aimed tile by whole wheel notches (a line of scrolling is a notch).
    pub(super) fn wheel_turns(&mut self, ui: &egui::Ui) {
        let dy: f32 = ui.input(|i| {
            i.raw
                .events
                .iter()
                .map(|e| match e {
                    egui::Event::MouseWheel { unit, delta, .. } => match unit {
                        egui::MouseWheelUnit::Point => delta.y,
                        egui::MouseWheelUnit::Line | egui::MouseWheelUnit::Page => {
                            delta.y * WHEEL_STEP
                        }
                    },
                    _ => 0.0,
                })
                .sum()
        });
        self.wheel += dy;
        while self.wheel.abs() >= WHEEL_STEP {
            self.aim.turn += 1;
            self.wheel -= WHEEL_STEP.copysign(self.wheel);
        }
    }

    /// The bar above the board: what the position offers besides a click on a lit square.
    pub(super) fn try_bar(&mut self, ui: &mut egui::Ui) {
        let Some(state) = &self.state else { return };
        let mut chosen = None;
        ui.horizontal_wrapped(|ui| {
            if let carc_rules::Phase::Place { tile } = state.phase() {
                let id = &state.tiles().get(tile).id;
                if state.first_placement(tile).is_some() {
                    ui.label(format!(
                        "Try a move: click a lit square to place {id} (R or the wheel turns it)"
                    ));
                }
            } else if trial::wants_tile(state) && self.rec.session.is_none() {
                let bag = trial::tiles_in_bag(state);
                if !bag.is_empty() {
                    egui::ComboBox::from_label("next tile from the bag")
                        .selected_text("choose")
                        .show_ui(ui, |ui| {
                            for (t, n) in bag {
                                let label = format!("{} ({n} left)", state.tiles().get(t).id);
                                if ui.selectable_label(false, label).clicked() {
                                    chosen = Some(Action::Draw { tile: t });
                                }
                            }
                        });
                }
            }
            let offers = trial::offers(state);
            if !offers.is_empty() {
                ui.label("Try:");
            }
            for o in offers {
                if ui.button(&o.label).clicked() {
                    chosen = Some(o.action);
                }
            }
        });
        if let Some(action) = chosen {
            self.try_action(action);
        }
    }
}
