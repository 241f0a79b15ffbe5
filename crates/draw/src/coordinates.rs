//! Coordinates along the edges of a board picture: the `x` of each column above the top row
//! and the `y` of each row left of the first column, the same `(x,y)` every text of the
//! toolkit names squares by (y grows to the north).
//!
//! [`add_coordinates`] appends them to a draw list as text labels inside the half square of
//! margin that [`crate::board_bounds`] leaves around the board, so the picture's extent does
//! not change. The SVG writer draws them; the PNG rasterizer has no text and leaves them out.
//! The viewer pins its labels to the edges of its window instead (they must stay visible
//! while the board is panned) and words them with [`column_label`] and [`row_label`].

use crate::color::Rgba;
use crate::{pt, Bounds, DrawList, Shape};

/// The colour of the labels: a light grey, readable on the background around the board.
pub const LABEL: Rgba = Rgba::rgb(200, 204, 196);

/// Label height in world units (a square is 1): fits the half-square margin.
const SIZE: f32 = 0.24;

/// Below this many pixels per square the labels would be too small to read.
const MIN_SCALE: f32 = 24.0;

/// The label of column `x`.
pub fn column_label(x: i32) -> String {
    x.to_string()
}

/// The label of row `y` (north is positive).
pub fn row_label(y: i32) -> String {
    y.to_string()
}

/// The columns and rows whose squares lie inside `bounds` (whole squares, centres at integer
/// world points): `(x range, y range)` in square coordinates, each ascending.
pub fn squares_within(
    bounds: &Bounds,
) -> (std::ops::RangeInclusive<i32>, std::ops::RangeInclusive<i32>) {
    let x0 = (bounds.min.x + 0.5).ceil() as i32;
    let x1 = (bounds.max.x - 0.5).floor() as i32;
    // World y grows to the south: the northmost row has the smallest world y.
    let y_north = -((bounds.min.y + 0.5).ceil() as i32);
    let y_south = -((bounds.max.y - 0.5).floor() as i32);
    (x0..=x1, y_south..=y_north)
}

/// The edge labels of the squares inside `bounds`: column numbers along the top margin, row
/// numbers along the left margin.
pub fn edge_labels(bounds: &Bounds) -> Vec<Shape> {
    let (xs, ys) = squares_within(bounds);
    let top = bounds.min.y + 0.25;
    let left = bounds.min.x + 0.25;
    let label = |x: f32, y: f32, text: String| Shape::Text {
        at: pt(x, y),
        size: SIZE,
        text,
        color: LABEL,
        min_scale: MIN_SCALE,
    };
    let mut out: Vec<Shape> = xs.map(|x| label(x as f32, top, column_label(x))).collect();
    out.extend(ys.map(|y| label(left, -(y as f32), row_label(y))));
    out
}

/// Appends the edge labels of the list's own extent to the list (drawn last, on top).
pub fn add_coordinates(list: &mut DrawList) {
    let labels = edge_labels(&list.bounds);
    list.shapes.extend(labels);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{board_bounds, world_of};
    use carc_rules::{Game, Pos, Setup};

    fn texts(shapes: &[Shape]) -> Vec<(String, f32, f32)> {
        shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { at, text, .. } => Some((text.clone(), at.x, at.y)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_column_and_row_of_the_board_is_labelled_on_its_own_square() {
        // Given a board picture spanning the squares (-2..=1, -1..=3)
        let bounds =
            Bounds::of_points([world_of(Pos::new(-2, -1)), world_of(Pos::new(1, 3))]).expand(1.0);
        // When its edge labels are made
        let labels = texts(&edge_labels(&bounds));
        // Then each column is named above its own centre, each row beside its own centre
        let columns: Vec<_> = labels.iter().filter(|l| l.2 < bounds.min.y + 0.5).collect();
        let rows: Vec<_> = labels.iter().filter(|l| l.1 < bounds.min.x + 0.5).collect();
        assert_eq!(
            columns.iter().map(|l| l.0.as_str()).collect::<Vec<_>>(),
            ["-2", "-1", "0", "1"]
        );
        assert!(columns.iter().all(|l| l.1 == l.0.parse::<f32>().unwrap()));
        assert_eq!(
            rows.iter().map(|l| l.0.as_str()).collect::<Vec<_>>(),
            ["-1", "0", "1", "2", "3"]
        );
        // North is up: row 3's label is above row -1's
        assert_eq!(rows[4].2, world_of(Pos::new(0, 3)).y);
        assert!(rows[4].2 < rows[0].2);
        // And every label lies in the margin, inside the picture
        for (_, x, y) in &labels {
            assert!(*x >= bounds.min.x && *x <= bounds.max.x && *y >= bounds.min.y);
        }
    }

    #[test]
    fn a_board_list_gains_its_labels_without_growing() {
        // Given the board of a game with only the start tile
        let mut game = Game::new(Setup::base(2)).unwrap();
        let start = game
            .tiles()
            .start_tile()
            .expect("the base set has a start tile");
        let mut fx = carc_rules::Effects::default();
        game.apply(
            &carc_rules::Action::PlaceStart {
                tile: start,
                at: Pos::new(0, 0),
                rotation: carc_rules::Rotation::ALL[0],
            },
            &mut fx,
        )
        .unwrap();
        let mut list = crate::board(&game, &crate::Overlay::default());
        let before = list.bounds;
        assert_eq!(before, board_bounds(&game));
        // When the coordinates are added
        add_coordinates(&mut list);
        // Then "0" names both the column and the row, and the extent is unchanged
        let labels = texts(&list.shapes);
        assert_eq!(labels.iter().filter(|l| l.0 == "0").count(), 2);
        assert_eq!(list.bounds, before);
    }
}
