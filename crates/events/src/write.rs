//! Writing logs: deterministic bytes, one compact JSON object per line, `\n` line ends.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::model::{Assertion, Envelope, Header, Log, Player, RulesOptions, TileId};
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

/// The whole log: header, then events and assertions ordered by their line numbers (an event
/// before an assertion on a tie), each line ending in `\n`.
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
    let mut events = log.events.iter().peekable();
    let mut assertions = log.assertions.iter().peekable();
    let body = std::iter::from_fn(move || match (events.peek(), assertions.peek()) {
        (Some((event_line, _)), Some((assertion_line, _))) if assertion_line < event_line => {
            assertions.next().map(|(_, a)| write_assertion_line(a))
        }
        (Some(_), _) => events.next().map(|(_, e)| write_event_line(e)),
        (None, _) => assertions.next().map(|(_, a)| write_assertion_line(a)),
    });
    std::iter::once(write_header(&log.header)).chain(body)
}
