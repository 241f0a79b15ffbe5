//! Rule ids, the errors that reject an illegal action, and the notes that say why a legal
//! action was legal (the ruling trace).
//!
//! Every rule id is listed with its text in `docs/rules.md`. The notes and their sentences
//! are in `ruling/note.rs` ([`Note`], re-exported here).

use thiserror::Error;

use crate::geometry::{Pos, Rotation, Side};
use crate::gift_card::GiftCard;
use crate::tileset::{ArrowSymbol, FeatureKind, SegmentLabel};

mod note;
pub use note::Note;

/// How a sentence names a seat. The rules know no names, so [`Note`]s and
/// [`RuleViolation`]s take the caller's namer (the CLI and the viewer pass the players' names
/// from the log's header); `Display` uses [`seat_number`].
pub type SeatNamer<'a> = &'a dyn Fn(u8) -> String;

/// The namer of `Display`: `seat 0`, `seat 1`, … (for callers that know no names).
pub fn seat_number(seat: u8) -> String {
    format!("seat {seat}")
}

/// A stable identifier of a rule, e.g. `base.tile.edges-match`.
pub type RuleId = &'static str;

/// The rule ids of the base game.
pub mod rule {
    use super::RuleId;
    pub const SETUP: RuleId = "base.setup";
    pub const START_TILE: RuleId = "base.setup.start-tile";
    pub const TURN_ORDER: RuleId = "base.turn.order";
    pub const TURN_PHASE: RuleId = "base.turn.phase";
    pub const DRAW_BAG: RuleId = "base.draw.bag";
    pub const TILE_DRAWN: RuleId = "base.tile.drawn";
    pub const TILE_EMPTY_SQUARE: RuleId = "base.tile.empty-square";
    pub const TILE_ADJACENT: RuleId = "base.tile.adjacent";
    pub const TILE_EDGES_MATCH: RuleId = "base.tile.edges-match";
    pub const TILE_SET_ASIDE: RuleId = "base.tile.set-aside";
    pub const MEEPLE_SEGMENT: RuleId = "base.meeple.segment";
    pub const MEEPLE_FARMERS: RuleId = "base.meeple.farmers-option";
    pub const MEEPLE_SUPPLY: RuleId = "base.meeple.supply";
    pub const MEEPLE_OCCUPIED: RuleId = "base.meeple.occupied";
    pub const MEEPLE_OPTIONAL: RuleId = "base.meeple.optional";
    pub const FEATURE_JOINED: RuleId = "base.feature.joined";
    pub const SCORE_ROAD_COMPLETED: RuleId = "base.score.road.completed";
    pub const SCORE_CITY_COMPLETED: RuleId = "base.score.city.completed";
    pub const SCORE_CITY_TWO_TILE: RuleId = "base.score.city.two-tile";
    pub const SCORE_MONASTERY_COMPLETED: RuleId = "base.score.monastery.completed";
    pub const SCORE_ROAD_FINAL: RuleId = "base.score.road.final";
    pub const SCORE_CITY_FINAL: RuleId = "base.score.city.final";
    pub const SCORE_MONASTERY_FINAL: RuleId = "base.score.monastery.final";
    pub const SCORE_FIELD_FINAL: RuleId = "base.score.field.final";
    pub const SCORE_MAJORITY: RuleId = "base.score.majority";
    pub const GAME_END: RuleId = "base.game.end";
    /// The players may end a game between turns before the bag is empty (a game abandoned at
    /// the table): final scoring as at the end.
    pub const GAME_ENDED_EARLY: RuleId = "base.game.ended-early";

