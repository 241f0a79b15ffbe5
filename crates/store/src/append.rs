//! One append inside a sled transaction: the batch checked, the caller's expected version,
//! exact retries recognised by event id, the events, head, position, dedup entries, and the
//! seal and summary when asked, all or nothing. `Store` (in `crate::store`) opens the
//! transaction; everything written inside it is here.

use std::collections::BTreeSet;

use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};

use crate::layout::{
    self, corrupt, decode_dedup, decode_event, decode_sealed, decode_u64, encode_dedup,
    encode_event, encode_sealed, encode_summary, encode_u64, event_key, is_canonical_id,
    parse_canonical_id, sealed_record, SealedBody, DEDUP_TREE, EVENTS_TREE, HEADS_TREE,
    META_NO_CANONICAL_DEDUP_KEY, META_POSITION_KEY, META_TREE,
};
use crate::{Appended, ExpectedVersion, NewEvent, PreparedBatch, StoreError, StoredEvent};

/// How [`Store::append_with`] stores a batch beyond the plain append.
#[derive(Debug, Clone, Copy, Default)]
pub struct AppendOptions<'a> {
    /// Seal the stream in the same transaction: the whole stream (earlier events and this
    /// batch) becomes one compact record and takes no further appends. An imported finished
    /// game is stored this way, so it is never seen appended but unsealed.
    pub seal: bool,
    /// The client's summary of the stream as it is after this batch (for example a game's
    /// players and scores), written in the same transaction and tagged with the new version;
    /// [`Store::summary`] returns it while the version is unchanged.
    pub summary: Option<&'a [u8]>,
    /// Skip the flush after the commit. The batch is committed (atomic, visible) but not yet
    /// acknowledged as durable: the caller must call [`Store::flush`] before it reports the
    /// batch as stored. This is how an import commits many games with one fsync.
    pub defer_flush: bool,
}

pub(crate) fn abort<T>(e: StoreError) -> Result<T, ConflictableTransactionError<StoreError>> {
    Err(ConflictableTransactionError::Abort(e))
}

pub(crate) fn tx_result<T>(r: Result<T, TransactionError<StoreError>>) -> Result<T, StoreError> {
    r.map_err(|e| match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => StoreError::Sled(e),
    })
}

/// A copy of a validation verdict (the transaction closure may run more than once).
pub(crate) fn clone_verdict(e: &StoreError) -> StoreError {
    match e {
        StoreError::InvalidStreamId { id, reason } => StoreError::InvalidStreamId {
            id: id.clone(),
            reason,
        },
        StoreError::InvalidBatch { stream, reason } => StoreError::InvalidBatch {
            stream: stream.clone(),
            reason: reason.clone(),
        },
        other => StoreError::Corrupt {
            key: String::new(),
            what: other.to_string(),
        },
    }
}

pub(crate) fn validate_batch(stream: &str, events: &[NewEvent]) -> Result<(), StoreError> {
    let bad = |reason: String| StoreError::InvalidBatch {
        stream: stream.to_string(),
        reason,
    };
    if events.is_empty() {
        return Err(bad("the batch is empty".into()));
    }
    let mut seen = BTreeSet::new();
    for (i, ev) in events.iter().enumerate() {
        if ev.id.is_empty() {
            return Err(bad(format!("event {i} of the batch has an empty id")));
        }
        if ev.id.len() > layout::MAX_EVENT_ID_LEN {
            return Err(bad(format!(
                "event {i} of the batch has an id longer than {} bytes",
                layout::MAX_EVENT_ID_LEN
            )));
        }
        if ev.payload.len() > layout::MAX_PAYLOAD_LEN {
            return Err(bad(format!(
                "event {i} of the batch has a payload of {} bytes (at most {})",
                ev.payload.len(),
                layout::MAX_PAYLOAD_LEN
            )));
        }
        if !seen.insert(ev.id.as_str()) {
            return Err(bad(format!(
                "event {i} of the batch repeats the id {:?}",
                ev.id
            )));
        }
    }
    Ok(())
}

