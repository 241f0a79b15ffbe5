//! Where the store is and how chatty stderr is (`Ctx`), shared by every verb that may read or
//! write the store, and the one look-up `main` makes before parsing a stored game id as FILE.

use std::path::PathBuf;

use anyhow::Result;
use carc_archive::{check_game_id, read_game};
use carc_store::Store;

/// Where the store is and how chatty stderr is.
pub struct Ctx {
    pub store_dir: PathBuf,
    pub quiet: bool,
    pub verbose: bool,
}

impl Ctx {
    /// `--store DIR`, else `$CARC_STORE`, else `./carc-store`.
    pub fn new(store: Option<PathBuf>, quiet: bool, verbose: bool) -> Ctx {
        let store_dir = store
            .or_else(|| {
                std::env::var_os("CARC_STORE")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .unwrap_or_else(|| PathBuf::from("carc-store"));
        // Without a trailing `/`, so that `<dir>.old-<n>` is a sibling of the folder.
        let store_dir = store_dir.components().collect();
        Ctx {
            store_dir,
            quiet,
            verbose,
        }
    }

    /// Opens (creating on first use) the store. A store held by another process is the
    /// error "store <dir> is in use by another process".
    pub fn open(&self) -> Result<Store> {
        Ok(Store::open(&self.store_dir)?)
    }

    /// A note on stderr unless `--quiet`.
    pub fn info(&self, msg: impl std::fmt::Display) {
        if !self.quiet {
            eprintln!("carc: {msg}");
        }
    }

    /// A note on stderr with `--verbose` only.
    pub fn debug(&self, msg: impl std::fmt::Display) {
        if self.verbose {
            eprintln!("carc: {msg}");
        }
    }

    pub fn no_game(&self, game: &str) -> anyhow::Error {
        anyhow::anyhow!(
            "no game {game:?} in store {}; `carc games` lists the stored games",
            self.store_dir.display()
        )
    }
}

/// The effective log of a stored game, if the store folder exists and holds it. Used by
/// `main` to let replay/explain/legal take a game id instead of a file. Never creates the store.
pub fn stored_log_bytes(ctx: &Ctx, game: &str) -> Result<Option<Vec<u8>>> {
    if !ctx.store_dir.is_dir() || check_game_id(game).is_err() {
        return Ok(None);
    }
    let store = ctx.open()?;
    match read_game(&store, game)? {
        Some(sg) => Ok(Some(sg.effective_bytes()?)),
        None => Ok(None),
    }
}
