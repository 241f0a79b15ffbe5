//! The unfinished features as they stand, for a reader that weighs what may still happen to
//! them (the engine's evaluation, the review's reasons): each one's kind, meeples, value now
//! and if it were completed now, the empty squares it still needs, and for a field the cities
//! it touches. And which rotations of a tile fit an empty square: with the tiles left in the
//! bag, that tells whether a feature can still be completed at all.
//!
//! It reads the game and changes nothing; the buffers are the caller's, so a search that
//! surveys every leaf allocates once.

use super::Game;
use crate::features::MAX_PLAYERS;
use crate::geometry::{Pos, Rotation, Side};
use crate::score::ScoreTime;
use crate::tileset::{FeatureKind, TileTypeId};

/// One unfinished feature: a city or road with open sides, a monastery or garden with empty
/// squares around it, or a field with a figure on it (a field is never completed; one nobody
/// stands on scores nothing, so it is left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenFeature {
    /// What it is.
    pub kind: FeatureKind,
    /// A square of the feature and the local segment there ([`Game::appraise`] and
    /// [`Game::feature_segments`] take it).
    pub at: Pos,
    /// The local segment on `at`'s tile.
    pub segment: u8,
    /// Each seat's figures on it, as majority counts them (a large meeple counts 2).
    pub meeples: [u8; MAX_PLAYERS],
    /// What it would score at the end of the game as it stands (final scoring).
    pub points_now: u32,
    /// What it would score if it were completed as it stands: a city or road closed without
    /// another tile of its own, a monastery with its ring filled (fields: `points_now`).
    pub points_completed: u32,
    /// Sides of the feature not yet matched (cities and roads), or empty squares around it
    /// (monasteries, gardens); 0 for fields. On a map a large city's open sides count too.
    pub open: u32,
    squares: (u32, u32),
    cities: (u32, u32),
    /// Fields: the completed cities it touches (each worth 3 at the end, base game).
    pub completed_cities: u32,
}

/// An empty square an unfinished feature needs filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenSquare {
    /// The square.
    pub at: Pos,
    /// The square's sides that face the feature (bit [`Side::index`] per side; a city with a
    /// hole may face it on several). 0 around a monastery or garden.
    pub facing: u8,
}

/// The unfinished features of a game (see [`Game::survey_features`]); reused between calls.
#[derive(Clone, Debug, Default)]
pub struct FeatureSurvey {
    features: Vec<OpenFeature>,
    squares: Vec<OpenSquare>,
    cities: Vec<u32>,
    /// Scratch: a feature root's index in `features`, or `u32::MAX`.
    index_of_root: Vec<u32>,
}

impl FeatureSurvey {
    /// An empty survey.
    pub fn new() -> FeatureSurvey {
        FeatureSurvey::default()
    }

    /// The unfinished features: cities first, then roads, monasteries and gardens, then the
    /// fields with a figure on them.
    pub fn features(&self) -> &[OpenFeature] {
        &self.features
    }

    /// The distinct empty squares `feature` needs filled (cities, roads: across its open sides;
    /// monasteries, gardens: around it, where a tile may lie). Empty for fields.
    pub fn squares(&self, feature: &OpenFeature) -> &[OpenSquare] {
        &self.squares[feature.squares.0 as usize..feature.squares.1 as usize]
    }

    /// For a field: the unfinished cities it touches, as indices into [`Self::features`].
    pub fn cities(&self, feature: &OpenFeature) -> &[u32] {
        &self.cities[feature.cities.0 as usize..feature.cities.1 as usize]
    }
}

impl Game {
    /// Lists the unfinished features into `out` (see [`FeatureSurvey`]). A feature lying only
    /// on a map's printed large city (no tile of its own) is named by a tile that joined it
    /// or left out.
    pub fn survey_features(&self, out: &mut FeatureSurvey) {
        out.features.clear();
        out.squares.clear();
        out.cities.clear();
        let f = &self.features;
        out.index_of_root.clear();
        out.index_of_root.resize(f.len() as usize, u32::MAX);
        for pass in [
            FeatureKind::City,
            FeatureKind::Road,
            FeatureKind::Monastery,
            FeatureKind::Field,
        ] {
            for root in 0..f.len() {
                if !f.is_root(root) {
                    continue;
                }
                let kind = f.kind[root as usize];
                let in_pass = match pass {
                    FeatureKind::Monastery => {
                        matches!(kind, FeatureKind::Monastery | FeatureKind::Garden)
                    }
                    other => kind == other,
                };
                if !in_pass {
                    continue;
                }
                let meeples = f.meeples[root as usize];
                let open = u32::from(f.open[root as usize]);
                let unfinished = match kind {
                    FeatureKind::Field => meeples.iter().any(|&m| m > 0),
                    _ => open > 0,
                };
                if !unfinished {
                    continue;
                }
                if let Some(feature) = self.survey_one(root, kind, meeples, open, out) {
                    out.index_of_root[root as usize] = out.features.len() as u32;
                    out.features.push(feature);
                }
            }
        }
    }

