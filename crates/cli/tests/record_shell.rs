//! The record shell, `carc record GAME` (issue 36, item 2): lines piped in are the verbs'
//! lines without the game, stored exactly as the verbs store them; a refused line stores
//! nothing, the next one works, and the exit code says a line was refused; while the shell
//! holds the store, another `carc` is told who holds it.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{carc_with_store, record_shell as shell, stderr, stdout};

fn verb(store: &Path, args: &[&str]) -> Output {
    let mut all = vec!["record"];
    all.extend_from_slice(args);
    carc_with_store(store, &all)
}

fn raw(store: &Path, game: &str) -> Vec<u8> {
    let o = carc_with_store(store, &["export", "--raw", game]);
    assert!(o.status.success(), "{}", stderr(&o));
    o.stdout
}

#[test]
fn a_game_piped_into_the_shell_is_stored_as_the_verbs_store_it() {
    let dir = tempfile::tempdir().unwrap();
    let (by_verbs, by_shell) = (dir.path().join("verbs"), dir.path().join("shell"));
    let moves: [&[&str]; 8] = [
        &["new", "g", "--players", "Ada,Bo"],
        &["turn", "g", "N", "0", "1", "180", "city-S"],
        &["draw", "g", "V"],
        &["place", "g", "1", "0", "90"],
        &["meeple", "g", "road-W"],
        &["undo", "g"],
        &["meeple", "g", "none"],
        &["end", "g"],
    ];
    for m in moves {
        let o = verb(&by_verbs, m);
        assert!(o.status.success(), "{m:?}: {}", stderr(&o));
    }
    // The same moves as shell lines: no game, a spot in two words or quoted.
    let lines = "new --players Ada,Bo\nturn N 0 1 180 city S\n\ndraw v\nplace 1 0 90\n\
                 meeple 'road W'\nundo\nmeeple none\nend\n";
    let o = shell(&by_shell, "g", lines);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("started game g: Ada (red), Bo (blue)"),
        "{}",
        stdout(&o)
    );
    assert_eq!(raw(&by_shell, "g"), raw(&by_verbs, "g"));
    // The game is over and sealed: a further line is refused as the verb is.
    let o = shell(&by_shell, "g", "draw V\n");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("game g is over"), "{}", stderr(&o));
}

#[test]
fn a_refused_line_stores_nothing_the_next_works_and_the_exit_code_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (by_verbs, by_shell) = (dir.path().join("verbs"), dir.path().join("shell"));
    for m in [
        &["new", "g", "--players", "Ada,Bo"][..],
        &["draw", "g", "V"],
        &["place", "g", "1", "0", "90", "none"],
    ] {
        assert!(verb(&by_verbs, m).status.success(), "{m:?}");
    }
    let lines = "new --players Ada,Bo\ndraw V\nplace 7 7 0 none\nfrobnicate 3\n\
                 place 1 0 45\nplace 1 0 'unbalanced\nplace 1 0 90 none\n";
    let o = shell(&by_shell, "g", lines);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{}{err}", stdout(&o));
    // Each refusal in the verb's words (the fold's, clap's, the rotation's, the shell's).
    assert!(err.contains("carc: illegal move, not recorded"), "{err}");
    assert!(
        err.contains("unrecognized subcommand 'frobnicate'"),
        "{err}"
    );
    assert!(err.contains("rotation 45 is not one of"), "{err}");
    assert!(err.contains("unbalanced quotes"), "{err}");
    assert_eq!(err.matches("nothing was recorded").count(), 3, "{err}");
    // What is stored is the good lines alone, byte for byte as the verbs store them.
    assert_eq!(raw(&by_shell, "g"), raw(&by_verbs, "g"));
    // `show` and `legal` describe without storing anything; `quit` ends the input.
    let o = shell(&by_shell, "g", "draw U\nshow\nlegal\nquit\nend\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("tile U: [n] marks a legal square"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("(") && l.contains("): ")),
        "{out}"
    );
    let o = shell(&by_shell, "g", "legal\n");
    assert!(stdout(&o).contains("): "), "{}", stdout(&o));
    // `end` after `quit` was not run: U still waits to be placed.
    assert!(stdout(&o).contains("places tile U"), "{}", stdout(&o));
}

#[test]
fn while_the_shell_holds_the_store_another_carc_is_told_who() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    assert!(verb(&store, &["new", "g", "--players", "Ada,Bo"])
        .status
        .success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .arg("--store")
        .arg(&store)
        .args(["record", "g"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"draw V\n").unwrap();
    // The shell has the store once its note is there.
    let started = Instant::now();
    while !store.join(carc_store::HOLDER_FILE).exists() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no holder note"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = verb(&store, &["place", "g", "1", "0", "90", "none"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let expected = format!(
        "is in use by carc record shell on game g (pid {}, since ",
        child.id()
    );
    assert!(err.contains(&expected), "{err}");
    assert!(err.contains(" UTC); quit it or wait"), "{err}");
    input.write_all(b"place 1 0 90 none\n").unwrap();
    drop(input);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Quit, the shell's note is gone and the store is free.
    assert!(!store.join(carc_store::HOLDER_FILE).exists());
    let o = verb(&store, &["undo", "g"]);
    assert!(o.status.success(), "{}", stderr(&o));
}
