//! `carc check`: whole logs validated (decode, fold, assertions, a bundle's own records), one
//! line or JSON object per file. Files are checked on worker threads and reported in input
//! order (`carc-in-order`), so the output is the same on any number of threads.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use carc_replay::{check_assertions, fold};
use carc_rules::TileSet;
use clap::Args;
use serde_json::json;

use crate::exit_code;
use crate::input::{list_inputs, Inputs};
use crate::json;
use carc_replay::describe::visible;

#[derive(Args)]
pub struct CheckArgs {
    /// Game files: our logs (JSON Lines), JCloisterZone saved games (.jcz), Board Game Arena
    /// replays (JSON), or folders: a folder checks every `*.jsonl`, `*.jcz` and `*.json` in
    /// it, sorted (not those of its sub-folders, which are named as skipped).
    #[arg(required = true, value_name = "FILE|DIR")]
    files: Vec<PathBuf>,
    /// One JSON object per file on stdout.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: every core). The output is the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
}

/// How many checked files per worker may wait for their turn to be printed: each is one line,
/// so the memory held is the files being read (one per worker) and these lines.
const WINDOW_PER_THREAD: usize = 16;

pub fn check(args: CheckArgs, loaded: &[TileSet], quiet: bool) -> Result<ExitCode> {
    let Inputs { files, sub_folders } = list_inputs(&args.files)?;
    if !quiet {
        for folder in sub_folders {
            eprintln!(
                "carc: skipped the sub-folder {}: a folder's own game files are checked, not \
                 those of its sub-folders (name it to check it)",
                folder.display()
            );
        }
    }
    if files.is_empty() {
        // Only folders were named, and none holds a game file: checking nothing is no success.
        bail!(
            "no game files (*.jsonl, *.jcz, *.json) in {}",
            args.files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let mut codes = Vec::with_capacity(files.len());
    let mut out = crate::terminal::bulk_stdout();
    // The report is built and formatted on the worker; this thread only prints it.
    let job = |i: usize| {
        let report = check_file(&files[i], loaded);
        let code = file_code(&report);
        let line = if args.json {
            report.to_string()
        } else {
            check_text(&report)
        };
        (code, line)
    };
    carc_in_order::map_in_order(
        files.len(),
        threads,
        threads * WINDOW_PER_THREAD,
        job,
        |i, checked| {
            let (code, line) = checked.unwrap_or_else(|panicked| {
                // A bug in the checks: this file's line says so, the others go on.
                let report = json!({"file": files[i].display().to_string(), "ok": false,
                    "events": 0, "finished": false, "final_scores": [],
                    "error": {"line": 0, "event": null, "rule": "internal",
                              "message": format!("{panicked}; please report it")}});
                let line = if args.json {
                    report.to_string()
                } else {
                    check_text(&report)
                };
                (exit_code::CANNOT_RUN, line)
            });
            codes.push(code);
            writeln!(out, "{line}")
        },
    )?;
    out.flush()?;
    Ok(exit_code::worst(codes))
}

/// A file's exit code: 0 legal, 2 unreadable, 1 illegal.
fn file_code(report: &serde_json::Value) -> u8 {
    if report["ok"] == json!(true) {
        exit_code::OK
    } else if report["error"]["rule"] == json!("io") {
        // A file that cannot be read is a usage/IO error, not an illegal log.
        exit_code::CANNOT_RUN
    } else {
        exit_code::ILLEGAL
    }
}

fn check_file(file: &Path, loaded: &[TileSet]) -> serde_json::Value {
    let name = file.display().to_string();
    let fail = |line: usize, event: Option<u64>, rule: &str, message: String| {
        json!({"file": name, "ok": false, "events": 0, "finished": false, "final_scores": [],
               "error": {"line": line, "event": event, "rule": rule, "message": message}})
    };
    let bytes = match carc_formats::read_game_bytes(file) {
        Ok(b) => b,
        Err(e) => return fail(0, None, "io", e.to_string()),
    };
    let log = match crate::input::read_game_file(file, &bytes) {
        Ok(log) => log,
        Err(e) => {
            let mut report = fail(e.line(), None, e.rule(), e.message());
            // Converted files (JCloisterZone, Board Game Arena) also say where in their JSON.
            if let Some(column) = e.column() {
                report["error"]["column"] = json!(column);
            }
            if let Some(path) = e.json_path() {
                report["error"]["path"] = json!(path);
            }
            return report;
        }
    };
    let bundle_problem = crate::companions::bundle_problem(&log, loaded);
    let timeline = fold(log, loaded);
    let final_scores: Vec<serde_json::Value> = timeline
        .final_scores()
        .iter()
        .enumerate()
        .map(|(seat, s)| json!({"player": json::seat_name(&timeline.log.header, seat as u8), "score": s}))
        .collect();
    let mut report = json!({
        "file": name,
        "ok": true,
        "events": timeline.steps.len(),
        "finished": timeline.finished,
        "final_scores": final_scores,
    });
    // A game the players ended early (`game_ended`) says how many tiles were left.
    let ended_early = timeline.steps.last().and_then(|s| {
        s.effects.notes.iter().find_map(|n| match n {
            carc_rules::Note::EndedEarly { left } => Some(*left),
            _ => None,
        })
    });
    if let Some(left) = ended_early {
        report["ended_early"] = json!({ "bag_left": left });
    }
    let failures = if timeline.error.is_none() {
        check_assertions(&timeline)
    } else {
        Vec::new()
    };
    // Every assertion of a Board Game Arena game is a score BGA stated (docs/bga.md): how
    // many were compared is the point of checking such a file, so it is said, not implied.
    if timeline.error.is_none()
        && matches!(
            timeline.log.header.source,
            Some(carc_events::Source::Bga { .. })
        )
    {
        let checked = timeline.log.assertions.len();
        report["bga_claims"] =
            json!({"checked": checked, "agreed": checked.saturating_sub(failures.len())});
    }
    if let Some(err) = &timeline.error {
        report["ok"] = json!(false);
        report["error"] = json!({"line": err.line(), "event": err.seq(), "rule": err.rule(), "message": carc_replay::describe::error_message(&timeline.log.header, err)});
    } else if let Some(f) = failures.first() {
        report["ok"] = json!(false);
        report["error"] = json!({"line": f.line, "event": null, "rule": "log.assertion",
                                 "message": f.message()});
        // A converted file's claim (BGA's scoring) is shown where the file states it: the
        // notification's line, column and JSON path in the replay, not a converted line
        if let Some((path, at)) = carc_formats::claim_in_file(file, &bytes, f.line) {
            report["error"]["line"] = json!(at.line);
            report["error"]["column"] = json!(at.column);
            report["error"]["message"] = json!(format!("{} (stated at {path})", f.message()));
            report["error"]["path"] = json!(path);
        }
    } else if let Some((line, message)) = bundle_problem {
        report["ok"] = json!(false);
        report["error"] =
            json!({"line": line, "event": null, "rule": "log.companion", "message": message});
    }
    report
}

fn check_text(r: &serde_json::Value) -> String {
    let file = visible(r["file"].as_str().unwrap_or("?"));
    if r["ok"] == json!(true) {
        let scores = json::scores_words(&r["final_scores"]);
        let early;
        let state = match r["ended_early"]["bag_left"].as_u64() {
            Some(left) => {
                early = format!("final scores (ended early, {left} tiles left in the bag)");
                early.as_str()
            }
            None if r["finished"] == json!(true) => "final scores",
            None => "in progress, scores",
        };
        let claims = match r["bga_claims"]["checked"].as_u64() {
            Some(1) => "; Board Game Arena's 1 score claim checked: it agrees".to_string(),
            Some(n) => format!("; Board Game Arena's {n} score claims checked: all agree"),
            None => String::new(),
        };
        format!(
            "{file}: ok, {} events; {state}: {}{claims}",
            r["events"],
            scores.join(", ")
        )
    } else {
        let e = &r["error"];
        let event = e["event"]
            .as_u64()
            .map(|s| format!(" event {s}:"))
            .unwrap_or_default();
        // Line 0: the file as a whole (unreadable, or an error of a converted file whose
        // place is a JSON path rather than a line).
        let line = match (e["line"].as_u64(), e["column"].as_u64()) {
            (Some(0) | None, _) => String::new(),
            (Some(n), Some(c)) => format!("{n}:{c}:"),
            (Some(n), None) => format!("{n}:"),
        };
        format!(
            "{file}:{line}{event} [{}] {}",
            e["rule"].as_str().unwrap_or("?"),
            e["message"].as_str().unwrap_or("?")
        )
    }
}
