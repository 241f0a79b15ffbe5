//! Reading a JCloisterZone saved game into our log model: first the whole file is parsed and
//! everything we do not implement is collected (so the error lists all of it), then UNDO
//! entries are resolved, then the moves are replayed through the rules engine while their
//! events are recorded, so an imported log is legal by construction.

use std::collections::BTreeMap;

use carc_events::{
    event_to_action, game_from_header, Color, Event, Header, Log, MeepleTarget, Player, Pos,
    Rotation, RulesOptions, TileId,
};
use carc_rules::{Effects, FeatureKind, Game, Phase, TileSet};
use serde_json::Value;

use crate::error::{JczError, UnsupportedUse};
use crate::json::At;
use crate::location::{self, Location};
use crate::tiles;

/// JCloisterZone's name of the base-game tile set without garden tiles.
pub(crate) const BASE_SET: &str = "basic:1";
/// The base set as the current box has it: one copy each of eight tiles with a garden (the
/// `…G` variants), the abbot's tile set.
pub(crate) const BASE_SET_GARDENS: &str = "basic:2";
/// The rule option for the old two-tile-city scoring.
pub(crate) const TINY_CITY: &str = "tiny-city-scoring";

/// What reading has found so far: everything unsupported (what, and where: JSON paths, in
/// the order found), and the first format error. Reading goes on past a format error so that
/// a file of another expansion is refused for what it uses, not for a value of that
/// expansion's that the base-game reader cannot parse.
#[derive(Default)]
struct Findings {
    unsupported: BTreeMap<String, Vec<String>>,
    first_error: Option<JczError>,
}

impl Findings {
    fn unsupported(&mut self, what: impl Into<String>, at: &str) {
        self.unsupported
            .entry(what.into())
            .or_default()
            .push(at.to_string());
    }

