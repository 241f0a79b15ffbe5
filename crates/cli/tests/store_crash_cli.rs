//! The store's crash windows and damage, run as the real binary (issue 21 items 4–6): a
//! finished game left unsealed, `rebuild --force` killed midway, salvage of a damaged store.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use carc_store::{ExpectedVersion, NewEvent, Store};
use common::{game_id, stderr, stdout};
use serde_json::Value;
use tempfile::TempDir;

/// `carc --store STORE ARGS…`, run again while it only reports the store in use: this test
/// opens stores in-process too, and sled keeps its lock a moment after the handle is dropped
/// (see `docs/store.md`, sled caveats).
fn carc_with_store(store: &Path, args: &[&str]) -> std::process::Output {
    for _ in 0..200 {
        let o = common::carc_with_store(store, args);
        if !(o.status.code() == Some(2) && stderr(&o).contains("in use by another process")) {
            return o;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("{} stays in use", store.display())
}

/// `games` simulated 3-player logs in `<tmp>/sims`.
fn simulate(tmp: &TempDir, games: u32) -> PathBuf {
    let dir = tmp.path().join("sims");
    let o = Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .args(["simulate", "-q", "--seed", "1", "--players", "3", "--games"])
        .arg(games.to_string())
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    dir
}

fn code(o: &std::process::Output) -> i32 {
    o.status.code().expect("exit code")
}

#[track_caller]
fn ok(o: std::process::Output) -> std::process::Output {
    assert_eq!(
        code(&o),
        0,
        "stdout:\n{}\nstderr:\n{}",
        stdout(&o),
        stderr(&o)
    );
    o
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

/// What an interrupted import of the first release left: every line of a finished game
/// appended (ids `<game>#<seq>`, as `import` writes them), the seal never written.
fn store_unsealed(store: &Path, log: &Path) -> String {
    let bytes = std::fs::read(log).unwrap();
    let lines = carc_archive::split_lines(&bytes);
    let header: Value = serde_json::from_slice(lines[0]).unwrap();
    let game = header["game"].as_str().unwrap().to_string();
    let batch: Vec<NewEvent> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| NewEvent::new(carc_archive::event_id(&game, i as u64 + 1), l.to_vec()))
        .collect();
    let s = open_when_unlocked(store);
    s.append(&game, ExpectedVersion::NoStream, &batch).unwrap();
    game
}

#[test]
fn a_finished_game_left_unsealed_is_reported_repaired_and_never_changed_by_record() {
    // Given a store holding a finished game that an interrupted import left unsealed
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp, 2);
    let store = tmp.path().join("store");
    let log = sims.join("game-s1.jsonl");
    let game = store_unsealed(&store, &log);

    // When it is verified, then the game is reported with what to run, and verify fails
    let v = carc_with_store(&store, &["verify"]);
    assert_eq!(code(&v), 1, "{}", stdout(&v));
    assert!(
        stdout(&v).contains(&format!(
            "game {game}: finished but not sealed (an import was interrupted"
        )),
        "{}",
        stdout(&v)
    );
    // and record refuses to undo (or add to) the imported finished game, changing nothing
    let undo = carc_with_store(&store, &["record", "undo", &game]);
    assert_eq!(code(&undo), 2, "{}", stdout(&undo));
    assert!(
        stderr(&undo).contains("finished but not sealed"),
        "{}",
        stderr(&undo)
    );
    let exported = ok(carc_with_store(&store, &["export", &game]));
    assert_eq!(exported.stdout, std::fs::read(&log).unwrap());

    // When verify --repair runs, then the game is sealed and the store verifies clean
    let r = ok(carc_with_store(&store, &["verify", "--repair"]));
    assert!(
        stdout(&r).contains(&format!("game {game}: finished but not sealed: sealed now")),
        "{}",
        stdout(&r)
    );
    ok(carc_with_store(&store, &["verify"]));
    let listed = stdout(&ok(carc_with_store(&store, &["games", "--json"])));
    let g: Value = serde_json::from_str(listed.trim()).unwrap();
    assert_eq!(g["sealed"], true);
    let undo = carc_with_store(&store, &["record", "undo", &game]);
    assert!(
        stderr(&undo).contains("finished and sealed"),
        "{}",
        stderr(&undo)
    );
}

#[test]
fn an_imported_finished_game_is_sealed_in_the_same_step_and_listed_from_its_summary() {
    // Given 3 finished games imported
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp, 3);
    let store = tmp.path().join("store");
    ok(carc_with_store(&store, &["import", path_str(&sims)]));
    // Then each is sealed and carries a current summary, which is what `games` lists
    let s = open_when_unlocked(&store);
    for game in s.streams().unwrap() {
        assert!(s.is_sealed(&game).unwrap(), "{game}");
        let summary: Value = serde_json::from_slice(&s.summary(&game).unwrap().unwrap()).unwrap();
        assert_eq!(summary["game"], game.as_str());
        assert_eq!(summary["finished"], true);
    }
    drop(s);
    let listed = stdout(&ok(carc_with_store(&store, &["games", "--json"])));
    assert_eq!(listed.lines().count(), 3);
    for line in listed.lines() {
        let g: Value = serde_json::from_str(line).unwrap();
        assert_eq!(g["sealed"], true, "{g}");
        assert_eq!(g["finished"], true, "{g}");
    }
}

