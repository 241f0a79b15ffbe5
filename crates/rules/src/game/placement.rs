//! Placing a tile: the legal placements, the checks of one placement (square, adjacency,
//! edges) and putting a checked tile on the board (segments, unions across edges, monastery
//! neighbours, the features it completes). A map adds its own checks and printed edges
//! through the hooks in `maps`.

use super::{Effects, Game, Placement};
use crate::board::PlacedTile;
use crate::geometry::{Pos, Rotation, Side};
use crate::ruling::{Note, RuleViolation};
use crate::tileset::{FeatureKind, TileSet, TileTypeId};

/// What a placement joins across its edges: pairs of segments to join (ours, theirs), and the
/// features around as they were before this tile (root, kind, occupied), captured before any
/// union, so a loop is seen as one.
pub(super) struct Joins {
    pub(super) pairs: [(u32, u32); 12],
    pub(super) n_pairs: usize,
    pub(super) before: [(u32, FeatureKind, bool); 12],
    pub(super) n_before: usize,
}

/// The longest frontier `pick_placement` keeps running totals for, on the stack: 256 squares
/// would take some 127 tiles in one straight line.
const PICK_FRONTIER: usize = 256;

impl Game {
    /// Every distinct legal placement of `tile` (symmetric rotations listed once), into `out`.
    pub fn legal_placements(&self, tile: TileTypeId, out: &mut Vec<Placement>) {
        out.clear();
        let t = self.tiles.get(tile);
        let board = &self.board;
        if let Some(map) = self.map() {
            let mut patterns = [(Rotation::default(), 0u8); 4];
            let mut n = 0;
            for rotation in Rotation::ALL {
                if t.is_distinct_rotation(rotation) {
                    patterns[n] = (rotation, t.pattern(rotation));
                    n += 1;
                }
            }
            self.legal_placements_on_map(map, &patterns[..n], out);
            return;
        }
        if self.options.river && t.is_river() {
            self.river_tile_placements(tile, out);
            return;
        }
        // The tile type's table of fitting rotations per constraint: one look-up per open
        // square, rotations in increasing order as the pattern comparison listed them.
        for (&at, &(required, _)) in board.frontier.iter().zip(&board.frontier_constraint) {
            let mut fits = t.fits(required);
            while fits != 0 {
                let r = fits.trailing_zeros() as u8;
                fits &= fits - 1;
                let rotation = Rotation::new(r).expect("a rotation bit is 0..=3");
                out.push(Placement { at, rotation });
            }
        }
        if self.river_check_needed(tile) {
            out.retain(|p| self.river_fits(tile, p.at, p.rotation));
        }
    }

