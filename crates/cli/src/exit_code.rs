//! The exit code of a verb that reports whether everything was well.

use std::process::ExitCode;

/// Exit code 0 if all was well, else 1.
pub fn exit_if(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
