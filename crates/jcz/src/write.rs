//! Writing one of our logs as a JCloisterZone saved game. The log is replayed through the
//! rules engine while writing, because JCloisterZone names meeple spots by the sides and ports
//! of the feature on the tile as placed, and numbers each player's meeples.

use std::collections::BTreeMap;

use carc_events::{event_to_action, game_from_header, Event, Log};
use carc_rules::{Action, Effects, Phase, Pos, ScoreTime, SegmentLabel, Special};
use serde::Serialize;
use serde_json::{json, Value};

use crate::error::{JczError, UnsupportedUse};
use crate::location;
use crate::names::{
    BASE_SET, BASE_SET_GARDENS, BIG_FIGURE, BUILDER_FIGURE, END_OF_DEAL, INNS_SET, PIG_FIGURE,
    RIVER_SET, TINY_CITY, TRADERS_SET,
};
use crate::tiles;

/// The expansions (our names) whose games are written.
const MAPPED_EXPANSIONS: &[&str] = &["abbot", "river", "inns_cathedrals", "traders_builders"];

/// The JCloisterZone version whose saved-game format this crate reads and writes.
pub const APP_VERSION: &str = "6.2.0";

#[derive(Serialize)]
struct SavedGame<'a> {
    #[serde(rename = "appVersion")]
    app_version: &'static str,
    #[serde(rename = "gameId")]
    game_id: &'a str,
    name: &'a str,
    #[serde(rename = "initialRandom")]
    initial_random: f64,
    clock: u64,
    setup: Setup,
    players: Vec<PlayerOut<'a>>,
    replay: Vec<Value>,
    #[serde(rename = "gameAnnotations")]
    annotations: Annotations,
}

#[derive(Serialize)]
struct Setup {
    sets: BTreeMap<&'static str, u32>,
    elements: Elements,
    rules: BTreeMap<&'static str, String>,
    timer: Option<()>,
    start: Vec<Start>,
}

#[derive(Serialize)]
struct Elements {
    #[serde(rename = "small-follower")]
    small_follower: u8,
    /// JCloisterZone leaves the element out when farmers are off.
    #[serde(skip_serializing_if = "Option::is_none")]
    farmers: Option<bool>,
    /// The Abbot: one abbot per player, and the gardens of the garden variants.
    #[serde(skip_serializing_if = "Option::is_none")]
    abbot: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    garden: Option<bool>,
    /// The River: the element JCloisterZone's client adds with a river tile set.
    #[serde(skip_serializing_if = "Option::is_none")]
    river: Option<bool>,
    /// Inns & Cathedrals: one big follower per player (our large meeple), and the inns' and
    /// cathedrals' scoring.
    #[serde(rename = "big-follower", skip_serializing_if = "Option::is_none")]
    big_follower: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    inn: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cathedral: Option<bool>,
    /// Traders & Builders: the goods in cities, one builder and one pig per player.
    #[serde(skip_serializing_if = "Option::is_none")]
    traders: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    builder: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pig: Option<u8>,
}

#[derive(Serialize)]
struct Start {
    tile: &'static str,
    x: i64,
    y: i64,
    rotation: u32,
}

#[derive(Serialize)]
struct PlayerOut<'a> {
    name: &'a str,
    slot: usize,
}

#[derive(Serialize)]
struct Annotations {
    #[serde(rename = "drawOrder")]
    draw_order: Vec<&'static str>,
}

fn jcz_id(letter: &str) -> Result<&'static str, JczError> {
    tiles::jcz_id_of(letter).ok_or_else(|| {
        JczError::Unsupported(vec![UnsupportedUse::new(format!(
            "tile {letter:?} (no JCloisterZone tile is mapped to it)"
        ))])
    })
}

fn rotation_name(turns: u8) -> &'static str {
    ["R0", "R90", "R180", "R270"][usize::from(turns % 4)]
}

