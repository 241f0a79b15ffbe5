//! The on-disk layout: tree names, key construction and value encodings.
//!
//! Public so that tools (and tests that damage a store on purpose) can address entries
//! directly; ordinary callers only need [`Store`](crate::Store). See `docs/store.md`.
//!
//! | tree     | key                                  | value                                      |
//! |----------|--------------------------------------|--------------------------------------------|
//! | `events` | `stream ‖ 0x00 ‖ seq (u64 BE)`       | `0x01 ‖ position u64 ‖ id_len u32 ‖ id ‖ payload` |
//! | `heads`  | `stream`                             | last seq, u64 BE                           |
//! | `meta`   | `format` / `position`                | layout version byte / global position u64 BE |
//! | `dedup`  | client event id (UTF-8 bytes)        | `0x01 ‖ seq u64 ‖ stream`                  |
//! | `sealed` | `stream`                             | v2: see [`encode_sealed`]; v1 (legacy): `0x01 ‖ count u64 ‖ count × (position u64 ‖ id_len u32 ‖ id ‖ payload_len u32 ‖ payload)` |
//! | `summaries` | `stream`                          | `0x01 ‖ version u64 ‖ client bytes`        |
//!
//! An event id is **canonical** at `(stream, seq)` when it is exactly `<stream>#<seq>`: such an
//! id names its own place, so it gets no `dedup` entry (only other ids do). Layout 2 stores a
//! sealed stream only as its record (no per-event entries); layout 1 stores (legacy, still read)
//! kept both and a dedup entry for every id.
//!
//! Fixed-width integers are big-endian. Stream ids never contain `0x00` (they are printable ASCII),
//! so the prefix `stream ‖ 0x00` selects exactly one stream: `"a"` never reads `"ab"`.

use crate::{StoreError, StoredEvent};

/// The layout version written to `meta/format` and expected on open. Layout 3 is layout 2
/// plus the sealed flag in `summaries` values and the `meta/no-canonical-dedup` promise, which
/// a layout-2 program would not keep: it refuses a layout-3 store instead of breaking them.
pub const FORMAT_VERSION: u8 = 3;
/// The layouts of earlier releases, still read: [`crate::Store::open`] upgrades their
/// `meta/format` to [`FORMAT_VERSION`] in place (every value they hold decodes as it is).
pub const LEGACY_FORMAT_VERSIONS: [u8; 2] = [1, 2];
/// Leading byte of every `events` and `dedup` value (unchanged since layout 1), and of a
/// layout-1 `sealed` record.
pub const VALUE_VERSION: u8 = 1;
/// Leading byte of a layout-2 `sealed` record.
pub const SEALED_VERSION: u8 = 2;
/// Bytes that follow [`SEALED_VERSION`] in a sealed record, so that a salvage scan of raw
/// database files can find records without sled.
pub const SEALED_MAGIC: &[u8; 8] = b"carcSEAL";
/// Leading byte of a `summaries` value of layout 2 (no sealed flag), still read.
pub const SUMMARY_VERSION_UNFLAGGED: u8 = 1;
/// Leading byte of a `summaries` value that says whether the stream is sealed.
pub const SUMMARY_VERSION: u8 = 2;

/// Tree holding one entry per event.
pub const EVENTS_TREE: &str = "events";
/// Tree mapping each stream to its last sequence number.
pub const HEADS_TREE: &str = "heads";
/// Tree holding the layout version and the global position counter.
pub const META_TREE: &str = "meta";
/// Tree mapping client event ids to the event that carries them.
pub const DEDUP_TREE: &str = "dedup";
/// Tree holding one compact record per sealed stream.
pub const SEALED_TREE: &str = "sealed";
/// Tree holding one client summary per stream, tagged with the version it describes.
pub const SUMMARIES_TREE: &str = "summaries";

