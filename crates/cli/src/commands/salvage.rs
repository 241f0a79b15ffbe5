//! `carc salvage STORE --out DIR`: every game, annotation and variation that can still be
//! read from a damaged store, written as bundles (the game's lines, then its annotation and
//! variation records), with a report of what could not be read.
//!
//! The damaged store is only ever read: sled is opened on a copy of its files (opening may
//! write), and the original files are scanned raw for the values the store writes
//! (`carc_store::salvage`), which finds the sealed games even when sled cannot open the store
//! at all. For each stream the longer of the two readings is kept.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use carc_archive::{Companion, StoredGame};
use carc_store::salvage::scan_raw;
use carc_store::Store;
use clap::Args;
use serde_json::json;

use crate::store_context::Ctx;

#[derive(Args)]
pub struct SalvageArgs {
    /// The damaged store folder (never written to).
    #[arg(value_name = "STORE")]
    store: PathBuf,
    /// Folder for the bundles, one `<game>.jsonl` per game (created; existing files are never
    /// overwritten).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// One JSON object on stdout instead of text.
    #[arg(long)]
    json: bool,
}

/// A stream as read back: its payloads in seq order, and whether it was sealed.
struct Found {
    payloads: Vec<Vec<u8>>,
    sealed: bool,
}

pub fn salvage(ctx: &Ctx, args: SalvageArgs) -> Result<ExitCode> {
    if !args.store.is_dir() {
        bail!("{} is not a store folder", args.store.display());
    }
    let store = fs::canonicalize(&args.store)
        .with_context(|| format!("cannot read {}", args.store.display()))?;
    fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let out = fs::canonicalize(&args.out)?;
    if out.starts_with(&store) {
        bail!(
            "--out {} is inside the damaged store {}; choose a folder outside it",
            args.out.display(),
            args.store.display()
        );
    }
    let mut problems: Vec<String> = Vec::new();

    // 1. sled, on a copy.
    let copy = out.join(format!(".salvage-copy-{}", std::process::id()));
    let mut streams: BTreeMap<String, Found> = BTreeMap::new();
    let mut listed: Vec<String> = Vec::new();
    match copy_store(&store, &copy) {
        Ok(()) => match quietly(|| read_with_sled(&copy)) {
            Ok(Ok((found, ids, errors))) => {
                streams = found;
                listed = ids;
                problems.extend(errors);
            }
            Ok(Err(e)) => problems.push(format!(
                "sled cannot open the store ({e:#}); reading its files directly"
            )),
            Err(panicked) => problems.push(format!(
                "sled failed on the store ({panicked}); reading its files directly"
            )),
        },
        Err(e) => problems.push(format!("cannot copy the store to read it with sled: {e:#}")),
    }
    let _ = fs::remove_dir_all(&copy);

    // 2. The raw files.
    let raw = scan_raw(&store, &json_payload_len);
    for (path, why) in &raw.unreadable {
        problems.push(format!("cannot read {}: {why}", path.display()));
    }
    for (stream, found) in raw.streams {
        let better = streams
            .get(&stream)
            .is_none_or(|known| found.events.len() > known.payloads.len());
        if found.damaged {
            problems.push(format!(
                "stream {stream}: its record fails its checksum; written as found, some bytes are damaged"
            ));
        }
        if found.dropped > 0 {
            problems.push(format!(
                "stream {stream}: {} events found beyond a missing one, left out",
                found.dropped
            ));
        }
        if better {
            streams.insert(
                stream,
                Found {
                    payloads: found.events.into_iter().map(|e| e.payload).collect(),
                    sealed: found.sealed,
                },
            );
        }
    }
    for id in &listed {
        if !streams.contains_key(id) {
            problems.push(format!(
                "stream {id}: listed by the store, nothing readable"
            ));
        }
    }

    // 3. Bundles.
    let mut written: Vec<serde_json::Value> = Vec::new();
    let games: Vec<&String> = streams
        .keys()
        .filter(|s| Companion::of_stream(s).is_none())
        .collect();
    for game in &games {
        let found = &streams[*game];
        let sg = StoredGame::from_events(
            game,
            found
                .payloads
                .iter()
                .enumerate()
                .map(|(i, p)| (i as u64 + 1, p.clone())),
            found.sealed,
        );
        let mut bytes = match sg.effective_bytes() {
            Ok(bytes) => bytes,
            Err(e) => {
                problems.push(format!(
                    "game {game}: its retractions cannot be applied ({e:#}); written as stored"
                ));
                sg.raw_bytes()
            }
        };
        let players = match carc_events::read_log(&bytes) {
            Ok(log) => Some(log.header.players.len()),
            Err(e) => {
                problems.push(format!(
                    "game {game}: written, but it does not decode (line {}: {})",
                    e.line, e.kind
                ));
                None
            }
        };
        // A stored record is the sidecar form (no `"type"`); the bundle needs the typed line
        // that `export` writes, so that `import` reads what salvage wrote. Every record is
        // written, oldest first, so later-record-wins gives what the store held.
        let mut records = 0;
        let mut unreadable: Vec<(Companion, &[u8])> = Vec::new();
        for kind in Companion::ALL {
            if let Some(c) = streams.get(&kind.stream(game)) {
                for p in &c.payloads {
                    match bundle_line(kind, game, p, players) {
                        Some(line) => {
                            if bytes.last().is_some_and(|&b| b != b'\n') {
                                bytes.push(b'\n');
                            }
                            bytes.extend_from_slice(line.as_bytes());
                            records += 1;
                        }
                        None => unreadable.push((kind, p)),
                    }
                }
            }
        }
        if bytes.last().is_some_and(|&b| b != b'\n') {
            bytes.push(b'\n');
        }
        for kind in Companion::ALL {
            let raw: Vec<u8> = unreadable
                .iter()
                .filter(|(k, _)| *k == kind)
                .flat_map(|(_, p)| {
                    let mut line = p.to_vec();
                    if line.last() != Some(&b'\n') {
                        line.push(b'\n');
                    }
                    line
                })
                .collect();
            if raw.is_empty() {
                continue;
            }
            let path = write_new(&out, game, &format!("{}.jsonl", kind.what()), &raw)?;
            problems.push(format!(
                "game {game}: some of its {} cannot be read as records; written as found to {}",
                kind.what(),
                path.display()
            ));
        }
        let path = write_new(&out, game, "jsonl", &bytes)?;
        written.push(json!({"game": game, "file": path.display().to_string(),
            "lines": found.payloads.len(), "sealed": found.sealed, "records": records}));
    }
    for (stream, found) in &streams {
        let Some(kind) = Companion::of_stream(stream) else {
            continue;
        };
        let game = &stream[kind.prefix().len()..];
        if streams.contains_key(game) {
            continue;
        }
        let mut bytes = Vec::new();
        for p in &found.payloads {
            bytes.extend_from_slice(p);
            if bytes.last() != Some(&b'\n') {
                bytes.push(b'\n');
            }
        }
        let path = write_new(&out, game, &format!("{}.jsonl", kind.what()), &bytes)?;
        problems.push(format!(
            "game {game}: not readable, but its {} are: written to {}",
            kind.what(),
            path.display()
        ));
    }

    if args.json {
        println!(
            "{}",
            json!({"store": args.store.display().to_string(), "out": args.out.display().to_string(),
                   "games": written, "problems": problems})
        );
    } else {
        println!(
            "salvaged {} games from {} to {}",
            written.len(),
            args.store.display(),
            args.out.display()
        );
        for p in &problems {
            println!("not recovered or damaged: {p}");
        }
    }
    if problems.is_empty() {
        ctx.debug("every stream was read whole");
    }
    Ok(crate::exit_code::exit_if(problems.is_empty()))
}

