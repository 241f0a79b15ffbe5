//! Scores and their explanations: every point awarded carries the feature, its tiles, coats
//! of arms, meeples per player, the majority, the formula and the rule that fired.

use std::fmt;

use crate::geometry::{Pos, Side};
use crate::gift_card::GiftCard;
use crate::ruling::RuleId;
use crate::tileset::{ArrowSymbol, FeatureKind, Good, SegmentLabel};

/// What earned a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreSource {
    /// A feature (city, road, monastery, field) by the normal scoring rules.
    Feature,
    /// A newly placed arrow tile whose arrow points at no tile (20th Anniversary). The score's
    /// `feature` then names the segment of the arrow tile at the side the arrow points out of,
    /// and `tiles` holds the arrow tile's square.
    Arrow {
        /// The symbol of the arrow that scored.
        symbol: ArrowSymbol,
        /// The board side the arrow points out of (the tile's rotation applied).
        side: Side,
    },
    /// Carcassonne Maps, town variant 2: covering the town `town` cost the winner `points`
    /// (deducted, never below zero). `feature` names the covering tile's first segment and
    /// `tiles` holds the town's square.
    TownCost {
        /// The town's name as the map prints it.
        town: &'static str,
    },
    /// A gift's action (The Gifts): Road Sweeper (the road's majority, as in final scoring)
    /// or Cash Out (the player who takes a meeple back).
    Gift {
        /// The card whose action scored: Road Sweeper or Cash Out.
        card: GiftCard,
    },
    /// Final scoring of unopened gifts (The Gifts): 2 points per card for the one winner.
    /// No feature scores: `feature` names the start tile and `tiles` is empty.
    UnopenedGifts {
        /// How many unopened cards the winner holds (2 points each).
        cards: u8,
    },
    /// The Abbot: the abbot taken back from its monastery or garden instead of a meeple,
    /// scored at once as an incomplete monastery (1 + the tiles around it).
    AbbotTakenBack,
    /// Traders & Builders, final scoring: the most tokens of `good` (10 for each tied
    /// player). No feature scores: `feature` names the start tile, `tiles` is empty and
    /// `meeples` holds each seat's tokens of that kind (seats with none left out).
    Goods {
        /// The kind of goods whose majority scored.
        good: Good,
    },
    /// Traders & Builders, final scoring: the pig's extra point per completed city for the
    /// field's winners who have their pig there. `feature` is the field.
    Pig,
}

impl Score {
    /// Whether the score's points are taken away rather than given (town variant 2).
    pub fn is_penalty(&self) -> bool {
        matches!(self.source, ScoreSource::TownCost { .. })
    }

    /// The points with their sign, e.g. `+8` or `-2`.
    pub fn signed_points(&self) -> String {
        if self.is_penalty() {
            format!("-{}", self.points)
        } else {
            format!("+{}", self.points)
        }
    }
}

/// When a score happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ScoreTime {
    /// Scored during play: a feature completed, or one scored by a move before it is
    /// complete (Road Sweeper, the abbot taken back). Written `completed` in the CLI's JSON
    /// and the tables.
    Completed,
    /// The final scoring after the last tile.
    Final,
}

/// A feature named by one of its segments: the tile it lies on and the segment's label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureRef {
    /// The square of the tile the segment lies on.
    pub at: Pos,
    /// The segment on that tile, in board orientation.
    pub label: SegmentLabel,
}

impl fmt::Display for FeatureRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.label, self.at)
    }
}

