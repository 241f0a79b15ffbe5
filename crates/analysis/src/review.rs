//! Move quality judged by the engine (`carc-engine`), the default judge: for a turn, the
//! engine searches the position for its best move, then measures that move and the move
//! played side by side on the same guesses of the bag ([`carc_engine::compare`]), so the
//! difference between the two is measured on the same luck. A move is marked by the **chance
//! to win it gave away** (percentage points), like lichess; the points of expected margin it
//! gave away are reported beside. See `docs/analysis.md`.

use carc_engine::{analyse, compare, line_text, Budget, SearchOptions};
use carc_sim::PlayoutError;

use crate::notation::move_text;
use crate::seeds::search_seed;
use crate::verdict::{
    move_accuracy, Decision, LineMove, Mark, MoveEstimate, QualityOptions, TurnQuality, WinEstimate,
};

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
        text: move_text(game, tile, &d.played),
        value: p_margin,
    };
    let (best, best_win) = if played_is_best {
        (played_estimate.clone(), p_win)
    } else {
        (
            MoveEstimate {
                mv: found.best,
                text: move_text(game, tile, &found.best),
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
        mark: Mark::for_win_lost(win_lost),
        win: Some(WinEstimate {
            played: p_win,
            best: best_win,
            lost: win_lost,
            accuracy: move_accuracy(win_lost),
            exact: found.exact && measured.exact,
        }),
        line: line
            .into_iter()
            .map(|(seat, tile, text)| LineMove { seat, tile, text })
            .collect(),
    }))
}
