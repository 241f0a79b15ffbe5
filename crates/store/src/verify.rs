//! [`Store::verify`]: a full consistency walk that reports problems as data.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use crate::layout::{
    self, decode_dedup, decode_event, decode_sealed, decode_u64, escape_for_display,
    parse_event_key, DEDUP_TREE, EVENTS_TREE, HEADS_TREE, META_FORMAT_KEY, META_POSITION_KEY,
    META_TREE, SEALED_TREE, SUMMARIES_TREE,
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
    /// Number of streams found (with a head, or with events but no head).
    pub streams: u64,
    /// Number of events walked (per-event entries and sealed records' events).
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

/// One bit per global position, allocated in 64 Ki-position chunks as positions are met:
/// memory is one bit per stored event (plus a chunk per stray position), not a map entry.
#[derive(Default)]
struct PositionBits {
    chunks: HashMap<u64, Box<[u64; 1024]>>,
}

impl PositionBits {
    /// Marks `position`; `false` if it was already marked.
    fn insert(&mut self, position: u64) -> bool {
        let chunk = self
            .chunks
            .entry(position >> 16)
            .or_insert_with(|| Box::new([0; 1024]));
        let bit = position & 0xffff;
        let word = &mut chunk[(bit >> 6) as usize];
        let mask = 1u64 << (bit & 63);
        let fresh = *word & mask == 0;
        *word |= mask;
        fresh
    }
}

/// Streams checked at once by [`Store::verify`]: their events are decoded side by side, so
/// this bounds the memory the walk holds beyond one bit per event.
const WALK_CHUNK: usize = 256;

/// What [`Store::verify`] found in one stream: its counts and problems, and the positions its
/// events use (checked for reuse across streams by the caller).
struct StreamWalk {
    report: VerifyReport,
    positions: Vec<u64>,
}

/// The last sealed record decoded while checking dedup entries (entries of one stream are
/// mostly adjacent in id order, so one record is decoded once, not once per entry).
#[derive(Default)]
struct RecordCache {
    stream: String,
    events: Vec<StoredEvent>,
}

impl Store {
    /// Walks the whole store, one stream at a time, and checks that:
    ///
    /// * the layout version and the position counter decode;
    /// * every `events` key and value decodes, and every stream is gapless from 1;
    /// * every stream's head equals its last seq (per-event entries or sealed record), no head
    ///   lacks events and no events or record lack a head;
    /// * global positions are unique, non-zero and at most the counter;
    /// * every event with a non-canonical id has a dedup entry pointing back to it, and every
    ///   dedup entry points to an existing event carrying that id (canonical ids `<stream>#<seq>`
    ///   name their own place and need none);
    /// * every sealed record decodes (with its checksum), and equals the per-event entries a
    ///   layout-1 store keeps beside it.
    ///
    /// Streams are checked on every core, [`WALK_CHUNK`] at a time, and their findings merged
    /// in stream order (the report is the same on any number of cores). Memory stays bounded
    /// by one chunk of streams at a time plus one bit per event. Problems are
    /// returned as data in the report; `Err` means the walk itself failed (IO). Run it on a
    /// quiescent store: appends running concurrently can show up as problems.
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

        let mut bits = PositionBits::default();
        let mut reused: BTreeSet<u64> = BTreeSet::new();

        // Every stream with a head: its events, from the record or per event. Streams are
        // checked a chunk at a time on every core, and their findings merged in stream
        // order, so the report is the one a single thread gives.
        let mut heads = t.heads.iter();
        loop {
            let chunk = heads
                .by_ref()
                .take(WALK_CHUNK)
                .collect::<Result<Vec<_>, _>>()?;
            if chunk.is_empty() {
                break;
            }
            for walked in self.walk_streams(&chunk, counter) {
                let walked = walked?;
                report.streams += walked.report.streams;
                report.events += walked.report.events;
                report.sealed += walked.report.sealed;
                report.problems.extend(walked.report.problems);
                for position in walked.positions {
                    if !bits.insert(position) {
                        reused.insert(position);
                    }
                }
            }
        }

