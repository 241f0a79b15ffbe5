//! Reading a JCloisterZone saved game into our log model: first the whole file is parsed and
//! everything we do not implement is collected (so the error lists all of it), then UNDO
//! entries are resolved, then the moves are replayed through the rules engine while their
//! events are recorded, so an imported log is legal by construction.

use std::collections::BTreeMap;

use carc_events::{game_from_header, Color, Event, Header, Log, Player, RulesOptions, TileId};
use carc_rules::{Effects, TileSet};
use serde_json::Value;

use crate::error::JczError;
use crate::json::At;
use crate::tiles;

mod entries;
mod findings;
mod replayer;
mod setup;

use entries::{replay, resolve_undo, Entry, Move};
use findings::Findings;
use replayer::{tile_id, Replayer};
use setup::{deal, players, setup, Deal, Options, Seat, Start, Tile};

/// Reads a JCloisterZone saved game (JSON text) of the base game into our log.
pub fn read(text: &str) -> Result<Log, JczError> {
    read_value(text).map_err(|e| e.locate(text))
}

fn read_value(text: &str) -> Result<Log, JczError> {
    let value: Value = serde_json::from_str(text).map_err(|e| JczError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let root = At::root(&value);
    root.object()?;
    let mut found = Findings::default();
    let read = setup(&root, &mut found);
    let options = found.defer(read);
    let seats = players(&root, &mut found);
    let read = deal(&root, &mut found);
    let deal = found.defer(read);
    let read = replay(&root, &mut found);
    let entries = found.defer(read);
    let read = about(&root);
    let comment = found.defer(read);
    found.into_result()?;
    // Every `None` above left an error or an unsupported item, refused just now.
    let (Some(options), Some(seats), Some(mut deal), Some(entries), Some((game_id, comment))) =
        (options, seats, deal, entries, comment)
    else {
        return Err(JczError::Field {
            path: crate::error::DOCUMENT.into(),
            expected: "a saved game whose every part can be read".into(),
            found: "a part that could not be read".into(),
            position: None,
        });
    };
    let mut entries = resolve_undo(entries)?;
    // The Abbot: the garden variants are the garden copies, tiles of their own.
    if options.abbot {
        let mut options = options;
        if let Some(start) = options.start.as_mut() {
            start.tile.become_garden_copy();
        }
        deal.order.iter_mut().for_each(Tile::become_garden_copy);
        for entry in &mut entries {
            if let Move::Place { tile, .. } = &mut entry.mv {
                tile.become_garden_copy();
            }
        }
        return read_game(options, seats, deal, entries, game_id, comment);
    }
    read_game(options, seats, deal, entries, game_id, comment)
}

/// The log of a saved game read and checked for what carc supports.
fn read_game(
    options: Options,
    seats: Vec<Seat>,
    mut deal: Deal,
    entries: Vec<Entry>,
    game_id: Option<String>,
    comment: String,
) -> Result<Log, JczError> {
    // Without a start tile we got an error or an unsupported item above; kept as an error
    // rather than a panic in case that ever changes.
    let start = options.start.as_ref().ok_or_else(|| JczError::Field {
        path: "setup.start".into(),
        expected: "one base-game start tile".into(),
        found: "none".into(),
        position: None,
    })?;

    let sets = our_sets(&options);
    // The draw order never holds more tiles than the sets (start tile included).
    bag_of(start, &deal.order, &sets)?;
    // Tiles after a draw limit are never drawn. A whole game's bag is known before replaying
    // if the draw order covers it; if the limit reaches past the order, only the replay
    // tells which tiles were drawn at random.
    let bag = match deal.total {
        Some((total, _)) if total <= deal.order.len() => {
            deal.order.truncate(total);
            Some(bag_of(start, &deal.order, &sets)?)
        }
        // With The River JCloisterZone deals the whole base set, the four copies of the base
        // start tile included (the spring is the start tile); carc's River takes the start
        // copy out (docs/rules.md, The River, interpretation 1). The game is replayed as
        // JCloisterZone deals it.
        _ if options.river => Some(whole_sets(&sets)),
        _ => None,
    };
    let mut expansions = Vec::new();
    let mut tile_sets = vec!["base".to_string()];
    if options.river {
        expansions.push("river".to_string());
        tile_sets.push("river".to_string());
    }
    if options.abbot {
        expansions.push("abbot".to_string());
    }
    if options.inns {
        expansions.push("inns_cathedrals".to_string());
        tile_sets.push("inns_cathedrals".to_string());
    }
    if options.traders {
        expansions.push("traders_builders".to_string());
        tile_sets.push("traders_builders".to_string());
    }
    let header = Header {
        game: game_id.unwrap_or_else(|| "jcz-game".into()),
        players: seats
            .iter()
            .enumerate()
            .map(|(seat, s)| Player {
                name: s.name.clone(),
                color: Color::ALL[seat],
            })
            .collect(),
        rules: RulesOptions {
            expansions,
            farmers: options.farmers,
            two_tile_city: options.two_tile_city,
            meeples: options.meeples,
            map: None,
        },
        tile_sets,
        bag,
        source: None,
        comment: Some(comment),
    };
    let log = replay_moves(header, &seats, &deal, start, &entries)?;
    match deal.total {
        // Every tile of a capped game was drawn: the bag is known, and replaying with it ends
        // the game (final scoring) where JCloisterZone ends it.
        Some((total, _)) if log.header.bag.is_none() && drawn_tiles(&log).count() == total => {
            let mut bag: BTreeMap<TileId, u16> = BTreeMap::new();
            for tile in std::iter::once(start.tile.letter)
                .map(tile_id)
                .chain(drawn_tiles(&log).cloned())
            {
                *bag.entry(tile).or_default() += 1;
            }
            let mut header = log.header;
            header.bag = Some(bag);
            replay_moves(header, &seats, &deal, start, &entries)
        }
        _ => Ok(log),
    }
}

fn drawn_tiles(log: &Log) -> impl Iterator<Item = &TileId> {
    log.events.iter().filter_map(|(_, e)| match &e.event {
        Event::TileDrawn { tile, .. } => Some(tile),
        _ => None,
    })
}

/// The header's game id (`gameId`) and comment (where the game came from, and the test's
/// description if the file is one of JCloisterZone's test games).
fn about(root: &At<'_>) -> Result<(Option<String>, String), JczError> {
    let text_field = |name: &str| -> Result<Option<String>, JczError> {
        root.opt(name)?
            .map(|v| v.str().map(str::to_string))
            .transpose()
    };
    let game_id = text_field("gameId")?.filter(|g| !g.is_empty());
    let version = text_field("appVersion")?;
    let description = match root.opt("test")? {
        Some(test) => test
            .opt("description")?
            .map(|d| d.str().map(str::to_string))
            .transpose()?,
        None => None,
    };
    let mut comment = match version {
        Some(v) => format!("imported from a JCloisterZone {v} saved game"),
        None => "imported from a JCloisterZone saved game".to_string(),
    };
    if let Some(d) = description.filter(|d| !d.is_empty()) {
        comment.push_str(&format!("; test: {d}"));
    }
    Ok((game_id, comment))
}

/// The game of `header`, its start tile and moves recorded as our events.
fn replay_moves(
    header: Header,
    seats: &[Seat],
    deal: &Deal,
    start: &Start,
    entries: &[Entry],
) -> Result<Log, JczError> {
    header.validate().map_err(|why| JczError::Field {
        path: "players".into(),
        expected: "players carc can seat (non-empty, unique names)".into(),
        found: why,
        position: None,
    })?;
    let game = game_from_header(&header, &[]).map_err(|e| JczError::Field {
        path: "setup".into(),
        expected: "a playable base game".into(),
        found: e.to_string(),
        position: None,
    })?;
    let mut replayer = Replayer {
        game,
        log: Log::new(header),
        fx: Effects::default(),
        seats,
        deal,
        drawn: 0,
        draws: 0,
    };
    replayer.start(start)?;
    replayer.moves(entries)?;
    Ok(replayer.log)
}

/// Our tile sets of the game, combined: the base set (with its garden copies under The
/// Abbot), the river's and Inns & Cathedrals' tiles.
fn our_sets(options: &Options) -> TileSet {
    let base = if options.abbot {
        TileSet::base().with_gardens()
    } else {
        TileSet::base()
    };
    let mut sets = vec![base];
    if options.river {
        sets.push(TileSet::river());
    }
    if options.inns {
        sets.push(TileSet::inns_cathedrals());
    }
    if options.traders {
        sets.push(TileSet::traders_builders());
    }
    if sets.len() == 1 {
        return sets.remove(0);
    }
    TileSet::combine(&sets).expect("the built-in sets combine")
}

/// Every tile of the sets, each as many times as the sets hold it.
fn whole_sets(sets: &TileSet) -> BTreeMap<TileId, u16> {
    sets.tiles()
        .iter()
        .filter(|t| t.count > 0)
        .map(|t| (tile_id(&t.id), t.count))
        .collect()
}

/// The bag of a game with a forced draw order: the start tile and every tile drawn, checked
/// against the sets' counts (JCloisterZone draws from the real sets).
fn bag_of(
    start: &Start,
    order: &[Tile],
    sets: &TileSet,
) -> Result<BTreeMap<TileId, u16>, JczError> {
    let mut bag: BTreeMap<TileId, u16> = BTreeMap::new();
    for letter in std::iter::once(start.tile.letter).chain(order.iter().map(|t| t.letter)) {
        *bag.entry(TileId::new(letter).expect("letters are non-empty"))
            .or_default() += 1;
    }
    for (id, &n) in &bag {
        let Some(found) = sets.find(id.as_str()) else {
            return Err(JczError::Field {
                path: "gameAnnotations.drawOrder".into(),
                expected: "tiles of the game's tile sets".into(),
                found: format!(
                    "tile {} ({id}), which is in none of them",
                    tiles::jcz_id_of(id.as_str()).unwrap_or("?")
                ),
                position: None,
            });
        };
        let tile = sets.get(found);
        if n > tile.count {
            return Err(JczError::Field {
                path: "gameAnnotations.drawOrder".into(),
                expected: format!(
                    "at most {} cop{} of tile {} ({}), start tile included, as in the tile sets",
                    tile.count,
                    if tile.count == 1 { "y" } else { "ies" },
                    tiles::jcz_id_of(id.as_str()).unwrap_or("?"),
                    id
                ),
                found: format!("{n}"),
                position: None,
            });
        }
    }
    Ok(bag)
}
