//! How a simulated seat chooses its moves: the [`Strategy`] names, the gift to open before a
//! placement, and the greedy player's immediate value of every (placement, arrow, meeple) move
//! of a turn, of a meeple step on its own and of the tile kept from Take 2. The random
//! player's draws from the generator are made where the driver meets each decision
//! (`driver::drive`), in an order that keeps old seeds giving the same games.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use carc_rules::{
    AbbotMove, Action, ArrowMeepleSpot, Effects, FeatureKind, Game, GiftAction, GiftCard,
    MeepleSpot, Phase, PlacedArrow, Placement, Pos, Special, TileTypeId,
};

/// How a simulated seat chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The Gifts: with gifts in hand, opens one a third of the time (uniform among the
    /// legal gift actions) and keeps either Take 2 tile with equal chance. Then uniform among
    /// legal placements; then (20th Anniversary) uniform among the arrows to
    /// choose from; then uniform among meeple spots, arrow-meeple targets and "no meeple".
    Random,
    /// Tries every placement, arrow choice and meeple choice (arrow-meeple targets included)
    /// and keeps the one with the best immediate value: own points minus the best opponent's,
    /// plus half the standing value of a feature it claims, minus 1 for each meeple used,
    /// plus 6 for an extra turn. The Gifts: opens the gift whose immediate value beats the
    /// 2 points it is worth unopened (Synod, Road Sweeper, Cash Out), Take 2 when the drawn
    /// tile fits nowhere, and keeps the better of two Take 2 tiles.
    Greedy,
}

impl Strategy {
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Greedy => "greedy",
        }
    }

    pub fn parse(s: &str) -> Option<Strategy> {
        match s {
            "random" => Some(Strategy::Random),
            "greedy" => Some(Strategy::Greedy),
            _ => None,
        }
    }
}

/// Whether and which gift to open before placing `tile` (`legal` is the legal list).
// Inlinable into the driver's loop, as it was when both lived in one module: it runs at every
// placement and mostly returns at once (no gift in hand).
#[inline]
pub(crate) fn choose_gift(
    game: &Game,
    tile: TileTypeId,
    strategy: Strategy,
    legal: &[GiftAction],
    rng: &mut ChaCha8Rng,
    fx: &mut Effects,
) -> Option<GiftAction> {
    if legal.is_empty() {
        return None;
    }
    match strategy {
        Strategy::Random => {
            let r = rng.gen_range(0..3 * legal.len());
            legal.get(r).copied()
        }
        Strategy::Greedy => {
            let me = game.current_player() as usize;
            if legal.contains(&GiftAction::TakeTwo) && game.first_placement(tile).is_none() {
                return Some(GiftAction::TakeTwo);
            }
            let mut best: Option<(i64, GiftAction)> = None;
            for &gift in legal {
                let spot = match gift {
                    GiftAction::Synod { at } => game.tile_at(at).and_then(|placed| {
                        game.tiles()
                            .get(placed.tile)
                            .monastery_segment()
                            .map(|m| (at, m, FeatureKind::Monastery))
                    }),
                    GiftAction::RoadSweeper { .. } | GiftAction::CashOut { .. } => None,
                    GiftAction::ChangePosition { .. } | GiftAction::TakeTwo => continue,
                };
                let mut after = game.clone();
                if after.apply(&Action::OpenGift { gift }, fx).is_err() {
                    continue;
                }
                let value = value_for(&after, game, me, spot);
                if best.is_none_or(|(v, _)| value > v) {
                    best = Some((value, gift));
                }
            }
            // Kept, a gift is worth 2 points at the end (4 in value units).
            best.filter(|&(v, _)| v > 4).map(|(_, g)| g)
        }
    }
}

/// The greedy player's scratch buffers.
type GreedyBuffers<'a> = (
    &'a mut Vec<Placement>,
    &'a mut Vec<MeepleSpot>,
    &'a mut Vec<ArrowMeepleSpot>,
    &'a mut Vec<PlacedArrow>,
);

