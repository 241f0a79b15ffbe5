//! Which rotations of a tile look alike: the one rule the legal-move list (each distinct
//! placement once) and the analysis (a move played in a rotation listed under another) share.
//! It reads everything a tile carries (goods, inns, cathedrals, coats of arms, arrow, river),
//! so no expansion's feature can make two different placements one.

use super::{FeatureKind, Good, TileType};
use crate::geometry::Rotation;

/// One segment as placed: kind, sides, ports, coats of arms, touched cities, (inn,
/// cathedral), goods.
type SegmentLook = (FeatureKind, u8, u8, u8, u16, (bool, bool), Option<Good>);

/// What a tile shows at one rotation (see [`TileType::look`]).
#[derive(PartialEq, Eq)]
struct Look {
    segments: Vec<SegmentLook>,
    arrow_side: Option<usize>,
    river_sides: u8,
}

impl TileType {
    /// The rotation the rules list for a placement at `rotation`: the smallest rotation that
    /// shows the same tile (the same segments with everything they carry, the same arrow,
    /// the same river), so that a move made in a rotation listed under another can be matched
    /// to the listed one. `rotation` itself when it is distinct.
    pub fn listed_rotation(&self, rotation: Rotation) -> Rotation {
        if self.is_distinct_rotation(rotation) {
            return rotation;
        }
        let own = self.look(rotation);
        Rotation::ALL
            .into_iter()
            .find(|&r| self.look(r) == own)
            .unwrap_or(rotation)
    }

    /// Which rotations show a tile no smaller rotation shows: the one rule of which
    /// rotations look alike ([`TileType::listed_rotation`] follows it too).
    pub(crate) fn distinct_rotations(&self) -> [bool; 4] {
        let looks = Rotation::ALL.map(|r| self.look(r));
        let mut distinct = [true; 4];
        for r in 1..4 {
            distinct[r] = (0..r).all(|q| looks[q] != looks[r]);
        }
        distinct
    }

    /// Everything the tile shows at `rotation` that the rules read, whatever the rotation is
    /// called: each segment with its kind, sides, ports, coats of arms, the cities a field
    /// touches, its inn, cathedral and goods (as a sorted list: the segments' order is no
    /// part of the look), the side its arrow points out of, its river sides. A garden's
    /// picture is not in it: where in its field it is drawn changes no rule.
    fn look(&self, rotation: Rotation) -> Look {
        let mut segments: Vec<SegmentLook> = self
            .segments
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    s.kind,
                    self.segment_sides(rotation, i as u8),
                    self.segment_ports(rotation, i as u8),
                    s.coats_of_arms,
                    s.touches,
                    (s.inn, s.cathedral),
                    s.goods,
                )
            })
            .collect();
        segments.sort_unstable();
        Look {
            segments,
            arrow_side: self.arrow(rotation).map(|a| a.side.index()),
            river_sides: self.river_sides(rotation),
        }
    }
}
