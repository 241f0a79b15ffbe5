//! Writing logs: deterministic bytes, one compact JSON object per line, `\n` line ends.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::annotation::Annotation;
use crate::log::Log;
use crate::model::{
    Assertion, Envelope, Header, Player, RulesOptions, Source, TileId, ANNOTATION_TYPE,
    VARIATION_TYPE,
};
use crate::variation::VariationRecord;
use crate::{CURRENT_VERSION, FORMAT};

/// The header line as written: `format` and `version` first.
#[derive(Serialize)]
struct HeaderOut<'a> {
    format: &'static str,
    version: u32,
    game: &'a str,
    players: &'a [Player],
    rules: &'a RulesOptions,
    tile_sets: &'a [String],
    bag: &'a Option<BTreeMap<TileId, u16>>,
    // Absent unless known, so that logs without it keep their bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    source: &'a Option<Source>,
    #[serde(skip_serializing_if = "Option::is_none")]
    comment: &'a Option<String>,
}

fn to_line<T: Serialize>(value: &T) -> String {
    // Our types have string map keys and infallible `Serialize` impls, so this cannot fail.
    serde_json::to_string(value).expect("log types always serialize to JSON")
}

/// The header line (without the `\n`), in the current format version.
pub fn write_header(header: &Header) -> String {
    to_line(&HeaderOut {
        format: FORMAT,
        version: CURRENT_VERSION,
        game: &header.game,
        players: &header.players,
        rules: &header.rules,
        tile_sets: &header.tile_sets,
        bag: &header.bag,
        source: &header.source,
        comment: &header.comment,
    })
}

/// An event line (without the `\n`): `{"seq":N,"type":…,…}`.
pub fn write_event_line(envelope: &Envelope) -> String {
    to_line(envelope)
}

/// An assertion line (without the `\n`): `{"type":"expect_…",…}`.
pub fn write_assertion_line(assertion: &Assertion) -> String {
    to_line(assertion)
}

/// A bundle's annotation line (without the `\n`): the annotation record with
/// `"type":"annotation"` in front.
pub fn write_annotation_line(annotation: &Annotation) -> String {
    typed(ANNOTATION_TYPE, &annotation.to_json())
}

/// A bundle's variation line (without the `\n`): the variation record with
/// `"type":"variation"` in front.
pub fn write_variation_line(record: &VariationRecord) -> String {
    typed(VARIATION_TYPE, &record.to_json())
}

/// `{"type":"<t>",` followed by the rest of a record's JSON object (which has fields).
fn typed(type_name: &str, record: &str) -> String {
    let fields = record.strip_prefix('{').unwrap_or(record);
    format!("{{\"type\":\"{type_name}\",{fields}")
}

/// The whole log: header, then events, assertions, annotations and variations ordered by
/// their line numbers (in that order on a tie), each line ending in `\n`.
pub fn write_log(log: &Log) -> String {
    let mut out = String::new();
    for line in lines(log) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// [`write_log`] into a writer.
pub fn write_log_to<W: Write>(log: &Log, mut writer: W) -> io::Result<()> {
    for line in lines(log) {
        writer.write_all(line.as_bytes())?;
        writer.write_all(b"\n")?;
    }
    Ok(())
}

fn lines(log: &Log) -> impl Iterator<Item = String> + '_ {
    // (line, kind, index): kind orders ties (event, assertion, annotation, variation); the
    // sort is stable, so items of one kind keep their order.
    let mut order: Vec<(usize, u8, usize)> = Vec::with_capacity(
        log.events.len() + log.assertions.len() + log.annotations.len() + log.variations.len(),
    );
    order.extend(log.events.iter().enumerate().map(|(i, (l, _))| (*l, 0, i)));
    order.extend(
        log.assertions
            .iter()
            .enumerate()
            .map(|(i, (l, _))| (*l, 1, i)),
    );
    order.extend(
        log.annotations
            .iter()
            .enumerate()
            .map(|(i, (l, _))| (*l, 2, i)),
    );
    order.extend(
        log.variations
            .iter()
            .enumerate()
            .map(|(i, (l, _))| (*l, 3, i)),
    );
    order.sort_by_key(|&(line, kind, _)| (line, kind));
    let body = order.into_iter().map(move |(_, kind, i)| match kind {
        0 => write_event_line(&log.events[i].1),
        1 => write_assertion_line(&log.assertions[i].1),
        2 => write_annotation_line(&log.annotations[i].1),
        _ => write_variation_line(&log.variations[i].1),
    });
    std::iter::once(write_header(&log.header)).chain(body)
}
