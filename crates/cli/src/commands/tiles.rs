//! `carc tiles check`: a tile-set file validated and summarised.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use carc_rules::TileSet;
use clap::Args;

use crate::input::read_text_input;

#[derive(Args)]
pub struct TilesCheckArgs {
    /// A tile-set file (JSON).
    file: PathBuf,
}

/// Validates a tile-set file with the checks run on every load; prints a summary, or the
/// first problem and exit code 1.
pub fn tiles_check(args: TilesCheckArgs) -> Result<ExitCode> {
    let name = args.file.display().to_string();
    let text = read_text_input(&args.file, "tile-set file")?;
    let set = match TileSet::from_json(&text) {
        Ok(set) => set,
        Err(e) => {
            println!("{name}: invalid: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let arrows: Vec<String> = carc_rules::ArrowSymbol::ALL
        .iter()
        .map(|&symbol| {
            let n: u32 = set
                .tiles()
                .iter()
                .filter(|t| t.arrow.map(|a| a.symbol) == Some(symbol))
                .map(|t| u32::from(t.count))
                .sum();
            format!("{n} {symbol}")
        })
        .collect();
    let builtin = if TileSet::BUILTIN.contains(&set.name.as_str()) {
        format!(
            " (replaces the built-in set {:?} when passed with --tiles)",
            set.name
        )
    } else {
        String::new()
    };
    println!(
        "{name}: ok, tile set {:?}{builtin}: {} tile types, {} tiles; arrows: {}",
        set.name,
        set.len(),
        set.total_count(),
        arrows.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}
