//! The fast path for the common body line: a *flat* event or assertion of the current format
//! version, as carc writes it (`{"seq":N,"type":…,…}` or `{"type":"expect_…",…}`), decoded
//! in one pass from the line's text straight into the serde model types.
//!
//! The path only ever *accepts* or *declines*. It declines every line it is not sure of — a
//! nested object, a key spelled with an escape, `type` not right after `seq`, any error at
//! all — and the reader then decodes that line with the reference decoder (`super::BodyDecoder`),
//! which gives the exact error, line and column. So the rules live in one place, and a line
//! the fast path accepts is one the reference decoder accepts with the same value (a property
//! test holds the two to that).
//!
//! What is still generic: the fields of each event and assertion are read by their derived
//! `Deserialize` (unknown fields, missing fields, field types, custom checks), so a new event
//! kind or field needs nothing here. Only the envelope is read by hand: `seq` (ours, not a
//! field of `Event`) and `type`, handed to the tagged enum's derive as its first entry.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::model::{Assertion, Envelope, Event, EVENT_TYPES};

/// A line the fast path decoded. The checks that need the header (seq order, seats, score
/// counts) are the caller's, shared with the reference decoder.
#[derive(Debug, PartialEq)]
pub(super) enum FlatRecord {
    Event(Envelope),
    Assertion(Assertion),
}

/// Decodes a flat event or assertion line, or declines (`None`).
pub(super) fn decode_flat_line(text: &str) -> Option<FlatRecord> {
    // A nested object could hold a key twice where a derived `Deserialize` would not notice
    // (a map, a struct that ignores unknown fields); the reference decoder checks every depth.
    // Counting braces inside strings too only makes the test stricter.
    let first = memchr::memchr(b'{', text.as_bytes())?;
    if memchr::memchr(b'{', &text.as_bytes()[first + 1..]).is_some() {
        return None;
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let record = deserializer.deserialize_map(LineVisitor).ok()?;
    deserializer.end().ok()?;
    Some(record)
}

/// The error that makes the fast path decline; its text is never shown.
fn decline<E: de::Error>() -> E {
    E::custom("left to the reference decoder")
}

struct LineVisitor;

impl<'de> Visitor<'de> for LineVisitor {
    type Value = FlatRecord;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a flat event or assertion object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FlatRecord, A::Error> {
        // Borrowed keys only: a key with an escape fails here and is declined.
        match map.next_key::<&'de str>()? {
            Some("seq") => {
                let seq: u64 = map.next_value()?;
                if map.next_key::<&'de str>()? != Some("type") {
                    return Err(decline());
                }
                let type_name: &'de str = map.next_value()?;
                if !EVENT_TYPES.contains(&type_name) {
                    return Err(decline());
                }
                let event = Event::deserialize(TaggedRest::new(map, type_name))?;
                Ok(FlatRecord::Event(Envelope { seq, event }))
            }
            Some("type") => {
                let type_name: &'de str = map.next_value()?;
                if !type_name.starts_with("expect_") {
                    return Err(decline());
                }
                let assertion = Assertion::deserialize(TaggedRest::new(map, type_name))?;
                Ok(FlatRecord::Assertion(assertion))
            }
            _ => Err(decline()),
        }
    }
}

/// The rest of a line's map, presented to an internally tagged enum's derived `Deserialize`
/// with `"type": <the type already read>` as its first entry.
///
/// A key given twice: `type` again is refused by the tagged enum's derive, a field again by
/// the variant's derive, and any other key by `deny_unknown_fields` (`Event` and `Assertion`
/// have it; `decode_errors.rs` and this module's tests fail without it). `seq` again and
/// `format` (a second header) are unknown fields for the derive too, but are declined here
/// by name so that this does not rest on the attribute.
struct TaggedRest<'de, A> {
    map: A,
    type_name: &'de str,
    /// 0: the `type` key is due; 1: its value; 2: the line's own entries.
    step: u8,
}

impl<'de, A: MapAccess<'de>> TaggedRest<'de, A> {
    fn new(map: A, type_name: &'de str) -> Self {
        TaggedRest {
            map,
            type_name,
            step: 0,
        }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for TaggedRest<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.step == 0 {
            self.step = 1;
            return seed
                .deserialize(BorrowedStrDeserializer::new("type"))
                .map(Some);
        }
        match self.map.next_key::<&'de str>()? {
            None => Ok(None),
            Some("seq" | "format") => Err(decline()),
            Some(key) => seed
                .deserialize(BorrowedStrDeserializer::new(key))
                .map(Some),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        if self.step == 1 {
            self.step = 2;
            return seed.deserialize(BorrowedStrDeserializer::new(self.type_name));
        }
        self.map.next_value_seed(seed)
    }
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for TaggedRest<'de, A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pos, Rotation, TileId};

    #[test]
    fn a_written_event_line_is_taken() {
        let line =
            r#"{"seq":3,"type":"tile_placed","player":0,"tile":"V","at":[1,0],"rotation":90}"#;
        assert_eq!(
            decode_flat_line(line),
            Some(FlatRecord::Event(Envelope {
                seq: 3,
                event: Event::TilePlaced {
                    player: 0,
                    tile: TileId::new("V").unwrap(),
                    at: Pos::new(1, 0),
                    rotation: Rotation::R90,
                },
            }))
        );
    }

    #[test]
    fn a_written_assertion_line_is_taken() {
        let line = r#"{"type":"expect_final_scores","scores":[3,4]}"#;
        assert_eq!(
            decode_flat_line(line),
            Some(FlatRecord::Assertion(Assertion::ExpectFinalScores {
                scores: vec![3, 4]
            }))
        );
    }

    #[test]
    fn anything_unusual_is_declined() {
        for line in [
            // other orders and escapes: valid, but for the reference decoder
            r#"{"type":"meeple_skipped","seq":1,"player":0}"#,
            r#"{"s\u0065q":1,"type":"meeple_skipped","player":0}"#,
            r#"{"seq":1,"type":"meeple_skipp\u0065d","player":0}"#,
            // keys twice, read by hand or not
            r#"{"seq":1,"type":"meeple_skipped","player":0,"seq":1}"#,
            r#"{"seq":1,"type":"meeple_skipped","player":0,"type":"meeple_skipped"}"#,
            r#"{"seq":1,"type":"meeple_skipped","player":0,"player":0}"#,
            r#"{"type":"expect_final_scores","scores":[1],"type":"expect_final_scores"}"#,
            // a second header, nested objects, unknown or bad fields, not an object
            r#"{"seq":1,"type":"meeple_skipped","player":0,"format":"carcassonne-log"}"#,
            r#"{"seq":1,"type":"meeple_skipped","player":{"a":1}}"#,
            r#"{"seq":1,"type":"meeple_skipped","player":0,"x":1}"#,
            r#"{"seq":1,"type":"meeple_skipped","player":-1}"#,
            r#"{"seq":1.0,"type":"meeple_skipped","player":0}"#,
            r#"{"seq":1,"type":"no_such_event","player":0}"#,
            r#"{"type":"annotation","game":"g","seq":1,"text":"a"}"#,
            r#"{"seq":1,"type":"meeple_skipped","player":0} x"#,
            r#"{"seq":1,"type":"meeple_skipped","player":0"#,
            "[1]",
        ] {
            assert_eq!(decode_flat_line(line), None, "{line}");
        }
    }
}