/// `meta` key of the layout version byte.
pub const META_FORMAT_KEY: &[u8] = b"format";
/// `meta` key of the global position counter (last position handed out, u64 BE).
pub const META_POSITION_KEY: &[u8] = b"position";
/// `meta` key whose presence (empty value) promises that no `dedup` entry has an id of the
/// canonical form `<stream>#<seq>` (see [`parse_canonical_id`]). While it holds, an append
/// looks a canonical id up only at the place it names, not in `dedup`: one tree read per event
/// saved. Written when a store is opened with an empty `dedup` tree; removed in the same
/// transaction as the first dedup entry of canonical form. A store upgraded from layout 1
/// (which kept a dedup entry per event) never gets it and keeps the full lookup.
pub const META_NO_CANONICAL_DEDUP_KEY: &[u8] = b"no-canonical-dedup";

/// Longest stream id, in bytes.
pub const MAX_STREAM_ID_LEN: usize = 128;
/// Longest client event id, in bytes.
pub const MAX_EVENT_ID_LEN: usize = 512;
/// Largest event payload, in bytes.
pub const MAX_PAYLOAD_LEN: usize = 16 * 1024 * 1024;

/// Checks a stream id: 1..=128 bytes, each printable ASCII other than space (`0x21..=0x7e`).
pub fn validate_stream_id(stream: &str) -> Result<(), StoreError> {
    let bad = |reason| StoreError::InvalidStreamId {
        id: escape_for_display(stream.as_bytes()),
        reason,
    };
    if stream.is_empty() {
        return Err(bad("it is empty"));
    }
    if stream.len() > MAX_STREAM_ID_LEN {
        return Err(bad("it is longer than 128 bytes"));
    }
    if !stream.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
        return Err(bad(
            "it may only contain printable ASCII without whitespace",
        ));
    }
    Ok(())
}

/// The key prefix shared by all events of `stream`: `stream ‖ 0x00`.
pub fn stream_prefix(stream: &str) -> Vec<u8> {
    let mut key = Vec::with_capacity(stream.len() + 1);
    key.extend_from_slice(stream.as_bytes());
    key.push(0);
    key
}

/// The `events` key of event `seq` of `stream`: `stream ‖ 0x00 ‖ seq (u64 BE)`.
pub fn event_key(stream: &str, seq: u64) -> Vec<u8> {
    let mut key = Vec::with_capacity(stream.len() + 9);
    key.extend_from_slice(stream.as_bytes());
    key.push(0);
    key.extend_from_slice(&seq.to_be_bytes());
    key
}

/// Splits an `events` key into stream id and sequence number; `None` if it is malformed.
pub fn parse_event_key(key: &[u8]) -> Option<(&str, u64)> {
    if key.len() < 10 {
        return None;
    }
    let (stream, rest) = key.split_at(key.len() - 9);
    let (&sep, seq) = rest.split_first()?;
    if sep != 0 {
        return None;
    }
    let stream = std::str::from_utf8(stream).ok()?;
    validate_stream_id(stream).ok()?;
    Some((stream, u64::from_be_bytes(seq.try_into().ok()?)))
}

/// Escapes arbitrary bytes for error messages (printable ASCII kept, the rest as `\xNN`),
/// shortened to about 200 characters.
pub fn escape_for_display(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        if out.len() > 200 {
            out.push('…');
            break;
        }
        out.extend(std::ascii::escape_default(b).map(char::from));
    }
    out
}

/// Display form of a key in a tree: `tree/escaped-key`.
pub(crate) fn key_label(tree: &str, key: &[u8]) -> String {
    format!("{tree}/{}", escape_for_display(key))
}

pub(crate) fn corrupt(tree: &str, key: &[u8], what: impl Into<String>) -> StoreError {
    StoreError::Corrupt {
        key: key_label(tree, key),
        what: what.into(),
    }
}

/// Encodes a u64 big-endian (used by `heads` and `meta/position`).
pub(crate) fn encode_u64(v: u64) -> [u8; 8] {
    v.to_be_bytes()
}

