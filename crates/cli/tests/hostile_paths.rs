//! Paths that are not game files: an endless device, a pipe nobody writes to, a folder. Each
//! is refused at once with what it is (exit 2), never read until memory runs out, never
//! waited on while the store is locked.

#![cfg(unix)]

mod common;
use common::{stderr, stdout};

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `carc ARGS…` in `dir`, killing it if it has not finished within `limit` (a hang is
/// the failure these tests look for, so they must not hang themselves).
fn carc_within(dir: &std::path::Path, args: &[&str], limit: Duration) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("carc runs");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            let _ = child.wait();
            panic!("carc {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn check_of_an_endless_device_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc_within(dir.path(), &["check", "/dev/zero"], Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("/dev/zero: it is a device, not a regular file"),
        "{}",
        stdout(&o)
    );
    let o = carc_within(
        dir.path(),
        &["explain", "/dev/zero", "--at", "1"],
        Duration::from_secs(20),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it is a device"), "{}", stderr(&o));
}

#[test]
fn import_of_a_pipe_does_not_block_while_holding_the_store() {
    // Given a FIFO nobody writes to, beside a legal log
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("game.jsonl");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let log = common::logs_dir().join("short-game-rulings.jsonl");
    let log = log.display().to_string();
    // When both are imported
    let o = carc_within(
        dir.path(),
        &["--store", "st", "import", &log, "game.jsonl"],
        Duration::from_secs(30),
    );
    // Then the log is stored, the pipe is refused for what it is, and the exit says a file
    // could not be read
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("imported 1,"), "{text}");
    assert!(
        text.contains("it is a pipe (FIFO), not a regular file"),
        "{text}"
    );
    // And the store is free for the next command
    let o = carc_within(
        dir.path(),
        &["--store", "st", "games"],
        Duration::from_secs(30),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("short-game-rulings"), "{}", stdout(&o));
}
