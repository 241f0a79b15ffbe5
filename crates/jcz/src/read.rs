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

use crate::error::JczError;
use crate::json::At;
use crate::location::{self, Location};
use crate::tiles;

/// JCloisterZone's name of the base-game tile set without garden tiles.
pub(crate) const BASE_SET: &str = "basic:1";
/// The rule option for the old two-tile-city scoring.
pub(crate) const TINY_CITY: &str = "tiny-city-scoring";

/// Everything unsupported found so far: what, and where (JSON paths), in a stable order.
#[derive(Default)]
struct Unsupported(BTreeMap<String, Vec<String>>);

impl Unsupported {
    fn add(&mut self, what: impl Into<String>, at: &str) {
        self.0.entry(what.into()).or_default().push(at.to_string());
    }

    fn into_result(self) -> Result<(), JczError> {
        if self.0.is_empty() {
            return Ok(());
        }
        const SHOWN: usize = 3;
        let items = self
            .0
            .into_iter()
            .map(|(what, places)| {
                let mut at = places[..places.len().min(SHOWN)].join(", ");
                if places.len() > SHOWN {
                    at.push_str(&format!(" and {} more", places.len() - SHOWN));
                }
                format!("{what} (at {at})")
            })
            .collect();
        Err(JczError::Unsupported(items))
    }
}

/// A tile as a JCloisterZone file names it, with our letter.
#[derive(Clone)]
struct Tile {
    jcz: String,
    letter: &'static str,
}

