//! BGA's tile types, orientations and meeple spots in our terms. Every entry was established
//! from the corpus (`docs/bga.md` says how): the letters and orientation offsets by fitting
//! all edges of all placements of four games, the spots by the features BGA scored with the
//! meeples on them; the scores of every game are the check.

/// One BGA tile type.
pub struct BgaTile {
    /// BGA's `type`.
    pub bga_type: u8,
    /// Our letter in the base set (`crates/rules/data/base.json`).
    pub letter: &'static str,
    /// Clockwise quarter turns from BGA's picture at `ori` 1 to our catalogue orientation:
    /// our rotation is `ori - 1 + offset` quarter turns clockwise.
    pub offset: u8,
    /// BGA's meeple spot `pos` → our meeple target with the tile at rotation 0.
    pub spots: &'static [(u8, &'static str)],
}

const fn t(
    bga_type: u8,
    letter: &'static str,
    offset: u8,
    spots: &'static [(u8, &'static str)],
) -> BgaTile {
    BgaTile {
        bga_type,
        letter,
        offset,
        spots,
    }
}

/// The 24 tile types of the base game, by BGA type.
pub const TILES: [BgaTile; 24] = [
    t(
        1,
        "T",
        0,
        &[
            (1, "road S"),
            (2, "city N"),
            (3, "field Sw"),
            (4, "field Se"),
        ],
    ),
    t(
        2,
        "S",
        0,
        &[
            (1, "road S"),
            (2, "city N"),
            (3, "field Sw"),
            (4, "field Se"),
        ],
    ),
    t(3, "N", 3, &[(1, "city N"), (2, "field Se")]),
    t(4, "M", 3, &[(1, "city N"), (2, "field Se")]),
    t(
        5,
        "P",
        0,
        &[
            (1, "road E"),
            (2, "city N"),
            (3, "field En"),
            (4, "field Es"),
        ],
    ),
    t(
        6,
        "O",
        0,
        &[
            (1, "road E"),
            (2, "city N"),
            (3, "field En"),
            (4, "field Es"),
        ],
    ),
    t(
        7,
        "G",
        0,
        &[(1, "city E"), (2, "field Nw"), (3, "field Se")],
    ),
    t(
        8,
        "F",
        0,
        &[(1, "city E"), (2, "field Nw"), (3, "field Se")],
    ),
    t(9, "I", 0, &[(1, "city N"), (2, "city W"), (3, "field En")]),
    t(10, "H", 0, &[(1, "city N"), (2, "city S"), (3, "field En")]),
    t(11, "E", 0, &[(1, "city N"), (2, "field En")]),
    t(
        12,
        "K",
        0,
        &[
            (1, "road S"),
            (2, "city N"),
            (3, "field En"),
            (4, "field Sw"),
        ],
    ),
    t(
        13,
        "J",
        0,
        &[
            (1, "road E"),
            (2, "city N"),
            (3, "field En"),
            (4, "field Es"),
        ],
    ),
    t(
        14,
        "L",
        0,
        &[
            (1, "road W"),
            (2, "road E"),
            (3, "road S"),
            (4, "city N"),
            (5, "field En"),
            (6, "field Sw"),
            (7, "field Es"),
        ],
    ),
    t(
        15,
        "D",
        0,
        &[
            (1, "road E"),
            (2, "city N"),
            (3, "field En"),
            (4, "field Es"),
        ],
    ),
    t(
        16,
        "U",
        0,
        &[(1, "road N"), (3, "field Nw"), (4, "field Ne")],
    ),
    t(
        17,
        "V",
        0,
        &[(1, "road S"), (2, "field Nw"), (3, "field Sw")],
    ),
    t(
        18,
        "W",
        0,
        &[
            (1, "road W"),
            (2, "road E"),
            (3, "road S"),
            (4, "field Nw"),
            (5, "field Sw"),
            (6, "field Es"),
        ],
    ),
    t(
        19,
        "X",
        0,
        &[
            (1, "road W"),
            (2, "road E"),
            (3, "road S"),
            (4, "road N"),
            (5, "field Nw"),
            (6, "field Ne"),
            (7, "field Es"),
            (8, "field Sw"),
        ],
    ),
    t(20, "B", 0, &[(1, "monastery"), (2, "field Nw")]),
    t(
        21,
        "A",
        0,
        &[(1, "monastery"), (2, "road S"), (3, "field Nw")],
    ),
    t(22, "C", 0, &[(1, "city N")]),
    t(23, "R", 0, &[(1, "city N"), (2, "field Se")]),
    t(24, "Q", 0, &[(1, "city N"), (2, "field Se")]),
];

/// The BGA tile type the start tile is (BGA places it at (0,0) without a notification).
pub const START_TYPE: u8 = 15;

/// A BGA tile type, if it is one of the base game's.
pub fn by_type(bga_type: i64) -> Option<&'static BgaTile> {
    TILES.iter().find(|t| i64::from(t.bga_type) == bga_type)
}

/// Our meeple target at rotation 0 for a spot of a tile type.
pub fn spot(tile: &BgaTile, pos: i64) -> Option<&'static str> {
    tile.spots
        .iter()
        .find(|(p, _)| i64::from(*p) == pos)
        .map(|(_, label)| *label)
}

/// Our rotation in quarter turns for BGA's `ori` (1–4) of a tile type.
pub fn quarter_turns(tile: &BgaTile, ori: i64) -> Option<u8> {
    let ori = u8::try_from(ori).ok().filter(|o| (1..=4).contains(o))?;
    Some((ori - 1 + tile.offset) % 4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_rules::TileSet;

    #[test]
    fn every_base_tile_once_with_the_base_counts_and_every_spot_a_segment() {
        let base = TileSet::base();
        let mut letters: Vec<&str> = TILES.iter().map(|t| t.letter).collect();
        letters.sort_unstable();
        letters.dedup();
        assert_eq!(letters.len(), 24);
        for (i, tile) in TILES.iter().enumerate() {
            assert_eq!(usize::from(tile.bga_type), i + 1);
            let ours = base.get(base.find(tile.letter).expect("a base letter"));
            assert!(tile.offset < 4);
            for (pos, label) in tile.spots {
                let target: carc_events::MeepleTarget = label.parse().expect("a target");
                let segment = ours.find_segment(
                    carc_rules::Rotation::default(),
                    &carc_events::label_of(&target),
                );
                assert!(
                    segment.is_some(),
                    "type {} pos {pos}: {label}",
                    tile.bga_type
                );
            }
        }
        assert_eq!(by_type(i64::from(START_TYPE)).map(|t| t.letter), Some("D"));
    }

    #[test]
    fn orientations() {
        let d = by_type(15).unwrap();
        assert_eq!(quarter_turns(d, 1), Some(0));
        assert_eq!(quarter_turns(d, 4), Some(3));
        assert_eq!(quarter_turns(d, 0), None);
        assert_eq!(quarter_turns(d, 5), None);
        let n = by_type(3).unwrap();
        assert_eq!(quarter_turns(n, 1), Some(3));
        assert_eq!(quarter_turns(n, 2), Some(0));
    }
}
