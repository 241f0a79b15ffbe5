//! A whole log in memory: the header, the events and assertions with their line numbers,
//! and the records a bundle carries beside the game.

use crate::annotation::Annotation;
use crate::model::{Assertion, Envelope, Event, Header};
use crate::variation::VariationRecord;

/// A whole log. Line numbers (1-based; the header is line 1) say where each item was read
/// from, so later errors can name the line; [`crate::write_log`] uses them only to order
/// the lines and numbers the output afresh.
///
/// A log read from an exported bundle also carries the game's annotation and variation
/// records (`{"type":"annotation",…}`, `{"type":"variation",…}` lines). They are not part of
/// the game: the fold ignores them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Log {
    /// Line 1.
    pub header: Header,
    /// `(line, event)`, in seq order.
    pub events: Vec<(usize, Envelope)>,
    /// `(line, assertion)`, in file order.
    pub assertions: Vec<(usize, Assertion)>,
    /// `(line, annotation record)`, in file order (bundles only).
    pub annotations: Vec<(usize, Annotation)>,
    /// `(line, variation record)`, in file order (bundles only).
    pub variations: Vec<(usize, VariationRecord)>,
}

impl Log {
    /// A log with no events.
    pub fn new(header: Header) -> Self {
        Log {
            header,
            events: Vec::new(),
            assertions: Vec::new(),
            annotations: Vec::new(),
            variations: Vec::new(),
        }
    }

    /// The seq of the last event, 0 if there is none.
    pub fn last_seq(&self) -> u64 {
        self.events.last().map_or(0, |(_, e)| e.seq)
    }

    /// The line the next appended item will have when written.
    fn next_line(&self) -> usize {
        2 + self.events.len()
            + self.assertions.len()
            + self.annotations.len()
            + self.variations.len()
    }

    /// The log without its annotation and variation records: the game alone.
    pub fn without_companions(mut self) -> Log {
        self.annotations.clear();
        self.variations.clear();
        self
    }

    /// Whether the log carries annotation or variation records (a bundle).
    pub fn has_companions(&self) -> bool {
        !self.annotations.is_empty() || !self.variations.is_empty()
    }

    /// Appends an event with the next seq; returns that seq.
    pub fn push_event(&mut self, event: Event) -> u64 {
        let seq = self.last_seq() + 1;
        let line = self.next_line();
        self.events.push((line, Envelope { seq, event }));
        seq
    }

    /// Appends an assertion after everything so far.
    pub fn push_assertion(&mut self, assertion: Assertion) {
        let line = self.next_line();
        self.assertions.push((line, assertion));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Color, Player, RulesOptions};

    #[test]
    fn log_push_assigns_seq_and_lines() {
        let mut log = Log::new(Header {
            game: "g".into(),
            players: vec![Player {
                name: "Ada".into(),
                color: Color::Red,
            }],
            rules: RulesOptions::default(),
            tile_sets: vec!["base".into()],
            bag: None,
            source: None,
            comment: None,
        });
        assert_eq!(log.push_event(Event::MeepleSkipped { player: 0 }), 1);
        log.push_assertion(Assertion::ExpectScores {
            after: 1,
            scores: vec![0],
        });
        assert_eq!(log.push_event(Event::MeepleSkipped { player: 0 }), 2);
        assert_eq!(
            log.events.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            [2, 4]
        );
        assert_eq!(log.assertions[0].0, 3);
        assert_eq!(log.last_seq(), 2);
    }
}
