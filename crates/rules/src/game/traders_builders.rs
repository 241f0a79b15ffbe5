//! Traders & Builders (option `traders_builders`, `docs/rules.md`, Traders & Builders): goods
//! in cities (a flag on the tile set's city segments, `data/traders_builders.json`), taken by
//! whoever completes the city and scored by majority at the end; one builder per player, whose
//! road or city gives its owner a second turn when extended; one pig per player, worth one
//! more point per completed city in a field its owner wins. Everything the expansion adds is
//! here; the core calls in at named points: the setup check ([`check_setup`], from
//! [`Game::new`]), the builder's and the pig's actions (`place_special`, from
//! [`Game::apply`]), the placement (`builder_after_placement`, from `Game::apply`), the
//! scoring of the completed features (`take_goods`, from `Game::finish_turn`), the figures
//! going home (`special_figures_home`, from `Game::return_meeples`, and
//! `special_figures_left_alone`, from the gifts' Cash Out) and the final scoring (`pig_bonus`
//! and `score_goods`, from `Game::final_scoring`).
//!
//! The builder and the pig are no [`super::Meeple`]s: they stand apart (`Game::builders`,
//! `Game::pigs`, one global segment per seat) and never enter `Features::meeples`, so no
//! majority, occupancy or meeple count of the core sees them. Goods are derived from the
//! tiles: the log holds no event for them (`docs/log-format.md`).
//!
//! Rule ids implemented (`docs/rules.md`): `tb.option`, `tb.goods.take`, `tb.goods.final`,
//! `tb.builder.place`, `tb.builder.double-turn`, `tb.builder.return`, `tb.pig.place`,
//! `tb.pig.score`, `tb.figures.not-meeples`.

use super::{Effects, Game, MeepleSpot, Phase, Setup};
use crate::features::MAX_PLAYERS;
use crate::geometry::Pos;
use crate::ruling::{rule, Note, RuleViolation};
use crate::score::{noun, FeatureRef, ReturnedMeeple, Score, ScoreSource, ScoreTime, Special};
use crate::tileset::{FeatureKind, Good, SegmentLabel};

/// Points for the most tokens of one kind of goods.
const GOODS_MAJORITY_POINTS: u32 = 10;

/// Traders & Builders' part of a game's state (always empty without the expansion).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TradersState {
    /// The global segment each seat's builder and pig stand on, `None` in supply.
    builders: [Option<u32>; MAX_PLAYERS],
    pigs: [Option<u32>; MAX_PLAYERS],
    /// Each seat's goods tokens: wine, grain, cloth (index [`Good::index`]).
    goods: [[u8; 3]; MAX_PLAYERS],
    /// The extra turn pending was given by the builder (its notes name the builder's rule).
    second_turn: bool,
}

/// Tiles with goods are only played with the option; the option does not combine with a map
/// board (the map's cities and fields are valued by rules of their own) [I].
pub(super) fn check_setup(setup: &Setup) -> Result<(), RuleViolation> {
    if !setup.options.traders_builders {
        if let Some(t) = setup
            .tiles
            .tiles()
            .iter()
            .find(|t| t.segments.iter().any(|s| s.goods.is_some()))
        {
            return Err(RuleViolation::TradersBuildersOff { tile: t.id.clone() });
        }
        return Ok(());
    }
    if setup.map.is_some() {
        return Err(RuleViolation::Setup {
            what: "Traders & Builders is not combined with a map board (Carcassonne Maps)".into(),
        });
    }
    Ok(())
}

/// Goods counts in words, e.g. `2 wine, 1 cloth` (`no goods` when all are zero).
pub fn goods_words(goods: &[u8; 3]) -> String {
    let parts: Vec<String> = Good::ALL
        .iter()
        .filter(|g| goods[g.index()] > 0)
        .map(|g| format!("{} {}", goods[g.index()], g.word()))
        .collect();
    if parts.is_empty() {
        "no goods".into()
    } else {
        parts.join(", ")
    }
}

impl Special {
    fn wants(self) -> (&'static str, fn(FeatureKind) -> bool) {
        match self {
            Special::Builder => ("a road or a city", |k| {
                matches!(k, FeatureKind::Road | FeatureKind::City)
            }),
            Special::Pig => ("a field", |k| k == FeatureKind::Field),
        }
    }
}

