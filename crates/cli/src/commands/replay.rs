//! `carc replay`: the board, the phase and the scores after event N.

use std::process::ExitCode;

use anyhow::Result;
use carc_replay::describe::{describe_hands, describe_phase};
use carc_rules::TileSet;
use serde_json::json;

use crate::at_args::{timeline_at, view_of, AtArgs};
use crate::board_text;
use crate::json;

pub fn replay(args: AtArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let (timeline, n) = timeline_at(&args, loaded)?;
    let game = timeline.state_at(n)?;
    let header = &timeline.log.header;
    if args.json {
        let mut v = json::board(header, &game);
        v["at"] = json!(n);
        v["phase"] = json::phase(&game);
        v["scores"] = json::scores(header, &game);
        if game.options().gifts {
            v["gifts"] = json::gifts(header, &game, view_of(&args, header)?);
        }
        println!("{v}");
    } else {
        println!("after event {n} of {}:", timeline.log.last_seq());
        print!("{}", board_text::render(&game));
        println!("{}", describe_phase(header, &game));
        for (seat, (score, supply)) in game.scores().iter().zip(game.supply()).enumerate() {
            println!(
                "  {:<8} {score:>4} points, {supply} meeples in supply",
                carc_replay::describe::shown_name(header, seat as u8)
            );
        }
        let hands = describe_hands(header, &game, view_of(&args, header)?);
        if !hands.is_empty() {
            println!("gifts in hand:");
            for line in hands {
                println!("  {line}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
