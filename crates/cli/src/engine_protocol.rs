//! The engine protocol (`docs/engine-protocol.md`), what both ends share: the version line,
//! the bounded line reader, and what carc sends for a decision (the position as log lines,
//! the seat, the budget and the legal moves in `carc_engine::move_text` notation).
//! `carc engine` is the server (`commands/engine.rs`); `engine_client` drives an outside
//! engine for `carc match … cmd:PROGRAM`.

use std::io::{self, BufRead};

use carc_rules::Game;
use carc_sim::TurnMove;

/// The first line carc sends: the protocol's name and version.
pub const HELLO: &str = "carc-engine-protocol 1";
/// The longest line carc reads from an engine, in bytes (without the line break).
pub const MAX_ENGINE_LINE: usize = 64 * 1024;
/// The longest line `carc engine` reads from carc (a log line is at most 1 MiB).
pub const MAX_SERVER_LINE: usize = 1024 * 1024 + 1024;

/// Why a line could not be read.
#[derive(Debug)]
pub enum LineError {
    Io(io::Error),
    /// The line goes on past the limit (in bytes).
    TooLong(usize),
    /// The line is not UTF-8.
    NotUtf8,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::Io(e) => write!(f, "cannot read: {e}"),
            LineError::TooLong(max) => write!(f, "a line longer than {max} bytes"),
            LineError::NotUtf8 => f.write_str("a line that is not UTF-8"),
        }
    }
}

/// Reads one line of at most `max` bytes, without its `\n` (nor a `\r` before it). `None` at
/// the end of the input; a last line without a line break counts. Never holds more than
/// `max` bytes of a line.
pub fn read_line(reader: &mut impl BufRead, max: usize) -> Result<Option<String>, LineError> {
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(LineError::Io(e)),
        };
        if buf.is_empty() {
            if line.is_empty() {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if line.len() + take > max {
            return Err(LineError::TooLong(max));
        }
        line.extend_from_slice(&buf[..take]);
        reader.consume(take + usize::from(done));
        if done {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|_| LineError::NotUtf8)
}

/// Reads and drops the input up to and with the next `\n` (or to its end), holding no more
/// than the reader's buffer: what is left of a line [`read_line`] found too long.
pub fn skip_rest_of_line(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

/// The legal moves of the turn at `game` (waiting for a placement), each with its text, in
/// the rules' order (`Game::legal_moves`).
pub fn listed_moves(game: &Game) -> Vec<(TurnMove, String)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let m = TurnMove::from(m);
            let text = carc_engine::move_text(game, &m);
            (m, text)
        })
        .collect()
}

/// What carc sends for one decision, up to and with `go`: the position (`log`: a log's lines,
/// header and events), the seat to move, the budget in milliseconds and the moves' texts.
pub fn decision_text(log: &str, seat: u8, budget_ms: u64, moves: &[String]) -> String {
    let mut out = String::with_capacity(log.len() + moves.len() * 24 + 64);
    out.push_str("position\n");
    out.push_str(log);
    if !log.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("end\n");
    out.push_str(&format!(
        "seat {seat}\nbudget ms {budget_ms}\nmoves {}\n",
        moves.len()
    ));
    for m in moves {
        out.push_str(m);
        out.push('\n');
    }
    out.push_str("go\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_whole_bounded_and_without_their_line_break() {
        let mut r = io::Cursor::new(b"one\r\ntwo\nthree".to_vec());
        assert_eq!(read_line(&mut r, 10).unwrap().as_deref(), Some("one"));
        assert_eq!(read_line(&mut r, 10).unwrap().as_deref(), Some("two"));
        assert_eq!(read_line(&mut r, 10).unwrap().as_deref(), Some("three"));
        assert!(read_line(&mut r, 10).unwrap().is_none());
        let mut long = io::Cursor::new(vec![b'x'; 100]);
        assert!(matches!(
            read_line(&mut long, 10),
            Err(LineError::TooLong(10))
        ));
        let mut bad = io::Cursor::new(b"\xff\xfe\n".to_vec());
        assert!(matches!(read_line(&mut bad, 10), Err(LineError::NotUtf8)));
        // What is left of a line too long is skipped, and the next line is read whole.
        let mut text = b"x".repeat(100);
        text.extend_from_slice(b"\nnext\n");
        let mut r = io::BufReader::with_capacity(8, io::Cursor::new(text));
        assert!(matches!(read_line(&mut r, 10), Err(LineError::TooLong(10))));
        skip_rest_of_line(&mut r).unwrap();
        assert_eq!(read_line(&mut r, 10).unwrap().as_deref(), Some("next"));
    }
}
