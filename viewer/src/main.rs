//! `carc-viewer [LOG.jsonl]`: opens the viewer window, optionally on a game log.

use std::path::PathBuf;
use std::process::ExitCode;

use carc_viewer::app::Persisted;
use carc_viewer::{Command, ViewerApp, AT_ENV, TILES_ENV};

const USAGE: &str = "usage: carc-viewer [LOG.jsonl]

Opens the Carcassonne replay viewer, on LOG.jsonl if given (otherwise on the last file
opened). Keys: Left/Right event, Shift+Left/Right turn, Ctrl+Left/Right scoring event,
Home/End, Space play/pause. Environment: CARC_VIEWER_AT=N jumps to event N at start;
CARC_VIEWER_TILES=1 opens the tile-set window.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = match args.as_slice() {
        [] => None,
        [a] if a == "-h" || a == "--help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        [a] if a == "-V" || a == "--version" => {
            println!("carc-viewer {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        [a] if a.starts_with('-') && a != "-" => {
            eprintln!("carc-viewer: unknown option {a}\n{USAGE}");
            return ExitCode::from(2);
        }
        [a] => Some(PathBuf::from(a)),
        _ => {
            eprintln!("carc-viewer: expected at most one argument\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let at: Option<usize> = match std::env::var(AT_ENV) {
        Ok(v) => match v.trim().parse() {
            Ok(n) => Some(n),
            Err(_) => {
                eprintln!("carc-viewer: {AT_ENV}={v:?} is not an event number");
                return ExitCode::from(2);
            }
        },
        Err(_) => None,
    };

    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("carc-viewer")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    let result = eframe::run_native(
        "carc-viewer",
        options,
        Box::new(move |cc| {
            let mut app = ViewerApp::new();
            let persisted: Persisted = cc
                .storage
                .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                .unwrap_or_default();
            app.restore(&persisted, path.is_none());
            if let Some(p) = &path {
                app.open(p);
            }
            if std::env::var_os(TILES_ENV).is_some_and(|v| v == "1") {
                app.show_tiles = true;
            }
            if let Some(n) = at {
                app.command(Command::JumpTo(n));
                app.apply_now();
            }
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("carc-viewer: cannot open the window: {e}");
            ExitCode::FAILURE
        }
    }
}
