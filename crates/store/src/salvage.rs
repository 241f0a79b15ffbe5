//! Reading what is left of a damaged store without sled: a scan of the raw database files
//! for the values this store writes (sealed records, per-event entries). Used by `carc
//! salvage` when sled cannot open a store, or to find more than sled gives back.
//!
//! The scan never writes. It finds:
//!
//! * layout-2 sealed records by their version byte and magic (`0x02 "carcSEAL"`); one whose
//!   CRC-32 fails is still read if its framing holds, and marked damaged;
//! * layout-1 sealed records (`0x01 ‖ count ‖ entries`) whose ids are the canonical
//!   `<stream>#1..=#count`, accepted only when every entry parses;
//! * per-event entries (`0x01 ‖ position ‖ id_len ‖ id ‖ payload`) whose id is canonical
//!   (`<stream>#<seq>`): such a value does not record its payload's length, so the caller's
//!   `frame` says where a payload ends (the archive's payloads are JSON lines).
//!
//! sled keeps older versions of a value until it cleans a segment, so the same event may be
//! found several times; the longest sealed record of a stream wins, else the per-event
//! entries gapless from 1.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::layout::{
    decode_sealed_v2_checked, parse_canonical_id, MAX_EVENT_ID_LEN, SEALED_MAGIC, SEALED_VERSION,
    VALUE_VERSION,
};
use crate::StoredEvent;

/// Longest payload the per-event scan takes (a log line is at most 1 MiB).
const MAX_LINE: usize = 1 << 20;

/// One stream found by [`scan_raw`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawStream {
    /// Its events, gapless from seq 1.
    pub events: Vec<StoredEvent>,
    /// Whether they come from a sealed record (the stream was finished and is whole).
    pub sealed: bool,
    /// Per-event entries found beyond the first gap, left out.
    pub dropped: usize,
    /// The only sealed record found fails its checksum: some bytes are damaged.
    pub damaged: bool,
}

/// What [`scan_raw`] found.
#[derive(Debug, Default)]
pub struct RawScan {
    /// Streams found, by id.
    pub streams: BTreeMap<String, RawStream>,
    /// Files read.
    pub files: Vec<PathBuf>,
    /// Files that could not be read, with why.
    pub unreadable: Vec<(PathBuf, String)>,
}

/// Says how long the payload at the start of the bytes is (`None`: not a payload). It sees at
/// most 1 MiB.
pub type Frame<'a> = &'a dyn Fn(&[u8]) -> Option<usize>;

/// Scans every regular file in the store folder `dir` and its `blobs` folder; `frame` finds
/// the end of a per-event entry's payload.
pub fn scan_raw(dir: &Path, frame: Frame<'_>) -> RawScan {
    let mut scan = RawScan::default();
    let mut sealed: BTreeMap<String, Sealed> = BTreeMap::new();
    let mut loose: BTreeMap<String, BTreeMap<u64, StoredEvent>> = BTreeMap::new();
    let mut files = Vec::new();
    for folder in [dir.to_path_buf(), dir.join("blobs")] {
        match std::fs::read_dir(&folder) {
            Ok(entries) => {
                for entry in entries.flatten() {
                    let path = entry.path();
                    if entry.file_type().map(|t| t.is_file()).unwrap_or(false) {
                        files.push(path);
                    }
                }
            }
            Err(e) if folder == dir => scan.unreadable.push((folder, e.to_string())),
            Err(_) => {}
        }
    }
    files.sort();
    for path in files {
        match std::fs::read(&path) {
            Ok(bytes) => {
                scan_bytes(&bytes, &mut sealed, &mut loose, frame);
                scan.files.push(path);
            }
            Err(e) => scan.unreadable.push((path, e.to_string())),
        }
    }
    for (stream, found) in sealed {
        scan.streams.insert(
            stream,
            RawStream {
                events: found.events,
                sealed: true,
                dropped: 0,
                damaged: !found.intact,
            },
        );
    }
    for (stream, mut by_seq) in loose {
        if scan.streams.contains_key(&stream) {
            continue;
        }
        let mut events = Vec::new();
        while let Some(e) = by_seq.remove(&(events.len() as u64 + 1)) {
            events.push(e);
        }
        if events.is_empty() {
            continue;
        }
        scan.streams.insert(
            stream,
            RawStream {
                events,
                sealed: false,
                dropped: by_seq.len(),
                damaged: false,
            },
        );
    }
    scan
}

/// The best sealed record found for a stream so far.
#[derive(Default)]
struct Sealed {
    events: Vec<StoredEvent>,
    intact: bool,
}

/// Keeps an intact record over a damaged one, then the longer one.
fn keep_better(
    sealed: &mut BTreeMap<String, Sealed>,
    stream: String,
    events: Vec<StoredEvent>,
    intact: bool,
) {
    let slot = sealed.entry(stream).or_default();
    if (intact, events.len()) > (slot.intact, slot.events.len()) {
        *slot = Sealed { events, intact };
    }
}

