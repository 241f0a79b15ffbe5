//! A game together with what is written about it: its annotations and its what-if variations.
//!
//! Where they live depends on where the game lives:
//! - a log file: `<log>.annotations.jsonl` and `<log>.variations.jsonl` beside it, and, if the
//!   file is an exported bundle, its own annotation and variation lines first;
//! - a stored game: the streams `@annotations/<game>` and `@variations/<game>`.
//!
//! New records are always appended to the sidecar file or the stream, never to the game.

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use carc_archive::{append_record, read_game, read_records, Companion};
use carc_events::annotation::{annotations_path, in_force, Annotation};
use carc_events::variation::{variations_in_force, variations_path, Variation, VariationRecord};
use carc_events::{write_annotation_line, write_variation_line, Log};
use carc_store::Store;

use crate::input::load_log;
use crate::store_context::{Ctx, ReadStore};

/// Where a game and its records live.
pub enum Home {
    /// A log file (or `.jcz` game) and its sidecar files.
    File(PathBuf),
    /// A game in the store.
    Store { store: ReadStore, game: String },
}

/// A game (its events only) with its annotation and variation records, oldest first.
pub struct Annotated {
    pub log: Log,
    pub home: Home,
    annotation_records: Vec<String>,
    variation_records: Vec<String>,
}

impl Annotated {
    /// `game` is a file if such a file exists, else a stored game id.
    pub fn open(ctx: &Ctx, game: &str) -> Result<Annotated> {
        let file = Path::new(game);
        if crate::input::names_a_file(file) {
            let log = load_log(file)?;
            let mut annotation_records: Vec<String> =
                log.annotations.iter().map(|(_, a)| a.to_json()).collect();
            let mut variation_records: Vec<String> =
                log.variations.iter().map(|(_, v)| v.to_json()).collect();
            annotation_records.extend(read_lines(&annotations_path(file))?);
            variation_records.extend(read_lines(&variations_path(file))?);
            return Ok(Annotated {
                log: log.without_companions(),
                home: Home::File(file.to_path_buf()),
                annotation_records,
                variation_records,
            });
        }
        let store = ctx.open_for_stored_game(game)?;
        let stored = read_game(&store, game)?.ok_or_else(|| ctx.no_game(game))?;
        let log = stored.effective_log()?;
        let text = |records: Vec<Vec<u8>>| -> Vec<String> {
            records
                .iter()
                .map(|r| String::from_utf8_lossy(r).trim_end().to_string())
                .collect()
        };
        let annotation_records = text(read_records(&store, Companion::Annotations, game)?);
        let variation_records = text(read_records(&store, Companion::Variations, game)?);
        Ok(Annotated {
            log,
            home: Home::Store {
                store,
                game: game.to_string(),
            },
            annotation_records,
            variation_records,
        })
    }

    /// Where records of this kind are written, in words.
    pub fn place(&self, kind: Companion) -> String {
        match &self.home {
            Home::File(file) => match kind {
                Companion::Annotations => annotations_path(file),
                Companion::Variations => variations_path(file),
            }
            .display()
            .to_string(),
            Home::Store { game, .. } => format!("the {} of game {game} in the store", kind.what()),
        }
    }

    /// The annotations in force, by event. A record that cannot be read is named on stderr
    /// and left out, never dropped silently.
    pub fn annotations(&self, ctx: &Ctx) -> BTreeMap<u64, Annotation> {
        let (items, bad) = in_force(
            &self.log.header.game,
            self.annotation_records.iter().map(String::as_str),
        );
        self.report_bad(ctx, Companion::Annotations, &bad);
        items
    }

    /// The variations in force, by name (unreadable records as for annotations).
    pub fn variations(&self, ctx: &Ctx) -> BTreeMap<String, Variation> {
        let (items, bad) = variations_in_force(
            &self.log.header.game,
            self.log.header.players.len(),
            self.variation_records.iter().map(String::as_str),
        );
        self.report_bad(ctx, Companion::Variations, &bad);
        items
    }

    fn report_bad(&self, ctx: &Ctx, kind: Companion, bad: &[(usize, String)]) {
        for (n, why) in bad {
            ctx.info(format!(
                "{}: record {n} cannot be read and is left out: {why}",
                self.place(kind)
            ));
        }
    }

