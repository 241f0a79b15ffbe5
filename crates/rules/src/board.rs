//! The played area: which tile lies on which square, and the frontier of empty squares next to
//! placed tiles (the only squares a tile can go to).
//!
//! The grid is a dense array around the start square that grows by doubling when a tile lands
//! near its border, so look-ups in the hot path are an index computation, not a hash.

use std::sync::Arc;

use crate::geometry::{Pos, Rotation, Side};
use crate::map::MapBoard;
use crate::reuse::clone_reusing;
use crate::tileset::TileTypeId;

pub(crate) const EMPTY: u16 = u16::MAX;

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    /// The tile type, an id of the game's tile set.
    pub tile: TileTypeId,
    /// The square it lies on.
    pub at: Pos,
    /// How it was turned when placed (clockwise from the tile's rotation-0 drawing).
    pub rotation: Rotation,
    /// Edge pattern in board orientation (two bits per side).
    pub(crate) pattern: u8,
    /// Global id of the tile's first segment; its segments are consecutive.
    pub(crate) first_segment: u32,
}

#[derive(Debug)]
pub(crate) struct Board {
    min_x: i64,
    min_y: i64,
    width: i64,
    height: i64,
    /// Index into `placed`, or `EMPTY`.
    cells: Vec<u16>,
    /// Index into `frontier`, or `EMPTY`.
    frontier_slot: Vec<u16>,
    pub(crate) placed: Vec<PlacedTile>,
    pub(crate) frontier: Vec<Pos>,
    /// For each frontier square, the (required, mask) edge codes its placed neighbours impose;
    /// kept up to date as tiles arrive so legal-move generation does no neighbour look-ups.
    pub(crate) frontier_constraint: Vec<(u8, u8)>,
    /// The map board, if the game is played on one: only its playable squares join the
    /// frontier (one branch per neighbour; `None` in the base game).
    map: Option<Arc<MapBoard>>,
}

// `clone_from` reuses the grids and lists (simulated players copy the game for every move
// tried).
clone_reusing!(Board {
    min_x,
    min_y,
    width,
    height,
    cells,
    frontier_slot,
    placed,
    frontier,
    frontier_constraint,
    map,
});

const INITIAL_HALF: i64 = 12;

impl Board {
    pub(crate) fn new(centre: Pos, map: Option<Arc<MapBoard>>) -> Board {
        let size = 2 * INITIAL_HALF + 1;
        Board {
            min_x: i64::from(centre.x) - INITIAL_HALF,
            min_y: i64::from(centre.y) - INITIAL_HALF,
            width: size,
            height: size,
            cells: vec![EMPTY; (size * size) as usize],
            frontier_slot: vec![EMPTY; (size * size) as usize],
            placed: Vec::with_capacity(80),
            frontier: Vec::with_capacity(64),
            frontier_constraint: Vec::with_capacity(64),
            map,
        }
    }

    #[inline]
    fn index(&self, at: Pos) -> Option<usize> {
        // As unsigned, a square left of or below the grid wraps to a huge offset, so one
        // comparison per axis checks both bounds (this runs for every neighbour look-up).
        let x = (i64::from(at.x) - self.min_x) as u64;
        let y = (i64::from(at.y) - self.min_y) as u64;
        (x < self.width as u64 && y < self.height as u64)
            .then(|| (y * self.width as u64 + x) as usize)
    }

    /// The placed-tile index on `at`, if a tile lies there.
    #[inline]
    pub(crate) fn tile_index(&self, at: Pos) -> Option<u16> {
        let i = self.index(at)?;
        let t = self.cells[i];
        (t != EMPTY).then_some(t)
    }

    #[inline]
    pub(crate) fn tile_at(&self, at: Pos) -> Option<&PlacedTile> {
        self.tile_index(at).map(|i| &self.placed[i as usize])
    }

    /// The edge codes the placed neighbours require of the frontier square `at` (the
    /// `required` half of its constraint), or `None` if `at` is not on the frontier.
    pub(crate) fn frontier_required(&self, at: Pos) -> Option<u8> {
        let slot = self.frontier_slot[self.index(at)?];
        (slot != EMPTY).then(|| self.frontier_constraint[slot as usize].0)
    }

    /// The (required, mask) edge codes the placed neighbours impose on the empty square `at`:
    /// its frontier constraint, or none when no placed tile touches it.
    pub(crate) fn neighbours_constraint(&self, at: Pos) -> (u8, u8) {
        self.index(at)
            .map(|i| self.frontier_slot[i])
            .filter(|&slot| slot != EMPTY)
            .map_or((0, 0), |slot| self.frontier_constraint[slot as usize])
    }

