//! `carc annotate`: a comment and a glyph on one event of a game, written beside it. For a log
//! file the record is appended to `<log>.annotations.jsonl`; for a stored game, to the game's
//! annotation stream. The record is the one the viewer writes (`carc_events::annotation`), and
//! appending keeps to its rule: the later record for an event wins.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use carc_archive::{append_annotation_record, read_game};
use carc_events::annotation::{annotations_path, Annotation, Glyph};
use carc_events::Log;
use clap::Args;

use crate::store_cmds::Ctx;

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
    let file = Path::new(&args.game);
    let (annotation, place) = if file.is_file() {
        let log = crate::commands::load_log(file)?;
        let annotation = record(&args, &log)?;
        let sidecar = annotations_path(file);
        append_line(&sidecar, &annotation.to_json())?;
        (annotation, sidecar.display().to_string())
    } else {
        let store = ctx.open()?;
        let stored = read_game(&store, &args.game)?.ok_or_else(|| ctx.no_game(&args.game))?;
        let log = stored.effective_log()?;
        let annotation = record(&args, &log)?;
        append_annotation_record(&store, &args.game, annotation.to_json().as_bytes())?;
        (
            annotation,
            format!(
                "the store {} (beside game {})",
                ctx.store_dir.display(),
                args.game
            ),
        )
    };
    let what = if annotation.is_empty() {
        "removed"
    } else {
        "saved"
    };
    println!("annotation of event {} {what} in {place}", annotation.seq);
    Ok(ExitCode::SUCCESS)
}

/// Appends one line, starting a new line first if the file does not end with one (a file
/// edited by hand), so that the record is never glued to the previous one.
fn append_line(path: &Path, line: &str) -> Result<()> {
    let mut f = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let len = f.metadata()?.len();
    let mut out = String::new();
    if len > 0 {
        let mut last = [0u8; 1];
        f.seek(SeekFrom::End(-1))?;
        f.read_exact(&mut last)?;
        if last[0] != b'\n' {
            out.push('\n');
        }
    }
    out.push_str(line);
    out.push('\n');
    f.write_all(out.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}
