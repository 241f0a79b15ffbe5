//! The HTML report: the hand-written sample game compared with a golden file, untrusted text
//! escaped, the choice of board pictures, and a page that needs nothing from outside.
//! After an intended change of wording or drawing, regenerate the golden file with
//! `UPDATE_GOLDEN=1 cargo test -p carc-report` and review the diff (and the page in a browser).

mod common;

use std::collections::{BTreeMap, BTreeSet};

use carc_events::annotation::{Annotation, Glyph};
use carc_replay::describe::{describe_gifts, describe_traders};
use carc_report::{html, Boards, HtmlOptions};

use common::{note, root, sample_text, tags, timeline};

#[test]
fn the_sample_game_reads_as_the_golden_page() {
    // Given the sample game with the annotations of the Markdown golden test
    let annotations: BTreeMap<u64, Annotation> = [
        note(
            "short-game-rulings",
            5,
            Some(Glyph::Dubious),
            "why not the city?",
        ),
        note(
            "short-game-rulings",
            19,
            None,
            "joining the two cities\nmakes a tie: 8 each",
        ),
    ]
    .into_iter()
    .collect();
    // When the page is written with a board after every turn
    let got = html(
        &timeline(&sample_text()),
        &annotations,
        &HtmlOptions::default(),
    );
    // Then it is the golden file, byte for byte
    let golden = root().join("tests/golden/short-game-rulings.html");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &got).unwrap();
    }
    let want = std::fs::read_to_string(&golden).unwrap();
    assert!(got == want, "the page differs from {}", golden.display());
}

#[test]
fn the_page_holds_every_score_folded_the_annotations_and_the_final_table() {
    let annotations: BTreeMap<u64, Annotation> = [note(
        "short-game-rulings",
        19,
        Some(Glyph::Interesting),
        "a tie",
    )]
    .into_iter()
    .collect();
    let page = html(
        &timeline(&sample_text()),
        &annotations,
        &HtmlOptions::default(),
    );
    // The tie of event 19 is a collapsible score with its breakdown inside
    assert!(page.contains(
        "<details class=\"score\"><summary>score: city (completed) city N at (0,0): 2 × 4 tiles + 2 × 0 coats of arms = 8; Ada and Brandt +8  [base.score.city.completed]</summary>\n<ul>\n<li>tiles: (-1,0) (-1,1) (0,0) (0,1)</li>"
    ), "{page}");
    // The glyph sits on its event, with its meaning as a tooltip, and the comment below it
    assert!(page.contains(
        "<li id=\"event-19\"><span class=\"seq\">19</span><abbr class=\"glyph\" title=\""
    ));
    assert!(page.contains("<blockquote class=\"note\">a tie</blockquote>"));
    // The field is scored at the end, and the table closes the page with the winner in bold
    assert!(page.contains("<h2 id=\"final-scoring\">Final scoring</h2>"));
    assert!(page.contains("[base.score.field.final]"));
    assert!(page.ends_with(
        "<tr class=\"winner\"><td>Ada</td><td class=\"points\">20</td></tr>\n<tr><td>Brandt</td><td class=\"points\">11</td></tr>\n</tbody>\n</table>\n</body>\n</html>\n"
    ));
    // The score graph has one line per player, in the players' colours (red, blue)
    assert_eq!(page.matches("stroke-linejoin=\"round\"").count(), 2);
    assert!(page.contains("stroke=\"#d62828\" stroke-width=\"3.2\""));
    assert!(page.contains("stroke=\"#285adc\" stroke-width=\"2\""));
}

