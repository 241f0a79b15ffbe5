//! The tile-set and map-board files of the global `--tiles` and `--map` options, loaded once
//! before any verb runs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use carc_rules::{MapBoard, TileSet};

use crate::input::read_text_input;

pub fn load_tile_sets(paths: &[PathBuf]) -> Result<Vec<TileSet>> {
    paths
        .iter()
        .map(|p| {
            let text = read_text_input(p, "--tiles")?;
            TileSet::from_json(&text).with_context(|| format!("{}", p.display()))
        })
        .collect()
}

/// The `--map` values: built-in names are taken as they are; anything else is a map file,
/// loaded, validated and registered so that every log naming its map uses it. Returns the
/// map the last value names (the one `simulate` plays on).
pub fn load_maps(values: &[String]) -> Result<Option<Arc<MapBoard>>> {
    let mut last = None;
    for value in values {
        if let Some(map) = MapBoard::builtin_shared(value) {
            last = Some(map);
            continue;
        }
        let text = read_text_input(Path::new(value), "map file").with_context(|| {
            format!(
                "--map {value}: not a built-in map ({}) and not a readable map file",
                MapBoard::BUILTIN.join(", ")
            )
        })?;
        let map = MapBoard::from_json(&text).with_context(|| value.clone())?;
        carc_events::register_map(map.clone());
        last = Some(Arc::new(map));
    }
    Ok(last)
}
