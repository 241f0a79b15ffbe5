//! Annotations: a comment and a glyph (`!! ! !? ?! ? ??`) on an event, kept beside the game:
//! for a log file, in a JSON Lines file next to it (`<log>.annotations.jsonl`); for a game in
//! the store, as records appended to the game's annotation stream (see [`crate::library`]).
//! The game's own events are never written.
//!
//! One record per line: `{"game":"…","seq":N,"glyph":"?!","text":"…"}` (`glyph` may be
//! `null`). Records are keyed by (game, seq); when a key appears twice the later record wins,
//! and a record with no glyph and no text removes the annotation. Saving a file rewrites it:
//! records of other games and lines this version cannot read are kept as they were, so
//! nothing a user wrote is lost.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use carc_events::annotation::apply_record;
pub use carc_events::annotation::{annotations_path, parse_annotation, Annotation, Glyph};

/// Where a game's annotations are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnnotationHome {
    /// A JSON Lines file beside the log, rewritten on [`AnnotationStore::save`].
    File(PathBuf),
    /// Records appended to a game library (the store); `location` names it in messages. The
    /// caller appends the record that [`AnnotationStore::set`] returns.
    Library { location: String },
}

impl Default for AnnotationHome {
    fn default() -> Self {
        AnnotationHome::File(PathBuf::new())
    }
}

/// The annotations of one game, and the rest of its file kept for rewriting.
#[derive(Clone, Debug, Default)]
pub struct AnnotationStore {
    home: AnnotationHome,
    game: String,
    items: BTreeMap<u64, Annotation>,
    /// Lines kept verbatim: other games' records and lines that do not parse.
    others: Vec<String>,
    /// Problems found while loading (line number and message), for the status bar.
    pub warnings: Vec<String>,
    /// Events whose annotation a record of the file removed.
    removed: std::collections::BTreeSet<u64>,
    /// Events annotated in the bundle the game was opened from: removing one writes a
    /// record that says so, or the bundle's would show again.
    bundled: std::collections::BTreeSet<u64>,
}

impl AnnotationStore {
    /// An empty store (no file read).
    pub fn empty(path: PathBuf, game: &str) -> AnnotationStore {
        AnnotationStore::empty_in(AnnotationHome::File(path), game)
    }

    fn empty_in(home: AnnotationHome, game: &str) -> AnnotationStore {
        AnnotationStore {
            home,
            game: game.to_string(),
            ..AnnotationStore::default()
        }
    }

    /// The annotations of a library game, from its records oldest first. A record that cannot
    /// be read is reported in `warnings` (by its number) and otherwise ignored; it stays in
    /// the library untouched.
    pub fn from_records(location: &str, game: &str, records: &[Vec<u8>]) -> AnnotationStore {
        let home = AnnotationHome::Library {
            location: location.to_string(),
        };
        let mut store = AnnotationStore::empty_in(home, game);
        for (i, record) in records.iter().enumerate() {
            match std::str::from_utf8(record) {
                Ok(text) => store.absorb(&format!("annotation record {}", i + 1), text.trim_end()),
                Err(_) => store.warnings.push(format!(
                    "{location}: annotation record {} of game {game} is not UTF-8; ignored",
                    i + 1
                )),
            }
        }
        store
    }

    /// Takes in one record (a line of the file or a library record); `at` names it in
    /// warnings. Other games' records and unreadable lines are kept for rewriting a file.
    fn absorb(&mut self, at: &str, line: &str) {
        match parse_annotation(line) {
            Ok(a) if a.game == self.game => {
                let seq = a.seq;
                // The events crate's rule; the viewer also keeps which events were cleared.
                if apply_record(&mut self.items, a) {
                    self.removed.insert(seq);
                } else {
                    self.removed.remove(&seq);
                }
            }
            Ok(_) => self.others.push(line.to_string()),
            Err(e) => {
                self.warnings.push(format!(
                    "{}: {at}: {e}; the line is kept but ignored",
                    self.location()
                ));
                self.others.push(line.to_string());
            }
        }
    }

