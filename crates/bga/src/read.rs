//! Reading a BGA replay into our log model. First every notification is parsed and typed and
//! everything we do not implement is collected (so the error lists all of it); then the moves
//! are replayed through the rules engine while their events are recorded, so an imported log
//! is legal by construction; BGA's scores become assertions beside the events.
//!
//! Only `type`s and numeric ids are read, never display text (`log` templates and translated
//! `args` differ with the language of whoever downloaded the replay). Player names are names,
//! not translations: they come from the end-of-game result when there is one.

use std::collections::BTreeMap;

use carc_events::{
    event_to_action, game_from_header, Assertion, Color, Event, FeatureKind, Header, Log,
    MeepleTarget, Player, Pos, Rotation, RulesOptions, TileId,
};
use carc_rules::{Effects, Game, Phase};
use serde_json::Value;

use crate::error::{BgaError, Place};
use crate::expansions;
use crate::json::At;
use crate::tiles::{self, BgaTile};

/// BGA's game state ids that the importer reads (`gameStateChange` `args.id`).
mod state {
    /// A player must place the tile in `args.args` (the draw).
    pub const PLACE_TILE: i64 = 2;
    /// A player may put a meeple on one of `args.args.spots`.
    pub const PLACE_MEEPLE: i64 = 3;
    /// The end of the game: `args.result` lists the players with their final scores.
    pub const GAME_END: i64 = 99;
}

/// Notification types that do not change the board or the scores: timers, messages, the
/// private copy of a draw and the deck count (all in the corpus), and BGA's own table
/// bookkeeping. Anything else is reported as unsupported rather than skipped: an unknown
/// notification may be a move of an expansion (or an undo) that would change the game.
const IGNORED: &[&str] = &[
    "simpleNote",
    "simpleNode",
    "deck_size",
    "pickTile",
    "updateReflexionTime",
    "gameStateChangePrivateArg",
    "newPrivateState",
    "updatePlayerTableStatus",
    "tableInfosChanged",
    "wakeupPlayers",
    "resultsAvailable",
];

/// Everything unsupported found so far: what, and where, in a stable order.
#[derive(Default)]
struct Unsupported(BTreeMap<String, Vec<String>>);

impl Unsupported {
    fn add(&mut self, what: impl Into<String>, at: &Place) {
        self.0
            .entry(what.into())
            .or_default()
            .push(format!("packet {} ({})", at.packet, at.kind));
    }

    fn into_result(self) -> Result<(), BgaError> {
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
        Err(BgaError::Unsupported(items))
    }
}

/// What a notification means for the game.
enum Move {
    /// The tile the active player must place (chance).
    Draw { player: i64, tile: &'static BgaTile },
    /// The drawn tile was put on the board.
    Place {
        player: i64,
        tile: &'static BgaTile,
        x: i64,
        y: i64,
        ori: i64,
    },
    /// A meeple on a spot of the tile just placed.
    Meeple {
        player: i64,
        x: i64,
        y: i64,
        pos: i64,
    },
    /// The drawn tile fits nowhere and is discarded.
    Discard,
    /// A feature was scored, of this kind when known.
    Feature { kind: Option<FeatureKind> },
    /// A player won points; `total` is their score afterwards.
    Points {
        player: i64,
        points: i64,
        total: i64,
    },
    /// Any other state change (the meeple step is over, scoring, next player …).
    State,
    /// The game ended; the final result per player id.
    End { result: Vec<Standing> },
}

/// One player of BGA's end-of-game result.
struct Standing {
    player: i64,
    name: String,
    color: String,
    score: i64,
}

struct Note {
    place: Place,
    mv: Move,
}

/// What the first pass collects beside the moves.
#[derive(Default)]
struct Context {
    unsupported: Unsupported,
    /// Player ids as BGA lists them (timers), in order of appearance.
    listed: Vec<i64>,
    names: BTreeMap<i64, String>,
    /// BGA tile id → its type, from the placements so far.
    tile_types: BTreeMap<String, &'static BgaTile>,
}

/// Everything read from the file before replaying.
struct Parsed {
    table: String,
    notes: Vec<Note>,
    /// Player ids in order of their first turn, then any others BGA lists.
    players: Vec<i64>,
    /// Names as the notifications give them, by player id (a fallback for the result's).
    names: BTreeMap<i64, String>,
}

fn place_of(packet_at: &At<'_>, packet: usize, notification: usize, kind: &str) -> Place {
    let text = |name: &str| {
        packet_at
            .opt(name)
            .ok()
            .flatten()
            .and_then(|v| v.id_text().ok())
            .unwrap_or_else(|| "?".into())
    };
    Place {
        packet,
        packet_id: text("packet_id"),
        move_id: text("move_id"),
        notification,
        kind: kind.to_string(),
    }
}

/// The base tile of BGA type `at`; otherwise an unsupported item, which names the expansion
/// the physical tile `id` (when the notification has one) belongs to.
fn tile_of(
    at: &At<'_>,
    id: Option<At<'_>>,
    place: &Place,
    unsupported: &mut Unsupported,
) -> Result<Option<&'static BgaTile>, BgaError> {
    let bga_type = at.int()?;
    match tiles::by_type(bga_type) {
        Some(tile) => Ok(Some(tile)),
        None => {
            let id = id.map(|id| id.int()).transpose()?;
            unsupported.add(expansions::unknown_tile(bga_type, id), place);
            Ok(None)
        }
    }
}

