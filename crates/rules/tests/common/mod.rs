//! A small table to set up positions in tests: a start tile, then turns given as
//! (tile, square, rotation, meeple).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_rules::*;

pub struct Table {
    pub game: Game,
    pub fx: Effects,
}

/// A game with only the listed tiles in the bag (plus the start tile D at (0,0), rotation 0).
pub fn table(players: u8, bag: &[(&str, u16)]) -> Table {
    table_with(players, bag, Options::default())
}

/// Base + 20th Anniversary tiles with the expansion on; only the listed tiles in the bag (plus
/// the start tile D at `start`, rotation 0).
pub fn anniversary_table_at(players: u8, bag: &[(&str, u16)], start: Pos) -> Table {
    let tiles = TileSet::combine(&[TileSet::base(), TileSet::anniversary()]).unwrap();
    let options = Options {
        anniversary: true,
        ..Options::default()
    };
    table_from(players, bag, options, Arc::new(tiles), start)
}

/// [`anniversary_table_at`] with the start tile at (0,0).
pub fn anniversary_table(players: u8, bag: &[(&str, u16)]) -> Table {
    anniversary_table_at(players, bag, Pos::new(0, 0))
}

/// The base set split for The Abbot (garden copies `E+garden` etc.), plus the 20th
/// Anniversary set when `options.anniversary`; only the listed tiles in the bag (plus the
/// start tile D at (0,0), rotation 0). `options.abbot` is switched on.
pub fn abbot_table(players: u8, bag: &[(&str, u16)], options: Options) -> Table {
    let base = TileSet::base().with_gardens();
    let tiles = if options.anniversary {
        TileSet::combine(&[base, TileSet::anniversary()]).unwrap()
    } else {
        base
    };
    let options = Options {
        abbot: true,
        ..options
    };
    table_from(players, bag, options, Arc::new(tiles), Pos::new(0, 0))
}

/// Base + River tiles with the river on; only the listed tiles in the bag (plus the spring RS
/// at (0,0), rotation 0: its river leaves by the south side).
pub fn river_table(players: u8, bag: &[(&str, u16)], options: Options) -> Table {
    let tiles = TileSet::combine(&[TileSet::base(), TileSet::river()]).unwrap();
    let mut counts: BTreeMap<String, u16> = BTreeMap::new();
    counts.insert("RS".into(), 1);
    for (id, n) in bag {
        *counts.entry((*id).into()).or_default() += n;
    }
    let setup = Setup {
        players,
        options: Options {
            river: true,
            ..options
        },
        tiles: Arc::new(tiles),
        bag: Some(counts),
        map: None,
    };
    let mut game = Game::new(setup).expect("valid setup");
    let mut fx = Effects::default();
    let rs = game.tiles().find("RS").unwrap();
    game.apply(
        &Action::PlaceStart {
            tile: rs,
            at: Pos::new(0, 0),
            rotation: Rotation::default(),
        },
        &mut fx,
    )
    .expect("the spring");
    Table { game, fx }
}

/// Base + Inns & Cathedrals tiles with the expansion on; only the listed tiles in the bag
/// (plus the start tile D at (0,0), rotation 0).
pub fn inns_table(players: u8, bag: &[(&str, u16)], options: Options) -> Table {
    let tiles = TileSet::combine(&[TileSet::base(), TileSet::inns_cathedrals()]).unwrap();
    let options = Options {
        inns_cathedrals: true,
        ..options
    };
    table_from(players, bag, options, Arc::new(tiles), Pos::new(0, 0))
}

/// Base + Traders & Builders tiles with the expansion on; only the listed tiles in the bag
/// (plus the start tile D at (0,0), rotation 0).
pub fn traders_table(players: u8, bag: &[(&str, u16)], options: Options) -> Table {
    let tiles = TileSet::combine(&[TileSet::base(), TileSet::traders_builders()]).unwrap();
    let options = Options {
        traders_builders: true,
        ..options
    };
    table_from(players, bag, options, Arc::new(tiles), Pos::new(0, 0))
}

pub fn table_with(players: u8, bag: &[(&str, u16)], options: Options) -> Table {
    table_from(
        players,
        bag,
        options,
        Arc::new(TileSet::base()),
        Pos::new(0, 0),
    )
}

fn table_from(
    players: u8,
    bag: &[(&str, u16)],
    options: Options,
    tiles: Arc<TileSet>,
    start: Pos,
) -> Table {
    let mut counts: BTreeMap<String, u16> = BTreeMap::new();
    *counts.entry("D".into()).or_default() += 1;
    for (id, n) in bag {
        *counts.entry((*id).into()).or_default() += n;
    }
    let setup = Setup {
        players,
        options,
        tiles,
        bag: Some(counts),
        map: None,
    };
    let mut game = Game::new(setup).expect("valid setup");
    let mut fx = Effects::default();
    let d = game.tiles().find("D").unwrap();
    game.apply(
        &Action::PlaceStart {
            tile: d,
            at: start,
            rotation: Rotation::default(),
        },
        &mut fx,
    )
    .expect("start tile");
    Table { game, fx }
}

