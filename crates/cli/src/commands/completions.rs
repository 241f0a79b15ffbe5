//! `carc completions`: a shell completion script for the whole command line.

use std::process::ExitCode;

use anyhow::Result;

/// Prints the script for `shell`. `cli` is the whole command line (`main`'s `Cli`), passed in
/// so that no verb module depends on `main`.
pub fn completions(shell: clap_complete::Shell, cli: &mut clap::Command) -> Result<ExitCode> {
    clap_complete::generate(shell, cli, "carc", &mut std::io::stdout());
    Ok(ExitCode::SUCCESS)
}
