//! The River (option `river`, `docs/rules.md`, The River): the spring as the start tile, the
//! river tiles drawn before every other tile with the lake last, each river tile continuing
//! the river from its open end, and no immediate U-turn. The river itself is no feature: the
//! tile sets give river sides (`W`) no segment, so no meeple can stand on the river, and the
//! fields on its two banks are separate segments (`data/river.json`). Everything the expansion
//! adds is here; the core calls in at named points: the setup check ([`check_setup`], from
//! [`Game::new`]), the start tile (`river_start`), each draw (`check_river_draw`), the
//! placement check and the legal placements (`check_river_placement`, `river_fits`), and
//! after a placement (`river_after_placement`).
//!
//! A river side shares the field's code in the edge patterns (`Terrain::code`), so the
//! pattern look-up of the base game lets river meet field; `river_fits` refuses that for the
//! legal placements, and the placement check's edge comparison (`Game::check_edges`, which
//! compares terrains) refuses it with `base.tile.edges-match`.
//!
//! Rule ids implemented (`docs/rules.md`): `river.option`, `river.setup.spring`,
//! `river.draw.order`, `river.tile.continue`, `river.tile.no-u-turn`.

use super::{Effects, Game, Placement, Setup};
use crate::geometry::{Pos, Rotation, Side};
use crate::ruling::{Note, RuleViolation};
use crate::tileset::{RiverEnd, TileType, TileTypeId};

/// The river's open end: the last river tile placed, the side the river leaves it by, and
/// how the river turned on that tile (for the no-U-turn rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RiverOpen {
    pub(crate) at: Pos,
    pub(crate) out: Side,
    pub(crate) turn: Turn,
}

/// The River's part of a game's state (its default, without the river: no open end, no
/// river tile in the bag).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RiverState {
    /// The river's open end, `None` before the spring, after the lake and always without the
    /// river.
    open: Option<RiverOpen>,
    /// The river tiles (the lake included) still in the bag: the bag summed over the river
    /// types, kept as tiles leave and return (the river's draw check runs on every draw).
    in_bag: u32,
}

impl RiverState {
    /// At the start of a game whose bag holds `in_game` copies of each tile type.
    pub(super) fn new(setup: &Setup, in_game: &[u16]) -> RiverState {
        RiverState {
            open: None,
            in_bag: setup
                .tiles
                .river_types()
                .iter()
                .map(|id| u32::from(in_game[id.index()]))
                .sum(),
        }
    }
}

/// Why a river tile does not continue the river; `Game::river_continuation` words it.
#[derive(Clone, Copy, Debug)]
enum Fault {
    NoOpenEnd,
    OffBoard,
    NotAtOpenEnd { square: Pos, open: RiverOpen },
    BackNotRiver(Side),
    UTurn(Turn),
}

/// How the river turns on one tile, seen in the direction it flows (away from the spring).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Turn {
    Straight,
    Left,
    Right,
}

impl Turn {
    /// The turn from flowing out of a tile by `from` to flowing out of the next by `to`.
    fn between(from: Side, to: Side) -> Turn {
        match (to.index() + 4 - from.index()) % 4 {
            1 => Turn::Right,
            3 => Turn::Left,
            // 0: straight on; 2 (back the way it came) cannot happen, the side it enters by
            // is the one facing the previous tile.
            _ => Turn::Straight,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Turn::Straight => "straight",
            Turn::Left => "left",
            Turn::Right => "right",
        }
    }
}

