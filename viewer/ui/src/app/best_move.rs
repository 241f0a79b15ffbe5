//! The best move a move-quality run found, on the board: at the turn of a judged placement
//! whose move was not the best found (the position before it, or the placement itself), the
//! best move is drawn as a ghost (tile and meeple, `carc_draw::ghost`) and "Play the best
//! move found" plays it out as a variation (`best at event N`), as a move tried by hand is.

use carc_analysis::quality::TurnQuality;
use carc_rules::{Action, Effects, Game, Phase};

use super::ViewerApp;
use crate::model::Command;

impl ViewerApp {
    /// The judged turn the cursor is at (before its placement or on it) when its best move
    /// differs from the move played; only on the game's own line.
    pub fn best_here(&self) -> Option<&TurnQuality> {
        if self.variation.is_some() {
            return None;
        }
        let g = self.game.as_ref()?;
        let cursor = self.vm.cursor.index();
        let steps = &g.timeline.steps;
        let next = steps.get(cursor).and_then(|s| self.quality.turn(s.seq));
        let here = cursor
            .checked_sub(1)
            .and_then(|i| self.quality.turn(steps[i].seq));
        next.or(here)
            .filter(|t| t.loss > 0.0 && t.best.mv != t.played.mv)
    }

    /// The ghost of the best move found at the cursor, in the mover's colour.
    pub fn best_ghost(&self) -> Option<Vec<carc_draw::Shape>> {
        let t = self.best_here()?;
        let before: Game = self.game.as_ref()?.timeline.state_at(t.step).ok()?;
        let Phase::Place { tile } = before.phase() else {
            return None;
        };
        let mv = t.best.mv;
        // The meeple's spot needs the tile on the board: play the move on a copy.
        let mut after = before.clone();
        let mut fx = Effects::quiet();
        after
            .apply(
                &Action::Place {
                    at: mv.placement.at,
                    rotation: mv.placement.rotation,
                },
                &mut fx,
            )
            .ok()?;
        if let Some(arrow) = mv.arrow {
            after.apply(&Action::ChooseArrow { arrow }, &mut fx).ok()?;
        }
        let spot = match mv.meeple {
            Action::PlaceMeeple { segment }
            | Action::PlaceLargeMeeple { segment }
            | Action::PlaceBuilder { segment }
            | Action::PlacePig { segment } => Some((mv.placement.at, segment)),
            Action::PlaceArrowMeeple { at, segment, .. } => Some((at, segment)),
            _ => None,
        };
        let (colors, _) = self.player_colors(true);
        let color = colors
            .get(usize::from(t.seat))
            .map_or(carc_draw::Rgba::WHITE, |&c| {
                let [r, g, b, a] = c.to_srgba_unmultiplied();
                carc_draw::Rgba::new(r, g, b, a)
            });
        let meeple = spot.and_then(|(at, segment)| {
            let label = after.segment_label_at(at, segment)?;
            Some((
                carc_draw::world_of(at) + carc_draw::meeple_spot(label),
                color,
            ))
        });
        Some(carc_draw::ghost::ghost_move(
            before.tiles().get(tile),
            mv.placement.rotation,
            mv.placement.at,
            carc_draw::color::HIGHLIGHT,
            meeple,
        ))
    }

    /// Plays the best move found at the cursor as a variation: from the position before the
    /// placement, the placement, the arrow chosen (if any) and the meeple step.
    pub fn play_best(&mut self) {
        let Some(t) = self.best_here().cloned() else {
            return;
        };
        self.vm.apply(Command::JumpTo(t.step));
        self.refresh_state();
        let mv = t.best.mv;
        let mut actions = vec![Action::Place {
            at: mv.placement.at,
            rotation: mv.placement.rotation,
        }];
        actions.extend(mv.arrow.map(|arrow| Action::ChooseArrow { arrow }));
        actions.push(mv.meeple);
        self.name_next = Some(format!("best at event {}", t.seq));
        for action in actions {
            self.try_action(action);
        }
        self.name_next = None;
    }

    /// The line under the board naming the best move, with the button that plays it.
    pub(super) fn best_bar(&mut self, ui: &mut egui::Ui) {
        let Some(t) = self.best_here() else { return };
        let text = format!("Best move found: {} ({:+.1})", t.best.text, t.best.value);
        let mut play = false;
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(text).color(carc_draw_color()));
            play = ui
                .button("Play the best move found")
                .on_hover_text("plays it out as a variation, drawn as the ghost on the board")
                .clicked();
        });
        if play {
            self.play_best();
        }
    }
}

/// The ghost's outline colour, for the words that name it.
fn carc_draw_color() -> egui::Color32 {
    crate::board::color32(carc_draw::color::HIGHLIGHT)
}
