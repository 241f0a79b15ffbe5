//! Traders & Builders on the board picture: goods are drawn in their cities (and on no base
//! tile), and builders and pigs are drawn as figures of their own shapes.

mod common;

use std::path::Path;

use carc_draw::color::{CLOTH, GRAIN, WINE};
use carc_draw::{board, Overlay, Shape};
use carc_events::read_log;
use carc_replay::fold;
use carc_rules::{Good, Special, TileSet};
use common::filled;

#[test]
fn goods_are_drawn_in_their_cities_only() {
    let set = TileSet::traders_builders();
    for t in set.tiles() {
        let count = |g: Good| t.segments.iter().filter(|s| s.goods == Some(g)).count();
        assert_eq!(filled(&set, &t.id, WINE), count(Good::Wine), "{}", t.id);
        assert_eq!(filled(&set, &t.id, GRAIN), count(Good::Grain), "{}", t.id);
        assert_eq!(filled(&set, &t.id, CLOTH), count(Good::Cloth), "{}", t.id);
    }
    let base = TileSet::base();
    for t in base.tiles() {
        for color in [WINE, GRAIN, CLOTH] {
            assert_eq!(filled(&base, &t.id, color), 0, "{}", t.id);
        }
    }
}

/// Rectangles of the board of `game` `w` wide and `h` high (world units).
fn rects(list: &carc_draw::DrawList, w: f32, h: f32) -> usize {
    list.shapes
        .iter()
        .filter(|s| match s {
            Shape::Rect { min, max, .. } => {
                ((max.x - min.x) - w).abs() < 1e-4 && ((max.y - min.y) - h).abs() < 1e-4
            }
            _ => false,
        })
        .count()
}

#[test]
fn builders_and_pigs_are_drawn_as_figures_of_their_own() {
    // Given the two-player sample after event 79: Ada's builder (event 28) and Brandt's pig
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs/sim-2p-traders-builders-mixed.jsonl");
    let timeline = fold(read_log(&std::fs::read(path).unwrap()).unwrap(), &[]);
    let game = timeline.state_at(79).unwrap();
    let builders = game.specials().filter(|s| s.1 == Special::Builder).count();
    let pigs = game.specials().filter(|s| s.1 == Special::Pig).count();
    assert!(builders > 0 && pigs == 1, "{builders} {pigs}");
    // When the board is drawn
    let list = board(&game, &Overlay::default());
    // Then each builder is a tall block (0.11 × 0.2) and each pig a wide body (0.18 × 0.11),
    // unlike the meeple's disc and the farmer's bar (0.28 × 0.13)
    assert_eq!(rects(&list, 0.11, 0.2), builders);
    assert_eq!(rects(&list, 0.18, 0.11), pigs);
    // And before any was placed, none is drawn
    let start = timeline.state_at(2).unwrap();
    let list = board(&start, &Overlay::default());
    assert_eq!(rects(&list, 0.11, 0.2) + rects(&list, 0.18, 0.11), 0);
}
