//! The score graph and the win-probability graph: one line per player over the events, a
//! marker at the cursor, and the move-quality marks once they are computed; a click jumps to
//! the event under the pointer. The win-probability graph shows once the engine judge has
//! judged the game (see `carc_analysis::win_chances` for what its points are).

use egui::{Color32, Rect};
use egui_plot::{
    uniform_grid_spacer, HoverPosition, Line, LineStyle, MarkerShape, Plot, PlotPoint, PlotPoints,
    Points, Text, VLine,
};

/// A graph's lines: per seat, points `[position, value]`.
pub type Series = Vec<Vec<[f64; 2]>>;

/// Score of every seat after every position: `series[seat][n]` for n in 0..=len.
pub fn series(steps: &[carc_replay::Step], players: usize) -> Vec<Vec<[f64; 2]>> {
    let mut out: Vec<Vec<[f64; 2]>> = (0..players).map(|_| vec![[0.0, 0.0]]).collect();
    for (i, step) in steps.iter().enumerate() {
        for (seat, line) in out.iter_mut().enumerate() {
            let v = step.scores_after.get(seat).copied().unwrap_or(0);
            line.push([(i + 1) as f64, f64::from(v)]);
        }
    }
    out
}

/// The smallest of 1, 2, 5 × 10^k that is at least `x` (at least 1).
pub fn nice_step(x: f64) -> f64 {
    if !x.is_finite() || x <= 1.0 {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= x)
        .unwrap_or(10.0 * p)
}

/// How wide seat `seat`'s line is drawn among `players`: the first seat's widest, each later
/// one narrower and drawn on top, so tied players' lines show as stripes inside one another
/// instead of hiding each other.
pub fn line_width(seat: usize, players: usize) -> f32 {
    2.0 + 2.0 * players.saturating_sub(seat + 1) as f32
}

/// The line style of seat `seat`: solid for the first, dashed for the others, so a tie reads
/// even where the colours are close.
pub fn line_style(seat: usize) -> LineStyle {
    if seat == 0 {
        LineStyle::Solid
    } else {
        LineStyle::Dashed {
            length: 8.0 + 2.0 * seat as f32,
        }
    }
}

/// What hovering the graph at `x` says: the event (the position after it) and every seat's
/// score there, e.g. `event 19: Ada 8, Brandt 8`.
pub fn hover_text(series: &[Vec<[f64; 2]>], names: &[String], x: f64) -> String {
    let last = series.first().map_or(0, |l| l.len().saturating_sub(1));
    let n = (x.round().max(0.0) as usize).min(last);
    let scores: Vec<String> = series
        .iter()
        .enumerate()
        .filter_map(|(seat, line)| {
            let point = line.get(n)?;
            let name = names.get(seat).map_or("?", String::as_str);
            Some(format!("{name} {}", point[1]))
        })
        .collect();
    let at = if n == 0 {
        "before the first event".to_string()
    } else {
        format!("event {n}")
    };
    format!("{at}: {}", scores.join(", "))
}

/// A move-quality mark on the graph: a dot and its glyph at position `x` (the event count
/// after the move) on the mover's score `y`.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphMark {
    pub x: f64,
    pub y: f64,
    pub glyph: &'static str,
    pub color: Color32,
}

/// Each player's chance to win in percent, as points `[position, percent]` (see
/// `carc_analysis::win_chances`): straight lines join a player's judged moves.
pub fn win_series(chances: &carc_analysis::win_chances::WinChances) -> Series {
    chances
        .seats
        .iter()
        .map(|line| {
            line.iter()
                .map(|p| [p.position as f64, 100.0 * p.chance])
                .collect()
        })
        .collect()
}

/// What hovering the win-probability graph at `x` says: every seat's last known chance there,
/// e.g. `after event 12: Ada 64%, Brandt 36%`.
pub fn win_hover_text(series: &[Vec<[f64; 2]>], names: &[String], x: f64) -> String {
    let n = x.round().max(0.0);
    let chances: Vec<String> = series
        .iter()
        .enumerate()
        .filter_map(|(seat, line)| {
            let point = line.iter().take_while(|p| p[0] <= n).last()?;
            let name = names.get(seat).map_or("?", String::as_str);
            Some(format!("{name} {:.0}%", point[1]))
        })
        .collect();
    let at = if n < 0.5 {
        "before the first event".to_string()
    } else {
        format!("after event {n}")
    };
    format!("{at}: {}", chances.join(", "))
}

/// Which of the two graphs is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Points: step lines from the score after each event.
    Score,
    /// The chance to win, in percent, from 0 to 100.
    WinChance,
}

/// What the graph plots: the lines (see [`series`], [`win_series`]) and the move-quality marks.
#[derive(Clone, Copy, Debug)]
pub struct GraphData<'a> {
    pub measure: Measure,
    pub series: &'a [Vec<[f64; 2]>],
    pub marks: &'a [GraphMark],
}

/// What the graph did this frame.
pub struct GraphResponse {
    /// The position to jump to, if the graph was clicked.
    pub jump: Option<usize>,
    /// Where the plot was drawn (for tests that click into it).
    pub rect: Rect,
}

