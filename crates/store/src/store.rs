//! The [`Store`] handle: open, append, read, seal.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sled::transaction::ConflictableTransactionError;
use sled::Transactional;

use crate::append::{abort, append_in_tx, clone_verdict, tx_result, validate_batch, AppendOptions};
use crate::folder_lock::{try_lock_db, FolderLock};
use crate::holder::{read_holder, HolderNote};
use crate::layout::{
    self, corrupt, decode_event, decode_sealed, decode_summary, decode_u64, encode_sealed,
    encode_summary, event_key, validate_stream_id, DEDUP_TREE, EVENTS_TREE, HEADS_TREE,
    META_FORMAT_KEY, META_NO_CANONICAL_DEDUP_KEY, META_POSITION_KEY, META_TREE, SEALED_TREE,
    SUMMARIES_TREE,
};
use crate::reopen::{open_after_own_release, ReleaseOnDrop};
use crate::{Appended, ExpectedVersion, NewEvent, PreparedBatch, StoreError, StoredEvent};

/// One append of a group: stream, expected version, events, options, and the batch the
/// events are, where it may bring a sealed record's body encoded ahead.
type GroupItem<'a> = (
    &'a str,
    ExpectedVersion,
    &'a [NewEvent],
    AppendOptions<'a>,
    Option<&'a PreparedBatch>,
);

/// sled's page cache budget. sled's real memory use grows to several times this figure.
const CACHE_CAPACITY: u64 = 64 * 1024 * 1024;
/// A page cache for a walk over the whole store (see [`Store::open_with_cache`]).
pub const SMALL_CACHE_CAPACITY: u64 = 8 * 1024 * 1024;

/// How many times [`Store::seal`] re-reads a stream that changed under it before giving up.
const SEAL_RETRIES: usize = 16;

/// One stream of [`Store::listing`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamListing {
    /// The stream id.
    pub stream: String,
    /// Its version (last sequence number).
    pub version: u64,
    /// Whether it is sealed, when its summary says so (a summary written by a layout-2
    /// program does not: ask [`Store::is_sealed`]).
    pub sealed: Option<bool>,
    /// The client's summary, when one describes this version.
    pub summary: Option<Vec<u8>>,
}

/// The iterator of [`Store::listing`].
pub struct Listing {
    heads: sled::Iter,
    summaries: std::iter::Peekable<sled::Iter>,
}

impl Iterator for Listing {
    type Item = Result<StreamListing, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        let head = self.heads.next()?;
        Some(
            head.map_err(StoreError::from)
                .and_then(|(key, head)| self.listed(&key, &head)),
        )
    }
}

impl Listing {
    /// The stream whose `heads` entry is (`key`, `head`), with its summary if current.
    fn listed(&mut self, key: &[u8], head: &[u8]) -> Result<StreamListing, StoreError> {
        let stream = stream_name(HEADS_TREE, key)?;
        let version = decode_u64(HEADS_TREE, key, head)?;
        // Summaries of streams before this one have no head: skip them (verify reports them).
        while let Some(Ok((k, _))) = self.summaries.peek() {
            if k.as_ref() < key {
                self.summaries.next();
            } else {
                break;
            }
        }
        let mut listed = StreamListing {
            stream,
            version,
            sealed: None,
            summary: None,
        };
        match self.summaries.peek() {
            Some(Ok((k, _))) if k.as_ref() != key => {}
            None => {}
            Some(_) => match self.summaries.next() {
                Some(Ok((k, v))) => {
                    let value = decode_summary(&k, &v)?;
                    if value.version == version {
                        listed.sealed = value.sealed;
                        listed.summary = Some(value.bytes);
                    }
                }
                Some(Err(e)) => return Err(e.into()),
                None => {}
            },
        }
        Ok(listed)
    }
}

