//! Upcasting: the single place where lines of older format versions are rewritten into the
//! current shape before they are decoded.
//!
//! Policy: a change that an old reader could misread (a new required field, a changed meaning)
//! bumps [`CURRENT_VERSION`]. Event types used only by a named expansion (the anniversary's
//! `arrow_chosen`, `arrow_meeple_placed`) are added within the version: an old reader refuses
//! the expansion name and the unknown types, so it cannot misread them, and base-game logs keep
//! their exact bytes. Files are never rewritten on disk and stored
//! events are never edited; reading an old file passes each of its lines through [`upcast`].
//!
//! Adding version 2 means: bump `CURRENT_VERSION` to 2, write `fn v1_to_v2(line: Value) ->
//! Result<Value, UpcastError>` and add the arm `1 => v1_to_v2(line)` to `upcast_step`.

use serde_json::Value;

use crate::CURRENT_VERSION;

/// A line of an older version that cannot be brought to the current shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot upcast this version {from_version} line to version {CURRENT_VERSION}: {message}")]
pub struct UpcastError {
    /// The version the line was written in.
    pub from_version: u32,
    /// Why.
    pub message: String,
}

/// Rewrites one line (header, event or assertion) written in format `from_version` into the
/// shape of [`CURRENT_VERSION`]. A current line is returned unchanged. Header lines come out
/// with `"version"` set to the current version.
pub fn upcast(from_version: u32, line: Value) -> Result<Value, UpcastError> {
    if from_version == 0 || from_version > CURRENT_VERSION {
        return Err(UpcastError {
            from_version,
            message: format!("there is no format version {from_version}"),
        });
    }
    let mut line = line;
    let mut version = from_version;
    while version < CURRENT_VERSION {
        line = upcast_step(version, line)?;
        version += 1;
    }
    if let Value::Object(fields) = &mut line {
        if fields.contains_key("format") {
            fields.insert("version".into(), Value::from(CURRENT_VERSION));
        }
    }
    Ok(line)
}

/// Rewrites a line from `version` to `version + 1`: one arm per older version.
fn upcast_step(version: u32, line: Value) -> Result<Value, UpcastError> {
    // Version 1 is the first version, so there is no step yet. The first arm will be
    //     1 => v1_to_v2(line),
    drop(line);
    Err(UpcastError {
        from_version: version,
        message: format!("no upcaster from version {version} to {}", version + 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn current_lines_pass_unchanged() {
        let event = serde_json::json!({"seq": 1, "type": "meeple_skipped", "player": 0});
        assert_eq!(upcast(CURRENT_VERSION, event.clone()), Ok(event));
        let header = serde_json::json!({"format": "carcassonne-log", "version": CURRENT_VERSION});
        assert_eq!(upcast(CURRENT_VERSION, header.clone()), Ok(header));
    }

    #[test]
    fn unknown_versions_are_refused() {
        let err = upcast(0, Value::Null).unwrap_err();
        assert_eq!(err.from_version, 0);
        assert!(err.to_string().contains("no format version 0"), "{err}");
        assert!(upcast(CURRENT_VERSION + 1, Value::Null).is_err());
    }

    #[test]
    fn missing_step_is_an_error_not_a_panic() {
        assert!(upcast_step(CURRENT_VERSION, Value::Null).is_err());
    }
}
