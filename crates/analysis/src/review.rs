//! Move quality judged by the engine (`carc-engine`), the default judge: for a turn, the
//! engine searches the position for its best move, then measures that move and the move
//! played side by side on the same guesses of the bag ([`carc_engine::compare`]), so the
//! difference between the two is measured on the same luck. A move is marked by the **chance
//! to win it gave away** (percentage points), like lichess; the points of expected margin it
//! gave away are reported beside. See `docs/analysis.md`.

use carc_engine::{analyse, compare, line_text, Budget, SearchOptions};
use carc_sim::PlayoutError;

use crate::quality::{Decision, MoveEstimate, QualityOptions, TurnQuality};

/// Chance to win lost (percentage points) from which a move is an inaccuracy, `?!`.
pub const WIN_INACCURACY: f64 = 10.0;
/// … a mistake, `?`.
pub const WIN_MISTAKE: f64 = 20.0;
/// … a blunder, `??`.
pub const WIN_BLUNDER: f64 = 30.0;

/// The accuracy of one move from the chance to win it lost (percentage points), 0..=100:
/// lichess's published curve, `103.1668 · e^(−0.04354 · lost) − 3.1669`, clamped. A move
/// that loses nothing is 100; 10 points lost, about 64; 30 points lost, about 25.
pub fn move_accuracy(win_lost: f64) -> f64 {
    (103.1668 * (-0.04354 * win_lost.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The seed of the searches of the decision at event `seq`.
fn search_seed(seed: u64, seq: u64, stage: u64) -> u64 {
    crate::quality::mix(crate::quality::mix(seed ^ stage.rotate_left(32)) ^ seq)
}

/// Judges one decision with the judge the options name (`None`: one legal move only).
pub(crate) fn judge_decision(
    d: &Decision,
    options: &QualityOptions,
    buffers: &mut carc_sim::Buffers,
) -> Result<Option<TurnQuality>, PlayoutError> {
    if options.judge == crate::quality::Judge::Playouts {
        return crate::quality::judge(d, options, buffers);
    }
    let game = &d.before;
    let carc_rules::Phase::Place { tile } = game.phase() else {
        return Err(PlayoutError::Position("no tile waits to be placed".into()));
    };
    let mut listed = Vec::new();
    carc_sim::turn_moves(game, buffers, &mut listed);
    if listed.len() < 2 {
        return Ok(None);
    }
    let played = crate::quality::canonical(game, tile, &d.played);
    judge_with_engine(d, options, listed.len(), tile, played)
}

/// Judges one decision with the engine.
pub(crate) fn judge_with_engine(
    d: &Decision,
    options: &QualityOptions,
    moves: usize,
    tile: carc_rules::TileTypeId,
    played: carc_sim::TurnMove,
) -> Result<Option<TurnQuality>, PlayoutError> {
    let game = &d.before;
    // The search gets the whole budget; the side-by-side measure half of it (common random
    // numbers make the difference of two moves steady with fewer iterations).
    let search = |stage: u64, nodes: u64| SearchOptions {
        budget: Budget::Nodes(nodes.max(1)),
        threads: 1,
        seed: search_seed(options.seed, d.seq, stage),
        ..SearchOptions::default()
    };
    let fail = |e: carc_engine::EngineError| PlayoutError::Position(e.to_string());
    let found = analyse(game, &search(0, options.nodes)).map_err(fail)?;
    let measured =
        compare(game, &[found.best, played], &search(1, options.nodes / 2)).map_err(fail)?;
    let stats = |mv| measured.stats(&mv).cloned();
    let (Some(p), Some(b)) = (stats(played), stats(found.best)) else {
        return Err(PlayoutError::Position(
            "the engine did not measure both the move played and its best".into(),
        ));
    };
    let (p_win, p_margin) = (p.win.unwrap_or(0.0), p.margin.unwrap_or(0.0));
    let (b_win, b_margin) = (b.win.unwrap_or(0.0), b.margin.unwrap_or(0.0));
    // The move played is best when it is the engine's choice or measures at least as well.
    let played_is_best = found.best == played || p_win >= b_win;
    let played_estimate = MoveEstimate {
        mv: d.played,
        text: crate::quality::move_text(game, tile, &d.played),
        value: p_margin,
    };
    let (best, best_win) = if played_is_best {
        (played_estimate.clone(), p_win)
    } else {
        (
            MoveEstimate {
                mv: found.best,
                text: crate::quality::move_text(game, tile, &found.best),
                value: b_margin,
            },
            b_win,
        )
    };
    let (win_lost, loss) = if played_is_best {
        (0.0, 0.0)
    } else {
        (100.0 * (b_win - p_win), (b_margin - p_margin).max(0.0))
    };
    let line = if played_is_best && found.best != played {
        Vec::new()
    } else {
        line_text(game, &found.line)
    };
    Ok(Some(TurnQuality {
        seq: d.seq,
        step: d.step,
        turn: d.turn,
        seat: d.seat,
        moves,
        screened: found.moves.iter().filter(|m| m.visits > 0).count(),
        played: played_estimate,
        best,
        loss,
        mark: crate::quality::Mark::for_win_lost(win_lost),
        win: Some(crate::quality::WinEstimate {
            played: p_win,
            best: best_win,
            lost: win_lost,
            accuracy: move_accuracy(win_lost),
        }),
        line: line
            .into_iter()
            .map(|(seat, tile, text)| crate::quality::LineMove { seat, tile, text })
            .collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accuracy_falls_from_100_as_the_chance_lost_grows() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!((move_accuracy(10.0) - 63.9).abs() < 0.5);
        assert!((move_accuracy(30.0) - 24.9).abs() < 0.5);
        assert_eq!(move_accuracy(200.0), 0.0);
        assert!(move_accuracy(5.0) > move_accuracy(6.0));
    }
}
