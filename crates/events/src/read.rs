//! Decoding untrusted log files: line splitting with a size limit, then one JSON object per
//! line. Never panics, never skips a line; every error carries its line number.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead};

use serde::de::{self, IgnoredAny};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::annotation::Annotation;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::log::Log;
use crate::model::{
    de_game, de_players, de_tile_sets, Assertion, Envelope, Header, Player, RulesOptions, Source,
    TileId, ANNOTATION_TYPE, ASSERTION_TYPES, VARIATION_TYPE,
};
use crate::upcast::upcast;
use crate::variation::{variation_from_value, VariationRecord};
use crate::{short, truncate, CURRENT_VERSION, FORMAT, MAX_LINE_BYTES};

mod flat;

use flat::{decode_flat_line, FlatRecord};

use crate::event_decode::{check_player, check_seq, decode_event_fields, show, type_of};

/// What [`read_log_prefix`] returns: everything up to the first bad line, and that line's
/// error. `log` holds the header and the events and assertions of the lines before the error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogPrefix {
    /// The decoded part.
    pub log: Log,
    /// The first error after the header, if any.
    pub error: Option<DecodeError>,
}

/// Reads a whole log held in memory.
pub fn read_log(input: &[u8]) -> Result<Log, DecodeError> {
    let prefix = read_prefix(SliceLines {
        rest: input,
        line: 0,
    })?;
    match prefix.error {
        None => Ok(prefix.log),
        Some(error) => Err(error),
    }
}

/// Reads a whole log from a reader. Lines longer than [`MAX_LINE_BYTES`] are refused without
/// being read into memory.
pub fn read_log_from<R: BufRead>(reader: R) -> Result<Log, DecodeError> {
    let prefix = read_log_prefix_from(reader)?;
    match prefix.error {
        None => Ok(prefix.log),
        Some(error) => Err(error),
    }
}

/// Reads as much of a log as is valid: `Err` only when the header itself cannot be read;
/// otherwise the events before the first bad line plus that line's error.
pub fn read_log_prefix(input: &[u8]) -> Result<LogPrefix, DecodeError> {
    read_prefix(SliceLines {
        rest: input,
        line: 0,
    })
}

/// [`read_log_prefix`] from a reader.
pub fn read_log_prefix_from<R: BufRead>(reader: R) -> Result<LogPrefix, DecodeError> {
    read_prefix(Lines {
        reader,
        line: 0,
        buf: Vec::new(),
    })
}

/// The lines of a log, one at a time, each at most [`MAX_LINE_BYTES`] bytes (without the
/// `\n`); `line` is the number of the line most recently started (1-based).
trait LineSource {
    /// The next line, or `None` at the end of input. A final `\n` does not start a line.
    fn next(&mut self) -> Result<Option<&[u8]>, DecodeErrorKind>;
    fn line(&self) -> usize;
}

fn read_prefix(mut lines: impl LineSource) -> Result<LogPrefix, DecodeError> {
    let first = match lines.next() {
        Ok(Some(first)) => first,
        Ok(None) => return Err(DecodeErrorKind::EmptyFile.at_line(1)),
        Err(kind) => return Err(kind.at_line(1)),
    };
    let (header, version) = line_text(first)
        .and_then(|text| decode_header(text.strip_prefix('\u{feff}').unwrap_or(text)))
        .map_err(|kind| kind.at_line(1))?;

    let mut body = BodyDecoder {
        version,
        game: header.game.clone(),
        players: header.players.len(),
        next_seq: 1,
    };
    let mut log = Log::new(header);
    let mut error = None;
    loop {
        let record = match lines.next() {
            Ok(None) => break,
            Ok(Some(bytes)) => line_text(bytes).and_then(|text| body.decode(text)),
            Err(kind) => Err(kind),
        };
        let line = lines.line();
        match record {
            Ok(Record::Event(envelope)) => log.events.push((line, envelope)),
            Ok(Record::Assertion(assertion)) => log.assertions.push((line, assertion)),
            Ok(Record::Annotation(annotation)) => log.annotations.push((line, annotation)),
            Ok(Record::Variation(variation)) => log.variations.push((line, variation)),
            Err(kind) => {
                error = Some(kind.at_line(line));
                break;
            }
        }
    }
    Ok(LogPrefix { log, error })
}

