//! The base-game hot paths of the benches, as a plain program for instruction counting
//! (`valgrind --tool=callgrind`), where criterion's wall clock is too noisy on a shared
//! machine. Each `measured_*` function does the work of one bench over many distinct games;
//! the preparation (simulating the games, recording their logs) is outside them, so count
//! only inside with `--collect-atstart=no --toggle-collect='*measured_*'`:
//!
//! ```text
//! cargo build --release -p carc-replay --example hot_paths
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured_apply*' \
//!     target/release/examples/hot_paths apply
//! ```
//!
//! Modes: `apply` (200 games' actions applied on fresh games, as `rules/apply_event`),
//! `legal` (legal placements at 1,003 positions of 100 games, as `rules/legal_placements`),
//! `random` (200 random 4-player games, as `rules/random_game_4_players`), `rebuild` (200
//! games rebuilt from decoded logs, as `rebuild/game_from_decoded_log`), and `random_abbot`,
//! `rebuild_abbot`: the same two with The Abbot (garden copies, abbot moves), to compare with
//! the base game. It prints the work done (events, positions, games) so the counts can be
//! divided.

use std::hint::black_box;

use carc_events::{record_actions, setup_from_header, Color, Header, Log, Player, RulesOptions};
use carc_replay::rebuild;
use carc_rules::{Action, Effects, Game, Phase, Placement, Setup, TileTypeId};
use carc_sim::{play, play_into, Buffers, Strategy};

const GAMES: u64 = 200;

fn games() -> Vec<(u8, Vec<Action>)> {
    (0..GAMES)
        .map(|seed| {
            let players = 2 + (seed % 5) as u8;
            let sim = play(Setup::base(players), seed, &[Strategy::Random]).unwrap();
            (players, sim.actions)
        })
        .collect()
}

#[inline(never)]
fn measured_apply(games: &[(u8, Vec<Action>)], setups: &[Setup]) -> u32 {
    let mut fx = Effects::default();
    let mut sum = 0;
    for ((_, actions), setup) in games.iter().zip(setups) {
        let mut game = Game::new(setup.clone()).unwrap();
        for a in actions {
            game.apply(a, &mut fx).unwrap();
        }
        sum += black_box(game.scores()[0]);
    }
    sum
}

#[inline(never)]
fn measured_legal(positions: &[(Game, TileTypeId)]) -> usize {
    let mut out: Vec<Placement> = Vec::with_capacity(128);
    let mut sum = 0;
    for (game, tile) in positions {
        game.legal_placements(*tile, &mut out);
        sum += black_box(out.len());
    }
    sum
}

#[inline(never)]
fn measured_random(setup: &Setup) -> u32 {
    let mut buffers = Buffers::default();
    let mut actions = Vec::with_capacity(256);
    let mut sum = 0;
    for seed in 1..=GAMES {
        let game = play_into(
            setup.clone(),
            seed,
            &[Strategy::Random],
            &mut buffers,
            &mut actions,
        )
        .unwrap();
        sum += black_box(game.scores()[0]);
    }
    sum
}

#[inline(never)]
fn measured_rebuild(logs: &[Log]) -> u32 {
    let mut sum = 0;
    for log in logs {
        sum += black_box(rebuild(log, &[]).unwrap().scores()[0]);
    }
    sum
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    match mode.as_str() {
        "apply" => {
            let games = games();
            let setups: Vec<Setup> = games.iter().map(|(p, _)| Setup::base(*p)).collect();
            let events: usize = games.iter().map(|g| g.1.len()).sum();
            let sum = measured_apply(&games, &setups);
            println!("apply: {} games, {events} events ({sum})", games.len());
        }
        "legal" => {
            let mut fx = Effects::default();
            let mut positions = Vec::new();
            for (players, actions) in games().iter().take(100) {
                let mut game = Game::new(Setup::base(*players)).unwrap();
                for (k, a) in actions.iter().enumerate() {
                    game.apply(a, &mut fx).unwrap();
                    if let Phase::Place { tile } = game.phase() {
                        if k % 7 == 0 {
                            positions.push((game.clone(), tile));
                        }
                    }
                }
            }
            let sum = measured_legal(&positions);
            println!("legal: {} positions ({sum})", positions.len());
        }
        "random" => {
            let sum = measured_random(&Setup::base(4));
            println!("random: {GAMES} games ({sum})");
        }
        "random_abbot" => {
            let mut setup = Setup::base(4);
            setup.tiles = std::sync::Arc::new(setup.tiles.with_gardens());
            setup.options.abbot = true;
            let sum = measured_random(&setup);
            println!("random_abbot: {GAMES} games ({sum})");
        }
        "rebuild" | "rebuild_abbot" => {
            let abbot = mode == "rebuild_abbot";
            let logs: Vec<Log> = (0..GAMES)
                .map(|seed| {
                    let players = 2 + (seed % 5) as u8;
                    let header = Header {
                        game: format!("bench-{seed}"),
                        players: (0..players as usize)
                            .map(|i| Player {
                                name: format!("P{i}"),
                                color: Color::ALL[i],
                            })
                            .collect(),
                        rules: RulesOptions {
                            expansions: if abbot { vec!["abbot".into()] } else { vec![] },
                            ..RulesOptions::default()
                        },
                        tile_sets: vec!["base".into()],
                        bag: None,
                        source: None,
                        comment: None,
                    };
                    let setup = || -> Setup { setup_from_header(&header, &[]).unwrap() };
                    let sim = play(setup(), seed, &[Strategy::Random]).unwrap();
                    record_actions(header.clone(), Game::new(setup()).unwrap(), &sim.actions)
                        .unwrap()
                        .0
                })
                .collect();
            let events: usize = logs.iter().map(|l| l.events.len()).sum();
            let sum = measured_rebuild(&logs);
            println!("{mode}: {} games, {events} events ({sum})", logs.len());
        }
        _ => eprintln!("usage: hot_paths apply|legal|random|rebuild|random_abbot|rebuild_abbot"),
    }
}
