//! Where on the board and on a tile, in JCloisterZone's terms: squares (y grows south),
//! feature names, and `location` strings that name a feature by the sides or field ports it
//! reaches, in board orientation.
//!
//! JCloisterZone keeps a location as a bit mask with the same layout as ours: field ports
//! `NL NR EL ER SL SR WL WR` are our ports `Nw Ne En Es Se Sw Ws Wn` (bits 0–7, clockwise from
//! the north-west corner), and a city or road side covers both ports of that side. A set of
//! sides has a fixed name (`N`, `NE`, `WE`, `_N` = every side but north, `NWSE`); a set of
//! ports is written port by port in that order, joined by dots (`NL.NR.EL.ER.WL.WR`). The
//! monastery is `I` (JCloisterZone 6; older versions wrote `CLOISTER`, which we also read).

use std::fmt;

use carc_rules::{FeatureKind, Game, Pos};

/// The names JCloisterZone gives to each set of sides, indexed by our side mask
/// (bit 0 = N, 1 = E, 2 = S, 3 = W).
const SIDE_NAMES: [&str; 16] = [
    "", "N", "E", "NE", "S", "NS", "SE", "_W", "W", "NW", "WE", "_S", "SW", "_E", "_N", "NWSE",
];

/// JCloisterZone's field ports in bit order (= our `Nw Ne En Es Se Sw Ws Wn`).
const PORT_NAMES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];

/// The location we write for the monastery.
const MONASTERY: &str = "I";

/// A parsed `location`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// Sides of a city or road, our side mask.
    Sides(u8),
    /// Ports of a field, our port mask.
    Ports(u8),
    /// The monastery in the middle of the tile.
    Monastery,
}

impl Location {
    /// Reads a JCloisterZone location string; `None` if it is not one.
    pub fn parse(text: &str) -> Option<Location> {
        if text == MONASTERY || text == "CLOISTER" {
            return Some(Location::Monastery);
        }
        let mut sides = 0u8;
        let mut ports = 0u8;
        for part in text.split('.') {
            if let Some(bit) = PORT_NAMES.iter().position(|p| *p == part) {
                ports |= 1 << bit;
            } else {
                sides |= side_mask(part)?;
            }
        }
        match (sides, ports) {
            (0, 0) => None,
            (s, 0) => Some(Location::Sides(s)),
            (0, p) => Some(Location::Ports(p)),
            // A feature is either on sides or on ports, never both.
            _ => None,
        }
    }
}

/// The side mask of one dot-free part: a fixed name, `_X` (all sides but X), or side letters.
fn side_mask(part: &str) -> Option<u8> {
    if let Some(mask) = SIDE_NAMES.iter().position(|n| !n.is_empty() && *n == part) {
        return Some(mask as u8);
    }
    let letter = |c: char| "NESW".find(c).map(|i| 1u8 << i);
    if let Some(rest) = part.strip_prefix('_') {
        let mut chars = rest.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return None;
        };
        return letter(c).map(|bit| 0xF & !bit);
    }
    let mut mask = 0u8;
    for c in part.chars() {
        let bit = letter(c)?;
        if mask & bit != 0 {
            return None;
        }
        mask |= bit;
    }
    (mask != 0).then_some(mask)
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Location::Sides(mask) => f.write_str(SIDE_NAMES[usize::from(mask & 0xF)]),
            Location::Ports(mask) => {
                let names: Vec<&str> = (0..8)
                    .filter(|bit| mask & (1 << bit) != 0)
                    .map(|bit| PORT_NAMES[bit])
                    .collect();
                f.write_str(&names.join("."))
            }
            Location::Monastery => f.write_str(MONASTERY),
        }
    }
}

/// JCloisterZone's name of a feature kind in a meeple pointer.
pub fn feature_name(kind: FeatureKind) -> &'static str {
    match kind {
        FeatureKind::City => "City",
        FeatureKind::Road => "Road",
        FeatureKind::Field => "Field",
        FeatureKind::Monastery => "Monastery",
        FeatureKind::Garden => "Garden",
    }
}

/// The feature kind of a pointer's `feature` (JCloisterZone 6 names, and the older `Farm` and
/// `Cloister`).
pub fn parse_feature(name: &str) -> Option<FeatureKind> {
    match name {
        "City" => Some(FeatureKind::City),
        "Road" => Some(FeatureKind::Road),
        "Field" | "Farm" => Some(FeatureKind::Field),
        "Monastery" | "Cloister" => Some(FeatureKind::Monastery),
        "Garden" => Some(FeatureKind::Garden),
        _ => None,
    }
}

