//! Judging a store's files before sled may write to them (issue 46).
//!
//! sled 0.34 has no read-only open, and its recovery writes before it has finished judging
//! the log: it reads the log forward from its last snapshot, and where that reading stops it
//! overwrites the rest of the segment and every later segment (`advance_snapshot` in sled's
//! `pagecache/snapshot.rs`), and only *then* checks that it got as far as the snapshot said
//! was stable. On a flipped bit in the middle of `db` that check fails ("Read corrupted data")
//! after the zeroing has destroyed what `carc salvage` could still read.
//!
//! So before sled opens a store, [`check`] reads the same files the same way, without writing:
//! the `conf` file, the newest snapshot's stable log position, the segment headers, and the
//! log messages from the snapshot on (their framing and CRC-32), with sled 0.34.7's own rules
//! for where the reading stops (the two passes of `raw_segment_iter_from` and
//! `LogIter::next`). If sled would stop short of its snapshot, or would panic on what it
//! reads, the store is damaged and sled is never called: nothing is written. The reading
//! costs what sled's own recovery reads (the log since the last snapshot), with no copy.
//!
//! The rules here are sled 0.34.7's (pinned with `=0.34.7` in the workspace); a change of
//! sled's version must come with a new reading (the tests of `tests/preflight.rs` build
//! stores with the real sled and damage them).

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read};
use std::path::Path;

/// sled's position in its log (`Lsn`): a byte count over the whole history of the log.
type Lsn = i64;

/// sled's default segment size, which this store uses (`Config::segment_size`).
const DEFAULT_SEGMENT_SIZE: u64 = 512 * 1024;
/// sled's `SEG_HEADER_LEN`.
const SEG_HEADER_LEN: u64 = 20;
/// sled's `MAX_MSG_HEADER_LEN`.
const MAX_MSG_HEADER_LEN: u64 = 32;
/// The longest `conf` read (sled writes three short lines).
const MAX_CONF_BYTES: u64 = 4096;

/// Why a store's files would make sled's open fail after writing, or panic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// The file (relative to the store folder) where the damage was found.
    pub file: String,
    /// What is wrong, in words.
    pub what: String,
}

fn damage(file: &str, what: impl Into<String>) -> Damage {
    Damage {
        file: file.to_string(),
        what: what.into(),
    }
}

/// Reads the store folder `dir` as sled's recovery would and says whether that recovery
/// would damage it. `Ok(())` for a folder sled may open: a new or empty one, a whole one, one
/// whose log ends in a torn write (a kill during an append, which sled cuts off as it should),
/// and one sled refuses before writing anything (an unsupported `conf`). The caller holds the
/// store's locks, so nobody writes meanwhile.
pub(crate) fn check(dir: &Path) -> io::Result<Result<(), Damage>> {
    let db = match open_regular(&dir.join("db"))? {
        Some(db) => db,
        None => return Ok(Ok(())),
    };
    let db_len = db.metadata()?.len();
    if db_len == 0 {
        return Ok(Ok(()));
    }
    let segment_size = match read_conf(dir)? {
        Conf::Segments(size) => size,
        // sled refuses these itself before it writes to `db`.
        Conf::SledRefuses => return Ok(Ok(())),
        Conf::Damaged(d) => return Ok(Err(d)),
    };
    let snapshot = match read_snapshot_stable_lsn(dir)? {
        Ok(s) => s,
        Err(d) => return Ok(Err(d)),
    };
    let log = Log {
        file: &db,
        len: db_len,
        segment_size,
        dir,
    };
    Ok(log.recovery_verdict(snapshot))
}

/// Opens `path` for reading if it is a regular file; `None` if there is nothing there. A
/// link, FIFO, device or folder there is an error: sled would not have put it there, and
/// reading it could block or never end.
fn open_regular(path: &Path) -> io::Result<Option<fs::File>> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
        Ok(m) if !m.file_type().is_file() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} is not a regular file", path.display()),
            ))
        }
        Ok(_) => {}
    }
    let file = crate::safe_file::open_read(path)?;
    Ok(Some(file))
}

enum Conf {
    Segments(u64),
    SledRefuses,
    Damaged(Damage),
}

