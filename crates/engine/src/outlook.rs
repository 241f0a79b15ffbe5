//! What the tiles left in the bag say about each unfinished feature: for each empty square it
//! needs, how many of the tiles left fit there and how many would close it there; from that,
//! whether it can still be completed at all (a square no tile left fits stays empty: the
//! feature is dead and its meeples stay on it until the end), its chance to be completed, and
//! the points it is expected to bring. Per seat: the points it is expected to add, its meeples
//! stuck in dead features and its farmers, the features it shares with another seat.
//!
//! The bag is what the player to move knows of it (every tile not yet placed, set aside or
//! drawn), so the reading is the same for every guess of the bag's order.
//!
//! **Exact**: dead (no tile left fits a square; a square's neighbours only add constraints, so
//! it stays dead). **Estimated** (documented in `docs/engine.md`, "What the bag says"): a
//! square with `k` closing tiles left is closed before the end with chance `1 − (1 − a)^k`,
//! each tile drawn placed there with chance `a` = [`PLACED_THERE`]; a feature is completed when
//! every square is, independently; a monastery's ring squares fill the same way with the tiles
//! that fit them. The expected points of a city or road are `p · completed + (1 − p) · now`,
//! of a monastery its points now plus each ring square's chance, of a field its completed
//! cities' points plus each open city it touches times that city's chance.

use carc_rules::{FeatureKind, FeatureSurvey, Game, OpenFeature, Pos, Rotation, Side, TileTypeId};

use carc_rules::MAX_PLAYERS as SEATS;

/// The chance that one tile left which would close a square (or fill a monastery's ring
/// square) is placed there when it is drawn: an even chance for the player who draws it,
/// whoever that is. A prior, not fitted (`docs/engine.md`).
pub const PLACED_THERE: f64 = 0.5;

/// One empty square a feature needs, read against the tiles left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SquareOutlook {
    /// The square.
    pub at: Pos,
    /// Tiles left in the bag (copies counted) with a rotation that fits the square.
    pub fitting: u32,
    /// Of those, the tiles with a rotation that fits and closes the feature's sides there:
    /// the feature's part of the tile reaches no other empty square. (Around a monastery,
    /// every fitting tile fills the square: the same as `fitting`.)
    pub closing: u32,
    /// The chance the square is closed (filled) before the game ends.
    pub chance: f64,
}

/// One unfinished feature, read against the tiles left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeatureOutlook {
    /// The feature as the board shows it (kind, meeples, points now and completed).
    pub feature: OpenFeature,
    /// No tile left fits one of its squares (never for a field): it stays unfinished, and
    /// every figure on it stays until the end.
    pub dead: bool,
    /// Its chance to be completed before the game ends (0 when dead, 0 for fields; for a
    /// monastery, the chance that every ring square fills).
    pub completion: f64,
    /// The points it is expected to score, for each seat that wins it.
    pub expected_points: f64,
    /// Two or more seats have figures on it.
    pub contested: bool,
    squares: (u32, u32),
}

/// Each seat's share of an [`Outlook`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeatOutlook {
    /// Expected points from the unfinished features it wins (ties share), minus what they
    /// are worth now: what the bag is expected to add to its potential score (the sum of the
    /// four below).
    pub expected_gain: f64,
    /// The part of `expected_gain` from cities, ...
    pub city_gain: f64,
    /// ... from roads, ...
    pub road_gain: f64,
    /// ... from monasteries and gardens, ...
    pub monastery_gain: f64,
    /// ... and from fields.
    pub field_gain: f64,
    /// Meeples (figures of the majority count) in dead cities, roads and monasteries.
    pub stuck: u32,
    /// Figures on fields: they stay until the end too.
    pub farmers: u32,
    /// Unfinished features it shares with another seat.
    pub contested: u32,
}

/// The bag's reading of a whole position ([`read_outlook`]).
#[derive(Clone, Debug, Default)]
pub struct Outlook {
    features: Vec<FeatureOutlook>,
    squares: Vec<SquareOutlook>,
    /// Per seat, up to the game's players.
    pub seats: Vec<SeatOutlook>,
    /// Tiles left in the bag.
    pub tiles_left: u32,
}

impl Outlook {
    /// Every unfinished feature (cities, roads, monasteries and gardens, occupied fields).
    pub fn features(&self) -> &[FeatureOutlook] {
        &self.features
    }

    /// The squares `feature` needs, each with its tiles left.
    pub fn squares(&self, feature: &FeatureOutlook) -> &[SquareOutlook] {
        &self.squares[feature.squares.0 as usize..feature.squares.1 as usize]
    }
}

/// The bag's reading of `game` (see the module).
pub fn read_outlook(game: &Game) -> Outlook {
    let mut reader = OutlookReader::default();
    reader.read(game);
    reader.outlook
}

/// [`read_outlook`] with its buffers kept between positions (a search reads one per leaf).
#[derive(Clone, Debug, Default)]
pub(crate) struct OutlookReader {
    survey: FeatureSurvey,
    /// The tile types in the bag with their counts.
    bag: Vec<(TileTypeId, u32)>,
    pub(crate) outlook: Outlook,
}

