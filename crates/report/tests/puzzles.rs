//! The puzzle page without a browser: its data, its board parts and its safety (the browser
//! half is `puzzles_in_chromium.py`).

mod common;

use carc_events::Log;
use carc_replay::{fold, Timeline};
use carc_report::{puzzles_html, PageMove, PagePuzzle};
use carc_rules::{Phase, Placement};

use common::{
    assert_the_script_sets_text_only, data, every_reference_is_defined, sample_text, script,
    timeline,
};

/// The sample game up to event 24 (Brandt's draw of A waits to be placed).
fn position(text: &str) -> Timeline {
    let whole = timeline(text);
    let mut log = Log::new(whole.log.header.clone());
    log.events = whole
        .log
        .events
        .iter()
        .filter(|(_, e)| e.seq < 24)
        .cloned()
        .collect();
    fold(log, &[])
}

/// A puzzle at `t`'s last position whose moves are every legal placement with no meeple (the
/// first the "best", the last the "played").
fn puzzle(t: &Timeline) -> (PagePuzzle<'_>, Vec<Placement>) {
    let game = t.state_at(t.steps.len()).unwrap();
    let Phase::Place { tile } = game.phase() else {
        panic!("no tile waits")
    };
    let mut placements = Vec::new();
    game.legal_placements(tile, &mut placements);
    let moves = placements
        .iter()
        .map(|p| PageMove {
            at: p.at,
            rotation: p.rotation,
            rest: "no meeple".into(),
        })
        .collect();
    let last = placements.len() - 1;
    let p = PagePuzzle {
        timeline: t,
        source: "g.jsonl".into(),
        seat: 1,
        turn: 8,
        seq: 24,
        mark: "?".into(),
        tile,
        moves,
        played: Some(last),
        best: Some(0),
        played_text: "the move played".into(),
        best_text: "the best move".into(),
        played_win: Some(0.065),
        best_win: Some(0.355),
        played_value: -6.7,
        best_value: -0.66,
        line: vec!["Brandt A 0,-2 270 monastery".into()],
    };
    (p, placements)
}

#[test]
fn every_legal_placement_is_a_square_with_its_rotations_and_the_tile_drawn_there() {
    let t = position(&sample_text());
    let (p, placements) = puzzle(&t);
    let page = puzzles_html("Brandt", &[p]);
    let d = data(&page);
    let q = &d["puzzles"][0];
    assert_eq!(q["tile"], "A");
    assert_eq!(
        (q["played"].as_u64(), q["best"].as_u64()),
        (Some(placements.len() as u64 - 1), Some(0))
    );
    assert_eq!(
        (q["played_win"].as_i64(), q["best_win"].as_i64()),
        (Some(65), Some(355))
    );
    // Every legal placement is offered once: its square, its rotation, its move
    let mut offered = Vec::new();
    // The pool: one fragment a line between its opening and its close
    let start = page.find("<g id=\"pool\">").unwrap();
    let end = start + page[start..].find("</g></defs>").unwrap();
    let pool = page[start..end].lines().count() - 1;
    for s in q["squares"].as_array().unwrap() {
        assert!(s["fragment"].as_u64().unwrap() < pool as u64);
        for r in s["rotations"].as_array().unwrap() {
            for m in r["moves"].as_array().unwrap() {
                let m = m.as_u64().unwrap() as usize;
                offered.push((
                    placements[m].at.x,
                    placements[m].at.y,
                    placements[m].rotation.degrees(),
                ));
                assert_eq!(
                    (s["x"].as_i64(), s["y"].as_i64(), r["degrees"].as_u64()),
                    (
                        Some(i64::from(placements[m].at.x)),
                        Some(i64::from(placements[m].at.y)),
                        Some(u64::from(placements[m].rotation.degrees()))
                    )
                );
            }
            assert_eq!(r["ghost"].as_array().unwrap().len(), 2);
        }
    }
    offered.sort();
    let mut all: Vec<_> = placements
        .iter()
        .map(|p| (p.at.x, p.at.y, p.rotation.degrees()))
        .collect();
    all.sort();
    assert_eq!(offered, all);
    // The board shows the tiles placed before the puzzle, and every picture it uses is defined
    assert_eq!(
        q["at"][0].as_u64(),
        Some(t.state_at(t.steps.len()).unwrap().placed().len() as u64)
    );
    assert!(every_reference_is_defined(&page));
}

#[test]
fn hostile_names_are_data_and_the_script_writes_text_only() {
    let name = "Bo\u{202e}</script><img src=x onerror=alert(1)>";
    let text = sample_text()
        .replacen(
            "\"name\":\"Brandt\"",
            &format!("\"name\":{}", serde_json::json!(name)),
            1,
        )
        .replacen(
            "\"game\":\"short-game-rulings\"",
            "\"game\":\"g</script><b id=x>\"",
            1,
        );
    let t = position(&text);
    let (p, _) = puzzle(&t);
    let page = puzzles_html(name, &[p]);
    assert!(!page.contains("<img") && !page.contains("<b id=x>"));
    assert!(!page.contains('\u{202e}'));
    assert_eq!(page.matches("</script>").count(), 2);
    let d = data(&page);
    assert_eq!(
        d["player"],
        "Bo\\u{202e}</script><img src=x onerror=alert(1)>"
    );
    assert_eq!(d["puzzles"][0]["game"], "g</script><b id=x>");
    let s = script(&page);
    assert_the_script_sets_text_only(s);
}