#[test]
fn text_from_the_log_and_the_annotations_is_escaped() {
    // Given a log whose game id and first player's name are markup, and an annotation that is
    // a script
    let evil_name = "\"&<>'";
    let text = sample_text()
        .replacen(
            "\"game\":\"short-game-rulings\"",
            "\"game\":\"g<b>&amp;\"",
            1,
        )
        .replacen("{\"name\":\"Ada\"", "{\"name\":\"\\\"&<>'\"", 1);
    let tl = timeline(&text);
    assert_eq!(tl.log.header.players[0].name, evil_name);
    assert!(tl.error.is_none());
    let annotations: BTreeMap<u64, Annotation> = [note(
        "g<b>&amp;",
        3,
        Some(Glyph::Blunder),
        "<script>alert(1)</script>",
    )]
    .into_iter()
    .collect();
    // When the page is written
    let page = html(&tl, &annotations, &HtmlOptions::default());
    // Then the raw markup never appears, only its escaped form
    assert!(!page.contains("<script"), "a script tag got through");
    assert!(!page.contains(evil_name));
    assert!(!page.contains("<b>"));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let escaped = "&quot;&amp;&lt;&gt;&#39;";
    assert!(page.contains("<title>Game g&lt;b&gt;&amp;amp;</title>"));
    // The name is escaped wherever it appears: setup, sentences, graph, legend and table
    assert!(page.contains(&format!("{escaped} (red)")));
    assert!(page.contains(&format!("{escaped} drew tile N")));
    assert!(page.contains(&format!("<title>{escaped}</title></polyline>")));
    assert!(page.contains(&format!("<td>{escaped}</td>")));
    // And the page uses only its own tags
    let allowed: BTreeSet<String> = [
        "!doctype",
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "h1",
        "h2",
        "h3",
        "ul",
        "li",
        "span",
        "strong",
        "section",
        "div",
        "abbr",
        "details",
        "summary",
        "p",
        "blockquote",
        "figure",
        "figcaption",
        "svg",
        "rect",
        "polygon",
        "polyline",
        "line",
        "circle",
        "text",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "code",
        "defs",
        "g",
        "use",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let used = tags(&page);
    assert!(used.is_subset(&allowed), "{:?}", used.difference(&allowed));
}

#[test]
fn boards_are_drawn_after_every_turn_after_chosen_turns_or_not_at_all() {
    let tl = timeline(&sample_text());
    let turns: BTreeSet<u32> = tl.steps.iter().map(|s| s.turn).collect();
    let boards = |b: Boards| {
        let page = html(&tl, &BTreeMap::new(), &HtmlOptions { boards: b });
        (
            page.matches("<figure class=\"board\">").count(),
            page.contains("<figcaption>The board after turn 3 (event 10)</figcaption>"),
            page.contains("<figcaption>The board after the start (event 1)</figcaption>"),
        )
    };
    // Given every turn (the default), then one picture per turn, the start included
    assert_eq!(boards(Boards::EveryTurn), (turns.len(), true, true));
    // Given turns 3 and 6 and a turn the game does not have, then two pictures
    let chosen = Boards::Turns([3, 6, 999].into_iter().collect());
    assert_eq!(boards(chosen), (2, true, false));
    // Given none, then none
    assert_eq!(boards(Boards::None), (0, false, false));
}

#[test]
fn the_page_needs_nothing_from_outside() {
    // Given a game on the Germany map with the 20th Anniversary (map names, arrows)
    let text = std::fs::read_to_string(
        root().join("../../logs/sim-4p-germany-anniversary-3-starts.jsonl"),
    )
    .unwrap();
    let page = html(&timeline(&text), &BTreeMap::new(), &HtmlOptions::default());
    // Then it links, loads and runs nothing: the only URL is the SVG namespace, and the only
    // references are to the page's own shared pictures (the map and the tiles)
    for word in [
        "src=", "url(", "<script", "<link", "@import", "<img", "<iframe",
    ] {
        assert!(!page.contains(word), "{word}");
    }
    let refs = page.matches("href=").count();
    assert!(refs > 100, "{refs}");
    assert_eq!(page.matches("<use href=\"#carc-").count(), refs);
    for id in ["carc-map", "carc-tile-"] {
        assert!(page.contains(&format!("<g id=\"{id}")), "{id}");
    }
    let urls = page.matches("http").count();
    let namespaces = page.matches("xmlns=\"http://www.w3.org/2000/svg\"").count();
    assert_eq!(
        urls,
        namespaces + 1,
        "the namespaces and the policy's http-equiv"
    );
    // And the scripts that could still sneak in are forbidden by the page's policy
    assert!(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""));
    // The map's large cities are named on the boards
    assert!(page.contains(">Hamburg</text>"));
}

#[test]
fn a_log_that_turns_illegal_says_where_and_keeps_the_legal_part() {
    let bad = sample_text().replace(
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,-1]",
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,0]",
    );
    let page = html(&timeline(&bad), &BTreeMap::new(), &HtmlOptions::default());
    assert!(page.contains("<strong>The log stops being legal here:</strong> line 10, event 9"));
    assert!(page.contains("Scores (the game is not finished)"));
    assert!(!page.contains("id=\"event-9\""));
}

