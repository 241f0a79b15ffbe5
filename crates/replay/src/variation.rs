//! What-if variations replayed: a variation's line of play (the game's events up to where it
//! branches, then its own moves, through every parent) as a log of its own, folded with the
//! same rules as the game. The records are `carc_events::variation`'s.

use std::collections::BTreeMap;

use carc_events::variation::{OutsideParent, Variation};
use carc_events::Log;
use carc_rules::TileSet;
use thiserror::Error;

use crate::{fold, ReplayError, Timeline};

/// Why a variation's line of play cannot be put together.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum LineError {
    #[error("no variation named {0:?}")]
    Unknown(String),
    #[error("variation {name:?} branches from {parent:?}, which does not exist")]
    MissingParent { name: String, parent: String },
    #[error("variations {0:?} branch from one another in a circle")]
    Cycle(Vec<String>),
    #[error(
        "variation {name:?} branches after event {after}, but the game has events 0 to {last}"
    )]
    AfterMainLine { name: String, after: u64, last: u64 },
    #[error(transparent)]
    OutsideParent(#[from] OutsideParent),
}

/// The names from the top-level variation down to `name`.
pub fn chain(
    variations: &BTreeMap<String, Variation>,
    name: &str,
) -> Result<Vec<String>, LineError> {
    let mut names = vec![name.to_string()];
    let mut current = variations
        .get(name)
        .ok_or_else(|| LineError::Unknown(name.to_string()))?;
    while let Some(parent) = &current.parent {
        if names.contains(parent) {
            names.reverse();
            return Err(LineError::Cycle(names));
        }
        current = variations
            .get(parent)
            .ok_or_else(|| LineError::MissingParent {
                name: current.name.clone(),
                parent: parent.clone(),
            })?;
        names.push(parent.clone());
    }
    names.reverse();
    Ok(names)
}

/// The variation's line of play as a log: the game's header, its events up to where the
/// top-level variation branches, then each variation's moves down to `name`. The moves of
/// variations carry line 0 (they have no line in the game's file); [`VariationLine::error`]
/// words their errors without one.
pub fn variation_log(
    main: &Log,
    variations: &BTreeMap<String, Variation>,
    name: &str,
) -> Result<Log, LineError> {
    let names = chain(variations, name)?;
    let top = &variations[&names[0]];
    let last = main.last_seq();
    if top.after > last {
        return Err(LineError::AfterMainLine {
            name: top.name.clone(),
            after: top.after,
            last,
        });
    }
    let mut log = Log::new(main.header.clone());
    log.events = main
        .events
        .iter()
        .filter(|(_, e)| e.seq <= top.after)
        .cloned()
        .collect();
    for (i, n) in names.iter().enumerate() {
        let v = &variations[n];
        // The moves this variation contributes: all of them for the last one, else those up
        // to where the next one branches off it.
        let keep = match names.get(i + 1) {
            None => v.events.len(),
            Some(child) => {
                let child = &variations[child];
                child.check_within(v)?;
                (child.after - v.after) as usize
            }
        };
        log.events
            .extend(v.events[..keep].iter().map(|e| (0usize, e.clone())));
    }
    Ok(log)
}

/// A variation replayed.
#[derive(Clone, Debug)]
pub struct VariationLine {
    /// The variation's name.
    pub name: String,
    /// From the top-level variation down to this one.
    pub chain: Vec<String>,
    /// The seq of the game's last event the line shares (where the top-level variation
    /// branches).
    pub branch: u64,
    /// The line of play replayed; `timeline.error` is set if a move breaks a rule.
    pub timeline: Timeline,
}

impl VariationLine {
    /// The first illegal move, in words, if any: `variation "x", event 14 (tile_placed)
    /// breaks rule …: …`. Moves of the game itself keep their line number.
    pub fn error(&self) -> Option<String> {
        self.timeline.error.as_ref().map(|e| match e {
            ReplayError::Rule {
                line: 0,
                seq,
                event,
                rule,
                violation,
            } => format!(
                "variation {:?}, event {seq} ({event}) breaks rule {rule}: {violation}",
                self.name
            ),
            other => other.to_string(),
        })
    }