/// Decodes an 8-byte big-endian u64.
pub(crate) fn decode_u64(tree: &str, key: &[u8], value: &[u8]) -> Result<u64, StoreError> {
    let arr: [u8; 8] = value.try_into().map_err(|_| {
        corrupt(
            tree,
            key,
            format!("expected 8 bytes, found {}", value.len()),
        )
    })?;
    Ok(u64::from_be_bytes(arr))
}

/// A small cursor over a byte slice that reports truncation as an error, never a panic.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.bytes.len() < n {
            return None;
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Some(head)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_be_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_be_bytes(self.take(8)?.try_into().ok()?))
    }
    fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.bytes)
    }
}

fn len_u32(len: usize) -> [u8; 4] {
    // Lengths are bounded by MAX_EVENT_ID_LEN / MAX_PAYLOAD_LEN, far below u32::MAX.
    u32::try_from(len).unwrap_or(u32::MAX).to_be_bytes()
}

/// Encodes an `events` value.
pub(crate) fn encode_event(position: u64, id: &str, payload: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(1 + 8 + 4 + id.len() + payload.len());
    v.push(VALUE_VERSION);
    v.extend_from_slice(&position.to_be_bytes());
    v.extend_from_slice(&len_u32(id.len()));
    v.extend_from_slice(id.as_bytes());
    v.extend_from_slice(payload);
    v
}

/// Decodes an `events` value into a [`StoredEvent`] with sequence number `seq`.
pub(crate) fn decode_event(key: &[u8], seq: u64, value: &[u8]) -> Result<StoredEvent, StoreError> {
    let err = |what: &str| corrupt(EVENTS_TREE, key, what);
    let mut r = Reader { bytes: value };
    match r.u8() {
        Some(VALUE_VERSION) => {}
        Some(other) => return Err(err(&format!("unknown value version {other}"))),
        None => return Err(err("empty value")),
    }
    let position = r.u64().ok_or_else(|| err("truncated position"))?;
    let id_len = r.u32().ok_or_else(|| err("truncated id length"))? as usize;
    let id = r.take(id_len).ok_or_else(|| err("truncated id"))?;
    let id = std::str::from_utf8(id).map_err(|_| err("id is not UTF-8"))?;
    let payload = r.rest().to_vec();
    Ok(StoredEvent {
        seq,
        position,
        id: id.to_string(),
        payload,
    })
}

/// Encodes a `dedup` value.
pub(crate) fn encode_dedup(stream: &str, seq: u64) -> Vec<u8> {
    let mut v = Vec::with_capacity(1 + 8 + stream.len());
    v.push(VALUE_VERSION);
    v.extend_from_slice(&seq.to_be_bytes());
    v.extend_from_slice(stream.as_bytes());
    v
}

/// Decodes a `dedup` value into (stream, seq).
pub(crate) fn decode_dedup(key: &[u8], value: &[u8]) -> Result<(String, u64), StoreError> {
    let err = |what: &str| corrupt(DEDUP_TREE, key, what);
    let mut r = Reader { bytes: value };
    match r.u8() {
        Some(VALUE_VERSION) => {}
        Some(other) => return Err(err(&format!("unknown value version {other}"))),
        None => return Err(err("empty value")),
    }
    let seq = r.u64().ok_or_else(|| err("truncated seq"))?;
    let stream = std::str::from_utf8(r.rest()).map_err(|_| err("stream is not UTF-8"))?;
    validate_stream_id(stream).map_err(|e| err(&e.to_string()))?;
    Ok((stream.to_string(), seq))
}

/// Whether `id` is the canonical id `<stream>#<seq>` (compared without allocating).
pub fn is_canonical_id(id: &str, stream: &str, seq: u64) -> bool {
    let Some(rest) = id.strip_prefix(stream) else {
        return false;
    };
    let Some(digits) = rest.strip_prefix('#') else {
        return false;
    };
    parse_seq(digits) == Some(seq)
}

