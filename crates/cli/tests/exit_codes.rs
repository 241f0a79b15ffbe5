//! The exit-code table of `docs/cli.md`, one test per row: 0 success (also when the reader of
//! stdout goes away early), 1 the input is illegal, 2 the verb could not run.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{carc, carc_with_store, logs_dir, stderr, stdout};

const SHORT: &str = "short-game-rulings.jsonl";

/// The short sample with event 3 rotated so that it no longer fits (an illegal event).
fn illegal_log(dir: &std::path::Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(logs_dir().join(SHORT)).unwrap();
    let bad = text.replacen(
        "{\"seq\":3,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"N\",\"at\":[0,1],\"rotation\":180}",
        "{\"seq\":3,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"N\",\"at\":[0,1],\"rotation\":0}",
        1,
    );
    assert_ne!(bad, text, "the edit applies");
    let path = dir.join("bad.jsonl");
    std::fs::write(&path, bad).unwrap();
    path
}

#[test]
fn row_0_success() {
    let o = carc(&["check", SHORT], &logs_dir());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = carc(&["replay", SHORT], &logs_dir());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Spawns `carc ARGS`, reads one line of its stdout, closes the pipe and waits: the command
/// must end quietly with the documented code (0) rather than panic (101).
fn read_one_line_then_close(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .args(args)
        .current_dir(logs_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("carc runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty(), "{args:?} printed a first line");
    // The reader is dropped here: the pipe is closed with output still to come.
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
}

#[test]
fn row_0_a_closed_stdout_ends_the_command_quietly() {
    // Far more than a pipe holds (64 KiB), so the writes after the first line must fail:
    // a completion script (about 75 KB; clap_complete used to panic) and `check` of the same
    // log 3,000 times (written with `writeln!`, the returned-error path).
    read_one_line_then_close(&["completions", "bash"]);
    let many: Vec<&str> = std::iter::once("check")
        .chain(std::iter::repeat_n(SHORT, 3000))
        .collect();
    read_one_line_then_close(&many);
    // `println!` (the panic-hook path): explain prints several lines after the first.
    read_one_line_then_close(&["explain", "sim-3p-greedy.jsonl", "--at", "100"]);
    read_one_line_then_close(&["replay", "sim-3p-greedy.jsonl"]);
}

#[test]
fn row_0_println_to_a_pipe_closed_before_any_output() {
    // The read end is closed before carc writes a byte: every `println!` meets a closed pipe.
    for args in [
        &["replay", "sim-3p-greedy.jsonl", "--at", "50"][..],
        &["explain", "sim-3p-greedy.jsonl", "--at", "100"],
        &["legal", "sim-3p-greedy.jsonl", "--at", "50"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
            .env_remove("CARC_STORE")
            .args(args)
            .current_dir(logs_dir())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("carc runs");
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn row_1_the_input_is_illegal_or_an_assertion_failed() {
    let dir = tempfile::tempdir().unwrap();
    let bad = illegal_log(dir.path());
    let bad = bad.to_str().unwrap();
    for args in [
        &["check", bad][..],
        &["explain", bad, "--at", "3"],
        // Beyond the illegal event: the input is illegal, not the command line.
        &["replay", bad, "--at", "10"],
        &["legal", bad, "--at", "10"],
    ] {
        let o = carc(args, dir.path());
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    }
    // A failed assertion.
    let text = std::fs::read_to_string(logs_dir().join(SHORT)).unwrap();
    let lying = dir.path().join("lying.jsonl");
    std::fs::write(&lying, text.replace("[20,11]", "[11,20]")).unwrap();
    let o = carc(&["check", lying.to_str().unwrap()], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("[log.assertion]"), "{}", stdout(&o));
    // A rejected import and a refused recorded move.
    let store = dir.path().join("store");
    let o = carc_with_store(&store, &["import", bad]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = carc_with_store(&store, &["record", "new", "t", "--players", "Ada,Bo"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = carc_with_store(&store, &["record", "turn", "t", "V", "9", "9", "0", "none"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = carc_with_store(&store, &["record", "meeple", "t", "none"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn row_2_usage_io_or_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    for args in [
        // Usage (clap).
        &["check"][..],
        &["replay", SHORT, "--at", "x"],
        &["no-such-verb"],
        // IO: a file that does not exist, for a verb that reports files one by one too.
        &["check", "missing.jsonl"],
        &["check", SHORT, "missing.jsonl"],
        &["replay", "missing.jsonl"],
        // Not found: an event, a stored game.
        &["explain", SHORT, "--at", "99"],
        &["replay", SHORT, "--at", "99"],
    ] {
        let o = carc(args, &logs_dir());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
    let o = carc_with_store(&store, &["export", "no-such-game"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // `import` goes on past a file it cannot read, and then exits 2.
    let short = logs_dir().join(SHORT);
    let o = carc_with_store(
        &store,
        &["import", short.to_str().unwrap(), "missing.jsonl"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("imported 1,"), "{}", stdout(&o));
    // A missing file outranks an illegal one: the run could not look at everything.
    let bad = illegal_log(dir.path());
    let o = carc(
        &["check", bad.to_str().unwrap(), "missing.jsonl"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}

#[test]
fn the_table_in_the_docs_has_one_row_per_code() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli.md"),
    )
    .unwrap();
    for row in ["| 0 |", "| 1 |", "| 2 |"] {
        assert!(doc.contains(row), "docs/cli.md lacks the row {row}");
    }
}
