//! The game: a validated position and the turn state machine.
//!
//! Modelled on shakmaty: [`Setup`] is plain data; [`Game::new`] checks it. [`Game::apply`]
//! either performs an action or returns a [`RuleViolation`] and leaves the game exactly as it
//! was (every check happens before the first change). Legal moves are generated into buffers
//! the caller reuses.
//!
//! The turn: `Draw` → `Place` (or set aside, then `Draw` again) → `Meeple` (place or skip) →
//! scoring of what the tile completed → next seat's `Draw`. After the turn that empties the bag,
//! the final scoring runs and the game is `Over`. Expansions extend this machine with phases of
//! their own. The 20th Anniversary (option `anniversary`): after `Place`, `ChooseArrow` when the
//! placement could activate several arrows; at `Meeple`, a meeple through an activated companion
//! or portal arrow instead of the normal one; after scoring, an activated extra-turn arrow gives
//! the same seat the next turn (never a third in a row). The Gifts (option `gifts`, see
//! [`gifts`]): at `Place`, one gift may be opened before the tile is placed (Take 2 adds
//! `DrawSecond` and `ReturnTile`); after a placement that extends another player's road or
//! city, `ReceiveGift` waits for the card drawn (chance) before the game goes on. Carcassonne
//! Maps (a [`Setup::map`]) adds no phase: `Start` takes one start tile per start square in
//! use, and a placement that covers a town may give an extra turn or cost points. The
//! Abbot (option `abbot`, see `abbot`) adds no phase: at `Meeple`, the abbot may go on the
//! monastery or garden of the tile just placed (or anywhere through a portal), or be taken
//! back and scored, instead of a meeple.
//!
//! The code, by concern: this file holds the types, the checked constructor, the queries and
//! the state machine ([`Game::apply`] is the one place that shows the turn: every action in
//! every phase, each expansion's action handed to its module; the turn passes in
//! `finish_turn`); `placement` (legal placements, checks, putting a tile on the board),
//! `meeples` (meeple targets and checks, meeples going home), `scoring` (scoring and its
//! explanations). Each expansion has a module of its own holding its phases, checks and
//! scoring changes, which the core calls at named points: `abbot` (the Abbot and gardens),
//! `anniversary` (20th Anniversary arrows), [`gifts`] (The Gifts) and `maps` (the rules of Carcassonne Maps; the map-board
//! file format is [`crate::map`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::board::{Board, PlacedTile};
use crate::features::{Features, MAX_PLAYERS};
use crate::geometry::{Pos, Rotation};
use crate::map::MapBoard;
use crate::ruling::{Note, RuleViolation};
use crate::score::{ReturnedMeeple, Score, ScoreTime};
use crate::tileset::{ArrowSymbol, FeatureKind, SegmentLabel, TileSet, TileTypeId};

mod abbot;
mod anniversary;
mod copy;
pub mod gifts;
mod inns_cathedrals;
mod maps;
mod meeples;
mod moves;
mod placement;
mod river;
mod scoring;
mod survey;
mod traders_builders;

pub use abbot::AbbotMove;
pub use anniversary::{ArrowMeepleSpot, ArrowState, PlacedArrow};
pub use gifts::{GiftAction, GiftCard, GIFT_COPIES};
pub use maps::MapOptions;
pub use moves::{MeepleStep, Move};
pub use survey::{FeatureSurvey, OpenFeature, OpenSquare};
pub use traders_builders::goods_words;

/// Rule options of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether meeples may be placed on fields (farmers) and fields are scored.
    pub farmers: bool,
    /// Points for a completed city of exactly two tiles: 4 (current rules) or 2 (old rules).
    pub two_tile_city: u8,
    /// Meeples per player.
    pub meeples: u8,
    /// The 20th Anniversary expansion: arrows on tiles are activated and their actions
    /// (companion, portal, extra turn) are offered. Off, a tile set with arrows is refused.
    pub anniversary: bool,
    /// Options of a game on a map board (Carcassonne Maps); the defaults without a map.
    pub map: MapOptions,
    /// The Gifts: gift cards are received for extending other players' roads and cities,
    /// opened before placing a tile, and worth 2 points each unopened at the end.
    pub gifts: bool,
    /// The Abbot: each player has an abbot beside the meeples, placed on monasteries and
    /// gardens; the tile set's garden copies are tiles of their own. Off, a tile set with
    /// garden copies is refused.
    pub abbot: bool,
    /// The River: the spring is the start tile, the river tiles come first (the lake last),
    /// each continues the river, no immediate U-turn. Off, a tile set with river tiles is
    /// refused.
    pub river: bool,
    /// Inns & Cathedrals: roads with an inn and cities with a cathedral score more when
    /// completed and nothing at the end; each player has a large meeple beside the meeples,
    /// counting as two meeples for the majority. Off, a tile set with inns or cathedrals is
    /// refused.
    pub inns_cathedrals: bool,
    /// Traders & Builders: goods in cities go to whoever completes them and score by
    /// majority at the end; each player has a builder (a second turn when its road or city
    /// is extended) and a pig (one more point per city in a field its owner wins). Off, a
    /// tile set with goods is refused.
    pub traders_builders: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            farmers: true,
            two_tile_city: 4,
            meeples: 7,
            anniversary: false,
            map: MapOptions::default(),
            gifts: false,
            abbot: false,
            river: false,
            inns_cathedrals: false,
            traders_builders: false,
        }
    }
}

