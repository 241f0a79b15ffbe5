//! The 20th Anniversary expansion (option `anniversary`, `shared/rules/anniversary.md`):
//! arrows on tiles, activated when the square they point at holds a tile, and their actions
//! (companion, portal, extra turn). Everything the expansion adds to the game is here; the
//! core calls in at named points: the setup check ([`check_setup`], from [`Game::new`]),
//! after a placement (`arrows_after_placement`), the arrow choice (`choose_arrow`) and the
//! meeple through an arrow (`place_arrow_meeple`) from [`Game::apply`]. The turn passes in
//! the core (`finish_turn`), which also gives the extra turn granted here.
//!
//! Rule ids implemented (`docs/rules.md`; the refusals and notes carry them, see
//! [`crate::ruling`]): `anniversary.arrow.no-tile`,
//! `anniversary.arrow.activated`, `anniversary.arrow.one-per-turn`, `anniversary.arrow.once`,
//! `anniversary.companion`, `anniversary.companion.limit`, `anniversary.portal.unoccupied`,
//! `anniversary.portal.incomplete`, `anniversary.extra-turn`, `anniversary.extra-turn.limit`.

use std::sync::Arc;

use super::{Effects, Game, Meeple, Phase, Setup};
use crate::geometry::{Pos, Rotation, Side};
use crate::reuse::clone_reusing;
use crate::ruling::{rule, Note, RuleViolation};
use crate::score::{FeatureRef, Score, ScoreSource, ScoreTime};
use crate::tileset::{Anchor, ArrowSymbol, FeatureKind, SegmentLabel, TileTypeId};

/// An arrow on the board (20th Anniversary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedArrow {
    /// The square of the tile that carries the arrow.
    pub at: Pos,
    /// What the arrow does when activated: companion, portal or extra turn.
    pub symbol: ArrowSymbol,
    /// The board side the arrow points out of.
    pub side: Side,
    /// The square it points at (`None` off the edge of the board).
    pub target: Option<Pos>,
    /// Whether it still waits, was activated, or can no longer be.
    pub state: ArrowState,
}

/// Where an arrow stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowState {
    /// Points at an empty square: activated when a tile fills it.
    Waiting,
    /// Activated (once, for good).
    Activated,
    /// Its square was filled without activating it, or it points off the board: it can never
    /// be activated. [I: each arrow points at one square, and that square can be filled once]
    Spent,
}

/// A legal target for a meeple sent through a companion or portal arrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrowMeepleSpot {
    /// The activated arrow's symbol: companion or portal.
    pub via: ArrowSymbol,
    /// The square of the tile the meeple would go on.
    pub at: Pos,
    /// The segment's local index on that tile, for [`super::Action::PlaceArrowMeeple`].
    pub segment: u8,
    /// The segment named for people, in board orientation.
    pub label: SegmentLabel,
}

/// The 20th Anniversary's part of a game's state (empty without the expansion, so the base
/// game pays nothing for arrows).
#[derive(Debug, Default)]
pub(super) struct ArrowsState {
    /// Arrows on the board, in the order their tiles were placed.
    placed: Vec<PlacedArrow>,
    /// Indices into `placed` the player chooses among in [`Phase::ChooseArrow`].
    choices: Vec<u32>,
    /// The companion or portal action this turn's activated arrow offers at the meeple step.
    action: Option<ArrowSymbol>,
}

clone_reusing!(ArrowsState {
    placed,
    choices,
    action
});

/// A tile set with arrows needs the expansion on: refused at setup otherwise.
pub(super) fn check_setup(setup: &Setup) -> Result<(), RuleViolation> {
    if !setup.options.anniversary {
        if let Some(t) = setup.tiles.tiles().iter().find(|t| t.arrow.is_some()) {
            return Err(RuleViolation::Setup {
                what: format!(
                    "tile {} carries an arrow, but the anniversary expansion is not on",
                    t.id
                ),
            });
        }
    }
    Ok(())
}

impl Game {
    /// Arrows on the board (20th Anniversary), in the order their tiles were placed.
    pub fn arrows(&self) -> &[PlacedArrow] {
        &self.arrows.placed
    }

