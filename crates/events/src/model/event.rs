//! Events and assertions: what a log line after the header says, and the lists of their
//! wire `type`s.

use serde::{Deserialize, Serialize};

use super::values::*;
use crate::tagged::tagged_enum;
use crate::target::{FeatureKind, MeepleTarget};
// `Event` and its decode-only twin `ExternallyTaggedEvent`, from this one list (`crate::tagged`).
tagged_enum! {
/// One event: a decision or a chance outcome. The wire `type` is the snake_case variant name.
///
/// New event types come with a new format version (see the crate docs), unless only a named
/// expansion uses them (see `upcast`); add the variant, its name to [`EVENT_TYPES`], and an
/// arm to [`Event::type_name`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event => ExternallyTaggedEvent {
    /// The start tile was put on the board.
    StartPlaced {
        /// Tile id.
        tile: TileId,
        /// Square.
        at: Pos,
        /// Rotation.
        rotation: Rotation,
    },
    /// `player` drew `tile`.
    TileDrawn {
        /// Seat index.
        player: u8,
        /// Tile id.
        tile: TileId,
    },
    /// `player` placed `tile`.
    TilePlaced {
        /// Seat index.
        player: u8,
        /// Tile id.
        tile: TileId,
        /// Square.
        at: Pos,
        /// Rotation.
        rotation: Rotation,
    },
    /// `player` placed a meeple on the tile just placed (with Inns & Cathedrals, perhaps the
    /// large meeple: `figure`).
    MeeplePlaced {
        /// Seat index.
        player: u8,
        /// The feature, in board orientation.
        on: MeepleTarget,
        /// The figure: absent for a normal meeple, `"large"` for the large meeple (Inns &
        /// Cathedrals; added within version 1, see `docs/log-format.md`).
        #[serde(default, skip_serializing_if = "Figure::is_meeple")]
        figure: Figure,
    },
    /// `player` chose not to place a meeple.
    MeepleSkipped {
        /// Seat index.
        player: u8,
    },
    /// `player` set the drawn `tile` aside (it fit nowhere).
    TileSetAside {
        /// Seat index.
        player: u8,
        /// Tile id.
        tile: TileId,
    },
    /// 20th Anniversary: of several arrows the tile just placed could activate, `player`
    /// chose the one on the tile at `at`, which carries `symbol`.
    ArrowChosen {
        /// Seat index.
        player: u8,
        /// The square of the tile carrying the chosen arrow.
        at: Pos,
        /// Its symbol (checked against the tile).
        symbol: ArrowSymbol,
    },
    /// 20th Anniversary: instead of a meeple on the tile just placed, `player` put one from
    /// supply on `on` of the tile at `at`, through the activated `action` arrow.
    ArrowMeeplePlaced {
        /// Seat index.
        player: u8,
        /// `companion` or `portal`.
        action: ArrowMeepleAction,
        /// The square of the target tile.
        at: Pos,
        /// The feature, in board orientation.
        on: MeepleTarget,
    },
    /// The Gifts: `player` received `card` from the gift deck (chance, like a tile draw).
    GiftReceived {
        /// Seat index.
        player: u8,
        /// The card.
        card: GiftCard,
    },
    /// The Gifts: after drawing and before placing, `player` opened `card` from their hand.
    /// Its target: `at` and `on` (Synod, Road Sweeper, Change Position, Cash Out) and `to`
    /// (Change Position); absent for Take 2.
    GiftOpened {
        /// Seat index.
        player: u8,
        /// The card.
        card: GiftCard,
        /// The square of the target tile.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Pos>,
        /// The target feature (or the meeple's spot), in board orientation.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        on: Option<MeepleTarget>,
        /// Change Position: where the meeple goes on the same tile.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<MeepleTarget>,
    },
    /// The Gifts, Take 2: of the two tiles drawn, `player` put `tile` back into the bag.
    TileReturned {
        /// Seat index.
        player: u8,
        /// Tile id.
        tile: TileId,
    },
    /// The players ended the game between turns with tiles still in the bag (a game
    /// abandoned at the table): final scoring follows at once. No fields: the table decided,
    /// not one seat.
    GameEnded,
    /// The Abbot: instead of a meeple, `player` put their abbot on `on` (`monastery` or
    /// `garden`) of the tile at `at`: the tile just placed, or any tile through the
    /// activated portal arrow (`portal`, written only when true).
    AbbotPlaced {
        /// Seat index.
        player: u8,
        /// The square of the tile.
        at: Pos,
        /// `monastery` or `garden`.
        on: MeepleTarget,
        /// Sent through the activated portal arrow (20th Anniversary).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        portal: bool,
    },
    /// The Abbot: instead of a meeple, `player` took their abbot back from the tile at `at`
    /// and scored it at once.
    AbbotTakenBack {
        /// Seat index.
        player: u8,
        /// The square the abbot stood on (checked against the game).
        at: Pos,
    },
}
}

