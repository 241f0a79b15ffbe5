//! The rules engine's hot paths, over many distinct games (farmers on):
//! - `apply_event`: replaying recorded rule actions (draws, placements, meeples) onto a fresh
//!   game — the fold without any decoding — reported per event;
//! - `legal_placements`: enumerating one turn's legal placements, over 2,000 positions taken
//!   from 100 games at every stage;
//! - `random_game`: whole random games (shuffle, draw, enumerate, choose, apply, score),
//!   reported in games per second on one core;
//! - the same three with the 20th Anniversary expansion on (base + 15 arrow tiles), suffixed
//!   `_anniversary`; with The Gifts on (base tiles + 25 gift cards), suffixed `_gifts`;
//! - the same three on the Germany map (base tiles, 9 meeples, 2 start squares), suffixed
//!   `_germany`;
//! - the same three with The River (`_river`), Inns & Cathedrals (`_inns_cathedrals`) and both
//!   together (`_river_inns_cathedrals`);
//! - `playout_2_players`: a random playout (unseen tiles shuffled, then random players to the
//!   end) from positions waiting for a placement, taken at every stage of 50 two-player base
//!   games: the unit of work of the move-quality analysis.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use std::sync::Arc;

use carc_rules::{
    Action, Effects, Game, MapBoard, Options, Phase, Placement, Setup, TileSet, TileTypeId,
};
use carc_sim::{play, play_into, playout, Buffers, Strategy};

fn anniversary(players: u8) -> Setup {
    Setup {
        players,
        options: Options {
            anniversary: true,
            ..Options::default()
        },
        tiles: Arc::new(TileSet::combine(&[TileSet::base(), TileSet::anniversary()]).unwrap()),
        bag: None,
        map: None,
    }
}

fn germany(players: u8) -> Setup {
    Setup {
        players,
        options: Options {
            meeples: 9,
            ..Options::default()
        },
        tiles: Arc::new(TileSet::base()),
        bag: None,
        map: MapBoard::builtin_shared("germany"),
    }
}

fn gifts(players: u8) -> Setup {
    let mut setup = Setup::base(players);
    setup.options.gifts = true;
    setup
}

/// The River: base + the 12 river tiles, the river dealt first.
fn river(players: u8) -> Setup {
    Setup {
        players,
        options: Options {
            river: true,
            ..Options::default()
        },
        tiles: Arc::new(TileSet::combine(&[TileSet::base(), TileSet::river()]).unwrap()),
        bag: None,
        map: None,
    }
}

/// Inns & Cathedrals: base + the 18 tiles, the large meeple in play.
fn inns(players: u8) -> Setup {
    Setup {
        players,
        options: Options {
            inns_cathedrals: true,
            ..Options::default()
        },
        tiles: Arc::new(TileSet::combine(&[TileSet::base(), TileSet::inns_cathedrals()]).unwrap()),
        bag: None,
        map: None,
    }
}

/// The River and Inns & Cathedrals without Traders & Builders: what the third adds to them.
fn river_inns(players: u8) -> Setup {
    let mut setup = river_inns_traders(players);
    setup.options.traders_builders = false;
    setup.tiles = Arc::new(
        TileSet::combine(&[
            TileSet::base(),
            TileSet::river(),
            TileSet::inns_cathedrals(),
        ])
        .unwrap(),
    );
    setup
}

/// The three expansions of issue 34 together: base + The River + Inns & Cathedrals + Traders
/// & Builders (the river dealt first, the large meeple, the builder and the pig in play).
fn river_inns_traders(players: u8) -> Setup {
    Setup {
        players,
        options: Options {
            river: true,
            inns_cathedrals: true,
            traders_builders: true,
            ..Options::default()
        },
        tiles: Arc::new(
            TileSet::combine(&[
                TileSet::base(),
                TileSet::river(),
                TileSet::inns_cathedrals(),
                TileSet::traders_builders(),
            ])
            .unwrap(),
        ),
        bag: None,
        map: None,
    }
}

