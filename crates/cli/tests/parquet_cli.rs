//! `carc export --format parquet`, run as the real binary: which games it selects (files,
//! folders, stored games, `--all`), and how it refuses what it cannot do. What the tables hold
//! is tested in `crates/tables/tests/against_analysis.rs`.

mod common;
use common::{carc_with_store, logs_dir, stderr};

fn log(name: &str) -> String {
    logs_dir().join(name).to_str().unwrap().to_string()
}

fn parts(dir: &std::path::Path, table: &str) -> usize {
    std::fs::read_dir(dir.join(table)).unwrap().count()
}

#[test]
fn stored_games_all_or_by_id_files_and_folders_are_exported() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let short = log("short-game-rulings.jsonl");
    let greedy = log("sim-3p-greedy.jsonl");
    for f in [&short, &greedy] {
        assert!(carc_with_store(&store, &["import", f]).status.success());
    }
    // Every stored game
    let out = dir.path().join("all");
    let o = carc_with_store(
        &store,
        &[
            "export",
            "--all",
            "--format",
            "parquet",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("wrote 2 games to"), "{}", stderr(&o));
    for table in [
        "games",
        "players",
        "moves",
        "scores",
        "annotations",
        "variations",
    ] {
        assert_eq!(parts(&out, table), 1, "{table}");
    }
    // A stored game by id, a file and a folder together
    let out = dir.path().join("mixed");
    let o = carc_with_store(
        &store,
        &[
            "export",
            "short-game-rulings",
            &greedy,
            logs_dir().to_str().unwrap(),
            "--format",
            "parquet",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let logs = std::fs::read_dir(logs_dir())
        .unwrap()
        .filter(|e| {
            let p = e.as_ref().unwrap().path();
            p.extension().is_some_and(|x| x == "jsonl")
                && !p.to_string_lossy().ends_with(".annotations.jsonl")
                && !p.to_string_lossy().ends_with(".variations.jsonl")
        })
        .count();
    let wrote = format!("wrote {} games to", 2 + logs);
    assert!(stderr(&o).contains(&wrote), "{wrote}: {}", stderr(&o));
}

#[test]
fn a_game_that_cannot_be_read_is_named_and_the_others_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let out = dir.path().join("t");
    let o = carc_with_store(
        &store,
        &[
            "export",
            &log("short-game-rulings.jsonl"),
            "no-such-game",
            "--format",
            "parquet",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("stored game no-such-game: cannot be exported: no such file, and no store at"),
        "{err}"
    );
    assert!(err.contains("wrote 1 games to"), "{err}");
    // and no store was created for a name that is neither a file nor a stored game
    assert!(!store.exists());
}

#[test]
fn what_parquet_cannot_do_is_refused_before_any_game_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let short = log("short-game-rulings.jsonl");
    // No --out
    let o = carc_with_store(&store, &["export", &short, "--format", "parquet"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give it with --out DIR"),
        "{}",
        stderr(&o)
    );
    // A single-game option
    let out = dir.path().join("t");
    let o = carc_with_store(
        &store,
        &[
            "export",
            &short,
            "--format",
            "parquet",
            "--game-only",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    // Several games for a single-game format
    let o = carc_with_store(&store, &["export", &short, &short, "--format", "md"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("go with --format parquet only"),
        "{}",
        stderr(&o)
    );
    // An output folder that already holds files
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("old.parquet"), b"x").unwrap();
    let o = carc_with_store(
        &store,
        &[
            "export",
            &short,
            "--format",
            "parquet",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is not empty"), "{}", stderr(&o));
}