/// Take 2 for the greedy player: returns the tile whose best turn is worth less.
pub(crate) fn greedy_return(
    game: &Game,
    first: TileTypeId,
    second: TileTypeId,
    (placements, spots, arrow_spots, choices): GreedyBuffers<'_>,
    fx: &mut Effects,
) -> TileTypeId {
    let mut value_of_keeping = |keep: TileTypeId, back: TileTypeId| -> i64 {
        let mut g = game.clone();
        if g.apply(&Action::ReturnTile { tile: back }, fx).is_err() {
            return i64::MIN;
        }
        g.legal_placements(keep, placements);
        if placements.is_empty() {
            return i64::MIN + 1;
        }
        greedy(&g, placements, (spots, arrow_spots, choices), fx).map_or(i64::MIN + 1, |b| b.0)
    };
    if value_of_keeping(second, first) >= value_of_keeping(first, second) {
        first
    } else {
        second
    }
}

/// For evaluation only: the gift a clone receives (any card still available; which one does
/// not change the value of the turn).
pub(crate) fn any_gift_card(game: &Game) -> Option<GiftCard> {
    game.a_gift_card_left()
}

/// A turn's decisions after the draw.
pub(crate) struct Plan {
    pub(crate) placement: Placement,
    /// The arrow to activate, when the placement offers several.
    pub(crate) choice: Option<Action>,
    pub(crate) meeple: Option<Action>,
}

/// Where a meeple-step option puts its figure, if anywhere: square, segment and kind.
type Spot = Option<(Pos, u8, FeatureKind)>;

/// Scratch buffers for the meeple step and arrow choices.
type MoveBuffers<'a> = (
    &'a mut Vec<MeepleSpot>,
    &'a mut Vec<ArrowMeepleSpot>,
    &'a mut Vec<PlacedArrow>,
);

/// Calls `f` with the greedy value and the plan of every (placement, arrow, meeple) choice of
/// the turn, in order: placements as given, arrow choices, then "no meeple", meeple spots and
/// arrow-meeple targets.
pub(crate) fn for_each_move(
    game: &Game,
    placements: &[Placement],
    (spots, arrow_spots, choices): MoveBuffers<'_>,
    fx: &mut Effects,
    mut f: impl FnMut(i64, Plan),
) {
    let me = game.current_player() as usize;
    // Scratch games, refilled with `clone_from` (which keeps their buffers) for each try:
    // `placed` after each placement, `scratch` after each meeple option but the last.
    let mut placed = game.clone();
    let mut scratch = game.clone();
    // A position's meeple-step options, in the order they are tried.
    let mut tries: Vec<(Action, Spot)> = Vec::new();
    // The positions after each arrow choice (20th Anniversary only; empty otherwise).
    let mut branches: Vec<(Option<Action>, Game)> = Vec::new();
    // The Abbot's moves (never filled, so never allocated, without the abbot).
    let mut abbot_moves: Vec<AbbotMove> = Vec::new();
    // The large meeple's targets (Inns & Cathedrals; never filled without it).
    let mut large_spots: Vec<MeepleSpot> = Vec::new();
    // The builder's and the pig's (Traders & Builders; never filled without it).
    let mut specials = Vec::new();
    for &p in placements {
        placed.clone_from(game);
        if placed
            .apply(
                &Action::Place {
                    at: p.at,
                    rotation: p.rotation,
                },
                fx,
            )
            .is_err()
        {
            continue;
        }
        branches.clear();
        // A gift earned by the placement: worth about its 2 points at the end.
        let mut bonus = 0;
        if let Phase::ReceiveGift { .. } = placed.phase() {
            let Some(card) = any_gift_card(&placed) else {
                continue;
            };
            if placed.apply(&Action::ReceiveGift { card }, fx).is_err() {
                continue;
            }
            bonus = 8;
        }
        let arrows = matches!(placed.phase(), Phase::ChooseArrow { .. });
        if arrows {
            placed.legal_arrow_choices(choices);
            for a in choices.iter() {
                let choice = Action::ChooseArrow { arrow: a.at };
                let mut chosen = placed.clone();
                if chosen.apply(&choice, fx).is_ok() {
                    branches.push((Some(choice), chosen));
                }
            }
        }
        // The arrow choices' positions, or the placement's own when it offers no choice.
        let plain = (!arrows).then_some((None, &mut placed));
        for (choice, placed) in branches.iter_mut().map(|(c, g)| (*c, g)).chain(plain) {
            placed.legal_meeples(spots);
            placed.legal_arrow_meeples(arrow_spots);
            let normal = spots.iter().map(|s| {
                (
                    Action::PlaceMeeple { segment: s.segment },
                    Some((p.at, s.segment, s.label.kind)),
                )
            });
            let remote = arrow_spots.iter().map(|s| {
                (
                    Action::PlaceArrowMeeple {
                        via: s.via,
                        at: s.at,
                        segment: s.segment,
                    },
                    Some((s.at, s.segment, s.label.kind)),
                )
            });
            placed.legal_abbot_moves(&mut abbot_moves);
            let abbot = abbot_moves.iter().map(abbot_option);
            placed.legal_large_meeples(&mut large_spots);
            let large = large_spots.iter().map(|s| {
                (
                    Action::PlaceLargeMeeple { segment: s.segment },
                    Some((p.at, s.segment, s.label.kind)),
                )
            });
            special_moves(placed, &mut specials);
            let special = specials
                .iter()
                .map(|(m, s)| (*m, Some((p.at, s.segment, s.label.kind))));
            tries.clear();
            tries.extend(
                std::iter::once((Action::SkipMeeple, None))
                    .chain(normal)
                    .chain(remote)
                    .chain(abbot)
                    .chain(large)
                    .chain(special),
            );
            let last = tries.len() - 1;
            for (i, &(action, spot)) in tries.iter().enumerate() {
                // The last option is played on the position itself: nothing reads it again
                // (the next placement refills it), so it needs no copy.
                let after: &mut Game = if i == last {
                    &mut *placed
                } else {
                    scratch.clone_from(placed);
                    &mut scratch
                };
                if after.apply(&action, fx).is_err() {
                    continue;
                }
                let value = value_for(after, game, me, spot)
                    + bonus
                    + large_bonus(&action, after, spot)
                    + special_bonus(&action, after, spot);
                f(
                    value,
                    Plan {
                        placement: p,
                        choice,
                        meeple: Some(action),
                    },
                );
            }
        }
    }
}

