//! The fold: events in, game states out.
//!
//! [`fold`] replays a log into a [`Timeline`]: for every event, what it did (its effects: the
//! ruling trace, scores with explanations, meeples returned) and the scores after it. It stops
//! at the first illegal event and keeps everything before it, so a viewer can still step up to
//! the last legal event. [`Timeline::state_at`] re-folds to any event: the fold costs
//! microseconds, so states are not cached.
//!
//! [`rebuild`] is the fast path (no timeline, one reused effects buffer), and [`check`]
//! compares a log's assertions with the fold. [`variation`] replays what-if variations, the
//! game's events up to where they branch followed by their own moves.

pub mod describe;
pub mod gifts;
pub mod variation;

use carc_events::{
    event_to_action, game_from_header, Assertion, Event, FeatureKind, Log, SetupError,
};
use carc_rules::{Effects, Game, RuleViolation, TileSet};
use thiserror::Error;

/// Why a log does not replay.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ReplayError {
    #[error("line 1: the header does not describe a playable game: {0}")]
    Setup(#[from] SetupError),
    #[error("line {line}: event {seq} ({event}) breaks rule {rule}: {violation}")]
    Rule {
        line: usize,
        seq: u64,
        event: &'static str,
        rule: &'static str,
        violation: Box<RuleViolation>,
    },
}

impl ReplayError {
    pub fn line(&self) -> usize {
        match self {
            ReplayError::Setup(_) => 1,
            ReplayError::Rule { line, .. } => *line,
        }
    }

    pub fn seq(&self) -> Option<u64> {
        match self {
            ReplayError::Setup(_) => None,
            ReplayError::Rule { seq, .. } => Some(*seq),
        }
    }

    pub fn rule(&self) -> &'static str {
        match self {
            ReplayError::Setup(_) => carc_rules::rule::SETUP,
            ReplayError::Rule { rule, .. } => rule,
        }
    }

    /// The message without the location prefix.
    pub fn message(&self) -> String {
        self.message_with(&carc_rules::seat_number)
    }

    /// [`Self::message`] with each seat named by `name` (see `describe::error_message`).
    pub fn message_with(&self, name: carc_rules::SeatNamer<'_>) -> String {
        match self {
            ReplayError::Setup(e) => e.to_string(),
            ReplayError::Rule { violation, .. } => violation.message_with(name),
        }
    }
}

/// One applied event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub seq: u64,
    pub line: usize,
    pub event: Event,
    /// The turn the event belongs to (0 = the start tile).
    pub turn: u32,
    /// The seat that acted (the seat whose turn it was).
    pub seat: Option<u8>,
    pub effects: Effects,
    pub scores_after: Vec<u32>,
    pub supply_after: Vec<u8>,
}

/// A replayed log.
#[derive(Clone, Debug)]
pub struct Timeline {
    pub log: Log,
    pub steps: Vec<Step>,
    /// The first illegal event, if any; `steps` holds everything before it.
    pub error: Option<ReplayError>,
    /// Whether the game reached its end (final scoring done).
    pub finished: bool,
    loaded: Vec<TileSet>,
}

/// Replays a whole log into a timeline. Never fails: a bad event ends the timeline with an
/// error, and everything before it is kept.
pub fn fold(log: Log, loaded: &[TileSet]) -> Timeline {
    let mut timeline = Timeline {
        steps: Vec::with_capacity(log.events.len()),
        error: None,
        finished: false,
        loaded: loaded.to_vec(),
        log,
    };
    let mut game = match game_from_header(&timeline.log.header, loaded) {
        Ok(g) => g,
        Err(e) => {
            timeline.error = Some(ReplayError::Setup(e));
            return timeline;
        }
    };
    let mut fx = Effects::default();
    for (line, envelope) in &timeline.log.events {
        let turn = game.turn();
        let seat = envelope.event.player();
        if let Err(violation) = apply_event(&mut game, &envelope.event, &mut fx) {
            timeline.error = Some(ReplayError::Rule {
                line: *line,
                seq: envelope.seq,
                event: envelope.event.type_name(),
                rule: violation.rule(),
                violation: Box::new(violation),
            });
            break;
        }
        timeline.steps.push(Step {
            seq: envelope.seq,
            line: *line,
            event: envelope.event.clone(),
            turn,
            seat,
            effects: fx.clone(),
            scores_after: game.scores().to_vec(),
            supply_after: game.supply().to_vec(),
        });
    }
    timeline.finished = game.is_over() && timeline.error.is_none();
    timeline
}

fn apply_event(game: &mut Game, event: &Event, fx: &mut Effects) -> Result<(), RuleViolation> {
    let action = event_to_action(game, event)?;
    game.apply(&action, fx)
}

/// Replays a log to its end as fast as possible: no timeline, one effects buffer.
pub fn rebuild(log: &Log, loaded: &[TileSet]) -> Result<Game, ReplayError> {
    let mut game = game_from_header(&log.header, loaded)?;
    // The effects are thrown away: scores need no explanations.
    let mut fx = Effects::quiet();
    replay_onto(&mut game, log, usize::MAX, &mut fx)?;
    Ok(game)
}

fn replay_onto(
    game: &mut Game,
    log: &Log,
    count: usize,
    fx: &mut Effects,
) -> Result<(), ReplayError> {
    for (line, envelope) in log.events.iter().take(count) {
        apply_event(game, &envelope.event, fx).map_err(|violation| ReplayError::Rule {
            line: *line,
            seq: envelope.seq,
            event: envelope.event.type_name(),
            rule: violation.rule(),
            violation: Box::new(violation),
        })?;
    }
    Ok(())
}

