//! The draw list of sample games (logs/), and its SVG and PNG pictures.

use std::path::Path;

use carc_draw::color::{FIELD, LAST_PLACED};
use carc_draw::svg::{self, SvgOptions};
use carc_draw::{board, board_bounds, player_color, world_of, DrawList, Overlay, Rgba, Shape};
use carc_events::read_log;
use carc_replay::fold;
use carc_rules::{FeatureKind, Game, Pos};

/// The game after the first `n` events of a sample log.
fn game_at(name: &str, n: usize) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    let bytes = std::fs::read(&path).unwrap();
    let timeline = fold(read_log(&bytes).unwrap(), &[]);
    assert!(timeline.error.is_none(), "{name} replays");
    timeline.state_at(n).unwrap()
}

const RED: Rgba = Rgba::rgb(214, 40, 40);

fn colors() -> [Rgba; 2] {
    [player_color("red").unwrap(), player_color("blue").unwrap()]
}

/// Whether `shape` is a filled rectangle covering exactly the square `at`.
fn fills_square(shape: &Shape, at: Pos, color: Rgba) -> bool {
    let c = world_of(at);
    matches!(shape, Shape::Rect { min, max, fill: Some(f), .. }
        if *f == color && (*min - c).x == -0.5 && (*min - c).y == -0.5 && (*max - c).x == 0.5 && (*max - c).y == 0.5)
}

#[test]
fn every_placed_tile_and_every_meeple_is_drawn_in_its_players_colour() {
    // Given the hand-written game after turn 5 (16 events): five tiles, five meeples of which
    // two are farmers
    let game = game_at("short-game-rulings.jsonl", 16);
    let colors = colors();
    // When its board is drawn
    let list = board(
        &game,
        &Overlay {
            colors: &colors,
            ..Overlay::default()
        },
    );
    // Then each placed tile starts with a field-green square at its place
    for placed in game.placed() {
        assert!(
            list.shapes
                .iter()
                .any(|s| fills_square(s, placed.at, FIELD)),
            "tile at {}",
            placed.at
        );
    }
    // And each meeple is a disc (a lying rectangle for a farmer) in its player's colour
    let mut ada = (0, 0);
    for (player, _, _, label) in game.meeples() {
        if player == 0 {
            if label.kind == FeatureKind::Field {
                ada.1 += 1;
            } else {
                ada.0 += 1;
            }
        }
    }
    assert_eq!(ada, (2, 1), "Ada: city and monastery, one farmer");
    let discs = list
        .shapes
        .iter()
        .filter(|s| matches!(s, Shape::Circle { fill: Some(c), radius, .. } if *c == RED && *radius > 0.1))
        .count();
    let farmers = list
        .shapes
        .iter()
        .filter(|s| matches!(s, Shape::Rect { fill: Some(c), rounding, .. } if *c == RED && *rounding > 0.0))
        .count();
    assert_eq!((discs, farmers), ada);
}

#[test]
fn the_last_placed_tile_is_outlined_only_when_asked() {
    let game = game_at("short-game-rulings.jsonl", 16);
    let last = game.placed().last().unwrap().at;
    let outlined = |list: &DrawList| {
        list.shapes.iter().any(|s| {
            matches!(s, Shape::Rect { min, stroke: Some(st), .. }
                if st.color == LAST_PLACED && *min == world_of(last) - carc_draw::pt(0.5, 0.5))
        })
    };
    // Given no overlay, then no tile is outlined
    assert!(!outlined(&board(&game, &Overlay::default())));
    // Given the last placed tile in the overlay, then it is outlined
    let list = board(
        &game,
        &Overlay {
            last_placed: Some(last),
            ..Overlay::default()
        },
    );
    assert!(outlined(&list));
}

#[test]
fn the_picture_covers_every_tile_with_half_a_square_of_margin() {
    // Given a full base game
    let game = game_at("sim-3p-greedy.jsonl", usize::MAX);
    let b = board_bounds(&game);
    // Then every square lies inside, and the outermost squares are half a square from the edge
    let (mut lo, mut hi) = (
        carc_draw::pt(f32::MAX, f32::MAX),
        carc_draw::pt(f32::MIN, f32::MIN),
    );
    for p in game.placed() {
        let c = world_of(p.at);
        lo = lo.min(c);
        hi = hi.max(c);
    }
    assert_eq!(b.min, lo - carc_draw::pt(1.0, 1.0));
    assert_eq!(b.max, hi + carc_draw::pt(1.0, 1.0));
    // And before the first event the picture is the empty square at the origin with its margin
    let empty = board_bounds(&game_at("sim-3p-greedy.jsonl", 0));
    assert_eq!((empty.width(), empty.height()), (2.0, 2.0));
}

