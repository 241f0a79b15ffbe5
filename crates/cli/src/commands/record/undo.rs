//! `carc record undo`: retract the last move (one event), or with `--turn` every event of the
//! last turn, by appending retraction records in one append; nothing is deleted.

use std::process::ExitCode;

use anyhow::{bail, Result};
use carc_archive::{event_id, read_game, retraction_payload};
use carc_events::Log;
use carc_replay::describe::{describe_event, shown_name as seat_name};
use carc_replay::fold;
use carc_rules::TileSet;
use carc_store::{ExpectedVersion, NewEvent, Store};

use crate::commands::record::hint::hint;
use crate::commands::record::stored::load;
use crate::log_problem::replay_message;
use crate::store_context::Ctx;

pub fn undo(
    ctx: &Ctx,
    store: &Store,
    game: &str,
    loaded: &[TileSet],
    whole_turn: bool,
) -> Result<ExitCode> {
    let (sg, log) = load(ctx, store, game, loaded)?;
    let effective = sg.effective_seqs();
    // The effective lines are the header, then the log's events and assertions in line order.
    // The start tile `new` placed is no move; on a map board the start tiles are moves of
    // their own (`record start`), so a wrong one can be taken back.
    let on_map = log.header.rules.map.is_some();
    if log.events.len() + log.assertions.len() <= usize::from(!on_map) {
        bail!(if on_map {
            format!("nothing to undo in game {game}: no start tile is recorded yet")
        } else {
            format!("nothing to undo in game {game}: only the start tile is recorded")
        });
    }
    // The first effective line (1-based, the header is line 1) to retract: the last one, or
    // the first event of the last turn.
    let (first_line, whose) = if whole_turn {
        let (line, seat, turn) = last_turn_start(game, &log, loaded)?;
        let who = seat.map_or("the".to_string(), |s| {
            format!("{}'s", seat_name(&log.header, s))
        });
        (line, format!("{who} turn {turn}"))
    } else {
        (effective.len(), String::new())
    };
    let lines: Vec<(usize, u64)> = (first_line..=effective.len())
        .map(|line| (line, effective[line - 1]))
        .collect();
    let version = sg.version();
    // All the retractions in one append: the turn is taken back whole or not at all, and a
    // concurrent writer that got there first makes this a conflict error, not an interleaving.
    let batch: Vec<NewEvent> = lines
        .iter()
        .enumerate()
        .map(|(i, &(_, seq))| {
            NewEvent::new(
                event_id(game, version + 1 + i as u64),
                retraction_payload(seq),
            )
        })
        .collect();
    store.append(game, ExpectedVersion::Exactly(version), &batch)?;
    let what = |line: usize| match log.events.iter().find(|(l, _)| *l == line) {
        Some((_, envelope)) => format!(
            "event {}: {}",
            envelope.seq,
            describe_event(&log.header, &envelope.event)
        ),
        None => "an assertion line".to_string(),
    };
    if whole_turn {
        println!(
            "retracted the last turn, {whose}: {} events in one append (stored lines {} to {}; the retractions are stored lines {} to {}):",
            lines.len(),
            lines[0].1,
            lines[lines.len() - 1].1,
            version + 1,
            version + lines.len() as u64
        );
        for &(line, _) in &lines {
            println!("  {}", what(line));
        }
    } else {
        let (line, retract) = lines[0];
        println!(
            "retracted the last recorded move, {} (stored line {retract}; the retraction is stored line {})",
            what(line),
            version + 1
        );
    }
    let sg = read_game(store, game)?.expect("just appended");
    let timeline = fold(sg.effective_log()?, loaded);
    if let Some(err) = &timeline.error {
        bail!(
            "after the undo the game does not replay: {}",
            replay_message(err, &timeline.log.header)
        );
    }
    let now = timeline.state_at(timeline.steps.len())?;
    let at = timeline.log.last_seq();
    println!("{}", hint(game, at, &timeline.log.header, &now));
    Ok(ExitCode::SUCCESS)
}

/// The effective line of the first event of the last turn begun (its draw; a tile set aside
/// and drawn again belongs to the same turn), with the seat that played it and its number.
/// The start tile (turn 0) is never taken back.
fn last_turn_start(game: &str, log: &Log, loaded: &[TileSet]) -> Result<(usize, Option<u8>, u32)> {
    let timeline = fold(log.clone(), loaded);
    if let Some(err) = &timeline.error {
        bail!(
            "stored game {game} does not replay (line {}): {}; `carc record undo {game}` takes back one line at a time",
            err.line(),
            replay_message(err, &log.header)
        );
    }
    let last = timeline.steps.last().map_or(0, |s| s.turn);
    if last == 0 {
        // On a map board the start tiles are moves of their own (turn 0), undone one by one.
        if log.header.rules.map.is_some() {
            bail!(
                "no turn to undo in game {game}: only start tiles are recorded; `carc record undo {game}` takes back the last start tile"
            );
        }
        bail!("nothing to undo in game {game}: only the start tile is recorded");
    }
    let first = timeline
        .steps
        .iter()
        .find(|s| s.turn == last)
        .expect("the last step is of the last turn");
    Ok((first.line, first.seat, last))
}
