//! `carc annotate`: a comment and a glyph on one event of a game, written beside it. For a log
//! file the record is appended to `<log>.annotations.jsonl`; for a stored game, to the game's
//! annotation stream. The record is the one the viewer writes (`carc_events::annotation`), and
//! appending keeps to its rule: the later record for an event wins.

use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use carc_events::annotation::{Annotation, Glyph};
use carc_events::Log;
use clap::Args;

use crate::companions::Annotated;
use crate::store_context::Ctx;

#[derive(Args)]
pub struct AnnotateArgs {
    /// A log file (or `.jcz` game), or a stored game id.
    #[arg(value_name = "FILE|GAME")]
    game: String,
    /// The event to annotate (its `seq`, 1-based).
    #[arg(long, value_name = "N")]
    at: u64,
    /// The comment.
    #[arg(long, conflicts_with = "delete")]
    text: Option<String>,
    /// An evaluation mark: !! ! !? ?! ? ??
    #[arg(long, conflicts_with = "delete", allow_hyphen_values = true)]
    glyph: Option<String>,
    /// Remove the event's annotation (appends a record with no glyph and no text).
    #[arg(long)]
    delete: bool,
}

/// The record the arguments ask for, checked against the game's events.
fn record(args: &AnnotateArgs, log: &Log) -> Result<Annotation> {
    let glyph = match &args.glyph {
        None => None,
        Some(g) => Some(Glyph::parse(g.trim()).with_context(|| {
            let all: Vec<&str> = Glyph::ALL.iter().map(|g| g.as_str()).collect();
            format!("--glyph {g:?} is not a glyph; use one of {}", all.join(" "))
        })?),
    };
    let text = args.text.clone().unwrap_or_default().trim_end().to_string();
    if !args.delete && glyph.is_none() && text.is_empty() {
        bail!("nothing to write: give --text, --glyph or both (or --delete)");
    }
    if let Err(why) = carc_events::text::check_annotation_length(&text) {
        bail!("--text: {why} (docs/cli.md, \"Text from a log\")");
    }
    let events = log.events.len() as u64;
    if args.at == 0 || args.at > events {
        bail!(
            "--at {}: game {} has events 1 to {events}",
            args.at,
            log.header.game
        );
    }
    Ok(Annotation {
        game: log.header.game.clone(),
        seq: args.at,
        glyph,
        text,
    })
}

pub fn annotate(ctx: &Ctx, args: AnnotateArgs) -> Result<ExitCode> {
    let mut game = Annotated::open(ctx, &args.game)?;
    let annotation = record(&args, &game.log)?;
    let place = game.append_annotation(&annotation)?;
    let what = if annotation.is_empty() {
        "removed"
    } else {
        "saved"
    };
    println!("annotation of event {} {what} in {place}", annotation.seq);
    Ok(ExitCode::SUCCESS)
}
