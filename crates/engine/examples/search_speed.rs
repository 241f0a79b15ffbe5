//! How long one search takes, whole positions at a time (docs/benchmarks.md, "The engine"):
//! the engine at N nodes (default 2,000) on T threads (default 1) over 48 positions taken every
//! 6th turn of four 2-player base games played by greedy seats (seeds 500-503). Prints the mean
//! time per move and the iterations per second.
//!
//! A third argument sets other options in the engine's spec (`rollout=2,top=3`).
//!
//! `cargo run --release -p carc-engine --example search_speed -- 2000 1 rollout=2`

/// The allocator `carc` runs the engine with (crates/cli/src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use carc_engine::{analyse, Budget, SearchOptions};
use carc_rules::Setup;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nodes: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(2_000);
    let threads: usize = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(1);
    let spec = args.get(3).map_or("", String::as_str);
    let base = SearchOptions::from_spec(spec).unwrap_or_else(|e| panic!("{e}"));
    let mut positions = Vec::new();
    for seed in 0..4 {
        let strategies = [carc_sim::Strategy::Greedy];
        let all = carc_sim::place_positions(&Setup::base(2), 500 + seed, &strategies)
            .expect("a simulated game");
        positions.extend(
            all.into_iter()
                .enumerate()
                .filter(|(turn, p)| turn % 6 == 0 && p.fits)
                .map(|(_, p)| p.game),
        );
    }
    let started = std::time::Instant::now();
    let mut iterations = 0;
    for (i, game) in positions.iter().enumerate() {
        let options = SearchOptions {
            budget: Budget::Nodes(nodes),
            threads,
            seed: i as u64,
            ..base.clone()
        };
        iterations += analyse(game, &options).expect("a search").nodes;
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "{} positions, {nodes} nodes each, {threads} thread(s), {spec:?}: {:.1} ms a move, {:.0} iterations a second",
        positions.len(),
        1000.0 * elapsed / positions.len() as f64,
        iterations as f64 / elapsed
    );
}
