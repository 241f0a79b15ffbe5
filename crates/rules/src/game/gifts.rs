//! The Gifts (`shared/rules/gifts.md`): the gift deck, receiving a gift for extending another
//! player's road or city, opening one gift per turn before placing the tile, and 2 points per
//! unopened gift at the end.
//!
//! The rules keep only how many cards of each kind are in the deck, on the discard pile and in
//! each hand. Which card comes off the deck is chance: it arrives as
//! [`super::Action::ReceiveGift`] (like a tile draw) and is checked against the deck. When the deck is
//! empty, receiving a card first turns the discard pile into the new deck (the reshuffle is
//! implied by the empty deck, so the log needs no event for it).
//!
//! The core calls in at named points: [`Game::apply`] hands the actions `OpenGift`,
//! `ReceiveGift` and `ReturnTile` to `open_gift`, `receive_gift` and `return_tile`, a
//! placement ends in `gift_after_placement`, and the final scoring in `score_unopened_gifts`.
//! The card names are in `gift_card.rs` (shared with the ruling trace and scores).
//!
//! Rule ids implemented (`docs/rules.md`; the refusals and notes carry them, see
//! [`crate::ruling`]): `gifts.option`, `gifts.receive`, `gifts.receive.none-left`,
//! `gifts.deck`, `gifts.deck.reshuffle`, `gifts.open`, `gifts.open.one-per-turn`,
//! `gifts.synod`, `gifts.road-sweeper`, `gifts.change-position`, `gifts.cash-out`,
//! `gifts.take-2`, `gifts.final.unopened`.

pub use crate::gift_card::GiftCard;

use super::{Effects, Game, Meeple, Phase, Setup};
use crate::features::MAX_PLAYERS;
use crate::geometry::Pos;
use crate::ruling::{rule, Note, RuleViolation};
use crate::score::{plural, FeatureRef, ReturnedMeeple, Score, ScoreSource, ScoreTime};
use crate::tileset::{FeatureKind, SegmentLabel, TileTypeId};

/// Copies of each of the five cards in the gift deck.
pub const GIFT_COPIES: u8 = 5;

/// The Gifts' part of a game's state: cards per kind (index [`GiftCard::index`]) in the deck,
/// on the discard pile and in each seat's hand. The deck's order is chance and lives in the
/// simulator or the log, never here: the rules know only what is in it.
#[derive(Clone, Copy, Debug)]
pub(super) struct GiftsState {
    deck: [u8; 5],
    discard: [u8; 5],
    hands: [[u8; 5]; MAX_PLAYERS],
    /// A gift was opened this turn (at most one per turn).
    opened: bool,
    /// Where the game goes on after [`Phase::ReceiveGift`].
    resume: Phase,
}

impl GiftsState {
    /// At the start of a game: the full deck with the expansion, no card without.
    pub(super) fn new(setup: &Setup) -> GiftsState {
        GiftsState {
            deck: [if setup.options.gifts { GIFT_COPIES } else { 0 }; 5],
            discard: [0; 5],
            hands: [[0; 5]; MAX_PLAYERS],
            opened: false,
            resume: Phase::Over,
        }
    }
}

/// What opening a checked gift does (`Game::plan_gift` decides it, `Game::open_gift` carries it
/// out): the targets found while checking, global segments and `meeples` indices.
#[derive(Clone, Copy, Debug)]
enum GiftPlan {
    /// A meeple from supply onto the monastery segment `global`.
    Synod { at: Pos, global: u32 },
    /// The road through segment `global` scored now.
    RoadSweeper {
        at: Pos,
        global: u32,
        label: SegmentLabel,
    },
    /// The meeple `index` moves onto segment `to`.
    ChangePosition {
        at: Pos,
        index: usize,
        to: u32,
        from_label: SegmentLabel,
        to_label: SegmentLabel,
    },
    /// The meeple `index` on segment `global` comes back.
    CashOut {
        at: Pos,
        global: u32,
        index: usize,
        label: SegmentLabel,
    },
    /// A second tile is drawn beside `first`, the tile drawn this turn.
    TakeTwo { first: TileTypeId },
}

