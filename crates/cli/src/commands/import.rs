//! `carc import`: logs and JCloisterZone games validated and stored (the work is in
//! `store_import`, shared with `rebuild`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use carc_rules::TileSet;
use clap::Args;

use crate::input::{list_inputs, Inputs};
use crate::store_context::Ctx;
use crate::store_import::{import_all, print_import_report, ImportRun};

#[derive(Args)]
pub struct ImportArgs {
    /// Log files (JSON Lines), JCloisterZone saved games (`.jcz`) or Board Game Arena replays
    /// (JSON), or folders: a folder imports every `*.jsonl`, `*.jcz` and `*.json` in it, sorted
    /// (not those of its sub-folders, which are named as skipped).
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// One JSON object on stdout instead of the text summary.
    #[arg(long)]
    json: bool,
    /// Worker threads that read and check the files (default: every core). The store and
    /// the report are the same for any number: games are stored in file order.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
}

pub fn import(ctx: &Ctx, args: ImportArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let Inputs { files, sub_folders } = list_inputs(&args.paths)?;
    for folder in sub_folders {
        ctx.info(format!(
            "skipped the sub-folder {}: a folder's own game files are imported, not those of its \
             sub-folders (name it to import it)",
            folder.display()
        ));
    }
    let store = ctx.open()?;
    let run = ImportRun {
        threads: args.threads.map(|t| t as usize),
        file_entries: args.json,
    };
    let report = import_all(ctx, &store, &files, loaded, run)?;
    print_import_report(&report, args.json)?;
    Ok(report.exit_code())
}
