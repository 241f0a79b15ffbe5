//! Inns & Cathedrals is not mapped to JCloisterZone yet: writing a log of it is refused before
//! anything is written, naming the expansion and its tile set (`docs/jcz.md`).

use std::path::Path;

use carc_events::read_log;

#[test]
fn writing_an_inns_cathedrals_game_is_refused_naming_what_is_not_mapped() {
    // Given the two-player Inns & Cathedrals sample
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/sim-2p-inns-cathedrals-mixed.jsonl");
    let log = read_log(&std::fs::read(path).unwrap()).unwrap();
    // When it is written as a JCloisterZone saved game
    let err = carc_jcz::write(&log).unwrap_err().to_string();
    // Then it is refused, naming the expansion and the tile set
    assert!(err.contains("expansion \"inns_cathedrals\""), "{err}");
    assert!(err.contains("\"inns_cathedrals\"]"), "{err}");
}
