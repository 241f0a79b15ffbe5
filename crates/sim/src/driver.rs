//! The simulator's one loop: a game played on to its end from wherever it stands, chance from
//! the shuffled bag (top tile last) and gift deck, decisions by each seat's strategy; the start
//! tiles (one square, or a map's start squares); and the reusable [`Buffers`] it works in.
//! Whole games ([`crate::play`]) and playouts ([`crate::playout`]) both run through it.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use carc_rules::{
    AbbotMove, Action, ArrowMeepleSpot, Effects, Game, GiftAction, GiftCard, MeepleSpot, Phase,
    PlacedArrow, Placement, Pos, Rotation, TileTypeId,
};

use crate::error::PlayoutError;
use crate::players::{choose_gift, greedy, greedy_meeple, greedy_return, Plan, Strategy};

/// Reusable buffers, so that many games in a row allocate little.
pub struct Buffers {
    pub(crate) placements: Vec<Placement>,
    pub(crate) spots: Vec<MeepleSpot>,
    pub(crate) arrow_spots: Vec<ArrowMeepleSpot>,
    pub(crate) choices: Vec<PlacedArrow>,
    pub(crate) bag: Vec<TileTypeId>,
    /// The Gifts: the gift deck, top card last.
    pub(crate) gift_deck: Vec<GiftCard>,
    pub(crate) gifts: Vec<GiftAction>,
    /// The Abbot: the abbot moves of a meeple step.
    pub(crate) abbot_moves: Vec<AbbotMove>,
    /// Inns & Cathedrals: the large meeple's targets at a meeple step.
    pub(crate) large_spots: Vec<MeepleSpot>,
    /// Traders & Builders: the builder's and the pig's targets at a meeple step, as actions.
    pub(crate) special_moves: Vec<(Action, MeepleSpot)>,
    pub(crate) fx: Effects,
}

impl Default for Buffers {
    fn default() -> Buffers {
        Buffers {
            placements: Vec::new(),
            spots: Vec::new(),
            arrow_spots: Vec::new(),
            choices: Vec::new(),
            bag: Vec::new(),
            gift_deck: Vec::new(),
            gifts: Vec::new(),
            abbot_moves: Vec::new(),
            large_spots: Vec::new(),
            special_moves: Vec::new(),
            // Players read the game, never the effects' score explanations.
            fx: Effects::quiet(),
        }
    }
}

impl Buffers {
    /// The gift deck that [`crate::play_move`] deals a gift card from (top card last), for a
    /// caller that deals its own guess of the deck.
    pub fn gift_deck_mut(&mut self) -> &mut Vec<GiftCard> {
        &mut self.gift_deck
    }

    /// The effects buffer (quiet: no score explanations), for applying actions alongside.
    pub fn effects(&mut self) -> &mut Effects {
        &mut self.fx
    }
}

/// Takes the start tile out of the bag (the tile set's start tile if the game has it, else the
/// first tile), for the start square.
pub(crate) fn take_start_tile(
    game: &Game,
    bag: &mut Vec<TileTypeId>,
) -> Result<TileTypeId, PlayoutError> {
    let Some(&any) = bag.first() else {
        return Err(PlayoutError::Position(
            "the bag is empty before the start tile".into(),
        ));
    };
    let start = game
        .start_tile()
        .filter(|&s| bag.contains(&s))
        .unwrap_or(any);
    if let Some(first) = bag.iter().position(|&t| t == start) {
        bag.swap_remove(first);
    }
    Ok(start)
}

/// The River: the shuffled bag (top tile last) reordered so that the river tiles come out
/// first, the lake after them and the land tiles last, each group in its shuffled order (a
/// stable sort). Nothing changes without the river, so other games draw exactly as before.
pub fn river_first(game: &Game, bag: &mut [TileTypeId]) {
    if !game.options().river {
        return;
    }
    let tiles = game.tiles();
    bag.sort_by_key(|&t| {
        let t = tiles.get(t);
        match (t.is_river(), t.river_end) {
            (false, _) => 0,
            (true, Some(carc_rules::RiverEnd::Lake)) => 1,
            (true, _) => 2,
        }
    });
}

