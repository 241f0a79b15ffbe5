//! What the engine's test files share: the games they search.

use std::sync::Arc;

use carc_rules::{Effects, Game, Phase, Setup, TileSet};
use carc_sim::{play, Strategy};

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
    let sim = play(setup.clone(), seed, strategies).unwrap();
    let mut game = Game::new(setup.clone()).unwrap();
    let mut fx = Effects::quiet();
    let mut out = Vec::new();
    for a in &sim.actions {
        if let Phase::Place { tile } = game.phase() {
            if game.first_placement(tile).is_some() {
                out.push(game.clone());
            }
        }
        game.apply(a, &mut fx).unwrap();
    }
    out
}
