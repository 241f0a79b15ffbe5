//! The parts of a saved game before its moves: the tile names, the setup (options, the start
//! tile), the players and the forced deal.

use carc_events::Rotation;
use serde_json::Value;

use super::findings::Findings;
use crate::error::JczError;
use crate::json::At;
use crate::location;
use crate::names::{
    BASE_SET, BASE_SET_GARDENS, BIG_FOLLOWER, BUILDER, CATHEDRAL, END_OF_DEAL, INN, INNS_SET,
    INNS_SET_GARDENS, PIG, PIG_HERD, RIVER_ELEMENT, RIVER_SET, RIVER_SET_GARDENS, TINY_CITY,
    TRADERS, TRADERS_SET, TRADERS_SET_GARDENS,
};
use crate::tiles;

/// A tile as a JCloisterZone file names it, with our letter.
#[derive(Clone)]
pub(super) struct Tile {
    pub(super) jcz: String,
    pub(super) letter: &'static str,
}

impl Tile {
    /// With The Abbot, a garden variant is our garden copy (`BA/CG` → `E+garden`).
    pub(super) fn become_garden_copy(&mut self) {
        if tiles::is_garden_variant(&self.jcz) {
            if let Some(copy) = tiles::garden_copy_of(self.letter) {
                self.letter = copy;
            }
        }
    }
}

/// Reads a tile id; an id outside the base game is recorded as unsupported.
pub(super) fn tile(at: &At<'_>, found: &mut Findings) -> Result<Option<Tile>, JczError> {
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

pub(super) fn square(at: &At<'_>) -> Result<carc_rules::Pos, JczError> {
    let (x, y) = at.pair()?;
    location::pos_from_jcz(x, y).ok_or_else(|| at.wrong("a position within ±2147483647"))
}

/// The start tile.
pub(super) struct Start {
    pub(super) tile: Tile,
    pub(super) at: carc_rules::Pos,
    /// Quarter turns in JCloisterZone's orientation of the tile.
    pub(super) turns: u8,
}

/// The game options carc models.
pub(super) struct Options {
    pub(super) meeples: u8,
    pub(super) farmers: bool,
    /// The Abbot (element `abbot`, with the element `garden`).
    pub(super) abbot: bool,
    pub(super) gardens: bool,
    /// The River (tile set `river/1:1` or `river/1:2`).
    pub(super) river: bool,
    /// Inns & Cathedrals (tile set `inns-and-cathedrals:1` or `:2`).
    pub(super) inns: bool,
    /// Traders & Builders (tile set `traders-and-builders:1` or `:2`).
    pub(super) traders: bool,
    pub(super) two_tile_city: u8,
    pub(super) start: Option<Start>,
}

/// The expansion a tile set belongs to, if it is one we map: its name in messages, its option
/// (set once the set is read), and whether the name is the set's garden edition.
fn expansion_set<'o>(
    name: &str,
    options: &'o mut Options,
) -> Option<(&'static str, &'o mut bool, bool)> {
    let expansions = [
        (RIVER_SET, RIVER_SET_GARDENS, "river", &mut options.river),
        (
            INNS_SET,
            INNS_SET_GARDENS,
            "Inns & Cathedrals",
            &mut options.inns,
        ),
        (
            TRADERS_SET,
            TRADERS_SET_GARDENS,
            "Traders & Builders",
            &mut options.traders,
        ),
    ];
    expansions
        .into_iter()
        .find(|(plain, gardens, _, _)| name == *plain || name == *gardens)
        .map(|(_, gardens, words, taken)| (words, taken, name == gardens))
}

