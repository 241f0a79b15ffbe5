//! Rebuilding games from their logs, over 200 distinct simulated games (farmers on, 2–6
//! players): per game and per event, with decoding excluded and included, and the full
//! timeline fold the viewer and CLI use; the same with the 20th Anniversary expansion on
//! (group `rebuild_anniversary`), on the Germany map (group `rebuild_germany`) and with The
//! Gifts on (group `rebuild_gifts`).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use carc_events::{
    read_log, record_actions, setup_from_header, write_log, Color, Header, Log, MapRules, Player,
    RulesOptions,
};
use carc_replay::{fold, rebuild};
use carc_rules::{Game, Setup};
use carc_sim::Strategy;

/// What the benchmarked games are played with.
#[derive(Clone, Copy, PartialEq)]
enum Variant {
    Base,
    Anniversary,
    Germany,
    Gifts,
}

fn games(variant: Variant) -> Vec<Log> {
    (0..200u64)
        .map(|seed| {
            let players = 2 + (seed % 5) as u8;
            let mut header = Header {
                game: format!("bench-{seed}"),
                players: (0..players as usize)
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
            if variant == Variant::Anniversary {
                header.rules.expansions = vec!["anniversary".into()];
                header.tile_sets.push("anniversary".into());
            }
            if variant == Variant::Germany {
                header.rules.meeples = 9;
                header.rules.map = Some(MapRules {
                    name: "germany".into(),
                    start_squares: 2,
                    town_variants: Vec::new(),
                });
            }
            if variant == Variant::Gifts {
                header.rules.expansions.push("gifts".into());
            }
            let setup = || -> Setup { setup_from_header(&header, &[]).unwrap() };
            let sim = carc_sim::play(setup(), seed, &[Strategy::Random]).unwrap();
            record_actions(header.clone(), Game::new(setup()).unwrap(), &sim.actions)
                .unwrap()
                .0
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    bench_with(c, "rebuild", Variant::Base);
    bench_with(c, "rebuild_anniversary", Variant::Anniversary);
    bench_with(c, "rebuild_germany", Variant::Germany);
    bench_with(c, "rebuild_gifts", Variant::Gifts);
}

fn bench_with(c: &mut Criterion, group: &str, variant: Variant) {
    let logs = games(variant);
    let bytes: Vec<Vec<u8>> = logs.iter().map(|l| write_log(l).into_bytes()).collect();
    let events: usize = logs.iter().map(|l| l.events.len()).sum();
    let mean_events = events / logs.len();

    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(mean_events as u64));
    let mut i = 0;
    g.bench_function("game_from_decoded_log", |b| {
        b.iter(|| {
            i = (i + 1) % logs.len();
            black_box(rebuild(&logs[i], &[]).unwrap().scores()[0])
        })
    });
    let mut i = 0;
    g.bench_function("game_from_bytes_decode_included", |b| {
        b.iter(|| {
            i = (i + 1) % bytes.len();
            let log = read_log(&bytes[i]).unwrap();
            black_box(rebuild(&log, &[]).unwrap().scores()[0])
        })
    });
    let mut i = 0;
    g.bench_function("timeline_fold_with_explanations", |b| {
        b.iter(|| {
            i = (i + 1) % logs.len();
            black_box(fold(logs[i].clone(), &[]).steps.len())
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