/// The six trees of an append transaction.
type TxTrees = (
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
);

/// One append inside a transaction (see [`Store::append`]). Store-level verdicts abort
/// before anything is written. `prepared`, where the caller prepared the batch
/// ([`crate::PreparedBatch`]), is the batch that `events` are, for this `stream`: what was
/// worked out ahead (whether every id is canonical for its place in a new stream, the sealed
/// record's body of a new stream) replaces the same work here.
pub(crate) fn append_in_tx(
    trees: &TxTrees,
    stream: &str,
    expected: ExpectedVersion,
    events: &[NewEvent],
    options: AppendOptions<'_>,
    prepared: Option<&PreparedBatch>,
) -> TxResult<Appended> {
    debug_assert!(prepared.is_none_or(|b| b.stream() == stream && std::ptr::eq(b.events(), events)));
    let canonical_from_one = prepared.is_some_and(PreparedBatch::canonical_from_one);
    let (tx_events, tx_heads, tx_meta, tx_dedup, tx_sealed, tx_summaries) = trees;
    let stream_key = stream.as_bytes();
    let tx = TxView {
        events: tx_events,
        heads: tx_heads,
        sealed: tx_sealed,
    };
    let head = tx.head(stream)?;

    // 1. Idempotency: where is each id stored, if anywhere? An id with
    //    a dedup entry is found there; a canonical id `<s>#<n>` can only
    //    be stored at (s, n), so that place is looked at (and nothing
    //    needs looking up for this stream's next seqs).
    //    While `meta` promises that no dedup entry has a canonical id, a canonical id is
    //    not looked up in `dedup` at all.
    //    A new stream whose ids are all canonical for their places has none stored
    //    anywhere under that promise: nothing to look up (the loop would find the same).
    let no_canonical_dedup = tx_meta.get(META_NO_CANONICAL_DEDUP_KEY)?.is_some();
    let mut found = Vec::with_capacity(events.len());
    if no_canonical_dedup && canonical_from_one && head.is_none() {
        found.resize(events.len(), None);
    }
    for ev in &events[found.len()..] {
        let canonical = parse_canonical_id(&ev.id);
        let in_dedup = if no_canonical_dedup && canonical.is_some() {
            None
        } else {
            tx_dedup.get(ev.id.as_bytes())?
        };
        let hit = match in_dedup {
            Some(v) => match decode_dedup(ev.id.as_bytes(), &v) {
                Ok(hit) => Some(hit),
                Err(e) => return abort(e),
            },
            None => match canonical {
                Some((s, n)) if s == stream && n > head.unwrap_or(0) => None,
                Some((s, n)) => tx
                    .event(s, n)?
                    .filter(|stored| stored.id == ev.id)
                    .map(|_| (s.to_string(), n)),
                None => None,
            },
        };
        found.push(hit);
    }
    let present = found.iter().filter(|f| f.is_some()).count();
    if present == events.len() {
        return check_retry(stream, events, &found, &tx);
    }
    // Some ids present but not all: not a retry.
    if let Some((i, (s, seq))) = found
        .iter()
        .enumerate()
        .find_map(|(i, f)| f.as_ref().map(|f| (i, f)))
    {
        let why = if s != stream {
            "the id belongs to another stream".to_string()
        } else {
            format!(
                "only {present} of the batch's {} ids are already stored",
                events.len()
            )
        };
        return abort(StoreError::IdReuse {
            id: events[i].id.clone(),
            existing_stream: s.clone(),
            existing_seq: *seq,
            why,
        });
    }

    // 2. Sealed streams take nothing.
    if tx_sealed.get(stream_key)?.is_some() {
        return abort(StoreError::Sealed {
            stream: stream.to_string(),
        });
    }

    // 3. Expected version.
    if !expected.matches(head) {
        return abort(StoreError::Conflict {
            stream: stream.to_string(),
            expected,
            actual: head,
        });
    }
    let position = match tx_meta.get(META_POSITION_KEY)? {
        Some(v) => match decode_u64(META_TREE, META_POSITION_KEY, &v) {
            Ok(p) => p,
            Err(e) => return abort(e),
        },
        None => 0,
    };
    let n = events.len() as u64;
    let last = head.unwrap_or(0).checked_add(n);
    let last_position = position.checked_add(n);
    let (Some(last_seq), Some(last_position)) = (last, last_position) else {
        return abort(corrupt(META_TREE, META_POSITION_KEY, "counter overflow"));
    };
    let first_seq = last_seq - n + 1;
    let first_position = last_position - n + 1;

    // 4. Write everything: per-event entries, or (sealing) one record of the whole
    //    stream with the earlier per-event entries removed. Every verdict above and the
    //    reads of the earlier events come before the first write, so an item of
    //    `append_many` that is refused leaves nothing in the transaction.
    let mut earlier = Vec::new();
    if options.seal {
        for seq in 1..first_seq {
            let key = event_key(stream, seq);
            let Some(v) = tx_events.get(key.as_slice())? else {
                return abort(corrupt(EVENTS_TREE, &key, "missing event below the head"));
            };
            match decode_event(&key, seq, &v) {
                Ok(e) => earlier.push(e),
                Err(e) => return abort(e),
            }
        }
    }
    // Ids canonical for their places need no dedup entry (checked ahead for a new stream).
    let all_canonical = canonical_from_one && first_seq == 1;
    for (i, ev) in events.iter().enumerate().filter(|_| !all_canonical) {
        let seq = first_seq + i as u64;
        if !is_canonical_id(&ev.id, stream, seq) {
            tx_dedup.insert(ev.id.as_bytes(), encode_dedup(stream, seq))?;
            // A canonical id stored away from the place it names breaks the promise.
            if no_canonical_dedup && parse_canonical_id(&ev.id).is_some() {
                tx_meta.remove(META_NO_CANONICAL_DEDUP_KEY)?;
            }
        }
    }
    let ahead: Option<&SealedBody> = prepared.and_then(|batch| batch.sealed_body_for(first_seq));
    if let (true, Some(body)) = (options.seal, ahead) {
        // The stream is new (`first_seq` 1: no earlier events), so its record's positions
        // are `first_position` and the gaps of one append, as the body was encoded.
        tx_sealed.insert(stream_key, sealed_record(stream, first_position, body))?;
    } else if options.seal {
        for seq in 1..first_seq {
            tx_events.remove(event_key(stream, seq))?;
        }
        let all = earlier
            .iter()
            .map(|e| (e.position, e.id.as_str(), e.payload.as_slice()))
            .chain(events.iter().enumerate().map(|(i, ev)| {
                (
                    first_position + i as u64,
                    ev.id.as_str(),
                    ev.payload.as_slice(),
                )
            }))
            .collect::<Vec<_>>();
        tx_sealed.insert(stream_key, encode_sealed(stream, all.into_iter()))?;
    } else {
        for (i, ev) in events.iter().enumerate() {
            let seq = first_seq + i as u64;
            let pos = first_position + i as u64;
            tx_events.insert(
                event_key(stream, seq),
                encode_event(pos, &ev.id, &ev.payload),
            )?;
        }
    }
    if let Some(summary) = options.summary {
        tx_summaries.insert(stream_key, encode_summary(last_seq, options.seal, summary))?;
    }
    tx_heads.insert(stream_key, &encode_u64(last_seq)[..])?;
    tx_meta.insert(META_POSITION_KEY, &encode_u64(last_position)[..])?;
    Ok(Appended {
        first_seq,
        last_seq,
        first_position,
        last_position,
        deduplicated: false,
    })
}