    /// Reads `path` if it exists, after the annotations `first` (those of an exported
    /// bundle, which the file's records may replace or remove).
    pub fn load_after(
        path: PathBuf,
        game: &str,
        first: &[Annotation],
    ) -> io::Result<AnnotationStore> {
        let mut bundled = BTreeMap::new();
        for a in first.iter().filter(|a| a.game == game) {
            if a.is_empty() {
                bundled.remove(&a.seq);
            } else {
                bundled.insert(a.seq, a.clone());
            }
        }
        let mut store = AnnotationStore::load(path, game)?;
        // The file's records are later than the bundle's: keep the bundle's only where the
        // file says nothing about that event.
        for (seq, a) in &bundled {
            if !store.items.contains_key(seq) && !store.removed.contains(seq) {
                store.items.insert(*seq, a.clone());
            }
        }
        store.bundled = bundled.into_keys().collect();
        Ok(store)
    }

    /// Reads `path` if it exists; a missing file is an empty store. It is read as the CLI
    /// reads it (`carc_formats::read_side_file`: a regular file only, capped), so a FIFO or
    /// a device put there is refused instead of blocking or filling memory.
    pub fn load(path: PathBuf, game: &str) -> io::Result<AnnotationStore> {
        let text = match carc_formats::read_side_file(&path) {
            Ok(Some(bytes)) => String::from_utf8(bytes).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: not UTF-8 text", path.display()),
                )
            })?,
            Ok(None) => String::new(),
            Err(e) => return Err(io::Error::other(e.reason())),
        };
        let mut store = AnnotationStore::empty(path, game);
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            store.absorb(&format!("line {}", i + 1), line);
        }
        Ok(store)
    }

    pub fn home(&self) -> &AnnotationHome {
        &self.home
    }

    /// Where the annotations are kept, in words: the file's path or the library's location.
    pub fn location(&self) -> String {
        match &self.home {
            AnnotationHome::File(path) => path.display().to_string(),
            AnnotationHome::Library { location } => location.clone(),
        }
    }

    /// The annotation file, for a game opened from a file.
    pub fn path(&self) -> Option<&Path> {
        match &self.home {
            AnnotationHome::File(path) => Some(path),
            AnnotationHome::Library { .. } => None,
        }
    }

    pub fn get(&self, seq: u64) -> Option<&Annotation> {
        self.items.get(&seq)
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Annotation> {
        self.items.values()
    }

    /// Sets (or, when glyph and text are both empty, removes) the annotation of event `seq`.
    /// Returns the record that says so, for a library to append.
    pub fn set(&mut self, seq: u64, glyph: Option<Glyph>, text: &str) -> Annotation {
        let a = Annotation {
            game: self.game.clone(),
            seq,
            glyph,
            text: text.trim_end().to_string(),
        };
        if a.is_empty() {
            self.items.remove(&seq);
        } else {
            self.items.insert(seq, a.clone());
        }
        a
    }

    /// The file's content: kept lines first, then this game's records by seq.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        for line in &self.others {
            out.push_str(line);
            out.push('\n');
        }
        for a in self.items.values() {
            out.push_str(&a.to_json());
            out.push('\n');
        }
        for seq in self.bundled.iter().filter(|s| !self.items.contains_key(s)) {
            let removal = Annotation {
                game: self.game.clone(),
                seq: *seq,
                glyph: None,
                text: String::new(),
            };
            out.push_str(&removal.to_json());
            out.push('\n');
        }
        out
    }

    /// Writes the file (through a temporary file and a rename). With nothing to keep, an
    /// existing file is removed rather than left empty. A library's annotations are not
    /// saved here (the caller appends the record [`AnnotationStore::set`] returned).
    pub fn save(&self) -> io::Result<()> {
        let AnnotationHome::File(path) = &self.home else {
            return Err(io::Error::other(
                "annotations of a library game are appended to the library, not saved to a file",
            ));
        };
        if self.items.is_empty() && self.others.is_empty() && self.bundled.is_empty() {
            return match fs::remove_file(path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            };
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        fs::write(&tmp, self.to_jsonl())?;
        fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_shape() {
        let mut s = AnnotationStore::empty(PathBuf::from("x"), "g1");
        s.set(12, Some(Glyph::Dubious), "why not the city?");
        assert_eq!(
            s.to_jsonl(),
            "{\"game\":\"g1\",\"seq\":12,\"glyph\":\"?!\",\"text\":\"why not the city?\"}\n"
        );
    }

    #[test]
    fn save_load_round_trip_keeps_other_games_and_bad_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.jsonl.annotations.jsonl");
        fs::write(
            &path,
            "{\"game\":\"other\",\"seq\":1,\"glyph\":\"!\",\"text\":\"keep me\"}\n\
             not json\n\
             {\"game\":\"g1\",\"seq\":3,\"glyph\":null,\"text\":\"old\"}\n\
             {\"game\":\"g1\",\"seq\":3,\"glyph\":\"??\",\"text\":\"newer wins\"}\n",
        )
        .unwrap();
        let mut s = AnnotationStore::load(path.clone(), "g1").unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s.get(3).unwrap().glyph, Some(Glyph::Blunder));
        assert_eq!(s.get(3).unwrap().text, "newer wins");
        assert_eq!(s.warnings.len(), 1);
        assert!(s.warnings[0].contains("line 2"), "{:?}", s.warnings);

        s.set(5, Some(Glyph::Brilliant), "great tile");
        s.set(3, None, "");
        s.save().unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains("keep me"));
        assert!(text.contains("not json"));
        assert!(!text.contains("newer wins"), "removed annotation is gone");
        let again = AnnotationStore::load(path, "g1").unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(again.get(5).unwrap().text, "great tile");
    }

    #[test]
    fn library_records_fold_later_wins_and_empty_removes() {
        // Given three records for g1 (the second replaces the first) and one removal
        let records: Vec<Vec<u8>> = [
            r#"{"game":"g1","seq":3,"glyph":"?","text":"first"}"#,
            r#"{"game":"g1","seq":3,"glyph":"??","text":"second"}"#,
            r#"{"game":"g1","seq":4,"glyph":"!","text":"gone"}"#,
            r#"{"game":"g1","seq":4,"glyph":null,"text":""}"#,
            "garbage",
        ]
        .iter()
        .map(|r| r.as_bytes().to_vec())
        .collect();
        // When they are read as a library game's annotations
        let mut s = AnnotationStore::from_records("store ./s", "g1", &records);
        // Then event 3 has the later record, event 4 none, and the bad record is reported
        assert_eq!(s.len(), 1);
        assert_eq!(s.get(3).unwrap().text, "second");
        assert_eq!(s.warnings.len(), 1);
        assert!(
            s.warnings[0].contains("annotation record 5"),
            "{:?}",
            s.warnings
        );
        assert_eq!(s.location(), "store ./s");
        assert!(s.path().is_none());
        // And setting returns the record to append; a library store is not saved to a file
        let r = s.set(3, None, "");
        assert_eq!(
            r.to_json(),
            r#"{"game":"g1","seq":3,"glyph":null,"text":""}"#
        );
        assert!(s.is_empty());
        assert!(s.save().is_err());
    }

    #[test]
    fn missing_file_is_empty_and_emptied_store_removes_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.jsonl.annotations.jsonl");
        let mut s = AnnotationStore::load(path.clone(), "g").unwrap();
        assert!(s.is_empty());
        s.set(1, None, "a comment without a glyph");
        s.save().unwrap();
        assert!(path.exists());
        s.set(1, None, "   ");
        assert!(s.is_empty());
        s.save().unwrap();
        assert!(!path.exists());
    }
}
