//! Post-game analysis:
//! - `quality/one_turn_default_k`: judging one turn's move (every candidate screened with the
//!   default playouts, the best confirmed) on one thread, cycling over the 71 turns of the
//!   sample 2-player base game `logs/sim-2p-greedy-vs-random.jsonl`; × 71 turns ≈ the whole
//!   game on one core;
//! - `aggregate/analyze_and_add` and `aggregate/decode_analyze_and_add`: one game's
//!   statistics added to an [`Aggregate`], from a decoded log or from its bytes, cycling over
//!   200 simulated 4-player random games (what `carc analyze DIR` does per file); × 10,000 ≈ the
//!   aggregate of 10,000 games on one core.

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use carc_analysis::quality::{decisions, judge, QualityOptions};
use carc_analysis::{analyze, Aggregate};
use carc_events::{
    read_log, record_actions, setup_from_header, write_log, Color, Header, Log, Player,
    RulesOptions,
};
use carc_replay::fold;
use carc_rules::Game;
use carc_sim::{Buffers, Strategy};

fn quality(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/sim-2p-greedy-vs-random.jsonl");
    let timeline = fold(read_log(&std::fs::read(path).unwrap()).unwrap(), &[]);
    let turns = decisions(&timeline).unwrap();
    let options = QualityOptions {
        threads: 1,
        ..QualityOptions::default()
    };
    eprintln!(
        "quality: {} turns, {} playouts per candidate and stage, at most {} candidates screened",
        turns.len(),
        options.playouts,
        options.max_candidates
    );
    let mut g = c.benchmark_group("quality");
    g.sample_size(10);
    g.throughput(Throughput::Elements(1));
    let mut buffers = Buffers::default();
    let mut next = 0;
    g.bench_function("one_turn_default_k", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let d = &turns[next % turns.len()];
                next += 1;
                let start = Instant::now();
                black_box(judge(d, &options, &mut buffers).unwrap());
                spent += start.elapsed();
            }
            spent
        })
    });
    g.finish();
}

/// 200 simulated 4-player games (random players, base game), as `carc simulate --players 4`.
fn games() -> Vec<Log> {
    (0..200u64)
        .map(|seed| {
            let header = Header {
                game: format!("bench-{seed}"),
                players: (0..4)
                    .map(|i| Player {
                        name: format!("P{i}"),
                        color: Color::ALL[i],
                    })
                    .collect(),
                rules: RulesOptions::default(),
                tile_sets: vec!["base".into()],
                bag: None,
                source: None,
                comment: None,
            };
            let setup = || setup_from_header(&header, &[]).unwrap();
            let sim = carc_sim::play(setup(), seed, &[Strategy::Random]).unwrap();
            record_actions(header.clone(), Game::new(setup()).unwrap(), &sim.actions)
                .unwrap()
                .0
        })
        .collect()
}

fn aggregate(c: &mut Criterion) {
    let logs = games();
    let bytes: Vec<Vec<u8>> = logs.iter().map(|l| write_log(l).into_bytes()).collect();
    let mut g = c.benchmark_group("aggregate");
    g.throughput(Throughput::Elements(1));
    let mut total = Aggregate::default();
    let mut i = 0;
    g.bench_function("analyze_and_add", |b| {
        b.iter(|| {
            i = (i + 1) % logs.len();
            total.add(&analyze(&logs[i], &[]));
        })
    });
    black_box(total.overall());
    let mut total = Aggregate::default();
    g.bench_function("decode_analyze_and_add", |b| {
        b.iter(|| {
            i = (i + 1) % bytes.len();
            let log = read_log(&bytes[i]).unwrap();
            total.add(&analyze(&log, &[]));
        })
    });
    black_box(total.seats());
    g.finish();
}

criterion_group!(benches, quality, aggregate);
criterion_main!(benches);
