//! The page's data as JSON, written to sit inside `<script type="application/json">`.
//!
//! The HTML parser ends that element at the first `</script` and would start a comment at
//! `<!--`, whatever the JSON means, so text from a log could break out of it. Every string is
//! therefore written with `<`, `>` and `&` as `\u003c`, `\u003e` and `\u0026` (and U+2028,
//! U+2029 and control characters as escapes too): the element's text never holds a markup
//! character, and `JSON.parse` gives the original text back.

use std::fmt::Write;

/// A JSON value. Object keys are the page's own names, never text from a log.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Arr(Vec<Value>),
    Obj(Vec<(&'static str, Value)>),
}

impl Value {
    /// The value as JSON text, safe inside a `<script type="application/json">` element.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Value::Str(s) => string(out, s),
            Value::Arr(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Value::Obj(fields) => {
                out.push('{');
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    string(out, k);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '<' | '>' | '&' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            // Bidi controls and U+2028/U+2029 reach the page as the visible text `\u{202e}`
            // (a JSON `\\` then the escape), as in every other report: the script puts text
            // in with `textContent`, where the character itself would reorder its line.
            c if carc_events::text::is_hidden_format(c) => {
                let _ = write!(out, "\\\\u{{{:x}}}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Str(s)
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Value {
        Value::Str(s.clone())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Int(n as i64)
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Value {
        Value::Int(n as i64)
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Value {
        Value::Int(i64::from(n))
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl<T: Into<Value>> FromIterator<T> for Value {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Value {
        Value::Arr(iter.into_iter().map(Into::into).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_never_appear_in_strings() {
        // Given text that would close the script element, open a comment or a tag
        let v = Value::Obj(vec![(
            "t",
            "</script><!--<b>&amp;\"\\\n\u{7}\u{2028}é".into(),
        )]);
        // Then the JSON holds none of < > & and the escapes spell the same text, but for the
        // line separator, which the page shows as the visible text `\u{2028}`
        assert_eq!(
            v.to_json(),
            r#"{"t":"\u003c/script\u003e\u003c!--\u003cb\u003e\u0026amp;\"\\\n\u0007\\u{2028}é"}"#
        );
    }

    #[test]
    fn values_nest() {
        let v = Value::Arr(vec![
            Value::Null,
            true.into(),
            Value::Int(-3),
            Some(4u32).into(),
            None::<u32>.into(),
            ["a", "b"].into_iter().collect(),
        ]);
        assert_eq!(v.to_json(), r#"[null,true,-3,4,null,["a","b"]]"#);
    }
}
