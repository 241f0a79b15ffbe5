//! Move quality: for every turn of a replayed game, how the move played compares with the best
//! move found by playouts, marked like a chess engine's review (`?!`, `?`, `??`).
//!
//! The decision looked at is the drawn tile's placement with the rest of the turn: the arrow
//! to activate when several could be (20th Anniversary) and the meeple step (a meeple on the
//! tile, through a companion or portal arrow, or none). Gift openings (The Gifts) and the choice
//! of the Take 2 tile to return are not judged: they stand as played. A turn whose tile fits
//! nowhere, or that offers one move only, is no decision.
//!
//! Each candidate move is worth the mean, over playouts, of the mover's final score minus the
//! best final score among the other players ([`value_of`]); the playouts ([`carc_sim::playout`])
//! deal the tiles still in the bag (and the gift deck) anew and let every seat play on with a
//! simulated strategy. Two stages:
//!
//! 1. *screening*: every candidate (or, above [`QualityOptions::max_candidates`], the best by
//!    the greedy player's immediate value, plus the move played) gets `playouts` playouts;
//! 2. *confirmation*: the [`CONFIRM`] best of the screening plus the move played get `playouts`
//!    fresh playouts, and only these are compared. Taking the best of many noisy means picks
//!    lucky ones; measuring the chosen few again removes that bias from the loss.
//!
//! Within a stage, every candidate meets the same playout seeds (common random numbers: the
//! same tiles in the same order), so differences between moves are far less noisy than the
//! values themselves. Seeds come from [`QualityOptions::seed`] and the event, so the result is
//! the same for a given seed whatever the number of threads.
//!
//! loss = best − played (never negative: the move played is always among those compared);
//! marks: [`INACCURACY`], [`MISTAKE`], [`BLUNDER`] points and more. See `docs/analysis.md`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use carc_events::{event_to_action, game_from_header, SetupError};
use carc_replay::describe::seat_name;
use carc_replay::Timeline;
use carc_rules::{Action, Effects, Game, Phase, Placement, Rotation, TileTypeId};
use carc_sim::{playout, turn_moves, Buffers, PlayoutError, Strategy, TurnMove};
use thiserror::Error;

/// Playouts per candidate and stage by default: a full 2-player base game takes about
/// 20 seconds on one core of the project's machine in release (see `docs/benchmarks.md`).
pub const DEFAULT_PLAYOUTS: u32 = 100;
/// Candidates screened per turn by default (the others, by the greedy player's immediate
/// value, are left out; the move played is always in).
pub const DEFAULT_MAX_CANDIDATES: usize = 60;
/// Candidates from the screening that are measured again (with the move played).
pub const CONFIRM: usize = 3;
/// A loss of at least this many points (of final margin) is an inaccuracy, `?!`.
pub const INACCURACY: f64 = 3.0;
/// A loss of at least this many points is a mistake, `?`.
pub const MISTAKE: f64 = 6.0;
/// A loss of at least this many points is a blunder, `??`.
pub const BLUNDER: f64 = 12.0;

/// How a turn's move is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark for a loss in points, if any.
    pub fn for_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The mark for a chance to win lost, in percentage points (the engine judge).
    pub fn for_win_lost(lost: f64) -> Option<Mark> {
        use crate::review::{WIN_BLUNDER, WIN_INACCURACY, WIN_MISTAKE};
        if lost >= WIN_BLUNDER {
            Some(Mark::Blunder)
        } else if lost >= WIN_MISTAKE {
            Some(Mark::Mistake)
        } else if lost >= WIN_INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// `?!`, `?` or `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QualityOptions {
    /// Playouts per candidate in each stage (at least 1).
    pub playouts: u32,
    pub seed: u64,
    /// Worker threads; 0 = every core.
    pub threads: usize,
    /// How every seat plays in the playouts.
    pub strategy: Strategy,
    /// Candidates screened per turn at most (at least 1; the move played comes on top).
    pub max_candidates: usize,
    /// Who judges: the engine (default) or the playouts (the options above).
    pub judge: Judge,
    /// The engine judge's iterations for each of its two searches of a turn.
    pub nodes: u64,
}

