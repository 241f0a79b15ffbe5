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
    /// Judge every move of the game against the best found by playouts (one game only; see
    /// docs/analysis.md): the marks ?! ? ?? and each player's average loss.
    #[arg(long)]
    pub quality: bool,
    /// Playouts per candidate move and stage, with --quality.
    #[arg(long, value_name = "K", default_value_t = quality::DEFAULT_PLAYOUTS,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub playouts: u32,
    /// Seed of the playouts, with --quality: the same seed gives the same marks.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// How every seat plays in the playouts, with --quality: random (fast) or greedy (about a
    /// hundred times slower).
    #[arg(long, value_name = "STRATEGY", default_value = "random", value_parser = ["random", "greedy"])]
    pub playout_strategy: String,
    /// Candidate moves screened per turn at most, with --quality (the best by immediate value;
    /// the move played is always in).
    #[arg(long, value_name = "N", default_value_t = quality::DEFAULT_MAX_CANDIDATES as u32,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub candidates: u32,
}

impl QualityArgs {
    pub fn options(&self, threads: Option<u32>) -> QualityOptions {
        QualityOptions {
            playouts: self.playouts,
            seed: self.seed,
            threads: threads.map_or(0, |t| t as usize),
            strategy: carc_sim::Strategy::parse(&self.playout_strategy)
                .unwrap_or(carc_sim::Strategy::Random),
            max_candidates: self.candidates as usize,
        }
    }
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

/// The move quality for the Markdown report: the mark and the best alternative under each
/// marked move, and a closing section with each player's totals.
pub fn quality_extras(q: &QualityReport) -> carc_report::Extras {
    use carc_report::{Column, EventNote, Extras, Section, Table};
    let mut extras = Extras::default();
    for t in &q.turns {
        let Some(mark) = t.mark else { continue };
        extras.events.insert(
            t.seq,
            EventNote {
                glyph: mark.glyph().to_string(),
                meaning: format!("move quality: {}, {:.1} points lost", mark.name(), t.loss),
                lines: vec![format!(
                    "move quality: {} {}, {:.1} points lost; best found: {} ({:+.1}, against {:+.1} for the move played)",
                    mark.glyph(),
                    mark.name(),
                    t.loss,
                    t.best.text,
                    t.best.value,
                    t.played.value
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
            "{} playouts per move and stage, seed {}, {} playouts. A move's value is the mover's final score minus the best final score of the other players, averaged over the playouts; the loss is the best value found minus the value of the move played. Marks: ?! inaccuracy (loss of {} points or more), ? mistake ({} or more), ?? blunder ({} or more).",
            q.options.playouts,
            q.options.seed,
            strategy_words(q),
            quality::INACCURACY,
            quality::MISTAKE,
            quality::BLUNDER
        )],
        items: Vec::new(),
        board: None,
        table: Some(Table {
            columns: vec![
                column("player", false),
                column("turns judged", true),
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
        "playouts": q.options.playouts,
        "seed": q.options.seed,
        "playout_strategy": strategy_words(q),
        "max_candidates": q.options.max_candidates,
        "value": "the mover's final score minus the best final score of the other players, averaged over the playouts",
        "thresholds": {"inaccuracy": quality::INACCURACY, "mistake": quality::MISTAKE, "blunder": quality::BLUNDER},
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
            "mark": t.mark.map(|m| m.glyph()),
        })).collect::<Vec<_>>(),
        "players": q.players.iter().map(|p| json!({
            "name": p.name,
            "turns": p.turns,
            "average_loss": p.average_loss,
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
    out.push_str(&format!(
        "\nmove quality: {} playouts per move and stage, seed {}, {} playouts; value = own final score minus the best other player's\n",
        q.options.playouts,
        q.options.seed,
        strategy_words(q)
    ));
    out.push_str(&format!(
        "marks: ?! inaccuracy (loss >= {}), ? mistake (>= {}), ?? blunder (>= {})\n",
        quality::INACCURACY,
        quality::MISTAKE,
        quality::BLUNDER
    ));
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
        }
    }
    out.push_str("\nmove quality by player:\n");
    for p in &q.players {
        out.push_str(&format!(
            "  {}: {} turns judged, average loss {:.2}; {} ?!, {} ?, {} ??\n",
            visible(&p.name),
            p.turns,
            p.average_loss,
            p.inaccuracies,
            p.mistakes,
            p.blunders
        ));
    }
    out
}
