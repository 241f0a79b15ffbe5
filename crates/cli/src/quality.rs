//! Move quality (`--quality`): the options and the progress bar, shared by `carc analyze` and
//! `carc export --format md|html`, and the ways each shows it (text, JSON, report extras).
//! The judging is `carc-analysis`.

use carc_replay::describe::visible;
use std::io::IsTerminal;

use anyhow::Result;
use carc_analysis::move_quality;
use carc_analysis::quality::{self, QualityOptions, QualityReport};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

use crate::store_context::Ctx;

/// The move-quality options, shared by `analyze` and `export --format md`.
#[derive(Args, Clone)]
pub struct QualityArgs {
    /// Judge every move of the game against the best found (one game only, but `export
    /// --format parquet` judges every game it writes; see docs/analysis.md): the marks ?! ? ??,
    /// each player's accuracy and average loss.
    #[arg(long)]
    pub quality: bool,
    #[command(flatten)]
    pub judge: JudgeArgs,
}

impl QualityArgs {
    pub fn options(&self, threads: Option<u32>) -> QualityOptions {
        self.judge.options(threads)
    }
}

/// Who judges and how hard (with `--quality`; `carc puzzles` always judges).
#[derive(Args, Clone)]
pub struct JudgeArgs {
    /// Who judges (with --quality, and in `carc puzzles`): the engine (default; marks by the
    /// chance to win lost) or playouts (today's flat Monte Carlo; marks by points lost).
    /// --playouts, --playout-strategy or --candidates alone choose playouts.
    #[arg(long, value_name = "JUDGE", value_parser = ["engine", "playouts"])]
    pub judge: Option<String>,
    /// The engine judge's iterations per search (two searches a turn), when moves are judged.
    #[arg(long, value_name = "N", default_value_t = quality::DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Playouts per candidate move and stage, when moves are judged (the playout judge; default 100).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub playouts: Option<u32>,
    /// Seed of the searches or playouts, when moves are judged: the same seed gives the same marks.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// How every seat plays in the playouts, when moves are judged (the playout judge): random
    /// (default, fast) or greedy (about a hundred times slower).
    #[arg(long, value_name = "STRATEGY", value_parser = ["random", "greedy"])]
    pub playout_strategy: Option<String>,
    /// Candidate moves screened per turn at most, when moves are judged (the playout judge; default
    /// 60; the best by immediate value, the move played always in).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub candidates: Option<u32>,
}

impl JudgeArgs {
    pub fn options(&self, threads: Option<u32>) -> QualityOptions {
        let playout_flags =
            self.playouts.is_some() || self.playout_strategy.is_some() || self.candidates.is_some();
        let judge = match self.judge.as_deref() {
            Some("playouts") => quality::Judge::Playouts,
            Some(_) => quality::Judge::Engine,
            None if playout_flags => quality::Judge::Playouts,
            None => quality::Judge::Engine,
        };
        QualityOptions {
            playouts: self.playouts.unwrap_or(quality::DEFAULT_PLAYOUTS),
            seed: self.seed,
            threads: threads.map_or(0, |t| t as usize),
            strategy: self
                .playout_strategy
                .as_deref()
                .and_then(carc_sim::Strategy::parse)
                .unwrap_or(carc_sim::Strategy::Random),
            max_candidates: self
                .candidates
                .map_or(quality::DEFAULT_MAX_CANDIDATES, |c| c as usize),
            judge,
            nodes: self.nodes,
            seats: None,
        }
    }
}

/// Whether the engine judged.
fn by_engine(q: &QualityReport) -> bool {
    q.options.judge == quality::Judge::Engine
}

/// How the judge worked, in one sentence.
fn method_words(q: &QualityReport) -> String {
    if by_engine(q) {
        format!(
            "the engine, {} iterations per search, seed {}; a move's value is the mover's chance to win after it (and its expected margin: own final score minus the best other player's)",
            q.options.nodes, q.options.seed
        )
    } else {
        format!(
            "{} playouts per move and stage, seed {}, {} playouts; value = own final score minus the best other player's",
            q.options.playouts,
            q.options.seed,
            strategy_words(q)
        )
    }
}

/// The marks' thresholds in words.
fn thresholds_words(q: &QualityReport) -> String {
    if by_engine(q) {
        format!(
            "marks by the chance to win lost: ?! inaccuracy (>= {} %), ? mistake (>= {} %), ?? blunder (>= {} %)",
            carc_analysis::verdict::WIN_INACCURACY,
            carc_analysis::verdict::WIN_MISTAKE,
            carc_analysis::verdict::WIN_BLUNDER
        )
    } else {
        format!(
            "marks: ?! inaccuracy (loss >= {}), ? mistake (>= {}), ?? blunder (>= {})",
            quality::INACCURACY,
            quality::MISTAKE,
            quality::BLUNDER
        )
    }
}

/// What a turn lost, in words.
fn lost_words(t: &carc_analysis::TurnQuality) -> String {
    match t.win {
        Some(w) => format!(
            "{:.0} % of the chance to win lost ({:.1} points)",
            w.lost, t.loss
        ),
        None => format!("{:.1} points lost", t.loss),
    }
}