/// Who judges the moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Judge {
    /// The engine (`carc-engine`): its best move, then the best and the move played measured
    /// side by side; marks by the chance to win lost. See `crate::review`.
    #[default]
    Engine,
    /// Flat Monte Carlo: every candidate played out to the end (`playouts`, `strategy`,
    /// `max_candidates`); marks by points of margin lost.
    Playouts,
}

impl Judge {
    pub fn name(self) -> &'static str {
        match self {
            Judge::Engine => "engine",
            Judge::Playouts => "playouts",
        }
    }
}

/// The engine judge's default iterations per search: a whole 2-player game reviewed in a few
/// seconds on two cores (`docs/benchmarks.md`).
pub const DEFAULT_NODES: u64 = 2_000;

impl Default for QualityOptions {
    fn default() -> QualityOptions {
        QualityOptions {
            playouts: DEFAULT_PLAYOUTS,
            seed: 0,
            threads: 0,
            strategy: Strategy::Random,
            max_candidates: DEFAULT_MAX_CANDIDATES,
            judge: Judge::Engine,
            nodes: DEFAULT_NODES,
        }
    }
}

/// A move and its estimated value.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveEstimate {
    pub mv: TurnMove,
    /// The move in words, e.g. `tile V at (1,0) rotated 90°, meeple on road E`.
    pub text: String,
    /// Mean over the confirmation playouts of the mover's final score minus the best other
    /// player's.
    pub value: f64,
}

/// One turn's decision, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnQuality {
    /// The event that placed the tile.
    pub seq: u64,
    /// Its index in the timeline's steps.
    pub step: usize,
    pub turn: u32,
    pub seat: u8,
    /// Legal moves of the turn (placements × arrow choices × meeple steps).
    pub moves: usize,
    /// Moves screened (after pruning, with the move played).
    pub screened: usize,
    pub played: MoveEstimate,
    /// The best move compared; the move played when nothing beat it.
    pub best: MoveEstimate,
    /// best − played, in points (0 when the move played is best).
    pub loss: f64,
    pub mark: Option<Mark>,
    /// The engine judge's chances to win (`None` from the playout judge).
    pub win: Option<WinEstimate>,
    /// The engine judge: the line it expects after its best move (that move first); empty when
    /// the move played is best, or from the playout judge.
    pub line: Vec<LineMove>,
}

/// The chances to win that the engine judge measured for a turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinEstimate {
    /// The mover's chance to win after the move played, 0..=1.
    pub played: f64,
    /// … after the best move.
    pub best: f64,
    /// The chance lost by the move played, in percentage points (0 when it is best).
    pub lost: f64,
    /// The move's accuracy, 0..=100 (`crate::review::move_accuracy`).
    pub accuracy: f64,
}

/// One move of an expected line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineMove {
    pub seat: u8,
    /// The tile's id (such as `V`).
    pub tile: String,
    /// The move in the engine's notation (`docs/engine.md`).
    pub text: String,
}

/// One player's moves, summed up.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerQuality {
    pub name: String,
    /// Turns judged.
    pub turns: u32,
    /// Mean loss over the turns judged (0 without any).
    pub average_loss: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// The engine judge: the mean accuracy of the turns judged, 0..=100 (`None` from the
    /// playout judge or without turns).
    pub accuracy: Option<f64>,
}

/// The move quality of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct QualityReport {
    pub game: String,
    pub options: QualityOptions,
    /// The turns judged, in game order.
    pub turns: Vec<TurnQuality>,
    /// Per seat.
    pub players: Vec<PlayerQuality>,
    /// Why the log's moves stop before the end (an illegal event), if they do.
    pub stopped: Option<String>,
}

