//! Where the store is and how chatty stderr is (`Ctx`), shared by every verb that may read or
//! write the store, and the one look-up `main` makes before parsing a stored game id as FILE.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use carc_archive::{check_game_id, read_game};
use carc_store::swap::{self, Interrupted};
use carc_store::{Store, StoreError};

/// Where the store is and how chatty stderr is.
pub struct Ctx {
    pub store_dir: PathBuf,
    pub quiet: bool,
    pub verbose: bool,
    /// What this process is, as a process refused the store is told while it holds it
    /// ("carc import", "carc record shell on game g1"; see `carc_store::Store::open_as`).
    pub holder: String,
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
            holder: "carc".into(),
        }
    }

    /// Opens (creating on first use) the store. A store held by another process is the
    /// error "store <dir> is in use by another process"; a path that is a file, a read-only
    /// file system and a full disk each get a sentence of their own (docs/store.md).
    pub fn open(&self) -> Result<Store> {
        self.open_as(&self.holder)
    }

    /// [`Ctx::open`], naming this process `holder` while it holds the store.
    pub fn open_as(&self, holder: &str) -> Result<Store> {
        self.check_path()?;
        Store::open_as(&self.store_dir, holder).map_err(|e| self.open_error(e.into()))
    }

    /// [`Ctx::open`] for verbs that only read (`games`, `export`, `verify` without
    /// `--repair`, a stored game given as FILE). sled writes whenever it opens a store, so on a
    /// read-only file system (or a folder this user may not write, or a full disk) the store
    /// cannot be opened in place: those verbs then read a copy of it made in a temporary
    /// folder, and say so on stderr.
    pub fn open_for_reading(&self) -> Result<ReadStore> {
        self.check_path()?;
        // These verbs walk the store about once: a small page cache costs them no time.
        let open = |dir: &Path| {
            Store::open_with_cache_as(dir, carc_store::SMALL_CACHE_CAPACITY, &self.holder)
        };
        let error = match open(&self.store_dir) {
            Ok(store) => {
                return Ok(ReadStore {
                    store,
                    _copy: None,
                    copied_because: None,
                })
            }
            Err(e) => anyhow::Error::from(e),
        };
        let why = StorePlace::of(&error);
        if why == StorePlace::Other {
            return Err(self.open_error(error));
        }
        let temp = std::env::temp_dir();
        let copy = tempfile::tempdir().with_context(|| {
            format!(
                "{}, and no temporary folder could be made in {} to read a copy of it (TMPDIR names another)",
                self.open_error(anyhow::anyhow!("{error:#}")),
                temp.display()
            )
        })?;
        let into = copy.path().join("store");
        copy_dir(&self.store_dir, &into).map_err(|e| {
            self.open_error(error).context(format!(
                "and it could not be copied to {} to read it ({e:#}; TMPDIR names another temporary folder)",
                copy.path().display()
            ))
        })?;
        self.info(format!(
            "store {} {}: reading a copy of it in a temporary folder",
            self.store_dir.display(),
            why.words()
        ));
        let store = open(&into).map_err(|e| self.open_error(e.into()))?;
        Ok(ReadStore {
            store,
            _copy: Some(copy),
            copied_because: Some(why.words()),
        })
    }

    /// [`Ctx::open_for_reading`] for a FILE|GAME argument that names no file: a stored game.
    /// A store that does not exist is not created (a mistyped file name would leave an empty
    /// `./carc-store` behind): the error says there is neither such a file nor a store.
    pub fn open_for_stored_game(&self, game: &str) -> Result<ReadStore> {
        if !self.store_dir.exists() {
            self.finish_interrupted_rebuild()?;
        }
        if !self.store_dir.is_dir() {
            bail!(
                "{game}: no such file, and no store at {} to find a game of that id in",
                self.store_dir.display()
            );
        }
        self.open_for_reading()
    }

    /// A store path must be a folder, or not exist yet with folders (not files) above it. A
    /// rebuild killed while it put its store in place is finished first.
    fn check_path(&self) -> Result<()> {
        let dir = &self.store_dir;
        if dir.exists() && !dir.is_dir() {
            bail!(
                "store {} is a file, not a store folder; --store (or CARC_STORE) names a folder, which is created on first use",
                dir.display()
            );
        }
        if let Some(file) = dir
            .ancestors()
            .skip(1)
            .find(|a| !a.as_os_str().is_empty() && a.exists() && !a.is_dir())
        {
            bail!(
                "store {}: {} is a file, not a folder, so the store cannot be there",
                dir.display(),
                file.display()
            );
        }
        self.finish_interrupted_rebuild()
    }

    /// The error of a store that would not open, in a sentence that says why.
    fn open_error(&self, error: anyhow::Error) -> anyhow::Error {
        let dir = self.store_dir.display();
        match StorePlace::of(&error) {
            StorePlace::ReadOnly => anyhow::anyhow!(
                "store {dir} is on a read-only file system: this verb writes to the store; `games`, `export` and `verify` (without --repair) read it from a copy"
            ),
            StorePlace::NotWritable => anyhow::anyhow!(
                "store {dir} cannot be written by this user (permission denied): this verb writes to the store; `games`, `export` and `verify` (without --repair) read it from a copy"
            ),
            StorePlace::Full => anyhow::anyhow!(
                "store {dir}: the disk is full (no space left on device); free some space and run the command again (what the store acknowledged before is kept)"
            ),
            StorePlace::Other => match error.downcast_ref::<StoreError>() {
                Some(StoreError::Damaged { file, what, .. }) => anyhow::anyhow!(
                    "store {dir} is damaged and cannot be opened ({file}: {what}). Nothing was written to it; `carc salvage {dir} --out FOLDER` writes every game it can still read to FOLDER (and never writes to the store)"
                ),
                Some(e) if e.is_damage() => anyhow::anyhow!(
                    "store {dir} is damaged and cannot be opened ({e}); its files were left as they were. `carc salvage {dir} --out FOLDER` writes every game it can still read to FOLDER (and never writes to the store)"
                ),
                _ => error,
            },
        }
    }

    /// Finishes a `rebuild --force` that was killed between moving the old store aside and
    /// moving the rebuilt one in (the swap note `<store>.swap`, see `carc_store::swap`), and
    /// says what it found. `Store::open` would finish it too, silently.
    fn finish_interrupted_rebuild(&self) -> Result<()> {
        let dir = self.store_dir.display();
        match swap::finish_interrupted(&self.store_dir)? {
            Some(Interrupted::Finished { rebuilt, old }) => self.info(format!(
                "finished an interrupted rebuild: moved {} to {dir} (the old store is {})",
                rebuilt.display(),
                old.display()
            )),
            Some(Interrupted::NotStarted { rebuilt }) => self.info(format!(
                "a rebuild was interrupted before its store was put in place: {dir} is the old store, whole ({} is left for the next rebuild to remove)",
                rebuilt.display()
            )),
            Some(Interrupted::AlreadyDone) | None => {}
        }
        Ok(())
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

    /// The log of a FILE|GAME argument: a game file of any format we read, else the stored
    /// game of that id (its effective log).
    pub fn load_file_or_stored(&self, target: &str) -> Result<carc_events::Log> {
        let path = Path::new(target);
        if crate::input::names_a_file(path) {
            return crate::input::load_log(path);
        }
        let store = self.open_for_stored_game(target)?;
        Ok(read_game(&store, target)?
            .ok_or_else(|| self.no_game(target))?
            .effective_log()?)
    }

    pub fn no_game(&self, game: &str) -> anyhow::Error {
        anyhow::anyhow!(
            "no game {game:?} in store {}; `carc games` lists the stored games",
            self.store_dir.display()
        )
    }
}

