//! What the engine's test files share: the games they search.

// Each test file is its own crate and uses some of these.
#![allow(dead_code)]

use std::sync::Arc;

use carc_rules::{Game, MapBoard, Options, Setup, TileSet};
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

pub fn with_options(players: u8, f: impl FnOnce(&mut Options)) -> Setup {
    let mut setup = Setup::base(players);
    f(&mut setup.options);
    setup
}

pub fn anniversary(players: u8) -> Setup {
    let mut setup = with_options(players, |o| o.anniversary = true);
    setup.tiles = Arc::new(TileSet::combine(&[TileSet::base(), TileSet::anniversary()]).unwrap());
    setup
}

pub fn abbot(mut setup: Setup) -> Setup {
    setup.tiles = Arc::new(setup.tiles.with_gardens());
    setup.options.abbot = true;
    setup
}

/// The River: base + river tiles, the river dealt first.
pub fn river(players: u8) -> Setup {
    let mut setup = with_options(players, |o| o.river = true);
    setup.tiles = Arc::new(TileSet::combine(&[TileSet::base(), TileSet::river()]).unwrap());
    setup
}

/// Inns & Cathedrals: the setup's tiles and the Inns & Cathedrals set, the option on.
pub fn inns(mut setup: Setup) -> Setup {
    setup.tiles =
        Arc::new(TileSet::combine(&[(*setup.tiles).clone(), TileSet::inns_cathedrals()]).unwrap());
    setup.options.inns_cathedrals = true;
    setup
}

/// Every expansion and map we play, alone and combined.
pub fn every_kind_of_game() -> Vec<(&'static str, Setup)> {
    let mut germany = with_options(2, |o| o.meeples = 9);
    germany.map = MapBoard::builtin_shared("germany");
    let mut all = anniversary(3);
    all.options.gifts = true;
    all.options.meeples = 9;
    all.map = MapBoard::builtin_shared("germany");
    let mut abbot_all = abbot(anniversary(2));
    abbot_all.options.gifts = true;
    let mut river_abbot_gifts = abbot(river(3));
    river_abbot_gifts.options.gifts = true;
    vec![
        ("base 2p", Setup::base(2)),
        ("base 4p", Setup::base(4)),
        ("abbot", abbot(Setup::base(2))),
        ("anniversary", anniversary(2)),
        ("gifts", with_options(3, |o| o.gifts = true)),
        ("germany", germany),
        ("germany+anniversary+gifts", all),
        ("abbot+anniversary+gifts", abbot_all),
        ("river", river(2)),
        ("inns_cathedrals", inns(Setup::base(2))),
        ("river+abbot+gifts", river_abbot_gifts.clone()),
        (
            "traders_builders+inns_cathedrals+river+abbot+gifts",
            traders(inns(river_abbot_gifts.clone())),
        ),
        ("inns_cathedrals+river+abbot+gifts", inns(river_abbot_gifts)),
    ]
}