/// Draws the graph. `names` and `colors` are per seat; `len` is the number of legal events.
pub fn show(
    ui: &mut egui::Ui,
    GraphData {
        measure,
        series,
        marks,
    }: GraphData<'_>,
    names: &[String],
    colors: &[Color32],
    len: usize,
    cursor: usize,
    height: f32,
) -> GraphResponse {
    let (id, top) = match measure {
        Measure::Score => ("score_graph", 10.0),
        Measure::WinChance => ("win_graph", 100.0),
    };
    let resp = Plot::new(id)
        .height(height)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_x(0.0)
        .include_x(len.max(1) as f64)
        .include_y(0.0)
        .include_y(top)
        .y_axis_min_width(36.0)
        .label_formatter(|pos| {
            let x = match pos {
                HoverPosition::NearDataPoint { position, .. } => position.x,
                HoverPosition::Elsewhere { position } => position.x,
            };
            Some(match measure {
                Measure::Score => hover_text(series, names, x),
                Measure::WinChance => win_hover_text(series, names, x),
            })
        })
        .y_grid_spacer(uniform_grid_spacer(move |input| match measure {
            // About four labelled lines whatever the height: steps of 1, 2 or 5 × 10^k.
            Measure::Score => {
                let major = nice_step((input.bounds.1 - input.bounds.0) / 4.0);
                [major / 5.0, major, major * 5.0]
            }
            // 0, 50 and 100 %: even chances in the middle.
            Measure::WinChance => [10.0, 50.0, 100.0],
        }))
        .show(ui, |plot_ui| {
            for (seat, points) in series.iter().enumerate() {
                let name = names.get(seat).cloned().unwrap_or_default();
                let color = colors.get(seat).copied().unwrap_or(Color32::GRAY);
                plot_ui.line(
                    Line::new(name, PlotPoints::from(points.clone()))
                        .color(color)
                        .width(line_width(seat, series.len()))
                        .style(line_style(seat)),
                );
            }
            for (i, m) in marks.iter().enumerate() {
                plot_ui.points(
                    Points::new(format!("mark {i}"), vec![[m.x, m.y]])
                        .shape(MarkerShape::Circle)
                        .radius(6.0)
                        .color(m.color)
                        .allow_hover(false),
                );
                plot_ui.text(
                    Text::new(
                        format!("mark glyph {i}"),
                        PlotPoint::new(m.x, m.y),
                        egui::RichText::new(m.glyph)
                            .size(17.0)
                            .strong()
                            .color(m.color),
                    )
                    .anchor(egui::Align2::CENTER_BOTTOM)
                    .allow_hover(false),
                );
            }
            plot_ui.vline(
                VLine::new("cursor", cursor as f64)
                    .color(Color32::from_rgb(255, 140, 0))
                    .width(1.5),
            );
        });
    let mut jump = None;
    if resp.response.clicked() || resp.response.dragged() {
        if let Some(p) = resp.response.interact_pointer_pos() {
            let x = resp.transform.value_from_position(p).x.round();
            jump = Some(x.clamp(0.0, len as f64) as usize);
        }
    }
    GraphResponse {
        jump,
        rect: resp.response.rect,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loaded::LoadedGame;
    use std::path::Path;

    #[test]
    fn tied_lines_stay_visible_and_hover_names_the_scores() {
        // Given three players: the later seats' lines are narrower and dashed, on top
        assert!(line_width(0, 3) > line_width(1, 3) && line_width(1, 3) > line_width(2, 3));
        assert_eq!(line_width(1, 2), 2.0);
        assert_eq!(line_style(0), LineStyle::Solid);
        assert!(matches!(line_style(1), LineStyle::Dashed { .. }));
        // And hovering the short game's graph at event 19 names the tie
        let g = LoadedGame::open(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl"),
        )
        .unwrap();
        let s = series(&g.timeline.steps, 2);
        let names = ["Ada".to_string(), "Brandt".to_string()];
        assert_eq!(hover_text(&s, &names, 19.2), "event 19: Ada 8, Brandt 8");
        assert_eq!(
            hover_text(&s, &names, -3.0),
            "before the first event: Ada 0, Brandt 0"
        );
        assert_eq!(hover_text(&s, &names, 500.0), "event 34: Ada 20, Brandt 11");
    }

    #[test]
    fn win_hover_names_the_last_known_chances() {
        // Given two players' lines with points at positions 0, 5 and 9
        let s = vec![
            vec![[0.0, 50.0], [5.0, 70.0], [9.0, 40.0]],
            vec![[0.0, 50.0], [5.0, 30.0], [9.0, 60.0]],
        ];
        let names = ["Ada".to_string(), "Brandt".to_string()];
        // Then hovering between points names the chances of the last point before
        assert_eq!(
            win_hover_text(&s, &names, 7.2),
            "after event 7: Ada 70%, Brandt 30%"
        );
        assert_eq!(
            win_hover_text(&s, &names, 0.0),
            "before the first event: Ada 50%, Brandt 50%"
        );
        assert_eq!(
            win_hover_text(&s, &names, 99.0),
            "after event 99: Ada 40%, Brandt 60%"
        );
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(0.3), 1.0);
        assert_eq!(nice_step(1.5), 2.0);
        assert_eq!(nice_step(27.0), 50.0);
        assert_eq!(nice_step(20.0), 20.0);
        assert_eq!(nice_step(101.0), 200.0);
        assert_eq!(nice_step(f64::NAN), 1.0);
    }

    #[test]
    fn series_start_at_zero_and_follow_the_steps() {
        let g = LoadedGame::open(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl"),
        )
        .unwrap();
        let s = series(&g.timeline.steps, 2);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].len(), 35);
        assert_eq!(s[0][0], [0.0, 0.0]);
        assert_eq!(s[0][34], [34.0, 20.0]);
        assert_eq!(s[1][34], [34.0, 11.0]);
        assert_eq!(s[1][19], [19.0, 8.0]);
    }
}
