//! The rule ids, each with its text in `docs/rules.md`.

use super::RuleId;

/// Setup: 1 to 6 players, 1 to 20 meeples each, a two-tile city worth 2 or 4, a non-empty bag
/// of known tiles; tile sets an expansion needs only with that expansion on.
pub const SETUP: RuleId = "base.setup";
/// The first action places the start tile.
pub const START_TILE: RuleId = "base.setup.start-tile";
/// Only the seat whose turn it is acts.
pub const TURN_ORDER: RuleId = "base.turn.order";
/// Actions come in turn order: draw, place (or set aside), meeple.
pub const TURN_PHASE: RuleId = "base.turn.phase";
/// A drawn tile must still be in the bag; tiles unknown to the game are refused.
pub const DRAW_BAG: RuleId = "base.draw.bag";
/// The tile placed or set aside is the tile drawn.
pub const TILE_DRAWN: RuleId = "base.tile.drawn";
/// One tile per square.
pub const TILE_EMPTY_SQUARE: RuleId = "base.tile.empty-square";
/// A tile touches a placed tile along a full edge; corners do not count.
pub const TILE_ADJACENT: RuleId = "base.tile.adjacent";
/// Every touching edge matches: city–city, road–road, field–field.
pub const TILE_EDGES_MATCH: RuleId = "base.tile.edges-match";
/// A tile may be set aside only if it fits nowhere; it leaves the game for good.
pub const TILE_SET_ASIDE: RuleId = "base.tile.set-aside";
/// The meeple goes on a segment of the tile just placed.
pub const MEEPLE_SEGMENT: RuleId = "base.meeple.segment";
/// With the option `farmers` off, no meeple goes on a field.
pub const MEEPLE_FARMERS: RuleId = "base.meeple.farmers-option";
/// A meeple placed must come from the seat's supply (7 each by default).
pub const MEEPLE_SUPPLY: RuleId = "base.meeple.supply";
/// The whole connected feature, as it stands after the tile, must hold no meeple, the
/// player's own included.
pub const MEEPLE_OCCUPIED: RuleId = "base.meeple.occupied";
/// Placing a meeple is optional.
pub const MEEPLE_OPTIONAL: RuleId = "base.meeple.optional";
/// A tile may join features that are already occupied; they become one shared feature.
pub const FEATURE_JOINED: RuleId = "base.feature.joined";
/// A completed road (every end closed, or a loop) scores 1 per tile.
pub const SCORE_ROAD_COMPLETED: RuleId = "base.score.road.completed";
/// A completed city (no open city side) scores 2 per tile and 2 per coat of arms.
pub const SCORE_CITY_COMPLETED: RuleId = "base.score.city.completed";
/// Option `two_tile_city: 2` (old rules): a completed city of exactly two tiles scores 2.
pub const SCORE_CITY_TWO_TILE: RuleId = "base.score.city.two-tile";
/// A monastery whose eight surrounding squares all hold tiles scores 9.
pub const SCORE_MONASTERY_COMPLETED: RuleId = "base.score.monastery.completed";
/// At the end, an incomplete road scores 1 per tile.
pub const SCORE_ROAD_FINAL: RuleId = "base.score.road.final";
/// At the end, an incomplete city scores 1 per tile and 1 per coat of arms.
pub const SCORE_CITY_FINAL: RuleId = "base.score.city.final";
/// At the end, an incomplete monastery scores 1 + the tiles around it.
pub const SCORE_MONASTERY_FINAL: RuleId = "base.score.monastery.final";
/// At the end, each field scores 3 per completed city it touches.
pub const SCORE_FIELD_FINAL: RuleId = "base.score.field.final";
/// Only the seat(s) with the most meeples on a feature score, tied seats in full; every
/// meeple on a scored feature returns.
pub const SCORE_MAJORITY: RuleId = "base.score.majority";
/// No action after the final scoring.
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