/// The start tiles. On a map: `start` (if given) on one free start square chosen at random,
/// then a tile drawn from the bag on each other start square still to fill (a drawn tile that
/// fits no rotation there goes back and the next one is tried). Off a map: `start` at (0, 0).
pub(crate) fn place_starts(
    game: &mut Game,
    start: Option<TileTypeId>,
    rng: &mut ChaCha8Rng,
    buffers: &mut Buffers,
    mut actions: Option<&mut Vec<Action>>,
) -> Result<(), PlayoutError> {
    let Buffers {
        bag,
        placements,
        fx,
        ..
    } = buffers;
    let Some(map) = game.map_arc().cloned() else {
        let Some(tile) = start else {
            return Err(PlayoutError::Position("no start tile to place".to_string()));
        };
        let start_action = Action::PlaceStart {
            tile,
            at: Pos::new(0, 0),
            rotation: Rotation::default(),
        };
        game.apply(&start_action, fx)?;
        if let Some(a) = actions.as_mut() {
            a.push(start_action);
        }
        return Ok(());
    };
    let mut squares: Vec<Pos> = map
        .start_squares()
        .iter()
        .map(|s| s.at)
        .filter(|&at| game.starts_placed() == 0 || game.tile_at(at).is_none())
        .collect();
    squares.shuffle(rng);
    let wanted = game
        .options()
        .map
        .start_squares
        .saturating_sub(game.starts_placed());
    squares.truncate(usize::from(wanted));
    for (i, &at) in squares.iter().enumerate() {
        let mut pick = None;
        if i == 0 {
            if let Some(start) = start {
                bag.push(start);
            }
        }
        for k in (0..bag.len()).rev() {
            game.legal_start_placements(bag[k], placements);
            let here: Vec<Placement> = placements.iter().copied().filter(|p| p.at == at).collect();
            if !here.is_empty() {
                pick = Some((k, here[rng.gen_range(0..here.len())]));
                break;
            }
        }
        let Some((k, placement)) = pick else {
            return Err(PlayoutError::Position(format!(
                "no tile in the bag fits the start square {at}"
            )));
        };
        let tile = bag.remove(k);
        let action = Action::PlaceStart {
            tile,
            at,
            rotation: placement.rotation,
        };
        game.apply(&action, fx)?;
        if let Some(a) = actions.as_mut() {
            a.push(action);
        }
    }
    Ok(())
}

/// The next gift card off the deck; an empty deck first takes the discard pile, shuffled (the
/// rules do the same with the counts when the card arrives).
pub(crate) fn next_gift(
    game: &Game,
    gift_deck: &mut Vec<GiftCard>,
    rng: &mut ChaCha8Rng,
) -> Result<GiftCard, PlayoutError> {
    if gift_deck.is_empty() {
        let discard = game.gift_discard();
        for card in GiftCard::ALL {
            let n = usize::from(discard[card.index()]);
            gift_deck.extend(std::iter::repeat_n(card, n));
        }
        gift_deck.shuffle(rng);
    }
    gift_deck.pop().ok_or_else(|| {
        PlayoutError::Position("a gift is due, but no card is left in the deck or discard".into())
    })
}