#[test]
fn extras_mark_events_and_the_graph_list_lines_and_close_the_page_all_escaped() {
    use carc_report::{html_with, Extras};
    let annotations: BTreeMap<u64, Annotation> =
        [note("short-game-rulings", 24, Some(Glyph::Dubious), "hmm")]
            .into_iter()
            .collect();
    let tl = timeline(&sample_text());
    // Given a caller's mark and lines on event 24 (annotated too), with markup in the lines,
    // and a closing section with a table
    let extras = common::extras_on_event_24();
    // When the page is written with them
    let page = html_with(&tl, &annotations, &extras, &HtmlOptions::default());
    // Then the caller's mark follows the annotation's glyph, with its meaning as a tooltip
    assert!(page.contains(
        "<span class=\"seq\">24</span><abbr class=\"glyph\" title=\"dubious\">?!</abbr><abbr class=\"glyph extra\" title=\"move quality: blunder\">??</abbr>"
    ), "{page}");
    // And the lines follow the comment, escaped (line breaks kept by the style)
    assert!(page.contains(
        "<blockquote class=\"note\">hmm</blockquote>\n<ul class=\"extra\">\n<li>best found: &lt;script&gt;x&lt;/script&gt;\nelsewhere</li>\n</ul>\n</li>"
    ), "{page}");
    assert!(!page.contains("<script"));
    // And the score graph carries the mark as a link to the event
    assert!(page
        .contains("<a href=\"#event-24\"><title>event 24: move quality: blunder</title><circle "));
    assert_eq!(page.matches("<a href=").count(), 1);
    // (and the page still refers to nothing but its own parts)
    assert_eq!(
        page.matches("href=\"#").count(),
        page.matches("href=").count()
    );
    // And the section closes the page, after the final scores, its numbers right-aligned
    assert!(page.ends_with(
        "<h2 id=\"extra-1\">Move quality</h2>\n<section class=\"extra\">\n<p>How &lt;it&gt;\nwas judged.</p>\n<p>Marks.</p>\n<ul class=\"items\">\n<li>a &lt;b&gt;\nitem</li>\n</ul>\n<table>\n<thead><tr><th>player</th><th>average loss</th></tr></thead>\n<tbody>\n<tr><td>A|d&amp;a</td><td class=\"num\">1.50</td></tr>\n</tbody>\n</table>\n</section>\n</body>\n</html>\n"
    ), "{}", &page[page.len() - 600..]);
    // And without extras the page is the plain one
    assert_eq!(
        html_with(
            &tl,
            &annotations,
            &Extras::default(),
            &HtmlOptions::default()
        ),
        html(&tl, &annotations, &HtmlOptions::default())
    );
}

#[test]
fn a_gifts_game_lists_what_each_gift_did_as_the_markdown_report_does() {
    // Given a simulated 3-player game with The Gifts
    let text =
        std::fs::read_to_string(root().join("../../logs/sim-3p-anniversary-gifts-mixed.jsonl"))
            .unwrap();
    let tl = timeline(&text);
    // When its page is written
    let options = HtmlOptions {
        boards: Boards::None,
    };
    let page = html(&tl, &BTreeMap::new(), &options);
    // Then the card opened is listed under its event, names escaped
    assert!(page.contains(
        "Brandt opened a gift, Take 2: they draw a second tile and keep one of the two\n<ul class=\"gifts\">\n<li>Brandt opens Take 2</li>\n<li>Take 2: Brandt draws a second tile</li>\n</ul>\n"
    ), "{page}");
    assert!(page.contains("<li>Cleo&#39;s tile extends Ada&#39;s city: Cleo receives a gift</li>"));
    // And every gift sentence of the game is there, each once
    let sentences: usize = tl
        .steps
        .iter()
        .map(|s| describe_gifts(&tl.log.header, s.seat, &s.effects).len())
        .sum();
    let items: usize = page
        .split("<ul class=\"gifts\">")
        .skip(1)
        .map(|rest| rest[..rest.find("</ul>").unwrap()].matches("<li>").count())
        .sum();
    assert!(sentences > 10, "{sentences}");
    assert_eq!(items, sentences);
}

