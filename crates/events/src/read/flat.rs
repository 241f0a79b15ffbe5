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
//! What is still generic: the fields of each event and assertion are read by the derived
//! `Deserialize` of the enum's externally tagged twin (`crate::tagged`; unknown fields,
//! missing fields, keys given twice, field types, custom checks), so a new event kind or field
//! needs nothing here. Only the envelope is read by hand: `seq` (ours, not a field of `Event`)
//! and `type`, which picks the twin's variant; the rest of the line streams into that
//! variant's fields without being buffered.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, VariantAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::model::{Assertion, Envelope, ExternallyTaggedAssertion, ExternallyTaggedEvent};

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
        // Borrowed keys only: a key with an escape fails here and is declined. A `type` that
        // names no variant of the twin (another kind of line) fails in the twin's derive.
        match map.next_key::<&'de str>()? {
            Some("seq") => {
                let seq: u64 = map.next_value()?;
                if map.next_key::<&'de str>()? != Some("type") {
                    return Err(decline());
                }
                let type_name: &'de str = map.next_value()?;
                let event = ExternallyTaggedEvent::deserialize(KnownTag::new(type_name, map))?;
                Ok(FlatRecord::Event(Envelope {
                    seq,
                    event: event.into(),
                }))
            }
            Some("type") => {
                let type_name: &'de str = map.next_value()?;
                let assertion =
                    ExternallyTaggedAssertion::deserialize(KnownTag::new(type_name, map))?;
                Ok(FlatRecord::Assertion(assertion.into()))
            }
            _ => Err(decline()),
        }
    }
}

/// An externally tagged enum, seen by its derived `Deserialize`: the variant is the `type`
/// already read, its fields are the rest of the line's map, streamed.
struct KnownTag<'de, A> {
    type_name: &'de str,
    rest: LineRest<A>,
}

impl<'de, A: MapAccess<'de>> KnownTag<'de, A> {
    fn new(type_name: &'de str, map: A) -> Self {
        KnownTag {
            type_name,
            rest: LineRest(map),
        }
    }
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for KnownTag<'de, A> {
    type Error = A::Error;

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    /// Only an enum is read from here.
    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, A::Error> {
        Err(decline())
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for KnownTag<'de, A> {
    type Error = A::Error;
    type Variant = LineRest<A>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, LineRest<A>), A::Error> {
        // An unknown name fails here ("unknown variant"), and the line is declined.
        let variant = seed.deserialize(BorrowedStrDeserializer::new(self.type_name))?;
        Ok((variant, self.rest))
    }
}

/// The line's entries after `seq` and `type`: the fields of the variant.
///
/// A key given twice: a field again is refused by the variant's derive, any other key by
/// `deny_unknown_fields` (which `tagged_enum!` requires of `Event` and `Assertion`;
/// `decode_errors.rs` and this module's tests fail without it). The envelope's keys `seq`,
/// `type` and `format` (a second header) are unknown fields for the derive too, but are
/// declined here by name so that this does not rest on the attribute.
struct LineRest<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for LineRest<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.0.next_key::<&'de str>()? {
            None => Ok(None),
            Some("seq" | "type" | "format") => Err(decline()),
            Some(key) => seed
                .deserialize(BorrowedStrDeserializer::new(key))
                .map(Some),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(seed)
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for LineRest<A> {
    type Error = A::Error;

    /// A variant without fields (`game_ended`): the line must end after `type`. The
    /// internally tagged derive ignores whatever follows instead (serde reads a unit variant
    /// that way), so such a line is declined and the reference decoder decides it.
    fn unit_variant(mut self) -> Result<(), A::Error> {
        match self.0.next_key::<de::IgnoredAny>()? {
            None => Ok(()),
            Some(_) => Err(decline()),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    /// `Event` and `Assertion` have no newtype or tuple variants (`tagged_enum!` makes none).
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, A::Error> {
        Err(decline())
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value, A::Error> {
        Err(decline())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Event, Pos, Rotation, TileId};

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
    fn a_variant_without_fields_is_taken_when_the_line_ends_after_its_type() {
        assert_eq!(
            decode_flat_line(r#"{"seq":7,"type":"game_ended"}"#),
            Some(FlatRecord::Event(Envelope {
                seq: 7,
                event: Event::GameEnded,
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
            // a field twice where the variant has defaults, given or not
            r#"{"seq":1,"type":"abbot_placed","player":0,"at":[0,0],"on":"garden","portal":true,"portal":true}"#,
            r#"{"seq":1,"type":"gift_opened","player":1,"card":"synod","at":[0,0],"at":[0,0],"on":"monastery"}"#,
            // an assertion with a type that is no assertion, an event type without seq
            r#"{"type":"expect_nothing","scores":[1]}"#,
            r#"{"type":"meeple_skipped","player":0}"#,
            // anything after the type of a variant without fields: serde's internally tagged
            // derive would ignore it, so the reference decoder decides (a key twice is refused)
            r#"{"seq":1,"type":"game_ended","x":1}"#,
            r#"{"seq":1,"type":"game_ended","x":1,"x":1}"#,
            r#"{"seq":1,"type":"game_ended","seq":1}"#,
        ] {
            assert_eq!(decode_flat_line(line), None, "{line}");
        }
    }
}
