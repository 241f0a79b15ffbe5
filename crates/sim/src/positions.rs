//! The positions of a simulated game where a drawn tile waits to be placed: the positions the
//! engine's tests, benchmarks and speed examples search from.

use carc_rules::{Effects, Game, Phase, RuleViolation, Setup};

use crate::{play, Strategy};

/// A position where the drawn tile waits to be placed.
pub struct PlacePosition {
    pub game: Game,
    /// Whether the tile fits anywhere: one that fits nowhere leaves no move to choose.
    pub fits: bool,
}

/// Every position of the game [`play`] plays from `setup`, `seed` and `strategies` where a
/// drawn tile waits to be placed, in the game's order.
pub fn place_positions(
    setup: &Setup,
    seed: u64,
    strategies: &[Strategy],
) -> Result<Vec<PlacePosition>, RuleViolation> {
    let sim = play(setup.clone(), seed, strategies)?;
    let mut game = Game::new(setup.clone())?;
    let mut fx = Effects::quiet();
    let mut out = Vec::new();
    for action in &sim.actions {
        if let Phase::Place { tile } = game.phase() {
            out.push(PlacePosition {
                fits: game.first_placement(tile).is_some(),
                game: game.clone(),
            });
        }
        game.apply(action, &mut fx)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_drawn_tile_of_a_game_waits_once_and_the_fitting_ones_have_a_placement() {
        // Given a simulated 2-player base game
        let setup = Setup::base(2);
        let sim = play(setup.clone(), 7, &[Strategy::Greedy, Strategy::Random]).unwrap();
        // When its positions to place are listed
        let positions = place_positions(&setup, 7, &[Strategy::Greedy, Strategy::Random]).unwrap();
        // Then there is one per placement phase the game went through, each waiting for a
        // tile, and a fitting one has a placement (and only those)
        let places = sim
            .actions
            .iter()
            .filter(|a| matches!(a, carc_rules::Action::Place { .. }))
            .count();
        assert!(positions.len() >= places, "{} < {places}", positions.len());
        assert_eq!(positions.iter().filter(|p| p.fits).count(), places);
        for p in &positions {
            let Phase::Place { tile } = p.game.phase() else {
                panic!("not waiting for a placement: {:?}", p.game.phase());
            };
            assert_eq!(p.game.first_placement(tile).is_some(), p.fits);
        }
    }
}
