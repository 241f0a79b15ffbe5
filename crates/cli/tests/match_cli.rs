//! `carc match` and `carc engine` end to end: pairs with the seats swapped and the same tiles,
//! the JSON report, logs that `carc check` accepts, the same output on any number of threads,
//! outside engines over the engine protocol (a small Python engine, and engines that crash,
//! hang, write garbage or choose a move not listed), and `carc engine` driven by hand.

mod common;
use common::{carc, logs_dir, stderr, stdout};

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use carc_rules::Effects;
use serde_json::Value;

fn engines() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines")
}

fn json_of(o: &std::process::Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_str(stdout(o).trim()).unwrap()
}

/// The tiles drawn in a log, in order.
fn draws(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "tile_drawn")
        .map(|v| v["tile"].as_str().unwrap().to_string())
        .collect()
}

fn header(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// The log of game `prefix` (such as `match-s5-a`) in `dir`: its id ends in the set-up's
/// digest, so the file is found by its prefix (exactly one).
fn log_of(dir: &std::path::Path, prefix: &str) -> std::path::PathBuf {
    let found: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{prefix}-")) && n.ends_with(".jsonl"))
        })
        .collect();
    assert_eq!(found.len(), 1, "{prefix} in {}: {found:?}", dir.display());
    found.into_iter().next().unwrap()
}

/// Whether a result's game id is `prefix` with a set-up digest.
fn is_game(v: &serde_json::Value, prefix: &str) -> bool {
    v.as_str().is_some_and(|id| {
        id.strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('-'))
            .is_some_and(|d| d.len() == 8 && d.chars().all(|c| c.is_ascii_hexdigit()))
    })
}

#[test]
fn a_pair_swaps_the_seats_deals_the_same_tiles_and_writes_checkable_logs() {
    let dir = tempfile::tempdir().unwrap();
    // Given a match of one pair between the greedy player and a tiny engine, with logs
    let o = carc(
        &[
            "match",
            "greedy",
            "engine:nodes=20",
            "--games",
            "2",
            "--seed",
            "5",
            "--out",
            "o",
            "--json",
        ],
        dir.path(),
    );
    // Then the report counts two games from A's side, with its intervals
    let v = json_of(&o);
    assert_eq!(v["games"], 2);
    assert_eq!(v["a"], "greedy");
    assert_eq!(v["b"], "engine:nodes=20");
    let n = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(n("wins") + n("draws") + n("losses"), 2);
    let rate = v["win_rate"].as_f64().unwrap();
    assert_eq!(rate, (n("wins") as f64 + n("draws") as f64 / 2.0) / 2.0);
    let ci = v["win_rate_ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
    assert!(v["mean_margin"].is_number());
    assert!(v["elo"].is_number() || v["elo"].is_null());
    assert_eq!(v["elo_ci95"].as_array().unwrap().len(), 2);
    assert_eq!(v["seeds"], serde_json::json!([5, 5]));
    let results = v["results"].as_array().unwrap();
    assert!(
        is_game(&results[0]["game"], "match-s5-a"),
        "{}",
        results[0]["game"]
    );
    assert_eq!(results[0]["a_seat"], 0);
    assert!(
        is_game(&results[1]["game"], "match-s5-b"),
        "{}",
        results[1]["game"]
    );
    assert_eq!(results[1]["a_seat"], 1);
    // And A's margin is A's score minus B's in each game
    for r in results {
        let scores = r["scores"].as_array().unwrap();
        let a = r["a_seat"].as_u64().unwrap() as usize;
        let margin = scores[a].as_i64().unwrap() - scores[1 - a].as_i64().unwrap();
        assert_eq!(r["margin"].as_i64().unwrap(), margin);
    }
    // And the two logs show the seats swapped over the same tiles in the same order
    let (a, b) = (
        log_of(&dir.path().join("o"), "match-s5-a"),
        log_of(&dir.path().join("o"), "match-s5-b"),
    );
    assert_eq!(
        header(&a)["source"]["strategies"],
        serde_json::json!(["greedy", "engine:nodes=20"])
    );
    assert_eq!(
        header(&b)["source"]["strategies"],
        serde_json::json!(["engine:nodes=20", "greedy"])
    );
    assert_eq!(header(&a)["source"]["seed"], 5);
    assert_eq!(draws(&a), draws(&b));
    assert!(draws(&a).len() > 60);
    // And `carc check` accepts both, final scores included
    let o = carc(
        &["check", a.to_str().unwrap(), b.to_str().unwrap()],
        dir.path(),
    );
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn the_output_is_the_same_on_one_thread_and_on_two() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str, json: bool| {
        let mut args = vec![
            "match",
            "random",
            "engine:nodes=20",
            "--games",
            "4",
            "--threads",
            threads,
        ];
        if json {
            args.push("--json");
        }
        let o = carc(&args, dir.path());
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(run("1", false), run("2", false));
    let one = run("1", true);
    assert_eq!(one, run("2", true));
    let v: Value = serde_json::from_str(one.trim()).unwrap();
    assert_eq!(v["games"], 4);
    assert_eq!(v["sets"], 2);
}

#[test]
fn more_players_rotate_a_through_the_seats_of_a_set() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &[
            "match",
            "greedy",
            "random",
            "--players",
            "3",
            "--games",
            "3",
            "--json",
        ],
        dir.path(),
    );
    let v = json_of(&o);
    let seats: Vec<u64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["a_seat"].as_u64().unwrap())
        .collect();
    assert_eq!(seats, [0, 1, 2]);
    assert!(is_game(&v["results"][2]["game"], "match-s1-c"));
}

