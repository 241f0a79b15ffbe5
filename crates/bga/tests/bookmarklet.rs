//! The bookmarklet that saves a Board Game Arena replay (`bookmarklet/save-replay.js`): the
//! one-line `javascript:` form in `docs/bga.md` is this source, and the source keeps the rules
//! that make its one-line form mean what the source says. Running it in a browser is
//! `tests/bookmarklet_in_chromium.py` (CI), which runs the docs' line.

use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn source() -> String {
    read("bookmarklet/save-replay.js")
}

/// The one-line form: comment lines and blank lines dropped, every line trimmed, joined with
/// one space (the way docs/bga.md and save-replay.js describe it).
fn one_line(source: &str) -> String {
    let code: Vec<&str> = source
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect();
    format!("javascript:{}", code.join(" "))
}

/// The lines of docs/bga.md that are a bookmarklet.
fn docs_lines() -> Vec<String> {
    read("../../docs/bga.md")
        .lines()
        .filter(|l| l.starts_with("javascript:"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_docs_one_liner_is_the_source() {
    let docs = docs_lines();
    assert_eq!(
        docs.len(),
        1,
        "docs/bga.md must hold one `javascript:` line, has {docs:?}"
    );
    let want = one_line(&source());
    assert!(
        docs[0] == want,
        "docs/bga.md's bookmarklet differs from bookmarklet/save-replay.js; put this line in the \
         docs:\n{want}"
    );
}

#[test]
fn the_source_keeps_the_rules_that_make_joining_its_lines_safe() {
    let source = source();
    for (n, line) in source.lines().enumerate() {
        let code = line.trim();
        let at = format!("save-replay.js:{}: {line}", n + 1);
        if code.starts_with("//") {
            continue;
        }
        // A comment after code would swallow the rest of the joined line.
        assert!(!code.contains("//"), "{at}: a comment after code");
        assert!(!code.contains("/*"), "{at}: a block comment");
        // A browser percent-decodes a `javascript:` address before running it.
        assert!(!code.contains('%'), "{at}: `%` would be decoded");
        // A template literal could span lines, which trimming and joining would change.
        assert!(!code.contains('`'), "{at}: a backquote");
        // Joining lines turns off automatic semicolon insertion: statements end themselves.
        let last = code.chars().last().unwrap_or(';');
        assert!(
            code.is_empty() || matches!(last, ';' | '{' | '}' | ','),
            "{at}: a line that does not end a statement or open/close a block"
        );
    }
}

#[test]
fn the_source_sends_nothing_and_stays_plain_es2017() {
    let code: String = source()
        .lines()
        .filter(|l| !l.trim().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    // Nothing that talks to a server: the file is made in the browser and downloaded from it.
    for api in [
        "fetch",
        "XMLHttpRequest",
        "sendBeacon",
        "WebSocket",
        "EventSource",
        "Image",
        "import(",
        "src",
        "submit",
        "open(",
        "postMessage",
    ] {
        assert!(!code.contains(api), "save-replay.js uses {api}");
    }
    // No syntax newer than ES2017 that is easy to reach for: optional chaining and `??` (ES2020).
    for newer in ["?.", "??"] {
        assert!(
            !code.contains(newer),
            "save-replay.js uses {newer}, newer than ES2017"
        );
    }
    // What it must do: read g_gamelogs, name the file by table id, wrap BGA's envelope.
    for needed in [
        "g_gamelogs",
        "table_id",
        "\"table\"",
        "link.download = table + \".json\"",
        "{ status: 1, data: { valid: 1, data: packets } }",
        "let it load, then click again",
    ] {
        assert!(code.contains(needed), "save-replay.js lacks {needed}");
    }
}