    /// Appends an annotation record; returns where it went, in words.
    pub fn append_annotation(&mut self, annotation: &Annotation) -> Result<String> {
        let record = annotation.to_json();
        self.append(Companion::Annotations, &record)?;
        self.annotation_records.push(record);
        Ok(self.place(Companion::Annotations))
    }

    /// Appends a variation record; returns where it went, in words.
    pub fn append_variation(&mut self, variation: &VariationRecord) -> Result<String> {
        let record = variation.to_json();
        self.append(Companion::Variations, &record)?;
        self.variation_records.push(record);
        Ok(self.place(Companion::Variations))
    }

    fn append(&self, kind: Companion, record: &str) -> Result<()> {
        match &self.home {
            Home::File(file) => {
                let sidecar = match kind {
                    Companion::Annotations => annotations_path(file),
                    Companion::Variations => variations_path(file),
                };
                append_line(&sidecar, record)
            }
            Home::Store { store, game } => {
                // A store read from a copy (read-only file system) takes no writes: they would
                // vanish with the copy.
                if let Some(why) = store.copied_because() {
                    bail!(
                        "the store {why}: the {} of game {game} cannot be written to it",
                        kind.what()
                    );
                }
                append_record(store, kind, game, record.as_bytes())?;
                Ok(())
            }
        }
    }
}

