//! Simulated players. Given a setup, a seed and one strategy per seat, [`play`] shuffles the
//! bag and plays a full legal game, returning every action in order — chance (draws) and
//! decisions alike — so the game can be written as a log and replayed.
//!
//! Determinism: the only randomness is a ChaCha8 generator seeded from `seed`; the same
//! inputs give the same actions on any machine. Strategies score moves with integers only.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use carc_rules::{
    Action, ArrowMeepleSpot, Effects, FeatureKind, Game, GiftAction, GiftCard, MeepleSpot, Phase,
    PlacedArrow, Placement, Pos, Rotation, RuleViolation, Setup, TileTypeId, GIFT_COPIES,
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

/// A finished simulated game.
#[derive(Clone, Debug)]
pub struct SimGame {
    pub actions: Vec<Action>,
    pub scores: Vec<u32>,
    pub game: Game,
}

/// Reusable buffers, so that many games in a row allocate little.
#[derive(Default)]
pub struct Buffers {
    placements: Vec<Placement>,
    spots: Vec<MeepleSpot>,
    arrow_spots: Vec<ArrowMeepleSpot>,
    choices: Vec<PlacedArrow>,
    bag: Vec<TileTypeId>,
    /// The Gifts: the gift deck, top card last.
    gift_deck: Vec<GiftCard>,
    gifts: Vec<GiftAction>,
    fx: Effects,
}

/// Plays a whole game. `strategies` gives one strategy per seat (cycled if shorter).
pub fn play(setup: Setup, seed: u64, strategies: &[Strategy]) -> Result<SimGame, RuleViolation> {
    let mut buffers = Buffers::default();
    let mut actions = Vec::with_capacity(256);
    let game = play_into(setup, seed, strategies, &mut buffers, &mut actions)?;
    Ok(SimGame {
        scores: game.scores().to_vec(),
        actions,
        game,
    })
}

