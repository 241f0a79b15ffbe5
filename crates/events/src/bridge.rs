//! The bridge between the wire format and the rules engine: a header becomes a rules
//! [`Setup`], an event becomes a rules [`Action`] checked against the game it is offered to,
//! and an action becomes an event (to write simulated or recorded games).

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use carc_rules::{
    Action, Game, MapBoard, MapOptions, Options, Phase, RuleViolation, SegmentLabel, Setup,
    TileSet, TileSetError,
};
use thiserror::Error;

use crate::model::{
    ArrowMeepleAction, ArrowSymbol, Event, Figure, GiftCard, Header, Pos, Rotation, TileId,
    TownVariant,
};
use crate::target::MeepleTarget;

/// Why a header cannot become a game setup.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SetupError {
    #[error("tile set {0:?} is unknown (built in: base; load others with --tiles FILE)")]
    UnknownTileSet(String),
    #[error(
        "expansion {0:?} is not supported by this version of carc (supported: abbot, anniversary, gifts, inns_cathedrals, river, traders_builders)"
    )]
    UnknownExpansion(String),
    #[error("expansion {0:?} is listed twice")]
    DuplicateExpansion(String),
    #[error("expansion \"anniversary\" needs a tile set with arrow tiles in tile_sets, e.g. [\"base\",\"anniversary\"]")]
    NoArrowTiles,
    #[error("map {0:?} is unknown (built in: germany; load others with --map FILE)")]
    UnknownMap(String),
    #[error("town variant {0:?} is listed twice")]
    DuplicateTownVariant(&'static str),
    #[error(transparent)]
    TileSet(#[from] TileSetError),
    #[error("{}", .0)]
    Rules(RuleViolation),
}

/// Maps loaded from files (`--map FILE`) for the rest of the process. They take precedence
/// over the built-in map of the same name. A process-wide list rather than a parameter, so
/// that every reader of logs (fold, check, viewer) sees a corrected map without each call
/// passing it along; the binaries fill it once at start-up.
static LOADED_MAPS: RwLock<Vec<Arc<MapBoard>>> = RwLock::new(Vec::new());

/// Makes a map loaded from a file available to every header naming it, replacing an earlier
/// loaded map of the same name.
pub fn register_map(map: MapBoard) {
    let mut maps = LOADED_MAPS.write().unwrap_or_else(|e| e.into_inner());
    maps.retain(|m| m.name != map.name);
    maps.push(Arc::new(map));
}

/// The map a header's `rules.map.name` names: a loaded one, else a built-in one.
pub fn find_map(name: &str) -> Option<Arc<MapBoard>> {
    let maps = LOADED_MAPS.read().unwrap_or_else(|e| e.into_inner());
    maps.iter()
        .find(|m| m.name == name)
        .cloned()
        .or_else(|| MapBoard::builtin_shared(name))
}

/// The rules setup a header describes. `loaded` are tile sets read from files; they take
/// precedence over built-in sets of the same name.
pub fn setup_from_header(header: &Header, loaded: &[TileSet]) -> Result<Setup, SetupError> {
    let mut anniversary = false;
    let mut gifts = false;
    let mut abbot = false;
    let mut river = false;
    let mut inns_cathedrals = false;
    let mut traders_builders = false;
    for (i, expansion) in header.rules.expansions.iter().enumerate() {
        if header.rules.expansions[..i].contains(expansion) {
            return Err(SetupError::DuplicateExpansion(expansion.clone()));
        }
        match expansion.as_str() {
            "anniversary" => anniversary = true,
            "gifts" => gifts = true,
            "abbot" => abbot = true,
            "river" => river = true,
            "inns_cathedrals" => inns_cathedrals = true,
            "traders_builders" => traders_builders = true,
            _ => return Err(SetupError::UnknownExpansion(expansion.clone())),
        }
    }
    // Several built-in sets (none replaced by a loaded file): the shared, prebuilt combination.
    // A single set takes the shared path below without this look-up.
    let overridden = || loaded.iter().any(|s| header.tile_sets.contains(&s.name));
    let cached = if header.tile_sets.len() < 2 || overridden() {
        None
    } else {
        let names: Vec<&str> = header.tile_sets.iter().map(String::as_str).collect();
        TileSet::builtin_combined(&names)
    };
    let mut sets: Vec<Arc<TileSet>> = Vec::with_capacity(header.tile_sets.len());
    for name in &header.tile_sets {
        let set = loaded
            .iter()
            .find(|s| &s.name == name)
            .map(|s| Arc::new(s.clone()))
            .or_else(|| TileSet::builtin_shared(name))
            .ok_or_else(|| SetupError::UnknownTileSet(name.clone()))?;
        sets.push(set);
    }
    if anniversary && !sets.iter().any(|s| s.has_arrows()) {
        return Err(SetupError::NoArrowTiles);
    }
    let tiles = if let Some(tiles) = cached {
        tiles
    } else if sets.len() == 1 {
        sets.pop().expect("one set")
    } else {
        let owned: Vec<TileSet> = sets.iter().map(|s| (**s).clone()).collect();
        Arc::new(TileSet::combine(&owned)?)
    };
    // The Abbot: the garden copies of the tiles become tiles of their own (the built-in sets'
    // split shared, like the sets themselves).
    let tiles = if abbot {
        let names: Vec<&str> = header.tile_sets.iter().map(String::as_str).collect();
        match (overridden(), TileSet::builtin_with_gardens(&names)) {
            (false, Some(split)) => split,
            _ => Arc::new(tiles.with_gardens()),
        }
    } else {
        tiles
    };
    let (map, map_options) = match &header.rules.map {
        None => (None, MapOptions::default()),
        Some(rules) => {
            let map =
                find_map(&rules.name).ok_or_else(|| SetupError::UnknownMap(rules.name.clone()))?;
            let mut options = MapOptions {
                start_squares: rules.start_squares,
                ..MapOptions::default()
            };
            for (i, v) in rules.town_variants.iter().enumerate() {
                if rules.town_variants[..i].contains(v) {
                    return Err(SetupError::DuplicateTownVariant(v.as_str()));
                }
                match v {
                    TownVariant::ExtraTurn => options.town_extra_turn = true,
                    TownVariant::Cost => options.town_cost = true,
                    TownVariant::RoadBonus => options.town_road_bonus = true,
                }
            }
            (Some(map), options)
        }
    };
    let bag = header.bag.as_ref().map(|b| {
        b.iter()
            .map(|(id, &n)| (id.as_str().to_string(), n))
            .collect::<BTreeMap<String, u16>>()
    });
    Ok(Setup {
        players: header.players.len() as u8,
        options: Options {
            farmers: header.rules.farmers,
            two_tile_city: header.rules.two_tile_city,
            meeples: header.rules.meeples,
            anniversary,
            map: map_options,
            gifts,
            abbot,
            river,
            inns_cathedrals,
            traders_builders,
        },
        tiles,
        bag,
        map,
    })
}

/// Starts the game a header describes.
pub fn game_from_header(header: &Header, loaded: &[TileSet]) -> Result<Game, SetupError> {
    Game::new(setup_from_header(header, loaded)?).map_err(SetupError::Rules)
}

/// The start tile of the game a header describes, as the rules name it (the tile set's start
/// tile; with The River, the spring): what a game entered move by move places as event 1.
/// `None` when the header does not set up a game or its sets name no start tile.
pub fn start_tile_of(header: &Header, loaded: &[TileSet]) -> Option<TileId> {
    let game = game_from_header(header, loaded).ok()?;
    let start = game.start_tile()?;
    TileId::new(game.tiles().get(start).id.clone()).ok()
}

fn tile_of(game: &Game, tile: &TileId) -> Result<carc_rules::TileTypeId, RuleViolation> {
    game.tiles()
        .find(tile.as_str())
        .ok_or_else(|| RuleViolation::UnknownTile {
            tile: tile.as_str().to_string(),
        })
}

fn rules_pos(p: Pos) -> carc_rules::Pos {
    carc_rules::Pos::new(p.x, p.y)
}

fn rules_rotation(r: Rotation) -> carc_rules::Rotation {
    carc_rules::Rotation::new(r.quarter_turns()).expect("0..=3")
}

/// The drawn tile must be the one the event names.
fn check_drawn(game: &Game, named: &TileId) -> Result<(), RuleViolation> {
    if let Phase::Place { tile } = game.phase() {
        let drawn = &game.tiles().get(tile).id;
        if drawn != named.as_str() {
            return Err(RuleViolation::NotTheDrawnTile {
                drawn: drawn.clone(),
                placed: named.as_str().to_string(),
            });
        }
    }
    Ok(())
}

/// The rules action an event stands for, checked against `game` for everything the action
/// itself does not carry (whose turn, which tile was drawn, which segment a name means).
/// Legality of the action itself is for [`Game::apply`].
pub fn event_to_action(game: &Game, event: &Event) -> Result<Action, RuleViolation> {
    if let Some(player) = event.player() {
        game.check_player(player)?;
    }
    Ok(match event {
        Event::StartPlaced { tile, at, rotation } => Action::PlaceStart {
            tile: tile_of(game, tile)?,
            at: rules_pos(*at),
            rotation: rules_rotation(*rotation),
        },
        Event::TileDrawn { tile, .. } => Action::Draw {
            tile: tile_of(game, tile)?,
        },
        Event::TilePlaced {
            tile, at, rotation, ..
        } => {
            check_drawn(game, tile)?;
            Action::Place {
                at: rules_pos(*at),
                rotation: rules_rotation(*rotation),
            }
        }
        Event::MeeplePlaced { on, figure, .. } => {
            let segment = game.resolve_meeple_target(&label_of(on))?;
            match figure {
                Figure::Meeple => Action::PlaceMeeple { segment },
                Figure::Large => Action::PlaceLargeMeeple { segment },
                Figure::Builder => Action::PlaceBuilder { segment },
                Figure::Pig => Action::PlacePig { segment },
            }
        }
        Event::MeepleSkipped { .. } => Action::SkipMeeple,
        Event::TileSetAside { tile, .. } => {
            check_drawn(game, tile)?;
            Action::SetAside
        }
        Event::ArrowChosen { at, symbol, .. } => {
            let at = rules_pos(*at);
            let named = rules_symbol(*symbol);
            // An arrow the game does not offer is for the rules to refuse (with the list of
            // candidates); here only the symbol the log names is checked against the tile.
            if let Some(arrow) = game.arrows().iter().find(|a| a.at == at) {
                if arrow.symbol != named {
                    return Err(RuleViolation::ArrowSymbolMismatch {
                        at,
                        named,
                        actual: arrow.symbol,
                    });
                }
            }
            Action::ChooseArrow { arrow: at }
        }
        Event::ArrowMeeplePlaced { action, at, on, .. } => {
            let via = match action {
                ArrowMeepleAction::Companion => carc_rules::ArrowSymbol::Companion,
                ArrowMeepleAction::Portal => carc_rules::ArrowSymbol::Portal,
            };
            let at = rules_pos(*at);
            Action::PlaceArrowMeeple {
                via,
                at,
                segment: game.resolve_segment_at(via, at, &label_of(on))?,
            }
        }
        Event::GiftReceived { card, .. } => Action::ReceiveGift {
            card: rules_card(*card),
        },
        Event::GiftOpened {
            card, at, on, to, ..
        } => Action::OpenGift {
            gift: gift_action(game, *card, *at, on.as_ref(), to.as_ref())?,
        },
        Event::TileReturned { tile, .. } => Action::ReturnTile {
            tile: tile_of(game, tile)?,
        },
        Event::GameEnded => Action::EndGame,
        Event::AbbotPlaced { at, on, portal, .. } => {
            let at = rules_pos(*at);
            let label = label_of(on);
            let segment = game.resolve_abbot_target(at, &label)?;
            Action::PlaceAbbot {
                at,
                segment,
                portal: *portal,
            }
        }
        Event::AbbotTakenBack { at, player } => {
            let at = rules_pos(*at);
            // The square is a check on the log: it must be where the abbot stands.
            match game.abbot_of(*player) {
                Some((on, _)) if on != at => {
                    return Err(RuleViolation::AbbotNotOnSquare {
                        player: *player,
                        at,
                        on,
                    })
                }
                _ => {}
            }
            Action::TakeBackAbbot
        }
    })
}

/// The rules card for a wire card.
pub fn rules_card(c: GiftCard) -> carc_rules::GiftCard {
    match c {
        GiftCard::Synod => carc_rules::GiftCard::Synod,
        GiftCard::RoadSweeper => carc_rules::GiftCard::RoadSweeper,
        GiftCard::ChangePosition => carc_rules::GiftCard::ChangePosition,
        GiftCard::CashOut => carc_rules::GiftCard::CashOut,
        GiftCard::TakeTwo => carc_rules::GiftCard::TakeTwo,
    }
}

/// The wire card for a rules card.
pub fn wire_card(c: carc_rules::GiftCard) -> GiftCard {
    GiftCard::ALL[c.index()]
}

/// A `gift_opened` event's target as a rules gift action: which of `at`, `on`, `to` the card
/// needs is checked here (a missing or extra one is a rule error naming the card), the
/// target's legality by the rules.
fn gift_action(
    game: &Game,
    card: GiftCard,
    at: Option<Pos>,
    on: Option<&MeepleTarget>,
    to: Option<&MeepleTarget>,
) -> Result<carc_rules::GiftAction, RuleViolation> {
    use carc_rules::GiftAction as G;
    let rc = rules_card(card);
    let shape = |what| Err(RuleViolation::GiftTargetShape { card: rc, what });
    if card == GiftCard::TakeTwo {
        if at.is_some() || on.is_some() || to.is_some() {
            return shape("takes no target: `at`, `on` and `to` must be left out");
        }
        return Ok(G::TakeTwo);
    }
    let (Some(at), Some(on)) = (at, on) else {
        return shape("needs a target: `at` (the tile) and `on` (the feature or the meeple)");
    };
    if card != GiftCard::ChangePosition && to.is_some() {
        return shape("takes no `to`: only Change Position moves a meeple");
    }
    let at = rules_pos(at);
    let segment = game.resolve_gift_segment(rc, at, &label_of(on))?;
    Ok(match card {
        GiftCard::Synod => {
            if label_of(on).kind != carc_rules::FeatureKind::Monastery {
                return shape("targets a monastery: `on` must be \"monastery\"");
            }
            G::Synod { at }
        }
        GiftCard::RoadSweeper => G::RoadSweeper { at, segment },
        GiftCard::CashOut => G::CashOut { at, segment },
        GiftCard::ChangePosition => {
            let Some(to) = to else {
                return shape("needs `to`: where the meeple goes on the same tile");
            };
            G::ChangePosition {
                at,
                from: segment,
                to: game.resolve_gift_segment(rc, at, &label_of(to))?,
            }
        }
        GiftCard::TakeTwo => unreachable!("handled above"),
    })
}

fn rules_symbol(s: ArrowSymbol) -> carc_rules::ArrowSymbol {
    match s {
        ArrowSymbol::Companion => carc_rules::ArrowSymbol::Companion,
        ArrowSymbol::Portal => carc_rules::ArrowSymbol::Portal,
        ArrowSymbol::ExtraTurn => carc_rules::ArrowSymbol::ExtraTurn,
    }
}

fn wire_symbol(s: carc_rules::ArrowSymbol) -> ArrowSymbol {
    match s {
        carc_rules::ArrowSymbol::Companion => ArrowSymbol::Companion,
        carc_rules::ArrowSymbol::Portal => ArrowSymbol::Portal,
        carc_rules::ArrowSymbol::ExtraTurn => ArrowSymbol::ExtraTurn,
    }
}

/// The rules' name of a segment for a wire meeple target (both use the same grammar).
pub fn label_of(on: &MeepleTarget) -> SegmentLabel {
    use crate::target::{Anchor as WireAnchor, FeatureKind as WireKind, Port as P, Side as S};
    use carc_rules::{Anchor, FeatureKind, Port, Side};
    let kind = match on.kind() {
        WireKind::City => FeatureKind::City,
        WireKind::Road => FeatureKind::Road,
        WireKind::Field => FeatureKind::Field,
        WireKind::Monastery => FeatureKind::Monastery,
        WireKind::Garden => FeatureKind::Garden,
    };
    let side = |s: S| match s {
        S::N => Side::N,
        S::E => Side::E,
        S::S => Side::S,
        S::W => Side::W,
    };
    let port = |p: P| match p {
        P::Nw => Port::Nw,
        P::Ne => Port::Ne,
        P::En => Port::En,
        P::Es => Port::Es,
        P::Se => Port::Se,
        P::Sw => Port::Sw,
        P::Ws => Port::Ws,
        P::Wn => Port::Wn,
    };
    SegmentLabel {
        kind,
        anchor: on.at().map(|a| match a {
            WireAnchor::Side(s) => Anchor::Side(side(s)),
            WireAnchor::Port(p) => Anchor::Port(port(p)),
        }),
    }
}

/// The event that records `action`, offered to `game` (the state before the action).
/// The action must be legal in `game` (as from the simulators or after `Game::apply` accepted
/// it); anything else is a programming error and panics.
pub fn action_to_event(game: &Game, action: &Action) -> Event {
    let player = game.current_player();
    let id = |t: carc_rules::TileTypeId| {
        TileId::new(game.tiles().get(t).id.clone()).expect("tile ids are non-empty")
    };
    let pos = |p: carc_rules::Pos| Pos::new(p.x, p.y);
    let rotation = |r: carc_rules::Rotation| {
        Rotation::from_degrees(i64::from(r.degrees())).expect("a quarter turn")
    };
    match *action {
        Action::PlaceStart {
            tile,
            at,
            rotation: r,
        } => Event::StartPlaced {
            tile: id(tile),
            at: pos(at),
            rotation: rotation(r),
        },
        Action::Draw { tile } => Event::TileDrawn {
            player,
            tile: id(tile),
        },
        Action::SetAside => {
            let Phase::Place { tile } = game.phase() else {
                panic!("set aside offered outside the place phase")
            };
            Event::TileSetAside {
                player,
                tile: id(tile),
            }
        }
        Action::Place { at, rotation: r } => {
            let Phase::Place { tile } = game.phase() else {
                panic!("placement offered outside the place phase")
            };
            Event::TilePlaced {
                player,
                tile: id(tile),
                at: pos(at),
                rotation: rotation(r),
            }
        }
        Action::PlaceMeeple { segment }
        | Action::PlaceLargeMeeple { segment }
        | Action::PlaceBuilder { segment }
        | Action::PlacePig { segment } => {
            let Phase::Meeple { at } = game.phase() else {
                panic!("meeple offered outside the meeple phase")
            };
            let placed = game.tile_at(at).expect("the tile just placed");
            let label = game
                .tiles()
                .get(placed.tile)
                .segment_label(placed.rotation, segment);
            Event::MeeplePlaced {
                player,
                on: label.code().parse().expect("same grammar"),
                figure: match action {
                    Action::PlaceLargeMeeple { .. } => Figure::Large,
                    Action::PlaceBuilder { .. } => Figure::Builder,
                    Action::PlacePig { .. } => Figure::Pig,
                    _ => Figure::Meeple,
                },
            }
        }
        Action::SkipMeeple => Event::MeepleSkipped { player },
        Action::ChooseArrow { arrow } => {
            let symbol = game
                .arrows()
                .iter()
                .find(|a| a.at == arrow)
                .expect("a chosen arrow is on the board")
                .symbol;
            Event::ArrowChosen {
                player,
                at: pos(arrow),
                symbol: wire_symbol(symbol),
            }
        }
        Action::PlaceArrowMeeple { via, at, segment } => {
            let placed = game
                .tile_at(at)
                .expect("an arrow meeple targets a placed tile");
            let label = game
                .tiles()
                .get(placed.tile)
                .segment_label(placed.rotation, segment);
            Event::ArrowMeeplePlaced {
                player,
                action: match via {
                    carc_rules::ArrowSymbol::Companion => ArrowMeepleAction::Companion,
                    carc_rules::ArrowSymbol::Portal => ArrowMeepleAction::Portal,
                    carc_rules::ArrowSymbol::ExtraTurn => {
                        panic!("an extra turn sends no meeple")
                    }
                },
                at: pos(at),
                on: label.code().parse().expect("same grammar"),
            }
        }
        Action::ReceiveGift { card } => Event::GiftReceived {
            player,
            card: wire_card(card),
        },
        Action::ReturnTile { tile } => Event::TileReturned {
            player,
            tile: id(tile),
        },
        Action::EndGame => Event::GameEnded,
        Action::PlaceAbbot {
            at,
            segment,
            portal,
        } => Event::AbbotPlaced {
            player,
            at: pos(at),
            on: target_at(game, at, segment),
            portal,
        },
        Action::TakeBackAbbot => Event::AbbotTakenBack {
            player,
            at: pos(game
                .abbot_of(player)
                .expect("a legal take-back has an abbot")
                .0),
        },
        Action::OpenGift { gift } => {
            use carc_rules::GiftAction as G;
            let card = wire_card(gift.card());
            let (at, on, to) = match gift {
                G::Synod { at } => (Some(at), Some(MeepleTarget::monastery()), None),
                G::RoadSweeper { at, segment } | G::CashOut { at, segment } => {
                    (Some(at), Some(target_at(game, at, segment)), None)
                }
                G::ChangePosition { at, from, to } => (
                    Some(at),
                    Some(target_at(game, at, from)),
                    Some(target_at(game, at, to)),
                ),
                G::TakeTwo => (None, None, None),
            };
            Event::GiftOpened {
                player,
                card,
                at: at.map(pos),
                on,
                to,
            }
        }
    }
}

fn target_at(game: &Game, at: carc_rules::Pos, segment: u8) -> MeepleTarget {
    game.segment_label_at(at, segment)
        .expect("a gift target on a placed tile")
        .code()
        .parse()
        .expect("same grammar")
}

/// Records a sequence of actions as a log: each action is turned into its event against the
/// state before it, then applied. Returns the log and the game after the last action.
pub fn record_actions(
    header: crate::model::Header,
    mut game: Game,
    actions: &[Action],
) -> Result<(crate::log::Log, Game), RuleViolation> {
    let mut log = crate::log::Log::new(header);
    let mut fx = carc_rules::Effects::default();
    for action in actions {
        let event = action_to_event(&game, action);
        game.apply(action, &mut fx)?;
        log.push_event(event);
    }
    Ok((log, game))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_of_agrees_with_the_rules_grammar_for_every_target() {
        let mut texts = vec!["monastery".to_string(), "garden".to_string()];
        for kind in ["city", "road"] {
            for side in ["N", "E", "S", "W"] {
                texts.push(format!("{kind} {side}"));
            }
        }
        for port in ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] {
            texts.push(format!("field {port}"));
        }
        for text in texts {
            let wire: MeepleTarget = text.parse().unwrap();
            let rules: SegmentLabel = text.parse().unwrap();
            assert_eq!(label_of(&wire), rules, "{text}");
        }
    }
}
