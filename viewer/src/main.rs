//! `carc-viewer [--store DIR] [LOG.jsonl | --game ID | --puzzles FILE]`: opens the viewer
//! window, on a game log, a stored game or the puzzles of `carc puzzles`. The shell only parses arguments, opens the window, keeps what the viewer
//! persists, and lends the viewer the store (`store_library`); everything shown is in
//! `carc-viewer-ui`.

mod store_library;
mod store_record;

#[cfg(test)]
mod record_crash_tests;

use std::path::PathBuf;
use std::process::ExitCode;

use carc_viewer_ui::app::Persisted;
use carc_viewer_ui::{
    Command, ViewerApp, AT_ENV, QUALITY_ENV, RECORD_ENV, TILES_ENV, VARIATION_ENV,
};
use store_library::StoreLibrary;

const USAGE: &str = "usage: carc-viewer [--store DIR] [LOG.jsonl | --game ID | --puzzles FILE]

Opens the Carcassonne replay viewer on LOG.jsonl (or a JCloisterZone saved game, .jcz, or a
Board Game Arena replay, .json), or on
the stored game ID, or otherwise on the game opened last, showing its last position (Home: the empty table). The Games button lists the games of the store (DIR, else $CARC_STORE,
else ./carc-store; the store is only read while listing or opening, so `carc` can use it
meanwhile). Keys: Left/Right event, Shift+Left/Right turn, Ctrl+Left/Right scoring event,
Home/End, Space play/pause. Environment: CARC_VIEWER_AT=N jumps to event N at start;
CARC_VIEWER_TILES=1 opens the tile-set window; CARC_VIEWER_QUALITY=1 starts the move-quality
analysis of the game opened. --puzzles FILE opens the Puzzles window on the
JSON Lines of `carc puzzles` (a .jsonl of puzzles given as LOG.jsonl opens there too).";

/// What the command line asks for.
#[derive(Debug, Default, PartialEq)]
struct Args {
    file: Option<PathBuf>,
    game: Option<String>,
    store: Option<PathBuf>,
    puzzles: Option<PathBuf>,
}

enum Parsed {
    Run(Args),
    /// Print this on stdout and exit 0 (help, version).
    Print(String),
}

fn parse_args(args: &[String]) -> Result<Parsed, String> {
    let mut out = Args::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => return Ok(Parsed::Print(USAGE.to_string())),
            "-V" | "--version" => {
                return Ok(Parsed::Print(format!(
                    "carc-viewer {}",
                    env!("CARGO_PKG_VERSION")
                )))
            }
            "--store" | "--game" | "--puzzles" => {
                let value = it.next().ok_or_else(|| format!("{a} needs a value"))?;
                if a == "--puzzles" {
                    out.puzzles = Some(PathBuf::from(value));
                } else if a == "--store" {
                    out.store = Some(PathBuf::from(value));
                } else {
                    out.game = Some(value.clone());
                }
            }
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown option {s}")),
            s => {
                if out.file.is_some() {
                    return Err("expected at most one LOG.jsonl".to_string());
                }
                out.file = Some(PathBuf::from(s));
            }
        }
    }
    let asked = [
        out.file.is_some(),
        out.game.is_some(),
        out.puzzles.is_some(),
    ];
    if asked.iter().filter(|a| **a).count() > 1 {
        return Err("give only one of LOG.jsonl, --game ID and --puzzles FILE".to_string());
    }
    Ok(Parsed::Run(out))
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&argv) {
        Ok(Parsed::Run(args)) => args,
        Ok(Parsed::Print(text)) => {
            println!("{text}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("carc-viewer: {e}\n{USAGE}");
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
            .with_drag_and_drop(true)
            // Ask for the keyboard at once, so the arrow keys step through the game without a
            // click on the window first (window managers may still refuse).
            .with_active(true),
        ..Default::default()
    };
    let result = eframe::run_native(
        "carc-viewer",
        options,
        Box::new(move |cc| {
            let mut app = ViewerApp::new();
            // Record mode holds the store open; the game list goes through it meanwhile.
            let dir = StoreLibrary::default_dir(args.store.clone());
            let held = store_record::Held::default();
            app.set_library(Box::new(StoreLibrary::with_held(dir.clone(), held.clone())));
            app.set_recorder(Box::new(store_record::StoreRecorder::new(dir, held)));
            let persisted: Persisted = cc
                .storage
                .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                .unwrap_or_default();
            let asked = args.file.is_some() || args.game.is_some() || args.puzzles.is_some();
            app.restore(&persisted, !asked);
            if let Some(p) = &args.file {
                app.open(p);
            }
            if let Some(id) = &args.game {
                app.open_stored(id);
            }
            if let Some(p) = &args.puzzles {
                app.open_puzzles(p);
            }
            if std::env::var_os(TILES_ENV).is_some_and(|v| v == "1") {
                app.show_tiles = true;
            }
            if std::env::var_os(QUALITY_ENV).is_some_and(|v| v == "1") {
                app.analyse_quality(&cc.egui_ctx);
            }
            if let Some(id) = std::env::var_os(RECORD_ENV) {
                let id = id.to_string_lossy();
                if let Err(e) = app.continue_recording(&id) {
                    eprintln!("carc-viewer: {RECORD_ENV}={id:?}: {e}");
                }
            }
            if let Some(name) = std::env::var_os(VARIATION_ENV) {
                app.enter_variation(&name.to_string_lossy());
            }
            if let Some(n) = at {
                app.command(Command::JumpTo(n));
                app.apply_now();
            }
            Ok(Box::new(Shell { app, saved: None }))
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

/// The viewer in eframe's window, with what it persists between runs.
struct Shell {
    app: ViewerApp,
    /// What was last written to eframe's storage.
    saved: Option<Persisted>,
}

impl eframe::App for Shell {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.app.show(ui);
        // Keep the last game at once (eframe itself saves only on exit and every 30 s of
        // activity, and a killed viewer never exits).
        let now = self.app.persisted();
        if self.saved.as_ref() != Some(&now) {
            if let Some(storage) = frame.storage_mut() {
                eframe::set_value(storage, eframe::APP_KEY, &now);
                storage.flush();
            }
            self.saved = Some(now);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.app.persisted());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Args, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse_args(&args)? {
            Parsed::Run(a) => Ok(a),
            Parsed::Print(t) => Err(format!("printed {t}")),
        }
    }

    #[test]
    fn arguments() {
        assert_eq!(run(&[]).unwrap(), Args::default());
        let a = run(&["--store", "s", "x.jsonl"]).unwrap();
        assert_eq!(a.file, Some(PathBuf::from("x.jsonl")));
        assert_eq!(a.store, Some(PathBuf::from("s")));
        let a = run(&["--game", "g7"]).unwrap();
        assert_eq!(a.game.as_deref(), Some("g7"));
        assert!(run(&["--game"]).unwrap_err().contains("needs a value"));
        assert!(run(&["--game", "g", "x.jsonl"])
            .unwrap_err()
            .contains("only one of"));
        assert!(run(&["a", "b"]).unwrap_err().contains("at most one"));
        let a = run(&["--puzzles", "p.jsonl"]).unwrap();
        assert_eq!(a.puzzles, Some(PathBuf::from("p.jsonl")));
        assert!(run(&["--puzzles", "p.jsonl", "--game", "g"])
            .unwrap_err()
            .contains("only one of"));
        assert!(run(&["--frobnicate"])
            .unwrap_err()
            .contains("unknown option"));
        assert!(run(&["--help"]).unwrap_err().contains("usage: carc-viewer"));
    }
}