    /// Whether the variation's events are legal from start to end.
    pub fn is_legal(&self) -> bool {
        self.timeline.error.is_none()
    }
}

/// Replays the variation `name` of the game `main`.
pub fn fold_variation(
    main: &Log,
    variations: &BTreeMap<String, Variation>,
    name: &str,
    loaded: &[TileSet],
) -> Result<VariationLine, LineError> {
    let log = variation_log(main, variations, name)?;
    let chain = chain(variations, name)?;
    let branch = variations[&chain[0]].after;
    Ok(VariationLine {
        name: name.to_string(),
        chain,
        branch,
        timeline: fold(log, loaded),
    })
}

/// Scores of a variation against the game's after the event `seq`: the variation's minus the
/// game's, per seat. Where the game has no event `seq` (it ended sooner, or stopped being
/// legal), its last scores are used.
pub fn score_difference(main: &Timeline, line: &Timeline, seq: u64) -> Vec<i64> {
    let scores_at = |t: &Timeline| -> Vec<u32> {
        match t.index_of_seq(seq) {
            Some(i) => t.steps[i].scores_after.clone(),
            None if seq == 0 => vec![0; t.log.header.players.len()],
            None => t.final_scores(),
        }
    };
    let ours = scores_at(line);
    let theirs = scores_at(main);
    ours.iter()
        .zip(&theirs)
        .map(|(a, b)| i64::from(*a) - i64::from(*b))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_events::variation::Variation;
    use carc_events::{action_to_event, read_log, Envelope};
    use carc_rules::{Action, Effects, Phase};

    const SHORT: &str = include_str!("../../../logs/short-game-rulings.jsonl");

    fn main_log() -> Log {
        read_log(SHORT.as_bytes()).unwrap()
    }

    /// The moves of a different legal placement of the tile drawn at event `drawn` (and no
    /// meeple), then the game's own draws replayed as far as they stay legal: `moves` events.
    fn other_placement(main: &Timeline, drawn: u64) -> Vec<Envelope> {
        let mut game = main.state_at(drawn as usize).unwrap();
        let Phase::Place { tile } = game.phase() else {
            panic!("event {drawn} is not a draw")
        };
        let played = &main.steps[drawn as usize].event;
        let mut placements = Vec::new();
        game.legal_placements(tile, &mut placements);
        let mut fx = Effects::default();
        let other = placements
            .iter()
            .map(|p| Action::Place {
                at: p.at,
                rotation: p.rotation,
            })
            .find(|a| action_to_event(&game, a) != *played)
            .expect("another placement");
        let mut events = Vec::new();
        for action in [other, Action::SkipMeeple] {
            let event = action_to_event(&game, &action);
            game.apply(&action, &mut fx).unwrap();
            events.push(Envelope {
                seq: drawn + 1 + events.len() as u64,
                event,
            });
        }
        events
    }

    fn var(name: &str, parent: Option<&str>, after: u64, events: Vec<Envelope>) -> Variation {
        Variation {
            game: "short-game-rulings".into(),
            name: name.into(),
            parent: parent.map(str::to_string),
            after,
            events,
        }
    }

    fn set(vars: Vec<Variation>) -> BTreeMap<String, Variation> {
        vars.into_iter().map(|v| (v.name.clone(), v)).collect()
    }

    #[test]
    fn a_variation_replays_the_game_up_to_its_branch_then_its_own_moves() {
        // Given the short game, and a variation placing the tile drawn at event 17 elsewhere
        // (the game joins the two occupied cities there, a tie worth 8 each)
        let main = fold(main_log(), &[]);
        let moves = other_placement(&main, 17);
        let vars = set(vec![var("no join", None, 17, moves.clone())]);
        // When the variation is replayed
        let line = fold_variation(&main.log, &vars, "no join", &[]).unwrap();
        // Then it is legal, shares the game's first 17 events and ends with its own two
        assert!(line.is_legal(), "{:?}", line.error());
        assert_eq!(line.branch, 17);
        assert_eq!(line.timeline.steps.len(), 19);
        assert_eq!(line.timeline.steps[16].event, main.steps[16].event);
        assert_eq!(line.timeline.steps[17].event, moves[0].event);
        // And the score difference is zero up to the branch
        assert_eq!(score_difference(&main, &line.timeline, 17), vec![0, 0]);
        // And after the game's own event 19 (the cities joined, 8 each) the variation is behind
        assert_eq!(main.steps[18].scores_after, vec![8, 8]);
        let diff = score_difference(&main, &line.timeline, 19);
        assert_eq!(
            diff,
            vec![-8, -8],
            "{:?}",
            line.timeline.steps[18].scores_after
        );
    }

    #[test]
    fn a_nested_variation_follows_its_parent_to_its_branch() {
        // Given a variation "a" that repeats the game's moves 18 and 19, and "b" branching
        // from "a" after 17 with another placement
        let main = fold(main_log(), &[]);
        let same: Vec<Envelope> = main.log.events[17..19]
            .iter()
            .map(|(_, e)| e.clone())
            .collect();
        let vars = set(vec![
            var("a", None, 17, same),
            var("b", Some("a"), 17, other_placement(&main, 17)),
        ]);
        // When b is replayed
        let line = fold_variation(&main.log, &vars, "b", &[]).unwrap();
        // Then its chain is a then b, and it is legal
        assert_eq!(line.chain, ["a", "b"]);
        assert!(line.is_legal(), "{:?}", line.error());
        assert_eq!(line.timeline.steps.len(), 19);
    }

    #[test]
    fn an_illegal_move_is_reported_with_the_variation_and_event() {
        // Given a variation that places the drawn tile on the start tile's square
        let main = fold(main_log(), &[]);
        let mut moves = other_placement(&main, 17);
        if let carc_events::Event::TilePlaced { at, .. } = &mut moves[0].event {
            *at = carc_events::Pos::new(0, 0);
        }
        let vars = set(vec![var("bad", None, 17, moves)]);
        // When it is replayed
        let line = fold_variation(&main.log, &vars, "bad", &[]).unwrap();
        // Then the line stops before the bad move and says why, naming the variation
        assert!(!line.is_legal());
        assert_eq!(line.timeline.steps.len(), 17);
        let message = line.error().unwrap();
        assert!(
            message.starts_with("variation \"bad\", event 18 (tile_placed) breaks rule"),
            "{message}"
        );
    }

    #[test]
    fn broken_chains_are_refused() {
        let main = main_log();
        // A missing parent
        let vars = set(vec![var("x", Some("nobody"), 3, vec![])]);
        assert!(matches!(
            variation_log(&main, &vars, "x"),
            Err(LineError::MissingParent { .. })
        ));
        // A circle
        let vars = set(vec![
            var("x", Some("y"), 3, vec![]),
            var("y", Some("x"), 3, vec![]),
        ]);
        assert!(matches!(
            variation_log(&main, &vars, "x"),
            Err(LineError::Cycle(_))
        ));
        // A branch after the game's last event
        let vars = set(vec![var("x", None, 99, vec![])]);
        let err = variation_log(&main, &vars, "x").unwrap_err();
        assert_eq!(
            err.to_string(),
            "variation \"x\" branches after event 99, but the game has events 0 to 34"
        );
        // A child branching outside its parent's moves
        let vars = set(vec![
            var("p", None, 10, vec![]),
            var("c", Some("p"), 12, vec![]),
        ]);
        assert!(matches!(
            variation_log(&main, &vars, "c"),
            Err(LineError::OutsideParent(_))
        ));
        // An unknown name
        assert!(matches!(
            variation_log(&main, &vars, "zz"),
            Err(LineError::Unknown(_))
        ));
    }
}
