//! `Clone` for [`Game`], field by field, with a `clone_from` that reuses the target's buffers
//! (see `crate::reuse`): a simulated player copies the game for every move it tries.

use super::Game;
use crate::reuse::clone_reusing;

clone_reusing!(Game {
    tiles,
    options,
    players,
    board,
    features,
    meeples,
    supply,
    score,
    bag,
    in_game,
    bag_total,
    current,
    phase,
    turn,
    pending,
    set_aside,
    arrows,
    extra_pending,
    in_extra_turn,
    pseudo,
    abbot,
    inns,
    traders,
    map,
    gifts,
    river,
});
