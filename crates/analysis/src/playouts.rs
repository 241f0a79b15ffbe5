//! The playout judge (flat Monte Carlo): for a turn, how the move played compares with the
//! best move found by playouts, marked by points of final margin lost.
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
//! marks: [`crate::verdict::INACCURACY`], [`crate::verdict::MISTAKE`],
//! [`crate::verdict::BLUNDER`] points and more. See `docs/analysis.md`.

use carc_rules::{Game, Phase};
use carc_sim::{playout, turn_moves, Buffers, PlayoutError, TurnMove};

use crate::notation::{canonical, move_text};
use crate::seeds::playout_seed;
use crate::verdict::{Decision, Mark, MoveEstimate, QualityOptions, TurnQuality, DEFAULT_PLAYOUTS};

/// Candidates from the screening that are measured again (with the move played).
pub const CONFIRM: usize = 3;

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

/// Judges one decision (`None`: one legal move only, nothing to judge). [`crate::quality::move_quality`]
/// does this for every decision of a game, on several threads.
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

#[cfg(test)]
mod tests {
    use super::*;
    use carc_rules::Effects;

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
    fn value_is_own_score_minus_the_best_other() {
        assert_eq!(value_of(&[50, 70, 40], 0), -20.0);
        assert_eq!(value_of(&[50, 70, 40], 1), 20.0);
        assert_eq!(value_of(&[33], 0), 33.0);
        assert_eq!(value_of(&[], 3), 0.0);
    }
}
