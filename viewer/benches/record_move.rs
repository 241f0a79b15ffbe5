//! One record-mode move (checked, folded, appended through the store kept open, shown) against
//! a bare fsync'd append of one line in the same process. The moves are those of a 72-tile
//! sample game, over and over (a new game each time one ends, set up outside the timing).
//! Run: `cargo bench -p carc-viewer --bench record_move`.

#[path = "../src/store_record.rs"]
#[allow(dead_code)]
mod store_record;

use std::path::Path;
use std::time::{Duration, Instant};

use carc_archive::event_id;
use carc_events::{read_log, Color, Event};
use carc_store::{ExpectedVersion, NewEvent, Store};
use carc_viewer_ui::record::NewGame;
use carc_viewer_ui::{trial, ViewerApp};
use criterion::{criterion_group, criterion_main, Criterion};

use store_record::{Held, StoreRecorder};

fn sample() -> (Vec<Event>, Vec<String>) {
    let bytes = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../logs/sim-2p-greedy-vs-random.jsonl"),
    )
    .unwrap();
    let lines = String::from_utf8(bytes.clone())
        .unwrap()
        .lines()
        .map(|l| format!("{l}\n"))
        .collect();
    let events = read_log(&bytes[..])
        .unwrap()
        .events
        .into_iter()
        .map(|(_, e)| e.event)
        .collect();
    (events, lines)
}

fn record_move(c: &mut Criterion) {
    let (moves, lines) = sample();
    let mut group = c.benchmark_group("record_move");
    group.bench_function("viewer record move, store kept open", |b| {
        b.iter_custom(|iters| {
            let dir = tempfile::tempdir().unwrap();
            let mut app = ViewerApp::new();
            app.set_recorder(Box::new(StoreRecorder::new(
                dir.path().to_path_buf(),
                Held::default(),
            )));
            let (mut games, mut next) = (0, moves.len());
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if next == moves.len() {
                    games += 1;
                    let form = NewGame {
                        game: format!("g{games}"),
                        players: vec![("Ada".into(), Color::Red), ("Bo".into(), Color::Blue)],
                        ..NewGame::default()
                    };
                    app.start_recording(&form).unwrap();
                    next = 1;
                }
                let action = trial::action_for(app.state().unwrap(), &moves[next]).unwrap();
                let t = Instant::now();
                app.record_action(action);
                total += t.elapsed();
                next += 1;
            }
            total
        })
    });
    group.bench_function("bare fsync append of one line", |b| {
        b.iter_custom(|iters| {
            let dir = tempfile::tempdir().unwrap();
            let store = Store::open(dir.path()).unwrap();
            let mut total = Duration::ZERO;
            for i in 0..iters {
                let line = lines[1 + (i as usize) % (lines.len() - 1)]
                    .as_bytes()
                    .to_vec();
                let event = [NewEvent::new(event_id("bare", i + 1), line)];
                let expected = if i == 0 {
                    ExpectedVersion::NoStream
                } else {
                    ExpectedVersion::Exactly(i)
                };
                let t = Instant::now();
                store.append("bare", expected, &event).unwrap();
                total += t.elapsed();
            }
            total
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(10));
    targets = record_move
}
criterion_main!(benches);
