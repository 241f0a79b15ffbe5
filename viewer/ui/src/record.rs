//! Record mode: a game played at the table entered move by move, each move stored at once.
//!
//! The moves are made as when trying a move ([`crate::trial`]: the legal squares, rotations,
//! meeple spots and offers are the same); here every accepted move is folded with the game so
//! far and appended at once, one append per move, to a [`RecordSink`]. This crate has no
//! database: the window shell implements [`Recorder`] and [`RecordSink`] over the carc store
//! (kept open for the session), [`MemoryRecorder`] keeps games in memory for tests.
//!
//! Undo takes back the whole last turn (its draw, placement and figure) in one append, as
//! `carc record undo --turn` does.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use carc_events::{
    read_log_prefix, write_event_line, write_header, Color, Event, Header, Log, MapRules, Player,
    Pos, Rotation, RulesOptions, TileId, TownVariant,
};
use carc_replay::{fold, Timeline};
use carc_rules::{Action, Game, GiftCard, TileTypeId};

use crate::trial;

/// Where a recorded game's lines go: one game, kept open for the session.
///
/// Lines are JSON Lines of the game's log (a header, events), each ending in `\n`. Errors are
/// messages for the user, naming the place and the game.
pub trait RecordSink {
    /// The place, in words (e.g. `store ./carc-store`).
    fn location(&self) -> String;
    /// Appends `lines` in one append, sealing the game when `seal` (the move that ends it).
    /// `Ok` means stored (durable where the place is a store).
    fn append(&mut self, lines: &[String], seal: bool) -> Result<(), String>;
    /// Takes back the last `lines` effective lines of the game in one append.
    fn take_back(&mut self, lines: usize) -> Result<(), String>;
    /// The game's effective log (what is left after take-backs), as JSON Lines.
    fn log(&self) -> Result<Vec<u8>, String>;
}

/// A place games are recorded into: starts a game or continues a stored one.
pub trait Recorder {
    /// Starts game `game` with `lines` (its header and start tile) in one append; refuses a
    /// game id that is taken.
    fn start(&mut self, game: &str, lines: &[String]) -> Result<Box<dyn RecordSink>, String>;
    /// Continues the stored game `game`; refuses a sealed one.
    fn resume(&mut self, game: &str) -> Result<Box<dyn RecordSink>, String>;
}

/// The start tile of a recorded game, at (0,0) unrotated as event 1 (as `carc record new`).
pub const START_TILE: &str = "D";

/// The new-game form: players in seat order with their colours, and the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub game: String,
    pub players: Vec<(String, Color)>,
    pub farmers: bool,
    /// The Abbot (its garden tiles join the bag).
    pub abbot: bool,
    /// The 20th Anniversary expansion (its tiles and arrows).
    pub anniversary: bool,
    /// The River (its 12 tiles first; the spring is the start tile).
    pub river: bool,
    /// The Gifts (the gift deck; no tiles of its own).
    pub gifts: bool,
    /// Inns & Cathedrals (its 18 tiles; the large meeple).
    pub inns_cathedrals: bool,
    /// Traders & Builders (its 24 tiles; the builder and the pig).
    pub traders_builders: bool,
    /// Carcassonne Maps on the Germany map board: the start tiles go on its start squares,
    /// each a move of its own (chosen at the table).
    pub germany: bool,
    /// On the map: start squares in use (2 to the map's count).
    pub start_squares: u8,
    /// On the map: the town variants in use.
    pub town_variants: Vec<TownVariant>,
}

impl Default for NewGame {
    fn default() -> Self {
        NewGame {
            game: String::new(),
            players: vec![
                (String::new(), Color::ALL[0]),
                (String::new(), Color::ALL[1]),
            ],
            farmers: true,
            abbot: false,
            anniversary: false,
            river: false,
            gifts: false,
            inns_cathedrals: false,
            traders_builders: false,
            germany: false,
            start_squares: 2,
            town_variants: Vec::new(),
        }
    }
}

