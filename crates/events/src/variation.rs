//! What-if variations: alternative moves from some event of a game, kept beside the game and
//! never inside its log (see `docs/variations.md`).
//!
//! A variation is named and branches from a line of play: the game's main line, or another
//! variation (its `parent`), after the event `after` of that line. Its events are ordinary log
//! events, numbered on from `after + 1`, so the variation's own line is the parent line up to
//! `after` followed by its events:
//!
//! ```json
//! {"game":"g","name":"city instead","parent":null,"after":12,"events":[{"seq":13,"type":"tile_placed",…}]}
//! {"game":"g","name":"city instead","deleted":true}
//! ```
//!
//! Records are appended, never edited: the later record of a name wins, and a `deleted` record
//! removes it. Beside a log file they live in `<log>.variations.jsonl` ([`variations_path`]);
//! in the store, in a stream of their own (`carc-archive`); in an exported bundle, as
//! `{"type":"variation",…}` lines after the game's events. Whether the moves are legal is for
//! the rules engine to judge (`carc-replay`); this module checks the record's shape and the
//! numbering only.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use crate::error::DecodeErrorKind;
use crate::event_decode::decode_event_object;
use crate::model::Envelope;

/// The longest variation name, in characters.
pub const MAX_NAME_CHARS: usize = 80;

/// A variation as recorded: alternative moves from event `after` of its parent line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The game it belongs to (the header's `game`).
    pub game: String,
    /// Its name, unique within the game.
    pub name: String,
    /// The variation it branches from; `None` for the game's main line.
    pub parent: Option<String>,
    /// The seq of the parent line's event after which the variation branches (0 = before the
    /// first event).
    pub after: u64,
    /// Its moves, numbered `after + 1`, `after + 2`, …
    pub events: Vec<Envelope>,
}

/// One line of a variations file: a variation set (added or replaced), or one removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariationRecord {
    /// The variation, replacing any earlier one of that name.
    Set(Variation),
    /// The variation of this name no longer exists.
    Deleted { game: String, name: String },
}

impl VariationRecord {
    /// The game the record belongs to.
    pub fn game(&self) -> &str {
        match self {
            VariationRecord::Set(v) => &v.game,
            VariationRecord::Deleted { game, .. } => game,
        }
    }

    /// The name of the variation the record is about.
    pub fn name(&self) -> &str {
        match self {
            VariationRecord::Set(v) => &v.name,
            VariationRecord::Deleted { name, .. } => name,
        }
    }

    /// The record as one JSON line (without its `\n`), fields in a fixed order.
    pub fn to_json(&self) -> String {
        // Plain strings, numbers and events: serializing cannot fail.
        match self {
            VariationRecord::Set(v) => serde_json::to_string(&SetOut {
                game: &v.game,
                name: &v.name,
                parent: &v.parent,
                after: v.after,
                events: &v.events,
            }),
            VariationRecord::Deleted { game, name } => serde_json::to_string(&DeletedOut {
                game,
                name,
                deleted: true,
            }),
        }
        .expect("variation records serialize")
    }
}

#[derive(Serialize)]
struct SetOut<'a> {
    game: &'a str,
    name: &'a str,
    parent: &'a Option<String>,
    after: u64,
    events: &'a [Envelope],
}

#[derive(Serialize)]
struct DeletedOut<'a> {
    game: &'a str,
    name: &'a str,
    deleted: bool,
}

/// The record as written, before its events are decoded.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordIn {
    game: String,
    name: String,
    #[serde(default)]
    parent: Option<String>,
    #[serde(default)]
    after: Option<u64>,
    #[serde(default)]
    events: Option<Vec<Value>>,
    #[serde(default)]
    deleted: bool,
}

/// Why a variation record cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariationError {
    /// Not a record of the expected shape (bad JSON, unknown or missing field).
    #[error("not a variation record: {0}")]
    Shape(String),
    /// The name is empty, too long or holds control characters.
    #[error("variation name {name:?}: {reason}")]
    Name { name: String, reason: &'static str },
    /// One of the moves is not a valid event line.
    #[error("variation {name:?}, move {index} (seq {seq}): {kind}")]
    Event {
        name: String,
        /// 1-based position in `events`.
        index: usize,
        /// The seq the move should have.
        seq: u64,
        kind: DecodeErrorKind,
    },
    /// A variation names itself as its parent.
    #[error("variation {0:?} names itself as its parent")]
    OwnParent(String),
}

