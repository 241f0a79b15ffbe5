//! Simulated players. Given a setup, a seed and one strategy per seat, [`play`] shuffles the
//! bag and plays a full legal game, returning every action in order — chance (draws) and
//! decisions alike — so the game can be written as a log and replayed.
//!
//! Determinism: the only randomness is a ChaCha8 generator seeded from `seed`; the same
//! inputs give the same actions on any machine. Strategies score moves with integers only.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

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
            // Players read the game, never the effects' score explanations.
            fx: Effects::quiet(),
        }
    }
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
    let start = take_start_tile(&game, bag).map_err(PlayoutError::into_violation)?;
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

    place_starts(&mut game, Some(start), &mut rng, buffers, Some(actions))
        .map_err(PlayoutError::into_violation)?;
    drive(&mut game, strategies, &mut rng, buffers, Some(actions))
        .map_err(PlayoutError::into_violation)?;
    Ok(game)
}

/// Why a position cannot be played out.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PlayoutError {
    /// An action of the playout (or the move to try first) was refused by the rules.
    #[error(transparent)]
    Rule(#[from] RuleViolation),
    /// The position is not one the simulator can go on from.
    #[error("the position cannot be played out: {0}")]
    Position(String),
}

impl PlayoutError {
    fn into_violation(self) -> RuleViolation {
        match self {
            PlayoutError::Rule(v) => v,
            PlayoutError::Position(what) => RuleViolation::Setup { what },
        }
    }
}

/// One turn's decisions after the drawn tile is in hand: where it goes, which arrow it
/// activates when several could be (20th Anniversary), and the meeple step
/// ([`Action::PlaceMeeple`], [`Action::PlaceArrowMeeple`] or [`Action::SkipMeeple`]).
/// A gift card earned by the placement is chance and not part of the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnMove {
    pub placement: Placement,
    /// The tile whose arrow is chosen, when the placement asks for a choice.
    pub arrow: Option<Pos>,
    pub meeple: Action,
}

/// Every move of the turn at `game` (waiting in [`Phase::Place`] for a tile that fits
/// somewhere), each with the greedy player's immediate value (twice the point difference and
/// more: see [`Strategy::Greedy`]), into `out`, in the greedy player's order: placements as
/// the rules list them (symmetric rotations once), then arrow choices, then "no meeple",
/// meeple spots and arrow-meeple targets. Empty when the tile fits nowhere or the game is not
/// waiting for a placement.
pub fn turn_moves(game: &Game, buffers: &mut Buffers, out: &mut Vec<(TurnMove, i64)>) {
    out.clear();
    let Phase::Place { tile } = game.phase() else {
        return;
    };
    game.legal_placements(tile, &mut buffers.placements);
    for_each_move(
        game,
        &buffers.placements,
        (
            &mut buffers.spots,
            &mut buffers.arrow_spots,
            &mut buffers.choices,
        ),
        &mut buffers.fx,
        |value, plan| {
            if let Some(meeple) = plan.meeple {
                let arrow = match plan.choice {
                    Some(Action::ChooseArrow { arrow }) => Some(arrow),
                    _ => None,
                };
                out.push((
                    TurnMove {
                        placement: plan.placement,
                        arrow,
                        meeple,
                    },
                    value,
                ));
            }
        },
    );
}

/// Plays `game` to its end from wherever it stands and returns the final scores, seat order.
///
/// What the players cannot know is dealt anew from `seed`: the tiles left in the bag are
/// shuffled (the rules know only how many of each are left), and so is the gift deck (The
/// Gifts). The opponents' gift hands are kept as they are. If `first` is given, the player to
/// move plays it first (the game must wait for the placement of the drawn tile; a gift card it
/// earns comes off the shuffled deck), then every seat plays by its strategy (`strategies`,
/// cycled over the seats). Any phase is accepted, the start tiles of a map included; a decision
/// pending without a plan (an arrow to choose, a meeple step) is taken by the strategy.
///
/// The same game, move, seed and strategies give the same scores. Chance is dealt before the
/// move is played, so two moves tried with the same seed meet the same tiles in the same order
/// (common random numbers).
pub fn playout(
    game: &Game,
    first: Option<&TurnMove>,
    seed: u64,
    strategies: &[Strategy],
    buffers: &mut Buffers,
) -> Result<Vec<u32>, PlayoutError> {
    playout_recorded(game, first, seed, strategies, buffers, None)
}

