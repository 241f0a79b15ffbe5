//! The River through the log: the sample logs fold to the end with the river dealt first, and
//! the fold checks the draw order (`river.draw.order`): a log that draws a land tile while
//! river tiles are left stops at that event.

use std::path::PathBuf;

use carc_events::read_log;
use carc_replay::fold;

fn sample(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_river_samples_fold_to_the_end_spring_first_lake_twelfth() {
    for name in [
        "sim-2p-river-mixed.jsonl",
        "sim-3p-river-abbot-anniversary-gifts.jsonl",
    ] {
        // Given a sample game with the river
        let text = sample(name);
        let t = fold(read_log(text.as_bytes()).unwrap(), &[]);
        // Then it folds to its end
        assert!(t.error.is_none(), "{name}: {:?}", t.error);
        assert!(t.finished, "{name}");
        // And the spring is the start tile, the lake the last of the twelve river tiles
        let placed: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("\"type\":\"tile_placed\"") || l.contains("start_placed"))
            .map(|l| {
                l.split("\"tile\":\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
            })
            .collect();
        assert_eq!(placed[0], "RS", "{name}");
        assert_eq!(placed[11], "RL", "{name}");
        assert!(placed[1..11].iter().all(|t| t.starts_with('R')), "{name}");
    }
}

#[test]
fn a_log_drawing_a_land_tile_before_the_river_is_refused() {
    // Given the river sample with its first draw (and placement) changed to a land tile
    let text = sample("sim-2p-river-mixed.jsonl");
    let first_draw = text
        .lines()
        .find(|l| l.contains("\"type\":\"tile_drawn\""))
        .unwrap();
    let tampered = text.replacen(
        first_draw,
        &first_draw.replace("\"tile\":\"R1\"", "\"tile\":\"D\""),
        1,
    );
    assert_ne!(tampered, text, "the first draw of the sample is R1");
    // When it is folded
    let t = fold(read_log(tampered.as_bytes()).unwrap(), &[]);
    // Then it stops at that draw, naming the rule
    let err = t.error.expect("refused");
    assert_eq!(err.rule(), "river.draw.order");
    assert_eq!(err.seq(), Some(2));
    assert!(
        err.to_string().contains("river tiles are drawn before"),
        "{err}"
    );
}
