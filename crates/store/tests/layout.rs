//! Layouts 2 and 3: canonical ids without dedup entries, append-and-seal in one step, summaries
//! and the listing, the upgrade of layout-1 and layout-2 stores, and the lock let go at once when
//! a store is dropped.

mod common;

use carc_store::layout::{self, event_key};
use carc_store::{AppendOptions, ExpectedVersion, NewEvent, Store, StoreError, StreamListing};
use common::{payload, temp_store, when_unlocked};

/// `n` events of `stream` with canonical ids `<stream>#<seq>` from seq `from`.
fn canonical(stream: &str, from: u64, n: u64) -> Vec<NewEvent> {
    (from..from + n)
        .map(|seq| NewEvent::new(format!("{stream}#{seq}"), payload(seq, 0)))
        .collect()
}

/// Opens a closed store's sled database, checks that `meta/format` is the current layout, and
/// returns the `meta` tree.
fn stored_meta_is_current(path: &std::path::Path) -> sled::Tree {
    let db = when_unlocked(|| sled::open(path));
    let meta = db.open_tree(layout::META_TREE).unwrap();
    assert_eq!(
        meta.get(layout::META_FORMAT_KEY).unwrap().as_deref(),
        Some(&[layout::FORMAT_VERSION][..])
    );
    meta
}

fn tree_len(store_dir: &std::path::Path, tree: &str) -> usize {
    let db = when_unlocked(|| sled::open(store_dir));
    let tree = db.open_tree(tree).unwrap();
    tree.len()
}

#[test]
fn append_and_seal_is_one_step_and_canonical_ids_need_no_dedup_entry() {
    // Given a store with an open stream of 2 canonical events
    let (dir, store) = temp_store();
    store
        .append("g", ExpectedVersion::NoStream, &canonical("g", 1, 2))
        .unwrap();
    // When the rest is appended and sealed in one call, with a summary
    let done = store
        .append_with(
            "g",
            ExpectedVersion::Exactly(2),
            &canonical("g", 3, 3),
            AppendOptions {
                seal: true,
                summary: Some(b"five events"),
                defer_flush: false,
            },
        )
        .unwrap();
    // Then the stream is sealed with all five events, the summary is current
    assert_eq!((done.first_seq, done.last_seq), (3, 5));
    assert!(store.is_sealed("g").unwrap());
    let events = store.read_stream("g", 1).unwrap();
    assert_eq!(events.len(), 5);
    assert_eq!(events[4].id, "g#5");
    assert_eq!(events[4].payload, payload(5, 0));
    assert_eq!(
        store.summary("g").unwrap().as_deref(),
        Some(&b"five events"[..])
    );
    // and an exact retry of either batch is still recognised, a foreign reuse refused
    assert!(
        store
            .append("g", ExpectedVersion::NoStream, &canonical("g", 1, 2))
            .unwrap()
            .deduplicated
    );
    assert!(
        store
            .append("g", ExpectedVersion::Any, &canonical("g", 3, 3))
            .unwrap()
            .deduplicated
    );
    let err = store
        .append("h", ExpectedVersion::Any, &canonical("g", 1, 1))
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::IdReuse { existing_stream, existing_seq: 1, .. } if existing_stream == "g"),
        "{err:?}"
    );
    // A non-canonical id that names another place is stored under a dedup entry, and the
    // canonical id it spells can then not be used at its own place.
    store
        .append(
            "h",
            ExpectedVersion::NoStream,
            &[NewEvent::new("k#1", b"x".to_vec())],
        )
        .unwrap();
    let err = store
        .append("k", ExpectedVersion::NoStream, &canonical("k", 1, 1))
        .unwrap_err();
    assert!(matches!(err, StoreError::IdReuse { .. }), "{err:?}");
    let report = store.verify().unwrap();
    assert!(report.is_ok(), "{report}");
    assert_eq!((report.streams, report.events, report.sealed), (2, 6, 1));
    let path = dir.path().join("db");
    drop(store);
    // Only the one non-canonical id has a dedup entry; the sealed stream no per-event entry.
    assert_eq!(tree_len(&path, layout::DEDUP_TREE), 1);
    assert_eq!(tree_len(&path, layout::EVENTS_TREE), 1);
}

