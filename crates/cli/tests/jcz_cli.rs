//! JCloisterZone saved games through the `carc` binary: import into a store, export as
//! `.jcz` and back, check/explain/replay/legal of a `.jcz` file, and clear refusals.

mod common;
use common::{stderr, stdout};

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

fn corpus() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/jcz");
    assert!(
        dir.is_dir(),
        "the JCloisterZone corpus is missing: expected {} (shared/ beside the repository)",
        dir.display()
    );
    dir
}

/// `carc ARGS…` in `dir` (argument order of this file's calls).
fn carc(dir: &Path, args: &[&str]) -> Output {
    common::carc(args, dir)
}

fn file(name: &str) -> String {
    corpus().join(name).display().to_string()
}

#[test]
fn import_the_corpus_then_export_as_jcz_and_back_gives_the_same_events() {
    let dir = tempfile::tempdir().unwrap();
    let folder = corpus().display().to_string();
    let o = carc(dir.path(), &["--store", "st", "import", &folder]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).starts_with("imported 5, skipped 0"),
        "{}",
        stdout(&o)
    );

    let o = carc(dir.path(), &["--store", "st", "games"]);
    assert!(
        stdout(&o).contains("city-and-road-scoring: David, Wendy [base], 34 events"),
        "{}",
        stdout(&o)
    );

    // Importing the same files again changes nothing.
    let o = carc(dir.path(), &["--store", "st", "import", &folder]);
    assert!(
        stdout(&o).starts_with("imported 0, skipped 5"),
        "{}",
        stdout(&o)
    );

    std::fs::create_dir(dir.path().join("rt")).unwrap();
    let o = carc(
        dir.path(),
        &[
            "--store",
            "st",
            "export",
            "city-and-road-scoring",
            "--format",
            "jcz",
            "--out",
            "rt/city-and-road-scoring.jcz",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.path().join("rt/city-and-road-scoring.jcz")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["players"][1]["name"], "Wendy");
    assert_eq!(
        v["gameAnnotations"]["drawOrder"].as_array().unwrap().len(),
        11
    );

    // The exported .jcz, read back as our format, holds the stored game's events.
    let stored = stdout(&carc(
        dir.path(),
        &["--store", "st", "export", "city-and-road-scoring"],
    ));
    let o = carc(
        dir.path(),
        &[
            "export",
            "rt/city-and-road-scoring.jcz",
            "--format",
            "jsonl",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let again = stdout(&o);
    let body = |s: &str| s.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(body(&again), body(&stored));
    assert_eq!(body(&stored).len(), 34);

    // And it imports into a second store as the same game.
    let o = carc(
        dir.path(),
        &["--store", "st2", "import", "rt/city-and-road-scoring.jcz"],
    );
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let o = carc(dir.path(), &["--store", "st2", "games"]);
    assert!(
        stdout(&o).contains("in progress; scores David 7, Wendy 16"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_explain_replay_and_legal_read_jcz_files() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        dir.path(),
        &["check", "--json", &file("monastery-scoring.jcz")],
    );
    assert!(o.status.success(), "{}", stdout(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["finished"], true);
    assert_eq!(
        v["final_scores"][0],
        serde_json::json!({"player": "Eva", "score": 9})
    );

    let o = carc(
        dir.path(),
        &["explain", &file("tiny-city-rule.jcz"), "--at", "10"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Wendy"), "{}", stdout(&o));

    let o = carc(
        dir.path(),
        &["legal", &file("farmers-no-farmers.jcz"), "--at", "3"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "after event 3: Betty may place a meeple on the tile at (0,1):\n  city S\n  road E\n  (or no meeple)\n"
    );

    let o = carc(
        dir.path(),
        &["replay", &file("field-scoring.jcz"), "--at", "10"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Oscar       9 points"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_jcz_is_recognised_by_its_content_too() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        corpus().join("field-scoring.jcz"),
        dir.path().join("saved.json"),
    )
    .unwrap();
    let o = carc(dir.path(), &["check", "saved.json"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("final scores: Oscar 9, Carol 0"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn unsupported_and_broken_jcz_files_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(corpus().join("tiny-city-rule.jcz")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    // (The Tower: an expansion carc does not play)
    v["setup"]["sets"]["tower:1"] = Value::from(1);
    v["setup"]["elements"]["tower"] = Value::from(1);
    std::fs::write(dir.path().join("expansion.jcz"), v.to_string()).unwrap();
    std::fs::write(dir.path().join("broken.jcz"), "{\"setup\":").unwrap();

    let o = carc(dir.path(), &["check", "--json", "expansion.jcz"]);
    assert_eq!(o.status.code(), Some(1));
    let r: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(r["error"]["rule"], "jcz.unsupported");
    let msg = r["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("tile set \"tower:1\"") && msg.contains("game element \"tower\""),
        "{msg}"
    );

    let o = carc(
        dir.path(),
        &["--store", "st", "import", "expansion.jcz", "broken.jcz"],
    );
    assert_eq!(o.status.code(), Some(1));
    // Each rejection says where in the file (its line), as for our logs
    let text = stdout(&o);
    assert!(text.contains("rejected 2"), "{text}");
    assert!(text.contains("rejected expansion.jcz:1: JCloisterZone saved game: the game uses what carc does not map to or from JCloisterZone"), "{text}");
    assert!(
        text.contains("rejected broken.jcz:1: JCloisterZone saved game: not a JSON document"),
        "{text}"
    );

    let o = carc(dir.path(), &["replay", "broken.jcz", "--at", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("broken.jcz: JCloisterZone saved game: not a JSON document"),
        "{}",
        stderr(&o)
    );

    let o = carc(dir.path(), &["export", "broken.jcz", "--format", "jcz"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("broken.jcz"), "{}", stderr(&o));
}
