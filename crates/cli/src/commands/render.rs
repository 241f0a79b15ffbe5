//! `carc render`: a picture of the board after event N, as SVG or PNG. The shapes come from
//! `carc-draw`, the same ones the viewer paints.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use carc_archive::read_game;
use carc_draw::color::BACKGROUND;
use carc_draw::svg::{self, SvgOptions};
use carc_draw::{add_coordinates, board, player_color, raster, Overlay, Rgba};
use carc_replay::{fold, ReplayError};
use carc_rules::TileSet;
use clap::Args;

use crate::exit_code::IllegalInput;
use crate::store_context::Ctx;

#[derive(Args)]
pub struct RenderArgs {
    /// A log file (or `.jcz` game), or a stored game id.
    #[arg(value_name = "FILE|GAME")]
    game: String,
    /// Draw the board after this event (0 = before the first event). Default: the end.
    #[arg(long, value_name = "N")]
    at: Option<u64>,
    /// The picture to write; its extension chooses the format: `.svg` or `.png`.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Pixels per square (the PNG's size; the SVG's width and height).
    #[arg(long, value_name = "PX", default_value_t = 64, value_parser = clap::value_parser!(u32).range(4..=512))]
    scale: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

/// The picture format `--out` names by its extension.
fn format_of(out: &Path) -> Result<Format> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        Some(other) => bail!(
            "--out {}: unknown picture format \".{other}\"; use a name ending in .svg or .png",
            out.display()
        ),
        None => bail!(
            "--out {}: no extension to tell the format; use a name ending in .svg or .png",
            out.display()
        ),
    }
}

pub fn render(ctx: &Ctx, args: RenderArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    // The format is checked first: a typo in --out should not wait for a replay.
    let format = format_of(&args.out)?;
    let path = Path::new(&args.game);
    let log = if crate::input::names_a_file(path) {
        crate::input::load_log(path)?
    } else {
        // Not a file: a stored game, but a mistyped file name must not create a store.
        let store = ctx.open_for_stored_game(&args.game)?;
        read_game(&store, &args.game)?
            .ok_or_else(|| ctx.no_game(&args.game))?
            .effective_log()?
    };
    let last = log.last_seq();
    if let Some(at) = args.at.filter(|&at| at > last) {
        bail!(
            "{}: there is no event {at}; the log's last event is {last}",
            args.game
        );
    }
    let timeline = fold(log, loaded);
    if let Some(err @ ReplayError::Setup(_)) = &timeline.error {
        // No board at all: the header does not describe a game that can be set up.
        bail!("{}: {err}", args.game);
    }
    let legal = timeline.steps.len();
    let n = match (args.at, &timeline.error) {
        (Some(at), Some(err)) if at as usize > legal => {
            return Err(IllegalInput(format!(
                "{}:{}: event {} is illegal [{}] {}; the last legal event is {legal}",
                args.game,
                err.line(),
                err.seq().unwrap_or(0),
                err.rule(),
                carc_replay::describe::error_message(&timeline.log.header, err),
            ))
            .into())
        }
        (Some(at), _) => at as usize,
        // By default the end: of the legal part, if the log turns illegal.
        (None, Some(err)) => {
            ctx.info(format!(
                "{}:{}: event {} is illegal [{}] {}; drawing the board after event {legal}, the last legal one",
                args.game,
                err.line(),
                err.seq().unwrap_or(0),
                err.rule(),
                carc_replay::describe::error_message(&timeline.log.header, err),
            ));
            legal
        }
        (None, None) => legal,
    };
    let game = timeline.state_at(n)?;
    let header = &timeline.log.header;
    let colors: Vec<Rgba> = header
        .players
        .iter()
        .map(|p| player_color(p.color.as_str()).unwrap_or(Rgba::WHITE))
        .collect();
    let mut list = board(
        &game,
        &Overlay {
            colors: &colors,
            last_placed: game.placed().last().map(|p| p.at),
            ..Overlay::default()
        },
    );
    // Column and row numbers along the edges (SVG only: the PNG writer has no text).
    add_coordinates(&mut list);
    let scale = args.scale as f32;
    let bytes = match format {
        Format::Svg => svg::document(
            &list,
            &SvgOptions {
                px_per_square: scale,
                background: Some(BACKGROUND),
                title: Some(format!("{} after event {n}", header.game)),
            },
        )
        .into_bytes(),
        Format::Png => raster::png(&list, scale, Some(BACKGROUND))?,
    };
    crate::output_file::write_whole(&args.out, &bytes)?;
    let (w, h) = svg::pixel_size(&list.bounds, scale);
    ctx.info(format!(
        "wrote the board of {} after event {n} to {} ({w} × {h} px)",
        header.game,
        args.out.display()
    ));
    Ok(ExitCode::SUCCESS)
}