/// The greedy choice: best (placement, arrow, meeple) by immediate value; first wins ties.
/// `None` only if no placement can be played.
pub(crate) fn greedy(
    game: &Game,
    placements: &[Placement],
    buffers: MoveBuffers<'_>,
    fx: &mut Effects,
) -> Option<(i64, Plan)> {
    let mut best: Option<(i64, Plan)> = None;
    for_each_move(game, placements, buffers, fx, |value, plan| {
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, plan));
        }
    });
    best
}

/// The greedy meeple step on its own (a playout that starts at the meeple step): the best of
/// "no meeple", the meeple spots and the arrow-meeple targets by immediate value.
pub(crate) fn greedy_meeple(
    game: &Game,
    spots: &mut Vec<MeepleSpot>,
    arrow_spots: &mut Vec<ArrowMeepleSpot>,
    fx: &mut Effects,
) -> Action {
    let Phase::Meeple { at } = game.phase() else {
        return Action::SkipMeeple;
    };
    let me = game.current_player() as usize;
    game.legal_meeples(spots);
    game.legal_arrow_meeples(arrow_spots);
    let normal = spots.iter().map(|s| {
        (
            Action::PlaceMeeple { segment: s.segment },
            Some((at, s.segment, s.label.kind)),
        )
    });
    let remote = arrow_spots.iter().map(|s| {
        (
            Action::PlaceArrowMeeple {
                via: s.via,
                at: s.at,
                segment: s.segment,
            },
            Some((s.at, s.segment, s.label.kind)),
        )
    });
    let mut abbot_moves = Vec::new();
    game.legal_abbot_moves(&mut abbot_moves);
    let abbot = abbot_moves.iter().map(abbot_option);
    let mut large_spots = Vec::new();
    game.legal_large_meeples(&mut large_spots);
    let large = large_spots.iter().map(|s| {
        (
            Action::PlaceLargeMeeple { segment: s.segment },
            Some((at, s.segment, s.label.kind)),
        )
    });
    let mut specials = Vec::new();
    special_moves(game, &mut specials);
    let special = specials
        .iter()
        .map(|(m, s)| (*m, Some((at, s.segment, s.label.kind))));
    let mut best = (i64::MIN, Action::SkipMeeple);
    // One scratch game refilled for each option (`clone_from` keeps its buffers).
    let mut after = game.clone();
    for (action, spot) in std::iter::once((Action::SkipMeeple, None))
        .chain(normal)
        .chain(remote)
        .chain(abbot)
        .chain(large)
        .chain(special)
    {
        after.clone_from(game);
        if after.apply(&action, fx).is_err() {
            continue;
        }
        let value = value_for(&after, game, me, spot)
            + large_bonus(&action, &after, spot)
            + special_bonus(&action, &after, spot);
        if value > best.0 {
            best = (value, action);
        }
    }
    best.1
}

