//! `carc-store`: an append-only event store on [sled] 0.34.
//!
//! The store knows nothing about Carcassonne: an event is an opaque byte payload plus a
//! client-chosen id (the idempotency key). Events live in **streams** (one per game), numbered
//! gaplessly from 1; every event also gets a store-wide **position**.
//!
//! * [`Store::append`] stores a batch atomically in one sled transaction, checks the caller's
//!   [`ExpectedVersion`], deduplicates exact retries by event id, and flushes to disk before
//!   returning `Ok` (an `Ok` is a durable acknowledgement).
//! * [`Store::seal`] writes a finished stream as one compact record, which bulk reads use.
//! * [`Store::verify`] walks the whole store and reports inconsistencies as data.
//!
//! Streams are never edited or deleted through this API. Only one process may open a store at
//! a time ([`StoreError::InUse`] otherwise). The on-disk layout is described in
//! `docs/store.md` and in [`layout`].
//!
//! ```no_run
//! use carc_store::{ExpectedVersion, NewEvent, Store};
//! # fn main() -> Result<(), carc_store::StoreError> {
//! let store = Store::open(std::path::Path::new("games.sled"))?;
//! let batch = [NewEvent::new("game-1-1", b"{\"tile\":\"CRFR\"}".to_vec())];
//! let done = store.append("game-1", ExpectedVersion::NoStream, &batch)?;
//! assert_eq!((done.first_seq, done.last_seq), (1, 1));
//! let events = store.read_stream("game-1", 1)?;
//! assert_eq!(events[0].payload, batch[0].payload);
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod append;
mod error;
mod folder_lock;
mod holder;
pub mod layout;
mod preflight;
mod prepared;
mod reopen;
mod safe_file;
pub mod salvage;
mod store;
pub mod swap;
mod verify;

pub use append::AppendOptions;
pub use error::StoreError;
pub use holder::HOLDER_FILE;
pub use prepared::PreparedBatch;
pub use store::{AllStreams, Listing, Store, StreamListing, StreamRecord, SMALL_CACHE_CAPACITY};
pub use verify::{Problem, VerifyReport};

use std::fmt;

/// The caller's expectation about a stream's version (its last sequence number) at append time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExpectedVersion {
    /// Append whatever the current version is.
    Any,
    /// The stream must not exist yet.
    NoStream,
    /// The stream's last sequence number must be exactly this. `Exactly(0)` means the stream
    /// has no events yet, the same as [`ExpectedVersion::NoStream`].
    Exactly(u64),
}

impl ExpectedVersion {
    /// Whether a stream whose current version is `actual` satisfies this expectation.
    pub fn matches(self, actual: Option<u64>) -> bool {
        match self {
            ExpectedVersion::Any => true,
            ExpectedVersion::NoStream | ExpectedVersion::Exactly(0) => actual.is_none(),
            ExpectedVersion::Exactly(v) => actual == Some(v),
        }
    }
}

impl fmt::Display for ExpectedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpectedVersion::Any => f.write_str("any version"),
            ExpectedVersion::NoStream => f.write_str("no stream"),
            ExpectedVersion::Exactly(v) => write!(f, "version {v}"),
        }
    }
}

/// An event to append: a client-chosen id and an opaque payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    /// Client-chosen idempotency key, unique across the whole store: 1..=512 bytes.
    /// Appending the same ids again (an exact retry) stores nothing and reports
    /// [`Appended::deduplicated`].
    pub id: String,
    /// The event's bytes, at most [`layout::MAX_PAYLOAD_LEN`]. The store never looks inside.
    pub payload: Vec<u8>,
}

impl NewEvent {
    /// Builds an event from an id and a payload.
    pub fn new(id: impl Into<String>, payload: impl Into<Vec<u8>>) -> Self {
        NewEvent {
            id: id.into(),
            payload: payload.into(),
        }
    }
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    /// Sequence number within its stream, gapless from 1.
    pub seq: u64,
    /// Store-wide position, unique and increasing in append order (positions of different
    /// streams interleave; they are not gapless per stream).
    pub position: u64,
    /// The client id it was appended with.
    pub id: String,
    /// The payload it was appended with.
    pub payload: Vec<u8>,
}

/// The outcome of a successful [`Store::append`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// Sequence number of the batch's first event.
    pub first_seq: u64,
    /// Sequence number of the batch's last event (the stream's version after this append,
    /// unless `deduplicated` and later events were appended since).
    pub last_seq: u64,
    /// Global position of the batch's first event.
    pub first_position: u64,
    /// Global position of the batch's last event.
    pub last_position: u64,
    /// `true` when the whole batch was already stored by an earlier call with the same ids
    /// and payloads: nothing was written this time.
    pub deduplicated: bool,
}
