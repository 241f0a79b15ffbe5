//! Tests that need a second process: the store lock, and SIGKILL during appends.
//!
//! The child processes are this very test binary, re-executed with `CHILD_MODE` set and
//! filtered to the `child_entry` test, which does nothing in a normal run.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use carc_store::{ExpectedVersion, Store, StoreError};
use common::{batch, is_lock_message, payload};

const CHILD_MODE: &str = "CARC_STORE_TEST_CHILD";
const CHILD_DIR: &str = "CARC_STORE_TEST_DIR";

/// Batches per crash-test game; a game is sealed after its last batch.
const BATCHES_PER_GAME: u64 = 10;
const EVENTS_PER_BATCH: u64 = 3;

fn game(g: u64) -> String {
    format!("game-{g:05}")
}

fn spawn_child(mode: &str, dir: &Path) -> Child {
    Command::new(std::env::current_exe().expect("current exe"))
        .args(["child_entry", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_MODE, mode)
        .env(CHILD_DIR, dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn child")
}

/// Forwards the child's stdout lines to a channel (ends when the child's stdout closes).
fn read_lines(child: &mut Child) -> (mpsc::Receiver<String>, thread::JoinHandle<()>) {
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    let handle = thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (rx, handle)
}

/// Not a test of its own: the body of the child processes.
#[test]
fn child_entry() {
    let Ok(mode) = std::env::var(CHILD_MODE) else {
        return;
    };
    let dir = std::path::PathBuf::from(std::env::var_os(CHILD_DIR).expect("child dir"));
    match mode.as_str() {
        "open" => {
            let line = match Store::open(&dir) {
                Ok(_) => "RESULT opened".to_string(),
                Err(e @ StoreError::InUse { .. }) => format!("RESULT in-use {e}"),
                Err(e) => format!("RESULT error {e}"),
            };
            // Leading newline: libtest has printed "test child_entry ... " without one.
            println!("\n{line}");
        }
        "crash" => crash_child(&dir),
        other => panic!("unknown child mode {other}"),
    }
}

fn crash_child(dir: &Path) -> ! {
    // The previous child is dead (the parent waited for it), so the lock is free; retry
    // briefly anyway in case the OS is slow to release it.
    let started = Instant::now();
    let store = loop {
        match Store::open(dir) {
            Ok(s) => break s,
            Err(StoreError::InUse { .. }) if started.elapsed() < Duration::from_secs(10) => {
                thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("child: open failed: {e}"),
        }
    };
    // Resume after the last complete batch.
    let mut g = 0;
    let mut b = loop {
        let stream = game(g);
        match store.version(&stream).expect("version") {
            Some(v) if v == BATCHES_PER_GAME * EVENTS_PER_BATCH => {
                if !store.is_sealed(&stream).expect("is_sealed") {
                    store.seal(&stream).expect("seal");
                }
                g += 1;
            }
            v => {
                let v = v.unwrap_or(0);
                assert_eq!(v % EVENTS_PER_BATCH, 0, "a batch was stored partially");
                break g * BATCHES_PER_GAME + v / EVENTS_PER_BATCH;
            }
        }
    };
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(out, "\nREADY {b}")
        .and_then(|()| out.flush())
        .expect("stdout");
    loop {
        let (g, i) = (b / BATCHES_PER_GAME, b % BATCHES_PER_GAME);
        let stream = game(g);
        let expected = match i {
            0 => ExpectedVersion::NoStream,
            i => ExpectedVersion::Exactly(i * EVENTS_PER_BATCH),
        };
        let events = batch(&format!("{stream}-{i}"), b, EVENTS_PER_BATCH);
        let a = store.append(&stream, expected, &events).expect("append");
        assert!(!a.deduplicated);
        assert_eq!(a.first_seq, i * EVENTS_PER_BATCH + 1);
        // Acknowledged: append returned Ok.
        writeln!(out, "ACK {b}")
            .and_then(|()| out.flush())
            .expect("stdout");
        if i + 1 == BATCHES_PER_GAME {
            store.seal(&stream).expect("seal");
            writeln!(out, "SEALED {g}")
                .and_then(|()| out.flush())
                .expect("stdout");
        }
        b += 1;
    }
}

fn wait_with_timeout(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("child did not finish within {limit:?} (hung?)");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

fn open_in_child(dir: &Path) -> String {
    let mut child = spawn_child("open", dir);
    let (rx, reader) = read_lines(&mut child);
    let status = wait_with_timeout(&mut child, Duration::from_secs(30));
    reader.join().expect("reader");
    assert!(status.success(), "child failed: {status}");
    rx.try_iter()
        .find_map(|l| l.strip_prefix("RESULT ").map(str::to_string))
        .expect("child printed no RESULT line")
}

#[test]
fn second_process_gets_in_use_error_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = Store::open(&path).unwrap();
    store
        .append("g", ExpectedVersion::NoStream, &batch("g", 0, 1))
        .unwrap();

    let started = Instant::now();
    let result = open_in_child(&path);
    // Named by the holder's note: this test's program (it opened with `Store::open`, which
    // names no holder), its pid and since when.
    let named = format!("in-use store {} is in use by process-", path.display());
    assert!(result.starts_with(&named), "{result}");
    assert!(
        result.contains(&format!(" (pid {}, since ", std::process::id())),
        "{result}"
    );
    assert!(result.ends_with(" UTC); quit it or wait"), "{result}");
    assert!(started.elapsed() < Duration::from_secs(30));

    // Once this process lets go, another process can open it (sled's flusher thread may hold
    // the lock a moment after the last handle is dropped on a loaded machine).
    drop(store);
    let mut opened = open_in_child(&path);
    for _ in 0..20 {
        if !is_lock_message(&opened) {
            break;
        }
        thread::sleep(Duration::from_millis(100));
        opened = open_in_child(&path);
    }
    assert_eq!(opened, "opened");
    let store = Store::open(&path).unwrap();
    assert_eq!(store.version("g").unwrap(), Some(1));
}

/// A tiny deterministic pseudo-random generator (splitmix64): no `rand` needed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const KILLS: u32 = 60;
const MIN_KILLS: u32 = 30;

#[test]
fn acknowledged_appends_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let mut rng = SplitMix(0x00C0_FFEE_2024);
    let mut acked: Vec<u64> = Vec::new();
    let mut sealed: Vec<u64> = Vec::new();
    let mut kills = 0u32;
    let started = Instant::now();

    for round in 0..KILLS {
        if started.elapsed() > Duration::from_secs(45) {
            break;
        }
        let mut child = spawn_child("crash", &path);
        let (rx, reader) = read_lines(&mut child);
        if round % 5 == 4 {
            // Sometimes kill early: during start-up or sled's recovery.
            thread::sleep(Duration::from_millis(rng.below(30)));
        } else {
            // Usually wait until the child is appending, then kill after a random delay.
            // Skip libtest's own lines until the child says it is ready.
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                match rx.recv_timeout(left) {
                    Ok(l) if l.starts_with("READY") => break,
                    Ok(_) => {}
                    Err(e) => {
                        let _ = child.kill();
                        let _ = child.wait();
                        panic!("round {round}: child did not get ready: {e}");
                    }
                }
            }
            thread::sleep(Duration::from_millis(rng.below(120)));
        }
        let still_running = child.try_wait().expect("try_wait").is_none();
        child.kill().expect("kill"); // SIGKILL on Unix
        let status = child.wait().expect("wait");
        assert!(
            still_running,
            "round {round}: child exited on its own: {status}"
        );
        kills += 1;
        reader.join().expect("reader");
        for line in rx.try_iter() {
            acked_from_line(&line, &mut acked, &mut sealed);
        }

        // Reopen, verify, and check every acknowledged batch.
        let store = Store::open(&path).unwrap_or_else(|e| panic!("round {round}: reopen: {e}"));
        let report = store.verify().unwrap();
        assert!(report.is_ok(), "round {round}: {report}");
        check_acked(&store, &acked, &sealed, round);
    }
    eprintln!(
        "crash test: survived {kills} SIGKILLs, {} acknowledged batches, {} sealed games, {:.1} s",
        acked.len(),
        sealed.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(kills >= MIN_KILLS, "only {kills} kills in the time budget");
    assert!(
        acked.len() as u32 > kills,
        "too few appends acknowledged: {}",
        acked.len()
    );
}

fn acked_from_line(line: &str, acked: &mut Vec<u64>, sealed: &mut Vec<u64>) {
    let mut parts = line.split_whitespace();
    let (Some(tag), Some(n)) = (parts.next(), parts.next()) else {
        return; // libtest chatter
    };
    let Ok(n) = n.parse::<u64>() else { return };
    match tag {
        "ACK" => acked.push(n),
        "SEALED" => sealed.push(n),
        _ => {}
    }
}

fn check_acked(store: &Store, acked: &[u64], sealed: &[u64], round: u32) {
    let mut games: std::collections::BTreeMap<u64, Vec<u64>> = Default::default();
    for &b in acked {
        games.entry(b / BATCHES_PER_GAME).or_default().push(b);
    }
    for (g, batches) in games {
        let stream = game(g);
        let events = store.read_stream(&stream, 1).unwrap();
        assert_eq!(
            events.len() as u64 % EVENTS_PER_BATCH,
            0,
            "round {round}: {stream} torn"
        );
        for b in batches {
            let i = b % BATCHES_PER_GAME;
            for k in 0..EVENTS_PER_BATCH {
                let seq = i * EVENTS_PER_BATCH + k + 1;
                let e = events.get(seq as usize - 1).unwrap_or_else(|| {
                    panic!("round {round}: acknowledged batch {b} lost ({stream} #{seq})")
                });
                assert_eq!(e.seq, seq);
                assert_eq!(e.id, format!("{stream}-{i}-{k}"), "round {round}");
                assert_eq!(
                    e.payload,
                    payload(b, k),
                    "round {round}: payload of {stream} #{seq}"
                );
            }
        }
    }
    for &g in sealed {
        assert!(
            store.is_sealed(&game(g)).unwrap(),
            "round {round}: seal of game {g} lost"
        );
    }
}