    // 20th Anniversary expansion (`shared/rules/anniversary.md`).
    /// A newly placed arrow tile whose arrow points at no tile scores 2 at once.
    pub const ARROW_NO_TILE: RuleId = "anniversary.arrow.no-tile";
    /// An arrow pointing at a placed tile, or whose square a tile fills, is activated.
    pub const ARROW_ACTIVATED: RuleId = "anniversary.arrow.activated";
    /// At most one arrow is activated per turn; with several, the player chooses.
    pub const ARROW_ONE_PER_TURN: RuleId = "anniversary.arrow.one-per-turn";
    /// An arrow is activated at most once: once its square is filled it is spent.
    pub const ARROW_ONCE: RuleId = "anniversary.arrow.once";
    /// Companion: a meeple from supply beside one of your own meeples anywhere.
    pub const COMPANION: RuleId = "anniversary.companion";
    /// Companion: never a third meeple beside two that stand together through a companion.
    pub const COMPANION_LIMIT: RuleId = "anniversary.companion.limit";
    /// Portal: a meeple on any unoccupied feature anywhere.
    pub const PORTAL_UNOCCUPIED: RuleId = "anniversary.portal.unoccupied";
    /// Portal: only incomplete features (fields always count as incomplete).
    pub const PORTAL_INCOMPLETE: RuleId = "anniversary.portal.incomplete";
    /// Extra turn: the same player takes one more full turn.
    pub const EXTRA_TURN: RuleId = "anniversary.extra-turn";
    /// Extra turn: never more than two consecutive turns.
    pub const EXTRA_TURN_LIMIT: RuleId = "anniversary.extra-turn.limit";

    // The Abbot and gardens (`shared/rules/abbot.md`).
    /// The abbot is in the game only with the option `abbot`; garden copies need it too.
    pub const ABBOT_OPTION: RuleId = "abbot.option";
    /// Instead of a meeple, the abbot from supply on the monastery or garden of the tile
    /// just placed (or, through a portal, on any unoccupied incomplete one).
    pub const ABBOT_PLACE: RuleId = "abbot.place";
    /// Only the abbot may stand on a garden; the abbot stands only on a monastery or garden.
    pub const ABBOT_GARDEN: RuleId = "abbot.garden";
    /// A monastery holds a monk or an abbot, never both; a garden holds only the abbot.
    pub const ABBOT_UNOCCUPIED: RuleId = "abbot.unoccupied";
    /// Instead of a meeple, the abbot taken back and scored at once like an incomplete
    /// monastery: 1 + the tiles around it.
    pub const ABBOT_TAKE_BACK: RuleId = "abbot.take-back";
    /// A garden surrounded by eight tiles scores 9 for its abbot at once.
    pub const ABBOT_SCORE_GARDEN_COMPLETED: RuleId = "abbot.score.garden.completed";
    /// At the end, an abbot on a garden scores 1 + the tiles around it.
    pub const ABBOT_SCORE_GARDEN_FINAL: RuleId = "abbot.score.garden.final";

    // The River (`docs/rules.md`, The River).
    /// The River is in the game only with the option `river`; river tiles need it, it needs
    /// one spring and one lake, and it does not combine with a map board.
    pub const RIVER_OPTION: RuleId = "river.option";
    /// The spring is the start tile; the base start tile is removed from the game.
    pub const RIVER_SPRING: RuleId = "river.setup.spring";
    /// River tiles are drawn before every other tile, the lake after the other river tiles.
    pub const RIVER_DRAW_ORDER: RuleId = "river.draw.order";
    /// A river tile continues the river from its open end; river sides meet only river sides.
    pub const RIVER_CONTINUE: RuleId = "river.tile.continue";
    /// No immediate U-turn: the river never turns the same way on two tiles in a row.
    pub const RIVER_NO_U_TURN: RuleId = "river.tile.no-u-turn";

    // Inns & Cathedrals (`docs/rules.md`, Inns & Cathedrals).
    /// Inns & Cathedrals is in the game only with the option `inns_cathedrals`; tiles with an
    /// inn or a cathedral need it, and it does not combine with a map board.
    pub const INNS_OPTION: RuleId = "inns.option";
    /// Instead of a meeple, the player's large meeple from supply on the tile just placed,
    /// wherever a meeple may go (fields included).
    pub const LARGE_MEEPLE_PLACE: RuleId = "inns.large-meeple.place";
    /// The large meeple counts as two meeples when the majority on a feature is decided.
    pub const LARGE_MEEPLE_MAJORITY: RuleId = "inns.large-meeple.majority";
    /// A completed road with at least one inn scores 2 per tile.
    pub const INN_COMPLETED: RuleId = "inns.score.inn.completed";
    /// An incomplete road with an inn scores nothing at the end.
    pub const INN_FINAL: RuleId = "inns.score.inn.final";
    /// A completed city with at least one cathedral scores 3 per tile and 3 per coat of arms.
    pub const CATHEDRAL_COMPLETED: RuleId = "inns.score.cathedral.completed";
    /// An incomplete city with a cathedral scores nothing at the end.
    pub const CATHEDRAL_FINAL: RuleId = "inns.score.cathedral.final";