/// Writes a log of the base game as a JCloisterZone saved game (pretty-printed JSON). The
/// tiles drawn become the forced draw order, so JCloisterZone deals the same tiles; a
/// finished game's order ends in `"#END"`, so JCloisterZone ends it there too, while a game
/// in progress goes on in JCloisterZone with tiles drawn at random from the rest of the set.
pub fn write(log: &Log) -> Result<String, JczError> {
    let header = &log.header;
    let mut unsupported = Vec::new();
    let has = |name: &str| header.rules.expansions.iter().any(|e| e == name);
    let (abbot, river, inns) = (has("abbot"), has("river"), has("inns_cathedrals"));
    let traders = has("traders_builders");
    for expansion in header
        .rules
        .expansions
        .iter()
        .filter(|e| !MAPPED_EXPANSIONS.contains(&e.as_str()))
    {
        unsupported.push(format!("expansion {expansion:?}"));
    }
    // JCloisterZone has no printed map boards: a game on one cannot be told to it.
    if let Some(map) = &header.rules.map {
        unsupported.push(format!("map board {:?} (Carcassonne Maps)", map.name));
    }
    // Our built-in sets, each once: those are the ones JCloisterZone's sets are mapped to.
    let mut sets: Vec<&str> = header.tile_sets.iter().map(String::as_str).collect();
    sets.sort_unstable();
    let mut expected = vec!["base"];
    if inns {
        expected.push("inns_cathedrals");
    }
    if river {
        expected.push("river");
    }
    if traders {
        expected.push("traders_builders");
    }
    if sets != expected {
        unsupported.push(format!(
            "tile sets {:?} (JCloisterZone export knows the base set, the river's, Inns & \
             Cathedrals' and Traders & Builders' once each)",
            header.tile_sets
        ));
    }
    if !unsupported.is_empty() {
        return Err(JczError::Unsupported(
            unsupported.into_iter().map(UnsupportedUse::new).collect(),
        ));
    }
    let mut game = game_from_header(header, &[])
        .map_err(|e| JczError::Export(format!("the header does not describe a game: {e}")))?;
    let mut fx = Effects::default();
    let mut spots = Vec::new();
    let mut abbot_moves = Vec::new();
    let mut large_spots = Vec::new();
    let mut special_spots = Vec::new();
    let mut start = None;
    let mut replay = Vec::new();
    let mut draw_order = Vec::new();
    // Meeple numbers on the board, per seat: where each stands.
    let mut numbered: Vec<BTreeMap<u8, (Pos, SegmentLabel)>> =
        vec![BTreeMap::new(); header.players.len()];
    for (_, envelope) in &log.events {
        let seq = envelope.seq;
        let illegal = |why: String| JczError::Export(format!("event {seq} is not legal: {why}"));
        let action = event_to_action(&game, &envelope.event).map_err(|v| illegal(v.to_string()))?;
        match (&envelope.event, action) {
            (Event::StartPlaced { tile, at, rotation }, _) => {
                let letter = tile.as_str();
                let [x, y] = location::pos_to_jcz(Pos::new(at.x, at.y));
                start = Some(Start {
                    tile: jcz_id(letter)?,
                    x,
                    y,
                    rotation: u32::from(tiles::jcz_from_ours(letter, rotation.quarter_turns()))
                        * 90,
                });
            }
            (Event::TileDrawn { tile, .. }, _) => draw_order.push(jcz_id(tile.as_str())?),
            (
                Event::TilePlaced {
                    player,
                    tile,
                    at,
                    rotation,
                },
                _,
            ) => {
                let letter = tile.as_str();
                let turns = tiles::jcz_from_ours(letter, rotation.quarter_turns());
                replay.push(json!({
                    "type": "PLACE_TILE",
                    "payload": {
                        "tileId": jcz_id(letter)?,
                        "rotation": rotation_name(turns),
                        "position": location::pos_to_jcz(Pos::new(at.x, at.y)),
                    },
                    "player": player,
                }));
            }
            (Event::MeeplePlaced { player, .. }, Action::PlaceMeeple { segment }) => {
                let Phase::Meeple { at } = game.phase() else {
                    return Err(illegal("no tile was just placed".into()));
                };
                let pointer = location::pointer_of(&game, at, segment)
                    .ok_or_else(|| illegal("the tile has no such feature".into()))?;
                let placed = game.tile_at(at).expect("the tile just placed");
                let label = game
                    .tiles()
                    .get(placed.tile)
                    .segment_label(placed.rotation, segment);
                let mine = &mut numbered[usize::from(*player)];
                // JCloisterZone deploys the lowest-numbered meeple left in the supply.
                let n = (1..=u8::MAX)
                    .find(|n| !mine.contains_key(n))
                    .expect("at most 20 meeples");
                mine.insert(n, (at, label));
                replay.push(deploy(*player, &pointer, &format!("{player}.small.{n}")));
                replay.push(commit(*player));
            }
            (Event::MeepleSkipped { player }, _) => {
                // JCloisterZone offers a PASS only where it offers a meeple (one in the
                // supply and a free feature; fields only with farmers) or an abbot move (never
                // a take-back from a feature the tile just completed, in either program), and
                // refuses a PASS anywhere else ("Pass is not allowed"): the turn then ends
                // with the COMMIT.
                game.legal_meeples(&mut spots);
                game.legal_abbot_moves(&mut abbot_moves);
                game.legal_large_meeples(&mut large_spots);
                let offers_special = offers_special(&game, &mut special_spots);
                if !spots.is_empty()
                    || !abbot_moves.is_empty()
                    || !large_spots.is_empty()
                    || offers_special
                    || offers_inner_field(&game, header.rules.farmers)
                {
                    replay.push(json!({"type": "PASS", "payload": {}, "player": player}));
                }
                replay.push(commit(*player));
            }
            // JCloisterZone discards a tile that fits nowhere without a move; the draw order
            // still lists it.
            (Event::TileSetAside { .. }, _) => {}
            (Event::MeeplePlaced { player, .. }, Action::PlaceLargeMeeple { segment }) => {
                let Phase::Meeple { at } = game.phase() else {
                    return Err(illegal("no tile was just placed".into()));
                };
                let pointer = location::pointer_of(&game, at, segment)
                    .ok_or_else(|| illegal("the tile has no such feature".into()))?;
                // One big follower per player: always number 1.
                replay.push(deploy(*player, &pointer, &format!("{player}.{BIG_FIGURE}.1")));
                replay.push(commit(*player));
            }
            (
                Event::MeeplePlaced { player, .. },
                Action::PlaceBuilder { segment } | Action::PlacePig { segment },
            ) => {
                let Phase::Meeple { at } = game.phase() else {
                    return Err(illegal("no tile was just placed".into()));
                };
                let pointer = location::pointer_of(&game, at, segment)
                    .ok_or_else(|| illegal("the tile has no such feature".into()))?;
                // One builder and one pig per player: always number 1.
                let figure = match action {
                    Action::PlaceBuilder { .. } => BUILDER_FIGURE,
                    _ => PIG_FIGURE,
                };
                replay.push(deploy(*player, &pointer, &format!("{player}.{figure}.1")));
                replay.push(commit(*player));
            }
            (Event::MeeplePlaced { .. }, _) => {
                return Err(illegal("a meeple outside the meeple step".into()))
            }
            // Refused above with the expansion; a base header cannot reach these legally.
            (Event::ArrowChosen { .. } | Event::ArrowMeeplePlaced { .. }, _) => {
                return Err(JczError::Unsupported(vec![UnsupportedUse::new(format!(
                    "event {seq}: {} (20th Anniversary)",
                    envelope.event.type_name()
                ))]))
            }
            // JCloisterZone ends a game only when the bag is empty; writing the game unfinished
            // would drop the final scoring the players agreed on, so it is refused.
            (Event::GameEnded, _) => {
                return Err(JczError::Unsupported(vec![UnsupportedUse::new(format!(
                    "event {seq}: game_ended (the players ended the game with tiles still in the bag; JCloisterZone has no early end)"
                ))]))
            }
            (Event::AbbotPlaced { player, .. }, Action::PlaceAbbot { at, segment, .. }) => {
                let pointer = location::pointer_of(&game, at, segment)
                    .ok_or_else(|| illegal("the tile has no such feature".into()))?;
                replay.push(deploy(*player, &pointer, &format!("{player}.abbot.1")));
                replay.push(commit(*player));
            }
            (Event::AbbotTakenBack { player, .. }, _) => {
                let Some((at, label)) = game.abbot_of(*player) else {
                    return Err(illegal("the abbot is not on the board".into()));
                };
                let placed = game.tile_at(at).expect("the abbot's tile");
                let segment = game
                    .tiles()
                    .get(placed.tile)
                    .find_segment(placed.rotation, &label)
                    .expect("the abbot's segment");
                let pointer = location::pointer_of(&game, at, segment)
                    .ok_or_else(|| illegal("the tile has no such feature".into()))?;
                replay.push(json!({
                    "type": "RETURN_MEEPLE",
                    "payload": {
                        "pointer": {
                            "featurePointer": {
                                "position": pointer.position,
                                "feature": pointer.feature,
                                "location": pointer.location,
                            },
                            "meepleId": format!("{player}.abbot.1"),
                        },
                        "source": "ABBOT_RETURN",
                    },
                    "player": player,
                }));
                replay.push(commit(*player));
            }
            (Event::AbbotPlaced { .. }, _) => {
                return Err(illegal("an abbot outside the meeple step".into()))
            }
            (
                Event::GiftReceived { .. } | Event::GiftOpened { .. } | Event::TileReturned { .. },
                _,
            ) => {
                return Err(JczError::Unsupported(vec![UnsupportedUse::new(format!(
                    "event {seq}: {} (The Gifts)",
                    envelope.event.type_name()
                ))]))
            }
        }
        game.apply(&action, &mut fx)
            .map_err(|v| illegal(v.to_string()))?;
        for back in fx
            .returned
            .iter()
            .filter(|b| !b.abbot && !b.large && b.special.is_none())
        {
            if let Some(mine) = numbered.get_mut(usize::from(back.player)) {
                mine.retain(|_, (at, label)| !(*at == back.at && *label == back.label));
            }
        }
    }
    // JCloisterZone deals the draw order and then draws at random from the rest of the base
    // set; the end marker stops it where our game ended (its bag may be smaller).
    if game.is_over() {
        draw_order.push(END_OF_DEAL);
    }
    let start = start.ok_or_else(|| {
        JczError::Export("the log has no start tile yet (no start_placed event)".into())
    })?;
    let mut rules = BTreeMap::new();
    if header.rules.two_tile_city == 2 {
        rules.insert(TINY_CITY, "2".to_string());
    }
    let saved = SavedGame {
        app_version: APP_VERSION,
        game_id: &header.game,
        name: "",
        initial_random: 0.0,
        clock: 0,
        setup: Setup {
            sets: {
                let mut sets =
                    BTreeMap::from([(if abbot { BASE_SET_GARDENS } else { BASE_SET }, 1)]);
                // The river set without the garden curve, also with the abbot: carc's River
                // has no garden (JCloisterZone's client would pick `river/1:2` there).
                if river {
                    sets.insert(RIVER_SET, 1);
                }
                // Likewise Inns & Cathedrals without its garden variants.
                if inns {
                    sets.insert(INNS_SET, 1);
                }
                // And Traders & Builders.
                if traders {
                    sets.insert(TRADERS_SET, 1);
                }
                sets
            },
            elements: Elements {
                small_follower: header.rules.meeples,
                farmers: header.rules.farmers.then_some(true),
                abbot: abbot.then_some(1),
                garden: abbot.then_some(true),
                river: river.then_some(true),
                big_follower: inns.then_some(1),
                inn: inns.then_some(true),
                cathedral: inns.then_some(true),
                traders: traders.then_some(true),
                builder: traders.then_some(1),
                pig: traders.then_some(1),
            },
            rules,
            timer: None,
            start: vec![start],
        },
        players: header
            .players
            .iter()
            .enumerate()
            .map(|(slot, p)| PlayerOut {
                name: &p.name,
                slot,
            })
            .collect(),
        replay,
        annotations: Annotations { draw_order },
    };
    let mut text = serde_json::to_string_pretty(&saved).expect("plain data serializes");
    text.push('\n');
    Ok(text)
}

