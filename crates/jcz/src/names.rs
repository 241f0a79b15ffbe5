//! JCloisterZone's names for what carc models that both the reader and the writer use: the
//! tile sets, elements and rule options, the end of a forced deal.

/// JCloisterZone's name of the base-game tile set without garden tiles.
pub(crate) const BASE_SET: &str = "basic:1";
/// The base set as the current box has it: one copy each of eight tiles with a garden (the
/// `…G` variants), the abbot's tile set.
pub(crate) const BASE_SET_GARDENS: &str = "basic:2";
/// The rule option for the old two-tile-city scoring.
pub(crate) const TINY_CITY: &str = "tiny-city-scoring";

/// The end marker JCloisterZone reads at the end of `drawOrder`: the game ends when the
/// tiles before it have been drawn.
pub(crate) const END_OF_DEAL: &str = "#END";

/// The River's tile set (12 tiles, the spring included) as JCloisterZone names it: the first
/// river, without a garden (the client's edition 1).
pub(crate) const RIVER_SET: &str = "river/1:1";
/// The same with one curve (`RI.1/II`) replaced by its garden variant `RI.1/IIG` (edition 2,
/// which JCloisterZone's client picks with the element `garden`).
pub(crate) const RIVER_SET_GARDENS: &str = "river/1:2";
/// The element JCloisterZone's client adds with a river tile set.
pub(crate) const RIVER_ELEMENT: &str = "river";

/// Inns & Cathedrals' tile set (18 tiles) as JCloisterZone names it, without gardens.
pub(crate) const INNS_SET: &str = "inns-and-cathedrals:1";
/// The same with two tiles as garden variants (`IC/CCCCG`, `IC/RFr.iG`), the client's pick
/// with the element `garden`.
pub(crate) const INNS_SET_GARDENS: &str = "inns-and-cathedrals:2";
/// Inns & Cathedrals' elements: one big follower (our large meeple) per player, and the
/// inns' and cathedrals' scoring.
pub(crate) const BIG_FOLLOWER: &str = "big-follower";
pub(crate) const INN: &str = "inn";
pub(crate) const CATHEDRAL: &str = "cathedral";
/// The figure name of the big follower in meeple ids (`"<player>.big.1"`).
pub(crate) const BIG_FIGURE: &str = "big";

/// Traders & Builders' tile set (24 tiles) as JCloisterZone names it, without gardens.
pub(crate) const TRADERS_SET: &str = "traders-and-builders:1";
/// The same with two tiles as garden variants (`TB/CcRR.wG`, `TB/CcR.cG`), the client's pick
/// with the element `garden`.
pub(crate) const TRADERS_SET_GARDENS: &str = "traders-and-builders:2";
/// Traders & Builders' elements: the goods in cities (JCloisterZone's "trade goods"), and one
/// builder and one pig per player.
pub(crate) const TRADERS: &str = "traders";
pub(crate) const BUILDER: &str = "builder";
pub(crate) const PIG: &str = "pig";
/// The figure names of the builder and the pig in meeple ids (`"<player>.builder.1"`,
/// `"<player>.pig.1"`): JCloisterZone's element names.
pub(crate) const BUILDER_FIGURE: &str = BUILDER;
pub(crate) const PIG_FIGURE: &str = PIG;
/// The pig herd (GQ11's promo tiles, JCloisterZone's second river): a field with a herd is
/// worth more to a pig. No tile of the sets carc maps has one, so the element is read and
/// changes nothing.
pub(crate) const PIG_HERD: &str = "pig-herd";