/// Every event `type` this version reads, in declaration order.
pub const EVENT_TYPES: &[&str] = &[
    "start_placed",
    "tile_drawn",
    "tile_placed",
    "meeple_placed",
    "meeple_skipped",
    "tile_set_aside",
    "arrow_chosen",
    "arrow_meeple_placed",
    "gift_received",
    "gift_opened",
    "tile_returned",
    "game_ended",
    "abbot_placed",
    "abbot_taken_back",
];

impl Event {
    /// The wire `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::StartPlaced { .. } => "start_placed",
            Event::TileDrawn { .. } => "tile_drawn",
            Event::TilePlaced { .. } => "tile_placed",
            Event::MeeplePlaced { .. } => "meeple_placed",
            Event::MeepleSkipped { .. } => "meeple_skipped",
            Event::TileSetAside { .. } => "tile_set_aside",
            Event::ArrowChosen { .. } => "arrow_chosen",
            Event::ArrowMeeplePlaced { .. } => "arrow_meeple_placed",
            Event::GiftReceived { .. } => "gift_received",
            Event::GiftOpened { .. } => "gift_opened",
            Event::TileReturned { .. } => "tile_returned",
            Event::GameEnded => "game_ended",
            Event::AbbotPlaced { .. } => "abbot_placed",
            Event::AbbotTakenBack { .. } => "abbot_taken_back",
        }
    }

    /// The acting seat, if the event has one.
    pub fn player(&self) -> Option<u8> {
        match self {
            Event::StartPlaced { .. } | Event::GameEnded => None,
            Event::TileDrawn { player, .. }
            | Event::TilePlaced { player, .. }
            | Event::MeeplePlaced { player, .. }
            | Event::MeepleSkipped { player }
            | Event::TileSetAside { player, .. }
            | Event::ArrowChosen { player, .. }
            | Event::ArrowMeeplePlaced { player, .. }
            | Event::GiftReceived { player, .. }
            | Event::GiftOpened { player, .. }
            | Event::TileReturned { player, .. }
            | Event::AbbotPlaced { player, .. }
            | Event::AbbotTakenBack { player, .. } => Some(*player),
        }
    }
}

/// An event with its sequence number. Written `{"seq":N,"type":…,…}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Envelope {
    /// 1-based, consecutive within a log.
    pub seq: u64,
    /// The event.
    #[serde(flatten)]
    pub event: Event,
}

// `Assertion` and its decode-only twin `ExternallyTaggedAssertion` (`crate::tagged`).
tagged_enum! {
/// A claim that a checker compares with the fold's result; not an event (no `seq`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Assertion => ExternallyTaggedAssertion {
    /// The scores, one per seat, after event `after` has been applied.
    ExpectScores {
        /// An event seq (not checked against the file here).
        after: u64,
        /// One per player, in seat order.
        scores: Vec<u32>,
    },
    /// The scores, one per seat, after final scoring.
    ExpectFinalScores {
        /// One per player, in seat order.
        scores: Vec<u32>,
    },
    /// The points seat `player` won for features of kind `feature` in event `after`, summed
    /// over all such features that event scored (features completed during play, and the
    /// final scoring when `after` is the last event). Written by importers of games whose
    /// site states each feature's points (Board Game Arena), so that a disagreement names the
    /// feature and the event.
    ExpectPoints {
        /// An event seq (not checked against the file here).
        after: u64,
        /// A seat.
        player: u8,
        /// `city`, `road`, `field` or `monastery`.
        feature: FeatureKind,
        points: u32,
    },
}
}

