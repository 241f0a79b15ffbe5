//! The exit codes of `carc`, all in one place (the table in `docs/cli.md`):
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success; also when the reader of stdout went away (`carc … \| head`) |
//! | 1 | the verb ran and the input is illegal: an illegal event, a failed assertion, a rejected file, a refused move, a verify problem |
//! | 2 | the verb could not run: bad arguments (clap), a file that cannot be read or does not exist, no such game or event, store in use |
//!
//! A verb returns its code (`exit_if`, `worst`) or an error; `for_error` maps an error to its
//! code, and the panic hook of `quiet_on_broken_pipe` covers output written with `println!`.

use std::io;
use std::process::ExitCode;

/// All was well.
pub const OK: u8 = 0;
/// The input is illegal, an assertion failed, a file was rejected, a move refused.
pub const ILLEGAL: u8 = 1;
/// Usage, IO, not found: the verb could not do its work.
pub const CANNOT_RUN: u8 = 2;
/// A closed stdout ends the command quietly and successfully, as ripgrep does; a shell's
/// `pipefail` then does not report the early exit of a pager or `head` as a failure.
pub const BROKEN_PIPE: u8 = OK;

/// Exit code 0 if all was well, else 1.
pub fn exit_if(ok: bool) -> ExitCode {
    ExitCode::from(if ok { OK } else { ILLEGAL })
}

/// An error that means the input is illegal (exit 1) rather than that the verb could not run
/// (exit 2): e.g. `replay --at N` beyond an illegal event.
#[derive(Debug)]
pub struct IllegalInput(pub String);

impl std::fmt::Display for IllegalInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IllegalInput {}

/// Whether an error chain is a write to a closed pipe.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The exit code of an error that stopped a verb, and whether to print it.
pub fn for_error(error: &anyhow::Error) -> (u8, bool) {
    if is_broken_pipe(error) {
        (BROKEN_PIPE, false)
    } else if error.chain().any(|c| c.is::<IllegalInput>()) {
        (ILLEGAL, true)
    } else {
        (CANNOT_RUN, true)
    }
}

/// The panic message `print!`/`println!` use when stdout is closed (std's wording, which
/// names the OS error; "Broken pipe" is its text on every Unix).
fn is_broken_pipe_panic(message: &str) -> bool {
    message.starts_with("failed printing to stdout") && message.contains("Broken pipe")
}

/// Installs a panic hook, first thing in `main`, that keeps quiet about a `println!` to a
/// closed stdout (the process then exits with `BROKEN_PIPE` from `main`, after unwinding, so
/// temporary files are still removed) and leaves every other panic to the default hook.
/// `unsafe_code` is forbidden workspace-wide, so resetting SIGPIPE is no option.
pub fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !panic_is_broken_pipe(info.payload()) {
            default(info);
        }
    }));
}

/// Whether a panic payload is std's "failed printing to stdout: Broken pipe" message.
pub fn panic_is_broken_pipe(payload: &(dyn std::any::Any + Send)) -> bool {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied());
    message.is_some_and(is_broken_pipe_panic)
}

/// Worst of several codes, for verbs that go on after a problem (0 < 1 < 2).
pub fn worst(codes: impl IntoIterator<Item = u8>) -> ExitCode {
    ExitCode::from(codes.into_iter().max().unwrap_or(OK))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_broken_pipe_message_is_recognised_and_others_are_not() {
        assert!(is_broken_pipe_panic(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(!is_broken_pipe_panic("index out of bounds"));
        assert!(!is_broken_pipe_panic(
            "failed printing to stdout: No space left on device (os error 28)"
        ));
    }

    #[test]
    fn errors_map_to_their_codes() {
        let pipe = anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(for_error(&pipe), (BROKEN_PIPE, false));
        let illegal = anyhow::Error::new(IllegalInput("event 3 is illegal".into()));
        assert_eq!(for_error(&illegal.context("x.jsonl")), (ILLEGAL, true));
        let missing = anyhow::Error::new(io::Error::from(io::ErrorKind::NotFound));
        assert_eq!(for_error(&missing), (CANNOT_RUN, true));
    }
}