/// Opens the store in this process, retrying while sled's lock is still held: sled's I/O
/// threads may keep the database of a handle dropped a moment ago (see `docs/store.md`).
fn open_when_unlocked(store: &Path) -> Store {
    for _ in 0..200 {
        match Store::open(store) {
            Err(carc_store::StoreError::InUse { .. }) => {
                std::thread::sleep(std::time::Duration::from_millis(25))
            }
            other => return other.unwrap_or_else(|e| panic!("{}: {e:?}", store.display())),
        }
    }
    panic!("{} stays in use", store.display())
}

/// The games listing and the annotation records of the store at `store`.
fn listing_and_notes(store: &Path, game: &str) -> (String, Vec<Vec<u8>>) {
    let listed = stdout(&ok(carc_with_store(store, &["games", "--json"])));
    let s = open_when_unlocked(store);
    let notes = carc_archive::read_annotation_records(&s, game).unwrap();
    (listed, notes)
}

#[test]
fn a_killed_rebuild_leaves_the_old_store_whole_and_a_finished_one_carries_the_records_over() {
    // Given a store with 30 games, an annotation and a variation record
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp, 30);
    let s3 = game_id(&sims.join("game-s03.jsonl"));
    let store = tmp.path().join("store");
    ok(carc_with_store(&store, &["import", path_str(&sims)]));
    ok(carc_with_store(
        &store,
        &["annotate", &s3, "--at", "5", "--text", "kept"],
    ));
    {
        let s = open_when_unlocked(&store);
        carc_archive::append_record(&s, carc_archive::Companion::Variations, &s3, b"{}").unwrap();
    }
    let before = listing_and_notes(&store, &s3);
    assert_eq!(before.1.len(), 1);

    // When rebuilds are killed at moments spread over a whole run
    let started = std::time::Instant::now();
    ok(carc_with_store(
        &store,
        &["rebuild", "--from", path_str(&sims), "--force"],
    ));
    let whole = started.elapsed();
    for kill in 0..12u32 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
            .env_remove("CARC_STORE")
            .arg("--store")
            .arg(&store)
            .args(["rebuild", "-q", "--from", path_str(&sims), "--force"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(whole * kill / 10);
        child.kill().ok();
        child.wait().unwrap();
        // Then the path holds a whole store, the old or the new one, with the records
        assert!(store.is_dir(), "kill {kill}: no store at the path");
        assert_eq!(listing_and_notes(&store, &s3), before, "kill {kill}");
        ok(carc_with_store(&store, &["verify"]));
    }

    // When a rebuild runs to its end, then it says where the old store went, and the new
    // store holds the annotation and the variation
    let done = ok(carc_with_store(
        &store,
        &["rebuild", "--from", path_str(&sims), "--force"],
    ));
    let said = stderr(&done);
    let aside = said
        .lines()
        .find_map(|l| l.split_once(") is now ").map(|(_, p)| PathBuf::from(p)))
        .unwrap_or_else(|| panic!("no word on the old store: {said}"));
    assert!(aside.is_dir(), "{said}");
    assert!(
        said.contains("carried 2 annotation and variation records over"),
        "{said}"
    );
    assert_eq!(listing_and_notes(&store, &s3), before);
    assert_eq!(listing_and_notes(&aside, &s3), before);
    let s = open_when_unlocked(&store);
    assert_eq!(
        carc_archive::read_records(&s, carc_archive::Companion::Variations, &s3).unwrap(),
        vec![b"{}".to_vec()]
    );
}