/// The list of packets: `data.data` of the document BGA serves for a replay
/// (`{"status":1,"data":{"valid":1,"data":[…]}}`); also accepted, `data` of an object whose
/// `data` is the list, or the list alone (the same packets saved without the envelope, as
/// the replay page's `g_gamelogs` variable may hold them).
pub(crate) fn packets_of<'a>(root: &At<'a>) -> Result<At<'a>, BgaError> {
    if root.value.is_array() {
        return Ok(root.clone());
    }
    let data = root.get("data")?;
    if data.value.is_array() {
        return Ok(data);
    }
    data.get("data")
}

fn parse(root: &At<'_>) -> Result<Parsed, BgaError> {
    let packets = packets_of(root)?.array()?;
    let mut cx = Context::default();
    let mut notes = Vec::new();
    let mut table = None;
    let mut first_turns: Vec<i64> = Vec::new();
    for (p, packet) in packets.iter().enumerate() {
        if table.is_none() {
            table = packet.opt("table_id")?.map(|t| t.id_text()).transpose()?;
        }
        for (n, note) in packet.get("data")?.array()?.iter().enumerate() {
            let kind_at = note.get("type")?;
            let kind = kind_at.str()?;
            let place = place_of(packet, p, n, kind);
            let mv = note_move(note, kind, &place, &mut cx).map_err(|e| e.within(&place))?;
            if let Some(mv) = mv {
                if let Move::Draw { player, .. } = mv {
                    if !first_turns.contains(&player) {
                        first_turns.push(player);
                    }
                }
                notes.push(Note { place, mv });
            }
        }
    }
    cx.unsupported.into_result()?;
    let mut players = first_turns;
    for id in cx.listed {
        if !players.contains(&id) {
            players.push(id);
        }
    }
    let table = table.ok_or_else(|| BgaError::Field {
        path: "data.data[0].table_id".into(),
        expected: "the table id".into(),
        found: "nothing (no packet has one)".into(),
        place: None,
    })?;
    Ok(Parsed {
        table,
        notes,
        players,
        names: cx.names,
    })
}

