//! Trying moves on the board: what the position at the cursor offers (the legal squares and
//! rotations of the drawn tile, the meeple spots and abbot moves, arrow and gift actions, the tiles and gift
//! cards chance could bring), and where a move made there goes among the variations (the
//! line followed when it is the move the line plays, else the variation shown extended, else
//! a new variation). Plain Rust; `app::try_move` draws it and saves through
//! [`crate::variations::VariationSet`].

use std::collections::BTreeMap;

use carc_events::variation::Variation;
use carc_events::{action_to_event, Envelope, Event};
use carc_rules::{AbbotMove, Action, Effects, Game, Phase, Placement, Pos, Rotation, TileTypeId};

/// One thing the player (or chance, chosen by the user) may do at the position, with its
/// event's words as the label (`meeple on city N`, `no meeple`, `drew A`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub action: Action,
    pub label: String,
}

/// The event that records `action` at `game`, if the rules accept it there.
pub fn event_of(game: &Game, action: &Action) -> Result<Event, String> {
    let mut after = game.clone();
    after
        .apply(action, &mut Effects::quiet())
        .map_err(|e| e.to_string())?;
    Ok(action_to_event(game, action))
}

fn offer(game: &Game, action: Action) -> Option<Offer> {
    let event = event_of(game, &action).ok()?;
    Some(Offer {
        action,
        label: crate::text::short_event(&event),
    })
}

/// The legal placements of the drawn tile (none unless a tile waits to be placed).
pub fn placements(game: &Game) -> Vec<Placement> {
    let mut out = Vec::new();
    if let Phase::Place { tile } = game.phase() {
        game.legal_placements(tile, &mut out);
    }
    out
}

/// On a map board waiting for its start tiles: the legal placements of `tile` on the free
/// start squares (empty otherwise).
pub fn start_placements(game: &Game, tile: TileTypeId) -> Vec<Placement> {
    let mut out = Vec::new();
    game.legal_start_placements(tile, &mut out);
    out
}