/// The lines of a sidecar file; none if it does not exist.
fn read_lines(path: &Path) -> Result<Vec<String>> {
    match fs::read_to_string(path) {
        Ok(text) => Ok(text.lines().map(str::to_string).collect()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The lines a bundle adds after the game: the annotations in force by event, then the
/// variations in force by name, each ending in `\n`.
pub fn bundle_tail(
    annotations: &BTreeMap<u64, Annotation>,
    variations: &BTreeMap<String, Variation>,
) -> String {
    let mut out = String::new();
    for a in annotations.values() {
        out.push_str(&write_annotation_line(a));
        out.push('\n');
    }
    for v in variations.values() {
        out.push_str(&write_variation_line(&VariationRecord::Set(v.clone())));
        out.push('\n');
    }
    out
}

/// Appends one line, starting a new line first if the file does not end with one (a file
/// edited by hand), so that the record is never glued to the previous one.
pub fn append_line(path: &Path, line: &str) -> Result<()> {
    let mut f = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let len = f.metadata()?.len();
    let mut out = String::new();
    if len > 0 {
        let mut last = [0u8; 1];
        f.seek(SeekFrom::End(-1))?;
        f.read_exact(&mut last)?;
        if last[0] != b'\n' {
            out.push('\n');
        }
    }
    out.push_str(line);
    out.push('\n');
    f.write_all(out.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The records of a bundle that an import appends: those that change what the store holds.
pub struct ImportPlan {
    game: String,
    records: Vec<(Companion, String)>,
}

impl ImportPlan {
    /// Appends the records; returns how many.
    pub fn apply(self, store: &Store) -> Result<usize> {
        for (kind, record) in &self.records {
            append_record(store, *kind, &self.game, record.as_bytes())?;
        }
        Ok(self.records.len())
    }
}

/// Works out which of a bundle's annotation and variation records to store beside its game,
/// and checks them: an annotation must be on one of the game's events, and every variation
/// the bundle sets must replay legally from the game (with the variations already stored).
/// Records that change nothing (already stored) are left out, so importing twice adds nothing;
/// nothing stored is ever removed except by a record that says so. `Err((line, why))` names
/// the bundle line that is refused.
pub fn plan_import(
    store: &Store,
    bundle: &Log,
    loaded: &[carc_rules::TileSet],
) -> Result<std::result::Result<ImportPlan, (usize, String)>> {
    let game = bundle.header.game.clone();
    let players = bundle.header.players.len();
    let text = |records: Vec<Vec<u8>>| -> Vec<String> {
        records
            .iter()
            .map(|r| String::from_utf8_lossy(r).trim_end().to_string())
            .collect()
    };
    let stored_annotations = text(read_records(store, Companion::Annotations, &game)?);
    let stored_variations = text(read_records(store, Companion::Variations, &game)?);
    let mut records = Vec::new();

    if let Some(problem) = annotation_off_the_game(bundle) {
        return Ok(Err(problem));
    }
    let (mut annotations, _) = in_force(&game, stored_annotations.iter().map(String::as_str));
    for (_, a) in &bundle.annotations {
        let changed = if a.is_empty() {
            annotations.remove(&a.seq).is_some()
        } else {
            annotations.insert(a.seq, a.clone()).as_ref() != Some(a)
        };
        if changed {
            records.push((Companion::Annotations, a.to_json()));
        }
    }

    let (mut variations, _) =
        variations_in_force(&game, players, stored_variations.iter().map(String::as_str));
    let mut set_on_line: BTreeMap<String, usize> = BTreeMap::new();
    for (line, record) in &bundle.variations {
        let changed = match record {
            VariationRecord::Set(v) => {
                set_on_line.insert(v.name.clone(), *line);
                variations.insert(v.name.clone(), v.clone()).as_ref() != Some(v)
            }
            VariationRecord::Deleted { name, .. } => {
                set_on_line.remove(name);
                variations.remove(name).is_some()
            }
        };
        if changed {
            records.push((Companion::Variations, record.to_json()));
        }
    }
    if let Some(problem) = illegal_variation(bundle, &variations, &set_on_line, loaded) {
        return Ok(Err(problem));
    }
    Ok(Ok(ImportPlan { game, records }))
}

/// A bundle's bytes without its annotation and variation lines: the game's own lines, as
/// they were.
pub fn game_lines(bytes: &[u8], bundle: &Log) -> Vec<u8> {
    let skip: std::collections::BTreeSet<usize> = bundle
        .annotations
        .iter()
        .map(|(l, _)| *l)
        .chain(bundle.variations.iter().map(|(l, _)| *l))
        .collect();
    carc_archive::split_lines(bytes)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !skip.contains(&(i + 1)))
        .flat_map(|(_, line)| line.iter().copied())
        .collect()
}

/// The first problem of a bundle's own records, as `(line, message)`: an annotation on an
/// event the game does not have, or a variation that does not replay legally.
pub fn bundle_problem(bundle: &Log, loaded: &[carc_rules::TileSet]) -> Option<(usize, String)> {
    if let Some(problem) = annotation_off_the_game(bundle) {
        return Some(problem);
    }
    let records = bundle.variations.iter().map(|(_, r)| r.clone());
    let variations = carc_events::variation::apply_records(&bundle.header.game, records);
    // Each variation is named by the last bundle line that set it.
    let mut set_on_line = BTreeMap::new();
    for (line, record) in &bundle.variations {
        set_on_line.insert(record.name().to_string(), *line);
    }
    set_on_line.retain(|name, _| variations.contains_key(name));
    illegal_variation(bundle, &variations, &set_on_line, loaded)
}

/// A bundle's first annotation on an event its game does not have, as `(line, message)`.
fn annotation_off_the_game(bundle: &Log) -> Option<(usize, String)> {
    let last = bundle.last_seq();
    bundle
        .annotations
        .iter()
        .find(|(_, a)| a.seq == 0 || a.seq > last)
        .map(|(line, a)| {
            (
                *line,
                format!(
                    "annotation of event {}, but game {} has events 1 to {last}",
                    a.seq, bundle.header.game
                ),
            )
        })
}

/// The first of the variations named (with the bundle line that set each) that does not
/// replay legally from the bundle's game, as `(line, message)`.
fn illegal_variation(
    bundle: &Log,
    variations: &BTreeMap<String, Variation>,
    set_on_line: &BTreeMap<String, usize>,
    loaded: &[carc_rules::TileSet],
) -> Option<(usize, String)> {
    let game_only = bundle.clone().without_companions();
    set_on_line.iter().find_map(|(name, line)| {
        match carc_replay::variation::fold_variation(&game_only, variations, name, loaded) {
            Err(e) => Some((*line, e.to_string())),
            Ok(replayed) => replayed.error().map(|why| (*line, why)),
        }
    })
}
