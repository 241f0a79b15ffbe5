//! The arguments `replay`, `explain` and `legal` share (a file, `--at N`, `--json`, `--as`)
//! and what they make of them: the point of view, and the timeline up to event N.

use std::path::PathBuf;

use anyhow::{bail, Result};
use carc_events::Header;
use carc_replay::describe::View;
use carc_replay::{fold, Timeline};
use carc_rules::TileSet;
use clap::Args;

use crate::exit_code::IllegalInput;
use crate::input::load_log;

#[derive(Args)]
pub struct AtArgs {
    /// A log file (JSON Lines).
    pub file: PathBuf,
    /// Event number (seq); 0 means before the first event. Default: the last event.
    #[arg(long)]
    pub at: Option<u64>,
    /// JSON on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// The Gifts: show the game as this player sees it (seat number or name): other players'
    /// gift cards face down. Without it, every card is shown (the full view).
    #[arg(long = "as", value_name = "PLAYER")]
    pub as_player: Option<String>,
}

/// The point of view `--as` names, checked against the header's players.
pub fn view_of(args: &AtArgs, header: &Header) -> Result<View> {
    let Some(who) = &args.as_player else {
        return Ok(View::Full);
    };
    if let Some(seat) = header.players.iter().position(|p| &p.name == who) {
        return Ok(View::Seat(seat as u8));
    }
    match who.parse::<u8>() {
        Ok(seat) if usize::from(seat) < header.players.len() => Ok(View::Seat(seat)),
        _ => bail!(
            "--as {who:?}: no such player; expected a seat number 0 to {} or a name ({})",
            header.players.len() - 1,
            header
                .players
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The timeline of a file and the number of legal steps up to `at`, or an error saying why
/// the state after `at` cannot be shown.
pub fn timeline_at(args: &AtArgs, loaded: &[TileSet]) -> Result<(Timeline, usize)> {
    let log = load_log(&args.file)?;
    let last = log.last_seq();
    let at = args.at.unwrap_or(last);
    if at > last {
        bail!(
            "{}: there is no event {at}; the log's last event is {last}",
            args.file.display(),
        );
    }
    let timeline = fold(log, loaded);
    let legal = timeline.steps.len();
    let n = match (args.at, &timeline.error) {
        // By default the end: of the legal part if the log turns illegal (as `render` does).
        (None, Some(err)) if at as usize > legal => {
            eprintln!(
                "carc: {}:{}: event {} is illegal [{}] {}; showing the position after event {legal}, the last legal one",
                args.file.display(),
                err.line(),
                err.seq().unwrap_or(0),
                err.rule(),
                carc_replay::describe::error_message(&timeline.log.header, err)
            );
            legal
        }
        _ => at as usize,
    };
    if n > legal {
        let err = timeline
            .error
            .as_ref()
            .expect("steps stop early only at an error");
        // The input is illegal (exit 1), not a command that could not run.
        return Err(IllegalInput(format!(
            "{}:{}: event {} is illegal [{}] {}; the last legal event is {}",
            args.file.display(),
            err.line(),
            err.seq().unwrap_or(0),
            err.rule(),
            carc_replay::describe::error_message(&timeline.log.header, err),
            timeline.steps.len()
        ))
        .into());
    }
    Ok((timeline, n))
}
