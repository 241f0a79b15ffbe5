//! A shared log is untrusted: whatever its player names, game id, comment and annotations say,
//! the Markdown report rendered by a renderer that passes inline HTML through (pandoc, many
//! site generators and forums; here pulldown-cmark) shows the text and runs nothing.

mod common;

use std::collections::BTreeMap;

use carc_events::annotation::{Annotation, Glyph};
use carc_report::{markdown, markdown_with, Extras, Section};

use common::{note, sample_text, timeline};

const SCRIPT: &str = "<script>alert(1)</script>";
const IMG: &str = "<img src=x onerror=alert(2)>";
const LINK: &str = "[click](javascript:alert(3))";

/// The sample game with markup in the game id, both names and the comment.
fn hostile_log() -> String {
    let text = sample_text()
        .replacen(
            "\"game\":\"short-game-rulings\"",
            "\"game\":\"g<script>alert(0)</script>\"",
            1,
        )
        .replacen("{\"name\":\"Ada\"", &format!("{{\"name\":\"{IMG}\""), 1)
        .replacen(
            "{\"name\":\"Brandt\"",
            "{\"name\":\"Bo\\u001b]0;owned\\u0007\\r\\nfake: ok *x* _y_ `z` | ~w~\"",
            1,
        );
    let (head, rest) = text.split_once('\n').unwrap();
    let head = head.replacen(
        "\"comment\":\"",
        &format!("\"comment\":\"{LINK} # not a heading "),
        1,
    );
    format!("{head}\n{rest}")
}

fn render(md: &str) -> String {
    let mut html = String::new();
    let options =
        pulldown_cmark::Options::ENABLE_TABLES | pulldown_cmark::Options::ENABLE_STRIKETHROUGH;
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new_ext(md, options));
    html
}

/// What would run or fetch in a browser: an element the report did not write, a handler, a
/// script URL.
fn assert_inert(html: &str) {
    for bad in [
        "<script",
        "<img",
        "<iframe",
        "href=\"javascript",
        "<a ",
        "<em>",
        "<code>",
        "<del>",
    ] {
        assert!(
            !html.contains(bad),
            "{bad:?} in the rendered report:\n{html}"
        );
    }
}

#[test]
fn hostile_names_comment_and_annotations_render_as_text_and_run_nothing() {
    // Given a log whose game id, names and comment are markup, with hostile annotations
    let tl = timeline(&hostile_log());
    assert!(tl.error.is_none());
    let game = tl.log.header.game.clone();
    let annotations: BTreeMap<u64, Annotation> = [
        note(&game, 3, Some(Glyph::Blunder), SCRIPT),
        note(
            &game,
            5,
            None,
            &format!("{LINK}\n# heading\n<iframe src=x>"),
        ),
    ]
    .into_iter()
    .collect();
    // When the Markdown report is written and rendered as HTML
    let md = markdown(&tl, &annotations);
    let html = render(&md);
    // Then nothing in it would run, and the text is shown as written
    assert_inert(&html);
    assert!(!html.contains("<iframe"));
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    assert!(
        html.contains("&lt;img src=x onerror=alert(2)&gt; drew tile N"),
        "{html}"
    );
    assert!(html.contains("[click](javascript:alert(3))"), "{html}");
    // The control characters are shown, not sent, and the forged line stays on its own
    assert!(!md.contains('\u{1b}') && !md.contains('\u{7}') && !md.contains('\r'));
    assert!(
        html.contains("Bo\\u{1b}]0;owned\\u{7} fake: ok *x* _y_ `z` | ~w~"),
        "{html}"
    );
    assert!(!md.lines().any(|l| l.starts_with("fake: ok")));
    // The final scoring's table keeps three cells in each of its rows (the field the two
    // share: one row each), and the score table two cells in each of its two rows
    let (before, scores) = html.split_once("<h2>Final scores</h2>").expect("{html}");
    let (_, finals) = before.split_once("<h2>Final scoring</h2>").expect("{html}");
    assert_eq!(finals.matches("<tr>").count(), 3, "{html}");
    assert_eq!(finals.matches("<td").count(), 6, "{html}");
    assert_eq!(scores.matches("<tr>").count(), 3, "{html}");
    assert_eq!(scores.matches("<td").count(), 4, "{html}");
}

#[test]
fn a_caller_section_cannot_open_blocks_or_links() {
    // Given a closing section whose text would open a heading, a list, a link definition
    let tl = timeline(&sample_text());
    let mut extras = Extras::default();
    extras.sections.push(Section {
        title: format!("Quality {SCRIPT}"),
        paragraphs: vec![
            "# heading".into(),
            "1. list".into(),
            "[x]: javascript:alert(4)".into(),
            "- item".into(),
        ],
        items: vec![IMG.into()],
        table: None,
        board: None,
    });
    // When it is written and rendered
    let md = markdown_with(&tl, &BTreeMap::new(), &extras);
    let html = render(&md);
    // Then it is all paragraphs of plain text
    assert_inert(&html);
    assert!(
        !html.contains("<h1>heading") && !html.contains("<ol>"),
        "{html}"
    );
    assert!(html.contains("<p># heading</p>"), "{html}");
    assert!(html.contains("<p>1. list</p>"), "{html}");
    assert!(html.contains("<p>[x]: javascript:alert(4)</p>"), "{html}");
    assert!(html.contains("<p>- item</p>"), "{html}");
}