/// Splits input held in memory into lines, without copying them.
struct SliceLines<'a> {
    rest: &'a [u8],
    /// Number of the line most recently started (1-based).
    line: usize,
}

impl LineSource for SliceLines<'_> {
    fn next(&mut self) -> Result<Option<&[u8]>, DecodeErrorKind> {
        self.line += 1;
        if self.rest.is_empty() {
            return Ok(None);
        }
        // Look for the end of the line only as far as the limit allows.
        let window = &self.rest[..self.rest.len().min(MAX_LINE_BYTES + 1)];
        let (line, rest) = match memchr::memchr(b'\n', window) {
            Some(end) => (&self.rest[..end], &self.rest[end + 1..]),
            None if window.len() > MAX_LINE_BYTES => return Err(DecodeErrorKind::LineTooLong),
            None => (self.rest, &self.rest[self.rest.len()..]),
        };
        self.rest = rest;
        Ok(Some(line))
    }

    fn line(&self) -> usize {
        self.line
    }
}

/// Splits a reader into lines, refusing a long one without reading it to its end.
struct Lines<R> {
    reader: R,
    /// Number of the line most recently started (1-based).
    line: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineSource for Lines<R> {
    fn line(&self) -> usize {
        self.line
    }

    fn next(&mut self) -> Result<Option<&[u8]>, DecodeErrorKind> {
        self.buf.clear();
        self.line += 1;
        let mut started = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(DecodeErrorKind::Io {
                        kind: e.kind(),
                        message: e.to_string(),
                    })
                }
            };
            if available.is_empty() {
                return Ok(started.then_some(self.buf.as_slice()));
            }
            started = true;
            // Look for the end of the line only as far as the limit allows.
            let room = MAX_LINE_BYTES - self.buf.len();
            let window = &available[..available.len().min(room + 1)];
            if let Some(end) = memchr::memchr(b'\n', window) {
                self.buf.extend_from_slice(&available[..end]);
                self.reader.consume(end + 1);
                return Ok(Some(self.buf.as_slice()));
            }
            if window.len() > room {
                return Err(DecodeErrorKind::LineTooLong);
            }
            let taken = available.len();
            self.buf.extend_from_slice(available);
            self.reader.consume(taken);
        }
    }
}

/// UTF-8 and non-blank, or the error.
fn line_text(bytes: &[u8]) -> Result<&str, DecodeErrorKind> {
    let text = std::str::from_utf8(bytes).map_err(|e| DecodeErrorKind::NotUtf8 {
        column: e.valid_up_to() + 1,
    })?;
    if text.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
        return Err(DecodeErrorKind::EmptyLine);
    }
    Ok(text)
}

/// A JSON object whose keys are unique at every depth (serde_json's `Value` would keep the
/// last of two silently). The reference decoder reads every line through it.
struct Object(Map<String, Value>);

impl<'de> Deserialize<'de> for Object {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = Object;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object {…} on the line")
            }

            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Object, A::Error> {
                unique_keys(map, Depth::Line).map(Object)
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// Where an object stands: the line itself, or inside one of its values.
#[derive(Clone, Copy)]
enum Depth {
    Line,
    Nested,
}

/// The entries of a JSON object, refusing a key given twice (also in nested objects).
fn unique_keys<'de, A: de::MapAccess<'de>>(
    mut map: A,
    depth: Depth,
) -> Result<Map<String, Value>, A::Error> {
    let mut fields = Map::new();
    while let Some(key) = map.next_key::<String>()? {
        if fields.contains_key(&key) {
            // A nested key is named the way serde's derived structs name one (they used to be
            // the only check there), so those messages did not change.
            return Err(de::Error::custom(match depth {
                Depth::Line => format!("duplicate field {}", short(&key)),
                Depth::Nested => format!("duplicate field `{}`", truncate(&key).escape_debug()),
            }));
        }
        let StrictValue(value) = map.next_value()?;
        fields.insert(key, value);
    }
    Ok(fields)
}

/// Any JSON value, its objects read by [`unique_keys`].
struct StrictValue(Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = StrictValue;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }

            fn visit_bool<E: de::Error>(self, v: bool) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::Bool(v)))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::from(v)))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::from(v)))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::from(v)))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::String(v.to_owned())))
            }

            fn visit_string<E: de::Error>(self, v: String) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::String(v)))
            }

            fn visit_unit<E: de::Error>(self) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::Null))
            }

            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<StrictValue, A::Error> {
                let mut items = Vec::new();
                while let Some(StrictValue(item)) = seq.next_element()? {
                    items.push(item);
                }
                Ok(StrictValue(Value::Array(items)))
            }

            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<StrictValue, A::Error> {
                unique_keys(map, Depth::Nested).map(|fields| StrictValue(Value::Object(fields)))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

fn parse_object(text: &str) -> Result<Map<String, Value>, DecodeErrorKind> {
    serde_json::from_str::<Object>(text)
        .map(|o| o.0)
        .map_err(|e| DecodeErrorKind::from_json(&e))
}

/// The header line as written: `format` and `version` are checked before the rest is read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderLine {
    #[serde(rename = "format")]
    _format: IgnoredAny,
    #[serde(rename = "version")]
    _version: IgnoredAny,
    #[serde(deserialize_with = "de_game")]
    game: String,
    #[serde(deserialize_with = "de_players")]
    players: Vec<Player>,
    rules: RulesOptions,
    #[serde(deserialize_with = "de_tile_sets")]
    tile_sets: Vec<String>,
    #[serde(default)]
    bag: Option<BTreeMap<TileId, u16>>,
    #[serde(default)]
    source: Option<Source>,
    #[serde(default)]
    comment: Option<String>,
}

