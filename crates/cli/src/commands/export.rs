//! `carc export`: a game (a stored game or a file) as a bundle, its lines alone, a
//! JCloisterZone saved game, or a Markdown or HTML report.

use std::fs;
use std::io::{self, Write};
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
    /// A JCloisterZone saved game (docs/jcz.md), base game only.
    Jcz,
    /// A turn-by-turn report in Markdown, with every score's breakdown and the annotations.
    Md,
    /// The game as one self-contained web page to step through (board, moves, scores, graph);
    /// with --static, the report as a page without script, with board pictures.
    Html,
}

#[derive(Args)]
pub struct ExportArgs {
    /// The game: a stored game id (the header's `game`), or a log or `.jcz` file.
    game: String,
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
    if args.raw && args.format != ExportFormat::Jsonl {
        bail!("--raw shows the stored lines; it goes with --format jsonl only");
    }
    if args.game_only && args.format == ExportFormat::Jcz {
        bail!("--game-only leaves out annotations and variations; jcz has neither");
    }
    if args.quality.quality && !matches!(args.format, ExportFormat::Md | ExportFormat::Html) {
        bail!("--quality marks the moves in the report; it goes with --format md or html only");
    }
    let kind = report_kind(args)?;
    // A file path that exists is a file; anything else is a stored game id.
    let is_file = Path::new(&args.game).is_file();
    if args.raw {
        if is_file {
            bail!("--raw is for stored games; {} is a file", args.game);
        }
        let store = ctx.open_for_reading()?;
        let sg = read_game(&store, &args.game)?.ok_or_else(|| ctx.no_game(&args.game))?;
        return Ok(sg.raw_bytes());
    }
    let game = Annotated::open(ctx, &args.game)?;
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
        ExportFormat::Jcz => carc_jcz::write(&game.log)
            .with_context(|| format!("game {}", args.game))?
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
        let quality = quality_extras(&quality_of(ctx, timeline, &options)?);
        extras.events.extend(quality.events);
        extras.sections.extend(quality.sections);
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
    let bytes = export_bytes(ctx, &args, loaded)?;
    match &args.out {
        Some(path) => {
            fs::write(path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
            ctx.info(format!("wrote game {} to {}", args.game, path.display()));
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
