//! What a report says, in the order it says it, before it is written as Markdown or HTML:
//! the setup, the turns and their events in the sentences of `carc_replay::describe`, where
//! the log stops being legal, the final scoring, the score table and the caller's extras.
//! Both writers render this one walk of the timeline, so they cannot drift apart; what stays
//! in a writer is only how its format shows things (and, in HTML, escaping).

use std::collections::BTreeMap;

use carc_events::annotation::Annotation;
use carc_events::Header;
use carc_replay::describe::{
    describe_arrows, describe_gifts, describe_step, describe_traders, final_scoring_rows,
    seat_name, FinalRow,
};
use carc_replay::Timeline;
use carc_rules::{ReturnedMeeple, Score, ScoreTime};

use crate::extras::{Extras, Section};

pub(crate) struct Outline<'a> {
    pub header: &'a Header,
    pub turns: Vec<Turn<'a>>,
    pub illegal: Option<Illegal>,
    /// The scores of the final scoring, in order.
    pub finals: Vec<&'a Score>,
    /// The final scoring as rows per player and feature (`describe::final_scoring_rows`).
    pub final_rows: Vec<FinalRow>,
    /// The figures the final scoring sent home, as "meeple back to …" lines: listed with
    /// the final scoring, not under the last move.
    pub final_returned: Vec<String>,
    pub table: ScoreTable,
    pub sections: &'a [Section],
}

pub(crate) struct Turn<'a> {
    pub number: u32,
    pub title: String,
    pub events: Vec<Event<'a>>,
    /// How many steps of the timeline have been played at the end of this turn.
    pub steps_through: usize,
}

pub(crate) struct Event<'a> {
    pub seq: u64,
    /// The step's index in the timeline.
    pub index: usize,
    /// Who moved, if a player did.
    pub seat: Option<u8>,
    /// The annotation's glyph first, then the caller's mark.
    pub marks: Vec<Mark>,
    pub text: String,
    /// What the 20th Anniversary arrows and the map did.
    pub arrows: Vec<String>,
    /// What Traders & Builders did: goods taken, the builder's second turn. A list of its own
    /// so that the pages do not style them as arrows.
    pub traders: Vec<String>,
    /// What The Gifts did: gifts earned, cards taken and opened, their effects.
    pub gifts: Vec<String>,
    /// Scores of features completed by this event.
    pub scores: Vec<&'a Score>,
    /// "meeple back to …" sentences ("abbot back to …" for an abbot).
    pub returned: Vec<String>,
    /// The annotation's comment, trimmed; none when it is blank.
    pub comment: Option<&'a str>,
    /// The caller's lines.
    pub lines: &'a [String],
}

pub(crate) struct Mark {
    pub glyph: String,
    pub meaning: String,
    /// A caller's mark rather than an annotation's glyph.
    pub extra: bool,
}

pub(crate) struct Illegal {
    pub line: usize,
    /// The event number, or `?` when the line had none.
    pub event: String,
    pub message: String,
    pub rule: &'static str,
}

pub(crate) struct ScoreTable {
    pub title: &'static str,
    pub rows: Vec<ScoreRow>,
}

pub(crate) struct ScoreRow {
    pub name: String,
    pub points: u32,
    /// The game is finished and nobody has more points.
    pub winner: bool,
}

pub(crate) fn outline<'a>(
    timeline: &'a Timeline,
    annotations: &'a BTreeMap<u64, Annotation>,
    extras: &'a Extras,
) -> Outline<'a> {
    let header = &timeline.log.header;
    let steps = &timeline.steps;
    let mut turns: Vec<Turn<'a>> = Vec::new();
    let mut finals = Vec::new();
    let mut final_returned = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        if turns.last().is_none_or(|t| t.number != step.turn) {
            let title = match (step.turn, step.seat) {
                (0, _) => "Start".to_string(),
                (t, Some(seat)) => format!("Turn {t}: {}", seat_name(header, seat)),
                (t, None) => format!("Turn {t}"),
            };
            turns.push(Turn {
                number: step.turn,
                title,
                events: Vec::new(),
                steps_through: index,
            });
        }
        let note = annotations.get(&step.seq);
        let extra = extras.events.get(&step.seq);
        let mut marks: Vec<Mark> = note
            .and_then(|a| a.glyph)
            .map(|g| Mark {
                glyph: g.as_str().to_string(),
                meaning: g.meaning().to_string(),
                extra: false,
            })
            .into_iter()
            .collect();
        if let Some(e) = extra.filter(|e| !e.glyph.is_empty()) {
            marks.push(Mark {
                glyph: e.glyph.clone(),
                meaning: e.meaning.clone(),
                extra: true,
            });
        }
        let scores_of =
            |time: ScoreTime| step.effects.scores.iter().filter(move |s| s.time == time);
        finals.extend(scores_of(ScoreTime::Final));
        // The figures the final scoring sent home come last; they are told with it.
        let all_returned = &step.effects.returned;
        let at_end = step.effects.returned_at_final_scoring().len();
        let (moved, ended) = all_returned.split_at(all_returned.len() - at_end);
        final_returned.extend(ended.iter().map(|r| returned_line(header, r)));
        let turn = turns.last_mut().expect("a turn was opened above");
        turn.steps_through = index + 1;
        turn.events.push(Event {
            seq: step.seq,
            index,
            seat: step.seat,
            marks,
            text: describe_step(header, step),
            arrows: describe_arrows(header, step.seat, &step.effects),
            traders: describe_traders(header, step.seat, &step.effects),
            gifts: describe_gifts(header, step.seat, &step.effects),
            scores: scores_of(ScoreTime::Completed).collect(),
            returned: moved.iter().map(|r| returned_line(header, r)).collect(),
            comment: note.map(|a| a.text.trim()).filter(|t| !t.is_empty()),
            lines: extra.map_or(&[][..], |e| &e.lines[..]),
        });
    }
    let illegal = timeline.error.as_ref().map(|e| Illegal {
        line: e.line(),
        event: e.seq().map_or_else(|| "?".to_string(), |s| s.to_string()),
        message: e.message(),
        rule: e.rule(),
    });
    let final_rows = final_scoring_rows(finals.iter().copied());
    Outline {
        header,
        turns,
        illegal,
        finals,
        final_rows,
        final_returned,
        table: score_table(timeline),
        sections: &extras.sections,
    }
}

/// A figure going home, in the reports' words: `meeple back to Ada: city S at (0,1)`, or
/// `abbot back to Cleo: garden at (2,0)` when the figure is an abbot (The Abbot).
pub(crate) fn returned_line(header: &Header, r: &ReturnedMeeple) -> String {
    format!(
        "{} back to {}: {} at {}",
        r.figure(),
        seat_name(header, r.player),
        r.label,
        r.at
    )
}

fn score_table(timeline: &Timeline) -> ScoreTable {
    let header = &timeline.log.header;
    let scores = timeline.final_scores();
    let best = scores.iter().copied().max();
    ScoreTable {
        title: if timeline.finished {
            "Final scores"
        } else {
            "Scores (the game is not finished)"
        },
        rows: scores
            .iter()
            .enumerate()
            .map(|(seat, &points)| ScoreRow {
                name: seat_name(header, seat as u8),
                points,
                winner: timeline.finished && Some(points) == best,
            })
            .collect(),
    }
}
