//! Words for events, scores and squares. Scores and notes are the rules engine's own
//! explanation objects ([`Score`], [`Note`]); this module only lays them out in lines, the same
//! way `carc explain` prints them.

use carc_events::{Color, Event, Header};
use carc_replay::Step;
use carc_rules::{FeatureKind, Game, Note, Pos, ReturnedMeeple, Score, ScoreSource, ScoreTime};
use egui::Color32;

/// A seat's name from the header as text shows it (control characters escaped), or `seat N`.
pub use carc_replay::describe::shown_name as seat_name;

fn names(header: &Header, seats: impl IntoIterator<Item = u8>) -> Vec<String> {
    seats.into_iter().map(|s| seat_name(header, s)).collect()
}

/// Short form of an event from a point of view: a gift another seat receives is face down.
pub fn short_event_as(e: &Event, view: carc_replay::describe::View) -> String {
    match e {
        Event::GiftReceived { player, .. } if !view.sees_hand_of(*player) => {
            "gift (face down)".to_string()
        }
        _ => short_event(e),
    }
}

/// A meeple target in words for people (`field, north-east`), as `carc explain` says it.
fn words(on: &carc_events::MeepleTarget) -> String {
    carc_events::label_of(on).to_string()
}

/// Short form of an event for the event list (the seat is shown beside it), full view.
pub fn short_event(e: &Event) -> String {
    match e {
        Event::StartPlaced { tile, at, rotation } => format!(
            "start tile {} at ({},{}) {}°",
            tile.as_str(),
            at.x,
            at.y,
            rotation.degrees()
        ),
        Event::TileDrawn { tile, .. } => format!("drew {}", tile.as_str()),
        Event::TilePlaced {
            tile, at, rotation, ..
        } => format!(
            "placed {} at ({},{}) {}°",
            tile.as_str(),
            at.x,
            at.y,
            rotation.degrees()
        ),
        Event::MeeplePlaced {
            on,
            figure: carc_events::Figure::Large,
            ..
        } => format!("large meeple on {}", words(on)),
        Event::MeeplePlaced {
            on,
            figure: carc_events::Figure::Builder,
            ..
        } => format!("builder on {}", words(on)),
        Event::MeeplePlaced {
            on,
            figure: carc_events::Figure::Pig,
            ..
        } => format!("pig on {}", words(on)),
        Event::MeeplePlaced { on, .. } => format!("meeple on {}", words(on)),
        Event::MeepleSkipped { .. } => "no meeple".to_string(),
        Event::TileSetAside { tile, .. } => format!("set {} aside", tile.as_str()),
        Event::ArrowChosen { at, symbol, .. } => {
            format!("chose the {} arrow at ({},{})", symbol.as_str(), at.x, at.y)
        }
        Event::ArrowMeeplePlaced { action, at, on, .. } => {
            format!(
                "{} meeple on {} at ({},{})",
                action.as_str(),
                words(on),
                at.x,
                at.y
            )
        }
        // The viewer shows the full view: every card the log records, face up.
        Event::GiftReceived { card, .. } => {
            format!("gift: {}", carc_replay::describe::card_words(*card))
        }
        Event::GiftOpened {
            card, at, on, to, ..
        } => {
            let mut target = match (at, on) {
                (Some(at), Some(on)) => format!(" on {} at ({},{})", words(on), at.x, at.y),
                _ => String::new(),
            };
            // Change Position: the new spot, which tells its openings on one meeple apart.
            if let Some(to) = to {
                target.push_str(&format!(" to {}", words(to)));
            }
            format!(
                "opened {}{target}",
                carc_replay::describe::card_words(*card)
            )
        }
        Event::GameEnded => "game ended (bag not empty)".to_string(),
        Event::TileReturned { tile, .. } => format!("returned {} (Take 2)", tile.as_str()),
        Event::AbbotPlaced { at, on, .. } => format!("abbot on {on} at ({},{})", at.x, at.y),
        Event::AbbotTakenBack { at, .. } => format!("abbot back from ({},{})", at.x, at.y),
    }
}

/// A sentence for the event (as `carc explain` says it).
pub use carc_replay::describe::describe_event;

