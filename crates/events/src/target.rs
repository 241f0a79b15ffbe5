//! Meeple targets as written on the wire: `"city N"`, `"road E"`, `"field Sw"`, `"monastery"`,
//! `"garden"` (The Abbot: the abbot's feature only).
//!
//! Sides and ports are named in *board* orientation, i.e. after the tile's rotation.

use std::fmt;
use std::str::FromStr;

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

use crate::short;

/// The grammar of a meeple target, quoted in every parse error.
pub const MEEPLE_TARGET_GRAMMAR: &str = "expected \"city <side>\", \"road <side>\", \
\"field <port>\", \"monastery\" or \"garden\", where <side> is one of N E S W and <port> is one of \
Nw Ne En Es Se Sw Ws Wn";

/// The kind of feature a meeple is placed on (and an `expect_points` assertion names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeatureKind {
    /// A city segment; anchored by a side.
    City,
    /// A road segment; anchored by a side.
    Road,
    /// A field segment; anchored by a port (half-edge).
    Field,
    /// The monastery; no anchor.
    Monastery,
    /// The garden of a garden copy (The Abbot); no anchor.
    Garden,
}

impl FeatureKind {
    /// All kinds, in wire order.
    pub const ALL: [FeatureKind; 5] = [
        FeatureKind::City,
        FeatureKind::Road,
        FeatureKind::Field,
        FeatureKind::Monastery,
        FeatureKind::Garden,
    ];

    /// The wire name: `city`, `road`, `field`, `monastery` or `garden`.
    pub fn as_str(self) -> &'static str {
        match self {
            FeatureKind::City => "city",
            FeatureKind::Road => "road",
            FeatureKind::Field => "field",
            FeatureKind::Monastery => "monastery",
            FeatureKind::Garden => "garden",
        }
    }
}

impl fmt::Display for FeatureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A side of a tile square in board orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// North (towards +y).
    N,
    /// East (towards +x).
    E,
    /// South (towards −y).
    S,
    /// West (towards −x).
    W,
}

impl Side {
    /// All sides, clockwise from north.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The wire name: `N`, `E`, `S` or `W`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::N => "N",
            Side::E => "E",
            Side::S => "S",
            Side::W => "W",
        }
    }

    fn from_wire(s: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|side| side.as_str() == s)
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A field port: one of the 8 half-edges, clockwise from the north-west corner.
///
/// `Nw` is the west half of the north side, `En` the north half of the east side, and so on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Port {
    /// West half of the north side.
    Nw,
    /// East half of the north side.
    Ne,
    /// North half of the east side.
    En,
    /// South half of the east side.
    Es,
    /// East half of the south side.
    Se,
    /// West half of the south side.
    Sw,
    /// South half of the west side.
    Ws,
    /// North half of the west side.
    Wn,
}

impl Port {
    /// All ports, clockwise from the north-west corner.
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

    /// The wire name, e.g. `Nw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Port::Nw => "Nw",
            Port::Ne => "Ne",
            Port::En => "En",
            Port::Es => "Es",
            Port::Se => "Se",
            Port::Sw => "Sw",
            Port::Ws => "Ws",
            Port::Wn => "Wn",
        }
    }

    /// The side this half-edge belongs to (`Nw` → `N`).
    pub fn side(self) -> Side {
        match self {
            Port::Nw | Port::Ne => Side::N,
            Port::En | Port::Es => Side::E,
            Port::Se | Port::Sw => Side::S,
            Port::Ws | Port::Wn => Side::W,
        }
    }

    fn from_wire(s: &str) -> Option<Port> {
        Port::ALL.into_iter().find(|port| port.as_str() == s)
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where on the tile a feature is picked: a side (city, road) or a port (field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Anchor {
    /// A side, for cities and roads.
    Side(Side),
    /// A half-edge, for fields.
    Port(Port),
}

/// A meeple target: feature kind plus the side or port that picks the segment.
///
/// Only well-formed combinations can be built (city/road + side, field + port, monastery
/// alone), so every value writes back to a string that parses again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MeepleTarget {
    kind: FeatureKind,
    at: Option<Anchor>,
}

impl MeepleTarget {
    /// `city <side>`.
    pub fn city(side: Side) -> Self {
        MeepleTarget {
            kind: FeatureKind::City,
            at: Some(Anchor::Side(side)),
        }
    }

    /// `road <side>`.
    pub fn road(side: Side) -> Self {
        MeepleTarget {
            kind: FeatureKind::Road,
            at: Some(Anchor::Side(side)),
        }
    }

    /// `field <port>`.
    pub fn field(port: Port) -> Self {
        MeepleTarget {
            kind: FeatureKind::Field,
            at: Some(Anchor::Port(port)),
        }
    }

    /// `monastery`.
    pub fn monastery() -> Self {
        MeepleTarget {
            kind: FeatureKind::Monastery,
            at: None,
        }
    }

    /// `garden` (The Abbot).
    pub fn garden() -> Self {
        MeepleTarget {
            kind: FeatureKind::Garden,
            at: None,
        }
    }

    /// Builds a target from parts; `None` if the anchor does not suit the kind.
    pub fn new(kind: FeatureKind, at: Option<Anchor>) -> Option<Self> {
        match (kind, at) {
            (FeatureKind::City | FeatureKind::Road, Some(Anchor::Side(_)))
            | (FeatureKind::Field, Some(Anchor::Port(_)))
            | (FeatureKind::Monastery | FeatureKind::Garden, None) => {
                Some(MeepleTarget { kind, at })
            }
            _ => None,
        }
    }

    /// The feature kind.
    pub fn kind(&self) -> FeatureKind {
        self.kind
    }

    /// The anchor (`None` only for a monastery).
    pub fn at(&self) -> Option<Anchor> {
        self.at
    }

    /// The side, for cities and roads.
    pub fn side(&self) -> Option<Side> {
        match self.at {
            Some(Anchor::Side(side)) => Some(side),
            _ => None,
        }
    }

    /// The port, for fields.
    pub fn port(&self) -> Option<Port> {
        match self.at {
            Some(Anchor::Port(port)) => Some(port),
            _ => None,
        }
    }
}

impl fmt::Display for MeepleTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.as_str())?;
        match self.at {
            Some(Anchor::Side(side)) => write!(f, " {side}"),
            Some(Anchor::Port(port)) => write!(f, " {port}"),
            None => Ok(()),
        }
    }
}