impl QualityReport {
    /// The judged turn whose tile placement is event `seq`.
    pub fn turn_at(&self, seq: u64) -> Option<&TurnQuality> {
        self.turns.iter().find(|t| t.seq == seq)
    }
}

/// Why the move quality cannot be computed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum QualityError {
    #[error("the header does not describe a playable game: {0}")]
    Setup(#[from] SetupError),
    #[error("event {seq}: the position cannot be played out: {source}")]
    Playout {
        seq: u64,
        #[source]
        source: PlayoutError,
    },
    #[error("the move-quality analysis was cancelled")]
    Cancelled,
}

/// What judging a decision gave: the turn, nothing (a single legal move) or the error.
type Judged = Result<Option<TurnQuality>, QualityError>;

/// A rotation-invariant description of a placed tile: see [`signature`].
type Signature = (
    Vec<(carc_rules::FeatureKind, u8, u8, u8, u16)>,
    Option<usize>,
);

/// A turn to judge: the game as the mover was about to place the drawn tile, and what they
/// played.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The index in the timeline's steps of the placement event.
    pub step: usize,
    /// The placement event.
    pub seq: u64,
    pub turn: u32,
    pub seat: u8,
    /// The game waiting for the placement (after any gift opened this turn).
    pub before: Game,
    pub played: TurnMove,
}

/// The value of a final result for `seat`: its score minus the best score of the others
/// (its own score in a one-player game).
pub fn value_of(scores: &[u32], seat: u8) -> f64 {
    let me = scores.get(usize::from(seat)).copied().unwrap_or(0);
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != usize::from(seat))
        .map(|(_, &v)| v)
        .max()
        .unwrap_or(0);
    f64::from(me) - f64::from(best_other)
}

/// Judges every move of `timeline` (its legal part). `progress(done, total)` is called after
/// each turn, from the worker threads.
pub fn move_quality(
    timeline: &Timeline,
    options: &QualityOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<QualityReport, QualityError> {
    move_quality_with(timeline, options, progress, &AtomicBool::new(false))
}

/// [`move_quality`] that stops with [`QualityError::Cancelled`] soon after `cancel` is set
/// (each worker finishes the turn it is judging).
pub fn move_quality_with(
    timeline: &Timeline,
    options: &QualityOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &AtomicBool,
) -> Result<QualityReport, QualityError> {
    let header = &timeline.log.header;
    let decisions = decisions(timeline)?;
    let total = decisions.len();
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    }
    .clamp(1, total.max(1));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Judged)>> = Mutex::new(Vec::with_capacity(total));
    let work = || {
        let mut buffers = Buffers::default();
        loop {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(d) = decisions.get(i) else { break };
            let r = crate::review::judge_decision(d, options, &mut buffers)
                .map_err(|source| QualityError::Playout { seq: d.seq, source });
            results
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push((i, r));
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        }
    };
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
            for w in workers {
                if let Err(panic) = w.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
    }
    if cancel.load(Ordering::Relaxed) {
        return Err(QualityError::Cancelled);
    }
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let mut turns = Vec::with_capacity(results.len());
    for (_, r) in results {
        turns.extend(r?);
    }
    let players = (0..header.players.len())
        .map(|seat| summary(seat_name(header, seat as u8), seat as u8, &turns))
        .collect();
    Ok(QualityReport {
        game: header.game.clone(),
        options: options.clone(),
        turns,
        players,
        stopped: timeline.error.as_ref().map(|e| e.to_string()),
    })
}

