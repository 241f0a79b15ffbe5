//! The ruling trace: [`Note`], one fact about why a legal action was legal or what followed
//! from it, with the rule it applies and its sentence.

use std::fmt;

use super::{rule, seat_number, RuleId, SeatNamer};
use crate::geometry::{Pos, Rotation, Side, Terrain};
use crate::gift_card::GiftCard;
use crate::map::Print;
use crate::tileset::{ArrowSymbol, FeatureKind, SegmentLabel};

/// One fact in the ruling trace of a legal action. Cheap to record (no allocation); rendered
/// to words by `Display`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// The start tile was placed (the first action of a game).
    StartPlaced {
        /// The square it lies on.
        at: Pos,
        /// The rotation it was placed with.
        rotation: Rotation,
    },
    /// The tile drawn was still in the bag.
    Drew {
        /// Tiles left in the bag after the draw.
        left: u32,
    },
    /// One side of the tile just placed matches the neighbour it touches.
    EdgeMatched {
        /// The side of the tile just placed (board orientation).
        side: Side,
        /// The terrain both edges show.
        terrain: Terrain,
        /// The square of the neighbouring tile.
        neighbour: Pos,
    },
    /// The drawn tile fits on no open square in any rotation, so it is set aside.
    FitsNowhere,
    /// The tile just placed joins two or more separate cities, roads or fields into one.
    Joined {
        /// The kind of the features joined: city, road or field.
        kind: FeatureKind,
        /// How many separate features became one (2 or more).
        count: u8,
        /// How many of them held meeples before.
        occupied: u8,
    },
    /// A meeple from supply on the tile just placed, on a feature that held no meeple.
    MeepleOnFreeFeature {
        /// The segment of the tile just placed the meeple stands on.
        label: SegmentLabel,
    },
    /// The player placed no meeple (always legal).
    MeepleSkipped,
    /// The tile just placed completed a city, road, monastery or garden; it is scored at the end of
    /// the turn.
    Completed {
        /// The kind of the completed feature.
        kind: FeatureKind,
        /// The square of the monastery's (or garden's) tile; for a city or road, the tile just
        /// placed.
        at: Pos,
    },
    /// The turn passes to the next seat.
    NextPlayer {
        /// The seat that plays next, from 0.
        seat: u8,
    },
    /// The bag is empty: the game ends and the final scoring follows.
    BagEmpty,
    /// The players ended the game with `left` tiles still in the bag (`Action::EndGame`).
    EndedEarly {
        /// Tiles still in the bag.
        left: u32,
    },
    /// The new tile's arrow points at no tile (or off the board): 2 points.
    ArrowNoTile {
        /// The arrow's symbol.
        symbol: ArrowSymbol,
        /// The board side the arrow points out of.
        side: Side,
        /// Whether it points at no square: off the board, or on a map at a square that can hold
        /// no tile.
        off_board: bool,
    },
    /// An arrow was activated: the one on the tile at `at`, pointing `side`.
    ArrowActivated {
        /// The arrow's symbol.
        symbol: ArrowSymbol,
        /// The square of the tile that carries the arrow.
        at: Pos,
        /// The board side the arrow points out of.
        side: Side,
        /// True when the new tile filled the square the arrow points at (case 3), false when
        /// the new tile's own arrow points at a placed tile (case 2).
        filled: bool,
    },
    /// Several arrows could be activated; the player chooses one.
    ArrowsToChoose {
        /// How many arrows are candidates (2 or more).
        count: u8,
    },
    /// The player chose this arrow.
    ArrowChosen {
        /// The chosen arrow's symbol.
        symbol: ArrowSymbol,
        /// The square of the tile that carries it.
        at: Pos,
    },
    /// An arrow whose square is now filled without activating it: it can never activate.
    ArrowSpent {
        /// The spent arrow's symbol.
        symbol: ArrowSymbol,
        /// The square of the tile that carries it.
        at: Pos,
    },
    /// Companion (20th Anniversary): a meeple from supply beside the player's own meeple.
    CompanionPlaced {
        /// The square of the tile the meeples stand on.
        at: Pos,
        /// The segment they stand on.
        label: SegmentLabel,
    },
    /// Portal (20th Anniversary): a meeple from supply on an unoccupied, incomplete feature
    /// anywhere.
    PortalPlaced {
        /// The square of the target tile.
        at: Pos,
        /// The segment the meeple stands on.
        label: SegmentLabel,
    },
    /// The extra-turn arrow gives this player one more turn after this one.
    ExtraTurnGranted,
    /// An extra-turn arrow activated during an extra turn gives nothing.
    ExtraTurnDenied,
    /// The same seat takes its extra turn now.
    ExtraTurnBegins {
        /// The seat that plays again, from 0.
        seat: u8,
    },
    /// A start tile (or a drawn tile at setup) went on this start square of the map.
    StartSquare {
        /// The start square's name, e.g. `Rostock`.
        name: &'static str,
    },
    /// The new tile's `side` faces the large city `city`, city to city.
    LargeCityEdge {
        /// The side of the tile just placed (board orientation).
        side: Side,
        /// The large city's name.
        city: &'static str,
    },
    /// The large city is connected: tiles may now be placed next to it.
    LargeCityConnected {
        /// The large city's name.
        city: &'static str,
    },
    /// The new tile's `side` (of terrain `terrain`) faces the border toward `region`.
    Border {
        /// The side of the tile just placed (board orientation).
        side: Side,
        /// The terrain of that side: road or city (fields facing the border get no note).
        terrain: Terrain,
        /// The name of the region beyond the border.
        region: &'static str,
        /// Whether the region is sea or clouds rather than a neighbouring country.
        sea: bool,
        /// The road or city printed abroad that the side continues into, or `None`.
        print: Option<Print>,
    },
    /// The tile covers the town `name`.
    TownCovered {
        /// The town's name.
        name: &'static str,
    },
    /// Town variant 1: the player takes an extra turn.
    TownExtraTurn,
    /// Town variant 1: no extra turn during an extra turn.
    TownExtraTurnDenied,
    /// Town variant 2: covering the town cost seat `seat` 2 points.
    TownCost {
        /// The seat that paid, from 0.
        seat: u8,
    },
    /// The tile extends a road or city that belongs to `owner`: one gift.
    GiftEarned {
        /// The kind of feature extended: road or city.
        kind: FeatureKind,
        /// The seat it belongs to, from 0.
        owner: u8,
    },
    /// A gift would be due, but every card is in the players' hands.
    GiftNoneLeft {
        /// The kind of feature extended: road or city.
        kind: FeatureKind,
        /// The seat it belongs to, from 0.
        owner: u8,
    },
    /// The deck was empty: the discard pile of `cards` cards became the new deck.
    GiftDeckReshuffled {
        /// How many cards the new deck holds.
        cards: u8,
    },
    /// A card came off the deck (which card is for the event to say, so that a trace shown
    /// from another player's point of view gives nothing away).
    GiftReceived {
        /// Cards left in the deck.
        left: u8,
    },
    /// The player opened this gift before placing the drawn tile; it goes to the discard pile.
    GiftOpened {
        /// The card opened.
        card: GiftCard,
    },
    /// Synod: a meeple from supply joined an incomplete monastery.
    SynodPlaced {
        /// The square of the monastery's tile.
        at: Pos,
    },
    /// Road Sweeper: an incomplete road scored now; every meeple on it returns.
    RoadSwept {
        /// The square of the tile the road was named on.
        at: Pos,
        /// The road segment named.
        label: SegmentLabel,
    },
    /// Change Position: one of the player's meeples changed stance on the same tile.
    PositionChanged {
        /// The square of the tile.
        at: Pos,
        /// The segment the meeple stood on.
        from: SegmentLabel,
        /// The segment it stands on now.
        to: SegmentLabel,
    },
    /// Cash Out: one of the player's meeples came back, 2 points per meeple on its feature.
    CashedOut {
        /// The square of the tile the meeple stood on.
        at: Pos,
        /// The segment it stood on.
        label: SegmentLabel,
        /// Meeples counted on its feature (a large meeple as two), the one taken back included;
        /// 2 points each.
        meeples: u8,
    },
    /// Take 2: a second tile is drawn next.
    TakeTwoDraw,
    /// Take 2 with an empty bag: no second tile; the card is used up.
    TakeTwoNoTile,
    /// The River: the tile continued the river from its open end (`lake`: and ended it).
    RiverContinued {
        /// Whether the tile was the lake, which ends the river.
        lake: bool,
    },
    /// Take 2: the other tile went back into the bag.
    TileReturned {
        /// Tiles in the bag once it is back.
        left: u32,
    },
    /// Final scoring: `seat` holds `cards` unopened gifts, 2 points each.
    GiftsUnopened {
        /// The seat, from 0.
        seat: u8,
        /// How many unopened gifts it holds.
        cards: u8,
    },
    /// The Abbot: the abbot from supply on an unoccupied monastery or garden (through the
    /// portal when `portal`).
    AbbotPlaced {
        /// The square of the tile the abbot stands on.
        at: Pos,
        /// The monastery or garden segment.
        label: SegmentLabel,
        /// Whether it went through a portal arrow rather than on the tile just placed.
        portal: bool,
    },
    /// The Abbot: taken back from the monastery or garden at `at`, scored at once.
    AbbotTakenBack {
        /// The square of the tile it stood on.
        at: Pos,
        /// The monastery or garden segment.
        label: SegmentLabel,
    },
    /// Inns & Cathedrals: the large meeple from supply on a free feature of the tile just
    /// placed.
    LargeMeeplePlaced {
        /// The segment of the tile just placed it stands on.
        label: SegmentLabel,
    },
    /// Traders & Builders: the builder from supply on a road or city of the tile just placed
    /// where the player has a meeple.
    BuilderPlaced {
        /// The segment of the tile just placed it stands on.
        label: SegmentLabel,
    },
    /// Traders & Builders: the pig from supply on a field of the tile just placed where the
    /// player has a farmer.
    PigPlaced {
        /// The field segment of the tile just placed it stands on.
        label: SegmentLabel,
    },
    /// Traders & Builders: the tile just placed extends the road or city of the player's
    /// builder at `at`: a second turn follows.
    DoubleTurn {
        /// The square where the builder stands.
        at: Pos,
    },
    /// Traders & Builders: the tile extends the builder's feature during the second turn,
    /// which gives no third (or during another extra turn).
    DoubleTurnDenied {
        /// The square where the builder stands.
        at: Pos,
    },
    /// Traders & Builders: the player who completed a city takes its goods tokens (counts of
    /// wine, grain and cloth).
    GoodsTaken {
        /// The square of a tile of the completed city.
        at: Pos,
        /// The tokens taken per kind, in [`Good::index`](crate::Good::index) order: wine, grain,
        /// cloth.
        goods: [u8; 3],
    },
    /// Traders & Builders: the builder's second turn begins (an extra turn, like
    /// [`Note::ExtraTurnBegins`], with the builder's rule).
    SecondTurnBegins {
        /// The seat that plays again, from 0.
        seat: u8,
    },
}

