//! The table of fitting rotations a tile type carries (`TileType::fits`): for each frontier
//! constraint, which of its distinct rotations match, so that listing a turn's placements is
//! one look-up per open square instead of a pattern comparison per rotation.

/// The table, in a type of its own so that a tile type's debug output (in test failures and
/// `{:?}` of a tile set) shows one short line for it instead of 256 numbers.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct FitTable(pub(crate) [u8; 256]);

impl std::fmt::Debug for FitTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FitTable(derived from the edges)")
    }
}

/// The distinct rotations (bit `r` per rotation) whose edge pattern matches `required`, the
/// two-bit edge codes a square's placed neighbours impose (0 on a side without neighbour;
/// every terrain's code is non-zero, so `required` alone says which sides are constrained),
/// and in the upper four bits how many they are (the random player counts a turn's
/// placements square by square).
pub(crate) fn fitting_rotations(patterns: [u8; 4], distinct: [bool; 4]) -> FitTable {
    let mut fits = [0u8; 256];
    for (required, fit) in fits.iter_mut().enumerate() {
        let required = required as u8;
        // Both bits of each side whose two-bit code is non-zero.
        let bound = (required | required >> 1) & 0b0101_0101;
        let mask = bound | bound << 1;
        for r in 0..4 {
            if distinct[r] && patterns[r] & mask == required {
                *fit |= 1 << r;
            }
        }
        *fit |= (fit.count_ones() as u8) << 4;
    }
    FitTable(fits)
}

#[cfg(test)]
mod tests {
    use crate::geometry::Rotation;
    use crate::tileset::TileSet;

    /// The table of fitting rotations says what comparing the edge patterns says, for every
    /// tile of the built-in sets and every constraint a square can carry (each side free or
    /// requiring field/river, road or city).
    #[test]
    fn a_tile_types_debug_output_names_the_table_without_its_entries() {
        let set = TileSet::base();
        let shown = format!("{:?}", set.tiles()[0]);
        assert!(
            shown.contains("FitTable(derived from the edges)"),
            "{shown}"
        );
        // The edges and segments are there; the 256 entries are not
        assert!(shown.contains("edges"), "{shown}");
        assert!(shown.len() < 1_400, "{} characters: {shown}", shown.len());
    }

    #[test]
    fn fitting_rotations_agree_with_the_edge_patterns() {
        let sets = [
            TileSet::base(),
            TileSet::anniversary(),
            TileSet::river(),
            TileSet::inns_cathedrals(),
        ];
        let mut checked = 0;
        for set in &sets {
            for t in set.tiles() {
                for digits in 0..256u32 {
                    let (mut required, mut mask) = (0u8, 0u8);
                    for side in 0..4 {
                        let code = ((digits >> (2 * side)) & 3) as u8;
                        if code != 0 {
                            required |= code << (2 * side);
                            mask |= 3 << (2 * side);
                        }
                    }
                    let expected = Rotation::ALL
                        .into_iter()
                        .filter(|&r| t.is_distinct_rotation(r) && t.pattern(r) & mask == required)
                        .fold(0u8, |bits, r| bits | 1 << r.quarter_turns());
                    assert_eq!(t.fits(required), expected, "{} {required:#010b}", t.id);
                    let count = expected.count_ones() as u8;
                    assert_eq!(t.fit_count(required), count, "{} {required:#010b}", t.id);
                    checked += 1;
                }
            }
        }
        assert!(checked > 50 * 256);
    }
}