pub(super) fn setup(root: &At<'_>, found: &mut Findings) -> Result<Options, JczError> {
    let setup = root.get("setup")?;
    let mut options = Options {
        meeples: 7,
        farmers: false,
        abbot: false,
        gardens: false,
        river: false,
        inns: false,
        traders: false,
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
    // The expansions' tile sets with garden variants (name, where), if named.
    let mut garden_sets: Vec<(String, String)> = Vec::new();
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
            } else if let Some((words, taken, gardens)) = expansion_set(name, &mut options) {
                if *taken {
                    found.unsupported(format!("a second {words} tile set {name:?}"), &path);
                }
                *taken = true;
                if gardens {
                    garden_sets.push((name.clone(), path.clone()));
                }
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
        let (mut big_follower, mut inn, mut cathedral) = (false, false, false);
        let (mut traders, mut builder, mut pig) = (false, false, false);
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
                // The River's element, which JCloisterZone's client adds with the river set;
                // the tile set alone decides (as in JCloisterZone's engine).
                RIVER_ELEMENT => {}
                // Inns & Cathedrals: one big follower (our large meeple) per player.
                BIG_FOLLOWER => {
                    let one = at.int().and_then(|n| match n {
                        1 => Ok(true),
                        0 => Ok(false),
                        _ => Err(at.wrong("1 (one big follower per player)")),
                    });
                    if let Some(on) = found.defer(one) {
                        big_follower = on;
                    }
                }
                INN => inn = is_on(at.value),
                CATHEDRAL => cathedral = is_on(at.value),
                // The pig herd (GQ11) adds to a pig's field only on tiles with a pig herd, which
                // none of the sets carc maps has (JCloisterZone's river/2 and gq11 have them;
                // its client turned the element on with Traders & Builders): it changes
                // nothing here.
                PIG_HERD => {}
                // Traders & Builders: the goods, one builder and one pig per player.
                TRADERS => traders = is_on(at.value),
                BUILDER | PIG => {
                    let one = at.int().and_then(|n| match n {
                        1 => Ok(true),
                        0 => Ok(false),
                        _ => Err(at.wrong(&format!("1 (one {name} per player)"))),
                    });
                    // A value we cannot read is reported as such, not as a missing element.
                    let on = found.defer(one).unwrap_or(true);
                    if name == BUILDER {
                        builder = on;
                    } else {
                        pig = on;
                    }
                }
                _ => found.unsupported(format!("game element {name:?}"), &at.path),
            }
        }
        if !has_followers {
            found.unsupported("a game without small followers (meeples)", &elements.path);
        }
        // With the abbot, JCloisterZone's garden editions of the expansions' sets have
        // gardens on tiles of carc's that have none (a river curve `RI.1/IIG`; `IC/CCCCG`
        // and `IC/RFr.iG`; `TB/CcRR.wG` and `TB/CcR.cG`), so that game is not ours to replay.
        if options.abbot {
            for (name, path) in &garden_sets {
                found.unsupported(
                    format!(
                        "tile set {name:?} with the abbot (garden variants of tiles that have \
                         no garden in carc)"
                    ),
                    path,
                );
            }
        }
        // Inns & Cathedrals comes with its big follower, inns and cathedrals (JCloisterZone's
        // client turns them on with the set); one without the other is not carc's game.
        let ic_elements = [big_follower, inn, cathedral];
        if options.inns && ic_elements != [true; 3] {
            found.unsupported(
                format!(
                    "Inns & Cathedrals without all of the elements \"{BIG_FOLLOWER}\": 1, \
                     \"{INN}\" and \"{CATHEDRAL}\""
                ),
                &elements.path,
            );
        }
        if !options.inns && ic_elements.contains(&true) {
            found.unsupported(
                format!(
                    "the elements \"{BIG_FOLLOWER}\", \"{INN}\" or \"{CATHEDRAL}\" without \
                     the tile set {INNS_SET:?}"
                ),
                &elements.path,
            );
        }
        // Traders & Builders comes with its goods, builder and pig (JCloisterZone's client
        // turns them on with the set); carc has no game with some of them only.
        let tb_elements = [traders, builder, pig];
        if options.traders && tb_elements != [true; 3] {
            found.unsupported(
                format!(
                    "Traders & Builders without all of the elements \"{TRADERS}\", \"{BUILDER}\": \
                     1 and \"{PIG}\": 1"
                ),
                &elements.path,
            );
        }
        if !options.traders && tb_elements.contains(&true) {
            found.unsupported(
                format!(
                    "the elements \"{TRADERS}\", \"{BUILDER}\" or \"{PIG}\" without the tile set \
                     {TRADERS_SET:?}"
                ),
                &elements.path,
            );
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
pub(super) fn start_tile(one: &At<'_>, found: &mut Findings) -> Option<Option<Start>> {
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

/// Whether a boolean element is on: JCloisterZone turns an element on by any value but
/// `null` and `false`.
fn is_on(value: &Value) -> bool {
    !matches!(value, Value::Null | Value::Bool(false))
}

pub(super) fn rotation_turns(text: &str) -> Option<u8> {
    match text {
        "R0" => Some(0),
        "R90" => Some(1),
        "R180" => Some(2),
        "R270" => Some(3),
        _ => None,
    }
}

/// A player as the file lists them; seats are the order of the `players` array.
pub(super) struct Seat {
    pub(super) name: String,
    pub(super) slot: i64,
}

/// The seats; `None` if they cannot be read (the reason is kept). More players than carc
/// seats is unsupported (JCloisterZone seats up to 9), not a format error.
pub(super) fn players(root: &At<'_>, found: &mut Findings) -> Option<Vec<Seat>> {
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

/// The tiles JCloisterZone was told to deal (`gameAnnotations`). JCloisterZone deals the
/// draw order first and then goes on drawing at random from the rest of the base set; the
/// order is the whole game only if it ends in `"#END"` or a draw limit (`endTurn`) caps it.
#[derive(Default)]
pub(super) struct Deal {
    /// `drawOrder` without the end marker: the first tiles drawn, in order.
    pub(super) order: Vec<Tile>,
    /// How many tiles the game draws in all, when the file says so, and why.
    pub(super) total: Option<(usize, &'static str)>,
}

pub(super) fn deal(root: &At<'_>, found: &mut Findings) -> Result<Deal, JczError> {
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