#[test]
fn a_summary_goes_stale_when_the_stream_moves_on() {
    let (_dir, store) = temp_store();
    let with_summary = AppendOptions {
        summary: Some(b"v2"),
        ..AppendOptions::default()
    };
    store
        .append_with(
            "g",
            ExpectedVersion::NoStream,
            &canonical("g", 1, 2),
            with_summary,
        )
        .unwrap();
    assert_eq!(store.summary("g").unwrap().as_deref(), Some(&b"v2"[..]));
    store
        .append("g", ExpectedVersion::Exactly(2), &canonical("g", 3, 1))
        .unwrap();
    assert_eq!(store.summary("g").unwrap(), None);
    assert_eq!(store.summary("nothing").unwrap(), None);
}

#[test]
fn a_deferred_flush_commits_and_flush_makes_it_durable() {
    let (_dir, store) = temp_store();
    let deferred = AppendOptions {
        seal: true,
        defer_flush: true,
        ..AppendOptions::default()
    };
    for g in 0..20 {
        let stream = format!("g{g}");
        store
            .append_with(
                &stream,
                ExpectedVersion::NoStream,
                &canonical(&stream, 1, 4),
                deferred,
            )
            .unwrap();
    }
    store.flush().unwrap();
    assert_eq!(store.streams().unwrap().len(), 20);
    assert!(store.verify().unwrap().is_ok());
}

/// A layout-1 store as the first release wrote it: per-event entries and a dedup entry for
/// every id, a sealed stream keeping both its entries and a layout-1 record.
fn write_layout_1(path: &std::path::Path) {
    let db = sled::open(path).unwrap();
    let events = db.open_tree(layout::EVENTS_TREE).unwrap();
    let heads = db.open_tree(layout::HEADS_TREE).unwrap();
    let meta = db.open_tree(layout::META_TREE).unwrap();
    let dedup = db.open_tree(layout::DEDUP_TREE).unwrap();
    let sealed = db.open_tree(layout::SEALED_TREE).unwrap();
    let mut position = 0u64;
    for (stream, n, seal) in [("old", 4u64, true), ("open", 3, false)] {
        let mut stored = Vec::new();
        for seq in 1..=n {
            position += 1;
            let id = format!("{stream}#{seq}");
            let mut value = vec![1u8];
            value.extend_from_slice(&position.to_be_bytes());
            value.extend_from_slice(&(id.len() as u32).to_be_bytes());
            value.extend_from_slice(id.as_bytes());
            value.extend_from_slice(&payload(seq, 0));
            events.insert(event_key(stream, seq), value).unwrap();
            let mut d = vec![1u8];
            d.extend_from_slice(&seq.to_be_bytes());
            d.extend_from_slice(stream.as_bytes());
            dedup.insert(id.as_bytes(), d).unwrap();
            stored.push(carc_store::StoredEvent {
                seq,
                position,
                id,
                payload: payload(seq, 0),
            });
        }
        heads.insert(stream, &n.to_be_bytes()).unwrap();
        if seal {
            sealed
                .insert(stream, layout::encode_sealed_v1(&stored))
                .unwrap();
        }
    }
    meta.insert(layout::META_FORMAT_KEY, &[1u8][..]).unwrap();
    meta.insert(layout::META_POSITION_KEY, &position.to_be_bytes())
        .unwrap();
    db.flush().unwrap();
}

