//! Annotations: a comment and a glyph (`!! ! !? ?! ? ??`) on an event, kept in a JSON Lines
//! file beside the log (`<log>.annotations.jsonl`). The game log itself is never written.
//!
//! One record per line: `{"game":"…","seq":N,"glyph":"?!","text":"…"}` (`glyph` may be
//! `null`). Records are keyed by (game, seq); when a key appears twice the later line wins.
//! Saving rewrites the file: records of other games and lines this version cannot read are
//! kept as they were, so nothing a user wrote is lost.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// An evaluation mark, as in chess notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Glyph {
    #[serde(rename = "!!")]
    Brilliant,
    #[serde(rename = "!")]
    Good,
    #[serde(rename = "!?")]
    Interesting,
    #[serde(rename = "?!")]
    Dubious,
    #[serde(rename = "?")]
    Mistake,
    #[serde(rename = "??")]
    Blunder,
}

impl Glyph {
    pub const ALL: [Glyph; 6] = [
        Glyph::Brilliant,
        Glyph::Good,
        Glyph::Interesting,
        Glyph::Dubious,
        Glyph::Mistake,
        Glyph::Blunder,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Glyph::Brilliant => "!!",
            Glyph::Good => "!",
            Glyph::Interesting => "!?",
            Glyph::Dubious => "?!",
            Glyph::Mistake => "?",
            Glyph::Blunder => "??",
        }
    }

    /// Words for tooltips.
    pub fn meaning(self) -> &'static str {
        match self {
            Glyph::Brilliant => "brilliant",
            Glyph::Good => "good",
            Glyph::Interesting => "interesting",
            Glyph::Dubious => "dubious",
            Glyph::Mistake => "mistake",
            Glyph::Blunder => "blunder",
        }
    }

    pub fn parse(s: &str) -> Option<Glyph> {
        Glyph::ALL.into_iter().find(|g| g.as_str() == s)
    }
}

impl fmt::Display for Glyph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One annotation record (one line of the file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Annotation {
    pub game: String,
    pub seq: u64,
    pub glyph: Option<Glyph>,
    #[serde(default)]
    pub text: String,
}

impl Annotation {
    pub fn is_empty(&self) -> bool {
        self.glyph.is_none() && self.text.trim().is_empty()
    }
}

/// Where the annotations of a log live: the log's file name plus `.annotations.jsonl`.
pub fn annotations_path(log: &Path) -> PathBuf {
    let mut name = log.as_os_str().to_owned();
    name.push(".annotations.jsonl");
    PathBuf::from(name)
}

/// The annotations of one game, and the rest of its file kept for rewriting.
#[derive(Clone, Debug, Default)]
pub struct AnnotationStore {
    path: PathBuf,
    game: String,
    items: BTreeMap<u64, Annotation>,
    /// Lines kept verbatim: other games' records and lines that do not parse.
    others: Vec<String>,
    /// Problems found while loading (line number and message), for the status bar.
    pub warnings: Vec<String>,
}

impl AnnotationStore {
    /// An empty store (no file read).
    pub fn empty(path: PathBuf, game: &str) -> AnnotationStore {
        AnnotationStore {
            path,
            game: game.to_string(),
            ..AnnotationStore::default()
        }
    }

    /// Reads `path` if it exists; a missing file is an empty store.
    pub fn load(path: PathBuf, game: &str) -> io::Result<AnnotationStore> {
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        let mut store = AnnotationStore::empty(path, game);
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Annotation>(line) {
                Ok(a) if a.game == store.game => {
                    store.items.insert(a.seq, a);
                }
                Ok(_) => store.others.push(line.to_string()),
                Err(e) => {
                    store.warnings.push(format!(
                        "{}: line {}: {e}; the line is kept but ignored",
                        store.path.display(),
                        i + 1
                    ));
                    store.others.push(line.to_string());
                }
            }
        }
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
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
    pub fn set(&mut self, seq: u64, glyph: Option<Glyph>, text: &str) {
        let a = Annotation {
            game: self.game.clone(),
            seq,
            glyph,
            text: text.trim_end().to_string(),
        };
        if a.is_empty() {
            self.items.remove(&seq);
        } else {
            self.items.insert(seq, a);
        }
    }

    /// The file's content: kept lines first, then this game's records by seq.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        for line in &self.others {
            out.push_str(line);
            out.push('\n');
        }
        for a in self.items.values() {
            // Serializing a plain struct of strings and numbers cannot fail.
            out.push_str(&serde_json::to_string(a).expect("annotation serializes"));
            out.push('\n');
        }
        out
    }

    /// Writes the file (through a temporary file and a rename). With nothing to keep, an
    /// existing file is removed rather than left empty.
    pub fn save(&self) -> io::Result<()> {
        if self.items.is_empty() && self.others.is_empty() {
            return match fs::remove_file(&self.path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            };
        }
        let mut tmp = self.path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        fs::write(&tmp, self.to_jsonl())?;
        fs::rename(&tmp, &self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_is_beside_the_log() {
        assert_eq!(
            annotations_path(Path::new("/a/b/game.jsonl")),
            PathBuf::from("/a/b/game.jsonl.annotations.jsonl")
        );
    }

    #[test]
    fn glyphs_round_trip_as_their_marks() {
        for g in Glyph::ALL {
            let json = serde_json::to_string(&g).unwrap();
            assert_eq!(json, format!("\"{}\"", g.as_str()));
            assert_eq!(serde_json::from_str::<Glyph>(&json).unwrap(), g);
            assert_eq!(Glyph::parse(g.as_str()), Some(g));
        }
        assert_eq!(Glyph::parse("!!!"), None);
    }

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