/// One scored feature, with everything needed to explain it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// The kind of the feature scored. For a score of no feature (see [`ScoreSource`]) the
    /// kind of the segment `feature` names, or `City` for goods.
    pub kind: FeatureKind,
    /// During play or at the final scoring.
    pub time: ScoreTime,
    /// The feature, named by its first segment.
    pub feature: FeatureRef,
    /// Distinct squares the feature covers, sorted.
    pub tiles: Vec<Pos>,
    /// Coats of arms counted in a city, or in a road on a map (printed ones); 0 otherwise.
    pub coats_of_arms: u32,
    /// For fields: the completed cities that touch it.
    pub cities: Vec<FeatureRef>,
    /// Meeples on the feature per seat (seats with none left out), seat order.
    pub meeples: Vec<(u8, u8)>,
    /// Seats with the most meeples; each scores `points`.
    pub winners: Vec<u8>,
    /// The points each winner scores (taken away instead when [`Score::is_penalty`]).
    pub points: u32,
    /// The arithmetic in words, e.g. `2 × 3 tiles + 2 × 1 coat of arms = 8`.
    pub formula: String,
    /// The rule that awarded the points, e.g. `base.score.city.completed`.
    pub rule: RuleId,
    /// What earned the score: a feature, or an expansion's other source.
    pub source: ScoreSource,
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let ScoreSource::Arrow { symbol, side } = self.source {
            let seats: Vec<String> = self.winners.iter().map(|w| format!("seat {w}")).collect();
            return write!(
                f,
                "{symbol} arrow of the tile at {}, pointing {}: {}; {} +{} [{}]",
                self.feature.at,
                side.word(),
                self.formula,
                seats.join(" and "),
                self.points,
                self.rule
            );
        }
        if let ScoreSource::TownCost { town } = self.source {
            let seats: Vec<String> = self.winners.iter().map(|w| format!("seat {w}")).collect();
            return write!(
                f,
                "covering the town {town} at {}: {}; {} -{} [{}]",
                self.feature.at,
                self.formula,
                seats.join(" and "),
                self.points,
                self.rule
            );
        }
        if let ScoreSource::Goods { good } = self.source {
            let seats: Vec<String> = self.winners.iter().map(|w| format!("seat {w}")).collect();
            return write!(
                f,
                "goods majority, {good}: {}; {} +{} [{}]",
                self.formula,
                seats.join(" and "),
                self.points,
                self.rule
            );
        }
        if let ScoreSource::UnopenedGifts { .. } = self.source {
            let seats: Vec<String> = self.winners.iter().map(|w| format!("seat {w}")).collect();
            return write!(
                f,
                "unopened gifts: {}; {} +{} [{}]",
                self.formula,
                seats.join(" and "),
                self.points,
                self.rule
            );
        }
        let when = match self.time {
            ScoreTime::Completed => "completed",
            ScoreTime::Final => "final scoring",
        };
        write!(
            f,
            "{} ({when}) {}: {}",
            self.kind, self.feature, self.formula
        )?;
        if self.winners.is_empty() {
            write!(f, "; no meeple, nobody scores")?;
        } else {
            let seats: Vec<String> = self.winners.iter().map(|w| format!("seat {w}")).collect();
            write!(f, "; {} +{}", seats.join(" and "), self.points)?;
        }
        write!(f, " [{}]", self.rule)
    }
}

/// A meeple that went back to its owner's supply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReturnedMeeple {
    /// The owner's seat, from 0.
    pub player: u8,
    /// The square the figure stood on.
    pub at: Pos,
    /// The segment it stood on, in board orientation.
    pub label: SegmentLabel,
    /// The figure was the player's abbot (The Abbot), not a meeple.
    pub abbot: bool,
    /// The figure was the player's large meeple (Inns & Cathedrals).
    pub large: bool,
    /// The figure was the player's builder or pig (Traders & Builders), else `None`.
    pub special: Option<Special>,
}

/// The figures of Traders & Builders, which are no meeples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// The builder: on a road or city beside its owner's meeple; its owner takes a second
    /// turn after a tile of theirs extends that feature.
    Builder,
    /// The pig: on a field beside its owner's farmer; 1 more point per completed city when
    /// its owner wins (or ties for) the field at the end.
    Pig,
}

impl Special {
    /// The figure in words: `builder` or `pig`.
    pub fn word(self) -> &'static str {
        match self {
            Special::Builder => "builder",
            Special::Pig => "pig",
        }
    }
}

impl ReturnedMeeple {
    /// The figure in words: `meeple`, `abbot`, `large meeple`, `builder` or `pig`.
    pub fn figure(&self) -> &'static str {
        if let Some(special) = self.special {
            special.word()
        } else if self.abbot {
            "abbot"
        } else if self.large {
            "large meeple"
        } else {
            "meeple"
        }
    }
}

/// The noun `plural` puts after the number, for formatting both in one `format!` (one
/// allocation instead of two on the scoring hot path).
pub(crate) fn noun(n: u32, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

pub(crate) fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}