#[test]
fn a_layout_1_store_opens_upgrades_and_keeps_every_guarantee() {
    // Given a store written in layout 1 (the first release's)
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    write_layout_1(&path);
    // When this build opens it
    let store = when_unlocked(|| Store::open(&path));
    // Then it verifies, reads as before, and its format is now 2
    let report = store.verify().unwrap();
    assert!(report.is_ok(), "{report}");
    assert_eq!((report.streams, report.sealed), (2, 1));
    assert_eq!(store.read_stream("old", 1).unwrap().len(), 4);
    assert!(store.is_sealed("old").unwrap());
    assert_eq!(
        store.read_stream("open", 2).unwrap()[0].payload,
        payload(2, 0)
    );
    // Retries of old batches are recognised; the open stream goes on and seals in layout 2
    assert!(
        store
            .append("old", ExpectedVersion::Any, &canonical("old", 1, 4))
            .unwrap()
            .deduplicated
    );
    store
        .append_with(
            "open",
            ExpectedVersion::Exactly(3),
            &canonical("open", 4, 2),
            AppendOptions {
                seal: true,
                ..AppendOptions::default()
            },
        )
        .unwrap();
    assert_eq!(store.read_stream("open", 1).unwrap().len(), 5);
    let report = store.verify().unwrap();
    assert!(report.is_ok(), "{report}");
    drop(store);
    stored_meta_is_current(&path);
}

/// sled keeps its file lock for a moment after the last handle is dropped (its I/O threads
/// hold the file while they finish); a reopen in the same process waits for them (see
/// `docs/store.md`, "sled caveats"). Without that wait this failed in about one run of three.
#[test]
fn a_dropped_store_reopens_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    for round in 0..30u64 {
        let store = Store::open(&path).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let stream = format!("g{round}");
        store
            .append(
                &stream,
                ExpectedVersion::NoStream,
                &canonical(&stream, 1, 1),
            )
            .unwrap();
    }
}

#[test]
fn append_many_gives_each_item_its_own_verdict_in_one_transaction() {
    // Given a store holding stream "a"
    let (_dir, store) = temp_store();
    store
        .append("a", ExpectedVersion::NoStream, &canonical("a", 1, 2))
        .unwrap();
    let sealing = AppendOptions {
        seal: true,
        ..AppendOptions::default()
    };
    let b = canonical("b", 1, 3);
    let stale = canonical("a", 3, 1);
    let empty: Vec<NewEvent> = Vec::new();
    let c = canonical("c", 1, 1);
    let b_more = canonical("b", 4, 1);
    // When four items are stored at once: a new sealed stream, a stale expectation, an
    // invalid batch, and a new open stream (then one more for the sealed stream)
    let results = store
        .append_many(
            &[
                ("b", ExpectedVersion::NoStream, &b, sealing),
                (
                    "a",
                    ExpectedVersion::Exactly(1),
                    &stale,
                    AppendOptions::default(),
                ),
                ("x", ExpectedVersion::Any, &empty, AppendOptions::default()),
                ("c", ExpectedVersion::NoStream, &c, AppendOptions::default()),
                ("b", ExpectedVersion::Any, &b_more, AppendOptions::default()),
            ],
            false,
        )
        .unwrap();
    // Then the good items are stored and the others refused, each with its reason
    assert_eq!(results[0].as_ref().unwrap().last_seq, 3);
    assert!(
        matches!(results[1], Err(StoreError::Conflict { .. })),
        "{:?}",
        results[1]
    );
    assert!(
        matches!(results[2], Err(StoreError::InvalidBatch { .. })),
        "{:?}",
        results[2]
    );
    assert_eq!(results[3].as_ref().unwrap().first_position, 6);
    assert!(
        matches!(results[4], Err(StoreError::Sealed { .. })),
        "{:?}",
        results[4]
    );
    assert!(store.is_sealed("b").unwrap());
    assert_eq!(store.version("a").unwrap(), Some(2));
    assert_eq!(store.streams().unwrap(), ["a", "b", "c"]);
    let report = store.verify().unwrap();
    assert!(report.is_ok(), "{report}");
}

fn listed(
    stream: &str,
    version: u64,
    sealed: Option<bool>,
    summary: Option<&[u8]>,
) -> StreamListing {
    StreamListing {
        stream: stream.to_string(),
        version,
        sealed,
        summary: summary.map(<[u8]>::to_vec),
    }
}