/// The canonical id of event `seq` of `stream`: `<stream>#<seq>`.
pub fn canonical_id(stream: &str, seq: u64) -> String {
    format!("{stream}#{seq}")
}

/// The place a canonical id names, if `id` has the canonical form (`<valid stream>#<seq>`
/// with seq written without leading zeros).
pub fn parse_canonical_id(id: &str) -> Option<(&str, u64)> {
    let (stream, digits) = id.rsplit_once('#')?;
    validate_stream_id(stream).ok()?;
    Some((stream, parse_seq(digits)?))
}

fn parse_seq(digits: &str) -> Option<u64> {
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

impl Reader<'_> {
    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }
}

/// Encodes a layout-2 `sealed` record of `stream` from its events numbered 1..=n in order:
///
/// `0x02 ‖ "carcSEAL" ‖ stream_len u8 ‖ stream ‖ count u32 ‖ first_position u64 ‖ encoding u8 ‖
/// body_len u32 ‖ raw_len u32 ‖ body ‖ crc32 u32`. The raw body is
/// `count × (position_delta varint ‖ id_len varint ‖ id ‖ payload_len varint ‖ payload)` where
/// `position_delta` is the gap to the previous event's position (0 for the first), and
/// `id_len` 0 stands for the canonical id `<stream>#<seq>`. Encoding 1 stores the body
/// deflated ([`SEALED_DEFLATE`]; JSON lines shrink several times), 0 stores it as it is (when
/// deflating does not pay, or the body is over [`MAX_DEFLATED_BODY`]). The CRC-32 covers every
/// byte before it. Positions must increase (they do: they are handed out in commit order).
pub fn encode_sealed<'a>(
    stream: &str,
    events: impl ExactSizeIterator<Item = (u64, &'a str, &'a [u8])>,
) -> Vec<u8> {
    let (first_position, body) = sealed_body(stream, events);
    sealed_record(stream, first_position, &body)
}

/// The body of a sealed record, encoded and deflated (when that pays), with its event count:
/// everything of the record but the header's first position and the checksum.
#[derive(Debug, Clone)]
pub(crate) struct SealedBody {
    count: u32,
    encoding: u8,
    raw_len: usize,
    bytes: Vec<u8>,
}

/// The first event's position and the body of [`encode_sealed`]'s record of `events`. The
/// body depends on the positions only through their gaps (see [`crate::PreparedBatch`]).
pub(crate) fn sealed_body<'a>(
    stream: &str,
    events: impl ExactSizeIterator<Item = (u64, &'a str, &'a [u8])>,
) -> (u64, SealedBody) {
    let count = u32::try_from(events.len()).unwrap_or(u32::MAX);
    let mut first_position = 0;
    let mut body = Vec::with_capacity(64);
    let mut prev = None;
    for (i, (position, id, payload)) in events.enumerate() {
        match prev {
            None => {
                first_position = position;
                push_varint(&mut body, 0);
            }
            Some(p) => push_varint(&mut body, position.saturating_sub(p)),
        }
        prev = Some(position);
        if is_canonical_id(id, stream, i as u64 + 1) {
            push_varint(&mut body, 0);
        } else {
            push_varint(&mut body, id.len() as u64);
            body.extend_from_slice(id.as_bytes());
        }
        push_varint(&mut body, payload.len() as u64);
        body.extend_from_slice(payload);
    }
    let raw_len = body.len();
    let (encoding, bytes) = if raw_len <= MAX_DEFLATED_BODY {
        let deflated = miniz_oxide::deflate::compress_to_vec(&body, DEFLATE_LEVEL);
        if deflated.len() < raw_len {
            (SEALED_DEFLATE, deflated)
        } else {
            (SEALED_RAW, body)
        }
    } else {
        (SEALED_RAW, body)
    };
    let body = SealedBody {
        count,
        encoding,
        raw_len,
        bytes,
    };
    (first_position, body)
}

