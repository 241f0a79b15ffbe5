//! How long an exact ending takes (docs/benchmarks.md, "Exact endings"): for each of N
//! 2-player base games played by greedy seats (seeds 700 onward; default 20 games), the
//! position with T tiles left in the bag (default 3) is solved on one thread. Prints, per
//! position, the positions visited, the time and the best move's chance to win, then the mean
//! and the slowest.
//!
//! `cargo run --release -p carc-engine --example ending_speed -- 3 20`

/// The allocator `carc` runs the engine with (crates/cli/src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

use carc_engine::solve_ending;
use carc_rules::Setup;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let tiles: u32 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(3);
    let games: u64 = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(20);
    let players: u8 = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(2);
    let mut times = Vec::new();
    for seed in 700..700 + games {
        let positions =
            carc_sim::place_positions(&Setup::base(players), seed, &[carc_sim::Strategy::Greedy])
                .expect("a simulated game");
        // The first position with `tiles` tiles left whose tile fits somewhere.
        let Some(p) = positions
            .into_iter()
            .find(|p| p.fits && p.game.bag_left() == tiles)
        else {
            println!("seed {seed}: no position with {tiles} tiles left");
            continue;
        };
        let start = Instant::now();
        let ending = solve_ending(&p.game, tiles, u64::MAX).expect("a solvable ending");
        let took = start.elapsed().as_secs_f64();
        let ending = ending.expect("solved within an unlimited budget");
        times.push(took);
        println!(
            "seed {seed}: {} moves, {} positions, {:.3} s, best wins {:.3}, margin {:+.2}",
            ending.moves.len(),
            ending.nodes,
            took,
            ending.best().win,
            ending.best().margin
        );
    }
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let slowest = times.iter().copied().fold(0.0, f64::max);
    println!(
        "{} positions with {tiles} tiles left: mean {mean:.3} s, slowest {slowest:.3} s",
        times.len()
    );
}