/// A handle on an open store. Cheap to clone; clones share the same database, and the handle
/// is `Send + Sync`, so threads may append concurrently (appends are serialised by sled's
/// transaction lock and checked against [`ExpectedVersion`]).
#[derive(Clone)]
pub struct Store {
    /// This process's note naming it as the holder (declared first: removed before sled's
    /// handle drops and lets go of the lock, so it never removes the next holder's note).
    _holder: Arc<Option<HolderNote>>,
    path: PathBuf,
    db: sled::Db,
    events: sled::Tree,
    heads: sled::Tree,
    meta: sled::Tree,
    dedup: sled::Tree,
    sealed: sled::Tree,
    summaries: sled::Tree,
    /// The store folder's lock (`folder_lock`), let go after sled's handle.
    _lock: Arc<FolderLock>,
    /// Tells `reopen` when the last clone is gone (declared last: dropped after the trees).
    _release: Arc<ReleaseOnDrop>,
}

/// Why sled's lock on `db` could not be taken for the preflight.
enum DbLock {
    Held,
    Io(std::io::Error),
}

impl DbLock {
    fn is_held(&self) -> bool {
        matches!(self, DbLock::Held)
    }
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

fn is_lock_error(err: &sled::Error) -> bool {
    match err {
        sled::Error::Io(io) => {
            io.kind() == std::io::ErrorKind::WouldBlock
                || io.to_string().contains("could not acquire lock")
        }
        _ => false,
    }
}

impl Store {
    /// Opens (creating on first use) the store in folder `dir`.
    ///
    /// sled is configured with a 64 MiB cache. If another process (or another open handle of
    /// this one) has the store open this returns [`StoreError::InUse`] at once; the one wait
    /// is for a store whose last handle this process has just dropped, while sled's own
    /// threads let go of its lock (at most two seconds, see `reopen`).
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::open_with_cache(dir, CACHE_CAPACITY)
    }

    /// [`Store::open`], naming the holder: while this store is open, a process refused it is
    /// told "store DIR is in use by HOLDER (pid …, since …)" (the note `<dir>/holder`, see
    /// [`crate::HOLDER_FILE`]). `holder` says what holds it: "carc record shell on game g1".
    pub fn open_as(dir: &Path, holder: &str) -> Result<Store, StoreError> {
        Store::open_with_cache_as(dir, CACHE_CAPACITY, holder)
    }

    /// [`Store::open_with_cache`], naming the holder as [`Store::open_as`] does.
    pub fn open_with_cache_as(
        dir: &Path,
        cache_capacity: u64,
        holder: &str,
    ) -> Result<Store, StoreError> {
        let mut store = Store::open_with_cache(dir, cache_capacity)?;
        // Replaces the note of the program's name alone (ours: this process holds the lock).
        store._holder = Arc::new(None);
        store._holder = Arc::new(HolderNote::write(dir, holder));
        Ok(store)
    }

