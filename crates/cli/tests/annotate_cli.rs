//! `carc annotate`, run as the real binary: records beside a log file and in the store.

mod common;
use common::{carc_with_store, stderr, stdout};

use std::path::{Path, PathBuf};

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl")
}

#[test]
fn a_file_gets_its_records_appended_beside_it_and_the_log_is_untouched() {
    // Given a copy of the sample log
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("game.jsonl");
    std::fs::copy(sample(), &log).unwrap();
    let before = std::fs::read(&log).unwrap();
    let store = dir.path().join("store");
    let log_arg = log.to_str().unwrap();
    // When event 19 is annotated twice (the second replaces the first) and then deleted
    let o = carc_with_store(
        &store,
        &[
            "annotate", log_arg, "--at", "19", "--glyph", "?!", "--text", "a tie?",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("annotation of event 19 saved in"),
        "{}",
        stdout(&o)
    );
    let o = carc_with_store(
        &store,
        &["annotate", log_arg, "--at", "19", "--glyph", "!!"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = carc_with_store(&store, &["annotate", log_arg, "--at", "19", "--delete"]);
    assert!(stdout(&o).contains("removed"), "{}", stdout(&o));
    // Then three records are in the sidecar file, in order, the last one a removal
    let sidecar = std::fs::read_to_string(dir.path().join("game.jsonl.annotations.jsonl")).unwrap();
    assert_eq!(
        sidecar,
        "{\"game\":\"short-game-rulings\",\"seq\":19,\"glyph\":\"?!\",\"text\":\"a tie?\"}\n\
         {\"game\":\"short-game-rulings\",\"seq\":19,\"glyph\":\"!!\",\"text\":\"\"}\n\
         {\"game\":\"short-game-rulings\",\"seq\":19,\"glyph\":null,\"text\":\"\"}\n"
    );
    // And the log is byte for byte what it was, and no store was created
    assert_eq!(std::fs::read(&log).unwrap(), before);
    assert!(!store.exists());
}

#[test]
fn a_stored_game_gets_its_record_in_the_store() {
    // Given a store holding the sample game
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let o = carc_with_store(&store, &["import", sample().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // When event 5 of the stored game is annotated
    let o = carc_with_store(
        &store,
        &[
            "annotate",
            "short-game-rulings",
            "--at",
            "5",
            "--text",
            "why J?",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Then the record is in the game's annotation stream, and the game still exports unchanged
    let opened = carc_store::Store::open(&store).unwrap();
    let records = carc_archive::read_annotation_records(&opened, "short-game-rulings").unwrap();
    assert_eq!(
        records,
        vec![br#"{"game":"short-game-rulings","seq":5,"glyph":null,"text":"why J?"}"#.to_vec()]
    );
    drop(opened);
    // (sled's threads in this test process may hold the store's lock a moment after the
    // drop; the CLI, another process, then says "in use": wait for them, at most 10 s)
    let mut o = carc_with_store(&store, &["export", "short-game-rulings", "--game-only"]);
    for _ in 0..100 {
        if o.status.success() || !stderr(&o).contains("in use") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        o = carc_with_store(&store, &["export", "short-game-rulings", "--game-only"]);
    }
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout, std::fs::read(sample()).unwrap());
    // And the bundle export ends with the annotation line
    let o = carc_with_store(&store, &["export", "short-game-rulings"]);
    let mut bundle = std::fs::read(sample()).unwrap();
    bundle.extend_from_slice(
        b"{\"type\":\"annotation\",\"game\":\"short-game-rulings\",\"seq\":5,\"glyph\":null,\"text\":\"why J?\"}\n",
    );
    assert_eq!(stdout(&o), String::from_utf8(bundle).unwrap());
    let o = carc_with_store(&store, &["games"]);
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
}

#[test]
fn bad_requests_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = sample();
    let log = log.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["annotate", log, "--at", "0", "--text", "x"],
            "--at 0: game short-game-rulings has events 1 to 34",
        ),
        (
            &["annotate", log, "--at", "35", "--text", "x"],
            "has events 1 to 34",
        ),
        (
            &["annotate", log, "--at", "3", "--glyph", "!!!"],
            "--glyph \"!!!\" is not a glyph; use one of !! ! !? ?! ? ??",
        ),
        (&["annotate", log, "--at", "3"], "nothing to write"),
        (
            // No store yet: none is created for a name that is neither a file nor a game
            &["annotate", "no-such-game", "--at", "3", "--text", "x"],
            "no-such-game: no such file, and no store at",
        ),
    ];
    for (args, want) in cases {
        let o = carc_with_store(&store, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    assert!(!dir
        .path()
        .join("short-game-rulings.jsonl.annotations.jsonl")
        .exists());
}

#[test]
fn the_markdown_export_shows_the_annotations_of_a_file_and_of_a_stored_game() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = dir.path().join("game.jsonl");
    std::fs::copy(sample(), &log).unwrap();
    let log_arg = log.to_str().unwrap();
    // Given an annotated log file, with a line in its sidecar that cannot be read
    let o = carc_with_store(
        &store,
        &[
            "annotate", log_arg, "--at", "19", "--glyph", "!?", "--text", "a tie",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let sidecar = dir.path().join("game.jsonl.annotations.jsonl");
    let mut lines = std::fs::read_to_string(&sidecar).unwrap();
    lines.push_str("not a record\n");
    std::fs::write(&sidecar, lines).unwrap();
    // When it is exported as Markdown
    let o = carc_with_store(&store, &["export", log_arg, "--format", "md"]);
    // Then the report has the glyph and the comment, and the bad line is named on stderr
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    assert!(md.starts_with("# Game short-game-rulings\n"), "{md}");
    assert!(md.contains("- **19** !? Brandt placed no meeple"), "{md}");
    assert!(md.contains("  > a tie\n"), "{md}");
    assert!(
        stderr(&o).contains("record 2 cannot be read"),
        "{}",
        stderr(&o)
    );

    // Given the same game in the store, annotated there
    assert!(
        carc_with_store(&store, &["import", sample().to_str().unwrap()])
            .status
            .success()
    );
    let o = carc_with_store(
        &store,
        &[
            "annotate",
            "short-game-rulings",
            "--at",
            "34",
            "--glyph",
            "!!",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // When the stored game is exported as Markdown to a file
    let out = dir.path().join("report.md");
    let o = carc_with_store(
        &store,
        &[
            "export",
            "short-game-rulings",
            "--format",
            "md",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Then its annotation is there too
    let md = std::fs::read_to_string(&out).unwrap();
    assert!(md.contains("- **34** !! Ada placed no meeple"), "{md}");
    assert!(md.contains("| Ada | 20 |"), "{md}");
}
