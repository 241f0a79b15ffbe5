//! Simulated players. Given a setup, a seed and one strategy per seat, [`play`] shuffles the
//! bag and plays a full legal game, returning every action in order — chance (draws) and
//! decisions alike — so the game can be written as a log and replayed.
//!
//! Determinism: the only randomness is a ChaCha8 generator seeded from `seed`; the same
//! inputs give the same actions on any machine. Strategies score moves with integers only.
//!
//! - `players`: how a seat chooses ([`Strategy`]): the gift to open, and the greedy player's
//!   value of every move of a turn.
//! - `driver`: the one phase-driven loop that plays a game on to its end — chance from the
//!   shuffled bag and gift deck, decisions by each seat's strategy — and the start tiles.
//! - `simulate`: a whole game from a setup and a seed ([`play`]).
//! - `playout`: any position played to the end with the unseen tiles dealt anew
//!   ([`playout`]), optionally after one of the turn's moves ([`turn_moves`]).
//! - `seat`: a seat's decision-maker as an object ([`Player`]): the random and greedy players,
//!   and the trait search engines and outside programs implement.
//! - `positions`: the positions of a simulated game where a tile waits to be placed
//!   ([`place_positions`]), for the searches of tests, benchmarks and examples.
//! - `versus`: a whole game between [`Player`]s, chance from the seed alone ([`play_versus`]).
//! - `error`: why a position cannot be played out ([`PlayoutError`]).

mod driver;
mod error;
#[cfg(test)]
mod legal_moves_tests;
#[cfg(test)]
mod pick_tests;
mod players;
mod playout;
mod positions;
#[cfg(test)]
mod refused_actions_tests;
mod seat;
#[cfg(test)]
mod shortcut_tests;
mod simulate;
#[cfg(test)]
mod test_games;
mod versus;

pub use driver::{river_first, Buffers};
pub use error::PlayoutError;
pub use players::Strategy;
pub use playout::{play_move, playout, turn_moves, TurnMove};
pub use positions::{place_positions, PlacePosition};
pub use seat::{greedy_move, GreedyPlayer, Player, RandomPlayer};
pub use simulate::{play, play_into, SimGame};
pub use versus::{play_versus, VersusError};