    /// The companion or portal action the arrow activated this turn offers at the meeple
    /// step, if any.
    pub fn arrow_action(&self) -> Option<ArrowSymbol> {
        self.arrows.action
    }

    /// The local segment a label names on the tile at `at` (any placed tile: for meeples sent
    /// through a companion or portal arrow).
    pub fn resolve_segment_at(
        &self,
        action: ArrowSymbol,
        at: Pos,
        label: &SegmentLabel,
    ) -> Result<u8, RuleViolation> {
        self.segment_named(at, label, || RuleViolation::NoTileAt { action, at })
    }

    /// The arrows the player chooses among in [`Phase::ChooseArrow`], into `out` (empty in
    /// any other phase).
    pub fn legal_arrow_choices(&self, out: &mut Vec<PlacedArrow>) {
        out.clear();
        if let Phase::ChooseArrow { .. } = self.phase {
            out.extend(
                self.arrows
                    .choices
                    .iter()
                    .map(|&i| self.arrows.placed[i as usize]),
            );
        }
    }

    /// Every legal target for a meeple sent through this turn's companion or portal arrow,
    /// into `out` (empty when neither was activated, no meeple is left or the game is not at
    /// the meeple step). Each feature (portal) or meeple (companion) is listed once, by the
    /// segment with the lowest number; any segment of the same feature names it as well.
    pub fn legal_arrow_meeples(&self, out: &mut Vec<ArrowMeepleSpot>) {
        out.clear();
        let (Phase::Meeple { .. }, Some(via)) = (self.phase, self.arrows.action) else {
            return;
        };
        if self.supply[self.current as usize] == 0 {
            return;
        }
        match via {
            ArrowSymbol::Companion => {
                let mut segments: Vec<u32> = self
                    .meeples
                    .iter()
                    .filter(|m| m.player == self.current && !m.paired)
                    .map(|m| m.segment)
                    .collect();
                segments.sort_unstable();
                segments.dedup();
                for s in segments {
                    let (at, segment, label) = self.segment_place(s);
                    out.push(ArrowMeepleSpot {
                        via,
                        at,
                        segment,
                        label,
                    });
                }
            }
            ArrowSymbol::Portal => {
                let f = &self.features;
                let mut seen = vec![false; f.len() as usize];
                for s in self.pseudo..f.len() {
                    let root = f.root(s);
                    if seen[root as usize] {
                        continue;
                    }
                    seen[root as usize] = true;
                    if self.portal_refusal(root, s).is_none() {
                        let (at, segment, label) = self.segment_place(s);
                        out.push(ArrowMeepleSpot {
                            via,
                            at,
                            segment,
                            label,
                        });
                    }
                }
            }
            ArrowSymbol::ExtraTurn => {}
        }
    }

    /// Why a portal may not send a meeple to segment `s` (feature root `root`), if it may not.
    fn portal_refusal(&self, root: u32, s: u32) -> Option<RuleViolation> {
        let f = &self.features;
        let kind = f.kind[root as usize];
        let (at, _, label) = self.segment_place(s);
        if kind == FeatureKind::Field && !self.options.farmers {
            return Some(RuleViolation::FarmersOff { at, label });
        }
        if kind == FeatureKind::Garden {
            return Some(RuleViolation::MeepleOnGarden { at });
        }
        if f.meeple_total(root) > 0 {
            let (owner, owner_at, owner_label) = self.holder(root);
            return Some(RuleViolation::PortalOccupied {
                kind,
                at,
                label,
                owner,
                owner_at,
                owner_label,
            });
        }
        // Fields are never complete; a feature this turn's tile completed has no open side
        // left and is refused like any other completed one [I].
        if kind != FeatureKind::Field && f.open[root as usize] == 0 {
            return Some(RuleViolation::PortalCompleted { kind, at, label });
        }
        None
    }