impl NewGame {
    /// The game's header, or why the form cannot start a game.
    pub fn header(&self) -> Result<Header, String> {
        let id = self.game.trim();
        if id.is_empty() || id.len() > 128 || !id.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!(
                "game id {id:?}: 1 to 128 printable ASCII characters without spaces"
            ));
        }
        if !(2..=Color::ALL.len()).contains(&self.players.len()) {
            return Err(format!("2 to {} players", Color::ALL.len()));
        }
        for (seat, (name, color)) in self.players.iter().enumerate() {
            let name = name.trim();
            if name.is_empty() {
                return Err(format!("player {} has no name", seat + 1));
            }
            // Names are plain text (as `carc record new` requires): no control or invisible
            // formatting character that would act on every screen showing the name.
            if name
                .chars()
                .any(|c| c.is_control() || carc_events::text::is_hidden_format(c))
            {
                return Err(format!(
                    "player name {name:?} holds a control or invisible character"
                ));
            }
            if self.players[..seat].iter().any(|(_, c)| c == color) {
                return Err(format!("two players are {color}"));
            }
        }
        let mut expansions = Vec::new();
        if self.anniversary {
            expansions.push("anniversary".to_string());
        }
        if self.abbot {
            expansions.push("abbot".to_string());
        }
        if self.river {
            expansions.push("river".to_string());
        }
        if self.gifts {
            expansions.push("gifts".to_string());
        }
        if self.inns_cathedrals {
            expansions.push("inns_cathedrals".to_string());
        }
        if self.traders_builders {
            expansions.push("traders_builders".to_string());
        }
        let header = Header {
            game: id.to_string(),
            players: self
                .players
                .iter()
                .map(|(name, color)| Player {
                    name: name.trim().to_string(),
                    color: *color,
                })
                .collect(),
            rules: RulesOptions {
                farmers: self.farmers,
                expansions: expansions.clone(),
                // On a map: 9 meeples, as the Maps rules recommend and `carc simulate --map`
                // and `carc record new --map` write.
                meeples: if self.germany {
                    9
                } else {
                    RulesOptions::default().meeples
                },
                map: self.germany.then(|| MapRules {
                    name: "germany".to_string(),
                    start_squares: self.start_squares,
                    town_variants: self.town_variants.clone(),
                }),
                ..RulesOptions::default()
            },
            // Each expansion brings the tile set of its name, except the abbot, whose garden
            // copies are the base set's own, and The Gifts, which brings cards and no tiles
            // (as `carc record new`).
            tile_sets: std::iter::once("base".to_string())
                .chain(
                    expansions
                        .into_iter()
                        .filter(|e| !matches!(e.as_str(), "abbot" | "gifts")),
                )
                .collect(),
            bag: None,
            source: None,
            comment: Some("recorded in carc-viewer".to_string()),
        };
        header.validate().map_err(|e| e.to_string())?;
        Ok(header)
    }

    /// The game's first lines, checked: the header and the start tile (on a map the header
    /// alone: its start tiles are moves of their own, on the start squares chosen at the
    /// table, as `carc record new --map` leaves them).
    pub fn start_lines(&self) -> Result<(Timeline, Vec<String>), String> {
        let header = self.header()?;
        let mut log = Log::new(header);
        if !self.germany {
            // The set's start tile (D), or the spring with The River: the rules name it.
            let start = carc_events::start_tile_of(&log.header, &[])
                .unwrap_or_else(|| TileId::new(START_TILE).expect("non-empty"));
            log.push_event(Event::StartPlaced {
                tile: start,
                at: Pos::new(0, 0),
                rotation: Rotation::R0,
            });
        }
        let timeline = fold(log, &[]);
        if let Some(e) = &timeline.error {
            return Err(format!("cannot start the game: {}", e.message()));
        }
        let lines = std::iter::once(write_header(&timeline.log.header))
            .chain(timeline.log.events.iter().map(|(_, e)| write_event_line(e)))
            .map(|l| format!("{l}\n"))
            .collect();
        Ok((timeline, lines))
    }
}

/// A game being recorded: where its moves go.
pub struct Session {
    sink: Box<dyn RecordSink>,
    pub game: String,
}

impl Session {
    /// Starts a new game: its header and start tile stored in one append.
    pub fn start(
        recorder: &mut dyn Recorder,
        form: &NewGame,
    ) -> Result<(Session, Timeline), String> {
        let (timeline, lines) = form.start_lines()?;
        let game = timeline.log.header.game.clone();
        let sink = recorder.start(&game, &lines)?;
        Ok((Session { sink, game }, timeline))
    }

    /// Continues a stored game where it stands; refuses one that does not replay or is over.
    pub fn resume(recorder: &mut dyn Recorder, game: &str) -> Result<(Session, Timeline), String> {
        let sink = recorder.resume(game)?;
        let timeline = replay(&sink.log()?, &sink.location(), game)?;
        if timeline.finished {
            return Err(format!("game {game} is over; no further moves"));
        }
        let session = Session {
            sink,
            game: game.to_string(),
        };
        Ok((session, timeline))
    }