/// Checks a variation name: 1 to [`MAX_NAME_CHARS`] characters, no control characters, not
/// blank.
pub fn check_name(name: &str) -> Result<(), VariationError> {
    let reason = if name.trim().is_empty() {
        Some("must not be empty")
    } else if name.chars().count() > MAX_NAME_CHARS {
        Some("is longer than 80 characters")
    } else if name.chars().any(char::is_control) {
        Some("must not hold control characters")
    } else if name.trim() != name {
        Some("must not begin or end with spaces")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(VariationError::Name {
            name: crate::truncate(name),
            reason,
        }),
        None => Ok(()),
    }
}

/// Reads one variation record. `players` is the game's number of players: a move by a seat
/// the game does not have is an error, as in a log.
pub fn parse_variation(line: &str, players: usize) -> Result<VariationRecord, VariationError> {
    let raw: RecordIn =
        serde_json::from_str(line).map_err(|e| VariationError::Shape(e.to_string()))?;
    record_from(raw, players)
}

/// [`parse_variation`] from an already parsed JSON object (a bundle line without its `type`).
pub(crate) fn variation_from_value(
    value: Value,
    players: usize,
) -> Result<VariationRecord, VariationError> {
    let raw: RecordIn =
        serde_json::from_value(value).map_err(|e| VariationError::Shape(e.to_string()))?;
    record_from(raw, players)
}

fn record_from(raw: RecordIn, players: usize) -> Result<VariationRecord, VariationError> {
    check_name(&raw.name)?;
    if raw.deleted {
        if raw.parent.is_some() || raw.after.is_some() || raw.events.is_some() {
            return Err(VariationError::Shape(
                "a deleted record has only \"game\", \"name\" and \"deleted\"".into(),
            ));
        }
        return Ok(VariationRecord::Deleted {
            game: raw.game,
            name: raw.name,
        });
    }
    let after = raw
        .after
        .ok_or_else(|| VariationError::Shape("missing field `after`".into()))?;
    let moves = raw
        .events
        .ok_or_else(|| VariationError::Shape("missing field `events`".into()))?;
    if let Some(parent) = &raw.parent {
        check_name(parent)?;
        if *parent == raw.name {
            return Err(VariationError::OwnParent(raw.name));
        }
    }
    let mut events = Vec::with_capacity(moves.len());
    for (i, value) in moves.into_iter().enumerate() {
        let seq = after + 1 + i as u64;
        let envelope = match value {
            Value::Object(fields) => decode_event_object(fields, players, seq),
            other => Err(DecodeErrorKind::Invalid {
                column: None,
                message: format!(
                    "a move must be an event object, found {}",
                    type_word(&other)
                ),
            }),
        }
        .map_err(|kind| VariationError::Event {
            name: raw.name.clone(),
            index: i + 1,
            seq,
            kind,
        })?;
        events.push(envelope);
    }
    Ok(VariationRecord::Set(Variation {
        game: raw.game,
        name: raw.name,
        parent: raw.parent,
        after,
        events,
    }))
}

fn type_word(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Where the variations of a log live: the log's file name plus `.variations.jsonl`.
pub fn variations_path(log: &Path) -> PathBuf {
    let mut name = log.as_os_str().to_owned();
    name.push(".variations.jsonl");
    PathBuf::from(name)
}

/// The variations in force for `game`, by name, from its records in the order they were
/// written: the later record of a name wins and a deleted record removes it. Other games'
/// records and blank lines are passed over; records that cannot be read are returned with
/// their 1-based number and the reason, for the caller to report.
pub fn variations_in_force<'a>(
    game: &str,
    players: usize,
    records: impl IntoIterator<Item = &'a str>,
) -> (BTreeMap<String, Variation>, Vec<(usize, String)>) {
    let mut bad = Vec::new();
    let mut parsed = Vec::new();
    for (i, line) in records.into_iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_variation(line.trim_end(), players) {
            Ok(record) => parsed.push(record),
            Err(e) => bad.push((i + 1, e.to_string())),
        }
    }
    (apply_records(game, parsed), bad)
}

/// Applies records in order to an empty set of variations (see [`variations_in_force`]).
pub fn apply_records(
    game: &str,
    records: impl IntoIterator<Item = VariationRecord>,
) -> BTreeMap<String, Variation> {
    let mut items = BTreeMap::new();
    for record in records {
        if record.game() != game {
            continue;
        }
        match record {
            VariationRecord::Set(v) => {
                items.insert(v.name.clone(), v);
            }
            VariationRecord::Deleted { name, .. } => {
                items.remove(&name);
            }
        }
    }
    items
}