/// The sealed record of `stream` whose first event is at `first_position`: the header, `body`
/// and the checksum.
pub(crate) fn sealed_record(stream: &str, first_position: u64, body: &SealedBody) -> Vec<u8> {
    let mut v = Vec::with_capacity(body.bytes.len() + stream.len() + 40);
    v.push(SEALED_VERSION);
    v.extend_from_slice(SEALED_MAGIC);
    // Stream ids are at most 128 bytes (validated), so the length fits a byte.
    v.push(stream.len().min(255) as u8);
    v.extend_from_slice(stream.as_bytes());
    v.extend_from_slice(&body.count.to_be_bytes());
    v.extend_from_slice(&first_position.to_be_bytes());
    v.push(body.encoding);
    v.extend_from_slice(&len_u32(body.bytes.len()));
    v.extend_from_slice(&len_u32(body.raw_len));
    v.extend_from_slice(&body.bytes);
    let crc = crc32fast::hash(&v);
    v.extend_from_slice(&crc.to_be_bytes());
    v
}

/// Sealed-record body encoding: stored as it is.
pub const SEALED_RAW: u8 = 0;
/// Sealed-record body encoding: deflate (RFC 1951).
pub const SEALED_DEFLATE: u8 = 1;
/// Largest raw body that is deflated (and so the most a deflated body may inflate to: a
/// record claiming more is corrupt, and never drives a larger allocation).
pub const MAX_DEFLATED_BODY: usize = 64 * 1024 * 1024;
/// miniz level: the fastest; JSON lines of a game still shrink about fivefold.
const DEFLATE_LEVEL: u8 = 1;

/// Encodes a layout-1 `sealed` record (legacy; kept so tests can build old stores).
pub fn encode_sealed_v1(events: &[StoredEvent]) -> Vec<u8> {
    let size: usize = events
        .iter()
        .map(|e| 16 + e.id.len() + e.payload.len())
        .sum();
    let mut v = Vec::with_capacity(9 + size);
    v.push(VALUE_VERSION);
    v.extend_from_slice(&(events.len() as u64).to_be_bytes());
    for e in events {
        v.extend_from_slice(&e.position.to_be_bytes());
        v.extend_from_slice(&len_u32(e.id.len()));
        v.extend_from_slice(e.id.as_bytes());
        v.extend_from_slice(&len_u32(e.payload.len()));
        v.extend_from_slice(&e.payload);
    }
    v
}

/// Decodes a `sealed` record (layout 1 or 2), keeping events with `seq >= from_seq`. `key`
/// is the stream id the record is stored under; a layout-2 record naming another stream, or
/// failing its CRC, is corrupt.
pub fn decode_sealed(
    key: &[u8],
    value: &[u8],
    from_seq: u64,
) -> Result<Vec<StoredEvent>, StoreError> {
    match value.first() {
        Some(&SEALED_VERSION) => decode_sealed_v2(key, value, from_seq).map(|(_, events)| events),
        _ => decode_sealed_v1(key, value, from_seq),
    }
}

/// Decodes a layout-2 sealed record found anywhere (the salvage scan): the stream it names and
/// its events. `key` is only used in error messages.
pub fn decode_sealed_v2(
    key: &[u8],
    value: &[u8],
    from_seq: u64,
) -> Result<(String, Vec<StoredEvent>), StoreError> {
    decode_sealed_v2_checked(key, value, from_seq, true)
}

