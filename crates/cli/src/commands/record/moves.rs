//! Entering moves: the effective log is folded with the new events, and they are stored in one
//! append only if all of them are legal; what they scored and the hint for the next move are
//! printed after.

use std::process::ExitCode;

use anyhow::{bail, Result};
use carc_archive::event_id;
use carc_events::{write_event_line, Event};
use carc_replay::describe::{describe_step, score_headline, shown_name as seat_name};
use carc_replay::fold;
use carc_rules::{Game, TileSet};
use carc_store::{AppendOptions, ExpectedVersion, NewEvent, Store};

use crate::commands::record::hint::{hint, nothing_recorded};
use crate::commands::record::stored::load;
use crate::exit_code;
use crate::log_problem::replay_message;
use crate::store_context::Ctx;

/// Folds the effective log plus the event `make` builds; appends it only if it is legal.
pub fn record_move(
    ctx: &Ctx,
    store: &Store,
    game: &str,
    loaded: &[TileSet],
    make: impl FnOnce(&Game) -> Result<Event>,
) -> Result<ExitCode> {
    let mut make = Some(make);
    record_moves(ctx, store, game, loaded, |g| {
        make.take().map(|m| m(g)).transpose()
    })
}

/// Folds the effective log plus the events `next` builds, one at a time (each from the state
/// after the ones before it, until it returns `None`), and appends them in one batch only if
/// all are legal: a turn entered in one command is recorded whole or not at all. Prints each
/// event with what it scored and the meeples it returned, then the hint for the next move.
pub fn record_moves(
    ctx: &Ctx,
    store: &Store,
    game: &str,
    loaded: &[TileSet],
    mut next: impl FnMut(&Game) -> Result<Option<Event>>,
) -> Result<ExitCode> {
    let (sg, log) = load(ctx, store, game, loaded)?;
    let mut timeline = fold(log, loaded);
    if let Some(err) = &timeline.error {
        bail!(
            "stored game {game} does not replay (line {}): {}",
            err.line(),
            replay_message(err, &timeline.log.header)
        );
    }
    let recorded = timeline.steps.len();
    // A refused move stores nothing, so the hint after it is that of the stored state, not of
    // the state after the turn's earlier events (a draw that was never stored).
    let stored = timeline.state_at(recorded)?;
    let stored_at = timeline.log.last_seq();
    loop {
        let state = timeline.state_at(timeline.steps.len())?;
        if state.is_over() && timeline.steps.len() == recorded {
            eprintln!("carc: game {game} is over; no further moves");
            return Ok(ExitCode::from(exit_code::ILLEGAL));
        }
        let event = match next(&state) {
            Ok(Some(event)) => event,
            Ok(None) => break,
            Err(e) => {
                // A move that makes no sense in this state is refused like an illegal one.
                eprintln!("carc: move refused, not recorded: {e:#}");
                eprintln!("{}", hint(game, stored_at, &timeline.log.header, &stored));
                eprintln!("{}", nothing_recorded(game, &timeline, recorded));
                return Ok(ExitCode::from(exit_code::ILLEGAL));
            }
        };
        let mut log = timeline.log;
        log.push_event(event);
        timeline = fold(log, loaded);
        if let Some(err) = &timeline.error {
            let header = &timeline.log.header;
            eprintln!(
                "carc: illegal move, not recorded: {}",
                replay_message(err, header)
            );
            eprintln!("{}", hint(game, stored_at, header, &stored));
            eprintln!("{}", nothing_recorded(game, &timeline, recorded));
            return Ok(ExitCode::from(exit_code::ILLEGAL));
        }
    }
    if timeline.steps.len() == recorded {
        bail!("nothing to record");
    }
    let version = sg.version();
    let new_events = &timeline.log.events[recorded..];
    let batch: Vec<NewEvent> = new_events
        .iter()
        .enumerate()
        .map(|(i, (_, envelope))| {
            let line = format!("{}\n", write_event_line(envelope));
            NewEvent::new(event_id(game, version + 1 + i as u64), line.into_bytes())
        })
        .collect();
    // The move that ends the game seals it in the same step: a finished game is never left
    // open (see `load`).
    store.append_with(
        game,
        ExpectedVersion::Exactly(version),
        &batch,
        AppendOptions {
            seal: timeline.finished,
            ..AppendOptions::default()
        },
    )?;
    let header = &timeline.log.header;
    for step in &timeline.steps[recorded..] {
        println!("event {}: {}", step.seq, describe_step(header, step));
        for score in &step.effects.scores {
            println!("  scores: {}", score_headline(header, score));
        }
        for r in &step.effects.returned {
            println!(
                "  {} back to {}: from {} at {}",
                if r.abbot { "abbot" } else { "meeple" },
                seat_name(header, r.player),
                r.label,
                r.at
            );
        }
    }
    let now = timeline.state_at(timeline.steps.len())?;
    let scored = timeline.steps[recorded..]
        .iter()
        .any(|s| !s.effects.scores.is_empty());
    if scored && !now.is_over() {
        let totals: Vec<String> = now
            .scores()
            .iter()
            .enumerate()
            .map(|(seat, points)| format!("{} {points}", seat_name(header, seat as u8)))
            .collect();
        println!("  score now: {}", totals.join(", "));
    }
    println!("{}", hint(game, timeline.log.last_seq(), header, &now));
    ctx.debug(format!(
        "stored as stream events {} to {}",
        version + 1,
        version + batch.len() as u64
    ));
    Ok(ExitCode::SUCCESS)
}
