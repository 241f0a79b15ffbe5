//! Move quality in the viewer: "Analyse move quality" runs `carc_analysis::quality` on a
//! background thread (std::thread) and the window polls it each frame, so the UI never waits.
//! When the report is in, the marks (`?!`, `?`, `??`) appear in the event list, on the score
//! graph and, with the best move found, beside the current event.
//!
//! A new game cancels a run in progress (the worker stops after the turn it is judging) and
//! forgets the report of the previous game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

use carc_analysis::quality::{
    move_quality_with, Judge, Mark, QualityError, QualityOptions, QualityReport, TurnQuality,
};
use carc_replay::Timeline;
use egui::{Color32, RichText};

use crate::graph::{GraphMark, Series};

/// Every fixed text this module shows (checked against the fonts by a test).
pub const UI_TEXT: &[&str] = &[
    "Analyse move quality",
    "Cancel",
    "judging moves…",
    "move quality:",
    "Move quality",
    "the move played is the best found",
    "best found:",
    "loss",
    "playouts",
    "moves, screened,",
    "tile at rotated 270°, meeple on monastery through the companion arrow (+0.5) -12.0",
    "?! inaccuracy ? mistake ?? blunder",
    "seed",
    "playouts per move and stage for the next analysis: more is steadier and slower",
    "the same seed gives the same marks",
    "iterations",
    "engine iterations per search for the next analysis: more is steadier and slower",
    "% of the chance to win lost",
    "chance to win after the move played, after the best:",
    "moves, searched,",
    "expected line:",
];

/// Engine iterations per search the viewer offers (the CLI takes any number).
pub const NODE_CHOICES: [u64; 3] = [500, 2_000, 8_000];

/// Playouts per move the viewer offers (the CLI takes any number).
pub const PLAYOUT_CHOICES: [u32; 4] = [30, 100, 300, 1000];

/// Colours of the marks: yellow, orange, red (readable on both themes).
pub fn mark_color(mark: Mark) -> Color32 {
    match mark {
        Mark::Inaccuracy => Color32::from_rgb(215, 180, 30),
        Mark::Mistake => Color32::from_rgb(235, 130, 30),
        Mark::Blunder => Color32::from_rgb(225, 50, 45),
    }
}

/// The win-probability graph: its lines (percent) and the marks on them.
pub type WinGraph = (Series, Vec<GraphMark>);

/// The win-probability graph of `report`, the review of `timeline` (see
/// `carc_analysis::win_chances`): built once when the report comes in, not every frame.
fn win_graph_of(report: &QualityReport, timeline: &Timeline) -> Option<WinGraph> {
    let chances = carc_analysis::win_chances::win_chances(report, timeline)?;
    let marks = report
        .turns
        .iter()
        .filter_map(|t| {
            let (mark, win) = (t.mark?, t.win?);
            Some(GraphMark {
                x: (t.step + 1) as f64,
                y: 100.0 * win.played,
                glyph: mark.glyph(),
                color: mark_color(mark),
            })
        })
        .collect();
    Some((crate::graph::win_series(&chances), marks))
}

enum Msg {
    Progress(usize, usize),
    Finished(Box<Result<(QualityReport, Option<WinGraph>), QualityError>>),
}

enum State {
    Idle,
    Running {
        rx: Receiver<Msg>,
        cancel: Arc<AtomicBool>,
        done: usize,
        total: usize,
    },
    /// The report, and its win-probability graph (computed once, by the worker).
    Done(QualityReport, Option<WinGraph>),
    Failed(String),
}

/// The move-quality analysis of the open game: not run, running, done or failed.
pub struct QualityPanel {
    state: State,
    /// What the next run uses (playouts, seed, threads…).
    pub options: QualityOptions,
}

impl Default for QualityPanel {
    fn default() -> Self {
        QualityPanel::new()
    }
}

impl Drop for QualityPanel {
    fn drop(&mut self) {
        self.reset();
    }
}

impl QualityPanel {
    pub fn new() -> QualityPanel {
        QualityPanel {
            state: State::Idle,
            options: QualityOptions::default(),
        }
    }

    /// Starts judging `timeline` on a background thread (cancelling a run in progress).
    /// `ctx` is asked to repaint whenever the worker has news.
    pub fn start(&mut self, timeline: &Timeline, ctx: &egui::Context) {
        self.reset();
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let timeline = timeline.clone();
        let options = self.options.clone();
        let ctx = ctx.clone();
        let stop = Arc::clone(&cancel);
        let spawned = std::thread::Builder::new()
            .name("move-quality".into())
            .spawn(move || {
                let progress = |done, total| {
                    let _ = tx.send(Msg::Progress(done, total));
                    ctx.request_repaint();
                };
                let r = move_quality_with(&timeline, &options, &progress, &stop).map(|report| {
                    let win = win_graph_of(&report, &timeline);
                    (report, win)
                });
                let _ = tx.send(Msg::Finished(Box::new(r)));
                ctx.request_repaint();
            });
        self.state = match spawned {
            Ok(_) => State::Running {
                rx,
                cancel,
                done: 0,
                total: 0,
            },
            Err(e) => State::Failed(format!("cannot start the analysis: {e}")),
        };
    }