/// The expected line after the best move, in words (the best move first).
fn line_words(q: &QualityReport, t: &carc_analysis::TurnQuality) -> String {
    t.line
        .iter()
        .map(|m| {
            let who = q
                .players
                .get(usize::from(m.seat))
                .map_or("?".into(), |p| visible(&p.name));
            format!("{who} {} {}", visible(&m.tile), m.text)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The move quality of a replayed game, with a progress bar on stderr (unless quiet or not a
/// terminal).
pub fn quality_of(
    ctx: &Ctx,
    timeline: &carc_replay::Timeline,
    options: &QualityOptions,
) -> Result<QualityReport> {
    let bar = if ctx.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} turns judged {elapsed} {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    };
    let report = move_quality(timeline, options, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    Ok(report?)
}

/// The engine judge's chances to win as the pages' graph (`None` from the playout judge).
fn win_chart(q: &QualityReport, timeline: &carc_replay::Timeline) -> Option<carc_report::WinChart> {
    let chances = carc_analysis::win_chances::win_chances(q, timeline)?;
    let caption = if chances.seats.len() == 2 {
        "Each player's chance to win after every judged move, as the engine measured it; the two \
         always sum to 100 %. The last point is the result."
    } else {
        "Each player's chance to win after each of their own judged moves, as the engine \
         measured it (with three or more players it measures the mover's chance only). The \
         last point is the result."
    };
    Some(carc_report::WinChart {
        seats: chances
            .seats
            .iter()
            .map(|line| line.iter().map(|p| (p.position, p.chance)).collect())
            .collect(),
        caption: caption.to_string(),
    })
}

/// The move quality for the reports: the mark and the best alternative under each marked move,
/// a closing section with each player's totals, and (the engine judge) the win-probability
/// graph of `timeline`, the game judged.
pub fn quality_extras(q: &QualityReport, timeline: &carc_replay::Timeline) -> carc_report::Extras {
    use carc_report::{Column, EventNote, Extras, Section, Table};
    let mut extras = Extras {
        win_chart: win_chart(q, timeline),
        ..Extras::default()
    };
    for t in &q.turns {
        let Some(mark) = t.mark else { continue };
        extras.events.insert(
            t.seq,
            EventNote {
                glyph: mark.glyph().to_string(),
                meaning: format!("move quality: {}, {}", mark.name(), lost_words(t)),
                lines: vec![format!(
                    "move quality: {} {}, {}; best found: {} ({:+.1}, against {:+.1} for the move played){}",
                    mark.glyph(),
                    mark.name(),
                    lost_words(t),
                    t.best.text,
                    t.best.value,
                    t.played.value,
                    if t.line.len() > 1 {
                        format!("; expected line: {}", line_words(q, t))
                    } else {
                        String::new()
                    }
                )],
                best: move_actions(&t.best.mv),
            },
        );
    }
    let column = |name: &str, numeric: bool| Column {
        name: name.to_string(),
        numeric,
    };
    extras.sections.push(Section {
        title: "Move quality".to_string(),
        paragraphs: vec![format!(
            "Judged by {}. The loss is the best value found minus the value of the move played. {}.",
            method_words(q),
            thresholds_words(q)
        )],
        items: Vec::new(),
        board: None,
        table: Some(Table {
            columns: vec![
                column("player", false),
                column("turns judged", true),
                column("accuracy", true),
                column("average loss", true),
                column("?!", true),
                column("?", true),
                column("??", true),
            ],
            rows: q
                .players
                .iter()
                .map(|p| {
                    vec![
                        p.name.clone(),
                        p.turns.to_string(),
                        p.accuracy.map_or("-".into(), |a| format!("{a:.1}")),
                        format!("{:.2}", p.average_loss),
                        p.inaccuracies.to_string(),
                        p.mistakes.to_string(),
                        p.blunders.to_string(),
                    ]
                })
                .collect(),
        }),
    });
    extras
}

/// A turn's move as the actions that play it: the placement, the arrow chosen (if the
/// placement asks for a choice) and the meeple step.
fn move_actions(m: &carc_sim::TurnMove) -> Vec<carc_rules::Action> {
    let place = carc_rules::Action::Place {
        at: m.placement.at,
        rotation: m.placement.rotation,
    };
    let arrow = m
        .arrow
        .map(|arrow| carc_rules::Action::ChooseArrow { arrow });
    std::iter::once(place)
        .chain(arrow)
        .chain(std::iter::once(m.meeple))
        .collect()
}

fn strategy_words(q: &QualityReport) -> &'static str {
    q.options.strategy.name()
}

/// The move quality as JSON.
pub fn quality_json(q: &QualityReport) -> Value {
    let estimate = |e: &carc_analysis::MoveEstimate| json!({"move": e.text, "value": e.value});
    json!({
        "judge": q.options.judge.name(),
        "nodes": by_engine(q).then_some(q.options.nodes),
        "playouts": q.options.playouts,
        "seed": q.options.seed,
        "playout_strategy": strategy_words(q),
        "max_candidates": q.options.max_candidates,
        "value": if by_engine(q) {
            "the mover's expected final score minus the best other player's (points), beside the chance to win (win)"
        } else {
            "the mover's final score minus the best final score of the other players, averaged over the playouts"
        },
        "thresholds": if by_engine(q) {
            json!({"measure": "chance to win lost, percentage points", "inaccuracy": carc_analysis::verdict::WIN_INACCURACY, "mistake": carc_analysis::verdict::WIN_MISTAKE, "blunder": carc_analysis::verdict::WIN_BLUNDER})
        } else {
            json!({"measure": "points of margin lost", "inaccuracy": quality::INACCURACY, "mistake": quality::MISTAKE, "blunder": quality::BLUNDER})
        },
        "stopped": q.stopped,
        "turns": q.turns.iter().map(|t| json!({
            "event": t.seq,
            "turn": t.turn,
            "seat": t.seat,
            "player": q.players.get(usize::from(t.seat)).map(|p| p.name.clone()),
            "moves": t.moves,
            "screened": t.screened,
            "played": estimate(&t.played),
            "best": estimate(&t.best),
            "loss": t.loss,
            "win": t.win.map(|w| json!({"played": w.played, "best": w.best, "lost": w.lost, "accuracy": w.accuracy, "exact": w.exact})),
            "line": t.line.iter().map(|m| json!({"seat": m.seat, "tile": m.tile, "move": m.text})).collect::<Vec<_>>(),
            "mark": t.mark.map(|m| m.glyph()),
        })).collect::<Vec<_>>(),
        "players": q.players.iter().map(|p| json!({
            "name": p.name,
            "turns": p.turns,
            "average_loss": p.average_loss,
            "accuracy": p.accuracy,
            "inaccuracies": p.inaccuracies,
            "mistakes": p.mistakes,
            "blunders": p.blunders,
        })).collect::<Vec<_>>(),
    })
}

/// The move quality in words: every judged turn (played move, best move, loss, mark), then
/// each player's totals.
pub fn quality_text(q: &QualityReport) -> String {
    let mut out = String::new();
    out.push_str(&format!("\nmove quality: {}\n", method_words(q)));
    out.push_str(&thresholds_words(q));
    out.push('\n');
    if let Some(why) = &q.stopped {
        out.push_str(&format!(
            "(the moves after the last legal event are not judged: {why})\n"
        ));
    }
    for t in &q.turns {
        let who = q
            .players
            .get(usize::from(t.seat))
            .map_or("?".into(), |p| visible(&p.name));
        let mark = t.mark.map_or(String::new(), |m| format!(" {}", m.glyph()));
        out.push_str(&format!(
            "  event {:>3}, turn {:>2}, {who}: {} ({:+.1}){mark}\n",
            t.seq, t.turn, t.played.text, t.played.value
        ));
        if t.best.mv == t.played.mv || t.loss == 0.0 {
            out.push_str(&format!(
                "      best: the move played; {} moves, {} screened\n",
                t.moves, t.screened
            ));
        } else {
            out.push_str(&format!(
                "      best: {} ({:+.1}); loss {:.1}; {} moves, {} screened\n",
                t.best.text, t.best.value, t.loss, t.moves, t.screened
            ));
            if let Some(w) = t.win {
                out.push_str(&format!(
                    "      chance to win: {:.0} % after the move played, {:.0} % after the best ({:.0} % lost){}\n",
                    100.0 * w.played,
                    100.0 * w.best,
                    w.lost,
                    if w.exact {
                        "; exact: every order of the tiles left solved"
                    } else {
                        ""
                    }
                ));
            }
            if t.line.len() > 1 {
                out.push_str(&format!("      expected line: {}\n", line_words(q, t)));
            }
        }
    }
    out.push_str("\nmove quality by player:\n");
    for p in &q.players {
        out.push_str(&format!(
            "  {}: {} turns judged, {}average loss {:.2}; {} ?!, {} ?, {} ??\n",
            visible(&p.name),
            p.turns,
            p.accuracy
                .map_or(String::new(), |a| format!("accuracy {a:.1}, ")),
            p.average_loss,
            p.inaccuracies,
            p.mistakes,
            p.blunders
        ));
    }
    out
}

/// The move quality of `log` for the Parquet tables (`export --format parquet --quality`): each
/// seat's accuracy and every judged turn's mark and what it gave away, by placement event.
pub fn table_quality(
    log: &carc_events::Log,
    loaded: &[carc_rules::TileSet],
    options: &QualityOptions,
) -> Result<carc_tables::GameQuality, String> {
    let timeline = carc_replay::fold(log.clone(), loaded);
    let report = move_quality(&timeline, options, &|_, _| {})
        .map_err(|e| format!("cannot judge its moves: {e}"))?;
    Ok(carc_tables::GameQuality {
        accuracy: report.players.iter().map(|p| p.accuracy).collect(),
        moves: report
            .turns
            .iter()
            .map(|t| {
                (
                    t.seq,
                    carc_tables::JudgedMove {
                        mark: t.mark.map(|m| m.glyph()),
                        win_lost: t.win.map(|w| w.lost),
                        margin_lost: t.loss,
                    },
                )
            })
            .collect(),
    })
}