    /// One unfinished feature with its squares (and, for a field, its cities) appended to
    /// `out`'s lists. `None` when no tile of the feature lies on the board.
    fn survey_one(
        &self,
        root: u32,
        kind: FeatureKind,
        meeples: [u8; MAX_PLAYERS],
        open: u32,
        out: &mut FeatureSurvey,
    ) -> Option<OpenFeature> {
        let f = &self.features;
        let first = f.member_iter(root).filter(|&s| s >= self.pseudo).min()?;
        let placed = &self.board.placed[f.tile[first as usize] as usize];
        let (at, segment) = (placed.at, f.local[first as usize]);
        let squares_from = out.squares.len() as u32;
        let cities_from = out.cities.len() as u32;
        let mut completed: Vec<u32> = Vec::new();
        match kind {
            FeatureKind::City | FeatureKind::Road => {
                for s in f.member_iter(root).filter(|&s| s >= self.pseudo) {
                    let placed = &self.board.placed[f.tile[s as usize] as usize];
                    let sides = self
                        .tiles
                        .get(placed.tile)
                        .segment_sides(placed.rotation, f.local[s as usize]);
                    for side in Side::ALL {
                        if sides & (1 << side.index()) == 0 {
                            continue;
                        }
                        let Some(next) = placed.at.step(side) else {
                            continue;
                        };
                        if self.board.tile_index(next).is_some() {
                            continue;
                        }
                        let facing = 1 << side.opposite().index();
                        let from = squares_from as usize;
                        match out.squares[from..].iter_mut().find(|q| q.at == next) {
                            Some(known) => known.facing |= facing,
                            None => out.squares.push(OpenSquare { at: next, facing }),
                        }
                    }
                }
            }
            FeatureKind::Monastery | FeatureKind::Garden => {
                for around in at.ring() {
                    if self.board.tile_index(around).is_none() && self.check_on_map(around).is_ok()
                    {
                        out.squares.push(OpenSquare {
                            at: around,
                            facing: 0,
                        });
                    }
                }
            }
            FeatureKind::Field => {
                for city in self.touched_cities(root) {
                    if f.open[city as usize] == 0 {
                        if !completed.contains(&city) {
                            completed.push(city);
                        }
                        continue;
                    }
                    let index = out.index_of_root[city as usize];
                    if index != u32::MAX && !out.cities[cities_from as usize..].contains(&index) {
                        out.cities.push(index);
                    }
                }
            }
        }
        let points_now = self.points_of(root, ScoreTime::Final);
        let points_completed = match kind {
            FeatureKind::Field => points_now,
            _ => self.points_of(root, ScoreTime::Completed),
        };
        Some(OpenFeature {
            kind,
            at,
            segment,
            meeples,
            points_now,
            points_completed,
            open,
            squares: (squares_from, out.squares.len() as u32),
            cities: (cities_from, out.cities.len() as u32),
            completed_cities: completed.len() as u32,
        })
    }

    /// The rotations of `tile` (bit `r` for [`Rotation::new`]`(r)`, each distinct rotation
    /// once) whose edges match the tiles around the empty square `at` (and the edges a map
    /// prints there); 0 when `at` holds a tile or cannot hold one. The River's own rule for
    /// river tiles is not asked: this is about land tiles fitting land.
    pub fn fitting_rotations(&self, tile: TileTypeId, at: Pos) -> u8 {
        if self.board.tile_index(at).is_some() || self.check_on_map(at).is_err() {
            return 0;
        }
        let t = self.tiles.get(tile);
        let (required, mask) = self.board.neighbours_constraint(at);
        let (map_required, map_mask) = self.map_constraint(at);
        if map_mask == 0 {
            return t.fits(required);
        }
        let (required, mask) = (required | map_required, mask | map_mask);
        let mut bits = 0;
        for rotation in Rotation::ALL {
            if t.is_distinct_rotation(rotation) && t.pattern(rotation) & mask == required {
                bits |= 1 << rotation.quarter_turns();
            }
        }
        bits
    }
}