/// [`play`] with caller-owned buffers (for benchmarks and bulk simulation).
pub fn play_into(
    setup: Setup,
    seed: u64,
    strategies: &[Strategy],
    buffers: &mut Buffers,
    actions: &mut Vec<Action>,
) -> Result<Game, RuleViolation> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(setup)?;
    actions.clear();

    // The bag: every copy in the game, shuffled; the start tile comes out first.
    let bag = &mut buffers.bag;
    bag.clear();
    for (i, _) in game.tiles().tiles().iter().enumerate() {
        let id = TileTypeId(i as u16);
        for _ in 0..game.in_game_count(id) {
            bag.push(id);
        }
    }
    let start = game
        .tiles()
        .start_tile()
        .filter(|&s| game.in_game_count(s) > 0)
        .unwrap_or(bag[0]);
    let first = bag
        .iter()
        .position(|&t| t == start)
        .expect("start tile in bag");
    bag.swap_remove(first);
    bag.shuffle(&mut rng);

    // The gift deck, shuffled only with the option on, so other games draw exactly as before.
    let gift_deck = &mut buffers.gift_deck;
    gift_deck.clear();
    if game.options().gifts {
        for card in GiftCard::ALL {
            gift_deck.extend(std::iter::repeat_n(card, usize::from(GIFT_COPIES)));
        }
        gift_deck.shuffle(&mut rng);
    }

    let fx = &mut buffers.fx;
    if let Some(map) = game.map_arc().cloned() {
        // On a map: the start tile on one start square chosen at random, then a tile drawn
        // from the bag on each other start square in use (a drawn tile that fits no rotation
        // there goes back and the next one is tried).
        let mut squares: Vec<Pos> = map.start_squares().iter().map(|s| s.at).collect();
        squares.shuffle(&mut rng);
        squares.truncate(usize::from(game.options().map.start_squares));
        for (i, &at) in squares.iter().enumerate() {
            let mut pick = None;
            if i == 0 {
                bag.push(start);
            }
            for k in (0..bag.len()).rev() {
                game.legal_start_placements(bag[k], &mut buffers.placements);
                let here: Vec<Placement> = buffers
                    .placements
                    .iter()
                    .copied()
                    .filter(|p| p.at == at)
                    .collect();
                if !here.is_empty() {
                    pick = Some((k, here[rng.gen_range(0..here.len())]));
                    break;
                }
            }
            let Some((k, placement)) = pick else {
                return Err(RuleViolation::Setup {
                    what: format!("no tile in the bag fits the start square {at}"),
                });
            };
            let tile = bag.remove(k);
            let action = Action::PlaceStart {
                tile,
                at,
                rotation: placement.rotation,
            };
            game.apply(&action, fx)?;
            actions.push(action);
        }
    } else {
        let start_action = Action::PlaceStart {
            tile: start,
            at: Pos::new(0, 0),
            rotation: Rotation::default(),
        };
        game.apply(&start_action, fx)?;
        actions.push(start_action);
    }

    while !game.is_over() {
        let mut tile = bag.pop().expect("the game ends when the bag is empty");
        let draw = Action::Draw { tile };
        game.apply(&draw, fx)?;
        actions.push(draw);
        let seat = game.current_player() as usize;
        let strategy = strategies[seat % strategies.len().max(1)];
        if game.options().gifts {
            game.legal_gifts(&mut buffers.gifts);
            if let Some(gift) = choose_gift(&game, tile, strategy, &buffers.gifts, &mut rng, fx) {
                let open = Action::OpenGift { gift };
                game.apply(&open, fx)?;
                actions.push(open);
                if let Phase::DrawSecond { .. } = game.phase() {
                    let second = bag.pop().expect("Take 2 draws only from a non-empty bag");
                    let draw = Action::Draw { tile: second };
                    game.apply(&draw, fx)?;
                    actions.push(draw);
                    let back = match strategy {
                        Strategy::Random => [tile, second][rng.gen_range(0..2)],
                        Strategy::Greedy => greedy_return(
                            &game,
                            tile,
                            second,
                            (
                                &mut buffers.placements,
                                &mut buffers.spots,
                                &mut buffers.arrow_spots,
                                &mut buffers.choices,
                            ),
                            fx,
                        ),
                    };
                    game.apply(&Action::ReturnTile { tile: back }, fx)?;
                    actions.push(Action::ReturnTile { tile: back });
                    // "Shuffled back into the face-down stack": anywhere in what is left.
                    let at = rng.gen_range(0..=bag.len());
                    bag.insert(at, back);
                    if back == tile {
                        tile = second;
                    }
                }
            }
        }
        game.legal_placements(tile, &mut buffers.placements);
        if buffers.placements.is_empty() {
            game.apply(&Action::SetAside, fx)?;
            actions.push(Action::SetAside);
            continue;
        }
        let plan = match strategy {
            Strategy::Random => {
                let p = buffers.placements[rng.gen_range(0..buffers.placements.len())];
                Plan {
                    placement: p,
                    choice: None,
                    meeple: None,
                }
            }
            Strategy::Greedy => {
                greedy(
                    &game,
                    &buffers.placements,
                    &mut buffers.spots,
                    &mut buffers.arrow_spots,
                    &mut buffers.choices,
                    fx,
                )
                .1
            }
        };
        let place = Action::Place {
            at: plan.placement.at,
            rotation: plan.placement.rotation,
        };
        game.apply(&place, fx)?;
        actions.push(place);
        if let Phase::ReceiveGift { .. } = game.phase() {
            if buffers.gift_deck.is_empty() {
                // The discard pile becomes the new deck, shuffled (the rules do the same
                // with the counts when the card arrives).
                let discard = game.gift_discard();
                for card in GiftCard::ALL {
                    let n = usize::from(discard[card.index()]);
                    buffers.gift_deck.extend(std::iter::repeat_n(card, n));
                }
                buffers.gift_deck.shuffle(&mut rng);
            }
            let card = buffers
                .gift_deck
                .pop()
                .expect("a gift is due only if a card is left");
            let receive = Action::ReceiveGift { card };
            game.apply(&receive, fx)?;
            actions.push(receive);
        }
        if let Phase::ChooseArrow { .. } = game.phase() {
            let choice = match (strategy, plan.choice) {
                (Strategy::Greedy, Some(choice)) => choice,
                _ => {
                    game.legal_arrow_choices(&mut buffers.choices);
                    let a = buffers.choices[rng.gen_range(0..buffers.choices.len())];
                    Action::ChooseArrow { arrow: a.at }
                }
            };
            game.apply(&choice, fx)?;
            actions.push(choice);
        }
        let meeple_action = match strategy {
            Strategy::Random => {
                game.legal_meeples(&mut buffers.spots);
                game.legal_arrow_meeples(&mut buffers.arrow_spots);
                // Without an arrow action this draws exactly as the base-game player always
                // did, so base-game seeds keep giving the same games.
                let n = buffers.spots.len();
                let choice = rng.gen_range(0..=n + buffers.arrow_spots.len());
                if choice < n {
                    Action::PlaceMeeple {
                        segment: buffers.spots[choice].segment,
                    }
                } else if let Some(s) = buffers.arrow_spots.get(choice - n) {
                    Action::PlaceArrowMeeple {
                        via: s.via,
                        at: s.at,
                        segment: s.segment,
                    }
                } else {
                    Action::SkipMeeple
                }
            }
            Strategy::Greedy => plan.meeple.unwrap_or(Action::SkipMeeple),
        };
        game.apply(&meeple_action, fx)?;
        actions.push(meeple_action);
    }
    Ok(game)
}

/// Whether and which gift to open before placing `tile` (`legal` is the legal list).
fn choose_gift(
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
                    GiftAction::Synod { at } => {
                        let placed = game.tile_at(at).expect("a legal Synod target");
                        game.tiles()
                            .get(placed.tile)
                            .monastery_segment()
                            .map(|m| (at, m, FeatureKind::Monastery))
                    }
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
fn greedy_return(
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
        greedy(&g, placements, spots, arrow_spots, choices, fx).0
    };
    if value_of_keeping(second, first) >= value_of_keeping(first, second) {
        first
    } else {
        second
    }
}