    /// Cancels a run in progress and forgets any report (a new game was opened).
    pub fn reset(&mut self) {
        if let State::Running { cancel, .. } = &self.state {
            cancel.store(true, Ordering::Relaxed);
        }
        self.state = State::Idle;
    }

    /// Takes in what the worker sent since the last frame; keeps frames coming while it runs.
    pub fn poll(&mut self, ctx: &egui::Context) {
        let State::Running {
            rx, done, total, ..
        } = &mut self.state
        else {
            return;
        };
        let mut finished = None;
        loop {
            match rx.try_recv() {
                Ok(Msg::Progress(d, t)) => {
                    *done = d;
                    *total = t;
                }
                Ok(Msg::Finished(r)) => {
                    finished = Some(*r);
                    break;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    finished = Some(Err(QualityError::Cancelled));
                    break;
                }
            }
        }
        match finished {
            Some(Ok((report, win))) => self.state = State::Done(report, win),
            Some(Err(e)) => self.state = State::Failed(e.to_string()),
            None => ctx.request_repaint_after(Duration::from_millis(200)),
        }
    }

    pub fn is_running(&self) -> bool {
        matches!(self.state, State::Running { .. })
    }

    /// Turns judged so far and in all, while running.
    pub fn progress(&self) -> Option<(usize, usize)> {
        match self.state {
            State::Running { done, total, .. } => Some((done, total)),
            _ => None,
        }
    }

    pub fn report(&self) -> Option<&QualityReport> {
        match &self.state {
            State::Done(r, _) => Some(r),
            _ => None,
        }
    }

    pub fn error(&self) -> Option<&str> {
        match &self.state {
            State::Failed(e) => Some(e),
            _ => None,
        }
    }

    /// The judged turn whose tile placement is event `seq`, once the report is in.
    pub fn turn(&self, seq: u64) -> Option<&TurnQuality> {
        self.report()?.turn_at(seq)
    }

    /// What the event list adds to the row of event `seq`: the engine's mark, named as the
    /// engine's so it is not read as the user's own glyph beside it, and what the move gave
    /// away: the chance to win (the engine judge) or points of margin (the playout judge).
    pub fn row_suffix(&self, seq: u64) -> Option<String> {
        let t = self.turn(seq)?;
        let mark = t.mark?;
        Some(match t.win {
            Some(w) => format!("  engine {} -{:.0}% win", mark.glyph(), w.lost),
            None => format!("  engine {} -{:.1} pts", mark.glyph(), t.loss),
        })
    }

    /// The hover text of a marked row: which mark is whose, and what the engine's says.
    pub fn row_explanation(&self, seq: u64) -> Option<String> {
        let t = self.turn(seq)?;
        let mark = t.mark?;
        let lost = match t.win {
            Some(w) => format!(
                "gave away {:.0} points of the chance to win ({:.1} points of expected margin)",
                w.lost, t.loss
            ),
            None => format!("gave away {:.1} points of expected final margin", t.loss),
        };
        Some(format!(
            "engine {}: the engine's mark ({}): this move {lost}; the best found: {}. A glyph \
             before it is your own annotation.",
            mark.glyph(),
            mark.name(),
            t.best.text
        ))
    }

    /// The marks for the score graph: at the position after the placement, on the mover's
    /// score line.
    pub fn graph_marks(&self, steps: &[carc_replay::Step]) -> Vec<GraphMark> {
        let Some(r) = self.report() else {
            return Vec::new();
        };
        r.turns
            .iter()
            .filter_map(|t| {
                let mark = t.mark?;
                let step = steps.get(t.step)?;
                let score = step.scores_after.get(usize::from(t.seat)).copied()?;
                Some(GraphMark {
                    x: (t.step + 1) as f64,
                    y: f64::from(score),
                    glyph: mark.glyph(),
                    color: mark_color(mark),
                })
            })
            .collect()
    }

    /// The win-probability graph's lines (percent) and marks, once the engine judge's report
    /// is in (`None` with the playout judge, which measures points only).
    pub fn win_graph(&self) -> Option<&WinGraph> {
        match &self.state {
            State::Done(_, win) => win.as_ref(),
            _ => None,
        }
    }

