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

pub mod rule;

/// Why an action is rejected. The state it was offered to is left unchanged.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RuleViolation {
    /// A setup [`Game::new`](crate::Game::new) refuses (players outside 1 to 6, meeples outside 1
    /// to 20, a bag listing an unknown tile, an expansion combined with a map board, …), or a
    /// refused redeal of the hidden gift cards.
    #[error("{what}")]
    Setup {
        /// What is wrong, in words.
        what: String,
    },
    /// An action offered in a phase that does not take it, e.g. a meeple before the tile is placed.
    #[error("it is not the time to {action}: the game is waiting for {expected}")]
    WrongPhase {
        /// What the action would do, e.g. `place a meeple`.
        action: &'static str,
        /// What the game waits for now, e.g. `a tile to be drawn`.
        expected: &'static str,
    },
    /// A seat other than the current one acts ([`Game::check_player`](crate::Game::check_player);
    /// actions carry no seat, so `Game::apply` never returns it).
    #[error("{}", self.message_with(&seat_number))]
    NotYourTurn {
        /// The seat whose turn it is, from 0.
        expected: u8,
        /// The seat that tried to act, from 0.
        got: u8,
    },
    /// A tile drawn (or placed as start tile) of which no copy is left in the bag.
    #[error("tile {tile} cannot be drawn: all {holds} cop{} in the game are already out of the bag", if *holds == 1 { "y" } else { "ies" })]
    TileNotInBag {
        /// The id of the tile drawn.
        tile: String,
        /// How many copies the game has in all, every one already out of the bag.
        holds: u16,
    },
    /// A tile that is not in this game's tile set: an id past the set, or a log's tile id no set of
    /// the game has.
    #[error("tile {tile} is not part of this game's tile sets")]
    UnknownTile {
        /// The tile as named: `#N` for an id past the set, else the log's tile id.
        tile: String,
    },
    /// A log places or sets aside a tile other than the one drawn; raised by the `carc-events`
    /// bridge when it reads a log, never by `Game::apply` (a `Place` action carries no tile).
    #[error("the tile placed is {placed}, but the tile drawn is {drawn}")]
    NotTheDrawnTile {
        /// The id of the tile drawn.
        drawn: String,
        /// The tile id the log names.
        placed: String,
    },
    /// A tile placed on a square that already holds one.
    #[error("square {at} already holds tile {tile}")]
    SquareTaken {
        /// The square of the placement.
        at: Pos,
        /// The id of the tile already lying there.
        tile: String,
    },
    /// A tile placed on a square that touches no placed tile along a full edge (corners do not
    /// count; on a map, a connected large city counts as a tile).
    #[error("square {at} touches no placed tile along a full edge")]
    NotAdjacent {
        /// The square of the placement.
        at: Pos,
    },
    /// A tile placed with an edge that does not match its neighbour's: city meets city, road meets
    /// road, field meets field, river meets river.
    #[error("tile {tile} at {at} rotated {rotation}: its {side} side is {ours}, but the neighbour at {neighbour} shows {theirs} on its {facing} side")]
    EdgeMismatch {
        /// The id of the tile placed.
        tile: String,
        /// The square of the placement.
        at: Pos,
        /// The rotation it was placed with.
        rotation: Rotation,
        /// Its side (board orientation) that does not match.
        side: Side,
        /// That side's terrain in words: `field`, `road`, `city` or `river`.
        ours: &'static str,
        /// The square of the neighbouring tile.
        neighbour: Pos,
        /// The terrain the neighbour shows on the facing side, in words.
        theirs: &'static str,
        /// The neighbour's side that faces the tile (the opposite of `side`).
        facing: Side,
    },
    /// The drawn tile set aside although it fits somewhere; the first legal placement found is
    /// named.
    #[error("tile {tile} cannot be set aside: it fits at {at} rotated {rotation}")]
    SetAsideButFits {
        /// The id of the drawn tile.
        tile: String,
        /// A square where it fits.
        at: Pos,
        /// A rotation with which it fits there.
        rotation: Rotation,
    },
    /// A segment label that names no segment of the tile, when a label is resolved to a segment
    /// (e.g. [`Game::resolve_meeple_target`](crate::Game::resolve_meeple_target)).
    #[error("tile {tile} at {at} has no {label}")]
    NoSuchSegment {
        /// The id of the tile looked at.
        tile: String,
        /// The square of that tile.
        at: Pos,
        /// The label that names nothing there (board orientation).
        label: SegmentLabel,
    },
    /// A local segment number past the tile's segments (a meeple, abbot, figure or gift target).
    #[error("tile {tile} at {at} has no segment number {segment} (it has {count})")]
    NoSuchSegmentIndex {
        /// The id of the tile looked at.
        tile: String,
        /// The square of that tile.
        at: Pos,
        /// The segment number given.
        segment: u8,
        /// How many segments the tile has (numbers 0 to `count - 1`).
        count: usize,
    },
    /// A meeple put on a field (directly, through an arrow, or by Change Position) while the option
    /// `farmers` is off.
    #[error("farmers are switched off in this game: no meeple may go on the {label} at {at}")]
    FarmersOff {
        /// The square of the field's tile.
        at: Pos,
        /// The field segment.
        label: SegmentLabel,
    },
    /// A meeple placed (on the tile, through an arrow, or by Synod) while the seat has none left in
    /// supply.
    #[error("{}", self.message_with(&seat_number))]
    NoMeepleLeft {
        /// The seat, from 0.
        player: u8,
    },
    /// A meeple, the large meeple or the abbot on the tile just placed, joining a feature that
    /// already holds a figure anywhere (the player's own included).
    #[error("{}", self.message_with(&seat_number))]
    FeatureOccupied {
        /// The kind of the feature.
        kind: FeatureKind,
        /// The square of the tile the figure was to go on.
        at: Pos,
        /// The segment it was to go on.
        label: SegmentLabel,
        /// The seat of a figure already on the feature, from 0.
        owner: u8,
        /// The square where that figure stands.
        owner_at: Pos,
        /// The segment it stands on.
        owner_label: SegmentLabel,
    },
    /// Any action after the final scoring: the game is over.
    #[error("the game is over: final scoring is done")]
    GameOver,
    /// At the arrow choice (20th Anniversary), an arrow that is not one of the candidates this
    /// placement activates.
    #[error("no arrow of the tile at {at} can be chosen this turn; the arrows this placement activates are: {candidates}")]
    NotAnArrowChoice {
        /// The square of the tile whose arrow was chosen.
        at: Pos,
        /// The candidate arrows in words, comma-separated.
        candidates: String,
    },
    /// A log's arrow choice names a symbol other than the one the arrow on that tile carries;
    /// raised by the `carc-events` bridge when it reads a log, never by `Game::apply`.
    #[error("the arrow of the tile at {at} is a {actual} arrow, not a {named} arrow")]
    ArrowSymbolMismatch {
        /// The square of the arrow's tile.
        at: Pos,
        /// The symbol the log names.
        named: ArrowSymbol,
        /// The symbol the arrow carries.
        actual: ArrowSymbol,
    },
    /// A meeple (or the abbot) sent through an arrow whose symbol was not activated this turn; an
    /// extra-turn arrow never sends one.
    #[error("no {action} arrow was activated this turn ({})", match activated { Some(s) => format!("the activated arrow is a {s} arrow"), None => "no arrow was activated".to_string() })]
    ArrowActionNotActivated {
        /// The arrow action asked for.
        action: ArrowSymbol,
        /// The symbol of the arrow activated this turn, or `None` if none was.
        activated: Option<ArrowSymbol>,
    },
    /// A companion or portal target square (the abbot's too) that holds no tile.
    #[error("{action} target square {at} holds no tile")]
    NoTileAt {
        /// The arrow action that looked there (`Portal` for the abbot).
        action: ArrowSymbol,
        /// The empty square.
        at: Pos,
    },
    /// A companion (20th Anniversary) on a segment where the player has no meeple to stand beside.
    #[error("{}", self.message_with(&seat_number))]
    CompanionNoOwnMeeple {
        /// The seat, from 0.
        player: u8,
        /// The square of the named tile.
        at: Pos,
        /// The named segment.
        label: SegmentLabel,
    },
    /// A companion beside a meeple that already stands beside another through a companion: no third
    /// meeple joins them.
    #[error("{}", self.message_with(&seat_number))]
    CompanionLimit {
        /// The seat, from 0.
        player: u8,
        /// The square of the named tile.
        at: Pos,
        /// The named segment.
        label: SegmentLabel,
    },
    /// A meeple (or the abbot) through a portal onto a feature that already holds a figure
    /// anywhere.
    #[error("{}", self.message_with(&seat_number))]
    PortalOccupied {
        /// The kind of the feature.
        kind: FeatureKind,
        /// The square of the target tile.
        at: Pos,
        /// The target segment.
        label: SegmentLabel,
        /// The seat of a figure already on the feature, from 0.
        owner: u8,
        /// The square where that figure stands.
        owner_at: Pos,
        /// The segment it stands on.
        owner_label: SegmentLabel,
    },
    /// On a map board, a tile on a square that is not one of its printed squares.
    #[error("square {at} is not on the map: tiles go only on its printed squares")]
    OffMap {
        /// The square of the placement.
        at: Pos,
    },
    /// On a map board, a tile on a square of a large city.
    #[error("square {at} is part of the large city {city}: no tile may be placed on a large city")]
    OnLargeCity {
        /// The square of the placement.
        at: Pos,
        /// The large city's name, e.g. `Berlin`.
        city: &'static str,
    },
    /// On a map board, a tile whose edge facing a large city is not city.
    #[error("tile {tile} at {at} rotated {rotation}: its {side} side is {ours}, but it faces the large city {city}, whose edge is city")]
    LargeCityEdgeMismatch {
        /// The id of the tile placed.
        tile: String,
        /// The square of the placement.
        at: Pos,
        /// The rotation it was placed with.
        rotation: Rotation,
        /// Its side (board orientation) facing the large city.
        side: Side,
        /// That side's terrain in words: `field`, `road` or `river`.
        ours: &'static str,
        /// The large city's name.
        city: &'static str,
    },
    /// On a map board, a tile whose edge facing a road or city printed across the border is not the
    /// same.
    #[error("tile {tile} at {at} rotated {rotation}: its {side} side is {ours}, but a {print} is printed across the border toward {region}")]
    BorderPrintMismatch {
        /// The id of the tile placed.
        tile: String,
        /// The square of the placement.
        at: Pos,
        /// The rotation it was placed with.
        rotation: Rotation,
        /// Its side (board orientation) facing the print.
        side: Side,
        /// That side's terrain in words.
        ours: &'static str,
        /// The printed terrain in words: `road` or `city`.
        print: &'static str,
        /// The name of the region abroad, e.g. `Denmark`.
        region: &'static str,
    },
    /// On a map board, a start tile on a square that is not a free start square of the map.
    #[error("square {at} is not a free start square of the map; the start squares are: {squares}")]
    NotAStartSquare {
        /// The square of the placement.
        at: Pos,
        /// The free start squares in words (`Rostock (3,6)`, comma-separated).
        squares: String,
    },
    /// A meeple (or the abbot) through a portal onto a completed feature, this turn's tile included
    /// (fields never are complete).
    #[error("portal target {label} at {at} belongs to a completed {kind}; the portal reaches only incomplete features")]
    PortalCompleted {
        /// The kind of the feature.
        kind: FeatureKind,
        /// The square of the target tile.
        at: Pos,
        /// The target segment.
        label: SegmentLabel,
    },
    /// A log's gift whose targets do not fit the card (one missing or one too many); raised by the
    /// `carc-events` bridge when it reads a log, never by `Game::apply`.
    #[error("{card} {what}")]
    GiftTargetShape {
        /// The card opened.
        card: GiftCard,
        /// What the card takes, in words.
        what: &'static str,
    },
    /// A gift opened while the expansion `gifts` is off.
    #[error("gifts are not part of this game (the expansion \"gifts\" is not on)")]
    GiftsNotInGame,
    /// The card received (chance) is not in the gift deck, or, the deck being empty, not in the
    /// discard pile that becomes the new deck.
    #[error("{card} cannot be the card received: {}", if *reshuffled { format!("the deck is empty and the discard pile that becomes the new deck holds {deck}") } else { format!("the gift deck holds {deck}") })]
    GiftNotInDeck {
        /// The card named as received.
        card: GiftCard,
        /// The cards of that deck (or discard pile), in words.
        deck: String,
        /// Whether the deck was empty, so that `deck` lists the discard pile.
        reshuffled: bool,
    },
    /// The current seat opens a card it does not hold.
    #[error("{}", self.message_with(&seat_number))]
    GiftNotInHand {
        /// The seat, from 0.
        player: u8,
        /// The card opened.
        card: GiftCard,
        /// The cards the seat holds, in words.
        holds: String,
    },
    /// A second gift opened in the same turn: at most one per turn.
    #[error("{}", self.message_with(&seat_number))]
    GiftAlreadyOpened {
        /// The seat, from 0.
        player: u8,
    },
    /// A gift's target square holds no tile.
    #[error("{card} target square {at} holds no tile")]
    GiftNoTileAt {
        /// The card opened.
        card: GiftCard,
        /// The empty square.
        at: Pos,
    },
    /// Synod aimed at a tile without a monastery.
    #[error("Synod needs an incomplete monastery; tile {tile} at {at} has no monastery")]
    SynodNoMonastery {
        /// The square of the tile.
        at: Pos,
        /// The id of that tile.
        tile: String,
    },
    /// Synod aimed at a completed monastery.
    #[error("Synod needs an incomplete monastery; the one at {at} is complete")]
    SynodMonasteryComplete {
        /// The square of the monastery's tile.
        at: Pos,
    },
    /// Road Sweeper aimed at a segment that is not a road.
    #[error("Road Sweeper needs an incomplete road; {label} at {at} is part of a {kind}")]
    SweeperNotRoad {
        /// The square of the tile.
        at: Pos,
        /// The segment named.
        label: SegmentLabel,
        /// The kind of feature it is part of.
        kind: FeatureKind,
    },
    /// Road Sweeper aimed at a completed road.
    #[error("Road Sweeper needs an incomplete road; the road through {label} at {at} is complete")]
    SweeperRoadComplete {
        /// The square of the tile.
        at: Pos,
        /// The road segment named.
        label: SegmentLabel,
    },
    /// Change Position or Cash Out aimed at a segment where the current seat has no meeple.
    #[error("{}", self.message_with(&seat_number))]
    GiftNoOwnMeeple {
        /// The card opened.
        card: GiftCard,
        /// The seat, from 0.
        player: u8,
        /// The square of the tile.
        at: Pos,
        /// The segment named.
        label: SegmentLabel,
    },
    /// Change Position between two places of the same stance: standing to standing (road, city,
    /// monastery) or field to field.
    #[error("Change Position turns a standing meeple into a farmer or a farmer into a standing meeple; {from} to {to} at {at} keeps the stance")]
    ChangePositionSameStance {
        /// The square of the tile.
        at: Pos,
        /// The segment the meeple stands on.
        from: SegmentLabel,
        /// The segment it was to move to.
        to: SegmentLabel,
    },
    /// Change Position stands a farmer up on a completed feature, which would never be scored.
    #[error("Change Position cannot stand a meeple on {label} at {at}: that {kind} is complete and would never be scored")]
    ChangePositionCompleted {
        /// The square of the tile.
        at: Pos,
        /// The segment it was to stand on.
        label: SegmentLabel,
        /// The kind of that feature.
        kind: FeatureKind,
    },
    /// With The River, a start tile other than the spring.
    #[error("the start tile must be the spring {spring} with The River, not {tile}")]
    RiverStartNotSpring {
        /// The id of the start tile offered.
        tile: String,
        /// The spring's id (empty if the tile set has none).
        spring: String,
    },
    /// With The River, a tile drawn out of order: a land tile while river tiles are left, or the
    /// lake before the other river tiles.
    #[error("{tile} cannot be drawn now: {why}")]
    RiverDrawOrder {
        /// The id of the tile drawn.
        tile: String,
        /// The order it breaks, in words.
        why: &'static str,
    },
    /// With The River, a river tile that does not continue the river from its open end.
    #[error("river tile {tile} at {at} does not continue the river: {why}")]
    RiverNotContinued {
        /// The id of the tile placed.
        tile: String,
        /// The square of the placement.
        at: Pos,
        /// Why not, in words (e.g. where the open end is).
        why: String,
    },
    /// With The River, a river tile that turns the river the same way as the previous turn (no
    /// immediate U-turn).
    #[error("river tile {tile} at {at} turns the river {turn} again: no immediate U-turn")]
    RiverUTurn {
        /// The id of the tile placed.
        tile: String,
        /// The square of the placement.
        at: Pos,
        /// The way it turns again: `left` or `right`.
        turn: &'static str,
    },
    /// The abbot placed or taken back while the option `abbot` is off.
    #[error("the abbot is not part of this game (the expansion \"abbot\" is not on)")]
    AbbotNotInGame,
    /// A setup ([`Game::new`](crate::Game::new)) whose tile set has garden copies while the option
    /// `abbot` is off.
    #[error("tile set has garden copies (tile {tile}) but the expansion \"abbot\" is not on")]
    GardenWithoutAbbot {
        /// The id of the first garden copy.
        tile: String,
    },
    /// The abbot placed while it stands on the board.
    #[error("seat {player}'s abbot is not in their supply: it stands on the {label} at {at}")]
    AbbotNotInSupply {
        /// The seat, from 0.
        player: u8,
        /// The square where the abbot stands.
        at: Pos,
        /// The segment it stands on.
        label: SegmentLabel,
    },
    /// The abbot taken back while it is in its owner's supply.
    #[error(
        "seat {player}'s abbot is in their supply, not on the board: there is nothing to take back"
    )]
    AbbotNotOnBoard {
        /// The seat, from 0.
        player: u8,
    },
    /// The abbot taken back from a feature the tile just placed completes: it scores as completed
    /// this turn and the abbot comes home then.
    #[error(
        "the abbot on the {label} at {at} cannot be taken back: the tile just placed completes the {kind}, which scores as completed this turn and sends the abbot home"
    )]
    AbbotFeatureCompleted {
        /// The square where the abbot stands.
        at: Pos,
        /// The segment it stands on.
        label: SegmentLabel,
        /// The kind of that feature: monastery or garden.
        kind: FeatureKind,
    },
    /// A log's abbot take-back names a square where that seat's abbot does not stand; raised by the
    /// `carc-events` bridge when it reads a log, never by `Game::apply`.
    #[error(
        "seat {player}'s abbot stands at {on}, not at {at}: it is taken back from where it stands"
    )]
    AbbotNotOnSquare {
        /// The seat, from 0.
        player: u8,
        /// The square the log names.
        at: Pos,
        /// The square where the abbot stands.
        on: Pos,
    },
    /// The abbot on a segment that is neither a monastery nor a garden.
    #[error("the abbot stands only on a monastery or a garden, not on the {label} at {at}")]
    AbbotWrongFeature {
        /// The square of the tile.
        at: Pos,
        /// The segment named.
        label: SegmentLabel,
    },
    /// A meeple (not the abbot) on a garden: placed, sent through an arrow, or by Change Position.
    #[error("only the abbot may stand on a garden: no meeple on the garden at {at}")]
    MeepleOnGarden {
        /// The square of the garden's tile.
        at: Pos,
    },
    /// The abbot, without a portal, on a tile other than the one just placed.
    #[error("the abbot goes on the tile just placed at {placed}, not at {at} (elsewhere only through an activated portal)")]
    AbbotNotOnPlacedTile {
        /// The square named.
        at: Pos,
        /// The square of the tile just placed.
        placed: Pos,
    },
    /// A gift that puts a meeple where an abbot stands: Synod on the abbot's monastery, or Change
    /// Position onto the abbot's feature.
    #[error("seat {owner}'s abbot stands on the monastery at {at}: no meeple may join it (monk and abbot are not mixed)")]
    AbbotOnMonastery {
        /// The square of the tile the gift names.
        at: Pos,
        /// The seat whose abbot stands there, from 0.
        owner: u8,
    },
    /// The large meeple placed while the option `inns_cathedrals` is off.
    #[error(
        "the large meeple is not part of this game (the expansion \"inns_cathedrals\" is not on)"
    )]
    LargeMeepleNotInGame,
    /// The large meeple placed while it stands on the board.
    #[error("seat {player}'s large meeple is not in their supply: it stands on {label} at {at}")]
    LargeMeepleNotInSupply {
        /// The seat, from 0.
        player: u8,
        /// The square where the large meeple stands.
        at: Pos,
        /// The segment it stands on.
        label: SegmentLabel,
    },
    /// A setup ([`Game::new`](crate::Game::new)) with a tile with an inn or a cathedral while the
    /// option `inns_cathedrals` is off.
    #[error(
        "tile {tile} has an inn or a cathedral, but the expansion \"inns_cathedrals\" is not on"
    )]
    InnsCathedralsOff {
        /// The id of the first such tile.
        tile: String,
    },
    /// The builder or the pig placed while the option `traders_builders` is off.
    #[error("the builder and the pig are not part of this game (the expansion \"traders_builders\" is not on)")]
    TradersBuildersNotInGame,
    /// A setup ([`Game::new`](crate::Game::new)) with a tile showing goods while the option
    /// `traders_builders` is off.
    #[error("tile {tile} shows goods, but the expansion \"traders_builders\" is not on")]
    TradersBuildersOff {
        /// The id of the first such tile.
        tile: String,
    },
    /// The builder or the pig placed while it stands on the board.
    #[error("seat {player}'s {figure} is not in their supply: it stands on {label} at {at}")]
    FigureNotInSupply {
        /// The seat, from 0.
        player: u8,
        /// `builder` or `pig`.
        figure: &'static str,
        /// The square where the figure stands.
        at: Pos,
        /// The segment it stands on.
        label: SegmentLabel,
    },
    /// The builder on neither a road nor a city, or the pig on something other than a field.
    #[error("the {figure} goes only on {wants}, not on the {label} at {at}")]
    FigureWrongFeature {
        /// `builder` or `pig`.
        figure: &'static str,
        /// Where it may go, in words: `a road or a city` or `a field`.
        wants: &'static str,
        /// The square of the tile just placed.
        at: Pos,
        /// The segment named.
        label: SegmentLabel,
    },
    /// The builder or the pig on a feature that holds none of the seat's meeples.
    #[error("the {figure} joins only a feature where seat {player} already has a meeple; the {label} at {at} holds none of theirs")]
    FigureWithoutMeeple {
        /// The seat, from 0.
        player: u8,
        /// `builder` or `pig`.
        figure: &'static str,
        /// The square of the tile just placed.
        at: Pos,
        /// The segment named.
        label: SegmentLabel,
    },
    /// Take 2: the tile returned to the bag is neither of the two drawn.
    #[error("tile {tile} is not one of the two tiles drawn through Take 2 ({first} and {second})")]
    NotATakeTwoTile {
        /// The id of the tile returned.
        tile: String,
        /// The id of the first tile drawn.
        first: String,
        /// The id of the second tile drawn.
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
