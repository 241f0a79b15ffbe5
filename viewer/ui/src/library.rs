//! Games that are not files: the store's game list, seen through [`GameLibrary`] so that the
//! UI needs no database. The window shell (`carc-viewer`) implements it on the carc store;
//! tests implement it in memory.

use carc_events::read_log_prefix;
use carc_replay::fold;

/// A place that holds games by id, with their annotations beside them.
///
/// Errors are messages for the user (they are shown as they are), naming the place and the
/// game, e.g. "store ./carc-store is in use by another process".
pub trait GameLibrary {
    /// The place, in words, for titles and messages (e.g. `store ./carc-store`).
    fn location(&self) -> String;
    /// Every game held, in the library's order.
    fn list(&self) -> Result<Vec<LibraryEntry>, String>;
    /// One game: its log and its annotation records.
    fn load(&self, game: &str) -> Result<LibraryGame, String>;
    /// Appends one annotation record (a JSON line, see [`crate::annotations`]) to `game`.
    fn append_annotation(&self, game: &str, record: &[u8]) -> Result<(), String>;
    /// Appends one variation record (a JSON line, see [`crate::variations`]) to `game`.
    fn append_variation(&self, game: &str, record: &[u8]) -> Result<(), String>;
}

/// A game's log and annotations as a library holds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LibraryGame {
    /// The effective log, in the JSON Lines format.
    pub log: Vec<u8>,
    /// The annotation records, oldest first.
    pub annotations: Vec<Vec<u8>>,
    /// The variation records, oldest first.
    pub variations: Vec<Vec<u8>>,
}

/// One line of the game list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryEntry {
    pub game: String,
    pub players: Vec<String>,
    /// Events that replay legally.
    pub events: usize,
    pub finished: bool,
    /// The store takes no more events for this game.
    pub sealed: bool,
    /// Scores after the last legal event, by seat.
    pub scores: Vec<u32>,
    /// Why the log does not replay completely, if it does not.
    pub problem: Option<String>,
}

impl LibraryEntry {
    /// Summarises a game from its log: players, legal events, scores, and the first problem.
    pub fn summarize(game: &str, sealed: bool, log: &[u8]) -> LibraryEntry {
        let mut entry = LibraryEntry {
            game: game.to_string(),
            players: Vec::new(),
            events: 0,
            finished: false,
            sealed,
            scores: Vec::new(),
            problem: None,
        };
        let prefix = match read_log_prefix(log) {
            Ok(p) => p,
            Err(e) => {
                entry.problem = Some(e.to_string());
                return entry;
            }
        };
        entry.players = prefix
            .log
            .header
            .players
            .iter()
            // Shown in the games window: escaped as everywhere (`describe::visible`)
            .map(|p| carc_replay::describe::visible(&p.name).into_owned())
            .collect();
        let timeline = fold(prefix.log, &[]);
        entry.events = timeline.steps.len();
        entry.finished = timeline.finished;
        entry.scores = timeline.final_scores();
        entry.problem = match (&timeline.error, &prefix.error) {
            (Some(e), _) => Some(format!("line {}: [{}] {}", e.line(), e.rule(), e.message())),
            (None, Some(e)) => Some(format!("line {}: {}", e.line, e.kind)),
            (None, None) => None,
        };
        entry
    }

    /// The result in words: "finished, Ada 20, Bo 11" or "event 12 of an unfinished game".
    pub fn outcome(&self) -> String {
        let scores: Vec<String> = self
            .players
            .iter()
            .zip(&self.scores)
            .map(|(p, s)| format!("{p} {s}"))
            .collect();
        let state = if self.finished {
            "finished"
        } else {
            "not finished"
        };
        format!("{state}; {}", scores.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn summary_of_a_sample_game() {
        // Given the hand-written sample game
        let bytes = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl"),
        )
        .unwrap();
        // When it is summarised
        let e = LibraryEntry::summarize("short", true, &bytes);
        // Then it shows its players, 34 events and the final 20-11
        assert_eq!(e.players, ["Ada", "Brandt"]);
        assert_eq!(e.events, 34);
        assert!(e.finished);
        assert_eq!(e.scores, [20, 11]);
        assert_eq!(e.problem, None);
        assert_eq!(e.outcome(), "finished; Ada 20, Brandt 11");
    }

    #[test]
    fn a_broken_log_says_where() {
        let e = LibraryEntry::summarize("x", false, b"not a header\n");
        assert!(e.problem.unwrap().contains("line 1"));
        assert!(e.players.is_empty());
    }
}