/// sled's `conf`: `segment_size: N`, `use_compression: B`, `version: A.B`, then a CRC-32.
fn read_conf(dir: &Path) -> io::Result<Conf> {
    let Some(file) = open_regular(&dir.join("conf"))? else {
        // sled writes a new one with its defaults: ours.
        return Ok(Conf::Segments(DEFAULT_SEGMENT_SIZE));
    };
    let mut bytes = Vec::new();
    file.take(MAX_CONF_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_CONF_BYTES {
        return Ok(Conf::Damaged(damage(
            "conf",
            "larger than sled ever writes it",
        )));
    }
    if bytes.len() <= 8 {
        // sled takes a conf this short for none and writes its own over it.
        return Ok(Conf::Damaged(damage(
            "conf",
            format!("{} bytes, too few for sled's settings", bytes.len()),
        )));
    }
    let text = match std::str::from_utf8(&bytes[..bytes.len() - 4]) {
        Ok(t) => t,
        Err(_) => return Ok(Conf::SledRefuses),
    };
    let mut segment_size = None;
    let mut compression = None;
    for line in text.lines() {
        let mut parts = line.split(": ");
        match (parts.next(), parts.next()) {
            (Some("segment_size"), Some(v)) => segment_size = v.parse::<u64>().ok(),
            (Some("use_compression"), Some(v)) => compression = v.parse::<bool>().ok(),
            (Some(_), Some(_)) => {}
            _ => return Ok(Conf::SledRefuses),
        }
    }
    match (segment_size, compression) {
        (Some(size), Some(false)) if size == DEFAULT_SEGMENT_SIZE => Ok(Conf::Segments(size)),
        // Another segment size, compression, or an unparsable value: sled's `verify_config`
        // refuses the store before it opens `db`.
        _ => Ok(Conf::SledRefuses),
    }
}

/// The stable log position of the snapshot sled would read (the last `snap.*` file by name,
/// as sled sorts them), `None` when there is no snapshot.
fn read_snapshot_stable_lsn(dir: &Path) -> io::Result<Result<Option<Lsn>, Damage>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir)? {
        let name = entry?.file_name();
        let name = name.to_string_lossy().into_owned();
        if name.starts_with("snap.") && !name.ends_with(".in___motion") {
            names.push(name);
        }
    }
    names.sort();
    let Some(name) = names.pop() else {
        return Ok(Ok(None));
    };
    let Some(mut file) = open_regular(&dir.join(&name))? else {
        return Ok(Ok(None));
    };
    let mut buf = Vec::new();
    file.read_to_end(&mut buf)?;
    let len = buf.len();
    if len <= 12 {
        return Ok(Err(damage(&name, format!("only {len} bytes long"))));
    }
    let crc_expected = u32::from_le_bytes(buf[len - 4..].try_into().expect("4 bytes"));
    if crc32fast::hash(&buf[..len - 12]) != crc_expected {
        return Ok(Err(damage(&name, "the snapshot fails its checksum")));
    }
    if len - 12 < 8 {
        return Ok(Err(damage(
            &name,
            "too short for the snapshot's stable position",
        )));
    }
    // `Option<i64>` as sled writes it: 0 for none, n + 1 for n >= 0.
    let shifted = i64::from_le_bytes(buf[..8].try_into().expect("8 bytes"));
    let stable = match shifted {
        0 => None,
        n if n < 0 => Some(n),
        n => Some(n - 1),
    };
    Ok(Ok(stable))
}

/// The `db` file, read as sled's log.
struct Log<'a> {
    file: &'a fs::File,
    len: u64,
    segment_size: u64,
    dir: &'a Path,
}

/// A segment read whole into memory (sled's `BasedBuf`).
struct Segment {
    offset: u64,
    bytes: Vec<u8>,
}

/// What one message of the log is, to the iteration (sled's `LogRead`).
enum Message {
    /// A page write (inline or in a blob file): the iteration yields it.
    Page { len: u64 },
    /// A batch's manifest: its last position must be readable.
    BatchManifest { last: Lsn, len: u64 },
    /// Skipped: a cancelled reservation, or a blob whose file is gone.
    Skip { len: u64 },
    /// The segment was capped here: go on at the next one.
    Cap,
    /// Zeroed, torn or failing its checksum.
    Corrupted,
    /// Unreadable (past the end of the file, an unreadable blob): the iteration ends.
    Unreadable,
}

