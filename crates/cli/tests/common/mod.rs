//! Helpers shared by the CLI's end-to-end tests: run the real `carc` binary and read what it
//! printed. Each test file uses a different subset, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `carc ARGS…` in `dir`, with no store chosen by the environment.
pub fn carc(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("carc runs")
}

/// Runs `carc --store STORE ARGS…`.
pub fn carc_with_store(store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .arg("--store")
        .arg(store)
        .args(args)
        .output()
        .expect("carc runs")
}

/// Runs the record shell, `carc --store STORE record GAME`, with `input` on its stdin.
pub fn record_shell(store: &Path, game: &str, input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .arg("--store")
        .arg(store)
        .args(["record", game])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("carc runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(input.as_bytes()).expect("the shell reads");
    drop(stdin);
    child.wait_with_output().expect("carc ends")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The sample logs of the repository.
pub fn logs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs")
}

/// The game id a log's header gives (`"game"`): a simulated game's is `sim-s<seed>-<set-up>`.
pub fn game_id(log: &Path) -> String {
    let text = std::fs::read_to_string(log).expect("a log");
    let header: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("a header")).expect("a JSON header");
    header["game"].as_str().expect("a game id").to_string()
}

/// Runs `carc simulate SIMULATE… --out OUT` in `dir`, then `carc check OUT`; both must succeed.
/// The log's text, for the caller's own assertions.
pub fn simulated_and_checked(dir: &Path, simulate: &[&str], out: &str) -> String {
    let args: Vec<&str> = ["simulate"]
        .into_iter()
        .chain(simulate.iter().copied())
        .chain(["--out", out])
        .collect();
    let o = carc(&args, dir);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let log = std::fs::read_to_string(dir.join(out)).unwrap();
    let o = carc(&["check", out], dir);
    assert!(o.status.success(), "{args:?}: {}", stdout(&o));
    log
}

/// `carc simulate --expansions EXPANSIONS --map germany` is refused: the expansions are not
/// combined with a map.
pub fn refused_with_a_map(dir: &Path, expansions: &str) {
    let o = carc(
        &[
            "simulate",
            "--expansions",
            expansions,
            "--map",
            "germany",
            "--out",
            "m.jsonl",
        ],
        dir,
    );
    assert!(!o.status.success(), "{expansions} with a map");
    assert!(
        stderr(&o).contains("not combined with a map"),
        "{}",
        stderr(&o)
    );
}