/// Every file of a store folder (and its `blobs`), with its bytes.
fn snapshot_files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for folder in [dir.to_path_buf(), dir.join("blobs")] {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for e in entries.flatten() {
            if e.file_type().unwrap().is_file() {
                out.insert(e.path(), std::fs::read(e.path()).unwrap());
            }
        }
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    for (path, bytes) in snapshot_files(from) {
        let rel = path.strip_prefix(from).unwrap();
        let dst = to.join(rel);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::write(dst, bytes).unwrap();
    }
}

/// The store's files named like sled's snapshots (`snap.*`).
fn snapshots(dir: &Path) -> Vec<PathBuf> {
    snapshot_files(dir)
        .into_keys()
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("snap.")
        })
        .collect()
}

#[test]
fn salvage_reads_what_is_left_of_damaged_stores_and_never_writes_to_them() {
    // Given a store with 6 finished games, one annotated, closed
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp, 6);
    let healthy = tmp.path().join("healthy");
    ok(carc_with_store(&healthy, &["import", path_str(&sims)]));
    let id = |game: u32| game_id(&sims.join(format!("game-s{game}.jsonl")));
    ok(carc_with_store(
        &healthy,
        &["annotate", &id(3), "--at", "5", "--text", "kept"],
    ));
    let original = |game: u32| std::fs::read(sims.join(format!("game-s{game}.jsonl"))).unwrap();
    let note = format!(
        "{{\"game\":\"{}\",\"seq\":5,\"glyph\":null,\"text\":\"kept\"}}\n",
        id(3)
    );
    // What salvage writes for it: the bundle's typed line, which import reads
    let typed_note = note.replacen('{', "{\"type\":\"annotation\",", 1);

    type Damage = fn(&Path);
    let ways: [(&str, Damage, bool); 6] = [
        ("nothing", |_| {}, true),
        (
            "a garbled conf",
            |d| std::fs::write(d.join("conf"), b"\xff\x00garbage").unwrap(),
            true,
        ),
        (
            "a lost snapshot",
            |d| {
                snapshots(d)
                    .iter()
                    .for_each(|p| std::fs::remove_file(p).unwrap())
            },
            true,
        ),
        (
            "a garbled snapshot",
            |d| {
                for p in snapshots(d) {
                    let mut b = std::fs::read(&p).unwrap();
                    b.iter_mut().step_by(3).for_each(|x| *x ^= 0x5a);
                    std::fs::write(p, b).unwrap();
                }
            },
            true,
        ),
        (
            "flipped bytes",
            |d| {
                let p = d.join("db");
                let mut b = std::fs::read(&p).unwrap();
                let mut x = 0x2545F4914F6CDD1Du64;
                for _ in 0..40 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let i = (x % b.len() as u64) as usize;
                    b[i] ^= 0xff;
                }
                std::fs::write(p, b).unwrap();
            },
            false,
        ),
        (
            "a truncated db",
            |d| {
                let p = d.join("db");
                let len = std::fs::metadata(&p).unwrap().len();
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&p)
                    .unwrap()
                    .set_len(len / 3)
                    .unwrap();
            },
            false,
        ),
    ];
    for (what, damage, whole) in ways {
        let store = tmp
            .path()
            .join(format!("damaged-{}", what.replace(' ', "-")));
        copy_dir(&healthy, &store);
        damage(&store);
        let before = snapshot_files(&store);
        let out = tmp.path().join(format!("out-{}", what.replace(' ', "-")));
        // When it is salvaged
        let o = carc_with_store(
            &tmp.path().join("unused"),
            &[
                "salvage",
                path_str(&store),
                "--out",
                path_str(&out),
                "--json",
            ],
        );
        // Then it ran to its end (0: all read, 1: something lost), the store is unchanged
        assert!(
            matches!(code(&o), 0 | 1),
            "{what}: {}\n{}",
            stdout(&o),
            stderr(&o)
        );
        assert_eq!(
            snapshot_files(&store),
            before,
            "{what}: the damaged store was written to"
        );
        let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let problems = report["problems"].as_array().unwrap();
        let said = |game: &str| problems.iter().any(|p| p.as_str().unwrap().contains(game));
        // and every game written is the imported log (with its annotation), or is reported
        let mut recovered = 0;
        for g in 1..=6u32 {
            let game = id(g);
            let path = out.join(format!("{game}.jsonl"));
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let mut expected = original(g);
            if g == 3 {
                expected.extend_from_slice(typed_note.as_bytes());
            }
            if bytes == expected {
                recovered += 1;
            } else {
                assert!(
                    said(&game),
                    "{what}: {game} differs and is not reported: {report}"
                );
            }
        }
        if whole {
            assert_eq!(recovered, 6, "{what}: {report}");
        }
        eprintln!(
            "{what}: {recovered} of 6 games recovered whole, {} problems",
            problems.len()
        );
    }
}

