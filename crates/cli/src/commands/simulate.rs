//! `carc simulate`: games played by seeded simulated players (`carc-sim`), written as logs
//! with their final scores as an assertion.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use carc_events::{record_actions, write_log, Assertion, Header, Source};
use carc_replay::describe::shown_name;
use carc_rules::{Game, MapBoard, TileSet};
use carc_sim::Strategy;
use clap::Args;

use crate::game_setup::{GameRules, RulesArgs};

/// How many games per worker may be played ahead of the one the progress count waits for.
const WINDOW_PER_THREAD: usize = 4;

#[derive(Args)]
pub struct SimulateArgs {
    /// Seed of the first game; game i of a batch uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of players (2 to 6).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    players: u8,
    /// Number of games; with more than one, --out is a folder.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Output file (one game) or folder (several games).
    #[arg(long)]
    out: PathBuf,
    /// Strategy per seat, comma-separated, cycled: random, greedy.
    #[arg(long, value_delimiter = ',', default_value = "random")]
    strategy: Vec<String>,
    /// Worker threads (default: every core). Each game is played from its own seed, so the
    /// files are the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    #[command(flatten)]
    rules: RulesArgs,
}

pub fn simulate(
    args: SimulateArgs,
    loaded: &[TileSet],
    map: Option<&Arc<MapBoard>>,
    quiet: bool,
) -> Result<ExitCode> {
    let strategies = args
        .strategy
        .iter()
        .map(|s| {
            Strategy::parse(s)
                .with_context(|| format!("unknown strategy {s:?}; expected random or greedy"))
        })
        .collect::<Result<Vec<_>>>()?;
    let rules = GameRules::build(&args.rules, loaded, map)?;
    if args.games > 1 {
        fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create folder {}", args.out.display()))?;
    }
    // File names carry the seed padded with zeros to the widest seed of the run, so that a
    // folder lists (and `import` reads) the games in seed order: game-s0999 before game-s1000.
    let width = (0..args.games)
        .map(|i| args.seed.wrapping_add(u64::from(i)).to_string().len())
        .max()
        .unwrap_or(1);
    let bar = crate::progress::bar(quiet || args.games < 2, u64::from(args.games), "games");
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    // Each worker plays a game and writes its file; this thread only counts them, in seed
    // order, and stops at the first game (by seed) that failed.
    let play = |i: usize| -> Result<String> {
        let seed = args.seed.wrapping_add(i as u64);
        let game = simulated_log(&rules, args.players, seed, &strategies)?;
        let path = if args.games > 1 {
            args.out.join(format!("game-s{seed:0width$}.jsonl"))
        } else {
            args.out.clone()
        };
        crate::output_file::write_whole(&path, game.text.as_bytes())?;
        Ok(game.result)
    };
    let mut result = String::new();
    carc_in_order::map_in_order(
        args.games as usize,
        threads,
        threads * WINDOW_PER_THREAD,
        play,
        |_, played| {
            bar.inc(1);
            result =
                played.map_err(|panicked| anyhow::anyhow!("{panicked}; please report it"))??;
            Ok::<(), anyhow::Error>(())
        },
    )?;
    bar.finish_and_clear();
    // One game's result is the verb's answer: who played it (each seat's strategy: a game of
    // random players reads very differently from one of greedy players) and how it ended.
    // A batch's results are in its files (`carc analyze DIR`), not a thousand lines here.
    if args.games == 1 {
        println!("{result}");
    }
    eprintln!(
        "carc: wrote {} game{} to {}",
        args.games,
        if args.games == 1 { "" } else { "s" },
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A simulated game: its log's text, and its result in words.
pub struct Simulated {
    pub text: String,
    /// `sim-s7-…: final scores Ada (random) 15, Brandt (greedy) 40`: each seat named with
    /// its strategy.
    pub result: String,
}

/// Plays one game and writes it as a log, with its final scores as an assertion.
pub fn simulated_log(
    rules: &GameRules,
    players: u8,
    seed: u64,
    strategies: &[Strategy],
) -> Result<Simulated> {
    // The seed and each seat's strategy (the list is cycled over the seats) as fields, for
    // tools; the comment says it in words.
    let source = Source::Simulated {
        seed,
        strategies: strategies
            .iter()
            .cycle()
            .take(usize::from(players))
            .map(|s| s.name().to_string())
            .collect(),
    };
    let comment = format!(
        "simulated by carc {}: seed {seed}, strategies {}",
        env!("CARGO_PKG_VERSION"),
        strategies
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut header = rules.header(String::new(), players, Some(source), Some(comment));
    header.game = simulated_game_id(&header, seed);
    let setup = rules.setup(players);
    let sim = carc_sim::play(setup.clone(), seed, strategies)?;
    let (mut log, game) = record_actions(header, Game::new(setup)?, &sim.actions)?;
    log.push_assertion(Assertion::ExpectFinalScores {
        scores: game.scores().to_vec(),
    });
    let seats: Vec<String> = game
        .scores()
        .iter()
        .zip(strategies.iter().cycle())
        .enumerate()
        .map(|(seat, (score, strategy))| {
            format!(
                "{} ({}) {score}",
                shown_name(&log.header, seat as u8),
                strategy.name()
            )
        })
        .collect();
    let result = format!("{}: final scores {}", log.header.game, seats.join(", "));
    Ok(Simulated {
        text: write_log(&log),
        result,
    })
}

/// The id of a simulated game: `sim-s<seed>-<setup>`, where `<setup>` is `game_setup::setup_digest` of
/// its header. Two simulations that differ in anything but the seed get different digits; the
/// same simulation always gets the same id (`docs/log-format.md`, "Game ids of simulated
/// games").
pub fn simulated_game_id(header: &Header, seed: u64) -> String {
    format!("sim-s{seed}-{}", crate::game_setup::setup_digest(header))
}
