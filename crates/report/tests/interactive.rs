//! The interactive page: text from the log only as data, a script allowed by its hash and
//! doing no markup, boards that match the game at every position, variations as lines of
//! play, and nothing needed from outside. Its behaviour in a browser is
//! `interactive_in_chromium.py` (CI).

mod common;

use std::collections::{BTreeMap, BTreeSet};

use carc_events::annotation::{Annotation, Glyph};
use carc_report::{interactive_html, BoardAt, Extras, Section};
use serde_json::Value;

use common::{
    assert_the_script_sets_text_only, data, markup, note, root, sample_text, script, tags, timeline,
};

#[test]
fn text_from_the_log_reaches_the_page_only_as_data() {
    // Given a log whose game id and first player's name are markup, annotations that close
    // the script element or open a comment, and a caller's line with a script
    let evil_name = "\"&<>'<img src=x onerror=alert(1)>";
    let evil_game = "g</script><b id=x>";
    let text = sample_text()
        .replacen(
            "\"game\":\"short-game-rulings\"",
            &format!("\"game\":{}", serde_json::to_string(evil_game).unwrap()),
            1,
        )
        .replacen(
            "{\"name\":\"Ada\"",
            &format!("{{\"name\":{}", serde_json::to_string(evil_name).unwrap()),
            1,
        );
    let tl = timeline(&text);
    assert_eq!(tl.log.header.players[0].name, evil_name);
    let notes = [
        "<script>alert(1)</script>",
        "</script><script>alert(2)</script>",
        "<!--<script>",
    ];
    let annotations: BTreeMap<u64, Annotation> = notes
        .iter()
        .enumerate()
        .map(|(i, t)| note(evil_game, 3 + i as u64, Some(Glyph::Blunder), t))
        .collect();
    let extras = common::extras_on_event_24();
    // When the interactive page is written
    let page = interactive_html(&tl, &annotations, &extras);
    // Then the page holds exactly two scripts, the data and its own, and closes each once
    assert_eq!(page.matches("<script").count(), 2);
    assert_eq!(page.matches("</script>").count(), 2);
    // And the data element holds no character that markup could start with
    let d = data(&page);
    let raw = serde_json::to_string(&d).unwrap();
    let open = page.find("id=\"carc-data\">").unwrap();
    let body = &page[open + "id=\"carc-data\">".len()..];
    let body = &body[..body.find("</script>").unwrap()];
    for c in ['<', '>', '&'] {
        assert!(!body.contains(c), "{c} in the data");
    }
    // And the data gives the text back exactly
    assert_eq!(d["game"], evil_game);
    assert_eq!(d["players"][0]["name"], evil_name);
    for (i, t) in notes.iter().enumerate() {
        assert_eq!(d["steps"][2 + i]["comment"], *t, "{raw}");
    }
    assert_eq!(
        d["steps"][23]["lines"][0],
        "best found: <script>x</script>\nelsewhere"
    );
    assert_eq!(d["sections"][0]["paragraphs"][0], "How <it>\nwas judged.");
    // And the markup holds none of it, not even escaped: names only reach the page as data
    let m = markup(&page);
    for word in ["onerror", "alert", "id=x", "&lt;", "&quot;", "&#39;", "How"] {
        assert!(!m.contains(word), "{word} in the markup");
    }
    assert!(m.contains("<title>carc game</title>"));
    // And the page uses only its own tags (its script aside, which compares numbers with `<`)
    let allowed: BTreeSet<&str> = [
        "!doctype",
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "header",
        "h1",
        "ul",
        "noscript",
        "p",
        "code",
        "div",
        "button",
        "input",
        "span",
        "figure",
        "figcaption",
        "svg",
        "g",
        "use",
        "defs",
        "rect",
        "polygon",
        "polyline",
        "line",
        "circle",
        "text",
        "section",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "script",
    ]
    .into_iter()
    .collect();
    let used = tags(&m.replace(script(&page), ""));
    let used: BTreeSet<&str> = used.iter().map(String::as_str).collect();
    assert!(used.is_subset(&allowed), "{:?}", used.difference(&allowed));
}