/// The names of the variations that branch, directly or further down, from `name`, nearest
/// first (children before grandchildren), each once.
pub fn descendants(variations: &BTreeMap<String, Variation>, name: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut frontier = vec![name.to_string()];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for v in variations.values() {
            if let Some(parent) = &v.parent {
                if frontier.contains(parent) && !found.contains(&v.name) && v.name != name {
                    next.push(v.name.clone());
                }
            }
        }
        found.extend(next.iter().cloned());
        frontier = next;
    }
    found
}

/// A nested variation branching where its parent has no move: before the parent's first move
/// or after its last.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("variation {name:?} branches after event {after}, outside its parent {parent:?} (events {from} to {to})")]
pub struct OutsideParent {
    pub name: String,
    pub parent: String,
    pub after: u64,
    /// The parent's branch point and its last move.
    pub from: u64,
    pub to: u64,
}

impl Variation {
    /// Checks that this variation branches within `parent`'s line: after the parent's branch
    /// point or one of its moves.
    pub fn check_within(&self, parent: &Variation) -> Result<(), OutsideParent> {
        let last = parent.after + parent.events.len() as u64;
        if self.after < parent.after || self.after > last {
            return Err(OutsideParent {
                name: self.name.clone(),
                parent: parent.name.clone(),
                after: self.after,
                from: parent.after,
                to: last,
            });
        }
        Ok(())
    }
}

/// Why a variation cannot be promoted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PromoteError {
    #[error("no variation named {0:?}")]
    Unknown(String),
    #[error("variation {0:?} branches from the game's own moves; those are never changed (export the variation as a game of its own instead)")]
    AlreadyTopLevel(String),
    #[error(transparent)]
    OutsideParent(#[from] OutsideParent),
}

/// Promotes a nested variation one level: it then branches from its parent's parent, taking
/// along the parent's moves it shared. Its line of play is unchanged, and so are the lines of
/// the variations that branch from it. Returns the new record of the variation.
pub fn promote(
    variations: &BTreeMap<String, Variation>,
    name: &str,
) -> Result<Variation, PromoteError> {
    let v = variations
        .get(name)
        .ok_or_else(|| PromoteError::Unknown(name.to_string()))?;
    let parent_name = v
        .parent
        .as_ref()
        .ok_or_else(|| PromoteError::AlreadyTopLevel(name.to_string()))?;
    let parent = variations
        .get(parent_name)
        .ok_or_else(|| PromoteError::Unknown(parent_name.clone()))?;
    v.check_within(parent)?;
    let shared = (v.after - parent.after) as usize;
    let mut events: Vec<Envelope> = parent.events[..shared].to_vec();
    events.extend(v.events.iter().cloned());
    Ok(Variation {
        game: v.game.clone(),
        name: v.name.clone(),
        parent: parent.parent.clone(),
        after: parent.after,
        events,
    })
}

