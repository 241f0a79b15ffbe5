//! Reading untrusted JSON values together with their path, so that every type error says
//! where it is (`replay[3].payload.position`) and what was expected. Never panics.

use serde_json::{Map, Value};

use crate::error::{JczError, DOCUMENT};

/// A value and the JSON path that leads to it.
#[derive(Clone)]
pub struct At<'a> {
    pub path: String,
    pub value: &'a Value,
}

/// A short description of a value for error messages: its type and, for scalars, the value.
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => {
            let short: String = s.chars().take(40).collect();
            if short.len() < s.len() {
                format!("the string {short:?}…")
            } else {
                format!("the string {s:?}")
            }
        }
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(_) => "an object".into(),
    }
}

impl<'a> At<'a> {
    /// The whole document.
    pub fn root(value: &'a Value) -> At<'a> {
        At {
            path: String::new(),
            value,
        }
    }

    /// The error for this value not being `expected`.
    pub fn wrong(&self, expected: &str) -> JczError {
        JczError::Field {
            path: self.display_path(),
            expected: expected.to_string(),
            found: describe(self.value),
            position: None,
        }
    }

    fn display_path(&self) -> String {
        if self.path.is_empty() {
            DOCUMENT.into()
        } else {
            self.path.clone()
        }
    }

    fn child_path(&self, name: &str) -> String {
        if self.path.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.path)
        }
    }

    pub fn object(&self) -> Result<&'a Map<String, Value>, JczError> {
        self.value
            .as_object()
            .ok_or_else(|| self.wrong("an object"))
    }

    pub fn array(&self) -> Result<Vec<At<'a>>, JczError> {
        let items = self
            .value
            .as_array()
            .ok_or_else(|| self.wrong("an array"))?;
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, value)| At {
                path: format!("{}[{i}]", self.path),
                value,
            })
            .collect())
    }

    pub fn str(&self) -> Result<&'a str, JczError> {
        self.value.as_str().ok_or_else(|| self.wrong("a string"))
    }

    /// An integer (a JSON number without a fraction).
    pub fn int(&self) -> Result<i64, JczError> {
        self.value.as_i64().ok_or_else(|| self.wrong("an integer"))
    }

    /// A field that may be absent (`null` counts as absent). Errors if this is not an object.
    pub fn opt(&self, name: &str) -> Result<Option<At<'a>>, JczError> {
        Ok(self
            .object()?
            .get(name)
            .filter(|v| !v.is_null())
            .map(|value| At {
                path: self.child_path(name),
                value,
            }))
    }

    /// A required field.
    pub fn get(&self, name: &str) -> Result<At<'a>, JczError> {
        self.opt(name)?.ok_or_else(|| JczError::Field {
            path: self.child_path(name),
            expected: "a value".into(),
            found: "nothing (the field is missing)".into(),
            position: None,
        })
    }

    /// `[x, y]`: an array of two integers.
    pub fn pair(&self) -> Result<(i64, i64), JczError> {
        let expected = "a position [x, y] of two integers";
        match self.value.as_array().map(Vec::as_slice) {
            Some([x, y]) => match (x.as_i64(), y.as_i64()) {
                (Some(x), Some(y)) => Ok((x, y)),
                _ => Err(self.wrong(expected)),
            },
            _ => Err(self.wrong(expected)),
        }
    }
}
