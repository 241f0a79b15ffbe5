//! Scoring and its explanations: a feature valued as it stands (`evaluate`, the [`Score`]
//! with its tiles, meeples, formula and rule), the points-only fast path for quiet effects
//! (`quiet_points`), awarding points and the queries that explain a feature (`appraise`,
//! `feature_segments`). On a map, monasteries, roads and cities are valued by `maps`.

use super::{Effects, Game};
use crate::geometry::Pos;
use crate::ruling::rule;
use crate::score::{noun, FeatureRef, Score, ScoreSource, ScoreTime};
use crate::tileset::{FeatureKind, SegmentLabel};

impl Game {
    fn feature_ref(&self, root: u32) -> FeatureRef {
        let Some(first) = self
            .features
            .member_iter(root)
            .filter(|&s| s >= self.pseudo)
            .min()
        else {
            return self.large_city_ref(root);
        };
        let (at, _, label) = self.segment_place(first);
        FeatureRef { at, label }
    }

    /// The feature a segment belongs to, valued as it stands: completed value if complete,
    /// final-scoring value otherwise. For explanations and hovering; changes nothing.
    pub fn appraise(&self, at: Pos, segment: u8) -> Option<Score> {
        let (root, time) = self.appraised(at, segment)?;
        Some(self.evaluate(root, time))
    }

    /// The points of [`Game::appraise`]'s score, without building its explanation (tile
    /// list, meeple counts, formula text): what a simulated player weighing hundreds of moves
    /// a turn reads. Without a map the points come from the quiet scoring path that
    /// `score_feature` already trusts to match `evaluate`; on a map, or past that path's
    /// limits, from `evaluate` itself.
    pub fn appraise_points(&self, at: Pos, segment: u8) -> Option<u32> {
        let (root, time) = self.appraised(at, segment)?;
        Some(self.points_of(root, time))
    }

    /// The points the feature `root` scores at `time`, by the quiet path where it serves.
    pub(super) fn points_of(&self, root: u32, time: ScoreTime) -> u32 {
        let quiet = if self.map().is_none() {
            self.quiet_points(root, time)
        } else {
            None
        };
        quiet.unwrap_or_else(|| self.evaluate(root, time).points)
    }

    /// The root of the feature `segment` of the tile at `at` belongs to and the time it is
    /// valued at: completed if it is, final scoring otherwise.
    fn appraised(&self, at: Pos, segment: u8) -> Option<(u32, ScoreTime)> {
        let placed = self.board.tile_at(at)?;
        let tile = self.tiles.get(placed.tile);
        if segment as usize >= tile.segments.len() {
            return None;
        }
        let root = self
            .features
            .root(placed.first_segment + u32::from(segment));
        let time = if self.features.kind[root as usize] != FeatureKind::Field
            && self.features.open[root as usize] == 0
        {
            ScoreTime::Completed
        } else {
            ScoreTime::Final
        };
        Some((root, time))
    }

    /// All squares and segments of the feature a segment belongs to (for highlighting).
    pub fn feature_segments(&self, at: Pos, segment: u8) -> Vec<(Pos, SegmentLabel)> {
        let Some(placed) = self.board.tile_at(at) else {
            return Vec::new();
        };
        if segment as usize >= self.tiles.get(placed.tile).segments.len() {
            return Vec::new();
        }
        let root = self
            .features
            .root(placed.first_segment + u32::from(segment));
        let mut members = self.features.members(root);
        members.retain(|&s| s >= self.pseudo);
        members.sort_unstable();
        members
            .into_iter()
            .map(|s| {
                let (at, _, label) = self.segment_place(s);
                (at, label)
            })
            .collect()
    }

    /// Scores the feature `root` by the normal rules: explained (`evaluate`, then `award`), or
    /// with `Effects::quiet` and no map, by `quiet_points` alone.
    pub(super) fn score_feature(&mut self, root: u32, time: ScoreTime, fx: &mut Effects) {
        if !fx.explain && self.map().is_none() {
            if let Some(points) = self.quiet_points(root, time) {
                debug_assert_eq!(points, self.evaluate(root, time).points);
                let counts = self.features.meeples[root as usize];
                let most = counts.iter().copied().max().unwrap_or(0);
                if most > 0 {
                    for p in 0..self.players {
                        if counts[p as usize] == most {
                            self.score[p as usize] += points;
                        }
                    }
                }
                self.return_meeples(root, fx);
                return;
            }
        }
        let score = self.evaluate(root, time);
        self.award(root, score, fx);
    }