/// The setup: river tiles only with the option; with it, one spring and one lake in the
/// tile set, and no map board (the rules of Carcassonne Maps place their own start tiles on
/// printed start squares; the two are not combined here [I]).
pub(super) fn check_setup(setup: &Setup) -> Result<(), RuleViolation> {
    let tiles = setup.tiles.tiles();
    if !setup.options.river {
        if let Some(t) = tiles.iter().find(|t| t.is_river()) {
            return Err(RuleViolation::Setup {
                what: format!(
                    "tile {} carries the river, but the expansion \"river\" is not on",
                    t.id
                ),
            });
        }
        return Ok(());
    }
    for end in [RiverEnd::Spring, RiverEnd::Lake] {
        let n: u32 = tiles
            .iter()
            .filter(|t| t.river_end == Some(end))
            .map(|t| u32::from(t.count))
            .sum();
        if n != 1 {
            return Err(RuleViolation::Setup {
                what: format!(
                    "The River needs exactly one {} in its tile sets (found {n}); add the set \"river\" to tile_sets",
                    end.word()
                ),
            });
        }
    }
    if setup.map.is_some() {
        return Err(RuleViolation::Setup {
            what: "The River is not combined with a map board (Carcassonne Maps)".into(),
        });
    }
    Ok(())
}

/// The copies in the game at the start with The River: the base start tile (every start copy
/// of a land tile) is removed from the game; the spring is the start tile. A log's own bag
/// (`Setup::bag`) is taken as written.
pub(super) fn remove_land_start_tiles(setup: &Setup, in_game: &mut [u16]) {
    if !setup.options.river || setup.bag.is_some() {
        return;
    }
    for (count, t) in in_game.iter_mut().zip(setup.tiles.tiles()) {
        if !t.is_river() {
            *count -= t.start.min(*count);
        }
    }
}

fn is_lake(t: &TileType) -> bool {
    t.river_end == Some(RiverEnd::Lake)
}

impl Game {
    /// The start tile of this game: the spring with The River, else the tile set's start tile.
    pub fn start_tile(&self) -> Option<TileTypeId> {
        if self.options.river {
            self.tiles.spring()
        } else {
            self.tiles.start_tile()
        }
    }

    /// Whether the river is still open (The River): the lake is not yet placed.
    pub fn river_open_end(&self) -> Option<(Pos, Side)> {
        self.river.open.map(|o| (o.at, o.out))
    }

    /// The start tile with The River must be the spring; its river side is the open end.
    pub(super) fn check_river_start(&self, tile: TileTypeId) -> Result<(), RuleViolation> {
        let t = self.tiles.get(tile);
        if t.river_end == Some(RiverEnd::Spring) {
            return Ok(());
        }
        Err(RuleViolation::RiverStartNotSpring {
            tile: t.id.clone(),
            spring: self
                .tiles
                .spring()
                .map_or_else(String::new, |s| self.tiles.get(s).id.clone()),
        })
    }

    pub(super) fn river_start(&mut self, tile: TileTypeId, at: Pos, rotation: Rotation) {
        let sides = self.tiles.get(tile).river_sides(rotation);
        self.river.open = Side::ALL
            .into_iter()
            .find(|s| sides & (1 << s.index()) != 0)
            .map(|out| RiverOpen {
                at,
                out,
                turn: Turn::Straight,
            });
    }

    /// A draw with The River: while river tiles other than the lake are in the bag, only they;
    /// then the lake; then the land tiles.
    pub(super) fn check_river_draw(&self, tile: TileTypeId) -> Result<(), RuleViolation> {
        // Whether river tiles (the lake too, with `lake`) are left in the bag: asked only when
        // the drawn tile's kind needs it, and stopping at the first one (this runs on every
        // draw; a river tile other than the lake needs no count at all).
        let left = |lake: bool| {
            self.tiles
                .river_types()
                .iter()
                .any(|&id| self.bag[id.0 as usize] > 0 && (lake || !is_lake(self.tiles.get(id))))
        };
        let t = self.tiles.get(tile);
        // Any river tile left: the count kept as tiles leave and return the bag.
        debug_assert_eq!(self.river.in_bag > 0, left(true), "river tiles in the bag");
        let why = if is_lake(t) && left(false) {
            "the lake comes after every other river tile"
        } else if !t.is_river() && self.river.in_bag > 0 {
            "the river tiles are drawn before every other tile"
        } else {
            return Ok(());
        };
        Err(RuleViolation::RiverDrawOrder {
            tile: t.id.clone(),
            why,
        })
    }