    /// The placement `legal_placements` would list at the index `pick(count)`, where `count`
    /// is how many it lists; `None`, without calling `pick`, when it lists none. What a player
    /// choosing one placement by its index needs, without listing them all: off a map and the
    /// river, one pass over the frontier keeps each square's running total of placements and
    /// a binary search finds the chosen one (the frontier's order, rotations in increasing
    /// order). On a map, along the river, or with a frontier longer than any game's so far,
    /// the full list is made in `scratch` and indexed.
    pub fn pick_placement(
        &self,
        tile: TileTypeId,
        scratch: &mut Vec<Placement>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<Placement> {
        let constraints = &self.board.frontier_constraint;
        if self.map().is_some()
            || self.river_check_needed(tile)
            || constraints.len() > PICK_FRONTIER
        {
            self.legal_placements(tile, scratch);
            if scratch.is_empty() {
                return None;
            }
            return scratch.get(pick(scratch.len())).copied();
        }
        let t = self.tiles.get(tile);
        let mut ends = [0u16; PICK_FRONTIER];
        let mut total = 0u16;
        for (end, &(required, _)) in ends.iter_mut().zip(constraints) {
            total += u16::from(t.fit_count(required));
            *end = total;
        }
        if total == 0 {
            return None;
        }
        let k = pick(usize::from(total));
        let ends = &ends[..constraints.len()];
        let slot = ends.partition_point(|&end| usize::from(end) <= k);
        let before = slot.checked_sub(1).map_or(0, |s| usize::from(ends[s]));
        // The chosen square's fitting rotations: drop the lowest `k - before`.
        let mut fits = t.fits(constraints.get(slot)?.0);
        for _ in before..k {
            fits &= fits - 1;
        }
        let rotation = Rotation::new(fits.trailing_zeros() as u8).expect("a rotation bit");
        Some(Placement {
            at: self.board.frontier[slot],
            rotation,
        })
    }

    /// The first legal placement of `tile`, if any (any rotation).
    pub fn first_placement(&self, tile: TileTypeId) -> Option<Placement> {
        if self.river_check_needed(tile) {
            // The river's own check on top of the pattern look-up (rare: a set-aside check).
            let mut all = Vec::new();
            self.legal_placements(tile, &mut all);
            return all.first().copied();
        }
        let t = self.tiles.get(tile);
        let board = &self.board;
        board
            .frontier
            .iter()
            .zip(&board.frontier_constraint)
            .find_map(|(&at, &(required, mask))| {
                let (map_required, map_mask) = self.map_constraint(at);
                let (required, mask) = (required | map_required, mask | map_mask);
                Rotation::ALL
                    .into_iter()
                    .find(|&r| t.pattern(r) & mask == required)
                    .map(|rotation| Placement { at, rotation })
            })
    }

    /// Checks a placement without changing anything.
    pub fn check_placement(
        &self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(), RuleViolation> {
        self.check_on_map(at)?;
        if let Some(other) = self.board.tile_at(at) {
            return Err(RuleViolation::SquareTaken {
                at,
                tile: self.tiles.get(other.tile).id.clone(),
            });
        }
        if !self.board.is_frontier(at) {
            return Err(RuleViolation::NotAdjacent { at });
        }
        self.check_edges(tile, at, rotation)?;
        if self.options.river {
            self.check_river_placement(tile, at, rotation)?;
        }
        Ok(())
    }

    /// Edges of a tile against its placed neighbours and, on a map, against printed large
    /// cities and prints abroad.
    pub(super) fn check_edges(
        &self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(), RuleViolation> {
        let t = self.tiles.get(tile);
        self.check_printed_edges(t, at, rotation)?;
        for side in Side::ALL {
            let Some(n) = at.step(side).and_then(|n| self.board.tile_at(n)) else {
                continue;
            };
            let ours = t.edge(rotation, side);
            let theirs = self.tiles.get(n.tile).edge(n.rotation, side.opposite());
            if ours != theirs {
                return Err(RuleViolation::EdgeMismatch {
                    tile: t.id.clone(),
                    at,
                    rotation,
                    side,
                    ours: ours.word(),
                    neighbour: n.at,
                    theirs: theirs.word(),
                    facing: side.opposite(),
                });
            }
        }
        Ok(())
    }

    /// Puts a checked tile on the board: segments, unions across edges, monastery
    /// neighbours, and the features it completes (to be scored after the meeple step).
    pub(super) fn put_tile(
        &mut self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
        fx: &mut Effects,
    ) {
        // Borrows only the `tiles` field (the rest of `self` is touched field by field below),
        // so no reference count changes per placement.
        let tiles: &TileSet = &self.tiles;
        let t = tiles.get(tile);
        let first = self.features.len();
        let index = self.board.put(PlacedTile {
            tile,
            at,
            rotation,
            pattern: t.pattern(rotation),
            first_segment: first,
        });
        // The tiles around the new one, looked up once: no tile lands on the ring during this
        // placement, so the monastery update below reuses them.
        let mut around: [(Pos, u16); 8] = [(at, 0); 8];
        let mut n_around = 0;
        for p in at.ring() {
            if let Some(ni) = self.board.tile_index(p) {
                around[n_around] = (p, ni);
                n_around += 1;
            }
        }
        let neighbours_present = n_around as u16;
        // On a map only squares that exist count around a monastery; large-city squares are
        // printed, so filled from the start.
        let ring_open = match self.map() {
            None => 8 - neighbours_present,
            Some(map) => self.monastery_ring_open_on_map(map, at),
        };
        for (local, seg) in t.segments.iter().enumerate() {
            let open = match seg.kind {
                FeatureKind::City | FeatureKind::Road => seg.sides.count_ones() as u16,
                FeatureKind::Monastery | FeatureKind::Garden => ring_open,
                FeatureKind::Field => 0,
            };
            self.features.add(
                seg.kind,
                index,
                local as u8,
                open,
                u16::from(seg.coats_of_arms),
            );
        }

        let mut joins = Joins {
            pairs: [(0, 0); 12],
            n_pairs: 0,
            before: [(0, FeatureKind::Field, false); 12],
            n_before: 0,
        };
        if self.map().is_some() {
            self.join_printed_edges(tile, at, rotation, first, &mut joins, fx);
        }
        // Borrowed again: the map's edges above changed `self`.
        let tiles: &TileSet = &self.tiles;
        let t = tiles.get(tile);
        for side in Side::ALL {
            let Some(npos) = at.step(side) else { continue };
            let Some(ni) = self.board.tile_index(npos) else {
                continue;
            };
            let n = self.board.placed[ni as usize];
            let nt = tiles.get(n.tile);
            fx.notes.push(Note::EdgeMatched {
                side,
                terrain: t.edge(rotation, side),
                neighbour: npos,
            });
            let road_or_city = t
                .segment_at_side(rotation, side)
                .zip(nt.segment_at_side(n.rotation, side.opposite()));
            let fields = side.ports().map(|port| {
                t.segment_at_port(rotation, port)
                    .zip(nt.segment_at_port(n.rotation, port.facing()))
            });
            for (a, b) in std::iter::once(road_or_city).chain(fields).flatten() {
                let theirs = n.first_segment + u32::from(b);
                let root = self.features.find(theirs);
                if !joins.before[..joins.n_before].iter().any(|e| e.0 == root) {
                    joins.before[joins.n_before] = (
                        root,
                        self.features.kind[root as usize],
                        self.features.meeple_total(root) > 0,
                    );
                    joins.n_before += 1;
                }
                joins.pairs[joins.n_pairs] = (first + u32::from(a), theirs);
                joins.n_pairs += 1;
            }
        }
        for &(a, b) in &joins.pairs[..joins.n_pairs] {
            let (root, _) = self.features.union(a, b);
            if matches!(
                self.features.kind[root as usize],
                FeatureKind::City | FeatureKind::Road
            ) {
                // Two open sides (ours and the neighbour's) closed against each other.
                let open = &mut self.features.open[root as usize];
                *open = open.saturating_sub(2);
            }
        }
        // A feature of the new tile that absorbed two or more neighbouring features joined them
        // (impossible with fewer than two neighbouring features, the common case).
        let kinds: &[FeatureKind] = if joins.n_before >= 2 {
            &[FeatureKind::City, FeatureKind::Road, FeatureKind::Field]
        } else {
            &[]
        };
        for &kind in kinds {
            for local in 0..t.segments.len() as u32 {
                if t.segments[local as usize].kind != kind {
                    continue;
                }
                let root = self.features.find(first + local);
                let mut count = 0u8;
                let mut occupied = 0u8;
                for e in &joins.before[..joins.n_before] {
                    if e.1 == kind && self.features.find(e.0) == root {
                        count += 1;
                        occupied += u8::from(e.2);
                    }
                }
                // Each group is reported once: by its lowest local segment.
                let lowest = (0..local).all(|l| {
                    t.segments[l as usize].kind != kind || self.features.find(first + l) != root
                });
                if count >= 2 && lowest {
                    fx.notes.push(Note::Joined {
                        kind,
                        count,
                        occupied,
                    });
                }
            }
        }

        // Monasteries around (and on) the new tile.
        for &(p, ni) in &around[..n_around] {
            let n = self.board.placed[ni as usize];
            // The monastery or garden (The Abbot) there: both are completed by their ring.
            if let Some(m) = tiles.get(n.tile).ring_segment() {
                let s = n.first_segment + u32::from(m);
                let open = &mut self.features.open[s as usize];
                *open = open.saturating_sub(1);
                if *open == 0 {
                    self.pending.push(s);
                    fx.notes.push(Note::Completed {
                        kind: self.features.kind[s as usize],
                        at: p,
                    });
                }
            }
        }
        if let Some(m) = t.ring_segment() {
            let s = first + u32::from(m);
            if self.features.open[s as usize] == 0 {
                self.pending.push(s);
                fx.notes.push(Note::Completed {
                    kind: self.features.kind[s as usize],
                    at,
                });
            }
        }
        for local in 0..t.segments.len() as u32 {
            let kind = t.segments[local as usize].kind;
            if !matches!(kind, FeatureKind::City | FeatureKind::Road) {
                continue;
            }
            let root = self.features.find(first + local);
            if self.features.open[root as usize] == 0 && !self.pending.contains(&root) {
                self.pending.push(root);
                fx.notes.push(Note::Completed { kind, at });
            }
        }
    }
}
