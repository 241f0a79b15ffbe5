//! `carc map check`: a map-board file (or a built-in map) validated and summarised.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use carc_rules::MapBoard;
use clap::Args;

use crate::input::read_text_input;

#[derive(Args)]
pub struct MapCheckArgs {
    /// A map file (JSON), or the name of a built-in map.
    file: String,
}

/// Validates a map file with the checks run on every load; prints a summary, or the first
/// problem and exit code 1.
pub fn map_check(args: MapCheckArgs) -> Result<ExitCode> {
    let name = args.file;
    let map = match MapBoard::builtin_shared(&name) {
        Some(map) => (*map).clone(),
        None => {
            let text = read_text_input(Path::new(&name), "map file")?;
            match MapBoard::from_json(&text) {
                Ok(map) => map,
                Err(e) => {
                    println!("{name}: invalid: {e}");
                    return Ok(ExitCode::from(1));
                }
            }
        }
    };
    let names = |list: &[carc_rules::NamedSquare]| -> String {
        list.iter()
            .map(|s| format!("{} {}", s.name, s.at))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let cities: Vec<String> = map
        .large_cities()
        .iter()
        .map(|c| {
            format!(
                "{} ({} square{}, {} coat{} of arms)",
                c.name,
                c.squares.len(),
                if c.squares.len() == 1 { "" } else { "s" },
                c.coats_of_arms,
                if c.coats_of_arms == 1 { "" } else { "s" }
            )
        })
        .collect();
    println!(
        "{name}: ok, map {:?}: {} playable squares; start squares: {}; large cities: {}; towns: {}; {} printed segments abroad",
        map.name,
        map.playable_count(),
        names(map.start_squares()),
        cities.join(", "),
        names(map.towns()),
        map.prints().count()
    );
    Ok(ExitCode::SUCCESS)
}
