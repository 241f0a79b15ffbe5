//! Move quality: every turn of a replayed game judged, on several threads, by the judge the
//! options name — the engine ([`crate::review`], the default) or playouts
//! ([`crate::playouts`]) — and summed up per player. The vocabulary (marks, options, the
//! report) is [`crate::verdict`]'s, re-exported here.
//!
//! The decision looked at is the drawn tile's placement with the rest of the turn: the arrow
//! to activate when several could be (20th Anniversary) and the meeple step (a meeple on the
//! tile, through a companion or portal arrow, or none). Gift openings (The Gifts) and the choice
//! of the Take 2 tile to return are not judged: they stand as played. A turn whose tile fits
//! nowhere, or that offers one move only, is no decision.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use carc_events::{event_to_action, game_from_header};
use carc_replay::describe::seat_name;
use carc_replay::Timeline;
use carc_rules::{Action, Effects, Phase, Placement};
use carc_sim::{turn_moves, Buffers, PlayoutError, TurnMove};

pub use crate::notation::move_text;
pub use crate::playouts::{best_move, judge, value_of, PlayoutPlayer, CONFIRM};
pub use crate::verdict::*;

/// What judging a decision gave: the turn, nothing (a single legal move) or the error.
type Judged = Result<Option<TurnQuality>, QualityError>;

/// Judges every move of `timeline` (its legal part). `progress(done, total)` is called after
/// each turn, from the worker threads.
pub fn move_quality(
    timeline: &Timeline,
    options: &QualityOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<QualityReport, QualityError> {
    move_quality_with(timeline, options, progress, &AtomicBool::new(false))
}

/// [`move_quality`] that stops with [`QualityError::Cancelled`] soon after `cancel` is set
/// (each worker finishes the turn it is judging).
pub fn move_quality_with(
    timeline: &Timeline,
    options: &QualityOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &AtomicBool,
) -> Result<QualityReport, QualityError> {
    let header = &timeline.log.header;
    let mut decisions = decisions(timeline)?;
    if let Some(seats) = &options.seats {
        decisions.retain(|d| seats.contains(&d.seat));
    }
    let total = decisions.len();
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    }
    .clamp(1, total.max(1));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Judged)>> = Mutex::new(Vec::with_capacity(total));
    let work = || {
        let mut buffers = Buffers::default();
        loop {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(d) = decisions.get(i) else { break };
            let r = judge_decision(d, options, &mut buffers)
                .map_err(|source| QualityError::Playout { seq: d.seq, source });
            results
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push((i, r));
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        }
    };
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
            for w in workers {
                if let Err(panic) = w.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
    }
    if cancel.load(Ordering::Relaxed) {
        return Err(QualityError::Cancelled);
    }
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let mut turns = Vec::with_capacity(results.len());
    for (_, r) in results {
        turns.extend(r?);
    }
    let players = (0..header.players.len())
        .map(|seat| summary(seat_name(header, seat as u8), seat as u8, &turns))
        .collect();
    Ok(QualityReport {
        game: header.game.clone(),
        options: options.clone(),
        turns,
        players,
        stopped: timeline.error.as_ref().map(|e| e.to_string()),
    })
}

/// Judges one decision with the judge the options name (`None`: one legal move only).
fn judge_decision(
    d: &Decision,
    options: &QualityOptions,
    buffers: &mut Buffers,
) -> Result<Option<TurnQuality>, PlayoutError> {
    if options.judge == Judge::Playouts {
        return judge(d, options, buffers);
    }
    let game = &d.before;
    let Phase::Place { tile } = game.phase() else {
        return Err(PlayoutError::Position("no tile waits to be placed".into()));
    };
    let mut listed = Vec::new();
    turn_moves(game, buffers, &mut listed);
    if listed.len() < 2 {
        return Ok(None);
    }
    let played = crate::notation::canonical(game, tile, &d.played);
    crate::review::judge_with_engine(d, options, listed.len(), tile, played)
}

fn summary(name: String, seat: u8, turns: &[TurnQuality]) -> PlayerQuality {
    let mine: Vec<&TurnQuality> = turns.iter().filter(|t| t.seat == seat).collect();
    let count = |m: Mark| mine.iter().filter(|t| t.mark == Some(m)).count() as u32;
    PlayerQuality {
        name,
        turns: mine.len() as u32,
        average_loss: if mine.is_empty() {
            0.0
        } else {
            mine.iter().map(|t| t.loss).sum::<f64>() / mine.len() as f64
        },
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
        accuracy: {
            let accuracies: Vec<f64> = mine
                .iter()
                .filter_map(|t| t.win)
                .map(|w| w.accuracy)
                .collect();
            (!accuracies.is_empty())
                .then(|| accuracies.iter().sum::<f64>() / accuracies.len() as f64)
        },
    }
}

/// Walks the legal part of the timeline and collects every placement decision that was
/// finished (tile placed and meeple step taken), in game order.
pub fn decisions(timeline: &Timeline) -> Result<Vec<Decision>, QualityError> {
    let mut game = game_from_header(&timeline.log.header, timeline.loaded_tile_sets())?;
    let mut fx = Effects::default();
    let mut out = Vec::new();
    let mut open: Option<Decision> = None;
    for (i, step) in timeline.steps.iter().enumerate() {
        let Ok(action) = event_to_action(&game, &step.event) else {
            break;
        };
        let phase = game.phase();
        let before = matches!(action, Action::Place { .. }).then(|| game.clone());
        if game.apply(&action, &mut fx).is_err() {
            break;
        }
        match (action, phase) {
            (Action::Place { at, rotation }, Phase::Place { .. }) => {
                if let Some(before) = before {
                    open = Some(Decision {
                        step: i,
                        seq: step.seq,
                        turn: step.turn,
                        seat: before.current_player(),
                        played: TurnMove {
                            placement: Placement { at, rotation },
                            arrow: None,
                            meeple: Action::SkipMeeple,
                        },
                        before,
                    });
                }
            }
            (Action::ChooseArrow { arrow }, _) => {
                if let Some(d) = open.as_mut() {
                    d.played.arrow = Some(arrow);
                }
            }
            (
                Action::PlaceMeeple { .. }
                | Action::PlaceArrowMeeple { .. }
                | Action::SkipMeeple
                // The Abbot: the abbot placed or taken back is the turn's figure step.
                | Action::PlaceAbbot { .. }
                | Action::TakeBackAbbot
                // Inns & Cathedrals: the large meeple.
                | Action::PlaceLargeMeeple { .. }
                // Traders & Builders: the builder or the pig.
                | Action::PlaceBuilder { .. }
                | Action::PlacePig { .. },
                _,
            ) => {
                if let Some(mut d) = open.take() {
                    d.played.meeple = action;
                    out.push(d);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}