impl Note {
    /// Whether the note begins an extra turn of the same player (20th Anniversary, a map's
    /// town, the builder's second turn).
    pub fn begins_extra_turn(&self) -> bool {
        matches!(
            self,
            Note::ExtraTurnBegins { .. } | Note::SecondTurnBegins { .. }
        )
    }

    /// The rule the note applies, e.g. `base.tile.edges-match` for [`Note::EdgeMatched`].
    pub fn rule(&self) -> RuleId {
        match self {
            Note::StartPlaced { .. } => rule::START_TILE,
            Note::Drew { .. } => rule::DRAW_BAG,
            Note::EdgeMatched { .. } => rule::TILE_EDGES_MATCH,
            Note::FitsNowhere => rule::TILE_SET_ASIDE,
            Note::Joined { .. } => rule::FEATURE_JOINED,
            Note::MeepleOnFreeFeature { .. } => rule::MEEPLE_OCCUPIED,
            Note::MeepleSkipped => rule::MEEPLE_OPTIONAL,
            Note::Completed { kind, .. } => match kind {
                FeatureKind::City => rule::SCORE_CITY_COMPLETED,
                FeatureKind::Road => rule::SCORE_ROAD_COMPLETED,
                FeatureKind::Garden => rule::ABBOT_SCORE_GARDEN_COMPLETED,
                _ => rule::SCORE_MONASTERY_COMPLETED,
            },
            Note::NextPlayer { .. } => rule::TURN_ORDER,
            Note::BagEmpty => rule::GAME_END,
            Note::EndedEarly { .. } => rule::GAME_ENDED_EARLY,
            Note::ArrowNoTile { .. } => rule::ARROW_NO_TILE,
            Note::ArrowActivated { .. } => rule::ARROW_ACTIVATED,
            Note::ArrowsToChoose { .. } | Note::ArrowChosen { .. } => rule::ARROW_ONE_PER_TURN,
            Note::ArrowSpent { .. } => rule::ARROW_ONCE,
            Note::CompanionPlaced { .. } => rule::COMPANION,
            Note::PortalPlaced { .. } => rule::PORTAL_UNOCCUPIED,
            Note::ExtraTurnGranted | Note::ExtraTurnBegins { .. } => rule::EXTRA_TURN,
            Note::ExtraTurnDenied => rule::EXTRA_TURN_LIMIT,
            Note::StartSquare { .. } => rule::MAP_START_SQUARES,
            Note::LargeCityEdge { .. } | Note::LargeCityConnected { .. } => {
                rule::MAP_LARGE_CITY_EDGE
            }
            Note::Border { print, .. } => {
                if print.is_some() {
                    rule::MAP_BORDER_PRINT
                } else {
                    rule::MAP_BORDER_CLOSES
                }
            }
            Note::TownCovered { .. } => rule::MAP_TOWN,
            Note::TownExtraTurn | Note::TownExtraTurnDenied => rule::MAP_TOWN_EXTRA_TURN,
            Note::TownCost { .. } => rule::MAP_TOWN_COST,
            Note::GiftEarned { .. } => rule::GIFT_RECEIVE,
            Note::GiftNoneLeft { .. } => rule::GIFT_NONE_LEFT,
            Note::GiftDeckReshuffled { .. } => rule::GIFT_RESHUFFLE,
            Note::GiftReceived { .. } => rule::GIFT_DECK,
            Note::GiftOpened { .. } => rule::GIFT_OPEN,
            Note::SynodPlaced { .. } => rule::GIFT_SYNOD,
            Note::RoadSwept { .. } => rule::GIFT_ROAD_SWEEPER,
            Note::PositionChanged { .. } => rule::GIFT_CHANGE_POSITION,
            Note::CashedOut { .. } => rule::GIFT_CASH_OUT,
            Note::TakeTwoDraw | Note::TakeTwoNoTile | Note::TileReturned { .. } => {
                rule::GIFT_TAKE_TWO
            }
            Note::GiftsUnopened { .. } => rule::GIFT_UNOPENED,
            Note::AbbotPlaced { portal: false, .. } => rule::ABBOT_PLACE,
            Note::AbbotPlaced { portal: true, .. } => rule::PORTAL_UNOCCUPIED,
            Note::AbbotTakenBack { .. } => rule::ABBOT_TAKE_BACK,
            Note::RiverContinued { .. } => rule::RIVER_CONTINUE,
            Note::LargeMeeplePlaced { .. } => rule::LARGE_MEEPLE_PLACE,
            Note::BuilderPlaced { .. } => rule::BUILDER_PLACE,
            Note::PigPlaced { .. } => rule::PIG_PLACE,
            Note::DoubleTurn { .. }
            | Note::DoubleTurnDenied { .. }
            | Note::SecondTurnBegins { .. } => rule::BUILDER_DOUBLE_TURN,
            Note::GoodsTaken { .. } => rule::GOODS_TAKE,
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_with(f, &seat_number)
    }
}

impl Note {
    /// The note in words, each seat named by `name` (`Display` names them `seat N`).
    pub fn text_with(&self, name: SeatNamer<'_>) -> String {
        struct Named<'a>(&'a Note, SeatNamer<'a>);
        impl fmt::Display for Named<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write_with(f, self.1)
            }
        }
        Named(self, name).to_string()
    }

    fn write_with(&self, f: &mut fmt::Formatter<'_>, name: SeatNamer<'_>) -> fmt::Result {
        match self {
            Note::StartPlaced { at, rotation } => {
                write!(f, "start tile placed at {at} rotated {rotation}")
            }
            Note::Drew { left } => write!(f, "the tile was in the bag; {left} left"),
            Note::EdgeMatched {
                side,
                terrain,
                neighbour,
            } => write!(
                f,
                "{} side: {} meets {} of the tile at {neighbour}",
                side.word(),
                terrain.word(),
                terrain.word()
            ),
            Note::FitsNowhere => write!(f, "the tile fits on no open square in any rotation"),
            Note::Joined {
                kind,
                count,
                occupied,
            } => {
                let plural = match kind {
                    FeatureKind::City => "cities",
                    FeatureKind::Road => "roads",
                    FeatureKind::Field => "fields",
                    FeatureKind::Monastery => "monasteries",
                    FeatureKind::Garden => "gardens",
                };
                write!(
                    f,
                    "the tile joins {count} separate {plural} into one ({occupied} of them held meeples)"
                )
            }
            Note::MeepleOnFreeFeature { label } => write!(
                f,
                "meeple on {label}: the whole connected feature held no meeple"
            ),
            Note::MeepleSkipped => write!(f, "no meeple placed"),
            Note::Completed { kind, at } => write!(f, "the {kind} through {at} is completed"),
            Note::NextPlayer { seat } => write!(f, "{} plays next", name(*seat)),
            Note::BagEmpty => write!(
                f,
                "the bag is empty: the game ends and final scoring follows"
            ),
            Note::EndedEarly { left } => write!(
                f,
                "the players end the game with {left} tile{} still in the bag: final scoring follows as at the end of the game",
                if *left == 1 { "" } else { "s" }
            ),
            Note::ArrowNoTile {
                symbol,
                side,
                off_board,
            } => write!(
                f,
                "the tile's {symbol} arrow points {} at no tile{}: +2",
                side.word(),
                if *off_board { " (off the board)" } else { "" }
            ),
            Note::ArrowActivated {
                symbol,
                at,
                side,
                filled,
            } => {
                if *filled {
                    write!(f, "the {symbol} arrow of the tile at {at} points {} at the square just filled: it is activated", side.word())
                } else {
                    write!(f, "the tile's {symbol} arrow points {} at a placed tile: it is activated", side.word())
                }
            }
            Note::ArrowsToChoose { count } => write!(
                f,
                "{count} arrows could be activated; at most one per turn, so the player chooses"
            ),
            Note::ArrowChosen { symbol, at } => {
                write!(f, "the player chose the {symbol} arrow of the tile at {at}")
            }
            Note::ArrowSpent { symbol, at } => write!(
                f,
                "the {symbol} arrow of the tile at {at} points at a filled square without being activated: it can never activate"
            ),
            Note::CompanionPlaced { at, label } => write!(
                f,
                "companion: a meeple from supply joins the player's meeple on {label} at {at}"
            ),
            Note::PortalPlaced { at, label } => write!(
                f,
                "portal: meeple on {label} at {at}, an incomplete feature that held no meeple"
            ),
            Note::ExtraTurnGranted => {
                write!(f, "extra turn: the same player takes one more full turn after this one")
            }
            Note::ExtraTurnDenied => write!(
                f,
                "extra-turn arrow activated during an extra turn: no third consecutive turn"
            ),
            Note::ExtraTurnBegins { seat } => write!(f, "{} takes an extra turn", name(*seat)),
            Note::SecondTurnBegins { seat } => {
                write!(f, "{} takes the builder's second turn", name(*seat))
            }
            Note::StartSquare { name } => write!(f, "on the start square {name}"),
            Note::LargeCityEdge { side, city } => write!(
                f,
                "{} side: city meets the printed city of {city}",
                side.word()
            ),
            Note::LargeCityConnected { city } => write!(
                f,
                "the large city {city} is connected: tiles may now be placed next to it"
            ),
            Note::Border {
                side,
                terrain,
                region,
                sea,
                print,
            } => {
                let what = match terrain {
                    Terrain::Road => "road ends",
                    Terrain::City => "city ends",
                    Terrain::Field => "field ends",
                    Terrain::River => "river ends",
                };
                let at = if *sea { "at" } else { "at the border toward" };
                write!(f, "{} side: {what} {at} {region}", side.word())?;
                if let Some(p) = print {
                    write!(
                        f,
                        " and continues into the printed {} ({} segment{}, {} coat{} of arms)",
                        p.terrain.word(),
                        p.segments,
                        if p.segments == 1 { "" } else { "s" },
                        p.coats_of_arms,
                        if p.coats_of_arms == 1 { "" } else { "s" }
                    )?;
                }
                if *terrain != Terrain::Field {
                    write!(f, ": that side is closed")?;
                }
                Ok(())
            }
            Note::TownCovered { name } => write!(f, "the tile covers the town {name}"),
            Note::TownExtraTurn => write!(
                f,
                "town variant: covering a town gives an extra turn after this one"
            ),
            Note::TownExtraTurnDenied => write!(
                f,
                "town variant: no extra turn for a town covered during an extra turn"
            ),
            Note::TownCost { seat } => {
                write!(f, "town variant: covering a town costs {} 2 points", name(*seat))
            }
            Note::GiftEarned { kind, owner } => write!(
                f,
                "the tile extends a {kind} that belongs to {} (majority after placement): one gift",
                name(*owner)
            ),
            Note::GiftNoneLeft { kind, owner } => write!(
                f,
                "the tile extends a {kind} that belongs to {}, but every gift card is in the players' hands: no gift",
                name(*owner)
            ),
            Note::GiftDeckReshuffled { cards } => write!(
                f,
                "the gift deck is empty: the discard pile ({cards} cards) is shuffled into a new deck"
            ),
            Note::GiftReceived { left } => write!(
                f,
                "the player takes the top gift card, face down; {left} left in the deck"
            ),
            Note::GiftOpened { card } => write!(
                f,
                "{card} opened after drawing and before placing (one gift per turn); the card goes to the discard pile"
            ),
            Note::SynodPlaced { at } => write!(
                f,
                "Synod: a meeple from supply joins the incomplete monastery at {at}"
            ),
            Note::RoadSwept { at, label } => write!(
                f,
                "Road Sweeper: the incomplete road through {label} at {at} scores now; all its meeples return"
            ),
            Note::PositionChanged { at, from, to } => write!(
                f,
                "Change Position: the meeple on {from} at {at} moves to {to} of the same tile"
            ),
            Note::CashedOut {
                at,
                label,
                meeples,
            } => write!(
                f,
                "Cash Out: the meeple on {label} at {at} comes back; {meeples} on its feature, 2 points each"
            ),
            Note::TakeTwoDraw => write!(f, "Take 2: a second tile is drawn"),
            Note::RiverContinued { lake: false } => {
                write!(f, "the tile continues the river from its open end")
            }
            Note::RiverContinued { lake: true } => {
                write!(f, "the lake ends the river; land tiles follow")
            }
            Note::TakeTwoNoTile => write!(
                f,
                "Take 2 with an empty bag: no second tile can be drawn; the card is used up"
            ),
            Note::TileReturned { left } => write!(
                f,
                "Take 2: the other tile goes back into the bag; {left} in the bag"
            ),
            Note::GiftsUnopened { seat, cards } => write!(
                f,
                "{} holds {cards} unopened gift{}: 2 points each",
                name(*seat),
                if *cards == 1 { "" } else { "s" }
            ),
            Note::AbbotPlaced {
                at,
                label,
                portal: false,
            } => write!(
                f,
                "abbot from supply on the {label} of the tile just placed at {at}, which held no figure"
            ),
            Note::AbbotPlaced {
                at,
                label,
                portal: true,
            } => write!(
                f,
                "portal: abbot on the {label} at {at}, incomplete and holding no figure"
            ),
            Note::AbbotTakenBack { at, label } => write!(
                f,
                "abbot taken back from the {label} at {at} instead of a meeple, scored at once as an incomplete {label}"
            ),
            Note::LargeMeeplePlaced { label } => write!(
                f,
                "large meeple from supply on {label}, whose feature held no figure; it counts as two meeples there"
            ),
            Note::BuilderPlaced { label } => write!(
                f,
                "builder from supply on {label}, where the player has a meeple; it counts for no majority"
            ),
            Note::PigPlaced { label } => write!(
                f,
                "pig from supply on {label}, where the player has a farmer; it counts for no majority"
            ),
            Note::DoubleTurn { at } => write!(
                f,
                "the tile extends the feature of the player's builder at {at}: a second turn follows"
            ),
            Note::DoubleTurnDenied { at } => write!(
                f,
                "the tile extends the feature of the player's builder at {at}, but this is already a second turn: no third"
            ),
            Note::GoodsTaken { at, goods } => write!(
                f,
                "the city at {at} completed: the player who placed the tile takes {}",
                crate::game::goods_words(goods)
            ),
        }
    }
}
