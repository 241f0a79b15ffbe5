//! `carc export`: a game (a stored game or a file) as a bundle, its lines alone, a
//! JCloisterZone saved game, or a Markdown or HTML report; or many games as Parquet tables.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use carc_archive::read_game;
use carc_events::write_log;
use carc_replay::{fold, Timeline};
use carc_rules::TileSet;
use clap::{Args, ValueEnum};

use crate::companions::{bundle_tail, Annotated, Home};
use crate::quality::{quality_extras, quality_of, QualityArgs};
use crate::store_context::Ctx;
use crate::variation_report::report_sections;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The JSON Lines log format (docs/log-format.md).
    Jsonl,
    /// A JCloisterZone saved game (docs/jcz.md): the base game, the Abbot, the River, Inns & Cathedrals,
    /// Traders & Builders.
    Jcz,
    /// A turn-by-turn report in Markdown, with every score's breakdown and the annotations.
    Md,
    /// The game as one self-contained web page to step through (board, moves, scores, graph);
    /// with --static, the report as a page without script, with board pictures.
    Html,
    /// Many games as Parquet tables in the folder `--out DIR` (docs/tables.md).
    Parquet,
}

#[derive(Args)]
pub struct ExportArgs {
    /// The game: a stored game id (the header's `game`), or a log or `.jcz` file. With
    /// `--format parquet`: also a folder of game files.
    #[arg(value_name = "GAME|FILE", required_unless_present = "all")]
    game: Option<String>,
    /// `--format parquet` only: more stored games, files and folders.
    #[arg(value_name = "MORE", requires = "game")]
    more: Vec<String>,
    /// `--format parquet` only: every stored game (with the games, files and folders given).
    #[arg(long)]
    all: bool,
    /// `--format parquet` only: worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    format: ExportFormat,
    /// Write to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Every stored line, retracted lines and retraction records included (an audit view; not
    /// a valid log when the game has retractions). Stored games in the jsonl format only.
    #[arg(long, conflicts_with = "game_only")]
    raw: bool,
    /// The game alone: a jsonl export without the annotation and variation lines it otherwise
    /// ends with (a bundle); a report without the annotations and the variations.
    #[arg(long)]
    game_only: bool,
    #[command(flatten)]
    quality: QualityArgs,
    /// HTML only: board pictures after `every` turn (the default), after the turns listed
    /// (`3,10,25`; 0 is the start tile), or `none`; the static page's (implies --static).
    #[arg(long, value_name = "every|none|N,M,...")]
    boards: Option<String>,
    /// HTML only: the static report (no script; a board picture after each turn) instead of
    /// the page to step through.
    #[arg(long = "static")]
    static_page: bool,
}

/// `--boards`: `every`, `none`, or a comma-separated list of turn numbers.
fn parse_boards(value: &str) -> Result<carc_report::Boards> {
    let value = value.trim();
    match value {
        "every" => return Ok(carc_report::Boards::EveryTurn),
        "none" => return Ok(carc_report::Boards::None),
        _ => {}
    }
    let mut turns = std::collections::BTreeSet::new();
    for part in value.split(',') {
        let turn = part.trim().parse::<u32>().map_err(|_| {
            anyhow::anyhow!(
                "--boards {value:?}: expected every, none or turn numbers like 3,10,25 (not {:?})",
                part.trim()
            )
        })?;
        turns.insert(turn);
    }
    Ok(carc_report::Boards::Turns(turns))
}

/// A report's format and, for the static HTML page, which boards to draw.
enum Report {
    Md,
    Html(carc_report::HtmlOptions),
    Interactive,
}

/// The bytes to export: a game (a stored game's lines as stored) with its annotations and
/// variations, or its lines alone, or the game in another format.
fn export_bytes(ctx: &Ctx, args: &ExportArgs, loaded: &[TileSet]) -> Result<Vec<u8>> {
    if args.all || !args.more.is_empty() || args.threads.is_some() {
        bail!("--all, --threads and more than one game go with --format parquet only");
    }
    let Some(game_arg) = args.game.as_deref() else {
        bail!("name the game to export: a stored game id or a file");
    };
    if args.raw && args.format != ExportFormat::Jsonl {
        bail!("--raw shows the stored lines; it goes with --format jsonl only");
    }
    if args.game_only && args.format == ExportFormat::Jcz {
        bail!("--game-only leaves out annotations and variations; jcz has neither");
    }
    if args.quality.quality
        && !matches!(
            args.format,
            ExportFormat::Md | ExportFormat::Html | ExportFormat::Parquet
        )
    {
        bail!("--quality judges the moves for a report or the tables; it goes with --format md, html or parquet only");
    }
    let kind = report_kind(args)?;
    // A file path that exists is a file; anything else is a stored game id.
    let is_file = crate::input::names_a_file(Path::new(game_arg));
    if args.raw {
        if is_file {
            bail!("--raw is for stored games; {game_arg} is a file");
        }
        let store = ctx.open_for_stored_game(game_arg)?;
        let sg = read_game(&store, game_arg)?.ok_or_else(|| ctx.no_game(game_arg))?;
        return Ok(sg.raw_bytes());
    }
    let game = Annotated::open(ctx, game_arg)?;
    Ok(match args.format {
        ExportFormat::Jsonl => {
            let mut bytes = match &game.home {
                Home::File(_) => write_log(&game.log).into_bytes(),
                // Exactly the stored lines (retracted ones left out).
                Home::Store { store, game: id } => read_game(store, id)?
                    .ok_or_else(|| ctx.no_game(id))?
                    .effective_bytes()?,
            };
            if !args.game_only {
                let tail = bundle_tail(&game.annotations(ctx), &game.variations(ctx));
                bytes.extend_from_slice(tail.as_bytes());
            }
            bytes
        }
        // Handled by `parquet` before any game is read.
        ExportFormat::Parquet => bail!("--format parquet writes a folder of tables"),
        ExportFormat::Jcz => carc_jcz::write(&game.log)
            .with_context(|| format!("game {game_arg}"))?
            .into_bytes(),
        ExportFormat::Md | ExportFormat::Html => {
            let (annotations, variations) = if args.game_only {
                Default::default()
            } else {
                (game.annotations(ctx), game.variations(ctx))
            };
            let timeline = fold(game.log, loaded);
            let extras = report_sections(&timeline, &variations, loaded);
            report(ctx, &timeline, &annotations, extras, kind, args)?
        }
    })
}

