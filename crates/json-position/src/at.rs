//! Reading untrusted JSON values together with their path, so that every type error says
//! where it is (`replay[3].payload.position`, `data.data[3].data[0].args.x`) and what was
//! expected. Never panics. One walker for every reader of other programs' files; each reader
//! says through [`FieldError`] how its own error type holds a wrong field, and whether its
//! format writes integers as strings.

use std::marker::PhantomData;

use serde_json::{Map, Value};

/// What a reader's error type needs from the walker.
pub trait FieldError: Sized {
    /// The value at `path` is not what was `expected`; `found` describes what is there.
    fn field(path: String, expected: String, found: String) -> Self;

    /// Whether the format writes integers as strings of digits too (Board Game Arena writes
    /// `"x": "-1"` and `"player_id": 93033745` for the same kind of field), so that
    /// [`At::int`] reads either.
    const INTEGERS_AS_TEXT: bool = false;
}

/// What the document as a whole is called in a path ("the document").
pub const DOCUMENT: &str = "the document";

/// A value and the JSON path that leads to it; `E` is the reader's error type.
pub struct At<'a, E> {
    pub path: String,
    pub value: &'a Value,
    error: PhantomData<fn() -> E>,
}

// Not derived: a derive would ask `E: Clone`, which error types need not be.
impl<E> Clone for At<'_, E> {
    fn clone(&self) -> Self {
        At {
            path: self.path.clone(),
            value: self.value,
            error: PhantomData,
        }
    }
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

impl<'a, E: FieldError> At<'a, E> {
    /// The whole document.
    pub fn root(value: &'a Value) -> Self {
        Self::new_at(String::new(), value)
    }

    fn new_at(path: String, value: &'a Value) -> Self {
        At {
            path,
            value,
            error: PhantomData,
        }
    }

    /// The error for this value not being `expected`.
    pub fn wrong(&self, expected: &str) -> E {
        E::field(
            self.display_path(),
            expected.to_string(),
            describe(self.value),
        )
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

    pub fn object(&self) -> Result<&'a Map<String, Value>, E> {
        self.value
            .as_object()
            .ok_or_else(|| self.wrong("an object"))
    }

    pub fn array(&self) -> Result<Vec<At<'a, E>>, E> {
        let items = self
            .value
            .as_array()
            .ok_or_else(|| self.wrong("an array"))?;
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, value)| Self::new_at(format!("{}[{i}]", self.path), value))
            .collect())
    }

    pub fn str(&self) -> Result<&'a str, E> {
        self.value.as_str().ok_or_else(|| self.wrong("a string"))
    }

    /// An integer: a JSON number without a fraction, or, where the format writes integers as
    /// text ([`FieldError::INTEGERS_AS_TEXT`]), also a string of decimal digits.
    pub fn int(&self) -> Result<i64, E> {
        if !E::INTEGERS_AS_TEXT {
            return self.value.as_i64().ok_or_else(|| self.wrong("an integer"));
        }
        let expected = "an integer (a number or a string of digits)";
        match self.value {
            Value::Number(n) => n.as_i64().ok_or_else(|| self.wrong(expected)),
            Value::String(s) => s.trim().parse().map_err(|_| self.wrong(expected)),
            _ => Err(self.wrong(expected)),
        }
    }

    /// [`At::int`] within `min..=max`.
    pub fn int_in(&self, min: i64, max: i64) -> Result<i64, E> {
        match self.int()? {
            n if (min..=max).contains(&n) => Ok(n),
            _ => Err(self.wrong(&format!("an integer from {min} to {max}"))),
        }
    }

    /// `[x, y]`: an array of two integers (JSON numbers).
    pub fn pair(&self) -> Result<(i64, i64), E> {
        let expected = "a position [x, y] of two integers";
        match self.value.as_array().map(Vec::as_slice) {
            Some([x, y]) => match (x.as_i64(), y.as_i64()) {
                (Some(x), Some(y)) => Ok((x, y)),
                _ => Err(self.wrong(expected)),
            },
            _ => Err(self.wrong(expected)),
        }
    }

    /// Text for an id: a string as it is, an integer as its digits.
    pub fn id_text(&self) -> Result<String, E> {
        match self.value {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
            _ => Err(self.wrong("an id (a string or an integer)")),
        }
    }

    /// A field that may be absent (`null` counts as absent). Errors if this is not an object.
    pub fn opt(&self, name: &str) -> Result<Option<At<'a, E>>, E> {
        Ok(self
            .object()?
            .get(name)
            .filter(|v| !v.is_null())
            .map(|value| Self::new_at(self.child_path(name), value)))
    }

    /// A required field.
    pub fn get(&self, name: &str) -> Result<At<'a, E>, E> {
        self.opt(name)?.ok_or_else(|| {
            E::field(
                self.child_path(name),
                "a value".into(),
                "nothing (the field is missing)".into(),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Wrong(String, String, String);
    impl FieldError for Wrong {
        fn field(path: String, expected: String, found: String) -> Self {
            Wrong(path, expected, found)
        }
    }

    #[derive(Debug, PartialEq)]
    struct Lenient(String);
    impl FieldError for Lenient {
        fn field(path: String, expected: String, _found: String) -> Self {
            Lenient(format!("{path}: {expected}"))
        }
        const INTEGERS_AS_TEXT: bool = true;
    }

    #[test]
    fn errors_name_the_path_what_was_expected_and_what_was_found() {
        let v: Value = serde_json::from_str(r#"{"a":[{"x":"-1"},{"y":2.5}],"s":"q"}"#).unwrap();
        let root = At::<Wrong>::root(&v);
        let items = root.get("a").unwrap().array().unwrap();
        assert_eq!(
            items[0].get("x").unwrap().int(),
            Err(Wrong(
                "a[0].x".into(),
                "an integer".into(),
                "the string \"-1\"".into()
            ))
        );
        assert_eq!(
            items[1].get("z").map(|_| ()),
            Err(Wrong(
                "a[1].z".into(),
                "a value".into(),
                "nothing (the field is missing)".into()
            ))
        );
        assert_eq!(
            root.get("s").unwrap().array().map(|_| ()),
            Err(Wrong(
                "s".into(),
                "an array".into(),
                "the string \"q\"".into()
            ))
        );
        assert_eq!(
            root.int(),
            Err(Wrong(
                DOCUMENT.into(),
                "an integer".into(),
                "an object".into()
            ))
        );
    }

    #[test]
    fn integers_as_text_only_where_the_format_writes_them() {
        let v: Value = serde_json::from_str(r#"{"x":" -1","n":7,"f":"7x","big":"99"}"#).unwrap();
        let lenient = At::<Lenient>::root(&v);
        assert_eq!(lenient.get("x").unwrap().int(), Ok(-1));
        assert_eq!(lenient.get("n").unwrap().int(), Ok(7));
        assert_eq!(
            lenient.get("f").unwrap().int(),
            Err(Lenient(
                "f: an integer (a number or a string of digits)".into()
            ))
        );
        assert_eq!(
            lenient.get("big").unwrap().int_in(0, 50),
            Err(Lenient("big: an integer from 0 to 50".into()))
        );
        assert_eq!(lenient.get("n").unwrap().id_text(), Ok("7".into()));
        let p: Value = serde_json::from_str(r#"{"ok":[1,-2],"bad":[1,"2"]}"#).unwrap();
        let strict = At::<Wrong>::root(&p);
        assert_eq!(strict.get("ok").unwrap().pair(), Ok((1, -2)));
        assert!(strict.get("bad").unwrap().pair().is_err());
        assert!(At::<Wrong>::root(&v).get("x").unwrap().int().is_err());
    }
}