impl From<HeaderLine> for Header {
    fn from(h: HeaderLine) -> Self {
        Header {
            game: h.game,
            players: h.players,
            rules: h.rules,
            tile_sets: h.tile_sets,
            bag: h.bag,
            source: h.source,
            comment: h.comment,
        }
    }
}

/// Decodes line 1; returns the header and the file's format version.
fn decode_header(text: &str) -> Result<(Header, u32), DecodeErrorKind> {
    let fields = parse_object(text)?;
    let Some(format) = fields.get("format") else {
        return Err(
            if fields.contains_key("seq") || fields.contains_key("type") {
                DecodeErrorKind::HeaderNotFirst
            } else {
                DecodeErrorKind::MissingFormat
            },
        );
    };
    if format != FORMAT {
        return Err(DecodeErrorKind::WrongFormat {
            found: show(format),
        });
    }
    let version = fields.get("version");
    let Some(found) = version.and_then(Value::as_u64).filter(|&v| v >= 1) else {
        return Err(DecodeErrorKind::InvalidVersion {
            found: version.map_or_else(|| "nothing".to_owned(), show),
        });
    };
    let version = match u32::try_from(found) {
        Ok(v) if v <= CURRENT_VERSION => v,
        _ => return Err(DecodeErrorKind::VersionTooNew { found }),
    };
    let header = if version == CURRENT_VERSION {
        // Straight from the text, so errors carry serde_json's column.
        serde_json::from_str::<HeaderLine>(text)
    } else {
        serde_json::from_value::<HeaderLine>(upcast(version, Value::Object(fields))?)
    }
    .map_err(|e| DecodeErrorKind::from_json(&e))?;
    Ok((header.into(), version))
}

enum Record {
    Event(Envelope),
    Assertion(Assertion),
    Annotation(Annotation),
    Variation(VariationRecord),
}

/// State for the lines after the header.
struct BodyDecoder {
    version: u32,
    game: String,
    players: usize,
    next_seq: u64,
}

impl BodyDecoder {
    fn decode(&mut self, text: &str) -> Result<Record, DecodeErrorKind> {
        let fast = if self.version == CURRENT_VERSION {
            decode_flat_line(text)
        } else {
            None
        };
        match fast {
            Some(FlatRecord::Event(envelope)) => {
                check_seq(envelope.seq, self.next_seq)?;
                check_player(&envelope.event, self.players)?;
                self.next_seq = self.next_seq.saturating_add(1);
                Ok(Record::Event(envelope))
            }
            Some(FlatRecord::Assertion(assertion)) => self.checked_assertion(assertion),
            None => self.decode_reference(text),
        }
    }