/// The legal rotations of the drawn tile on `at`, in quarter turns from 0°.
pub fn rotations_at(placements: &[Placement], at: Pos) -> Vec<Rotation> {
    let mut out: Vec<Rotation> = placements
        .iter()
        .filter(|p| p.at == at)
        .map(|p| p.rotation)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The tiles chance could bring next (the bag's tile types with at least one left), each
/// with how many are left, in tile-set order.
pub fn tiles_in_bag(game: &Game) -> Vec<(TileTypeId, u16)> {
    game.tiles()
        .ids()
        .map(|t| (t, game.bag_count(t)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// Everything but the placement itself (a click on the board): the meeple step (with the
/// abbot's moves), arrow
/// choices, gifts to open, setting an unplaceable tile aside, returning a Take 2 tile, and
/// the gift card chance deals (the next tile is chosen from [`tiles_in_bag`]).
pub fn offers(game: &Game) -> Vec<Offer> {
    let mut actions = Vec::new();
    match game.phase() {
        Phase::Place { tile } => {
            let mut gifts = Vec::new();
            game.legal_gifts(&mut gifts);
            actions.extend(gifts.into_iter().map(|gift| Action::OpenGift { gift }));
            if game.first_placement(tile).is_none() {
                actions.push(Action::SetAside);
            }
        }
        Phase::ChooseArrow { .. } => {
            let mut arrows = Vec::new();
            game.legal_arrow_choices(&mut arrows);
            actions.extend(
                arrows
                    .into_iter()
                    .map(|a| Action::ChooseArrow { arrow: a.at }),
            );
        }
        Phase::Meeple { .. } => {
            actions.push(Action::SkipMeeple);
            let mut spots = Vec::new();
            game.legal_meeples(&mut spots);
            actions.extend(
                spots
                    .into_iter()
                    .map(|s| Action::PlaceMeeple { segment: s.segment }),
            );
            let mut remote = Vec::new();
            game.legal_arrow_meeples(&mut remote);
            actions.extend(remote.into_iter().map(|s| Action::PlaceArrowMeeple {
                via: s.via,
                at: s.at,
                segment: s.segment,
            }));
            // The Abbot: instead of a meeple, the abbot on the monastery or garden (of the
            // tile just placed, or through a portal), or taken back.
            let mut abbot = Vec::new();
            game.legal_abbot_moves(&mut abbot);
            actions.extend(abbot.into_iter().map(AbbotMove::action));
            // Inns & Cathedrals: instead of a meeple, the large meeple.
            let mut large = Vec::new();
            game.legal_large_meeples(&mut large);
            actions.extend(
                large
                    .into_iter()
                    .map(|s| Action::PlaceLargeMeeple { segment: s.segment }),
            );
            // Traders & Builders: instead of a meeple, the builder or the pig.
            for (which, place) in [
                (
                    carc_rules::Special::Builder,
                    (|segment| Action::PlaceBuilder { segment }) as fn(u8) -> Action,
                ),
                (carc_rules::Special::Pig, |segment| Action::PlacePig {
                    segment,
                }),
            ] {
                let mut spots = Vec::new();
                game.legal_specials(which, &mut spots);
                actions.extend(spots.into_iter().map(|s| place(s.segment)));
            }
        }
        // The deck, or the discard pile reshuffled when the deck is empty: the kinds it can
        // deal, as `carc record gift` offers them.
        Phase::ReceiveGift { .. } => {
            actions.extend(
                carc_replay::gifts::receivable_cards(game)
                    .into_iter()
                    .map(|card| Action::ReceiveGift { card }),
            );
        }
        Phase::ReturnTile { first, second } => {
            actions.push(Action::ReturnTile { tile: first });
            if second != first {
                actions.push(Action::ReturnTile { tile: second });
            }
        }
        Phase::Start | Phase::Draw | Phase::DrawSecond { .. } | Phase::Over => {}
    }
    actions.into_iter().filter_map(|a| offer(game, a)).collect()
}

/// The action among those offered at `game` (a tile from the bag, a legal placement, one of
/// [`offers`]) whose event is `event`, if one is: a log's move as the viewer would make it.
pub fn action_for(game: &Game, event: &Event) -> Option<Action> {
    let draws = tiles_in_bag(game)
        .into_iter()
        .map(|(tile, _)| Action::Draw { tile });
    let places = placements(game).into_iter().map(|p| Action::Place {
        at: p.at,
        rotation: p.rotation,
    });
    let rest = offers(game).into_iter().map(|o| o.action);
    // A start tile on a map: any tile of the bag on a free start square.
    let starts = tiles_in_bag(game).into_iter().flat_map(|(tile, _)| {
        start_placements(game, tile)
            .into_iter()
            .map(move |p| Action::PlaceStart {
                tile,
                at: p.at,
                rotation: p.rotation,
            })
    });
    draws
        .chain(places)
        .chain(rest)
        .chain(starts)
        .find(|a| event_of(game, a).as_ref() == Ok(event))
}

/// Whether chance brings the next event (a tile from the bag).
pub fn wants_tile(game: &Game) -> bool {
    matches!(game.phase(), Phase::Draw | Phase::DrawSecond { .. })
}

/// The line of play shown, as far as a move needs to know it.
pub struct Shown<'a> {
    /// The variation shown and its chain (top level first), or `None` for the game.
    pub chain: &'a [String],
    /// The seq of the event at the cursor (0 before the first).
    pub seq: u64,
    /// The event the line plays next, if any.
    pub next: Option<&'a Event>,
}

/// Where a move made at the cursor goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// It is the move the line plays next: step to it.
    Follow,
    /// The variation shown ends at the cursor: the move is added to it.
    Extend(String),
    /// A new variation branching from `parent` (`None`: the game) after event `after`.
    New { parent: Option<String>, after: u64 },
}

/// Where a move `event` made at the cursor goes (see [`Plan`]).
pub fn plan(variations: &BTreeMap<String, Variation>, shown: &Shown<'_>, event: &Event) -> Plan {
    if shown.next == Some(event) {
        return Plan::Follow;
    }
    // The variation whose own moves hold the cursor, the deepest first.
    for name in shown.chain.iter().rev() {
        let Some(v) = variations.get(name) else {
            continue;
        };
        let end = v.after + v.events.len() as u64;
        if shown.seq == end && shown.chain.last() == Some(name) {
            return Plan::Extend(name.clone());
        }
        if shown.seq > v.after && shown.seq <= end {
            return Plan::New {
                parent: Some(name.clone()),
                after: shown.seq,
            };
        }
    }
    Plan::New {
        parent: None,
        after: shown.seq,
    }
}

/// The first free name `try 1`, `try 2`, …
pub fn fresh_name(variations: &BTreeMap<String, Variation>) -> String {
    (1..)
        .map(|n| format!("try {n}"))
        .find(|n| !variations.contains_key(n))
        .expect("a free name exists")
}

/// The variation record a move makes (the one extended, or a new one named `name` when that
/// name is free, else `try N`).
pub fn record_for(
    variations: &BTreeMap<String, Variation>,
    game_id: &str,
    plan: &Plan,
    event: Event,
    name: Option<&str>,
) -> Option<Variation> {
    match plan {
        Plan::Follow => None,
        Plan::Extend(name) => {
            let mut v = variations.get(name)?.clone();
            let seq = v.after + v.events.len() as u64 + 1;
            v.events.push(Envelope { seq, event });
            Some(v)
        }
        Plan::New { parent, after } => Some(Variation {
            game: game_id.to_string(),
            name: name
                .filter(|n| !variations.contains_key(*n))
                .map_or_else(|| fresh_name(variations), str::to_string),
            parent: parent.clone(),
            after: *after,
            events: vec![Envelope {
                seq: after + 1,
                event,
            }],
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loaded::LoadedGame;
    use std::path::Path;

    fn short() -> LoadedGame {
        LoadedGame::open(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl"),
        )
        .unwrap()
    }

    #[test]
    fn a_drawn_tile_offers_its_squares_and_then_its_meeple_spots() {
        // Given the short game after event 17 (Brandt drew N)
        let g = short();
        let game = g.timeline.state_at(17).unwrap();
        // Then the tile's legal placements include the game's own, (0,2) at 0°
        let places = placements(&game);
        assert!(rotations_at(&places, Pos::new(0, 2)).contains(&Rotation::ALL[0]));
        assert!(
            offers(&game).is_empty(),
            "no gift, no set-aside in the base game"
        );
        // When it is placed there
        let mut after = game.clone();
        let place = Action::Place {
            at: Pos::new(0, 2),
            rotation: Rotation::ALL[0],
        };
        after.apply(&place, &mut Effects::default()).unwrap();
        // Then the meeple step offers "no meeple" and the tile's free spots, in words
        let labels: Vec<String> = offers(&after).into_iter().map(|o| o.label).collect();
        assert_eq!(labels[0], "no meeple");
        assert!(
            labels.contains(&"meeple on city N".to_string()),
            "{labels:?}"
        );
        // And once the turn is over, chance brings a tile chosen from the bag
        let skip = Action::SkipMeeple;
        after.apply(&skip, &mut Effects::default()).unwrap();
        assert!(wants_tile(&after));
        let bag = tiles_in_bag(&after);
        assert_eq!(
            bag.iter().map(|(_, n)| u32::from(*n)).sum::<u32>(),
            after.bag_left()
        );
    }

    #[test]
    fn every_move_of_the_sample_games_is_offered_where_it_was_played() {
        // Given every sample log (base, 20th Anniversary arrows, The Gifts, a map, the Abbot)
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs");
        let mut logs: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        logs.sort();
        let mut checked = 0;
        let (mut abbot_placed, mut abbot_back) = (0, 0);
        for path in logs {
            let g = LoadedGame::open(&path).unwrap();
            let steps = &g.timeline.steps;
            for (n, step) in steps.iter().enumerate() {
                let game = g.timeline.state_at(n).unwrap();
                // When the position before each event is offered to the user
                let offered = match &step.event {
                    Event::StartPlaced { .. } => continue,
                    Event::TilePlaced { at, rotation, .. } => placements(&game).iter().any(|p| {
                        (p.at.x, p.at.y, p.rotation.degrees())
                            == (at.x, at.y, u32::from(rotation.degrees()))
                    }),
                    Event::TileDrawn { tile, .. } => tiles_in_bag(&game)
                        .iter()
                        .any(|(t, _)| game.tiles().get(*t).id == tile.as_str()),
                    e => offers(&game)
                        .iter()
                        .any(|o| event_of(&game, &o.action).as_ref() == Ok(e)),
                };
                // Then what the game did there is among the offers
                assert!(
                    offered,
                    "{}: event {} ({:?}) not offered",
                    path.display(),
                    step.seq,
                    step.event
                );
                checked += 1;
                match step.event {
                    Event::AbbotPlaced { .. } => abbot_placed += 1,
                    Event::AbbotTakenBack { .. } => abbot_back += 1,
                    _ => {}
                }
            }
        }
        assert!(checked > 500, "{checked}");
        // And the abbot sample's placements and take-backs were among the moves checked
        assert!(
            abbot_placed > 0 && abbot_back > 0,
            "{abbot_placed} {abbot_back}"
        );
    }

    #[test]
    fn a_move_follows_extends_or_branches() {
        let g = short();
        let game = g.timeline.state_at(17).unwrap();
        let played = g.timeline.steps[17].event.clone();
        let other = event_of(
            &game,
            &Action::Place {
                at: Pos::new(0, 2),
                rotation: Rotation::ALL[0],
            },
        )
        .unwrap();
        let none = BTreeMap::new();
        let shown = Shown {
            chain: &[],
            seq: 17,
            next: Some(&played),
        };
        // The game's own move is followed; another one starts "try 1" after event 17
        assert_eq!(plan(&none, &shown, &played), Plan::Follow);
        let p = plan(&none, &shown, &other);
        assert_eq!(
            p,
            Plan::New {
                parent: None,
                after: 17
            }
        );
        let v = record_for(&none, "g", &p, other.clone(), None).unwrap();
        assert_eq!(
            (v.name.as_str(), v.after, v.events[0].seq),
            ("try 1", 17, 18)
        );
        // Shown at its end, "try 1" is extended; shown before its end, it is branched from
        let mut items = BTreeMap::new();
        items.insert(v.name.clone(), v);
        let chain = ["try 1".to_string()];
        let at_end = Shown {
            chain: &chain,
            seq: 18,
            next: None,
        };
        assert_eq!(
            plan(&items, &at_end, &Event::MeepleSkipped { player: 1 }),
            Plan::Extend("try 1".into())
        );
        let extended = record_for(
            &items,
            "g",
            &Plan::Extend("try 1".into()),
            Event::MeepleSkipped { player: 1 },
            Some("ignored when extending"),
        )
        .unwrap();
        assert_eq!(extended.events.len(), 2);
        assert_eq!(extended.events[1].seq, 19);
        assert_eq!(fresh_name(&items), "try 2");
        let named = record_for(&items, "g", &p, other.clone(), Some("best")).unwrap();
        assert_eq!(named.name, "best");
        let taken = record_for(&items, "g", &p, other.clone(), Some("try 1")).unwrap();
        assert_eq!(taken.name, "try 2");
        let before = Shown {
            chain: &chain,
            seq: 12,
            next: None,
        };
        assert_eq!(
            plan(&items, &before, &other),
            Plan::New {
                parent: None,
                after: 12
            }
        );
    }
}
