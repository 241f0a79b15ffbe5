//! A turn's move as one value ([`Move`]: where the drawn tile goes, the arrow chosen, the
//! meeple step) and every legal one of a turn ([`Game::legal_moves`]), so that a program that
//! plays needs no knowledge of which `legal_*` list applies in which phase.

use std::ops::ControlFlow;

use super::{Action, Effects, Game, Phase, Placement};
use crate::geometry::Pos;
use crate::score::Special;
use crate::tileset::ArrowSymbol;

/// What the player does after placing the tile: the meeple step, typed (each variant is one
/// [`Action`] of that step). More variants come with more expansions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MeepleStep {
    /// No figure placed.
    None,
    /// A meeple on segment `segment` of the tile just placed.
    Meeple {
        /// The segment's local index.
        segment: u8,
    },
    /// 20th Anniversary: a meeple through an arrow (`via`), on the tile at `at`.
    ArrowMeeple {
        /// The activated arrow's symbol: companion or portal.
        via: ArrowSymbol,
        /// The square of the tile the meeple goes on.
        at: Pos,
        /// The segment's local index on that tile.
        segment: u8,
    },
    /// The Abbot: the abbot on a monastery or garden (through a portal when `portal`).
    Abbot {
        /// The square of the tile.
        at: Pos,
        /// The local index of its monastery or garden segment.
        segment: u8,
        /// Through the activated portal arrow rather than on the tile just placed.
        portal: bool,
    },
    /// The Abbot: the abbot taken back instead of a figure placed.
    TakeBackAbbot,
    /// Inns & Cathedrals: the large meeple.
    LargeMeeple {
        /// The segment's local index on the tile just placed.
        segment: u8,
    },
    /// Traders & Builders: the builder.
    Builder {
        /// The road or city segment's local index on the tile just placed.
        segment: u8,
    },
    /// Traders & Builders: the pig.
    Pig {
        /// The field segment's local index on the tile just placed.
        segment: u8,
    },
}

impl MeepleStep {
    /// The action that takes this step.
    pub fn action(self) -> Action {
        match self {
            MeepleStep::None => Action::SkipMeeple,
            MeepleStep::Meeple { segment } => Action::PlaceMeeple { segment },
            MeepleStep::ArrowMeeple { via, at, segment } => {
                Action::PlaceArrowMeeple { via, at, segment }
            }
            MeepleStep::Abbot {
                at,
                segment,
                portal,
            } => Action::PlaceAbbot {
                at,
                segment,
                portal,
            },
            MeepleStep::TakeBackAbbot => Action::TakeBackAbbot,
            MeepleStep::LargeMeeple { segment } => Action::PlaceLargeMeeple { segment },
            MeepleStep::Builder { segment } => Action::PlaceBuilder { segment },
            MeepleStep::Pig { segment } => Action::PlacePig { segment },
        }
    }

    /// The step an action takes, if it is a meeple-step action (`None` for a draw, a
    /// placement, an arrow choice, a gift…).
    pub fn of_action(action: Action) -> Option<MeepleStep> {
        Some(match action {
            Action::SkipMeeple => MeepleStep::None,
            Action::PlaceMeeple { segment } => MeepleStep::Meeple { segment },
            Action::PlaceArrowMeeple { via, at, segment } => {
                MeepleStep::ArrowMeeple { via, at, segment }
            }
            Action::PlaceAbbot {
                at,
                segment,
                portal,
            } => MeepleStep::Abbot {
                at,
                segment,
                portal,
            },
            Action::TakeBackAbbot => MeepleStep::TakeBackAbbot,
            Action::PlaceLargeMeeple { segment } => MeepleStep::LargeMeeple { segment },
            Action::PlaceBuilder { segment } => MeepleStep::Builder { segment },
            Action::PlacePig { segment } => MeepleStep::Pig { segment },
            _ => return None,
        })
    }
}

/// One turn's move: the placement of the drawn tile, the arrow chosen when the placement
/// activates several (20th Anniversary; `None` otherwise) and the meeple step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Where the drawn tile goes and how it is turned.
    pub placement: Placement,
    /// The square of the tile whose arrow is chosen.
    pub arrow: Option<Pos>,
    /// What the player does after placing the tile.
    pub step: MeepleStep,
}

impl Move {
    /// The move's actions in the order they are applied: the placement, the arrow choice (if
    /// any), the meeple step. With The Gifts, a placement that earns a gift card is followed
    /// by the card's receipt (`Action::ReceiveGift`, chance the caller deals) before the rest.
    pub fn actions(&self) -> impl Iterator<Item = Action> {
        let place = Action::Place {
            at: self.placement.at,
            rotation: self.placement.rotation,
        };
        let arrow = self.arrow.map(|arrow| Action::ChooseArrow { arrow });
        std::iter::once(place)
            .chain(arrow)
            .chain(std::iter::once(self.step.action()))
    }
}