/// Types one notification; `None` for those that do not matter to the game.
fn note_move(
    note: &At<'_>,
    kind: &str,
    place: &Place,
    cx: &mut Context,
) -> Result<Option<Move>, BgaError> {
    let Context {
        unsupported,
        listed,
        names,
        tile_types,
    } = cx;
    let args = || note.get("args");
    let mut name_of = |args: &At<'_>, player: i64| -> Result<(), BgaError> {
        if let Some(name) = args.opt("player_name")? {
            if let Ok(name) = name.str() {
                names.entry(player).or_insert_with(|| name.to_string());
            }
        }
        Ok(())
    };
    let mv = match kind {
        "gameStateChange" => {
            let args = args()?;
            if let Some(reflexion) = args.opt("reflexion")? {
                if let Some(total) = reflexion.opt("total")? {
                    for id in total.object()?.keys() {
                        if let Ok(id) = id.parse::<i64>() {
                            if !listed.contains(&id) {
                                listed.push(id);
                            }
                        }
                    }
                }
            }
            match args.opt("id")?.map(|id| id.int()).transpose()? {
                Some(state::PLACE_TILE) => {
                    let player = args.get("active_player")?.int()?;
                    let drawn = args.get("args")?;
                    let id = drawn.opt("tile_id")?;
                    match tile_of(&drawn.get("tile_type")?, id, place, unsupported)? {
                        Some(tile) => Move::Draw { player, tile },
                        None => return Ok(None),
                    }
                }
                Some(state::PLACE_MEEPLE) => return Ok(None),
                Some(state::GAME_END) => {
                    let mut result = Vec::new();
                    if let Some(list) = args
                        .opt("args")?
                        .map(|a| a.opt("result"))
                        .transpose()?
                        .flatten()
                    {
                        for entry in list.array()? {
                            result.push(Standing {
                                player: entry.get("player")?.int()?,
                                name: entry.get("name")?.str()?.to_string(),
                                color: entry
                                    .opt("color")?
                                    .map(|c| c.str().map(str::to_string))
                                    .transpose()?
                                    .unwrap_or_default(),
                                score: entry.get("score")?.int()?,
                            });
                        }
                    }
                    Move::End { result }
                }
                _ => Move::State,
            }
        }
        "playTile" => {
            let args = args()?;
            let player = args.get("player_id")?.int()?;
            name_of(&args, player)?;
            let Some(tile) = tile_of(&args.get("type")?, args.opt("id")?, place, unsupported)?
            else {
                return Ok(None);
            };
            tile_types.insert(args.get("id")?.id_text()?, tile);
            Move::Place {
                player,
                tile,
                x: args.get("x")?.int_in(-1000, 1000)?,
                y: args.get("y")?.int_in(-1000, 1000)?,
                ori: args.get("ori")?.int_in(1, 4)?,
            }
        }
        "playPartisan" => {
            let args = args()?;
            let player = args.get("player_id")?.int()?;
            name_of(&args, player)?;
            // `ptype` is a key, not display text: "normal" is the ordinary meeple.
            if let Some(ptype) = args.opt("ptype")? {
                let ptype = ptype.str()?;
                if ptype != "normal" {
                    unsupported.add(expansions::figure(ptype), place);
                    return Ok(None);
                }
            }
            Move::Meeple {
                player,
                x: args.get("x")?.int_in(-1000, 1000)?,
                y: args.get("y")?.int_in(-1000, 1000)?,
                pos: args.get("pos")?.int()?,
            }
        }
        "cantPlay" => Move::Discard,
        "realizationAchieved" => {
            let args = args()?;
            // `real_type` is translated in some downloads, so the kind of the feature comes
            // from where its meeples stand (tile and spot); a field scoring names no meeples
            // but counts cities (`city_nbr`). Otherwise the kind stays unknown and only the
            // running totals are claimed.
            let mut kind = None;
            if let Some(partisans) = args.opt("partisans")? {
                if let Some(first) = partisans.array()?.first() {
                    let tile = first.get("tile")?.id_text()?;
                    let pos = first.get("pos")?.int()?;
                    kind = tile_types
                        .get(&tile)
                        .and_then(|t| tiles::spot(t, pos))
                        .and_then(|label| label.parse::<MeepleTarget>().ok())
                        .map(|target| target.kind());
                }
            }
            if kind.is_none() && args.opt("city_nbr")?.is_some() {
                kind = Some(FeatureKind::Field);
            }
            if let Some(recover) = args.opt("part_to_recover")? {
                if let Some(by_player) = recover.value.as_object() {
                    for (player, figures) in by_player {
                        let Some(figures) = figures.as_object() else {
                            continue;
                        };
                        for (figure, count) in figures {
                            if figure != "normal" && count.as_i64().unwrap_or(0) != 0 {
                                unsupported.add(
                                    format!("{} (of player {player})", expansions::figure(figure)),
                                    place,
                                );
                            }
                        }
                    }
                }
            }
            Move::Feature { kind }
        }
        "winPoints" => {
            let args = args()?;
            let player = args.get("player_id")?.int()?;
            name_of(&args, player)?;
            Move::Points {
                player,
                points: args.get("points")?.int()?,
                total: args.get("score")?.int()?,
            }
        }
        _ if IGNORED.contains(&kind) => return Ok(None),
        other => {
            unsupported.add(format!("notification {other:?}"), place);
            return Ok(None);
        }
    };
    Ok(Some(mv))
}