    /// The value, or `None` with the error kept (the first one only) for after the scan.
    fn defer<T>(&mut self, result: Result<T, JczError>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                self.first_error.get_or_insert(e);
                None
            }
        }
    }

    /// Unsupported content first, then the first format error.
    fn into_result(self) -> Result<(), JczError> {
        if !self.unsupported.is_empty() {
            let items = self
                .unsupported
                .into_iter()
                .map(|(what, paths)| UnsupportedUse {
                    what,
                    paths,
                    position: None,
                })
                .collect();
            return Err(JczError::Unsupported(items));
        }
        match self.first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// A tile as a JCloisterZone file names it, with our letter.
#[derive(Clone)]
struct Tile {
    jcz: String,
    letter: &'static str,
}

impl Tile {
    /// With The Abbot, a garden variant is our garden copy (`BA/CG` → `E+garden`).
    fn become_garden_copy(&mut self) {
        if tiles::is_garden_variant(&self.jcz) {
            if let Some(copy) = tiles::garden_copy_of(self.letter) {
                self.letter = copy;
            }
        }
    }
}

/// Reads a tile id; an id outside the base game is recorded as unsupported.
fn tile(at: &At<'_>, found: &mut Findings) -> Result<Option<Tile>, JczError> {
    let id = at.str()?;
    match tiles::letter_of(id) {
        Some(letter) => Ok(Some(Tile {
            jcz: id.to_string(),
            letter,
        })),
        None => {
            found.unsupported(format!("tile {id:?}"), &at.path);
            Ok(None)
        }
    }
}

fn square(at: &At<'_>) -> Result<carc_rules::Pos, JczError> {
    let (x, y) = at.pair()?;
    location::pos_from_jcz(x, y).ok_or_else(|| at.wrong("a position within ±2147483647"))
}

/// The start tile.
struct Start {
    tile: Tile,
    at: carc_rules::Pos,
    /// Quarter turns in JCloisterZone's orientation of the tile.
    turns: u8,
}

/// The game options carc models.
struct Options {
    meeples: u8,
    farmers: bool,
    /// The Abbot (element `abbot`, with the element `garden`).
    abbot: bool,
    gardens: bool,
    two_tile_city: u8,
    start: Option<Start>,
}

fn setup(root: &At<'_>, found: &mut Findings) -> Result<Options, JczError> {
    let setup = root.get("setup")?;
    let mut options = Options {
        meeples: 7,
        farmers: false,
        abbot: false,
        gardens: false,
        two_tile_city: 4,
        start: None,
    };
    for (key, value) in setup.object()? {
        let path = format!("setup.{key}");
        match key.as_str() {
            // The sets, elements, rules and start are read below.
            "sets" | "elements" | "rules" | "start" => {}
            // A clock and computer players do not change what happened on the board.
            "timer" | "ai" => {}
            "options" => {
                let names = setup
                    .opt(key)
                    .and_then(|at| at.map(|at| at.object()).transpose());
                if let Some(Some(names)) = found.defer(names) {
                    for name in names.keys() {
                        found.unsupported(format!("setup option {name:?}"), &path);
                    }
                }
            }
            _ if value.is_null() => {}
            _ => found.unsupported(format!("setup field {key:?}"), &path),
        }
    }

    let sets = found.defer(setup.get("sets").and_then(|sets| {
        let map = sets.object()?;
        Ok((sets.path.clone(), map))
    }));
    if let Some((sets_path, sets)) = sets {
        let mut has_base = false;
        for (name, count) in sets {
            let path = format!("{sets_path}.{name}");
            if name == BASE_SET || name == BASE_SET_GARDENS {
                if has_base {
                    found.unsupported(format!("a second base tile set {name:?}"), &path);
                }
                has_base = true;
                if count.as_i64() != Some(1) {
                    found.unsupported(format!("{} copies of tile set {name:?}", count), &path);
                }
            } else {
                found.unsupported(format!("tile set {name:?}"), &path);
            }
        }
        if !has_base {
            found.unsupported(
                format!("a game without the base tile set {BASE_SET:?}"),
                &sets_path,
            );
        }
    }

    if let Some(elements) = found.defer(setup.get("elements")) {
        let names: Vec<String> = found
            .defer(elements.object())
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        let mut has_followers = false;
        for name in names {
            let Some(at) = found.defer(elements.get(&name)) else {
                continue;
            };
            match name.as_str() {
                "small-follower" => {
                    has_followers = true;
                    let meeples = at.int().and_then(|n| match n {
                        1..=20 => Ok(n as u8),
                        _ => Err(at.wrong("a number of meeples per player from 1 to 20")),
                    });
                    if let Some(n) = found.defer(meeples) {
                        options.meeples = n;
                    }
                }
                "farmers" => {
                    let on = at.value.as_bool().ok_or_else(|| at.wrong("true or false"));
                    if let Some(on) = found.defer(on) {
                        options.farmers = on;
                    }
                }
                // The Abbot: one abbot per player; the gardens of the garden variants.
                "abbot" => {
                    let one = at.int().and_then(|n| match n {
                        1 => Ok(true),
                        0 => Ok(false),
                        _ => Err(at.wrong("1 (one abbot per player)")),
                    });
                    if let Some(on) = found.defer(one) {
                        options.abbot = on;
                    }
                }
                // JCloisterZone turns an element on by any non-null value: its own test game
                // `basic/garden-scoring.jcz` writes `"garden": 1`, ours write `true`.
                "garden" => options.gardens = !at.value.is_null(),
                _ => found.unsupported(format!("game element {name:?}"), &at.path),
            }
        }
        if !has_followers {
            found.unsupported("a game without small followers (meeples)", &elements.path);
        }
        // carc plays the abbot with the gardens of the base set (as the box has them).
        if options.abbot && !options.gardens {
            found.unsupported(
                "the abbot without gardens (element \"garden\")",
                &elements.path,
            );
        }
    }

    if let Some(Some(rules)) = found.defer(setup.opt("rules")) {
        if let Some(map) = found.defer(rules.object()) {
            for (name, value) in map {
                let path = format!("{}.{name}", rules.path);
                let points = match value {
                    Value::String(s) => s.parse::<u8>().ok(),
                    Value::Number(n) => n.as_u64().and_then(|n| u8::try_from(n).ok()),
                    _ => None,
                };
                match (name.as_str(), points) {
                    (TINY_CITY, Some(p @ (2 | 4))) => options.two_tile_city = p,
                    _ => found.unsupported(
                        format!("rule {name:?} = {}", crate::json::describe(value)),
                        &path,
                    ),
                }
            }
        }
    }

    let starts = found.defer(setup.get("start").and_then(|start| {
        let list = start.array()?;
        Ok((start, list))
    }));
    if let Some((start, starts)) = starts {
        match starts.as_slice() {
            [] => {
                found.defer::<()>(Err(start.wrong("one start tile")));
            }
            [one] => options.start = start_tile(one, found).flatten(),
            more => found.unsupported(
                format!("{} start tiles (e.g. the river)", more.len()),
                &start.path,
            ),
        }
    }
    Ok(options)
}

/// The one start tile; `None` (with the reason kept) if it cannot be read, `Some(None)` if
/// it is not a base tile.
fn start_tile(one: &At<'_>, found: &mut Findings) -> Option<Option<Start>> {
    let tile_at = found.defer(one.get("tile"))?;
    let read = tile(&tile_at, found);
    let tile = found.defer(read)?;
    let place = (|| {
        let x = one.get("x")?.int()?;
        let y = one.get("y")?.int()?;
        let at = location::pos_from_jcz(x, y)
            .ok_or_else(|| one.wrong("a start square within ±2147483647"))?;
        let rotation = one.get("rotation")?;
        // JCloisterZone turns the number into a rotation name by prefixing "R": degrees.
        let turns = match rotation.value {
            Value::String(s) => rotation_turns(s),
            Value::Number(n) => n
                .as_u64()
                .and_then(|d| Rotation::from_degrees(d as i64))
                .map(Rotation::quarter_turns),
            _ => None,
        }
        .ok_or_else(|| {
            rotation.wrong("a rotation: 0, 90, 180 or 270 degrees, or R0, R90, R180, R270")
        })?;
        Ok((at, turns))
    })();
    let (at, turns) = found.defer(place)?;
    Some(tile.map(|tile| Start { tile, at, turns }))
}

fn rotation_turns(text: &str) -> Option<u8> {
    match text {
        "R0" => Some(0),
        "R90" => Some(1),
        "R180" => Some(2),
        "R270" => Some(3),
        _ => None,
    }
}

/// A player as the file lists them; seats are the order of the `players` array.
struct Seat {
    name: String,
    slot: i64,
}

/// The seats; `None` if they cannot be read (the reason is kept). More players than carc
/// seats is unsupported (JCloisterZone seats up to 9), not a format error.
fn players(root: &At<'_>, found: &mut Findings) -> Option<Vec<Seat>> {
    let list = found.defer(root.get("players"))?;
    let items = found.defer(list.array())?;
    let seats: Vec<Seat> = items
        .iter()
        .filter_map(|p| {
            let seat = (|| {
                Ok(Seat {
                    name: p.get("name")?.str()?.to_string(),
                    slot: p.get("slot")?.int()?,
                })
            })();
            found.defer(seat)
        })
        .collect();
    if items.len() > carc_events::MAX_PLAYERS {
        found.unsupported(
            format!(
                "{} players (carc seats 1 to {})",
                items.len(),
                carc_events::MAX_PLAYERS
            ),
            &list.path,
        );
        return None;
    }
    if items.is_empty() {
        found.defer::<()>(Err(
            list.wrong(&format!("1 to {} players", carc_events::MAX_PLAYERS))
        ));
        return None;
    }
    (seats.len() == items.len()).then_some(seats)
}

/// One replay entry, typed.
enum Move {
    Place {
        tile: Tile,
        /// Our quarter turns.
        turns: u8,
        at: carc_rules::Pos,
    },
    Deploy {
        at: carc_rules::Pos,
        kind: FeatureKind,
        location: Location,
        location_text: String,
        meeple: String,
        owner: i64,
        /// The figure is the player's abbot (The Abbot), not a meeple.
        abbot: bool,
    },
    /// The Abbot: the abbot taken back (`RETURN_MEEPLE` with source `ABBOT_RETURN`) from `at`.
    ReturnAbbot {
        at: carc_rules::Pos,
        meeple: String,
        owner: i64,
    },
    Pass,
    Commit,
    Undo,
}

struct Entry {
    index: usize,
    kind: String,
    /// The acting player's index, when the entry says.
    player: Option<i64>,
    mv: Move,
}

fn replay(root: &At<'_>, found: &mut Findings) -> Result<Vec<Entry>, JczError> {
    let mut entries = Vec::new();
    for (index, item) in root.get("replay")?.array()?.into_iter().enumerate() {
        let entry = entry(index, &item, found);
        if let Some(Some(entry)) = found.defer(entry) {
            entries.push(entry);
        }
    }
    Ok(entries)
}

/// JCloisterZone's named locations that only other expansions use (a monk placed as abbot,
/// the quarters of Carcassonne city, a tile's second to fourth inner feature): unsupported
/// content, not a malformed location.
fn is_other_expansions_location(text: &str) -> bool {
    matches!(text, "AS_ABBOT" | "II" | "III" | "IV") || text.starts_with("QUARTER_")
}

/// One replay entry; `Ok(None)` if it is unsupported (recorded in `found`).
fn entry(index: usize, item: &At<'_>, found: &mut Findings) -> Result<Option<Entry>, JczError> {
    let kind = item.get("type")?.str()?.to_string();
    let player = item.opt("player")?.map(|p| p.int()).transpose()?;
    let payload = || item.get("payload");
    let mv = match kind.as_str() {
        "PLACE_TILE" => {
            let payload = payload()?;
            let tile = tile(&payload.get("tileId")?, found)?;
            let rotation = payload.get("rotation")?;
            let jcz_turns = rotation_turns(rotation.str()?)
                .ok_or_else(|| rotation.wrong("one of \"R0\", \"R90\", \"R180\", \"R270\""))?;
            let at = square(&payload.get("position")?)?;
            match tile {
                Some(tile) => Move::Place {
                    turns: tiles::ours_from_jcz(tile.letter, jcz_turns),
                    tile,
                    at,
                },
                None => return Ok(None),
            }
        }
        "DEPLOY_MEEPLE" => {
            let payload = payload()?;
            let pointer = payload.get("pointer")?;
            let meeple_at = payload.get("meepleId")?;
            let meeple = meeple_at.str()?.to_string();
            let mut parts = meeple.split('.');
            let (Some(owner), Some(figure), Some(_n), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""));
            };
            let feature = pointer.get("feature")?;
            let kind_name = feature.str()?;
            let kind = location::parse_feature(kind_name);
            let location_at = pointer.get("location")?;
            let location_text = location_at.str()?.to_string();
            // What other expansions use is listed before anything is judged malformed.
            let mut other = false;
            if kind.is_none() {
                found.unsupported(format!("feature {kind_name:?}"), &feature.path);
                other = true;
            }
            if figure != "small" && figure != "abbot" {
                found.unsupported(format!("figure {figure:?}"), &meeple_at.path);
                other = true;
            }
            if is_other_expansions_location(&location_text) {
                found.unsupported(format!("location {location_text:?}"), &location_at.path);
                other = true;
            }
            if other {
                return Ok(None);
            }
            let owner: i64 = owner
                .parse()
                .map_err(|_| meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""))?;
            let at = square(&pointer.get("position")?)?;
            let location = Location::parse(&location_text).ok_or_else(|| {
                location_at.wrong(
                    "a location: sides such as \"N\", \"WE\", \"_S\", field ports such as \
                     \"NL.NR.EL\", or \"I\" for the monastery",
                )
            })?;
            let Some(kind) = kind else { return Ok(None) };
            Move::Deploy {
                at,
                kind,
                location,
                location_text,
                abbot: figure == "abbot",
                meeple,
                owner,
            }
        }
        "RETURN_MEEPLE" => {
            let payload = payload()?;
            let source_at = payload.get("source")?;
            let source = source_at.str()?;
            let pointer = payload.get("pointer")?;
            let meeple_at = pointer.get("meepleId")?;
            let meeple = meeple_at.str()?.to_string();
            let mut parts = meeple.split('.');
            let (Some(owner), Some(figure), Some(_n), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""));
            };
            if source != "ABBOT_RETURN" || figure != "abbot" {
                found.unsupported(
                    format!("RETURN_MEEPLE of figure {figure:?} by {source:?}"),
                    &item.path,
                );
                return Ok(None);
            }
            let owner: i64 = owner
                .parse()
                .map_err(|_| meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""))?;
            let at = square(&pointer.get("featurePointer")?.get("position")?)?;
            Move::ReturnAbbot { at, meeple, owner }
        }
        "PASS" => Move::Pass,
        "COMMIT" => Move::Commit,
        "UNDO" => Move::Undo,
        other => {
            found.unsupported(format!("move {other:?}"), &item.path);
            return Ok(None);
        }
    };
    Ok(Some(Entry {
        index,
        kind,
        player,
        mv,
    }))
}

