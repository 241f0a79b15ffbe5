//! Rebuilding games from their logs, over 200 distinct simulated games (farmers on, 2–6
//! players): per game and per event, with decoding excluded and included, and the full
//! timeline fold the viewer and CLI use; the same with the 20th Anniversary expansion on
//! (group `rebuild_anniversary`) and with The Gifts on (group `rebuild_gifts`).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use carc_events::{
    read_log, record_actions, setup_from_header, write_log, Color, Header, Log, Player,
    RulesOptions,
};
use carc_replay::{fold, rebuild};
use carc_rules::{Game, Setup};
use carc_sim::Strategy;

fn games(anniversary: bool, gifts: bool) -> Vec<Log> {
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
                comment: None,
            };
            if anniversary {
                header.rules.expansions = vec!["anniversary".into()];
                header.tile_sets.push("anniversary".into());
            }
            if gifts {
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
    bench_with(c, "rebuild", false, false);
    bench_with(c, "rebuild_anniversary", true, false);
    bench_with(c, "rebuild_gifts", false, true);
}

fn bench_with(c: &mut Criterion, group: &str, anniversary: bool, gifts: bool) {
    let logs = games(anniversary, gifts);
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