/// For evaluation only: the gift a clone receives (any card still available; which one does
/// not change the value of the turn).
fn any_gift_card(game: &Game) -> GiftCard {
    let deck = game.gift_deck();
    let source = if deck.iter().all(|&c| c == 0) {
        game.gift_discard()
    } else {
        deck
    };
    GiftCard::ALL
        .into_iter()
        .find(|c| source[c.index()] > 0)
        .expect("a gift is due only if a card is left")
}

/// A turn's decisions after the draw.
struct Plan {
    placement: Placement,
    /// The arrow to activate, when the placement offers several.
    choice: Option<Action>,
    meeple: Option<Action>,
}

/// The greedy choice: best (placement, arrow, meeple) by immediate value; first wins ties.
fn greedy(
    game: &Game,
    placements: &[Placement],
    spots: &mut Vec<MeepleSpot>,
    arrow_spots: &mut Vec<ArrowMeepleSpot>,
    choices: &mut Vec<PlacedArrow>,
    fx: &mut Effects,
) -> (i64, Plan) {
    let me = game.current_player() as usize;
    let mut best: Option<(i64, Plan)> = None;
    let mut branches: Vec<(Option<Action>, Game)> = Vec::new();
    for &p in placements {
        let mut placed = game.clone();
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
            let card = any_gift_card(&placed);
            if placed.apply(&Action::ReceiveGift { card }, fx).is_err() {
                continue;
            }
            bonus = 8;
        }
        if let Phase::ChooseArrow { .. } = placed.phase() {
            placed.legal_arrow_choices(choices);
            for a in choices.iter() {
                let choice = Action::ChooseArrow { arrow: a.at };
                let mut chosen = placed.clone();
                if chosen.apply(&choice, fx).is_ok() {
                    branches.push((Some(choice), chosen));
                }
            }
        } else {
            branches.push((None, placed));
        }
        for (choice, placed) in &branches {
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
            let options = std::iter::once((Action::SkipMeeple, None))
                .chain(normal)
                .chain(remote);
            for (action, spot) in options {
                let mut after = placed.clone();
                if after.apply(&action, fx).is_err() {
                    continue;
                }
                let value = value_for(&after, game, me, spot) + bonus;
                if best.as_ref().is_none_or(|(v, _)| value > *v) {
                    best = Some((
                        value,
                        Plan {
                            placement: p,
                            choice: *choice,
                            meeple: Some(action),
                        },
                    ));
                }
            }
        }
    }
    best.expect("at least one legal placement")
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
        if after
            .meeples()
            .any(|(p, pos, seg, _)| p as usize == me && pos == at && seg == segment)
        {
            let standing = after
                .appraise(at, segment)
                .map_or(0, |sc| i64::from(sc.points));
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

    #[test]
    fn same_seed_same_game() {
        let a = play(Setup::base(3), 7, &[Strategy::Random]).unwrap();
        let b = play(Setup::base(3), 7, &[Strategy::Random]).unwrap();
        assert_eq!(a.actions, b.actions);
        let c = play(Setup::base(3), 8, &[Strategy::Random]).unwrap();
        assert_ne!(a.actions, c.actions);
    }

    #[test]
    fn a_game_uses_every_tile() {
        let g = play(Setup::base(2), 1, &[Strategy::Random]).unwrap();
        assert!(g.game.is_over());
        let draws = g
            .actions
            .iter()
            .filter(|a| matches!(a, Action::Draw { .. }))
            .count();
        assert_eq!(draws, 71, "72 tiles, one is the start tile");
        assert_eq!(g.game.placed().len() + g.game.set_aside().len(), 72);
    }

    fn anniversary(players: u8) -> Setup {
        let tiles = carc_rules::TileSet::combine(&[
            carc_rules::TileSet::base(),
            carc_rules::TileSet::anniversary(),
        ])
        .unwrap();
        Setup {
            players,
            options: carc_rules::Options {
                anniversary: true,
                ..carc_rules::Options::default()
            },
            tiles: std::sync::Arc::new(tiles),
            bag: None,
            map: None,
        }
    }

    #[test]
    fn anniversary_games_are_deterministic_use_every_tile_and_take_arrow_actions() {
        let mut arrow_meeples = 0;
        let mut choices = 0;
        for seed in 0..10 {
            for strategies in [
                &[Strategy::Random][..],
                &[Strategy::Greedy, Strategy::Random],
            ] {
                let a = play(anniversary(3), seed, strategies).unwrap();
                let b = play(anniversary(3), seed, strategies).unwrap();
                assert_eq!(a.actions, b.actions);
                assert!(a.game.is_over());
                assert_eq!(a.game.placed().len() + a.game.set_aside().len(), 87);
                arrow_meeples += a
                    .actions
                    .iter()
                    .filter(|x| matches!(x, Action::PlaceArrowMeeple { .. }))
                    .count();
                choices += a
                    .actions
                    .iter()
                    .filter(|x| matches!(x, Action::ChooseArrow { .. }))
                    .count();
            }
        }
        assert!(
            arrow_meeples > 0 && choices > 0,
            "{arrow_meeples} {choices}"
        );
    }

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