    pub fn location(&self) -> String {
        self.sink.location()
    }

    /// Plays `action` at the end of `timeline` (whose final position is `state`): folds the
    /// game with its event and, if legal, appends that one line (sealing the game when the
    /// move ends it). Returns the timeline after the move; on `Err` nothing was stored.
    pub fn play(
        &mut self,
        timeline: &Timeline,
        state: &Game,
        action: &Action,
    ) -> Result<Timeline, String> {
        let event = trial::event_of(state, action)?;
        let mut log = timeline.log.clone();
        log.push_event(event);
        let after = fold(log, &[]);
        if let Some(e) = &after.error {
            return Err(format!("[{}] {}", e.rule(), e.message()));
        }
        let (_, envelope) = after.log.events.last().expect("just pushed");
        let line = format!("{}\n", write_event_line(envelope));
        self.sink.append(&[line], after.finished)?;
        Ok(after)
    }

    /// Takes back the whole last turn of `timeline` (every effective line from its first
    /// event on) in one append; returns the timeline after it and the number of events.
    pub fn undo_turn(&mut self, timeline: &Timeline) -> Result<(Timeline, usize), String> {
        let last = timeline.steps.last().map_or(0, |s| s.turn);
        if last == 0 {
            // On a map the start tiles are moves of their own (put down at the table): the
            // last one is taken back alone, as `carc record undo` does.
            if timeline.log.header.rules.map.is_none() || timeline.steps.is_empty() {
                return Err("nothing to undo: only the start tile is recorded".to_string());
            }
            self.sink.take_back(1)?;
            let after = replay(&self.sink.log()?, &self.sink.location(), &self.game)?;
            return Ok((after, 1));
        }
        let first = timeline
            .steps
            .iter()
            .find(|s| s.turn == last)
            .expect("the last step is of the last turn");
        let log = &timeline.log;
        // Effective lines: the header, then the events and assertions.
        let total = 1 + log.events.len() + log.assertions.len();
        let lines = total + 1 - first.line;
        self.sink.take_back(lines)?;
        let after = replay(&self.sink.log()?, &self.sink.location(), &self.game)?;
        let taken = timeline.steps.len() - after.steps.len();
        Ok((after, taken))
    }
}

/// Folds a stored log; a game that does not replay is refused with the line and rule.
fn replay(bytes: &[u8], location: &str, game: &str) -> Result<Timeline, String> {
    let prefix = read_log_prefix(bytes).map_err(|e| format!("game {game} in {location}: {e}"))?;
    if let Some(e) = prefix.error {
        return Err(format!(
            "game {game} in {location}: line {}: {}",
            e.line, e.kind
        ));
    }
    let timeline = fold(prefix.log, &[]);
    if let Some(e) = &timeline.error {
        return Err(format!(
            "game {game} in {location} does not replay (line {}): [{}] {}",
            e.line(),
            e.rule(),
            e.message()
        ));
    }
    Ok(timeline)
}

/// The tile a typed letter draws (either case): the tile of that id if some are left in the
/// bag, else its garden copy (The Abbot); `None` if neither is.
pub fn tile_for_letter(game: &Game, letter: char) -> Option<TileTypeId> {
    let id = letter.to_ascii_uppercase().to_string();
    let bag = trial::tiles_in_bag(game);
    let find = |want: &str| {
        bag.iter()
            .find(|(t, _)| game.tiles().get(*t).id == want)
            .map(|(t, _)| *t)
    };
    find(&id).or_else(|| find(&format!("{id}+garden")))
}

/// The abbot's move the A key makes at the meeple step: onto the tile just placed (or through
/// a portal) if it can go there, else taken back; `None` when the abbot can do neither.
pub fn abbot_action(game: &Game) -> Option<Action> {
    let offers = trial::offers(game);
    let place = offers
        .iter()
        .find(|o| matches!(o.action, Action::PlaceAbbot { .. }));
    let back = offers
        .iter()
        .find(|o| matches!(o.action, Action::TakeBackAbbot));
    place.or(back).map(|o| o.action)
}

/// The Gifts: the key that picks each card received, by card order (1 Synod, 2 Road Sweeper,
/// 3 Change Position, 4 Cash Out, 5 Take 2), so that a card's key never changes.
pub fn gift_key(card: GiftCard) -> char {
    char::from(b'1' + card.index() as u8)
}