/// sled's `LogIter`, reading only.
struct Iter {
    segments: BTreeMap<Lsn, u64>,
    segment: Option<Segment>,
    max_lsn: Option<Lsn>,
    cur_lsn: Option<Lsn>,
    last_stage: bool,
}

impl Log<'_> {
    fn seg(&self) -> Lsn {
        self.segment_size as Lsn
    }

    /// sled's `read_snapshot_or_default` and `advance_snapshot`, as far as they decide.
    fn recovery_verdict(&self, snapshot_stable: Option<Lsn>) -> Result<(), Damage> {
        let from = snapshot_stable.unwrap_or(0);
        if from < 0 {
            return Err(damage("db", "the snapshot names a negative log position"));
        }
        let mut iter = self.segment_iter_from(from)?;
        while let Some(lsn) = self.next(&mut iter)? {
            if lsn < snapshot_stable.unwrap_or(-1) {
                continue;
            }
            if lsn >= iter.max_lsn.expect("set by segment_iter_from") {
                // sled fails here, before it writes: refuse with a clearer word.
                return Err(damage(
                    "db",
                    format!("a message at log position {lsn} lies past the log's end"),
                ));
            }
        }
        let Some(iterated) = iter.cur_lsn else {
            return Ok(());
        };
        let no_progress = iterated <= snapshot_stable.unwrap_or(0);
        if no_progress && snapshot_stable.is_none() {
            return Ok(());
        }
        let progress = iterated % self.seg();
        let monotonic =
            progress >= SEG_HEADER_LEN as Lsn || (progress == 0 && iter.segment.is_none());
        if !monotonic {
            // sled fails here before it writes.
            return Err(damage(
                "db",
                format!("the log's reading ends inside a segment header (position {iterated})"),
            ));
        }
        let stable = if progress + MAX_MSG_HEADER_LEN as Lsn >= self.seg() {
            iterated / self.seg() * self.seg() + self.seg()
        } else {
            iterated
        };
        match snapshot_stable {
            Some(snap) if stable < snap => Err(damage(
                "db",
                format!(
                    "the log can be read to position {stable} only, but the snapshot says it \
                     was whole to position {snap}: sled would cut the log there and zero \
                     everything after it"
                ),
            )),
            _ => Ok(()),
        }
    }

    /// sled's `raw_segment_iter_from`: the segment headers, the end of the contiguous tail,
    /// and the iterator of the second (last) stage.
    fn segment_iter_from(&self, lsn: Lsn) -> Result<Iter, Damage> {
        let normalized = lsn / self.seg() * self.seg();
        let segments = self.len / self.segment_size
            + u64::from(self.len % self.segment_size >= SEG_HEADER_LEN);
        let mut ordering = BTreeMap::new();
        let mut max_header_stable = normalized;
        for idx in 0..segments {
            let lid = idx * self.segment_size;
            let Some(header) = self.segment_header(lid) else {
                continue;
            };
            if !(header.ok && header.lsn >= normalized) {
                continue;
            }
            if header.lsn == Lsn::MAX {
                return Err(damage(
                    "db",
                    format!("segment at byte {lid} has an impossible header"),
                ));
            }
            max_header_stable = max_header_stable.max(header.max_stable_lsn);
            if let Some(old) = ordering.insert(header.lsn, lid) {
                // sled asserts here (a panic).
                return Err(damage(
                    "db",
                    format!(
                        "the segments at bytes {old} and {lid} claim the same log position {}",
                        header.lsn
                    ),
                ));
            }
        }
        // `check_contiguity_in_unstable_tail`.
        let lowest = (max_header_stable / self.seg() * self.seg()).max(0);
        let mut expected = lowest;
        let mut missing = None;
        let mut tail = BTreeMap::new();
        for (&l, &lid) in ordering.range(lowest..) {
            if l != expected {
                missing = Some(expected);
                break;
            }
            tail.insert(l, lid);
            expected += self.seg();
        }
        let mut first = Iter {
            segments: tail,
            segment: None,
            max_lsn: missing,
            cur_lsn: None,
            last_stage: false,
        };
        while self.next(&mut first)?.is_some() {}
        let end_of_last_message = first.cur_lsn.unwrap_or(0) - 1;
        Ok(Iter {
            segments: ordering
                .into_iter()
                .filter(|&(l, _)| l >= normalized)
                .collect(),
            segment: None,
            max_lsn: Some(end_of_last_message),
            cur_lsn: None,
            last_stage: true,
        })
    }

    /// sled's `read_segment_header`; `None` when the file ends before the header does.
    fn segment_header(&self, lid: u64) -> Option<SegmentHeader> {
        let mut buf = [0u8; SEG_HEADER_LEN as usize];
        read_exact_at(self.file, &mut buf, lid).ok()?;
        let crc_stored = u32::from_le_bytes(buf[0..4].try_into().expect("4")) ^ 0xFFFF_FFFF;
        let lsn = i64::from_le_bytes(buf[4..12].try_into().expect("8")) ^ 0x7FFF_FFFF_FFFF_FFFF;
        let max_stable_lsn =
            i64::from_le_bytes(buf[12..20].try_into().expect("8")) ^ 0x7FFF_FFFF_FFFF_FFFF;
        Some(SegmentHeader {
            lsn,
            max_stable_lsn,
            ok: crc32fast::hash(&buf[4..20]) == crc_stored,
        })
    }

    /// sled's `LogIter::next`: the log position of the next page message, `None` at the end.
    fn next(&self, iter: &mut Iter) -> Result<Option<Lsn>, Damage> {
        loop {
            let cur = iter.cur_lsn.unwrap_or(0);
            if cur < 0 {
                return Err(damage(
                    "db",
                    "the log's reading reached a negative position",
                ));
            }
            if !self.valid_entry_offset(cur as u64) {
                iter.segment = None;
            }
            if iter.segment.is_none() && !self.read_segment(iter)? {
                return Ok(None);
            }
            let lsn = iter.cur_lsn.expect("set by read_segment");
            if let Some(max) = iter.max_lsn {
                if lsn > max {
                    return Ok(None);
                }
            }
            let segment = iter.segment.as_ref().expect("read above");
            let lid = segment.offset + (lsn % self.seg()) as u64;
            let expected_segment_number = lsn as u64 / self.segment_size;
            match self.read_message(segment, lid, expected_segment_number)? {
                Message::Page { len } => {
                    iter.cur_lsn = Some(lsn + len as Lsn);
                    return Ok(Some(lsn));
                }
                Message::BatchManifest { last, len } => {
                    if iter.max_lsn.is_some_and(|max| last > max) {
                        return Ok(None);
                    }
                    iter.cur_lsn = Some(lsn + len as Lsn);
                }
                Message::Skip { len } => iter.cur_lsn = Some(lsn + len as Lsn),
                Message::Corrupted if !iter.last_stage => return Ok(None),
                Message::Corrupted | Message::Cap => iter.segment = None,
                Message::Unreadable => return Ok(None),
            }
        }
    }

    fn valid_entry_offset(&self, lid: u64) -> bool {
        let start = lid / self.segment_size * self.segment_size;
        lid >= start + SEG_HEADER_LEN && lid <= start + self.segment_size - MAX_MSG_HEADER_LEN
    }

    /// sled's `LogIter::read_segment`: `false` when there is no next segment to read.
    fn read_segment(&self, iter: &mut Iter) -> Result<bool, Damage> {
        let Some((&lsn, &offset)) = iter.segments.iter().next() else {
            return Ok(false);
        };
        if iter.max_lsn.is_some_and(|max| lsn > max) {
            return Ok(false);
        }
        if lsn + self.seg() < iter.cur_lsn.unwrap_or(0) {
            // sled asserts here (a panic).
            return Err(damage(
                "db",
                format!("the segment for log position {lsn} lies behind the log's reading"),
            ));
        }
        let Some(header) = self.segment_header(offset) else {
            return Ok(false);
        };
        if offset % self.segment_size != 0 || header.lsn % self.seg() != 0 || header.lsn != lsn {
            return Ok(false);
        }
        let mut bytes = vec![0u8; self.segment_size as usize];
        let n = read_at_most(self.file, &mut bytes, offset).map_err(|e| {
            damage(
                "db",
                format!("the segment at byte {offset} cannot be read: {e}"),
            )
        })?;
        bytes.truncate(n);
        iter.cur_lsn = Some(header.lsn + SEG_HEADER_LEN as Lsn);
        iter.segment = Some(Segment { offset, bytes });
        iter.segments.remove(&lsn);
        Ok(true)
    }

    /// sled's `read_message` on a segment in memory.
    fn read_message(
        &self,
        segment: &Segment,
        lid: u64,
        expected_segment_number: u64,
    ) -> Result<Message, Damage> {
        let start = lid - segment.offset;
        if start as usize > segment.bytes.len() {
            return Ok(Message::Unreadable);
        }
        let mut header_bytes = [0u8; 128];
        let have = &segment.bytes[start as usize..];
        let n = have.len().min(128);
        header_bytes[..n].copy_from_slice(&have[..n]);
        let mut cursor = &header_bytes[..];
        let Some(header) = MessageHeader::parse(&mut cursor) else {
            return Ok(Message::Unreadable);
        };
        let header_len = 128 - cursor.len();
        let seg_start = lid / self.segment_size * self.segment_size;
        let ceiling = seg_start + self.segment_size;
        let max_possible = ceiling - lid - header_len as u64;
        if header.len > max_possible || header.kind == KIND_CORRUPTED || header.kind > KIND_MAX {
            return Ok(Message::Corrupted);
        }
        // As sled does: a body that fits in the 128 bytes read for the header is taken from
        // them (zeros past the end of the file), a longer one is read from the segment.
        let body = if header.len as usize <= cursor.len() {
            &header_bytes[header_len..header_len + header.len as usize]
        } else {
            let body_start = start as usize + header_len;
            match segment
                .bytes
                .get(body_start..body_start + header.len as usize)
            {
                Some(body) => body,
                None => return Ok(Message::Unreadable),
            }
        };
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(body);
        hasher.update(&header_bytes[4..header_len]);
        if hasher.finalize() ^ 0xFFFF_FFFF != header.crc32 {
            return Ok(Message::Corrupted);
        }
        let len = header_len as u64 + header.len;
        if header.segment_number != expected_segment_number {
            return Ok(Message::Corrupted);
        }
        Ok(match header.kind {
            KIND_CANCELED => Message::Skip { len },
            KIND_CAP => Message::Cap,
            KIND_BATCH_MANIFEST => {
                let Ok(last) = <[u8; 8]>::try_from(body) else {
                    // sled asserts here (a panic).
                    return Err(damage(
                        "db",
                        format!("a batch manifest at byte {lid} is not 8 bytes long"),
                    ));
                };
                Message::BatchManifest {
                    last: i64::from_le_bytes(last),
                    len,
                }
            }
            KIND_BLOB_META | KIND_BLOB_NODE | KIND_BLOB_LINK => {
                let Ok(id) = <[u8; 8]>::try_from(body) else {
                    // sled panics here (`try_into().unwrap()`).
                    return Err(damage(
                        "db",
                        format!("a blob pointer at byte {lid} is not 8 bytes long"),
                    ));
                };
                match self.read_blob(i64::from_le_bytes(id), header.kind)? {
                    Blob::Present => Message::Page { len },
                    Blob::Missing => Message::Skip { len },
                    Blob::Unreadable => Message::Unreadable,
                }
            }
            _ => Message::Page { len },
        })
    }

    /// sled's `read_blob`: `blobs/<id>` is a CRC-32, the message kind, the bytes.
    fn read_blob(&self, id: Lsn, kind: u8) -> Result<Blob, Damage> {
        let name = format!("blobs/{id}");
        let path = self.dir.join("blobs").join(id.to_string());
        let file = match open_regular(&path) {
            Ok(Some(f)) => f,
            Ok(None) => return Ok(Blob::Missing),
            Err(_) => return Ok(Blob::Unreadable),
        };
        let mut bytes = Vec::new();
        if file.take(u64::MAX).read_to_end(&mut bytes).is_err() || bytes.len() < 5 {
            return Ok(Blob::Unreadable);
        }
        let crc = u32::from_le_bytes(bytes[..4].try_into().expect("4"));
        if crc32fast::hash(&bytes[4..]) != crc {
            return Ok(Blob::Unreadable);
        }
        if bytes[4] != kind {
            // sled asserts here (a panic).
            return Err(damage(
                &name,
                "another kind of message than its pointer says",
            ));
        }
        Ok(Blob::Present)
    }
}

