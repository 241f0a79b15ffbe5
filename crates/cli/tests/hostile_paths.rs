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

/// A folder of `n` simulated logs (`game-s1.jsonl`, …) in `dir/logs`.
fn simulated(dir: &std::path::Path, n: u32) -> std::path::PathBuf {
    let o = carc_within(
        dir,
        &["simulate", "-q", "--seed", "1", "--players", "2", "--games"]
            .into_iter()
            .chain([n.to_string().as_str(), "--out", "logs"])
            .collect::<Vec<_>>(),
        Duration::from_secs(60),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    dir.join("logs")
}

#[test]
fn unreadable_entries_of_a_folder_are_rejected_not_passed_over() {
    use std::os::unix::fs::symlink;
    // Given a folder of 3 logs and, beside them, a dangling link, a link loop and a FIFO
    // named like logs
    let dir = tempfile::tempdir().unwrap();
    let logs = simulated(dir.path(), 3);
    symlink(logs.join("nowhere"), logs.join("dangling.jsonl")).unwrap();
    symlink(logs.join("loop.jsonl"), logs.join("loop.jsonl")).unwrap();
    let made = Command::new("mkfifo")
        .arg(logs.join("pipe.jsonl"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());

    // When the folder is imported
    let o = carc_within(
        dir.path(),
        &["--store", "st", "import", "logs", "--json"],
        Duration::from_secs(60),
    );
    // Then the logs are stored, each of the three is rejected as unreadable, exit 2
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let report: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(report["imported"], 3, "{report}");
    assert_eq!(report["rejected"], 3, "{report}");
    for name in ["dangling.jsonl", "loop.jsonl", "pipe.jsonl"] {
        assert!(
            report["files"].as_array().unwrap().iter().any(|f| f["file"]
                .as_str()
                .unwrap()
                .ends_with(name)
                && f["status"] == "rejected"
                && f["line"].is_null()),
            "{name}: {report}"
        );
    }

    // Given the store, and the folder with one log replaced by a dangling link
    std::fs::remove_file(logs.join("dangling.jsonl")).unwrap();
    std::fs::remove_file(logs.join("loop.jsonl")).unwrap();
    std::fs::remove_file(logs.join("pipe.jsonl")).unwrap();
    std::fs::rename(logs.join("game-s2.jsonl"), dir.path().join("moved.jsonl")).unwrap();
    symlink(dir.path().join("gone.jsonl"), logs.join("game-s2.jsonl")).unwrap();
    // When the store is rebuilt from it with --force
    let o = carc_within(
        dir.path(),
        &["--store", "st", "rebuild", "--from", "logs", "--force"],
        Duration::from_secs(60),
    );
    // Then the rebuild is refused (exit 2) and the store keeps its 3 games, as it was
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("game-s2.jsonl: cannot read"),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("was not rebuilt and is left as it was"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path().join("st.old-1").exists());
    assert!(!dir.path().join("st.rebuild").exists());
    let o = carc_within(
        dir.path(),
        &["--store", "st", "games"],
        Duration::from_secs(60),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
}

#[test]
fn rules_files_and_moves_files_are_refused_when_endless_or_a_pipe() {
    // Given a FIFO nobody writes to and a log to add a variation to
    let dir = tempfile::tempdir().unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.path().join("pipe.json"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let log = common::logs_dir().join("short-game-rulings.jsonl");
    std::fs::copy(&log, dir.path().join("g.jsonl")).unwrap();
    for path in ["/dev/zero", "pipe.json"] {
        let kind = if path == "/dev/zero" {
            "it is a device, not a regular file"
        } else {
            "it is a pipe (FIFO), not a regular file"
        };
        // When each reader of a tile-set, map or moves file is given it
        let runs: [&[&str]; 5] = [
            &["--tiles", path, "tiles", "check", "no-such-file.json"],
            &["--map", path, "map", "check", "germany"],
            &["tiles", "check", path],
            &["map", "check", path],
            &[
                "variation",
                "add",
                "g.jsonl",
                "--name",
                "v",
                "--after",
                "1",
                "--moves",
                path,
            ],
        ];
        for args in runs {
            // Then it is refused at once, saying what the path is (exit 2), not read until
            // memory runs out nor waited on for ever
            let o = carc_within(dir.path(), args, Duration::from_secs(20));
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(
                stderr(&o).contains(&format!("cannot read {path}: {kind}")),
                "{args:?}: {}",
                stderr(&o)
            );
        }
    }
}

#[test]
fn a_write_that_runs_out_of_room_leaves_no_partial_output_file() {
    // Given a game, and a file-size limit of 4 KiB standing in for a full disk (the signal
    // ignored, so that a write past it fails as on a full disk instead of killing carc)
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::logs_dir().join("short-game-rulings.jsonl"),
        dir.path().join("g.jsonl"),
    )
    .unwrap();
    for args in [
        "export g.jsonl --format html --out out.html",
        "render g.jsonl --out out.svg",
        "simulate -q --games 2 --out sims",
        "export g.jsonl --format parquet --out tables",
    ] {
        // When the output is larger than that
        let script = format!("trap '' XFSZ; ulimit -f 4; exec \"$0\" {args}");
        let o = Command::new("bash")
            .args(["-c", &script, env!("CARGO_BIN_EXE_carc")])
            .current_dir(dir.path())
            .output()
            .unwrap();
        // Then carc fails saying it cannot write, and leaves no file, whole or partial
        assert_eq!(o.status.code(), Some(2), "{args}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write"),
            "{args}: {}",
            stderr(&o)
        );
        assert!(
            stderr(&o).contains("File too large"),
            "{args}: {}",
            stderr(&o)
        );
        let left: Vec<String> = files_under(dir.path())
            .into_iter()
            .filter(|n| !n.ends_with("g.jsonl"))
            .collect();
        assert!(left.is_empty(), "{args}: left {left:?}");
    }
}

/// Every file under `dir` (folders searched, not listed), as text.
fn files_under(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path.display().to_string());
        }
    }
    out
}

