//! What-if variations of the open game, kept beside it and never inside its log: for a log
//! file in `<log>.variations.jsonl` (and, for an exported bundle, its own variation lines
//! first); for a game in the store, in its variation stream (see [`crate::library`]). The
//! record shape and its rules are `carc_events::variation`'s; `carc variation add` creates
//! them from a file of moves, the viewer steps through them, promotes and deletes them.
//!
//! Changes are appended records (a deletion is a record too), so nothing written is lost.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;

use carc_events::variation::{descendants, parse_variation, promote, Variation, VariationRecord};

/// Where a game's variations are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariationHome {
    /// A JSON Lines file beside the log; new records are appended to it.
    File(PathBuf),
    /// A game library (the store): the caller appends the records that changes return.
    Library { location: String },
    /// Nowhere: kept while the game is open (a puzzle's tries).
    Memory { location: String },
}

/// The variations in force for one game.
#[derive(Clone, Debug)]
pub struct VariationSet {
    home: VariationHome,
    game: String,
    players: usize,
    items: BTreeMap<String, Variation>,
    /// Records that could not be read, for the status bar.
    pub warnings: Vec<String>,
}

impl VariationSet {
    fn empty(home: VariationHome, game: &str, players: usize) -> VariationSet {
        VariationSet {
            home,
            game: game.to_string(),
            players,
            items: BTreeMap::new(),
            warnings: Vec::new(),
        }
    }

    /// The variations of a log file: the bundle's own records (`first`), then those of the
    /// file at `path` if it exists.
    pub fn load(
        path: PathBuf,
        game: &str,
        players: usize,
        first: &[VariationRecord],
    ) -> VariationSet {
        let mut set = VariationSet::empty(VariationHome::File(path.clone()), game, players);
        for record in first {
            set.apply(record.clone());
        }
        // Read as the CLI reads it: a FIFO or a device there is refused, not waited on.
        match carc_formats::read_side_file(&path) {
            Ok(Some(bytes)) => {
                let text = String::from_utf8_lossy(&bytes);
                for (i, line) in text.lines().enumerate() {
                    if !line.trim().is_empty() {
                        set.absorb(&format!("line {}", i + 1), line);
                    }
                }
            }
            Ok(None) => {}
            Err(e) => set.warnings.push(e.to_string()),
        }
        set
    }

    /// The variations of a library game, from its records oldest first.
    pub fn from_records(
        location: &str,
        game: &str,
        players: usize,
        records: &[Vec<u8>],
    ) -> VariationSet {
        let home = VariationHome::Library {
            location: location.to_string(),
        };
        let mut set = VariationSet::empty(home, game, players);
        for (i, record) in records.iter().enumerate() {
            let at = format!("variation record {}", i + 1);
            match std::str::from_utf8(record) {
                Ok(text) => set.absorb(&at, text.trim_end()),
                Err(_) => set
                    .warnings
                    .push(format!("{location}: {at} is not UTF-8; ignored")),
            }
        }
        set
    }

    /// Variations kept in memory only (for a game that is no file and no library's).
    pub fn in_memory(location: &str, game: &str, players: usize) -> VariationSet {
        let home = VariationHome::Memory {
            location: location.to_string(),
        };
        VariationSet::empty(home, game, players)
    }

    fn absorb(&mut self, at: &str, line: &str) {
        match parse_variation(line, self.players) {
            Ok(record) => self.apply(record),
            Err(e) => self
                .warnings
                .push(format!("{}: {at}: {e}; ignored", self.location())),
        }
    }

    fn apply(&mut self, record: VariationRecord) {
        if record.game() != self.game {
            return;
        }
        match record {
            VariationRecord::Set(v) => {
                self.items.insert(v.name.clone(), v);
            }
            VariationRecord::Deleted { name, .. } => {
                self.items.remove(&name);
            }
        }
    }

    /// The place, in words.
    pub fn location(&self) -> String {
        match &self.home {
            VariationHome::File(path) => path.display().to_string(),
            VariationHome::Library { location } => location.clone(),
            VariationHome::Memory { location } => format!("{location} (in memory)"),
        }
    }