    /// The arrows a placement concerns (20th Anniversary): the new tile's own arrow (2 points
    /// if it points at no tile, a candidate if it points at a placed tile) and the waiting
    /// arrows of earlier tiles that point at this square (candidates). One candidate is
    /// activated at once; with several the player chooses ([`Phase::ChooseArrow`]).
    pub(super) fn arrows_after_placement(
        &mut self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
        fx: &mut Effects,
    ) {
        self.arrows.choices.clear();
        for (i, a) in self.arrows.placed.iter().enumerate() {
            if a.state == ArrowState::Waiting && a.target == Some(at) {
                self.arrows.choices.push(i as u32);
            }
        }
        let tiles = Arc::clone(&self.tiles);
        let t = tiles.get(tile);
        if let Some(arrow) = t.arrow(rotation) {
            // On a map, a square that can hold no tile (outside, large city) is no square [I].
            let target = at
                .step(arrow.side)
                .filter(|&p| self.map().is_none_or(|m| m.is_playable(p)));
            let occupied = target.is_some_and(|p| self.board.tile_index(p).is_some());
            let index = self.arrows.placed.len() as u32;
            self.arrows.placed.push(PlacedArrow {
                at,
                symbol: arrow.symbol,
                side: arrow.side,
                target,
                // Off the board its square can never be filled [I].
                state: if target.is_none() {
                    ArrowState::Spent
                } else {
                    ArrowState::Waiting
                },
            });
            if occupied {
                self.arrows.choices.push(index);
            } else {
                fx.notes.push(Note::ArrowNoTile {
                    symbol: arrow.symbol,
                    side: arrow.side,
                    off_board: target.is_none(),
                });
                let player = self.current;
                self.score[player as usize] += 2;
                let label = side_label(t, rotation, arrow.side);
                fx.scores.push(Score {
                    kind: label.kind,
                    time: ScoreTime::Completed,
                    feature: FeatureRef { at, label },
                    tiles: vec![at],
                    coats_of_arms: 0,
                    cities: Vec::new(),
                    meeples: Vec::new(),
                    winners: vec![player],
                    points: 2,
                    formula: if target.is_none() && self.map().is_some() {
                        "arrow points off the map, at no square: +2".into()
                    } else if target.is_none() {
                        "arrow points off the board, at no tile: +2".into()
                    } else {
                        "arrow points at no tile: +2".into()
                    },
                    rule: rule::ARROW_NO_TILE,
                    source: ScoreSource::Arrow {
                        symbol: arrow.symbol,
                        side: arrow.side,
                    },
                });
            }
        }
        match self.arrows.choices.len() {
            0 => {}
            1 => {
                let only = self.arrows.choices[0];
                self.activate_arrow(only, at, fx);
            }
            n => {
                fx.notes.push(Note::ArrowsToChoose { count: n as u8 });
                self.phase = Phase::ChooseArrow { at };
            }
        }
    }

    /// The player's choice among several arrows the placement at `at` could activate
    /// ([`Phase::ChooseArrow`]): activates the arrow on the tile at `arrow`.
    pub(super) fn choose_arrow(
        &mut self,
        arrow: Pos,
        at: Pos,
        fx: &mut Effects,
    ) -> Result<(), RuleViolation> {
        let Some(&chosen) = self
            .arrows
            .choices
            .iter()
            .find(|&&i| self.arrows.placed[i as usize].at == arrow)
        else {
            let candidates: Vec<String> = self
                .arrows
                .choices
                .iter()
                .map(|&i| {
                    let a = self.arrows.placed[i as usize];
                    format!("the {} arrow of the tile at {}", a.symbol, a.at)
                })
                .collect();
            return Err(RuleViolation::NotAnArrowChoice {
                at: arrow,
                candidates: candidates.join(", "),
            });
        };
        let a = self.arrows.placed[chosen as usize];
        fx.notes.push(Note::ArrowChosen {
            symbol: a.symbol,
            at: a.at,
        });
        self.activate_arrow(chosen, at, fx);
        Ok(())
    }

