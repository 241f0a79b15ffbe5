//! `carc render` (SVG and PNG pictures of the board) and `carc export --format html`, run as
//! the real binary.

mod common;
use common::{carc, carc_with_store, logs_dir, stderr};

use std::collections::BTreeSet;
use std::path::Path;

fn sample() -> String {
    logs_dir()
        .join("short-game-rulings.jsonl")
        .to_str()
        .unwrap()
        .to_string()
}

/// Width, height and RGBA pixels of a PNG file.
fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap();
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// `carc render SAMPLE --at 19 --out OUT --scale 10` in `dir`, which must succeed.
fn render_event_19(dir: &Path, out: &Path) -> std::process::Output {
    let o = carc(
        &[
            "render",
            &sample(),
            "--at",
            "19",
            "--out",
            out.to_str().unwrap(),
            "--scale",
            "10",
        ],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

#[test]
fn render_writes_an_svg_of_the_board_after_event_n() {
    // Given the sample game
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("board.svg");
    // When the board after event 19 is rendered at 10 px per square
    let o = render_event_19(dir.path(), &out);
    assert!(stderr(&o).contains("after event 19"), "{}", stderr(&o));
    // Then the file is an SVG document whose viewBox fits the seven tiles then placed
    // (columns -1..1, rows -1..1: three squares, plus half a square around)
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\" viewBox=\"-2 -2 4 4\">"), "{svg}");
    assert!(svg.contains("<title>short-game-rulings after event 19</title>"));
    // The last placed tile (N at (-1,1)) is outlined in orange, inside its square
    assert!(svg.contains("stroke=\"#ff8c00\""), "{svg}");
    // And rendering again gives the same bytes
    let again = dir.path().join("again.svg");
    render_event_19(dir.path(), &again);
    assert_eq!(std::fs::read(&again).unwrap(), svg.as_bytes());
}

#[test]
fn render_writes_a_png_of_the_end_of_the_game() {
    // Given the sample game, when its end is rendered as PNG (no --at)
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("board.PNG");
    let o = carc(
        &["render", &sample(), "--out", out.to_str().unwrap()],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("after event 34"), "{}", stderr(&o));
    // Then the PNG decodes, is 64 px per square over the 12 tiles' extent (columns -1..2,
    // rows -2..1, plus half a square around), and is not one flat colour
    let (w, h, pixels) = decode_png(&out);
    assert_eq!((w, h), (5 * 64, 5 * 64));
    let colours: BTreeSet<&[u8]> = pixels.chunks(4).collect();
    assert!(colours.len() > 50, "{} colours", colours.len());
    // Every pixel is opaque: the background is painted
    assert!(pixels.chunks(4).all(|p| p[3] == 255));
}

#[test]
fn render_takes_a_stored_game_id() {
    // Given a store holding the sample game
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let o = carc_with_store(&store, &["import", &sample()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // When it is rendered by its id
    let out = dir.path().join("stored.svg");
    let o = carc_with_store(
        &store,
        &[
            "render",
            "short-game-rulings",
            "--at",
            "19",
            "--out",
            out.to_str().unwrap(),
            "--scale",
            "10",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Then the picture is the one of the file
    let from_file = dir.path().join("file.svg");
    let o = carc(
        &[
            "render",
            &sample(),
            "--at",
            "19",
            "--out",
            from_file.to_str().unwrap(),
            "--scale",
            "10",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&from_file).unwrap()
    );
}

#[test]
fn render_refuses_bad_arguments_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let o = carc(args, dir.path());
        (o.status.code(), stderr(&o))
    };
    let s = sample();
    // An unknown extension, before the game is read
    let (code, err) = run(&["render", &s, "--out", "board.gif"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(
            "--out board.gif: unknown picture format \".gif\"; use a name ending in .svg or .png"
        ),
        "{err}"
    );
    let (code, err) = run(&["render", &s, "--out", "board"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no extension"), "{err}");
    // An event beyond the log
    let (code, err) = run(&["render", &s, "--at", "35", "--out", "b.svg"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("there is no event 35; the log's last event is 34"),
        "{err}"
    );
    // A scale out of range
    let (code, err) = run(&["render", &s, "--out", "b.png", "--scale", "100000"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--scale"), "{err}");
    // A name that is neither a file nor a stored game, and no store is created for it
    let (code, err) = run(&["render", "no-such-game", "--out", "b.svg"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no-such-game: no such file"), "{err}");
    assert!(!dir.path().join("carc-store").exists());
    // Nothing was written
    for name in ["board.gif", "board", "b.svg", "b.png"] {
        assert!(!dir.path().join(name).exists(), "{name}");
    }
}

#[test]
fn render_of_an_illegal_log_draws_up_to_the_last_legal_event_or_names_the_ruling() {
    // Given the sample with event 9 placed on an occupied square
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sample()).unwrap().replace(
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,-1]",
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,0]",
    );
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, text).unwrap();
    let bad = bad.to_str().unwrap();
    // When the end is rendered, then the board after event 8 is drawn, with a note
    let o = carc(&["render", bad, "--out", "end.svg"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("drawing the board after event 8, the last legal one"),
        "{}",
        stderr(&o)
    );
    // When event 20 is asked for, then the ruling is named and nothing is written
    let o = carc(
        &["render", bad, "--at", "20", "--out", "late.svg"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("event 9 is illegal [base.tile.empty-square]"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path().join("late.svg").exists());
}

#[test]
fn export_html_writes_one_page_with_boards_and_the_annotations() {
    // Given a copy of the sample with an annotation beside it
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("game.jsonl");
    std::fs::copy(sample(), &log).unwrap();
    let log = log.to_str().unwrap();
    let o = carc(
        &[
            "annotate",
            log,
            "--at",
            "19",
            "--glyph",
            "!?",
            "--text",
            "<script>alert(1)</script>",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // When it is exported as HTML with boards after turns 0 and 6
    let out = dir.path().join("game.html");
    let o = carc(
        &[
            "export",
            log,
            "--format",
            "html",
            "--boards",
            "0,6",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Then the page holds the two boards, the escaped annotation and the final table
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>\n"));
    assert_eq!(page.matches("<figure class=\"board\">").count(), 2);
    assert!(page.contains("The board after turn 6 (event 19)"));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!page.contains("<script"));
    assert!(page.contains("<td>Ada</td><td class=\"points\">20</td>"));
}

#[test]
fn export_html_refuses_bad_board_choices() {
    let dir = tempfile::tempdir().unwrap();
    let s = sample();
    let run = |args: &[&str]| {
        let o = carc(args, dir.path());
        (o.status.code(), stderr(&o), o.stdout.is_empty())
    };
    let (code, err, empty) = run(&["export", &s, "--format", "html", "--boards", "3,x"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--boards \"3,x\": expected every, none or turn numbers like 3,10,25"),
        "{err}"
    );
    assert!(empty);
    let (code, err, _) = run(&["export", &s, "--format", "html", "--boards", "99"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--boards: there is no turn 99; game short-game-rulings has turns 0 to 11"),
        "{err}"
    );
    let (code, err, _) = run(&["export", &s, "--format", "md", "--boards", "every"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--format html only"), "{err}");
    // `none` gives a page without pictures of the board
    let o = carc(
        &["export", &s, "--format", "html", "--boards", "none"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let page = String::from_utf8(o.stdout).unwrap();
    assert!(!page.contains("<figure class=\"board\">"));
    assert!(page.contains("<figure class=\"graph\">"));
}
