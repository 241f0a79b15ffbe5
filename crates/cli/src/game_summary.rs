//! The summary of a stored game that `games` lists (`games --json` shape): computed from a
//! folded game, kept by `import` beside the game so that `games` need not replay it.

use carc_replay::Timeline;
use serde_json::{json, Value};

use crate::json::seat_name;
use crate::log_problem::log_problem;

/// The summary of a folded game, without `sealed` (the store says that, and it may change
/// without the game changing). `import` stores it beside the game, so that `games` lists a
/// stored game without decoding or replaying it.
pub fn timeline_summary(game: &str, timeline: &Timeline) -> Value {
    let header = &timeline.log.header;
    let scores = timeline.final_scores();
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners: Vec<String> = if timeline.finished {
        scores
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == best)
            .map(|(seat, _)| seat_name(header, seat as u8))
            .collect()
    } else {
        Vec::new()
    };
    let mut v = json!({
        "game": game,
        "players": header.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        "expansions": header.rules.expansions,
        "tile_sets": header.tile_sets,
        "events": timeline.log.events.len(),
        "turns": timeline.steps.last().map_or(0, |s| s.turn),
        "finished": timeline.finished,
        "winners": winners,
        "scores": scores.iter().enumerate()
            .map(|(seat, s)| json!({"player": seat_name(header, seat as u8), "score": s}))
            .collect::<Vec<_>>(),
    });
    // Only games on a map board carry the map's name, so other games' summaries keep their
    // bytes.
    if let Some(map) = &header.rules.map {
        v["map"] = json!(map.name);
    }
    // Only games that say where they come from carry the field (simulated: seed and
    // strategies; BGA: table and player ids).
    if let Some(source) = &header.source {
        v["source"] = serde_json::to_value(source).unwrap_or(Value::Null);
    }
    if let Some((line, message)) = log_problem(timeline) {
        v["error"] = json!(format!("line {line}: {message}"));
    }
    v
}
