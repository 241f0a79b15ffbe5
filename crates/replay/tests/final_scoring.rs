//! The final scoring as rows per player and feature (`describe::final_scoring_rows`), which
//! the reports and the viewer list apart from the last move.

use std::path::Path;

use carc_events::read_log;
use carc_replay::describe::{final_scoring_points, final_scoring_rows};
use carc_replay::fold;
use carc_rules::ScoreTime;

#[test]
fn every_players_final_points_are_on_rows_of_their_own_per_feature() {
    // Given a finished two-player game
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/sim-2p-greedy-vs-random.jsonl");
    let timeline = fold(read_log(&std::fs::read(path).unwrap()).unwrap(), &[]);
    assert!(timeline.finished);
    let last = timeline.steps.last().unwrap();
    let scores = &last.effects.scores;
    // When its last step's scores are put in rows
    let rows = final_scoring_rows(scores);
    // Then there is a row per final score and winner, seat by seat, named by the feature
    let per_winner: usize = scores
        .iter()
        .filter(|s| s.time == ScoreTime::Final)
        .map(|s| s.winners.len())
        .sum();
    assert_eq!(rows.len(), per_winner);
    assert!(rows.windows(2).all(|w| w[0].seat <= w[1].seat));
    assert!(rows.iter().any(|r| r.seat == 0) && rows.iter().any(|r| r.seat == 1));
    assert!(rows
        .iter()
        .any(|r| r.what == "road E at (0,0)" && r.seat == 0 && r.points == 10));
    // And the points before the final scoring plus the rows' are the final scores
    let finals = final_scoring_points(scores, 2);
    let completed_in_last: Vec<u32> = (0..2u8)
        .map(|seat| {
            scores
                .iter()
                .filter(|s| s.time == ScoreTime::Completed && s.winners.contains(&seat))
                .map(|s| s.points)
                .sum()
        })
        .collect();
    let before = &timeline.steps[timeline.steps.len() - 2].scores_after;
    for seat in 0..2 {
        assert_eq!(
            before[seat] + completed_in_last[seat] + finals[seat],
            last.scores_after[seat],
            "seat {seat}"
        );
    }
    // And a step that ends nothing has no rows
    assert!(final_scoring_rows(&timeline.steps[5].effects.scores).is_empty());
}