/// The `type` of an annotation line in an exported bundle (`crate::annotation`).
pub const ANNOTATION_TYPE: &str = "annotation";

/// The `type` of a variation line in an exported bundle (`crate::variation`).
pub const VARIATION_TYPE: &str = "variation";

/// Every assertion `type` this version reads.
pub const ASSERTION_TYPES: &[&str] = &["expect_scores", "expect_final_scores", "expect_points"];

impl Assertion {
    /// The wire `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Assertion::ExpectScores { .. } => "expect_scores",
            Assertion::ExpectFinalScores { .. } => "expect_final_scores",
            Assertion::ExpectPoints { .. } => "expect_points",
        }
    }

    /// The claimed scores (one per seat), or for `expect_points` the one claimed number.
    pub fn scores(&self) -> &[u32] {
        match self {
            Assertion::ExpectScores { scores, .. } | Assertion::ExpectFinalScores { scores } => {
                scores
            }
            Assertion::ExpectPoints { points, .. } => std::slice::from_ref(points),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_types_list_matches_the_enum() {
        let tile = TileId::new("V").unwrap();
        let samples = [
            Event::StartPlaced {
                tile: tile.clone(),
                at: Pos::new(0, 0),
                rotation: Rotation::R0,
            },
            Event::TileDrawn {
                player: 0,
                tile: tile.clone(),
            },
            Event::TilePlaced {
                player: 0,
                tile: tile.clone(),
                at: Pos::new(1, 0),
                rotation: Rotation::R90,
            },
            Event::MeeplePlaced {
                player: 0,
                on: MeepleTarget::monastery(),
                figure: Figure::Meeple,
            },
            Event::MeepleSkipped { player: 0 },
            Event::TileSetAside { player: 0, tile },
            Event::ArrowChosen {
                player: 0,
                at: Pos::new(1, 0),
                symbol: ArrowSymbol::Portal,
            },
            Event::ArrowMeeplePlaced {
                player: 0,
                action: ArrowMeepleAction::Companion,
                at: Pos::new(2, -1),
                on: MeepleTarget::monastery(),
            },
            Event::GiftReceived {
                player: 0,
                card: GiftCard::Synod,
            },
            Event::GiftOpened {
                player: 0,
                card: GiftCard::TakeTwo,
                at: None,
                on: None,
                to: None,
            },
            Event::TileReturned {
                player: 0,
                tile: TileId::new("V").unwrap(),
            },
            Event::GameEnded,
            Event::AbbotPlaced {
                player: 0,
                at: Pos::new(0, -1),
                on: MeepleTarget::garden(),
                portal: false,
            },
            Event::AbbotTakenBack {
                player: 0,
                at: Pos::new(0, -1),
            },
        ];
        let names: Vec<&str> = samples.iter().map(Event::type_name).collect();
        assert_eq!(names, EVENT_TYPES);
        for event in &samples {
            let value = serde_json::to_value(event).unwrap();
            assert_eq!(value["type"], event.type_name());
        }
    }

    #[test]
    fn the_large_meeple_is_written_with_its_figure_and_a_meeple_without() {
        let event = |figure| Event::MeeplePlaced {
            player: 1,
            on: MeepleTarget::monastery(),
            figure,
        };
        let large = serde_json::to_string(&event(Figure::Large)).unwrap();
        assert_eq!(
            large,
            r#"{"type":"meeple_placed","player":1,"on":"monastery","figure":"large"}"#
        );
        let normal = serde_json::to_string(&event(Figure::Meeple)).unwrap();
        assert_eq!(
            normal,
            r#"{"type":"meeple_placed","player":1,"on":"monastery"}"#
        );
        let back: Event = serde_json::from_str(&large).unwrap();
        assert_eq!(back, event(Figure::Large));
        let back: Event = serde_json::from_str(&normal).unwrap();
        assert_eq!(back, event(Figure::Meeple));
        // A figure the format does not know is refused
        assert!(serde_json::from_str::<Event>(
            r#"{"type":"meeple_placed","player":1,"on":"monastery","figure":"giant"}"#
        )
        .is_err());
    }

    #[test]
    fn the_builder_and_the_pig_are_written_with_their_figure() {
        let event = |figure| Event::MeeplePlaced {
            player: 0,
            on: MeepleTarget::monastery(),
            figure,
        };
        for (figure, word) in [(Figure::Builder, "builder"), (Figure::Pig, "pig")] {
            let line = serde_json::to_string(&event(figure)).unwrap();
            assert_eq!(
                line,
                format!(
                    r#"{{"type":"meeple_placed","player":0,"on":"monastery","figure":"{word}"}}"#
                )
            );
            assert_eq!(figure.as_str(), word);
            let back: Event = serde_json::from_str(&line).unwrap();
            assert_eq!(back, event(figure));
        }
    }

    #[test]
    fn assertion_types_list_matches_the_enum() {
        let samples = [
            Assertion::ExpectScores {
                after: 1,
                scores: vec![0],
            },
            Assertion::ExpectFinalScores { scores: vec![0] },
            Assertion::ExpectPoints {
                after: 1,
                player: 0,
                feature: FeatureKind::City,
                points: 4,
            },
        ];
        let names: Vec<&str> = samples.iter().map(Assertion::type_name).collect();
        assert_eq!(names, ASSERTION_TYPES);
        for a in &samples {
            assert_eq!(serde_json::to_value(a).unwrap()["type"], a.type_name());
        }
    }

    #[test]
    fn envelope_serde_is_the_wire_line() {
        let line =
            r#"{"seq":3,"type":"tile_placed","player":0,"tile":"V","at":[1,0],"rotation":90}"#;
        let env: Envelope = serde_json::from_str(line).unwrap();
        assert_eq!(env.seq, 3);
        assert_eq!(
            env.event,
            Event::TilePlaced {
                player: 0,
                tile: TileId::new("V").unwrap(),
                at: Pos::new(1, 0),
                rotation: Rotation::R90
            }
        );
        assert_eq!(serde_json::to_string(&env).unwrap(), line);
        let err = serde_json::from_str::<Envelope>(
            r#"{"seq":3,"type":"meeple_skipped","player":0,"extra":1}"#,
        )
        .unwrap_err();
        assert!(err.to_string().contains("unknown field `extra`"), "{err}");
    }

    #[test]
    fn anniversary_events_have_their_wire_lines() {
        for line in [
            r#"{"seq":9,"type":"arrow_chosen","player":1,"at":[1,-1],"symbol":"extra_turn"}"#,
            r#"{"seq":10,"type":"arrow_meeple_placed","player":1,"action":"portal","at":[2,-1],"on":"city N"}"#,
        ] {
            let env: Envelope = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&env).unwrap(), line);
        }
        let err = serde_json::from_str::<Envelope>(
            r#"{"seq":9,"type":"arrow_meeple_placed","player":1,"action":"extra_turn","at":[2,-1],"on":"city N"}"#,
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("unknown variant `extra_turn`, expected `companion` or `portal`"),
            "{err}"
        );
    }

    #[test]
    fn gift_events_have_their_wire_lines() {
        for line in [
            r#"{"seq":5,"type":"gift_received","player":1,"card":"take_2"}"#,
            r#"{"seq":6,"type":"gift_opened","player":1,"card":"take_2"}"#,
            r#"{"seq":6,"type":"gift_opened","player":1,"card":"synod","at":[1,2],"on":"monastery"}"#,
            r#"{"seq":6,"type":"gift_opened","player":1,"card":"change_position","at":[0,0],"on":"road E","to":"field Nw"}"#,
            r#"{"seq":8,"type":"tile_returned","player":1,"tile":"V"}"#,
        ] {
            let env: Envelope = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&env).unwrap(), line);
        }
        let err = serde_json::from_str::<Envelope>(
            r#"{"seq":5,"type":"gift_received","player":1,"card":"take_3"}"#,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("unknown variant `take_3`"),
            "{err}"
        );
    }
}
