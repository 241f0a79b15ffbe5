//! `carc rebuild`: the store recreated from a folder of logs. With `--force` a store that
//! holds games is rebuilt beside itself and swapped in only when complete; the old one is
//! kept (moved to `<store>.old-<n>`) and its annotations and variations are carried over.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use carc_archive::Companion;
use carc_rules::TileSet;
use carc_store::swap::{self, sibling};
use carc_store::{AppendOptions, ExpectedVersion, NewEvent, Store, StoreError};
use clap::Args;

use crate::input::{list_inputs, Inputs};
use crate::store_context::Ctx;
use crate::store_import::{import_all, print_import_report, ImportRun};

#[derive(Args)]
pub struct RebuildArgs {
    /// Folder of logs: every `*.jsonl` log, `*.jcz` JCloisterZone saved game and `*.json` Board
    /// Game Arena replay in it is imported.
    #[arg(long, value_name = "DIR")]
    from: PathBuf,
    /// If the store already holds games: build the new store beside it (`<store>.rebuild`),
    /// carry its annotations and variations over, and only when that is complete move the old
    /// store to `<store>.old-<n>` and the new one into its place.
    #[arg(long)]
    force: bool,
    /// One JSON object on stdout instead of the text summary.
    #[arg(long)]
    json: bool,
}

/// How many `<store>.old-<n>` folders rebuilds left beside the store.
fn old_stores(store: &Path) -> usize {
    let (Some(name), parent) = (store.file_name(), store.parent()) else {
        return 0;
    };
    let prefix = format!("{}.old-", name.to_string_lossy());
    let parent = match parent {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    fs::read_dir(parent).map_or(0, |entries| {
        entries
            .flatten()
            .filter(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.strip_prefix(&prefix)
                    .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
            })
            .count()
    })
}

pub fn rebuild(ctx: &Ctx, args: RebuildArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    if !args.from.is_dir() {
        bail!("{} is not a folder of logs", args.from.display());
    }
    let Inputs { files, sub_folders } = list_inputs(std::slice::from_ref(&args.from))?;
    for folder in sub_folders {
        ctx.info(format!(
            "skipped the sub-folder {}: the folder's own game files are read, not those of its \
             sub-folders",
            folder.display()
        ));
    }
    let run = ImportRun {
        threads: None,
        file_entries: args.json,
    };
    let old = ctx.open()?;
    let held = carc_archive::game_ids(&old)?.len();
    if old.streams()?.is_empty() {
        let report = import_all(ctx, &old, &files, loaded, run)?;
        ctx.info(format!(
            "rebuilt store {} from {}",
            ctx.store_dir.display(),
            args.from.display()
        ));
        print_import_report(&report, args.json)?;
        return Ok(report.exit_code());
    }
    if !args.force {
        bail!(
            "store {} already holds {held} games; use --force to rebuild it beside the old one, which is then kept as {}",
            ctx.store_dir.display(),
            sibling(&ctx.store_dir, ".old-<n>").display()
        );
    }

    // The new store is built beside the old one; the old one stays locked (by this process)
    // and untouched until the new one is complete, so a rebuild killed at any moment leaves
    // the old store at the path, whole.
    let building = sibling(&ctx.store_dir, ".rebuild");
    let new = open_fresh(ctx, &building)?;
    let report = import_all(ctx, &new, &files, loaded, run)?;
    if report.unreadable > 0 {
        // A file that could not be read may be a game the old store holds: swapping the new
        // store in would drop it without a word. The old store stays.
        drop(new);
        fs::remove_dir_all(&building)
            .with_context(|| format!("cannot remove {}", building.display()))?;
        print_import_report(&report, args.json)?;
        bail!(
            "{} of the files in {} could not be read; the store {} was not rebuilt and is left as it was",
            report.unreadable,
            args.from.display(),
            ctx.store_dir.display()
        );
    }
    let carried = carry_companions(&old, &new)?;
    let old_games = carc_archive::game_ids(&old)?;
    let new_games = carc_archive::game_ids(&new)?;
    new.flush()?;
    drop(new);
    drop(old);

    let aside = (1..)
        .map(|n| sibling(&ctx.store_dir, &format!(".old-{n}")))
        .find(|p| !p.exists())
        .context("no free name for the old store")?;
    // Through a swap note: a kill between the two renames leaves a note with which the next
    // open puts the rebuilt store in place, never a path without a store.
    swap::replace_with(&ctx.store_dir, &building, &aside).with_context(|| {
        format!(
            "cannot put the rebuilt store {} in the place of {} (the old one goes to {})",
            building.display(),
            ctx.store_dir.display(),
            aside.display()
        )
    })?;
    ctx.info(format!(
        "the old store ({held} games) is now {}",
        aside.display()
    ));
    let lost: Vec<&String> = old_games
        .iter()
        .filter(|g| new_games.binary_search(g).is_err())
        .collect();
    if !lost.is_empty() {
        ctx.info(format!(
            "{} games of the old store are not in the rebuilt one (no file of {} holds them): {}",
            lost.len(),
            args.from.display(),
            lost.iter()
                .map(|g| g.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let kept = old_stores(&ctx.store_dir);
    if kept > 1 {
        ctx.info(format!(
            "{kept} old stores are kept beside it ({}); remove those you no longer need",
            sibling(&ctx.store_dir, ".old-*").display()
        ));
    }
    if carried > 0 {
        ctx.info(format!(
            "carried {carried} annotation and variation records over from the old store"
        ));
    }
    ctx.info(format!(
        "rebuilt store {} from {}",
        ctx.store_dir.display(),
        args.from.display()
    ));
    print_import_report(&report, args.json)?;
    Ok(report.exit_code())
}

/// Opens an empty store at `dir`, removing what an earlier killed rebuild left there. A
/// rebuild still running holds its lock, and is reported instead.
fn open_fresh(ctx: &Ctx, dir: &Path) -> Result<Store> {
    if dir.exists() {
        match Store::open(dir) {
            Err(StoreError::InUse { .. }) => bail!(
                "{} is in use: another rebuild of {} is running",
                dir.display(),
                ctx.store_dir.display()
            ),
            // Ours to remove whatever state it is in: only a rebuild writes there.
            _ => {
                ctx.info(format!(
                    "removing {}, left by an interrupted rebuild",
                    dir.display()
                ));
                fs::remove_dir_all(dir)
                    .with_context(|| format!("cannot remove {}", dir.display()))?;
            }
        }
    }
    Ok(Store::open(dir)?)
}

/// Appends to `new` every annotation and variation record of `old` it does not hold yet (a
/// bundle in the logs folder may have brought some back already), in their order. Returns how
/// many were carried.
fn carry_companions(old: &Store, new: &Store) -> Result<usize> {
    let mut carried = 0;
    for stream in old.streams()? {
        if Companion::of_stream(&stream).is_none() {
            continue;
        }
        let have: Vec<Vec<u8>> = new
            .read_stream(&stream, 1)?
            .into_iter()
            .map(|e| e.payload)
            .collect();
        let mut version = have.len() as u64;
        for record in old.read_stream(&stream, 1)? {
            if have.contains(&record.payload) {
                continue;
            }
            version += 1;
            new.append_with(
                &stream,
                ExpectedVersion::Exactly(version - 1),
                &[NewEvent::new(format!("{stream}#{version}"), record.payload)],
                AppendOptions {
                    defer_flush: true,
                    ..AppendOptions::default()
                },
            )
            .with_context(|| format!("cannot carry {stream} over"))?;
            carried += 1;
        }
    }
    Ok(carried)
}
