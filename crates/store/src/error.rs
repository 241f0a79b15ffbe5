//! The error type of the store.

use std::path::PathBuf;

use crate::ExpectedVersion;

/// Everything that can go wrong in the store.
///
/// Every variant carries the facts needed to act on it (which stream, which id, which key);
/// none of them is ever produced by a panic.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// Another process holds the database lock (sled allows one process per database).
    /// `holder` names it, from the note it left (`holder.rs`), when there is one to believe.
    #[error("{}", in_use(path, holder.as_deref()))]
    InUse {
        /// The store folder that could not be locked.
        path: PathBuf,
        /// Who holds it, in words, escaped: "carc record shell on game g1 (pid 1234, since
        /// 21:40 UTC)".
        holder: Option<String>,
    },

    /// A file-system operation outside sled failed (for example creating the store folder).
    #[error("store {}: {source}", path.display())]
    Io {
        /// The path the operation was about.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// There is no store at the path, but a rebuilt one beside it and no swap note: a
    /// rebuild was stopped while it put its store in place, by a release that wrote no note.
    #[error("store {} does not exist, but {} beside it does: a rebuild was interrupted while it moved its store into place, and whether it ran to its end is not known; move it to {} if it did (`carc verify` checks it), or move the old store (`{}.old-<n>`) back", path.display(), rebuilt.display(), path.display(), path.display())]
    Unfinished {
        /// The store folder (missing).
        path: PathBuf,
        /// The rebuilt store beside it.
        rebuilt: PathBuf,
    },

    /// An error reported by sled itself. (Not a `source`: the message already holds sled's,
    /// which a chain of causes would print a second time.)
    #[error("sled: {0}")]
    Sled(sled::Error),

    /// The store's files are damaged where sled's recovery would cut its log short and
    /// overwrite what follows (or would panic): found by reading them before sled opens the
    /// store, so nothing was written to them.
    #[error("store {} is damaged ({file}: {what}); nothing was written to it", path.display())]
    Damaged {
        /// The store folder.
        path: PathBuf,
        /// The file of the folder where the damage was found (`db`, `conf`, `snap.…`).
        file: String,
        /// What is wrong with it, in words.
        what: String,
    },

    /// The store was written with a layout version this code does not know.
    #[error(
        "store layout version {found} is not supported (this build reads version {supported})"
    )]
    UnsupportedFormat {
        /// The version byte found in the `meta` tree.
        found: u8,
        /// The version this build reads and writes.
        supported: u8,
    },

    /// A stream id failed validation (1..=128 bytes of printable ASCII without whitespace).
    #[error("invalid stream id {id}: {reason}")]
    InvalidStreamId {
        /// The offending id, escaped and shortened for display.
        id: String,
        /// Why it was rejected.
        reason: &'static str,
    },

    /// A batch passed to [`Store::append`](crate::Store::append) failed validation;
    /// nothing was stored.
    #[error("invalid batch for stream {stream}: {reason}")]
    InvalidBatch {
        /// The stream the batch was meant for.
        stream: String,
        /// Why it was rejected.
        reason: String,
    },

    /// The stream's version did not match the caller's expectation; nothing was stored.
    #[error("version conflict on stream {stream}: expected {expected}, actual {}", fmt_version(*actual))]
    Conflict {
        /// The stream appended to.
        stream: String,
        /// What the caller expected.
        expected: ExpectedVersion,
        /// The stream's version when the append was attempted (`None`: no such stream).
        actual: Option<u64>,
    },

    /// A client event id of the batch is already stored, and the batch is not an exact retry
    /// of an earlier append; nothing was stored.
    #[error("event id {id:?} is already stored as {existing_stream} #{existing_seq}: {why}")]
    IdReuse {
        /// The reused id.
        id: String,
        /// The stream where the id is stored.
        existing_stream: String,
        /// The sequence number it is stored under.
        existing_seq: u64,
        /// Why the batch is not a valid retry.
        why: String,
    },

    /// The stream is sealed (finished); it takes no further events.
    #[error("stream {stream} is sealed and takes no further events")]
    Sealed {
        /// The sealed stream.
        stream: String,
    },

    /// The operation needs an existing stream.
    #[error("no stream {stream}")]
    NoSuchStream {
        /// The missing stream.
        stream: String,
    },

    /// A stored key or value could not be decoded.
    #[error("corrupt store entry {key}: {what}")]
    Corrupt {
        /// The tree and key, escaped for display (e.g. `events/game-1\x00...`).
        key: String,
        /// What is wrong with it.
        what: String,
    },
}

impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> Self {
        StoreError::Sled(e)
    }
}

impl StoreError {
    /// Whether this error says that the store's files are damaged: sled found corrupt data or
    /// a file ended early, or a stored value does not decode. `carc salvage` reads what such a
    /// store still holds.
    pub fn is_damage(&self) -> bool {
        match self {
            StoreError::Corrupt { .. } | StoreError::Damaged { .. } => true,
            StoreError::Sled(e) => match e {
                sled::Error::Corruption { .. } | sled::Error::ReportableBug(_) => true,
                sled::Error::Io(io) => matches!(
                    io.kind(),
                    std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::InvalidData
                ),
                _ => false,
            },
            _ => false,
        }
    }
}

fn in_use(path: &std::path::Path, holder: Option<&str>) -> String {
    match holder {
        Some(who) => format!(
            "store {} is in use by {who}; quit it or wait",
            path.display()
        ),
        None => format!("store {} is in use by another process", path.display()),
    }
}

fn fmt_version(v: Option<u64>) -> String {
    match v {
        Some(v) => v.to_string(),
        None => "no stream".to_string(),
    }
}
