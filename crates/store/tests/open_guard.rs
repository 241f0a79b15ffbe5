//! The open guard (issue 46): an open takes the store's lock before it reads anything, copies
//! nothing, and writes nothing to a store whose recovery would damage it; a kill at any
//! instant of an open leaves a damaged store's bytes as they were and a healthy store whole.
//!
//! The child processes are this very test binary, re-executed with `CHILD_MODE` set and
//! filtered to the `child_entry` test, which does nothing in a normal run.

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use carc_store::{ExpectedVersion, Store, StoreError};
use common::batch;

const CHILD_MODE: &str = "CARC_STORE_GUARD_CHILD";
const CHILD_DIR: &str = "CARC_STORE_GUARD_DIR";

fn spawn_child(mode: &str, dir: &Path) -> Child {
    Command::new(std::env::current_exe().expect("current exe"))
        .args(["child_entry", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_MODE, mode)
        .env(CHILD_DIR, dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn child")
}

/// Not a test of its own: the body of the child processes.
#[test]
fn child_entry() {
    let Ok(mode) = std::env::var(CHILD_MODE) else {
        return;
    };
    let dir = PathBuf::from(std::env::var_os(CHILD_DIR).expect("child dir"));
    let mut out = std::io::stdout();
    match mode.as_str() {
        // Opens the store and lets go of it, again and again, until killed.
        "open-loop" => loop {
            match Store::open(&dir) {
                Ok(store) => drop(store),
                Err(StoreError::InUse { .. }) => thread::sleep(Duration::from_millis(1)),
                Err(e) => {
                    writeln!(out, "\nOPEN-FAILED {e}").unwrap();
                    out.flush().unwrap();
                    // A damaged store: open it again and again all the same.
                }
            }
        },
        // Holds the store: appends 4 events (acknowledged), waits for a line on stdin,
        // appends 9 more, and quits.
        "hold" => {
            let store = Store::open(&dir).expect("child open");
            store
                .append("g", ExpectedVersion::NoStream, &batch("g-a", 0, 4))
                .expect("append");
            writeln!(out, "\nACKED 4").unwrap();
            out.flush().unwrap();
            let mut line = String::new();
            std::io::stdin().read_line(&mut line).unwrap();
            store
                .append("g", ExpectedVersion::Exactly(4), &batch("g-b", 1, 9))
                .expect("append");
            writeln!(out, "ACKED 13").unwrap();
            out.flush().unwrap();
        }
        other => panic!("unknown child mode {other}"),
    }
}

/// Every file of the folder, by path relative to it, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, rel: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in std::fs::read_dir(root.join(rel)).unwrap() {
            let e = e.unwrap();
            let rel = rel.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                walk(root, &rel, out);
            } else {
                out.insert(rel.clone(), std::fs::read(root.join(&rel)).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, Path::new(""), &mut out);
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// A store of `games` streams of 3 batches, written over three opens so that sled keeps a
/// snapshot and a log after it, closed. Returns each stream's version.
fn build_store(dir: &Path, games: u64) -> BTreeMap<String, u64> {
    for round in 0..3u64 {
        let store = common::when_unlocked(|| Store::open(dir));
        for g in 0..games {
            let stream = format!("game-{g:03}");
            let expected = match round {
                0 => ExpectedVersion::NoStream,
                r => ExpectedVersion::Exactly(r * 5),
            };
            store
                .append(
                    &stream,
                    expected,
                    &batch(&format!("{stream}-{round}"), g, 5),
                )
                .unwrap();
        }
    }
    let store = common::when_unlocked(|| Store::open(dir));
    store
        .streams()
        .unwrap()
        .into_iter()
        .map(|s| {
            let v = store.version(&s).unwrap().unwrap();
            (s, v)
        })
        .collect()
}

#[test]
fn every_flipped_byte_of_the_log_either_opens_or_fails_without_writing() {
    // Given a healthy store with a snapshot and a log after it
    let tmp = tempfile::tempdir().unwrap();
    let healthy = tmp.path().join("healthy");
    build_store(&healthy, 60);
    let db_len = std::fs::metadata(healthy.join("db")).unwrap().len() as usize;
    let (mut failed, mut refused_by_preflight, mut opened) = (0, 0, 0);
    // When one bit of its log is flipped, at 160 places spread over the whole file
    for k in 0..160usize {
        let at = 20 + k * (db_len - 40) / 160 + k % 7;
        let copy = tmp.path().join(format!("flip-{k}"));
        copy_dir(&healthy, &copy);
        let mut bytes = std::fs::read(copy.join("db")).unwrap();
        bytes[at] ^= 0x10;
        std::fs::write(copy.join("db"), &bytes).unwrap();
        let before = files(&copy);
        // Then the open either succeeds, or fails with every file as it was
        match Store::open(&copy) {
            Ok(_) => opened += 1,
            Err(e) => {
                failed += 1;
                if matches!(e, StoreError::Damaged { .. }) {
                    refused_by_preflight += 1;
                    assert!(e.is_damage(), "{e}");
                }
                assert!(
                    files(&copy) == before,
                    "a failed open wrote to the store (bit flipped at byte {at}): {e}"
                );
            }
        }
        std::fs::remove_dir_all(&copy).unwrap();
    }
    eprintln!(
        "flipped bits: {opened} opened, {failed} failed ({refused_by_preflight} refused before sled)"
    );
    // (the test means something only if some flips make the store fail to open)
    assert!(refused_by_preflight > 0, "no flip was refused before sled");
}

#[test]
fn a_healthy_store_opens_after_its_log_is_torn_at_any_length() {
    // Given a healthy store
    let tmp = tempfile::tempdir().unwrap();
    let healthy = tmp.path().join("healthy");
    let versions = build_store(&healthy, 20);
    let db_len = std::fs::metadata(healthy.join("db")).unwrap().len();
    // When its log's unsynced tail is cut short (as a crash of the machine could), at 24
    // lengths within its last 64 KiB
    for k in 0..24u64 {
        let len = db_len - (k * 2731).min(db_len - 1);
        let copy = tmp.path().join(format!("torn-{k}"));
        copy_dir(&healthy, &copy);
        std::fs::OpenOptions::new()
            .write(true)
            .open(copy.join("db"))
            .unwrap()
            .set_len(len)
            .unwrap();
        let before = files(&copy);
        // Then the preflight never calls it damaged where sled's own recovery would cut the
        // torn tail off and open it: every failure is sled's, and writes nothing
        match Store::open(&copy) {
            Ok(store) => assert!(store.streams().unwrap().len() <= versions.len()),
            Err(e) => assert!(files(&copy) == before, "torn at {len}: {e}"),
        }
        std::fs::remove_dir_all(&copy).unwrap();
    }
    // and the whole store still opens with everything in it
    let store = Store::open(&healthy).unwrap();
    for (s, v) in &versions {
        assert_eq!(store.version(s).unwrap(), Some(*v));
    }
}

#[test]
fn a_damaged_snapshot_or_conf_is_refused_before_sled_without_writing() {
    let tmp = tempfile::tempdir().unwrap();
    let healthy = tmp.path().join("healthy");
    build_store(&healthy, 5);
    let snap = files(&healthy)
        .into_keys()
        .find(|p| p.to_string_lossy().starts_with("snap."))
        .expect("a snapshot");
    for (what, file, damage) in [
        ("a flipped snapshot byte", snap.clone(), Damage::Flip(9)),
        ("a truncated snapshot", snap.clone(), Damage::Truncate(8)),
        (
            "a conf of four bytes",
            PathBuf::from("conf"),
            Damage::Truncate(4),
        ),
    ] {
        // Given a store with a damaged file
        let copy = tmp.path().join("copy");
        copy_dir(&healthy, &copy);
        let path = copy.join(&file);
        let mut bytes = std::fs::read(&path).unwrap();
        match damage {
            Damage::Flip(at) => bytes[at] ^= 1,
            Damage::Truncate(len) => bytes.truncate(len),
        }
        std::fs::write(&path, &bytes).unwrap();
        let before = files(&copy);
        // When it is opened
        let e = Store::open(&copy).unwrap_err();
        // Then it is refused as damaged, naming the file, and nothing was written
        assert!(
            matches!(&e, StoreError::Damaged { file: f, .. } if Path::new(f) == file),
            "{what}: {e}"
        );
        assert!(e.to_string().contains("nothing was written"), "{what}: {e}");
        assert!(files(&copy) == before, "{what}: written to");
        std::fs::remove_dir_all(&copy).unwrap();
    }
}

enum Damage {
    Flip(usize),
    Truncate(usize),
}

/// A tiny deterministic pseudo-random generator (splitmix64).
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// Kills an `open-loop` child after a random delay, `kills` times, calling `after` between.
fn kill_opens(dir: &Path, kills: u32, seed: u64, mut after: impl FnMut(u32)) {
    let mut rng = SplitMix(seed);
    for round in 0..kills {
        let mut child = spawn_child("open-loop", dir);
        thread::sleep(Duration::from_millis(5 + rng.below(60)));
        child.kill().expect("kill"); // SIGKILL on Unix
        child.wait().expect("wait");
        after(round);
    }
}

#[test]
fn kills_during_opens_leave_a_damaged_store_as_it_was_and_a_healthy_one_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let healthy = tmp.path().join("healthy");
    let versions = build_store(&healthy, 30);

    // Given a store that the preflight refuses (the first flipped byte that it refuses)
    let db = std::fs::read(healthy.join("db")).unwrap();
    let damaged = tmp.path().join("damaged");
    let at = (1..db.len() / 512)
        .map(|k| k * 512)
        .find(|&at| {
            let scratch = tmp.path().join("scratch");
            let _ = std::fs::remove_dir_all(&scratch);
            copy_dir(&healthy, &scratch);
            let mut b = db.clone();
            b[at] ^= 0x10;
            std::fs::write(scratch.join("db"), b).unwrap();
            matches!(Store::open(&scratch), Err(StoreError::Damaged { .. }))
        })
        .expect("a flipped byte that the preflight refuses");
    copy_dir(&healthy, &damaged);
    let mut b = db.clone();
    b[at] ^= 0x10;
    std::fs::write(damaged.join("db"), b).unwrap();
    let before = files(&damaged);
    // When processes opening it are killed at random instants, 15 times
    kill_opens(&damaged, 15, 0x46_0001, |round| {
        // Then no byte of it changed
        assert!(files(&damaged) == before, "round {round}: written to");
    });

    // Given the healthy store: when processes opening and closing it are killed 25 times
    kill_opens(&healthy, 25, 0x46_0002, |round| {
        // Then it opens, verifies clean and holds every stream at its version
        let store = common::when_unlocked(|| Store::open(&healthy));
        let report = store.verify().unwrap();
        assert!(report.is_ok(), "round {round}: {report}");
        for (s, v) in &versions {
            assert_eq!(store.version(s).unwrap(), Some(*v), "round {round}: {s}");
        }
    });
}

#[test]
fn an_open_refused_while_another_process_holds_the_store_copies_nothing_and_no_failed_open_puts_an_old_copy_back(
) {
    // Given a store held by another process that has acknowledged 4 events
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("store");
    let mut holder = spawn_child("hold", &dir);
    let stdout = holder.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    let wait_for = |want: &str| {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(l) if l == want => return,
                Ok(_) => {}
                Err(e) => panic!("the holder did not say {want}: {e}"),
            }
        }
    };
    wait_for("ACKED 4");
    let files_while_held = files(&dir);

    // When this process tries to open it (an open that the old guard began by copying the
    // store, before it took sled's lock)
    let e = Store::open(&dir).unwrap_err();
    // Then it is told who holds it, at once, and nothing was read into a copy or written
    assert!(matches!(e, StoreError::InUse { .. }), "{e}");
    assert!(files(&dir) == files_while_held);
    let copies: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        copies,
        vec![std::ffi::OsString::from("store")],
        "a copy beside the store"
    );

    // When the holder acknowledges 9 more events and quits, and this process's next open
    // fails for a reason other than "in use" (here: the log is damaged afterwards)
    holder.stdin.take().unwrap().write_all(b"more\n").unwrap();
    wait_for("ACKED 13");
    assert!(holder.wait().unwrap().success());
    reader.join().unwrap();
    let db_path = dir.join("db");
    let healthy_db = std::fs::read(&db_path).unwrap();
    let at = healthy_db.len() / 3;
    let mut flipped = healthy_db.clone();
    flipped[at] ^= 0x10;
    std::fs::write(&db_path, &flipped).unwrap();
    let failed = Store::open(&dir);
    // Then that failed open put no old copy back: the files are as it found them
    if failed.is_err() {
        assert_eq!(std::fs::read(&db_path).unwrap(), flipped);
    }
    drop(failed);
    // and once the damage is mended, every acknowledged event is there
    std::fs::write(&db_path, &healthy_db).unwrap();
    let store = common::when_unlocked(|| Store::open(&dir));
    assert_eq!(store.version("g").unwrap(), Some(13));
    assert_eq!(store.read_stream("g", 1).unwrap().len(), 13);
}

#[test]
fn concurrent_opens_are_opened_or_told_in_use_never_another_error() {
    // Given a store
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("store");
    build_store(&dir, 10);
    // When 6 threads open and drop it 40 times each, all at once
    let results: Vec<Result<(), String>> = thread::scope(|s| {
        let handles: Vec<_> = (0..6)
            .map(|_| {
                s.spawn(|| {
                    (0..40)
                        .map(|_| match Store::open(&dir) {
                            Ok(store) => {
                                store.version("game-000").unwrap();
                                Ok(())
                            }
                            Err(StoreError::InUse { .. }) => Ok(()),
                            Err(e) => Err(e.to_string()),
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    // Then each open either opened it or was told it is in use
    let errors: Vec<_> = results.into_iter().filter_map(Result::err).collect();
    assert!(errors.is_empty(), "{errors:?}");
    // and the store is whole
    let store = common::when_unlocked(|| Store::open(&dir));
    assert!(store.verify().unwrap().is_ok());
}
