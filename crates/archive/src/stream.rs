//! The storage mapping between a game log and a store stream (described in
//! `docs/store-cli.md`).
//!
//! * One stream per game; the stream id is the header's `game`.
//! * One store event per log line, in file order: seq 1 is the header line. A payload is the
//!   line's exact bytes **including** its `\n` (only the last line of a file that does not end
//!   in a newline lacks it), so concatenating the payloads gives the file back byte for byte.
//! * Event ids are `<game>#<stream seq>`: re-importing the same file never stores a line twice.
//! * `carc record undo` appends a retraction record `{"type":"move_retracted","retracts":N}`
//!   (N = the stream seq of the retracted line). The *effective* log drops retracted lines and
//!   retraction records and renumbers the events so that `seq` stays gapless.

use std::collections::{BTreeMap, BTreeSet};

use carc_events::{
    read_log, upcast, write_assertion_line, write_event_line, write_header, Assertion, Envelope,
    Log, CURRENT_VERSION,
};
use carc_store::{Store, StreamListing};
use serde_json::Value;

use crate::error::ArchiveError;
use crate::ids::{check_game_id, Companion};

type Result<T> = std::result::Result<T, ArchiveError>;

/// The `type` of a retraction record.
pub const RETRACTION_TYPE: &str = "move_retracted";

/// The client event id of the stream event with sequence number `seq`.
pub fn event_id(game: &str, seq: u64) -> String {
    format!("{game}#{seq}")
}

/// A stored line: a log line, or a retraction record written by `carc record undo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A line of the log (header, event or assertion).
    Log,
    /// `{"type":"move_retracted","retracts":N}`: the line with stream seq N no longer counts.
    Retraction { retracts: u64 },
}

/// One stream event.
#[derive(Debug, Clone)]
pub struct StoredLine {
    pub seq: u64,
    pub payload: Vec<u8>,
    pub kind: Kind,
}

/// A game as stored.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub game: String,
    pub lines: Vec<StoredLine>,
    pub sealed: bool,
}

/// The payload of a retraction record.
pub fn retraction_payload(retracts: u64) -> Vec<u8> {
    format!("{{\"type\":\"{RETRACTION_TYPE}\",\"retracts\":{retracts}}}\n").into_bytes()
}

fn classify(seq: u64, payload: &[u8]) -> Kind {
    if seq > 1
        && payload
            .windows(RETRACTION_TYPE.len())
            .any(|w| w == RETRACTION_TYPE.as_bytes())
    {
        if let Ok(Value::Object(fields)) = serde_json::from_slice::<Value>(payload) {
            if fields.get("type").and_then(Value::as_str) == Some(RETRACTION_TYPE) {
                if let Some(retracts) = fields.get("retracts").and_then(Value::as_u64) {
                    return Kind::Retraction { retracts };
                }
            }
        }
    }
    Kind::Log
}

/// Splits a file into lines, each keeping its `\n` (the last one may lack it).
pub fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            out.push(&bytes[start..=i]);
            start = i + 1;
        }
    }
    if start < bytes.len() {
        out.push(&bytes[start..]);
    }
    out
}

/// The ids of the stored games, sorted: every stream except the companion streams.
pub fn game_ids(store: &Store) -> Result<Vec<String>> {
    let mut ids = store.streams()?;
    ids.retain(|id| Companion::of_stream(id).is_none());
    Ok(ids)
}

/// The stored games in id order with their versions and the summaries kept for them (see
/// [`Store::listing`]): every stream except the companion streams, one at a time.
pub fn game_listing(store: &Store) -> impl Iterator<Item = Result<StreamListing>> {
    store
        .listing()
        .map(|listed| listed.map_err(ArchiveError::from))
        .filter(|listed| {
            listed
                .as_ref()
                .map_or(true, |l| Companion::of_stream(&l.stream).is_none())
        })
}

/// Reads a game's stream; `None` if the store has no such game.
pub fn read_game(store: &Store, game: &str) -> Result<Option<StoredGame>> {
    check_game_id(game).map_err(|reason| ArchiveError::GameId { reason })?;
    let events = store.read_stream(game, 1)?;
    if events.is_empty() {
        return Ok(None);
    }
    let sealed = store.is_sealed(game)?;
    let lines = events
        .into_iter()
        .map(|e| StoredLine {
            kind: classify(e.seq, &e.payload),
            seq: e.seq,
            payload: e.payload,
        })
        .collect();
    Ok(Some(StoredGame {
        game: game.to_string(),
        lines,
        sealed,
    }))
}

impl StoredGame {
    /// A game from its stream's events `(seq, payload)` in order, however they were read
    /// (the store, or a salvage scan of a damaged one).
    pub fn from_events(
        game: &str,
        events: impl IntoIterator<Item = (u64, Vec<u8>)>,
        sealed: bool,
    ) -> StoredGame {
        StoredGame {
            game: game.to_string(),
            lines: events
                .into_iter()
                .map(|(seq, payload)| StoredLine {
                    kind: classify(seq, &payload),
                    seq,
                    payload,
                })
                .collect(),
            sealed,
        }
    }

    /// The stream's version (its last seq).
    pub fn version(&self) -> u64 {
        self.lines.last().map_or(0, |l| l.seq)
    }

