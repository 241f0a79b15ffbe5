//! How a segment of a tile is named for people and programs: `city N`, `road E`, `field Sw`,
//! `monastery`, `garden` ([`SegmentLabel`]), and read back from those words.

use std::fmt;

use super::FeatureKind;
use crate::geometry::{Port, Side};

/// Where on a tile a segment is named: a side for cities and roads, a port for fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// A side the city or road reaches (the first in N, E, S, W order when it reaches
    /// several).
    Side(Side),
    /// A port the field touches (the first clockwise from `Nw` when it touches several).
    Port(Port),
}

/// A segment named for people: kind plus a side or port in board orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SegmentLabel {
    /// The kind of the segment's feature.
    pub kind: FeatureKind,
    /// The side (city, road) or port (field) that names it; `None` for a monastery or garden.
    pub anchor: Option<Anchor>,
}

/// In words for people: `city N`, `road E`, `monastery`, and a field by the corner of the
/// square its port lies at, `field, north-east` (ports `Ne` and `En`), since a port's two
/// letters mean nothing to a player. Programs and people typing a spot use [`SegmentLabel::code`]
/// (`field En`), which [`FromStr`](std::str::FromStr) reads back and the log format spells.
impl fmt::Display for SegmentLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.anchor {
            Some(Anchor::Port(p)) => write!(f, "{}, {}", self.kind, p.corner_words()),
            _ => f.write_str(&self.code()),
        }
    }
}

impl SegmentLabel {
    /// The label as the command line, the JSON outputs and the log format spell it: `city N`,
    /// `road E`, `field Sw`, `monastery`, `garden` (what `FromStr` parses).
    pub fn code(&self) -> String {
        match self.anchor {
            None => self.kind.to_string(),
            Some(Anchor::Side(s)) => format!("{} {s}", self.kind),
            Some(Anchor::Port(p)) => format!("{} {p}", self.kind),
        }
    }
}

impl std::str::FromStr for SegmentLabel {
    type Err = String;

    /// Parses `city N`, `road E`, `field Sw`, `monastery`, `garden`.
    fn from_str(s: &str) -> Result<SegmentLabel, String> {
        const GRAMMAR: &str = "expected \"city <side>\", \"road <side>\", \"field <port>\", \"monastery\" or \"garden\" (sides N E S W; ports Nw Ne En Es Se Sw Ws Wn)";
        let mut words = s.split(' ');
        let kind = words.next().unwrap_or_default();
        let at = words.next();
        if words.next().is_some() {
            return Err(format!("{s:?}: too many words; {GRAMMAR}"));
        }
        let label = match (kind, at) {
            ("monastery", None) => SegmentLabel {
                kind: FeatureKind::Monastery,
                anchor: None,
            },
            ("garden", None) => SegmentLabel {
                kind: FeatureKind::Garden,
                anchor: None,
            },
            ("city" | "road", Some(side)) => SegmentLabel {
                kind: if kind == "city" {
                    FeatureKind::City
                } else {
                    FeatureKind::Road
                },
                anchor: Some(Anchor::Side(Side::parse(side).ok_or_else(|| {
                    format!("{s:?}: {side:?} is not a side; {GRAMMAR}")
                })?)),
            },
            ("field", Some(port)) => SegmentLabel {
                kind: FeatureKind::Field,
                anchor: Some(Anchor::Port(Port::parse(port).ok_or_else(|| {
                    format!("{s:?}: {port:?} is not a port; {GRAMMAR}")
                })?)),
            },
            _ => return Err(format!("{s:?}: {GRAMMAR}")),
        };
        Ok(label)
    }
}
