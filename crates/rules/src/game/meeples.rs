//! Meeples: the legal targets on the tile just placed, the checks every meeple placement
//! shares (also through an arrow or a gift), where a meeple stands, and meeples going home
//! when their feature is scored.

use super::{Effects, Game, Meeple, MeepleSpot, Phase};
use crate::board::PlacedTile;
use crate::features::MAX_PLAYERS;
use crate::geometry::Pos;
use crate::ruling::RuleViolation;
use crate::score::ReturnedMeeple;
use crate::tileset::{FeatureKind, SegmentLabel};

impl Game {
    /// Meeples on the board: owner, square and segment.
    pub fn meeples(&self) -> impl Iterator<Item = (u8, Pos, u8, SegmentLabel)> + '_ {
        self.meeples.iter().map(|m| {
            let (at, local, label) = self.segment_place(m.segment);
            (m.player, at, local, label)
        })
    }

    /// Whether one of `seat`'s meeples (of any size) or its abbot stands on segment `segment`
    /// of the tile at `at`: what [`Game::meeples`] and [`Game::abbots`] would show, without
    /// working out each figure's label (a simulated player asks this of every move it tries).
    pub fn figure_of_on(&self, seat: u8, at: Pos, segment: u8) -> bool {
        let here = |s: u32| self.segment_square(s) == (at, segment);
        self.meeples
            .iter()
            .any(|m| m.player == seat && here(m.segment))
            || self
                .abbots()
                .any(|(p, square, local, _)| p == seat && (square, local) == (at, segment))
    }

    /// The square and local segment of the global segment `segment` (`segment_place`
    /// without the label).
    fn segment_square(&self, segment: u32) -> (Pos, u8) {
        let placed = &self.board.placed[self.features.tile[segment as usize] as usize];
        (placed.at, self.features.local[segment as usize])
    }

    pub(super) fn segment_place(&self, segment: u32) -> (Pos, u8, SegmentLabel) {
        let placed = &self.board.placed[self.features.tile[segment as usize] as usize];
        let local = self.features.local[segment as usize];
        let label = self
            .tiles
            .get(placed.tile)
            .segment_label(placed.rotation, local);
        (placed.at, local, label)
    }

    /// The local segment a label names on the tile just placed.
    pub fn resolve_meeple_target(&self, label: &SegmentLabel) -> Result<u8, RuleViolation> {
        let Phase::Meeple { at } = self.phase else {
            return Err(RuleViolation::WrongPhase {
                action: "place a meeple",
                expected: self.phase.expects(),
            });
        };
        let placed = self.board.tile_at(at).expect("the tile just placed");
        let tile = self.tiles.get(placed.tile);
        tile.find_segment(placed.rotation, label)
            .ok_or_else(|| RuleViolation::NoSuchSegment {
                tile: tile.id.clone(),
                at,
                label: *label,
            })
    }

    /// The checks every meeple placement shares, whether on the tile just placed or sent
    /// through an arrow: segment `segment` exists on `placed` (at `at`), a field needs farmers
    /// on, and the current player has a meeple in supply. Gives the segment's feature kind,
    /// its label and its global id.
    pub(super) fn meeple_target(
        &self,
        placed: PlacedTile,
        at: Pos,
        segment: u8,
    ) -> Result<(FeatureKind, SegmentLabel, u32), RuleViolation> {
        let target = self.figure_target(placed, at, segment)?;
        let player = self.current;
        if self.supply[player as usize] == 0 {
            return Err(RuleViolation::NoMeepleLeft { player });
        }
        Ok(target)
    }

    /// The checks of [`Game::meeple_target`] but the supply (the large meeple has its own).
    pub(super) fn figure_target(
        &self,
        placed: PlacedTile,
        at: Pos,
        segment: u8,
    ) -> Result<(FeatureKind, SegmentLabel, u32), RuleViolation> {
        let tile = self.tiles.get(placed.tile);
        let Some(def) = tile.segments.get(segment as usize) else {
            return Err(RuleViolation::NoSuchSegmentIndex {
                tile: tile.id.clone(),
                at,
                segment,
                count: tile.segments.len(),
            });
        };
        let label = tile.segment_label(placed.rotation, segment);
        if def.kind == FeatureKind::Field && !self.options.farmers {
            return Err(RuleViolation::FarmersOff { at, label });
        }
        if def.kind == FeatureKind::Garden {
            return Err(RuleViolation::MeepleOnGarden { at });
        }
        Ok((def.kind, label, placed.first_segment + u32::from(segment)))
    }

    /// The local segment `label` names on the tile at `at`; `no_tile` is the refusal when
    /// the square holds no tile (it names the action that looked there).
    pub(crate) fn segment_named(
        &self,
        at: Pos,
        label: &SegmentLabel,
        no_tile: impl FnOnce() -> RuleViolation,
    ) -> Result<u8, RuleViolation> {
        let placed = self.board.tile_at(at).ok_or_else(no_tile)?;
        let tile = self.tiles.get(placed.tile);
        tile.find_segment(placed.rotation, label)
            .ok_or_else(|| RuleViolation::NoSuchSegment {
                tile: tile.id.clone(),
                at,
                label: *label,
            })
    }

    /// Every legal meeple target on the tile just placed, into `out` (empty when no meeple is
    /// left or the game is not at the meeple step). Skipping is always legal there.
    pub fn legal_meeples(&self, out: &mut Vec<MeepleSpot>) {
        out.clear();
        let Phase::Meeple { at } = self.phase else {
            return;
        };
        if self.supply[self.current as usize] == 0 {
            return;
        }
        self.free_spots(at, out);
    }

    /// The segments of the tile at `at` a figure from supply may go on (the meeple's targets,
    /// shared with the large meeple's): every unoccupied one but gardens, and fields only
    /// with farmers.
    pub(super) fn free_spots(&self, at: Pos, out: &mut Vec<MeepleSpot>) {
        let index = self.board.tile_index(at).expect("the tile just placed");
        let placed = self.board.placed[index as usize];
        let tile = self.tiles.get(placed.tile);
        for (local, seg) in tile.segments.iter().enumerate() {
            if (seg.kind == FeatureKind::Field && !self.options.farmers)
                || seg.kind == FeatureKind::Garden
            {
                continue;
            }
            let root = self.features.root(placed.first_segment + local as u32);
            if self.features.meeple_total(root) == 0 {
                out.push(MeepleSpot {
                    segment: local as u8,
                    label: tile.segment_label(placed.rotation, local as u8),
                });
            }
        }
    }

    /// Sends the meeples on the feature `root` back to their owners.
    pub(super) fn return_meeples(&mut self, root: u32, fx: &mut Effects) {
        // The feature's counts include every meeple on it: with none, the list of meeples on
        // the board is not walked (most completed features are unoccupied).
        let mut i = if self.features.meeple_total(root) == 0 {
            debug_assert!(
                self.meeples
                    .iter()
                    .all(|m| self.features.root(m.segment) != root),
                "a meeple on a feature whose counts are zero"
            );
            self.meeples.len()
        } else {
            0
        };
        while i < self.meeples.len() {
            let m = self.meeples[i];
            if self.features.root(m.segment) == root {
                let (at, _, label) = self.segment_place(m.segment);
                fx.returned.push(ReturnedMeeple {
                    player: m.player,
                    at,
                    label,
                    abbot: false,
                    large: m.large,
                    special: None,
                });
                self.return_to_supply(m);
                self.meeples.remove(i);
            } else {
                i += 1;
            }
        }
        if self.options.abbot {
            self.return_abbot(root, fx);
        }
        if self.options.traders_builders {
            self.special_figures_home(root, fx);
        }
        self.features.meeples[root as usize] = [0; MAX_PLAYERS];
    }

    /// Puts the current player's meeple on the feature of segment `global` (the large meeple
    /// counts 2 there), refused if a figure already stands anywhere on that feature. The
    /// supply, the note and the end of the turn are the caller's.
    pub(super) fn put_on_free_feature(
        &mut self,
        global: u32,
        kind: FeatureKind,
        at: Pos,
        label: SegmentLabel,
        large: bool,
    ) -> Result<(), RuleViolation> {
        let root = self.features.find(global);
        if self.features.meeple_total(root) > 0 {
            let (owner, owner_at, owner_label) = self.holder(root);
            return Err(RuleViolation::FeatureOccupied {
                kind,
                at,
                label,
                owner,
                owner_at,
                owner_label,
            });
        }
        let player = self.current;
        self.meeples.push(Meeple {
            player,
            segment: global,
            paired: false,
            large,
        });
        self.features.meeples[root as usize][player as usize] += if large { 2 } else { 1 };
        Ok(())
    }

    /// A figure on the occupied feature `root`, for refusals: its owner, square and label
    /// (a meeple, else an abbot).
    pub(super) fn holder(&self, root: u32) -> (u8, Pos, SegmentLabel) {
        let (player, segment) = self
            .meeples
            .iter()
            .find(|m| self.features.root(m.segment) == root)
            .map(|m| (m.player, m.segment))
            .or_else(|| self.abbot_standing_on(root))
            .expect("an occupied feature has a figure on the board");
        let (at, _, label) = self.segment_place(segment);
        (player, at, label)
    }
}