/// [`decode_sealed_v2`], with the CRC checked or not (salvage reads a record that fails it,
/// and says so).
pub(crate) fn decode_sealed_v2_checked(
    key: &[u8],
    value: &[u8],
    from_seq: u64,
    check_crc: bool,
) -> Result<(String, Vec<StoredEvent>), StoreError> {
    let err = |what: String| corrupt(SEALED_TREE, key, what);
    if value.len() < 4 {
        return Err(err("truncated record".into()));
    }
    let (body, crc) = value.split_at(value.len() - 4);
    let mut r = Reader { bytes: body };
    if r.u8() != Some(SEALED_VERSION) {
        return Err(err("not a layout-2 sealed record".into()));
    }
    if r.take(SEALED_MAGIC.len()) != Some(&SEALED_MAGIC[..]) {
        return Err(err("bad magic".into()));
    }
    if check_crc && crc32fast::hash(body).to_be_bytes() != crc {
        return Err(err("checksum mismatch".into()));
    }
    let len = r
        .u8()
        .ok_or_else(|| err("truncated stream length".into()))?;
    let stream = r
        .take(usize::from(len))
        .ok_or_else(|| err("truncated stream".into()))?;
    let stream = std::str::from_utf8(stream).map_err(|_| err("stream is not UTF-8".into()))?;
    validate_stream_id(stream).map_err(|e| err(e.to_string()))?;
    if !key.is_empty() && key != stream.as_bytes() {
        return Err(err(format!("record names stream {stream:?}")));
    }
    let count = r.u32().ok_or_else(|| err("truncated count".into()))?;
    let mut position = r.u64().ok_or_else(|| err("truncated position".into()))?;
    let encoding = r.u8().ok_or_else(|| err("truncated encoding".into()))?;
    let body_len = r.u32().ok_or_else(|| err("truncated body length".into()))? as usize;
    let raw_len = r.u32().ok_or_else(|| err("truncated raw length".into()))? as usize;
    if r.bytes.len() != body_len {
        return Err(err(format!(
            "body of {} bytes where {body_len} were recorded",
            r.bytes.len()
        )));
    }
    let inflated;
    let body: &[u8] = match encoding {
        SEALED_RAW if raw_len == body_len => r.rest(),
        SEALED_DEFLATE if raw_len <= MAX_DEFLATED_BODY => {
            inflated = miniz_oxide::inflate::decompress_to_vec_with_limit(r.rest(), raw_len)
                .map_err(|e| err(format!("body does not inflate: {e}")))?;
            if inflated.len() != raw_len {
                return Err(err(format!(
                    "body inflates to {} bytes, {raw_len} recorded",
                    inflated.len()
                )));
            }
            &inflated
        }
        other => {
            return Err(err(format!(
                "unknown body encoding {other} or bad raw length {raw_len}"
            )))
        }
    };
    let mut r = Reader { bytes: body };
    let keep = u64::from(count).saturating_sub(from_seq.saturating_sub(1));
    let mut out = Vec::with_capacity(keep as usize);
    for seq in 1..=u64::from(count) {
        let trunc = |what: &str| err(format!("event {seq}: truncated {what}"));
        let delta = r.varint().ok_or_else(|| trunc("position"))?;
        if seq > 1 && delta == 0 {
            return Err(err(format!("event {seq}: position does not increase")));
        }
        position = position
            .checked_add(delta)
            .ok_or_else(|| err(format!("event {seq}: position overflows")))?;
        let id_len = r.varint().ok_or_else(|| trunc("id length"))?;
        let id = r
            .take(usize::try_from(id_len).unwrap_or(usize::MAX))
            .ok_or_else(|| trunc("id"))?;
        let payload_len = r.varint().ok_or_else(|| trunc("payload length"))?;
        let payload = r
            .take(usize::try_from(payload_len).unwrap_or(usize::MAX))
            .ok_or_else(|| trunc("payload"))?;
        if seq >= from_seq {
            let id = if id.is_empty() {
                canonical_id(stream, seq)
            } else {
                std::str::from_utf8(id)
                    .map_err(|_| err(format!("event {seq}: id is not UTF-8")))?
                    .to_string()
            };
            out.push(StoredEvent {
                seq,
                position,
                id,
                payload: payload.to_vec(),
            });
        }
    }
    if !r.bytes.is_empty() {
        return Err(err(format!("{} trailing bytes", r.bytes.len())));
    }
    Ok((stream.to_string(), out))
}