/// All ids of the batch are stored: is it an exact retry (same stream, same consecutive
/// events, same payloads)? Store-level verdicts abort the transaction.
fn check_retry(
    stream: &str,
    events: &[NewEvent],
    found: &[Option<(String, u64)>],
    tx: &TxView<'_>,
) -> Result<Appended, ConflictableTransactionError<StoreError>> {
    let mut first_seq = 0;
    let mut positions = (0, 0);
    for (i, (ev, hit)) in events.iter().zip(found).enumerate() {
        let Some((s, seq)) = hit else {
            continue;
        };
        let reuse = |why: &str| StoreError::IdReuse {
            id: ev.id.clone(),
            existing_stream: s.clone(),
            existing_seq: *seq,
            why: why.to_string(),
        };
        if s != stream {
            return abort(reuse("the id belongs to another stream"));
        }
        if i == 0 {
            first_seq = *seq;
        }
        if Some(*seq) != first_seq.checked_add(i as u64) {
            return abort(reuse("the stored events are not this batch in this order"));
        }
        let Some(stored) = tx.event(stream, *seq)? else {
            return abort(corrupt(
                DEDUP_TREE,
                ev.id.as_bytes(),
                format!("points to missing event {stream} #{seq}"),
            ));
        };
        if stored.id != ev.id {
            return abort(corrupt(
                DEDUP_TREE,
                ev.id.as_bytes(),
                format!("points to {stream} #{seq}, which has id {:?}", stored.id),
            ));
        }
        if stored.payload != ev.payload {
            return abort(reuse("the stored payload differs"));
        }
        if i == 0 {
            positions.0 = stored.position;
        }
        positions.1 = stored.position;
    }
    Ok(Appended {
        first_seq,
        last_seq: first_seq.saturating_add(events.len() as u64 - 1),
        first_position: positions.0,
        last_position: positions.1,
        deduplicated: true,
    })
}

