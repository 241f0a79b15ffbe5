//! What can go wrong between a stored stream and a game log.

use carc_events::DecodeError;
use carc_store::StoreError;
use thiserror::Error;

/// An archive error. Store errors (among them "store … is in use by another process") pass
/// through unchanged so that callers can tell them apart.
#[derive(Debug, Error)]
pub enum ArchiveError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The id cannot name a stored game (the message gives the store's reason).
    #[error("{reason}")]
    GameId { reason: String },
    /// A stored line is not what the mapping wrote (`seq` is the stream event).
    #[error("game {game}: stream event {seq}: {what}")]
    Corrupt {
        game: String,
        seq: u64,
        what: String,
    },
    /// The effective log does not decode.
    #[error("stored game {game}: {source}")]
    Decode {
        game: String,
        #[source]
        source: DecodeError,
    },
}