#[test]
fn a_rebuild_stopped_between_its_renames_never_leaves_an_empty_store_at_the_path() {
    // Given a store of 3 games, rebuilt twice
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp, 3);
    let store = tmp.path().join("store");
    ok(carc_with_store(&store, &["import", path_str(&sims)]));
    let rebuild = ["rebuild", "--from", path_str(&sims), "--force"];
    ok(carc_with_store(&store, &rebuild));
    ok(carc_with_store(&store, &rebuild));
    // When it is rebuilt a third time, then it says how many old stores are kept
    let o = ok(carc_with_store(&store, &rebuild));
    assert!(
        stderr(&o).contains("3 old stores are kept beside it"),
        "{}",
        stderr(&o)
    );

    // Given what a rebuild stopped between its two renames by a release without swap notes
    // left: the old store aside, the rebuilt one beside the path, nothing at the path
    let rebuilt = tmp.path().join("store.rebuild");
    copy_dir(&store, &rebuilt);
    std::fs::rename(&store, tmp.path().join("store.old-4")).unwrap();
    // When the next command runs
    for verb in [&["verify"][..], &["games"], &["import", path_str(&sims)]] {
        let o = carc_with_store(&store, verb);
        // Then it refuses, naming the rebuilt store, and creates no empty store at the path
        assert_eq!(code(&o), 2, "{verb:?}: {}{}", stdout(&o), stderr(&o));
        assert!(
            stderr(&o).contains("store.rebuild beside it does"),
            "{verb:?}: {}",
            stderr(&o)
        );
        assert!(!store.exists(), "{verb:?} created a store at the path");
    }
    // and once the rebuilt store is moved in, as it says, the games are there
    std::fs::rename(&rebuilt, &store).unwrap();
    ok(carc_with_store(&store, &["verify"]));
    assert_eq!(
        stdout(&ok(carc_with_store(&store, &["games"])))
            .lines()
            .count(),
        3
    );
}

/// How many games `carc salvage` reads from `store` (into a fresh folder under `tmp`).
fn salvaged_games(tmp: &Path, store: &Path, run: &str) -> usize {
    let out = tmp.join(format!("salvaged-{run}"));
    let o = carc_with_store(
        &tmp.join("unused"),
        &[
            "salvage",
            path_str(store),
            "--out",
            path_str(&out),
            "--json",
        ],
    );
    assert!(matches!(code(&o), 0 | 1), "{}", stderr(&o));
    let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    report["games"].as_array().unwrap().len()
}

