//! One event decoded from a JSON object (a log line, or a move of a variation): `seq`, `type`,
//! fields and player checked. The log reader (`crate::read`) and the variation records
//! (`crate::variation`) both decode events here, so neither imports the other.

use serde_json::{Map, Value};

use crate::error::DecodeErrorKind;
use crate::model::{Envelope, Event, EVENT_TYPES};
use crate::{short, truncate};

/// A JSON value for an error message, shortened.
pub(crate) fn show(value: &Value) -> String {
    truncate(&value.to_string())
}

/// A line's `type`, if it has one; it must be a string.
pub(crate) fn type_of(fields: &Map<String, Value>) -> Result<Option<String>, DecodeErrorKind> {
    match fields.get("type") {
        None => Ok(None),
        Some(Value::String(t)) => Ok(Some(t.clone())),
        Some(other) => Err(DecodeErrorKind::Invalid {
            column: None,
            message: format!("\"type\" must be a string, found {}", show(other)),
        }),
    }
}

/// Decodes an event given as a JSON object (a log line, or a move of a variation): `seq` must
/// be `expected_seq`, the `type` known, the fields valid and the player one of the `players`.
pub(crate) fn decode_event_object(
    fields: Map<String, Value>,
    players: usize,
    expected_seq: u64,
) -> Result<Envelope, DecodeErrorKind> {
    let type_name = type_of(&fields)?;
    decode_event_fields(fields, type_name, players, expected_seq)
}

/// [`decode_event_object`] once the line's `type` has been read (the log reader reads it
/// first to tell events from the other lines, and a line is read once).
pub(crate) fn decode_event_fields(
    mut fields: Map<String, Value>,
    type_name: Option<String>,
    players: usize,
    expected_seq: u64,
) -> Result<Envelope, DecodeErrorKind> {
    let Some(seq) = fields.remove("seq") else {
        return Err(match type_name {
            Some(t) if EVENT_TYPES.contains(&t.as_str()) => {
                DecodeErrorKind::MissingSeq { event_type: t }
            }
            _ => DecodeErrorKind::UnrecognizedLine,
        });
    };
    let Some(seq) = seq.as_u64() else {
        return Err(DecodeErrorKind::InvalidSeq { found: show(&seq) });
    };
    check_seq(seq, expected_seq)?;
    let type_name = match type_name {
        None => return Err(DecodeErrorKind::MissingType),
        Some(t) if !EVENT_TYPES.contains(&t.as_str()) => {
            return Err(DecodeErrorKind::UnknownEventType { found: short(&t) })
        }
        Some(t) => t,
    };
    let extra = fields.keys().find(|k| k.as_str() != "type").cloned();
    let event: Event =
        serde_json::from_value(Value::Object(fields)).map_err(|e| DecodeErrorKind::Invalid {
            column: None,
            message: format!("{type_name} event: {e}"),
        })?;
    if let (true, Some(field)) = (event.takes_no_fields(), extra) {
        return Err(DecodeErrorKind::Invalid {
            column: None,
            message: format!("{type_name} event: unknown field `{field}`, it has no fields"),
        });
    }
    check_player(&event, players)?;
    Ok(Envelope { seq, event })
}

/// Events are numbered 1, 2, 3, … without gaps.
pub(crate) fn check_seq(seq: u64, expected_seq: u64) -> Result<(), DecodeErrorKind> {
    if seq == expected_seq {
        Ok(())
    } else {
        Err(DecodeErrorKind::SeqOutOfSequence {
            found: seq,
            expected: expected_seq,
        })
    }
}

/// The acting seat is one of the header's.
pub(crate) fn check_player(event: &Event, players: usize) -> Result<(), DecodeErrorKind> {
    match event.player() {
        Some(player) if usize::from(player) >= players => {
            Err(DecodeErrorKind::PlayerOutOfRange { player, players })
        }
        _ => Ok(()),
    }
}