/// The length of the JSON value at the start of `bytes`, with the `\n` after it if there is
/// one: the extent of a stored line or record (log lines keep their `\n`, records do not).
fn json_payload_len(bytes: &[u8]) -> Option<usize> {
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<serde_json::Value>();
    values.next()?.ok()?;
    let end = values.byte_offset();
    Some(if bytes.get(end) == Some(&b'\n') {
        end + 1
    } else {
        end
    })
}

/// Copies the store's files (the folder and its `blobs`) to `to`.
fn copy_store(from: &Path, to: &Path) -> Result<()> {
    for (src, dst) in [
        (from.to_path_buf(), to.to_path_buf()),
        (from.join("blobs"), to.join("blobs")),
    ] {
        let Ok(entries) = fs::read_dir(&src) else {
            continue;
        };
        fs::create_dir_all(&dst)?;
        for entry in entries {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                fs::copy(entry.path(), dst.join(entry.file_name()))?;
            }
        }
    }
    Ok(())
}

type SledReading = (BTreeMap<String, Found>, Vec<String>, Vec<String>);

/// Every stream sled can read, the ids it lists, and what it cannot read.
fn read_with_sled(dir: &Path) -> Result<SledReading> {
    let store = Store::open(dir)?;
    let ids = store.streams()?;
    let mut found = BTreeMap::new();
    let mut problems = Vec::new();
    for id in &ids {
        match store.read_stream(id, 1) {
            Ok(events) if !events.is_empty() => {
                let sealed = store.is_sealed(id).unwrap_or(false);
                found.insert(
                    id.clone(),
                    Found {
                        payloads: events.into_iter().map(|e| e.payload).collect(),
                        sealed,
                    },
                );
            }
            Ok(_) => {}
            Err(e) => problems.push(format!("stream {id}: sled cannot read it ({e})")),
        }
    }
    Ok((found, ids, problems))
}