/// A string that is not a meeple target; the message quotes the grammar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid meeple target {}; {}", short(.input), MEEPLE_TARGET_GRAMMAR)]
pub struct InvalidMeepleTarget {
    /// The offending text.
    pub input: String,
}

impl FromStr for MeepleTarget {
    type Err = InvalidMeepleTarget;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let invalid = || InvalidMeepleTarget {
            input: s.to_owned(),
        };
        let (kind, rest) = match s.split_once(' ') {
            Some((kind, rest)) => (kind, Some(rest)),
            None => (s, None),
        };
        match (kind, rest) {
            ("monastery", None) => Ok(MeepleTarget::monastery()),
            ("garden", None) => Ok(MeepleTarget::garden()),
            ("city", Some(side)) => Side::from_wire(side)
                .map(MeepleTarget::city)
                .ok_or_else(invalid),
            ("road", Some(side)) => Side::from_wire(side)
                .map(MeepleTarget::road)
                .ok_or_else(invalid),
            ("field", Some(port)) => Port::from_wire(port)
                .map(MeepleTarget::field)
                .ok_or_else(invalid),
            _ => Err(invalid()),
        }
    }
}

impl Serialize for MeepleTarget {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for MeepleTarget {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = MeepleTarget;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a meeple target string; {MEEPLE_TARGET_GRAMMAR}")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<MeepleTarget, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_round_trips_through_its_string() {
        let mut all = vec![MeepleTarget::monastery()];
        for side in Side::ALL {
            all.push(MeepleTarget::city(side));
            all.push(MeepleTarget::road(side));
        }
        all.extend(Port::ALL.map(MeepleTarget::field));
        assert_eq!(all.len(), 17);
        for target in all {
            let text = target.to_string();
            assert_eq!(text.parse::<MeepleTarget>(), Ok(target), "{text}");
        }
        assert_eq!(MeepleTarget::field(Port::Sw).to_string(), "field Sw");
        assert_eq!(MeepleTarget::road(Side::W).to_string(), "road W");
    }

    #[test]
    fn malformed_targets_are_rejected_with_the_grammar() {
        for bad in [
            "",
            "city",
            "city  N",
            "city n",
            "City N",
            "road Nw",
            "field N",
            "field nw",
            "monastery N",
            "monastery ",
            " city N",
            "city N ",
            "cloister",
            "farm Sw",
        ] {
            let err = bad.parse::<MeepleTarget>().unwrap_err();
            let msg = err.to_string();
            assert!(
                msg.contains("city <side>") && msg.contains("Nw Ne En Es Se Sw Ws Wn"),
                "{msg}"
            );
        }
    }

    #[test]
    fn new_accepts_only_matching_anchors() {
        assert_eq!(
            MeepleTarget::new(FeatureKind::City, Some(Anchor::Side(Side::N))),
            Some(MeepleTarget::city(Side::N))
        );
        assert_eq!(
            MeepleTarget::new(FeatureKind::City, Some(Anchor::Port(Port::Nw))),
            None
        );
        assert_eq!(
            MeepleTarget::new(FeatureKind::Field, Some(Anchor::Side(Side::N))),
            None
        );
        assert_eq!(
            MeepleTarget::new(FeatureKind::Monastery, Some(Anchor::Side(Side::N))),
            None
        );
        assert_eq!(MeepleTarget::new(FeatureKind::Road, None), None);
        assert_eq!(
            MeepleTarget::new(FeatureKind::Monastery, None),
            Some(MeepleTarget::monastery())
        );
    }

    #[test]
    fn ports_belong_to_their_sides_clockwise() {
        let sides: Vec<Side> = Port::ALL.iter().map(|p| p.side()).collect();
        assert_eq!(
            sides,
            [
                Side::N,
                Side::N,
                Side::E,
                Side::E,
                Side::S,
                Side::S,
                Side::W,
                Side::W
            ]
        );
    }
}
