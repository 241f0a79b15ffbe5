//! The `<head>` of a self-contained page with a script (the interactive page and the puzzle
//! page): the page's own script allowed by its hash and nothing else, a placeholder title the
//! script replaces from the data (names are text from logs, so never markup), and the style
//! with the players' colour classes.

use std::fmt::Write;

use carc_events::Color;

use crate::html::meeple_rgba;
use crate::interactive::csp;

/// Writes the head and opens the body. `script` is the page's script (its hash goes into the
/// policy), `generator` the command that wrote the page, `style` the page's whole style sheet.
pub(crate) fn page_head(out: &mut String, script: &str, generator: &str, title: &str, style: &str) {
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    );
    // The page's own script only (by its hash), styles inline, nothing fetched.
    let _ = writeln!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        csp::policy(script)
    );
    let _ = write!(
        out,
        "<meta name=\"generator\" content=\"{generator}\">\n<title>{title}</title>\n<style>\n{style}"
    );
    for c in Color::ALL {
        let _ = writeln!(
            out,
            ".c-{}{{background:{}}}",
            c.as_str(),
            meeple_rgba(c).hex()
        );
    }
    let _ = writeln!(out, "</style>\n</head>\n<body>");
}