    /// The points `evaluate` gives the feature `root` in a game without a map, computed
    /// without building the explanation; `None` (then `evaluate` is used) past the limits of
    /// its fixed-size sets.
    fn quiet_points(&self, root: u32, time: ScoreTime) -> Option<u32> {
        let f = &self.features;
        // Distinct squares of the feature, as a bit set of placed-tile indices.
        let mut seen = [0u64; 4];
        if self.board.placed.len() > 64 * seen.len() {
            return None;
        }
        let mut squares = 0u32;
        let mut count_squares = |seen: &mut [u64; 4]| {
            for s in f.member_iter(root) {
                let t = f.tile[s as usize] as usize;
                let bit = 1u64 << (t % 64);
                if seen[t / 64] & bit == 0 {
                    seen[t / 64] |= bit;
                    squares += 1;
                }
            }
            squares
        };
        let coats_of_arms = u32::from(f.coats_of_arms[root as usize]);
        Some(match f.kind[root as usize] {
            FeatureKind::Monastery | FeatureKind::Garden => match time {
                ScoreTime::Completed => 9,
                ScoreTime::Final => {
                    let at = self.board.placed[f.tile[root as usize] as usize].at;
                    1 + at
                        .ring()
                        .filter(|&p| self.board.tile_index(p).is_some())
                        .count() as u32
                }
            },
            FeatureKind::Road => {
                let n = count_squares(&mut seen);
                match self.building_value(root, FeatureKind::Road, n, 0, time) {
                    Some((points, ..)) => points,
                    None => n,
                }
            }
            FeatureKind::City => {
                let n = count_squares(&mut seen);
                if let Some((points, ..)) =
                    self.building_value(root, FeatureKind::City, n, coats_of_arms, time)
                {
                    return Some(points);
                }
                match time {
                    ScoreTime::Completed if n == 2 && self.options.two_tile_city == 2 => 2,
                    ScoreTime::Completed => 2 * n + 2 * coats_of_arms,
                    ScoreTime::Final => n + coats_of_arms,
                }
            }
            FeatureKind::Field => {
                // Distinct completed cities touching the field.
                let mut roots = [0u32; 32];
                let mut n = 0;
                for city in self.touched_cities(root) {
                    if f.open[city as usize] == 0 && !roots[..n].contains(&city) {
                        if n == roots.len() {
                            return None;
                        }
                        roots[n] = city;
                        n += 1;
                    }
                }
                3 * n as u32
            }
        })
    }