#[test]
fn a_map_board_is_drawn_with_its_large_cities_and_their_names() {
    // Given a game on the Germany map before any tile
    let game = game_at("sim-2p-germany-greedy-vs-random.jsonl", 0);
    let map = game.map().expect("a map game");
    let list = board(&game, &Overlay::default());
    // Then every large city is named, and the picture covers the whole map
    for city in map.large_cities() {
        assert!(
            list.shapes
                .iter()
                .any(|s| matches!(s, Shape::Text { text, .. } if text == city.name)),
            "{}",
            city.name
        );
        for &at in &city.squares {
            let c = world_of(at);
            assert!(c.x > list.bounds.min.x && c.x < list.bounds.max.x);
            assert!(c.y > list.bounds.min.y && c.y < list.bounds.max.y);
        }
    }
}

#[test]
fn the_svg_is_standalone_and_the_same_every_time() {
    // Given an anniversary game (arrows) drawn with an overlay
    let game = game_at("sim-2p-anniversary-greedy.jsonl", 60);
    let colors = colors();
    let overlay = Overlay {
        colors: &colors,
        last_placed: game.placed().last().map(|p| p.at),
        ..Overlay::default()
    };
    // When it is written twice
    let a = svg::document(&board(&game, &overlay), &SvgOptions::default());
    let b = svg::document(&board(&game, &overlay), &SvgOptions::default());
    // Then the bytes are the same, and nothing outside the file is referred to
    assert_eq!(a, b);
    assert!(a.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "));
    assert!(a.ends_with("</svg>\n"));
    for word in ["href", "url(", "<image", "<script", "@import", "<style"] {
        assert!(!a.contains(word), "{word}");
    }
    assert_eq!(a.matches("http").count(), 1, "the namespace only");
    // And every shape is there: one field square per tile at least
    assert!(a.matches("<rect").count() > game.placed().len());
}

#[cfg(feature = "png")]
#[test]
fn the_png_has_the_pictures_size_and_shows_the_tiles() {
    use carc_draw::color::CITY;
    use carc_draw::raster;
    // Given the hand-written game at its end, at 20 pixels per square
    let game = game_at("short-game-rulings.jsonl", usize::MAX);
    let list = board(&game, &Overlay::default());
    let bytes = raster::png(&list, 20.0, Some(carc_draw::color::BACKGROUND)).unwrap();
    // When the image is decoded
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    // Then its size is the picture's, and the start tile's square is field green at its centre
    let (w, h) = svg::pixel_size(&list.bounds, 20.0);
    assert_eq!((info.width, info.height), (w, h));
    assert_eq!(info.color_type, png::ColorType::Rgba);
    let pixel = |x: u32, y: u32| {
        let i = ((y * info.width + x) * 4) as usize;
        [buf[i], buf[i + 1], buf[i + 2], buf[i + 3]]
    };
    // The corner is the background.
    assert_eq!(pixel(0, 0), [40, 44, 40, 255]);
    // The start tile D (a city N, a road W–E) is city in its north and field in its south.
    let c = world_of(Pos::new(0, 0)) - list.bounds.min;
    let at = |dx: f32, dy: f32| pixel(((c.x + dx) * 20.0) as u32, ((c.y + dy) * 20.0) as u32);
    assert_eq!(at(-0.3, 0.3), [FIELD.r, FIELD.g, FIELD.b, 255]);
    assert_eq!(at(0.0, -0.45), [CITY.r, CITY.g, CITY.b, 255]);
}

#[cfg(feature = "png")]
#[test]
fn a_picture_too_large_or_a_bad_scale_is_an_error_not_a_panic() {
    use carc_draw::raster::{self, RasterError};
    let game = game_at("short-game-rulings.jsonl", usize::MAX);
    let list = board(&game, &Overlay::default());
    assert!(matches!(
        raster::png(&list, 1e6, None),
        Err(RasterError::TooLarge { .. })
    ));
    for bad in [0.0, -3.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            raster::png(&list, bad, None),
            Err(RasterError::BadScale(_))
        ));
    }
}

