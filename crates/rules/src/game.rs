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
//! city, `ReceiveGift` waits for the card drawn (chance) before the game goes on.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::board::{Board, PlacedTile};
use crate::features::{Features, MAX_PLAYERS};
use crate::geometry::{Pos, Rotation, Side, Terrain};
use crate::map::{MapBoard, RegionKind, Square};
use crate::ruling::{rule, Note, RuleViolation};
use crate::score::{noun, plural, FeatureRef, ReturnedMeeple, Score, ScoreSource, ScoreTime};
use crate::tileset::{Anchor, ArrowSymbol, FeatureKind, SegmentLabel, TileSet, TileTypeId};

pub mod gifts;
pub use gifts::{GiftAction, GiftCard, GIFT_COPIES};

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
        }
    }
}

/// Setup and rule options of a game on a map board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapOptions {
    /// Start squares in use: the start tile goes on the first, a drawn tile on each other.
    pub start_squares: u8,
    /// Town variant 1: covering a town gives an extra turn.
    pub town_extra_turn: bool,
    /// Town variant 2: covering a town costs 2 points.
    pub town_cost: bool,
    /// Town variant 3: a scored road earns 2 per visible town orthogonally next to it.
    pub town_road_bonus: bool,
}

impl Default for MapOptions {
    fn default() -> MapOptions {
        MapOptions {
            start_squares: 2,
            town_extra_turn: false,
            town_cost: false,
            town_road_bonus: false,
        }
    }
}

/// Plain-data description of a game before it starts. Checked by [`Game::new`].
#[derive(Clone, Debug)]
pub struct Setup {
    pub players: u8,
    pub options: Options,
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
    Place { tile: TileTypeId },
    /// Several arrows could be activated by the tile just placed at `at`; the player chooses
    /// one (20th Anniversary). See [`Game::legal_arrow_choices`].
    ChooseArrow { at: Pos },
    /// A meeple may go on the tile just placed (or, after a companion or portal arrow was
    /// activated, elsewhere: see [`Game::legal_arrow_meeples`]).
    Meeple { at: Pos },
    /// The tile just placed at `at` earned a gift (The Gifts): the card drawn from the gift
    /// deck comes next (chance), then the game goes on where it was.
    ReceiveGift { at: Pos },
    /// Take 2 was opened: a second tile is drawn (chance) beside `first`.
    DrawSecond { first: TileTypeId },
    /// Take 2: of the two tiles drawn, the player returns one to the bag and places the other.
    ReturnTile {
        first: TileTypeId,
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
    PlaceStart {
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
    },
    /// Chance: the tile that came out of the bag.
    Draw {
        tile: TileTypeId,
    },
    /// The drawn tile fits nowhere and is removed from the game.
    SetAside,
    Place {
        at: Pos,
        rotation: Rotation,
    },
    /// A meeple on segment `segment` (local index) of the tile just placed.
    PlaceMeeple {
        segment: u8,
    },
    SkipMeeple,
    /// Of several arrows the placement could activate, the one on the tile at `arrow`.
    ChooseArrow {
        arrow: Pos,
    },
    /// Instead of the normal meeple: a meeple from supply on segment `segment` (local index)
    /// of the tile at `at`, through the activated companion or portal arrow `via`.
    PlaceArrowMeeple {
        via: ArrowSymbol,
        at: Pos,
        segment: u8,
    },
    /// Chance: the gift card the player received (The Gifts).
    ReceiveGift {
        card: GiftCard,
    },
    /// The player opens a gift before placing the drawn tile (The Gifts).
    OpenGift {
        gift: GiftAction,
    },
    /// Take 2: of the two tiles drawn, `tile` goes back into the bag; the other is placed.
    ReturnTile {
        tile: TileTypeId,
    },
}

/// An arrow on the board (20th Anniversary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedArrow {
    /// The square of the tile that carries the arrow.
    pub at: Pos,
    pub symbol: ArrowSymbol,
    /// The board side the arrow points out of.
    pub side: Side,
    /// The square it points at (`None` off the edge of the board).
    pub target: Option<Pos>,
    pub state: ArrowState,
}

/// Where an arrow stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowState {
    /// Points at an empty square: activated when a tile fills it.
    Waiting,
    /// Activated (once, for good).
    Activated,
    /// Its square was filled without activating it, or it points off the board: it can never
    /// be activated. [I: each arrow points at one square, and that square can be filled once]
    Spent,
}

/// A legal target for a meeple sent through a companion or portal arrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrowMeepleSpot {
    pub via: ArrowSymbol,
    pub at: Pos,
    pub segment: u8,
    pub label: SegmentLabel,
}

/// A legal tile placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Placement {
    pub at: Pos,
    pub rotation: Rotation,
}

/// A legal meeple target on the tile just placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeepleSpot {
    pub segment: u8,
    pub label: SegmentLabel,
}

/// A meeple on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeple {
    pub player: u8,
    /// Global segment id.
    pub(crate) segment: u32,
    /// Stands beside another meeple through a companion arrow (both of the pair are marked),
    /// so no third meeple may join it that way.
    pub(crate) paired: bool,
}

/// What an action did. Reused between calls to avoid allocation in the hot path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effects {
    /// The ruling trace: why the action was legal and what followed.
    pub notes: Vec<Note>,
    /// Scores, completed-during-play first, then the final scoring if the game ended.
    /// Always empty from [`Effects::quiet`] in a game without a map (see there).
    pub scores: Vec<Score>,
    pub returned: Vec<ReturnedMeeple>,
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

    pub fn clear(&mut self) {
        self.notes.clear();
        self.scores.clear();
        self.returned.clear();
    }
}

/// A game in progress (or over). Always in a legal state.
#[derive(Clone, Debug)]
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
    /// Arrows on the board, in the order their tiles were placed (empty without the
    /// anniversary expansion, so the base game pays nothing for them).
    arrows: Vec<PlacedArrow>,
    /// Indices into `arrows` the player chooses among in [`Phase::ChooseArrow`].
    arrow_choices: Vec<u32>,
    /// The companion or portal action this turn's activated arrow offers at the meeple step.
    arrow_action: Option<ArrowSymbol>,
    /// An extra turn follows this one.
    extra_pending: bool,
    /// This turn is an extra turn (so another extra-turn arrow gives nothing).
    in_extra_turn: bool,
    /// The map board (Carcassonne Maps); `None` in the base game, which then pays one branch
    /// per placement for maps.
    map: Option<Arc<MapBoard>>,
    /// Per large city of the map: connected yet.
    large_connected: Vec<bool>,
    /// Start tiles placed so far (a map game places one per start square in use).
    starts_placed: u8,
    /// Segments `0..pseudo` stand for the map's large cities (one city segment each, not on
    /// any placed tile), so tiles touching a large city join one city feature.
    pseudo: u32,
    /// The Gifts: cards per kind (index [`GiftCard::index`]) in the deck, on the discard
    /// pile and in each seat's hand. The deck's order is chance and lives in the simulator or
    /// the log, never here: the rules know only what is in it.
    gift_deck: [u8; 5],
    gift_discard: [u8; 5],
    hands: [[u8; 5]; MAX_PLAYERS],
    /// A gift was opened this turn (at most one per turn).
    gift_opened: bool,
    /// Where the game goes on after [`Phase::ReceiveGift`].
    gift_resume: Phase,
}