/// Plays on until the game is over: chance from `buffers.bag` (top tile last) and
/// `buffers.gift_deck`, decisions by each seat's strategy. `actions` receives every action.
pub(crate) fn drive(
    game: &mut Game,
    strategies: &[Strategy],
    rng: &mut ChaCha8Rng,
    buffers: &mut Buffers,
    mut actions: Option<&mut Vec<Action>>,
) -> Result<(), PlayoutError> {
    let Buffers {
        placements,
        spots,
        arrow_spots,
        choices,
        bag,
        gift_deck,
        gifts,
        abbot_moves,
        large_spots,
        special_moves,
        fx,
    } = buffers;
    // The rest of the turn, as the strategy planned it at the placement.
    let mut plan: Option<Plan> = None;
    loop {
        let seat = game.current_player() as usize;
        let strategy = strategies
            .get(seat % strategies.len().max(1))
            .copied()
            .unwrap_or(Strategy::Random);
        let action = match game.phase() {
            Phase::Over => return Ok(()),
            Phase::Start => {
                return Err(PlayoutError::Position(
                    "the start tiles are not placed".into(),
                ))
            }
            Phase::Draw | Phase::DrawSecond { .. } => {
                let Some(tile) = bag.pop() else {
                    return Err(PlayoutError::Position(
                        "a tile is to be drawn, but the bag is empty".into(),
                    ));
                };
                Action::Draw { tile }
            }
            Phase::ReturnTile { first, second } => {
                let back = match strategy {
                    Strategy::Random => [first, second][rng.gen_range(0..2)],
                    Strategy::Greedy => greedy_return(
                        game,
                        first,
                        second,
                        (placements, spots, arrow_spots, choices),
                        fx,
                    ),
                };
                game.apply(&Action::ReturnTile { tile: back }, fx)?;
                if let Some(a) = actions.as_mut() {
                    a.push(Action::ReturnTile { tile: back });
                }
                // "Shuffled back into the face-down stack": anywhere in what is left.
                let at = rng.gen_range(0..=bag.len());
                bag.insert(at, back);
                // With the river, a returned river tile stays among the river tiles.
                river_first(game, bag);
                continue;
            }
            Phase::Place { tile } => {
                game.legal_gifts(gifts);
                if let Some(gift) = choose_gift(game, tile, strategy, gifts, rng, fx) {
                    Action::OpenGift { gift }
                } else {
                    // The random player draws an index into the listed placements; the
                    // rules find that one without listing them all.
                    let picked = match strategy {
                        Strategy::Random => {
                            game.pick_placement(tile, placements, |n| rng.gen_range(0..n))
                        }
                        Strategy::Greedy => {
                            game.legal_placements(tile, placements);
                            placements.first().copied()
                        }
                    };
                    if let Some(placement) = picked {
                        let p = match strategy {
                            Strategy::Random => Plan {
                                placement,
                                choice: None,
                                meeple: None,
                            },
                            Strategy::Greedy => {
                                match greedy(game, placements, (spots, arrow_spots, choices), fx) {
                                    Some((_, plan)) => plan,
                                    None => {
                                        return Err(PlayoutError::Position(
                                            "no listed placement of the drawn tile can be played"
                                                .into(),
                                        ))
                                    }
                                }
                            }
                        };
                        let place = Action::Place {
                            at: p.placement.at,
                            rotation: p.placement.rotation,
                        };
                        plan = Some(p);
                        place
                    } else {
                        plan = None;
                        Action::SetAside
                    }
                }
            }
            Phase::ReceiveGift { .. } => Action::ReceiveGift {
                card: next_gift(game, gift_deck, rng)?,
            },
            Phase::ChooseArrow { .. } => match plan.as_ref().and_then(|p| p.choice) {
                Some(choice) => choice,
                None => {
                    game.legal_arrow_choices(choices);
                    if choices.is_empty() {
                        return Err(PlayoutError::Position(
                            "an arrow is to be chosen, but none is offered".into(),
                        ));
                    }
                    let a = choices[rng.gen_range(0..choices.len())];
                    Action::ChooseArrow { arrow: a.at }
                }
            },
            Phase::Meeple { .. } => {
                let planned = plan.take().and_then(|p| p.meeple);
                match (planned, strategy) {
                    (Some(action), _) => action,
                    (None, Strategy::Random) => {
                        game.legal_meeples(spots);
                        game.legal_arrow_meeples(arrow_spots);
                        // The flag test keeps the base game's meeple step as it was.
                        if game.options().abbot {
                            game.legal_abbot_moves(abbot_moves);
                        }
                        game.legal_large_meeples(large_spots);
                        crate::players::special_moves(game, special_moves);
                        // Without an arrow action, the abbot or the large meeple this draws
                        // exactly as the base-game player always did, so base-game seeds keep
                        // giving the same games.
                        let n = spots.len();
                        let a = arrow_spots.len();
                        let b = abbot_moves.len();
                        let l = large_spots.len();
                        let choice = rng.gen_range(0..=n + a + b + l + special_moves.len());
                        if choice < n {
                            Action::PlaceMeeple {
                                segment: spots[choice].segment,
                            }
                        } else if let Some(s) = arrow_spots.get(choice - n) {
                            Action::PlaceArrowMeeple {
                                via: s.via,
                                at: s.at,
                                segment: s.segment,
                            }
                        } else if let Some(&m) = abbot_moves.get(choice - n - a) {
                            m.action()
                        } else if let Some(s) = large_spots.get(choice - n - a - b) {
                            Action::PlaceLargeMeeple { segment: s.segment }
                        } else if let Some((m, _)) = special_moves.get(choice - n - a - b - l) {
                            *m
                        } else {
                            Action::SkipMeeple
                        }
                    }
                    (None, Strategy::Greedy) => greedy_meeple(game, spots, arrow_spots, fx),
                }
            }
        };
        game.apply(&action, fx)?;
        if let Some(a) = actions.as_mut() {
            a.push(action);
        }
    }
}