/// Applies UNDO entries: each removes the entry before it within the same turn (JCloisterZone
/// offers undo only until the turn is committed). An UNDO with nothing to undo is an error.
fn resolve_undo(entries: Vec<Entry>) -> Result<Vec<Entry>, JczError> {
    let mut kept: Vec<Entry> = Vec::with_capacity(entries.len());
    let mut turn_start = 0;
    for entry in entries {
        match entry.mv {
            Move::Undo => {
                if kept.len() > turn_start {
                    kept.pop();
                } else {
                    return Err(JczError::Replay {
                        index: entry.index,
                        kind: entry.kind,
                        message: "nothing to undo: the turn has no move yet (an UNDO cannot \
                                  reach back past a COMMIT)"
                            .into(),
                        position: None,
                    });
                }
            }
            Move::Commit => {
                kept.push(entry);
                turn_start = kept.len();
            }
            _ => kept.push(entry),
        }
    }
    Ok(kept)
}

/// The end marker JCloisterZone reads at the end of `drawOrder`: the game ends when the
/// tiles before it have been drawn.
pub(crate) const END_OF_DEAL: &str = "#END";

/// The tiles JCloisterZone was told to deal (`gameAnnotations`). JCloisterZone deals the
/// draw order first and then goes on drawing at random from the rest of the base set; the
/// order is the whole game only if it ends in `"#END"` or a draw limit (`endTurn`) caps it.
#[derive(Default)]
struct Deal {
    /// `drawOrder` without the end marker: the first tiles drawn, in order.
    order: Vec<Tile>,
    /// How many tiles the game draws in all, when the file says so, and why.
    total: Option<(usize, &'static str)>,
}

fn deal(root: &At<'_>, found: &mut Findings) -> Result<Deal, JczError> {
    let mut deal = Deal::default();
    let Some(annotations) = root.opt("gameAnnotations")? else {
        return Ok(deal);
    };
    let mut ends = false;
    if let Some(list) = annotations.opt("drawOrder")? {
        let items = list.array()?;
        for (i, item) in items.iter().enumerate() {
            if item.value.as_str() == Some(END_OF_DEAL) {
                if i + 1 == items.len() {
                    ends = true;
                } else {
                    found.defer::<()>(Err(item.wrong("a tile id (\"#END\" only comes last)")));
                }
                continue;
            }
            let read = tile(item, found);
            if let Some(Some(t)) = found.defer(read) {
                deal.order.push(t);
            }
        }
    }
    // A draw limit of 0 is no limit: JCloisterZone's client passes it on only if non-zero.
    let limit = match annotations.opt("endTurn")? {
        Some(at) => {
            let n = at.int()?;
            usize::try_from(n).map_err(|_| at.wrong("a number of tiles to draw (0 or more)"))?
        }
        None => 0,
    };
    // The limit wins over the marker, as in JCloisterZone (its pack's size is the limit).
    deal.total = if limit > 0 {
        Some((limit, "gameAnnotations.endTurn"))
    } else if ends {
        Some((
            deal.order.len(),
            "gameAnnotations.drawOrder ends in \"#END\"",
        ))
    } else {
        None
    };
    Ok(deal)
}

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
            path: crate::json::DOCUMENT.into(),
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