/// `Features::tile` of a large city's segment: it lies on no placed tile.
const LARGE_CITY_TILE: u16 = u16::MAX;

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
        if !setup.options.anniversary {
            if let Some(t) = setup.tiles.tiles().iter().find(|t| t.arrow.is_some()) {
                return bad(format!(
                    "tile {} carries an arrow, but the anniversary expansion is not on",
                    t.id
                ));
            }
        }
        match &setup.map {
            None if setup.options.map != MapOptions::default() => {
                return bad(
                    "start squares and town variants are options of a game on a map; no map is set"
                        .into(),
                );
            }
            Some(map) => {
                let n = setup.options.map.start_squares;
                if n < 2 || usize::from(n) > map.start_squares().len() {
                    return bad(format!(
                        "{n} start squares in use; at least 2, and the map {} has {}",
                        map.name,
                        map.start_squares().len()
                    ));
                }
                if bag_total < u32::from(n) {
                    return bad(format!(
                        "the bag holds {bag_total} tiles, fewer than the {n} start squares in use"
                    ));
                }
            }
            None => {}
        }
        let mut features = Features::with_capacity(bag_total as usize * 4);
        if let Some(map) = &setup.map {
            for (i, city) in map.large_cities().iter().enumerate() {
                features.add(
                    FeatureKind::City,
                    LARGE_CITY_TILE,
                    i as u8,
                    city.open_sides,
                    city.coats_of_arms,
                );
            }
        }
        let mut supply = [0; MAX_PLAYERS];
        supply[..setup.players as usize].fill(setup.options.meeples);
        Ok(Game {
            board: Board::new(Pos::default(), setup.map.clone()),
            pseudo: features.len(),
            large_connected: vec![false; setup.map.as_ref().map_or(0, |m| m.large_cities().len())],
            starts_placed: 0,
            map: setup.map,
            features,
            meeples: Vec::with_capacity(setup.players as usize * setup.options.meeples as usize),
            supply,
            score: [0; MAX_PLAYERS],
            bag: in_game.clone(),
            in_game,
            bag_total,
            current: 0,
            phase: Phase::Start,
            turn: 0,
            pending: Vec::new(),
            set_aside: Vec::new(),
            arrows: Vec::new(),
            arrow_choices: Vec::new(),
            arrow_action: None,
            extra_pending: false,
            in_extra_turn: false,
            gift_deck: if setup.options.gifts {
                [GIFT_COPIES; 5]
            } else {
                [0; 5]
            },
            gift_discard: [0; 5],
            hands: [[0; 5]; MAX_PLAYERS],
            gift_opened: false,
            gift_resume: Phase::Over,
            tiles: setup.tiles,
            options: setup.options,
            players: setup.players,
        })
    }

    // ---- queries ---------------------------------------------------------------------------

    pub fn tiles(&self) -> &TileSet {
        &self.tiles
    }

    pub fn tiles_arc(&self) -> &Arc<TileSet> {
        &self.tiles
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The map board the game is played on, if any.
    pub fn map(&self) -> Option<&MapBoard> {
        self.map.as_deref()
    }

    /// The map board, shared.
    pub fn map_arc(&self) -> Option<&Arc<MapBoard>> {
        self.map.as_ref()
    }

    /// Whether the map's large city number `city` is connected (a tile touches it).
    pub fn large_city_connected(&self, city: usize) -> bool {
        self.large_connected.get(city).copied().unwrap_or(false)
    }

    /// Start tiles placed so far.
    pub fn starts_placed(&self) -> u8 {
        self.starts_placed
    }

    pub fn players(&self) -> u8 {
        self.players
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

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

    /// Copies of `tile` left in the bag.
    pub fn bag_count(&self, tile: TileTypeId) -> u16 {
        self.bag[tile.0 as usize]
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

    pub fn tile_at(&self, at: Pos) -> Option<&PlacedTile> {
        self.board.tile_at(at)
    }

    /// Empty squares next to placed tiles.
    pub fn open_squares(&self) -> &[Pos] {
        &self.board.frontier
    }

    /// Meeples on the board: owner, square and segment.
    pub fn meeples(&self) -> impl Iterator<Item = (u8, Pos, u8, SegmentLabel)> + '_ {
        self.meeples.iter().map(|m| {
            let (at, local, label) = self.segment_place(m.segment);
            (m.player, at, local, label)
        })
    }

    fn segment_place(&self, segment: u32) -> (Pos, u8, SegmentLabel) {
        let placed = &self.board.placed[self.features.tile[segment as usize] as usize];
        let local = self.features.local[segment as usize];
        let label = self
            .tiles
            .get(placed.tile)
            .segment_label(placed.rotation, local);
        (placed.at, local, label)
    }

    fn feature_ref(&self, root: u32) -> FeatureRef {
        let Some(first) = self
            .features
            .member_iter(root)
            .filter(|&s| s >= self.pseudo)
            .min()
        else {
            // A large city no tile touches yet: named by its first printed square.
            let city = &self
                .map
                .as_ref()
                .expect("large cities are on a map")
                .large_cities()[self.features.local[root as usize] as usize];
            return FeatureRef {
                at: city.squares[0],
                label: SegmentLabel {
                    kind: FeatureKind::City,
                    anchor: None,
                },
            };
        };
        let (at, _, label) = self.segment_place(first);
        FeatureRef { at, label }
    }

    /// Arrows on the board (20th Anniversary), in the order their tiles were placed.
    pub fn arrows(&self) -> &[PlacedArrow] {
        &self.arrows
    }

    /// The companion or portal action the arrow activated this turn offers at the meeple
    /// step, if any.
    pub fn arrow_action(&self) -> Option<ArrowSymbol> {
        self.arrow_action
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

    /// The local segment a label names on the tile just placed.
    pub fn resolve_meeple_target(&self, label: &SegmentLabel) -> Result<u8, RuleViolation> {
        let Phase::Meeple { at } = self.phase else {
            return Err(RuleViolation::WrongPhase {
                action: "place a meeple",
                expected: self.phase.expects(),
            });
        };
        let placed = self.board.tile_at(at).expect("the tile just placed");
        let tile = self.tiles.get(placed.tile);
        tile.find_segment(placed.rotation, label)
            .ok_or_else(|| RuleViolation::NoSuchSegment {
                tile: tile.id.clone(),
                at,
                label: *label,
            })
    }

    /// The checks every meeple placement shares, whether on the tile just placed or sent
    /// through an arrow: segment `segment` exists on `placed` (at `at`), a field needs farmers
    /// on, and the current player has a meeple in supply. Gives the segment's feature kind,
    /// its label and its global id.
    fn meeple_target(
        &self,
        placed: PlacedTile,
        at: Pos,
        segment: u8,
    ) -> Result<(FeatureKind, SegmentLabel, u32), RuleViolation> {
        let tile = self.tiles.get(placed.tile);
        let Some(def) = tile.segments.get(segment as usize) else {
            return Err(RuleViolation::NoSuchSegmentIndex {
                tile: tile.id.clone(),
                at,
                segment,
                count: tile.segments.len(),
            });
        };
        let label = tile.segment_label(placed.rotation, segment);
        if def.kind == FeatureKind::Field && !self.options.farmers {
            return Err(RuleViolation::FarmersOff { at, label });
        }
        let player = self.current;
        if self.supply[player as usize] == 0 {
            return Err(RuleViolation::NoMeepleLeft { player });
        }
        Ok((def.kind, label, placed.first_segment + u32::from(segment)))
    }

    /// The local segment a label names on the tile at `at` (any placed tile: for meeples sent
    /// through a companion or portal arrow).
    pub fn resolve_segment_at(
        &self,
        action: ArrowSymbol,
        at: Pos,
        label: &SegmentLabel,
    ) -> Result<u8, RuleViolation> {
        self.segment_named(at, label, || RuleViolation::NoTileAt { action, at })
    }

    /// The local segment `label` names on the tile at `at`; `no_tile` is the refusal when
    /// the square holds no tile (it names the action that looked there).
    pub(crate) fn segment_named(
        &self,
        at: Pos,
        label: &SegmentLabel,
        no_tile: impl FnOnce() -> RuleViolation,
    ) -> Result<u8, RuleViolation> {
        let placed = self.board.tile_at(at).ok_or_else(no_tile)?;
        let tile = self.tiles.get(placed.tile);
        tile.find_segment(placed.rotation, label)
            .ok_or_else(|| RuleViolation::NoSuchSegment {
                tile: tile.id.clone(),
                at,
                label: *label,
            })
    }

    // ---- legal moves -----------------------------------------------------------------------

    /// The arrows the player chooses among in [`Phase::ChooseArrow`], into `out` (empty in
    /// any other phase).
    pub fn legal_arrow_choices(&self, out: &mut Vec<PlacedArrow>) {
        out.clear();
        if let Phase::ChooseArrow { .. } = self.phase {
            out.extend(self.arrow_choices.iter().map(|&i| self.arrows[i as usize]));
        }
    }

    /// Every legal target for a meeple sent through this turn's companion or portal arrow,
    /// into `out` (empty when neither was activated, no meeple is left or the game is not at
    /// the meeple step). Each feature (portal) or meeple (companion) is listed once, by the
    /// segment with the lowest number; any segment of the same feature names it as well.
    pub fn legal_arrow_meeples(&self, out: &mut Vec<ArrowMeepleSpot>) {
        out.clear();
        let (Phase::Meeple { .. }, Some(via)) = (self.phase, self.arrow_action) else {
            return;
        };
        if self.supply[self.current as usize] == 0 {
            return;
        }
        match via {
            ArrowSymbol::Companion => {
                let mut segments: Vec<u32> = self
                    .meeples
                    .iter()
                    .filter(|m| m.player == self.current && !m.paired)
                    .map(|m| m.segment)
                    .collect();
                segments.sort_unstable();
                segments.dedup();
                for s in segments {
                    let (at, segment, label) = self.segment_place(s);
                    out.push(ArrowMeepleSpot {
                        via,
                        at,
                        segment,
                        label,
                    });
                }
            }
            ArrowSymbol::Portal => {
                let f = &self.features;
                let mut seen = vec![false; f.len() as usize];
                for s in self.pseudo..f.len() {
                    let root = f.root(s);
                    if seen[root as usize] {
                        continue;
                    }
                    seen[root as usize] = true;
                    if self.portal_refusal(root, s).is_none() {
                        let (at, segment, label) = self.segment_place(s);
                        out.push(ArrowMeepleSpot {
                            via,
                            at,
                            segment,
                            label,
                        });
                    }
                }
            }
            ArrowSymbol::ExtraTurn => {}
        }
    }

    /// Why a portal may not send a meeple to segment `s` (feature root `root`), if it may not.
    fn portal_refusal(&self, root: u32, s: u32) -> Option<RuleViolation> {
        let f = &self.features;
        let kind = f.kind[root as usize];
        let (at, _, label) = self.segment_place(s);
        if kind == FeatureKind::Field && !self.options.farmers {
            return Some(RuleViolation::FarmersOff { at, label });
        }
        if f.meeple_total(root) > 0 {
            let holder = self
                .meeples
                .iter()
                .find(|m| f.root(m.segment) == root)
                .copied()
                .expect("an occupied feature has a meeple on the board");
            let (owner_at, _, owner_label) = self.segment_place(holder.segment);
            return Some(RuleViolation::PortalOccupied {
                kind,
                at,
                label,
                owner: holder.player,
                owner_at,
                owner_label,
            });
        }
        // Fields are never complete; a feature this turn's tile completed has no open side
        // left and is refused like any other completed one [I].
        if kind != FeatureKind::Field && f.open[root as usize] == 0 {
            return Some(RuleViolation::PortalCompleted { kind, at, label });
        }
        None
    }

    /// Every distinct legal placement of `tile` (symmetric rotations listed once), into `out`.
    pub fn legal_placements(&self, tile: TileTypeId, out: &mut Vec<Placement>) {
        out.clear();
        let t = self.tiles.get(tile);
        let mut patterns = [(Rotation::default(), 0u8); 4];
        let mut n = 0;
        for rotation in Rotation::ALL {
            if t.is_distinct_rotation(rotation) {
                patterns[n] = (rotation, t.pattern(rotation));
                n += 1;
            }
        }
        let board = &self.board;
        if let Some(map) = &self.map {
            // The frontier holds playable squares only; printed neighbours add their edges.
            for (&at, &(required, mask)) in board.frontier.iter().zip(&board.frontier_constraint) {
                let (map_required, map_mask) = map.constraint(at);
                let (required, mask) = (required | map_required, mask | map_mask);
                for &(rotation, pattern) in &patterns[..n] {
                    if pattern & mask == required {
                        out.push(Placement { at, rotation });
                    }
                }
            }
            return;
        }
        for (&at, &(required, mask)) in board.frontier.iter().zip(&board.frontier_constraint) {
            for &(rotation, pattern) in &patterns[..n] {
                if pattern & mask == required {
                    out.push(Placement { at, rotation });
                }
            }
        }
    }

    /// Every legal placement of a start tile `tile` while the game waits for start tiles on a
    /// map (empty otherwise): free start squares, rotations matching what is printed around.
    pub fn legal_start_placements(&self, tile: TileTypeId, out: &mut Vec<Placement>) {
        out.clear();
        let (Some(map), Phase::Start) = (&self.map, self.phase) else {
            return;
        };
        for s in map.start_squares() {
            for rotation in Rotation::ALL {
                if self.tiles.get(tile).is_distinct_rotation(rotation)
                    && self.check_start(tile, s.at, rotation).is_ok()
                {
                    out.push(Placement { at: s.at, rotation });
                }
            }
        }
    }

    /// The first legal placement of `tile`, if any (any rotation).
    pub fn first_placement(&self, tile: TileTypeId) -> Option<Placement> {
        let t = self.tiles.get(tile);
        let board = &self.board;
        board
            .frontier
            .iter()
            .zip(&board.frontier_constraint)
            .find_map(|(&at, &(required, mask))| {
                let (map_required, map_mask) =
                    self.map.as_ref().map_or((0, 0), |m| m.constraint(at));
                let (required, mask) = (required | map_required, mask | map_mask);
                Rotation::ALL
                    .into_iter()
                    .find(|&r| t.pattern(r) & mask == required)
                    .map(|rotation| Placement { at, rotation })
            })
    }

    /// Every legal meeple target on the tile just placed, into `out` (empty when no meeple is
    /// left or the game is not at the meeple step). Skipping is always legal there.
    pub fn legal_meeples(&self, out: &mut Vec<MeepleSpot>) {
        out.clear();
        let Phase::Meeple { at } = self.phase else {
            return;
        };
        if self.supply[self.current as usize] == 0 {
            return;
        }
        let index = self.board.tile_index(at).expect("the tile just placed");
        let placed = self.board.placed[index as usize];
        let tile = self.tiles.get(placed.tile);
        for (local, seg) in tile.segments.iter().enumerate() {
            if seg.kind == FeatureKind::Field && !self.options.farmers {
                continue;
            }
            let root = self.features.root(placed.first_segment + local as u32);
            if self.features.meeple_total(root) == 0 {
                out.push(MeepleSpot {
                    segment: local as u8,
                    label: tile.segment_label(placed.rotation, local as u8),
                });
            }
        }
    }

    /// The feature a segment belongs to, valued as it stands: completed value if complete,
    /// final-scoring value otherwise. For explanations and hovering; changes nothing.
    pub fn appraise(&self, at: Pos, segment: u8) -> Option<Score> {
        let placed = self.board.tile_at(at)?;
        let tile = self.tiles.get(placed.tile);
        if segment as usize >= tile.segments.len() {
            return None;
        }
        let root = self
            .features
            .root(placed.first_segment + u32::from(segment));
        let time = if self.features.kind[root as usize] != FeatureKind::Field
            && self.features.open[root as usize] == 0
        {
            ScoreTime::Completed
        } else {
            ScoreTime::Final
        };
        Some(self.evaluate(root, time))
    }

    /// All squares and segments of the feature a segment belongs to (for highlighting).
    pub fn feature_segments(&self, at: Pos, segment: u8) -> Vec<(Pos, SegmentLabel)> {
        let Some(placed) = self.board.tile_at(at) else {
            return Vec::new();
        };
        if segment as usize >= self.tiles.get(placed.tile).segments.len() {
            return Vec::new();
        }
        let root = self
            .features
            .root(placed.first_segment + u32::from(segment));
        let mut members = self.features.members(root);
        members.retain(|&s| s >= self.pseudo);
        members.sort_unstable();
        members
            .into_iter()
            .map(|s| {
                let (at, _, label) = self.segment_place(s);
                (at, label)
            })
            .collect()
    }

    // ---- actions ---------------------------------------------------------------------------

    /// Performs `action`, recording what it did in `fx` (cleared first). On error nothing
    /// changes.
    pub fn apply(&mut self, action: &Action, fx: &mut Effects) -> Result<(), RuleViolation> {
        fx.clear();
        if self.phase == Phase::Over {
            return Err(RuleViolation::GameOver);
        }
        let wrong = |action: &'static str, phase: Phase| RuleViolation::WrongPhase {
            action,
            expected: phase.expects(),
        };
        match (*action, self.phase) {
            (Action::PlaceStart { tile, at, rotation }, Phase::Start) if self.map.is_some() => {
                self.check_start(tile, at, rotation)?;
                self.take_from_bag(tile)?;
                if self.starts_placed == 0 {
                    self.board = Board::new(at, self.map.clone());
                }
                self.put_tile(tile, at, rotation, fx);
                fx.notes.push(Note::StartPlaced { at, rotation });
                let map = self.map.as_ref().expect("checked");
                if let Some(s) = map.start_squares().iter().find(|s| s.at == at) {
                    fx.notes.push(Note::StartSquare { name: s.name });
                }
                self.pending.clear();
                self.starts_placed += 1;
                if self.starts_placed == self.options.map.start_squares {
                    self.phase = Phase::Draw;
                    self.turn = 1;
                }
                if self.bag_total == 0 {
                    self.finish_game(fx);
                }
                Ok(())
            }
            (Action::PlaceStart { tile, at, rotation }, Phase::Start) => {
                self.take_from_bag(tile)?;
                self.board = Board::new(at, None);
                self.put_tile(tile, at, rotation, fx);
                fx.notes.push(Note::StartPlaced { at, rotation });
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
                if self.map.is_some() {
                    self.town_after_placement(tile, at, rotation, fx);
                }
                if self.options.anniversary {
                    self.arrows_after_placement(tile, at, rotation, fx);
                }
                if self.options.gifts {
                    self.gift_after_placement(at, fx);
                }
                Ok(())
            }
            (Action::ChooseArrow { arrow }, Phase::ChooseArrow { at }) => {
                let Some(&chosen) = self
                    .arrow_choices
                    .iter()
                    .find(|&&i| self.arrows[i as usize].at == arrow)
                else {
                    let candidates: Vec<String> = self
                        .arrow_choices
                        .iter()
                        .map(|&i| {
                            let a = self.arrows[i as usize];
                            format!("the {} arrow of the tile at {}", a.symbol, a.at)
                        })
                        .collect();
                    return Err(RuleViolation::NotAnArrowChoice {
                        at: arrow,
                        candidates: candidates.join(", "),
                    });
                };
                let a = self.arrows[chosen as usize];
                fx.notes.push(Note::ArrowChosen {
                    symbol: a.symbol,
                    at: a.at,
                });
                self.activate_arrow(chosen, at, fx);
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
                let player = self.current;
                let root = self.features.find(global);
                if self.features.meeple_total(root) > 0 {
                    let holder = self
                        .meeples
                        .iter()
                        .find(|m| self.features.root(m.segment) == root)
                        .copied()
                        .expect("an occupied feature has a meeple on the board");
                    let (owner_at, _, owner_label) = self.segment_place(holder.segment);
                    return Err(RuleViolation::FeatureOccupied {
                        kind,
                        at,
                        label,
                        owner: holder.player,
                        owner_at,
                        owner_label,
                    });
                }
                self.meeples.push(Meeple {
                    player,
                    segment: global,
                    paired: false,
                });
                self.features.meeples[root as usize][player as usize] += 1;
                self.supply[player as usize] -= 1;
                fx.notes.push(Note::MeepleOnFreeFeature { label });
                self.finish_turn(fx);
                Ok(())
            }
            (Action::SkipMeeple, Phase::Meeple { .. }) => {
                fx.notes.push(Note::MeepleSkipped);
                self.finish_turn(fx);
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
        }
    }

    /// The arrows a placement concerns (20th Anniversary): the new tile's own arrow (2 points
    /// if it points at no tile, a candidate if it points at a placed tile) and the waiting
    /// arrows of earlier tiles that point at this square (candidates). One candidate is
    /// activated at once; with several the player chooses ([`Phase::ChooseArrow`]).
    fn arrows_after_placement(
        &mut self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
        fx: &mut Effects,
    ) {
        self.arrow_choices.clear();
        for (i, a) in self.arrows.iter().enumerate() {
            if a.state == ArrowState::Waiting && a.target == Some(at) {
                self.arrow_choices.push(i as u32);
            }
        }
        let tiles = Arc::clone(&self.tiles);
        let t = tiles.get(tile);
        if let Some(arrow) = t.arrow(rotation) {
            // On a map, a square that can hold no tile (outside, large city) is no square [I].
            let target = at
                .step(arrow.side)
                .filter(|&p| self.map.as_ref().is_none_or(|m| m.is_playable(p)));
            let occupied = target.is_some_and(|p| self.board.tile_index(p).is_some());
            let index = self.arrows.len() as u32;
            self.arrows.push(PlacedArrow {
                at,
                symbol: arrow.symbol,
                side: arrow.side,
                target,
                // Off the board its square can never be filled [I].
                state: if target.is_none() {
                    ArrowState::Spent
                } else {
                    ArrowState::Waiting
                },
            });
            if occupied {
                self.arrow_choices.push(index);
            } else {
                fx.notes.push(Note::ArrowNoTile {
                    symbol: arrow.symbol,
                    side: arrow.side,
                    off_board: target.is_none(),
                });
                let player = self.current;
                self.score[player as usize] += 2;
                let label = side_label(t, rotation, arrow.side);
                fx.scores.push(Score {
                    kind: label.kind,
                    time: ScoreTime::Completed,
                    feature: FeatureRef { at, label },
                    tiles: vec![at],
                    coats_of_arms: 0,
                    cities: Vec::new(),
                    meeples: Vec::new(),
                    winners: vec![player],
                    points: 2,
                    formula: if target.is_none() && self.map.is_some() {
                        "arrow points off the map, at no square: +2".into()
                    } else if target.is_none() {
                        "arrow points off the board, at no tile: +2".into()
                    } else {
                        "arrow points at no tile: +2".into()
                    },
                    rule: rule::ARROW_NO_TILE,
                    source: ScoreSource::Arrow {
                        symbol: arrow.symbol,
                        side: arrow.side,
                    },
                });
            }
        }
        match self.arrow_choices.len() {
            0 => {}
            1 => {
                let only = self.arrow_choices[0];
                self.activate_arrow(only, at, fx);
            }
            n => {
                fx.notes.push(Note::ArrowsToChoose { count: n as u8 });
                self.phase = Phase::ChooseArrow { at };
            }
        }
    }

    /// Activates arrow `index` (one of this turn's candidates, the tile just placed being at
    /// `placed`); every other candidate is spent, since the squares they point at are filled.
    fn activate_arrow(&mut self, index: u32, placed: Pos, fx: &mut Effects) {
        let a = self.arrows[index as usize];
        self.arrows[index as usize].state = ArrowState::Activated;
        fx.notes.push(Note::ArrowActivated {
            symbol: a.symbol,
            at: a.at,
            side: a.side,
            filled: a.at != placed,
        });
        for &i in &self.arrow_choices {
            if i != index {
                let other = &mut self.arrows[i as usize];
                other.state = ArrowState::Spent;
                fx.notes.push(Note::ArrowSpent {
                    symbol: other.symbol,
                    at: other.at,
                });
            }
        }
        self.arrow_choices.clear();
        match a.symbol {
            ArrowSymbol::Companion | ArrowSymbol::Portal => self.arrow_action = Some(a.symbol),
            ArrowSymbol::ExtraTurn if self.in_extra_turn => fx.notes.push(Note::ExtraTurnDenied),
            ArrowSymbol::ExtraTurn => {
                self.extra_pending = true;
                fx.notes.push(Note::ExtraTurnGranted);
            }
        }
    }

    /// A meeple from supply through this turn's companion or portal arrow.
    fn place_arrow_meeple(
        &mut self,
        via: ArrowSymbol,
        at: Pos,
        segment: u8,
        fx: &mut Effects,
    ) -> Result<(), RuleViolation> {
        if self.arrow_action != Some(via) || via == ArrowSymbol::ExtraTurn {
            return Err(RuleViolation::ArrowActionNotActivated {
                action: via,
                activated: self.activated_symbol(),
            });
        }
        let index = self
            .board
            .tile_index(at)
            .ok_or(RuleViolation::NoTileAt { action: via, at })?;
        let placed = self.board.placed[index as usize];
        let (_, label, global) = self.meeple_target(placed, at, segment)?;
        let player = self.current;
        let root = self.features.find(global);
        match via {
            ArrowSymbol::Companion => {
                let own = |paired: bool| {
                    self.meeples.iter().position(|m| {
                        m.player == player && m.segment == global && m.paired == paired
                    })
                };
                let Some(beside) = own(false) else {
                    return Err(if own(true).is_some() {
                        RuleViolation::CompanionLimit { player, at, label }
                    } else {
                        RuleViolation::CompanionNoOwnMeeple { player, at, label }
                    });
                };
                self.meeples[beside].paired = true;
                self.meeples.push(Meeple {
                    player,
                    segment: global,
                    paired: true,
                });
                fx.notes.push(Note::CompanionPlaced { at, label });
            }
            _ => {
                if let Some(refusal) = self.portal_refusal(root, global) {
                    return Err(refusal);
                }
                self.meeples.push(Meeple {
                    player,
                    segment: global,
                    paired: false,
                });
                fx.notes.push(Note::PortalPlaced { at, label });
            }
        }
        self.features.meeples[root as usize][player as usize] += 1;
        self.supply[player as usize] -= 1;
        self.finish_turn(fx);
        Ok(())
    }

    /// The symbol of the arrow activated this turn, for messages.
    fn activated_symbol(&self) -> Option<ArrowSymbol> {
        if self.arrow_action.is_some() {
            return self.arrow_action;
        }
        let Phase::Meeple { at } = self.phase else {
            return None;
        };
        self.arrows
            .iter()
            .find(|a| a.state == ArrowState::Activated && (a.at == at || a.target == Some(at)))
            .map(|a| a.symbol)
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
        Ok(())
    }

    /// Checks a placement without changing anything.
    pub fn check_placement(
        &self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(), RuleViolation> {
        if let Some(map) = &self.map {
            match map.square(at) {
                Square::Playable => {}
                Square::LargeCity(i) => {
                    return Err(RuleViolation::OnLargeCity {
                        at,
                        city: map.large_cities()[i as usize].name,
                    })
                }
                Square::Outside(_) => return Err(RuleViolation::OffMap { at }),
            }
        }
        if let Some(other) = self.board.tile_at(at) {
            return Err(RuleViolation::SquareTaken {
                at,
                tile: self.tiles.get(other.tile).id.clone(),
            });
        }
        if !self.board.is_frontier(at) {
            return Err(RuleViolation::NotAdjacent { at });
        }
        self.check_edges(tile, at, rotation)
    }

    /// Checks a start tile on a map: a free start square, edges matching what is around.
    fn check_start(
        &self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(), RuleViolation> {
        let map = self.map.as_ref().expect("a map game");
        if !map.start_squares().iter().any(|s| s.at == at) || self.board_has_tile(at) {
            let free: Vec<String> = map
                .start_squares()
                .iter()
                .filter(|s| !self.board_has_tile(s.at))
                .map(|s| format!("{} {}", s.name, s.at))
                .collect();
            return Err(RuleViolation::NotAStartSquare {
                at,
                squares: free.join(", "),
            });
        }
        self.check_edges(tile, at, rotation)
    }

    /// Whether a tile lies on `at` (before the first start tile the board is not yet set up).
    fn board_has_tile(&self, at: Pos) -> bool {
        self.starts_placed > 0 && self.board.tile_at(at).is_some()
    }

    /// Edges of a tile against its placed neighbours and, on a map, against printed large
    /// cities and prints abroad.
    fn check_edges(
        &self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(), RuleViolation> {
        let t = self.tiles.get(tile);
        if let Some(map) = &self.map {
            for side in Side::ALL {
                let ours = t.edge(rotation, side);
                let Some(n) = at.step(side) else { continue };
                if let Some((_, city)) = map.large_city_at(n) {
                    if ours != Terrain::City {
                        return Err(RuleViolation::LargeCityEdgeMismatch {
                            tile: t.id.clone(),
                            at,
                            rotation,
                            side,
                            ours: ours.word(),
                            city: city.name,
                        });
                    }
                } else if let Some(b) = map.border(at, side) {
                    if let Some(p) = b.print.filter(|p| p.terrain != ours) {
                        return Err(RuleViolation::BorderPrintMismatch {
                            tile: t.id.clone(),
                            at,
                            rotation,
                            side,
                            ours: ours.word(),
                            print: p.terrain.word(),
                            region: b.region.name,
                        });
                    }
                }
            }
        }
        for side in Side::ALL {
            let Some(n) = at.step(side).and_then(|n| self.board.tile_at(n)) else {
                continue;
            };
            let ours = t.edge(rotation, side);
            let theirs = self.tiles.get(n.tile).edge(n.rotation, side.opposite());
            if ours != theirs {
                return Err(RuleViolation::EdgeMismatch {
                    tile: t.id.clone(),
                    at,
                    rotation,
                    side,
                    ours: ours.word(),
                    neighbour: n.at,
                    theirs: theirs.word(),
                    facing: side.opposite(),
                });
            }
        }
        Ok(())
    }

    /// Puts a checked tile on the board: segments, unions across edges, monastery
    /// neighbours, and the features it completes (to be scored after the meeple step).
    fn put_tile(&mut self, tile: TileTypeId, at: Pos, rotation: Rotation, fx: &mut Effects) {
        // Borrows only the `tiles` field (the rest of `self` is touched field by field below),
        // so no reference count changes per placement.
        let tiles: &TileSet = &self.tiles;
        let t = tiles.get(tile);
        let first = self.features.len();
        let index = self.board.put(PlacedTile {
            tile,
            at,
            rotation,
            pattern: t.pattern(rotation),
            first_segment: first,
        });
        // The tiles around the new one, looked up once: no tile lands on the ring during this
        // placement, so the monastery update below reuses them.
        let mut around: [(Pos, u16); 8] = [(at, 0); 8];
        let mut n_around = 0;
        for p in at.ring() {
            if let Some(ni) = self.board.tile_index(p) {
                around[n_around] = (p, ni);
                n_around += 1;
            }
        }
        let neighbours_present = n_around as u16;
        // On a map only squares that exist count around a monastery; large-city squares are
        // printed, so filled from the start.
        let ring_open = match &self.map {
            None => 8 - neighbours_present,
            Some(map) => at
                .ring()
                .filter(|&p| {
                    map.monastery_neighbour(p) == Some(false) && self.board.tile_index(p).is_none()
                })
                .count() as u16,
        };
        for (local, seg) in t.segments.iter().enumerate() {
            let open = match seg.kind {
                FeatureKind::City | FeatureKind::Road => seg.sides.count_ones() as u16,
                FeatureKind::Monastery => ring_open,
                FeatureKind::Field => 0,
            };
            self.features.add(
                seg.kind,
                index,
                local as u8,
                open,
                u16::from(seg.coats_of_arms),
            );
        }

        // Pairs of segments to join across matching edges, and the neighbours' features as
        // they were before this tile (captured before any union, so a loop is seen as one).
        let mut pairs: [(u32, u32); 12] = [(0, 0); 12];
        let mut n_pairs = 0;
        let mut before: [(u32, FeatureKind, bool); 12] = [(0, FeatureKind::Field, false); 12];
        let mut n_before = 0;
        if let Some(map) = self.map.clone() {
            for side in Side::ALL {
                let Some(npos) = at.step(side) else { continue };
                let segment = t.segment_at_side(rotation, side);
                if let Some((c, city)) = map.large_city_at(npos) {
                    fx.notes.push(Note::LargeCityEdge {
                        side,
                        city: city.name,
                    });
                    let a = segment.expect("checked: the edge facing a large city is city");
                    let theirs = u32::from(c);
                    let root = self.features.find(theirs);
                    if !before[..n_before].iter().any(|e| e.0 == root) {
                        before[n_before] = (
                            root,
                            FeatureKind::City,
                            self.features.meeple_total(root) > 0,
                        );
                        n_before += 1;
                    }
                    pairs[n_pairs] = (first + u32::from(a), theirs);
                    n_pairs += 1;
                    if !self.large_connected[c as usize] {
                        self.large_connected[c as usize] = true;
                        fx.notes.push(Note::LargeCityConnected { city: city.name });
                        for &sq in &city.squares {
                            for s in Side::ALL {
                                if let Some(p) = sq.step(s).filter(|&p| map.is_playable(p)) {
                                    if p != at {
                                        self.board.open_square(p);
                                    }
                                }
                            }
                        }
                    }
                } else if let Some(b) = map.border(at, side) {
                    // Fields meet any border without consequence: only roads and cities are
                    // worth a line in the ruling trace.
                    if segment.is_none() {
                        continue;
                    }
                    fx.notes.push(Note::Border {
                        side,
                        terrain: t.edge(rotation, side),
                        region: b.region.name,
                        sea: b.region.kind == RegionKind::Sea,
                        print: b.print,
                    });
                    // The side faces no square a tile could ever fill: it is closed, and a
                    // printed segment brings its coats of arms (its length counts at scoring).
                    if let Some(a) = segment {
                        let s = (first + u32::from(a)) as usize;
                        self.features.open[s] = self.features.open[s].saturating_sub(1);
                        if let Some(p) = b.print {
                            self.features.coats_of_arms[s] += p.coats_of_arms;
                        }
                    }
                }
            }
        }
        for side in Side::ALL {
            let Some(npos) = at.step(side) else { continue };
            let Some(ni) = self.board.tile_index(npos) else {
                continue;
            };
            let n = self.board.placed[ni as usize];
            let nt = tiles.get(n.tile);
            fx.notes.push(Note::EdgeMatched {
                side,
                terrain: t.edge(rotation, side),
                neighbour: npos,
            });
            let road_or_city = t
                .segment_at_side(rotation, side)
                .zip(nt.segment_at_side(n.rotation, side.opposite()));
            let fields = side.ports().map(|port| {
                t.segment_at_port(rotation, port)
                    .zip(nt.segment_at_port(n.rotation, port.facing()))
            });
            for (a, b) in std::iter::once(road_or_city).chain(fields).flatten() {
                let theirs = n.first_segment + u32::from(b);
                let root = self.features.find(theirs);
                if !before[..n_before].iter().any(|e| e.0 == root) {
                    before[n_before] = (
                        root,
                        self.features.kind[root as usize],
                        self.features.meeple_total(root) > 0,
                    );
                    n_before += 1;
                }
                pairs[n_pairs] = (first + u32::from(a), theirs);
                n_pairs += 1;
            }
        }
        for &(a, b) in &pairs[..n_pairs] {
            let (root, _) = self.features.union(a, b);
            if matches!(
                self.features.kind[root as usize],
                FeatureKind::City | FeatureKind::Road
            ) {
                // Two open sides (ours and the neighbour's) closed against each other.
                let open = &mut self.features.open[root as usize];
                *open = open.saturating_sub(2);
            }
        }
        // A feature of the new tile that absorbed two or more neighbouring features joined them
        // (impossible with fewer than two neighbouring features, the common case).
        let kinds: &[FeatureKind] = if n_before >= 2 {
            &[FeatureKind::City, FeatureKind::Road, FeatureKind::Field]
        } else {
            &[]
        };
        for &kind in kinds {
            for local in 0..t.segments.len() as u32 {
                if t.segments[local as usize].kind != kind {
                    continue;
                }
                let root = self.features.find(first + local);
                let mut count = 0u8;
                let mut occupied = 0u8;
                for e in &before[..n_before] {
                    if e.1 == kind && self.features.find(e.0) == root {
                        count += 1;
                        occupied += u8::from(e.2);
                    }
                }
                // Each group is reported once: by its lowest local segment.
                let lowest = (0..local).all(|l| {
                    t.segments[l as usize].kind != kind || self.features.find(first + l) != root
                });
                if count >= 2 && lowest {
                    fx.notes.push(Note::Joined {
                        kind,
                        count,
                        occupied,
                    });
                }
            }
        }

        // Monasteries around (and on) the new tile.
        for &(p, ni) in &around[..n_around] {
            let n = self.board.placed[ni as usize];
            if let Some(m) = tiles.get(n.tile).monastery_segment() {
                let s = n.first_segment + u32::from(m);
                let open = &mut self.features.open[s as usize];
                *open = open.saturating_sub(1);
                if *open == 0 {
                    self.pending.push(s);
                    fx.notes.push(Note::Completed {
                        kind: FeatureKind::Monastery,
                        at: p,
                    });
                }
            }
        }
        if let Some(m) = t.monastery_segment() {
            let s = first + u32::from(m);
            if self.features.open[s as usize] == 0 {
                self.pending.push(s);
                fx.notes.push(Note::Completed {
                    kind: FeatureKind::Monastery,
                    at,
                });
            }
        }
        for local in 0..t.segments.len() as u32 {
            let kind = t.segments[local as usize].kind;
            if !matches!(kind, FeatureKind::City | FeatureKind::Road) {
                continue;
            }
            let root = self.features.find(first + local);
            if self.features.open[root as usize] == 0 && !self.pending.contains(&root) {
                self.pending.push(root);
                fx.notes.push(Note::Completed { kind, at });
            }
        }
    }

    /// Scores what the turn's tile completed, then passes the turn or ends the game.
    fn finish_turn(&mut self, fx: &mut Effects) {
        let pending = std::mem::take(&mut self.pending);
        for &s in &pending {
            let root = self.features.find(s);
            self.score_feature(root, ScoreTime::Completed, fx);
        }
        self.pending = pending;
        self.pending.clear();
        self.arrow_action = None;
        self.gift_opened = false;
        if self.bag_total == 0 {
            self.extra_pending = false;
            self.finish_game(fx);
        } else if self.extra_pending {
            self.extra_pending = false;
            self.in_extra_turn = true;
            self.turn += 1;
            self.phase = Phase::Draw;
            fx.notes.push(Note::ExtraTurnBegins { seat: self.current });
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
        for kind in [
            FeatureKind::City,
            FeatureKind::Road,
            FeatureKind::Monastery,
            FeatureKind::Field,
        ] {
            if kind == FeatureKind::Field && !self.options.farmers {
                continue;
            }
            for s in 0..self.features.len() {
                if self.features.kind[s as usize] != kind
                    || self.features.root(s) != s
                    || self.features.meeple_total(s) == 0
                {
                    continue;
                }
                self.score_feature(s, ScoreTime::Final, fx);
            }
        }
        if self.options.gifts {
            self.score_unopened_gifts(fx);
        }
        self.phase = Phase::Over;
    }

    /// A tile just placed on a town (town variants 1 and 2).
    fn town_after_placement(
        &mut self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
        fx: &mut Effects,
    ) {
        let Some(town) = self.map.as_ref().and_then(|m| m.town_at(at)) else {
            return;
        };
        fx.notes.push(Note::TownCovered { name: town });
        let player = self.current;
        if self.options.map.town_extra_turn {
            // At most one extra turn per turn, and none during an extra turn [I].
            if self.in_extra_turn {
                fx.notes.push(Note::TownExtraTurnDenied);
            } else {
                self.extra_pending = true;
                fx.notes.push(Note::TownExtraTurn);
            }
        }
        if self.options.map.town_cost {
            let before = self.score[player as usize];
            // A score never goes below zero [I].
            let cost = before.min(2);
            self.score[player as usize] = before - cost;
            fx.notes.push(Note::TownCost { seat: player });
            let t = self.tiles.get(tile);
            let label = t.segment_label(rotation, 0);
            fx.scores.push(Score {
                kind: label.kind,
                time: ScoreTime::Completed,
                feature: FeatureRef { at, label },
                tiles: vec![at],
                coats_of_arms: 0,
                cities: Vec::new(),
                meeples: Vec::new(),
                winners: vec![player],
                points: cost,
                formula: if cost == 2 {
                    "covering a town costs 2 points".into()
                } else {
                    format!("covering a town costs 2 points; the score had only {before}")
                },
                rule: rule::MAP_TOWN_COST,
                source: ScoreSource::TownCost { town },
            });
        }
    }

    /// Scores the feature `root` by the normal rules: explained (`evaluate`, then `award`), or
    /// with `Effects::quiet` and no map, by `quiet_points` alone.
    fn score_feature(&mut self, root: u32, time: ScoreTime, fx: &mut Effects) {
        if !fx.explain && self.map.is_none() {
            if let Some(points) = self.quiet_points(root, time) {
                debug_assert_eq!(points, self.evaluate(root, time).points);
                let counts = self.features.meeples[root as usize];
                let most = counts.iter().copied().max().unwrap_or(0);
                if most > 0 {
                    for p in 0..self.players {
                        if counts[p as usize] == most {
                            self.score[p as usize] += points;
                        }
                    }
                }
                self.return_meeples(root, fx);
                return;
            }
        }
        let score = self.evaluate(root, time);
        self.award(root, score, fx);
    }

    /// The points `evaluate` gives the feature `root` in a game without a map, computed
    /// without building the explanation; `None` (then `evaluate` is used) past the limits of
    /// its fixed-size sets.
    fn quiet_points(&self, root: u32, time: ScoreTime) -> Option<u32> {
        let f = &self.features;
        // Distinct squares of the feature, as a bit set of placed-tile indices.
        let mut seen = [0u64; 4];
        if self.board.placed.len() > 64 * seen.len() {
            return None;
        }
        let mut squares = 0u32;
        let mut count_squares = |seen: &mut [u64; 4]| {
            for s in f.member_iter(root) {
                let t = f.tile[s as usize] as usize;
                let bit = 1u64 << (t % 64);
                if seen[t / 64] & bit == 0 {
                    seen[t / 64] |= bit;
                    squares += 1;
                }
            }
            squares
        };
        let coats_of_arms = u32::from(f.coats_of_arms[root as usize]);
        Some(match f.kind[root as usize] {
            FeatureKind::Monastery => match time {
                ScoreTime::Completed => 9,
                ScoreTime::Final => {
                    let at = self.board.placed[f.tile[root as usize] as usize].at;
                    1 + at
                        .ring()
                        .filter(|&p| self.board.tile_index(p).is_some())
                        .count() as u32
                }
            },
            FeatureKind::Road => count_squares(&mut seen),
            FeatureKind::City => {
                let n = count_squares(&mut seen);
                match time {
                    ScoreTime::Completed if n == 2 && self.options.two_tile_city == 2 => 2,
                    ScoreTime::Completed => 2 * n + 2 * coats_of_arms,
                    ScoreTime::Final => n + coats_of_arms,
                }
            }
            FeatureKind::Field => {
                // Distinct completed cities touching the field.
                let mut roots = [0u32; 32];
                let mut n = 0;
                for s in f.member_iter(root) {
                    let placed = &self.board.placed[f.tile[s as usize] as usize];
                    let def = &self.tiles.get(placed.tile).segments[f.local[s as usize] as usize];
                    let mut touches = def.touches;
                    while touches != 0 {
                        let i = touches.trailing_zeros();
                        touches &= touches - 1;
                        let city = f.root(placed.first_segment + i);
                        if f.open[city as usize] == 0 && !roots[..n].contains(&city) {
                            if n == roots.len() {
                                return None;
                            }
                            roots[n] = city;
                            n += 1;
                        }
                    }
                }
                3 * n as u32
            }
        })
    }

    fn award(&mut self, root: u32, score: Score, fx: &mut Effects) {
        for &w in &score.winners {
            self.score[w as usize] += score.points;
        }
        fx.scores.push(score);
        self.return_meeples(root, fx);
    }

    /// Sends the meeples on the feature `root` back to their owners.
    fn return_meeples(&mut self, root: u32, fx: &mut Effects) {
        let mut i = 0;
        while i < self.meeples.len() {
            let m = self.meeples[i];
            if self.features.root(m.segment) == root {
                let (at, _, label) = self.segment_place(m.segment);
                fx.returned.push(ReturnedMeeple {
                    player: m.player,
                    at,
                    label,
                });
                self.supply[m.player as usize] += 1;
                self.meeples.remove(i);
            } else {
                i += 1;
            }
        }
        self.features.meeples[root as usize] = [0; MAX_PLAYERS];
    }

    /// Values a feature (given its root) without changing anything.
    fn evaluate(&self, root: u32, time: ScoreTime) -> Score {
        let f = &self.features;
        let kind = f.kind[root as usize];
        let members = f.members(root);
        // Room for a monastery's ring too, so the extends below never reallocate.
        let mut tiles: Vec<Pos> = Vec::with_capacity(members.len() + 8);
        tiles.extend(
            members
                .iter()
                .filter(|&&s| s >= self.pseudo)
                .map(|&s| self.board.placed[f.tile[s as usize] as usize].at),
        );
        let printed = self.printed_parts(&members);
        let coats_of_arms = u32::from(f.coats_of_arms[root as usize]);
        let mut cities = Vec::new();
        let counts = f.meeples[root as usize];
        let meeples: Vec<(u8, u8)> = (0..self.players)
            .filter(|&p| counts[p as usize] > 0)
            .map(|p| (p, counts[p as usize]))
            .collect();
        let most = counts.iter().copied().max().unwrap_or(0);
        let winners: Vec<u8> = if most == 0 {
            Vec::new()
        } else {
            (0..self.players)
                .filter(|&p| counts[p as usize] == most)
                .collect()
        };

        let (points, formula, rule) = match kind {
            FeatureKind::Monastery if self.map.is_some() => {
                let map = self.map.as_ref().expect("matched");
                let at = tiles[0];
                let existing = at
                    .ring()
                    .filter(|&p| map.monastery_neighbour(p).is_some())
                    .count() as u32;
                let large = at
                    .ring()
                    .filter(|&p| map.monastery_neighbour(p) == Some(true))
                    .count() as u32;
                tiles.extend(at.ring().filter(|&p| {
                    self.board.tile_index(p).is_some() || map.monastery_neighbour(p) == Some(true)
                }));
                let neighbours = (tiles.len() - 1) as u32;
                let printed = if large > 0 {
                    format!(" ({large} of them printed large-city squares)")
                } else {
                    String::new()
                };
                let rule = if existing < 8 || large > 0 {
                    rule::MAP_SCORE_MONASTERY
                } else if time == ScoreTime::Completed {
                    rule::SCORE_MONASTERY_COMPLETED
                } else {
                    rule::SCORE_MONASTERY_FINAL
                };
                let of = if existing < 8 {
                    format!(" (of {existing} on the map)")
                } else {
                    String::new()
                };
                (
                    1 + neighbours,
                    format!(
                        "1 for the monastery + {}{of}{printed} = {}",
                        plural(neighbours, "surrounding square", "surrounding squares"),
                        1 + neighbours
                    ),
                    rule,
                )
            }
            FeatureKind::Monastery => {
                let at = tiles[0];
                tiles.extend(at.ring().filter(|&p| self.board.tile_index(p).is_some()));
                let neighbours = (tiles.len() - 1) as u32;
                match time {
                    ScoreTime::Completed => (
                        9,
                        "1 for the monastery + 8 surrounding tiles = 9".to_string(),
                        rule::SCORE_MONASTERY_COMPLETED,
                    ),
                    ScoreTime::Final => (
                        1 + neighbours,
                        format!(
                            "1 for the monastery + {neighbours} {} = {}",
                            noun(neighbours, "surrounding tile", "surrounding tiles"),
                            1 + neighbours
                        ),
                        rule::SCORE_MONASTERY_FINAL,
                    ),
                }
            }
            FeatureKind::Road if self.map.is_some() => {
                tiles.sort_unstable();
                tiles.dedup();
                let placed = tiles.len() as u32;
                let n = placed + printed.abroad;
                let per_coat = match time {
                    ScoreTime::Completed => 2,
                    ScoreTime::Final => 1,
                };
                let towns = if self.options.map.town_road_bonus {
                    self.visible_towns_beside(&tiles)
                } else {
                    0
                };
                let points = n + per_coat * coats_of_arms + 2 * towns;
                let mut formula = format!("1 × {}", printed.count_words(placed, "tile", "tiles"));
                if coats_of_arms > 0 {
                    formula += &format!(
                        " + {per_coat} × {}",
                        plural(coats_of_arms, "coat of arms", "coats of arms")
                    );
                }
                if towns > 0 {
                    formula +=
                        &format!(" + 2 × {}", plural(towns, "visible town", "visible towns"));
                }
                formula += &format!(" = {points}");
                let rule = if towns > 0 {
                    rule::MAP_TOWN_ROAD_BONUS
                } else if printed.abroad > 0 || coats_of_arms > 0 {
                    rule::MAP_SCORE_ROAD
                } else if time == ScoreTime::Completed {
                    rule::SCORE_ROAD_COMPLETED
                } else {
                    rule::SCORE_ROAD_FINAL
                };
                (points, formula, rule)
            }
            FeatureKind::Road => {
                tiles.sort_unstable();
                tiles.dedup();
                let n = tiles.len() as u32;
                let rule = match time {
                    ScoreTime::Completed => rule::SCORE_ROAD_COMPLETED,
                    ScoreTime::Final => rule::SCORE_ROAD_FINAL,
                };
                (
                    n,
                    format!("1 × {n} {} = {n}", noun(n, "tile", "tiles")),
                    rule,
                )
            }
            FeatureKind::City if self.map.is_some() => {
                tiles.sort_unstable();
                tiles.dedup();
                let placed = tiles.len() as u32;
                tiles.extend(printed.large_squares.iter().copied());
                tiles.sort_unstable();
                let n = placed + printed.large + printed.abroad;
                let words = printed.count_words(placed, "tile", "tiles");
                let any_printed = printed.large + printed.abroad > 0;
                let (points, formula, base_rule) = match time {
                    ScoreTime::Completed if n == 2 && self.options.two_tile_city == 2 => (
                        2,
                        format!("two-tile city ({words}), old-rules option: 2"),
                        rule::SCORE_CITY_TWO_TILE,
                    ),
                    ScoreTime::Completed => (
                        2 * n + 2 * coats_of_arms,
                        format!(
                            "2 × {words} + 2 × {} = {}",
                            plural(coats_of_arms, "coat of arms", "coats of arms"),
                            2 * n + 2 * coats_of_arms
                        ),
                        rule::SCORE_CITY_COMPLETED,
                    ),
                    ScoreTime::Final => (
                        n + coats_of_arms,
                        format!(
                            "1 × {words} + 1 × {} = {}",
                            plural(coats_of_arms, "coat of arms", "coats of arms"),
                            n + coats_of_arms
                        ),
                        rule::SCORE_CITY_FINAL,
                    ),
                };
                let rule = if any_printed {
                    rule::MAP_SCORE_CITY
                } else {
                    base_rule
                };
                (points, formula, rule)
            }
            FeatureKind::City => {
                tiles.sort_unstable();
                tiles.dedup();
                let n = tiles.len() as u32;
                match time {
                    ScoreTime::Completed if n == 2 && self.options.two_tile_city == 2 => (
                        2,
                        "two-tile city, old-rules option: 2".to_string(),
                        rule::SCORE_CITY_TWO_TILE,
                    ),
                    ScoreTime::Completed => (
                        2 * n + 2 * coats_of_arms,
                        format!(
                            "2 × {n} {} + 2 × {coats_of_arms} {} = {}",
                            noun(n, "tile", "tiles"),
                            noun(coats_of_arms, "coat of arms", "coats of arms"),
                            2 * n + 2 * coats_of_arms
                        ),
                        rule::SCORE_CITY_COMPLETED,
                    ),
                    ScoreTime::Final => (
                        n + coats_of_arms,
                        format!(
                            "1 × {n} {} + 1 × {coats_of_arms} {} = {}",
                            noun(n, "tile", "tiles"),
                            noun(coats_of_arms, "coat of arms", "coats of arms"),
                            n + coats_of_arms
                        ),
                        rule::SCORE_CITY_FINAL,
                    ),
                }
            }
            FeatureKind::Field => {
                tiles.sort_unstable();
                tiles.dedup();
                let mut roots: Vec<u32> = Vec::new();
                for &s in &members {
                    let placed = &self.board.placed[f.tile[s as usize] as usize];
                    let def = &self.tiles.get(placed.tile).segments[f.local[s as usize] as usize];
                    let mut touches = def.touches;
                    while touches != 0 {
                        let i = touches.trailing_zeros();
                        touches &= touches - 1;
                        let city = f.root(placed.first_segment + i);
                        if f.open[city as usize] == 0 && !roots.contains(&city) {
                            roots.push(city);
                        }
                    }
                }
                let mut refs: Vec<FeatureRef> =
                    roots.iter().map(|&r| self.feature_ref(r)).collect();
                // The key formats each anchor once (the order is by its debug text).
                refs.sort_by_cached_key(|r| (r.at, r.label.anchor.map(|a| format!("{a:?}"))));
                let n = refs.len() as u32;
                cities = refs;
                (
                    3 * n,
                    format!(
                        "3 × {n} {} = {}",
                        noun(n, "completed city", "completed cities"),
                        3 * n
                    ),
                    rule::SCORE_FIELD_FINAL,
                )
            }
        };
        Score {
            kind,
            time,
            feature: self.feature_ref(root),
            tiles,
            coats_of_arms: if kind == FeatureKind::City || kind == FeatureKind::Road {
                coats_of_arms
            } else {
                0
            },
            cities,
            meeples,
            winners,
            points,
            formula,
            rule,
            source: ScoreSource::Feature,
        }
    }
}

/// The printed parts of a feature on a map: large-city squares and segments abroad.
#[derive(Default)]
struct Printed {
    /// Large-city squares, with the cities' names.
    large: u32,
    large_squares: Vec<Pos>,
    large_names: Vec<&'static str>,
    /// Segments printed abroad, with the regions they lie in.
    abroad: u32,
    abroad_names: Vec<&'static str>,
}

impl Printed {
    /// "5 (3 tiles + 2 printed segments toward Denmark)", or "3 tiles" with nothing printed.
    fn count_words(&self, placed: u32, one: &str, many: &str) -> String {
        if self.large + self.abroad == 0 {
            return plural(placed, one, many);
        }
        let mut parts = vec![plural(placed, one, many)];
        if self.large > 0 {
            parts.push(format!(
                "{} of {}",
                plural(self.large, "printed square", "printed squares"),
                self.large_names.join(" and ")
            ));
        }
        if self.abroad > 0 {
            parts.push(format!(
                "{} toward {}",
                plural(self.abroad, "printed segment", "printed segments"),
                self.abroad_names.join(" and ")
            ));
        }
        format!(
            "{} ({})",
            placed + self.large + self.abroad,
            parts.join(" + ")
        )
    }
}

impl Game {
    /// The printed parts of the feature whose segments are `members` (nothing without a map).
    fn printed_parts(&self, members: &[u32]) -> Printed {
        let mut out = Printed::default();
        let Some(map) = &self.map else {
            return out;
        };
        for &s in members {
            if s < self.pseudo {
                let city = &map.large_cities()[self.features.local[s as usize] as usize];
                out.large += city.squares.len() as u32;
                out.large_squares.extend(city.squares.iter().copied());
                out.large_names.push(city.name);
                continue;
            }
            let kind = self.features.kind[s as usize];
            if !matches!(kind, FeatureKind::City | FeatureKind::Road) {
                continue;
            }
            let placed = &self.board.placed[self.features.tile[s as usize] as usize];
            let t = self.tiles.get(placed.tile);
            let local = self.features.local[s as usize];
            for side in Side::ALL {
                if t.segment_at_side(placed.rotation, side) != Some(local) {
                    continue;
                }
                if let Some(b) = map.border(placed.at, side) {
                    if let Some(p) = b.print {
                        out.abroad += u32::from(p.segments);
                        if !out.abroad_names.contains(&b.region.name) {
                            out.abroad_names.push(b.region.name);
                        }
                    }
                }
            }
        }
        out.large_names.sort_unstable();
        out
    }

    /// Towns with no tile on them orthogonally next to any of `squares` (town variant 3).
    fn visible_towns_beside(&self, squares: &[Pos]) -> u32 {
        let Some(map) = &self.map else { return 0 };
        map.towns()
            .iter()
            .filter(|t| {
                self.board.tile_index(t.at).is_none()
                    && Side::ALL
                        .iter()
                        .any(|&s| t.at.step(s).is_some_and(|n| squares.contains(&n)))
            })
            .count() as u32
    }
}

/// The label of the segment at `side` of a placed tile: the city or road reaching it, else
/// the field at its first port (every side has one or the other).
fn side_label(t: &crate::tileset::TileType, rotation: Rotation, side: Side) -> SegmentLabel {
    let segment = t
        .segment_at_side(rotation, side)
        .or_else(|| t.segment_at_port(rotation, side.ports()[0]))
        .expect("every side of a valid tile has a segment");
    let label = t.segment_label(rotation, segment);
    // Name the field by the port the arrow leaves through, not its first port.
    match label.anchor {
        Some(Anchor::Port(_)) => SegmentLabel {
            kind: label.kind,
            anchor: Some(Anchor::Port(side.ports()[0])),
        },
        _ => label,
    }
}