impl Game {
    /// Every legal move of the turn, into `out`: the game must wait for the placement of a
    /// drawn tile ([`Phase::Place`]); otherwise, or when the tile fits nowhere, `out` is empty.
    /// Placements come as [`Game::legal_placements`] lists them (rotations that look alike
    /// once), then each arrow choice, then no figure, the meeples, the meeples through an
    /// arrow, the abbot's moves, the large meeple, the builder and the pig. Each move is
    /// checked by playing it on a copy. A gift card earned by the placement (The Gifts) is
    /// received from what is left of the deck on the copy: which card comes is chance, and it
    /// changes no meeple step.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let _: Option<()> = self.try_each_move(|m, _| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    /// Each legal move of the turn, in the order of [`Game::legal_moves`], given to `f` with
    /// the position it leads to (the turn finished: the next draw waits, or the game is
    /// scored). A solver reads the outcome of every move here without playing it again. `f`
    /// stops the walk by returning [`ControlFlow::Break`], whose value is returned; `None`
    /// when every move was given.
    pub fn try_each_move<B>(&self, mut f: impl FnMut(Move, &Game) -> ControlFlow<B>) -> Option<B> {
        let Phase::Place { tile } = self.phase() else {
            return None;
        };
        let mut placements = Vec::new();
        self.legal_placements(tile, &mut placements);
        let mut fx = Effects::quiet();
        let mut choices = Vec::new();
        let mut branches: Vec<(Pos, Game)> = Vec::new();
        let mut steps: Vec<MeepleStep> = Vec::new();
        // Scratch games refilled with `clone_from`, which keeps their buffers.
        let mut placed = self.clone();
        let mut after = self.clone();
        let mut each_step = |p: Placement, arrow: Option<Pos>, position: &Game| {
            position.meeple_steps(&mut steps);
            for &step in &steps {
                after.clone_from(position);
                if after.apply(&step.action(), &mut fx).is_ok() {
                    let m = Move {
                        placement: p,
                        arrow,
                        step,
                    };
                    if let ControlFlow::Break(b) = f(m, &after) {
                        return Some(b);
                    }
                }
            }
            None
        };
        let mut place_fx = Effects::quiet();
        for p in placements {
            placed.clone_from(self);
            let place = Action::Place {
                at: p.at,
                rotation: p.rotation,
            };
            if placed.apply(&place, &mut place_fx).is_err() {
                continue;
            }
            if let Phase::ReceiveGift { .. } = placed.phase() {
                let Some(card) = placed.a_gift_card_left() else {
                    continue;
                };
                if placed
                    .apply(&Action::ReceiveGift { card }, &mut place_fx)
                    .is_err()
                {
                    continue;
                }
            }
            if let Phase::ChooseArrow { .. } = placed.phase() {
                placed.legal_arrow_choices(&mut choices);
                branches.clear();
                for c in &choices {
                    let mut chosen = placed.clone();
                    if chosen
                        .apply(&Action::ChooseArrow { arrow: c.at }, &mut place_fx)
                        .is_ok()
                    {
                        branches.push((c.at, chosen));
                    }
                }
                for (arrow, position) in &branches {
                    if let Some(b) = each_step(p, Some(*arrow), position) {
                        return Some(b);
                    }
                }
            } else if let Some(b) = each_step(p, None, &placed) {
                return Some(b);
            }
        }
        None
    }

    /// The meeple steps the rules offer at this meeple step, in the order of
    /// [`Game::legal_moves`] (not yet checked by playing them).
    fn meeple_steps(&self, out: &mut Vec<MeepleStep>) {
        out.clear();
        out.push(MeepleStep::None);
        let mut spots = Vec::new();
        self.legal_meeples(&mut spots);
        out.extend(
            spots
                .iter()
                .map(|s| MeepleStep::Meeple { segment: s.segment }),
        );
        let mut arrow_spots = Vec::new();
        self.legal_arrow_meeples(&mut arrow_spots);
        out.extend(arrow_spots.iter().map(|s| MeepleStep::ArrowMeeple {
            via: s.via,
            at: s.at,
            segment: s.segment,
        }));
        let mut abbot = Vec::new();
        self.legal_abbot_moves(&mut abbot);
        out.extend(
            abbot
                .iter()
                .filter_map(|m| MeepleStep::of_action(m.action())),
        );
        self.legal_large_meeples(&mut spots);
        out.extend(
            spots
                .iter()
                .map(|s| MeepleStep::LargeMeeple { segment: s.segment }),
        );
        if self.options().traders_builders {
            self.each_builder_and_pig_target(|which, s| {
                out.push(match which {
                    Special::Builder => MeepleStep::Builder { segment: s.segment },
                    Special::Pig => MeepleStep::Pig { segment: s.segment },
                })
            });
        }
    }
}
