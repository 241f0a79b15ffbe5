//! The stored game `record` adds to: read from the store, refused when it takes no moves.

use anyhow::{bail, Result};
use carc_archive::{read_game, StoredGame};
use carc_events::Log;
use carc_replay::fold;
use carc_rules::TileSet;
use carc_store::Store;

use crate::exit_code;
use crate::store_context::Ctx;

/// The stored game, refusing sealed ones and finished ones, and its effective log.
pub fn load(ctx: &Ctx, store: &Store, game: &str, loaded: &[TileSet]) -> Result<(StoredGame, Log)> {
    let Some(sg) = read_game(store, game)? else {
        bail!(
            "no game {game:?} in store {}; start one with `carc record new {game} --players A,B`",
            ctx.store_dir.display()
        );
    };
    // A move on a game that is over is an illegal move (exit 1), as when the fold finds it.
    if sg.sealed {
        return Err(exit_code::IllegalInput(format!(
            "game {game} is over; no further moves (it is finished and sealed)"
        ))
        .into());
    }
    let log = sg.effective_log()?;
    // A finished game is sealed when it is stored (by `import`, and by the move that ends a
    // recorded game). One that is not was left so by an interrupted import of an older
    // release: it was imported finished, and `record` (undo included) never changes it.
    if fold(log.clone(), loaded).finished {
        // Not the move's fault but the store's state (exit 2): the message says what to run.
        bail!(
            "game {game} is finished but not sealed (an import was interrupted before sealing \
             it); it takes no further moves or undo; `carc verify --repair` seals it"
        );
    }
    Ok((sg, log))
}