/// Plain-data description of a game before it starts. Checked by [`Game::new`].
#[derive(Clone, Debug)]
pub struct Setup {
    /// Seats at the table, 1 to 6 ([`Game::new`] refuses others); seat 0 plays first.
    pub players: u8,
    /// The rules played: base-game choices and which expansions are on.
    pub options: Options,
    /// The tile set; its counts fill the bag unless `bag` overrides them.
    pub tiles: Arc<TileSet>,
    /// Copies of each tile in the game, overriding the tile set's counts (short games, tests).
    pub bag: Option<BTreeMap<String, u16>>,
    /// The map board the game is played on (Carcassonne Maps), or `None` for the open table.
    pub map: Option<Arc<MapBoard>>,
}

impl Setup {
    /// The base game with default options.
    pub fn base(players: u8) -> Setup {
        Setup {
            players,
            options: Options::default(),
            tiles: Arc::new(TileSet::base()),
            bag: None,
            map: None,
        }
    }
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The start tile.
    Start,
    /// The current seat draws a tile.
    Draw,
    /// The drawn tile is placed, or set aside if it fits nowhere.
    Place {
        /// The tile just drawn.
        tile: TileTypeId,
    },
    /// Several arrows could be activated by the tile just placed at `at`; the player chooses
    /// one (20th Anniversary). See [`Game::legal_arrow_choices`].
    ChooseArrow {
        /// The square of the tile just placed.
        at: Pos,
    },
    /// A meeple may go on the tile just placed (or, after a companion or portal arrow was
    /// activated, elsewhere: see [`Game::legal_arrow_meeples`]).
    Meeple {
        /// The square of the tile just placed.
        at: Pos,
    },
    /// The tile just placed at `at` earned a gift (The Gifts): the card drawn from the gift
    /// deck comes next (chance), then the game goes on where it was.
    ReceiveGift {
        /// The square of the tile just placed.
        at: Pos,
    },
    /// Take 2 was opened: a second tile is drawn (chance) beside `first`.
    DrawSecond {
        /// The tile drawn first this turn.
        first: TileTypeId,
    },
    /// Take 2: of the two tiles drawn, the player returns one to the bag and places the other.
    ReturnTile {
        /// The tile drawn first this turn.
        first: TileTypeId,
        /// The tile drawn through Take 2.
        second: TileTypeId,
    },
    /// Final scoring is done.
    Over,
}

impl Phase {
    fn expects(self) -> &'static str {
        match self {
            Phase::Start => "the start tile",
            Phase::Draw => "a tile to be drawn",
            Phase::Place { .. } => "the drawn tile to be placed or set aside",
            Phase::ChooseArrow { .. } => "the player's choice of one arrow to activate",
            Phase::Meeple { .. } => "a meeple to be placed or skipped",
            Phase::ReceiveGift { .. } => "the gift card the player receives",
            Phase::DrawSecond { .. } => "the second tile drawn through Take 2",
            Phase::ReturnTile { .. } => "the player's choice of the Take 2 tile to return",
            Phase::Over => "nothing: the game is over",
        }
    }
}

