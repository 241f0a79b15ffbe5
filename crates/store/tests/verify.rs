//! `verify` on a healthy store and on stores damaged through sled directly.

mod common;

use std::path::{Path, PathBuf};

use carc_store::layout::{self, event_key};
use carc_store::{ExpectedVersion, Store, StoreError};
use common::{batch, when_unlocked};
use tempfile::TempDir;

/// A store with streams "a" (6 events, sealed), "ab" (4 events) and "c" (3 events), closed.
fn healthy() -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = Store::open(&path).unwrap();
    store
        .append("a", ExpectedVersion::NoStream, &batch("a0", 0, 3))
        .unwrap();
    store
        .append("ab", ExpectedVersion::NoStream, &batch("ab0", 1, 2))
        .unwrap();
    store
        .append("a", ExpectedVersion::Exactly(3), &batch("a1", 2, 3))
        .unwrap();
    store
        .append("ab", ExpectedVersion::Exactly(2), &batch("ab1", 3, 2))
        .unwrap();
    store
        .append("c", ExpectedVersion::NoStream, &batch("c0", 4, 3))
        .unwrap();
    store.seal("a").unwrap();
    let report = store.verify().unwrap();
    assert!(report.is_ok(), "{report}");
    assert_eq!(
        (
            report.streams,
            report.events,
            report.sealed,
            report.position
        ),
        (3, 13, 1, 13)
    );
    (dir, path)
}

/// Opens the store's sled database directly (the store must be closed).
fn damage(path: &Path, f: impl FnOnce(&sled::Db)) {
    let db = when_unlocked(|| sled::open(path));
    f(&db);
    db.flush().unwrap();
}

fn report_of(path: &Path) -> carc_store::VerifyReport {
    let store = when_unlocked(|| Store::open(path));
    store.verify().unwrap()
}

fn has(report: &carc_store::VerifyReport, stream: &str, seq: Option<u64>, what: &str) -> bool {
    report.problems.iter().any(|p| {
        p.stream.as_deref() == Some(stream)
            && (seq.is_none() || p.seq == seq)
            && p.what.contains(what)
    })
}

#[test]
fn healthy_store_verifies_and_reports_counts() {
    let (_dir, path) = healthy();
    let report = report_of(&path);
    assert!(report.is_ok());
    assert!(report.to_string().ends_with("ok"), "{report}");
}

#[test]
fn removed_event_is_a_gap() {
    let (_dir, path) = healthy();
    damage(&path, |db| {
        let events = db.open_tree(layout::EVENTS_TREE).unwrap();
        assert!(events.remove(event_key("ab", 2)).unwrap().is_some());
    });
    let report = report_of(&path);
    assert!(!report.is_ok());
    assert!(has(&report, "ab", Some(2), "missing event #2"), "{report}");
    // The removed event's id now dangles in the dedup tree.
    assert!(has(&report, "ab", Some(2), "does not exist"), "{report}");
    // "a" and "c" are untouched.
    assert!(
        report
            .problems
            .iter()
            .all(|p| p.stream.as_deref() == Some("ab")),
        "{report}"
    );
}

#[test]
fn removed_last_event_disagrees_with_head_and_a_head_disagrees_with_the_sealed_record() {
    let (_dir, path) = healthy();
    damage(&path, |db| {
        let events = db.open_tree(layout::EVENTS_TREE).unwrap();
        assert!(events.remove(event_key("c", 3)).unwrap().is_some());
        let heads = db.open_tree(layout::HEADS_TREE).unwrap();
        heads.insert("a", &5u64.to_be_bytes()).unwrap();
    });
    let report = report_of(&path);
    assert!(
        has(&report, "c", Some(3), "last stored event is #2"),
        "{report}"
    );
    assert!(
        has(
            &report,
            "a",
            Some(5),
            "head is 5 but the sealed record holds 6 events"
        ),
        "{report}"
    );
}

#[test]
fn a_sealed_stream_keeps_no_per_event_entries() {
    let (_dir, path) = healthy();
    damage(&path, |db| {
        let events = db.open_tree(layout::EVENTS_TREE).unwrap();
        assert_eq!(events.scan_prefix(layout::stream_prefix("a")).count(), 0);
        assert_eq!(events.scan_prefix(layout::stream_prefix("ab")).count(), 4);
    });
}