    /// The reference decoder: every line the fast path declines, with the exact error.
    fn decode_reference(&mut self, text: &str) -> Result<Record, DecodeErrorKind> {
        let mut fields = parse_object(text)?;
        if self.version < CURRENT_VERSION {
            match upcast(self.version, Value::Object(fields))? {
                Value::Object(upcast_fields) => fields = upcast_fields,
                _ => return Err(DecodeErrorKind::UnrecognizedLine),
            }
        }
        if fields.contains_key("format") {
            return Err(DecodeErrorKind::SecondHeader);
        }
        let type_name = type_of(&fields)?;
        if let Some(t) = type_name.as_deref().filter(|t| t.starts_with("expect_")) {
            return self.decode_assertion(t, fields);
        }
        match type_name.as_deref() {
            Some(ANNOTATION_TYPE) => return self.decode_annotation(fields),
            Some(VARIATION_TYPE) => return self.decode_variation(fields),
            _ => {}
        }
        let envelope = decode_event_fields(fields, type_name, self.players, self.next_seq)?;
        self.next_seq = self.next_seq.saturating_add(1);
        Ok(Record::Event(envelope))
    }

    /// A bundle's `{"type":"annotation",…}` line: an annotation record of this game.
    fn decode_annotation(&self, mut fields: Map<String, Value>) -> Result<Record, DecodeErrorKind> {
        fields.remove("type");
        let annotation: Annotation =
            serde_json::from_value(Value::Object(fields)).map_err(|e| {
                DecodeErrorKind::Companion {
                    what: ANNOTATION_TYPE,
                    message: e.to_string(),
                }
            })?;
        self.same_game(ANNOTATION_TYPE, &annotation.game)?;
        Ok(Record::Annotation(annotation))
    }

    /// A bundle's `{"type":"variation",…}` line: a variation record of this game.
    fn decode_variation(&self, mut fields: Map<String, Value>) -> Result<Record, DecodeErrorKind> {
        fields.remove("type");
        let record = variation_from_value(Value::Object(fields), self.players).map_err(|e| {
            DecodeErrorKind::Companion {
                what: VARIATION_TYPE,
                message: e.to_string(),
            }
        })?;
        self.same_game(VARIATION_TYPE, record.game())?;
        Ok(Record::Variation(record))
    }

    fn same_game(&self, what: &'static str, game: &str) -> Result<(), DecodeErrorKind> {
        if game == self.game {
            Ok(())
        } else {
            Err(DecodeErrorKind::CompanionOtherGame {
                what,
                found: short(game),
                expected: short(&self.game),
            })
        }
    }

    fn decode_assertion(
        &self,
        type_name: &str,
        fields: Map<String, Value>,
    ) -> Result<Record, DecodeErrorKind> {
        if !ASSERTION_TYPES.contains(&type_name) {
            return Err(DecodeErrorKind::UnknownAssertionType {
                found: short(type_name),
            });
        }
        let extra = fields.keys().find(|k| k.as_str() != "type").cloned();
        let assertion: Assertion = serde_json::from_value(Value::Object(fields)).map_err(|e| {
            DecodeErrorKind::Invalid {
                column: None,
                message: format!("{type_name}: {e}"),
            }
        })?;
        if let (true, Some(field)) = (assertion.takes_no_fields(), extra) {
            return Err(DecodeErrorKind::Invalid {
                column: None,
                message: format!("{type_name}: unknown field `{field}`, it has no fields"),
            });
        }
        self.checked_assertion(assertion)
    }

