//! `carc record start`: on a map board (Carcassonne Maps), the start tiles are moves of their
//! own. `carc record new --map germany` stores the header alone; then one `start_placed` per
//! start square in use: the start tile on the square chosen for it, then the tile drawn for
//! each other square, with the rotation it was put down in (docs/log-format.md, "Games on a
//! map board"). The rules check each (`maps.setup.start-squares`).

use anyhow::{bail, Result};
use carc_events::{Event, Pos};
use carc_rules::{Game, Phase, Placement};

use crate::commands::record::parse::{drawn_tile, parse_rotation};
use crate::commands::record::phase::phase_text;
use crate::commands::record::turn::tile_id;

/// The event of a start tile `name` (its letter, either case) put on the start square (X, Y)
/// rotated `rot`.
pub fn start_event(g: &Game, name: &str, x: i32, y: i32, rot: &str) -> Result<Event> {
    if g.map().is_none() {
        bail!("this game is not played on a map: `carc record new` placed its start tile");
    }
    if g.phase() != Phase::Start {
        bail!("the start tiles are all placed: {}", phase_text(g));
    }
    let tile = drawn_tile(g, name)?;
    Ok(Event::StartPlaced {
        tile: tile_id(g, tile),
        at: Pos::new(x, y),
        rotation: parse_rotation(rot)?,
    })
}

/// The free start squares of a map game waiting for start tiles, as "Rostock (-3,6)".
pub fn free_start_squares(g: &Game) -> Vec<String> {
    let Some(map) = g.map() else {
        return Vec::new();
    };
    map.start_squares()
        .iter()
        .filter(|s| g.starts_placed() == 0 || g.tile_at(s.at).is_none())
        .map(|s| format!("{} {}", s.name, s.at))
        .collect()
}

/// The legal start placements of the tile of letter `name` (either case) while a map game
/// waits for start tiles; empty otherwise.
pub fn start_placements(g: &Game, name: &str) -> Vec<Placement> {
    let mut out = Vec::new();
    if let Ok(tile) = drawn_tile(g, name) {
        g.legal_start_placements(tile, &mut out);
    }
    out
}

/// The hint while a map game waits for start tiles: which one is due, the free squares, and
/// the command with a legal placement filled in.
pub fn start_hint(id: &str, g: &Game) -> String {
    let n = g.options().map.start_squares;
    let k = g.starts_placed() + 1;
    let free = free_start_squares(g).join(", ");
    let what = if k == 1 {
        "the start tile on the start square chosen for it".to_string()
    } else {
        "the tile drawn for another start square".to_string()
    };
    let mut text = format!(
        "next: start tile {k} of {n}, {what} (free start squares: {free}): carc record start {id} TILE X Y ROT"
    );
    // The set's start tile first (as `carc simulate` does); an example with it filled in.
    let example = g
        .start_tile()
        .filter(|_| k == 1)
        .map(|t| g.tiles().get(t).id.clone())
        .and_then(|name| Some((start_placements(g, &name).first().copied()?, name)));
    if let Some((p, name)) = example {
        text.push_str(&format!(
            ", e.g. carc record start {id} {name} {} {} {}",
            p.at.x,
            p.at.y,
            p.rotation.degrees()
        ));
    }
    text
}