    /// Whether any retraction record is stored.
    pub fn has_retractions(&self) -> bool {
        self.lines.iter().any(|l| l.kind != Kind::Log)
    }

    /// Every stored line, retraction records included: the payloads concatenated (a `\n` is
    /// added after a payload that lacks one, unless it is the last).
    pub fn raw_bytes(&self) -> Vec<u8> {
        concat(self.lines.iter().map(|l| l.payload.as_slice()))
    }

    /// The stream seqs of the lines that count: log lines not retracted.
    pub fn effective_seqs(&self) -> Vec<u64> {
        let retracted: BTreeSet<u64> = self
            .lines
            .iter()
            .filter_map(|l| match l.kind {
                Kind::Retraction { retracts } => Some(retracts),
                Kind::Log => None,
            })
            .collect();
        self.lines
            .iter()
            .filter(|l| l.kind == Kind::Log && !retracted.contains(&l.seq))
            .map(|l| l.seq)
            .collect()
    }

    /// The effective log as bytes. Without retractions this is exactly the imported file;
    /// with retractions, the kept lines are rewritten with gapless `seq`.
    pub fn effective_bytes(&self) -> Result<Vec<u8>> {
        if !self.has_retractions() {
            return Ok(self.raw_bytes());
        }
        let keep: BTreeSet<u64> = self.effective_seqs().into_iter().collect();
        let kept: Vec<&StoredLine> = self
            .lines
            .iter()
            .filter(|l| keep.contains(&l.seq))
            .collect();
        let Some((header, body)) = kept.split_first() else {
            return Err(self.corrupt(1, "no header line".into()));
        };
        if header.seq != 1 {
            return Err(self.corrupt(1, "the header line is retracted".into()));
        }
        let header_text = std::str::from_utf8(&header.payload)
            .map_err(|_| self.corrupt(1, "the header line is not UTF-8".into()))?;
        let version = serde_json::from_str::<Value>(header_text)
            .ok()
            .and_then(|v| v.get("version").and_then(Value::as_u64))
            .and_then(|v| u32::try_from(v).ok())
            .unwrap_or(CURRENT_VERSION);
        let mut out: Vec<String> = Vec::with_capacity(kept.len());
        if version == CURRENT_VERSION {
            out.push(header_text.trim_end_matches('\n').to_string());
        } else {
            let log =
                read_log(header_text.as_bytes()).map_err(|e| self.corrupt(1, e.to_string()))?;
            out.push(write_header(&log.header));
        }
        // Old seq (as written on the kept line) -> new seq, for assertions' `after`.
        let mut renumbered: BTreeMap<u64, u64> = BTreeMap::new();
        let mut next = 1u64;
        for line in body {
            let value: Value = serde_json::from_slice(&line.payload)
                .map_err(|e| self.corrupt(line.seq, format!("not JSON: {e}")))?;
            let value =
                upcast(version, value).map_err(|e| self.corrupt(line.seq, e.to_string()))?;
            if value.get("seq").is_some() {
                let mut envelope: Envelope = serde_json::from_value(value)
                    .map_err(|e| self.corrupt(line.seq, format!("not an event: {e}")))?;
                renumbered.insert(envelope.seq, next);
                envelope.seq = next;
                next += 1;
                out.push(write_event_line(&envelope));
            } else {
                let mut assertion: Assertion = serde_json::from_value(value)
                    .map_err(|e| self.corrupt(line.seq, format!("not an assertion: {e}")))?;
                if let Assertion::ExpectScores { after, .. } = &mut assertion {
                    match renumbered.get(after) {
                        Some(new) => *after = *new,
                        None => continue, // its event was retracted
                    }
                }
                out.push(write_assertion_line(&assertion));
            }
        }
        let mut bytes = out.join("\n").into_bytes();
        bytes.push(b'\n');
        Ok(bytes)
    }

    /// The effective log, decoded.
    pub fn effective_log(&self) -> Result<Log> {
        let bytes = self.effective_bytes()?;
        read_log(&bytes).map_err(|source| ArchiveError::Decode {
            game: self.game.clone(),
            source,
        })
    }

    fn corrupt(&self, seq: u64, what: String) -> ArchiveError {
        ArchiveError::Corrupt {
            game: self.game.clone(),
            seq,
            what,
        }
    }
}

fn concat<'a>(payloads: impl Iterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    for p in payloads {
        if !out.is_empty() && out.last() != Some(&b'\n') {
            out.push(b'\n');
        }
        out.extend_from_slice(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_terminators() {
        assert_eq!(split_lines(b""), Vec::<&[u8]>::new());
        assert_eq!(split_lines(b"a\nb"), vec![&b"a\n"[..], b"b"]);
        assert_eq!(split_lines(b"a\r\nb\n"), vec![&b"a\r\n"[..], b"b\n"]);
        assert_eq!(concat(split_lines(b"a\nb").into_iter()), b"a\nb");
    }

    #[test]
    fn retraction_records_are_recognised() {
        assert_eq!(
            classify(5, &retraction_payload(4)),
            Kind::Retraction { retracts: 4 }
        );
        assert_eq!(classify(1, &retraction_payload(4)), Kind::Log);
        assert_eq!(
            classify(3, b"{\"seq\":2,\"type\":\"meeple_skipped\",\"player\":0}\n"),
            Kind::Log
        );
    }
}
