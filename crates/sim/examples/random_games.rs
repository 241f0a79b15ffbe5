//! Plays fixed-seed random 4-player games and prints the sum of the scores: a small, quiet
//! target for `valgrind --tool=callgrind` (instruction counts of the rules' hot paths without
//! the log writing of `carc simulate`). `docs/benchmarks.md` gives the commands.
//!
//! Usage: `random_games [GAMES] [EXPANSIONS] [STRATEGY]`, EXPANSIONS comma-separated from
//! `river`, `inns_cathedrals`, `traders_builders` (default, or `base`: the base game); STRATEGY
//! `random` (default) or `greedy` for every seat (the greedy player's move listing is what the
//! engine's rollouts pay for).

use std::sync::Arc;

use carc_rules::{Options, Setup, TileSet};
use carc_sim::{play_into, Buffers, Strategy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().map_or(Ok(50), |s| s.parse())?;
    let expansions = args.next().unwrap_or_default();
    let strategy = match args.next().as_deref() {
        None | Some("random") => Strategy::Random,
        Some("greedy") => Strategy::Greedy,
        Some(other) => return Err(format!("unknown strategy {other:?}").into()),
    };
    let mut options = Options::default();
    let mut sets = vec![TileSet::base()];
    for name in expansions.split(',').filter(|s| !s.is_empty()) {
        match name {
            "base" => {}
            "river" => {
                options.river = true;
                sets.push(TileSet::river());
            }
            "inns_cathedrals" => {
                options.inns_cathedrals = true;
                sets.push(TileSet::inns_cathedrals());
            }
            "traders_builders" => {
                options.traders_builders = true;
                sets.push(TileSet::traders_builders());
            }
            other => return Err(format!("unknown expansion {other:?}").into()),
        }
    }
    let setup = Setup {
        players: 4,
        options,
        tiles: Arc::new(TileSet::combine(&sets)?),
        bag: None,
        map: None,
    };
    let mut buffers = Buffers::default();
    let mut actions = Vec::with_capacity(256);
    let mut total = 0u64;
    for seed in 1..=games {
        let game = play_into(setup.clone(), seed, &[strategy], &mut buffers, &mut actions)?;
        total += game.scores().iter().map(|&s| u64::from(s)).sum::<u64>();
    }
    println!("{total}");
    Ok(())
}