impl OutlookReader {
    /// Reads `game` into `self.outlook`.
    pub(crate) fn read(&mut self, game: &Game) {
        game.survey_features(&mut self.survey);
        self.bag.clear();
        for id in game.tiles().ids() {
            let n = u32::from(game.bag_count(id));
            if n > 0 {
                self.bag.push((id, n));
            }
        }
        let out = &mut self.outlook;
        out.features.clear();
        out.squares.clear();
        out.tiles_left = game.bag_left();
        let players = usize::from(game.players()).min(SEATS);
        out.seats.clear();
        out.seats.resize(players, SeatOutlook::default());
        let survey = &self.survey;
        for feature in survey.features() {
            let from = out.squares.len() as u32;
            let mut dead = false;
            let mut all_closed = 1.0;
            let mut ring_filled = 0.0;
            let needed = survey.squares(feature).len() as u32;
            for square in survey.squares(feature) {
                let (fitting, closing) = count_tiles(game, &self.bag, square.at, square.facing);
                dead |= fitting == 0;
                let chance = 1.0 - (1.0 - PLACED_THERE).powi(closing.min(1_000) as i32);
                all_closed *= chance;
                ring_filled += chance;
                out.squares.push(SquareOutlook {
                    at: square.at,
                    fitting,
                    closing,
                    chance,
                });
            }
            // More squares to fill than tiles left: it cannot be completed either.
            let unreachable = needed > out.tiles_left;
            let now = f64::from(feature.points_now);
            let completed = f64::from(feature.points_completed);
            let (completion, expected_points) = match feature.kind {
                FeatureKind::Field => {
                    let per_city = if feature.completed_cities > 0 {
                        now / f64::from(feature.completed_cities)
                    } else {
                        3.0
                    };
                    let more: f64 = survey
                        .cities(feature)
                        .iter()
                        .map(|&i| out.features[i as usize].completion)
                        .sum();
                    (0.0, now + per_city * more)
                }
                FeatureKind::Monastery | FeatureKind::Garden => {
                    let p = if dead || unreachable { 0.0 } else { all_closed };
                    // No more squares fill than tiles are left.
                    let filled = ring_filled.min(f64::from(out.tiles_left));
                    (p, (now + filled).min(completed))
                }
                FeatureKind::City | FeatureKind::Road => {
                    let p = if dead || unreachable { 0.0 } else { all_closed };
                    (p, p * completed + (1.0 - p) * now)
                }
            };
            let holders = feature.meeples[..players]
                .iter()
                .filter(|&&m| m > 0)
                .count();
            let most = feature.meeples[..players]
                .iter()
                .copied()
                .max()
                .unwrap_or(0);
            for (seat, &m) in out.seats.iter_mut().zip(&feature.meeples[..players]) {
                if m == 0 {
                    continue;
                }
                if m == most {
                    let gain = expected_points - now;
                    seat.expected_gain += gain;
                    *match feature.kind {
                        FeatureKind::City => &mut seat.city_gain,
                        FeatureKind::Road => &mut seat.road_gain,
                        FeatureKind::Monastery | FeatureKind::Garden => &mut seat.monastery_gain,
                        FeatureKind::Field => &mut seat.field_gain,
                    } += gain;
                }
                match feature.kind {
                    FeatureKind::Field => seat.farmers += u32::from(m),
                    _ if dead => seat.stuck += u32::from(m),
                    _ => {}
                }
                if holders > 1 {
                    seat.contested += 1;
                }
            }
            out.features.push(FeatureOutlook {
                feature: *feature,
                dead: dead && feature.kind != FeatureKind::Field,
                completion,
                expected_points,
                contested: holders > 1,
                squares: (from, out.squares.len() as u32),
            });
        }
    }
}

/// The tiles left that fit the empty square `at`, and those that also close the feature
/// facing it on the sides `facing` (0: a monastery's ring square, any fitting tile fills it).
fn count_tiles(game: &Game, bag: &[(TileTypeId, u32)], at: Pos, facing: u8) -> (u32, u32) {
    let (mut fitting, mut closing) = (0, 0);
    for &(id, n) in bag {
        let rotations = game.fitting_rotations(id, at);
        if rotations == 0 {
            continue;
        }
        fitting += n;
        if facing == 0 || closes_in_some_rotation(game, id, at, facing, rotations) {
            closing += n;
        }
    }
    (fitting, closing)
}

/// Whether one of `rotations` of `tile` on `at` closes the feature on the sides `facing`: the
/// tile's segments on those sides reach no other side that leads to an empty square.
fn closes_in_some_rotation(
    game: &Game,
    tile: TileTypeId,
    at: Pos,
    facing: u8,
    rotations: u8,
) -> bool {
    let t = game.tiles().get(tile);
    let leads_to_empty = |side: Side| {
        at.step(side)
            .is_some_and(|next| game.tile_at(next).is_none())
    };
    Rotation::ALL.into_iter().any(|rotation| {
        rotations & (1 << rotation.quarter_turns()) != 0
            && Side::ALL
                .into_iter()
                .filter(|side| facing & (1 << side.index()) != 0)
                .all(|side| {
                    let Some(segment) = t.segment_at_side(rotation, side) else {
                        return true;
                    };
                    let reaches = t.segment_sides(rotation, segment) & !facing;
                    Side::ALL
                        .into_iter()
                        .filter(|other| reaches & (1 << other.index()) != 0)
                        .all(|other| !leads_to_empty(other))
                })
    })
}
