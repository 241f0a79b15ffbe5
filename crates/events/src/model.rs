//! The typed content of a log line: the header ([`header`]), events and assertions
//! ([`event`]) and the values they are made of ([`values`]). The whole log in memory is
//! `crate::log`.

mod event;
mod header;
mod values;

pub use event::*;
pub use header::*;
pub use values::*;