impl Timeline {
    /// Scores at the end of the legal part of the log (after final scoring if finished).
    pub fn final_scores(&self) -> Vec<u32> {
        self.steps
            .last()
            .map(|s| s.scores_after.clone())
            .unwrap_or_else(|| vec![0; self.log.header.players.len()])
    }

    /// The game after the first `n` events (0 = before any event). `n` is clamped to the
    /// legal part of the log. Re-folds from the start.
    pub fn state_at(&self, n: usize) -> Result<Game, ReplayError> {
        let mut game = game_from_header(&self.log.header, &self.loaded)?;
        // The effects are thrown away: scores need no explanations.
        let mut fx = Effects::quiet();
        replay_onto(&mut game, &self.log, n.min(self.steps.len()), &mut fx)?;
        Ok(game)
    }

    /// The index in `steps` of the event with this seq.
    pub fn index_of_seq(&self, seq: u64) -> Option<usize> {
        self.steps.iter().position(|s| s.seq == seq)
    }

    /// Tile sets loaded from files that this timeline was folded with.
    pub fn loaded_tile_sets(&self) -> &[TileSet] {
        &self.loaded
    }
}

/// A claim in the log that the fold contradicts (or cannot check).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {}", self.message())]
pub struct AssertionFailure {
    pub line: usize,
    pub assertion: &'static str,
    pub claimed: Vec<u32>,
    pub actual: String,
}

impl AssertionFailure {
    /// The claim and what the fold says instead, without the line: both numbers, and for a
    /// feature's points (`expect_points`) the feature kind, the event and the fold's scoring.
    pub fn message(&self) -> String {
        match (self.assertion, self.claimed.as_slice()) {
            ("expect_points", [points]) => {
                format!(
                    "{} claims {points} points, but {}",
                    self.assertion, self.actual
                )
            }
            _ => format!(
                "{} claims scores {:?}, but {}",
                self.assertion, self.claimed, self.actual
            ),
        }
    }
}

fn rules_kind(kind: FeatureKind) -> carc_rules::FeatureKind {
    match kind {
        FeatureKind::City => carc_rules::FeatureKind::City,
        FeatureKind::Road => carc_rules::FeatureKind::Road,
        FeatureKind::Field => carc_rules::FeatureKind::Field,
        FeatureKind::Monastery => carc_rules::FeatureKind::Monastery,
        FeatureKind::Garden => carc_rules::FeatureKind::Garden,
    }
}

/// Checks an `expect_points` claim; `None` when the fold agrees, otherwise what it gives
/// instead, naming the feature kind, the event and both numbers.
fn check_points(
    timeline: &Timeline,
    after: u64,
    player: u8,
    feature: FeatureKind,
    claimed: u32,
) -> Option<String> {
    let Some(step) = timeline.steps.iter().find(|s| s.seq == after) else {
        return Some(format!("event {after} was not replayed"));
    };
    let kind = rules_kind(feature);
    let scored: Vec<&carc_rules::Score> = step
        .effects
        .scores
        .iter()
        .filter(|s| s.kind == kind && s.winners.contains(&player))
        .collect();
    let total: u32 = scored.iter().map(|s| s.points).sum();
    if total == claimed {
        return None;
    }
    let header = &timeline.log.header;
    let mut why = format!(
        "the fold gives {} {total} points, not {claimed}, for {} features in \
         event {after} ({})",
        describe::shown_name(header, player),
        feature.as_str(),
        step.event.type_name()
    );
    if !scored.is_empty() {
        let each: Vec<String> = scored
            .iter()
            .map(|s| describe::score_headline(header, s))
            .collect();
        why.push_str(&format!(": {}", each.join("; ")));
    }
    Some(why)
}

/// Compares every assertion of the log with the timeline.
pub fn check_assertions(timeline: &Timeline) -> Vec<AssertionFailure> {
    let mut failures = Vec::new();
    for (line, assertion) in &timeline.log.assertions {
        let claimed = assertion.scores().to_vec();
        let actual: Result<Vec<u32>, String> = match assertion {
            Assertion::ExpectScores { after, .. } => timeline
                .steps
                .iter()
                .find(|s| s.seq == *after)
                .map(|s| s.scores_after.clone())
                .ok_or_else(|| format!("event {after} was not replayed")),
            Assertion::ExpectFinalScores { .. } => {
                if timeline.finished {
                    Ok(timeline.final_scores())
                } else {
                    Err("the game did not reach its final scoring".to_string())
                }
            }
            Assertion::ExpectPoints {
                after,
                player,
                feature,
                points,
            } => {
                if let Some(why) = check_points(timeline, *after, *player, *feature, *points) {
                    failures.push(AssertionFailure {
                        line: *line,
                        assertion: assertion.type_name(),
                        claimed,
                        actual: why,
                    });
                }
                continue;
            }
        };
        let failure = match actual {
            Ok(scores) if scores == claimed => None,
            Ok(scores) => Some(format!("the fold gives {scores:?}")),
            Err(why) => Some(why),
        };
        if let Some(actual) = failure {
            failures.push(AssertionFailure {
                line: *line,
                assertion: assertion.type_name(),
                claimed,
                actual,
            });
        }
    }
    failures
}
