//! Annotation records: a comment and a glyph (`!! ! !? ?! ? ??`) on one event of a game,
//! kept beside the game and never inside its log (see `docs/viewer.md`). The viewer writes
//! them and `carc annotate` appends them; both use this one record shape:
//!
//! ```json
//! {"game":"short-game-rulings","seq":5,"glyph":"?!","text":"why not the city?"}
//! ```
//!
//! Records are keyed by (game, seq): the later record wins, and one with no glyph and no
//! text removes the annotation. Beside a log file they live in `<log>.annotations.jsonl`
//! ([`annotations_path`]); in the store, in a stream of their own (`carc-archive`).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// An evaluation mark, as in chess notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Glyph {
    #[serde(rename = "!!")]
    Brilliant,
    #[serde(rename = "!")]
    Good,
    #[serde(rename = "!?")]
    Interesting,
    #[serde(rename = "?!")]
    Dubious,
    #[serde(rename = "?")]
    Mistake,
    #[serde(rename = "??")]
    Blunder,
}

impl Glyph {
    pub const ALL: [Glyph; 6] = [
        Glyph::Brilliant,
        Glyph::Good,
        Glyph::Interesting,
        Glyph::Dubious,
        Glyph::Mistake,
        Glyph::Blunder,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Glyph::Brilliant => "!!",
            Glyph::Good => "!",
            Glyph::Interesting => "!?",
            Glyph::Dubious => "?!",
            Glyph::Mistake => "?",
            Glyph::Blunder => "??",
        }
    }

    /// Words for tooltips.
    pub fn meaning(self) -> &'static str {
        match self {
            Glyph::Brilliant => "brilliant",
            Glyph::Good => "good",
            Glyph::Interesting => "interesting",
            Glyph::Dubious => "dubious",
            Glyph::Mistake => "mistake",
            Glyph::Blunder => "blunder",
        }
    }

    pub fn parse(s: &str) -> Option<Glyph> {
        Glyph::ALL.into_iter().find(|g| g.as_str() == s)
    }
}

impl fmt::Display for Glyph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One annotation record (one line of the file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Annotation {
    pub game: String,
    pub seq: u64,
    pub glyph: Option<Glyph>,
    /// At most [`crate::text::MAX_ANNOTATION_CHARS`] characters, checked when read.
    #[serde(default, deserialize_with = "capped_text")]
    pub text: String,
}

/// An annotation's text, refused past [`crate::text::MAX_ANNOTATION_CHARS`] by every reader
/// (a bundle's lines, annotation files and streams).
fn capped_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    crate::text::check_annotation_length(&text)
        .map_err(|why| serde::de::Error::custom(format!("text: {why}")))?;
    Ok(text)
}

impl Annotation {
    pub fn is_empty(&self) -> bool {
        self.glyph.is_none() && self.text.trim().is_empty()
    }

    /// The record as one JSON line (without its `\n`).
    pub fn to_json(&self) -> String {
        // Serializing a plain struct of strings and numbers cannot fail.
        serde_json::to_string(self).expect("annotation serializes")
    }
}

/// Where the annotations of a log live: the log's file name plus `.annotations.jsonl`.
pub fn annotations_path(log: &Path) -> PathBuf {
    let mut name = log.as_os_str().to_owned();
    name.push(".annotations.jsonl");
    PathBuf::from(name)
}

/// Reads one annotation record (a JSON line; unknown fields are errors).
pub fn parse_annotation(line: &str) -> Result<Annotation, serde_json::Error> {
    serde_json::from_str(line)
}

/// One record read after those in `items` ("the later record wins"): an annotation with no
/// glyph and no text removes the event's annotation, any other replaces it. Returns whether
/// it removed. Every reader of annotation records (files, the store, the viewer) goes by
/// this one rule.
pub fn apply_record(items: &mut BTreeMap<u64, Annotation>, a: Annotation) -> bool {
    if a.is_empty() {
        items.remove(&a.seq);
        true
    } else {
        items.insert(a.seq, a);
        false
    }
}

/// The annotations in force for `game`, from its records in the order they were written: the
/// later record for an event wins, and one with no glyph and no text removes the annotation.
/// Other games' records and blank lines are passed over; records that do not parse are
/// returned with their 1-based number and the reason, for the caller to report.
pub fn in_force<'a>(
    game: &str,
    records: impl IntoIterator<Item = &'a str>,
) -> (BTreeMap<u64, Annotation>, Vec<(usize, String)>) {
    let mut items = BTreeMap::new();
    let mut bad = Vec::new();
    for (i, line) in records.into_iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_annotation(line.trim_end()) {
            Ok(a) if a.game != game => {}
            Ok(a) => {
                apply_record(&mut items, a);
            }
            Err(e) => bad.push((i + 1, e.to_string())),
        }
    }
    (items, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_record_replaces_or_removes_and_says_which() {
        let note = |seq: u64, text: &str| Annotation {
            game: "g".into(),
            seq,
            glyph: None,
            text: text.into(),
        };
        // Given an annotation at event 3
        let mut items = BTreeMap::new();
        assert!(!apply_record(&mut items, note(3, "first")));
        // When a later record for event 3 comes, then it replaces the first
        assert!(!apply_record(&mut items, note(3, "second")));
        assert_eq!(items[&3].text, "second");
        // When an empty one comes, then the annotation is gone, and it says it removed
        assert!(apply_record(&mut items, note(3, "")));
        assert!(items.is_empty());
    }

    #[test]
    fn path_is_beside_the_log() {
        assert_eq!(
            annotations_path(Path::new("/a/b/game.jsonl")),
            PathBuf::from("/a/b/game.jsonl.annotations.jsonl")
        );
    }

    #[test]
    fn glyphs_round_trip_as_their_marks() {
        for g in Glyph::ALL {
            let json = serde_json::to_string(&g).unwrap();
            assert_eq!(json, format!("\"{}\"", g.as_str()));
            assert_eq!(serde_json::from_str::<Glyph>(&json).unwrap(), g);
            assert_eq!(Glyph::parse(g.as_str()), Some(g));
        }
        assert_eq!(Glyph::parse("!!!"), None);
    }

    #[test]
    fn records_are_strict() {
        let a = parse_annotation(r#"{"game":"g","seq":3,"glyph":"?!","text":"hm"}"#).unwrap();
        assert_eq!(a.glyph, Some(Glyph::Dubious));
        assert_eq!(
            a.to_json(),
            r#"{"game":"g","seq":3,"glyph":"?!","text":"hm"}"#
        );
        assert!(parse_annotation(r#"{"game":"g","seq":3,"glyph":"?!","colour":1}"#).is_err());
        assert!(parse_annotation(r#"{"game":"g","seq":3,"glyph":"!!!"}"#).is_err());
    }

    #[test]
    fn the_later_record_wins_and_an_empty_one_removes() {
        let lines = [
            r#"{"game":"g","seq":3,"glyph":"?","text":"first"}"#,
            r#"{"game":"g","seq":3,"glyph":"??","text":"second"}"#,
            "",
            r#"{"game":"other","seq":4,"glyph":"!","text":"not ours"}"#,
            r#"{"game":"g","seq":5,"glyph":"!","text":"gone"}"#,
            r#"{"game":"g","seq":5,"glyph":null,"text":""}"#,
            "garbage",
        ];
        let (items, bad) = in_force("g", lines);
        assert_eq!(items.len(), 1);
        assert_eq!(items[&3].text, "second");
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].0, 7);
    }
}
