//! The store-backed verbs, run as the real binary against a store in a temp folder.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

mod common;
use common::game_id;

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_carc"));
    cmd.env_remove("CARC_STORE");
    cmd
}

/// Runs `carc --store STORE ARGS…`, killing it if it takes more than 60 s (a hang is a failure).
fn carc(store: &Path, args: &[&str]) -> Output {
    let mut cmd = bin();
    cmd.arg("--store").arg(store).args(args);
    run(cmd)
}

fn run(mut cmd: Command) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run carc");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().ok();
            panic!("carc hung: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().expect("output")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

#[track_caller]
fn ok(o: Output) -> Output {
    assert_eq!(
        code(&o),
        0,
        "stdout:\n{}\nstderr:\n{}",
        stdout(&o),
        stderr(&o)
    );
    o
}

/// 20 simulated 3-player games in `<tmp>/sims`.
fn simulate(tmp: &TempDir) -> PathBuf {
    let dir = tmp.path().join("sims");
    let mut cmd = bin();
    cmd.args([
        "simulate",
        "--seed",
        "1",
        "--players",
        "3",
        "--games",
        "20",
        "--out",
    ])
    .arg(&dir);
    ok(run(cmd));
    dir
}

fn games_json(store: &Path) -> String {
    stdout(&ok(carc(store, &["games", "--json"])))
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

#[test]
fn import_skip_export_verify_rebuild() {
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp);
    let store = tmp.path().join("store");

    let first = ok(carc(&store, &["import", path_str(&sims)]));
    assert!(
        stdout(&first).starts_with("imported 20, skipped 0 (already present), rejected 0"),
        "{}",
        stdout(&first)
    );
    let listed = games_json(&store);
    let games: Vec<Value> = listed
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 20);
    for g in &games {
        assert_eq!(g["players"], serde_json::json!(["Ada", "Brandt", "Cleo"]));
        assert_eq!(g["finished"], true, "{g}");
        assert_eq!(g["sealed"], true, "{g}");
        assert!(g["events"].as_u64().unwrap() > 100, "{g}");
        assert!(!g["winners"].as_array().unwrap().is_empty(), "{g}");
        assert_eq!(g["scores"].as_array().unwrap().len(), 3);
    }

    // Again: nothing stored twice, the listing is unchanged. The verb may come first too.
    let again = ok(bin()
        .args(["import", "--json", path_str(&sims), "--store"])
        .arg(&store)
        .output()
        .unwrap());
    let report: Value = serde_json::from_str(stdout(&again).trim()).unwrap();
    assert_eq!(report["imported"], 0);
    assert_eq!(report["skipped"], 20);
    assert_eq!(report["rejected"], 0);
    assert_eq!(games_json(&store), listed);

    // Export gives the imported bytes back, to stdout and to a file.
    let source = fs::read(sims.join("game-s07.jsonl")).unwrap();
    let s7 = game_id(&sims.join("game-s07.jsonl"));
    let exported = ok(carc(&store, &["export", &s7]));
    assert!(
        exported.stdout == source,
        "export differs from the source file"
    );
    let out = tmp.path().join("out.jsonl");
    ok(carc(
        &store,
        &["export", &s7, "--format", "jsonl", "--out", path_str(&out)],
    ));
    assert_eq!(fs::read(&out).unwrap(), source);
    let missing = carc(&store, &["export", "no-such-game"]);
    assert_eq!(code(&missing), 2);
    assert!(
        stderr(&missing).contains("no game \"no-such-game\""),
        "{}",
        stderr(&missing)
    );

    // verify: store walk plus a legal replay of every game.
    let verified = ok(carc(&store, &["verify"]));
    assert!(stdout(&verified).contains("20 games: all decode and replay legally"));
    let v: Value =
        serde_json::from_str(stdout(&ok(carc(&store, &["verify", "--json"]))).trim()).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["games"], 20);

    // rebuild into a new store gives the same listing.
    let rebuilt = tmp.path().join("rebuilt");
    let r = ok(carc(&rebuilt, &["rebuild", "--from", path_str(&sims)]));
    assert!(stdout(&r).starts_with("imported 20,"), "{}", stdout(&r));
    assert_eq!(games_json(&rebuilt), listed);
    // A store with games is not rebuilt without --force; with it, the old one is moved aside.
    let refused = carc(&rebuilt, &["rebuild", "--from", path_str(&sims)]);
    assert_eq!(code(&refused), 2);
    assert!(stderr(&refused).contains("--force"), "{}", stderr(&refused));
    ok(carc(
        &rebuilt,
        &["rebuild", "--from", path_str(&sims), "--force"],
    ));
    assert!(tmp.path().join("rebuilt.old-1").is_dir());
    assert_eq!(games_json(&rebuilt), listed);
    assert_eq!(games_json(&tmp.path().join("rebuilt.old-1")), listed);
}

