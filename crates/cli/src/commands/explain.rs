//! `carc explain`: what event N did and why (the ruling trace, every score's breakdown), or
//! the ruling that rejects it.

use std::process::ExitCode;

use anyhow::{bail, Result};
use carc_replay::describe::{
    describe_arrows, describe_event_as, describe_gifts, describe_step_as, describe_traders,
    score_details, score_headline,
};
use carc_replay::fold;
use carc_rules::TileSet;
use serde_json::json;

use crate::at_args::{view_of, AtArgs};
use crate::exit_code::IllegalInput;
use crate::input::load_log;
use crate::json;

pub fn explain(args: AtArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let log = load_log(&args.file)?;
    let at = args.at.unwrap_or(log.last_seq());
    if at == 0 || at > log.last_seq() {
        bail!(
            "{}: there is no event {at}; events are numbered 1 to {}",
            args.file.display(),
            log.last_seq()
        );
    }
    let timeline = fold(log, loaded);
    let header = &timeline.log.header;
    let index = (at - 1) as usize;
    let (line, envelope) = &timeline.log.events[index];
    let view = view_of(&args, header)?;
    // A legal event is said as its step (the rules' name of a feature); the illegal one as
    // the log wrote it.
    let described = match timeline.steps.get(index) {
        Some(step) => describe_step_as(header, step, view),
        None => describe_event_as(header, &envelope.event, view),
    };
    if index >= timeline.steps.len() {
        let err = timeline
            .error
            .as_ref()
            .expect("steps stop early only at an error");
        if index > timeline.steps.len() {
            return Err(IllegalInput(format!(
                "{}: event {at} comes after the illegal event {} (line {}): {}",
                args.file.display(),
                err.seq().unwrap_or(0),
                err.line(),
                carc_replay::describe::error_message(header, err)
            ))
            .into());
        }
        if args.json {
            println!(
                "{}",
                json!({"event": at, "line": line, "type": envelope.event.type_name(), "description": described,
                       "legal": false, "rule": err.rule(), "message": carc_replay::describe::error_message(header, err)})
            );
        } else {
            println!("event {at} (line {line}): {described}");
            println!(
                "ILLEGAL [{}]: {}",
                err.rule(),
                carc_replay::describe::error_message(header, err)
            );
        }
        return Ok(ExitCode::from(1));
    }
    let step = &timeline.steps[index];
    if args.json {
        let mut v = json!({
            "event": step.seq, "line": step.line, "turn": step.turn, "type": step.event.type_name(),
            "description": described, "legal": true,
            "trace": step.effects.notes.iter().map(|n| json::note(header, n)).collect::<Vec<_>>(),
            "scores": step.effects.scores.iter().map(|s| json::score(header, s)).collect::<Vec<_>>(),
            "returned": step.effects.returned.iter().map(|r| json::returned(header, r)).collect::<Vec<_>>(),
            "scores_after": step.scores_after,
        });
        // Only events that touch arrows carry the field, so base-game output is unchanged.
        let arrows = describe_arrows(header, step.seat, &step.effects);
        if !arrows.is_empty() {
            v["arrows"] = json!(arrows);
        }
        let gifts = describe_gifts(header, step.seat, &step.effects);
        if !gifts.is_empty() {
            v["gifts"] = json!(gifts);
        }
        let traders = describe_traders(header, step.seat, &step.effects);
        if !traders.is_empty() {
            v["traders_builders"] = json!(traders);
        }
        println!("{v}");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "event {} (line {}, turn {}): {described}",
        step.seq, step.line, step.turn
    );
    if !step.effects.notes.is_empty() {
        println!("why it is legal, and what followed:");
        for n in &step.effects.notes {
            println!(
                "  - {}  [{}]",
                carc_replay::describe::note_text(header, n),
                n.rule()
            );
        }
    }
    let arrows = describe_arrows(header, step.seat, &step.effects);
    if !arrows.is_empty() {
        println!("arrows (20th Anniversary):");
        for line in &arrows {
            println!("  - {line}");
        }
    }
    let traders = describe_traders(header, step.seat, &step.effects);
    if !traders.is_empty() {
        println!("goods and builders (Traders & Builders):");
        for line in &traders {
            println!("  - {line}");
        }
    }
    let gifts = describe_gifts(header, step.seat, &step.effects);
    if !gifts.is_empty() {
        println!("gifts (The Gifts):");
        for line in &gifts {
            println!("  - {line}");
        }
    }
    for s in &step.effects.scores {
        println!("score: {}", score_headline(header, s));
        for line in score_details(header, s) {
            println!("    {line}");
        }
    }
    for r in &step.effects.returned {
        println!(
            "{} returned: {} from {} at {}",
            r.figure(),
            carc_replay::describe::shown_name(header, r.player),
            r.label,
            r.at
        );
    }
    let after: Vec<String> = step
        .scores_after
        .iter()
        .enumerate()
        .map(|(seat, s)| {
            format!(
                "{} {s}",
                carc_replay::describe::shown_name(header, seat as u8)
            )
        })
        .collect();
    println!("scores after: {}", after.join(", "));
    Ok(ExitCode::SUCCESS)
}
