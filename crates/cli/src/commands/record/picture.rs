//! The record shell's `show` and `legal`: the drawn tile's legal placements as text. A map
//! three characters a square (a placed tile's letter, a legal square's number of legal
//! rotations in brackets), so that a board 25 squares wide fits 80 columns (`board_text`'s
//! 5×3 squares would not, with the frontier around it), and a line per legal square with its
//! rotations.

use std::collections::BTreeMap;

use carc_rules::{Game, Phase, Pos};

use crate::commands::record::complete::{placements, spot_phrases};

/// Each legal square of the waiting tile with its legal rotations in degrees, west to east
/// then south to north.
pub fn legal_squares(game: &Game) -> BTreeMap<(i32, i32), Vec<u32>> {
    let mut squares: BTreeMap<(i32, i32), Vec<u32>> = BTreeMap::new();
    for p in placements(game) {
        squares
            .entry((p.at.x, p.at.y))
            .or_default()
            .push(p.rotation.degrees());
    }
    squares
}

/// The map: the placed tiles by letter, the legal squares as `[n]` (n legal rotations),
/// north up, with the columns' and rows' numbers.
pub fn map(game: &Game) -> String {
    let squares = legal_squares(game);
    let at: Vec<(i32, i32)> = game
        .placed()
        .iter()
        .map(|p| (p.at.x, p.at.y))
        .chain(squares.keys().copied())
        .collect();
    let (Some(min_x), Some(max_x)) = (at.iter().map(|a| a.0).min(), at.iter().map(|a| a.0).max())
    else {
        return "(no tile on the board yet)\n".into();
    };
    let min_y = at.iter().map(|a| a.1).min().unwrap_or(0);
    let max_y = at.iter().map(|a| a.1).max().unwrap_or(0);
    let mut out = String::from("     ");
    for x in min_x..=max_x {
        out.push_str(&format!("{x:^3}"));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for y in (min_y..=max_y).rev() {
        let mut row = format!("{y:>4} ");
        for x in min_x..=max_x {
            let cell = match (game.tile_at(Pos::new(x, y)), squares.get(&(x, y))) {
                (Some(p), _) => {
                    let id = &game.tiles().get(p.tile).id;
                    format!(" {} ", id.chars().next().unwrap_or('?'))
                }
                (None, Some(rots)) => format!("[{}]", rots.len()),
                (None, None) => "  .".into(),
            };
            row.push_str(&cell);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// What `show` prints: the map with the legal squares of the drawn tile and a line per square,
/// or in the meeple step the legal spots; otherwise the board and what is due.
pub fn show(game: &Game, due: &str) -> String {
    let mut out = map(game);
    match game.phase() {
        Phase::Place { tile } => {
            let squares = legal_squares(game);
            let name = &game.tiles().get(tile).id;
            if squares.is_empty() {
                out.push_str(&format!("tile {name} fits nowhere: `set-aside`\n"));
            } else {
                out.push_str(&format!(
                    "tile {name}: [n] marks a legal square and its number of legal rotations; \
                     `place X Y ROT [SPOT]`\n"
                ));
                out.push_str(&square_lines(&squares));
            }
        }
        Phase::Meeple { at } => {
            out.push_str(&format!(
                "the tile at {at} takes: {}\n",
                spot_phrases(game).join(", ")
            ));
        }
        _ => out.push_str(&format!("{due}\n")),
    }
    out
}

/// A line per legal square: `(1,0): 0 90`, several to a line when they fit 80 columns.
pub fn square_lines(squares: &BTreeMap<(i32, i32), Vec<u32>>) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for ((x, y), rots) in squares {
        let rots: Vec<String> = rots.iter().map(u32::to_string).collect();
        let item = format!("({x},{y}): {}", rots.join(" "));
        if !line.is_empty() && line.len() + 3 + item.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push_str("   ");
        }
        line.push_str(&item);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_wrap_at_80_columns() {
        let squares: BTreeMap<(i32, i32), Vec<u32>> =
            (0..12).map(|i| ((i, -1), vec![0, 90, 180, 270])).collect();
        let text = square_lines(&squares);
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        assert!(
            text.starts_with("(0,-1): 0 90 180 270   (1,-1): 0 90 180 270"),
            "{text}"
        );
        assert_eq!(text.matches("): ").count(), 12);
    }
}
