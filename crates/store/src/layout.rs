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
//! | `sealed` | `stream`                             | `0x01 ‖ count u64 ‖ count × (position u64 ‖ id_len u32 ‖ id ‖ payload_len u32 ‖ payload)` |
//!
//! All integers are big-endian. Stream ids never contain `0x00` (they are printable ASCII),
//! so the prefix `stream ‖ 0x00` selects exactly one stream: `"a"` never reads `"ab"`.

use crate::{StoreError, StoredEvent};

/// The layout version written to `meta/format` and expected on open.
pub const FORMAT_VERSION: u8 = 1;
/// Leading byte of every `events`, `dedup` and `sealed` value in this layout version.
pub const VALUE_VERSION: u8 = 1;

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

/// `meta` key of the layout version byte.
pub const META_FORMAT_KEY: &[u8] = b"format";
/// `meta` key of the global position counter (last position handed out, u64 BE).
pub const META_POSITION_KEY: &[u8] = b"position";

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

/// Encodes a `sealed` record from events numbered 1..=n in order.
pub(crate) fn encode_sealed(events: &[StoredEvent]) -> Vec<u8> {
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

/// Decodes a `sealed` record, keeping events with `seq >= from_seq`.
pub(crate) fn decode_sealed(
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
        let s = encode_sealed(&evs);
        assert_eq!(decode_sealed(b"k", &s, 1).unwrap(), evs);
        assert_eq!(decode_sealed(b"k", &s, 2).unwrap(), evs[1..]);
        for cut in 0..s.len() {
            assert!(decode_sealed(b"k", &s[..cut], 1).is_err());
        }
        let mut huge = vec![VALUE_VERSION];
        huge.extend_from_slice(&u64::MAX.to_be_bytes());
        assert!(decode_sealed(b"k", &huge, 1).is_err());
    }
}