/// Opening a gift: the card and its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GiftAction {
    /// A meeple from supply onto the incomplete monastery of the tile at `at`.
    Synod {
        /// The square of the tile with the monastery.
        at: Pos,
    },
    /// Score the incomplete road through segment `segment` of the tile at `at` now; every
    /// meeple on it returns.
    RoadSweeper {
        /// The square of a tile the road runs through.
        at: Pos,
        /// The road segment's local index on that tile.
        segment: u8,
    },
    /// The player's meeple on segment `from` of the tile at `at` changes stance onto segment
    /// `to` of the same tile (standing ↔ lying as a farmer).
    ChangePosition {
        /// The square of the tile the meeple stands or lies on.
        at: Pos,
        /// The local index of the segment it is on now.
        from: u8,
        /// The local index of the segment it moves to.
        to: u8,
    },
    /// The player's meeple on segment `segment` of the tile at `at` comes back: 2 points per
    /// meeple on its feature, itself included.
    CashOut {
        /// The square of the tile the meeple is on.
        at: Pos,
        /// The local index of the segment it is on.
        segment: u8,
    },
    /// A second tile is drawn; one of the two is placed, the other returns to the bag.
    TakeTwo,
}

impl GiftAction {
    /// The gift card this action opens (the one that must be in the player's hand).
    pub fn card(&self) -> GiftCard {
        match self {
            GiftAction::Synod { .. } => GiftCard::Synod,
            GiftAction::RoadSweeper { .. } => GiftCard::RoadSweeper,
            GiftAction::ChangePosition { .. } => GiftCard::ChangePosition,
            GiftAction::CashOut { .. } => GiftCard::CashOut,
            GiftAction::TakeTwo => GiftCard::TakeTwo,
        }
    }
}

