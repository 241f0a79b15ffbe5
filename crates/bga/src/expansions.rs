//! The expansions a BGA replay may use and the importer does not map yet: Inns & Cathedrals,
//! Traders & Builders and The River. carc's rules implement the first and the last, but
//! BGA's numbers for them (tile `type`s, the tile's orientation at `ori` 1, meeple spots
//! `pos`, the river's start) were never read off a real replay, so a replay using them is
//! refused with a message that says which expansion it is and what is missing, never
//! guessed at. `docs/bga.md` ("Unsupported") has the sources of every number here.
//!
//! What is grounded: BGA numbers its physical tiles (`id` in `playTile`, `tile_id` in a
//! draw). The base game's are 1-72, the same in all four corpus games; a public BGA tile
//! counter (`johanpoirier/chrome-custom-extensions`, MIT, `carcassonne-counter/tiles.js`,
//! commit d65bbc3) lists the ids of every picture, and its base ids agree with the corpus
//! (every tile of the four games has the type its id gives). It puts Inns & Cathedrals at
//! 73-90 and Traders & Builders at 91-114. The River's ids are in no source we found.

/// The base game's physical tile ids (the start tile is 36).
pub const BASE_IDS: std::ops::RangeInclusive<i64> = 1..=72;
/// Inns & Cathedrals' physical tile ids (18 tiles; 81 and 82 are the cathedral).
pub const INNS_CATHEDRALS_IDS: std::ops::RangeInclusive<i64> = 73..=90;
/// Traders & Builders' physical tile ids (24 tiles).
pub const TRADERS_BUILDERS_IDS: std::ops::RangeInclusive<i64> = 91..=114;

/// Why the expansion is refused, said once per message.
const INNS_WHY: &str = "carc's rules have the expansion, but BGA's tile types, orientations \
    and meeple spots for it are not mapped: no replay with it was checked";
const TRADERS_WHY: &str = "not mapped";

/// The unsupported item for a tile whose BGA `type` is not a base-game one; `id` is the
/// physical tile, when the notification names it. The expansion is told by the id; a tile
/// of none we know (The River's, whose ids no source gives, or another expansion's) is
/// named by its type.
pub fn unknown_tile(bga_type: i64, id: Option<i64>) -> String {
    match id {
        Some(id) if INNS_CATHEDRALS_IDS.contains(&id) => format!(
            "Inns & Cathedrals tiles (BGA tile ids {}-{}; {INNS_WHY})",
            INNS_CATHEDRALS_IDS.start(),
            INNS_CATHEDRALS_IDS.end()
        ),
        Some(id) if TRADERS_BUILDERS_IDS.contains(&id) => format!(
            "Traders & Builders tiles (BGA tile ids {}-{}; {TRADERS_WHY})",
            TRADERS_BUILDERS_IDS.start(),
            TRADERS_BUILDERS_IDS.end()
        ),
        Some(id) if BASE_IDS.contains(&id) => format!(
            "tile type {bga_type} (not a base-game tile, though BGA tile id {id} is a \
             base-game tile's)"
        ),
        Some(id) => format!(
            "tile type {bga_type} (BGA tile id {id}: not a base-game tile, nor an Inns & \
             Cathedrals or Traders & Builders one; The River's or another expansion's tiles \
             are not mapped)"
        ),
        None => format!("tile type {bga_type} (not a base-game tile)"),
    }
}

/// The unsupported item for a figure other than the ordinary meeple: BGA's piece names, the
/// keys of `playPartisan`'s `ptype` and of a scoring's `part_to_recover` (every corpus game
/// lists `normal`, `big`, `builder` and `pig` there, with counts).
pub fn figure(ptype: &str) -> String {
    match ptype {
        "big" => format!("Inns & Cathedrals' large meeple (figure \"big\"; {INNS_WHY})"),
        "builder" | "pig" => {
            format!("Traders & Builders' {ptype} (figure {ptype:?}; {TRADERS_WHY})")
        }
        other => format!("figure {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_ranges_follow_each_other_without_overlap() {
        assert_eq!(BASE_IDS.end() + 1, *INNS_CATHEDRALS_IDS.start());
        assert_eq!(INNS_CATHEDRALS_IDS.end() + 1, *TRADERS_BUILDERS_IDS.start());
        // 18 tiles of Inns & Cathedrals, 24 of Traders & Builders.
        assert_eq!(INNS_CATHEDRALS_IDS.clone().count(), 18);
        assert_eq!(TRADERS_BUILDERS_IDS.clone().count(), 24);
    }

    #[test]
    fn a_tile_is_named_by_the_expansion_its_id_belongs_to() {
        assert!(unknown_tile(27, Some(73)).starts_with("Inns & Cathedrals tiles"));
        assert!(unknown_tile(27, Some(90)).starts_with("Inns & Cathedrals tiles"));
        assert!(unknown_tile(40, Some(91)).starts_with("Traders & Builders tiles"));
        assert!(unknown_tile(40, Some(114)).starts_with("Traders & Builders tiles"));
        let other = unknown_tile(60, Some(115));
        assert!(
            other.starts_with("tile type 60 (BGA tile id 115"),
            "{other}"
        );
        assert!(other.contains("The River"), "{other}");
        assert!(unknown_tile(37, Some(20)).contains("BGA tile id 20 is a base-game tile's"));
        assert_eq!(
            unknown_tile(37, None),
            "tile type 37 (not a base-game tile)"
        );
        // One item per expansion, whatever the tile: the error lists each expansion once.
        assert_eq!(unknown_tile(25, Some(73)), unknown_tile(41, Some(82)));
    }

    #[test]
    fn figures_are_named_by_their_expansion() {
        assert!(figure("big").starts_with("Inns & Cathedrals' large meeple (figure \"big\""));
        assert!(figure("builder").starts_with("Traders & Builders' builder"));
        assert!(figure("pig").starts_with("Traders & Builders' pig"));
        assert_eq!(figure("abbot"), "figure \"abbot\"");
    }
}
