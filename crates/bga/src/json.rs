//! Reading untrusted JSON values together with their path, so that every type error says
//! where it is (`data.data[3].data[0].args.x`) and what was expected. Never panics.
//!
//! BGA writes most numbers as strings (`"x": "-1"`) and some as numbers (`"player_id":
//! 93033745`), even for the same field in different notifications, so integers are read
//! from either.

use serde_json::{Map, Value};

use crate::error::BgaError;

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
    pub fn wrong(&self, expected: &str) -> BgaError {
        BgaError::Field {
            path: self.display_path(),
            expected: expected.to_string(),
            found: describe(self.value),
            place: None,
        }
    }

    fn display_path(&self) -> String {
        if self.path.is_empty() {
            "the document".into()
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

    pub fn object(&self) -> Result<&'a Map<String, Value>, BgaError> {
        self.value
            .as_object()
            .ok_or_else(|| self.wrong("an object"))
    }

    pub fn array(&self) -> Result<Vec<At<'a>>, BgaError> {
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

    pub fn str(&self) -> Result<&'a str, BgaError> {
        self.value.as_str().ok_or_else(|| self.wrong("a string"))
    }

    /// An integer written as a JSON integer or as a string of decimal digits.
    pub fn int(&self) -> Result<i64, BgaError> {
        let expected = "an integer (a number or a string of digits)";
        match self.value {
            Value::Number(n) => n.as_i64().ok_or_else(|| self.wrong(expected)),
            Value::String(s) => s.trim().parse().map_err(|_| self.wrong(expected)),
            _ => Err(self.wrong(expected)),
        }
    }

    /// [`At::int`] within `min..=max`.
    pub fn int_in(&self, min: i64, max: i64) -> Result<i64, BgaError> {
        match self.int()? {
            n if (min..=max).contains(&n) => Ok(n),
            _ => Err(self.wrong(&format!("an integer from {min} to {max}"))),
        }
    }

    /// Text for an id: a string as it is, an integer as its digits.
    pub fn id_text(&self) -> Result<String, BgaError> {
        match self.value {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
            _ => Err(self.wrong("an id (a string or an integer)")),
        }
    }

    /// A field that may be absent (`null` counts as absent). Errors if this is not an object.
    pub fn opt(&self, name: &str) -> Result<Option<At<'a>>, BgaError> {
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
    pub fn get(&self, name: &str) -> Result<At<'a>, BgaError> {
        self.opt(name)?.ok_or_else(|| BgaError::Field {
            path: self.child_path(name),
            expected: "a value".into(),
            found: "nothing (the field is missing)".into(),
            place: None,
        })
    }
}
