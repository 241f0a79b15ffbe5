//! A batch prepared for one stream before the store's transaction, on whatever thread builds
//! it: the checks that depend on the batch alone (stream id, ids, sizes), whether every id is
//! canonical for its place in a new stream, and, for a batch that seals a new stream, its
//! sealed record's body (deflated). The transaction, which runs on one thread at a time, then
//! skips that work. What it stores is byte for byte what [`crate::Store::append_many`] of the
//! same events stores (`tests/prepared.rs`).

use crate::append::{clone_verdict, validate_batch};
use crate::layout::{is_canonical_id, sealed_body, validate_stream_id, SealedBody};
use crate::{NewEvent, StoreError};

/// The events of one append to one stream, checked, and for a new stream that the append
/// seals, with its sealed record's body encoded ahead ([`PreparedBatch::sealing_new_stream`]).
/// Give it to [`crate::Store::append_many_prepared`].
///
/// Why the body can be encoded ahead: a sealed record stores each event's position as the
/// gap to the one before it (0 for the first), and an append hands out consecutive global
/// positions to its events (`first_position + i`), so for a stream written by one append the
/// gaps are `0, 1, 1, …` wherever in the store it lands; the first position goes in the
/// record's header, which the transaction writes. Ids are stored as `0` when canonical for
/// their place (`<stream>#<seq>`, `seq` from 1), which depends only on the stream.
#[derive(Debug)]
pub struct PreparedBatch {
    stream: String,
    events: Vec<NewEvent>,
    /// The verdict of the stream id's and the batch's own checks.
    checked: Result<(), StoreError>,
    /// Every event's id is `<stream>#<i + 1>`: appended to a new stream, no id needs looking
    /// up or a dedup entry.
    canonical_from_one: bool,
    /// The sealed record's body of the stream made of exactly these events.
    sealed: Option<SealedBody>,
}

impl PreparedBatch {
    /// `events` to append to `stream`, checked now, on the calling thread.
    pub fn new(stream: &str, events: Vec<NewEvent>) -> Self {
        let checked = validate_stream_id(stream).and_then(|()| validate_batch(stream, &events));
        let canonical_from_one = events
            .iter()
            .enumerate()
            .all(|(i, e)| is_canonical_id(&e.id, stream, i as u64 + 1));
        PreparedBatch {
            stream: stream.to_string(),
            events,
            checked,
            canonical_from_one,
            sealed: None,
        }
    }

    /// [`PreparedBatch::new`] for a batch meant to be the whole of `stream`, sealed by the same
    /// append: the sealed record's body is encoded (and deflated) now too. The transaction
    /// uses it only where the append does create the stream with these events and seal it;
    /// any other append of this batch encodes its record there, as usual.
    pub fn sealing_new_stream(stream: &str, events: Vec<NewEvent>) -> Self {
        let mut batch = Self::new(stream, events);
        if batch.checked.is_ok() {
            let body = sealed_body(
                stream,
                batch
                    .events
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (i as u64 + 1, e.id.as_str(), e.payload.as_slice())),
            )
            .1;
            batch.sealed = Some(body);
        }
        batch
    }

    /// The stream the batch is for.
    pub fn stream(&self) -> &str {
        &self.stream
    }

    /// The batch's events.
    pub fn events(&self) -> &[NewEvent] {
        &self.events
    }

    /// The batch's events, giving up what was prepared.
    pub fn into_events(self) -> Vec<NewEvent> {
        self.events
    }

    /// The verdict of the checks made when the batch was prepared.
    pub(crate) fn checked(&self) -> Result<(), StoreError> {
        self.checked.as_ref().map_err(clone_verdict).copied()
    }

    /// Every id is canonical for its place in a stream that starts with this batch.
    pub(crate) fn canonical_from_one(&self) -> bool {
        self.canonical_from_one
    }

    /// The body encoded ahead, if it is that of the stream sealed by an append whose first
    /// event is `first_seq` (only 1: a new stream).
    pub(crate) fn sealed_body_for(&self, first_seq: u64) -> Option<&SealedBody> {
        self.sealed.as_ref().filter(|_| first_seq == 1)
    }
}
