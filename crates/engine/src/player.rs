//! The engine as a seat of a match game ([`carc_sim::Player`]): it searches every turn's move;
//! the side decisions (a gift to open, the Take 2 tile to give back) are the greedy player's.

use carc_rules::Game;
use carc_sim::{Buffers, Player, PlayoutError, TurnMove};

use crate::options::SearchOptions;
use crate::search::analyse;

/// The engine at some options; each turn's search is seeded from the options' seed and the
/// turn number, so a game replays the same with a node budget.
#[derive(Clone, Debug)]
pub struct EnginePlayer {
    pub options: SearchOptions,
}

impl EnginePlayer {
    pub fn new(options: SearchOptions) -> EnginePlayer {
        EnginePlayer { options }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        format!("engine:{}", self.options.spec())
    }

    fn turn(&mut self, game: &Game, _buffers: &mut Buffers) -> Result<TurnMove, PlayoutError> {
        let options = SearchOptions {
            seed: self
                .options
                .seed
                .wrapping_add(u64::from(game.turn()).wrapping_mul(0x2545_F491_4F6C_DD1D)),
            ..self.options.clone()
        };
        analyse(game, &options)
            .map(|a| a.best)
            .map_err(|e| PlayoutError::Position(format!("the engine found no move: {e}")))
    }
}