/// An abbot move as a greedy option: the action and, for a placement, where the abbot goes.
fn abbot_option(m: &AbbotMove) -> (Action, Option<(Pos, u8, FeatureKind)>) {
    let spot = match *m {
        AbbotMove::Place {
            at, segment, label, ..
        } => Some((at, segment, label.kind)),
        AbbotMove::TakeBack { .. } => None,
    };
    (m.action(), spot)
}

/// The greedy player's view of the large meeple (Inns & Cathedrals): worth one point more than
/// a meeple on a feature standing at 8 points or more (where a majority is worth defending),
/// one point less elsewhere (it is kept for such a feature). 0 for every other action.
fn large_bonus(action: &Action, after: &Game, spot: Option<(Pos, u8, FeatureKind)>) -> i64 {
    let (Action::PlaceLargeMeeple { .. }, Some((at, segment, _))) = (action, spot) else {
        return 0;
    };
    match after.appraise_points(at, segment) {
        Some(points) if points >= 8 => 1,
        _ => -1,
    }
}

/// Traders & Builders: the builder's and the pig's targets at the meeple step of `game`, as
/// actions (the builder's first), into `out`. Empty without the expansion.
pub(crate) fn special_moves(game: &Game, out: &mut Vec<(Action, MeepleSpot)>) {
    out.clear();
    if !game.options().traders_builders {
        return;
    }
    game.each_builder_and_pig_target(|which, s| {
        let action = match which {
            Special::Builder => Action::PlaceBuilder { segment: s.segment },
            Special::Pig => Action::PlacePig { segment: s.segment },
        };
        out.push((action, s));
    });
}

/// The greedy player's view of the builder and the pig (Traders & Builders): the builder is
/// worth 3 (the second turns it may give), the pig one point per completed city of its field
/// (what it adds if the field is won). 0 for every other action.
fn special_bonus(action: &Action, after: &Game, spot: Option<(Pos, u8, FeatureKind)>) -> i64 {
    match (action, spot) {
        (Action::PlaceBuilder { .. }, Some(_)) => 3,
        (Action::PlacePig { .. }, Some((at, segment, _))) => after
            .appraise(at, segment)
            .map_or(0, |s| s.cities.len() as i64),
        _ => 0,
    }
}

/// The immediate value of a turn for seat `me`; `spot` is where its meeple went, if anywhere.
fn value_for(after: &Game, before: &Game, me: usize, spot: Option<(Pos, u8, FeatureKind)>) -> i64 {
    let gain = |seat: usize| i64::from(after.scores()[seat]) - i64::from(before.scores()[seat]);
    let mine = gain(me);
    let theirs = (0..before.players() as usize)
        .filter(|&s| s != me)
        .map(gain)
        .max()
        .unwrap_or(0);
    let mut value = 2 * (mine - theirs);
    if let Some((at, segment, kind)) = spot {
        // The meeple is still out (feature not completed this turn): count half its value now.
        if after.figure_of_on(me as u8, at, segment) {
            // Points only: the explained score (`appraise`) cost more than the rest of the
            // move's valuation.
            let standing = after.appraise_points(at, segment).map_or(0, i64::from);
            let weight = if kind == FeatureKind::Field { 1 } else { 2 };
            value += weight * standing / 2 - 2;
        }
    }
    // An extra turn (20th Anniversary): the same seat is to move again.
    if after.is_extra_turn() && after.current_player() as usize == me && !after.is_over() {
        value += 6;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::play;
    use carc_rules::Setup;

    #[test]
    fn greedy_beats_random_more_often_than_not() {
        let mut greedy_wins = 0;
        for seed in 0..20 {
            let g = play(Setup::base(2), seed, &[Strategy::Greedy, Strategy::Random]).unwrap();
            if g.scores[0] > g.scores[1] {
                greedy_wins += 1;
            }
        }
        assert!(greedy_wins >= 14, "greedy won {greedy_wins} of 20");
    }
}