    // Traders & Builders (`docs/rules.md`, Traders & Builders).
    /// Traders & Builders is in the game only with the option `traders_builders`; tiles with
    /// goods need it, and it does not combine with a map board.
    pub const TB_OPTION: RuleId = "tb.option";
    /// The player who completes a city takes one goods token per goods symbol in it, whoever
    /// holds the city and even if nobody scores it.
    pub const GOODS_TAKE: RuleId = "tb.goods.take";
    /// At the end, for each kind of goods, the player(s) with the most tokens score 10 each.
    pub const GOODS_FINAL: RuleId = "tb.goods.final";
    /// Instead of a meeple, the builder from supply on a road or city of the tile just placed
    /// where the player already has a meeple.
    pub const BUILDER_PLACE: RuleId = "tb.builder.place";
    /// A tile that extends the road or city of the player's builder gives a second turn at
    /// once (one: no chain from the second turn).
    pub const BUILDER_DOUBLE_TURN: RuleId = "tb.builder.double-turn";
    /// The builder goes home when its owner has no meeple left on its feature (when the
    /// feature is scored, or its last meeple leaves otherwise).
    pub const BUILDER_RETURN: RuleId = "tb.builder.return";
    /// Instead of a meeple, the pig from supply on a field of the tile just placed where the
    /// player already has a farmer.
    pub const PIG_PLACE: RuleId = "tb.pig.place";
    /// At the final farm scoring, a player who wins (or ties) a field holding his pig scores
    /// 4 instead of 3 per completed city: 1 more per city.
    pub const PIG_SCORE: RuleId = "tb.pig.score";
    /// The builder and the pig are no meeples: they never count for a majority and never
    /// make a feature occupied.
    pub const TB_NOT_MEEPLES: RuleId = "tb.figures.not-meeples";

    // Carcassonne Maps (`shared/rules/maps-germany.md`).
    /// The start tile goes on one start square, a drawn tile on each other start square used.
    pub const MAP_START_SQUARES: RuleId = "maps.setup.start-squares";
    /// Tiles go only on the printed squares of the map.
    pub const MAP_ON_MAP: RuleId = "maps.tile.on-map";
    /// No tile goes on a large city.
    pub const MAP_LARGE_CITY_BLOCKED: RuleId = "maps.tile.large-city";
    /// An edge facing a large city must be city; the first such tile connects the large city,
    /// which from then on counts as a placed tile for adjacency.
    pub const MAP_LARGE_CITY_EDGE: RuleId = "maps.large-city.edge";
    /// An edge facing a road or city printed abroad must be the same.
    pub const MAP_BORDER_PRINT: RuleId = "maps.border.print";
    /// Roads and cities end at the border of the map (sea, clouds or a country): that side is
    /// closed; printed segments abroad and their coats of arms join the feature.
    pub const MAP_BORDER_CLOSES: RuleId = "maps.border.closes";
    /// Printed coats of arms count in roads as in cities: +2 completed, +1 at the final scoring.
    pub const MAP_SCORE_ROAD: RuleId = "maps.score.road";
    /// Printed large-city squares and city segments abroad count as city tiles.
    pub const MAP_SCORE_CITY: RuleId = "maps.score.city";
    /// A monastery counts only neighbour squares that exist on the map (tiles and large-city
    /// squares); on the border it is complete when those are filled.
    pub const MAP_SCORE_MONASTERY: RuleId = "maps.score.monastery";
    /// Towns are ordinary squares (the variants below are off by default).
    pub const MAP_TOWN: RuleId = "maps.town";
    /// Town variant 1: covering a town gives an extra turn (never a third turn in a row).
    pub const MAP_TOWN_EXTRA_TURN: RuleId = "maps.town.extra-turn";
    /// Town variant 2: covering a town costs 2 points.
    pub const MAP_TOWN_COST: RuleId = "maps.town.cost";
    /// Town variant 3: a scored road earns 2 more per visible town orthogonally next to it.
    pub const MAP_TOWN_ROAD_BONUS: RuleId = "maps.town.road-bonus";
    // The Gifts (`shared/rules/gifts.md`).
    /// Gift actions need the expansion.
    pub const GIFTS_OPTION: RuleId = "gifts.option";
    /// A placement that extends a road or city belonging to another player gives one gift.
    pub const GIFT_RECEIVE: RuleId = "gifts.receive";
    /// No gift when every card is in the players' hands.
    pub const GIFT_NONE_LEFT: RuleId = "gifts.receive.none-left";
    /// The card received comes off the gift deck.
    pub const GIFT_DECK: RuleId = "gifts.deck";
    /// An empty deck: the discard pile is shuffled into a new deck.
    pub const GIFT_RESHUFFLE: RuleId = "gifts.deck.reshuffle";
    /// A gift held is opened after drawing the tile and before placing it.
    pub const GIFT_OPEN: RuleId = "gifts.open";
    /// At most one gift is opened per turn.
    pub const GIFT_OPEN_ONE: RuleId = "gifts.open.one-per-turn";
    /// Synod: a meeple from supply on any incomplete monastery.
    pub const GIFT_SYNOD: RuleId = "gifts.synod";
    /// Road Sweeper: an incomplete road scores now; every meeple on it returns.
    pub const GIFT_ROAD_SWEEPER: RuleId = "gifts.road-sweeper";
    /// Change Position: standing ↔ lying on the same tile.
    pub const GIFT_CHANGE_POSITION: RuleId = "gifts.change-position";
    /// Cash Out: a meeple comes back, 2 points per meeple on its feature.
    pub const GIFT_CASH_OUT: RuleId = "gifts.cash-out";
    /// Take 2: a second tile; one is placed, the other returns to the bag.
    pub const GIFT_TAKE_TWO: RuleId = "gifts.take-2";
    /// 2 points per unopened gift at the end.
    pub const GIFT_UNOPENED: RuleId = "gifts.final.unopened";
}