impl Game {
    // ---- queries ---------------------------------------------------------------------------

    /// Goods tokens of seat `seat`: wine, grain, cloth (index [`Good::index`]).
    pub fn goods(&self, seat: u8) -> [u8; 3] {
        self.traders
            .goods
            .get(seat as usize)
            .copied()
            .unwrap_or_default()
    }

    /// Where seat `seat`'s builder (or pig) stands: square, local segment and label, or
    /// `None` (in supply, or no expansion).
    pub fn special_of(&self, seat: u8, which: Special) -> Option<(Pos, u8, SegmentLabel)> {
        let s = self.special_slot(which).get(seat as usize).copied()??;
        Some(self.segment_place(s))
    }

    /// Whether seat `seat` has its builder (or pig) in supply (always false without the
    /// expansion).
    pub fn special_in_supply(&self, seat: u8, which: Special) -> bool {
        self.options.traders_builders
            && seat < self.players
            && self.special_slot(which)[seat as usize].is_none()
    }

    /// Builders and pigs on the board: owner, figure, square, local segment and label.
    pub fn specials(&self) -> impl Iterator<Item = (u8, Special, Pos, u8, SegmentLabel)> + '_ {
        [Special::Builder, Special::Pig]
            .into_iter()
            .flat_map(move |which| {
                (0..self.players).filter_map(move |p| {
                    self.special_of(p, which)
                        .map(|(at, local, label)| (p, which, at, local, label))
                })
            })
    }

    /// Every legal target of the builder (or pig) now, into `out`: the roads and cities (or
    /// fields) of the tile just placed where the current player has a meeple, when the figure
    /// is in supply (empty otherwise). The rule itself is [`Self::each_builder_and_pig_target`].
    pub fn legal_specials(&self, which: Special, out: &mut Vec<MeepleSpot>) {
        out.clear();
        self.each_builder_and_pig_target(|w, spot| {
            if w == which {
                out.push(spot);
            }
        });
    }

    /// Every legal target of the builder, then every one of the pig, each in segment order,
    /// handed to `f`: the roads and cities (fields, with farmers in play) of the tile just
    /// placed where the current player has a meeple, for a figure in supply. One pass over the
    /// tile for both (a player choosing among every move asks for both each turn);
    /// [`Self::legal_specials`] is one figure's share of it.
    pub fn each_builder_and_pig_target(&self, mut f: impl FnMut(Special, MeepleSpot)) {
        let Phase::Meeple { at } = self.phase else {
            return;
        };
        let seat = self.current;
        let want_builder = self.special_in_supply(seat, Special::Builder);
        let want_pig = self.special_in_supply(seat, Special::Pig) && self.options.farmers;
        if !want_builder && !want_pig {
            return;
        }
        let placed = *self.board.tile_at(at).expect("the tile just placed");
        let tile = self.tiles.get(placed.tile);
        let (_, builder_fits) = Special::Builder.wants();
        let (_, pig_fits) = Special::Pig.wants();
        // The targets' local segments, one bit each (a tile has at most 16 segments).
        let (mut builder, mut pig) = (0u32, 0u32);
        for (local, seg) in tile.segments.iter().enumerate() {
            let hits = if want_builder && builder_fits(seg.kind) {
                &mut builder
            } else if want_pig && pig_fits(seg.kind) {
                &mut pig
            } else {
                continue;
            };
            let root = self.features.root(placed.first_segment + local as u32);
            if self.features.meeples[root as usize][seat as usize] > 0 {
                *hits |= 1 << local;
            }
        }
        for (which, mut hits) in [(Special::Builder, builder), (Special::Pig, pig)] {
            while hits != 0 {
                let local = hits.trailing_zeros() as u8;
                hits &= hits - 1;
                f(
                    which,
                    MeepleSpot {
                        segment: local,
                        label: tile.segment_label(placed.rotation, local),
                    },
                );
            }
        }
    }

    /// Whether the extra turn pending is the builder's second turn, forgotten once asked
    /// (when that turn begins or the game ends first).
    pub(super) fn take_builder_turn(&mut self) -> bool {
        std::mem::take(&mut self.traders.second_turn)
    }

    fn special_slot(&self, which: Special) -> &[Option<u32>; MAX_PLAYERS] {
        match which {
            Special::Builder => &self.traders.builders,
            Special::Pig => &self.traders.pigs,
        }
    }

    fn special_slot_mut(&mut self, which: Special) -> &mut [Option<u32>; MAX_PLAYERS] {
        match which {
            Special::Builder => &mut self.traders.builders,
            Special::Pig => &mut self.traders.pigs,
        }
    }

    // ---- actions ---------------------------------------------------------------------------

    /// The builder (or pig) from supply on segment `segment` of the tile just placed at `at`.
    /// Ends the meeple step.
    pub(super) fn place_special(
        &mut self,
        which: Special,
        at: Pos,
        segment: u8,
        fx: &mut Effects,
    ) -> Result<(), RuleViolation> {
        if !self.options.traders_builders {
            return Err(RuleViolation::TradersBuildersNotInGame);
        }
        let player = self.current;
        if let Some((on_at, _, on_label)) = self.special_of(player, which) {
            return Err(RuleViolation::FigureNotInSupply {
                player,
                figure: which.word(),
                at: on_at,
                label: on_label,
            });
        }
        let placed = *self.board.tile_at(at).expect("the tile just placed");
        let (kind, label, global) = self.figure_target(placed, at, segment)?;
        let (wants, fits) = which.wants();
        if !fits(kind) {
            return Err(RuleViolation::FigureWrongFeature {
                figure: which.word(),
                wants,
                at,
                label,
            });
        }
        let root = self.features.find(global);
        if self.features.meeples[root as usize][player as usize] == 0 {
            return Err(RuleViolation::FigureWithoutMeeple {
                player,
                figure: which.word(),
                at,
                label,
            });
        }
        self.special_slot_mut(which)[player as usize] = Some(global);
        fx.notes.push(match which {
            Special::Builder => Note::BuilderPlaced { label },
            Special::Pig => Note::PigPlaced { label },
        });
        self.finish_turn(fx);
        Ok(())
    }

    /// After the current player placed the tile at `at`: if it joined the road or city of
    /// his builder, a second turn follows (none from a second or other extra turn).
    pub(super) fn builder_after_placement(&mut self, at: Pos, fx: &mut Effects) {
        let Some(b) = self.traders.builders[self.current as usize] else {
            return;
        };
        let builder_root = self.features.root(b);
        let placed = *self.board.tile_at(at).expect("the tile just placed");
        let tile = self.tiles.get(placed.tile);
        let extends = tile.segments.iter().enumerate().any(|(local, seg)| {
            matches!(seg.kind, FeatureKind::Road | FeatureKind::City)
                && self.features.root(placed.first_segment + local as u32) == builder_root
        });
        if !extends {
            return;
        }
        let (builder_at, ..) = self.segment_place(b);
        if self.in_extra_turn {
            fx.notes.push(Note::DoubleTurnDenied { at: builder_at });
        } else {
            // Another extra turn already pending this turn (an arrow, a town) is the same one
            // turn: never two [I].
            self.traders.second_turn = !self.extra_pending;
            self.extra_pending = true;
            fx.notes.push(Note::DoubleTurn { at: builder_at });
        }
    }

    /// The goods of the completed city `root` go to the current player (who placed the
    /// completing tile), whether or not anyone scores the city.
    pub(super) fn take_goods(&mut self, root: u32, fx: &mut Effects) {
        if self.features.kind[root as usize] != FeatureKind::City {
            return;
        }
        let mut taken = [0u8; 3];
        for s in self.features.member_iter(root) {
            let placed = &self.board.placed[self.features.tile[s as usize] as usize];
            let def =
                &self.tiles.get(placed.tile).segments[self.features.local[s as usize] as usize];
            if let Some(good) = def.goods {
                taken[good.index()] += 1;
            }
        }
        if taken == [0; 3] {
            return;
        }
        let me = self.current as usize;
        for (have, add) in self.traders.goods[me].iter_mut().zip(taken) {
            *have = have.saturating_add(add);
        }
        let at = self.segment_place(root).0;
        fx.notes.push(Note::GoodsTaken { at, goods: taken });
    }

    /// The builders and pigs on the feature `root` go home (the feature is scored).
    pub(super) fn special_figures_home(&mut self, root: u32, fx: &mut Effects) {
        for which in [Special::Builder, Special::Pig] {
            for p in 0..self.players {
                if let Some(s) = self.special_slot(which)[p as usize] {
                    if self.features.root(s) == root {
                        self.send_special_home(p, which, s, fx);
                    }
                }
            }
        }
    }

    /// Seat `player`'s builder or pig on the feature `root` goes home if its last meeple
    /// there left (the gifts' Cash Out) [I].
    pub(super) fn special_figures_left_alone(&mut self, root: u32, player: u8, fx: &mut Effects) {
        if !self.options.traders_builders
            || self.features.meeples[root as usize][player as usize] > 0
        {
            return;
        }
        for which in [Special::Builder, Special::Pig] {
            if let Some(s) = self.special_slot(which)[player as usize] {
                if self.features.root(s) == root {
                    self.send_special_home(player, which, s, fx);
                }
            }
        }
    }

    fn send_special_home(&mut self, player: u8, which: Special, s: u32, fx: &mut Effects) {
        let (at, _, label) = self.segment_place(s);
        fx.returned.push(ReturnedMeeple {
            player,
            at,
            label,
            abbot: false,
            large: false,
            special: Some(which),
        });
        self.special_slot_mut(which)[player as usize] = None;
    }

    // ---- final scoring ---------------------------------------------------------------------

    /// The pig's extra point per completed city for the winners of the field `root` who have
    /// their pig on it, valued before the field is scored (its figures still stand); `None`
    /// when no winner has a pig there.
    pub(super) fn pig_bonus(&self, root: u32) -> Option<Score> {
        // One bit per seat with its pig there (no list allocated for every field scored).
        let pig_owners: u32 = (0..self.players)
            .filter(|&p| {
                self.traders.pigs[p as usize].is_some_and(|s| self.features.root(s) == root)
            })
            .fold(0, |bits, p| bits | 1 << p);
        if pig_owners == 0 {
            return None;
        }
        let mut score = self.evaluate(root, ScoreTime::Final);
        score.winners.retain(|&w| pig_owners & 1 << w != 0);
        if score.winners.is_empty() {
            return None;
        }
        let n = score.cities.len() as u32;
        if n == 0 {
            // No completed city: the pig adds nothing, and no score line says +0.
            return None;
        }
        score.points = n;
        score.formula = format!(
            "pig: 1 × {n} {} = {n} (4 instead of 3 per city)",
            noun(n, "completed city", "completed cities")
        );
        score.rule = rule::PIG_SCORE;
        score.source = ScoreSource::Pig;
        Some(score)
    }

    /// Gives a pig bonus from [`Game::pig_bonus`].
    pub(super) fn award_pig_bonus(&mut self, score: Score, fx: &mut Effects) {
        for &w in &score.winners {
            self.score[w as usize] += score.points;
        }
        fx.scores.push(score);
    }

    /// For each kind of goods, the player(s) with the most tokens score 10 each.
    pub(super) fn score_goods(&mut self, fx: &mut Effects) {
        // No feature scores here; like the unopened gifts, the score names the start tile's
        // first segment so that every score has a place, and `tiles` stays empty.
        let Some(start) = self.board.placed.first().copied() else {
            return;
        };
        let label = self.tiles.get(start.tile).segment_label(start.rotation, 0);
        for good in Good::ALL {
            let counts: Vec<u8> = (0..self.players)
                .map(|p| self.traders.goods[p as usize][good.index()])
                .collect();
            let most = counts.iter().copied().max().unwrap_or(0);
            if most == 0 {
                continue;
            }
            let winners: Vec<u8> = (0..self.players)
                .filter(|&p| counts[p as usize] == most)
                .collect();
            for &w in &winners {
                self.score[w as usize] += GOODS_MAJORITY_POINTS;
            }
            fx.scores.push(Score {
                kind: FeatureKind::City,
                time: ScoreTime::Final,
                feature: FeatureRef {
                    at: start.at,
                    label,
                },
                tiles: Vec::new(),
                coats_of_arms: 0,
                cities: Vec::new(),
                meeples: (0..self.players)
                    .filter(|&p| counts[p as usize] > 0)
                    .map(|p| (p, counts[p as usize]))
                    .collect(),
                winners,
                points: GOODS_MAJORITY_POINTS,
                formula: format!(
                    "the most {good} tokens ({most}): {GOODS_MAJORITY_POINTS} for each who holds them"
                ),
                rule: rule::GOODS_FINAL,
                source: ScoreSource::Goods { good },
            });
        }
    }
}