fn decode_sealed_v1(
    key: &[u8],
    value: &[u8],
    from_seq: u64,
) -> Result<Vec<StoredEvent>, StoreError> {
    let err = |what: String| corrupt(SEALED_TREE, key, what);
    let mut r = Reader { bytes: value };
    match r.u8() {
        Some(VALUE_VERSION) => {}
        Some(other) => return Err(err(format!("unknown value version {other}"))),
        None => return Err(err("empty value".into())),
    }
    let count = r.u64().ok_or_else(|| err("truncated count".into()))?;
    // Each event takes at least 16 bytes: a larger count than that is corrupt (and must not
    // drive a huge allocation).
    if count > (r.bytes.len() / 16) as u64 {
        return Err(err(format!(
            "count {count} does not fit in {} bytes",
            r.bytes.len()
        )));
    }
    let mut out = Vec::with_capacity(count.saturating_sub(from_seq.saturating_sub(1)) as usize);
    for seq in 1..=count {
        let trunc = |what: &str| err(format!("event {seq}: truncated {what}"));
        let position = r.u64().ok_or_else(|| trunc("position"))?;
        let id_len = r.u32().ok_or_else(|| trunc("id length"))? as usize;
        let id = r.take(id_len).ok_or_else(|| trunc("id"))?;
        let payload_len = r.u32().ok_or_else(|| trunc("payload length"))? as usize;
        let payload = r.take(payload_len).ok_or_else(|| trunc("payload"))?;
        if seq >= from_seq {
            let id = std::str::from_utf8(id)
                .map_err(|_| err(format!("event {seq}: id is not UTF-8")))?;
            out.push(StoredEvent {
                seq,
                position,
                id: id.to_string(),
                payload: payload.to_vec(),
            });
        }
    }
    if !r.bytes.is_empty() {
        return Err(err(format!("{} trailing bytes", r.bytes.len())));
    }
    Ok(out)
}

/// Encodes a `summaries` value: `0x02 ‖ version:u64 ‖ sealed:u8 ‖ client bytes`, the stream
/// version it describes, whether the stream is sealed (so that a listing need not read sealed
/// records), and the client's bytes.
pub(crate) fn encode_summary(version: u64, sealed: bool, summary: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(10 + summary.len());
    v.push(SUMMARY_VERSION);
    v.extend_from_slice(&version.to_be_bytes());
    v.push(u8::from(sealed));
    v.extend_from_slice(summary);
    v
}

/// A decoded `summaries` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SummaryValue {
    /// The stream version the summary describes.
    pub version: u64,
    /// Whether the stream was sealed; `None` in a layout-2 value, which does not say.
    pub sealed: Option<bool>,
    /// The client's bytes.
    pub bytes: Vec<u8>,
}

