//! Append, read, idempotency, conflicts, sealing and bad input.

mod common;

use carc_store::{ExpectedVersion, NewEvent, Store, StoreError};
use common::{batch, payload, temp_store, when_unlocked};

#[test]
fn sequence_numbers_are_gapless_from_one_and_positions_global() {
    let (_dir, store) = temp_store();
    assert_eq!(store.version("g1").unwrap(), None);
    assert_eq!(store.position().unwrap(), 0);

    let a = store
        .append("g1", ExpectedVersion::NoStream, &batch("g1-0", 0, 3))
        .unwrap();
    assert_eq!((a.first_seq, a.last_seq), (1, 3));
    assert_eq!((a.first_position, a.last_position), (1, 3));
    assert!(!a.deduplicated);

    let b = store
        .append("g2", ExpectedVersion::Any, &batch("g2-0", 1, 2))
        .unwrap();
    assert_eq!((b.first_seq, b.last_seq), (1, 2));
    assert_eq!((b.first_position, b.last_position), (4, 5));

    let c = store
        .append("g1", ExpectedVersion::Exactly(3), &batch("g1-1", 2, 1))
        .unwrap();
    assert_eq!((c.first_seq, c.last_seq), (4, 4));
    assert_eq!(c.first_position, 6);

    let events = store.read_stream("g1", 1).unwrap();
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [1, 2, 3, 4]);
    let positions: Vec<u64> = events.iter().map(|e| e.position).collect();
    assert_eq!(positions, [1, 2, 3, 6]);
    assert_eq!(events[3].id, "g1-1-0");
    assert_eq!(events[3].payload, payload(2, 0));
    assert_eq!(store.version("g1").unwrap(), Some(4));
    assert_eq!(store.position().unwrap(), 6);

    // from_seq
    let tail = store.read_stream("g1", 3).unwrap();
    assert_eq!(tail.iter().map(|e| e.seq).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(store.read_stream("g1", 0).unwrap().len(), 4);
    assert!(store.read_stream("g1", 5).unwrap().is_empty());
    assert!(store.read_stream("nope", 1).unwrap().is_empty());

    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn expected_version_mismatch_is_a_conflict_and_stores_nothing() {
    let (_dir, store) = temp_store();
    store
        .append("g", ExpectedVersion::NoStream, &batch("a", 0, 2))
        .unwrap();

    let err = store
        .append("g", ExpectedVersion::NoStream, &batch("b", 1, 1))
        .unwrap_err();
    match err {
        StoreError::Conflict {
            ref stream,
            expected,
            actual,
        } => {
            assert_eq!(stream, "g");
            assert_eq!(expected, ExpectedVersion::NoStream);
            assert_eq!(actual, Some(2));
        }
        other => panic!("expected Conflict, got {other:?}"),
    }
    assert!(
        err.to_string().contains("expected no stream, actual 2"),
        "{err}"
    );

    for wrong in [0, 1, 3] {
        let err = store
            .append("g", ExpectedVersion::Exactly(wrong), &batch("b", 1, 1))
            .unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::Conflict {
                    actual: Some(2),
                    ..
                }
            ),
            "{err:?}"
        );
    }
    let err = store
        .append("new", ExpectedVersion::Exactly(5), &batch("c", 1, 1))
        .unwrap_err();
    assert!(
        matches!(err, StoreError::Conflict { actual: None, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("actual no stream"), "{err}");

    // Exactly(0) means "no events yet".
    store
        .append("new", ExpectedVersion::Exactly(0), &batch("c", 1, 1))
        .unwrap();

    assert_eq!(store.version("g").unwrap(), Some(2));
    assert_eq!(store.position().unwrap(), 3);
    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn idempotent_retry_stores_the_batch_once() {
    let (_dir, store) = temp_store();
    let first = store
        .append("g", ExpectedVersion::NoStream, &batch("x", 0, 3))
        .unwrap();
    store
        .append("g", ExpectedVersion::Exactly(3), &batch("y", 1, 2))
        .unwrap();

    // Same batch again, with the now-stale expectation: a retry, not a conflict.
    let again = store
        .append("g", ExpectedVersion::NoStream, &batch("x", 0, 3))
        .unwrap();
    assert!(again.deduplicated);
    assert_eq!(
        (
            again.first_seq,
            again.last_seq,
            again.first_position,
            again.last_position
        ),
        (
            first.first_seq,
            first.last_seq,
            first.first_position,
            first.last_position
        )
    );
    let again = store
        .append("g", ExpectedVersion::Any, &batch("y", 1, 2))
        .unwrap();
    assert!(again.deduplicated);
    assert_eq!((again.first_seq, again.last_seq), (4, 5));

    assert_eq!(store.version("g").unwrap(), Some(5));
    assert_eq!(store.position().unwrap(), 5);
    assert_eq!(store.read_stream("g", 1).unwrap().len(), 5);
    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn partial_or_foreign_id_reuse_is_rejected_and_stores_nothing() {
    let (_dir, store) = temp_store();
    store
        .append("g", ExpectedVersion::NoStream, &batch("x", 0, 3))
        .unwrap();
    let before = store.read_stream("g", 1).unwrap();

    // Two of three ids present.
    let mut partial = batch("x", 0, 2);
    partial.push(NewEvent::new("fresh", b"new".to_vec()));
    let err = store
        .append("g", ExpectedVersion::Any, &partial)
        .unwrap_err();
    match &err {
        StoreError::IdReuse {
            id,
            existing_stream,
            existing_seq,
            why,
        } => {
            assert_eq!(id, "x-0");
            assert_eq!(existing_stream, "g");
            assert_eq!(*existing_seq, 1);
            assert!(why.contains("2 of the batch's 3"), "{why}");
        }
        other => panic!("expected IdReuse, got {other:?}"),
    }

    // One new id first, then an old one.
    let mut mixed = vec![NewEvent::new("fresh", b"new".to_vec())];
    mixed.extend(batch("x", 0, 1));
    assert!(matches!(
        store.append("g", ExpectedVersion::Any, &mixed),
        Err(StoreError::IdReuse { .. })
    ));

    // All ids present but in another stream.
    let err = store
        .append("other", ExpectedVersion::Any, &batch("x", 0, 3))
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::IdReuse { existing_stream, .. } if existing_stream == "g"),
        "{err:?}"
    );
    assert!(err.to_string().contains("another stream"), "{err}");

    // All ids present, same stream, but not the same events (order or payload differ).
    let mut reordered = batch("x", 0, 3);
    reordered.swap(0, 1);
    assert!(matches!(
        store.append("g", ExpectedVersion::Any, &reordered),
        Err(StoreError::IdReuse { .. })
    ));
    let mut changed = batch("x", 0, 3);
    changed[2].payload = b"something else".to_vec();
    let err = store
        .append("g", ExpectedVersion::Any, &changed)
        .unwrap_err();
    assert!(err.to_string().contains("payload differs"), "{err}");
    // A sub-batch of the stored batch that is consecutive is a valid retry of those events.
    let tail = batch("x", 0, 3)[1..].to_vec();
    let again = store.append("g", ExpectedVersion::Any, &tail).unwrap();
    assert!(again.deduplicated);
    assert_eq!((again.first_seq, again.last_seq), (2, 3));

    assert_eq!(store.read_stream("g", 1).unwrap(), before);
    assert_eq!(store.streams().unwrap(), ["g"]);
    assert_eq!(store.position().unwrap(), 3);
    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn a_batch_failing_validation_stores_nothing() {
    let (_dir, store) = temp_store();
    store
        .append("g", ExpectedVersion::NoStream, &batch("a", 0, 1))
        .unwrap();

    // The last event is bad: the good ones before it must not be stored either.
    let mut bad = batch("b", 1, 4);
    bad[3].id = String::new();
    assert!(matches!(
        store.append("g", ExpectedVersion::Any, &bad),
        Err(StoreError::InvalidBatch { .. })
    ));
    let mut dup = batch("c", 2, 3);
    dup[2].id = dup[0].id.clone();
    let err = store.append("g", ExpectedVersion::Any, &dup).unwrap_err();
    assert!(err.to_string().contains("repeats the id"), "{err}");
    // A conflict in the middle of a multi-event batch: nothing of it is stored.
    assert!(matches!(
        store.append("g", ExpectedVersion::Exactly(7), &batch("d", 3, 5)),
        Err(StoreError::Conflict { .. })
    ));

    assert_eq!(store.version("g").unwrap(), Some(1));
    assert_eq!(store.position().unwrap(), 1);
    assert_eq!(store.read_stream("g", 1).unwrap().len(), 1);
    // None of the rejected ids was recorded: they are all usable now.
    store
        .append("g", ExpectedVersion::Exactly(1), &batch("b", 1, 3))
        .unwrap();
    store
        .append("g", ExpectedVersion::Exactly(4), &batch("d", 3, 5))
        .unwrap();
    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn stream_prefixes_are_isolated() {
    let (_dir, store) = temp_store();
    store
        .append("a", ExpectedVersion::NoStream, &batch("a", 0, 2))
        .unwrap();
    store
        .append("ab", ExpectedVersion::NoStream, &batch("ab", 1, 3))
        .unwrap();
    store
        .append("a0", ExpectedVersion::NoStream, &batch("a0", 2, 1))
        .unwrap();
    store
        .append("b", ExpectedVersion::NoStream, &batch("b", 3, 1))
        .unwrap();

    let a = store.read_stream("a", 1).unwrap();
    assert_eq!(
        a.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        ["a-0", "a-1"]
    );
    assert_eq!(store.read_stream("ab", 1).unwrap().len(), 3);
    assert_eq!(store.read_stream("a0", 1).unwrap().len(), 1);
    assert_eq!(store.version("a").unwrap(), Some(2));
    assert_eq!(store.version("ab").unwrap(), Some(3));
    assert_eq!(store.streams().unwrap(), ["a", "a0", "ab", "b"]);

    // Sealing "a" does not affect "ab".
    store.seal("a").unwrap();
    store
        .append("ab", ExpectedVersion::Exactly(3), &batch("ab2", 4, 1))
        .unwrap();
    assert_eq!(store.read_stream("a", 1).unwrap(), a);
    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn seal_makes_a_compact_record_equal_to_the_events() {
    let (_dir, store) = temp_store();
    for i in 0..50u64 {
        store
            .append(
                "game",
                ExpectedVersion::Exactly(i * 3),
                &batch(&format!("game-{i}"), i, 3),
            )
            .unwrap();
        store
            .append(
                "other",
                ExpectedVersion::Any,
                &batch(&format!("other-{i}"), i, 1),
            )
            .unwrap();
    }
    let before = store.read_stream("game", 1).unwrap();
    assert_eq!(before.len(), 150);
    assert!(!store.is_sealed("game").unwrap());

    assert_eq!(store.seal("game").unwrap(), 150);
    assert!(store.is_sealed("game").unwrap());
    assert_eq!(store.seal("game").unwrap(), 150, "sealing twice is a no-op");
    assert_eq!(store.read_stream("game", 1).unwrap(), before);
    assert_eq!(store.read_stream("game", 100).unwrap(), before[99..]);
    assert!(store.read_stream("game", 151).unwrap().is_empty());

    // No more appends, but an exact retry is still acknowledged.
    let err = store
        .append("game", ExpectedVersion::Any, &batch("late", 9, 1))
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Sealed { stream } if stream == "game"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "stream game is sealed and takes no further events"
    );
    let retry = store
        .append("game", ExpectedVersion::Any, &batch("game-49", 49, 3))
        .unwrap();
    assert!(retry.deduplicated);
    assert_eq!(store.version("game").unwrap(), Some(150));

    // Bulk read: sealed streams come from the record, others per event.
    let all: Vec<_> = store.read_all_streams().collect::<Result<_, _>>().unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].stream, "game");
    assert!(all[0].sealed);
    assert_eq!(all[0].events, before);
    assert_eq!(all[1].stream, "other");
    assert!(!all[1].sealed);
    assert_eq!(all[1].events, store.read_stream("other", 1).unwrap());

    assert!(matches!(
        store.seal("missing"),
        Err(StoreError::NoSuchStream { .. })
    ));
    let report = store.verify().unwrap();
    assert!(report.is_ok(), "{report}");
    assert_eq!(report.sealed, 1);
}

#[test]
fn data_survives_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    {
        let store = Store::open(&path).unwrap();
        store
            .append("g", ExpectedVersion::NoStream, &batch("g", 0, 3))
            .unwrap();
        store.seal("g").unwrap();
        store
            .append("h", ExpectedVersion::NoStream, &batch("h", 1, 2))
            .unwrap();
    }
    let store = when_unlocked(|| Store::open(&path));
    assert_eq!(store.streams().unwrap(), ["g", "h"]);
    assert_eq!(store.version("g").unwrap(), Some(3));
    assert!(store.is_sealed("g").unwrap());
    assert_eq!(store.position().unwrap(), 5);
    assert_eq!(store.read_stream("h", 1).unwrap()[1].payload, payload(1, 1));
    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn bad_input_gets_clear_errors() {
    let (_dir, store) = temp_store();
    let ok = batch("ok", 0, 1);
    let long = "x".repeat(129);
    for bad in [
        "",
        "has space",
        "tab\there",
        "nul\0",
        "é",
        "line\n",
        long.as_str(),
    ] {
        let err = store.append(bad, ExpectedVersion::Any, &ok).unwrap_err();
        assert!(
            matches!(err, StoreError::InvalidStreamId { .. }),
            "{bad:?}: {err:?}"
        );
        assert!(err.to_string().starts_with("invalid stream id"), "{err}");
        assert!(store.read_stream(bad, 1).is_err());
        assert!(store.version(bad).is_err());
        assert!(store.seal(bad).is_err());
    }
    let max = "y".repeat(128);
    store.append(&max, ExpectedVersion::Any, &ok).unwrap();
    assert_eq!(
        store
            .append("e", ExpectedVersion::Any, &[])
            .unwrap_err()
            .to_string(),
        "invalid batch for stream e: the batch is empty"
    );
    let err = store
        .append(
            "e",
            ExpectedVersion::Any,
            &[NewEvent::new("", b"p".to_vec())],
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid batch for stream e: event 0 of the batch has an empty id"
    );
    let err = store
        .append(
            "e",
            ExpectedVersion::Any,
            &[NewEvent::new("i".repeat(513), b"p".to_vec())],
        )
        .unwrap_err();
    assert!(err.to_string().contains("longer than 512 bytes"), "{err}");
    // Empty payloads are fine; ids may hold any UTF-8.
    store
        .append(
            "e",
            ExpectedVersion::Any,
            &[NewEvent::new("é 1\0", Vec::new())],
        )
        .unwrap();
    assert_eq!(store.read_stream("e", 1).unwrap()[0].id, "é 1\0");
    assert_eq!(store.streams().unwrap(), ["e", max.as_str()]);
    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn a_second_open_in_the_same_process_is_refused_not_hung() {
    let (dir, store) = temp_store();
    let path = dir.path().join("db");
    let started = std::time::Instant::now();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::InUse { .. }), "{err:?}");
    // Also once the store has been closed and opened again: only the wait for this process's
    // own closing is bounded-patient, a store held open is refused at once (well under the
    // two-second wait).
    drop(store);
    let again = Store::open(&path).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::InUse { .. }), "{err:?}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    drop(again);
}

