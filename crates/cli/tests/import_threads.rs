//! `carc import --threads N` (issue 35): files are read and checked on N workers and stored in
//! file order, so one thread and four give the same report and the same store, key for key
//! and byte for byte, finished games (sealed, their records deflated on the workers), a game
//! in progress, a game extended and sealed, a repeat and a refused file among them.

mod common;
use common::{carc, stderr, stdout};

use std::collections::BTreeMap;
use std::path::Path;

/// Every tree of a closed store: key and value bytes.
/// A store's trees by name, each as its (key, value) pairs in key order.
type Trees = BTreeMap<Vec<u8>, Vec<(Vec<u8>, Vec<u8>)>>;

fn trees(path: &Path) -> Trees {
    let mut tries = 0;
    let db = loop {
        match sled::open(path) {
            Ok(db) => break db,
            // sled lets go of its lock a moment after the process that held it ends.
            Err(e) if tries < 200 => {
                tries += 1;
                let _ = e;
                std::thread::sleep(std::time::Duration::from_millis(25));
            }
            Err(e) => panic!("cannot open {}: {e}", path.display()),
        }
    };
    db.tree_names()
        .into_iter()
        .map(|name| {
            let tree = db.open_tree(&name).unwrap();
            let kv = tree
                .iter()
                .map(|r| {
                    let (k, v) = r.unwrap();
                    (k.to_vec(), v.to_vec())
                })
                .collect();
            (name.to_vec(), kv)
        })
        .collect()
}

#[test]
fn import_stores_the_same_on_one_and_on_four_threads() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &[
            "simulate",
            "-q",
            "--seed",
            "7",
            "--players",
            "3",
            "--games",
            "20",
            "--out",
            "games",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let games = dir.path().join("games");
    let mut names: Vec<_> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let first = std::fs::read_to_string(&names[0]).unwrap();
    // Sorted before the games: the first game's beginning (stored in progress, then extended
    // and sealed by the whole game); after them a repeat of a game and a file that is no log.
    let part: String = first.lines().take(12).map(|l| format!("{l}\n")).collect();
    std::fs::write(games.join("0-part.jsonl"), part).unwrap();
    std::fs::copy(&names[3], games.join("zz-repeat.jsonl")).unwrap();
    std::fs::write(games.join("zz-refused.jsonl"), "not a log\n").unwrap();

    let import = |store: &str, threads: &str| {
        let o = carc(
            &[
                "--store",
                store,
                "import",
                "--json",
                "--threads",
                threads,
                "games",
            ],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        stdout(&o)
    };
    let one = import("one", "1");
    let four = import("four", "4");
    assert_eq!(one, four);
    let report: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(
        (
            report["imported"].as_u64(),
            report["skipped"].as_u64(),
            report["rejected"].as_u64()
        ),
        (Some(21), Some(1), Some(1)),
        "{one}"
    );
    let extended = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["extended"] == true && f["sealed"] == true)
        .count();
    assert_eq!(extended, 1, "{one}");

    let (one, four) = (
        trees(&dir.path().join("one")),
        trees(&dir.path().join("four")),
    );
    let sealed = &one[carc_store::layout::SEALED_TREE.as_bytes()];
    assert_eq!(sealed.len(), 20, "every finished game is sealed");
    assert_eq!(one, four);
}

#[test]
fn import_threads_must_be_at_least_one() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &["--store", "s", "import", "--threads", "0", "x.jsonl"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--threads"), "{}", stderr(&o));
}

/// More games than one group commit (128): the flush of each group runs beside the storing of
/// the next, and every game's `--verbose` note still comes once, in file order, after the
/// flush that made it durable; the store then verifies.
#[test]
fn every_game_is_noted_once_in_file_order_across_group_flushes() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &[
            "simulate",
            "-q",
            "--seed",
            "3",
            "--players",
            "2",
            "--games",
            "300",
            "--out",
            "games",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("games"))
        .unwrap()
        .map(|e| format!("games/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    names.sort();
    let o = carc(
        &["--store", "s", "-v", "import", "--threads", "2", "games"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let noted: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("carc: "))
        .filter_map(|l| l.split_once(": imported game ").map(|(file, _)| file))
        .collect();
    assert_eq!(noted, names, "{err}");
    assert!(
        stdout(&o).starts_with("imported 300, skipped 0"),
        "{}",
        stdout(&o)
    );
    let o = carc(&["--store", "s", "verify"], dir.path());
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
}