/// The end of a turn. JCloisterZone stores a random number here for the next draw; with a
/// forced draw order it is not used.
/// A `DEPLOY_MEEPLE` of figure `meeple_id` (`<player>.small.N`, `.big.1`, `.abbot.1`) on the
/// feature `pointer` names.
fn deploy(player: u8, pointer: &location::Pointer, meeple_id: &str) -> Value {
    json!({
        "type": "DEPLOY_MEEPLE",
        "payload": {
            "pointer": {
                "position": pointer.position,
                "feature": pointer.feature,
                "location": pointer.location,
            },
            "meepleId": meeple_id,
        },
        "player": player,
    })
}

fn commit(player: u8) -> Value {
    json!({"type": "COMMIT", "payload": {"random": 0.0}, "player": player})
}

/// Whether JCloisterZone offers the builder or the pig now (Traders & Builders). It offers
/// what our rules offer but the builder on a road or city that the tile just placed completes:
/// its engine refuses that ("Feature is completed"), which the rules text does not (the
/// builder would only go home at once; `docs/jcz.md`, Traders & Builders).
fn offers_special(game: &carc_rules::Game, spots: &mut Vec<carc_rules::MeepleSpot>) -> bool {
    let Phase::Meeple { at } = game.phase() else {
        return false;
    };
    game.legal_specials(Special::Pig, spots);
    if !spots.is_empty() {
        return true;
    }
    game.legal_specials(Special::Builder, spots);
    spots.iter().any(|spot| {
        game.appraise(at, spot.segment)
            .is_some_and(|score| score.time != ScoreTime::Completed)
    })
}

