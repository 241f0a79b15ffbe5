//! Sides, half-edge ports, rotations and board positions.
//!
//! Conventions (see `docs/rules.md`): sides `N E S W`; a rotation is a number of clockwise
//! quarter turns, so rotating once maps N→E→S→W→N. Field ports are the eight half-edges,
//! clockwise from the north-west corner: `Nw Ne En Es Se Sw Ws Wn`. Positions: x grows to the
//! east, y grows to the north.

use std::fmt;

/// One side of a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// North: toward greater y.
    N = 0,
    /// East: toward greater x.
    E = 1,
    /// South: toward smaller y.
    S = 2,
    /// West: toward smaller x.
    W = 3,
}

impl Side {
    /// The four sides in clockwise order from north, so `ALL[i].index() == i`.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side with index `i` modulo 4 (0 = N, 1 = E, 2 = S, 3 = W); never panics.
    pub fn from_index(i: usize) -> Side {
        Side::ALL[i % 4]
    }

    /// 0 for N, 1 for E, 2 for S, 3 for W (clockwise from north).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side across the square: N ↔ S, E ↔ W.
    pub fn opposite(self) -> Side {
        Side::from_index(self.index() + 2)
    }

    /// The side this one becomes after `rotation` clockwise quarter turns.
    pub fn rotated(self, rotation: Rotation) -> Side {
        Side::from_index(self.index() + rotation.quarter_turns() as usize)
    }

    /// The two ports on this side, in clockwise order.
    pub fn ports(self) -> [Port; 2] {
        let i = self.index() * 2;
        [Port::from_index(i), Port::from_index(i + 1)]
    }

    /// The one-letter name used in tile files and logs: `N`, `E`, `S` or `W`.
    pub fn name(self) -> &'static str {
        ["N", "E", "S", "W"][self.index()]
    }

    /// The side named by [`Side::name`] (`N`, `E`, `S`, `W`; case-sensitive), or `None`.
    pub fn parse(s: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|side| side.name() == s)
    }

    /// Words for messages: "north", "east", …
    pub fn word(self) -> &'static str {
        ["north", "east", "south", "west"][self.index()]
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A half-edge, where a field meets the border of a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Port {
    /// The west half of the north side.
    Nw = 0,
    /// The east half of the north side.
    Ne = 1,
    /// The north half of the east side.
    En = 2,
    /// The south half of the east side.
    Es = 3,
    /// The east half of the south side.
    Se = 4,
    /// The west half of the south side.
    Sw = 5,
    /// The south half of the west side.
    Ws = 6,
    /// The north half of the west side.
    Wn = 7,
}

impl Port {
    /// The eight ports clockwise from the north-west corner, so `ALL[i].index() == i`.
    pub const ALL: [Port; 8] = [
        Port::Nw,
        Port::Ne,
        Port::En,
        Port::Es,
        Port::Se,
        Port::Sw,
        Port::Ws,
        Port::Wn,
    ];

    /// The port with index `i` modulo 8 (0 = `Nw`, clockwise to 7 = `Wn`); never panics.
    pub fn from_index(i: usize) -> Port {
        Port::ALL[i % 8]
    }

    /// 0 for `Nw` to 7 for `Wn`, clockwise from the north-west corner.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side this port is half of (`Nw` and `Ne` are on N).
    pub fn side(self) -> Side {
        Side::from_index(self.index() / 2)
    }

    /// The port this one becomes after `rotation` clockwise quarter turns.
    pub fn rotated(self, rotation: Rotation) -> Port {
        Port::from_index(self.index() + 2 * rotation.quarter_turns() as usize)
    }

    /// The port of the neighbouring square that touches this one across the shared side.
    /// `Nw` (west half of the north side) meets the neighbour's `Sw` (west half of its south side).
    pub fn facing(self) -> Port {
        const FACING: [Port; 8] = [
            Port::Sw,
            Port::Se,
            Port::Wn,
            Port::Ws,
            Port::Ne,
            Port::Nw,
            Port::Es,
            Port::En,
        ];
        FACING[self.index()]
    }