enum Blob {
    Present,
    Missing,
    Unreadable,
}

struct SegmentHeader {
    lsn: Lsn,
    max_stable_lsn: Lsn,
    ok: bool,
}

const KIND_CORRUPTED: u8 = 0;
const KIND_CANCELED: u8 = 1;
const KIND_CAP: u8 = 2;
const KIND_BATCH_MANIFEST: u8 = 3;
const KIND_BLOB_META: u8 = 7;
const KIND_BLOB_NODE: u8 = 9;
const KIND_BLOB_LINK: u8 = 11;
const KIND_MAX: u8 = 11;

/// sled's `MessageHeader`: crc32 (4 bytes), kind (1), then len, segment number and page id as
/// sled's variable-length integers.
struct MessageHeader {
    crc32: u32,
    kind: u8,
    len: u64,
    segment_number: u64,
}

impl MessageHeader {
    fn parse(buf: &mut &[u8]) -> Option<MessageHeader> {
        let crc32 = u32::from_le_bytes(take(buf, 4)?.try_into().ok()?);
        let kind = take(buf, 1)?[0];
        let len = varint(buf)?;
        let segment_number = varint(buf)?;
        let _page = varint(buf)?;
        Some(MessageHeader {
            crc32,
            kind,
            len,
            segment_number,
        })
    }
}

