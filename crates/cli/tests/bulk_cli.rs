//! Bulk verbs on every core (issue 35): `simulate --threads` writes the same files and
//! `check DIR --threads` prints the same lines, in input order, whatever the number of
//! threads; `check` takes folders as `import` does.

mod common;
use common::{carc, logs_dir, stderr, stdout};

use std::collections::BTreeMap;
use std::path::Path;

/// Every file of a folder, by name, with its bytes.
fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

fn simulate(dir: &Path, out: &str, threads: &str) {
    let o = carc(
        &[
            "simulate",
            "--seed",
            "95",
            "--players",
            "3",
            "--games",
            "12",
            "--strategy",
            "greedy,random",
            "--threads",
            threads,
            "--out",
            out,
        ],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn simulate_writes_the_same_files_on_one_and_on_four_threads() {
    let dir = tempfile::tempdir().unwrap();
    simulate(dir.path(), "one", "1");
    simulate(dir.path(), "four", "4");
    let one = files_of(&dir.path().join("one"));
    let four = files_of(&dir.path().join("four"));
    assert_eq!(one.len(), 12);
    // Seeds 95 to 106, padded to the widest: game-s095 … game-s106.
    assert!(one.contains_key("game-s095.jsonl") && one.contains_key("game-s106.jsonl"));
    assert_eq!(one, four);
}

/// A folder of games to check: simulated ones, one whose final-score claim is wrong, a file
/// that is not a log, a dangling link (unreadable), a sidecar and a sub-folder (both left out).
fn mixed_folder(dir: &Path) -> std::path::PathBuf {
    simulate(dir, "games", "2");
    let games = dir.join("games");
    // A game whose final-score claim is wrong.
    let game = std::fs::read_to_string(games.join("game-s095.jsonl")).unwrap();
    let (body, _claim) = game.trim_end().rsplit_once('\n').unwrap();
    std::fs::write(
        games.join("x-wrong-scores.jsonl"),
        format!("{body}\n{{\"type\":\"expect_final_scores\",\"scores\":[0,0,0]}}\n"),
    )
    .unwrap();
    std::fs::write(games.join("x-garbage.jsonl"), "not a log\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("nowhere.jsonl"), games.join("x-gone.jsonl")).unwrap();
    std::fs::write(games.join("game-s095.annotations.jsonl"), "").unwrap();
    std::fs::create_dir(games.join("nested")).unwrap();
    games
}

fn check(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    carc(&all, dir)
}

#[test]
fn check_takes_a_folder_and_prints_the_same_lines_in_file_order_on_any_number_of_threads() {
    let dir = tempfile::tempdir().unwrap();
    mixed_folder(dir.path());
    let one = check(dir.path(), &["--threads", "1", "games"]);
    let four = check(dir.path(), &["--threads", "4", "games"]);
    let json_one = check(dir.path(), &["--json", "--threads", "1", "games"]);
    let json_four = check(dir.path(), &["--json", "--threads", "4", "games"]);
    assert_eq!(stdout(&one), stdout(&four));
    assert_eq!(stdout(&json_one), stdout(&json_four));
    for o in [&one, &four, &json_one, &json_four] {
        // The dangling link cannot be read: exit 2 outranks the illegal files' 1.
        assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    }
    let lines: Vec<String> = stdout(&one).lines().map(str::to_string).collect();
    // 12 games, the garbage, the dangling link and the wrong claim; no sidecar, no sub-folder.
    assert_eq!(lines.len(), 15, "{lines:#?}");
    let names: Vec<&str> = lines.iter().map(|l| l.split(':').next().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "file order");
    assert!(
        lines[..12].iter().all(|l| l.contains(": ok, ")),
        "{lines:#?}"
    );
    assert!(
        lines[12].starts_with("games/x-garbage.jsonl:"),
        "{}",
        lines[12]
    );
    assert!(lines[12].contains("[log.format]"), "{}", lines[12]);
    assert!(
        lines[13].starts_with("games/x-gone.jsonl:"),
        "{}",
        lines[13]
    );
    assert!(lines[13].contains("[io]"), "{}", lines[13]);
    assert!(
        lines[14].starts_with("games/x-wrong-scores.jsonl:"),
        "{}",
        lines[14]
    );
    assert!(lines[14].contains("[log.assertion]"), "{}", lines[14]);
    assert!(
        stderr(&one).contains("skipped the sub-folder games/nested"),
        "{}",
        stderr(&one)
    );
}

#[test]
fn check_keeps_the_order_of_its_arguments_across_files_and_folders() {
    let dir = tempfile::tempdir().unwrap();
    simulate(dir.path(), "games", "2");
    std::fs::copy(
        logs_dir().join("sim-3p-greedy.jsonl"),
        dir.path().join("a.jsonl"),
    )
    .unwrap();
    let o = check(
        dir.path(),
        &[
            "--threads",
            "3",
            "games",
            "a.jsonl",
            "games/game-s095.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", stdout(&o));
    let names: Vec<String> = stdout(&o)
        .lines()
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(names.len(), 14);
    assert_eq!(names[0], "games/game-s095.jsonl");
    assert_eq!(names[11], "games/game-s106.jsonl");
    assert_eq!(names[12], "a.jsonl");
    assert_eq!(names[13], "games/game-s095.jsonl");
}

#[test]
fn check_of_a_folder_without_game_files_is_an_error_not_a_success() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let o = check(dir.path(), &["empty"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(
        stderr(&o).contains("no game files (*.jsonl, *.jcz, *.json) in empty"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn threads_must_be_at_least_one() {
    let dir = tempfile::tempdir().unwrap();
    for verb in [
        &["check", "--threads", "0", "x.jsonl"][..],
        &["simulate", "--threads", "0", "--out", "x.jsonl"][..],
    ] {
        let o = carc(verb, dir.path());
        assert_eq!(o.status.code(), Some(2), "{verb:?}");
    }
}