#[test]
fn an_sprt_stops_a_lopsided_match_early() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &[
            "match", "greedy", "random", "--games", "200", "--sprt", "0,10", "--json",
        ],
        dir.path(),
    );
    let v = json_of(&o);
    assert_eq!(v["sprt"]["result"], "H1");
    assert!(v["games"].as_u64().unwrap() < 200);
    assert!(v["sprt"]["llr"].as_f64().unwrap() >= v["sprt"]["bounds"][1].as_f64().unwrap());
}

#[test]
fn a_python_engine_that_knows_no_rules_plays_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!(
        "cmd:python3 {} 7",
        engines().join("simple_engine.py").display()
    );
    let o = carc(
        &[
            "match", &engine, "greedy", "--games", "2", "--out", "o", "--json",
        ],
        dir.path(),
    );
    let v = json_of(&o);
    assert_eq!(v["games"], 2);
    assert_eq!(v["a"], engine.as_str());
    let (a, b) = (
        log_of(&dir.path().join("o"), "match-s1-a"),
        log_of(&dir.path().join("o"), "match-s1-b"),
    );
    let o = carc(
        &["check", a.to_str().unwrap(), b.to_str().unwrap()],
        dir.path(),
    );
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(header(&b)["source"]["strategies"][1], engine.as_str());
}

#[test]
fn engines_that_crash_hang_write_garbage_or_lie_stop_the_match_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let script = engines().join("bad_engine.py");
    for (mode, says) in [
        ("crash", "exited"),
        (
            "hang",
            "no answer within 310 ms (budget 10 ms + grace 300 ms); it was killed",
        ),
        ("garbage", "it wrote \"\\u{1b}]0;pwned\\u{7}hello there\""),
        (
            "illegal",
            "it chose \"99,99 0 none\", which is not a listed move",
        ),
        ("long", "a line longer than 65536 bytes"),
    ] {
        let engine = format!("cmd:python3 {} {mode}", script.display());
        // The bad engine is B, in seat 1 of the first game: its first turn is turn 2.
        let o = carc(
            &[
                "match",
                "greedy",
                &engine,
                "--games",
                "2",
                "--cmd-ms",
                "10",
                "--grace-ms",
                "300",
            ],
            dir.path(),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{mode}: {err}");
        assert!(
            err.contains(&format!("bad_engine.py {mode}`")),
            "{mode}: {err}"
        );
        assert!(
            err.contains("(game match-s1-a-") && err.contains(", turn 2, seat 1)"),
            "{mode}: {err}"
        );
        assert!(err.contains("expected `bestmove MOVE`"), "{mode}: {err}");
        assert!(err.contains(says), "{mode}: {err}");
        assert!(!err.contains('\u{1b}'), "{mode}: {err}");
        assert!(stdout(&o).is_empty(), "{mode}");
    }
}