/// A store opened for reading: in place, or a copy in a temporary folder (removed on drop).
pub struct ReadStore {
    store: Store,
    _copy: Option<tempfile::TempDir>,
    copied_because: Option<&'static str>,
}

impl ReadStore {
    /// Why the store is read from a copy (`is on a read-only file system`, …), if it is.
    pub fn copied_because(&self) -> Option<&'static str> {
        self.copied_because
    }
}

impl std::ops::Deref for ReadStore {
    type Target = Store;
    fn deref(&self) -> &Store {
        &self.store
    }
}

/// Why a store could not be opened in place, as far as the error tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StorePlace {
    ReadOnly,
    NotWritable,
    Full,
    Other,
}

impl StorePlace {
    /// From the OS error in the chain (sled passes it on only in its message, hence the text).
    fn of(error: &anyhow::Error) -> StorePlace {
        let code = error.chain().find_map(|c| {
            c.downcast_ref::<std::io::Error>()
                .and_then(std::io::Error::raw_os_error)
        });
        let text = format!("{error:#}");
        let has = |n: i32| code == Some(n) || text.contains(&format!("(os error {n})"));
        if has(30) {
            StorePlace::ReadOnly
        } else if has(13) {
            StorePlace::NotWritable
        } else if has(28) {
            StorePlace::Full
        } else {
            StorePlace::Other
        }
    }

    fn words(self) -> &'static str {
        match self {
            StorePlace::ReadOnly => "is on a read-only file system",
            StorePlace::NotWritable => "cannot be written by this user",
            StorePlace::Full => "is on a full disk",
            StorePlace::Other => "cannot be opened in place",
        }
    }
}

/// Copies a store folder (sled's files and folders) to `to`.
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// The effective log of a stored game, if the store folder exists and holds it. Used by
/// `main` to let replay/explain/legal take a game id instead of a file. Never creates the store.
pub fn stored_log_bytes(ctx: &Ctx, game: &str) -> Result<Option<Vec<u8>>> {
    if !ctx.store_dir.exists() {
        ctx.finish_interrupted_rebuild()?;
    }
    if !ctx.store_dir.is_dir() || check_game_id(game).is_err() {
        return Ok(None);
    }
    let store = ctx.open_for_reading()?;
    match read_game(&store, game)? {
        Some(sg) => Ok(Some(sg.effective_bytes()?)),
        None => Ok(None),
    }
}