/// One thing a player (or chance) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The start tile `tile` on square `at`; on a map, one per start square in use.
    PlaceStart {
        /// The start tile, taken from the bag.
        tile: TileTypeId,
        /// The square it goes on.
        at: Pos,
        /// How it is turned.
        rotation: Rotation,
    },
    /// Chance: the tile that came out of the bag.
    Draw {
        /// The tile drawn; a copy must be left ([`RuleViolation::TileNotInBag`] otherwise).
        tile: TileTypeId,
    },
    /// The drawn tile fits nowhere and is removed from the game.
    SetAside,
    /// The drawn tile on square `at`; refused unless [`Game::check_placement`] accepts it.
    Place {
        /// The empty square the tile goes on.
        at: Pos,
        /// How the tile is turned.
        rotation: Rotation,
    },
    /// A meeple on segment `segment` (local index) of the tile just placed.
    PlaceMeeple {
        /// The segment, as [`MeepleSpot::segment`] lists it.
        segment: u8,
    },
    /// No figure this turn: the meeple step ends, what the tile completed is scored.
    SkipMeeple,
    /// Of several arrows the placement could activate, the one on the tile at `arrow`.
    ChooseArrow {
        /// The square of the tile that carries the chosen arrow.
        arrow: Pos,
    },
    /// Instead of the normal meeple: a meeple from supply on segment `segment` (local index)
    /// of the tile at `at`, through the activated companion or portal arrow `via`.
    PlaceArrowMeeple {
        /// The arrow's symbol: companion or portal.
        via: ArrowSymbol,
        /// The square of the tile the meeple goes on.
        at: Pos,
        /// The segment's local index on that tile.
        segment: u8,
    },
    /// Chance: the gift card the player received (The Gifts).
    ReceiveGift {
        /// The card; one must be left in the deck (or, the deck empty, the discard pile).
        card: GiftCard,
    },
    /// The player opens a gift before placing the drawn tile (The Gifts).
    OpenGift {
        /// The card opened and its target.
        gift: GiftAction,
    },
    /// Take 2: of the two tiles drawn, `tile` goes back into the bag; the other is placed.
    ReturnTile {
        /// The tile returned: one of the two drawn.
        tile: TileTypeId,
    },
    /// The players end the game before the bag is empty (a game abandoned at the table),
    /// between turns: final scoring now, as at the end of the game; the game is over.
    EndGame,
    /// Instead of a meeple, the abbot from supply on segment `segment` (the monastery or
    /// garden) of the tile at `at`: the tile just placed, or any tile through the activated
    /// portal arrow (`portal`). The Abbot.
    PlaceAbbot {
        /// The square of the tile.
        at: Pos,
        /// The local index of its monastery or garden segment.
        segment: u8,
        /// Through the portal: any tile, not only the one just placed.
        portal: bool,
    },
    /// Instead of a meeple, the abbot taken back from the board and scored at once. The Abbot.
    TakeBackAbbot,
    /// Instead of a meeple, the player's large meeple on segment `segment` (local index) of
    /// the tile just placed. Inns & Cathedrals.
    PlaceLargeMeeple {
        /// The segment's local index.
        segment: u8,
    },
    /// Instead of a meeple, the player's builder on segment `segment` (a road or city where
    /// he has a meeple) of the tile just placed. Traders & Builders.
    PlaceBuilder {
        /// The segment's local index.
        segment: u8,
    },
    /// Instead of a meeple, the player's pig on segment `segment` (a field where he has a
    /// farmer) of the tile just placed. Traders & Builders.
    PlacePig {
        /// The segment's local index.
        segment: u8,
    },
}

/// A legal tile placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Placement {
    /// The empty square the tile goes on.
    pub at: Pos,
    /// How the tile is turned there.
    pub rotation: Rotation,
}

/// A legal meeple target on the tile just placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeepleSpot {
    /// The segment's local index on the tile, for [`Action::PlaceMeeple`].
    pub segment: u8,
    /// The segment named for people, in board orientation.
    pub label: SegmentLabel,
}

/// A meeple on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeple {
    /// The owner's seat, from 0.
    pub player: u8,
    /// Global segment id.
    pub(crate) segment: u32,
    /// Stands beside another meeple through a companion arrow (both of the pair are marked),
    /// so no third meeple may join it that way.
    pub(crate) paired: bool,
    /// The large meeple (Inns & Cathedrals): counts as two meeples in its feature.
    pub(crate) large: bool,
}

/// What an action did. Reused between calls to avoid allocation in the hot path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effects {
    /// The ruling trace: why the action was legal and what followed.
    pub notes: Vec<Note>,
    /// Scores, completed-during-play first, then the final scoring if the game ended.
    /// Always empty from [`Effects::quiet`] in a game without a map (see there).
    pub scores: Vec<Score>,
    /// The figures that went back to their owners' supply, in the order they went.
    pub returned: Vec<ReturnedMeeple>,
    /// Where in `returned` the final scoring's figures begin, when the game ended here.
    final_from: Option<usize>,
    /// Whether scores are explained (`scores` filled). See [`Effects::quiet`].
    explain: bool,
}

