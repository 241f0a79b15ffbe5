//! The vocabulary of a review, shared by both judges and by everyone who shows one: the marks
//! and their thresholds, the options, a turn judged, a player summed up, the report, and the
//! decision handed to a judge. Nothing here judges: [`crate::playouts`] and [`crate::review`]
//! do, and [`crate::quality`] runs them over a game.

use carc_events::SetupError;
use carc_rules::Game;
use carc_sim::{PlayoutError, Strategy, TurnMove};
use thiserror::Error;

/// Playouts per candidate and stage by default: a full 2-player base game takes about
/// 20 seconds on one core of the project's machine in release (see `docs/benchmarks.md`).
pub const DEFAULT_PLAYOUTS: u32 = 100;
/// Candidates screened per turn by default (the others, by the greedy player's immediate
/// value, are left out; the move played is always in).
pub const DEFAULT_MAX_CANDIDATES: usize = 60;
/// A loss of at least this many points (of final margin) is an inaccuracy, `?!`.
pub const INACCURACY: f64 = 3.0;
/// A loss of at least this many points is a mistake, `?`.
pub const MISTAKE: f64 = 6.0;
/// A loss of at least this many points is a blunder, `??`.
pub const BLUNDER: f64 = 12.0;
/// Chance to win lost (percentage points) from which a move is an inaccuracy, `?!` (the
/// engine judge).
pub const WIN_INACCURACY: f64 = 10.0;
/// … a mistake, `?`.
pub const WIN_MISTAKE: f64 = 20.0;
/// … a blunder, `??`.
pub const WIN_BLUNDER: f64 = 30.0;

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
    /// Judge only these seats' turns (`None`: every seat). Each turn's seeds come from the
    /// review's seed and its event alone, so a turn judged gets the same verdict either way.
    pub seats: Option<Vec<u8>>,
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
            seats: None,
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
    /// The move's accuracy, 0..=100 ([`move_accuracy`]).
    pub accuracy: f64,
    /// The chances are exact: the game's ending was solved over every order of the tiles
    /// left and every move (`carc_engine::solve_ending`), not estimated by a search.
    pub exact: bool,
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

/// The accuracy of one move from the chance to win it lost (percentage points), 0..=100:
/// lichess's published curve, `103.1668 · e^(−0.04354 · lost) − 3.1669`, clamped. A move
/// that loses nothing is 100; 10 points lost, about 64; 30 points lost, about 25.
pub fn move_accuracy(win_lost: f64) -> f64 {
    (103.1668 * (-0.04354 * win_lost.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn accuracy_falls_from_100_as_the_chance_lost_grows() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!((move_accuracy(10.0) - 63.9).abs() < 0.5);
        assert!((move_accuracy(30.0) - 24.9).abs() < 0.5);
        assert_eq!(move_accuracy(200.0), 0.0);
        assert!(move_accuracy(5.0) > move_accuracy(6.0));
    }
}
