//! Games the tests of several modules share: every kind of setup, and a game replayed to a
//! given action.

use carc_rules::{Action, Effects, Game, Setup};

pub(crate) fn anniversary(players: u8) -> Setup {
    let tiles = carc_rules::TileSet::combine(&[
        carc_rules::TileSet::base(),
        carc_rules::TileSet::anniversary(),
    ])
    .unwrap();
    Setup {
        players,
        options: carc_rules::Options {
            anniversary: true,
            ..carc_rules::Options::default()
        },
        tiles: std::sync::Arc::new(tiles),
        bag: None,
        map: None,
    }
}

/// The Abbot: the base set with its garden copies, the option on.
pub(crate) fn abbot(mut setup: Setup) -> Setup {
    setup.tiles = std::sync::Arc::new(setup.tiles.with_gardens());
    setup.options.abbot = true;
    setup
}

/// The River: base + river tiles (plus the anniversary set when `anniversary`), the option on.
pub(crate) fn river(players: u8, anniversary: bool) -> Setup {
    let mut sets = vec![carc_rules::TileSet::base()];
    if anniversary {
        sets.push(carc_rules::TileSet::anniversary());
    }
    sets.push(carc_rules::TileSet::river());
    let tiles = carc_rules::TileSet::combine(&sets).unwrap();
    Setup {
        players,
        options: carc_rules::Options {
            river: true,
            anniversary,
            ..carc_rules::Options::default()
        },
        tiles: std::sync::Arc::new(tiles),
        bag: None,
        map: None,
    }
}

/// Inns & Cathedrals: the setup's tiles and the Inns & Cathedrals set, the option on.
pub(crate) fn inns(mut setup: Setup) -> Setup {
    let tiles = carc_rules::TileSet::combine(&[
        (*setup.tiles).clone(),
        carc_rules::TileSet::inns_cathedrals(),
    ])
    .unwrap();
    setup.tiles = std::sync::Arc::new(tiles);
    setup.options.inns_cathedrals = true;
    setup
}

/// `setup` with Traders & Builders: its tiles join the bag, the expansion is on.
pub(crate) fn traders(mut setup: Setup) -> Setup {
    let tiles = carc_rules::TileSet::combine(&[
        (*setup.tiles).clone(),
        carc_rules::TileSet::traders_builders(),
    ])
    .unwrap();
    setup.tiles = std::sync::Arc::new(tiles);
    setup.options.traders_builders = true;
    setup
}

/// Every expansion and their combination: (name, setup).
pub(crate) fn every_kind_of_game() -> Vec<(&'static str, Setup)> {
    let mut gifts = Setup::base(3);
    gifts.options.gifts = true;
    let mut germany = Setup::base(4);
    germany.options.meeples = 9;
    germany.map = carc_rules::MapBoard::builtin_shared("germany");
    let mut all = anniversary(3);
    all.options.gifts = true;
    all.options.meeples = 9;
    all.options.map.start_squares = 3;
    all.map = carc_rules::MapBoard::builtin_shared("germany");
    let mut abbot_germany = abbot(Setup::base(3));
    abbot_germany.options.meeples = 9;
    abbot_germany.map = carc_rules::MapBoard::builtin_shared("germany");
    let mut abbot_all = abbot(anniversary(4));
    abbot_all.options.gifts = true;
    let mut river_all = abbot(river(3, true));
    river_all.options.gifts = true;
    let inns_all = inns(river_all.clone());
    let traders_all = traders(inns_all.clone());
    vec![
        (
            "traders_builders+inns_cathedrals+river+abbot+anniversary+gifts",
            traders_all,
        ),
        ("inns_cathedrals+river+abbot+anniversary+gifts", inns_all),
        ("base", Setup::base(2)),
        ("river", river(2, false)),
        ("river+abbot+anniversary+gifts", river_all),
        ("abbot", abbot(Setup::base(3))),
        ("abbot+anniversary+gifts", abbot_all),
        ("germany+abbot", abbot_germany),
        ("anniversary", anniversary(4)),
        ("gifts", gifts),
        ("germany", germany),
        ("germany+anniversary+gifts", all),
    ]
}

/// The game after the first `n` actions of `actions`.
pub(crate) fn replayed(setup: &Setup, actions: &[Action], n: usize) -> Game {
    let mut game = Game::new(setup.clone()).unwrap();
    let mut fx = Effects::default();
    for a in &actions[..n] {
        game.apply(a, &mut fx).unwrap();
    }
    game
}
