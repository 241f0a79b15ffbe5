//! Every character the UI can show must exist in the loaded fonts: a missing glyph draws a
//! box in the window and makes the test harness panic.

use std::path::Path;

use carc_viewer_ui::annotations::Glyph;
use carc_viewer_ui::app::{describe_phase, BUTTONS, UI_TEXT};
use carc_viewer_ui::loaded::LoadedGame;
use carc_viewer_ui::text;
use egui::{FontFamily, FontId};

fn texts_from_sample_logs() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "sample logs in {}", dir.display());
    for path in files {
        let g = LoadedGame::open(&path).unwrap();
        let h = &g.timeline.log.header;
        let steps = &g.timeline.steps;
        out.extend(g.problem());
        for (i, step) in steps.iter().enumerate() {
            out.push(text::event_row(h, steps, i, Some("?!")));
            out.push(text::describe_event(h, &step.event));
            for s in &step.effects.scores {
                let l = text::score_lines(h, s);
                out.push(l.title);
                out.extend(l.lines);
            }
            out.extend(step.effects.notes.iter().map(|n| text::note_line(h, n)));
        }
        let groups = carc_viewer_ui::move_list::turn_groups(steps);
        for (k, group) in groups.into_iter().enumerate() {
            out.push(carc_viewer_ui::move_list::turn_row(
                h,
                steps,
                group,
                k,
                "?! ? -1.5",
            ));
        }
        for n in [0, steps.len() / 2, steps.len()] {
            let game = g.timeline.state_at(n).unwrap();
            out.push(describe_phase(h, &game));
            for p in game.placed() {
                out.extend(text::square_info(h, &game, p.at).unwrap());
            }
        }
    }
    out
}

/// A context that has run one frame (fonts exist only after the first frame).
fn context() -> egui::Context {
    let ctx = egui::Context::default();
    let mut out = ctx.run_ui(egui::RawInput::default(), |_| {});
    out.textures_delta.clear();
    ctx
}

#[test]
fn every_ui_character_has_a_glyph() {
    let ctx = context();
    let mut texts: Vec<String> = UI_TEXT.iter().map(|s| s.to_string()).collect();
    texts.extend(BUTTONS.iter().map(|s| s.to_string()));
    texts.extend(
        carc_viewer_ui::quality::UI_TEXT
            .iter()
            .map(|s| s.to_string()),
    );
    texts.extend(
        carc_viewer_ui::puzzles::UI_TEXT
            .iter()
            .map(|s| s.to_string()),
    );
    texts.extend(Glyph::ALL.iter().map(|g| g.as_str().to_string()));
    texts.extend(texts_from_sample_logs());
    let mut missing = Vec::new();
    ctx.fonts_mut(|f| {
        for family in [FontFamily::Proportional, FontFamily::Monospace] {
            let font = FontId::new(14.0, family.clone());
            for t in &texts {
                for c in t.chars() {
                    if !f.has_glyph(&font, c) && !missing.contains(&(c, family.clone())) {
                        missing.push((c, family.clone()));
                    }
                }
            }
        }
    });
    assert!(
        missing.is_empty(),
        "characters without a glyph: {missing:?}"
    );
}

#[test]
fn media_symbols_are_indeed_missing_so_we_do_not_use_them() {
    // The reason the transport buttons are plain text: if this starts failing, the default
    // fonts gained these glyphs and the buttons could use them.
    let ctx = context();
    let has = ctx.fonts_mut(|f| f.has_glyphs(&FontId::proportional(14.0), "⏮⏭"));
    assert!(!has);
    for b in BUTTONS {
        assert!(b.is_ascii(), "{b}");
    }
}