#[test]
fn the_script_is_allowed_by_its_hash_and_never_writes_markup() {
    let page = interactive_html(
        &timeline(&sample_text()),
        &BTreeMap::new(),
        &Extras::default(),
    );
    // The policy: nothing by default, inline styles, and the one script by its hash
    let policy = page
        .split("http-equiv=\"Content-Security-Policy\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    let (before, hash) = policy.split_once("script-src 'sha256-").unwrap();
    assert_eq!(before, "default-src 'none'; style-src 'unsafe-inline'; ");
    assert_eq!(
        hash.len(),
        44 + 1,
        "a base64 SHA-256 and the closing quote: {hash}"
    );
    assert!(!policy.contains("unsafe-eval") && !policy.contains("script-src 'unsafe-inline'"));
    // The script parses the data and sets text only
    let s = script(&page);
    assert_the_script_sets_text_only(s);
}

#[test]
fn every_position_shows_the_tiles_of_the_game_at_that_moment() {
    // Given the Germany map game with the 20th Anniversary (map marks, arrows, three starts)
    let text = std::fs::read_to_string(
        root().join("../../logs/sim-4p-germany-anniversary-3-starts.jsonl"),
    )
    .unwrap();
    let tl = timeline(&text);
    let page = interactive_html(&tl, &BTreeMap::new(), &Extras::default());
    let d = data(&page);
    let pool: Vec<&str> = {
        let start = page.find("<g id=\"pool\">\n").unwrap() + "<g id=\"pool\">\n".len();
        let end = start + page[start..].find("</g></defs></svg>").unwrap();
        page[start..end].lines().collect()
    };
    let main = &d["lines"][0];
    let at = main["at"].as_array().unwrap();
    // Then there is a board for every position, before the first event to after the last
    assert_eq!(at.len(), tl.steps.len() + 1);
    let frames = d["board"]["frames"].as_array().unwrap();
    let views = d["board"]["views"].as_array().unwrap();
    for (k, p) in at.iter().enumerate() {
        let game = tl.state_at(k).unwrap();
        let p: Vec<usize> = p
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        // As many tiles as the game has placed, each the `<use>` of its type on its square
        assert_eq!(p[0], game.placed().len(), "position {k}");
        for (i, placed) in game.placed().iter().enumerate() {
            let fragment = pool[main["tiles"][i].as_u64().unwrap() as usize];
            let square = carc_draw::world_of(placed.at);
            assert!(
                fragment.ends_with(&format!(
                    "-{}\" x=\"{}\" y=\"{}\"/>",
                    placed.rotation.degrees(),
                    carc_draw::svg::num(square.x),
                    carc_draw::svg::num(square.y)
                )),
                "position {k}, tile {i}: {fragment}"
            );
        }
        assert!(p[1] < views.len() && p[2] < frames.len() && p[3] < frames.len());
    }
    // And every fragment a frame names is in the pool, and the meeples of the last position are
    // drawn: one circle per meeple on the board
    for f in frames {
        for i in f.as_array().unwrap() {
            assert!((i.as_u64().unwrap() as usize) < pool.len());
        }
    }
    let end = tl.state_at(tl.steps.len()).unwrap();
    let last = at.last().unwrap();
    let top = &frames[last[3].as_u64().unwrap() as usize];
    let circles = top
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| pool[i.as_u64().unwrap() as usize].starts_with("<circle"))
        .count();
    assert!(circles >= end.meeples().count(), "{circles}");
    // And the page needs nothing from outside: its references are to its own pictures
    for word in ["src=", "url(", "<link", "@import", "<img", "<iframe"] {
        assert!(!page.contains(word), "{word}");
    }
    assert!(common::every_reference_is_defined(&page));
    assert_eq!(
        page.matches("http").count(),
        page.matches("xmlns=\"http://www.w3.org/2000/svg\"").count() + 1,
        "the namespaces and the policy's http-equiv"
    );
}

#[test]
fn a_line_of_play_that_leaves_the_game_is_listed_under_its_move() {
    // Given the sample game and a variation after event 17: Brandt's tile N at (0,2) instead
    let mut text: String = sample_text()
        .lines()
        .filter(|l| {
            serde_json::from_str::<Value>(l).unwrap()["seq"]
                .as_u64()
                .is_none_or(|seq| seq <= 17)
        })
        .map(|l| format!("{l}\n"))
        .collect();
    text.push_str("{\"seq\":18,\"type\":\"tile_placed\",\"player\":1,\"tile\":\"N\",\"at\":[0,2],\"rotation\":0}\n");
    text.push_str("{\"seq\":19,\"type\":\"meeple_placed\",\"player\":1,\"on\":\"city N\"}\n");
    let line = timeline(&text);
    assert!(line.error.is_none(), "{:?}", line.error);
    let mut extras = Extras::default();
    extras.sections.push(Section {
        title: "Variation \"<north>\"".into(),
        board: Some(BoardAt {
            steps: line.steps.len(),
            timeline: line.clone(),
            caption: "the end".into(),
        }),
        ..Section::default()
    });
    let tl = timeline(&sample_text());
    // When the page is written
    let page = interactive_html(&tl, &BTreeMap::new(), &extras);
    let d = data(&page);
    // Then the variation is a second line of play, leaving the game after its 17th step, with
    // its two own moves and their boards
    let v = &d["lines"][1];
    assert_eq!(v["title"], "Variation \"<north>\"");
    assert_eq!(v["from"], 17);
    assert_eq!(v["first"], 18);
    assert_eq!(v["steps"].as_array().unwrap().len(), 2);
    assert_eq!(
        v["steps"][0]["text"],
        "Brandt placed tile N at (0,2) rotated 0°"
    );
    let at = v["at"].as_array().unwrap();
    assert_eq!(at.len(), 2);
    let placed = line.state_at(19).unwrap().placed().len();
    assert_eq!(at[1][0], placed);
    // And it is listed under the turn its branch belongs to (turn 6: events 16 to 19), only there
    let listed: Vec<u64> = d["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| !t["variations"].as_array().unwrap().is_empty())
        .map(|t| t["number"].as_u64().unwrap())
        .collect();
    assert_eq!(listed, [6]);
    // And its section is not repeated as text: the line of play replaces it
    assert!(d["sections"].as_array().unwrap().is_empty());
}

#[test]
fn a_log_that_turns_illegal_or_has_no_event_still_gives_a_page() {
    // Given the sample game made illegal at event 9, and the sample's header alone
    let bad = sample_text().replace(
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,-1]",
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,0]",
    );
    let header_only: String = sample_text().lines().next().unwrap().to_string() + "\n";
    for (text, steps) in [(bad, 8), (header_only, 0)] {
        let tl = timeline(&text);
        assert_eq!(tl.steps.len(), steps);
        // When the page is written
        let page = interactive_html(&tl, &BTreeMap::new(), &Extras::default());
        // Then it has a board for every legal position and says where the log stops
        let d = data(&page);
        assert_eq!(d["steps"].as_array().unwrap().len(), steps);
        assert_eq!(d["lines"][0]["at"].as_array().unwrap().len(), steps + 1);
        if steps > 0 {
            let illegal = d["illegal"].as_str().unwrap();
            assert!(illegal.contains("line 10, event 9"), "{illegal}");
            assert_eq!(d["table"]["title"], "Scores (the game is not finished)");
        }
    }
}