/// Why an action is rejected. The state it was offered to is left unchanged.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RuleViolation {
    #[error("{what}")]
    Setup { what: String },
    #[error("it is not the time to {action}: the game is waiting for {expected}")]
    WrongPhase {
        action: &'static str,
        expected: &'static str,
    },
    #[error("{}", self.message_with(&seat_number))]
    NotYourTurn { expected: u8, got: u8 },
    #[error("tile {tile} cannot be drawn: all {holds} cop{} in the game are already out of the bag", if *holds == 1 { "y" } else { "ies" })]
    TileNotInBag { tile: String, holds: u16 },
    #[error("tile {tile} is not part of this game's tile sets")]
    UnknownTile { tile: String },
    #[error("the tile placed is {placed}, but the tile drawn is {drawn}")]
    NotTheDrawnTile { drawn: String, placed: String },
    #[error("square {at} already holds tile {tile}")]
    SquareTaken { at: Pos, tile: String },
    #[error("square {at} touches no placed tile along a full edge")]
    NotAdjacent { at: Pos },
    #[error("tile {tile} at {at} rotated {rotation}: its {side} side is {ours}, but the neighbour at {neighbour} shows {theirs} on its {facing} side")]
    EdgeMismatch {
        tile: String,
        at: Pos,
        rotation: Rotation,
        side: Side,
        ours: &'static str,
        neighbour: Pos,
        theirs: &'static str,
        facing: Side,
    },
    #[error("tile {tile} cannot be set aside: it fits at {at} rotated {rotation}")]
    SetAsideButFits {
        tile: String,
        at: Pos,
        rotation: Rotation,
    },
    #[error("tile {tile} at {at} has no {label}")]
    NoSuchSegment {
        tile: String,
        at: Pos,
        label: SegmentLabel,
    },
    #[error("tile {tile} at {at} has no segment number {segment} (it has {count})")]
    NoSuchSegmentIndex {
        tile: String,
        at: Pos,
        segment: u8,
        count: usize,
    },
    #[error("farmers are switched off in this game: no meeple may go on the {label} at {at}")]
    FarmersOff { at: Pos, label: SegmentLabel },
    #[error("{}", self.message_with(&seat_number))]
    NoMeepleLeft { player: u8 },
    #[error("{}", self.message_with(&seat_number))]
    FeatureOccupied {
        kind: FeatureKind,
        at: Pos,
        label: SegmentLabel,
        owner: u8,
        owner_at: Pos,
        owner_label: SegmentLabel,
    },
    #[error("the game is over: final scoring is done")]
    GameOver,
    #[error("no arrow of the tile at {at} can be chosen this turn; the arrows this placement activates are: {candidates}")]
    NotAnArrowChoice { at: Pos, candidates: String },
    #[error("the arrow of the tile at {at} is a {actual} arrow, not a {named} arrow")]
    ArrowSymbolMismatch {
        at: Pos,
        named: ArrowSymbol,
        actual: ArrowSymbol,
    },
    #[error("no {action} arrow was activated this turn ({})", match activated { Some(s) => format!("the activated arrow is a {s} arrow"), None => "no arrow was activated".to_string() })]
    ArrowActionNotActivated {
        action: ArrowSymbol,
        activated: Option<ArrowSymbol>,
    },
    #[error("{action} target square {at} holds no tile")]
    NoTileAt { action: ArrowSymbol, at: Pos },
    #[error("{}", self.message_with(&seat_number))]
    CompanionNoOwnMeeple {
        player: u8,
        at: Pos,
        label: SegmentLabel,
    },
    #[error("{}", self.message_with(&seat_number))]
    CompanionLimit {
        player: u8,
        at: Pos,
        label: SegmentLabel,
    },
    #[error("{}", self.message_with(&seat_number))]
    PortalOccupied {
        kind: FeatureKind,
        at: Pos,
        label: SegmentLabel,
        owner: u8,
        owner_at: Pos,
        owner_label: SegmentLabel,
    },
    #[error("square {at} is not on the map: tiles go only on its printed squares")]
    OffMap { at: Pos },
    #[error("square {at} is part of the large city {city}: no tile may be placed on a large city")]
    OnLargeCity { at: Pos, city: &'static str },
    #[error("tile {tile} at {at} rotated {rotation}: its {side} side is {ours}, but it faces the large city {city}, whose edge is city")]
    LargeCityEdgeMismatch {
        tile: String,
        at: Pos,
        rotation: Rotation,
        side: Side,
        ours: &'static str,
        city: &'static str,
    },
    #[error("tile {tile} at {at} rotated {rotation}: its {side} side is {ours}, but a {print} is printed across the border toward {region}")]
    BorderPrintMismatch {
        tile: String,
        at: Pos,
        rotation: Rotation,
        side: Side,
        ours: &'static str,
        print: &'static str,
        region: &'static str,
    },
    #[error("square {at} is not a free start square of the map; the start squares are: {squares}")]
    NotAStartSquare { at: Pos, squares: String },
    #[error("portal target {label} at {at} belongs to a completed {kind}; the portal reaches only incomplete features")]
    PortalCompleted {
        kind: FeatureKind,
        at: Pos,
        label: SegmentLabel,
    },
    #[error("{card} {what}")]
    GiftTargetShape { card: GiftCard, what: &'static str },
    #[error("gifts are not part of this game (the expansion \"gifts\" is not on)")]
    GiftsNotInGame,
    #[error("{card} cannot be the card received: {}", if *reshuffled { format!("the deck is empty and the discard pile that becomes the new deck holds {deck}") } else { format!("the gift deck holds {deck}") })]
    GiftNotInDeck {
        card: GiftCard,
        deck: String,
        reshuffled: bool,
    },
    #[error("{}", self.message_with(&seat_number))]
    GiftNotInHand {
        player: u8,
        card: GiftCard,
        holds: String,
    },
    #[error("{}", self.message_with(&seat_number))]
    GiftAlreadyOpened { player: u8 },
    #[error("{card} target square {at} holds no tile")]
    GiftNoTileAt { card: GiftCard, at: Pos },
    #[error("Synod needs an incomplete monastery; tile {tile} at {at} has no monastery")]
    SynodNoMonastery { at: Pos, tile: String },
    #[error("Synod needs an incomplete monastery; the one at {at} is complete")]
    SynodMonasteryComplete { at: Pos },
    #[error("Road Sweeper needs an incomplete road; {label} at {at} is part of a {kind}")]
    SweeperNotRoad {
        at: Pos,
        label: SegmentLabel,
        kind: FeatureKind,
    },
    #[error("Road Sweeper needs an incomplete road; the road through {label} at {at} is complete")]
    SweeperRoadComplete { at: Pos, label: SegmentLabel },
    #[error("{}", self.message_with(&seat_number))]
    GiftNoOwnMeeple {
        card: GiftCard,
        player: u8,
        at: Pos,
        label: SegmentLabel,
    },
    #[error("Change Position turns a standing meeple into a farmer or a farmer into a standing meeple; {from} to {to} at {at} keeps the stance")]
    ChangePositionSameStance {
        at: Pos,
        from: SegmentLabel,
        to: SegmentLabel,
    },
    #[error("Change Position cannot stand a meeple on {label} at {at}: that {kind} is complete and would never be scored")]
    ChangePositionCompleted {
        at: Pos,
        label: SegmentLabel,
        kind: FeatureKind,
    },
    #[error("the start tile must be the spring {spring} with The River, not {tile}")]
    RiverStartNotSpring { tile: String, spring: String },
    #[error("{tile} cannot be drawn now: {why}")]
    RiverDrawOrder { tile: String, why: &'static str },
    #[error("river tile {tile} at {at} does not continue the river: {why}")]
    RiverNotContinued { tile: String, at: Pos, why: String },
    #[error("river tile {tile} at {at} turns the river {turn} again: no immediate U-turn")]
    RiverUTurn {
        tile: String,
        at: Pos,
        turn: &'static str,
    },
    #[error("the abbot is not part of this game (the expansion \"abbot\" is not on)")]
    AbbotNotInGame,
    #[error("tile set has garden copies (tile {tile}) but the expansion \"abbot\" is not on")]
    GardenWithoutAbbot { tile: String },
    #[error("seat {player}'s abbot is not in their supply: it stands on the {label} at {at}")]
    AbbotNotInSupply {
        player: u8,
        at: Pos,
        label: SegmentLabel,
    },
    #[error(
        "seat {player}'s abbot is in their supply, not on the board: there is nothing to take back"
    )]
    AbbotNotOnBoard { player: u8 },
    #[error(
        "the abbot on the {label} at {at} cannot be taken back: the tile just placed completes the {kind}, which scores as completed this turn and sends the abbot home"
    )]
    AbbotFeatureCompleted {
        at: Pos,
        label: SegmentLabel,
        kind: FeatureKind,
    },
    #[error(
        "seat {player}'s abbot stands at {on}, not at {at}: it is taken back from where it stands"
    )]
    AbbotNotOnSquare { player: u8, at: Pos, on: Pos },
    #[error("the abbot stands only on a monastery or a garden, not on the {label} at {at}")]
    AbbotWrongFeature { at: Pos, label: SegmentLabel },
    #[error("only the abbot may stand on a garden: no meeple on the garden at {at}")]
    MeepleOnGarden { at: Pos },
    #[error("the abbot goes on the tile just placed at {placed}, not at {at} (elsewhere only through an activated portal)")]
    AbbotNotOnPlacedTile { at: Pos, placed: Pos },
    #[error("seat {owner}'s abbot stands on the monastery at {at}: no meeple may join it (monk and abbot are not mixed)")]
    AbbotOnMonastery { at: Pos, owner: u8 },
    #[error(
        "the large meeple is not part of this game (the expansion \"inns_cathedrals\" is not on)"
    )]
    LargeMeepleNotInGame,
    #[error("seat {player}'s large meeple is not in their supply: it stands on {label} at {at}")]
    LargeMeepleNotInSupply {
        player: u8,
        at: Pos,
        label: SegmentLabel,
    },
    #[error(
        "tile {tile} has an inn or a cathedral, but the expansion \"inns_cathedrals\" is not on"
    )]
    InnsCathedralsOff { tile: String },
    #[error("the builder and the pig are not part of this game (the expansion \"traders_builders\" is not on)")]
    TradersBuildersNotInGame,
    #[error("tile {tile} shows goods, but the expansion \"traders_builders\" is not on")]
    TradersBuildersOff { tile: String },
    #[error("seat {player}'s {figure} is not in their supply: it stands on {label} at {at}")]
    FigureNotInSupply {
        player: u8,
        figure: &'static str,
        at: Pos,
        label: SegmentLabel,
    },
    #[error("the {figure} goes only on {wants}, not on the {label} at {at}")]
    FigureWrongFeature {
        figure: &'static str,
        wants: &'static str,
        at: Pos,
        label: SegmentLabel,
    },
    #[error("the {figure} joins only a feature where seat {player} already has a meeple; the {label} at {at} holds none of theirs")]
    FigureWithoutMeeple {
        player: u8,
        figure: &'static str,
        at: Pos,
        label: SegmentLabel,
    },
    #[error("tile {tile} is not one of the two tiles drawn through Take 2 ({first} and {second})")]
    NotATakeTwoTile {
        tile: String,
        first: String,
        second: String,
    },
}

