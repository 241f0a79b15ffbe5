//! JSON shapes of the CLI's `--json` outputs (documented in docs/cli.md).

use carc_events::Header;
use carc_replay::describe::View;
use carc_rules::{
    Game, GiftAction, GiftCard, Note, Phase, ReturnedMeeple, Score, ScoreSource, ScoreTime,
};
use serde_json::{json, Value};

pub fn pos(p: carc_rules::Pos) -> Value {
    json!([p.x, p.y])
}

pub use carc_replay::describe::seat_name;

/// A `--json` list of `{"player", "score"}` objects read back as text, `Alice 12` each, the
/// names made visible (a log's names are untrusted); what `check` and `games` print.
pub fn scores_words(list: &Value) -> Vec<String> {
    list.as_array()
        .map(|a| {
            a.iter()
                .map(|s| {
                    let player = s["player"].as_str().unwrap_or("?");
                    format!("{} {}", carc_replay::describe::visible(player), s["score"])
                })
                .collect()
        })
        .unwrap_or_default()
}

pub fn score(header: &Header, s: &Score) -> Value {
    let mut v = json!({
        "feature": s.kind.word(),
        "when": match s.time { ScoreTime::Completed => "completed", ScoreTime::Final => "final" },
        "at": pos(s.feature.at),
        "on": s.feature.label.code(),
        "tiles": s.tiles.iter().map(|p| pos(*p)).collect::<Vec<_>>(),
        "coats_of_arms": s.coats_of_arms,
        "completed_cities": s.cities.iter().map(|c| json!({"at": pos(c.at), "on": c.label.code()})).collect::<Vec<_>>(),
        "meeples": s.meeples.iter().map(|(p, n)| json!({"player": seat_name(header, *p), "seat": p, "count": n})).collect::<Vec<_>>(),
        "winners": s.winners.iter().map(|w| seat_name(header, *w)).collect::<Vec<_>>(),
        "points": s.points,
        "formula": s.formula,
        "rule": s.rule,
    });
    // Points for an arrow that points at no tile (20th Anniversary) say so; feature scores
    // keep their shape.
    match s.source {
        ScoreSource::Arrow { symbol, side } => {
            v["arrow"] = json!({"symbol": symbol.name(), "points": side.name()});
        }
        ScoreSource::Gift { card } => v["gift"] = json!(card.name()),
        // No feature scores: say so instead of naming the start tile.
        ScoreSource::UnopenedGifts { cards } => {
            v["feature"] = json!("unopened_gifts");
            v["unopened_gifts"] = json!(cards);
        }
        // A town's cost (Carcassonne Maps, town variant 2) is taken away, not given.
        ScoreSource::TownCost { town } => {
            v["town_cost"] = json!({"town": town, "points": -i64::from(s.points)});
        }
        // The Abbot taken back and scored at once (not a completed or final feature score).
        ScoreSource::AbbotTakenBack => v["abbot_taken_back"] = json!(true),
        // Traders & Builders: the goods majority (no feature scores: say so, and the kind)
        // and the pig's extra point on a field.
        ScoreSource::Goods { good } => {
            v["feature"] = json!("goods");
            v["goods"] = json!(good.word());
        }
        ScoreSource::Pig => v["pig"] = json!(true),
        ScoreSource::Feature => {}
    }
    v
}

/// Card counts per kind as `{"synod": 2, …}` (kinds with none left out).
pub fn cards(counts: &[u8; 5]) -> Value {
    let mut v = serde_json::Map::new();
    for c in GiftCard::ALL {
        if counts[c.index()] > 0 {
            v.insert(c.name().to_string(), json!(counts[c.index()]));
        }
    }
    Value::Object(v)
}

/// Each seat's gifts from a point of view: face-up cards, or only how many.
pub fn gifts(header: &Header, game: &Game, view: View) -> Value {
    let hands: Vec<Value> = (0..game.players())
        .map(|seat| {
            let mut v = json!({"player": seat_name(header, seat), "seat": seat, "count": game.hand_size(seat)});
            if view.sees_hand_of(seat) {
                v["cards"] = cards(&game.hand(seat));
            }
            v
        })
        .collect();
    json!({"hands": hands, "deck": game.gift_deck().iter().map(|&c| u32::from(c)).sum::<u32>(),
           "discard": cards(&game.gift_discard())})
}

/// A legal gift action as JSON: the card and its target.
pub fn gift_action(game: &Game, g: &GiftAction) -> Value {
    let label = |at, s| game.segment_label_at(at, s).map(|l| l.code());
    match *g {
        GiftAction::Synod { at } => json!({"card": "synod", "at": pos(at), "on": "monastery"}),
        GiftAction::RoadSweeper { at, segment } => {
            json!({"card": "road_sweeper", "at": pos(at), "on": label(at, segment)})
        }
        GiftAction::ChangePosition { at, from, to } => {
            json!({"card": "change_position", "at": pos(at), "on": label(at, from), "to": label(at, to)})
        }
        GiftAction::CashOut { at, segment } => {
            json!({"card": "cash_out", "at": pos(at), "on": label(at, segment)})
        }
        GiftAction::TakeTwo => json!({"card": "take_2"}),
    }
}

/// A legal gift action in words.
pub fn gift_action_words(game: &Game, g: &GiftAction) -> String {
    let label = |at, s| {
        game.segment_label_at(at, s)
            .map_or_else(|| "?".to_string(), |l| l.to_string())
    };
    match *g {
        GiftAction::Synod { at } => format!("Synod: a meeple on the monastery at {at}"),
        GiftAction::RoadSweeper { at, segment } => {
            format!(
                "Road Sweeper: the road through {} at {at}",
                label(at, segment)
            )
        }
        GiftAction::ChangePosition { at, from, to } => format!(
            "Change Position: the meeple on {} at {at} to {}",
            label(at, from),
            label(at, to)
        ),
        GiftAction::CashOut { at, segment } => {
            format!("Cash Out: the meeple on {} at {at}", label(at, segment))
        }
        GiftAction::TakeTwo => "Take 2: draw a second tile".to_string(),
    }
}

/// A ruling note; its text names players where the rules' wording has seat numbers.
pub fn note(header: &Header, n: &Note) -> Value {
    json!({"rule": n.rule(), "text": carc_replay::describe::note_text(header, n)})
}

pub fn returned(header: &Header, r: &ReturnedMeeple) -> Value {
    let mut v = json!({"player": seat_name(header, r.player), "seat": r.player, "at": pos(r.at), "on": r.label.code()});
    // Only for the abbot, so other games' output is unchanged.
    if r.abbot {
        v["abbot"] = json!(true);
    }
    v
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
        Phase::ReceiveGift { at } => {
            json!({"step": "receive_gift", "seat": game.current_player(), "at": pos(at)})
        }
        Phase::DrawSecond { first } => {
            json!({"step": "draw_second", "seat": game.current_player(), "first": game.tiles().get(first).id})
        }
        Phase::ReturnTile { first, second } => {
            json!({"step": "return_tile", "seat": game.current_player(),
                   "tiles": [game.tiles().get(first).id, game.tiles().get(second).id]})
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
            "player": seat_name(header, seat), "seat": seat, "at": pos(at), "on": label.code(),
        })).collect::<Vec<_>>(),
        "bag_left": game.bag_left(),
    })
}