    /// [`Store::open`] with a page cache of `cache_capacity` bytes instead of 64 MiB. A walk
    /// over the whole store (verify, a listing, an export) reads each page about once, so a
    /// small cache ([`SMALL_CACHE_CAPACITY`]) costs it no time and saves memory: `carc verify`
    /// of 100,000 games peaked at 101 MB with 8 MiB against 188 MB with 64 MiB, in the same
    /// wall time (`docs/benchmarks.md`).
    ///
    /// The open takes the store folder's lock before it reads anything (`folder_lock`), then
    /// reads sled's files as sled's recovery would, without writing (`preflight`): a store
    /// whose recovery would cut its log short and zero the rest is refused as
    /// [`StoreError::Damaged`] before sled sees it, so that an open that fails, or is killed,
    /// writes nothing to it. Nothing is copied. A swap of a rebuilt store that was killed
    /// midway is finished first ([`crate::swap`]).
    pub fn open_with_cache(dir: &Path, cache_capacity: u64) -> Result<Store, StoreError> {
        crate::swap::finish_interrupted(dir)?;
        let io_err = |source| StoreError::Io {
            path: dir.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io_err)?;
        // The folder as this process knows it whatever path names it (see `reopen`).
        let folder = std::fs::canonicalize(dir).map_err(io_err)?;
        let in_use = || StoreError::InUse {
            path: dir.to_path_buf(),
            holder: read_holder(dir),
        };
        let lock = FolderLock::try_take(dir)
            .map_err(io_err)?
            .ok_or_else(in_use)?;
        {
            // sled's own lock while the preflight reads: this process's sled threads of a
            // handle just dropped may still be writing (waited for), and a program that takes
            // no folder lock may hold the store (refused).
            let _db = open_after_own_release(&folder, DbLock::is_held, || match try_lock_db(dir) {
                Ok(Some(db)) => Ok(db),
                Ok(None) => Err(DbLock::Held),
                Err(e) => Err(DbLock::Io(e)),
            })
            .map_err(|e| match e {
                DbLock::Held => in_use(),
                DbLock::Io(e) => io_err(e),
            })?;
            if let Err(d) = crate::preflight::check(dir).map_err(io_err)? {
                return Err(StoreError::Damaged {
                    path: dir.to_path_buf(),
                    file: d.file,
                    what: d.what,
                });
            }
        }
        Store::open_in_place(dir, &folder, cache_capacity, lock)
    }