    /// Whether the legal placements of `tile` need The River's check on top of the pattern
    /// look-up: a river tile, or any tile while the river is open. A river side facing an empty
    /// square exists only at the open end (every other one faces the river tile placed against
    /// it), so once the lake has closed the river, land tiles are placed as in the base game.
    pub(super) fn river_check_needed(&self, tile: TileTypeId) -> bool {
        self.options.river && (self.river.open.is_some() || self.tiles.get(tile).is_river())
    }

    /// The legal placements of a river tile (into `out`, emptied by the caller): only the
    /// square at the river's open end can take one (`river_fits` refuses every other), so
    /// that square alone is looked at instead of the whole frontier; its rotations in
    /// increasing order, as the frontier scan lists them.
    pub(super) fn river_tile_placements(&self, tile: TileTypeId, out: &mut Vec<Placement>) {
        let Some(at) = self.river.open.and_then(|open| open.at.step(open.out)) else {
            return;
        };
        let Some(required) = self.board.frontier_required(at) else {
            return;
        };
        let mut fits = self.tiles.get(tile).fits(required);
        while fits != 0 {
            let r = fits.trailing_zeros() as u8;
            fits &= fits - 1;
            let rotation = Rotation::new(r).expect("a rotation bit is 0..=3");
            if self.river_fits(tile, at, rotation) {
                out.push(Placement { at, rotation });
            }
        }
    }

    /// Whether a placement that passed the edge-pattern look-up is legal under The River:
    /// river sides meet only river sides, and a river tile continues the river.
    pub(super) fn river_fits(&self, tile: TileTypeId, at: Pos, rotation: Rotation) -> bool {
        let t = self.tiles.get(tile);
        // A river tile fits only at the open end, in a rotation that continues the river:
        // asked first, since it rules out every other square at once, and without building
        // the refusal's message (this runs for every candidate placement of a river tile).
        if t.is_river() && self.continuation(t, at, rotation).is_err() {
            return false;
        }
        let ours = t.river_sides(rotation);
        for side in Side::ALL {
            let Some(n) = at.step(side).and_then(|p| self.board.tile_at(p)) else {
                continue;
            };
            let theirs = self.tiles.get(n.tile).river_sides(n.rotation);
            let ours_river = ours & (1 << side.index()) != 0;
            let theirs_river = theirs & (1 << side.opposite().index()) != 0;
            if ours_river != theirs_river {
                return false;
            }
        }
        true
    }