/// Our colour for BGA's hex colour; BGA's orange has no match and becomes yellow, the
/// nearest of ours.
fn color_of(hex: &str) -> Option<Color> {
    match hex.trim_start_matches('#').to_ascii_lowercase().as_str() {
        "ff0000" => Some(Color::Red),
        "0000ff" => Some(Color::Blue),
        "008000" | "00ff00" => Some(Color::Green),
        "ffff00" | "ffa500" => Some(Color::Yellow),
        "000000" => Some(Color::Black),
        "808080" | "c0c0c0" | "ffffff" => Some(Color::Gray),
        _ => None,
    }
}

/// Where the source of an imported game is: the table and the players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// BGA's table id.
    pub table: u64,
    /// BGA's player ids, in seat order.
    pub players: Vec<u64>,
}

impl Source {
    /// The sentence the importer writes into the header's `comment`.
    pub fn comment(&self) -> String {
        let players: Vec<String> = self.players.iter().map(u64::to_string).collect();
        format!(
            "imported from Board Game Arena: table {}, player ids {} (in seat order)",
            self.table,
            players.join(", ")
        )
    }
}

/// A BGA replay as our log, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    pub log: Log,
    pub source: Source,
    /// Whether BGA's replay reached its end-of-game result with every tile played (the log
    /// then ends with `expect_final_scores`); an abandoned or running table is in progress.
    pub finished: bool,
    /// For each assertion, by its line in `log`, the notification of the replay that stated
    /// the scores it claims: a disagreement is shown there, in the file the user has, not at
    /// a line of the converted log that no one sees.
    pub claims: Vec<(usize, Place)>,
}