/// A stored annotation or variation record of `game` as the bundle line `export` writes for
/// it (`"type"` first); `None` when it cannot be read as such a record (damaged bytes, another
/// game's record, or a variation of a game whose log does not decode, so that its number of
/// players is unknown).
fn bundle_line(
    kind: Companion,
    game: &str,
    payload: &[u8],
    players: Option<usize>,
) -> Option<String> {
    let text = std::str::from_utf8(payload).ok()?.trim_end();
    match kind {
        Companion::Annotations => {
            let a = carc_events::annotation::parse_annotation(text).ok()?;
            (a.game == game).then(|| carc_events::write_annotation_line(&a))
        }
        Companion::Variations => {
            let r = carc_events::variation::parse_variation(text, players?).ok()?;
            (r.game() == game).then(|| carc_events::write_variation_line(&r))
        }
    }
}

/// Runs `f`, turning a panic (sled may panic on a damaged store) into an error message, with
/// the panic's own report kept off stderr.
fn quietly<T>(f: impl FnOnce() -> T) -> std::result::Result<T, String> {
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(hook);
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into())
    })
}

/// Writes `bytes` to a new file in `dir` named after `game` (characters other than letters,
/// digits, `-` and `_` become `_`; a name taken already gets `-2`, `-3`, …). Game ids
/// come from a damaged store: they never choose where the file goes.
fn write_new(dir: &Path, game: &str, ext: &str, bytes: &[u8]) -> Result<PathBuf> {
    let safe: String = game
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut n = 1u32;
    loop {
        let name = if n == 1 {
            format!("{safe}.{ext}")
        } else {
            format!("{safe}-{n}.{ext}")
        };
        let path = dir.join(name);
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut f) => {
                if let Err(e) = f.write_all(bytes) {
                    // No half bundle left that looks whole (a full disk)
                    let _ = fs::remove_file(&path);
                    return Err(e).with_context(|| format!("cannot write {}", path.display()));
                }
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => return Err(e).with_context(|| format!("cannot write {}", path.display())),
        }
    }
}