#[test]
fn corrupt_head_is_reported() {
    let (_dir, path) = healthy();
    damage(&path, |db| {
        let heads = db.open_tree(layout::HEADS_TREE).unwrap();
        heads.insert("c", &7u64.to_be_bytes()).unwrap();
        heads.insert("ghost", &1u64.to_be_bytes()).unwrap();
    });
    let report = report_of(&path);
    assert!(
        has(
            &report,
            "c",
            Some(7),
            "head is 7 but the last stored event is #3"
        ),
        "{report}"
    );
    assert!(has(&report, "ghost", Some(1), "no events"), "{report}");

    // A head that does not decode at all: the API reports Corrupt, never panics.
    damage(&path, |db| {
        let heads = db.open_tree(layout::HEADS_TREE).unwrap();
        heads.insert("c", b"xyz").unwrap();
    });
    let store = Store::open(&path).unwrap();
    assert!(matches!(
        store.version("c"),
        Err(StoreError::Corrupt { .. })
    ));
    let err = store
        .append("c", ExpectedVersion::Any, &batch("c9", 9, 1))
        .unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    assert!(
        err.to_string().starts_with("corrupt store entry heads/c"),
        "{err}"
    );
    let report = store.verify().unwrap();
    assert!(has(&report, "c", None, "expected 8 bytes"), "{report}");
}

#[test]
fn corrupt_values_are_errors_not_panics() {
    let (_dir, path) = healthy();
    damage(&path, |db| {
        let events = db.open_tree(layout::EVENTS_TREE).unwrap();
        events.insert(event_key("c", 2), &[1u8, 0, 0][..]).unwrap();
        let sealed = db.open_tree(layout::SEALED_TREE).unwrap();
        let mut record = sealed.get("a").unwrap().unwrap().to_vec();
        let last = record.len() - 1;
        record[last] ^= 0xff; // flip a payload byte of the last event
        sealed.insert("a", record).unwrap();
    });
    let store = Store::open(&path).unwrap();
    let err = store.read_stream("c", 1).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    let report = store.verify().unwrap();
    assert!(has(&report, "c", Some(2), "truncated position"), "{report}");
    assert!(has(&report, "a", None, "checksum mismatch"), "{report}");

    // A truncated sealed record.
    drop(store);
    damage(&path, |db| {
        let sealed = db.open_tree(layout::SEALED_TREE).unwrap();
        let record = sealed.get("a").unwrap().unwrap().to_vec();
        sealed.insert("a", &record[..record.len() / 2]).unwrap();
    });
    let store = Store::open(&path).unwrap();
    assert!(matches!(
        store.read_stream("a", 1),
        Err(StoreError::Corrupt { .. })
    ));
    assert!(store.read_all_streams().any(|r| r.is_err()));
    assert!(!store.verify().unwrap().is_ok());
}

#[test]
fn dedup_and_position_damage_is_reported() {
    let (_dir, path) = healthy();
    damage(&path, |db| {
        let dedup = db.open_tree(layout::DEDUP_TREE).unwrap();
        // An entry pointing at an event with another id, and a missing entry.
        let entry = dedup.get("c0-0").unwrap().unwrap();
        dedup.insert("stray", entry).unwrap();
        dedup.remove("ab1-1").unwrap();
        // The counter is behind the stored positions.
        let meta = db.open_tree(layout::META_TREE).unwrap();
        meta.insert(layout::META_POSITION_KEY, &10u64.to_be_bytes())
            .unwrap();
    });
    let report = report_of(&path);
    assert!(
        has(
            &report,
            "c",
            Some(1),
            "\"stray\" points to an event with id \"c0-0\""
        ),
        "{report}"
    );
    assert!(
        has(&report, "ab", Some(4), "\"ab1-1\" has no dedup entry"),
        "{report}"
    );
    assert!(has(&report, "c", Some(1), "outside 1..=10"), "{report}");
}

#[test]
fn duplicate_position_is_reported() {
    let (_dir, path) = healthy();
    damage(&path, |db| {
        let events = db.open_tree(layout::EVENTS_TREE).unwrap();
        // Re-encode c#3 with the position of c#2 (value: version, position u64, ...).
        let c2 = events.get(event_key("c", 2)).unwrap().unwrap();
        let mut c3 = events.get(event_key("c", 3)).unwrap().unwrap().to_vec();
        c3[1..9].copy_from_slice(&c2[1..9]);
        events.insert(event_key("c", 3), c3).unwrap();
    });
    let report = report_of(&path);
    assert!(has(&report, "c", Some(3), "also used by c #2"), "{report}");
}

