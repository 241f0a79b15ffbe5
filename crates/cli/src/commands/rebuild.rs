//! `carc rebuild`: the store recreated from a folder of logs (an old store moved aside with
//! `--force`).

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use carc_rules::TileSet;
use clap::Args;

use crate::input::collect_files;
use crate::store_context::Ctx;
use crate::store_import::{import_all, print_import_report};

#[derive(Args)]
pub struct RebuildArgs {
    /// Folder of logs: every `*.jsonl` log, `*.jcz` JCloisterZone saved game and `*.json` Board
    /// Game Arena replay in it is imported.
    #[arg(long, value_name = "DIR")]
    from: PathBuf,
    /// If the store already holds games, move its folder aside to `<store>.old-<n>` first.
    #[arg(long)]
    force: bool,
    /// One JSON object on stdout instead of the text summary.
    #[arg(long)]
    json: bool,
}

pub fn rebuild(ctx: &Ctx, args: RebuildArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    if !args.from.is_dir() {
        bail!("{} is not a folder of logs", args.from.display());
    }
    let files = collect_files(std::slice::from_ref(&args.from))?;
    let mut store = ctx.open()?;
    let held = store.streams()?.len();
    if held > 0 {
        if !args.force {
            bail!(
                "store {} already holds {held} games; use --force to move it aside to {}.old-<n> and rebuild",
                ctx.store_dir.display(),
                ctx.store_dir.display()
            );
        }
        store.flush()?;
        drop(store);
        let aside = (1..)
            .map(|n| {
                let mut name = ctx.store_dir.as_os_str().to_owned();
                name.push(format!(".old-{n}"));
                PathBuf::from(name)
            })
            .find(|p| !p.exists())
            .expect("some free name");
        fs::rename(&ctx.store_dir, &aside).with_context(|| {
            format!(
                "cannot move {} aside to {}",
                ctx.store_dir.display(),
                aside.display()
            )
        })?;
        ctx.info(format!(
            "moved the old store ({held} games) to {}",
            aside.display()
        ));
        store = ctx.open()?;
    }
    let report = import_all(ctx, &store, &files, loaded)?;
    ctx.info(format!(
        "rebuilt store {} from {}",
        ctx.store_dir.display(),
        args.from.display()
    ));
    print_import_report(&report, args.json)?;
    Ok(report.exit_code())
}
