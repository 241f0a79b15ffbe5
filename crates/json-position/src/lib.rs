//! Where each value of a JSON text is: its path (`replay[3].payload`, `data.data[2].args.x`)
//! and the line and column it starts at. The readers of other programs' files (JCloisterZone,
//! Board Game Arena) check values on serde_json's `Value`, which keeps no positions; once a
//! value is found wrong, one scan of the text says where it is, so every error names its line.
//! Never panics, whatever the text.

pub mod at;
pub use at::{describe, At, FieldError, DOCUMENT};

/// Where a value starts in the text: 1-based line and column. Columns count bytes, as
/// serde_json's syntax errors do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextPosition {
    pub line: usize,
    pub column: usize,
}

impl TextPosition {
    /// The position of byte `offset` of `text` (clamped to its end).
    pub fn of_offset(text: &[u8], offset: usize) -> TextPosition {
        let before = &text[..offset.min(text.len())];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        TextPosition {
            line: 1 + before.iter().filter(|&&b| b == b'\n').count(),
            column: before.len() - line_start + 1,
        }
    }
}

/// Where every value of a JSON text starts, by its path: keys joined by `.`, array indices in
/// `[]`, `""` for the document (`replay[3].payload`). Only called once an error is found, to say
/// on which line the value is; the text has already been parsed by serde_json, so anything
/// unexpected here just ends the scan (never a panic). A repeated key keeps its last value, as
/// serde_json does.
pub fn value_positions(text: &str) -> std::collections::HashMap<String, TextPosition> {
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        at: 0,
        found: Vec::new(),
    };
    scanner.value(String::new(), 0);
    let bytes = text.as_bytes();
    // Offsets grow along the scan, so one pass turns them into lines and columns.
    let mut line = 1;
    let mut line_start = 0;
    let mut done = 0;
    let mut out = std::collections::HashMap::new();
    for (path, offset) in scanner.found {
        if offset < done {
            // Not reached for well-formed JSON (offsets only grow); computed afresh to be safe.
            out.insert(path, TextPosition::of_offset(bytes, offset));
            continue;
        }
        for (i, &b) in bytes[done..offset].iter().enumerate() {
            if b == b'\n' {
                line += 1;
                line_start = done + i + 1;
            }
        }
        done = offset;
        out.insert(
            path,
            TextPosition {
                line,
                column: offset - line_start + 1,
            },
        );
    }
    out
}

/// serde_json refuses nesting deeper than 128, so a parsed text never reaches this.
const MAX_DEPTH: usize = 200;

struct Scanner<'t> {
    bytes: &'t [u8],
    at: usize,
    /// (path, byte offset) of each value, in text order.
    found: Vec<(String, usize)>,
}

impl Scanner<'_> {
    fn skip_space(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// A string starting at the opening quote, decoded (escapes resolved) so keys match
    /// serde_json's. `None` if the text ends first.
    fn string(&mut self) -> Option<String> {
        let start = self.at + 1;
        let mut i = start;
        let mut escaped = false;
        loop {
            let b = *self.bytes.get(i)?;
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                break;
            }
            i += 1;
        }
        let raw = &self.bytes[self.at..=i];
        self.at = i + 1;
        serde_json::from_slice::<String>(raw).ok()
    }

    fn value(&mut self, path: String, depth: usize) -> Option<()> {
        self.skip_space();
        self.found.push((path.clone(), self.at));
        if depth > MAX_DEPTH {
            return None;
        }
        match *self.bytes.get(self.at)? {
            b'{' => {
                self.at += 1;
                if self.eat(b'}') {
                    return Some(());
                }
                loop {
                    self.skip_space();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return None;
                    }
                    let child = if path.is_empty() {
                        key
                    } else {
                        format!("{path}.{key}")
                    };
                    self.value(child, depth + 1)?;
                    if self.eat(b'}') {
                        return Some(());
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            b'[' => {
                self.at += 1;
                if self.eat(b']') {
                    return Some(());
                }
                for index in 0usize.. {
                    self.value(format!("{path}[{index}]"), depth + 1)?;
                    if self.eat(b']') {
                        return Some(());
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
                None
            }
            b'"' => self.string().map(|_| ()),
            _ => {
                // A number, true, false or null: up to the next delimiter.
                while self
                    .bytes
                    .get(self.at)
                    .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
                {
                    self.at += 1;
                }
                Some(())
            }
        }
    }
}

/// The path of the value that holds `path` (`replay[3].payload` → `replay[3]`), or `None`
/// at the document.
pub fn parent_path(path: &str) -> Option<&str> {
    if path.is_empty() {
        return None;
    }
    let cut = path.rfind(['.', '[']).unwrap_or(0);
    Some(&path[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_is_found_where_it_starts() {
        let text = "{\n \"a\": [1, {\"b\\\"c\": true}],\n \"a2\": null }";
        let p = value_positions(text);
        let at = |line, column| TextPosition { line, column };
        assert_eq!(p[""], at(1, 1));
        assert_eq!(p["a"], at(2, 7));
        assert_eq!(p["a[0]"], at(2, 8));
        assert_eq!(p["a[1]"], at(2, 11));
        // Keys are matched decoded, as serde_json reads them.
        assert_eq!(p["a[1].b\"c"], at(2, 20));
        assert_eq!(p["a2"], at(3, 8));
        assert_eq!(p.len(), 6);
    }

    #[test]
    fn broken_text_never_panics() {
        let text = "{\"x\": [\"\\u00e9\", {\"y\": [[], {}]}], \"z\": -1.5e3}";
        for cut in 0..=text.len() {
            if text.is_char_boundary(cut) {
                let _ = value_positions(&text[..cut]);
            }
        }
        let _ = value_positions(&"[".repeat(10_000));
    }

    #[test]
    fn parents_of_paths() {
        assert_eq!(parent_path("replay[3].payload"), Some("replay[3]"));
        assert_eq!(parent_path("replay[3]"), Some("replay"));
        assert_eq!(parent_path("replay"), Some(""));
        assert_eq!(parent_path(""), None);
    }
}