    /// The checks of a decoded assertion against the header.
    fn checked_assertion(&self, assertion: Assertion) -> Result<Record, DecodeErrorKind> {
        let type_name = assertion.type_name();
        if let Assertion::ExpectPoints { player, .. } = assertion {
            if usize::from(player) >= self.players {
                return Err(DecodeErrorKind::Invalid {
                    column: None,
                    message: format!(
                        "{type_name}: player {player} is not a seat of this game ({} players)",
                        self.players
                    ),
                });
            }
            return Ok(Record::Assertion(assertion));
        }
        let found = assertion.scores().len();
        if found != self.players {
            return Err(DecodeErrorKind::ScoreCount {
                assertion: assertion.type_name(),
                found,
                players: self.players,
            });
        }
        Ok(Record::Assertion(assertion))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MAX_PLAYERS;
    use proptest::prelude::*;

    /// One line of every event and assertion type, as carc writes them.
    const WRITTEN: &[&str] = &[
        r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}"#,
        r#"{"seq":2,"type":"tile_drawn","player":0,"tile":"V"}"#,
        r#"{"seq":3,"type":"tile_placed","player":0,"tile":"V","at":[1,0],"rotation":90}"#,
        r#"{"seq":4,"type":"meeple_placed","player":0,"on":"road W"}"#,
        r#"{"seq":7,"type":"meeple_skipped","player":1}"#,
        r#"{"seq":6,"type":"tile_set_aside","player":1,"tile":"X"}"#,
        r#"{"seq":9,"type":"arrow_chosen","player":1,"at":[1,-1],"symbol":"extra_turn"}"#,
        r#"{"seq":10,"type":"arrow_meeple_placed","player":1,"action":"portal","at":[2,-1],"on":"city N"}"#,
        r#"{"seq":12,"type":"gift_received","player":1,"card":"take_2"}"#,
        r#"{"seq":6,"type":"gift_opened","player":1,"card":"change_position","at":[0,0],"on":"road E","to":"field Nw"}"#,
        r#"{"seq":18,"type":"tile_returned","player":0,"tile":"V"}"#,
        r#"{"seq":19,"type":"gift_opened","player":0,"card":"take_2"}"#,
        r#"{"seq":20,"type":"game_ended"}"#,
        r#"{"seq":21,"type":"abbot_placed","player":1,"at":[0,-1],"on":"garden","portal":true}"#,
        r#"{"seq":22,"type":"abbot_taken_back","player":1,"at":[0,-1]}"#,
        r#"{"type":"expect_scores","after":7,"scores":[0,0]}"#,
        r#"{"type":"expect_final_scores","scores":[3,4,5]}"#,
        r#"{"type":"expect_points","after":1,"player":1,"feature":"city","points":4}"#,
        r#"{"type":"annotation","game":"g","seq":3,"text":"x"}"#,
    ];

    /// A body decoder for a game of `players` seats expecting event `next_seq`.
    fn body_decoder(players: usize, next_seq: u64) -> BodyDecoder {
        BodyDecoder {
            version: CURRENT_VERSION,
            game: "g".into(),
            players,
            next_seq,
        }
    }

    /// What a line decodes to, comparably.
    fn outcome(record: Result<Record, DecodeErrorKind>) -> String {
        match record {
            Ok(Record::Event(e)) => format!("event {e:?}"),
            Ok(Record::Assertion(a)) => format!("assertion {a:?}"),
            Ok(Record::Annotation(a)) => format!("annotation {a:?}"),
            Ok(Record::Variation(v)) => format!("variation {v:?}"),
            Err(kind) => format!("error {kind:?}"),
        }
    }

    /// The fast path never accepts a line the reference decoder refuses or reads otherwise.
    fn fast_agrees_with_reference(line: &str) {
        let Some(fast) = decode_flat_line(line) else {
            return;
        };
        let (players, seq) = match &fast {
            FlatRecord::Event(e) => (MAX_PLAYERS, e.seq),
            FlatRecord::Assertion(a) => (a.scores().len().clamp(1, MAX_PLAYERS), 1),
        };
        let reference = outcome(body_decoder(players, seq).decode_reference(line));
        let fast = outcome(body_decoder(players, seq).decode(line));
        assert_eq!(fast, reference, "{line}");
    }

    #[test]
    fn every_written_line_takes_the_fast_path_but_companions() {
        for line in WRITTEN {
            assert_eq!(
                decode_flat_line(line).is_some(),
                !line.contains("annotation"),
                "{line}"
            );
            fast_agrees_with_reference(line);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Written lines with characters inserted, removed or replaced (JSON punctuation,
        /// escapes, digits, letters of the keys): whatever the fast path accepts, the reference
        /// decoder accepts with the same value.
        #[test]
        fn fast_path_accepts_only_what_the_reference_accepts(
            which in 0..WRITTEN.len(),
            edits in prop::collection::vec(
                (any::<prop::sample::Index>(), 0u8..3, prop::sample::select(vec![
                    "{", "}", "[", "]", "\"", ":", ",", " ", "0", "1", "-", ".", "e", "\\",
                    "\\u0065", "s", "q", "t", "y", "p", "x", "null", "\"seq\":1,",
                    "\"type\":\"meeple_skipped\",", "\"player\":0,", "\"format\":1,",
                ])),
                0..4,
            ),
        ) {
            let mut line = WRITTEN[which].to_owned();
            for (at, op, text) in edits {
                let chars: Vec<(usize, char)> = line.char_indices().collect();
                let i = if chars.is_empty() { 0 } else { chars[at.index(chars.len())].0 };
                match op {
                    0 => line.insert_str(i, text),
                    1 if !chars.is_empty() => { line.remove(i); }
                    _ if !chars.is_empty() => { line.remove(i); line.insert_str(i, text); }
                    _ => {}
                }
            }
            fast_agrees_with_reference(&line);
        }

        /// The same with the written line's entries reordered and one of them repeated.
        #[test]
        fn reordered_or_repeated_entries_agree(
            which in 0..WRITTEN.len(),
            order in Just(()).prop_perturb(|_, mut rng| rng.next_u64()),
            repeat in any::<prop::sample::Index>(),
            do_repeat in any::<bool>(),
        ) {
            let Ok(Value::Object(map)) = serde_json::from_str::<Value>(WRITTEN[which]) else {
                panic!("a written line");
            };
            let mut entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}:{v}", Value::String(k.clone())))
                .collect();
            // A cheap deterministic shuffle from the drawn number.
            let mut state = order;
            for i in (1..entries.len()).rev() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                entries.swap(i, (state >> 33) as usize % (i + 1));
            }
            if do_repeat {
                let again = entries[repeat.index(entries.len())].clone();
                entries.push(again);
            }
            fast_agrees_with_reference(&format!("{{{}}}", entries.join(",")));
        }
    }

