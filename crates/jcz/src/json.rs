//! JCloisterZone's documents are read with the shared walker of untrusted JSON
//! ([`carc_json_position::At`]): every type error says where it is
//! (`replay[3].payload.position`) and what was expected. JCloisterZone writes integers as
//! JSON numbers, so only those are integers here.

pub use carc_json_position::describe;

use crate::error::JczError;

/// A value of a JCloisterZone document and the JSON path that leads to it.
pub type At<'a> = carc_json_position::At<'a, JczError>;

impl carc_json_position::FieldError for JczError {
    fn field(path: String, expected: String, found: String) -> Self {
        JczError::Field {
            path,
            expected,
            found,
            position: None,
        }
    }
}