impl RuleViolation {
    /// The violation in words, each seat named by `name` (`Display` names them `seat N`).
    /// The sentences that name a seat are written here, once.
    pub fn message_with(&self, name: SeatNamer<'_>) -> String {
        use RuleViolation::*;
        match self {
            NotYourTurn { expected, got } => {
                format!("it is {}'s turn, not {}'s", name(*expected), name(*got))
            }
            NoMeepleLeft { player } => format!("{} has no meeple left in supply", name(*player)),
            FeatureOccupied {
                kind,
                at,
                label,
                owner,
                owner_at,
                owner_label,
            } => format!(
                "the {kind} joined to {label} at {at} is already occupied by {}'s meeple on {owner_label} at {owner_at}",
                name(*owner)
            ),
            CompanionNoOwnMeeple { player, at, label } => format!(
                "companion: {} has no meeple on {label} at {at} to stand beside",
                name(*player)
            ),
            CompanionLimit { player, at, label } => format!(
                "companion: {}'s meeple on {label} at {at} already stands beside another through a companion; no third meeple may join them",
                name(*player)
            ),
            PortalOccupied {
                kind,
                at,
                label,
                owner,
                owner_at,
                owner_label,
            } => format!(
                "portal target already occupied: the {kind} joined to {label} at {at} holds {}'s meeple on {owner_label} at {owner_at}",
                name(*owner)
            ),
            GiftNotInHand {
                player,
                card,
                holds,
            } => format!(
                "{} holds no {card} gift (their gifts: {holds})",
                name(*player)
            ),
            GiftAlreadyOpened { player } => format!(
                "{} has already opened a gift this turn; at most one per turn",
                name(*player)
            ),
            GiftNoOwnMeeple {
                card,
                player,
                at,
                label,
            } => format!("{card}: {} has no meeple on {label} at {at}", name(*player)),
            // No seat in these sentences: `Display` (thiserror) words them.
            _ => self.to_string(),
        }
    }