#[test]
fn gardens_and_abbots_are_drawn() {
    // Given the abbot sample after Cleo put her abbot on the garden at (-1,-1) (event 154),
    // before the garden's score sent it home: one event earlier, Cleo's tile lies there
    let game = game_at("sim-3p-abbot-mixed.jsonl", 153);
    let placed = game.tile_at(Pos::new(-1, -1)).unwrap();
    let tile = game.tiles().get(placed.tile);
    assert!(tile.garden_segment().is_some(), "{}", tile.id);
    // When the board is drawn
    let list = board(&game, &Overlay::default());
    // Then the garden's bed is drawn inside the square, with its flowers
    let c = world_of(Pos::new(-1, -1));
    let beds = list
        .shapes
        .iter()
        .filter(|s| {
            matches!(s, Shape::Rect { min, max, fill: Some(f), .. }
                if *f == Rgba::rgb(62, 128, 56)
                    && (*min - c).x > -0.5 && (*max - c).x < 0.5
                    && (*min - c).y > -0.5 && (*max - c).y < 0.5)
        })
        .count();
    assert_eq!(beds, 1);
    // And every abbot on the board is drawn as a mitre (a five-point polygon) in its colour
    let game = game_at("sim-3p-abbot-mixed.jsonl", 149);
    let abbots: Vec<_> = game.abbots().collect();
    assert_eq!(abbots.len(), 2, "one on a garden, one on a monastery");
    let colors = [RED, Rgba::rgb(1, 2, 3), Rgba::rgb(4, 5, 6)];
    let list = board(
        &game,
        &Overlay {
            colors: &colors,
            ..Overlay::default()
        },
    );
    for (player, at, _, _) in abbots {
        let c = world_of(at);
        assert!(
            list.shapes
                .iter()
                .any(|s| matches!(s, Shape::Polygon { points, fill: Some(f), .. }
                if points.len() == 5 && *f == colors[player as usize]
                    && points.iter().all(|p| (*p - c).x.abs() < 0.5 && (*p - c).y.abs() < 0.5))),
            "the abbot of seat {player} at {at}"
        );
    }
}

#[test]
fn the_board_at_final_scoring_shows_the_figures_that_scored_where_they_stood() {
    // Given a finished two-player game: its last position has no figure left on the board
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/sim-2p-greedy-vs-random.jsonl");
    let timeline = fold(read_log(&std::fs::read(path).unwrap()).unwrap(), &[]);
    assert!(timeline.finished);
    let game = timeline.state_at(timeline.steps.len()).unwrap();
    assert_eq!(game.meeples().count(), 0);
    let last = timeline.steps.last().unwrap();
    let figures = last.effects.returned_at_final_scoring();
    assert!(figures.iter().any(|r| r.player == 0) && figures.iter().any(|r| r.player == 1));
    let colors = colors();
    let figures_drawn = |list: &DrawList, color: Rgba| {
        list.shapes
            .iter()
            .filter(|s| match s {
                Shape::Circle {
                    fill: Some(c),
                    radius,
                    ..
                } => *c == color && *radius > 0.1,
                Shape::Rect {
                    fill: Some(c),
                    rounding,
                    ..
                } => *c == color && *rounding > 0.0,
                _ => false,
            })
            .count()
    };
    // When it is drawn plainly, and with the final scoring's figures
    let plain = board(
        &game,
        &Overlay {
            colors: &colors,
            ..Overlay::default()
        },
    );
    let at_final = board(
        &game,
        &Overlay {
            colors: &colors,
            final_figures: figures,
            ..Overlay::default()
        },
    );
    // Then only the second shows them: one disc or lying farmer per figure, in its colour
    for (seat, color) in colors.iter().enumerate() {
        let want = figures.iter().filter(|r| r.player as usize == seat).count();
        assert_eq!(figures_drawn(&plain, *color), 0, "seat {seat}");
        assert_eq!(figures_drawn(&at_final, *color), want, "seat {seat}");
    }
}