/// Reads a BGA replay (the JSON of a table's notification packets) into our log.
pub fn import(bytes: &[u8]) -> Result<Imported, BgaError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        BgaError::Json {
            line,
            column,
            message: format!("not UTF-8 text: {e}"),
        }
    })?;
    let value: Value = serde_json::from_str(text).map_err(|e| BgaError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let root = At::root(&value);
    let parsed = parse(&root)?;
    let table: u64 = parsed.table.trim().parse().map_err(|_| BgaError::Field {
        path: "data.data[0].table_id".into(),
        expected: "a table id of digits".into(),
        found: format!("{:?}", parsed.table),
        place: None,
    })?;
    if parsed.players.is_empty() || parsed.players.len() > carc_events::MAX_PLAYERS {
        return Err(BgaError::Field {
            path: "data.data".into(),
            expected: format!("a game of 1 to {} players", carc_events::MAX_PLAYERS),
            found: format!("{} players", parsed.players.len()),
            place: None,
        });
    }
    let result = parsed.notes.iter().find_map(|n| match &n.mv {
        Move::End { result } if !result.is_empty() => Some(result),
        _ => None,
    });
    let mut players = Vec::new();
    for (seat, id) in parsed.players.iter().enumerate() {
        let from_result = result.and_then(|r| r.iter().find(|r| r.player == *id));
        let name = from_result
            .map(|r| r.name.clone())
            .or_else(|| parsed.names.get(id).cloned())
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| format!("player {id}"));
        // Seats need unique names; BGA's are unique per player, but a damaged file may not
        // be, and the player id tells two apart.
        let name = if players.iter().any(|p: &Player| p.name == name) {
            format!("{name} ({id})")
        } else {
            name
        };
        let color = from_result
            .and_then(|r| color_of(&r.color))
            .filter(|c| !players.iter().any(|p: &Player| p.color == *c))
            .or_else(|| {
                Color::ALL
                    .into_iter()
                    .skip(seat)
                    .chain(Color::ALL)
                    .find(|c| !players.iter().any(|p: &Player| p.color == *c))
            })
            .unwrap_or(Color::ALL[seat % Color::ALL.len()]);
        players.push(Player { name, color });
    }
    let source = Source {
        table,
        players: parsed
            .players
            .iter()
            .map(|&id| u64::try_from(id).unwrap_or(0))
            .collect(),
    };
    let header = Header {
        game: format!("bga-{table}"),
        players,
        rules: RulesOptions {
            expansions: Vec::new(),
            farmers: true,
            two_tile_city: 4,
            meeples: 7,
            map: None,
        },
        tile_sets: vec!["base".into()],
        bag: None,
        source: Some(carc_events::Source::Bga {
            table: source.table,
            players: source.players.clone(),
        }),
        // Kept beside the field: the sentence reads well in reports and old readers show it.
        comment: Some(source.comment()),
    };
    header.validate().map_err(|why| BgaError::Field {
        path: "data.data".into(),
        expected: "players carc can seat (unique, non-empty names)".into(),
        found: why,
        place: None,
    })?;
    let game = game_from_header(&header, &[]).map_err(|e| BgaError::Field {
        path: "data.data".into(),
        expected: "a playable base game".into(),
        found: e.to_string(),
        place: None,
    })?;
    let mut replayer = Replayer {
        game,
        log: Log::new(header),
        fx: Effects::default(),
        seats: parsed.players.clone(),
        totals: vec![0; parsed.players.len()],
        claim: None,
        feature: None,
        feature_points: Vec::new(),
        ended: false,
        claims: Vec::new(),
        end_place: None,
    };
    replayer.start()?;
    for note in &parsed.notes {
        replayer.note(note)?;
    }
    replayer.flush_claim();
    let finished = replayer.ended && replayer.game.is_over();
    if finished {
        let scores = match result {
            Some(result) => replayer
                .seats
                .iter()
                .map(|id| {
                    result
                        .iter()
                        .find(|r| r.player == *id)
                        .map_or(0, |r| u32::try_from(r.score).unwrap_or(0))
                })
                .collect(),
            None => replayer.totals.clone(),
        };
        replayer
            .log
            .push_assertion(Assertion::ExpectFinalScores { scores });
        if let Some(place) = replayer.end_place.take() {
            replayer.record_claim(place);
        }
    }
    Ok(Imported {
        log: replayer.log,
        source,
        finished,
        claims: replayer.claims,
    })
}

struct Replayer {
    game: Game,
    log: Log,
    fx: Effects,
    /// BGA player ids by seat.
    seats: Vec<i64>,
    /// Each seat's score as BGA last stated it.
    totals: Vec<u32>,
    /// The event after which BGA's scores were last stated, not yet written as a claim, and
    /// the notification that stated them last.
    claim: Option<(u64, Place)>,
    /// The kind of the feature BGA scored last (its points follow).
    feature: Option<FeatureKind>,
    /// Points per seat and feature kind stated since the last event, not yet written.
    /// (With the notification that first stated them.)
    feature_points: Vec<(u8, FeatureKind, u32, Place)>,
    /// Whether BGA's end-of-game state was seen.
    ended: bool,
    /// The notification of each assertion written, by its log line (see [`Imported::claims`]).
    claims: Vec<(usize, Place)>,
    /// The end-of-game notification, where the final scores are stated.
    end_place: Option<Place>,
}

fn tile_id(letter: &str) -> TileId {
    TileId::new(letter).expect("letters are non-empty")
}

