//! The progress bar of the verbs that work through many games (`simulate`, `import`,
//! `rebuild`, `verify`, `analyze`): on stderr, only when stderr is a terminal and `--quiet` is
//! not given, so that pipes, logs and tests see nothing of it; never on stdout.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// The bar's layout: done of all, the rate, the time left, and a message (e.g. a file name).
const TEMPLATE: &str = "{bar:40} {pos}/{len} {prefix} ({rate}, {eta} left) {wide_msg}";

/// A bar for `len` items called `unit` ("games", "files"), or a hidden one.
pub fn bar(quiet: bool, len: u64, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(TEMPLATE)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            // Whole items per second: indicatif's own `per_sec` shows four decimals.
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}/s", state.per_sec());
                },
            ),
    );
    bar.set_prefix(unit.to_string());
    bar
}
