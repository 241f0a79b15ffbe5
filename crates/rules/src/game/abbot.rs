//! The Abbot and gardens (option `abbot`, `shared/rules/abbot.md`): one abbot per player
//! beside the meeples, the garden copies of base tiles (a tile set split by
//! [`TileSet::with_gardens`](crate::TileSet::with_gardens)), the abbot placed on the
//! monastery or garden of the tile just placed (or, through a portal, on any unoccupied
//! incomplete one), taken back and scored at once instead of a meeple, and its scoring when
//! its monastery or garden is surrounded and at the end. Everything the expansion adds is
//! here; the core calls in at named points: the setup check ([`check_setup`], from
//! [`Game::new`]), the two actions (`place_abbot`, `take_back_abbot`) from [`Game::apply`],
//! abbots going home when their feature is scored (`return_abbot`, from
//! `Game::return_meeples`), and the refusals the other expansions ask for (`abbot_on`).
//!
//! The abbot counts in its feature's figures per player (`Features::meeples`), so a
//! monastery or garden with an abbot is occupied for every placement, and the normal
//! majority scoring gives the feature's points to the abbot's owner. It is not in
//! `Game::meeples`: companion arrows and the gifts that act on "one of your meeples" (Change
//! Position, Cash Out) never see it. [I: `docs/rules.md`, The Abbot]
//!
//! Rule ids implemented (`docs/rules.md`): `abbot.option`, `abbot.place`, `abbot.garden`,
//! `abbot.unoccupied`, `abbot.take-back`, `abbot.score.garden.completed`,
//! `abbot.score.garden.final`.

use super::{Action, Effects, Game, Phase, Setup};
use crate::features::MAX_PLAYERS;
use crate::geometry::Pos;
use crate::ruling::{rule, Note, RuleViolation};
use crate::score::{noun, ReturnedMeeple, Score, ScoreSource, ScoreTime};
use crate::tileset::{ArrowSymbol, FeatureKind, SegmentLabel};

/// A legal abbot move at the meeple step (The Abbot). Skipping and the meeple moves are
/// listed elsewhere ([`Game::legal_meeples`], [`Game::legal_arrow_meeples`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbbotMove {
    /// The abbot from supply on segment `segment` (the monastery or garden) of the tile at
    /// `at`: the tile just placed, or any tile through an activated portal (`portal`).
    Place {
        /// The square of the tile.
        at: Pos,
        /// The local index of the tile's monastery or garden segment.
        segment: u8,
        /// That segment named for people, in board orientation.
        label: SegmentLabel,
        /// Through the portal: a tile other than the one just placed may be chosen.
        portal: bool,
    },
    /// The abbot taken back from the monastery or garden at `at` and scored at once.
    TakeBack {
        /// The square the abbot stands on.
        at: Pos,
        /// The monastery or garden it stands on, named for people.
        label: SegmentLabel,
    },
}

impl AbbotMove {
    /// The action that makes this move.
    pub fn action(self) -> Action {
        match self {
            AbbotMove::Place {
                at,
                segment,
                portal,
                ..
            } => Action::PlaceAbbot {
                at,
                segment,
                portal,
            },
            AbbotMove::TakeBack { .. } => Action::TakeBackAbbot,
        }
    }
}

/// The Abbot's part of a game's state: the global segment each seat's abbot stands on,
/// `None` in supply (always `None` without the abbot).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct AbbotState {
    on: [Option<u32>; MAX_PLAYERS],
}

/// Garden copies are only played with the abbot: a tile set with them is refused otherwise.
pub(super) fn check_setup(setup: &Setup) -> Result<(), RuleViolation> {
    if !setup.options.abbot {
        if let Some(t) = setup
            .tiles
            .tiles()
            .iter()
            .find(|t| t.garden_segment().is_some())
        {
            return Err(RuleViolation::GardenWithoutAbbot { tile: t.id.clone() });
        }
    }
    Ok(())
}

fn carries_abbot(kind: FeatureKind) -> bool {
    matches!(kind, FeatureKind::Monastery | FeatureKind::Garden)
}

impl Effects {
    /// Whether `score`, one of these effects' scores, was earned by an abbot: a garden, a
    /// take-back, or a monastery whose figure was an abbot (an abbot on a monastery scores
    /// like a monk; the abbot going home with the same score tells them apart). Analysis and
    /// the tables count these points as the abbot's, apart from the monasteries'.
    pub fn scored_by_abbot(&self, score: &Score) -> bool {
        match (score.source, score.kind) {
            (ScoreSource::AbbotTakenBack, _) | (ScoreSource::Feature, FeatureKind::Garden) => true,
            (ScoreSource::Feature, FeatureKind::Monastery) => self
                .returned
                .iter()
                .any(|r| r.abbot && r.at == score.feature.at),
            _ => false,
        }
    }
}

impl Game {
    // ---- queries ---------------------------------------------------------------------------

    /// Where seat `seat`'s abbot stands (square and feature), or `None` when it is in the
    /// supply or the game has no abbot.
    pub fn abbot_of(&self, seat: u8) -> Option<(Pos, SegmentLabel)> {
        let s = (*self.abbot.on.get(seat as usize)?)?;
        let (at, _, label) = self.segment_place(s);
        Some((at, label))
    }

