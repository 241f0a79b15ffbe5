//! [`Store::verify`]: a full consistency walk that reports problems as data.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;

use crate::layout::{
    self, decode_dedup, decode_event, decode_sealed, decode_u64, escape_for_display,
    parse_event_key, DEDUP_TREE, EVENTS_TREE, HEADS_TREE, META_FORMAT_KEY, META_POSITION_KEY,
    META_TREE, SEALED_TREE,
};
use crate::store::stream_name;
use crate::{Store, StoreError, StoredEvent};

/// One inconsistency found by [`Store::verify`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The tree where it was found (`events`, `heads`, `meta`, `dedup`, `sealed`).
    pub tree: &'static str,
    /// The stream concerned, when known.
    pub stream: Option<String>,
    /// The sequence number concerned, when known.
    pub seq: Option<u64>,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.tree)?;
        if let Some(s) = &self.stream {
            write!(f, " {s}")?;
        }
        if let Some(seq) = self.seq {
            write!(f, " #{seq}")?;
        }
        write!(f, ": {}", self.what)
    }
}

/// The result of [`Store::verify`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Number of streams found (distinct stream ids among events and heads).
    pub streams: u64,
    /// Number of event entries walked.
    pub events: u64,
    /// Number of sealed records checked.
    pub sealed: u64,
    /// The global position counter.
    pub position: u64,
    /// Everything found wrong, in walk order.
    pub problems: Vec<Problem>,
}

impl VerifyReport {
    /// `true` when no problem was found.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }

    fn push(&mut self, tree: &'static str, stream: Option<&str>, seq: Option<u64>, what: String) {
        self.problems.push(Problem {
            tree,
            stream: stream.map(str::to_string),
            seq,
            what,
        });
    }
}

impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} streams, {} events, {} sealed, position {}: ",
            self.streams, self.events, self.sealed, self.position
        )?;
        if self.is_ok() {
            return f.write_str("ok");
        }
        writeln!(f, "{} problems", self.problems.len())?;
        for p in &self.problems {
            writeln!(f, "  {p}")?;
        }
        Ok(())
    }
}

/// Per-stream facts gathered from the `events` tree.
#[derive(Default)]
struct StreamSeen {
    /// Highest seq seen (events are walked in seq order).
    last: u64,
}

