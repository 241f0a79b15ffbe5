//! The step a game waits for, in words: what `record` says when a move is not due. Its own
//! module because every sub-verb's refusal uses it, and the hints, the start tiles and the
//! turn's events would otherwise import each other in a circle.

use carc_rules::{Game, Phase};

/// What the game waits for now, e.g. `tile B12 waits to be placed`.
pub fn phase_text(game: &Game) -> String {
    match game.phase() {
        Phase::Start => "the start tile is not placed yet".into(),
        Phase::Draw => "the current player must draw a tile first".into(),
        Phase::Place { tile } => format!("tile {} waits to be placed", game.tiles().get(tile).id),
        Phase::ChooseArrow { .. } => {
            "the current player must choose which arrow to activate".into()
        }
        Phase::Meeple { .. } => "a meeple (or none) is due for the tile just placed".into(),
        Phase::ReceiveGift { .. } => "the gift card the current player receives is due".into(),
        Phase::DrawSecond { .. } => "the second tile of Take 2 must be drawn".into(),
        Phase::ReturnTile { .. } => "one of the two Take 2 tiles must be returned".into(),
        Phase::Over => "the game is over".into(),
    }
}
