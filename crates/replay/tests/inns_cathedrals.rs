//! Inns & Cathedrals through the log: the samples fold to the end, the large meeple's
//! `"figure":"large"` reads and writes back byte for byte, and a large meeple in a game
//! without the expansion stops the fold at that event.

use std::path::PathBuf;

use carc_events::{read_log, write_log, Event, Figure};
use carc_replay::fold;

fn sample(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

const SAMPLES: [&str; 3] = [
    "sim-2p-inns-cathedrals-mixed.jsonl",
    "sim-4p-river-abbot-inns-cathedrals.jsonl",
    "sim-6p-inns-cathedrals-mixed.jsonl",
];

#[test]
fn the_inns_cathedrals_samples_fold_to_the_end_with_large_meeples() {
    for name in SAMPLES {
        // Given a sample game with the expansion
        let text = sample(name);
        let log = read_log(text.as_bytes()).unwrap();
        // Then it holds large meeples, read as such
        let large = log
            .events
            .iter()
            .filter(|(_, e)| {
                matches!(
                    e.event,
                    Event::MeeplePlaced {
                        figure: Figure::Large,
                        ..
                    }
                )
            })
            .count();
        assert!(large > 0, "{name}");
        // And it writes back byte for byte
        assert_eq!(write_log(&log), text, "{name}");
        // And it folds to its end
        let t = fold(log, &[]);
        assert!(t.error.is_none(), "{name}: {:?}", t.error);
        assert!(t.finished, "{name}");
    }
}

#[test]
fn a_large_meeple_without_the_expansion_is_refused() {
    // Given a base game whose first meeple is marked large
    let text = sample("sim-2p-greedy-vs-random.jsonl");
    let line = text
        .lines()
        .find(|l| l.contains(r#""type":"meeple_placed""#))
        .unwrap();
    let tampered = text.replacen(line, &line.replace("\"}", "\",\"figure\":\"large\"}"), 1);
    // When it is folded
    let t = fold(read_log(tampered.as_bytes()).unwrap(), &[]);
    // Then the fold stops there, naming the rule
    let err = format!("{:?}", t.error.expect("refused"));
    assert!(err.contains("LargeMeepleNotInGame"), "{err}");
}
