//! Inns & Cathedrals (option `inns_cathedrals`, `docs/rules.md`, Inns & Cathedrals): inns
//! beside roads and cathedrals in cities (flags on the tile set's road and city segments,
//! `data/inns_cathedrals.json`), which raise a completed feature's value and make an
//! incomplete one worth nothing at the end, and one large meeple per player, placed instead
//! of a meeple and counting as two meeples for the majority. Everything the expansion adds is
//! here; the core calls in at named points: the setup check ([`check_setup`], from
//! [`Game::new`]), the large meeple's action (`place_large_meeple`, from [`Game::apply`]),
//! a figure going home (`return_to_supply`, from `Game::return_meeples` and the gifts), and the
//! scoring of roads and cities (`building_value`, from `Game::evaluate` and
//! `Game::quiet_points`).
//!
//! The large meeple is a [`Meeple`] marked `large`: it adds two to its owner's count on the
//! feature (`Features::meeples`), so every majority, occupancy and scoring rule of the core
//! holds for it unchanged, and it goes back to its own place in the supply.
//!
//! Rule ids implemented (`docs/rules.md`): `inns.option`, `inns.large-meeple.place`,
//! `inns.large-meeple.majority`, `inns.score.inn.completed`, `inns.score.inn.final`,
//! `inns.score.cathedral.completed`, `inns.score.cathedral.final`.

use super::{Effects, Game, Meeple, MeepleSpot, Phase, Setup};
use crate::features::MAX_PLAYERS;
use crate::geometry::Pos;
use crate::ruling::{rule, Note, RuleId, RuleViolation};
use crate::score::{noun, ScoreTime};
use crate::tileset::{FeatureKind, SegmentLabel};

/// Inns & Cathedrals' part of a game's state: whether each seat's large meeple is in its
/// supply (always false without the expansion).
#[derive(Clone, Copy, Debug)]
pub(super) struct InnsState {
    large_in_supply: [bool; MAX_PLAYERS],
}

impl InnsState {
    /// At the start of a game: every seat's large meeple in supply, with the expansion.
    pub(super) fn new(setup: &Setup) -> InnsState {
        let mut large_in_supply = [false; MAX_PLAYERS];
        large_in_supply[..setup.players as usize].fill(setup.options.inns_cathedrals);
        InnsState { large_in_supply }
    }
}

/// Tiles with an inn or a cathedral are only played with the option; the option does not
/// combine with a map board (the map's road and city scoring knows no inns) [I].
pub(super) fn check_setup(setup: &Setup) -> Result<(), RuleViolation> {
    if !setup.options.inns_cathedrals {
        if let Some(t) = setup
            .tiles
            .tiles()
            .iter()
            .find(|t| t.segments.iter().any(|s| s.inn || s.cathedral))
        {
            return Err(RuleViolation::InnsCathedralsOff { tile: t.id.clone() });
        }
        return Ok(());
    }
    if setup.map.is_some() {
        return Err(RuleViolation::Setup {
            what: "Inns & Cathedrals is not combined with a map board (Carcassonne Maps)".into(),
        });
    }
    Ok(())
}

impl Meeple {
    /// What the figure counts for in its feature's majority: 2 for the large meeple.
    pub(super) fn weight(&self) -> u8 {
        if self.large {
            2
        } else {
            1
        }
    }
}

impl Game {
    // ---- queries ---------------------------------------------------------------------------

    /// Whether seat `seat` has its large meeple in supply (always false without the
    /// expansion).
    pub fn large_meeple_in_supply(&self, seat: u8) -> bool {
        self.inns.large_in_supply.get(seat as usize).copied() == Some(true)
    }