impl Store {
    /// Walks the whole store and checks that:
    ///
    /// * the layout version and the position counter decode;
    /// * every `events` key and value decodes, and every stream is gapless from 1;
    /// * every stream's head equals its last stored seq, and no head lacks events;
    /// * global positions are unique, non-zero and at most the counter;
    /// * event ids are unique, every event's id has a dedup entry pointing back to it, and
    ///   every dedup entry points to an existing event carrying that id;
    /// * every sealed record decodes and equals the stream's per-event data.
    ///
    /// Problems are returned as data in the report; `Err` means the walk itself failed (IO).
    /// Run it on a quiescent store: appends running concurrently can show up as problems.
    pub fn verify(&self) -> Result<VerifyReport, StoreError> {
        let t = self.trees();
        let mut report = VerifyReport::default();

        // meta
        match t.meta.get(META_FORMAT_KEY)? {
            Some(v) if v.as_ref() == [layout::FORMAT_VERSION] => {}
            Some(v) => report.push(
                META_TREE,
                None,
                None,
                format!("layout version is {}", escape_for_display(&v)),
            ),
            None => report.push(META_TREE, None, None, "layout version missing".into()),
        }
        let counter = match t.meta.get(META_POSITION_KEY)? {
            Some(v) => match decode_u64(META_TREE, META_POSITION_KEY, &v) {
                Ok(p) => p,
                Err(e) => {
                    report.push(META_TREE, None, None, e.to_string());
                    u64::MAX
                }
            },
            None => 0,
        };
        report.position = counter;

        // events
        let mut streams: BTreeMap<String, StreamSeen> = BTreeMap::new();
        let mut positions: HashMap<u64, (String, u64)> = HashMap::new();
        let mut ids: HashMap<String, (String, u64)> = HashMap::new();
        for item in t.events.iter() {
            let (k, v) = item?;
            report.events += 1;
            let Some((stream, seq)) = parse_event_key(&k) else {
                report.push(
                    EVENTS_TREE,
                    None,
                    None,
                    format!("malformed key {}", escape_for_display(&k)),
                );
                continue;
            };
            let seen = streams.entry(stream.to_string()).or_default();
            let expected = seen.last.saturating_add(1);
            if seq == 0 {
                report.push(
                    EVENTS_TREE,
                    Some(stream),
                    Some(0),
                    "sequence number 0".into(),
                );
            } else if seq != expected {
                let what = if seq == expected + 1 {
                    format!("missing event #{expected}")
                } else {
                    format!("missing events #{expected}..=#{}", seq - 1)
                };
                report.push(EVENTS_TREE, Some(stream), Some(expected), what);
            }
            seen.last = seq;
            let ev = match decode_event(&k, seq, &v) {
                Ok(ev) => ev,
                Err(e) => {
                    report.push(EVENTS_TREE, Some(stream), Some(seq), e.to_string());
                    continue;
                }
            };
            if ev.position == 0 || ev.position > counter {
                report.push(
                    EVENTS_TREE,
                    Some(stream),
                    Some(seq),
                    format!(
                        "position {} outside 1..={counter} (the global counter)",
                        ev.position
                    ),
                );
            }
            if let Some((s, q)) = positions.insert(ev.position, (stream.to_string(), seq)) {
                report.push(
                    EVENTS_TREE,
                    Some(stream),
                    Some(seq),
                    format!("position {} also used by {s} #{q}", ev.position),
                );
            }
            if let Some((s, q)) = ids.insert(ev.id.clone(), (stream.to_string(), seq)) {
                report.push(
                    EVENTS_TREE,
                    Some(stream),
                    Some(seq),
                    format!("id {:?} also used by {s} #{q}", ev.id),
                );
            }
        }

        // heads
        let mut headed = BTreeMap::new();
        for item in t.heads.iter() {
            let (k, v) = item?;
            let stream = match stream_name(HEADS_TREE, &k) {
                Ok(s) => s,
                Err(e) => {
                    report.push(HEADS_TREE, None, None, e.to_string());
                    continue;
                }
            };
            let head = match decode_u64(HEADS_TREE, &k, &v) {
                Ok(h) => h,
                Err(e) => {
                    report.push(HEADS_TREE, Some(&stream), None, e.to_string());
                    continue;
                }
            };
            match streams.get(&stream) {
                Some(seen) if seen.last == head => {}
                Some(seen) => report.push(
                    HEADS_TREE,
                    Some(&stream),
                    Some(head),
                    format!("head is {head} but the last stored event is #{}", seen.last),
                ),
                None => report.push(
                    HEADS_TREE,
                    Some(&stream),
                    Some(head),
                    format!("head is {head} but the stream has no events"),
                ),
            }
            headed.insert(stream, head);
        }
        for (stream, seen) in &streams {
            if !headed.contains_key(stream) {
                report.push(
                    HEADS_TREE,
                    Some(stream),
                    Some(seen.last),
                    "stream has events but no head".into(),
                );
            }
        }
        let mut all_streams: BTreeSet<&String> = streams.keys().collect();
        all_streams.extend(headed.keys());
        report.streams = all_streams.len() as u64;

        // dedup
        let mut deduped: HashSet<String> = HashSet::with_capacity(ids.len());
        for item in t.dedup.iter() {
            let (k, v) = item?;
            let id = match std::str::from_utf8(&k) {
                Ok(id) => id.to_string(),
                Err(_) => {
                    report.push(
                        DEDUP_TREE,
                        None,
                        None,
                        format!("id {} is not UTF-8", escape_for_display(&k)),
                    );
                    continue;
                }
            };
            let (stream, seq) = match decode_dedup(&k, &v) {
                Ok(hit) => hit,
                Err(e) => {
                    report.push(DEDUP_TREE, None, None, e.to_string());
                    continue;
                }
            };
            match ids.get(&id) {
                Some((s, q)) if *s == stream && *q == seq => {}
                Some((s, q)) => report.push(
                    DEDUP_TREE,
                    Some(&stream),
                    Some(seq),
                    format!("entry for id {id:?} points here, but that id is stored at {s} #{q}"),
                ),
                None => {
                    let key = layout::event_key(&stream, seq);
                    let what = match t.events.get(&key)? {
                        None => {
                            format!("entry for id {id:?} points to an event that does not exist")
                        }
                        Some(v) => match decode_event(&key, seq, &v) {
                            Ok(ev) => format!(
                                "entry for id {id:?} points to an event with id {:?}",
                                ev.id
                            ),
                            Err(_) => format!("entry for id {id:?} points to an undecodable event"),
                        },
                    };
                    report.push(DEDUP_TREE, Some(&stream), Some(seq), what);
                }
            }
            deduped.insert(id);
        }
        for (id, (stream, seq)) in &ids {
            if !deduped.contains(id) {
                report.push(
                    DEDUP_TREE,
                    Some(stream),
                    Some(*seq),
                    format!("event id {id:?} has no dedup entry"),
                );
            }
        }

        // sealed
        for item in t.sealed.iter() {
            let (k, v) = item?;
            report.sealed += 1;
            let stream = match stream_name(SEALED_TREE, &k) {
                Ok(s) => s,
                Err(e) => {
                    report.push(SEALED_TREE, None, None, e.to_string());
                    continue;
                }
            };
            let record = match decode_sealed(&k, &v, 1) {
                Ok(r) => r,
                Err(e) => {
                    report.push(SEALED_TREE, Some(&stream), None, e.to_string());
                    continue;
                }
            };
            let per_event = match self.read_events(&stream, 1) {
                Ok(evs) => evs,
                Err(e) => {
                    report.push(
                        SEALED_TREE,
                        Some(&stream),
                        None,
                        format!("per-event data unreadable: {e}"),
                    );
                    continue;
                }
            };
            compare_sealed(&mut report, &stream, &record, &per_event);
        }
        Ok(report)
    }
}

fn compare_sealed(
    report: &mut VerifyReport,
    stream: &str,
    record: &[StoredEvent],
    per_event: &[StoredEvent],
) {
    if record.len() != per_event.len() {
        report.push(
            SEALED_TREE,
            Some(stream),
            None,
            format!(
                "sealed record holds {} events, the stream {}",
                record.len(),
                per_event.len()
            ),
        );
    }
    for (a, b) in record.iter().zip(per_event) {
        if a != b {
            let field = if a.seq != b.seq {
                "seq"
            } else if a.position != b.position {
                "position"
            } else if a.id != b.id {
                "id"
            } else {
                "payload"
            };
            report.push(
                SEALED_TREE,
                Some(stream),
                Some(a.seq),
                format!("sealed record differs from the stored event ({field})"),
            );
        }
    }
}
