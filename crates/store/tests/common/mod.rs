//! Helpers shared by the integration tests.
#![allow(dead_code)]

use carc_store::{NewEvent, Store};
use tempfile::TempDir;

/// A fresh store in a temporary folder (the folder lives as long as the `TempDir`).
pub fn temp_store() -> (TempDir, Store) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("db")).expect("open store");
    (dir, store)
}

/// A deterministic payload of about 100 bytes for (batch, event).
pub fn payload(batch: u64, k: u64) -> Vec<u8> {
    let mut p = format!("batch {batch} event {k} ").into_bytes();
    let mut j = 0u64;
    while p.len() < 100 {
        p.push(((batch.wrapping_mul(31) + k * 7 + j) % 251) as u8);
        j += 1;
    }
    p
}

/// A batch of `n` events with ids `<prefix>-<k>` and payloads `payload(tag, k)`.
pub fn batch(prefix: &str, tag: u64, n: u64) -> Vec<NewEvent> {
    (0..n)
        .map(|k| NewEvent::new(format!("{prefix}-{k}"), payload(tag, k)))
        .collect()
}

/// Runs `open` until it succeeds or gives an error that is not about the file lock. sled lets
/// go of its lock only when its background flusher thread has dropped the database too, which
/// can happen a moment after the last handle is dropped on a loaded machine.
pub fn when_unlocked<T, E: std::fmt::Display>(mut open: impl FnMut() -> Result<T, E>) -> T {
    let mut tries = 0;
    loop {
        match open() {
            Ok(v) => return v,
            Err(e) if tries < 200 && is_lock_message(&e.to_string()) => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(25));
            }
            Err(e) => panic!("cannot open the store: {e}"),
        }
    }
}

pub fn is_lock_message(message: &str) -> bool {
    message.contains("acquire lock") || message.contains("in use by another process")
}