impl Default for Effects {
    /// Effects with every score explained.
    fn default() -> Effects {
        Effects {
            notes: Vec::new(),
            scores: Vec::new(),
            returned: Vec::new(),
            final_from: None,
            explain: true,
        }
    }
}

impl Effects {
    /// Effects for callers that keep the game and throw the effects away (rebuilding a game
    /// from its log, simulated players): in a game without a map, features completed during
    /// play and the final scoring award the same points, return the same meeples and write
    /// the same notes, but no [`Score`] explanation is built (its tile list, meeple counts and
    /// formula text were most of the cost of scoring). Gift and arrow scores, and every score
    /// on a map, are still explained.
    pub fn quiet() -> Effects {
        Effects {
            explain: false,
            ..Effects::default()
        }
    }

    /// Whether scores are explained (false only for [`Effects::quiet`]).
    pub fn explains(&self) -> bool {
        self.explain
    }

    /// Empties notes, scores and returned figures for the next action; keeps [`Effects::explains`].
    pub fn clear(&mut self) {
        self.notes.clear();
        self.scores.clear();
        self.returned.clear();
        self.final_from = None;
    }

    /// The figures the final scoring sent home (empty unless the game ended with this
    /// action): where they stood at the end, so a board at final scoring can show who held
    /// what. Figures of features the last move completed went home before it and are not here.
    pub fn returned_at_final_scoring(&self) -> &[ReturnedMeeple] {
        self.final_from.map_or(&[], |i| &self.returned[i..])
    }
}

/// A game in progress (or over). Always in a legal state.
///
/// `Clone::clone_from` reuses the target's buffers (module `copy`): the cheap way to copy a
/// game again and again into the same scratch game.
#[derive(Debug)]
pub struct Game {
    tiles: Arc<TileSet>,
    options: Options,
    players: u8,
    board: Board,
    features: Features,
    meeples: Vec<Meeple>,
    supply: [u8; MAX_PLAYERS],
    score: [u32; MAX_PLAYERS],
    /// Copies of each tile type still in the bag, and in the game at the start.
    bag: Vec<u16>,
    in_game: Vec<u16>,
    bag_total: u32,
    current: u8,
    phase: Phase,
    /// Turns begun (the start tile is turn 0).
    turn: u32,
    /// Features the tile just placed completed, scored after the meeple step.
    pending: Vec<u32>,
    set_aside: Vec<TileTypeId>,
    /// An extra turn follows this one (an arrow's, a town's or the builder's).
    extra_pending: bool,
    /// This turn is an extra turn (so no other extra turn follows it).
    in_extra_turn: bool,
    /// Segments `0..pseudo` stand for the map's large cities (one city segment each, not on
    /// any placed tile), so tiles touching a large city join one city feature; 0 without a
    /// map.
    pseudo: u32,
    // Each expansion's state, in its module; the core reaches it through the module's
    // functions (the layout test names the few hook points).
    river: river::RiverState,
    abbot: abbot::AbbotState,
    inns: inns_cathedrals::InnsState,
    traders: traders_builders::TradersState,
    arrows: anniversary::ArrowsState,
    map: maps::MapsState,
    gifts: gifts::GiftsState,
}