impl Replayer {
    /// Records `event` if the rules accept it; otherwise the rules' reason.
    fn push(&mut self, event: Event) -> Result<(), String> {
        self.flush_claim();
        let refused = |v: carc_rules::RuleViolation| format!("breaks rule {}: {v}", v.rule());
        let action = event_to_action(&self.game, &event).map_err(refused)?;
        self.game.apply(&action, &mut self.fx).map_err(refused)?;
        self.log.push_event(event);
        Ok(())
    }

    /// Writes BGA's stated scores after the event they follow.
    fn flush_claim(&mut self) {
        if let Some((after, place)) = self.claim.take() {
            for (player, feature, points, stated) in std::mem::take(&mut self.feature_points) {
                self.log.push_assertion(Assertion::ExpectPoints {
                    after,
                    player,
                    feature,
                    points,
                });
                self.record_claim(stated);
            }
            self.log.push_assertion(Assertion::ExpectScores {
                after,
                scores: self.totals.clone(),
            });
            self.record_claim(place);
        }
    }

    /// The assertion just written was stated by the notification at `place`.
    fn record_claim(&mut self, place: Place) {
        if let Some((line, _)) = self.log.assertions.last() {
            self.claims.push((*line, place));
        }
    }

    /// BGA puts the start tile (type 15, our D) at (0,0) in its picture orientation.
    fn start(&mut self) -> Result<(), BgaError> {
        let start =
            tiles::by_type(i64::from(tiles::START_TYPE)).expect("the start type is in the table");
        self.push(Event::StartPlaced {
            tile: tile_id(start.letter),
            at: Pos::new(0, 0),
            rotation: Rotation::ALL[usize::from(start.offset)],
        })
        .map_err(|why| BgaError::Field {
            path: "data.data".into(),
            expected: "a game our rules can start".into(),
            found: why,
            place: None,
        })
    }

    fn seat_of(&self, player: i64) -> Result<u8, String> {
        self.seats
            .iter()
            .position(|&id| id == player)
            .and_then(|s| u8::try_from(s).ok())
            .ok_or_else(|| format!("player {player} is not at this table"))
    }

    /// The seat whose turn it is must be `player`'s.
    fn acting(&self, player: i64) -> Result<u8, String> {
        let seat = self.game.current_player();
        if self.seat_of(player)? != seat {
            return Err(format!(
                "player {player} acts, but it is player {}'s turn (seat {seat})",
                self.seats[usize::from(seat)]
            ));
        }
        Ok(seat)
    }

    /// A turn whose meeple step passed without a meeple.
    fn close_meeple_step(&mut self) -> Result<(), String> {
        if let Phase::Meeple { .. } = self.game.phase() {
            let seat = self.game.current_player();
            self.push(Event::MeepleSkipped { player: seat })?;
        }
        Ok(())
    }