/// Whether process `pid` is gone (no longer there, or a zombie nobody reaps: it runs no more).
/// A SIGKILL is delivered asynchronously, so a process killed just now is given up to five
/// seconds to die (it is asked every 10 ms).
fn is_gone(pid: &str) -> bool {
    let dead = || match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // "PID (COMMAND) STATE …": the state is the first field after the command's ')'.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !dead() {
        if std::time::Instant::now() >= until {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    true
}

/// The `cmd:` player running `bad_engine.py MODE NOTE`.
fn bad_engine(mode: &str, note: &Path) -> String {
    format!(
        "cmd:python3 {} {mode} {}",
        engines().join("bad_engine.py").display(),
        note.display()
    )
}

/// The lines that `bad_engine.py` wrote to its note file.
fn noted(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
#[cfg(target_os = "linux")]
fn what_an_outside_engine_started_does_not_outlive_the_match() {
    // Given an engine that starts a helper which ignores its input (as a wrapper script's
    // engine, or a forked server, would)
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join("helpers.txt");
    let engine = bad_engine("helper", &note);
    // When it plays a pair of games to the end
    let o = carc(&["match", "greedy", &engine, "--games", "2"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    // Then each game's helper was ended with its engine
    let helpers = noted(&note);
    assert_eq!(helpers.len(), 2, "{helpers:?}");
    for pid in &helpers {
        assert!(is_gone(pid), "helper {pid} still runs");
    }
}

#[test]
#[cfg(target_os = "linux")]
fn an_engine_that_forks_and_exits_is_reported_as_exited_and_its_child_ended() {
    // Given an engine that, at its first `go`, forks a child that holds its output, and exits
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join("child.txt");
    let engine = bad_engine("fork-exit", &note);
    // When a match asks it for a move, with a grace far longer than its exit takes
    let o = carc(
        &[
            "match",
            "greedy",
            &engine,
            "--games",
            "2",
            "--threads",
            "1",
            "--cmd-ms",
            "10",
            "--grace-ms",
            "60000",
        ],
        dir.path(),
    );
    // Then the match stops with "it exited", not a missed deadline, and the child is ended
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("it exited (exit status: 0) before answering"),
        "{err}"
    );
    assert!(!err.contains("no answer within"), "{err}");
    let child = noted(&note);
    assert_eq!(child.len(), 1, "{child:?}");
    assert!(
        is_gone(&child[0]),
        "the forked child {} still runs",
        child[0]
    );
}

#[test]
fn a_second_bestmove_is_not_taken_for_the_next_decision() {
    // Given an engine that answers every `go` with its move twice
    let dir = tempfile::tempdir().unwrap();
    let engine = format!(
        "cmd:python3 {} twice",
        engines().join("bad_engine.py").display()
    );
    // When it plays a pair of games
    let o = carc(
        &["match", "greedy", &engine, "--games", "2", "--json"],
        dir.path(),
    );
    // Then every decision took the answer given to it, and the games end
    let v = json_of(&o);
    assert_eq!(v["games"], 2);
}

#[test]
fn a_match_whose_engine_never_greets_stops_at_the_first_game() {
    // Given an engine that never greets, and one thread (the pair's second game is queued
    // behind the first)
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join("starts.txt");
    let engine = bad_engine("silent", &note);
    // When the match plays
    let o = carc(
        &[
            "match",
            "greedy",
            &engine,
            "--games",
            "2",
            "--threads",
            "1",
            "--grace-ms",
            "0",
        ],
        dir.path(),
    );
    // Then it fails at the first game's greeting, and the second game's engine is never
    // started (its own greeting is not waited out)
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("at its start") && err.contains("no answer within"),
        "{err}"
    );
    assert!(!err.contains("the match stopped"), "{err}");
    assert_eq!(noted(&note), vec!["started"], "{err}");
}

#[test]
fn outside_engines_are_refused_with_the_gifts_and_bad_players_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &[
            "match",
            "greedy",
            "cmd:python3 x.py",
            "--expansions",
            "gifts",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("The Gifts"), "{}", stderr(&o));
    let o = carc(&["match", "greedy", "stockfish"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown player \"stockfish\""),
        "{}",
        stderr(&o)
    );
    let o = carc(&["match", "greedy", "cmd:./no-such-engine"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot start the engine `./no-such-engine`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn engine_options_after_engine_colon_are_read_named_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    // Given the engine with a rollout against the engine without, the old spelling on B
    let o = carc(
        &[
            "match",
            "engine:nodes=20,rollout=2,top=2",
            "engine:nodes=20",
            "--games",
            "2",
            "--seed",
            "3",
            "--json",
        ],
        dir.path(),
    );
    // Then the match is played and each side is named with its options
    let v = json_of(&o);
    assert_eq!(v["a"], "engine:nodes=20,rollout=2,top=2");
    assert_eq!(v["b"], "engine:nodes=20");
    assert_eq!(v["games"], 2);
    // And a bad option is refused with exit 2, naming the player and what is wrong
    for (player, says) in [
        (
            "engine:nodes=0",
            "nodes must be a whole number of at least 1",
        ),
        ("engine:nodes=20,depth=3", "unknown key \"depth\""),
        ("engine:rollout", "is not key=value"),
    ] {
        let o = carc(&["match", "greedy", player], dir.path());
        assert_eq!(o.status.code(), Some(2), "{player}");
        let e = stderr(&o);
        assert!(e.contains(player) && e.contains(says), "{player}: {e}");
    }
}

/// A sample game up to its second drawn tile (seat 1 to place K): its log's lines, and the
/// texts of the turn's legal moves.
fn sample_decision() -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(logs_dir().join("sim-2p-greedy-vs-random.jsonl")).unwrap();
    let position: Vec<String> = text.lines().take(6).map(str::to_string).collect();
    let log = carc_events::read_log(position.join("\n").as_bytes()).unwrap();
    let mut game = carc_events::game_from_header(&log.header, &[]).unwrap();
    let mut fx = Effects::quiet();
    for (_, e) in &log.events {
        let a = carc_events::event_to_action(&game, &e.event).unwrap();
        game.apply(&a, &mut fx).unwrap();
    }
    let mut moves = Vec::new();
    carc_sim::turn_moves(&game, &mut carc_sim::Buffers::default(), &mut moves);
    let texts: Vec<String> = moves
        .iter()
        .map(|(m, _)| carc_engine::move_text(&game, m))
        .collect();
    (position, texts)
}

#[test]
fn carc_engine_answers_a_position_from_a_sample_log_with_a_listed_move() {
    // Given a sample game up to its second drawn tile (seat 1 to place K)
    let (position, texts) = sample_decision();
    // When `carc engine` is sent the protocol's lines
    let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
        .args(["engine", "--nodes", "50"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut read = || {
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        line.trim_end().to_string()
    };
    writeln!(input, "carc-engine-protocol 1").unwrap();
    assert!(read().starts_with("id name carc engine"));
    assert_eq!(read(), "ready");
    let mut send = format!(
        "position\n{}\nend\nseat 1\nbudget ms 1000\nmoves {}\n",
        position.join("\n"),
        texts.len()
    );
    for t in &texts {
        send.push_str(t);
        send.push('\n');
    }
    send.push_str("go\n");
    input.write_all(send.as_bytes()).unwrap();
    // Then it answers info lines, then a listed move
    let info = read();
    assert!(info.starts_with("info win 0."), "{info}");
    assert!(info.contains(" nodes 50"), "{info}");
    let mut last = read();
    while last.starts_with("info ") {
        last = read();
    }
    let best = last
        .strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("{last}"));
    assert!(texts.iter().any(|t| t == best), "{best} not in {texts:?}");
    // And a `go` for the wrong seat is an `error` line, and `quit` ends it
    input
        .write_all(format!("position\n{}\nend\nseat 0\ngo\nquit\n", position.join("\n")).as_bytes())
        .unwrap();
    assert!(read().starts_with("error seat 0 is to move"));
    assert!(child.wait().unwrap().success());
}

#[test]
fn carc_engine_answers_error_to_what_it_cannot_take_and_reads_on() {
    // Given a decision carc engine can answer, and lines it cannot take
    let (position, texts) = sample_decision();
    let decision = |moves: &str, budget: &str| {
        let mut d = format!(
            "position\n{}\nend\nseat 1\n{budget}\n{moves}\n",
            position.join("\n")
        );
        if moves == format!("moves {}", texts.len()) {
            for t in &texts {
                d.push_str(t);
                d.push('\n');
            }
        }
        d.push_str("go\n");
        d.into_bytes()
    };
    let all_moves = format!("moves {}", texts.len());
    let mut huge_position = b"position\n".to_vec();
    for _ in 0..17_000 {
        huge_position.extend_from_slice(&[b'p'; 1023]);
        huge_position.push(b'\n');
    }
    huge_position.extend_from_slice(b"end\ngo\n");
    let mut overlong = vec![b'x'; 2 * 1024 * 1024];
    overlong.extend_from_slice(b"\ngo\n");
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (overlong, "error carc sent a line longer than"),
        (
            b"\xff\xfe not text\ngo\n".to_vec(),
            "error carc sent a line that is not UTF-8",
        ),
        (
            huge_position,
            "error the position is longer than 16777216 bytes",
        ),
        (
            decision("moves 18446744073709551615", "budget ms 1000"),
            "error `moves 18446744073709551615`: a list of at most 100000 moves",
        ),
        (
            decision(&all_moves, "budget ms 18446744073709551615"),
            "error `budget ms 18446744073709551615`: the budget must be 1 to 3600000 ms",
        ),
        (decision(&all_moves, "budget ms 1000"), "bestmove "),
    ];
    // When they are all sent to one `carc engine`
    let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
        .args(["engine", "--nodes", "20"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let to_send: Vec<Vec<u8>> = cases.iter().map(|(c, _)| c.clone()).collect();
    let writer = std::thread::spawn(move || {
        input.write_all(b"carc-engine-protocol 1\n").unwrap();
        for c in to_send {
            input.write_all(&c).unwrap();
        }
        input.write_all(b"quit\n").unwrap();
    });
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut read = || {
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        line.trim_end().to_string()
    };
    assert!(read().starts_with("id name carc engine"));
    assert_eq!(read(), "ready");
    // Then each is answered `error` at its `go`, and the server reads on to the next
    for (_, says) in &cases {
        let mut answer = read();
        while answer.starts_with("info ") {
            answer = read();
        }
        assert!(
            answer.starts_with(says),
            "expected {says:?}, got {answer:?}"
        );
    }
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    // And budgets over the caps are refused on its command line
    for (flag, value) in [("--nodes", "18446744073709551615"), ("--ms", "3600001")] {
        let o = Command::new(env!("CARGO_BIN_EXE_carc"))
            .args(["engine", flag, value])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(stderr(&o).contains(value), "{flag}: {}", stderr(&o));
    }
}

#[test]
fn two_matches_with_the_same_seed_never_share_a_game_id() {
    // Given two matches dealt from the same seed with other players
    let dir = tempfile::tempdir().unwrap();
    let ids = |a: &str, b: &str| -> Vec<String> {
        let v = json_of(&carc(
            &["match", a, b, "--games", "2", "--json"],
            dir.path(),
        ));
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["game"].as_str().unwrap().to_string())
            .collect()
    };
    // When both are played
    let first = ids("greedy", "random");
    let second = ids("random", "greedy");
    // Then no game id of one is a game id of the other (both can go into one store)
    assert!(
        first.iter().all(|id| !second.contains(id)),
        "{first:?} {second:?}"
    );
    // And the same match again gives the same ids
    assert_eq!(first, ids("greedy", "random"));
}

/// `carc engine` with `input` on its stdin, a pipe (as a program drives it).
fn engine_piped(input: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn carc_engine_greets_a_person_at_a_terminal_and_answers_help() {
    // Given `carc engine` on a terminal (util-linux `script` gives it one), and a person who
    // asks for help, types a command it does not know, then greets it as a program would
    let command = format!("{} engine", env!("CARGO_BIN_EXE_carc"));
    let mut child = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("`script` (util-linux) runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"help\nfrobnicate\ncarc-engine-protocol 1\nquit\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let shown = stdout(&o).replace('\r', "");
    // Then it greets, naming itself and its commands
    assert!(
        shown.contains(&format!(
            "carc engine {}: our engine, speaking the engine protocol",
            env!("CARGO_PKG_VERSION")
        )),
        "{shown}"
    );
    for command in [
        "carc-engine-protocol 1",
        "position",
        "seat N",
        "budget ms T",
        "moves K",
        "go",
        "help",
        "quit",
    ] {
        assert!(
            shown.contains(&format!("\n  {command} ")),
            "{command}: {shown}"
        );
    }
    // And `help` lists the commands again: twice in all
    assert_eq!(shown.matches("commands, one a line").count(), 2, "{shown}");
    // And an unknown command says so, and the protocol's greeting is answered as ever
    assert!(
        shown.contains("unknown command `frobnicate`: `help` lists the commands"),
        "{shown}"
    );
    assert!(shown.contains("\nready\n"), "{shown}");
}

#[test]
fn carc_engine_driven_by_a_program_writes_only_the_protocol() {
    // Given `carc engine` on a pipe, sent `help`, an unknown command and the greeting
    let o = engine_piped("help\nfrobnicate\ncarc-engine-protocol 1\nquit\n");
    // Then it answers only the greeting, and says nothing else on either stream: `help` and
    // unknown lines are ignored, as the protocol says
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("id name carc engine "), "{out}");
    assert_eq!(lines[1], "ready");
    assert_eq!(stderr(&o), "");
}
