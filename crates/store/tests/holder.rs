//! While a store is open, a second open is told who holds it (the holder note), and the note
//! goes when the holder closes the store.

use carc_store::{Store, StoreError, HOLDER_FILE};

#[test]
fn a_refused_open_names_the_holder_and_the_note_goes_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = Store::open_as(&path, "carc record shell on game g1").unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::InUse { .. }), "{err:?}");
    let text = err.to_string();
    let expected = format!(
        "store {} is in use by carc record shell on game g1 (pid {}, since ",
        path.display(),
        std::process::id()
    );
    assert!(text.starts_with(&expected), "{text}");
    assert!(text.ends_with(" UTC); quit it or wait"), "{text}");
    drop(store);
    assert!(!path.join(HOLDER_FILE).exists());
    // Opened without a name, the holder is named by its program (the test binary here).
    let again = Store::open(&path).unwrap();
    let text = Store::open(&path).unwrap_err().to_string();
    assert!(text.contains("is in use by holder-"), "{text}");
    drop(again);
}