/// [`playout`], keeping every action after `first` (chance and decisions) in `actions`.
fn playout_recorded(
    game: &Game,
    first: Option<&TurnMove>,
    seed: u64,
    strategies: &[Strategy],
    buffers: &mut Buffers,
    mut actions: Option<&mut Vec<Action>>,
) -> Result<Vec<u32>, PlayoutError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = game.clone();
    let bag = &mut buffers.bag;
    bag.clear();
    for (i, _) in game.tiles().tiles().iter().enumerate() {
        let id = TileTypeId(i as u16);
        for _ in 0..game.bag_count(id) {
            bag.push(id);
        }
    }
    let start = if game.phase() == Phase::Start && game.starts_placed() == 0 {
        Some(take_start_tile(&game, bag)?)
    } else {
        None
    };
    bag.shuffle(&mut rng);
    let gift_deck = &mut buffers.gift_deck;
    gift_deck.clear();
    if game.options().gifts {
        let deck = game.gift_deck();
        for card in GiftCard::ALL {
            gift_deck.extend(std::iter::repeat_n(card, usize::from(deck[card.index()])));
        }
        gift_deck.shuffle(&mut rng);
    }
    if game.phase() == Phase::Start {
        place_starts(&mut game, start, &mut rng, buffers, actions.as_deref_mut())?;
    }
    if let Some(m) = first {
        play_move(&mut game, m, &mut rng, buffers)?;
    }
    drive(&mut game, strategies, &mut rng, buffers, actions)?;
    Ok(game.scores().to_vec())
}

/// The current seat plays `m`: placement, the gift card it earns (from the deck), the arrow
/// choice and the meeple step.
fn play_move(
    game: &mut Game,
    m: &TurnMove,
    rng: &mut ChaCha8Rng,
    buffers: &mut Buffers,
) -> Result<(), PlayoutError> {
    if !matches!(game.phase(), Phase::Place { .. }) {
        return Err(PlayoutError::Position(format!(
            "a move is tried only where a drawn tile waits to be placed, not in {:?}",
            game.phase()
        )));
    }
    let fx = &mut buffers.fx;
    game.apply(
        &Action::Place {
            at: m.placement.at,
            rotation: m.placement.rotation,
        },
        fx,
    )?;
    if let Phase::ReceiveGift { .. } = game.phase() {
        let card = next_gift(game, &mut buffers.gift_deck, rng)?;
        game.apply(&Action::ReceiveGift { card }, fx)?;
    }
    if let Phase::ChooseArrow { .. } = game.phase() {
        let Some(arrow) = m.arrow else {
            return Err(PlayoutError::Position(
                "the placement asks for an arrow to be chosen, and the move names none".into(),
            ));
        };
        game.apply(&Action::ChooseArrow { arrow }, fx)?;
    }
    game.apply(&m.meeple, fx)?;
    Ok(())
}

/// Takes the start tile out of the bag (the tile set's start tile if the game has it, else the
/// first tile), for the start square.
fn take_start_tile(game: &Game, bag: &mut Vec<TileTypeId>) -> Result<TileTypeId, PlayoutError> {
    let Some(&any) = bag.first() else {
        return Err(PlayoutError::Position(
            "the bag is empty before the start tile".into(),
        ));
    };
    let start = game
        .tiles()
        .start_tile()
        .filter(|&s| bag.contains(&s))
        .unwrap_or(any);
    if let Some(first) = bag.iter().position(|&t| t == start) {
        bag.swap_remove(first);
    }
    Ok(start)
}