    #[test]
    fn upcast_path_decodes_a_header_value() {
        // Older versions are decoded from an upcast `Value`; exercise that path with a current
        // header until a version 2 exists.
        let value = serde_json::json!({
            "format": "carcassonne-log", "version": 1, "game": "g",
            "players": [{"name": "Ada", "color": "red"}],
            "rules": {"expansions": []}, "tile_sets": ["base"],
        });
        let header: Header = serde_json::from_value::<HeaderLine>(upcast(1, value).unwrap())
            .unwrap()
            .into();
        assert_eq!(header.rules, RulesOptions::default());
        assert_eq!(header.bag, None);
    }

    #[test]
    fn lines_split_with_and_without_final_newline() {
        for (input, expected) in [
            (&b""[..], vec![]),
            (b"a", vec!["a"]),
            (b"a\n", vec!["a"]),
            (b"a\nb", vec!["a", "b"]),
            (b"a\n\n", vec!["a", ""]),
            (b"\n", vec![""]),
        ] {
            let reader = Lines {
                reader: input,
                line: 0,
                buf: Vec::new(),
            };
            let slice = SliceLines {
                rest: input,
                line: 0,
            };
            assert_eq!(all_lines(reader), expected, "{input:?} from a reader");
            assert_eq!(all_lines(slice), expected, "{input:?} in memory");
        }
    }

    fn all_lines(mut lines: impl LineSource) -> Vec<String> {
        let mut got = Vec::new();
        while let Some(line) = lines.next().unwrap() {
            got.push(String::from_utf8(line.to_vec()).unwrap());
        }
        got
    }

    #[test]
    fn line_limit_is_exact_in_memory() {
        for (input, expected) in [
            (vec![b'x'; MAX_LINE_BYTES], Ok(Some(MAX_LINE_BYTES))),
            (
                [vec![b'x'; MAX_LINE_BYTES], b"\n".to_vec()].concat(),
                Ok(Some(MAX_LINE_BYTES)),
            ),
            (
                vec![b'x'; MAX_LINE_BYTES + 1],
                Err(DecodeErrorKind::LineTooLong),
            ),
            (
                [vec![b'x'; MAX_LINE_BYTES + 1], b"\n".to_vec()].concat(),
                Err(DecodeErrorKind::LineTooLong),
            ),
        ] {
            let mut lines = SliceLines {
                rest: &input,
                line: 0,
            };
            assert_eq!(lines.next().map(|l| l.map(<[u8]>::len)), expected);
        }
    }

    #[test]
    fn line_limit_is_exact() {
        let mut ok = vec![b'x'; MAX_LINE_BYTES];
        ok.push(b'\n');
        let mut lines = Lines {
            reader: &ok[..],
            line: 0,
            buf: Vec::new(),
        };
        assert_eq!(lines.next().unwrap().map(<[u8]>::len), Some(MAX_LINE_BYTES));
        let long = vec![b'x'; MAX_LINE_BYTES + 1];
        let mut lines = Lines {
            reader: &long[..],
            line: 0,
            buf: Vec::new(),
        };
        assert_eq!(lines.next(), Err(DecodeErrorKind::LineTooLong));
    }
}
