//! One guess at what the player to move cannot see (a determinization): the order of the tiles
//! left in the bag, and (The Gifts) which cards the other players hold and the order of the
//! deck. Each search iteration plays in a fresh guess, so the tree's statistics average over
//! what the player does not know and never over what only the others know.
//!
//! Chance between two decisions is played here too ([`advance`]): tiles drawn from the guessed
//! bag (a tile that fits nowhere is set aside), gift cards from the guessed deck, and the
//! decisions no tree node is kept for — a gift to open, the Take 2 tile to give back — made
//! by the greedy player.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use carc_rules::{Action, Game, GiftAction, GiftCard, Phase, TileTypeId};
use carc_sim::{Buffers, GreedyPlayer, Player, PlayoutError};

/// Deals a guess of the hidden parts of `root` as `observer` sees them into `game` (a clone
/// of `root`), `bag` (top tile last) and `buffers.gift_deck` (top card last).
pub(crate) fn deal(
    root: &Game,
    observer: u8,
    rng: &mut ChaCha8Rng,
    game: &mut Game,
    bag: &mut Vec<TileTypeId>,
    buffers: &mut Buffers,
) -> Result<(), PlayoutError> {
    game.clone_from(root);
    bag.clear();
    for id in root.tiles().ids() {
        bag.extend(std::iter::repeat_n(id, usize::from(root.bag_count(id))));
    }
    bag.shuffle(rng);
    // The River: river tiles first, then the lake, as the rules require of every draw.
    carc_sim::river_first(root, bag);
    buffers.gift_deck_mut().clear();
    if root.options().gifts {
        // Counted per kind, then listed in a fixed order: the guess depends on what the
        // observer sees (how many hidden cards of each kind), never on who holds which.
        let mut counts = root.gift_deck();
        for seat in (0..root.players()).filter(|&s| s != observer) {
            for (c, n) in counts.iter_mut().zip(root.hand(seat)) {
                *c += n;
            }
        }
        let mut hidden: Vec<GiftCard> = Vec::new();
        for card in GiftCard::ALL {
            hidden.extend(std::iter::repeat_n(card, usize::from(counts[card.index()])));
        }
        hidden.shuffle(rng);
        game.redeal_hidden_gifts(observer, &hidden)?;
        // The cards past the other hands are the deck, in the dealt order (top card last).
        let in_hands: u32 = (0..root.players())
            .filter(|&s| s != observer)
            .map(|s| root.hand_size(s))
            .sum();
        buffers
            .gift_deck_mut()
            .extend_from_slice(&hidden[in_hands as usize..]);
    }
    Ok(())
}

/// Plays chance and the greedy player's side decisions until a decision the tree keeps
/// (a placement of a tile that fits somewhere) or the end of the game. Returns `false` at
/// the end of the game.
pub(crate) fn advance(
    game: &mut Game,
    bag: &mut Vec<TileTypeId>,
    rng: &mut ChaCha8Rng,
    buffers: &mut Buffers,
    gifts: &mut Vec<GiftAction>,
) -> Result<bool, PlayoutError> {
    loop {
        let action = match game.phase() {
            Phase::Over => return Ok(false),
            Phase::Draw | Phase::DrawSecond { .. } => match bag.pop() {
                Some(tile) => Action::Draw { tile },
                None => {
                    return Err(PlayoutError::Position(
                        "a tile is to be drawn, but the guessed bag is empty".into(),
                    ))
                }
            },
            Phase::ReturnTile { first, second } => {
                let back = GreedyPlayer.give_back(game, first, second, buffers);
                game.apply(&Action::ReturnTile { tile: back }, buffers.effects())?;
                let at = rng.gen_range(0..=bag.len());
                bag.insert(at, back);
                continue;
            }
            Phase::Place { tile } => {
                game.legal_gifts(gifts);
                let gift = if gifts.is_empty() {
                    None
                } else {
                    GreedyPlayer.gift(game, tile, gifts, buffers)
                };
                if let Some(gift) = gift {
                    Action::OpenGift { gift }
                } else if game.first_placement(tile).is_none() {
                    Action::SetAside
                } else {
                    return Ok(true);
                }
            }
            Phase::ReceiveGift { .. } => match buffers.gift_deck_mut().pop() {
                Some(card) => Action::ReceiveGift { card },
                None => {
                    // The deck ran out: the discard pile becomes the deck, shuffled.
                    let discard = game.gift_discard();
                    let deck = buffers.gift_deck_mut();
                    for card in GiftCard::ALL {
                        deck.extend(std::iter::repeat_n(
                            card,
                            usize::from(discard[card.index()]),
                        ));
                    }
                    deck.shuffle(rng);
                    match deck.pop() {
                        Some(card) => Action::ReceiveGift { card },
                        None => {
                            return Err(PlayoutError::Position(
                                "a gift is due, but no card is left".into(),
                            ))
                        }
                    }
                }
            },
            phase => {
                return Err(PlayoutError::Position(format!(
                    "a turn stopped half-way, in {phase:?}"
                )))
            }
        };
        game.apply(&action, buffers.effects())?;
    }
}