/// Whether JCloisterZone offers a farmer on the small field it draws inside some tiles
/// (IC/CCCC, our IC17, and four Traders & Builders tiles: `tiles::has_inner_field`; ours have
/// none there): such a tile was just placed, farmers are on and the player has a meeple or the
/// large meeple in supply. Nobody can stand there in a game of ours, so the field is always
/// free (and no pig can join it).
fn offers_inner_field(game: &carc_rules::Game, farmers: bool) -> bool {
    let Phase::Meeple { at } = game.phase() else {
        return false;
    };
    let Some(placed) = game.tile_at(at) else {
        return false;
    };
    let seat = game.current_player();
    farmers
        && tiles::has_inner_field(&game.tiles().get(placed.tile).id)
        && (game.supply()[usize::from(seat)] > 0 || game.large_meeple_in_supply(seat))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use carc_rules::{Action, Effects, Game, Pos, Rotation, Setup, TileSet};

    use super::offers_inner_field;

    /// A two-player Inns & Cathedrals game at the meeple step after `tile` was placed next to
    /// the start tile (the first legal placement), with `meeples` per player.
    fn after_placing(tile: &str, farmers: bool, meeples: u8) -> Game {
        let mut setup = Setup::base(2);
        setup.tiles =
            Arc::new(TileSet::combine(&[TileSet::base(), TileSet::inns_cathedrals()]).unwrap());
        setup.options.inns_cathedrals = true;
        setup.options.farmers = farmers;
        setup.options.meeples = meeples;
        let mut game = Game::new(setup).unwrap();
        let mut fx = Effects::default();
        let start = game.start_tile().unwrap();
        let rotation = Rotation::ALL[0];
        game.apply(
            &Action::PlaceStart {
                tile: start,
                at: Pos::new(0, 0),
                rotation,
            },
            &mut fx,
        )
        .unwrap();
        let t = game.tiles().find(tile).unwrap();
        game.apply(&Action::Draw { tile: t }, &mut fx).unwrap();
        let mut placements = Vec::new();
        game.legal_placements(t, &mut placements);
        let p = placements[0];
        game.apply(
            &Action::Place {
                at: p.at,
                rotation: p.rotation,
            },
            &mut fx,
        )
        .unwrap();
        game
    }

    #[test]
    fn jcloisterzone_offers_ic_cccc_s_inner_field_only_after_ic17_with_farmers() {
        // IC17 just placed, farmers on: JCloisterZone offers the field inside IC/CCCC
        assert!(offers_inner_field(&after_placing("IC17", true, 7), true));
        // Without farmers it offers no field
        assert!(!offers_inner_field(&after_placing("IC17", false, 7), false));
        // Another tile: no such field
        assert!(!offers_inner_field(&after_placing("IC10", true, 7), true));
    }
}