    /// Activates arrow `index` (one of this turn's candidates, the tile just placed being at
    /// `placed`); every other candidate is spent, since the squares they point at are filled.
    fn activate_arrow(&mut self, index: u32, placed: Pos, fx: &mut Effects) {
        let a = self.arrows.placed[index as usize];
        self.arrows.placed[index as usize].state = ArrowState::Activated;
        fx.notes.push(Note::ArrowActivated {
            symbol: a.symbol,
            at: a.at,
            side: a.side,
            filled: a.at != placed,
        });
        for &i in &self.arrows.choices {
            if i != index {
                let other = &mut self.arrows.placed[i as usize];
                other.state = ArrowState::Spent;
                fx.notes.push(Note::ArrowSpent {
                    symbol: other.symbol,
                    at: other.at,
                });
            }
        }
        self.arrows.choices.clear();
        match a.symbol {
            ArrowSymbol::Companion | ArrowSymbol::Portal => self.arrows.action = Some(a.symbol),
            ArrowSymbol::ExtraTurn if self.in_extra_turn => fx.notes.push(Note::ExtraTurnDenied),
            ArrowSymbol::ExtraTurn => {
                self.extra_pending = true;
                fx.notes.push(Note::ExtraTurnGranted);
            }
        }
    }

    /// A meeple from supply through this turn's companion or portal arrow.
    pub(super) fn place_arrow_meeple(
        &mut self,
        via: ArrowSymbol,
        at: Pos,
        segment: u8,
        fx: &mut Effects,
    ) -> Result<(), RuleViolation> {
        if self.arrows.action != Some(via) || via == ArrowSymbol::ExtraTurn {
            return Err(RuleViolation::ArrowActionNotActivated {
                action: via,
                activated: self.activated_symbol(),
            });
        }
        let index = self
            .board
            .tile_index(at)
            .ok_or(RuleViolation::NoTileAt { action: via, at })?;
        let placed = self.board.placed[index as usize];
        let (_, label, global) = self.meeple_target(placed, at, segment)?;
        let player = self.current;
        let root = self.features.find(global);
        match via {
            ArrowSymbol::Companion => {
                let own = |paired: bool| {
                    self.meeples.iter().position(|m| {
                        m.player == player && m.segment == global && m.paired == paired
                    })
                };
                let Some(beside) = own(false) else {
                    return Err(if own(true).is_some() {
                        RuleViolation::CompanionLimit { player, at, label }
                    } else {
                        RuleViolation::CompanionNoOwnMeeple { player, at, label }
                    });
                };
                self.meeples[beside].paired = true;
                self.meeples.push(Meeple {
                    player,
                    segment: global,
                    paired: true,
                    large: false,
                });
                fx.notes.push(Note::CompanionPlaced { at, label });
            }
            _ => {
                if let Some(refusal) = self.portal_refusal(root, global) {
                    return Err(refusal);
                }
                self.meeples.push(Meeple {
                    player,
                    segment: global,
                    paired: false,
                    large: false,
                });
                fx.notes.push(Note::PortalPlaced { at, label });
            }
        }
        self.features.meeples[root as usize][player as usize] += 1;
        self.supply[player as usize] -= 1;
        self.finish_turn(fx);
        Ok(())
    }

    /// The turn is over: the activated arrow's companion or portal action with it.
    pub(super) fn arrows_turn_over(&mut self) {
        self.arrows.action = None;
    }

    /// The symbol of the arrow activated this turn, for messages.
    pub(super) fn activated_symbol(&self) -> Option<ArrowSymbol> {
        if self.arrows.action.is_some() {
            return self.arrows.action;
        }
        let Phase::Meeple { at } = self.phase else {
            return None;
        };
        self.arrows
            .placed
            .iter()
            .find(|a| a.state == ArrowState::Activated && (a.at == at || a.target == Some(at)))
            .map(|a| a.symbol)
    }
}

/// The label of the segment at `side` of a placed tile: the city or road reaching it, else
/// the field at its first port (every side has one or the other).
fn side_label(t: &crate::tileset::TileType, rotation: Rotation, side: Side) -> SegmentLabel {
    let segment = t
        .segment_at_side(rotation, side)
        .or_else(|| t.segment_at_port(rotation, side.ports()[0]))
        .expect("every side of a valid tile has a segment");
    let label = t.segment_label(rotation, segment);
    // Name the field by the port the arrow leaves through, not its first port.
    match label.anchor {
        Some(Anchor::Port(_)) => SegmentLabel {
            kind: label.kind,
            anchor: Some(Anchor::Port(side.ports()[0])),
        },
        _ => label,
    }
}