fn scan_bytes(
    bytes: &[u8],
    sealed: &mut BTreeMap<String, Sealed>,
    loose: &mut BTreeMap<String, BTreeMap<u64, StoredEvent>>,
    frame: Frame<'_>,
) {
    for at in 0..bytes.len() {
        let rest = &bytes[at..];
        match rest[0] {
            SEALED_VERSION if rest[1..].starts_with(SEALED_MAGIC) => {
                if let Some(len) = sealed_v2_len(rest) {
                    let record = &rest[..len];
                    if let Ok((stream, events)) = decode_sealed_v2_checked(b"", record, 1, true) {
                        keep_better(sealed, stream, events, true);
                    } else if let Ok((stream, events)) =
                        decode_sealed_v2_checked(b"", record, 1, false)
                    {
                        keep_better(sealed, stream, events, false);
                    }
                }
            }
            VALUE_VERSION => {
                if let Some((stream, events)) = sealed_v1_at(rest) {
                    keep_better(sealed, stream, events, true);
                } else if let Some((stream, event)) = event_at(rest, frame) {
                    loose
                        .entry(stream)
                        .or_default()
                        .entry(event.seq)
                        .or_insert(event);
                }
            }
            _ => {}
        }
    }
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_be_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_be_bytes(self.take(8)?.try_into().ok()?))
    }
}

/// The length of the layout-2 sealed record starting at `bytes[0]`, from its own framing.
fn sealed_v2_len(bytes: &[u8]) -> Option<usize> {
    let mut c = Cursor {
        bytes,
        at: 1 + SEALED_MAGIC.len(),
    };
    let len = c.u8()?;
    c.take(usize::from(len))?;
    c.u32()?; // count
    c.u64()?; // first position
    c.u8()?; // encoding
    let body = c.u32()?;
    c.u32()?; // raw length
    c.take(usize::try_from(body).ok()?)?;
    c.u32()?; // CRC
    Some(c.at)
}

/// A layout-1 sealed record at `bytes[0]` whose ids are `<stream>#1..`.
fn sealed_v1_at(bytes: &[u8]) -> Option<(String, Vec<StoredEvent>)> {
    let mut c = Cursor { bytes, at: 1 };
    let count = c.u64()?;
    if count == 0 || count > (bytes.len() / 16) as u64 {
        return None;
    }
    let mut stream: Option<String> = None;
    let mut events = Vec::new();
    for seq in 1..=count {
        let position = c.u64()?;
        let id_len = c.u32()? as usize;
        if id_len == 0 || id_len > MAX_EVENT_ID_LEN {
            return None;
        }
        let id = std::str::from_utf8(c.take(id_len)?).ok()?;
        let (s, n) = parse_canonical_id(id)?;
        if n != seq || stream.as_deref().is_some_and(|known| known != s) {
            return None;
        }
        stream.get_or_insert_with(|| s.to_string());
        let payload_len = c.u32()? as usize;
        let payload = c.take(payload_len)?.to_vec();
        events.push(StoredEvent {
            seq,
            position,
            id: id.to_string(),
            payload,
        });
    }
    Some((stream?, events))
}

/// A per-event entry at `bytes[0]` with a canonical id and a payload `frame` delimits.
fn event_at(bytes: &[u8], frame: Frame<'_>) -> Option<(String, StoredEvent)> {
    let mut c = Cursor { bytes, at: 1 };
    let position = c.u64()?;
    let id_len = c.u32()? as usize;
    if id_len == 0 || id_len > MAX_EVENT_ID_LEN {
        return None;
    }
    let id = std::str::from_utf8(c.take(id_len)?).ok()?;
    let (stream, seq) = parse_canonical_id(id)?;
    let rest = &bytes[c.at..];
    let len = frame(&rest[..rest.len().min(MAX_LINE)])?;
    Some((
        stream.to_string(),
        StoredEvent {
            seq,
            position,
            id: id.to_string(),
            payload: rest.get(..len)?.to_vec(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::encode_sealed;

    #[test]
    fn records_and_entries_are_found_among_garbage() {
        let payloads: Vec<Vec<u8>> = (1..=3)
            .map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let record = encode_sealed(
            "g",
            payloads
                .iter()
                .enumerate()
                .map(|(i, p)| (i as u64 + 10, "x", p.as_slice())),
        );
        let mut bytes = b"garbage\x02carcSEAL\x01".to_vec();
        bytes.extend_from_slice(&record);
        bytes.extend_from_slice(b"\x00\x01more");
        // A per-event entry of stream h: 0x01, position, id length, id, payload.
        bytes.push(1);
        bytes.extend_from_slice(&7u64.to_be_bytes());
        bytes.extend_from_slice(&3u32.to_be_bytes());
        bytes.extend_from_slice(b"h#1{\"a\":1}\nafter");
        let mut sealed = BTreeMap::new();
        let mut loose = BTreeMap::new();
        let line = |b: &[u8]| b.iter().position(|&c| c == b'\n').map(|i| i + 1);
        scan_bytes(&bytes, &mut sealed, &mut loose, &line);
        assert_eq!(sealed["g"].events.len(), 3);
        assert!(sealed["g"].intact);
        assert_eq!(sealed["g"].events[2].payload, b"line 3\n");
        assert_eq!(loose["h"][&1].payload, b"{\"a\":1}\n");
        // A flipped payload byte: the CRC fails, the record is read and marked damaged.
        let mut damaged = record.clone();
        let last = damaged.len() - 6;
        damaged[last] ^= 1;
        let mut sealed = BTreeMap::new();
        scan_bytes(&damaged, &mut sealed, &mut BTreeMap::new(), &line);
        assert!(!sealed["g"].intact);
        assert_ne!(sealed["g"].events[2].payload, b"line 3\n");
    }
}