/// The report the arguments ask for (checked before any game is read).
fn report_kind(args: &ExportArgs) -> Result<Report> {
    match (args.format, &args.boards) {
        (ExportFormat::Html, None) if !args.static_page => Ok(Report::Interactive),
        (ExportFormat::Html, boards) => Ok(Report::Html(carc_report::HtmlOptions {
            boards: boards
                .as_deref()
                .map(parse_boards)
                .transpose()?
                .unwrap_or_default(),
        })),
        (_, Some(_)) => bail!("--boards chooses the board pictures of --format html only"),
        (_, None) if args.static_page => bail!("--static chooses the page of --format html only"),
        (_, None) => Ok(Report::Md),
    }
}

/// The Markdown or HTML report of a replayed game with the annotations in force, the
/// `extras` given (the variations) and, when asked for, the move quality (after the cheap
/// checks, as it takes seconds).
fn report(
    ctx: &Ctx,
    timeline: &Timeline,
    annotations: &std::collections::BTreeMap<u64, carc_events::annotation::Annotation>,
    mut extras: carc_report::Extras,
    kind: Report,
    args: &ExportArgs,
) -> Result<Vec<u8>> {
    if let Report::Html(carc_report::HtmlOptions {
        boards: carc_report::Boards::Turns(turns),
    }) = &kind
    {
        let last = timeline.steps.last().map_or(0, |s| s.turn);
        if let Some(t) = turns.iter().find(|&&t| t > last) {
            bail!(
                "--boards: there is no turn {t}; game {} has turns 0 to {last}",
                timeline.log.header.game
            );
        }
    }
    if args.quality.quality {
        let options = args.quality.options(None);
        let quality = quality_extras(&quality_of(ctx, timeline, &options)?, timeline);
        extras.events.extend(quality.events);
        extras.sections.extend(quality.sections);
        extras.win_chart = quality.win_chart;
    }
    Ok(match kind {
        Report::Md => carc_report::markdown_with(timeline, annotations, &extras).into_bytes(),
        Report::Html(options) => {
            carc_report::html_with(timeline, annotations, &extras, &options).into_bytes()
        }
        Report::Interactive => {
            carc_report::interactive_html(timeline, annotations, &extras).into_bytes()
        }
    })
}

