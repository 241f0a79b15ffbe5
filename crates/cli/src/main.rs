//! `carc`: the command-line face of the toolkit. Wiring and formatting only: the rules,
//! the log format, the fold and the store live in their crates.

/// mimalloc rather than glibc's malloc: the bulk verbs allocate on worker threads and free on
/// others (a game's rows on the writer's lanes, its events after the store's commit), which
/// glibc serves with a lock per arena and trims with `mprotect`; its malloc and free were a
/// third of their CPU time (docs/benchmarks.md, "The second core (2026-11-27)").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// First, so that its `println!` family replaces std's in every module below.
#[macro_use]
mod terminal;

mod at_args;
mod board_text;
mod commands;
mod companions;
mod engine_client;
mod engine_protocol;
mod exit_code;
mod game_setup;
mod game_summary;
mod input;
mod json;
mod log_problem;
mod match_stats;
mod output_file;
mod progress;
mod quality;
mod rules_files;
mod store_context;
mod store_import;
mod timings;
mod variation_report;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use commands::{
    analyze, annotate, check, completions, engine, explain, export, games, import, legal, map,
    match_, puzzles, rebuild, record, render, replay, salvage, simulate, tiles, train, variation,
    verify,
};
use store_context::Ctx;

#[derive(Parser)]
#[command(name = "carc", version, about = "Replay, check and explain Carcassonne games", long_about = None)]
struct Cli {
    /// A tile-set file to use instead of the built-in set of the same name (repeatable).
    #[arg(long = "tiles", value_name = "FILE", global = true)]
    tiles: Vec<PathBuf>,
    /// A map board: a built-in name (germany) or a map file, which then replaces the built-in
    /// map of the same name for every log read (repeatable). `simulate` and `match` play on the last one.
    #[arg(long = "map", value_name = "NAME|FILE", global = true)]
    map: Vec<String>,
    /// The store folder (created on first use). Default: $CARC_STORE, else ./carc-store.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// Less chatter on stderr (no progress bar, no notes). Results on stdout are unchanged.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// More chatter on stderr (one note per file or move). Results on stdout are unchanged.
    #[arg(short, long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play games with simulated players and write their logs.
    Simulate(simulate::SimulateArgs),
    /// Play two players against each other over seeded pairs of games (seats swapped) and report the win rate, margin and Elo difference.
    Match(match_::MatchArgs),
    /// Learn the engine's value weights (eval=outlook) by self-play and write them as a weights file with their provenance.
    Train(train::TrainArgs),
    /// Our engine as the server of the engine protocol on stdin and stdout (docs/engine-protocol.md).
    Engine(engine::EngineArgs),
    /// Validate whole logs; exit 0 only if every file is legal and its assertions hold.
    Check(check::CheckArgs),
    /// Show the board and scores after event N (FILE may be a stored game id).
    Replay(at_args::AtArgs),
    /// Explain what event N did and why, with every score's breakdown, or the ruling that rejects it (FILE may be a stored game id).
    Explain(at_args::AtArgs),
    /// List every legal move after event N (FILE may be a stored game id).
    Legal(at_args::AtArgs),
    /// Validate logs (or JCloisterZone .jcz saved games, or Board Game Arena replays) and store them; exit 0 only if none was rejected.
    Import(import::ImportArgs),
    /// List the stored games: players, events, turns, finished or not, winners and scores.
    Games(games::GamesArgs),
    /// Write a game with its annotations and variations (a bundle; the stored lines byte-identical), a JCloisterZone saved game, or a report (Markdown, HTML).
    Export(export::ExportArgs),
    /// Check the store and replay every stored game; exit 0 only if all is well.
    Verify(verify::VerifyArgs),
    /// Write every game, annotation and variation still readable in a damaged store as bundles in a folder, and say what could not be read; the damaged store is never written to.
    Salvage(salvage::SalvageArgs),
    /// Recreate the store from a folder of JSON Lines logs (`*.jsonl`), JCloisterZone saved games (`*.jcz`) and Board Game Arena replays (`*.json`).
    Rebuild(rebuild::RebuildArgs),
    /// Post-game statistics of a game (points by source, meeples, notable moments), or of a folder of games.
    Analyze(analyze::AnalyzeArgs),
    /// A player's mistakes (? and ??) as puzzles to solve again: JSON Lines or one HTML page.
    Puzzles(puzzles::PuzzlesArgs),
    /// Draw the board after event N as a picture: SVG or PNG, by the extension of --out (FILE may be a stored game id).
    Render(render::RenderArgs),
    /// Write a comment and a glyph on an event, beside the game (FILE.annotations.jsonl, or the store for a stored game).
    Annotate(annotate::AnnotateArgs),
    /// What-if variations beside a game: add from a file of moves, list, show, delete, promote.
    #[command(subcommand)]
    Variation(variation::VariationCmd),
    /// Enter a game move by move into the store: a verb per move, or with GAME alone the record
    /// shell (a prompt that keeps the store open, with Tab completion of the legal moves).
    Record(record::RecordArgs),
    /// Tile-set files.
    #[command(subcommand)]
    Tiles(TilesCmd),
    /// Map-board files (Carcassonne Maps).
    #[command(subcommand, name = "map")]
    MapFile(MapCmd),
    /// Print a shell completion script.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Subcommand)]
enum MapCmd {
    /// Validate a map file (the checks every load runs) and summarise it; exit 0 only if valid.
    Check(map::MapCheckArgs),
}

#[derive(Subcommand)]
enum TilesCmd {
    /// Validate a tile-set file (the checks every load runs); exit 0 only if it is valid.
    Check(tiles::TilesCheckArgs),
}

fn main() -> ExitCode {
    exit_code::quiet_on_broken_pipe();
    // `println!` to a closed stdout panics; the hook kept quiet about it and the unwinding
    // (which removes temporary files) ends here with the documented code.
    match std::panic::catch_unwind(run) {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            let (code, print) = exit_code::for_error(&e);
            if print {
                eprintln!("carc: {e:#}");
            }
            ExitCode::from(code)
        }
        Err(payload) if exit_code::panic_is_broken_pipe(payload.as_ref()) => {
            ExitCode::from(exit_code::BROKEN_PIPE)
        }
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

fn run() -> Result<ExitCode> {
    let started = std::time::Instant::now();
    let args: Vec<OsString> = std::env::args_os().collect();
    let matches = Cli::command().get_matches_from(&args);
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let mut ctx = Ctx::new(cli.store.clone(), cli.quiet, cli.verbose);
    // Named while it holds the store: "carc import", "carc record draw".
    ctx.holder = match matches.subcommand() {
        Some((verb, sub)) => match sub.subcommand_name() {
            Some(inner) => format!("carc {verb} {inner}"),
            None => format!("carc {verb}"),
        },
        None => "carc".into(),
    };
    // Kept alive until the verb has run: holds a stored game exported for replay/explain/legal.
    let mut _exported: Option<tempfile::TempDir> = None;
    if let Some((args, dir)) = stored_game_argv(&ctx, &args, &matches)? {
        cli = Cli::parse_from(args);
        _exported = Some(dir);
    }
    let sets = rules_files::load_tile_sets(&cli.tiles)?;
    let map = rules_files::load_maps(&cli.map)?;
    let verb = matches.subcommand_name().unwrap_or("carc").to_string();
    let code = match cli.command {
        Command::Simulate(a) => simulate::simulate(a, &sets, map.as_ref(), ctx.quiet),
        Command::Match(a) => match_::run_match(a, &sets, map.as_ref(), ctx.quiet),
        Command::Engine(a) => engine::engine(a, &sets),
        Command::Train(a) => train::run(a, ctx.quiet),
        Command::Check(a) => check::check(a, &sets, ctx.quiet),
        Command::Replay(a) => replay::replay(a, &sets),
        Command::Explain(a) => explain::explain(a, &sets),
        Command::Legal(a) => legal::legal(a, &sets),
        Command::Import(a) => import::import(&ctx, a, &sets),
        Command::Games(a) => games::games(&ctx, a, &sets),
        Command::Export(a) => export::export(&ctx, a, &sets),
        Command::Verify(a) => verify::verify(&ctx, a, &sets),
        Command::Rebuild(a) => rebuild::rebuild(&ctx, a, &sets),
        Command::Salvage(a) => salvage::salvage(&ctx, a),
        Command::Record(c) => record::record(&ctx, c, &sets, map.as_ref()),
        Command::Annotate(a) => annotate::annotate(&ctx, a),
        Command::Variation(c) => variation::run(&ctx, c, &sets),
        Command::Render(a) => render::render(&ctx, a, &sets),
        Command::Analyze(a) => analyze::run(&ctx, a, &sets),
        Command::Puzzles(a) => puzzles::run(&ctx, a, &sets),
        Command::Tiles(TilesCmd::Check(a)) => tiles::tiles_check(a),
        Command::MapFile(MapCmd::Check(a)) => map::map_check(a),
        Command::Completions { shell } => completions::completions(shell, &mut Cli::command()),
    };
    if timings::wanted() {
        timings::report(&verb, started);
    }
    code
}

/// `replay`, `explain` and `legal` take a FILE. If FILE is not an existing path but the store
/// (when its folder exists) holds a game with that id, the game's effective log is exported to
/// a temporary file and the command line is parsed again with that file in FILE's place.
/// Returns the new arguments and the temporary folder (deleted when dropped).
fn stored_game_argv(
    ctx: &Ctx,
    args: &[OsString],
    matches: &clap::ArgMatches,
) -> Result<Option<(Vec<OsString>, tempfile::TempDir)>> {
    let Some(("replay" | "explain" | "legal", sub)) = matches.subcommand() else {
        return Ok(None);
    };
    let Some(file) = sub.get_one::<PathBuf>("file") else {
        return Ok(None);
    };
    if file.exists() {
        return Ok(None);
    }
    let Some(game) = file.to_str() else {
        return Ok(None);
    };
    let Some(bytes) = store_context::stored_log_bytes(ctx, game)? else {
        return Ok(None);
    };
    let dir = tempfile::Builder::new().prefix("carc-").tempdir()?;
    let safe: String = game
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.path().join(format!("{safe}.jsonl"));
    std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    // The positional FILE is the argument equal to it that is not the value of an option.
    let takes_value = ["--at", "--tiles", "--map", "--store"];
    let at = (1..args.len())
        .find(|&i| args[i] == *file.as_os_str() && !takes_value.iter().any(|o| args[i - 1] == *o));
    let Some(at) = at else {
        return Ok(None);
    };
    let mut args = args.to_vec();
    args[at] = path.into_os_string();
    ctx_debug(ctx, game);
    Ok(Some((args, dir)))
}

fn ctx_debug(ctx: &Ctx, game: &str) {
    if ctx.verbose {
        eprintln!(
            "carc: {game} is not a file; using the stored game {game} from {}",
            ctx.store_dir.display()
        );
    }
}