/// The store skips the dedup lookup of canonical ids (`<stream>#<seq>`) while it promises that
/// no dedup entry has one; storing such an id away from its place must end the promise.
#[test]
fn a_canonical_id_stored_away_from_its_place_is_found_when_that_place_is_appended() {
    // Given a fresh store whose stream "b" holds the canonical-looking id "a#1" of stream "a".
    let (dir, store) = temp_store();
    store
        .append(
            "b",
            ExpectedVersion::NoStream,
            &[NewEvent::new("a#1", b"in b".to_vec())],
        )
        .unwrap();
    let refused = |store: &Store| {
        // When stream "a" appends its first event under that id,
        let err = store
            .append(
                "a",
                ExpectedVersion::NoStream,
                &[NewEvent::new("a#1", b"in a".to_vec())],
            )
            .unwrap_err();
        // then it is refused as the id of b's event, and nothing is stored in "a".
        assert!(
            matches!(&err, StoreError::IdReuse { existing_stream, existing_seq: 1, .. } if existing_stream == "b"),
            "{err:?}"
        );
        assert_eq!(store.version("a").unwrap(), None);
    };
    refused(&store);
    // The same after the store is closed and opened again.
    drop(store);
    let store = when_unlocked(|| Store::open(&dir.path().join("db")));
    refused(&store);
    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn a_canonical_id_stored_away_from_its_place_earlier_in_the_same_group_is_found() {
    // Given a fresh store and one group transaction whose first item stores "a#1" in "b",
    let (_dir, store) = temp_store();
    let in_b = [NewEvent::new("a#1", b"in b".to_vec())];
    let in_a = [NewEvent::new("a#1", b"in a".to_vec())];
    let results = store
        .append_many(
            &[
                (
                    "b",
                    ExpectedVersion::NoStream,
                    &in_b[..],
                    Default::default(),
                ),
                (
                    "a",
                    ExpectedVersion::NoStream,
                    &in_a[..],
                    Default::default(),
                ),
            ],
            false,
        )
        .unwrap();
    // when the second item appends "a#1" at its own place, then only the first is stored.
    assert!(results[0].is_ok(), "{:?}", results[0]);
    assert!(
        matches!(&results[1], Err(StoreError::IdReuse { existing_stream, .. }) if existing_stream == "b"),
        "{:?}",
        results[1]
    );
    assert_eq!(store.version("a").unwrap(), None);
    assert!(store.verify().unwrap().is_ok());
}