/// Points gained per seat by a step's move, e.g. `Ada +8, Brandt +8` (empty when nobody
/// scored). The final scoring that the game's last step sets off is not the move's: the move
/// list gives it rows of its own ([`crate::move_list::final_rows`]).
pub fn gains(header: &Header, before: &[u32], step: &Step) -> String {
    let finals =
        carc_replay::describe::final_scoring_points(&step.effects.scores, step.scores_after.len());
    step.scores_after
        .iter()
        .enumerate()
        .filter_map(|(seat, &after)| {
            let was = before.get(seat).copied().unwrap_or(0) + finals[seat];
            (after > was).then(|| format!("{} +{}", seat_name(header, seat as u8), after - was))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line of the event list: `seq  seat  what [gains] [glyph]`, full view.
pub fn event_row(header: &Header, steps: &[Step], index: usize, glyph: Option<&str>) -> String {
    event_row_as(
        header,
        steps,
        index,
        glyph,
        carc_replay::describe::View::Full,
    )
}

/// [`event_row`] from a point of view (The Gifts: other players' cards face down).
pub fn event_row_as(
    header: &Header,
    steps: &[Step],
    index: usize,
    glyph: Option<&str>,
    view: carc_replay::describe::View,
) -> String {
    let step = &steps[index];
    let who = step
        .event
        .player()
        .map_or_else(String::new, |p| seat_name(header, p));
    let mut row = format!(
        "{:>3}  {who}  {}",
        step.seq,
        // The feature named as the rules name it, whichever name the log used.
        short_event_as(&carc_replay::describe::event_with_rules_names(step), view)
    );
    // 20th Anniversary: the draw that starts an extra turn says so.
    let extra = index > 0
        && steps[index - 1]
            .effects
            .notes
            .iter()
            .any(|n| n.begins_extra_turn());
    if extra {
        row.push_str("  [extra turn]");
    }
    let before = if index == 0 {
        vec![0; step.scores_after.len()]
    } else {
        steps[index - 1].scores_after.clone()
    };
    let g = gains(header, &before, step);
    if !g.is_empty() {
        row.push_str(&format!("  ({g})"));
    } else if !step.effects.scores.is_empty() {
        row.push_str("  (scored 0)");
    }
    if let Some(glyph) = glyph {
        row.push_str("  ");
        row.push_str(glyph);
    }
    row
}

/// A score laid out for the panel: a title and the lines of its breakdown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreLines {
    pub title: String,
    pub lines: Vec<String>,
}

pub fn score_lines(header: &Header, s: &Score) -> ScoreLines {
    let when = match s.time {
        ScoreTime::Completed => "completed",
        ScoreTime::Final => "final scoring",
    };
    let mut lines = vec![format!("formula: {}", s.formula)];
    lines.extend(carc_replay::describe::score_details(header, s));
    if s.winners.is_empty() {
        lines.push("majority: no meeple, nobody scores".to_string());
    }
    lines.push(format!("rule: {}", s.rule));
    let title = match s.source {
        ScoreSource::Arrow { symbol, side } => format!(
            "{symbol} arrow at {} pointing {} at no tile: {} points",
            s.feature.at,
            side.word(),
            s.points
        ),
        ScoreSource::Feature => {
            format!("{} ({when}) {}: {} points", s.kind, s.feature, s.points)
        }
        ScoreSource::TownCost { town } => format!(
            "covering the town {town} at {}: {} points",
            s.feature.at,
            s.signed_points()
        ),
        ScoreSource::Gift { card } => {
            format!("{card}: {} {}: {} points", s.kind, s.feature, s.points)
        }
        ScoreSource::UnopenedGifts { cards } => {
            format!("{cards} unopened gifts: {} points", s.points)
        }
        ScoreSource::AbbotTakenBack => format!(
            "abbot taken back from the {} at {}: {} points",
            s.kind, s.feature.at, s.points
        ),
        ScoreSource::Goods { good } => format!("goods majority, {good}: {} points", s.points),
        ScoreSource::Pig => format!("pig on the field {}: {} points", s.feature, s.points),
    };
    ScoreLines { title, lines }
}

/// A ruling-trace line: the note and its rule.
pub fn note_line(header: &Header, n: &Note) -> String {
    format!(
        "{}  [{}]",
        carc_replay::describe::note_text(header, n),
        n.rule()
    )
}

/// What lies on a square, feature by feature, valued as things stand (for hovering).
pub fn square_info(header: &Header, game: &Game, at: Pos) -> Option<Vec<String>> {
    let placed = game.tile_at(at)?;
    let tile = game.tiles().get(placed.tile);
    let mut out = vec![format!(
        "tile {} at {at}, rotated {}",
        tile.id, placed.rotation
    )];
    for (segment, _) in tile.segments.iter().enumerate() {
        let segment = segment as u8;
        let label = tile.segment_label(placed.rotation, segment);
        let Some(s) = game.appraise(at, segment) else {
            continue;
        };
        let n = s.tiles.len();
        let size = match s.kind {
            FeatureKind::Monastery => format!("{} of 9 squares", n),
            _ => format!("{n} tile{}", if n == 1 { "" } else { "s" }),
        };
        let status = match (s.kind, s.time) {
            (FeatureKind::Field, _) => "scored at the end",
            (_, ScoreTime::Completed) => "completed",
            (_, ScoreTime::Final) => "open",
        };
        let owners: Vec<String> = s
            .meeples
            .iter()
            .map(|(p, c)| format!("{} {c}", seat_name(header, *p)))
            .collect();
        let value = if s.winners.is_empty() {
            format!("worth {} (no meeple)", s.points)
        } else {
            format!(
                "{} now for {}",
                s.points,
                names(header, s.winners.iter().copied()).join(" and ")
            )
        };
        let owners = if owners.is_empty() {
            String::new()
        } else {
            format!("; meeples: {}", owners.join(", "))
        };
        out.push(format!(
            "{label}: {}, {size}, {status}{owners}; {value}",
            s.kind
        ));
    }
    for (player, mpos, _, label) in game.meeples() {
        if mpos == at {
            out.push(format!("{}'s meeple on {label}", seat_name(header, player)));
        }
    }
    Some(out)
}

/// The colour of a player's meeples on the board (the palette of `carc-draw`, shared with the
/// SVG pictures and the HTML report).
pub fn meeple_color(c: Color) -> Color32 {
    carc_draw::player_color(c.as_str()).map_or(Color32::WHITE, crate::board::color32)
}

/// A player's colour for text and plot lines: the meeple colour, lightened where it would
/// vanish against the background.
pub fn text_color(c: Color, dark_mode: bool) -> Color32 {
    carc_draw::player_text_color(c.as_str(), dark_mode)
        .map_or_else(|| meeple_color(c), crate::board::color32)
}

/// A figure going home, for the current-event panel: `Ada's meeple from city S at (0,1)`, or
/// `Cleo's abbot from garden at (2,0)` when it is an abbot (The Abbot).
pub fn returned_line(header: &Header, r: &ReturnedMeeple) -> String {
    format!(
        "{}'s {} from {} at {}",
        seat_name(header, r.player),
        r.figure(),
        r.label,
        r.at
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loaded::LoadedGame;
    use std::path::Path;

    fn short_game() -> LoadedGame {
        LoadedGame::open(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl"),
        )
        .unwrap()
    }

    #[test]
    fn event_rows() {
        let g = short_game();
        let h = &g.timeline.log.header;
        let steps = &g.timeline.steps;
        assert_eq!(
            event_row(h, steps, 0, None),
            "  1    start tile D at (0,0) 0°"
        );
        assert_eq!(
            event_row(h, steps, 2, None),
            "  3  Ada  placed N at (0,1) 180°"
        );
        assert_eq!(
            event_row(h, steps, 3, Some("?!")),
            "  4  Ada  meeple on city S  ?!"
        );
        // Event 18 joins the two occupied cities: a tie, 8 each.
        let row = event_row(h, steps, 18, None);
        assert!(row.contains("(Ada +8, Brandt +8)"), "{row}");
    }

    #[test]
    fn anniversary_rows_mark_arrow_choices_remote_meeples_and_extra_turns() {
        // Given the 4-player anniversary sample (it has every symbol, a choice and extra turns)
        let g = LoadedGame::open(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../logs/sim-4p-anniversary-mixed.jsonl"),
        )
        .unwrap();
        assert!(g.problem().is_none(), "{:?}", g.problem());
        let h = &g.timeline.log.header;
        let steps = &g.timeline.steps;
        // When every row of the event list is written
        let rows: Vec<String> = (0..steps.len())
            .map(|i| event_row(h, steps, i, None))
            .collect();
        // Then the choices, the meeples sent by companion and portal, and the extra turns show
        let has = |what: &str| rows.iter().any(|r| r.contains(what));
        assert!(has("chose the "), "no arrow choice row");
        assert!(has("companion meeple on "), "no companion row");
        assert!(has("portal meeple on "), "no portal row");
        let extra: Vec<&String> = rows.iter().filter(|r| r.contains("[extra turn]")).collect();
        assert!(!extra.is_empty(), "no extra turn row");
        assert!(extra.iter().all(|r| r.contains(" drew ")), "{extra:?}");
        // And a +2 for an arrow pointing at no tile is titled as such
        let arrow_score = steps
            .iter()
            .flat_map(|s| &s.effects.scores)
            .find(|s| matches!(s.source, ScoreSource::Arrow { .. }))
            .expect("an arrow scored 2");
        let lines = score_lines(h, arrow_score);
        assert!(
            lines.title.contains("arrow at (") && lines.title.ends_with("at no tile: 2 points"),
            "{}",
            lines.title
        );
        assert!(
            lines
                .lines
                .iter()
                .any(|l| l.starts_with("rule: anniversary.arrow.no-tile")),
            "{:?}",
            lines.lines
        );
    }

    #[test]
    fn score_breakdown_of_the_tied_city() {
        let g = short_game();
        let h = &g.timeline.log.header;
        let step = &g.timeline.steps[18];
        assert_eq!(step.effects.scores.len(), 1);
        let s = score_lines(h, &step.effects.scores[0]);
        assert!(s.title.starts_with("city (completed)"), "{}", s.title);
        assert!(s.title.ends_with(": 8 points"), "{}", s.title);
        assert!(
            s.lines.contains(&"meeples: Ada 1, Brandt 1".to_string()),
            "{:?}",
            s.lines
        );
        assert!(s
            .lines
            .contains(&"majority: Ada and Brandt (+8 each)".to_string()));
        assert!(s
            .lines
            .contains(&"rule: base.score.city.completed".to_string()));
        assert!(
            s.lines[0].starts_with("formula: 2 × 4 tiles"),
            "{:?}",
            s.lines
        );
    }

    #[test]
    fn hovering_a_square_values_its_features() {
        let g = short_game();
        let h = &g.timeline.log.header;
        let game = g.timeline.state_at(10).unwrap();
        let info = square_info(h, &game, Pos::new(0, -1)).unwrap();
        assert_eq!(info[0], "tile B at (0,-1), rotated 0°");
        assert!(
            info.iter().any(|l| l.starts_with("monastery: monastery")
                && l.contains("meeples: Ada 1")
                && l.contains("now for Ada")),
            "{info:?}"
        );
        assert!(
            info.iter().any(|l| l == "Ada's meeple on monastery"),
            "{info:?}"
        );
        assert!(square_info(h, &game, Pos::new(5, 5)).is_none());
    }

    #[test]
    fn notes_carry_their_rule() {
        let g = short_game();
        let h = &g.timeline.log.header;
        let line = note_line(h, &g.timeline.steps[0].effects.notes[0]);
        assert!(line.ends_with("[base.setup.start-tile]"), "{line}");
    }

    #[test]
    fn notes_name_the_players() {
        // Given the short game, whose event 4 ends Ada's turn
        let g = short_game();
        let h = &g.timeline.log.header;
        // When its notes are shown
        let lines: Vec<String> = g.timeline.steps[3]
            .effects
            .notes
            .iter()
            .map(|n| note_line(h, n))
            .collect();
        // Then the next player is named, never "seat 1"
        assert!(
            lines.contains(&"Brandt plays next  [base.turn.order]".to_string()),
            "{lines:?}"
        );
    }

    #[test]
    fn an_abbot_going_home_is_called_an_abbot() {
        // Given the abbot sample, where Cleo takes her abbot back at event 46
        let g = LoadedGame::open(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/sim-3p-abbot-mixed.jsonl"),
        )
        .unwrap();
        let h = &g.timeline.log.header;
        let step = g.timeline.steps.iter().find(|s| s.seq == 46).unwrap();
        // Then the figure going home is her abbot
        let lines: Vec<String> = step
            .effects
            .returned
            .iter()
            .map(|r| returned_line(h, r))
            .collect();
        assert_eq!(lines, ["Cleo's abbot from garden at (2,0)"]);
        // And a meeple going home is still a meeple
        let meeple = ReturnedMeeple {
            abbot: false,
            ..step.effects.returned[0]
        };
        assert_eq!(
            returned_line(h, &meeple),
            "Cleo's meeple from garden at (2,0)"
        );
    }
}