    /// Whether seat `seat` has its abbot in supply (always false without the abbot).
    pub fn abbot_in_supply(&self, seat: u8) -> bool {
        self.options.abbot && seat < self.players && self.abbot.on[seat as usize].is_none()
    }

    /// Abbots on the board: owner, square, segment and its label, seat order.
    pub fn abbots(&self) -> impl Iterator<Item = (u8, Pos, u8, SegmentLabel)> + '_ {
        (0..self.players).filter_map(|p| {
            let s = self.abbot.on[p as usize]?;
            let (at, local, label) = self.segment_place(s);
            Some((p, at, local, label))
        })
    }

    /// The owner of the abbot on the feature `root`, if one stands there.
    pub(super) fn abbot_on(&self, root: u32) -> Option<u8> {
        self.abbot_standing_on(root).map(|(seat, _)| seat)
    }

    /// The owner of the abbot on the feature `root` and the global segment it stands on, if
    /// one stands there.
    pub(super) fn abbot_standing_on(&self, root: u32) -> Option<(u8, u32)> {
        if !self.options.abbot {
            return None;
        }
        (0..self.players).find_map(|p| {
            let s = self.abbot.on[p as usize]?;
            (self.features.root(s) == root).then_some((p, s))
        })
    }

    /// Every legal abbot move now, into `out` (empty without the abbot or outside the meeple
    /// step): the abbot on the monastery or garden of the tile just placed, or through an
    /// activated portal on any unoccupied incomplete one, when it is in supply; taking it back
    /// when it is on the board.
    pub fn legal_abbot_moves(&self, out: &mut Vec<AbbotMove>) {
        out.clear();
        let Phase::Meeple { at: placed_at } = self.phase else {
            return;
        };
        if !self.options.abbot {
            return;
        }
        let player = self.current as usize;
        if let Some(s) = self.abbot.on[player] {
            // Not from a monastery or garden the tile just placed completes: it scores as
            // completed this turn (interpretation 10).
            if self.features.open[self.features.root(s) as usize] > 0 {
                let (at, _, label) = self.segment_place(s);
                out.push(AbbotMove::TakeBack { at, label });
            }
            return;
        }
        let f = &self.features;
        let free = |first: u32, local: u8| f.meeple_total(f.root(first + u32::from(local))) == 0;
        let placed = self.board.tile_at(placed_at).expect("the tile just placed");
        let tile = self.tiles.get(placed.tile);
        if let Some(ring) = tile.ring_segment() {
            if free(placed.first_segment, ring) {
                out.push(AbbotMove::Place {
                    at: placed_at,
                    segment: ring,
                    label: tile.segment_label(placed.rotation, ring),
                    portal: false,
                });
            }
        }
        if self.arrow_action() == Some(ArrowSymbol::Portal) {
            for p in &self.board.placed {
                let tile = self.tiles.get(p.tile);
                let Some(ring) = tile.ring_segment() else {
                    continue;
                };
                let root = f.root(p.first_segment + u32::from(ring));
                if f.meeple_total(root) == 0 && f.open[root as usize] > 0 {
                    out.push(AbbotMove::Place {
                        at: p.at,
                        segment: ring,
                        label: tile.segment_label(p.rotation, ring),
                        portal: true,
                    });
                }
            }
        }
    }

    /// The local segment `label` names on the tile at `at`, for an abbot sent there.
    pub fn resolve_abbot_target(&self, at: Pos, label: &SegmentLabel) -> Result<u8, RuleViolation> {
        self.segment_named(at, label, || RuleViolation::NoTileAt {
            action: ArrowSymbol::Portal,
            at,
        })
    }

    // ---- actions ---------------------------------------------------------------------------

    /// The abbot from supply on segment `segment` of the tile at `at`: the tile just placed,
    /// or (`portal`) any tile through an activated portal arrow. Ends the meeple step.
    pub(super) fn place_abbot(
        &mut self,
        at: Pos,
        segment: u8,
        portal: bool,
        fx: &mut Effects,
    ) -> Result<(), RuleViolation> {
        let Phase::Meeple { at: placed_at } = self.phase else {
            unreachable!("apply hands the abbot over only at the meeple step");
        };
        if !self.options.abbot {
            return Err(RuleViolation::AbbotNotInGame);
        }
        let player = self.current;
        if let Some((on_at, on_label)) = self.abbot_of(player) {
            return Err(RuleViolation::AbbotNotInSupply {
                player,
                at: on_at,
                label: on_label,
            });
        }
        if portal {
            if self.arrow_action() != Some(ArrowSymbol::Portal) {
                return Err(RuleViolation::ArrowActionNotActivated {
                    action: ArrowSymbol::Portal,
                    activated: self.activated_symbol(),
                });
            }
        } else if at != placed_at {
            return Err(RuleViolation::AbbotNotOnPlacedTile {
                at,
                placed: placed_at,
            });
        }
        let placed = *self.board.tile_at(at).ok_or(RuleViolation::NoTileAt {
            action: ArrowSymbol::Portal,
            at,
        })?;
        let tile = self.tiles.get(placed.tile);
        let Some(def) = tile.segments.get(segment as usize) else {
            return Err(RuleViolation::NoSuchSegmentIndex {
                tile: tile.id.clone(),
                at,
                segment,
                count: tile.segments.len(),
            });
        };
        let kind = def.kind;
        let label = tile.segment_label(placed.rotation, segment);
        if !carries_abbot(kind) {
            return Err(RuleViolation::AbbotWrongFeature { at, label });
        }
        let global = placed.first_segment + u32::from(segment);
        let root = self.features.find(global);
        if self.features.meeple_total(root) > 0 {
            let (owner, owner_at, owner_label) = self.holder(root);
            return Err(if portal {
                RuleViolation::PortalOccupied {
                    kind,
                    at,
                    label,
                    owner,
                    owner_at,
                    owner_label,
                }
            } else {
                RuleViolation::FeatureOccupied {
                    kind,
                    at,
                    label,
                    owner,
                    owner_at,
                    owner_label,
                }
            });
        }
        if portal && self.features.open[root as usize] == 0 {
            return Err(RuleViolation::PortalCompleted { kind, at, label });
        }
        self.abbot.on[player as usize] = Some(global);
        self.features.meeples[root as usize][player as usize] += 1;
        fx.notes.push(Note::AbbotPlaced { at, label, portal });
        self.finish_turn(fx);
        Ok(())
    }

    /// Instead of a meeple, the current player takes their abbot back and scores it at once
    /// as an incomplete monastery (1 + the tiles around it; on a map, the map's neighbour
    /// rules). Ends the meeple step.
    pub(super) fn take_back_abbot(&mut self, fx: &mut Effects) -> Result<(), RuleViolation> {
        if !self.options.abbot {
            return Err(RuleViolation::AbbotNotInGame);
        }
        let player = self.current;
        let Some(s) = self.abbot.on[player as usize] else {
            return Err(RuleViolation::AbbotNotOnBoard { player });
        };
        let (at, _, label) = self.segment_place(s);
        let root = self.features.find(s);
        // Only from an incomplete feature: one the tile just placed completes scores as
        // completed in this turn's scoring, and the abbot comes home with it [I: docs/rules.md,
        // The Abbot, interpretation 10]. An abbot never stands on a feature completed earlier:
        // completion sends it home at once.
        if self.features.open[root as usize] == 0 {
            let kind = label.kind;
            return Err(RuleViolation::AbbotFeatureCompleted { at, label, kind });
        }
        // Valued as an incomplete monastery, but scored during play: the take-back is a move of
        // the game, never part of the final scoring.
        let mut score = self.evaluate(root, ScoreTime::Final);
        score.time = ScoreTime::Completed;
        // Only the abbot stands there (monk and abbot are never mixed), so its owner is the
        // one winner; the figures listed are the abbot alone.
        score.winners = vec![player];
        score.meeples = vec![(player, 1)];
        score.rule = rule::ABBOT_TAKE_BACK;
        score.source = ScoreSource::AbbotTakenBack;
        let neighbours = score.tiles.len().saturating_sub(1) as u32;
        score.formula = format!(
            "1 + {neighbours} {} = {}",
            noun(neighbours, "neighbour", "neighbours"),
            score.points
        );
        self.score[player as usize] += score.points;
        fx.notes.push(Note::AbbotTakenBack { at, label });
        fx.scores.push(score);
        self.abbot.on[player as usize] = None;
        self.features.meeples[root as usize][player as usize] -= 1;
        fx.returned.push(ReturnedMeeple {
            player,
            at,
            label,
            abbot: true,
            large: false,
            special: None,
        });
        self.finish_turn(fx);
        Ok(())
    }

    /// Sends the abbot on the feature `root` (scored) back to its owner's supply. Called by
    /// `return_meeples`, which clears the feature's counts.
    pub(super) fn return_abbot(&mut self, root: u32, fx: &mut Effects) {
        for p in 0..self.players {
            let Some(s) = self.abbot.on[p as usize] else {
                continue;
            };
            if self.features.root(s) == root {
                let (at, _, label) = self.segment_place(s);
                fx.returned.push(ReturnedMeeple {
                    player: p,
                    at,
                    label,
                    abbot: true,
                    large: false,
                    special: None,
                });
                self.abbot.on[p as usize] = None;
            }
        }
    }

    /// The garden's value in `evaluate`: like a monastery, with the garden's rule ids.
    pub(super) fn garden_formula(neighbours: u32, time: ScoreTime) -> (u32, String, &'static str) {
        match time {
            ScoreTime::Completed => (
                9,
                "1 for the garden + 8 surrounding tiles = 9".to_string(),
                rule::ABBOT_SCORE_GARDEN_COMPLETED,
            ),
            ScoreTime::Final => (
                1 + neighbours,
                format!(
                    "1 for the garden + {neighbours} {} = {}",
                    noun(neighbours, "surrounding tile", "surrounding tiles"),
                    1 + neighbours
                ),
                rule::ABBOT_SCORE_GARDEN_FINAL,
            ),
        }
    }
}