pub fn rot(degrees: u32) -> Rotation {
    Rotation::from_degrees(degrees).unwrap()
}

impl Table {
    pub fn id(&self, tile: &str) -> TileTypeId {
        self.game.tiles().find(tile).expect("known tile")
    }

    pub fn draw(&mut self, tile: &str) -> Result<(), RuleViolation> {
        let tile = self.id(tile);
        self.game.apply(&Action::Draw { tile }, &mut self.fx)
    }

    pub fn place(&mut self, x: i32, y: i32, degrees: u32) -> Result<(), RuleViolation> {
        self.game.apply(
            &Action::Place {
                at: Pos::new(x, y),
                rotation: rot(degrees),
            },
            &mut self.fx,
        )
    }

    pub fn meeple(&mut self, on: Option<&str>) -> Result<(), RuleViolation> {
        match on {
            None => self.game.apply(&Action::SkipMeeple, &mut self.fx),
            Some(text) => {
                let label: SegmentLabel = text.parse().expect("label");
                let segment = self.game.resolve_meeple_target(&label)?;
                self.game
                    .apply(&Action::PlaceMeeple { segment }, &mut self.fx)
            }
        }
    }

    /// The large meeple (Inns & Cathedrals) on `on` of the tile just placed.
    pub fn large(&mut self, on: &str) -> Result<(), RuleViolation> {
        let label: SegmentLabel = on.parse().expect("label");
        let segment = self.game.resolve_meeple_target(&label)?;
        self.game
            .apply(&Action::PlaceLargeMeeple { segment }, &mut self.fx)
    }

    /// The builder (`pig` false) or the pig (Traders & Builders) on `on` of the tile just
    /// placed.
    pub fn special(&mut self, pig: bool, on: &str) -> Result<(), RuleViolation> {
        let label: SegmentLabel = on.parse().expect("label");
        let segment = self.game.resolve_meeple_target(&label)?;
        let action = if pig {
            Action::PlacePig { segment }
        } else {
            Action::PlaceBuilder { segment }
        };
        self.game.apply(&action, &mut self.fx)
    }

    /// A whole turn that must be legal; returns its effects (the meeple step's).
    pub fn turn(&mut self, tile: &str, x: i32, y: i32, degrees: u32, on: Option<&str>) -> Effects {
        self.draw(tile)
            .unwrap_or_else(|e| panic!("draw {tile}: {e}"));
        self.place(x, y, degrees)
            .unwrap_or_else(|e| panic!("place {tile} at ({x},{y}) {degrees}: {e}"));
        let mut all = self.fx.clone();
        self.meeple(on)
            .unwrap_or_else(|e| panic!("meeple {on:?} on {tile}: {e}"));
        all.notes.extend_from_slice(&self.fx.notes);
        all.scores.extend(self.fx.scores.iter().cloned());
        all.returned.extend_from_slice(&self.fx.returned);
        all
    }

    /// Chooses the arrow of the tile at (x,y) among several.
    pub fn choose(&mut self, x: i32, y: i32) -> Result<(), RuleViolation> {
        self.game.apply(
            &Action::ChooseArrow {
                arrow: Pos::new(x, y),
            },
            &mut self.fx,
        )
    }

    /// A meeple through this turn's companion or portal arrow onto `on` of the tile at (x,y).
    pub fn arrow_meeple(
        &mut self,
        via: ArrowSymbol,
        x: i32,
        y: i32,
        on: &str,
    ) -> Result<(), RuleViolation> {
        let label: SegmentLabel = on.parse().expect("label");
        let segment = self.game.resolve_segment_at(via, Pos::new(x, y), &label)?;
        self.game.apply(
            &Action::PlaceArrowMeeple {
                via,
                at: Pos::new(x, y),
                segment,
            },
            &mut self.fx,
        )
    }

    pub fn scores(&self) -> Vec<u32> {
        self.game.scores().to_vec()
    }
}

/// The refusal of a 2-player setup with these options, tiles and map (no bag of its own): the
/// setup must be refused.
pub fn refused_setup(
    options: Options,
    tiles: TileSet,
    map: Option<Arc<MapBoard>>,
) -> RuleViolation {
    let setup = Setup {
        players: 2,
        options,
        tiles: Arc::new(tiles),
        bag: None,
        map,
    };
    match Game::new(setup) {
        Ok(_) => panic!("the setup was accepted"),
        Err(e) => e,
    }
}