impl Game {
    /// Checks a setup and starts a game waiting for its start tile.
    pub fn new(setup: Setup) -> Result<Game, RuleViolation> {
        let bad = |what: String| Err(RuleViolation::Setup { what });
        if !(1..=MAX_PLAYERS as u8).contains(&setup.players) {
            return bad(format!(
                "{} players; a game has 1 to {MAX_PLAYERS}",
                setup.players
            ));
        }
        if !(1..=20).contains(&setup.options.meeples) {
            return bad(format!(
                "{} meeples per player; expected 1 to 20",
                setup.options.meeples
            ));
        }
        if !matches!(setup.options.two_tile_city, 2 | 4) {
            return bad(format!(
                "two-tile city worth {}; expected 4 (current rules) or 2 (old rules)",
                setup.options.two_tile_city
            ));
        }
        let mut in_game: Vec<u16> = setup.tiles.tiles().iter().map(|t| t.count).collect();
        river::remove_land_start_tiles(&setup, &mut in_game);
        if let Some(bag) = &setup.bag {
            in_game.iter_mut().for_each(|c| *c = 0);
            for (id, &count) in bag {
                let Some(t) = setup.tiles.find(id) else {
                    return bad(format!(
                        "the bag lists tile {id}, which no tile set in the game has"
                    ));
                };
                in_game[t.0 as usize] = count;
            }
        }
        let bag_total: u32 = in_game.iter().map(|&c| u32::from(c)).sum();
        if bag_total == 0 {
            return bad("the bag holds no tile".into());
        }
        if bag_total > crate::tileset::MAX_TILES_IN_SET {
            return bad(format!(
                "the bag holds {bag_total} tiles; at most {} are supported",
                crate::tileset::MAX_TILES_IN_SET
            ));
        }
        anniversary::check_setup(&setup)?;
        abbot::check_setup(&setup)?;
        river::check_setup(&setup)?;
        inns_cathedrals::check_setup(&setup)?;
        traders_builders::check_setup(&setup)?;
        maps::check_setup(&setup, bag_total)?;
        let mut features = Features::with_capacity(bag_total as usize * 4);
        maps::add_large_cities(&mut features, &setup);
        let mut supply = [0; MAX_PLAYERS];
        supply[..setup.players as usize].fill(setup.options.meeples);
        Ok(Game {
            board: Board::new(Pos::default(), setup.map.clone()),
            pseudo: features.len(),
            features,
            meeples: Vec::with_capacity(setup.players as usize * setup.options.meeples as usize),
            supply,
            score: [0; MAX_PLAYERS],
            river: river::RiverState::new(&setup, &in_game),
            bag: in_game.clone(),
            in_game,
            bag_total,
            current: 0,
            phase: Phase::Start,
            turn: 0,
            pending: Vec::new(),
            set_aside: Vec::new(),
            extra_pending: false,
            in_extra_turn: false,
            abbot: abbot::AbbotState::default(),
            inns: inns_cathedrals::InnsState::new(&setup),
            traders: traders_builders::TradersState::default(),
            arrows: anniversary::ArrowsState::default(),
            map: maps::MapsState::new(&setup),
            gifts: gifts::GiftsState::new(&setup),
            tiles: setup.tiles,
            options: setup.options,
            players: setup.players,
        })
    }

    // ---- queries ---------------------------------------------------------------------------

    /// The game's tile set.
    pub fn tiles(&self) -> &TileSet {
        &self.tiles
    }

    /// The game's tile set as the handle a [`Setup`] takes (cloning it copies no tile).
    pub fn tiles_arc(&self) -> &Arc<TileSet> {
        &self.tiles
    }

    /// The rules the game is played with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// What the game waits for now.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the final scoring is done ([`Phase::Over`]).
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The seat whose turn it is.
    pub fn current_player(&self) -> u8 {
        self.current
    }

    /// Turns begun so far (the start tile is turn 0).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Scores in seat order.
    pub fn scores(&self) -> &[u32] {
        &self.score[..self.players as usize]
    }

    /// Meeples in each seat's supply, seat order.
    pub fn supply(&self) -> &[u8] {
        &self.supply[..self.players as usize]
    }

    /// Tiles left in the bag.
    pub fn bag_left(&self) -> u32 {
        self.bag_total
    }

    /// Copies of `tile` left in the bag (none of a tile the set does not hold).
    pub fn bag_count(&self, tile: TileTypeId) -> u16 {
        self.bag.get(tile.0 as usize).copied().unwrap_or(0)
    }

    /// The `k`-th copy left in the bag, counting the tile set's kinds in order (`None` from
    /// [`Game::bag_left`] on). A program that deals chance draws `k` evenly below
    /// `bag_left()` and applies [`Action::Draw`] of this tile: every copy left is then
    /// equally likely.
    pub fn tile_in_bag(&self, k: u32) -> Option<TileTypeId> {
        let mut k = k;
        for (i, &count) in self.bag.iter().enumerate() {
            match k.checked_sub(u32::from(count)) {
                Some(rest) => k = rest,
                None => return Some(TileTypeId(i as u16)),
            }
        }
        None
    }

    /// Copies of `tile` in this game at the start.
    pub fn in_game_count(&self, tile: TileTypeId) -> u16 {
        self.in_game[tile.0 as usize]
    }

    /// Tiles set aside because they fitted nowhere, in order.
    pub fn set_aside(&self) -> &[TileTypeId] {
        &self.set_aside
    }

    /// Placed tiles in the order they were placed.
    pub fn placed(&self) -> &[PlacedTile] {
        &self.board.placed
    }