    /// The top-bar control: the button (or the progress and Cancel while running) and the
    /// outcome. `timeline` is the open game, if any.
    pub fn toolbar(&mut self, ui: &mut egui::Ui, timeline: Option<&Timeline>) {
        if let Some((done, total)) = self.progress() {
            ui.add(egui::Spinner::new());
            ui.label(format!("judging moves… {done}/{total}"));
            if ui.button("Cancel").clicked() {
                self.reset();
            }
            return;
        }
        let Some(timeline) = timeline else { return };
        self.settings(ui);
        let r = ui
            .button("Analyse move quality")
            .on_hover_text(format!(
                "judge every move against the best found by {} playouts per move (on a background thread); marks ?! inaccuracy, ? mistake, ?? blunder",
                self.options.playouts
            ));
        if r.clicked() {
            let ctx = ui.ctx().clone();
            self.start(timeline, &ctx);
        }
        if let Some(report) = self.report() {
            let totals: Vec<String> = report
                .players
                .iter()
                .map(|p| {
                    format!(
                        "{} {}/{}/{}",
                        carc_replay::describe::visible(&p.name),
                        p.inaccuracies,
                        p.mistakes,
                        p.blunders
                    )
                })
                .collect();
            ui.weak(format!("move quality: {}", totals.join(", ")))
                .on_hover_text("?! inaccuracy ? mistake ?? blunder");
        } else if let Some(e) = self.error() {
            ui.colored_label(Color32::from_rgb(230, 70, 60), e);
        }
    }

    /// The settings of the next run: playouts per move (more is steadier and slower) and the
    /// seed (the same seed gives the same marks, as with `carc analyze --quality --seed`).
    fn settings(&mut self, ui: &mut egui::Ui) {
        if self.options.judge == Judge::Engine {
            let nodes = &mut self.options.nodes;
            egui::ComboBox::from_id_salt("quality nodes")
                .selected_text(format!("{nodes} iterations"))
                .show_ui(ui, |ui| {
                    for n in NODE_CHOICES {
                        ui.selectable_value(nodes, n, format!("{n} iterations"));
                    }
                })
                .response
                .on_hover_text(
                    "engine iterations per search for the next analysis: more is steadier and slower",
                );
        } else {
            let playouts = &mut self.options.playouts;
            egui::ComboBox::from_id_salt("quality playouts")
                .selected_text(format!("{playouts} playouts"))
                .show_ui(ui, |ui| {
                    for n in PLAYOUT_CHOICES {
                        ui.selectable_value(playouts, n, format!("{n} playouts"));
                    }
                })
                .response
                .on_hover_text(
                    "playouts per move and stage for the next analysis: more is steadier and slower",
                );
        }
        ui.add(
            egui::DragValue::new(&mut self.options.seed)
                .range(0..=u64::from(u32::MAX))
                .prefix("seed "),
        )
        .on_hover_text("the same seed gives the same marks");
    }

    /// The move quality of event `seq` in the details panel (nothing before the analysis has
    /// run, or for events that are no placement).
    pub fn details(&self, ui: &mut egui::Ui, seq: u64) {
        let Some(report) = self.report() else { return };
        let Some(t) = report.turn_at(seq) else {
            return;
        };
        ui.add_space(4.0);
        ui.strong("Move quality");
        ui.group(|ui| {
            ui.set_width(ui.available_width());
            let mark = t
                .mark
                .map_or(String::new(), |m| format!("{} {}, ", m.glyph(), m.name()));
            let head = match t.win {
                Some(w) => format!(
                    "{mark}{:.0} % of the chance to win lost, loss {:.1}",
                    w.lost, t.loss
                ),
                None => format!("{mark}loss {:.1}", t.loss),
            };
            match t.mark {
                Some(m) => ui.label(RichText::new(head).strong().color(mark_color(m))),
                None => ui.label(head),
            };
            ui.label(format!("{} ({:+.1})", t.played.text, t.played.value));
            if t.best.mv != t.played.mv {
                ui.label(format!(
                    "best found: {} ({:+.1})",
                    t.best.text, t.best.value
                ));
            } else {
                ui.weak("the move played is the best found");
            }
            if let Some(w) = t.win {
                ui.weak(format!(
                    "chance to win after the move played, after the best: {:.0} %, {:.0} %",
                    100.0 * w.played,
                    100.0 * w.best
                ));
            }
            if t.line.len() > 1 {
                let line: Vec<String> = t
                    .line
                    .iter()
                    .map(|m| format!("{} {}", m.tile, m.text))
                    .collect();
                ui.weak(format!("expected line: {}", line.join("; ")));
            }
            if report.options.judge == Judge::Engine {
                ui.weak(format!(
                    "{} moves, searched, {} iterations",
                    t.moves, report.options.nodes
                ));
            } else {
                ui.weak(format!(
                    "{} moves, {} screened, {} playouts",
                    t.moves, t.screened, report.options.playouts
                ));
            }
        });
    }
}
