//! Racing appends within one process: expected-version checks hold, batches never interleave.

mod common;

use std::borrow::Borrow;
use std::sync::{Arc, Barrier};
use std::thread;

use carc_store::{Appended, ExpectedVersion, Store, StoreError};
use common::{batch, temp_store};

const ROUNDS: u64 = 200;

/// One race: two appenders with the same `Exactly(v)`; returns the winner's index.
/// `S` is either a cloned `Store` handle or an `Arc<Store>` sharing one value.
fn race<S: Borrow<Store> + Send + 'static>(handles: [S; 2], round: u64, v: u64) -> usize {
    let barrier = Arc::new(Barrier::new(2));
    let joins: Vec<_> = handles
        .into_iter()
        .enumerate()
        .map(|(t, store)| {
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || -> Result<Appended, StoreError> {
                let events = batch(&format!("r{round}-t{t}"), round * 2 + t as u64, 3);
                barrier.wait();
                store
                    .borrow()
                    .append("race", ExpectedVersion::Exactly(v), &events)
            })
        })
        .collect();
    let results: Vec<_> = joins.into_iter().map(|j| j.join().unwrap()).collect();
    let winners: Vec<usize> = (0..2).filter(|&t| results[t].is_ok()).collect();
    assert_eq!(winners.len(), 1, "round {round}: {results:?}");
    let w = winners[0];
    let won = results[w].as_ref().unwrap();
    assert_eq!((won.first_seq, won.last_seq), (v + 1, v + 3));
    assert!(!won.deduplicated);
    match &results[1 - w] {
        Err(StoreError::Conflict {
            expected, actual, ..
        }) => {
            assert_eq!(*expected, ExpectedVersion::Exactly(v));
            assert_eq!(*actual, Some(v + 3));
        }
        other => panic!("round {round}: loser got {other:?}"),
    }
    w
}

fn check_rounds(store: &Store, winners: &[usize]) {
    let events = store.read_stream("race", 1).unwrap();
    assert_eq!(events.len() as u64, ROUNDS * 3);
    for (round, chunk) in events.chunks(3).enumerate() {
        let w = winners[round];
        for (k, e) in chunk.iter().enumerate() {
            assert_eq!(e.seq, round as u64 * 3 + k as u64 + 1);
            assert_eq!(e.id, format!("r{round}-t{w}-{k}"), "batches interleaved");
        }
    }
    let report = store.verify().unwrap();
    assert!(report.is_ok(), "{report}");
}

#[test]
fn racing_threads_sharing_one_store_via_arc() {
    let (_dir, store) = temp_store();
    let shared = Arc::new(store);
    let mut winners = Vec::new();
    for round in 0..ROUNDS {
        // Both threads use the very same `Store` value through the Arc.
        winners.push(race(
            [Arc::clone(&shared), Arc::clone(&shared)],
            round,
            round * 3,
        ));
    }
    check_rounds(&shared, &winners);
}

#[test]
fn racing_threads_with_separate_cloned_handles() {
    let (_dir, store) = temp_store();
    let mut winners = Vec::new();
    for round in 0..ROUNDS {
        winners.push(race([store.clone(), store.clone()], round, round * 3));
    }
    check_rounds(&store, &winners);
}

#[test]
fn many_threads_appending_with_any_never_interleave() {
    const THREADS: u64 = 4;
    const PER_THREAD: u64 = 25;
    let (_dir, store) = temp_store();
    let joins: Vec<_> = (0..THREADS)
        .map(|t| {
            let store = store.clone();
            thread::spawn(move || {
                for i in 0..PER_THREAD {
                    let a = store
                        .append(
                            "busy",
                            ExpectedVersion::Any,
                            &batch(&format!("t{t}-{i}"), i, 3),
                        )
                        .unwrap();
                    assert_eq!(a.last_seq - a.first_seq, 2);
                    assert_eq!(a.last_position - a.first_position, 2);
                }
            })
        })
        .collect();
    for j in joins {
        j.join().unwrap();
    }
    let events = store.read_stream("busy", 1).unwrap();
    assert_eq!(events.len() as u64, THREADS * PER_THREAD * 3);
    for (n, chunk) in events.chunks(3).enumerate() {
        let prefix = chunk[0]
            .id
            .strip_suffix("-0")
            .expect("batch starts with event 0");
        for (k, e) in chunk.iter().enumerate() {
            assert_eq!(e.seq, n as u64 * 3 + k as u64 + 1);
            assert_eq!(
                e.id,
                format!("{prefix}-{k}"),
                "batches interleaved at seq {}",
                e.seq
            );
        }
    }
    let positions: Vec<u64> = events.iter().map(|e| e.position).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]));
    assert!(store.verify().unwrap().is_ok());
}