        // Events and records whose stream has no head.
        let mut last_orphan: Option<String> = None;
        for item in t.events.iter() {
            let (k, _) = item?;
            let Some((stream, seq)) = parse_event_key(&k) else {
                report.events += 1;
                report.push(
                    EVENTS_TREE,
                    None,
                    None,
                    format!("malformed key {}", escape_for_display(&k)),
                );
                continue;
            };
            if last_orphan.as_deref() == Some(stream) {
                continue;
            }
            if !t.heads.contains_key(stream.as_bytes())? {
                report.streams += 1;
                report.push(
                    HEADS_TREE,
                    Some(stream),
                    Some(seq),
                    "stream has events but no head".into(),
                );
                last_orphan = Some(stream.to_string());
            }
        }
        for item in t.sealed.iter() {
            let (k, _) = item?;
            let stream = match stream_name(SEALED_TREE, &k) {
                Ok(s) => s,
                Err(e) => {
                    report.push(SEALED_TREE, None, None, e.to_string());
                    continue;
                }
            };
            if !t.heads.contains_key(&k)? {
                report.push(
                    SEALED_TREE,
                    Some(&stream),
                    None,
                    "sealed record but no head".into(),
                );
            }
        }

        // dedup: every entry points to an event carrying its id, and none has a canonical id
        // while `meta` promises there is none (appends would not look them up).
        let promised_no_canonical = t.meta.get(layout::META_NO_CANONICAL_DEDUP_KEY)?.is_some();
        let mut cache = RecordCache::default();
        for item in t.dedup.iter() {
            let (k, v) = item?;
            let Ok(id) = std::str::from_utf8(&k) else {
                report.push(
                    DEDUP_TREE,
                    None,
                    None,
                    format!("id {} is not UTF-8", escape_for_display(&k)),
                );
                continue;
            };
            let (stream, seq) = match decode_dedup(&k, &v) {
                Ok(hit) => hit,
                Err(e) => {
                    report.push(DEDUP_TREE, None, None, e.to_string());
                    continue;
                }
            };
            let what = match self.stored_event(&stream, seq, &mut cache) {
                Ok(Some(ev)) if ev.id == id => None,
                Ok(Some(ev)) => Some(format!(
                    "entry for id {id:?} points to an event with id {:?}",
                    ev.id
                )),
                Ok(None) => Some(format!(
                    "entry for id {id:?} points to an event that does not exist"
                )),
                Err(_) => Some(format!(
                    "entry for id {id:?} points to an undecodable event"
                )),
            };
            if let Some(what) = what {
                report.push(DEDUP_TREE, Some(&stream), Some(seq), what);
            }
            // The same id may not also be stored canonically at the place it names.
            if let Some((s, q)) = layout::parse_canonical_id(id) {
                if promised_no_canonical {
                    report.push(
                        DEDUP_TREE,
                        Some(&stream),
                        Some(seq),
                        format!(
                            "entry for the canonical id {id:?}, but meta/{} promises there is none",
                            String::from_utf8_lossy(layout::META_NO_CANONICAL_DEDUP_KEY)
                        ),
                    );
                }
                if (s, q) != (stream.as_str(), seq) {
                    if let Ok(Some(ev)) = self.stored_event(s, q, &mut cache) {
                        if ev.id == id {
                            report.push(
                                DEDUP_TREE,
                                Some(&stream),
                                Some(seq),
                                format!("id {id:?} is also stored at {s} #{q}"),
                            );
                        }
                    }
                }
            }
        }

