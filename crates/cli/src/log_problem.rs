//! A replayed log's first problem in one line: shared by the verbs that store games (import,
//! rebuild, record) and those that list or verify them (games, verify).

use carc_events::Header;
use carc_replay::describe::violation_text;
use carc_replay::{check_assertions, ReplayError, Timeline};

/// The one-line reason of a replay error, without its `line N: ` prefix.
pub fn replay_message(err: &ReplayError, header: &Header) -> String {
    match err {
        ReplayError::Setup(e) => format!("the header does not describe a playable game: {e}"),
        ReplayError::Rule {
            seq,
            event,
            rule,
            violation,
            ..
        } => format!(
            "event {seq} ({event}) breaks rule {rule}: {}",
            violation_text(header, violation)
        ),
    }
}

/// The first problem of a decoded log: an illegal event or a failed assertion, as
/// `(line, message)`.
pub fn log_problem(timeline: &Timeline) -> Option<(usize, String)> {
    if let Some(err) = &timeline.error {
        return Some((err.line(), replay_message(err, &timeline.log.header)));
    }
    check_assertions(timeline)
        .first()
        .map(|f| (f.line, f.message()))
}