    pub(crate) fn is_frontier(&self, at: Pos) -> bool {
        self.index(at)
            .is_some_and(|i| self.frontier_slot[i] != EMPTY)
    }

    /// Grows the grid so that every square within two steps of `at` is inside it.
    fn cover(&mut self, at: Pos) {
        let (x, y) = (i64::from(at.x), i64::from(at.y));
        let x_out = x - 2 < self.min_x || x + 2 >= self.min_x + self.width;
        let y_out = y - 2 < self.min_y || y + 2 >= self.min_y + self.height;
        if !x_out && !y_out {
            return;
        }
        // Only the axis `at` left is doubled: a board that sprawls one way does not pay for
        // (and the engine's copies do not copy) rows or columns it never reaches.
        let grow_w = if x_out { self.width } else { 0 };
        let grow_h = if y_out { self.height } else { 0 };
        let (new_min_x, new_min_y) = (self.min_x - grow_w / 2, self.min_y - grow_h / 2);
        let (new_w, new_h) = (self.width + grow_w, self.height + grow_h);
        let mut cells = vec![EMPTY; (new_w * new_h) as usize];
        let mut slots = vec![EMPTY; (new_w * new_h) as usize];
        // Row by row: each old row lands whole, shifted, in the new grid.
        let (w, nx) = (self.width as usize, (self.min_x - new_min_x) as usize);
        for row in 0..self.height {
            let old = (row * self.width) as usize;
            let ny = row + self.min_y - new_min_y;
            let new = (ny * new_w) as usize + nx;
            cells[new..new + w].copy_from_slice(&self.cells[old..old + w]);
            slots[new..new + w].copy_from_slice(&self.frontier_slot[old..old + w]);
        }
        self.min_x = new_min_x;
        self.min_y = new_min_y;
        self.width = new_w;
        self.height = new_h;
        self.cells = cells;
        self.frontier_slot = slots;
        self.cover(at);
    }

    /// Makes the empty square `at` open for tiles although no tile touches it (it touches a
    /// large city just connected). Its constraint from placed tiles is none, since a square
    /// next to a placed tile is on the frontier already.
    pub(crate) fn open_square(&mut self, at: Pos) {
        self.cover(at);
        let i = self.index(at).expect("covered");
        if self.cells[i] != EMPTY || self.frontier_slot[i] != EMPTY {
            return;
        }
        self.frontier_slot[i] = self.frontier.len() as u16;
        self.frontier.push(at);
        self.frontier_constraint.push((0, 0));
    }

    /// Puts a tile on an empty square and updates the frontier. Legality is checked by the caller.
    pub(crate) fn put(&mut self, tile: PlacedTile) -> u16 {
        self.cover(tile.at);
        let index = self.placed.len() as u16;
        let cell = self.index(tile.at).expect("covered");
        self.cells[cell] = index;
        self.placed.push(tile);
        let slot = self.frontier_slot[cell];
        if slot != EMPTY {
            self.frontier_slot[cell] = EMPTY;
            self.frontier.swap_remove(slot as usize);
            self.frontier_constraint.swap_remove(slot as usize);
            if let Some(&moved) = self.frontier.get(slot as usize) {
                let mi = self.index(moved).expect("frontier squares are covered");
                self.frontier_slot[mi] = slot;
            }
        }
        for side in Side::ALL {
            let Some(n) = tile.at.step(side) else {
                continue;
            };
            if let Some(map) = &self.map {
                if !map.is_playable(n) {
                    continue;
                }
            }
            let Some(ni) = self.index(n) else { continue };
            if self.cells[ni] != EMPTY {
                continue;
            }
            if self.frontier_slot[ni] == EMPTY {
                self.frontier_slot[ni] = self.frontier.len() as u16;
                self.frontier.push(n);
                self.frontier_constraint.push((0, 0));
            }
            // The new tile's edge on `side` is what the neighbour must match on its far side.
            let slot = self.frontier_slot[ni] as usize;
            let opp = side.opposite().index();
            let code = (tile.pattern >> (2 * side.index())) & 3;
            let (required, mask) = &mut self.frontier_constraint[slot];
            *required |= code << (2 * opp);
            *mask |= 3 << (2 * opp);
        }
        index
    }
}