/// The lines of a file, each without its `\n`.
fn lines_of(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn write_lines(path: &Path, lines: &[String]) {
    let mut text = lines.join("\n");
    text.push('\n');
    fs::write(path, text).unwrap();
}

#[test]
fn rejected_files_leave_the_store_unchanged() {
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp);
    let store = tmp.path().join("store");
    ok(carc(&store, &["import", path_str(&sims)]));
    let before = games_json(&store);
    let sample = sims.join("game-s03.jsonl");
    let lines = lines_of(&sample);
    let bad = tmp.path().join("bad");
    fs::create_dir(&bad).unwrap();
    // (file, line the message must name, a phrase it must contain)
    let mut cases: Vec<(PathBuf, usize, &str)> = Vec::new();

    // Truncated in the middle of line 30.
    let text = fs::read(&sample).unwrap();
    let start_30: usize = lines[..29].iter().map(|l| l.len() + 1).sum();
    let p = bad.join("truncated.jsonl");
    fs::write(&p, &text[..start_30 + 12]).unwrap();
    cases.push((p, 30, "truncated"));

    // A corrupted line in the middle.
    let mut l = lines.clone();
    l[99] = "{\"seq\":99,\"type\":\"tile_placed\" GARBAGE".to_string();
    let p = bad.join("corrupted.jsonl");
    write_lines(&p, &l);
    cases.push((p, 100, "invalid JSON"));

    // An illegal move at line 40 or the first tile_placed after it, in a game already stored
    // (validation comes before the comparison with the stored log) and in a new game.
    let at = (39..lines.len())
        .find(|&i| lines[i].contains("\"tile_placed\""))
        .unwrap();
    let mut moved: Value = serde_json::from_str(&lines[at]).unwrap();
    moved["at"] = serde_json::json!([100, 100]);
    let mut l = lines.clone();
    l[at] = moved.to_string();
    let p = bad.join("illegal.jsonl");
    write_lines(&p, &l);
    cases.push((p, at + 1, "breaks rule"));
    let s3 = game_id(&sample);
    l[0] = l[0].replace(&format!("\"game\":\"{s3}\""), "\"game\":\"fresh-illegal\"");
    let p = bad.join("illegal-new-game.jsonl");
    write_lines(&p, &l);
    cases.push((p, at + 1, "breaks rule"));

    // A format version this program does not read.
    let mut l = lines.clone();
    l[0] = l[0].replace("\"version\":1", "\"version\":99");
    let p = bad.join("version99.jsonl");
    write_lines(&p, &l);
    cases.push((p, 1, "version 99"));

    // Not UTF-8 on line 5.
    let mut bytes = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        bytes.extend_from_slice(line.as_bytes());
        if i == 4 {
            bytes.truncate(bytes.len() - 2);
            bytes.extend_from_slice(&[0xff, 0xfe, b'}']);
        }
        bytes.push(b'\n');
    }
    let p = bad.join("not-utf8.jsonl");
    fs::write(&p, bytes).unwrap();
    cases.push((p, 5, "UTF-8"));

    // A line of 2 MiB, over the 1 MiB a line may have (written here, never committed).
    let p = bad.join("huge-line.jsonl");
    {
        let mut f = std::io::BufWriter::new(fs::File::create(&p).unwrap());
        writeln!(f, "{}", lines[0].replace(&s3, "huge")).unwrap();
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..2 {
            f.write_all(&chunk).unwrap();
        }
        f.write_all(b"\n").unwrap();
    }
    assert!(fs::metadata(&p).unwrap().len() > 2_000_000);
    cases.push((p, 2, "longer than"));

    // Another log under a game id that is already stored.
    let mut l = lines.clone();
    l[0] = l[0].replace("\"comment\":\"", "\"comment\":\"edited: ");
    assert_ne!(l[0], lines[0]);
    let p = bad.join("same-id.jsonl");
    write_lines(&p, &l);
    cases.push((p, 1, "already stored"));

    for (file, line, phrase) in &cases {
        let o = carc(&store, &["import", path_str(file)]);
        let out = stdout(&o);
        assert_eq!(code(&o), 1, "{}: {out}{}", file.display(), stderr(&o));
        assert!(
            out.contains("imported 0, skipped 0 (already present), rejected 1"),
            "{out}"
        );
        let named = format!("{}:{line}: ", file.display());
        assert!(out.contains(&named), "expected {named:?} in {out:?}");
        assert!(out.contains(phrase), "expected {phrase:?} in {out:?}");
        assert_eq!(
            games_json(&store),
            before,
            "{} changed the store",
            file.display()
        );
    }

    // A file over the 64 MiB a game file may have (sparse: its length without the writing) is
    // not read at all: refused naming the cap, as a file that cannot be read (exit 2).
    let big = tmp.path().join("big.jsonl");
    fs::File::create(&big)
        .unwrap()
        .set_len(64 * 1024 * 1024 + 1)
        .unwrap();
    let o = carc(&store, &["import", path_str(&big)]);
    assert_eq!(code(&o), 2, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("larger than 64 MiB"), "{}", stdout(&o));
    assert_eq!(games_json(&store), before, "the store is unchanged");

    // A folder mixing good and bad files: the good one is imported, the rest rejected.
    let mut l = lines.clone();
    l[0] = l[0].replace(&format!("\"game\":\"{s3}\""), "\"game\":\"fresh-good\"");
    write_lines(&bad.join("good.jsonl"), &l);
    let o = carc(&store, &["import", "--json", path_str(&bad)]);
    assert_eq!(code(&o), 1);
    let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(report["imported"], 1, "{report}");
    assert_eq!(report["rejected"], cases.len(), "{report}");
    let after = games_json(&store);
    assert_eq!(after.lines().count(), 21);
    assert!(after.contains("\"game\":\"fresh-good\""));
    assert!(!after.contains("fresh-illegal"));
    ok(carc(&store, &["verify"]));
}