#[test]
fn a_mistyped_path_creates_no_store_and_a_pipe_is_no_stored_game() {
    let dir = tempfile::tempdir().unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.path().join("pipe.jsonl"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let runs: [&[&str]; 5] = [
        &["analyze", "gmae.jsonl"],
        &["annotate", "gmae.jsonl", "--at", "1", "--text", "x"],
        &["export", "gmae.jsonl"],
        &[
            "export",
            "gmae.jsonl",
            "--format",
            "parquet",
            "--out",
            "tables",
        ],
        &["render", "gmae.jsonl", "--out", "b.svg"],
    ];
    for args in runs {
        // When a verb that takes FILE|GAME is given a path that does not exist
        let o = carc_within(dir.path(), args, Duration::from_secs(20));
        // Then it says there is no such file and no store, and creates none (the Parquet
        // export names it among the games it could not export, exit 1)
        let code = if args.contains(&"parquet") { 1 } else { 2 };
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("gmae.jsonl: no such file, and no store at carc-store")
                || stderr(&o).contains(
                    "gmae.jsonl: cannot be exported: no such file, and no store at carc-store"
                ),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(!dir.path().join("carc-store").exists(), "{args:?}");
    }
    for verb in ["analyze", "annotate", "export"] {
        // When it is given a FIFO
        let mut args = vec![verb, "pipe.jsonl"];
        if verb == "annotate" {
            args.extend(["--at", "1", "--text", "x"]);
        }
        let o = carc_within(dir.path(), &args, Duration::from_secs(20));
        // Then the FIFO is refused for what it is, not looked for in a store
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot read pipe.jsonl: it is a pipe (FIFO)"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(!dir.path().join("carc-store").exists(), "{args:?}");
    }
}

#[test]
fn annotate_refuses_a_text_over_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::logs_dir().join("short-game-rulings.jsonl"),
        dir.path().join("g.jsonl"),
    )
    .unwrap();
    let long = "x".repeat(carc_events::text::MAX_ANNOTATION_CHARS + 1);
    let o = carc_within(
        dir.path(),
        &["annotate", "g.jsonl", "--at", "3", "--text", &long],
        Duration::from_secs(20),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--text: it is 10001 characters long, more than the 10000 allowed"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path().join("g.jsonl.annotations.jsonl").exists());
}