/// Reads a tile id; an id outside the base game is recorded as unsupported.
fn tile(at: &At<'_>, unsupported: &mut Unsupported) -> Result<Option<Tile>, JczError> {
    let id = at.str()?;
    match tiles::letter_of(id) {
        Some(letter) => Ok(Some(Tile {
            jcz: id.to_string(),
            letter,
        })),
        None => {
            unsupported.add(format!("tile {id:?}"), &at.path);
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
    two_tile_city: u8,
    start: Option<Start>,
}

fn setup(root: &At<'_>, unsupported: &mut Unsupported) -> Result<Options, JczError> {
    let setup = root.get("setup")?;
    let mut options = Options {
        meeples: 7,
        farmers: false,
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
                if let Some(at) = setup.opt(key)? {
                    for name in at.object()?.keys() {
                        unsupported.add(format!("setup option {name:?}"), &path);
                    }
                }
            }
            _ if value.is_null() => {}
            _ => unsupported.add(format!("setup field {key:?}"), &path),
        }
    }

    let sets = setup.get("sets")?;
    let mut has_base = false;
    for (name, count) in sets.object()? {
        let path = format!("{}.{name}", sets.path);
        if name == BASE_SET {
            has_base = true;
            if count.as_i64() != Some(1) {
                unsupported.add(format!("{} copies of tile set {name:?}", count), &path);
            }
        } else {
            unsupported.add(format!("tile set {name:?}"), &path);
        }
    }
    if !has_base {
        unsupported.add(
            format!("a game without the base tile set {BASE_SET:?}"),
            &sets.path,
        );
    }

    let elements = setup.get("elements")?;
    let mut has_followers = false;
    for (name, _) in elements.object()? {
        let at = elements.get(name)?;
        match name.as_str() {
            "small-follower" => {
                has_followers = true;
                options.meeples = match at.int()? {
                    n @ 1..=20 => n as u8,
                    _ => return Err(at.wrong("a number of meeples per player from 1 to 20")),
                };
            }
            "farmers" => {
                options.farmers = at
                    .value
                    .as_bool()
                    .ok_or_else(|| at.wrong("true or false"))?;
            }
            _ => unsupported.add(format!("game element {name:?}"), &at.path),
        }
    }
    if !has_followers {
        unsupported.add("a game without small followers (meeples)", &elements.path);
    }

    if let Some(rules) = setup.opt("rules")? {
        for (name, value) in rules.object()? {
            let at = rules.get(name)?;
            let points = match value {
                Value::String(s) => s.parse::<u8>().ok(),
                Value::Number(n) => n.as_u64().and_then(|n| u8::try_from(n).ok()),
                _ => None,
            };
            match (name.as_str(), points) {
                (TINY_CITY, Some(p @ (2 | 4))) => options.two_tile_city = p,
                _ => unsupported.add(
                    format!("rule {name:?} = {}", crate::json::describe(value)),
                    &at.path,
                ),
            }
        }
    }

    let start = setup.get("start")?;
    let starts = start.array()?;
    match starts.as_slice() {
        [] => return Err(start.wrong("one start tile")),
        [one] => {
            let tile = tile(&one.get("tile")?, unsupported)?;
            let x = one.get("x")?.int()?;
            let y = one.get("y")?.int()?;
            let at = location::pos_from_jcz(x, y)
                .ok_or_else(|| one.wrong("a start square within ±2147483647"))?;
            let rotation = one.get("rotation")?;
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
            options.start = tile.map(|tile| Start { tile, at, turns });
        }
        more => unsupported.add(
            format!("{} start tiles (e.g. the river)", more.len()),
            &start.path,
        ),
    }
    Ok(options)
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

fn players(root: &At<'_>) -> Result<Vec<Seat>, JczError> {
    let list = root.get("players")?;
    let seats = list
        .array()?
        .iter()
        .map(|p| {
            Ok(Seat {
                name: p.get("name")?.str()?.to_string(),
                slot: p.get("slot")?.int()?,
            })
        })
        .collect::<Result<Vec<_>, JczError>>()?;
    if seats.is_empty() || seats.len() > carc_events::MAX_PLAYERS {
        return Err(list.wrong(&format!("1 to {} players", carc_events::MAX_PLAYERS)));
    }
    Ok(seats)
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

fn replay(root: &At<'_>, unsupported: &mut Unsupported) -> Result<Vec<Entry>, JczError> {
    let mut entries = Vec::new();
    for (index, item) in root.get("replay")?.array()?.into_iter().enumerate() {
        let kind = item.get("type")?.str()?.to_string();
        let player = item.opt("player")?.map(|p| p.int()).transpose()?;
        let payload = || item.get("payload");
        let mv = match kind.as_str() {
            "PLACE_TILE" => {
                let payload = payload()?;
                let rotation = payload.get("rotation")?;
                let jcz_turns = rotation_turns(rotation.str()?)
                    .ok_or_else(|| rotation.wrong("one of \"R0\", \"R90\", \"R180\", \"R270\""))?;
                let at = square(&payload.get("position")?)?;
                match tile(&payload.get("tileId")?, unsupported)? {
                    Some(tile) => Move::Place {
                        turns: tiles::ours_from_jcz(tile.letter, jcz_turns),
                        tile,
                        at,
                    },
                    None => continue,
                }
            }
            "DEPLOY_MEEPLE" => {
                let payload = payload()?;
                let pointer = payload.get("pointer")?;
                let at = square(&pointer.get("position")?)?;
                let feature = pointer.get("feature")?;
                let location_at = pointer.get("location")?;
                let location_text = location_at.str()?.to_string();
                let location = Location::parse(&location_text).ok_or_else(|| {
                    location_at.wrong(
                        "a location: sides such as \"N\", \"WE\", \"_S\", field ports such as \
                         \"NL.NR.EL\", or \"I\" for the monastery",
                    )
                })?;
                let meeple_at = payload.get("meepleId")?;
                let meeple = meeple_at.str()?.to_string();
                let mut parts = meeple.split('.');
                let (Some(owner), Some(figure), Some(_n), None) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""));
                };
                let owner: i64 = owner
                    .parse()
                    .map_err(|_| meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""))?;
                let kind_name = feature.str()?;
                let kind = location::parse_feature(kind_name);
                if kind.is_none() {
                    unsupported.add(format!("feature {kind_name:?}"), &feature.path);
                }
                if figure != "small" {
                    unsupported.add(format!("figure {figure:?}"), &meeple_at.path);
                }
                match kind {
                    Some(kind) if figure == "small" => Move::Deploy {
                        at,
                        kind,
                        location,
                        location_text,
                        meeple,
                        owner,
                    },
                    _ => continue,
                }
            }
            "PASS" => Move::Pass,
            "COMMIT" => Move::Commit,
            "UNDO" => Move::Undo,
            other => {
                unsupported.add(format!("move {other:?}"), &item.path);
                continue;
            }
        };
        entries.push(Entry {
            index,
            kind,
            player,
            mv,
        });
    }
    Ok(entries)
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

fn draw_order(root: &At<'_>, unsupported: &mut Unsupported) -> Result<Option<Vec<Tile>>, JczError> {
    let Some(annotations) = root.opt("gameAnnotations")? else {
        return Ok(None);
    };
    let Some(order) = annotations.opt("drawOrder")? else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for item in order.array()? {
        if let Some(t) = tile(&item, unsupported)? {
            out.push(t);
        }
    }
    Ok(Some(out))
}