/// The start tiles. On a map: `start` (if given) on one free start square chosen at random,
/// then a tile drawn from the bag on each other start square still to fill (a drawn tile that
/// fits no rotation there goes back and the next one is tried). Off a map: `start` at (0, 0).
fn place_starts(
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
fn next_gift(
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
fn drive(
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
                continue;
            }
            Phase::Place { tile } => {
                game.legal_gifts(gifts);
                if let Some(gift) = choose_gift(game, tile, strategy, gifts, rng, fx) {
                    Action::OpenGift { gift }
                } else {
                    game.legal_placements(tile, placements);
                    if placements.is_empty() {
                        plan = None;
                        Action::SetAside
                    } else {
                        let p = match strategy {
                            Strategy::Random => Plan {
                                placement: placements[rng.gen_range(0..placements.len())],
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
                        // Without an arrow action this draws exactly as the base-game player
                        // always did, so base-game seeds keep giving the same games.
                        let n = spots.len();
                        let choice = rng.gen_range(0..=n + arrow_spots.len());
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
fn any_gift_card(game: &Game) -> Option<GiftCard> {
    let deck = game.gift_deck();
    let source = if deck.iter().all(|&c| c == 0) {
        game.gift_discard()
    } else {
        deck
    };
    GiftCard::ALL.into_iter().find(|c| source[c.index()] > 0)
}

/// A turn's decisions after the draw.
struct Plan {
    placement: Placement,
    /// The arrow to activate, when the placement offers several.
    choice: Option<Action>,
    meeple: Option<Action>,
}

/// Scratch buffers for the meeple step and arrow choices.
type MoveBuffers<'a> = (
    &'a mut Vec<MeepleSpot>,
    &'a mut Vec<ArrowMeepleSpot>,
    &'a mut Vec<PlacedArrow>,
);

/// Calls `f` with the greedy value and the plan of every (placement, arrow, meeple) choice of
/// the turn, in order: placements as given, arrow choices, then "no meeple", meeple spots and
/// arrow-meeple targets.
fn for_each_move(
    game: &Game,
    placements: &[Placement],
    (spots, arrow_spots, choices): MoveBuffers<'_>,
    fx: &mut Effects,
    mut f: impl FnMut(i64, Plan),
) {
    let me = game.current_player() as usize;
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
            let Some(card) = any_gift_card(&placed) else {
                continue;
            };
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
                f(
                    value,
                    Plan {
                        placement: p,
                        choice: *choice,
                        meeple: Some(action),
                    },
                );
            }
        }
    }
}

/// The greedy choice: best (placement, arrow, meeple) by immediate value; first wins ties.
/// `None` only if no placement can be played.
fn greedy(
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
fn greedy_meeple(
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
    let mut best = (i64::MIN, Action::SkipMeeple);
    for (action, spot) in std::iter::once((Action::SkipMeeple, None))
        .chain(normal)
        .chain(remote)
    {
        let mut after = game.clone();
        if after.apply(&action, fx).is_err() {
            continue;
        }
        let value = value_for(&after, game, me, spot);
        if value > best.0 {
            best = (value, action);
        }
    }
    best.1
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

    /// Every expansion and their combination: (name, setup).
    fn every_kind_of_game() -> Vec<(&'static str, Setup)> {
        let mut gifts = Setup::base(3);
        gifts.options.gifts = true;
        let mut germany = Setup::base(4);
        germany.options.meeples = 9;
        germany.map = carc_rules::MapBoard::builtin_shared("germany");
        let mut all = anniversary(3);
        all.options.gifts = true;
        all.options.meeples = 9;
        all.options.map.start_squares = 3;
        all.map = carc_rules::MapBoard::builtin_shared("germany");
        vec![
            ("base", Setup::base(2)),
            ("anniversary", anniversary(4)),
            ("gifts", gifts),
            ("germany", germany),
            ("germany+anniversary+gifts", all),
        ]
    }

    #[test]
    fn quiet_effects_change_nothing_but_the_score_explanations() {
        use carc_rules::{Score, ScoreSource};
        for (name, setup) in every_kind_of_game() {
            for seed in 0..20 {
                // Given a simulated game (greedy and random seats, some without farmers)
                let mut setup = setup.clone();
                setup.options.farmers = seed % 4 != 3;
                let sim = play(setup.clone(), seed, &[Strategy::Greedy, Strategy::Random]).unwrap();
                // When it is replayed with explained and with quiet effects
                let mut loud = Game::new(setup.clone()).unwrap();
                let mut quiet = Game::new(setup.clone()).unwrap();
                let (mut fx, mut qfx) = (Effects::default(), Effects::quiet());
                for (i, a) in sim.actions.iter().enumerate() {
                    loud.apply(a, &mut fx).unwrap();
                    quiet.apply(a, &mut qfx).unwrap();
                    // Then both games agree after every action; only scores without a map
                    // go unexplained
                    let at = format!("{name}, seed {seed}, action {i}");
                    assert_eq!(loud.scores(), quiet.scores(), "{at}");
                    assert_eq!(loud.supply(), quiet.supply(), "{at}");
                    assert_eq!(loud.phase(), quiet.phase(), "{at}");
                    assert_eq!(fx.notes, qfx.notes, "{at}");
                    assert_eq!(fx.returned, qfx.returned, "{at}");
                    if setup.map.is_some() {
                        assert_eq!(fx.scores, qfx.scores, "{at}");
                    } else {
                        let explained = |s: &&Score| s.source != ScoreSource::Feature;
                        let kept: Vec<&Score> = fx.scores.iter().filter(explained).collect();
                        assert_eq!(kept, qfx.scores.iter().collect::<Vec<_>>(), "{at}");
                    }
                }
                assert!(quiet.is_over(), "{name}, seed {seed}");
            }
        }
    }

    /// The game after the first `n` actions of `actions`.
    fn replayed(setup: &Setup, actions: &[Action], n: usize) -> Game {
        let mut game = Game::new(setup.clone()).unwrap();
        let mut fx = Effects::default();
        for a in &actions[..n] {
            game.apply(a, &mut fx).unwrap();
        }
        game
    }

    #[test]
    fn a_playout_finishes_the_game_from_every_phase_of_every_kind_of_game() {
        let mut phases = std::collections::BTreeSet::new();
        let mut buffers = Buffers::default();
        for (name, setup) in every_kind_of_game() {
            for seed in 0..3 {
                // Given every position of a simulated game (greedy and random seats)
                let sim = play(setup.clone(), seed, &[Strategy::Greedy, Strategy::Random]).unwrap();
                let mut game = Game::new(setup.clone()).unwrap();
                let mut fx = Effects::default();
                for (i, a) in sim.actions.iter().enumerate() {
                    phases.insert(
                        format!("{:?}", game.phase())
                            .split([' ', '{'])
                            .next()
                            .unwrap()
                            .to_string(),
                    );
                    // When it is played out (random everywhere, greedy every 7th position)
                    let strategy = if i % 7 == 0 {
                        Strategy::Greedy
                    } else {
                        Strategy::Random
                    };
                    let scores = playout(&game, None, seed + i as u64, &[strategy], &mut buffers)
                        .unwrap_or_else(|e| panic!("{name} seed {seed} action {i}: {e}"));
                    // Then the game reaches its end, and nobody loses points they had (no
                    // town costs in these setups)
                    assert_eq!(scores.len(), game.players() as usize);
                    if !game.options().map.town_cost {
                        for (after, before) in scores.iter().zip(game.scores()) {
                            assert!(after >= before, "{name} seed {seed} action {i}");
                        }
                    }
                    game.apply(a, &mut fx).unwrap();
                }
                // And from the finished game, a playout gives its final scores back
                let end = playout(&game, None, 1, &[Strategy::Random], &mut buffers).unwrap();
                assert_eq!(end, sim.scores);
            }
        }
        // The positions covered every phase a game passes through (a game's end included)
        for phase in [
            "Start",
            "Draw",
            "Place",
            "ChooseArrow",
            "Meeple",
            "ReceiveGift",
            "DrawSecond",
            "ReturnTile",
        ] {
            assert!(
                phases.contains(phase),
                "no position in phase {phase}: {phases:?}"
            );
        }
    }

    #[test]
    fn a_playout_deals_the_unseen_tiles_anew_from_the_seed_and_only_those() {
        // Given a base game after 40 actions
        let setup = Setup::base(2);
        let sim = play(setup.clone(), 3, &[Strategy::Random]).unwrap();
        let game = replayed(&setup, &sim.actions, 40);
        let mut buffers = Buffers::default();
        let draws = |seed: u64, buffers: &mut Buffers| {
            let mut actions = Vec::new();
            let scores = playout_recorded(
                &game,
                None,
                seed,
                &[Strategy::Random],
                buffers,
                Some(&mut actions),
            )
            .unwrap();
            let tiles: Vec<TileTypeId> = actions
                .iter()
                .filter_map(|a| match a {
                    Action::Draw { tile } => Some(*tile),
                    _ => None,
                })
                .collect();
            (scores, tiles)
        };
        // When it is played out with two seeds, and with the first seed again
        let (s1, t1) = draws(11, &mut buffers);
        let (_, t2) = draws(12, &mut buffers);
        let (s1_again, t1_again) = draws(11, &mut buffers);
        // Then the same seed gives the same game
        assert_eq!((s1, &t1), (s1_again, &t1_again));
        // And the two seeds draw the same tiles (those left in the bag) in other orders
        assert_ne!(t1, t2);
        let mut sorted1 = t1.clone();
        let mut sorted2 = t2.clone();
        sorted1.sort_unstable();
        sorted2.sort_unstable();
        assert_eq!(sorted1, sorted2);
        let mut bag: Vec<TileTypeId> = (0..game.tiles().len() as u16)
            .map(TileTypeId)
            .flat_map(|t| std::iter::repeat_n(t, usize::from(game.bag_count(t))))
            .collect();
        bag.sort_unstable();
        assert_eq!(sorted1, bag);
        // And the real game's next draws are not simply replayed
        let real: Vec<TileTypeId> = sim.actions[40..]
            .iter()
            .filter_map(|a| match a {
                Action::Draw { tile } => Some(*tile),
                _ => None,
            })
            .collect();
        assert!(t1 != real || t2 != real);
    }

    #[test]
    fn moves_tried_with_the_same_seed_meet_the_same_tiles() {
        // Given a position waiting for a placement, and its moves
        let setup = Setup::base(2);
        let sim = play(setup.clone(), 5, &[Strategy::Random]).unwrap();
        let n = sim
            .actions
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, Action::Place { .. }))
            .nth(10)
            .unwrap()
            .0;
        let game = replayed(&setup, &sim.actions, n);
        let mut buffers = Buffers::default();
        let mut moves = Vec::new();
        turn_moves(&game, &mut buffers, &mut moves);
        assert!(moves.len() > 2, "{}", moves.len());
        // When two different moves are played out with the same seed
        let mut first_draws = Vec::new();
        for (m, _) in &moves[..2] {
            let mut actions = Vec::new();
            playout_recorded(
                &game,
                Some(m),
                9,
                &[Strategy::Random],
                &mut buffers,
                Some(&mut actions),
            )
            .unwrap();
            let draws: Vec<Action> = actions
                .into_iter()
                .filter(|a| matches!(a, Action::Draw { .. }))
                .take(5)
                .collect();
            first_draws.push(draws);
        }
        // Then they draw the same next tiles
        assert_eq!(first_draws[0], first_draws[1]);
        assert_eq!(first_draws[0].len(), 5);
    }

    #[test]
    fn turn_moves_are_every_legal_turn_and_hold_the_greedy_choice() {
        let setup = anniversary(3);
        let mut buffers = Buffers::default();
        let mut checked = 0;
        for seed in 0..3 {
            let sim = play(setup.clone(), seed, &[Strategy::Greedy]).unwrap();
            for (n, a) in sim.actions.iter().enumerate() {
                let Action::Place { at, rotation } = *a else {
                    continue;
                };
                // Given a position where the greedy player placed a tile
                let game = replayed(&setup, &sim.actions, n);
                let mut moves = Vec::new();
                // When its moves are listed
                turn_moves(&game, &mut buffers, &mut moves);
                // Then each one plays out, and the greedy player's choice is the first best
                let best = moves.iter().map(|(_, v)| *v).max().unwrap();
                let first_best = moves.iter().find(|(_, v)| *v == best).unwrap().0;
                assert_eq!(first_best.placement, Placement { at, rotation });
                let played_meeple = sim.actions[n + 1..]
                    .iter()
                    .find(|a| {
                        matches!(
                            a,
                            Action::PlaceMeeple { .. }
                                | Action::PlaceArrowMeeple { .. }
                                | Action::SkipMeeple
                        )
                    })
                    .unwrap();
                assert_eq!(first_best.meeple, *played_meeple);
                for (m, _) in moves.iter().step_by(5) {
                    playout(&game, Some(m), 1, &[Strategy::Random], &mut buffers).unwrap();
                }
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn an_illegal_or_misplaced_move_is_an_error_not_a_panic() {
        let setup = Setup::base(2);
        let sim = play(setup.clone(), 2, &[Strategy::Random]).unwrap();
        let mut buffers = Buffers::default();
        // Given a position waiting for a draw, and one waiting for a placement
        let draw = replayed(&setup, &sim.actions, 1);
        assert_eq!(draw.phase(), Phase::Draw);
        let place = replayed(&setup, &sim.actions, 2);
        assert!(matches!(place.phase(), Phase::Place { .. }));
        let far = TurnMove {
            placement: Placement {
                at: Pos::new(30, 30),
                rotation: Rotation::default(),
            },
            arrow: None,
            meeple: Action::SkipMeeple,
        };
        // When a move is tried where no tile waits, or a move the rules refuse
        let misplaced = playout(&draw, Some(&far), 1, &[Strategy::Random], &mut buffers);
        let illegal = playout(&place, Some(&far), 1, &[Strategy::Random], &mut buffers);
        // Then each is an error, and a position the simulator cannot go on from is one too
        assert!(
            matches!(misplaced, Err(PlayoutError::Position(_))),
            "{misplaced:?}"
        );
        assert!(matches!(illegal, Err(PlayoutError::Rule(_))), "{illegal:?}");
    }
}
