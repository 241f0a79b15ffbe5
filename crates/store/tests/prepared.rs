//! A sealed record's body encoded ahead of the transaction (`PreparedBatch`) stores the same
//! bytes as one encoded inside it: two stores given the same appends, one with
//! `append_many`, the other with `append_many_prepared`, hold the same trees byte for byte.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use carc_store::{AppendOptions, ExpectedVersion, NewEvent, PreparedBatch, Store};
use common::{payload, when_unlocked};

/// `n` events of `stream` from seq `from`: canonical ids `<stream>#<seq>`, or, for odd seqs
/// when `mixed`, ids of their own (stored with dedup entries and spelled out in the record).
fn events(stream: &str, from: u64, n: u64, mixed: bool) -> Vec<NewEvent> {
    (from..from + n)
        .map(|seq| {
            let id = if mixed && seq % 2 == 1 {
                format!("{stream}-own-{seq}")
            } else {
                format!("{stream}#{seq}")
            };
            NewEvent::new(id, payload(seq, stream.len() as u64))
        })
        .collect()
}

/// Every tree of a closed store, key and value bytes.
/// A store's trees by name, each as its (key, value) pairs in key order.
type Trees = BTreeMap<Vec<u8>, Vec<(Vec<u8>, Vec<u8>)>>;

fn trees(path: &Path) -> Trees {
    let db = when_unlocked(|| sled::open(path));
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

/// One append of a group: stream, expected version, events, options.
type Item<'a> = (&'a str, ExpectedVersion, Vec<NewEvent>, AppendOptions<'a>);

#[test]
fn a_body_encoded_ahead_stores_the_same_bytes_as_one_encoded_in_the_transaction() {
    let dir = tempfile::tempdir().unwrap();
    let (plain_path, prepared_path) = (dir.path().join("plain"), dir.path().join("prepared"));
    let sealing = AppendOptions {
        seal: true,
        summary: Some(b"summary"),
        defer_flush: true,
    };
    let open = AppendOptions::default();
    // A stream that is already open, so that the later streams land at positions past 1 and
    // one sealed batch extends a stream (its body cannot be the one encoded ahead).
    let first = events("early", 1, 3, false);
    // The groups: new streams sealed at once (canonical ids, mixed ids, a large deflated one,
    // one of a single event), an open stream, and the open stream extended and sealed.
    let big: Vec<NewEvent> = (1..=400)
        .map(|seq| NewEvent::new(format!("big#{seq}"), payload(seq, 7).repeat(3)))
        .collect();
    let groups: Vec<Vec<Item<'_>>> = vec![
        vec![
            (
                "a",
                ExpectedVersion::NoStream,
                events("a", 1, 5, false),
                sealing,
            ),
            (
                "b",
                ExpectedVersion::NoStream,
                events("b", 1, 6, true),
                sealing,
            ),
            (
                "open",
                ExpectedVersion::NoStream,
                events("open", 1, 2, false),
                open,
            ),
        ],
        vec![
            ("big", ExpectedVersion::NoStream, big, sealing),
            (
                "one",
                ExpectedVersion::NoStream,
                events("one", 1, 1, true),
                sealing,
            ),
            (
                "early",
                ExpectedVersion::Exactly(3),
                events("early", 4, 2, false),
                sealing,
            ),
            (
                "open",
                ExpectedVersion::Exactly(2),
                events("open", 3, 3, true),
                sealing,
            ),
        ],
    ];
    {
        let plain = Store::open(&plain_path).unwrap();
        let prepared = Store::open(&prepared_path).unwrap();
        for store in [&plain, &prepared] {
            store
                .append("early", ExpectedVersion::NoStream, &first)
                .unwrap();
        }
        for group in &groups {
            let items: Vec<_> = group
                .iter()
                .map(|(s, e, ev, o)| (*s, *e, ev.as_slice(), *o))
                .collect();
            let done = plain.append_many(&items, false).unwrap();
            assert!(done.iter().all(Result::is_ok), "{done:?}");
            // Every batch prepared as if it sealed a new stream: the transaction must use the
            // body only where it does.
            let batches: Vec<_> = group
                .iter()
                .map(|(s, _, ev, _)| PreparedBatch::sealing_new_stream(s, ev.clone()))
                .collect();
            let items: Vec<_> = group
                .iter()
                .zip(&batches)
                .map(|((_, e, _, o), b)| (*e, b, *o))
                .collect();
            let done_ahead = prepared.append_many_prepared(&items, false).unwrap();
            let done_ahead: Vec<_> = done_ahead.into_iter().map(Result::unwrap).collect();
            let done: Vec<_> = done.into_iter().map(Result::unwrap).collect();
            assert_eq!(format!("{done:?}"), format!("{done_ahead:?}"));
        }
        // A batch refused by its checks made ahead is refused with the same verdict.
        let twice = vec![NewEvent::new("t#1", vec![1]), NewEvent::new("t#1", vec![2])];
        let refused = plain
            .append_with("t", ExpectedVersion::NoStream, &twice, sealing)
            .unwrap_err();
        let refused_ahead = prepared
            .append_many_prepared(
                &[(
                    ExpectedVersion::NoStream,
                    &PreparedBatch::sealing_new_stream("t", twice),
                    sealing,
                )],
                false,
            )
            .unwrap()
            .pop()
            .unwrap()
            .unwrap_err();
        assert_eq!(refused.to_string(), refused_ahead.to_string());
        // Last (it ends the store's promise that no canonical id has a dedup entry): an id
        // of canonical form stored away from its place is found, not skipped as new.
        let away = vec![NewEvent::new("c#1", vec![1])];
        let c = events("c", 1, 3, false);
        let refused = {
            plain.append("x", ExpectedVersion::NoStream, &away).unwrap();
            plain
                .append_with("c", ExpectedVersion::NoStream, &c, sealing)
                .unwrap_err()
        };
        prepared
            .append("x", ExpectedVersion::NoStream, &away)
            .unwrap();
        let refused_ahead = prepared
            .append_many_prepared(
                &[(
                    ExpectedVersion::NoStream,
                    &PreparedBatch::sealing_new_stream("c", c),
                    sealing,
                )],
                false,
            )
            .unwrap()
            .pop()
            .unwrap()
            .unwrap_err();
        assert!(refused.to_string().contains("another stream"), "{refused}");
        assert_eq!(refused.to_string(), refused_ahead.to_string());
        for store in [&plain, &prepared] {
            assert!(store.is_sealed("big").unwrap());
            let report = store.verify().unwrap();
            assert!(report.is_ok(), "{report}");
        }
        assert_eq!(
            prepared.read_stream("open", 1).unwrap(),
            plain.read_stream("open", 1).unwrap()
        );
    }
    let (plain, prepared) = (trees(&plain_path), trees(&prepared_path));
    assert!(
        plain.contains_key(carc_store::layout::SEALED_TREE.as_bytes()),
        "{:?}",
        plain.keys()
    );
    assert_eq!(plain, prepared);
}