    /// Large meeples on the board: owner, square, segment and its label, in placing order.
    pub fn large_meeples(&self) -> impl Iterator<Item = (u8, Pos, u8, SegmentLabel)> + '_ {
        self.meeples.iter().filter(|m| m.large).map(|m| {
            let (at, local, label) = self.segment_place(m.segment);
            (m.player, at, local, label)
        })
    }

    /// Where seat `seat`'s large meeple stands, or `None` (in supply, or no expansion).
    pub fn large_meeple_of(&self, seat: u8) -> Option<(Pos, SegmentLabel)> {
        self.large_meeples()
            .find(|&(p, ..)| p == seat)
            .map(|(_, at, _, label)| (at, label))
    }

    /// Every legal target of the large meeple now, into `out`: the targets a meeple has on
    /// the tile just placed, when the large meeple is in supply (empty otherwise).
    pub fn legal_large_meeples(&self, out: &mut Vec<MeepleSpot>) {
        out.clear();
        let Phase::Meeple { at } = self.phase else {
            return;
        };
        if self.large_meeple_in_supply(self.current) {
            self.free_spots(at, out);
        }
    }

    // ---- actions ---------------------------------------------------------------------------

    /// The large meeple from supply on segment `segment` of the tile just placed at `at`.
    /// Ends the meeple step.
    pub(super) fn place_large_meeple(
        &mut self,
        at: Pos,
        segment: u8,
        fx: &mut Effects,
    ) -> Result<(), RuleViolation> {
        if !self.options.inns_cathedrals {
            return Err(RuleViolation::LargeMeepleNotInGame);
        }
        let player = self.current;
        if let Some((on_at, on_label)) = self.large_meeple_of(player) {
            return Err(RuleViolation::LargeMeepleNotInSupply {
                player,
                at: on_at,
                label: on_label,
            });
        }
        let placed = *self.board.tile_at(at).expect("the tile just placed");
        let (kind, label, global) = self.figure_target(placed, at, segment)?;
        self.put_on_free_feature(global, kind, at, label, true)?;
        self.inns.large_in_supply[player as usize] = false;
        fx.notes.push(Note::LargeMeeplePlaced { label });
        self.finish_turn(fx);
        Ok(())
    }

    /// A figure taken off the board goes back to its owner's supply: the large meeple to its
    /// own place there.
    pub(super) fn return_to_supply(&mut self, m: Meeple) {
        if m.large {
            self.inns.large_in_supply[m.player as usize] = true;
        } else {
            self.supply[m.player as usize] += 1;
        }
    }

    // ---- scoring ---------------------------------------------------------------------------

    /// Whether the road or city `root` has an inn (road) or a cathedral (city) on any of its
    /// segments. Always false without the expansion (no scan then).
    pub(super) fn has_building(&self, root: u32) -> bool {
        if !self.options.inns_cathedrals {
            return false;
        }
        let f = &self.features;
        f.member_iter(root).filter(|&s| s >= self.pseudo).any(|s| {
            let placed = &self.board.placed[f.tile[s as usize] as usize];
            let def = &self.tiles.get(placed.tile).segments[f.local[s as usize] as usize];
            def.inn || def.cathedral
        })
    }

    /// The value of a road with an inn or a city with a cathedral of `tiles` tiles and
    /// `coats_of_arms` coats of arms: points, formula and rule; `None` for a feature without
    /// one (the core's values hold) or another kind.
    pub(super) fn building_value(
        &self,
        root: u32,
        kind: FeatureKind,
        tiles: u32,
        coats_of_arms: u32,
        time: ScoreTime,
    ) -> Option<(u32, String, RuleId)> {
        if !matches!(kind, FeatureKind::Road | FeatureKind::City) || !self.has_building(root) {
            return None;
        }
        let n = tiles;
        let tile_words = noun(n, "tile", "tiles");
        Some(match (kind, time) {
            (FeatureKind::Road, ScoreTime::Completed) => (
                2 * n,
                format!("road with an inn: 2 × {n} {tile_words} = {}", 2 * n),
                rule::INN_COMPLETED,
            ),
            (FeatureKind::Road, ScoreTime::Final) => (
                0,
                format!("road with an inn, incomplete at the end: 0 (its {n} {tile_words} score nothing)"),
                rule::INN_FINAL,
            ),
            (_, ScoreTime::Completed) => (
                3 * n + 3 * coats_of_arms,
                format!(
                    "city with a cathedral: 3 × {n} {tile_words} + 3 × {coats_of_arms} {} = {}",
                    noun(coats_of_arms, "coat of arms", "coats of arms"),
                    3 * n + 3 * coats_of_arms
                ),
                rule::CATHEDRAL_COMPLETED,
            ),
            (_, ScoreTime::Final) => (
                0,
                format!(
                    "city with a cathedral, incomplete at the end: 0 (its {n} {tile_words} and {coats_of_arms} {} score nothing)",
                    noun(coats_of_arms, "coat of arms", "coats of arms")
                ),
                rule::CATHEDRAL_FINAL,
            ),
        })
    }
}