    /// The rule this violation breaks.
    pub fn rule(&self) -> RuleId {
        use RuleViolation::*;
        match self {
            Setup { .. } => rule::SETUP,
            WrongPhase { .. } => rule::TURN_PHASE,
            NotYourTurn { .. } => rule::TURN_ORDER,
            TileNotInBag { .. } | UnknownTile { .. } => rule::DRAW_BAG,
            NotTheDrawnTile { .. } => rule::TILE_DRAWN,
            SquareTaken { .. } => rule::TILE_EMPTY_SQUARE,
            NotAdjacent { .. } => rule::TILE_ADJACENT,
            EdgeMismatch { .. } => rule::TILE_EDGES_MATCH,
            SetAsideButFits { .. } => rule::TILE_SET_ASIDE,
            NoSuchSegment { .. } | NoSuchSegmentIndex { .. } => rule::MEEPLE_SEGMENT,
            FarmersOff { .. } => rule::MEEPLE_FARMERS,
            NoMeepleLeft { .. } => rule::MEEPLE_SUPPLY,
            FeatureOccupied { .. } => rule::MEEPLE_OCCUPIED,
            GameOver => rule::GAME_END,
            NotAnArrowChoice { .. } => rule::ARROW_ONE_PER_TURN,
            ArrowSymbolMismatch { .. } | ArrowActionNotActivated { .. } => rule::ARROW_ACTIVATED,
            NoTileAt { action, .. } => match action {
                ArrowSymbol::Companion => rule::COMPANION,
                _ => rule::PORTAL_UNOCCUPIED,
            },
            CompanionNoOwnMeeple { .. } => rule::COMPANION,
            CompanionLimit { .. } => rule::COMPANION_LIMIT,
            PortalOccupied { .. } => rule::PORTAL_UNOCCUPIED,
            PortalCompleted { .. } => rule::PORTAL_INCOMPLETE,
            OffMap { .. } => rule::MAP_ON_MAP,
            OnLargeCity { .. } => rule::MAP_LARGE_CITY_BLOCKED,
            LargeCityEdgeMismatch { .. } => rule::MAP_LARGE_CITY_EDGE,
            BorderPrintMismatch { .. } => rule::MAP_BORDER_PRINT,
            NotAStartSquare { .. } => rule::MAP_START_SQUARES,
            GiftsNotInGame => rule::GIFTS_OPTION,
            GiftNotInDeck { .. } => rule::GIFT_DECK,
            GiftTargetShape { card, .. } => gift_rule(*card),
            GiftNotInHand { .. } => rule::GIFT_OPEN,
            GiftAlreadyOpened { .. } => rule::GIFT_OPEN_ONE,
            GiftNoTileAt { card, .. } | GiftNoOwnMeeple { card, .. } => gift_rule(*card),
            SynodNoMonastery { .. } | SynodMonasteryComplete { .. } => rule::GIFT_SYNOD,
            SweeperNotRoad { .. } | SweeperRoadComplete { .. } => rule::GIFT_ROAD_SWEEPER,
            ChangePositionSameStance { .. } | ChangePositionCompleted { .. } => {
                rule::GIFT_CHANGE_POSITION
            }
            NotATakeTwoTile { .. } => rule::GIFT_TAKE_TWO,
            AbbotNotInGame | GardenWithoutAbbot { .. } => rule::ABBOT_OPTION,
            RiverStartNotSpring { .. } => rule::RIVER_SPRING,
            RiverDrawOrder { .. } => rule::RIVER_DRAW_ORDER,
            RiverNotContinued { .. } => rule::RIVER_CONTINUE,
            RiverUTurn { .. } => rule::RIVER_NO_U_TURN,
            AbbotNotInSupply { .. } | AbbotNotOnPlacedTile { .. } => rule::ABBOT_PLACE,
            AbbotNotOnBoard { .. } | AbbotNotOnSquare { .. } | AbbotFeatureCompleted { .. } => {
                rule::ABBOT_TAKE_BACK
            }
            AbbotWrongFeature { .. } | MeepleOnGarden { .. } => rule::ABBOT_GARDEN,
            AbbotOnMonastery { .. } => rule::ABBOT_UNOCCUPIED,
            LargeMeepleNotInGame | InnsCathedralsOff { .. } => rule::INNS_OPTION,
            LargeMeepleNotInSupply { .. } => rule::LARGE_MEEPLE_PLACE,
            TradersBuildersNotInGame | TradersBuildersOff { .. } => rule::TB_OPTION,
            FigureNotInSupply { figure, .. }
            | FigureWrongFeature { figure, .. }
            | FigureWithoutMeeple { figure, .. } => {
                if *figure == "pig" {
                    rule::PIG_PLACE
                } else {
                    rule::BUILDER_PLACE
                }
            }
        }
    }
}

