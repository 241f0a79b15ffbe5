//! The README's tour (issue 50): every `carc …` line of "A short tour of `carc`" runs, in the
//! order shown, in a fresh folder holding a copy of the repository's `logs/` (the README is
//! read from the repository's root), and exits 0. Whatever a line reads ships in `logs/` or is
//! written by an earlier line; the one exception, a replay a reader saves from Board Game
//! Arena, is listed in [`BROUGHT`] with where the test takes it from. Some lines are also
//! held to what their comment promises ([`PROMISED`]).

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{stderr, stdout};

/// Files a tour line reads that neither ship in `logs/` nor come from an earlier line: the
/// file, why, and where the test takes it from (relative to the repository's root).
const BROUGHT: &[(&str, &str, &str)] = &[(
    "366166200.json",
    "a Board Game Arena replay: a reader saves their own with the bookmarklet (docs/bga.md); \
     the corpus's games may not be copied into the repository",
    "../shared/corpus/bga/366166200.json",
)];

/// Text replaced in a tour line before it runs, and why. Each must occur in the tour (so the
/// list cannot outlive the line it was made for).
const REPLACED: &[(&str, &str, &str)] = &[(
    "| less",
    "| cat",
    "a test has no terminal for a pager; `cat` shows what `less` would page",
)];

/// What a tour line's comment promises, as text its output must hold: the start of the line,
/// and the text. Each must match a line of the tour.
const PROMISED: &[(&str, &str)] = &[
    // "a full game: Ada and Cleo greedy, Brandt random"
    ("carc simulate ", ": final scores Ada (greedy) "),
    ("carc simulate ", ", Brandt (random) "),
    // "its moves, scores against the game"
    (
        "carc variation show ",
        "variation \"city north\", branching from the game after event 17\n",
    ),
    // "legal, and every BGA score ours too"
    (
        "carc check 366166200.json",
        "score claims checked: all agree",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `carc …` lines of the README's tour: the first `sh` block after its heading.
fn tour_lines(readme: &str) -> Vec<String> {
    let (_, tour) = readme
        .split_once("## A short tour of `carc`")
        .expect("the README has its tour");
    let (_, block) = tour.split_once("```sh\n").expect("the tour has a sh block");
    let (block, _) = block.split_once("\n```").expect("the tour's block ends");
    block
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            assert!(
                l.starts_with("carc "),
                "a tour line that is not a `carc` command: {l}"
            );
            l.to_string()
        })
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn every_line_of_the_readmes_tour_runs_in_order() {
    // Given the README's tour, a fresh folder with the sample logs, and the files it says a
    // reader brings
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let lines = tour_lines(&readme);
    assert!(lines.len() >= 20, "{lines:?}");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_dir(&root().join("logs"), &d.join("logs"));
    for (file, why, from) in BROUGHT {
        assert!(
            lines.iter().any(|l| l.contains(file)),
            "{file} is listed as brought ({why}) but no tour line reads it"
        );
        let from = root().join(from);
        assert!(
            from.is_file(),
            "{file} ({why}): expected it at {} (shared/ beside the repository)",
            from.display()
        );
        fs::copy(&from, d.join(file)).unwrap();
    }
    for (start, text) in PROMISED {
        assert!(
            lines.iter().any(|l| l.starts_with(start)),
            "no tour line starts with {start:?} to show {text:?}"
        );
    }
    for (text, _, why) in REPLACED {
        assert!(
            lines.iter().any(|l| l.contains(text)),
            "{text:?} is listed as replaced ({why}) but no tour line has it"
        );
    }
    // (A shell runs each line, so `&&`, quotes and comments read as a reader's shell reads
    // them, and `pipefail` lets no failure hide before a pipe; `carc` is the binary under
    // test, first on the PATH.)
    let bin = Path::new(env!("CARGO_BIN_EXE_carc")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in &lines {
        let mut run = line.clone();
        for (text, with, _) in REPLACED {
            run = run.replace(text, with);
        }
        // When the line runs
        let o = Command::new("bash")
            .args(["-o", "pipefail", "-c", &run])
            .current_dir(d)
            .env("PATH", &path)
            .env_remove("CARC_STORE")
            .env("PAGER", "cat")
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        // Then it succeeds
        assert!(
            o.status.success(),
            "the README's tour line failed ({:?}):\n{line}\nstdout:\n{}\nstderr:\n{}",
            o.status,
            stdout(&o),
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{line}: {}", stderr(&o));
        // And it shows what its comment promises
        for (start, text) in PROMISED {
            if line.starts_with(start) {
                assert!(
                    stdout(&o).contains(text),
                    "{line}\nshould show {text:?}; it printed:\n{}",
                    stdout(&o)
                );
            }
        }
    }
    // And the lines really did their work: the files they were to write are there
    for written in [
        "g.jsonl",
        "copy.jsonl",
        "g.jcz",
        "bga.html",
        "game.html",
        "board.svg",
    ] {
        assert!(d.join(written).is_file(), "{written} was not written");
    }
}

#[test]
fn the_tour_reads_no_file_that_is_neither_shipped_nor_written_before() {
    // Given the tour's lines, the sample logs and the brought files
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let lines = tour_lines(&readme);
    let mut known: Vec<String> = BROUGHT.iter().map(|(f, _, _)| f.to_string()).collect();
    for entry in fs::read_dir(root().join("logs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        known.push(format!("logs/{name}"));
    }
    for line in &lines {
        // The line's words before its comment
        let command = line.split("  #").next().unwrap();
        let words: Vec<&str> = command.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            let after = i.checked_sub(1).map(|j| words[j]);
            let written = matches!(after, Some("--out" | "-o"));
            let is_file = [".jsonl", ".json", ".jcz", ".moves"]
                .iter()
                .any(|ext| word.ends_with(ext));
            if !is_file {
                continue;
            }
            // When a line names a file
            if written {
                known.push(word.to_string());
            } else {
                // Then one that it reads is shipped, brought, or written by an earlier line
                assert!(
                    known.iter().any(|k| k == word),
                    "the tour line\n{line}\nreads {word}, which no earlier line writes and \
                     logs/ does not hold"
                );
            }
        }
    }
}