        // Positions used twice: a second walk names the first user of each.
        if !reused.is_empty() {
            self.name_reused_positions(&mut report, &reused)?;
        }
        Ok(report)
    }

    /// [`Self::walk_stream`] for each of `heads` (key and value of the `heads` tree), on
    /// every core; the results in the order of `heads`.
    fn walk_streams(
        &self,
        heads: &[(sled::IVec, sled::IVec)],
        counter: u64,
    ) -> Vec<Result<StreamWalk, StoreError>> {
        // On helper threads even on one core: the per-stream checks are the walk's parallel
        // part, and the thread that merges their findings (`CARC_TIMINGS`' serial "store
        // walk") then spends only the merge; with them on its own thread at one core it
        // counted them all as serial (issue 35). A thread per chunk of streams costs little.
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, heads.len().max(1));
        let mut out: Vec<(usize, Result<StreamWalk, StoreError>)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|first| {
                    scope.spawn(move || {
                        (first..heads.len())
                            .step_by(threads)
                            .map(|i| (i, self.walk_stream(&heads[i].0, &heads[i].1, counter)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        out.sort_by_key(|(i, _)| *i);
        out.into_iter().map(|(_, walked)| walked).collect()
    }

    /// One stream with a head (`k`, `v`: its `heads` entry): its events, from the record or
    /// per event, checked on their own; the positions they use are left to the caller, who
    /// sees every stream.
    fn walk_stream(&self, k: &[u8], v: &[u8], counter: u64) -> Result<StreamWalk, StoreError> {
        let t = self.trees();
        let mut report = VerifyReport::default();
        let mut positions = Vec::new();
        let stream = match stream_name(HEADS_TREE, k) {
            Ok(s) => s,
            Err(e) => {
                report.push(HEADS_TREE, None, None, e.to_string());
                return Ok(StreamWalk { report, positions });
            }
        };
        report.streams += 1;
        let head = match decode_u64(HEADS_TREE, k, v) {
            Ok(h) => Some(h),
            Err(e) => {
                report.push(HEADS_TREE, Some(&stream), None, e.to_string());
                None
            }
        };
        let per_event = self.walk_per_event(&stream, &mut report)?;
        let record = match t.sealed.get(k)? {
            Some(v) => {
                report.sealed += 1;
                match decode_sealed(k, &v, 1) {
                    Ok(r) => Some(r),
                    Err(e) => {
                        report.push(SEALED_TREE, Some(&stream), None, e.to_string());
                        None
                    }
                }
            }
            None => None,
        };
        if let Some(record) = &record {
            if !per_event.is_empty() {
                compare_sealed(&mut report, &stream, record, &per_event);
            }
        }
        let events = match &record {
            Some(r) => r.as_slice(),
            None => per_event.as_slice(),
        };
        report.events += events.len() as u64;
        let last = events.last().map_or(0, |e| e.seq);
        match head {
            Some(head) if head == last => {}
            Some(head) if events.is_empty() => report.push(
                HEADS_TREE,
                Some(&stream),
                Some(head),
                format!("head is {head} but the stream has no events"),
            ),
            Some(head) if record.is_some() => report.push(
                HEADS_TREE,
                Some(&stream),
                Some(head),
                format!(
                    "head is {head} but the sealed record holds {} events",
                    events.len()
                ),
            ),
            Some(head) => report.push(
                HEADS_TREE,
                Some(&stream),
                Some(head),
                format!("head is {head} but the last stored event is #{last}"),
            ),
            None => {}
        }
        for ev in events {
            self.check_event(&mut report, &stream, ev, counter, &mut positions)?;
        }
        // A summary decodes, and one of the current version says truly whether the
        // stream is sealed (`listing` believes it without reading the record).
        if let Some(v) = t.summaries.get(k)? {
            match layout::decode_summary(k, &v) {
                Ok(summary) if Some(summary.version) == head => {
                    if let Some(flag) = summary.sealed {
                        if flag != t.sealed.contains_key(k)? {
                            report.push(
                                SUMMARIES_TREE,
                                Some(&stream),
                                Some(summary.version),
                                format!(
                                    "summary says the stream is {}sealed, but it is {}",
                                    if flag { "" } else { "not " },
                                    if flag { "not" } else { "sealed" }
                                ),
                            );
                        }
                    }
                }
                Ok(_) => {} // of an older version: not used, not wrong
                Err(e) => report.push(SUMMARIES_TREE, Some(&stream), None, e.to_string()),
            }
        }
        Ok(StreamWalk { report, positions })
    }

    /// The per-event entries of `stream`, in seq order, with gaps and undecodable values
    /// reported (and left out).
    fn walk_per_event(
        &self,
        stream: &str,
        report: &mut VerifyReport,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let mut out = Vec::new();
        let mut last = 0u64;
        let start = layout::event_key(stream, 0);
        let end = layout::event_key(stream, u64::MAX);
        for item in self.trees().events.range(start..=end) {
            let (k, v) = item?;
            let Some((_, seq)) = parse_event_key(&k) else {
                continue; // reported by the orphan walk
            };
            let expected = last.saturating_add(1);
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
            last = seq;
            match decode_event(&k, seq, &v) {
                Ok(ev) => out.push(ev),
                Err(e) => report.push(EVENTS_TREE, Some(stream), Some(seq), e.to_string()),
            }
        }
        Ok(out)
    }

    fn check_event(
        &self,
        report: &mut VerifyReport,
        stream: &str,
        ev: &StoredEvent,
        counter: u64,
        positions: &mut Vec<u64>,
    ) -> Result<(), StoreError> {
        let tree = EVENTS_TREE;
        if ev.position == 0 || ev.position > counter {
            report.push(
                tree,
                Some(stream),
                Some(ev.seq),
                format!(
                    "position {} outside 1..={counter} (the global counter)",
                    ev.position
                ),
            );
        }
        positions.push(ev.position);
        if !layout::is_canonical_id(&ev.id, stream, ev.seq) {
            let pointed = match self.trees().dedup.get(ev.id.as_bytes())? {
                Some(v) => decode_dedup(ev.id.as_bytes(), &v).ok(),
                None => None,
            };
            match pointed {
                Some((s, q)) if s == stream && q == ev.seq => {}
                Some(_) => {} // reported from the dedup walk, at the place it points to
                None => report.push(
                    DEDUP_TREE,
                    Some(stream),
                    Some(ev.seq),
                    format!("event id {:?} has no dedup entry", ev.id),
                ),
            }
        }
        Ok(())
    }

    /// Event `seq` of `stream` wherever it is kept (`None`: not stored).
    fn stored_event(
        &self,
        stream: &str,
        seq: u64,
        cache: &mut RecordCache,
    ) -> Result<Option<StoredEvent>, StoreError> {
        let t = self.trees();
        if cache.stream != stream {
            cache.events = match t.sealed.get(stream.as_bytes())? {
                Some(v) => decode_sealed(stream.as_bytes(), &v, 1)?,
                None => Vec::new(),
            };
            cache.stream = stream.to_string();
        }
        if !cache.events.is_empty() {
            return Ok(cache.events.get((seq as usize).wrapping_sub(1)).cloned());
        }
        let key = layout::event_key(stream, seq);
        t.events
            .get(&key)?
            .map(|v| decode_event(&key, seq, &v))
            .transpose()
    }

    /// Reports every later user of a position in `reused`, naming the first one.
    fn name_reused_positions(
        &self,
        report: &mut VerifyReport,
        reused: &BTreeSet<u64>,
    ) -> Result<(), StoreError> {
        let mut first: HashMap<u64, (String, u64)> = HashMap::new();
        for record in self.read_all_streams() {
            let Ok(record) = record else { continue };
            for ev in &record.events {
                if !reused.contains(&ev.position) {
                    continue;
                }
                match first.get(&ev.position) {
                    None => {
                        first.insert(ev.position, (record.stream.clone(), ev.seq));
                    }
                    Some((s, q)) => report.push(
                        EVENTS_TREE,
                        Some(&record.stream),
                        Some(ev.seq),
                        format!("position {} also used by {s} #{q}", ev.position),
                    ),
                }
            }
        }
        Ok(())
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