#[test]
fn in_progress_games_are_stored_and_extended() {
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp);
    let store = tmp.path().join("store");
    let full = sims.join("game-s05.jsonl");
    let lines = lines_of(&full);
    let part = tmp.path().join("part.jsonl");
    write_lines(&part, &lines[..50]);

    ok(carc(&store, &["import", path_str(&part)]));
    let g: Value = serde_json::from_str(games_json(&store).trim()).unwrap();
    assert_eq!(g["finished"], false);
    assert_eq!(g["sealed"], false);
    assert_eq!(g["events"], 49);
    assert_eq!(g["winners"], serde_json::json!([]));

    let o = ok(carc(&store, &["import", "--json", path_str(&full)]));
    let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(report["files"][0]["extended"], true, "{report}");
    let g: Value = serde_json::from_str(games_json(&store).trim()).unwrap();
    assert_eq!(g["finished"], true);
    assert_eq!(g["sealed"], true);
    assert_eq!(
        ok(carc(&store, &["export", &game_id(&full)])).stdout,
        fs::read(&full).unwrap()
    );
    // The earlier part is now a different (shorter) log of a stored game.
    assert_eq!(code(&carc(&store, &["import", path_str(&part)])), 1);
}

#[test]
fn a_store_in_use_is_a_clean_exit_2() {
    let tmp = TempDir::new().unwrap();
    let store_dir = tmp.path().join("store");
    let held = carc_store::Store::open_as(&store_dir, "the test's holder").unwrap();
    // The holder's note names it (issue 36): who, its pid, since when.
    let named = format!(
        "carc: store {} is in use by the test's holder (pid {}, since ",
        store_dir.display(),
        std::process::id()
    );
    let plain = format!(
        "carc: store {} is in use by another process\n",
        store_dir.display()
    );
    for args in [
        &["games"][..],
        &["import", "nothing.jsonl"],
        &["verify"],
        &["export", "g"],
        &["record", "new", "g", "--players", "Ada,Bo"],
        &["record", "g"],
    ] {
        let o = carc(&store_dir, args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.starts_with(&named), "{args:?}: {err}");
        assert!(err.ends_with(" UTC); quit it or wait\n"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Without a note (or with one that is not believed), the plain message of before.
    fs::remove_file(store_dir.join(carc_store::HOLDER_FILE)).unwrap();
    let o = carc(&store_dir, &["games"]);
    assert_eq!(code(&o), 2);
    assert_eq!(stderr(&o), plain);
    drop(held);
    ok(carc(&store_dir, &["games"]));
}

#[test]
fn record_a_game_move_by_move_with_undo() {
    let tmp = TempDir::new().unwrap();
    let store = tmp.path().join("store");
    let s = |args: &[&str]| carc(&store, args);

    let o = ok(s(&["record", "new", "table-1", "--players", "Ada,Bo"]));
    assert!(
        stdout(&o).contains("next: Ada draws a tile"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        code(&s(&["record", "new", "table-1", "--players", "X,Y"])),
        2
    );
    let o = ok(s(&["record", "draw", "table-1", "V"]));
    assert!(stdout(&o).contains("legal placements"), "{}", stdout(&o));

    // The legal placements, from `legal` on the stored game id.
    let legal: Value =
        serde_json::from_str(stdout(&ok(s(&["legal", "table-1", "--at", "2", "--json"]))).trim())
            .unwrap();
    let p = &legal["placements"][0];
    let (x, y, rot) = (
        p["at"][0].to_string(),
        p["at"][1].to_string(),
        p["rotation"].to_string(),
    );

    // An illegal placement is refused and stores nothing.
    let raw_before = ok(s(&["export", "--raw", "table-1"])).stdout;
    let o = s(&["record", "place", "table-1", "5", "5", "0"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("illegal move"), "{}", stderr(&o));
    assert_eq!(ok(s(&["export", "--raw", "table-1"])).stdout, raw_before);

    let o = ok(s(&["record", "place", "table-1", &x, &y, &rot]));
    assert!(stdout(&o).contains("may place a meeple"), "{}", stdout(&o));
    let legal: Value =
        serde_json::from_str(stdout(&ok(s(&["legal", "table-1", "--at", "3", "--json"]))).trim())
            .unwrap();
    let spot = legal["meeple_on"][0].as_str().unwrap().to_string();
    ok(s(&["record", "meeple", "table-1", &spot]));
    let o = ok(s(&["record", "undo", "table-1"]));
    assert!(
        stdout(&o).contains("retracted the last recorded move, event 4"),
        "{}",
        stdout(&o)
    );
    ok(s(&["record", "meeple", "table-1", "none"]));
    ok(s(&["record", "draw", "table-1", "E"]));

    // The effective log: the retracted meeple and the retraction are gone, seq is gapless.
    let out = tmp.path().join("table-1.jsonl");
    ok(s(&["export", "table-1", "--out", path_str(&out)]));
    let effective = lines_of(&out);
    assert_eq!(effective.len(), 6, "{effective:#?}");
    assert!(effective[4].contains("\"seq\":4,\"type\":\"meeple_skipped\""));
    assert!(effective[5].contains("\"seq\":5,\"type\":\"tile_drawn\",\"player\":1"));
    assert!(!effective.iter().any(|l| l.contains("meeple_placed")));
    let mut check = bin();
    check.arg("check").arg(&out);
    let c = ok(run(check));
    assert!(
        stdout(&c).contains("ok, 5 events; in progress"),
        "{}",
        stdout(&c)
    );
    // Importing the effective log again is "already present".
    let again = ok(s(&["import", path_str(&out)]));
    assert!(
        stdout(&again).starts_with("imported 0, skipped 1"),
        "{}",
        stdout(&again)
    );

    // The raw view keeps everything: the retracted line and the retraction record.
    let raw = stdout(&ok(s(&["export", "--raw", "table-1"])));
    assert_eq!(raw.lines().count(), 8, "{raw}");
    assert!(raw.contains("meeple_placed"));
    assert!(raw.contains("{\"type\":\"move_retracted\",\"retracts\":5}"));

    // Undo back to the start tile, then no further.
    for _ in 0..4 {
        ok(s(&["record", "undo", "table-1"]));
    }
    let o = s(&["record", "undo", "table-1"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("nothing to undo"), "{}", stderr(&o));
    let g: Value = serde_json::from_str(games_json(&store).trim()).unwrap();
    assert_eq!(g["events"], 1);
    ok(s(&["verify"]));
}

#[test]
fn replay_explain_legal_accept_a_stored_game_id() {
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp);
    let store = tmp.path().join("store");
    ok(carc(&store, &["import", path_str(&sims)]));
    let file = sims.join("game-s02.jsonl");
    for args in [
        ["replay", "--at", "10"],
        ["explain", "--at", "5"],
        ["legal", "--at", "7"],
    ] {
        let mut from_file = bin();
        from_file.args(&args[..1]).arg(&file).args(&args[1..]);
        let expected = ok(run(from_file)).stdout;
        let by_id = ok(carc(&store, &[args[0], &game_id(&file), args[1], args[2]])).stdout;
        assert!(by_id == expected, "{args:?} differs for the stored game");
    }
    // Neither a file nor a stored game: the usual file error.
    let o = carc(&store, &["replay", "no-such-game", "--at", "1"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("cannot read no-such-game"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn store_from_env_and_completions() {
    let tmp = TempDir::new().unwrap();
    let store = tmp.path().join("env-store");
    let mut cmd = bin();
    cmd.env("CARC_STORE", &store)
        .args(["record", "new", "envgame", "--players", "Ada,Bo"]);
    ok(run(cmd));
    assert!(games_json(&store).contains("\"game\":\"envgame\""));

    for shell in ["bash", "zsh", "fish"] {
        let o = ok(bin().args(["completions", shell]).output().unwrap());
        assert!(stdout(&o).contains("import"), "{shell}");
    }
}

#[test]
fn a_finished_game_with_and_without_its_final_assertion_is_the_same_game() {
    // Given a finished game's log, and the same log without its trailing assertion
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp);
    let full = sims.join("game-s03.jsonl");
    let lines = lines_of(&full);
    assert!(
        lines.last().unwrap().contains("\"expect_final_scores\""),
        "{}",
        lines.last().unwrap()
    );
    let bare = tmp.path().join("bare.jsonl");
    write_lines(&bare, &lines[..lines.len() - 1]);
    for (first, second) in [(&bare, &full), (&full, &bare)] {
        // When one is imported, then the other
        let store = tmp.path().join(format!(
            "store-{}",
            first.file_stem().unwrap().to_str().unwrap()
        ));
        ok(carc(&store, &["import", path_str(first)]));
        let listed = games_json(&store);
        let o = ok(carc(&store, &["import", "--json", path_str(second)]));
        // Then the second is skipped as the game already stored, and nothing changed
        let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(
            (&report["imported"], &report["skipped"], &report["rejected"]),
            (&Value::from(0), &Value::from(1), &Value::from(0)),
            "{} after {}: {report}",
            second.display(),
            first.display()
        );
        assert_eq!(games_json(&store), listed);
        let exported = ok(carc(&store, &["export", &game_id(&full)]));
        assert_eq!(stdout(&exported).into_bytes(), fs::read(first).unwrap());
    }
}