/// The items of every `<ul class="CLASS">` of a page.
fn items_of(page: &str, class: &str) -> Vec<String> {
    page.split(&format!("<ul class=\"{class}\">"))
        .skip(1)
        .flat_map(|rest| {
            rest[..rest.find("</ul>").unwrap()]
                .split("<li>")
                .skip(1)
                .map(|item| item.trim_end().trim_end_matches("</li>").to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn a_traders_game_lists_goods_and_second_turns_in_a_list_of_their_own() {
    // Given a simulated 2-player game with Traders & Builders
    let text =
        std::fs::read_to_string(root().join("../../logs/sim-2p-traders-builders-mixed.jsonl"))
            .unwrap();
    let tl = timeline(&text);
    // When its page is written
    let options = HtmlOptions {
        boards: Boards::None,
    };
    let page = html(&tl, &BTreeMap::new(), &options);
    // Then every goods and second-turn sentence is in a goods list, each once, in game order
    let sentences: Vec<String> = tl
        .steps
        .iter()
        .flat_map(|s| describe_traders(&tl.log.header, s.seat, &s.effects))
        .map(|line| line.replace('\'', "&#39;"))
        .collect();
    assert!(sentences.len() > 10, "{sentences:?}");
    assert!(
        sentences.iter().any(|l| l.contains("wine")),
        "{sentences:?}"
    );
    assert_eq!(items_of(&page, "goods"), sentences);
    // And none of them is styled as an arrow's
    assert!(items_of(&page, "arrows").is_empty(), "{page}");
    assert!(page.contains("ul.goods{"));
}

#[test]
fn a_section_may_show_a_board_unless_the_page_has_no_boards() {
    use carc_report::{html_with, BoardAt, Extras, Section};
    let tl = timeline(&sample_text());
    // Given a closing section with the board after ten steps of the game, its caption markup
    let mut extras = Extras::default();
    extras.sections.push(Section {
        title: "Variation \"x\"".into(),
        board: Some(BoardAt {
            timeline: tl.clone(),
            steps: 10,
            caption: "The board at the end of <x>".into(),
        }),
        ..Section::default()
    });
    // When the page is written with boards after chosen turns
    let options = HtmlOptions {
        boards: Boards::Turns([2].into()),
    };
    let page = html_with(&tl, &BTreeMap::new(), &extras, &options);
    // Then the section holds the picture, captioned and escaped, after turn 2's board
    let at = page
        .find("<h2 id=\"extra-1\">Variation &quot;x&quot;</h2>")
        .unwrap();
    let section = &page[at..];
    assert!(section.contains("<figure class=\"board\">"), "{section}");
    assert!(
        section.contains(
            "<figcaption>The board at the end of &lt;x&gt;</figcaption>\n</figure>\n</section>"
        ),
        "{section}"
    );
    assert_eq!(page.matches("<figure class=\"board\">").count(), 2);
    // And every picture the boards refer to is defined once in the page
    assert!(common::every_reference_is_defined(&page));
    // And with no boards at all, the section has none either
    let none = HtmlOptions {
        boards: Boards::None,
    };
    let page = html_with(&tl, &BTreeMap::new(), &extras, &none);
    assert!(!page.contains("<figure class=\"board\">"));
    assert!(!page.contains("class=\"symbols\""));
}

#[test]
fn an_abbot_going_home_is_an_abbot_in_every_report() {
    // Given a simulated 3-player Abbot game, where Cleo takes her abbot back from the
    // garden at (2,0) at event 46 and Ada's meeples go home too
    let text = std::fs::read_to_string(root().join("../../logs/sim-3p-abbot-mixed.jsonl")).unwrap();
    let tl = timeline(&text);
    let options = HtmlOptions {
        boards: Boards::None,
    };
    // When the Markdown, static HTML and interactive HTML reports are written
    let md = carc_report::markdown(&tl, &BTreeMap::new());
    let page = html(&tl, &BTreeMap::new(), &options);
    let live =
        carc_report::interactive_html(&tl, &BTreeMap::new(), &carc_report::Extras::default());
    // Then the abbot goes home as an abbot, the meeples as meeples
    let abbot = "abbot back to Cleo: garden at (2,0)";
    assert!(md.contains(&format!("  - {abbot}\n")), "{md}");
    assert!(page.contains(&format!("<p class=\"returned\">{abbot}</p>")));
    assert!(live.contains(abbot));
    assert!(!md.contains("meeple back to Cleo: garden"));
    assert!(md.contains("meeple back to "));
}
