//! The move list as a game record: one row per turn (its number, the player, the tile and
//! where it went, the meeple, the points the turn scored, the glyph), each turn's events one
//! click away. Plain Rust: the rows are grouped and worded here, drawn by `app::event_list`.
//!
//! A turn is the run of consecutive events the engine counts in one turn; a start tile is a
//! turn of its own (the engine counts it in turn 0 with the first player's turn, as
//! [`crate::model::Nav`] does).

use std::ops::Range;

use carc_events::{Event, Header};
use carc_replay::Step;

use crate::text::{gains, seat_name};

/// Player names longer than this many characters are elided in a row (`Maximilia…`), so a
/// long name never pushes the rest of the row away.
pub const NAME_CHARS: usize = 10;

/// The steps of each turn, in order: `steps[range]` is one turn.
pub fn turn_groups(steps: &[Step]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..steps.len() {
        let ends = matches!(steps[i].event, Event::StartPlaced { .. })
            || steps
                .get(i + 1)
                .is_none_or(|next| next.turn != steps[i].turn);
        if ends {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    out
}

/// The group holding step `index`, if any.
pub fn group_of(groups: &[Range<usize>], index: usize) -> Option<usize> {
    groups.iter().position(|g| g.contains(&index))
}

/// A name cut to [`NAME_CHARS`] characters with `…` when longer.
pub fn elide(name: &str) -> String {
    elide_to(name, NAME_CHARS)
}

/// A name cut to `chars` characters (at least [`NAME_CHARS`]) with `…` when longer.
pub fn elide_to(name: &str, chars: usize) -> String {
    let chars = chars.max(NAME_CHARS);
    if name.chars().count() <= chars {
        return name.to_string();
    }
    let mut out: String = name.chars().take(chars - 1).collect();
    out.push('…');
    out
}

/// What a turn did, in the record's words: `A (2,0) 90°  meeple on road E  (Ada +3)` (or
/// `abbot on garden`, `abbot back +5`); for a start tile `start D (0,0) 0°`.
pub fn turn_summary(header: &Header, steps: &[Step], group: Range<usize>) -> String {
    let mut tile = String::new();
    let mut meeple = String::new();
    for step in &steps[group.clone()] {
        match &step.event {
            Event::StartPlaced {
                tile: t,
                at,
                rotation,
            } => {
                tile = format!(
                    "start {} ({},{}) {}°",
                    t.as_str(),
                    at.x,
                    at.y,
                    rotation.degrees()
                );
            }
            Event::TilePlaced {
                tile: t,
                at,
                rotation,
                ..
            } => {
                tile = format!("{} ({},{}) {}°", t.as_str(), at.x, at.y, rotation.degrees());
            }
            Event::TileSetAside { tile: t, .. } => tile = format!("{} set aside", t.as_str()),
            Event::MeeplePlaced { on, .. } => meeple = format!("meeple on {on}"),
            Event::ArrowMeeplePlaced { action, at, on, .. } => {
                meeple = format!("{} meeple on {on} at ({},{})", action.as_str(), at.x, at.y);
            }
            Event::MeepleSkipped { .. } => meeple = "no meeple".to_string(),
            // The Abbot: in the meeple's place, with the take-back's points.
            Event::AbbotPlaced { on, .. } => meeple = format!("abbot on {on}"),
            Event::AbbotTakenBack { .. } => {
                let points: u32 = step
                    .effects
                    .scores
                    .iter()
                    .filter(|s| s.source == carc_rules::ScoreSource::AbbotTakenBack)
                    .map(|s| s.points)
                    .sum();
                meeple = format!("abbot back +{points}");
            }
            _ => {}
        }
    }
    if tile.is_empty() {
        // A turn cut short (the line ends after the draw): say what it holds.
        if let Some(Event::TileDrawn { tile: t, .. }) = steps.get(group.start).map(|s| &s.event) {
            tile = format!("drew {}", t.as_str());
        }
    }
    let mut out = tile;
    // 20th Anniversary: a turn that an extra-turn arrow gave says so.
    let extra = group.start > 0
        && steps[group.start - 1]
            .effects
            .notes
            .iter()
            .any(|n| n.begins_extra_turn());
    if extra {
        out.push_str("  [extra turn]");
    }
    if !meeple.is_empty() {
        out.push_str("  ");
        out.push_str(&meeple);
    }
    let before = match group.start {
        0 => vec![0; steps[group.start].scores_after.len()],
        i => steps[i - 1].scores_after.clone(),
    };
    let g = gains(header, &before, &steps[group.end - 1]);
    if !g.is_empty() {
        out.push_str(&format!("  ({g})"));
    }
    out
}

/// One row of the move list: `  7  Brandt  A (2,0) 90°  no meeple  ? -7.5`. `number` is the
/// turn's number in the record (0 for a start tile), `marks` the annotation glyph and the
/// move-quality mark, already worded.
pub fn turn_row(
    header: &Header,
    steps: &[Step],
    group: Range<usize>,
    number: usize,
    marks: &str,
) -> String {
    turn_row_within(header, steps, group, number, marks, 0)
}

/// [`turn_row`] for a list `columns` characters wide: the player's name is cut only as far
/// as the row needs (never below [`NAME_CHARS`]), so a wider list shows more of it.
pub fn turn_row_within(
    header: &Header,
    steps: &[Step],
    group: Range<usize>,
    number: usize,
    marks: &str,
    columns: usize,
) -> String {
    let summary = turn_summary(header, steps, group.clone());
    let first = &steps[group.start];
    let who = match (&first.event, first.seat) {
        (Event::StartPlaced { .. }, _) | (_, None) => String::new(),
        (_, Some(seat)) => {
            let name = seat_name(header, seat);
            // The rest of the row: the number, the summary, the marks and the gaps.
            let rest = 5
                + summary.chars().count()
                + if marks.is_empty() {
                    0
                } else {
                    2 + marks.chars().count()
                }
                + 2;
            elide_to(&name, columns.saturating_sub(rest))
        }
    };
    let mut row = format!("{number:>3}  ");
    if !who.is_empty() {
        row.push_str(&who);
        row.push_str("  ");
    }
    row.push_str(&summary);
    if !marks.is_empty() {
        row.push_str("  ");
        row.push_str(marks);
    }
    row
}

/// The final scoring, when the line's last step ended the game with it: one row per player
/// and feature, `     Ada  +10  road E at (0,0)` (the points before the feature, so a
/// narrow panel elides the feature, not the points), listed after the last turn (whose own row
/// counts only what its move scored).
pub fn final_rows(header: &Header, steps: &[Step]) -> Vec<String> {
    let Some(last) = steps.last() else {
        return Vec::new();
    };
    carc_replay::describe::final_scoring_rows(&last.effects.scores)
        .iter()
        .map(|r| {
            format!(
                "     {}  +{}  {}",
                elide(&seat_name(header, r.seat)),
                r.points,
                r.what
            )
        })
        .collect()
}

/// The record's numbers of the groups: start tiles are 0, the turns after them 1, 2, …
pub fn turn_numbers(steps: &[Step], groups: &[Range<usize>]) -> Vec<usize> {
    let mut n = 0;
    groups
        .iter()
        .map(|g| {
            if matches!(steps[g.start].event, Event::StartPlaced { .. }) {
                0
            } else {
                n += 1;
                n
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loaded::LoadedGame;
    use std::path::Path;

    fn short() -> LoadedGame {
        LoadedGame::open(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl"),
        )
        .unwrap()
    }

    #[test]
    fn a_game_is_grouped_into_the_start_tile_and_whole_turns() {
        // Given the short game (start tile, then draw/place/meeple turns)
        let g = short();
        let steps = &g.timeline.steps;
        // When its steps are grouped
        let groups = turn_groups(steps);
        // Then the start tile is a turn of its own, every other turn has its three events,
        // and the groups cover every step once, in order
        assert_eq!(groups[0], 0..1);
        assert_eq!(groups[1], 1..4);
        assert_eq!(groups.last().unwrap().end, steps.len());
        assert!(groups.windows(2).all(|w| w[0].end == w[1].start));
        assert_eq!(turn_numbers(steps, &groups)[..3], [0, 1, 2]);
        assert_eq!(group_of(&groups, 5), Some(2));
        assert_eq!(group_of(&groups, 999), None);
    }

    #[test]
    fn a_row_reads_like_a_game_record() {
        let g = short();
        let h = &g.timeline.log.header;
        let steps = &g.timeline.steps;
        let groups = turn_groups(steps);
        assert_eq!(
            turn_row(h, steps, groups[0].clone(), 0, ""),
            "  0  start D (0,0) 0°"
        );
        assert_eq!(
            turn_row(h, steps, groups[2].clone(), 2, "?!"),
            "  2  Brandt  J (-1,0) 0°  meeple on city N  ?!"
        );
        // Event 19 joins two cities: the turn scores 8 each
        let joined = group_of(&groups, 18).unwrap();
        let row = turn_row(h, steps, groups[joined].clone(), 6, "");
        assert!(row.ends_with("(Ada +8, Brandt +8)"), "{row}");
    }

    #[test]
    fn an_abbot_placed_or_taken_back_reads_like_a_meeple() {
        // Given the abbot sample: Brandt puts his abbot on the garden at (-1,-2) at event 25,
        // Cleo takes hers back from (2,0) at event 46
        let g = LoadedGame::open(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/sim-3p-abbot-mixed.jsonl"),
        )
        .unwrap();
        let h = &g.timeline.log.header;
        let steps = &g.timeline.steps;
        let groups = turn_groups(steps);
        let row = |seq: u64| {
            let i = steps.iter().position(|s| s.seq == seq).unwrap();
            turn_summary(h, steps, groups[group_of(&groups, i).unwrap()].clone())
        };
        // Then the rows say so where a meeple would be, the take-back with its points
        assert!(row(25).contains("  abbot on garden"), "{}", row(25));
        let back = row(46);
        let points = steps.iter().find(|s| s.seq == 46).unwrap().effects.scores[0].points;
        assert!(points > 0);
        assert!(back.contains(&format!("  abbot back +{points}")), "{back}");
    }

    #[test]
    fn long_names_are_elided_not_cut() {
        assert_eq!(elide("Ada"), "Ada");
        assert_eq!(elide("Maximiliane Huber"), "Maximilia…");
        assert_eq!(elide("Maximiliane Huber").chars().count(), NAME_CHARS);
        assert_eq!(elide("exactly10c"), "exactly10c");
    }

    #[test]
    fn a_wider_list_shows_more_of_a_long_name() {
        // Given a name of 17 characters, then it is cut to fit the room, never below the
        // minimum, and shown whole when there is room
        assert_eq!(elide_to("Maximiliane Huber", 0), "Maximilia…");
        assert_eq!(elide_to("Maximiliane Huber", 14), "Maximiliane H…");
        assert_eq!(elide_to("Maximiliane Huber", 40), "Maximiliane Huber");
    }
}