/// The rule of a gift card's action.
pub fn gift_rule(card: GiftCard) -> RuleId {
    match card {
        GiftCard::Synod => rule::GIFT_SYNOD,
        GiftCard::RoadSweeper => rule::GIFT_ROAD_SWEEPER,
        GiftCard::ChangePosition => rule::GIFT_CHANGE_POSITION,
        GiftCard::CashOut => rule::GIFT_CASH_OUT,
        GiftCard::TakeTwo => rule::GIFT_TAKE_TWO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seat 0 is a player who chose the name "seat 1": only a namer gets that right, never a
    /// rewrite of "seat N" in the finished sentence.
    fn names(seat: u8) -> String {
        ["seat 1", "Ada"][usize::from(seat)].to_string()
    }

    #[test]
    fn violations_name_seats_through_the_namer_and_display_numbers_them() {
        let v = RuleViolation::NotYourTurn {
            expected: 0,
            got: 1,
        };
        assert_eq!(v.message_with(&names), "it is seat 1's turn, not Ada's");
        assert_eq!(v.to_string(), "it is seat 0's turn, not seat 1's");
        let v = RuleViolation::NoMeepleLeft { player: 1 };
        assert_eq!(v.message_with(&names), "Ada has no meeple left in supply");
        // A sentence without a seat reads the same either way.
        let v = RuleViolation::GameOver;
        assert_eq!(v.message_with(&names), v.to_string());
    }

    #[test]
    fn notes_name_seats_through_the_namer_and_display_numbers_them() {
        let n = Note::NextPlayer { seat: 0 };
        assert_eq!(n.text_with(&names), "seat 1 plays next");
        assert_eq!(
            Note::NextPlayer { seat: 1 }.text_with(&names),
            "Ada plays next"
        );
        assert_eq!(n.to_string(), "seat 0 plays next");
        let n = Note::GiftsUnopened { seat: 1, cards: 2 };
        assert_eq!(
            n.text_with(&names),
            "Ada holds 2 unopened gifts: 2 points each"
        );
    }
}