    /// A river tile's placement against the open end: `Ok` with the side the river leaves it
    /// by (`None` for the lake) and its turn; the refusal as a rule violation.
    fn river_continuation(
        &self,
        t: &TileType,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(Option<Side>, Turn), RuleViolation> {
        self.continuation(t, at, rotation).map_err(|fault| {
            let not_continued = |why: String| RuleViolation::RiverNotContinued {
                tile: t.id.clone(),
                at,
                why,
            };
            match fault {
                Fault::NoOpenEnd => not_continued("the river has no open end".into()),
                Fault::OffBoard => not_continued("the open end is off the board".into()),
                Fault::NotAtOpenEnd { square, open } => not_continued(format!(
                    "the river's open end is at {square}, the {} side of {}",
                    open.out.word(),
                    open.at
                )),
                Fault::BackNotRiver(back) => not_continued(format!(
                    "its {} side, which faces the river, is not river",
                    back.word()
                )),
                Fault::UTurn(turn) => RuleViolation::RiverUTurn {
                    tile: t.id.clone(),
                    at,
                    turn: turn.word(),
                },
            }
        })
    }

    /// [`Game::river_continuation`] without the message: what the legal placements ask of
    /// every candidate, so a refusal allocates nothing.
    fn continuation(
        &self,
        t: &TileType,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(Option<Side>, Turn), Fault> {
        let open = self.river.open.ok_or(Fault::NoOpenEnd)?;
        let square = open.at.step(open.out).ok_or(Fault::OffBoard)?;
        if at != square {
            return Err(Fault::NotAtOpenEnd { square, open });
        }
        let sides = t.river_sides(rotation);
        let back = open.out.opposite();
        if sides & (1 << back.index()) == 0 {
            return Err(Fault::BackNotRiver(back));
        }
        let out = Side::ALL
            .into_iter()
            .find(|&s| s != back && sides & (1 << s.index()) != 0);
        let turn = out.map_or(Turn::Straight, |o| Turn::between(open.out, o));
        if turn != Turn::Straight && turn == open.turn {
            return Err(Fault::UTurn(turn));
        }
        Ok((out, turn))
    }

    /// The River's part of the placement check (after the core's edge check).
    pub(super) fn check_river_placement(
        &self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(), RuleViolation> {
        let t = self.tiles.get(tile);
        if t.is_river() {
            self.river_continuation(t, at, rotation)?;
        }
        Ok(())
    }

    /// After a checked river tile is placed: the open end moves on (or closes at the lake).
    pub(super) fn river_after_placement(
        &mut self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
        fx: &mut Effects,
    ) {
        let t = self.tiles.get(tile);
        if !t.is_river() {
            return;
        }
        let (out, turn) = self
            .river_continuation(t, at, rotation)
            .expect("a checked river placement continues the river");
        fx.notes.push(Note::RiverContinued {
            lake: out.is_none(),
        });
        self.river.open = out.map(|out| RiverOpen { at, out, turn });
    }

    /// Keeps the count of river tiles in the bag as `tile` leaves it or goes back into it.
    pub(super) fn count_river_tile(&mut self, tile: TileTypeId, back_in_bag: bool) {
        if self.tiles.get(tile).is_river() {
            if back_in_bag {
                self.river.in_bag += 1;
            } else {
                self.river.in_bag -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use crate::{Action, Effects, Game, Options, Pos, Rotation, Setup, TileSet};

    /// What `RiverState::in_bag` stands for, counted the long way.
    fn counted(game: &Game) -> u32 {
        let types = game.tiles.river_types();
        types
            .iter()
            .map(|id| u32::from(game.bag[id.0 as usize]))
            .sum()
    }

    #[test]
    fn the_count_of_river_tiles_in_the_bag_follows_draws_and_returns() {
        let tiles = TileSet::combine(&[TileSet::base(), TileSet::river()]).unwrap();
        let bag: BTreeMap<String, u16> = [("RS", 1), ("R1", 2), ("RL", 1), ("A", 2)]
            .into_iter()
            .map(|(id, n)| (id.to_string(), n))
            .collect();
        let setup = Setup {
            players: 2,
            options: Options {
                river: true,
                gifts: true,
                ..Options::default()
            },
            tiles: Arc::new(tiles),
            bag: Some(bag),
            map: None,
        };
        let mut game = Game::new(setup).unwrap();
        let mut fx = Effects::default();
        assert_eq!((game.river.in_bag, counted(&game)), (4, 4));
        let id = |g: &Game, name: &str| g.tiles.find(name).unwrap();
        let (rs, r1, a) = (id(&game, "RS"), id(&game, "R1"), id(&game, "A"));
        let start = Action::PlaceStart {
            tile: rs,
            at: Pos::new(0, 0),
            rotation: Rotation::default(),
        };
        game.apply(&start, &mut fx).unwrap();
        game.apply(&Action::Draw { tile: r1 }, &mut fx).unwrap();
        assert_eq!((game.river.in_bag, counted(&game)), (2, 2));
        // A river tile handed back by Take 2 (the land tile kept, as if drawn second) counts
        // again, and a land tile is refused while it is in the bag.
        game.take_from_bag(a).unwrap();
        game.return_tile(r1, r1, a, &mut fx).unwrap();
        assert_eq!((game.river.in_bag, counted(&game)), (3, 3));
        assert!(game.check_river_draw(a).is_err());
    }
}
