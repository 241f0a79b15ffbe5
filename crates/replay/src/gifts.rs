//! The Gifts at the table: which gift moves are legal now, in the log's notation. Both record
//! paths ask here (`carc record gift`/`open` and their hints and Tab completion; the viewer's
//! record mode and its offers), so that they offer the same cards and targets.
//!
//! A card received is chance (like a tile drawn): [`receivable_cards`] are the kinds the
//! deck can deal now. A card opened is the player's move: [`openings`] are the legal ones,
//! each as its rules action and the `gift_opened` event that records it, and
//! [`opening_words`] spells one as the record verbs take it (`synod 0 -1`, `road_sweeper 1 0
//! road E`, `change_position -3 0 field Ne road N`, `take_2`).

use carc_events::{action_to_event, Event};
use carc_rules::{Action, Game, GiftAction, GiftCard, Phase};

/// The kinds of card the gift deck can deal now, in card order: the deck's, or with an empty
/// deck the discard pile's (it becomes the deck when the card is received, `gifts.deck.reshuffle`).
/// Empty unless a gift is due ([`Phase::ReceiveGift`]).
pub fn receivable_cards(game: &Game) -> Vec<GiftCard> {
    if !matches!(game.phase(), Phase::ReceiveGift { .. }) {
        return Vec::new();
    }
    let deck = game.gift_deck();
    let source = if deck.iter().all(|&n| n == 0) {
        game.gift_discard()
    } else {
        deck
    };
    GiftCard::ALL
        .into_iter()
        .filter(|c| source[c.index()] > 0)
        .collect()
}

/// One legal way to open a gift: the rules' action and the event that records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub action: Action,
    pub event: Event,
}

/// Every legal way for the current player to open a gift now (before placing the drawn tile,
/// one per turn), in the order of [`Game::legal_gifts`]. Empty without The Gifts.
pub fn openings(game: &Game) -> Vec<Opening> {
    let mut gifts: Vec<GiftAction> = Vec::new();
    game.legal_gifts(&mut gifts);
    gifts
        .into_iter()
        .map(|gift| {
            let action = Action::OpenGift { gift };
            Opening {
                event: action_to_event(game, &action),
                action,
            }
        })
        .collect()
}

/// The words of a `gift_opened` event as the record verbs take them after the verb: the
/// card's name, then its target's square (two words) and spot (one word, `road E`;
/// `monastery` is left out for Synod, whose square names it), then Change Position's new
/// spot. `None` for any other event.
pub fn opening_words(event: &Event) -> Option<Vec<String>> {
    let Event::GiftOpened {
        card, at, on, to, ..
    } = event
    else {
        return None;
    };
    let mut words = vec![card.as_str().to_string()];
    if let Some(at) = at {
        words.push(at.x.to_string());
        words.push(at.y.to_string());
    }
    if *card != carc_events::GiftCard::Synod {
        words.extend(on.iter().map(ToString::to_string));
    }
    words.extend(to.iter().map(ToString::to_string));
    Some(words)
}