    /// sled's open of a store whose folder lock this process holds, and our opening checks.
    fn open_in_place(
        dir: &Path,
        folder: &Path,
        cache_capacity: u64,
        lock: FolderLock,
    ) -> Result<Store, StoreError> {
        // No background flusher: every write flushes before it is acknowledged anyway, so the
        // thread would only cost a thread per process.
        let config = sled::Config::new()
            .path(dir)
            .cache_capacity(cache_capacity)
            .flush_every_ms(None);
        let db = open_after_own_release(folder, is_lock_error, || config.open()).map_err(|e| {
            if is_lock_error(&e) {
                StoreError::InUse {
                    path: dir.to_path_buf(),
                    holder: read_holder(dir),
                }
            } else {
                StoreError::Sled(e)
            }
        })?;
        // A holder that does not name itself is named by its program.
        let program = std::env::current_exe()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "a program".into());
        let store = Store {
            _holder: Arc::new(HolderNote::write(dir, &program)),
            path: dir.to_path_buf(),
            events: db.open_tree(EVENTS_TREE)?,
            heads: db.open_tree(HEADS_TREE)?,
            meta: db.open_tree(META_TREE)?,
            dedup: db.open_tree(DEDUP_TREE)?,
            sealed: db.open_tree(SEALED_TREE)?,
            summaries: db.open_tree(SUMMARIES_TREE)?,
            db,
            _lock: Arc::new(lock),
            _release: Arc::new(ReleaseOnDrop::new(folder.to_path_buf())),
        };
        store.check_format()?;
        store.mark_canonical_dedup_free()?;
        Ok(store)
    }

    /// Writes the [`META_NO_CANONICAL_DEDUP_KEY`] promise when it is trivially true (no dedup
    /// entry at all). Nothing else can write to the store while this process opens it (sled's
    /// file lock), and the handle is not shared yet, so the check and the write cannot race.
    /// The promise is not flushed on its own: lost in a crash, it is written again next time.
    fn mark_canonical_dedup_free(&self) -> Result<(), StoreError> {
        if self.meta.get(META_NO_CANONICAL_DEDUP_KEY)?.is_none() && self.dedup.is_empty() {
            self.meta.insert(META_NO_CANONICAL_DEDUP_KEY, &[][..])?;
        }
        Ok(())
    }

    /// Writes the layout version on first use, upgrades a layout-1 store (whose values all
    /// still decode) by bumping its version, refuses unknown versions.
    fn check_format(&self) -> Result<(), StoreError> {
        let current = [layout::FORMAT_VERSION];
        let legacy = layout::LEGACY_FORMAT_VERSIONS.map(|v| [v]);
        for expected in [None]
            .into_iter()
            .chain(legacy.iter().map(|v| Some(&v[..])))
        {
            if self
                .meta
                .compare_and_swap(META_FORMAT_KEY, expected, Some(&current[..]))?
                .is_ok()
            {
                self.db.flush()?;
                return Ok(());
            }
        }
        {
            match self.meta.get(META_FORMAT_KEY)?.as_deref() {
                Some([v]) if *v == layout::FORMAT_VERSION => Ok(()),
                Some([v]) => Err(StoreError::UnsupportedFormat {
                    found: *v,
                    supported: layout::FORMAT_VERSION,
                }),
                _ => Err(corrupt(
                    META_TREE,
                    META_FORMAT_KEY,
                    "expected a single version byte",
                )),
            }
        }
    }

    /// The folder this store lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `events` to `stream` atomically, then flushes to disk.
    ///
    /// * The batch must be non-empty; ids must be 1..=512 bytes and distinct within the batch;
    ///   payloads at most [`layout::MAX_PAYLOAD_LEN`]. Otherwise [`StoreError::InvalidBatch`].
    /// * If every id of the batch is already stored in this stream as consecutive events with
    ///   the same payloads (an exact retry), nothing is written and the result has
    ///   `deduplicated: true` with the original numbers, whatever `expected` says.
    /// * If only some ids are stored, or an id is stored in another stream or with another
    ///   payload: [`StoreError::IdReuse`].
    /// * A sealed stream takes no events: [`StoreError::Sealed`].
    /// * If the stream's version does not satisfy `expected`: [`StoreError::Conflict`].
    ///
    /// All events, the stream head, the global position counter and the dedup entries of
    /// non-canonical ids are written in one sled transaction; on any of the errors above
    /// nothing is stored. After the commit the database is flushed before `Ok` is returned (a
    /// durable acknowledgement). If that flush fails the error is returned although the batch
    /// may be committed: retrying the same batch is safe and reports `deduplicated` if it was.
    pub fn append(
        &self,
        stream: &str,
        expected: ExpectedVersion,
        events: &[NewEvent],
    ) -> Result<Appended, StoreError> {
        self.append_with(stream, expected, events, AppendOptions::default())
    }

    /// [`Store::append`] with options: seal in the same transaction, keep a summary, defer
    /// the flush (see [`AppendOptions`]).
    pub fn append_with(
        &self,
        stream: &str,
        expected: ExpectedVersion,
        events: &[NewEvent],
        options: AppendOptions<'_>,
    ) -> Result<Appended, StoreError> {
        validate_stream_id(stream)?;
        validate_batch(stream, events)?;

        let appended =
            tx_result(self.trees6().transaction(|trees| {
                append_in_tx(trees, stream, expected, events, options, None)
            }))?;
        // A deduplicated retry may follow a crash or a failed flush between commit and
        // acknowledgement: flush in both cases so that `Ok` always means durable.
        if !options.defer_flush {
            self.db.flush()?;
        }
        Ok(appended)
    }

    fn trees6(
        &self,
    ) -> (
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
    ) {
        (
            &self.events,
            &self.heads,
            &self.meta,
            &self.dedup,
            &self.sealed,
            &self.summaries,
        )
    }

    /// Several appends (to different streams, or the same one in turn) in **one** sled
    /// transaction, then one flush unless every item defers it. Each item is checked and
    /// stored exactly as [`Store::append_with`] would, and gets its own result: a refused
    /// item stores nothing and does not stop the others. sled writes its log buffer twice per
    /// transaction, so an import that commits its games in groups this way pays those writes
    /// once per group instead of once per game. Items' `defer_flush` is ignored: the call
    /// flushes at the end unless `defer_flush` is set.
    pub fn append_many(
        &self,
        items: &[(&str, ExpectedVersion, &[NewEvent], AppendOptions<'_>)],
        defer_flush: bool,
    ) -> Result<Vec<Result<Appended, StoreError>>, StoreError> {
        let items: Vec<_> = items
            .iter()
            .map(|&(stream, expected, events, options)| (stream, expected, events, options, None))
            .collect();
        self.append_group(&items, defer_flush)
    }

    /// [`Store::append_many`] of [`PreparedBatch`]es, each appended to the stream it was
    /// prepared for. What the batches bring worked out ahead (their checks, and a new sealed
    /// stream's record body, deflated) is not done again in the transaction, which runs on one
    /// thread at a time. What is stored is byte for byte what [`Store::append_many`] of the
    /// same events stores.
    pub fn append_many_prepared(
        &self,
        items: &[(ExpectedVersion, &PreparedBatch, AppendOptions<'_>)],
        defer_flush: bool,
    ) -> Result<Vec<Result<Appended, StoreError>>, StoreError> {
        let items: Vec<_> = items
            .iter()
            .map(|&(expected, batch, options)| {
                (
                    batch.stream(),
                    expected,
                    batch.events(),
                    options,
                    Some(batch),
                )
            })
            .collect();
        self.append_group(&items, defer_flush)
    }

    fn append_group(
        &self,
        items: &[GroupItem<'_>],
        defer_flush: bool,
    ) -> Result<Vec<Result<Appended, StoreError>>, StoreError> {
        let checked: Vec<Result<(), StoreError>> = items
            .iter()
            .map(|(stream, _, events, _, prepared)| match prepared {
                Some(batch) => batch.checked(),
                None => {
                    validate_stream_id(stream)?;
                    validate_batch(stream, events)
                }
            })
            .collect();
        let results = tx_result(self.trees6().transaction(|trees| {
            let mut out = Vec::with_capacity(items.len());
            for (item, ok) in items.iter().zip(&checked) {
                if let Err(e) = ok {
                    out.push(Err(clone_verdict(e)));
                    continue;
                }
                let (stream, expected, events, options, presealed) = *item;
                match append_in_tx(trees, stream, expected, events, options, presealed) {
                    Ok(a) => out.push(Ok(a)),
                    Err(ConflictableTransactionError::Abort(e)) => out.push(Err(e)),
                    Err(other) => return Err(other),
                }
            }
            Ok(out)
        }))?;
        if !defer_flush {
            self.db.flush()?;
        }
        Ok(results)
    }

    /// The client summary stored for `stream` with [`AppendOptions::summary`], if there is one
    /// and it describes the stream's current version (a later append without a summary makes
    /// it stale, and then it is not returned).
    pub fn summary(&self, stream: &str) -> Result<Option<Vec<u8>>, StoreError> {
        validate_stream_id(stream)?;
        let Some(v) = self.summaries.get(stream.as_bytes())? else {
            return Ok(None);
        };
        let value = decode_summary(stream.as_bytes(), &v)?;
        Ok((self.version(stream)? == Some(value.version)).then_some(value.bytes))
    }

    /// Reads `stream` from sequence number `from_seq` on (0 and 1 both mean "from the start").
    /// A stream that does not exist reads as empty. Uses the sealed record when there is one.
    pub fn read_stream(&self, stream: &str, from_seq: u64) -> Result<Vec<StoredEvent>, StoreError> {
        validate_stream_id(stream)?;
        if let Some(record) = self.sealed.get(stream.as_bytes())? {
            return decode_sealed(stream.as_bytes(), &record, from_seq);
        }
        self.read_events(stream, from_seq)
    }

    /// Reads one stream from the per-event entries, ignoring any sealed record.
    pub(crate) fn read_events(
        &self,
        stream: &str,
        from_seq: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let start = event_key(stream, from_seq.max(1));
        let end = event_key(stream, u64::MAX);
        let mut out = Vec::new();
        for item in self.events.range(start..=end) {
            let (k, v) = item?;
            let Some((_, seq)) = layout::parse_event_key(&k) else {
                return Err(corrupt(EVENTS_TREE, &k, "malformed event key"));
            };
            out.push(decode_event(&k, seq, &v)?);
        }
        Ok(out)
    }

    /// The stream's version (its last sequence number), `None` if it has no events.
    pub fn version(&self, stream: &str) -> Result<Option<u64>, StoreError> {
        validate_stream_id(stream)?;
        self.heads
            .get(stream.as_bytes())?
            .map(|v| decode_u64(HEADS_TREE, stream.as_bytes(), &v))
            .transpose()
    }

    /// Whether the stream has been sealed.
    pub fn is_sealed(&self, stream: &str) -> Result<bool, StoreError> {
        validate_stream_id(stream)?;
        Ok(self.sealed.contains_key(stream.as_bytes())?)
    }

    /// All stream ids, sorted (bytewise, which for these ASCII ids is the usual string order).
    pub fn streams(&self) -> Result<Vec<String>, StoreError> {
        self.heads
            .iter()
            .keys()
            .map(|k| {
                let k = k?;
                stream_name(HEADS_TREE, &k)
            })
            .collect()
    }

    /// Every stream in id order with its version, and its summary when one describes that
    /// version, in one pass over `heads` and `summaries` side by side (no point reads, no
    /// sealed record read), one stream at a time: what a listing of many games needs.
    pub fn listing(&self) -> Listing {
        Listing {
            heads: self.heads.iter(),
            summaries: self.summaries.iter().peekable(),
        }
    }

    /// The last global position handed out (0 for an empty store).
    pub fn position(&self) -> Result<u64, StoreError> {
        self.meta
            .get(META_POSITION_KEY)?
            .map(|v| decode_u64(META_TREE, META_POSITION_KEY, &v))
            .transpose()
            .map(|p| p.unwrap_or(0))
    }

    /// Seals `stream`: writes all its events as one compact record in the `sealed` tree, which
    /// [`Store::read_stream`] and [`Store::read_all_streams`] then use, and removes the
    /// per-event entries in the same transaction. A sealed stream takes no further appends. Sealing an already sealed stream is
    /// a no-op. Returns the number of events in the record.
    pub fn seal(&self, stream: &str) -> Result<u64, StoreError> {
        validate_stream_id(stream)?;
        let key = stream.as_bytes();
        for _ in 0..SEAL_RETRIES {
            if let Some(record) = self.sealed.get(key)? {
                return decode_sealed(key, &record, 1).map(|e| e.len() as u64);
            }
            let Some(head) = self.version(stream)? else {
                return Err(StoreError::NoSuchStream {
                    stream: stream.to_string(),
                });
            };
            let events = self.read_events(stream, 1)?;
            check_gapless(stream, &events, head)?;
            let record = encode_sealed(
                stream,
                events
                    .iter()
                    .map(|e| (e.position, e.id.as_str(), e.payload.as_slice())),
            );
            let done = tx_result(
                (&self.heads, &self.sealed, &self.events, &self.summaries).transaction(
                    |(tx_heads, tx_sealed, tx_events, tx_summaries)| {
                        if tx_sealed.get(key)?.is_some() {
                            return Ok(true); // sealed concurrently
                        }
                        let now = match tx_heads.get(key)? {
                            Some(v) => match decode_u64(HEADS_TREE, key, &v) {
                                Ok(h) => Some(h),
                                Err(e) => return abort(e),
                            },
                            None => None,
                        };
                        if now != Some(head) {
                            return Ok(false); // appended meanwhile: read again
                        }
                        tx_sealed.insert(key, record.as_slice())?;
                        // The record replaces the per-event entries (they would double the size).
                        for seq in 1..=head {
                            tx_events.remove(event_key(stream, seq))?;
                        }
                        // A summary of this version now describes a sealed stream: say so.
                        if let Some(v) = tx_summaries.get(key)? {
                            match decode_summary(key, &v) {
                                Ok(s) if s.version == head => {
                                    tx_summaries
                                        .insert(key, encode_summary(head, true, &s.bytes))?;
                                }
                                Ok(_) => {}
                                Err(e) => return abort(e),
                            }
                        }
                        Ok(true)
                    },
                ),
            )?;
            if done {
                self.db.flush()?;
                return Ok(events.len() as u64);
            }
        }
        Err(StoreError::Conflict {
            stream: stream.to_string(),
            expected: ExpectedVersion::Any,
            actual: self.version(stream)?,
        })
    }

    /// Iterates over every stream in id order with all its events, using sealed records where
    /// present (the fast path for bulk analysis of finished games).
    pub fn read_all_streams(&self) -> AllStreams<'_> {
        AllStreams {
            store: self,
            heads: self.heads.iter(),
        }
    }

    /// Flushes all pending writes to disk. Appends and seals already flush before returning.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }

    pub(crate) fn trees(&self) -> Trees<'_> {
        Trees {
            events: &self.events,
            heads: &self.heads,
            meta: &self.meta,
            dedup: &self.dedup,
            sealed: &self.sealed,
            summaries: &self.summaries,
        }
    }
}

/// Borrowed trees, for [`crate::verify`].
pub(crate) struct Trees<'a> {
    pub events: &'a sled::Tree,
    pub heads: &'a sled::Tree,
    pub meta: &'a sled::Tree,
    pub dedup: &'a sled::Tree,
    pub sealed: &'a sled::Tree,
    pub summaries: &'a sled::Tree,
}

/// Decodes a stream id used as a key in `tree`.
pub(crate) fn stream_name(tree: &str, key: &[u8]) -> Result<String, StoreError> {
    let s = std::str::from_utf8(key).map_err(|_| corrupt(tree, key, "stream id is not UTF-8"))?;
    validate_stream_id(s).map_err(|e| corrupt(tree, key, e.to_string()))?;
    Ok(s.to_string())
}

fn check_gapless(stream: &str, events: &[StoredEvent], head: u64) -> Result<(), StoreError> {
    for (i, e) in events.iter().enumerate() {
        if e.seq != i as u64 + 1 {
            return Err(corrupt(
                EVENTS_TREE,
                &event_key(stream, i as u64 + 1),
                format!("missing event (found seq {} instead)", e.seq),
            ));
        }
    }
    if events.len() as u64 != head {
        return Err(corrupt(
            HEADS_TREE,
            stream.as_bytes(),
            format!("head says {head} but {} events are stored", events.len()),
        ));
    }
    Ok(())
}

/// One stream as returned by [`Store::read_all_streams`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamRecord {
    /// The stream id.
    pub stream: String,
    /// Whether the events came from the sealed record.
    pub sealed: bool,
    /// All events of the stream, in order.
    pub events: Vec<StoredEvent>,
}

/// Iterator over all streams, from [`Store::read_all_streams`].
pub struct AllStreams<'a> {
    store: &'a Store,
    heads: sled::Iter,
}

impl fmt::Debug for AllStreams<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AllStreams").finish_non_exhaustive()
    }
}

impl Iterator for AllStreams<'_> {
    type Item = Result<StreamRecord, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.heads.next()?;
        Some((|| {
            let (k, _) = item?;
            let stream = stream_name(HEADS_TREE, &k)?;
            if let Some(record) = self.store.sealed.get(&k)? {
                let events = decode_sealed(&k, &record, 1)?;
                return Ok(StreamRecord {
                    stream,
                    sealed: true,
                    events,
                });
            }
            let events = self.store.read_events(&stream, 1)?;
            Ok(StreamRecord {
                stream,
                sealed: false,
                events,
            })
        })())
    }
}
