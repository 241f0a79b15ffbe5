//! What reading a saved game has found so far, so that one error lists everything the file
//! uses that carc does not implement.

use std::collections::BTreeMap;

use crate::error::{JczError, UnsupportedUse};

/// What reading has found so far: everything unsupported (what, and where: JSON paths, in
/// the order found), and the first format error. Reading goes on past a format error so that
/// a file of another expansion is refused for what it uses, not for a value of that
/// expansion's that the base-game reader cannot parse.
#[derive(Default)]
pub(super) struct Findings {
    pub(super) unsupported: BTreeMap<String, Vec<String>>,
    pub(super) first_error: Option<JczError>,
}

impl Findings {
    pub(super) fn unsupported(&mut self, what: impl Into<String>, at: &str) {
        self.unsupported
            .entry(what.into())
            .or_default()
            .push(at.to_string());
    }

    /// The value, or `None` with the error kept (the first one only) for after the scan.
    pub(super) fn defer<T>(&mut self, result: Result<T, JczError>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                self.first_error.get_or_insert(e);
                None
            }
        }
    }

    /// Unsupported content first, then the first format error.
    pub(super) fn into_result(self) -> Result<(), JczError> {
        if !self.unsupported.is_empty() {
            let items = self
                .unsupported
                .into_iter()
                .map(|(what, paths)| UnsupportedUse {
                    what,
                    paths,
                    position: None,
                })
                .collect();
            return Err(JczError::Unsupported(items));
        }
        match self.first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
