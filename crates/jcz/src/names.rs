//! JCloisterZone's names for what carc models that both the reader and the writer use: the
//! base tile sets, the old two-tile-city rule, the end of a forced deal.

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
