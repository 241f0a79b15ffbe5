//! What the engine's test files share: the games they search.

use std::sync::Arc;

use carc_rules::{Game, Setup, TileSet};
use carc_sim::{place_positions, Strategy};

/// `setup` with Traders & Builders: its tiles join the bag and its rules are on.
pub fn traders(mut setup: Setup) -> Setup {
    setup.tiles =
        Arc::new(TileSet::combine(&[(*setup.tiles).clone(), TileSet::traders_builders()]).unwrap());
    setup.options.traders_builders = true;
    setup
}

/// The positions of a simulated game (its seats playing `strategies`) where a drawn tile that
/// fits waits to be placed.
pub fn decisions(setup: &Setup, seed: u64, strategies: &[Strategy]) -> Vec<Game> {
    place_positions(setup, seed, strategies)
        .unwrap()
        .into_iter()
        .filter(|p| p.fits)
        .map(|p| p.game)
        .collect()
}