#[test]
fn a_failed_open_of_a_damaged_store_changes_no_byte_of_it_and_names_salvage() {
    // Given a store of 10 games, opened again once (so that sled keeps a snapshot), closed
    let tmp = TempDir::new().unwrap();
    let sims = simulate(&tmp, 10);
    let healthy = tmp.path().join("healthy");
    ok(carc_with_store(&healthy, &["import", path_str(&sims)]));
    ok(carc_with_store(&healthy, &["verify"]));
    // and a copy with one byte flipped in its log, where the store no longer opens (the
    // first such byte from 1 KiB on, found on scratch copies)
    let flipped = |to: &Path, at: usize| {
        copy_dir(&healthy, to);
        let mut b = std::fs::read(to.join("db")).unwrap();
        b[at] ^= 0x01;
        std::fs::write(to.join("db"), b).unwrap();
    };
    let at = (1..64)
        .map(|k| k * 1024)
        .find(|&at| {
            let scratch = tmp.path().join(format!("scratch-{at}"));
            flipped(&scratch, at);
            Store::open(&scratch).is_err()
        })
        .expect("a flipped byte that stops the store from opening");
    let store = tmp.path().join("damaged");
    flipped(&store, at);
    let before = snapshot_files(&store);
    let salvaged = salvaged_games(tmp.path(), &store, "before");
    assert!(salvaged > 0, "salvage reads nothing of the damaged store");

    for verb in [
        &["verify"][..],
        &["games"],
        &["export", "sim-s1"],
        &["import", path_str(&sims)],
        &["replay", "sim-s1"],
    ] {
        // When a verb opens it
        let o = carc_with_store(&store, verb);
        // Then it fails (exit 2) saying to run `carc salvage`, and no byte of the store changed
        assert_eq!(code(&o), 2, "{verb:?}: {}{}", stdout(&o), stderr(&o));
        assert!(
            stderr(&o).contains("carc salvage"),
            "{verb:?}: {}",
            stderr(&o)
        );
        // and says why once (issue 33, item 9: it used to be printed twice)
        assert_eq!(
            stderr(&o).matches("cannot be opened").count(),
            1,
            "{verb:?}: {}",
            stderr(&o)
        );
        assert!(
            snapshot_files(&store) == before,
            "{verb:?}: the damaged store was written to"
        );
    }
    // and salvage still reads as many games as before
    assert_eq!(salvaged_games(tmp.path(), &store, "after"), salvaged);
}

#[test]
fn a_salvaged_bundle_with_annotations_and_variations_imports_again() {
    // Given a stored game with an annotation, a variation and a deleted annotation
    let tmp = TempDir::new().unwrap();
    let store = tmp.path().join("st");
    let log = common::logs_dir().join("short-game-rulings.jsonl");
    let game = "short-game-rulings";
    ok(carc_with_store(&store, &["import", path_str(&log)]));
    let moves = tmp.path().join("city.jsonl");
    std::fs::write(
        &moves,
        "{\"type\":\"tile_placed\",\"player\":1,\"tile\":\"N\",\"at\":[0,2],\"rotation\":0}\n\
         {\"type\":\"meeple_placed\",\"player\":1,\"on\":\"city N\"}\n",
    )
    .unwrap();
    for args in [
        &[
            "annotate",
            game,
            "--at",
            "3",
            "--text",
            "a good start",
            "--glyph",
            "!",
        ][..],
        &["annotate", game, "--at", "5", "--text", "gone"],
        &["annotate", game, "--at", "5", "--delete"],
        &[
            "variation",
            "add",
            game,
            "--name",
            "city north",
            "--after",
            "17",
            "--moves",
            path_str(&moves),
        ],
    ] {
        ok(carc_with_store(&store, args));
    }
    let exported = tmp.path().join("exported.jsonl");
    ok(carc_with_store(
        &store,
        &["export", game, "--out", path_str(&exported)],
    ));

    // When it is salvaged and the bundle imported into a new store
    let out = tmp.path().join("saved");
    ok(carc_with_store(
        &store,
        &["salvage", path_str(&store), "--out", path_str(&out)],
    ));
    let bundle = out.join(format!("{game}.jsonl"));
    let again = tmp.path().join("again");
    let o = ok(carc_with_store(&again, &["import", path_str(&bundle)]));

    // Then the import takes it whole, and the new store exports the same bundle as the old
    assert!(stdout(&o).contains("imported 1,"), "{}", stdout(&o));
    let re_exported = tmp.path().join("re-exported.jsonl");
    ok(carc_with_store(
        &again,
        &["export", game, "--out", path_str(&re_exported)],
    ));
    let text = std::fs::read_to_string(&re_exported).unwrap();
    assert!(text.contains("a good start"), "{text}");
    assert!(text.contains("city north"), "{text}");
    assert!(!text.contains("gone"), "{text}");
    assert_eq!(text, std::fs::read_to_string(&exported).unwrap());
}