/// Our square for a JCloisterZone `[x, y]` (their y grows south, ours north); `None` if it
/// does not fit our coordinates.
pub fn pos_from_jcz(x: i64, y: i64) -> Option<Pos> {
    let x = i32::try_from(x).ok()?;
    let y = i32::try_from(y).ok()?.checked_neg()?;
    Some(Pos::new(x, y))
}

/// JCloisterZone's `[x, y]` for one of our squares.
pub fn pos_to_jcz(at: Pos) -> [i64; 2] {
    [i64::from(at.x), -i64::from(at.y)]
}

/// The location of segment `segment` of a tile lying with `rotation`: its sides, ports or the
/// monastery, in board orientation.
pub fn location_of(
    tile: &carc_rules::TileType,
    rotation: carc_rules::Rotation,
    segment: u8,
) -> Location {
    match tile.segments[usize::from(segment)].kind {
        FeatureKind::City | FeatureKind::Road => {
            Location::Sides(tile.segment_sides(rotation, segment))
        }
        FeatureKind::Field => Location::Ports(tile.segment_ports(rotation, segment)),
        // JCloisterZone names a garden's place like a monastery's: the tile's inside.
        FeatureKind::Monastery | FeatureKind::Garden => Location::Monastery,
    }
}

/// The segment of a tile lying with `rotation` that a pointer names: same kind, exactly the
/// same sides or ports.
pub fn segment_at(
    tile: &carc_rules::TileType,
    rotation: carc_rules::Rotation,
    kind: FeatureKind,
    location: Location,
) -> Option<u8> {
    (0..tile.segments.len() as u8).find(|&s| {
        tile.segments[usize::from(s)].kind == kind && location_of(tile, rotation, s) == location
    })
}

/// A feature on a tile as JCloisterZone names it, e.g. `{City,S,[0,-1]}` (the form its test
/// assertions use for meeple options).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pointer {
    /// `City`, `Road`, `Field` or `Monastery`.
    pub feature: &'static str,
    /// The location string.
    pub location: String,
    /// JCloisterZone coordinates `[x, y]` (y grows south).
    pub position: [i64; 2],
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{{{},{},[{},{}]}}",
            self.feature, self.location, self.position[0], self.position[1]
        )
    }
}

/// The JCloisterZone pointer of segment `segment` of the tile at `at` in `game`; `None` if no
/// tile lies there or it has no such segment.
pub fn pointer_of(game: &Game, at: Pos, segment: u8) -> Option<Pointer> {
    let placed = game.tile_at(at)?;
    let tile = game.tiles().get(placed.tile);
    let def = tile.segments.get(usize::from(segment))?;
    Some(Pointer {
        feature: feature_name(def.kind),
        location: location_of(tile, placed.rotation, segment).to_string(),
        position: pos_to_jcz(at),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_side_set_and_port_set_reads_back_what_is_written() {
        for mask in 1..16u8 {
            let loc = Location::Sides(mask);
            assert_eq!(Location::parse(&loc.to_string()), Some(loc), "{loc}");
        }
        for mask in 1..=255u8 {
            let loc = Location::Ports(mask);
            assert_eq!(Location::parse(&loc.to_string()), Some(loc), "{loc}");
        }
        assert_eq!(Location::parse("I"), Some(Location::Monastery));
        assert_eq!(Location::parse("CLOISTER"), Some(Location::Monastery));
    }

    #[test]
    fn the_corpus_spellings_mean_what_the_readme_says() {
        assert_eq!(Location::parse("S"), Some(Location::Sides(0b0100)));
        assert_eq!(Location::parse("WE"), Some(Location::Sides(0b1010)));
        assert_eq!(Location::parse("EW"), Some(Location::Sides(0b1010)));
        assert_eq!(Location::parse("NS"), Some(Location::Sides(0b0101)));
        assert_eq!(Location::parse("_N"), Some(Location::Sides(0b1110)));
        assert_eq!(
            Location::parse("NL.NR.EL.ER.WL.WR"),
            Some(Location::Ports(0b1100_1111))
        );
        assert_eq!(Location::Sides(0b0110).to_string(), "SE");
        assert_eq!(
            Location::Ports(0b1100_1111).to_string(),
            "NL.NR.EL.ER.WL.WR"
        );
    }

    #[test]
    fn nonsense_locations_are_refused() {
        for bad in [
            "", ".", "X", "NN", "N.NL", "_", "_NE", "nl", "I.N", "NL..NR", "SX",
        ] {
            assert_eq!(Location::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn squares_flip_the_y_axis() {
        assert_eq!(pos_from_jcz(0, -1), Some(Pos::new(0, 1)));
        assert_eq!(pos_to_jcz(Pos::new(3, 2)), [3, -2]);
        assert_eq!(pos_from_jcz(0, i64::from(i32::MIN)), None);
        assert_eq!(pos_from_jcz(i64::MAX, 0), None);
    }
}