    // The draw order never holds more tiles than the base set (start tile included).
    bag_of(start, &deal.order, options.abbot)?;
    // Tiles after a draw limit are never drawn. A whole game's bag is known before replaying
    // if the draw order covers it; if the limit reaches past the order, only the replay
    // tells which tiles were drawn at random.
    let bag = match deal.total {
        Some((total, _)) if total <= deal.order.len() => {
            deal.order.truncate(total);
            Some(bag_of(start, &deal.order, options.abbot)?)
        }
        _ => None,
    };
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
            expansions: if options.abbot {
                vec!["abbot".into()]
            } else {
                Vec::new()
            },
            farmers: options.farmers,
            two_tile_city: options.two_tile_city,
            meeples: options.meeples,
            map: None,
        },
        tile_sets: vec!["base".into()],
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

/// The bag of a game with a forced draw order: the start tile and every tile drawn, checked
/// against the base set's counts (JCloisterZone draws from the real set).
fn bag_of(start: &Start, order: &[Tile], abbot: bool) -> Result<BTreeMap<TileId, u16>, JczError> {
    let mut bag: BTreeMap<TileId, u16> = BTreeMap::new();
    for letter in std::iter::once(start.tile.letter).chain(order.iter().map(|t| t.letter)) {
        *bag.entry(TileId::new(letter).expect("letters are non-empty"))
            .or_default() += 1;
    }
    let base = if abbot {
        TileSet::base().with_gardens()
    } else {
        TileSet::base()
    };
    for (id, &n) in &bag {
        let tile = base.get(
            base.find(id.as_str())
                .expect("mapped letters are base tiles"),
        );
        if n > tile.count {
            return Err(JczError::Field {
                path: "gameAnnotations.drawOrder".into(),
                expected: format!(
                    "at most {} cop{} of tile {} ({}), start tile included, as in the base set",
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

/// Where the replay of the moves is: what the turn expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Place,
    Meeple,
    Commit,
}

struct Replayer<'a> {
    game: Game,
    log: Log,
    fx: Effects,
    seats: &'a [Seat],
    deal: &'a Deal,
    /// How many tiles of the draw order have been drawn.
    drawn: usize,
    /// How many tiles have been drawn in all (the draw order's, then those at random).
    draws: usize,
}

fn events_pos(p: carc_rules::Pos) -> Pos {
    Pos::new(p.x, p.y)
}

fn events_rotation(turns: u8) -> Rotation {
    Rotation::ALL[usize::from(turns % 4)]
}

fn tile_id(letter: &str) -> TileId {
    TileId::new(letter).expect("letters are non-empty")
}

impl Replayer<'_> {
    /// Records `event` if the rules accept it; otherwise the rules' reason.
    fn push(&mut self, event: Event) -> Result<(), String> {
        let action = event_to_action(&self.game, &event).map_err(|v| v.to_string())?;
        self.game
            .apply(&action, &mut self.fx)
            .map_err(|v| v.to_string())?;
        self.log.push_event(event);
        Ok(())
    }

    fn start(&mut self, start: &Start) -> Result<(), JczError> {
        self.push(Event::StartPlaced {
            tile: tile_id(start.tile.letter),
            at: events_pos(start.at),
            rotation: events_rotation(tiles::ours_from_jcz(start.tile.letter, start.turns)),
        })
        .map_err(|why| JczError::Field {
            path: "setup.start[0]".into(),
            expected: "a start tile the rules accept".into(),
            found: why,
            position: None,
        })
    }

    fn seat(&self) -> u8 {
        self.game.current_player()
    }

    fn moves(&mut self, entries: &[Entry]) -> Result<(), JczError> {
        let mut step = Step::Place;
        for entry in entries {
            let fail = |message: String| JczError::Replay {
                index: entry.index,
                kind: entry.kind.clone(),
                message,
                position: None,
            };
            // The acting player, by index or slot. A COMMIT comes after our turn has passed on.
            if let Some(player) = entry.player {
                let seat = self.seat();
                let slot = self.seats[usize::from(seat)].slot;
                if player != i64::from(seat) && player != slot && !matches!(entry.mv, Move::Commit)
                {
                    return Err(fail(format!(
                        "the entry is player {player}'s, but it is player {seat}'s turn ({})",
                        self.seats[usize::from(seat)].name
                    )));
                }
            }
            step = match (step, &entry.mv) {
                (Step::Place, Move::Place { tile, turns, at }) => {
                    self.draw(tile).map_err(fail)?;
                    let seat = self.seat();
                    self.push(Event::TilePlaced {
                        player: seat,
                        tile: tile_id(tile.letter),
                        at: events_pos(*at),
                        rotation: events_rotation(*turns),
                    })
                    .map_err(fail)?;
                    Step::Meeple
                }
                (
                    Step::Meeple,
                    Move::Deploy {
                        at,
                        kind,
                        location,
                        location_text,
                        meeple,
                        owner,
                        abbot,
                    },
                ) => {
                    let on = self
                        .meeple_target(*at, *kind, *location, location_text, meeple, *owner)
                        .map_err(fail)?;
                    let seat = self.seat();
                    let event = if *abbot {
                        Event::AbbotPlaced {
                            player: seat,
                            at: events_pos(*at),
                            on,
                            portal: false,
                        }
                    } else {
                        Event::MeeplePlaced { player: seat, on }
                    };
                    self.push(event).map_err(fail)?;
                    Step::Commit
                }
                (Step::Meeple, Move::ReturnAbbot { at, meeple, owner }) => {
                    let seat = self.seat();
                    let slot = self.seats[usize::from(seat)].slot;
                    if *owner != i64::from(seat) && *owner != slot {
                        return Err(fail(format!(
                            "abbot {meeple:?} is player {owner}'s, but it is player {seat}'s turn"
                        )));
                    }
                    self.push(Event::AbbotTakenBack {
                        player: seat,
                        at: events_pos(*at),
                    })
                    .map_err(fail)?;
                    Step::Commit
                }
                (Step::Meeple, Move::Pass) => {
                    let seat = self.seat();
                    self.push(Event::MeepleSkipped { player: seat })
                        .map_err(fail)?;
                    Step::Commit
                }
                // Committing without a word about the meeple means no meeple.
                (Step::Meeple, Move::Commit) => {
                    let seat = self.seat();
                    self.push(Event::MeepleSkipped { player: seat })
                        .map_err(fail)?;
                    Step::Place
                }
                (Step::Commit, Move::Commit) => Step::Place,
                (step, _) => {
                    let expected = match step {
                        Step::Place => "PLACE_TILE (a new turn)",
                        Step::Meeple => {
                            "DEPLOY_MEEPLE, RETURN_MEEPLE (the abbot), PASS or COMMIT after the tile"
                        }
                        Step::Commit => "COMMIT to end the turn",
                    };
                    return Err(fail(format!("out of order: expected {expected}")));
                }
            };
        }
        if step == Step::Place {
            self.draw_pending();
        }
        Ok(())
    }

    /// Whether the file's draw limit (or end marker) says no tile is drawn any more.
    fn deal_is_over(&self) -> Option<(usize, &'static str)> {
        self.deal.total.filter(|&(total, _)| self.draws >= total)
    }

    /// Draws the tile a PLACE_TILE places: the next of the draw order while it lasts (tiles
    /// before it in the order must be ones JCloisterZone discarded because they fit nowhere),
    /// then the tile placed, which JCloisterZone drew at random.
    fn draw(&mut self, tile: &Tile) -> Result<(), String> {
        let seat = self.seat();
        let order = &self.deal.order;
        loop {
            if let Some((total, why)) = self.deal_is_over() {
                return Err(format!(
                    "places {}, but the game ended after {total} tiles drawn ({why})",
                    tile.jcz
                ));
            }
            self.draws += 1;
            let Some(next) = order.get(self.drawn) else {
                return self.push(Event::TileDrawn {
                    player: seat,
                    tile: tile_id(tile.letter),
                });
            };
            self.drawn += 1;
            self.push(Event::TileDrawn {
                player: seat,
                tile: tile_id(next.letter),
            })?;
            if next.letter == tile.letter {
                return Ok(());
            }
            self.push(Event::TileSetAside {
                player: seat,
                tile: tile_id(next.letter),
            })
            .map_err(|why| {
                format!(
                    "places {}, but gameAnnotations.drawOrder[{}] says {} was drawn, and it \
                     was not discarded as fitting nowhere: {why}",
                    tile.jcz,
                    self.drawn - 1,
                    next.jcz
                )
            })?;
        }
    }

    /// After the last committed turn: the next tiles of the draw order are drawn, those
    /// that fit nowhere set aside, up to the first that the next player has to place. Once
    /// the order is used up the next tile would be drawn at random, so the log stops there.
    fn draw_pending(&mut self) {
        let order = &self.deal.order;
        while let (Some(next), Phase::Draw, None) = (
            order.get(self.drawn),
            self.game.phase(),
            self.deal_is_over(),
        ) {
            let seat = self.seat();
            if self
                .push(Event::TileDrawn {
                    player: seat,
                    tile: tile_id(next.letter),
                })
                .is_err()
            {
                return;
            }
            self.drawn += 1;
            self.draws += 1;
            let Phase::Place { tile } = self.game.phase() else {
                return;
            };
            if self.game.first_placement(tile).is_some() {
                return;
            }
            if self
                .push(Event::TileSetAside {
                    player: seat,
                    tile: tile_id(next.letter),
                })
                .is_err()
            {
                return;
            }
        }
    }

    /// Our meeple target for a JCloisterZone pointer on the tile just placed.
    fn meeple_target(
        &self,
        at: carc_rules::Pos,
        kind: FeatureKind,
        location: Location,
        location_text: &str,
        meeple: &str,
        owner: i64,
    ) -> Result<MeepleTarget, String> {
        let seat = self.seat();
        let slot = self.seats[usize::from(seat)].slot;
        if owner != i64::from(seat) && owner != slot {
            return Err(format!(
                "meeple {meeple:?} is player {owner}'s, but it is player {seat}'s turn ({})",
                self.seats[usize::from(seat)].name
            ));
        }
        let Phase::Meeple { at: placed_at } = self.game.phase() else {
            return Err("no tile was just placed".into());
        };
        if at != placed_at {
            let [x, y] = location::pos_to_jcz(at);
            let [px, py] = location::pos_to_jcz(placed_at);
            return Err(format!(
                "the meeple goes to [{x},{y}], but the tile just placed lies at [{px},{py}]"
            ));
        }
        let placed = self.game.tile_at(at).expect("the tile just placed");
        let tile = self.game.tiles().get(placed.tile);
        let Some(segment) = location::segment_at(tile, placed.rotation, kind, location) else {
            let features: Vec<String> = (0..tile.segments.len() as u8)
                .map(|s| {
                    format!(
                        "{} {}",
                        location::feature_name(tile.segments[usize::from(s)].kind),
                        location::location_of(tile, placed.rotation, s)
                    )
                })
                .collect();
            return Err(format!(
                "tile {} ({}) as placed has no {} at location {location_text:?}; its features \
                 are: {}",
                tiles::jcz_id_of(&tile.id).unwrap_or("?"),
                tile.id,
                location::feature_name(kind),
                features.join(", ")
            ));
        };
        let label = tile.segment_label(placed.rotation, segment);
        label
            .code()
            .parse()
            .map_err(|e: carc_events::InvalidMeepleTarget| e.to_string())
    }
}
