//! JSON shapes of the CLI's `--json` outputs (documented in docs/cli.md).

use carc_events::Header;
use carc_rules::{Game, Note, Phase, ReturnedMeeple, Score, ScoreSource, ScoreTime};
use serde_json::{json, Value};

pub fn pos(p: carc_rules::Pos) -> Value {
    json!([p.x, p.y])
}

pub use carc_replay::describe::seat_name;

pub fn score(header: &Header, s: &Score) -> Value {
    let mut v = json!({
        "feature": s.kind.word(),
        "when": match s.time { ScoreTime::Completed => "completed", ScoreTime::Final => "final" },
        "at": pos(s.feature.at),
        "on": s.feature.label.to_string(),
        "tiles": s.tiles.iter().map(|p| pos(*p)).collect::<Vec<_>>(),
        "coats_of_arms": s.coats_of_arms,
        "completed_cities": s.cities.iter().map(|c| json!({"at": pos(c.at), "on": c.label.to_string()})).collect::<Vec<_>>(),
        "meeples": s.meeples.iter().map(|(p, n)| json!({"player": seat_name(header, *p), "seat": p, "count": n})).collect::<Vec<_>>(),
        "winners": s.winners.iter().map(|w| seat_name(header, *w)).collect::<Vec<_>>(),
        "points": s.points,
        "formula": s.formula,
        "rule": s.rule,
    });
    // Points for an arrow that points at no tile (20th Anniversary) say so; feature scores
    // keep their shape.
    if let ScoreSource::Arrow { symbol, side } = s.source {
        v["arrow"] = json!({"symbol": symbol.name(), "points": side.name()});
    }
    // A town's cost (Carcassonne Maps, town variant 2) is taken away, not given.
    if let ScoreSource::TownCost { town } = s.source {
        v["town_cost"] = json!({"town": town, "points": -i64::from(s.points)});
    }
    v
}

pub fn note(n: &Note) -> Value {
    json!({"rule": n.rule(), "text": n.to_string()})
}

pub fn returned(header: &Header, r: &ReturnedMeeple) -> Value {
    json!({"player": seat_name(header, r.player), "seat": r.player, "at": pos(r.at), "on": r.label.to_string()})
}

pub fn phase(game: &Game) -> Value {
    match game.phase() {
        Phase::Start => json!({"step": "start"}),
        Phase::Draw => json!({"step": "draw", "seat": game.current_player()}),
        Phase::Place { tile } => {
            json!({"step": "place", "seat": game.current_player(), "tile": game.tiles().get(tile).id})
        }
        Phase::ChooseArrow { at } => {
            json!({"step": "choose_arrow", "seat": game.current_player(), "at": pos(at)})
        }
        Phase::Meeple { at } => {
            json!({"step": "meeple", "seat": game.current_player(), "at": pos(at)})
        }
        Phase::Over => json!({"step": "over"}),
    }
}

pub fn scores(header: &Header, game: &Game) -> Value {
    game.scores()
        .iter()
        .zip(game.supply())
        .enumerate()
        .map(|(seat, (score, supply))| {
            json!({"player": seat_name(header, seat as u8), "seat": seat, "score": score, "meeples_in_supply": supply})
        })
        .collect()
}

pub fn board(header: &Header, game: &Game) -> Value {
    json!({
        "tiles": game.placed().iter().map(|p| json!({
            "tile": game.tiles().get(p.tile).id,
            "at": pos(p.at),
            "rotation": p.rotation.degrees(),
        })).collect::<Vec<_>>(),
        "meeples": game.meeples().map(|(seat, at, _, label)| json!({
            "player": seat_name(header, seat), "seat": seat, "at": pos(at), "on": label.to_string(),
        })).collect::<Vec<_>>(),
        "bag_left": game.bag_left(),
    })
}
