//! `carc`: the command-line face of the toolkit. Wiring and formatting only: the rules,
//! the log format and the fold live in their crates.

mod board_text;
mod commands;
mod json;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "carc", version, about = "Replay, check and explain Carcassonne games", long_about = None)]
struct Cli {
    /// A tile-set file to use instead of the built-in set of the same name (repeatable).
    #[arg(long = "tiles", value_name = "FILE", global = true)]
    tiles: Vec<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play games with simulated players and write their logs.
    Simulate(commands::SimulateArgs),
    /// Validate whole logs; exit 0 only if every file is legal and its assertions hold.
    Check(commands::CheckArgs),
    /// Show the board and scores after event N.
    Replay(commands::AtArgs),
    /// Explain what event N did and why, with every score's breakdown, or the ruling that rejects it.
    Explain(commands::AtArgs),
    /// List every legal move after event N.
    Legal(commands::AtArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = commands::load_tile_sets(&cli.tiles).and_then(|sets| match cli.command {
        Command::Simulate(a) => commands::simulate(a, &sets),
        Command::Check(a) => commands::check(a, &sets),
        Command::Replay(a) => commands::replay(a, &sets),
        Command::Explain(a) => commands::explain(a, &sets),
        Command::Legal(a) => commands::legal(a, &sets),
    });
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("carc: {e:#}");
            ExitCode::from(2)
        }
    }
}