    /// The tile on square `at`, if one lies there.
    pub fn tile_at(&self, at: Pos) -> Option<&PlacedTile> {
        self.board.tile_at(at)
    }

    /// Empty squares next to placed tiles.
    pub fn open_squares(&self) -> &[Pos] {
        &self.board.frontier
    }

    /// Whether the current turn is an extra turn (20th Anniversary).
    pub fn is_extra_turn(&self) -> bool {
        self.in_extra_turn
    }

    /// Whether the current seat takes an extra turn after this one.
    pub fn extra_turn_pending(&self) -> bool {
        self.extra_pending
    }

    /// Whether the seat may act now.
    pub fn check_player(&self, seat: u8) -> Result<(), RuleViolation> {
        match self.phase {
            Phase::Draw
            | Phase::Place { .. }
            | Phase::ChooseArrow { .. }
            | Phase::Meeple { .. }
            | Phase::ReceiveGift { .. }
            | Phase::DrawSecond { .. }
            | Phase::ReturnTile { .. }
                if seat != self.current =>
            {
                Err(RuleViolation::NotYourTurn {
                    expected: self.current,
                    got: seat,
                })
            }
            _ => Ok(()),
        }
    }

    // ---- actions ---------------------------------------------------------------------------

    /// Performs `action`, recording what it did in `fx` (cleared first). On error nothing
    /// changes.
    pub fn apply(&mut self, action: &Action, fx: &mut Effects) -> Result<(), RuleViolation> {
        fx.clear();
        if self.phase == Phase::Over {
            return Err(RuleViolation::GameOver);
        }
        // A tile id is a plain number a caller can make up: one the game's tile set does not
        // hold is refused here, before any rule looks the tile up.
        if let Action::PlaceStart { tile, .. }
        | Action::Draw { tile }
        | Action::ReturnTile { tile } = *action
        {
            if tile.0 as usize >= self.bag.len() {
                return Err(RuleViolation::UnknownTile {
                    tile: format!("#{}", tile.0),
                });
            }
        }
        let wrong = |action: &'static str, phase: Phase| RuleViolation::WrongPhase {
            action,
            expected: phase.expects(),
        };
        match (*action, self.phase) {
            (Action::PlaceStart { tile, at, rotation }, Phase::Start) if self.map().is_some() => {
                // One start tile per start square in use; seat 0's turn 1 follows the last.
                if self.place_start_on_map(tile, at, rotation, fx)? {
                    self.phase = Phase::Draw;
                    self.turn = 1;
                }
                if self.bag_total == 0 {
                    self.finish_game(fx);
                }
                Ok(())
            }
            (Action::PlaceStart { tile, at, rotation }, Phase::Start) => {
                if self.options.river {
                    self.check_river_start(tile)?;
                }
                self.take_from_bag(tile)?;
                self.board = Board::new(at, None);
                self.put_tile(tile, at, rotation, fx);
                fx.notes.push(Note::StartPlaced { at, rotation });
                if self.options.river {
                    self.river_start(tile, at, rotation);
                }
                self.pending.clear();
                self.phase = Phase::Draw;
                // The start tile was turn 0; seat 0's first turn is turn 1.
                self.turn = 1;
                if self.bag_total == 0 {
                    self.finish_game(fx);
                }
                Ok(())
            }
            (Action::Draw { tile }, Phase::DrawSecond { first }) => {
                if self.options.river {
                    self.check_river_draw(tile)?;
                }
                self.take_from_bag(tile)?;
                fx.notes.push(Note::Drew {
                    left: self.bag_total,
                });
                self.phase = Phase::ReturnTile {
                    first,
                    second: tile,
                };
                Ok(())
            }
            (Action::ReturnTile { tile }, Phase::ReturnTile { first, second }) => {
                self.return_tile(tile, first, second, fx)
            }
            (Action::ReceiveGift { card }, Phase::ReceiveGift { .. }) => {
                self.receive_gift(card, fx)
            }
            (Action::OpenGift { gift }, Phase::Place { .. }) => self.open_gift(gift, fx),
            (Action::Draw { tile }, Phase::Draw) => {
                if self.options.river {
                    self.check_river_draw(tile)?;
                }
                self.take_from_bag(tile)?;
                fx.notes.push(Note::Drew {
                    left: self.bag_total,
                });
                self.phase = Phase::Place { tile };
                Ok(())
            }
            (Action::SetAside, Phase::Place { tile }) => {
                if let Some(p) = self.first_placement(tile) {
                    return Err(RuleViolation::SetAsideButFits {
                        tile: self.tiles.get(tile).id.clone(),
                        at: p.at,
                        rotation: p.rotation,
                    });
                }
                fx.notes.push(Note::FitsNowhere);
                self.set_aside.push(tile);
                self.phase = Phase::Draw;
                if self.bag_total == 0 {
                    self.finish_game(fx);
                }
                Ok(())
            }
            (Action::Place { at, rotation }, Phase::Place { tile }) => {
                self.check_placement(tile, at, rotation)?;
                self.put_tile(tile, at, rotation, fx);
                self.phase = Phase::Meeple { at };
                if self.options.river {
                    self.river_after_placement(tile, at, rotation, fx);
                }
                if self.map().is_some() {
                    self.town_after_placement(tile, at, rotation, fx);
                }
                if self.options.anniversary {
                    self.arrows_after_placement(tile, at, rotation, fx);
                }
                if self.options.traders_builders {
                    self.builder_after_placement(at, fx);
                }
                if self.options.gifts {
                    self.gift_after_placement(at, fx);
                }
                Ok(())
            }
            (Action::ChooseArrow { arrow }, Phase::ChooseArrow { at }) => {
                self.choose_arrow(arrow, at, fx)?;
                self.phase = Phase::Meeple { at };
                Ok(())
            }
            (Action::PlaceArrowMeeple { via, at, segment }, Phase::Meeple { .. }) => {
                self.place_arrow_meeple(via, at, segment, fx)
            }
            (Action::PlaceMeeple { segment }, Phase::Meeple { at }) => {
                let index = self.board.tile_index(at).expect("the tile just placed");
                let placed = self.board.placed[index as usize];
                let (kind, label, global) = self.meeple_target(placed, at, segment)?;
                self.put_on_free_feature(global, kind, at, label, false)?;
                self.supply[self.current as usize] -= 1;
                fx.notes.push(Note::MeepleOnFreeFeature { label });
                self.finish_turn(fx);
                Ok(())
            }
            (
                Action::PlaceAbbot {
                    at,
                    segment,
                    portal,
                },
                Phase::Meeple { .. },
            ) => self.place_abbot(at, segment, portal, fx),
            (Action::TakeBackAbbot, Phase::Meeple { .. }) => self.take_back_abbot(fx),
            (Action::PlaceLargeMeeple { segment }, Phase::Meeple { at }) => {
                self.place_large_meeple(at, segment, fx)
            }
            (Action::PlaceBuilder { segment }, Phase::Meeple { at }) => {
                self.place_special(crate::score::Special::Builder, at, segment, fx)
            }
            (Action::PlacePig { segment }, Phase::Meeple { at }) => {
                self.place_special(crate::score::Special::Pig, at, segment, fx)
            }
            (Action::SkipMeeple, Phase::Meeple { .. }) => {
                fx.notes.push(Note::MeepleSkipped);
                self.finish_turn(fx);
                Ok(())
            }
            (Action::EndGame, Phase::Draw) => {
                self.end_early(fx);
                Ok(())
            }
            (Action::PlaceStart { .. }, phase) => Err(wrong("place the start tile", phase)),
            (Action::Draw { .. }, phase) => Err(wrong("draw a tile", phase)),
            (Action::SetAside, phase) => Err(wrong("set a tile aside", phase)),
            (Action::Place { .. }, phase) => Err(wrong("place a tile", phase)),
            (Action::PlaceMeeple { .. }, phase) => Err(wrong("place a meeple", phase)),
            (Action::SkipMeeple, phase) => Err(wrong("skip the meeple", phase)),
            (Action::ChooseArrow { .. }, phase) => Err(wrong("choose an arrow", phase)),
            (Action::PlaceArrowMeeple { .. }, phase) => {
                Err(wrong("place a meeple through an arrow", phase))
            }
            (Action::ReceiveGift { .. }, phase) => Err(wrong("receive a gift", phase)),
            (Action::OpenGift { .. }, phase) => Err(wrong("open a gift", phase)),
            (Action::ReturnTile { .. }, phase) => Err(wrong("return a Take 2 tile", phase)),
            (Action::EndGame, phase) => Err(wrong("end the game", phase)),
            (Action::PlaceAbbot { .. }, phase) => Err(wrong("place the abbot", phase)),
            (Action::TakeBackAbbot, phase) => Err(wrong("take the abbot back", phase)),
            (Action::PlaceLargeMeeple { .. }, phase) => Err(wrong("place the large meeple", phase)),
            (Action::PlaceBuilder { .. }, phase) => Err(wrong("place the builder", phase)),
            (Action::PlacePig { .. }, phase) => Err(wrong("place the pig", phase)),
        }
    }

    fn take_from_bag(&mut self, tile: TileTypeId) -> Result<(), RuleViolation> {
        let Some(left) = self.bag.get_mut(tile.0 as usize) else {
            return Err(RuleViolation::UnknownTile {
                tile: format!("#{}", tile.0),
            });
        };
        if *left == 0 {
            return Err(RuleViolation::TileNotInBag {
                tile: self.tiles.get(tile).id.clone(),
                holds: self.in_game[tile.0 as usize],
            });
        }
        *left -= 1;
        self.bag_total -= 1;
        if self.options.river {
            self.count_river_tile(tile, false);
        }
        Ok(())
    }

    /// A tile taken from the bag goes back into it (a Take 2 tile the player did not keep).
    fn put_back_in_bag(&mut self, tile: TileTypeId) {
        self.bag[tile.0 as usize] += 1;
        self.bag_total += 1;
        if self.options.river {
            self.count_river_tile(tile, true);
        }
    }

    /// Scores what the turn's tile completed, then passes the turn or ends the game.
    fn finish_turn(&mut self, fx: &mut Effects) {
        let pending = std::mem::take(&mut self.pending);
        for &s in &pending {
            let root = self.features.find(s);
            self.score_feature(root, ScoreTime::Completed, fx);
            if self.options.traders_builders {
                self.take_goods(root, fx);
            }
        }
        self.pending = pending;
        self.pending.clear();
        self.arrows_turn_over();
        self.gifts_turn_over();
        if self.bag_total == 0 {
            self.extra_pending = false;
            self.take_builder_turn();
            self.finish_game(fx);
        } else if self.extra_pending {
            self.extra_pending = false;
            self.in_extra_turn = true;
            self.turn += 1;
            self.phase = Phase::Draw;
            fx.notes.push(if self.take_builder_turn() {
                Note::SecondTurnBegins { seat: self.current }
            } else {
                Note::ExtraTurnBegins { seat: self.current }
            });
        } else {
            self.in_extra_turn = false;
            self.current = (self.current + 1) % self.players;
            self.turn += 1;
            self.phase = Phase::Draw;
            fx.notes.push(Note::NextPlayer { seat: self.current });
        }
    }

    fn finish_game(&mut self, fx: &mut Effects) {
        fx.notes.push(Note::BagEmpty);
        self.final_scoring(fx);
    }

    /// The players end the game with tiles still in the bag: the same final scoring.
    fn end_early(&mut self, fx: &mut Effects) {
        self.extra_pending = false;
        self.take_builder_turn();
        fx.notes.push(Note::EndedEarly {
            left: self.bag_total,
        });
        self.final_scoring(fx);
    }

    /// Final scoring of every feature with meeples (and unopened gifts); the game is over.
    fn final_scoring(&mut self, fx: &mut Effects) {
        fx.final_from = Some(fx.returned.len());
        // The features with figures on them, found in one pass: scoring a feature sends home
        // its own figures only and joins nothing, so no feature joins the list while the
        // kinds are scored in turn (each in segment order, as a scan of every segment per
        // kind did; the count is checked again all the same).
        let held: Vec<u32> = (0..self.features.len())
            .filter(|&s| self.features.is_root(s) && self.features.meeple_total(s) > 0)
            .collect();
        for kind in [
            FeatureKind::City,
            FeatureKind::Road,
            FeatureKind::Monastery,
            FeatureKind::Field,
            FeatureKind::Garden,
        ] {
            if (kind == FeatureKind::Field && !self.options.farmers)
                || (kind == FeatureKind::Garden && !self.options.abbot)
            {
                continue;
            }
            for &s in &held {
                if self.features.kind[s as usize] != kind || self.features.meeple_total(s) == 0 {
                    continue;
                }
                let pig = if kind == FeatureKind::Field && self.options.traders_builders {
                    self.pig_bonus(s)
                } else {
                    None
                };
                self.score_feature(s, ScoreTime::Final, fx);
                if let Some(pig) = pig {
                    self.award_pig_bonus(pig, fx);
                }
            }
        }
        if self.options.traders_builders {
            self.score_goods(fx);
        }
        if self.options.gifts {
            self.score_unopened_gifts(fx);
        }
        self.phase = Phase::Over;
    }
}