#[test]
fn the_listing_gives_each_stream_its_current_summary_and_whether_it_is_sealed() {
    // Given streams: "a" sealed with its summary at import, "b" open with a summary, "c"
    // without one, "d" whose summary went stale, and "e" sealed later by `seal`.
    let (_dir, store) = temp_store();
    // (stream, events, summary, sealed by the append) appended from nothing; None: no summary.
    let appends: [(&str, u64, Option<&'static [u8]>, bool); 5] = [
        ("a", 3, Some(b"sa"), true),
        ("b", 2, Some(b"sb"), false),
        ("c", 1, None, false),
        ("d", 1, Some(b"sd"), false),
        ("e", 2, Some(b"se"), false),
    ];
    for (stream, n, summary, seal) in appends {
        let options = AppendOptions {
            seal,
            summary,
            defer_flush: false,
        };
        store
            .append_with(
                stream,
                ExpectedVersion::NoStream,
                &canonical(stream, 1, n),
                options,
            )
            .unwrap();
    }
    // "d" moves on without a summary.
    store
        .append("d", ExpectedVersion::Exactly(1), &canonical("d", 2, 1))
        .unwrap();
    store.seal("e").unwrap();
    // When the store is listed, then each stream has its version, the summary that
    // describes that version, and the sealed flag that summary carries.
    assert_eq!(
        store.listing().collect::<Result<Vec<_>, _>>().unwrap(),
        [
            listed("a", 3, Some(true), Some(b"sa")),
            listed("b", 2, Some(false), Some(b"sb")),
            listed("c", 1, None, None),
            listed("d", 2, None, None),
            listed("e", 2, Some(true), Some(b"se")),
        ]
    );
    assert_eq!(store.summary("e").unwrap().as_deref(), Some(&b"se"[..]));
    assert!(store.verify().unwrap().is_ok());
}

#[test]
fn a_layout_2_store_opens_upgrades_and_lists_its_summaries_without_a_sealed_flag() {
    // Given a store as a layout-2 program leaves it: format 2, summaries without the sealed
    // flag (`0x01 ‖ version ‖ bytes`), no `no-canonical-dedup` promise.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    {
        let store = Store::open(&path).unwrap();
        let sealed = AppendOptions {
            seal: true,
            summary: Some(b"old summary"),
            defer_flush: false,
        };
        store
            .append_with(
                "g",
                ExpectedVersion::NoStream,
                &canonical("g", 1, 2),
                sealed,
            )
            .unwrap();
    }
    {
        let db = when_unlocked(|| sled::open(&path));
        let meta = db.open_tree(layout::META_TREE).unwrap();
        meta.insert(layout::META_FORMAT_KEY, &[2u8][..]).unwrap();
        meta.remove(layout::META_NO_CANONICAL_DEDUP_KEY).unwrap();
        let summaries = db.open_tree(layout::SUMMARIES_TREE).unwrap();
        let mut old = vec![1u8];
        old.extend_from_slice(&2u64.to_be_bytes());
        old.extend_from_slice(b"old summary");
        summaries.insert("g", old).unwrap();
        db.flush().unwrap();
    }
    // When it is opened by this version,
    let store = when_unlocked(|| Store::open(&path));
    // then it is upgraded in place, its summary is read, and whether it is sealed is left
    // to `is_sealed` (the old value does not say).
    assert_eq!(
        store.listing().collect::<Result<Vec<_>, _>>().unwrap(),
        [listed("g", 2, None, Some(b"old summary"))]
    );
    assert!(store.is_sealed("g").unwrap());
    assert!(store.verify().unwrap().is_ok());
    drop(store);
    let meta = stored_meta_is_current(&path);
    // The dedup tree is empty, so the promise is made on open.
    assert!(meta
        .get(layout::META_NO_CANONICAL_DEDUP_KEY)
        .unwrap()
        .is_some());
}
