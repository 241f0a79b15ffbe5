//! The Gifts' verbs: the card a player received (`record gift`, chance like a draw), a gift
//! opened before placing (`record open`, with the card's target) and Take 2's tile put back
//! (`record return`). The cards are named as the log names them (`synod`, `road_sweeper`,
//! `change_position`, `cash_out`, `take_2`); which ones are legal now comes from
//! `carc_replay::gifts`, as the viewer's record mode has it.

use anyhow::{bail, Result};
use carc_events::{Event, GiftCard, MeepleTarget, Pos};
use carc_replay::gifts::{opening_words, openings, receivable_cards};
use carc_rules::{Game, Phase};

use crate::commands::record::phase::phase_text;
use crate::commands::record::turn::tile_id;

/// The card names, as messages list them.
fn card_names() -> String {
    GiftCard::ALL.map(GiftCard::as_str).join(", ")
}

/// A card by its log name, in either case, with `-` for `_` too (`take-2`, `Road-Sweeper`).
pub fn parse_card(text: &str) -> Result<GiftCard> {
    let name = text.trim().to_ascii_lowercase().replace('-', "_");
    match GiftCard::ALL.into_iter().find(|c| c.as_str() == name) {
        Some(card) => Ok(card),
        None => bail!(
            "there is no gift card {text:?}; the cards are {}",
            card_names()
        ),
    }
}

/// `record gift CARD`: the current player received CARD from the gift deck.
pub fn received_event(g: &Game, card: &str) -> Result<Event> {
    if !matches!(g.phase(), Phase::ReceiveGift { .. }) {
        bail!("no gift card is due: {}", phase_text(g));
    }
    let card = parse_card(card)?;
    let can: Vec<&str> = receivable_cards(g).into_iter().map(|c| c.name()).collect();
    if !can.contains(&card.as_str()) {
        // The rules would refuse it too; this names the cards the deck can deal.
        bail!(
            "the gift deck holds no {} now; it can deal {}",
            card.as_str(),
            can.join(", ")
        );
    }
    Ok(Event::GiftReceived {
        player: g.current_player(),
        card,
    })
}

/// `record open CARD [X Y SPOT [TO]]`: the current player opened CARD before placing, with
/// its target: Synod `X Y` (the monastery there), Road Sweeper `X Y road …`, Cash Out `X Y
/// SPOT` (one of their meeples), Change Position `X Y FROM TO`, Take 2 nothing.
pub fn opened_event(g: &Game, card: &str, args: &[String]) -> Result<Event> {
    if !matches!(g.phase(), Phase::Place { .. }) {
        bail!(
            "a gift is opened after drawing and before placing; {}",
            phase_text(g)
        );
    }
    let card = parse_card(card)?;
    let words = spaced_words(args);
    let usage = || usage(g, card);
    let player = g.current_player();
    if card == GiftCard::TakeTwo {
        if !words.is_empty() {
            bail!("take_2 takes no target; {}", usage());
        }
        return Ok(Event::GiftOpened {
            player,
            card,
            at: None,
            on: None,
            to: None,
        });
    }
    let (Some(x), Some(y)) = (words.first(), words.get(1)) else {
        bail!(
            "{} needs the square of its target; {}",
            card.as_str(),
            usage()
        );
    };
    let (Ok(x), Ok(y)) = (x.parse::<i32>(), y.parse::<i32>()) else {
        bail!(
            "{} {x} {y}: the square is two whole numbers, X then Y; {}",
            card.as_str(),
            usage()
        );
    };
    let mut spots = spots(&words[2..])?;
    let wanted = match card {
        GiftCard::Synod => {
            if spots.is_empty() {
                spots.push(MeepleTarget::monastery());
            }
            1
        }
        GiftCard::ChangePosition => 2,
        _ => 1,
    };
    if spots.len() != wanted {
        bail!(
            "{} names {} after its square, not {}; {}",
            card.as_str(),
            if wanted == 1 {
                "one spot"
            } else {
                "the meeple's spot and its new one"
            },
            spots.len(),
            usage()
        );
    }
    let mut spots = spots.into_iter();
    Ok(Event::GiftOpened {
        player,
        card,
        at: Some(Pos::new(x, y)),
        on: spots.next(),
        to: spots.next(),
    })
}