pub fn export(ctx: &Ctx, args: ExportArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    if args.format == ExportFormat::Parquet {
        return parquet(ctx, &args, loaded);
    }
    // A web page is hundreds of kilobytes of markup: on a terminal it is noise, never a report.
    // Piped or redirected, stdout takes it as before.
    if args.format == ExportFormat::Html && args.out.is_none() && io::stdout().is_terminal() {
        bail!(
            "--format html writes a web page, which a terminal cannot show: give --out FILE.html \
             (or redirect stdout: > FILE.html)"
        );
    }
    let bytes = export_bytes(ctx, &args, loaded)?;
    match &args.out {
        Some(path) => {
            crate::output_file::write_whole(path, &bytes)?;
            let game = args.game.as_deref().unwrap_or_default();
            ctx.info(format!("wrote game {game} to {}", path.display()));
        }
        None => {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            out.write_all(&bytes)?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A game for `--format parquet`: a file, or a stored game id.
enum Selected {
    File(PathBuf),
    Stored(String),
}

/// `--format parquet`: the games named (files, folders, stored ids; `--all`: every stored game)
/// replayed into tables by `carc-tables`, on every core, with a progress bar.
fn parquet(ctx: &Ctx, args: &ExportArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    if args.raw || args.game_only || args.boards.is_some() {
        bail!("--raw, --game-only and --boards go with the single-game formats, not parquet");
    }
    let Some(out) = &args.out else {
        bail!("--format parquet writes a folder of tables: give it with --out DIR");
    };
    let mut games = Vec::new();
    for target in args.game.iter().chain(&args.more) {
        let path = Path::new(target);
        if path.is_dir() {
            let files = crate::input::collect_files(&[path.to_path_buf()])?;
            games.extend(files.into_iter().map(Selected::File));
        } else if crate::input::names_a_file(path) {
            games.push(Selected::File(path.to_path_buf()));
        } else {
            games.push(Selected::Stored(target.clone()));
        }
    }
    let wants_store = args.all || games.iter().any(|g| matches!(g, Selected::Stored(_)));
    // A name that is neither a file nor a folder is a stored game; with no store folder it
    // is reported as a game that cannot be exported, and no store is created for it
    let store = if args.all || ctx.store_dir.is_dir() {
        wants_store.then(|| ctx.open_for_reading()).transpose()?
    } else {
        None
    };
    if let (true, Some(store)) = (args.all, &store) {
        games.extend(
            carc_archive::game_ids(store)?
                .into_iter()
                .map(Selected::Stored),
        );
    }
    let load_input = |i: usize| -> Result<carc_tables::GameInput, String> {
        match (&games[i], &store) {
            (Selected::File(file), _) => {
                // `Annotated::open` takes a name; a lossy one would be taken for a stored id.
                let name = file
                    .to_str()
                    .ok_or_else(|| "the file name is not valid UTF-8".to_string())?;
                let game = Annotated::open(ctx, name).map_err(|e| format!("{e:#}"))?;
                let mut input = carc_tables::GameInput::new(game.log.clone());
                if file
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("jcz"))
                {
                    input.origin = carc_tables::Origin::Jcz;
                }
                input.file = Some(file.display().to_string());
                input.annotations = game.annotations(ctx);
                input.variations = game.variations(ctx);
                Ok(input)
            }
            (Selected::Stored(id), Some(store)) => {
                stored_input(ctx, store, id).map_err(|e| format!("{e:#}"))
            }
            (Selected::Stored(_), None) => Err(format!(
                "no such file, and no store at {} to find a game of that id in",
                ctx.store_dir.display()
            )),
        }
    };
    // With --quality each game is judged on the worker that loads it, one thread a game (the
    // games are the parallel work).
    let judge = args.quality.quality.then(|| args.quality.options(Some(1)));
    let load = |i: usize| -> Result<carc_tables::GameInput, String> {
        let mut input = load_input(i)?;
        if let Some(options) = &judge {
            input.quality = Some(crate::quality::table_quality(&input.log, loaded, options)?);
        }
        Ok(input)
    };
    let bar = crate::progress::bar(ctx.quiet, games.len() as u64, "games");
    let options = carc_tables::ExportOptions {
        threads: args.threads.map(|t| t as usize),
        ..Default::default()
    };
    let summary =
        carc_tables::export_games(games.len(), load, loaded, out, &options, || bar.inc(1))?;
    bar.finish_and_clear();
    for skipped in &summary.skipped {
        let name = match &games[skipped.index] {
            Selected::File(file) => file.display().to_string(),
            Selected::Stored(id) => format!("stored game {id}"),
        };
        eprintln!("carc: {name}: cannot be exported: {}", skipped.why);
    }
    let tables: Vec<String> = summary
        .tables
        .iter()
        .map(|t| format!("{} {} rows", t.table.name(), t.rows))
        .collect();
    ctx.info(format!(
        "wrote {} games to {}: {}",
        summary.games,
        out.display(),
        tables.join(", ")
    ));
    Ok(crate::exit_code::exit_if(summary.skipped.is_empty()))
}

/// A stored game with its annotations and variations in force (records that cannot be read
/// are named on stderr and left out, as for a single game).
fn stored_input(ctx: &Ctx, store: &carc_store::Store, id: &str) -> Result<carc_tables::GameInput> {
    use carc_archive::{read_records, Companion};
    let log = read_game(store, id)?
        .ok_or_else(|| ctx.no_game(id))?
        .effective_log()?;
    let records = |kind| -> Result<Vec<String>> {
        Ok(read_records(store, kind, id)?
            .iter()
            .map(|r| String::from_utf8_lossy(r).trim_end().to_string())
            .collect())
    };
    let annotations = records(Companion::Annotations)?;
    let variations = records(Companion::Variations)?;
    let (annotations, bad_a) =
        carc_events::annotation::in_force(id, annotations.iter().map(String::as_str));
    let (variations, bad_v) = carc_events::variation::variations_in_force(
        id,
        log.header.players.len(),
        variations.iter().map(String::as_str),
    );
    for (n, why) in bad_a.iter().chain(&bad_v) {
        ctx.info(format!(
            "stored game {id}: companion record {n} cannot be read and is left out: {why}"
        ));
    }
    let mut input = carc_tables::GameInput::new(log);
    input.annotations = annotations;
    input.variations = variations;
    Ok(input)
}