/// Decodes a `summaries` value (layout 2 or 3).
pub(crate) fn decode_summary(key: &[u8], value: &[u8]) -> Result<SummaryValue, StoreError> {
    let err = |what: &str| corrupt(SUMMARIES_TREE, key, what);
    let mut r = Reader { bytes: value };
    let flagged = match r.u8() {
        Some(SUMMARY_VERSION) => true,
        Some(SUMMARY_VERSION_UNFLAGGED) => false,
        Some(other) => return Err(err(&format!("unknown value version {other}"))),
        None => return Err(err("empty value")),
    };
    let version = r.u64().ok_or_else(|| err("truncated version"))?;
    let sealed = if flagged {
        match r.u8() {
            Some(0) => Some(false),
            Some(1) => Some(true),
            Some(_) => return Err(err("sealed flag is neither 0 nor 1")),
            None => return Err(err("truncated sealed flag")),
        }
    } else {
        None
    };
    Ok(SummaryValue {
        version,
        sealed,
        bytes: r.rest().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_key_round_trip_and_prefix_exactness() {
        let k = event_key("a", 7);
        assert_eq!(parse_event_key(&k), Some(("a", 7)));
        assert!(k.starts_with(&stream_prefix("a")));
        assert!(!event_key("ab", 1).starts_with(&stream_prefix("a")));
        assert_eq!(parse_event_key(b"short"), None);
        assert_eq!(parse_event_key(b"a\x01\0\0\0\0\0\0\0\x01"), None);
    }

    #[test]
    fn canonical_ids_name_their_place() {
        assert!(is_canonical_id("g-1#12", "g-1", 12));
        assert!(!is_canonical_id("g-1#012", "g-1", 12));
        assert!(!is_canonical_id("g-1#12", "g-1", 13));
        assert!(!is_canonical_id("g-12#1", "g-1", 21));
        assert_eq!(parse_canonical_id("a#b#7"), Some(("a#b", 7)));
        assert_eq!(parse_canonical_id("a#0"), None);
        assert_eq!(parse_canonical_id("a#"), None);
        assert_eq!(parse_canonical_id("a b#1"), None);
        assert_eq!(parse_canonical_id("x-1"), None);
    }

    #[test]
    fn values_round_trip_and_garbage_is_an_error() {
        let v = encode_event(42, "id-1", b"payload");
        let e = decode_event(b"k", 3, &v).unwrap();
        assert_eq!(
            (e.seq, e.position, e.id.as_str(), &e.payload[..]),
            (3, 42, "id-1", &b"payload"[..])
        );
        for cut in 0..13 {
            assert!(decode_event(b"k", 1, &v[..cut]).is_err());
        }
        assert!(decode_event(b"k", 1, &[9, 0, 0]).is_err());

        let d = encode_dedup("game-1", 5);
        assert_eq!(decode_dedup(b"k", &d).unwrap(), ("game-1".to_string(), 5));
        assert!(decode_dedup(b"k", &d[..4]).is_err());

        let evs = vec![e.clone(), StoredEvent { seq: 2, ..e }];
        let evs: Vec<_> = evs
            .into_iter()
            .enumerate()
            .map(|(i, mut e)| {
                e.seq = i as u64 + 1;
                e
            })
            .collect();
        let s = encode_sealed_v1(&evs);
        assert_eq!(decode_sealed(b"k", &s, 1).unwrap(), evs);
        assert_eq!(decode_sealed(b"k", &s, 2).unwrap(), evs[1..]);
        for cut in 0..s.len() {
            assert!(decode_sealed(b"k", &s[..cut], 1).is_err());
        }
        // Layout 2: the second id is canonical (`g#2`) and is not written out.
        let mut evs = evs;
        evs[1].id = "g#2".into();
        evs[1].position = 50;
        let s = encode_sealed(
            "g",
            evs.iter()
                .map(|e| (e.position, e.id.as_str(), e.payload.as_slice())),
        );
        assert!(!s.windows(3).any(|w| w == b"g#2"));
        assert_eq!(decode_sealed(b"g", &s, 1).unwrap(), evs);
        assert_eq!(decode_sealed(b"g", &s, 2).unwrap(), evs[1..]);
        assert!(
            decode_sealed(b"other", &s, 1).is_err(),
            "names another stream"
        );
        for cut in 0..s.len() {
            assert!(decode_sealed(b"g", &s[..cut], 1).is_err());
        }
        for i in 0..s.len() {
            let mut flipped = s.clone();
            flipped[i] ^= 0x10;
            assert!(decode_sealed(b"g", &flipped, 1).is_err(), "flip at {i}");
        }
        let mut huge = vec![VALUE_VERSION];
        huge.extend_from_slice(&u64::MAX.to_be_bytes());
        assert!(decode_sealed(b"k", &huge, 1).is_err());
    }
}