/// `record return TILE`: of Take 2's two tiles, TILE goes back into the bag.
pub fn returned_event(g: &Game, name: &str) -> Result<Event> {
    let Phase::ReturnTile { first, second } = g.phase() else {
        bail!("no Take 2 tile to return: {}", phase_text(g));
    };
    let tiles = g.tiles();
    let Some(tile) = [first, second]
        .into_iter()
        .find(|&t| tiles.get(t).id.eq_ignore_ascii_case(name.trim()))
    else {
        bail!(
            "tile {name:?} is not one of the two Take 2 tiles, {} and {}",
            tiles.get(first).id,
            tiles.get(second).id
        );
    };
    Ok(Event::TileReturned {
        player: g.current_player(),
        tile: tile_id(g, tile),
    })
}

/// How the card is entered, with a legal example if there is one now.
fn usage(g: &Game, card: GiftCard) -> String {
    let form = match card {
        GiftCard::Synod => "synod X Y",
        GiftCard::RoadSweeper => "road_sweeper X Y road SIDE",
        GiftCard::ChangePosition => "change_position X Y FROM TO",
        GiftCard::CashOut => "cash_out X Y SPOT",
        GiftCard::TakeTwo => "take_2",
    };
    let example = openings(g)
        .iter()
        .filter_map(|o| opening_words(&o.event))
        .find(|w| w[0] == card.as_str());
    match example {
        Some(words) => format!("enter `open {form}`, e.g. `open {}`", words.join(" ")),
        None => format!(
            "enter `open {form}` (no {} opening is legal now)",
            card.as_str()
        ),
    }
}

/// The words after the verb, one per word: `road-N` and `"road N"` are `road`, `N`; a
/// negative number stays whole.
fn spaced_words(args: &[String]) -> Vec<String> {
    args.iter()
        .flat_map(|a| a.split_whitespace())
        .flat_map(|w| {
            match w.split_once('-') {
                // A dash between a feature and its side (`road-N`), not a minus sign.
                Some((kind, side)) if !kind.is_empty() => vec![kind.to_string(), side.to_string()],
                _ => vec![w.to_string()],
            }
        })
        .collect()
}

/// Spots from words: `monastery` and `garden` alone, any other feature with its side.
fn spots(words: &[String]) -> Result<Vec<MeepleTarget>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let text = match words[i].as_str() {
            w @ ("monastery" | "garden") => w.to_string(),
            w => match words.get(i + 1) {
                Some(side) => {
                    i += 1;
                    format!("{w} {side}")
                }
                None => w.to_string(),
            },
        };
        out.push(text.parse()?);
        i += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn card_names_are_the_logs_in_either_case_and_with_dashes() {
        assert_eq!(parse_card("synod").unwrap(), GiftCard::Synod);
        assert_eq!(parse_card("Take-2").unwrap(), GiftCard::TakeTwo);
        assert_eq!(parse_card("road_sweeper").unwrap(), GiftCard::RoadSweeper);
        assert_eq!(
            parse_card("sweeper").unwrap_err().to_string(),
            "there is no gift card \"sweeper\"; the cards are synod, road_sweeper, \
             change_position, cash_out, take_2"
        );
    }

    #[test]
    fn spots_take_a_side_except_monastery_and_garden() {
        let w = spaced_words(&words("-3 0 field-Ne road N"));
        assert_eq!(w, ["-3", "0", "field", "Ne", "road", "N"]);
        let s = spots(&w[2..]).unwrap();
        assert_eq!(s[0].to_string(), "field Ne");
        assert_eq!(s[1].to_string(), "road N");
        let s = spots(&words("monastery city S")).unwrap();
        assert_eq!(s.len(), 2);
        assert!(spots(&words("road")).is_err());
        assert!(spots(&words("tower N")).is_err());
    }
}