fn take<'a>(buf: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if buf.len() < n {
        return None;
    }
    let (head, rest) = buf.split_at(n);
    *buf = rest;
    Some(head)
}

/// sled's variable-length `u64` (`serialization.rs`).
fn varint(buf: &mut &[u8]) -> Option<u64> {
    let first = *buf.first()?;
    let (value, used) = match first {
        0..=240 => (u64::from(first), 1),
        241..=248 => (
            240 + 256 * (u64::from(first) - 241) + u64::from(*buf.get(1)?),
            2,
        ),
        249 => (
            2288 + 256 * u64::from(*buf.get(1)?) + u64::from(*buf.get(2)?),
            3,
        ),
        other => {
            let n = usize::from(other) - 247;
            let mut le = [0u8; 8];
            le[..n].copy_from_slice(buf.get(1..=n)?);
            (u64::from_le_bytes(le), n + 1)
        }
    };
    *buf = &buf[used..];
    Some(value)
}

fn read_exact_at(file: &fs::File, buf: &mut [u8], at: u64) -> io::Result<()> {
    let n = read_at_most(file, buf, at)?;
    if n < buf.len() {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(())
}

/// Reads into `buf` from byte `at` until it is full or the file ends; the count read.
fn read_at_most(file: &fs::File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match read_at(file, &mut buf[n..], at + n as u64) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(unix)]
fn read_at(file: &fs::File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, at)
}

#[cfg(windows)]
fn read_at(file: &fs::File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_read_as_sled_writes_them() {
        // sled's encoding, by its thresholds: 240, 2287, 67823, then little-endian lengths.
        let cases: [(&[u8], u64); 5] = [
            (&[7], 7),
            (&[241, 10], 250),
            (&[249, 1, 2], 2288 + 256 + 2),
            (&[250, 1, 2, 3], 0x0003_0201),
            (&[255, 1, 0, 0, 0, 0, 0, 0, 1], 0x0100_0000_0000_0001),
        ];
        for (bytes, want) in cases {
            let mut b = bytes;
            assert_eq!(varint(&mut b), Some(want), "{bytes:?}");
            assert!(b.is_empty());
        }
        let mut short: &[u8] = &[249, 1];
        assert_eq!(varint(&mut short), None);
    }
}