    /// The two-letter name used in tile files and logs: `Nw`, `Ne`, `En`, … (side first).
    pub fn name(self) -> &'static str {
        ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"][self.index()]
    }

    /// The corner of the square this port lies at, in words for people: `Ne` (the east half of
    /// the north side) and `En` (the north half of the east side) are both `north-east`.
    pub fn corner_words(self) -> &'static str {
        [
            "north-west",
            "north-east",
            "north-east",
            "south-east",
            "south-east",
            "south-west",
            "south-west",
            "north-west",
        ][self.index()]
    }

    /// The port named by [`Port::name`] (`Nw`, `Ne`, …; case-sensitive), or `None`.
    pub fn parse(s: &str) -> Option<Port> {
        Port::ALL.into_iter().find(|port| port.name() == s)
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Clockwise quarter turns, 0..=3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Rotation(u8);

impl Rotation {
    /// The four rotations: 0, 1, 2 and 3 clockwise quarter turns.
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// `None` unless `turns` is 0..=3.
    pub fn new(turns: u8) -> Option<Rotation> {
        (turns < 4).then_some(Rotation(turns))
    }

    /// `None` unless `degrees` is 0, 90, 180 or 270.
    pub fn from_degrees(degrees: u32) -> Option<Rotation> {
        match degrees {
            0 => Some(Rotation(0)),
            90 => Some(Rotation(1)),
            180 => Some(Rotation(2)),
            270 => Some(Rotation(3)),
            _ => None,
        }
    }

    /// The number of clockwise quarter turns, 0..=3.
    pub fn quarter_turns(self) -> u8 {
        self.0
    }

    /// The clockwise angle in degrees: 0, 90, 180 or 270.
    pub fn degrees(self) -> u32 {
        u32::from(self.0) * 90
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}°", self.degrees())
    }
}

/// A square of the board. x grows to the east, y to the north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// The column; grows to the east.
    pub x: i32,
    /// The row; grows to the north.
    pub y: i32,
}

impl Pos {
    /// The square at column `x` (east positive) and row `y` (north positive).
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring square across `side`, or `None` at the edge of the `i32` plane.
    pub fn step(self, side: Side) -> Option<Pos> {
        let (dx, dy) = match side {
            Side::N => (0, 1),
            Side::E => (1, 0),
            Side::S => (0, -1),
            Side::W => (-1, 0),
        };
        Some(Pos::new(self.x.checked_add(dx)?, self.y.checked_add(dy)?))
    }

    /// The eight squares around this one (diagonals included) that exist in the `i32` plane.
    pub fn ring(self) -> impl Iterator<Item = Pos> {
        const OFFSETS: [(i32, i32); 8] = [
            (-1, 1),
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
            (-1, 0),
        ];
        OFFSETS.into_iter().filter_map(move |(dx, dy)| {
            Some(Pos::new(self.x.checked_add(dx)?, self.y.checked_add(dy)?))
        })
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// What lies along one side of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// A field (farmland) side.
    Field,
    /// A side where a road leaves the tile.
    Road,
    /// A city side.
    City,
    /// A river side (The River): not a feature; it splits the fields beside it and meets only
    /// another river side.
    River,
}

impl Terrain {
    /// The letter of edge strings in tile files: `F`, `R`, `C`, and `W` (water) for river.
    pub fn letter(self) -> char {
        match self {
            Terrain::Field => 'F',
            Terrain::Road => 'R',
            Terrain::City => 'C',
            Terrain::River => 'W',
        }
    }

    /// The terrain in words for messages: `field`, `road`, `city` or `river`.
    pub fn word(self) -> &'static str {
        match self {
            Terrain::Field => "field",
            Terrain::Road => "road",
            Terrain::City => "city",
            Terrain::River => "river",
        }
    }

    /// Two-bit code used in edge patterns; 0 means "no neighbour". A river side shares the
    /// field's code (two bits hold no fifth value): the pattern look-up lets river meet field,
    /// and The River's own check (`game/river.rs`) refuses that, so the base game's hot path
    /// stays one mask comparison.
    pub(crate) fn code(self) -> u8 {
        match self {
            Terrain::Field | Terrain::River => 1,
            Terrain::Road => 2,
            Terrain::City => 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotating_once_maps_north_to_east() {
        assert_eq!(Side::N.rotated(Rotation(1)), Side::E);
        assert_eq!(Side::W.rotated(Rotation(1)), Side::N);
        assert_eq!(Port::Nw.rotated(Rotation(1)), Port::En);
        assert_eq!(Port::Wn.rotated(Rotation(1)), Port::Ne);
    }

    #[test]
    fn facing_ports_are_mutual_and_on_opposite_sides() {
        for p in Port::ALL {
            assert_eq!(p.facing().facing(), p);
            assert_eq!(p.facing().side(), p.side().opposite());
        }
        assert_eq!(Port::Nw.facing(), Port::Sw);
        assert_eq!(Port::En.facing(), Port::Wn);
    }

    #[test]
    fn stepping_and_rings() {
        let o = Pos::new(0, 0);
        assert_eq!(o.step(Side::N), Some(Pos::new(0, 1)));
        assert_eq!(o.step(Side::W), Some(Pos::new(-1, 0)));
        assert_eq!(o.ring().count(), 8);
        assert_eq!(Pos::new(i32::MAX, 0).step(Side::E), None);
        assert_eq!(Pos::new(i32::MAX, i32::MAX).ring().count(), 3);
    }

    #[test]
    fn degrees_round_trip() {
        for r in Rotation::ALL {
            assert_eq!(Rotation::from_degrees(r.degrees()), Some(r));
        }
        assert_eq!(Rotation::from_degrees(45), None);
    }
}