/// Point reads inside an append transaction that find an event wherever it is kept (a
/// per-event entry, or a sealed record: decoded once per transaction and stream).
struct TxView<'a> {
    events: &'a TransactionalTree,
    heads: &'a TransactionalTree,
    sealed: &'a TransactionalTree,
}

type TxResult<T> = Result<T, ConflictableTransactionError<StoreError>>;

thread_local! {
    /// The last sealed record decoded by [`TxView::event`] (stream, record bytes, events), so
    /// that checking a retry of a whole sealed stream decodes its record once.
    static SEALED_CACHE: std::cell::RefCell<Option<(Vec<u8>, Vec<StoredEvent>)>> =
        const { std::cell::RefCell::new(None) };
}

impl TxView<'_> {
    fn head(&self, stream: &str) -> TxResult<Option<u64>> {
        match self.heads.get(stream.as_bytes())? {
            Some(v) => match decode_u64(HEADS_TREE, stream.as_bytes(), &v) {
                Ok(h) => Ok(Some(h)),
                Err(e) => abort(e),
            },
            None => Ok(None),
        }
    }

    /// Event `seq` of `stream`, if stored.
    fn event(&self, stream: &str, seq: u64) -> TxResult<Option<StoredEvent>> {
        if let Some(record) = self.sealed.get(stream.as_bytes())? {
            let cached = SEALED_CACHE.with(|c| {
                c.borrow()
                    .as_ref()
                    .filter(|(bytes, _)| bytes.as_slice() == &record[..])
                    .map(|(_, events)| events.get((seq as usize).wrapping_sub(1)).cloned())
            });
            if let Some(hit) = cached {
                return Ok(hit);
            }
            let events = match decode_sealed(stream.as_bytes(), &record, 1) {
                Ok(events) => events,
                Err(e) => return abort(e),
            };
            let hit = events.get((seq as usize).wrapping_sub(1)).cloned();
            SEALED_CACHE.with(|c| *c.borrow_mut() = Some((record.to_vec(), events)));
            return Ok(hit);
        }
        let key = event_key(stream, seq);
        match self.events.get(&key)? {
            Some(v) => match decode_event(&key, seq, &v) {
                Ok(e) => Ok(Some(e)),
                Err(e) => abort(e),
            },
            None => Ok(None),
        }
    }
}