    pub fn home(&self) -> &VariationHome {
        &self.home
    }

    /// The variations by name.
    pub fn items(&self) -> &BTreeMap<String, Variation> {
        &self.items
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Deletes `name` and every variation that branches from it, furthest first. Returns the
    /// records written (for a file) or to append (for a library).
    pub fn delete(&mut self, name: &str) -> Result<Vec<VariationRecord>, String> {
        if !self.items.contains_key(name) {
            return Err(format!("no variation named {name:?}"));
        }
        let mut names = descendants(&self.items, name);
        names.reverse();
        names.push(name.to_string());
        let records: Vec<VariationRecord> = names
            .into_iter()
            .map(|name| VariationRecord::Deleted {
                game: self.game.clone(),
                name,
            })
            .collect();
        self.write(&records)?;
        for r in &records {
            self.apply(r.clone());
        }
        Ok(records)
    }

    /// Adds a variation or replaces the one of its name (a move tried on the board). Returns
    /// the record written (for a file) or to append (for a library).
    pub fn set(&mut self, variation: Variation) -> Result<VariationRecord, String> {
        carc_events::variation::check_name(&variation.name).map_err(|e| e.to_string())?;
        let record = VariationRecord::Set(variation);
        self.write(std::slice::from_ref(&record))?;
        self.apply(record.clone());
        Ok(record)
    }

    /// Promotes a nested variation one level (see `carc_events::variation::promote`).
    /// Returns the record written (for a file) or to append (for a library).
    pub fn promote(&mut self, name: &str) -> Result<VariationRecord, String> {
        let promoted = promote(&self.items, name).map_err(|e| e.to_string())?;
        let record = VariationRecord::Set(promoted);
        self.write(std::slice::from_ref(&record))?;
        self.apply(record.clone());
        Ok(record)
    }

    /// Appends the records to the file (a library's caller appends them itself).
    fn write(&self, records: &[VariationRecord]) -> Result<(), String> {
        let VariationHome::File(path) = &self.home else {
            return Ok(());
        };
        let mut text = String::new();
        // Start on a new line if the file was edited by hand and does not end with one. What
        // is not a regular file (a FIFO would block the append's open) is refused.
        if let Some(existing) = carc_formats::read_side_file(path).map_err(|e| e.to_string())? {
            if existing.last().is_some_and(|b| *b != b'\n') {
                text.push('\n');
            }
        }
        for r in records {
            text.push_str(&r.to_json());
            text.push('\n');
        }
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_events::{Envelope, Event};
    use std::fs;

    fn var(name: &str, parent: Option<&str>, after: u64) -> Variation {
        Variation {
            game: "g".into(),
            name: name.into(),
            parent: parent.map(str::to_string),
            after,
            events: vec![Envelope {
                seq: after + 1,
                event: Event::MeepleSkipped { player: 0 },
            }],
        }
    }

    #[test]
    fn deleting_writes_records_for_the_variation_and_its_children() {
        // Given a file with "a" and "b" branching from it
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.jsonl.variations.jsonl");
        let lines = [
            VariationRecord::Set(var("a", None, 2)).to_json(),
            VariationRecord::Set(var("b", Some("a"), 3)).to_json(),
        ];
        fs::write(&path, lines.join("\n")).unwrap();
        let mut set = VariationSet::load(path.clone(), "g", 2, &[]);
        assert_eq!(set.items().len(), 2);
        // When "a" is deleted
        let written = set.delete("a").unwrap();
        // Then two deletion records are appended, the child first, and both are gone
        assert_eq!(written.len(), 2);
        assert_eq!(written[0].name(), "b");
        assert!(set.is_empty());
        let reread = VariationSet::load(path.clone(), "g", 2, &[]);
        assert!(reread.is_empty());
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 4);
    }

    #[test]
    fn unreadable_records_are_reported_not_dropped_silently() {
        let set = VariationSet::from_records("store s", "g", 2, &[b"nonsense".to_vec()]);
        assert!(set.is_empty());
        assert_eq!(set.warnings.len(), 1);
        assert!(
            set.warnings[0].contains("variation record 1"),
            "{:?}",
            set.warnings
        );
    }
}