impl fmt::Display for Variation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.parent {
            None => write!(f, "{:?} (from event {} of the game", self.name, self.after)?,
            Some(p) => write!(f, "{:?} (from event {} of {:?}", self.name, self.after, p)?,
        }
        write!(f, ", {} moves)", self.events.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Event, Pos, Rotation, TileId};

    fn placed(seq: u64, x: i32) -> Envelope {
        Envelope {
            seq,
            event: Event::TilePlaced {
                player: 0,
                tile: TileId::new("D").unwrap(),
                at: Pos::new(x, 0),
                rotation: Rotation::R0,
            },
        }
    }

    fn var(name: &str, parent: Option<&str>, after: u64, moves: usize) -> Variation {
        Variation {
            game: "g".into(),
            name: name.into(),
            parent: parent.map(str::to_string),
            after,
            events: (0..moves)
                .map(|i| placed(after + 1 + i as u64, i as i32 + 1))
                .collect(),
        }
    }

    #[test]
    fn records_round_trip_through_their_json() {
        // Given a variation and a deletion
        let set = VariationRecord::Set(var("city", None, 4, 2));
        let deleted = VariationRecord::Deleted {
            game: "g".into(),
            name: "city".into(),
        };
        // When written and read back
        for record in [set, deleted] {
            let line = record.to_json();
            // Then they are the same records
            assert_eq!(parse_variation(&line, 2).unwrap(), record, "{line}");
        }
        assert!(VariationRecord::Set(var("x", None, 4, 1))
            .to_json()
            .starts_with(r#"{"game":"g","name":"x","parent":null,"after":4,"events":[{"seq":5,"type":"tile_placed""#));
    }

    #[test]
    fn moves_are_numbered_on_from_the_branch_point() {
        // Given a record whose second move has the wrong seq
        let line = r#"{"game":"g","name":"n","after":4,"events":[
            {"seq":5,"type":"meeple_skipped","player":0},
            {"seq":7,"type":"meeple_skipped","player":0}]}"#
            .replace('\n', "");
        // When it is read
        let err = parse_variation(&line, 2).unwrap_err();
        // Then the error names the variation, the move and the seq it should have
        assert_eq!(
            err.to_string(),
            "variation \"n\", move 2 (seq 6): event seq 7 out of sequence; expected 6"
        );
    }

    #[test]
    fn bad_records_are_refused_with_reasons() {
        let cases = [
            (
                r#"{"game":"g","name":"n","after":1}"#,
                "missing field `events`",
            ),
            (
                r#"{"game":"g","name":"","after":1,"events":[]}"#,
                "must not be empty",
            ),
            (
                r#"{"game":"g","name":"n","after":1,"events":[],"colour":1}"#,
                "unknown field",
            ),
            (
                r#"{"game":"g","name":"n","parent":"n","after":1,"events":[]}"#,
                "names itself",
            ),
            (
                r#"{"game":"g","name":"n","deleted":true,"after":3}"#,
                "a deleted record",
            ),
            (
                r#"{"game":"g","name":"n","after":1,"events":[3]}"#,
                "found a number",
            ),
            (
                r#"{"game":"g","name":"n","after":0,"events":[{"seq":1,"type":"meeple_skipped","player":5}]}"#,
                "player 5 does not exist",
            ),
        ];
        for (line, expected) in cases {
            let err = parse_variation(line, 2).unwrap_err().to_string();
            assert!(err.contains(expected), "{line}: {err}");
        }
    }

    #[test]
    fn the_later_record_wins_and_a_deleted_record_removes() {
        // Given records written one after another
        let lines = [
            VariationRecord::Set(var("a", None, 2, 1)).to_json(),
            VariationRecord::Set(var("a", None, 3, 1)).to_json(),
            VariationRecord::Set(var("b", None, 1, 1)).to_json(),
            VariationRecord::Deleted {
                game: "g".into(),
                name: "b".into(),
            }
            .to_json(),
            r#"{"game":"other","name":"c","after":0,"events":[]}"#.to_string(),
            "not json".to_string(),
        ];
        // When the records in force are worked out
        let (items, bad) = variations_in_force("g", 2, lines.iter().map(String::as_str));
        // Then only the second "a" is left, and the bad line is reported by number
        assert_eq!(items.keys().collect::<Vec<_>>(), ["a"]);
        assert_eq!(items["a"].after, 3);
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].0, 6);
    }

    #[test]
    fn descendants_are_found_through_every_level() {
        // Given a: main line; b from a; c from b; d from main
        let vars: BTreeMap<String, Variation> = [
            var("a", None, 2, 4),
            var("b", Some("a"), 4, 2),
            var("c", Some("b"), 5, 1),
            var("d", None, 1, 1),
        ]
        .into_iter()
        .map(|v| (v.name.clone(), v))
        .collect();
        // Then a's descendants are b then c, and d has none
        assert_eq!(descendants(&vars, "a"), ["b", "c"]);
        assert!(descendants(&vars, "d").is_empty());
    }

    #[test]
    fn promoting_keeps_the_line_of_play() {
        // Given a (after 2, moves 3..=6) and b branching from a after event 4 with 2 moves
        let a = var("a", None, 2, 4);
        let b = var("b", Some("a"), 4, 2);
        let vars: BTreeMap<String, Variation> = [a.clone(), b.clone()]
            .into_iter()
            .map(|v| (v.name.clone(), v))
            .collect();
        // When b is promoted
        let promoted = promote(&vars, "b").unwrap();
        // Then it branches from the main line where a did, with a's moves 3 and 4 then its own
        assert_eq!(promoted.parent, None);
        assert_eq!(promoted.after, 2);
        let seqs: Vec<u64> = promoted.events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [3, 4, 5, 6]);
        assert_eq!(&promoted.events[..2], &a.events[..2]);
        assert_eq!(&promoted.events[2..], &b.events[..]);
        // And a top-level variation cannot be promoted
        assert!(matches!(
            promote(&vars, "a"),
            Err(PromoteError::AlreadyTopLevel(_))
        ));
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("city instead").is_ok());
        assert!(check_name(" x").is_err());
        assert!(check_name("a\nb").is_err());
        assert!(check_name(&"x".repeat(81)).is_err());
        assert!(check_name(&"é".repeat(80)).is_ok());
    }

    #[test]
    fn path_is_beside_the_log() {
        assert_eq!(
            variations_path(Path::new("/a/game.jsonl")),
            PathBuf::from("/a/game.jsonl.variations.jsonl")
        );
    }
}
