//! The "Puzzles" window: the puzzles of a `carc puzzles` file (JSON Lines). Choosing one opens
//! its game at the position, the drawn tile waiting; the user tries a move on the board as
//! anywhere else (the try is a variation, kept in memory), and once the tile is placed and the
//! meeple step taken the window says how close it came ([`crate::puzzles::verdict`]). "Show
//! the best move" tells the best move found, the move played and the engine's line.

use std::path::{Path, PathBuf};

use carc_rules::Game;
use egui::{RichText, ScrollArea};

use super::{ViewerApp, ERROR};
use crate::loaded::{GameSource, LoadedGame};
use crate::puzzles::{self, Puzzle, Verdict};

/// The puzzles open, and the one chosen.
pub(super) struct PuzzleSet {
    file: PathBuf,
    items: Vec<Puzzle>,
    chosen: Option<Chosen>,
    open: bool,
}

/// The puzzle chosen: its position (`None` if its game cannot be replayed to it).
struct Chosen {
    index: usize,
    position: Option<Game>,
    /// The seq of the position's last event (the draw): tries branch there.
    seq: u64,
    revealed: bool,
}

/// Where the user's try stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Try {
    /// The tile is placed; the meeple step is still to come.
    Placed,
    Judged(Verdict),
}

impl ViewerApp {
    /// Opens `path` as a puzzles file when it is one (a `.jsonl` whose first line has
    /// `puzzle_format`). `false` leaves it to be opened as a game.
    pub(super) fn open_if_puzzles(&mut self, path: &Path) -> bool {
        let is_jsonl = path.extension().is_some_and(|e| e == "jsonl");
        // Read as the CLI reads a file (a FIFO or a device is no puzzles file, and is then
        // refused by the game's reading with a message).
        let looks = is_jsonl
            && std::fs::metadata(path).is_ok_and(|m| m.len() <= puzzles::MAX_FILE_BYTES)
            && carc_formats::read_input_bytes(path).is_ok_and(|b| puzzles::is_puzzles(&b));
        if looks {
            self.open_puzzles(path);
        }
        looks
    }

    /// Opens a puzzles file in the Puzzles window. On failure the message is shown and what
    /// was open stays.
    pub fn open_puzzles(&mut self, path: &Path) {
        self.path_input = path.display().to_string();
        match puzzles::read_puzzles(path) {
            Ok(items) => {
                self.status = Some(format!("{} puzzle(s) from {}", items.len(), path.display()));
                self.open_error = None;
                self.last_file = Some(path.to_path_buf());
                self.last_stored_game = None;
                self.puzzles = Some(PuzzleSet {
                    file: path.to_path_buf(),
                    items,
                    chosen: None,
                    open: true,
                });
            }
            Err(e) => self.open_error = Some(e),
        }
    }

    /// The "Puzzles" toggle of the top bar, while a puzzles file is open.
    pub(super) fn puzzles_button(&mut self, ui: &mut egui::Ui) {
        if let Some(set) = &mut self.puzzles {
            if ui
                .selectable_label(set.open, "Puzzles")
                .on_hover_text(set.file.display().to_string())
                .clicked()
            {
                set.open = !set.open;
            }
        }
    }

    /// The puzzles open, if any.
    pub fn puzzle_list(&self) -> Option<&[Puzzle]> {
        self.puzzles.as_ref().map(|s| s.items.as_slice())
    }

    /// Opens puzzle `index` (from 0) at its position.
    pub fn choose_puzzle(&mut self, index: usize) {
        let Some(set) = &mut self.puzzles else { return };
        let Some(p) = set.items.get(index) else {
            return;
        };
        let game = LoadedGame::from_puzzle(&set.file, index + 1, p.log.clone());
        let seq = game.timeline.log.events.last().map_or(0, |(_, e)| e.seq);
        let steps = game.timeline.steps.len();
        let replayed = game.timeline.error.is_none() && steps == game.timeline.log.events.len();
        set.chosen = Some(Chosen {
            index,
            position: replayed
                .then(|| game.timeline.state_at(steps).ok())
                .flatten(),
            seq,
            revealed: false,
        });
        set.open = true;
        let what = format!(
            "puzzle {} of {}: {} to place tile {}",
            index + 1,
            set.items.len(),
            p.player,
            p.tile
        );
        self.install(game);
        self.status = Some(what);
    }

