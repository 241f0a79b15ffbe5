//! The annotation editor, in the details panel: the glyph and comment of the current event,
//! saved where the game's annotations live (a file beside the log, or the store's companion
//! stream); never on a variation's moves.

use egui::TextEdit;

use crate::annotations::{AnnotationHome, Glyph};
use crate::loaded::GameSource;

use super::ViewerApp;

/// The annotation being edited.
#[derive(Clone, Debug, Default)]
pub(super) struct Draft {
    seq: Option<u64>,
    glyph: Option<Glyph>,
    text: String,
}

impl ViewerApp {
    pub(super) fn annotation_editor(&mut self, ui: &mut egui::Ui) {
        ui.heading("Annotation");
        if let Some(v) = &self.variation {
            ui.weak(format!(
                "Annotations are on the game's own events; go back to the game to annotate (variation {:?} is shown).",
                v.name
            ));
            return;
        }
        let Some(g) = &mut self.game else { return };
        let Some(i) = self.vm.cursor.step() else {
            ui.weak("step to an event to annotate it");
            return;
        };
        let seq = g.timeline.steps[i].seq;
        if self.draft.seq != Some(seq) {
            let a = g.annotations.get(seq);
            self.draft = Draft {
                seq: Some(seq),
                glyph: a.and_then(|a| a.glyph),
                text: a.map(|a| a.text.clone()).unwrap_or_default(),
            };
        }
        ui.horizontal_wrapped(|ui| {
            if ui
                .selectable_label(self.draft.glyph.is_none(), "none")
                .clicked()
            {
                self.draft.glyph = None;
            }
            for glyph in Glyph::ALL {
                let on = self.draft.glyph == Some(glyph);
                if ui
                    .selectable_label(on, glyph.as_str())
                    .on_hover_text(glyph.meaning())
                    .clicked()
                {
                    self.draft.glyph = if on { None } else { Some(glyph) };
                }
            }
        });
        let label = ui.label("Comment:");
        ui.add(
            TextEdit::multiline(&mut self.draft.text)
                .desired_rows(3)
                .desired_width(f32::INFINITY)
                .hint_text("a comment on this event"),
        )
        .labelled_by(label.id);
        ui.horizontal(|ui| {
            let save = ui.button("Save annotation").clicked();
            let delete = ui.button("Delete annotation").clicked();
            if save || delete {
                if delete {
                    self.draft.glyph = None;
                    self.draft.text.clear();
                }
                let record = g.annotations.set(seq, self.draft.glyph, &self.draft.text);
                // A puzzle's game is the puzzle file's copy of a position: nothing of it is
                // written back (its tries neither), so the annotation lives in memory only.
                if matches!(g.source, GameSource::Puzzle { .. }) {
                    self.status = Some(format!(
                        "annotation of event {seq} kept in memory only: a puzzle's game is not saved anywhere (nor are its tries); it is gone when another game is opened"
                    ));
                    return;
                }
                let saved = match (g.annotations.home(), &g.source, &self.library) {
                    (AnnotationHome::File(_), _, _) => {
                        g.annotations.save().map_err(|e| e.to_string())
                    }
                    (AnnotationHome::Library { .. }, GameSource::Library { game, .. }, Some(l)) => {
                        l.append_annotation(game, record.to_json().as_bytes())
                    }
                    (AnnotationHome::Library { .. }, _, _) => {
                        Err("the store this game came from is no longer open".to_string())
                    }
                };
                let location = g.annotations.location();
                self.status = Some(match saved {
                    Ok(()) => format!("annotation of event {seq} saved to {location}"),
                    Err(e) => format!("cannot save the annotation to {location}: {e}"),
                });
            }
        });
        if matches!(g.source, GameSource::Puzzle { .. }) {
            ui.weak("kept in memory only (a puzzle's game is not saved)");
            return;
        }
        let home = match g.annotations.path() {
            Some(path) => path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            None => g.annotations.location(),
        };
        ui.weak(format!(
            "kept in {home} (the game's events are never changed)"
        ));
    }
}
