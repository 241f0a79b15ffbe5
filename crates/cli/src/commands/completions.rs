//! `carc completions`: a shell completion script for the whole command line.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

/// Prints the script for `shell`. `cli` is the whole command line (`main`'s `Cli`), passed in
/// so that no verb module depends on `main`.
pub fn completions(shell: clap_complete::Shell, cli: &mut clap::Command) -> Result<ExitCode> {
    // `generate` panics when its writer fails; writing into memory first leaves the one write
    // to stdout here, whose error (a closed pipe) `main` maps to its exit code.
    let mut script = Vec::new();
    clap_complete::generate(shell, cli, "carc", &mut script);
    std::io::stdout().lock().write_all(&script)?;
    Ok(ExitCode::SUCCESS)
}