    fn note(&mut self, note: &Note) -> Result<(), BgaError> {
        let fail = |message: String| BgaError::Replay {
            place: Box::new(note.place.clone()),
            message,
        };
        match &note.mv {
            Move::Draw { player, tile } => {
                self.close_meeple_step().map_err(fail)?;
                let seat = self.acting(*player).map_err(fail)?;
                self.push(Event::TileDrawn {
                    player: seat,
                    tile: tile_id(tile.letter),
                })
                .map_err(fail)?;
            }
            Move::Place {
                player,
                tile,
                x,
                y,
                ori,
            } => {
                let seat = self.acting(*player).map_err(fail)?;
                let turns = tiles::quarter_turns(tile, *ori)
                    .ok_or_else(|| fail(format!("orientation {ori} is not 1 to 4")))?;
                self.push(Event::TilePlaced {
                    player: seat,
                    tile: tile_id(tile.letter),
                    at: board_pos(*x, *y),
                    rotation: Rotation::ALL[usize::from(turns)],
                })
                .map_err(fail)?;
            }
            Move::Meeple { player, x, y, pos } => {
                let seat = self.acting(*player).map_err(fail)?;
                let at = board_pos(*x, *y);
                let on = self
                    .meeple_target(carc_rules::Pos::new(at.x, at.y), *pos)
                    .map_err(fail)?;
                self.push(Event::MeeplePlaced {
                    player: seat,
                    on,
                    figure: carc_events::Figure::Meeple,
                })
                .map_err(fail)?;
            }
            Move::Discard => {
                let seat = self.game.current_player();
                let Phase::Place { tile } = self.game.phase() else {
                    return Err(fail(
                        "a tile is discarded, but none is waiting to be placed".into(),
                    ));
                };
                let letter = self.game.tiles().get(tile).id.clone();
                self.push(Event::TileSetAside {
                    player: seat,
                    tile: tile_id(&letter),
                })
                .map_err(fail)?;
            }
            Move::Feature { kind } => {
                self.close_meeple_step().map_err(fail)?;
                self.feature = *kind;
            }
            Move::Points {
                player,
                points,
                total,
            } => {
                self.close_meeple_step().map_err(fail)?;
                let seat = self.seat_of(*player).map_err(fail)?;
                // Points belong to the feature scored just before them; the same kind scored
                // twice for a seat in one event is summed, as the assertion is.
                if let Some(kind) = self.feature {
                    let points = u32::try_from(*points)
                        .map_err(|_| fail(format!("{points} points are not points")))?;
                    match self
                        .feature_points
                        .iter_mut()
                        .find(|(s, k, _, _)| *s == seat && *k == kind)
                    {
                        Some((_, _, sum, _)) => *sum += points,
                        None => self
                            .feature_points
                            .push((seat, kind, points, note.place.clone())),
                    }
                }
                self.totals[usize::from(seat)] = u32::try_from(*total)
                    .map_err(|_| fail(format!("score {total} is not a score")))?;
                self.claim = Some((self.log.last_seq(), note.place.clone()));
            }
            Move::State => {
                self.close_meeple_step().map_err(fail)?;
                self.feature = None;
            }
            Move::End { .. } => {
                self.close_meeple_step().map_err(fail)?;
                self.ended = true;
                self.end_place = Some(note.place.clone());
            }
        }
        Ok(())
    }

    /// Our meeple target for BGA's spot `pos` on the tile just placed.
    fn meeple_target(&self, at: carc_rules::Pos, pos: i64) -> Result<MeepleTarget, String> {
        let Phase::Meeple { at: placed_at } = self.game.phase() else {
            return Err("a meeple is placed, but no tile was just placed".into());
        };
        if at != placed_at {
            return Err(format!(
                "the meeple goes to ({}, {}), but the tile just placed lies at ({}, {}) \
                 (BGA's coordinates)",
                at.x, -at.y, placed_at.x, -placed_at.y
            ));
        }
        let placed = self
            .game
            .tile_at(at)
            .ok_or("no tile at the meeple's square")?;
        let tile = self.game.tiles().get(placed.tile);
        let bga = tiles::TILES
            .iter()
            .find(|t| t.letter == tile.id)
            .ok_or("the tile is not a BGA base tile")?;
        let label = tiles::spot(bga, pos).ok_or_else(|| {
            format!(
                "tile type {} ({}) has no meeple spot {pos}",
                bga.bga_type, bga.letter
            )
        })?;
        let upright: MeepleTarget = label
            .parse()
            .map_err(|e: carc_events::InvalidMeepleTarget| e.to_string())?;
        let segment = tile
            .find_segment(
                carc_rules::Rotation::default(),
                &carc_events::label_of(&upright),
            )
            .ok_or_else(|| format!("tile {} has no {label}", bga.letter))?;
        tile.segment_label(placed.rotation, segment)
            .code()
            .parse()
            .map_err(|e: carc_events::InvalidMeepleTarget| e.to_string())
    }
}

/// BGA's y grows southwards, ours northwards.
fn board_pos(x: i64, y: i64) -> Pos {
    // Both are bounded to ±1000 when read.
    Pos::new(x as i32, -(y as i32))
}
