//! The engine's speed, over positions taken at every stage of 2-player base games (greedy
//! seats): `search_nodes` is one search of 400 iterations on one thread (criterion reports it
//! per iteration: nodes per second on one core); `search_nodes_2_threads` the same 400
//! iterations split over two threads (the 1 → 2 thread speed-up); `greedy_playout` a playout to
//! the end with greedy players from the same positions (the playouts per second that a search
//! with greedy playouts would stand on); `read_outlook` the bag's reading of one position
//! (what `eval=outlook` adds to each leaf).

/// The allocator `carc` runs the engine with (crates/cli/src/main.rs), as in
/// examples/search_speed.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use carc_engine::{analyse, read_outlook, Budget, SearchOptions};
use carc_rules::{Game, Setup};
use carc_sim::{place_positions, playout, Buffers, Strategy};

/// Positions waiting for a placement, every 9th turn of 6 greedy games.
fn positions() -> Vec<Game> {
    let mut out = Vec::new();
    for seed in 0..6 {
        let positions = place_positions(&Setup::base(2), 1000 + seed, &[Strategy::Greedy]).unwrap();
        out.extend(
            positions
                .into_iter()
                .enumerate()
                .filter(|(turn, p)| turn % 9 == 4 && p.fits)
                .map(|(_, p)| p.game),
        );
    }
    out
}

const NODES: u64 = 400;

fn search(c: &mut Criterion) {
    let positions = positions();
    for (name, threads) in [("search_nodes", 1), ("search_nodes_2_threads", 2)] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.throughput(Throughput::Elements(NODES * positions.len() as u64));
        group.bench_function("2p_base", |b| {
            b.iter(|| {
                for (i, g) in positions.iter().enumerate() {
                    let options = SearchOptions {
                        budget: Budget::Nodes(NODES),
                        threads,
                        seed: i as u64,
                        ..SearchOptions::default()
                    };
                    black_box(analyse(g, &options).unwrap());
                }
            })
        });
        group.finish();
    }
    let mut group = c.benchmark_group("greedy_playout");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("2p_base", |b| {
        let mut buffers = Buffers::default();
        b.iter(|| {
            for (i, g) in positions.iter().enumerate() {
                black_box(playout(g, None, i as u64, &[Strategy::Greedy], &mut buffers).unwrap());
            }
        })
    });
    group.finish();
    let mut group = c.benchmark_group("read_outlook");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("2p_base", |b| {
        b.iter(|| {
            for g in &positions {
                black_box(read_outlook(g));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
