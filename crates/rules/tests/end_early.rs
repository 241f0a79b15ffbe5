//! Ending a game before the bag is empty (a game abandoned at the table, issue 24): final
//! scoring now, as at the end of the game, and the game is over.

mod common;

use carc_rules::*;
use common::*;

#[test]
fn the_players_may_end_the_game_between_turns_and_final_scoring_follows() {
    // Given Ada's road from the start tile, two tiles still in the bag
    let mut t = table(2, &[("U", 1), ("M", 1), ("B", 1)]);
    t.turn("U", 1, 0, 90, Some("road W"));
    assert_eq!(t.game.bag_left(), 2);
    // When the players end the game before Brandt's turn
    t.game.apply(&Action::EndGame, &mut t.fx).unwrap();
    // Then the trace says so, with the tiles left, and final scoring runs as at the end
    assert!(
        t.fx.notes.contains(&Note::EndedEarly { left: 2 }),
        "{:?}",
        t.fx.notes
    );
    assert!(!t.fx.notes.contains(&Note::BagEmpty));
    let road = &t.fx.scores[0];
    assert_eq!(
        (road.kind, road.time, road.points),
        (FeatureKind::Road, ScoreTime::Final, 2)
    );
    assert_eq!(t.scores(), vec![2, 0]);
    // And the game is over, with the bag as it was
    assert!(t.game.is_over());
    assert_eq!(t.game.bag_left(), 2);
    assert_eq!(t.draw("M").unwrap_err().rule(), "base.game.end");
    assert_eq!(
        Note::EndedEarly { left: 2 }.to_string(),
        "the players end the game with 2 tiles still in the bag: final scoring follows as at the end of the game"
    );
}

#[test]
fn a_game_is_ended_only_between_turns() {
    // Given a drawn tile waiting to be placed
    let mut t = table(2, &[("U", 1), ("M", 1)]);
    t.draw("U").unwrap();
    // When the players try to end the game
    let err = t.game.apply(&Action::EndGame, &mut t.fx).unwrap_err();
    // Then it is refused under the turn phase rule, and nothing changed
    assert_eq!(err.rule(), "base.turn.phase");
    assert_eq!(
        err.to_string(),
        "it is not the time to end the game: the game is waiting for the drawn tile to be placed or set aside"
    );
    assert_eq!(t.game.phase(), Phase::Place { tile: t.id("U") });
    assert!(!t.game.is_over());
}
