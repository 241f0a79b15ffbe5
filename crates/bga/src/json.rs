//! Board Game Arena's replays are read with the shared walker of untrusted JSON
//! ([`carc_json_position::At`]): every type error says where it is
//! (`data.data[3].data[0].args.x`) and what was expected.
//!
//! BGA writes most numbers as strings (`"x": "-1"`) and some as numbers (`"player_id":
//! 93033745`), even for the same field in different notifications, so integers are read
//! from either.

use crate::error::BgaError;

/// A value of a BGA replay and the JSON path that leads to it.
pub type At<'a> = carc_json_position::At<'a, BgaError>;

impl carc_json_position::FieldError for BgaError {
    fn field(path: String, expected: String, found: String) -> Self {
        BgaError::Field {
            path,
            expected,
            found,
            place: None,
        }
    }

    const INTEGERS_AS_TEXT: bool = true;
}