    /// The user's try at the chosen puzzle, read from the variation shown.
    fn puzzle_try(&self) -> Option<Try> {
        let set = self.puzzles.as_ref()?;
        let chosen = set.chosen.as_ref()?;
        let position = chosen.position.as_ref()?;
        let g = self.game.as_ref()?;
        let here = GameSource::Puzzle {
            file: set.file.clone(),
            number: chosen.index + 1,
        };
        if g.source != here {
            return None;
        }
        let root = self.variation.as_ref()?.chain.first()?;
        let v = g.variations.items().get(root)?;
        if v.parent.is_some() || v.after != chosen.seq {
            return None;
        }
        let events: Vec<_> = v.events.iter().map(|e| e.event.clone()).collect();
        let puzzle = &set.items[chosen.index];
        Some(match puzzles::tried_move(position, &events) {
            Some(m) => Try::Judged(puzzles::verdict(puzzle, position, &m)),
            None => Try::Placed,
        })
    }

    pub(super) fn puzzles_window(&mut self, ctx: &egui::Context) {
        let verdict = self.puzzle_try();
        let Some(set) = &mut self.puzzles else { return };
        if !set.open {
            return;
        }
        let mut open = true;
        let mut choose: Option<usize> = None;
        let count = set.items.len();
        // Over the details panel on the right, leaving the board free for the try.
        let right = ctx.content_rect().right();
        egui::Window::new("Puzzles")
            .open(&mut open)
            .default_pos([(right - 450.0).max(0.0), 60.0])
            .default_size([440.0, 420.0])
            .show(ctx, |ui| {
                ui.weak(set.file.display().to_string());
                if set.items.is_empty() {
                    ui.label("No puzzles in this file.");
                    return;
                }
                ScrollArea::vertical()
                    .id_salt("puzzle list")
                    .max_height(160.0)
                    .show(ui, |ui| {
                        for (i, p) in set.items.iter().enumerate() {
                            let current = set.chosen.as_ref().is_some_and(|c| c.index == i);
                            let row = format!(
                                "{}. {}, turn {}: {}, tile {} {}",
                                i + 1,
                                p.game,
                                p.turn,
                                p.player,
                                p.tile,
                                p.mark
                            );
                            if ui.selectable_label(current, row).clicked() {
                                choose = Some(i);
                            }
                        }
                    });
                let Some(chosen) = &mut set.chosen else {
                    ui.label("Choose a puzzle.");
                    return;
                };
                ui.separator();
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(chosen.index > 0, egui::Button::new("Previous puzzle"))
                        .clicked()
                    {
                        choose = Some(chosen.index - 1);
                    }
                    if ui
                        .add_enabled(chosen.index + 1 < count, egui::Button::new("Next puzzle"))
                        .clicked()
                    {
                        choose = Some(chosen.index + 1);
                    }
                });
                let p = &set.items[chosen.index];
                ui.label(
                    RichText::new(format!(
                        "Puzzle {} of {count}: {} to move, tile {} ({} in the game)",
                        chosen.index + 1,
                        p.player,
                        p.tile,
                        p.mark
                    ))
                    .strong(),
                );
                if chosen.position.is_none() {
                    ui.colored_label(
                        ERROR,
                        "This puzzle's game cannot be replayed to its position: see the message at the top.",
                    );
                    return;
                }
                ui.label(
                    "Find the best move: place the tile, rotate (R / wheel), choose the meeple.",
                );
                match verdict {
                    None => {}
                    Some(Try::Placed) => {
                        ui.label("Now choose the meeple (or no meeple) above the board.");
                    }
                    Some(Try::Judged(v)) => {
                        let text = RichText::new(puzzles::verdict_text(p, v)).strong();
                        ui.label(text);
                        ui.weak("To try another move, step back to the position (Left) and play again.");
                    }
                }
                if ui.button("Show the best move").clicked() {
                    chosen.revealed = true;
                }
                if chosen.revealed {
                    ui.label(format!(
                        "Best move found: {}, {}",
                        p.best.text,
                        puzzles::measured(&p.best)
                    ));
                    ui.label(format!(
                        "Move played: {}, {}",
                        p.played.text,
                        puzzles::measured(&p.played)
                    ));
                    if !p.line_moves.is_empty() {
                        ui.label("The engine's line:");
                        for step in &p.line_moves {
                            ui.label(format!(
                                "{}: tile {} {}",
                                step.player, step.tile, step.notation
                            ));
                        }
                    }
                }
            });
        if let Some(i) = choose {
            self.choose_puzzle(i);
        }
        if let Some(set) = &mut self.puzzles {
            set.open = open;
        }
    }
}