/// Lists counts per kind as words, e.g. `2 Synod, 1 Take 2` (or `none`).
pub(crate) fn cards_words(counts: &[u8; 5]) -> String {
    let parts: Vec<String> = GiftCard::ALL
        .iter()
        .filter(|c| counts[c.index()] > 0)
        .map(|c| format!("{} {c}", counts[c.index()]))
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

fn total(counts: &[u8; 5]) -> u32 {
    counts.iter().map(|&c| u32::from(c)).sum()
}

/// Stands on a road, city or monastery (as opposed to lying on a field as a farmer).
fn standing(kind: FeatureKind) -> bool {
    kind != FeatureKind::Field
}

impl Game {
    // ---- queries ---------------------------------------------------------------------------

    /// Cards per kind (index [`GiftCard::index`]) in `seat`'s hand.
    pub fn hand(&self, seat: u8) -> [u8; 5] {
        self.gifts
            .hands
            .get(seat as usize)
            .copied()
            .unwrap_or([0; 5])
    }

    /// How many gifts `seat` holds.
    pub fn hand_size(&self, seat: u8) -> u32 {
        total(&self.hand(seat))
    }

    /// Cards per kind still in the gift deck.
    pub fn gift_deck(&self) -> [u8; 5] {
        self.gifts.deck
    }

    /// Cards per kind on the discard pile.
    pub fn gift_discard(&self) -> [u8; 5] {
        self.gifts.discard
    }

    /// A card a gift could be received as now: the first kind left in the deck, or, with the
    /// deck empty, on the discard pile (which is shuffled into a new deck). For listing what a
    /// player may do after a placement that earns a gift: which card comes is chance.
    pub fn a_gift_card_left(&self) -> Option<GiftCard> {
        let source = if self.gifts.deck.iter().all(|&c| c == 0) {
            self.gifts.discard
        } else {
            self.gifts.deck
        };
        GiftCard::ALL.into_iter().find(|c| source[c.index()] > 0)
    }

    /// Every gift card in the game: deck + discard pile + hands (25 with the option on).
    pub fn gift_cards_total(&self) -> u32 {
        total(&self.gifts.deck)
            + total(&self.gifts.discard)
            + self.gifts.hands[..self.players as usize]
                .iter()
                .map(total)
                .sum::<u32>()
    }

    /// The turn is over: the next may open a gift again.
    pub(super) fn gifts_turn_over(&mut self) {
        self.gifts.opened = false;
    }

    /// Whether the current seat has already opened a gift this turn.
    pub fn gift_opened_this_turn(&self) -> bool {
        self.gifts.opened
    }

    /// The label of segment `segment` of the tile at `at`, if there is such a segment.
    pub fn segment_label_at(&self, at: Pos, segment: u8) -> Option<SegmentLabel> {
        let placed = self.board.tile_at(at)?;
        let tile = self.tiles.get(placed.tile);
        ((segment as usize) < tile.segments.len())
            .then(|| tile.segment_label(placed.rotation, segment))
    }

    /// The local segment a label names on the tile at `at`, for a gift's target.
    pub fn resolve_gift_segment(
        &self,
        card: GiftCard,
        at: Pos,
        label: &SegmentLabel,
    ) -> Result<u8, RuleViolation> {
        self.segment_named(at, label, || RuleViolation::GiftNoTileAt { card, at })
    }

    /// What `observer` cannot see, dealt anew (for a search that knows only what one player
    /// knows): the other players' hands and the deck hold the same cards between them as
    /// before, and `deal` says which go where: the first cards to the other seats in seat
    /// order, as many as each holds, the rest to the deck. `deal` must hold exactly the cards
    /// of the deck and of the other hands (in any order); otherwise nothing changes and the
    /// refusal says why. The discard pile and `observer`'s hand are seen by all and unchanged.
    pub fn redeal_hidden_gifts(
        &mut self,
        observer: u8,
        deal: &[GiftCard],
    ) -> Result<(), RuleViolation> {
        let mut hidden = self.gifts.deck;
        for seat in (0..self.players).filter(|&s| s != observer) {
            for (h, n) in hidden.iter_mut().zip(self.gifts.hands[seat as usize]) {
                *h += n;
            }
        }
        let mut given = [0u8; 5];
        for card in deal {
            given[card.index()] = given[card.index()].saturating_add(1);
        }
        if given != hidden {
            return Err(RuleViolation::Setup {
                what: format!(
                    "a redeal of the hidden gift cards must hold {hidden:?} cards per kind, not {given:?}"
                ),
            });
        }
        let mut cards = deal.iter();
        for seat in (0..self.players).filter(|&s| s != observer) {
            let size = total(&self.gifts.hands[seat as usize]);
            let mut hand = [0u8; 5];
            for card in cards.by_ref().take(size as usize) {
                hand[card.index()] += 1;
            }
            self.gifts.hands[seat as usize] = hand;
        }
        let mut deck = [0u8; 5];
        for card in cards {
            deck[card.index()] += 1;
        }
        self.gifts.deck = deck;
        Ok(())
    }

    // ---- legal moves -----------------------------------------------------------------------

    /// Every legal way to open a gift now, into `out` (empty outside the place step, after a
    /// gift was opened this turn, or without gifts in hand). Not opening is always legal.
    /// Road Sweeper lists each road once, by its lowest segment.
    pub fn legal_gifts(&self, out: &mut Vec<GiftAction>) {
        out.clear();
        if !self.options.gifts || self.gifts.opened || !matches!(self.phase, Phase::Place { .. }) {
            return;
        }
        let me = self.current;
        let hand = self.gifts.hands[me as usize];
        let has = |c: GiftCard| hand[c.index()] > 0;
        let f = &self.features;
        if has(GiftCard::Synod) && self.supply[me as usize] > 0 {
            for placed in &self.board.placed {
                if let Some(m) = self.tiles.get(placed.tile).monastery_segment() {
                    let root = f.root(placed.first_segment + u32::from(m));
                    if f.open[root as usize] > 0 && self.abbot_on(root).is_none() {
                        out.push(GiftAction::Synod { at: placed.at });
                    }
                }
            }
        }
        if has(GiftCard::RoadSweeper) {
            let mut seen = vec![false; f.len() as usize];
            for s in 0..f.len() {
                let root = f.root(s);
                if seen[root as usize] {
                    continue;
                }
                seen[root as usize] = true;
                if f.kind[root as usize] == FeatureKind::Road && f.open[root as usize] > 0 {
                    let (at, segment, _) = self.segment_place(s);
                    out.push(GiftAction::RoadSweeper { at, segment });
                }
            }
        }
        let mut own: Vec<u32> = self
            .meeples
            .iter()
            .filter(|m| m.player == me)
            .map(|m| m.segment)
            .collect();
        own.sort_unstable();
        own.dedup();
        if has(GiftCard::ChangePosition) {
            for &s in &own {
                let (at, from, _) = self.segment_place(s);
                let placed = self.board.tile_at(at).expect("a meeple's tile");
                for to in 0..self.tiles.get(placed.tile).segments.len() as u8 {
                    let gift = GiftAction::ChangePosition { at, from, to };
                    if self.gift_refusal(gift).is_none() {
                        out.push(gift);
                    }
                }
            }
        }
        if has(GiftCard::CashOut) {
            for &s in &own {
                let (at, segment, _) = self.segment_place(s);
                out.push(GiftAction::CashOut { at, segment });
            }
        }
        if has(GiftCard::TakeTwo) {
            out.push(GiftAction::TakeTwo);
        }
    }

    /// Why `gift` may not be opened now by the current seat, if it may not. Changes nothing.
    pub fn gift_refusal(&self, gift: GiftAction) -> Option<RuleViolation> {
        self.plan_gift(gift).err()
    }

    /// Checks `gift` and decides what opening it does: the plan `open_gift` carries out, with
    /// the segments, the figure and the labels it needs already found (so carrying it out
    /// looks nothing up again and cannot fail).
    fn plan_gift(&self, gift: GiftAction) -> Result<GiftPlan, RuleViolation> {
        if !self.options.gifts {
            return Err(RuleViolation::GiftsNotInGame);
        }
        let Phase::Place { tile } = self.phase else {
            return Err(RuleViolation::WrongPhase {
                action: "open a gift",
                expected: self.phase.expects(),
            });
        };
        let me = self.current;
        let card = gift.card();
        if self.gifts.opened {
            return Err(RuleViolation::GiftAlreadyOpened { player: me });
        }
        let hand = self.gifts.hands[me as usize];
        if hand[card.index()] == 0 {
            return Err(RuleViolation::GiftNotInHand {
                player: me,
                card,
                holds: cards_words(&hand),
            });
        }
        let f = &self.features;
        // A segment of a placed tile, checked: (global segment, kind, label).
        let segment =
            |at: Pos, segment: u8| -> Result<(u32, FeatureKind, SegmentLabel), RuleViolation> {
                let placed = self
                    .board
                    .tile_at(at)
                    .ok_or(RuleViolation::GiftNoTileAt { card, at })?;
                let tile = self.tiles.get(placed.tile);
                let Some(def) = tile.segments.get(segment as usize) else {
                    return Err(RuleViolation::NoSuchSegmentIndex {
                        tile: tile.id.clone(),
                        at,
                        segment,
                        count: tile.segments.len(),
                    });
                };
                Ok((
                    placed.first_segment + u32::from(segment),
                    def.kind,
                    tile.segment_label(placed.rotation, segment),
                ))
            };
        // The current seat's meeple on `global`: its index in `meeples`.
        let own_meeple = |global: u32| {
            self.meeples
                .iter()
                .position(|m| m.player == me && m.segment == global)
        };
        match gift {
            GiftAction::Synod { at } => {
                let placed = self
                    .board
                    .tile_at(at)
                    .ok_or(RuleViolation::GiftNoTileAt { card, at })?;
                let tile = self.tiles.get(placed.tile);
                let Some(m) = tile.monastery_segment() else {
                    return Err(RuleViolation::SynodNoMonastery {
                        at,
                        tile: tile.id.clone(),
                    });
                };
                let root = f.root(placed.first_segment + u32::from(m));
                if f.open[root as usize] == 0 {
                    return Err(RuleViolation::SynodMonasteryComplete { at });
                }
                // Monk and abbot are never mixed on a monastery [I] (`abbot.unoccupied`).
                if let Some(owner) = self.abbot_on(root) {
                    return Err(RuleViolation::AbbotOnMonastery { at, owner });
                }
                if self.supply[me as usize] == 0 {
                    return Err(RuleViolation::NoMeepleLeft { player: me });
                }
                Ok(GiftPlan::Synod {
                    at,
                    global: placed.first_segment + u32::from(m),
                })
            }
            GiftAction::RoadSweeper { at, segment: s } => {
                let (global, kind, label) = segment(at, s)?;
                if kind != FeatureKind::Road {
                    return Err(RuleViolation::SweeperNotRoad { at, label, kind });
                }
                if f.open[f.root(global) as usize] == 0 {
                    return Err(RuleViolation::SweeperRoadComplete { at, label });
                }
                Ok(GiftPlan::RoadSweeper { at, global, label })
            }
            GiftAction::ChangePosition { at, from, to } => {
                let (g_from, k_from, l_from) = segment(at, from)?;
                let (g_to, k_to, l_to) = segment(at, to)?;
                let Some(index) = own_meeple(g_from) else {
                    return Err(RuleViolation::GiftNoOwnMeeple {
                        card,
                        player: me,
                        at,
                        label: l_from,
                    });
                };
                if standing(k_from) == standing(k_to) {
                    return Err(RuleViolation::ChangePositionSameStance {
                        at,
                        from: l_from,
                        to: l_to,
                    });
                }
                if k_to == FeatureKind::Field && !self.options.farmers {
                    return Err(RuleViolation::FarmersOff { at, label: l_to });
                }
                // The Abbot [I]: a farmer never stands up on a garden, nor beside an abbot.
                if k_to == FeatureKind::Garden {
                    return Err(RuleViolation::MeepleOnGarden { at });
                }
                if let Some(owner) = self.abbot_on(f.root(g_to)) {
                    return Err(RuleViolation::AbbotOnMonastery { at, owner });
                }
                if standing(k_to) && f.open[f.root(g_to) as usize] == 0 {
                    return Err(RuleViolation::ChangePositionCompleted {
                        at,
                        label: l_to,
                        kind: k_to,
                    });
                }
                Ok(GiftPlan::ChangePosition {
                    at,
                    index,
                    to: g_to,
                    from_label: l_from,
                    to_label: l_to,
                })
            }
            GiftAction::CashOut { at, segment: s } => {
                let (global, _, label) = segment(at, s)?;
                let Some(index) = own_meeple(global) else {
                    return Err(RuleViolation::GiftNoOwnMeeple {
                        card,
                        player: me,
                        at,
                        label,
                    });
                };
                Ok(GiftPlan::CashOut {
                    at,
                    global,
                    index,
                    label,
                })
            }
            GiftAction::TakeTwo => Ok(GiftPlan::TakeTwo { first: tile }),
        }
    }

    // ---- actions ---------------------------------------------------------------------------

    /// After a placement: a gift is due when the tile extends a road or city in which another
    /// seat holds more meeples than the current one (ties and features without meeples give
    /// none). At most one per placement.
    pub(super) fn gift_after_placement(&mut self, at: Pos, fx: &mut Effects) {
        let Some((kind, owner)) = self.gift_due(at) else {
            return;
        };
        if total(&self.gifts.deck) + total(&self.gifts.discard) == 0 {
            fx.notes.push(Note::GiftNoneLeft { kind, owner });
            return;
        }
        fx.notes.push(Note::GiftEarned { kind, owner });
        self.gifts.resume = self.phase;
        self.phase = Phase::ReceiveGift { at };
    }

    /// The road or city of the tile at `at` that belongs to another seat, and that seat.
    fn gift_due(&self, at: Pos) -> Option<(FeatureKind, u8)> {
        let placed = self.board.tile_at(at)?;
        let tile = self.tiles.get(placed.tile);
        let me = self.current as usize;
        for (local, seg) in tile.segments.iter().enumerate() {
            if !matches!(seg.kind, FeatureKind::Road | FeatureKind::City) {
                continue;
            }
            let root = self.features.root(placed.first_segment + local as u32);
            let counts = &self.features.meeples[root as usize];
            let most = counts.iter().copied().max().unwrap_or(0);
            if most > counts[me] {
                let owner = (0..self.players)
                    .find(|&p| counts[p as usize] == most)
                    .expect("the largest count is someone's");
                return Some((seg.kind, owner));
            }
        }
        None
    }

    pub(super) fn receive_gift(
        &mut self,
        card: GiftCard,
        fx: &mut Effects,
    ) -> Result<(), RuleViolation> {
        let i = card.index();
        let reshuffle = total(&self.gifts.deck) == 0;
        let source = if reshuffle {
            &self.gifts.discard
        } else {
            &self.gifts.deck
        };
        if source[i] == 0 {
            return Err(RuleViolation::GiftNotInDeck {
                card,
                deck: cards_words(source),
                reshuffled: reshuffle,
            });
        }
        if reshuffle {
            fx.notes.push(Note::GiftDeckReshuffled {
                cards: total(&self.gifts.discard) as u8,
            });
            self.gifts.deck = std::mem::take(&mut self.gifts.discard);
        }
        self.gifts.deck[i] -= 1;
        self.gifts.hands[self.current as usize][i] += 1;
        fx.notes.push(Note::GiftReceived {
            left: total(&self.gifts.deck) as u8,
        });
        self.phase = self.gifts.resume;
        Ok(())
    }

    pub(super) fn open_gift(
        &mut self,
        gift: GiftAction,
        fx: &mut Effects,
    ) -> Result<(), RuleViolation> {
        let plan = self.plan_gift(gift)?;
        let me = self.current;
        let card = gift.card();
        self.gifts.hands[me as usize][card.index()] -= 1;
        self.gifts.discard[card.index()] += 1;
        self.gifts.opened = true;
        fx.notes.push(Note::GiftOpened { card });
        match plan {
            GiftPlan::Synod { at, global } => {
                let root = self.features.find(global);
                self.meeples.push(Meeple {
                    player: me,
                    segment: global,
                    paired: false,
                    large: false,
                });
                self.features.meeples[root as usize][me as usize] += 1;
                self.supply[me as usize] -= 1;
                fx.notes.push(Note::SynodPlaced { at });
            }
            GiftPlan::RoadSweeper { at, global, label } => {
                let root = self.features.find(global);
                let mut score = self.evaluate(root, ScoreTime::Final);
                score.time = ScoreTime::Completed;
                score.formula = format!("swept now, as in final scoring: {}", score.formula);
                score.rule = rule::GIFT_ROAD_SWEEPER;
                score.source = ScoreSource::Gift { card };
                fx.notes.push(Note::RoadSwept { at, label });
                self.award(root, score, fx);
            }
            GiftPlan::ChangePosition {
                at,
                index,
                to: g_to,
                from_label,
                to_label,
            } => {
                let g_from = self.meeples[index].segment;
                let old_root = self.features.find(g_from);
                let new_root = self.features.find(g_to);
                // The large meeple (Inns & Cathedrals) moves with its weight of two.
                let weight = self.meeples[index].weight();
                self.features.meeples[old_root as usize][me as usize] -= weight;
                self.features.meeples[new_root as usize][me as usize] += weight;
                // A companion pair is broken by the move: the meeple now stands alone.
                self.meeples[index].segment = g_to;
                self.meeples[index].paired = false;
                self.special_figures_left_alone(old_root, me, fx);
                fx.notes.push(Note::PositionChanged {
                    at,
                    from: from_label,
                    to: to_label,
                });
            }
            GiftPlan::CashOut {
                at,
                global,
                index,
                label,
            } => {
                let root = self.features.find(global);
                let mut score = self.evaluate(root, ScoreTime::Final);
                let n = self.features.meeple_total(root);
                score.time = ScoreTime::Completed;
                score.cities.clear();
                score.winners = vec![me];
                score.points = 2 * n;
                score.formula = format!(
                    "2 × {} on the {} (the one taken back included) = {}",
                    plural(n, "meeple", "meeples"),
                    score.kind,
                    2 * n
                );
                score.rule = rule::GIFT_CASH_OUT;
                score.source = ScoreSource::Gift { card };
                self.score[me as usize] += score.points;
                fx.scores.push(score);
                let taken = self.meeples.remove(index);
                self.features.meeples[root as usize][me as usize] -= taken.weight();
                self.return_to_supply(taken);
                fx.returned.push(ReturnedMeeple {
                    player: me,
                    at,
                    label,
                    abbot: false,
                    large: taken.large,
                    special: None,
                });
                self.special_figures_left_alone(root, me, fx);
                fx.notes.push(Note::CashedOut {
                    at,
                    label,
                    meeples: n as u8,
                });
            }
            GiftPlan::TakeTwo { first: tile } => {
                if self.bag_total == 0 {
                    // [I] The second draw is impossible; the card is used up all the same.
                    fx.notes.push(Note::TakeTwoNoTile);
                } else {
                    fx.notes.push(Note::TakeTwoDraw);
                    self.phase = Phase::DrawSecond { first: tile };
                }
            }
        }
        Ok(())
    }

    /// Take 2: `tile` goes back into the bag and the other of the two is to be placed.
    pub(super) fn return_tile(
        &mut self,
        tile: TileTypeId,
        first: TileTypeId,
        second: TileTypeId,
        fx: &mut Effects,
    ) -> Result<(), RuleViolation> {
        let keep = if tile == first {
            second
        } else if tile == second {
            first
        } else {
            return Err(RuleViolation::NotATakeTwoTile {
                tile: self.tiles.get(tile).id.clone(),
                first: self.tiles.get(first).id.clone(),
                second: self.tiles.get(second).id.clone(),
            });
        };
        self.put_back_in_bag(tile);
        fx.notes.push(Note::TileReturned {
            left: self.bag_total,
        });
        self.phase = Phase::Place { tile: keep };
        Ok(())
    }

    /// Final scoring: 2 points per unopened gift, one score per seat that holds any.
    pub(super) fn score_unopened_gifts(&mut self, fx: &mut Effects) {
        // No feature scores here; the score names the start tile's first segment so that
        // every score has a place, and `tiles` stays empty (nothing to highlight).
        let Some(start) = self.board.placed.first().copied() else {
            return;
        };
        let label = self.tiles.get(start.tile).segment_label(start.rotation, 0);
        for seat in 0..self.players {
            let hand = self.gifts.hands[seat as usize];
            let n = total(&hand);
            if n == 0 {
                continue;
            }
            self.score[seat as usize] += 2 * n;
            fx.notes.push(Note::GiftsUnopened {
                seat,
                cards: n as u8,
            });
            fx.scores.push(Score {
                kind: label.kind,
                time: ScoreTime::Final,
                feature: FeatureRef {
                    at: start.at,
                    label,
                },
                tiles: Vec::new(),
                coats_of_arms: 0,
                cities: Vec::new(),
                meeples: Vec::new(),
                winners: vec![seat],
                points: 2 * n,
                formula: format!(
                    "2 × {} ({}) = {}",
                    plural(n, "unopened gift", "unopened gifts"),
                    cards_words(&hand),
                    2 * n
                ),
                rule: rule::GIFT_UNOPENED,
                source: ScoreSource::UnopenedGifts { cards: n as u8 },
            });
        }
    }
}