    /// The root of each city a field's segments touch, once per touching segment (so a city
    /// may come more than once), completed or not: what a field is scored and surveyed by.
    pub(super) fn touched_cities(&self, field: u32) -> impl Iterator<Item = u32> + '_ {
        let f = &self.features;
        f.member_iter(field).flat_map(move |s| {
            let placed = &self.board.placed[f.tile[s as usize] as usize];
            let mut touches =
                self.tiles.get(placed.tile).segments[f.local[s as usize] as usize].touches;
            std::iter::from_fn(move || {
                if touches == 0 {
                    return None;
                }
                let i = touches.trailing_zeros();
                touches &= touches - 1;
                Some(f.root(placed.first_segment + i))
            })
        })
    }

    pub(super) fn award(&mut self, root: u32, score: Score, fx: &mut Effects) {
        for &w in &score.winners {
            self.score[w as usize] += score.points;
        }
        fx.scores.push(score);
        self.return_meeples(root, fx);
    }

    /// Values a feature (given its root) without changing anything.
    pub(super) fn evaluate(&self, root: u32, time: ScoreTime) -> Score {
        let f = &self.features;
        let kind = f.kind[root as usize];
        let members = f.members(root);
        // Room for a monastery's ring too, so the extends below never reallocate.
        let mut tiles: Vec<Pos> = Vec::with_capacity(members.len() + 8);
        tiles.extend(
            members
                .iter()
                .filter(|&&s| s >= self.pseudo)
                .map(|&s| self.board.placed[f.tile[s as usize] as usize].at),
        );
        let coats_of_arms = u32::from(f.coats_of_arms[root as usize]);
        let mut cities = Vec::new();
        let counts = f.meeples[root as usize];
        let meeples: Vec<(u8, u8)> = (0..self.players)
            .filter(|&p| counts[p as usize] > 0)
            .map(|p| (p, counts[p as usize]))
            .collect();
        let most = counts.iter().copied().max().unwrap_or(0);
        let winners: Vec<u8> = if most == 0 {
            Vec::new()
        } else {
            (0..self.players)
                .filter(|&p| counts[p as usize] == most)
                .collect()
        };

        let (points, formula, rule) = match kind {
            FeatureKind::Monastery | FeatureKind::Garden if self.map().is_some() => {
                let (points, formula, rule) = self.monastery_on_map(&mut tiles, time);
                if kind == FeatureKind::Garden {
                    let garden = Game::garden_formula(0, time);
                    (points, formula.replace("monastery", "garden"), garden.2)
                } else {
                    (points, formula, rule)
                }
            }
            FeatureKind::Garden => {
                let at = tiles[0];
                tiles.extend(at.ring().filter(|&p| self.board.tile_index(p).is_some()));
                Game::garden_formula((tiles.len() - 1) as u32, time)
            }
            FeatureKind::Monastery => {
                let at = tiles[0];
                tiles.extend(at.ring().filter(|&p| self.board.tile_index(p).is_some()));
                let neighbours = (tiles.len() - 1) as u32;
                match time {
                    ScoreTime::Completed => (
                        9,
                        "1 for the monastery + 8 surrounding tiles = 9".to_string(),
                        rule::SCORE_MONASTERY_COMPLETED,
                    ),
                    ScoreTime::Final => (
                        1 + neighbours,
                        format!(
                            "1 for the monastery + {neighbours} {} = {}",
                            noun(neighbours, "surrounding tile", "surrounding tiles"),
                            1 + neighbours
                        ),
                        rule::SCORE_MONASTERY_FINAL,
                    ),
                }
            }
            FeatureKind::Road if self.map().is_some() => {
                self.road_on_map(&mut tiles, &members, coats_of_arms, time)
            }
            FeatureKind::Road => {
                tiles.sort_unstable();
                tiles.dedup();
                let n = tiles.len() as u32;
                let rule = match time {
                    ScoreTime::Completed => rule::SCORE_ROAD_COMPLETED,
                    ScoreTime::Final => rule::SCORE_ROAD_FINAL,
                };
                self.building_value(root, kind, n, 0, time)
                    .unwrap_or_else(|| {
                        (
                            n,
                            format!("1 × {n} {} = {n}", noun(n, "tile", "tiles")),
                            rule,
                        )
                    })
            }
            FeatureKind::City if self.map().is_some() => {
                self.city_on_map(&mut tiles, &members, coats_of_arms, time)
            }
            FeatureKind::City => {
                tiles.sort_unstable();
                tiles.dedup();
                let n = tiles.len() as u32;
                let building = self.building_value(root, kind, n, coats_of_arms, time);
                match time {
                    _ if building.is_some() => building.expect("just checked"),
                    ScoreTime::Completed if n == 2 && self.options.two_tile_city == 2 => (
                        2,
                        "two-tile city, old-rules option: 2".to_string(),
                        rule::SCORE_CITY_TWO_TILE,
                    ),
                    ScoreTime::Completed => (
                        2 * n + 2 * coats_of_arms,
                        format!(
                            "2 × {n} {} + 2 × {coats_of_arms} {} = {}",
                            noun(n, "tile", "tiles"),
                            noun(coats_of_arms, "coat of arms", "coats of arms"),
                            2 * n + 2 * coats_of_arms
                        ),
                        rule::SCORE_CITY_COMPLETED,
                    ),
                    ScoreTime::Final => (
                        n + coats_of_arms,
                        format!(
                            "1 × {n} {} + 1 × {coats_of_arms} {} = {}",
                            noun(n, "tile", "tiles"),
                            noun(coats_of_arms, "coat of arms", "coats of arms"),
                            n + coats_of_arms
                        ),
                        rule::SCORE_CITY_FINAL,
                    ),
                }
            }
            FeatureKind::Field => {
                tiles.sort_unstable();
                tiles.dedup();
                let mut roots: Vec<u32> = Vec::new();
                for city in self.touched_cities(root) {
                    if f.open[city as usize] == 0 && !roots.contains(&city) {
                        roots.push(city);
                    }
                }
                let mut refs: Vec<FeatureRef> =
                    roots.iter().map(|&r| self.feature_ref(r)).collect();
                // The key formats each anchor once (the order is by its debug text).
                refs.sort_by_cached_key(|r| (r.at, r.label.anchor.map(|a| format!("{a:?}"))));
                let n = refs.len() as u32;
                cities = refs;
                (
                    3 * n,
                    format!(
                        "3 × {n} {} = {}",
                        noun(n, "completed city", "completed cities"),
                        3 * n
                    ),
                    rule::SCORE_FIELD_FINAL,
                )
            }
        };
        Score {
            kind,
            time,
            feature: self.feature_ref(root),
            tiles,
            coats_of_arms: if kind == FeatureKind::City || kind == FeatureKind::Road {
                coats_of_arms
            } else {
                0
            },
            cities,
            meeples,
            winners,
            points,
            formula,
            rule,
            source: ScoreSource::Feature,
        }
    }
}
