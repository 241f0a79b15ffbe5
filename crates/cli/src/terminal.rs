//! What reaches the terminal. A log is untrusted, and a terminal acts on some of the bytes it
//! is sent: ESC starts a sequence that retitles or clears it, BEL rings, CR returns to the
//! start of the line so a later text overwrites what was printed. Everything `carc` prints
//! passes through this module, so no verb can forget it:
//!
//! - `println!`, `print!`, `eprintln!` and `eprint!` are defined here for the whole crate
//!   (shadowing std's, by textual scope, before any other module is declared in `main`), and
//!   write their text with every control character but line breaks and tabs made visible;
//! - [`stdout`] is the same for verbs that write through a locked stdout (`writeln!`).
//!
//! The line breaks of `carc`'s own text stay; a line break inside a name, id or comment is
//! made visible where that text enters a sentence (`carc_replay::describe::visible` and
//! `shown_name`), so it cannot forge a line of output. `--json` output passes unchanged: JSON
//! writes control characters as `\u001b` itself. What `export` writes (a log or bundle, whose
//! JSON escapes control characters; a Markdown or HTML report, whose writers escape them for
//! their format) and the script of `completions` are a file's bytes and bypass this module.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

/// `text` with each control character other than `\n` and `\t` written `\u{1b}`-style,
/// except DEL and the C1 controls (U+007F to U+009F), written `\u0085`-style: `--json` lines
/// pass through here too, and serde_json writes those characters raw inside strings, so only
/// an escape that JSON itself reads (as the same character) keeps `--json` exact. (The C0
/// controls never reach here raw from JSON: serde_json escapes them.)
pub fn visible_lines(text: &str) -> Cow<'_, str> {
    // Bidi controls and U+2028/U+2029 too (`carc_events::text::is_hidden_format`): they
    // reorder or break what the terminal shows around them. All are above U+007F, so they
    // get the JSON-readable escape.
    let shown = |c: char| !carc_events::text::is_hazard(c) || matches!(c, '\n' | '\t');
    if text.chars().all(shown) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if shown(c) {
            out.push(c);
        } else if c >= '\u{7f}' {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
    Cow::Owned(out)
}

/// `println!` for the whole crate: the text with control characters made visible.
macro_rules! println {
    () => { ::std::println!() };
    ($($arg:tt)*) => {
        ::std::println!("{}", $crate::terminal::visible_lines(&::std::format!($($arg)*)))
    };
}

/// `print!` for the whole crate: the text with control characters made visible.
#[allow(unused_macros)]
macro_rules! print {
    ($($arg:tt)*) => {
        ::std::print!("{}", $crate::terminal::visible_lines(&::std::format!($($arg)*)))
    };
}

/// `eprintln!` for the whole crate: the text with control characters made visible.
macro_rules! eprintln {
    () => { ::std::eprintln!() };
    ($($arg:tt)*) => {
        ::std::eprintln!("{}", $crate::terminal::visible_lines(&::std::format!($($arg)*)))
    };
}

/// `eprint!` for the whole crate: the text with control characters made visible.
#[allow(unused_macros)]
macro_rules! eprint {
    ($($arg:tt)*) => {
        ::std::eprint!("{}", $crate::terminal::visible_lines(&::std::format!($($arg)*)))
    };
}

/// A locked stdout whose text gets [`visible_lines`]: for verbs that write with `writeln!`.
pub fn stdout() -> Visible<io::StdoutLock<'static>> {
    Visible(io::stdout().lock())
}

/// [`stdout`] for a verb that prints a line per input of a bulk run (`check`): on a
/// terminal line by line as before, otherwise gathered 64 KiB at a time, one `write` for
/// hundreds of lines instead of one each (those writes were half the calling thread's
/// time: docs/benchmarks.md, "The second core"). The caller flushes at the end.
pub fn bulk_stdout() -> Visible<Box<dyn Write>> {
    use std::io::IsTerminal;
    let lock = io::stdout().lock();
    if lock.is_terminal() {
        Visible(Box::new(lock))
    } else {
        Visible(Box::new(io::BufWriter::with_capacity(1 << 16, lock)))
    }
}

/// A writer that makes control characters visible (see [`visible_lines`]). Text arrives in
/// whole characters from `write!`; bytes that are not UTF-8 pass unchanged but for the C0
/// controls and DEL among them, which are single bytes in any case.
pub struct Visible<W>(W);

impl<W: Write> Write for Visible<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match std::str::from_utf8(buf) {
            Ok(text) => self.0.write_all(visible_lines(text).as_bytes())?,
            Err(_) => {
                for &b in buf {
                    if b == 0x7f {
                        write!(self.0, "\\u{b:04x}")?;
                    } else if b < 0x20 && b != b'\n' && b != b'\t' {
                        write!(self.0, "\\u{{{b:x}}}")?;
                    } else {
                        self.0.write_all(&[b])?;
                    }
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_visible_and_line_breaks_and_tabs_stay() {
        assert_eq!(
            visible_lines("a\u{1b}]0;t\u{7}\r\nb\tc\u{7f}\u{9b}"),
            "a\\u{1b}]0;t\\u{7}\\u{d}\nb\tc\\u007f\\u009b"
        );
        assert!(matches!(visible_lines("plain é\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_json_line_with_del_or_c1_controls_stays_json_with_the_same_value() {
        // serde_json writes U+007F..U+009F raw inside a string; the escape must be JSON's own
        let name = "Eve\u{85}\u{9b}2J\u{7f}";
        let line = serde_json::json!({ "player": name }).to_string();
        let shown = visible_lines(&line);
        assert!(!shown.chars().any(|c| c.is_control()), "{shown}");
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back["player"], name);
    }

    #[test]
    fn the_writer_escapes_text_and_stray_bytes() {
        let mut w = Visible(Vec::new());
        writeln!(w, "x\u{1b}[2J").unwrap();
        w.write_all(&[0xff, 0x1b, b'\n']).unwrap();
        assert_eq!(w.0, b"x\\u{1b}[2J\n\xff\\u{1b}\n".to_vec());
    }
}