#[test]
fn the_final_scoring_has_rows_of_its_own_and_its_board_shows_the_figures_that_scored() {
    // Given the sample game, whose last move completes a monastery (Ada +9) and whose final
    // scoring gives the field the two farm 3 points each
    let tl = timeline(&sample_text());
    let page = interactive_html(&tl, &BTreeMap::new(), &Extras::default());
    let d = data(&page);
    // Then the last turn's points are its move's only
    let turns = d["turns"].as_array().unwrap();
    let last = turns.last().unwrap();
    assert_eq!(
        (last["seat"].as_u64(), last["points"].as_u64()),
        (Some(0), Some(9))
    );
    // And the final scoring has a row per player and feature
    assert_eq!(
        d["finals"],
        serde_json::json!([
            {"seat": 0, "what": "field, north-east at (0,0)", "points": 3},
            {"seat": 1, "what": "field, north-east at (0,0)", "points": 3},
        ])
    );
    // And the last event's panel tells the move's score apart from the final scoring's
    let step = d["steps"].as_array().unwrap().last().unwrap();
    let headlines = |key: &str| -> Vec<String> {
        step[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["headline"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(headlines("scores")
        .iter()
        .all(|h| h.contains("(completed)")));
    assert_eq!(headlines("scores").len(), 1);
    assert_eq!(headlines("final_scores").len(), 1);
    assert!(headlines("final_scores")[0].contains("(final scoring)"));
    assert_eq!(step["returned"].as_array().unwrap().len(), 1);
    assert_eq!(step["final_returned"].as_array().unwrap().len(), 2);
    // And the board at the end draws the two farmers the final scoring sent home (lying
    // rectangles in the players' colours), which the position before it also shows
    let pool: Vec<&str> = {
        let start = page.find("<g id=\"pool\">\n").unwrap() + "<g id=\"pool\">\n".len();
        let end = start + page[start..].find("</g></defs></svg>").unwrap();
        page[start..end].lines().collect()
    };
    let frames = d["board"]["frames"].as_array().unwrap();
    let at = d["lines"][0]["at"].as_array().unwrap();
    let farmers = |k: usize| {
        let top = &frames[at[k][3].as_u64().unwrap() as usize];
        top.as_array()
            .unwrap()
            .iter()
            .filter(|i| {
                let f = pool[i.as_u64().unwrap() as usize];
                f.starts_with("<rect") && f.contains("rx=\"0.06\"")
            })
            .count()
    };
    let end = tl.steps.len();
    assert_eq!(tl.state_at(end).unwrap().meeples().count(), 0);
    assert_eq!(farmers(end), 2);
    assert_eq!(farmers(end - 1), 2);
}

#[test]
fn a_traders_game_gives_goods_and_second_turns_as_data_of_their_own() {
    // Given a simulated 2-player game with Traders & Builders
    let text =
        std::fs::read_to_string(root().join("../../logs/sim-2p-traders-builders-mixed.jsonl"))
            .unwrap();
    let tl = timeline(&text);
    // When its interactive page is written
    let page = interactive_html(&tl, &BTreeMap::new(), &Extras::default());
    let d = data(&page);
    let steps = d["steps"].as_array().unwrap();
    // Then each step's goods and second-turn sentences are its `traders`, never its `arrows`
    let mut traders = 0;
    for (step, s) in tl.steps.iter().zip(steps) {
        let want =
            carc_replay::describe::describe_traders(&tl.log.header, step.seat, &step.effects);
        let got: Vec<&str> = s["traders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(got, want);
        assert!(s["arrows"].as_array().unwrap().is_empty(), "{s}");
        traders += got.len();
    }
    assert!(traders > 10, "{traders}");
    // And the script lists them under a class of their own
    assert!(script(&page).contains("list(box, 'goods', s.traders)"));
}