#[test]
fn unknown_layout_version_is_refused() {
    let (_dir, path) = healthy();
    damage(&path, |db| {
        let meta = db.open_tree(layout::META_TREE).unwrap();
        meta.insert(layout::META_FORMAT_KEY, &[9u8][..]).unwrap();
    });
    let err = Store::open(&path).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::UnsupportedFormat {
                found: 9,
                supported: layout::FORMAT_VERSION
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_canonical_dedup_entry_against_the_promise_in_meta_is_reported() {
    // Given a healthy store with a dedup entry for the canonical id "c#9" (stored in "ab"),
    let (_dir, path) = healthy();
    {
        let store = when_unlocked(|| Store::open(&path));
        store
            .append(
                "ab",
                ExpectedVersion::Exactly(4),
                &[carc_store::NewEvent::new("c#9", b"x".to_vec())],
            )
            .unwrap();
        assert!(store.verify().unwrap().is_ok());
    }
    // when meta is made to promise there is no such entry,
    damage(&path, |db| {
        let meta = db.open_tree(layout::META_TREE).unwrap();
        meta.insert(layout::META_NO_CANONICAL_DEDUP_KEY, &[][..])
            .unwrap();
    });
    // then verify reports the broken promise at the entry.
    let report = report_of(&path);
    assert!(
        has(&report, "ab", Some(5), "promises there is none"),
        "{report}"
    );
}

#[test]
fn a_summary_that_lies_about_the_seal_is_reported() {
    // Given a healthy store where the open stream "c" has a summary of its version 3,
    let (_dir, path) = healthy();
    // when that summary claims the stream is sealed,
    damage(&path, |db| {
        let summaries = db.open_tree(layout::SUMMARIES_TREE).unwrap();
        let mut lie = vec![layout::SUMMARY_VERSION];
        lie.extend_from_slice(&3u64.to_be_bytes());
        lie.push(1);
        lie.extend_from_slice(b"{}");
        summaries.insert("c", lie).unwrap();
    });
    // then verify reports it (a listing would believe it).
    let report = report_of(&path);
    assert!(
        has(
            &report,
            "c",
            Some(3),
            "summary says the stream is sealed, but it is not"
        ),
        "{report}"
    );
}

#[test]
fn problems_come_in_stream_order_across_the_chunks_the_walk_checks_side_by_side() {
    // Given 300 streams of one event (more than one chunk of streams checked at once)
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let names: Vec<String> = (0..300).map(|i| format!("s{i:03}")).collect();
    {
        let store = Store::open(&path).unwrap();
        let batches: Vec<_> = names
            .iter()
            .enumerate()
            .map(|(i, n)| batch(n, i as u64, 1))
            .collect();
        let items: Vec<_> = names
            .iter()
            .zip(&batches)
            .map(|(n, b)| {
                (
                    n.as_str(),
                    ExpectedVersion::NoStream,
                    b.as_slice(),
                    carc_store::AppendOptions::default(),
                )
            })
            .collect();
        for result in store.append_many(&items, false).unwrap() {
            result.unwrap();
        }
    }
    // … whose heads of every 7th stream claim a second event, and whose s280#1 reuses the
    // position of s010#1 (a stream of another chunk)
    let damaged: Vec<&String> = names.iter().step_by(7).collect();
    damage(&path, |db| {
        let heads = db.open_tree(layout::HEADS_TREE).unwrap();
        for n in &damaged {
            heads.insert(n.as_bytes(), &2u64.to_be_bytes()[..]).unwrap();
        }
        let events = db.open_tree(layout::EVENTS_TREE).unwrap();
        let first = events.get(event_key("s010", 1)).unwrap().unwrap();
        let mut later = events.get(event_key("s280", 1)).unwrap().unwrap().to_vec();
        later[1..9].copy_from_slice(&first[1..9]);
        events.insert(event_key("s280", 1), later).unwrap();
    });
    // When the store is verified
    let report = report_of(&path);
    // Then every stream is counted, and the problems are those of a walk one stream after the
    // other: the heads in stream order, then the position used twice
    assert_eq!((report.streams, report.events), (300, 300), "{report}");
    let heads: Vec<&str> = report
        .problems
        .iter()
        .filter(|p| p.what.contains("head is 2"))
        .filter_map(|p| p.stream.as_deref())
        .collect();
    assert_eq!(
        heads,
        damaged.iter().map(|n| n.as_str()).collect::<Vec<_>>(),
        "{report}"
    );
    assert!(
        has(&report, "s280", Some(1), "also used by s010 #1"),
        "{report}"
    );
    assert_eq!(report.problems.len(), damaged.len() + 1, "{report}");
}