fn bench(c: &mut Criterion) {
    bench_with(c, "", Setup::base);
    bench_with(c, "_anniversary", anniversary);
    bench_with(c, "_germany", germany);
    bench_with(c, "_gifts", gifts);
    bench_with(c, "_river", river);
    bench_with(c, "_inns_cathedrals", inns);
    bench_with(c, "_river_inns_cathedrals", river_inns);
    bench_with(c, "_river_inns_traders", river_inns_traders);
    playouts(c);
}

fn playouts(c: &mut Criterion) {
    let mut fx = Effects::default();
    let mut positions: Vec<Game> = Vec::new();
    for seed in 0..50 {
        let sim = play(Setup::base(2), seed, &[Strategy::Random]).unwrap();
        let mut game = Game::new(Setup::base(2)).unwrap();
        for (k, a) in sim.actions.iter().enumerate() {
            game.apply(a, &mut fx).unwrap();
            if matches!(game.phase(), Phase::Place { .. }) && k % 5 == 0 {
                positions.push(game.clone());
            }
        }
    }
    let mut g = c.benchmark_group("rules");
    g.throughput(Throughput::Elements(1));
    let mut buffers = Buffers::default();
    let mut i = 0;
    g.bench_function("playout_2_players", |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            let scores = playout(
                &positions[i],
                None,
                i as u64,
                &[Strategy::Random],
                &mut buffers,
            )
            .unwrap();
            black_box(scores[0])
        })
    });
    g.finish();
    eprintln!("playout_2_players sampled {} positions", positions.len());
}

fn bench_with(c: &mut Criterion, suffix: &str, make: fn(u8) -> Setup) {
    let games: Vec<(u8, Vec<Action>)> = (0..200u64)
        .map(|seed| {
            let players = 2 + (seed % 5) as u8;
            (
                players,
                play(make(players), seed, &[Strategy::Random])
                    .unwrap()
                    .actions,
            )
        })
        .collect();
    let events: usize = games.iter().map(|g| g.1.len()).sum();

    let mut g = c.benchmark_group("rules");
    g.throughput(Throughput::Elements((events / games.len()) as u64));
    let setups: Vec<Setup> = games.iter().map(|(p, _)| make(*p)).collect();
    let mut fx = Effects::default();
    let mut i = 0;
    g.bench_function(format!("apply_event{suffix}"), |b| {
        b.iter(|| {
            i = (i + 1) % games.len();
            let mut game = Game::new(setups[i].clone()).unwrap();
            for a in &games[i].1 {
                game.apply(a, &mut fx).unwrap();
            }
            black_box(game.scores()[0])
        })
    });

    // Positions where a tile has been drawn, across whole games.
    let mut positions: Vec<(Game, TileTypeId)> = Vec::new();
    for (players, actions) in games.iter().take(100) {
        let mut game = Game::new(make(*players)).unwrap();
        for (k, a) in actions.iter().enumerate() {
            game.apply(a, &mut fx).unwrap();
            if let Phase::Place { tile } = game.phase() {
                if k % 7 == 0 {
                    positions.push((game.clone(), tile));
                }
            }
        }
    }
    g.throughput(Throughput::Elements(1));
    let mut out: Vec<Placement> = Vec::with_capacity(128);
    let mut i = 0;
    g.bench_function(format!("legal_placements{suffix}"), |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            let (game, tile) = &positions[i];
            game.legal_placements(*tile, &mut out);
            black_box(out.len())
        })
    });

    let mut buffers = Buffers::default();
    let mut actions = Vec::with_capacity(256);
    let mut seed = 0u64;
    let setup = make(4);
    g.bench_function(format!("random_game_4_players{suffix}"), |b| {
        b.iter(|| {
            seed += 1;
            let game = play_into(
                setup.clone(),
                seed,
                &[Strategy::Random],
                &mut buffers,
                &mut actions,
            )
            .unwrap();
            black_box(game.scores()[0])
        })
    });
    g.finish();
    eprintln!(
        "legal_placements{suffix} sampled {} positions",
        positions.len()
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