fn summary(name: String, seat: u8, turns: &[TurnQuality]) -> PlayerQuality {
    let mine: Vec<&TurnQuality> = turns.iter().filter(|t| t.seat == seat).collect();
    let count = |m: Mark| mine.iter().filter(|t| t.mark == Some(m)).count() as u32;
    PlayerQuality {
        name,
        turns: mine.len() as u32,
        average_loss: if mine.is_empty() {
            0.0
        } else {
            mine.iter().map(|t| t.loss).sum::<f64>() / mine.len() as f64
        },
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
        accuracy: {
            let accuracies: Vec<f64> = mine
                .iter()
                .filter_map(|t| t.win)
                .map(|w| w.accuracy)
                .collect();
            (!accuracies.is_empty())
                .then(|| accuracies.iter().sum::<f64>() / accuracies.len() as f64)
        },
    }
}

/// Walks the legal part of the timeline and collects every placement decision that was
/// finished (tile placed and meeple step taken), in game order.
pub fn decisions(timeline: &Timeline) -> Result<Vec<Decision>, QualityError> {
    let mut game = game_from_header(&timeline.log.header, timeline.loaded_tile_sets())?;
    let mut fx = Effects::default();
    let mut out = Vec::new();
    let mut open: Option<Decision> = None;
    for (i, step) in timeline.steps.iter().enumerate() {
        let Ok(action) = event_to_action(&game, &step.event) else {
            break;
        };
        let phase = game.phase();
        let before = matches!(action, Action::Place { .. }).then(|| game.clone());
        if game.apply(&action, &mut fx).is_err() {
            break;
        }
        match (action, phase) {
            (Action::Place { at, rotation }, Phase::Place { .. }) => {
                if let Some(before) = before {
                    open = Some(Decision {
                        step: i,
                        seq: step.seq,
                        turn: step.turn,
                        seat: before.current_player(),
                        played: TurnMove {
                            placement: Placement { at, rotation },
                            arrow: None,
                            meeple: Action::SkipMeeple,
                        },
                        before,
                    });
                }
            }
            (Action::ChooseArrow { arrow }, _) => {
                if let Some(d) = open.as_mut() {
                    d.played.arrow = Some(arrow);
                }
            }
            (
                Action::PlaceMeeple { .. } | Action::PlaceArrowMeeple { .. } | Action::SkipMeeple,
                _,
            ) => {
                if let Some(mut d) = open.take() {
                    d.played.meeple = action;
                    out.push(d);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// splitmix64: spreads seeds so that neighbouring inputs give unrelated streams.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of playout `k` of `stage` for the decision at event `seq`: the same for every
/// candidate of that decision.
fn playout_seed(seed: u64, seq: u64, stage: u64, k: u32) -> u64 {
    mix(mix(mix(seed) ^ seq) ^ (stage << 32 | u64::from(k)))
}

/// Judges one decision (`None`: one legal move only, nothing to judge). [`move_quality`] does
/// this for every decision of a game, on several threads.
pub fn judge(
    d: &Decision,
    options: &QualityOptions,
    buffers: &mut Buffers,
) -> Result<Option<TurnQuality>, PlayoutError> {
    let game = &d.before;
    let Phase::Place { tile } = game.phase() else {
        return Err(PlayoutError::Position("no tile waits to be placed".into()));
    };
    let mut listed: Vec<(TurnMove, i64)> = Vec::new();
    turn_moves(game, buffers, &mut listed);
    let moves = listed.len();
    if moves < 2 {
        return Ok(None);
    }
    let played = canonical(game, tile, &d.played);
    let mut candidates = screened_candidates(&listed, options);
    let played_at = match candidates.iter().position(|m| *m == played) {
        Some(i) => i,
        None => {
            candidates.push(played);
            candidates.len() - 1
        }
    };
    let (finalists, confirmed) = screen_and_confirm(
        game,
        d.seat,
        d.seq,
        &candidates,
        Some(played_at),
        options,
        buffers,
    )?;
    let played_value = confirmed[finalists
        .iter()
        .position(|&c| c == played_at)
        .unwrap_or_default()];
    // The best confirmed; the move played wins ties.
    let (best, best_value) =
        best_confirmed(&finalists, &confirmed, Some((played_at, played_value)));
    let loss = (best_value - played_value).max(0.0);
    let played = MoveEstimate {
        mv: d.played,
        text: move_text(game, tile, &d.played),
        value: played_value,
    };
    // The move played, when best, is named as played (not in the rules' listing).
    let best = if best == played_at {
        played.clone()
    } else {
        MoveEstimate {
            mv: candidates[best],
            text: move_text(game, tile, &candidates[best]),
            value: best_value,
        }
    };
    Ok(Some(TurnQuality {
        seq: d.seq,
        step: d.step,
        turn: d.turn,
        seat: d.seat,
        moves,
        screened: candidates.len(),
        played,
        best,
        loss,
        mark: Mark::for_loss(loss),
        win: None,
        line: Vec::new(),
    }))
}

/// The candidates screened: every move, or above [`QualityOptions::max_candidates`] the best
/// by the greedy player's immediate value, in the rules' order.
fn screened_candidates(listed: &[(TurnMove, i64)], options: &QualityOptions) -> Vec<TurnMove> {
    let mut order: Vec<usize> = (0..listed.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(listed[i].1)); // stable: ties keep the rules' order
    order.truncate(options.max_candidates.max(1));
    order.sort_unstable();
    order.iter().map(|&i| listed[i].0).collect()
}

/// The two stages over `candidates` for `seat` at `game`: every candidate gets
/// `options.playouts` playouts (screening), then the [`CONFIRM`] best and `keep` (the move
/// played, if any) get as many fresh ones (confirmation). Seeds come from `options.seed` and
/// `key`. Returns the finalists (indices into `candidates`, ascending) and their confirmed
/// values.
fn screen_and_confirm(
    game: &Game,
    seat: u8,
    key: u64,
    candidates: &[TurnMove],
    keep: Option<usize>,
    options: &QualityOptions,
    buffers: &mut Buffers,
) -> Result<(Vec<usize>, Vec<f64>), PlayoutError> {
    let k = options.playouts.max(1);
    let strategies = [options.strategy];
    let measure =
        |stage: u64, which: &[usize], buffers: &mut Buffers| -> Result<Vec<f64>, PlayoutError> {
            let mut sums = vec![0.0; which.len()];
            for j in 0..k {
                let seed = playout_seed(options.seed, key, stage, j);
                for (sum, &c) in sums.iter_mut().zip(which) {
                    let scores = playout(game, Some(&candidates[c]), seed, &strategies, buffers)?;
                    *sum += value_of(&scores, seat);
                }
            }
            Ok(sums.into_iter().map(|s| s / f64::from(k)).collect())
        };
    let all: Vec<usize> = (0..candidates.len()).collect();
    let screened = measure(0, &all, buffers)?;
    let mut ranked = all;
    ranked.sort_by(|&a, &b| screened[b].total_cmp(&screened[a]).then(a.cmp(&b)));
    let mut finalists: Vec<usize> = ranked.into_iter().take(CONFIRM).collect();
    if let Some(keep) = keep.filter(|k| !finalists.contains(k)) {
        finalists.push(keep);
    }
    finalists.sort_unstable();
    let confirmed = measure(1, &finalists, buffers)?;
    Ok((finalists, confirmed))
}

/// The best of the confirmed finalists: `first` (index and value) wins ties, else the
/// earliest finalist.
fn best_confirmed(
    finalists: &[usize],
    confirmed: &[f64],
    first: Option<(usize, f64)>,
) -> (usize, f64) {
    let mut best = first.unwrap_or((finalists[0], confirmed[0]));
    for (&c, &v) in finalists.iter().zip(confirmed) {
        if v > best.1 {
            best = (c, v);
        }
    }
    best
}

/// The judge's best move at `game` (waiting for the placement of a drawn tile) for the seat to
/// move, found as [`judge`] finds the best move of a turn (screening, then confirmation), with
/// no move played to compare: the value is the confirmed mean margin. Playout seeds come from
/// `options.seed` and `key` (e.g. the turn number). `None` when no tile waits to be placed or
/// it fits nowhere.
pub fn best_move(
    game: &Game,
    key: u64,
    options: &QualityOptions,
    buffers: &mut Buffers,
) -> Result<Option<MoveEstimate>, PlayoutError> {
    let Phase::Place { tile } = game.phase() else {
        return Ok(None);
    };
    let mut listed: Vec<(TurnMove, i64)> = Vec::new();
    turn_moves(game, buffers, &mut listed);
    if listed.is_empty() {
        return Ok(None);
    }
    let candidates = screened_candidates(&listed, options);
    let seat = game.current_player();
    let (finalists, confirmed) =
        screen_and_confirm(game, seat, key, &candidates, None, options, buffers)?;
    let (best, value) = best_confirmed(&finalists, &confirmed, None);
    Ok(Some(MoveEstimate {
        mv: candidates[best],
        text: move_text(game, tile, &candidates[best]),
        value,
    }))
}

/// The judge as a seat of a match game ([`carc_sim::Player`]): each turn, [`best_move`] with
/// the options' playouts, seeded from the options' seed and the turn. The side decisions (a
/// gift to open, the Take 2 tile to give back) are the greedy player's.
pub struct PlayoutPlayer {
    pub options: QualityOptions,
    /// Its own buffers: the ones a game hands to its players hold that game's bag, which
    /// playouts would deal from.
    buffers: Buffers,
}

impl PlayoutPlayer {
    pub fn new(options: QualityOptions) -> PlayoutPlayer {
        PlayoutPlayer {
            options,
            buffers: Buffers::default(),
        }
    }
}

impl carc_sim::Player for PlayoutPlayer {
    fn name(&self) -> String {
        if self.options.playouts == DEFAULT_PLAYOUTS {
            "playout".into()
        } else {
            format!("playout:playouts={}", self.options.playouts)
        }
    }

    fn turn(&mut self, game: &Game, _buffers: &mut Buffers) -> Result<TurnMove, PlayoutError> {
        best_move(
            game,
            u64::from(game.turn()),
            &self.options,
            &mut self.buffers,
        )?
        .map(|m| m.mv)
        .ok_or_else(|| {
            PlayoutError::Position("the playout player found no move for the drawn tile".into())
        })
    }
}

/// The rotation-invariant description of a tile at `rotation`: its segments (kind, sides,
/// ports, coats of arms, touched cities) as a sorted list, and its arrow's side. Two rotations
/// with the same signature give the same placement (the rules list it once).
fn signature(t: &carc_rules::TileType, rotation: Rotation) -> Signature {
    let mut segments: Vec<_> = t
        .segments
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                s.kind,
                t.segment_sides(rotation, i as u8),
                t.segment_ports(rotation, i as u8),
                s.coats_of_arms,
                s.touches,
            )
        })
        .collect();
    segments.sort_unstable();
    (segments, t.arrow(rotation).map(|a| a.side.index()))
}

/// The move as the rules list it: a rotation that gives the same placement as a smaller one is
/// replaced by the smaller one, and a meeple on the tile is named by its segment in that
/// rotation. Other moves are returned unchanged.
pub(crate) fn canonical(game: &Game, tile: TileTypeId, m: &TurnMove) -> TurnMove {
    let t = game.tiles().get(tile);
    let rotation = m.placement.rotation;
    if t.is_distinct_rotation(rotation) {
        return *m;
    }
    let own = signature(t, rotation);
    let Some(smaller) = Rotation::ALL
        .into_iter()
        .take_while(|&r| r != rotation)
        .find(|&r| signature(t, r) == own)
    else {
        return *m;
    };
    let same_segment = |segment: u8| {
        if usize::from(segment) >= t.segments.len() {
            return None;
        }
        t.find_segment(smaller, &t.segment_label(rotation, segment))
    };
    let at = m.placement.at;
    let meeple = match m.meeple {
        Action::PlaceMeeple { segment } => match same_segment(segment) {
            Some(segment) => Action::PlaceMeeple { segment },
            None => return *m,
        },
        Action::PlaceArrowMeeple {
            via,
            at: target,
            segment,
        } if target == at => match same_segment(segment) {
            Some(segment) => Action::PlaceArrowMeeple {
                via,
                at: target,
                segment,
            },
            None => return *m,
        },
        other => other,
    };
    TurnMove {
        placement: Placement {
            at,
            rotation: smaller,
        },
        arrow: m.arrow,
        meeple,
    }
}

/// A move in words, as seen before it is played.
pub fn move_text(game: &Game, tile: TileTypeId, m: &TurnMove) -> String {
    let t = game.tiles().get(tile);
    let p = m.placement;
    let mut text = format!("tile {} at {} rotated {}", t.id, p.at, p.rotation);
    if let Some(arrow) = m.arrow {
        text.push_str(&format!(", the arrow at {arrow} activated"));
    }
    let label = |at: carc_rules::Pos, segment: u8| {
        if at == p.at {
            (usize::from(segment) < t.segments.len())
                .then(|| t.segment_label(p.rotation, segment).to_string())
        } else {
            game.segment_label_at(at, segment).map(|l| l.to_string())
        }
        .unwrap_or_else(|| format!("segment {segment}"))
    };
    match m.meeple {
        Action::PlaceMeeple { segment } => {
            text.push_str(&format!(", meeple on {}", label(p.at, segment)));
        }
        Action::PlaceArrowMeeple { via, at, segment } => {
            text.push_str(&format!(
                ", meeple on {} at {at} through the {via} arrow",
                label(at, segment)
            ));
        }
        _ => text.push_str(", no meeple"),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_playout_player_plays_a_whole_game_with_listed_moves() {
        use carc_rules::Setup;
        use carc_sim::{play_versus, GreedyPlayer, Player};
        // Given the judge at a few playouts, against the greedy player
        let options = QualityOptions {
            playouts: 2,
            max_candidates: 4,
            ..QualityOptions::default()
        };
        let mut judge = PlayoutPlayer::new(options.clone());
        assert_eq!(judge.name(), "playout:playouts=2");
        let mut greedy = GreedyPlayer;
        let mut buffers = Buffers::default();
        // When they play a game
        let played = play_versus(
            Setup::base(2),
            5,
            &mut [&mut judge, &mut greedy],
            &mut buffers,
        )
        .unwrap();
        // Then it ends, and the best move at its first decision is a listed move, the same
        // every time
        assert!(played.game.is_over());
        let mut game = Game::new(Setup::base(2)).unwrap();
        let mut fx = Effects::quiet();
        for a in &played.actions {
            if matches!(game.phase(), Phase::Place { .. }) {
                break;
            }
            game.apply(a, &mut fx).unwrap();
        }
        let best = best_move(&game, 1, &options, &mut buffers)
            .unwrap()
            .unwrap();
        let mut listed = Vec::new();
        turn_moves(&game, &mut buffers, &mut listed);
        assert!(listed.iter().any(|(m, _)| *m == best.mv));
        assert_eq!(
            best_move(&game, 1, &options, &mut buffers).unwrap(),
            Some(best)
        );
    }

    #[test]
    fn marks_follow_the_thresholds() {
        // Given losses on both sides of each threshold, then the marks change exactly there
        assert_eq!(Mark::for_loss(0.0), None);
        assert_eq!(Mark::for_loss(INACCURACY - 0.01), None);
        assert_eq!(Mark::for_loss(INACCURACY), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(MISTAKE - 0.01), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(MISTAKE), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(BLUNDER), Some(Mark::Blunder));
        assert_eq!(Mark::for_loss(f64::NAN), None);
        assert_eq!(Mark::Blunder.glyph(), "??");
    }

    #[test]
    fn value_is_own_score_minus_the_best_other() {
        assert_eq!(value_of(&[50, 70, 40], 0), -20.0);
        assert_eq!(value_of(&[50, 70, 40], 1), 20.0);
        assert_eq!(value_of(&[33], 0), 33.0);
        assert_eq!(value_of(&[], 3), 0.0);
    }

    #[test]
    fn seeds_differ_by_playout_stage_and_event_but_not_by_candidate() {
        let a = playout_seed(1, 10, 0, 0);
        assert_eq!(a, playout_seed(1, 10, 0, 0));
        assert_ne!(a, playout_seed(1, 10, 0, 1));
        assert_ne!(a, playout_seed(1, 10, 1, 0));
        assert_ne!(a, playout_seed(1, 11, 0, 0));
        assert_ne!(a, playout_seed(2, 10, 0, 0));
    }

    #[test]
    fn a_move_in_a_rotation_the_rules_list_under_another_is_matched_to_the_listed_one() {
        use carc_rules::{Pos, Setup, TileTypeId};
        let mut fx = Effects::default();
        let mut buffers = Buffers::default();
        let mut symmetric = 0;
        let base = Game::new(Setup::base(2)).unwrap();
        for (i, t) in base.tiles().tiles().iter().enumerate() {
            let tile = TileTypeId(i as u16);
            if Rotation::ALL.iter().all(|&r| t.is_distinct_rotation(r)) {
                continue;
            }
            symmetric += 1;
            // Given a tile with symmetric rotations drawn beside the start tile
            let start = base.tiles().start_tile().unwrap();
            let mut game = base.clone();
            game.apply(
                &Action::PlaceStart {
                    tile: start,
                    at: Pos::new(0, 0),
                    rotation: Rotation::default(),
                },
                &mut fx,
            )
            .unwrap();
            if game.apply(&Action::Draw { tile }, &mut fx).is_err() {
                continue;
            }
            let mut listed = Vec::new();
            turn_moves(&game, &mut buffers, &mut listed);
            let squares: Vec<Pos> = listed.iter().map(|(m, _)| m.placement.at).collect();
            for &at in &squares {
                for rotation in Rotation::ALL {
                    let mut placed = game.clone();
                    if placed
                        .apply(&Action::Place { at, rotation }, &mut fx)
                        .is_err()
                    {
                        continue;
                    }
                    let meeples = (0..t.segments.len() as u8)
                        .map(|segment| Action::PlaceMeeple { segment })
                        .chain([Action::SkipMeeple]);
                    for meeple in meeples {
                        let mut played = placed.clone();
                        if played.apply(&meeple, &mut fx).is_err() {
                            continue;
                        }
                        // When the move, in any rotation, is put in the rules' terms
                        let m = TurnMove {
                            placement: Placement { at, rotation },
                            arrow: None,
                            meeple,
                        };
                        let c = canonical(&game, tile, &m);
                        // Then it is a listed move, and it makes the same board
                        assert!(
                            listed.iter().any(|(l, _)| *l == c),
                            "tile {} {m:?} -> {c:?}",
                            t.id
                        );
                        let mut same = game.clone();
                        same.apply(
                            &Action::Place {
                                at: c.placement.at,
                                rotation: c.placement.rotation,
                            },
                            &mut fx,
                        )
                        .unwrap();
                        same.apply(&c.meeple, &mut fx).unwrap();
                        let board = |g: &Game| {
                            let mut v: Vec<String> = g
                                .meeples()
                                .map(|(p, at, _, label)| format!("{p} {at} {label}"))
                                .collect();
                            v.sort();
                            v
                        };
                        assert_eq!(board(&same), board(&played), "tile {}", t.id);
                        assert_eq!(same.scores(), played.scores());
                    }
                }
            }
        }
        assert!(symmetric >= 3, "{symmetric} symmetric tiles");
    }
}