/// The card received that the key `c` picks, if the deck can deal it now.
pub fn gift_for_key(game: &Game, c: char) -> Option<Action> {
    carc_replay::gifts::receivable_cards(game)
        .into_iter()
        .find(|&card| gift_key(card) == c)
        .map(|card| Action::ReceiveGift { card })
}

/// One game kept in memory by [`MemoryRecorder`]: its effective lines and how many appends
/// made them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryGame {
    pub lines: Vec<String>,
    pub appends: usize,
    pub sealed: bool,
}

/// Games recorded in memory (for tests): the recorder and its sinks share the games.
#[derive(Clone, Default)]
pub struct MemoryRecorder {
    games: Rc<RefCell<BTreeMap<String, MemoryGame>>>,
}

impl MemoryRecorder {
    /// A copy of game `game` as stored.
    pub fn game(&self, game: &str) -> Option<MemoryGame> {
        self.games.borrow().get(game).cloned()
    }
}

impl Recorder for MemoryRecorder {
    fn start(&mut self, game: &str, lines: &[String]) -> Result<Box<dyn RecordSink>, String> {
        let mut games = self.games.borrow_mut();
        if games.contains_key(game) {
            return Err(format!("game {game:?} already exists in memory"));
        }
        games.insert(
            game.to_string(),
            MemoryGame {
                lines: lines.to_vec(),
                appends: 1,
                sealed: false,
            },
        );
        Ok(Box::new(MemorySink {
            games: self.games.clone(),
            game: game.to_string(),
        }))
    }

    fn resume(&mut self, game: &str) -> Result<Box<dyn RecordSink>, String> {
        match self.games.borrow().get(game) {
            None => return Err(format!("no game {game:?} in memory")),
            Some(g) if g.sealed => return Err(format!("game {game} is over and sealed")),
            Some(_) => {}
        }
        Ok(Box::new(MemorySink {
            games: self.games.clone(),
            game: game.to_string(),
        }))
    }
}

struct MemorySink {
    games: Rc<RefCell<BTreeMap<String, MemoryGame>>>,
    game: String,
}

impl MemorySink {
    fn with<T>(&self, f: impl FnOnce(&mut MemoryGame) -> Result<T, String>) -> Result<T, String> {
        let mut games = self.games.borrow_mut();
        let g = games
            .get_mut(&self.game)
            .ok_or_else(|| format!("no game {:?} in memory", self.game))?;
        f(g)
    }
}

impl RecordSink for MemorySink {
    fn location(&self) -> String {
        "memory".to_string()
    }

    fn append(&mut self, lines: &[String], seal: bool) -> Result<(), String> {
        self.with(|g| {
            if g.sealed {
                return Err(format!("game {} is sealed", self.game));
            }
            g.lines.extend_from_slice(lines);
            g.appends += 1;
            g.sealed = seal;
            Ok(())
        })
    }

    fn take_back(&mut self, lines: usize) -> Result<(), String> {
        self.with(|g| {
            if g.sealed || lines >= g.lines.len() {
                return Err(format!("cannot take back {lines} lines of {}", self.game));
            }
            g.lines.truncate(g.lines.len() - lines);
            g.appends += 1;
            Ok(())
        })
    }

    fn log(&self) -> Result<Vec<u8>, String> {
        self.with(|g| Ok(g.lines.concat().into_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> NewGame {
        NewGame {
            game: "g1".into(),
            players: vec![("Ada".into(), Color::Red), ("Bo".into(), Color::Blue)],
            abbot: true,
            ..NewGame::default()
        }
    }

    #[test]
    fn the_form_refuses_what_cannot_start_a_game() {
        assert!(form().header().is_ok());
        let mut f = form();
        f.players.truncate(1);
        assert_eq!(f.header().unwrap_err(), "2 to 6 players");
        let mut f = form();
        f.players[1].1 = Color::Red;
        assert_eq!(f.header().unwrap_err(), "two players are red");
        let mut f = form();
        f.players[0].0 = "A\u{202e}da".into();
        assert!(f.header().unwrap_err().contains("invisible"));
        let mut f = form();
        f.game = "has space".into();
        assert!(f.header().unwrap_err().contains("without spaces"));
    }

    #[test]
    fn letters_draw_the_plain_tile_then_its_garden_copy() {
        let (timeline, _) = form().start_lines().unwrap();
        let game = timeline.state_at(1).unwrap();
        let e = tile_for_letter(&game, 'e').unwrap();
        assert_eq!(game.tiles().get(e).id, "E");
        assert!(tile_for_letter(&game, 'z').is_none());
    }
}
