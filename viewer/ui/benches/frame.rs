//! Jumping to an event and laying out the whole viewer for that frame, headless: the command is
//! applied (re-folding the game to that event), then one egui frame runs every panel (board,
//! event list, scores and breakdowns, graph) and its shapes are tessellated. Rasterising the
//! triangles (GPU or software GL) is not included.

use std::path::Path;

use carc_viewer_ui::{Command, ViewerApp};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let log = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/sim-3p-greedy.jsonl");
    let mut app = ViewerApp::new();
    app.open(&log);
    assert!(app.open_error().is_none());
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    // Warm the fonts and layout caches once, as a running viewer has them.
    for _ in 0..3 {
        let out = ctx.run_ui(input(), |ui| app.show(ui));
        black_box(ctx.tessellate(out.shapes, out.pixels_per_point));
    }
    let events = 214;
    let mut k = 0usize;
    c.bench_function("viewer/jump_and_layout_one_frame", |b| {
        b.iter(|| {
            // Jumps spread over the whole game (event 0 to 214), never the same twice in a row.
            k = (k + 97) % (events + 1);
            app.command(Command::JumpTo(k));
            app.apply_now();
            let out = ctx.run_ui(input(), |ui| app.show(ui));
            black_box(ctx.tessellate(out.shapes, out.pixels_per_point).len())
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