/// Reads a JCloisterZone saved game (JSON text) of the base game into our log.
pub fn read(text: &str) -> Result<Log, JczError> {
    let value: Value = serde_json::from_str(text).map_err(|e| JczError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let root = At::root(&value);
    root.object()?;
    let mut unsupported = Unsupported::default();
    let options = setup(&root, &mut unsupported)?;
    let seats = players(&root)?;
    let order = draw_order(&root, &mut unsupported)?;
    let entries = replay(&root, &mut unsupported)?;
    unsupported.into_result()?;
    let entries = resolve_undo(entries)?;
    // Without a start tile we got an error or an unsupported item above; kept as an error
    // rather than a panic in case that ever changes.
    let start = options.start.as_ref().ok_or_else(|| JczError::Field {
        path: "setup.start".into(),
        expected: "one base-game start tile".into(),
        found: "none".into(),
    })?;

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

    let bag = match &order {
        None => None,
        Some(order) => Some(bag_of(start, order)?),
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
            expansions: Vec::new(),
            farmers: options.farmers,
            two_tile_city: options.two_tile_city,
            meeples: options.meeples,
            map: None,
        },
        tile_sets: vec!["base".into()],
        bag,
        comment: Some(comment),
    };
    header.validate().map_err(|why| JczError::Field {
        path: "players".into(),
        expected: "players carc can seat (non-empty, unique names)".into(),
        found: why,
    })?;
    let game = game_from_header(&header, &[]).map_err(|e| JczError::Field {
        path: "setup".into(),
        expected: "a playable base game".into(),
        found: e.to_string(),
    })?;
    let mut replayer = Replayer {
        game,
        log: Log::new(header),
        fx: Effects::default(),
        seats,
        order,
        drawn: 0,
    };
    replayer.start(start)?;
    replayer.moves(&entries)?;
    Ok(replayer.log)
}

/// The bag of a game with a forced draw order: the start tile and every tile drawn, checked
/// against the base set's counts (JCloisterZone draws from the real set).
fn bag_of(start: &Start, order: &[Tile]) -> Result<BTreeMap<TileId, u16>, JczError> {
    let mut bag: BTreeMap<TileId, u16> = BTreeMap::new();
    for letter in std::iter::once(start.tile.letter).chain(order.iter().map(|t| t.letter)) {
        *bag.entry(TileId::new(letter).expect("letters are non-empty"))
            .or_default() += 1;
    }
    let base = TileSet::base();
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

struct Replayer {
    game: Game,
    log: Log,
    fx: Effects,
    seats: Vec<Seat>,
    order: Option<Vec<Tile>>,
    /// How many tiles of the draw order have been drawn.
    drawn: usize,
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

impl Replayer {
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
                    },
                ) => {
                    let on = self
                        .meeple_target(*at, *kind, *location, location_text, meeple, *owner)
                        .map_err(fail)?;
                    let seat = self.seat();
                    self.push(Event::MeeplePlaced { player: seat, on })
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
                        Step::Meeple => "DEPLOY_MEEPLE, PASS or COMMIT after the tile",
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

    /// Draws the tile a PLACE_TILE places. With a forced draw order, tiles before it in the
    /// order must be ones JCloisterZone discarded because they fit nowhere.
    fn draw(&mut self, tile: &Tile) -> Result<(), String> {
        let seat = self.seat();
        let Some(order) = self.order.clone() else {
            return self.push(Event::TileDrawn {
                player: seat,
                tile: tile_id(tile.letter),
            });
        };
        loop {
            let Some(next) = order.get(self.drawn) else {
                return Err(format!(
                    "places {}, but gameAnnotations.drawOrder holds only {} tiles",
                    tile.jcz,
                    order.len()
                ));
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

    /// After the last committed turn: the next tiles of a forced draw order are drawn, those
    /// that fit nowhere set aside, up to the first that the next player has to place.
    fn draw_pending(&mut self) {
        let Some(order) = self.order.clone() else {
            return;
        };
        while let (Some(next), Phase::Draw) = (order.get(self.drawn), self.game.phase()) {
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
            .to_string()
            .parse()
            .map_err(|e: carc_events::InvalidMeepleTarget| e.to_string())
    }
}
