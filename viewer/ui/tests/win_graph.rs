//! The win-probability graph (egui_kittest): it shows once the engine judge has judged the
//! game, carries the marks on the mover's chance, and a click on it jumps like the score
//! graph's.

use std::path::Path;

use carc_analysis::Judge;
use carc_viewer_ui::ViewerApp;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

/// The viewer on the short sample game, judged by `judge` (few iterations, a fixed seed).
fn judged(judge: Judge) -> Harness<'static, ViewerApp> {
    let mut app = ViewerApp::new();
    app.open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/short-game-rulings.jsonl"));
    app.quality_mut().options.judge = judge;
    app.quality_mut().options.nodes = 300;
    app.quality_mut().options.playouts = 20;
    app.quality_mut().options.seed = 1;
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 900.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
    h.run();
    assert!(
        h.state().win_graph_rect().is_none(),
        "no graph before judging"
    );
    h.get_by_label("Analyse move quality").click();
    h.step();
    let started = std::time::Instant::now();
    while h.state().quality().is_running() {
        assert!(
            started.elapsed().as_secs() < 180,
            "the analysis did not finish"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    h.run();
    assert_eq!(h.state().quality().error(), None);
    h
}

fn click_at(h: &mut Harness<'_, ViewerApp>, p: egui::Pos2) {
    h.hover_at(p);
    h.drag_at(p);
    h.drop_at(p);
    h.run();
}

#[test]
fn the_engine_judge_draws_each_players_chance_to_win_and_a_click_jumps() {
    // Given the short game judged by the engine
    let mut h = judged(Judge::Engine);
    // Then the win-probability graph is drawn below the score graph
    let rect = h.state().win_graph_rect().expect("win graph drawn");
    let score = h.state().graph_rect().unwrap();
    assert!(rect.top() >= score.bottom(), "{rect:?} below {score:?}");
    h.get_by_label("chance to win (engine)");
    // And its marks sit on the mover's chance after the move played
    let (series, marks) = h.state().quality().win_graph().cloned().unwrap();
    let report = h.state().quality().report().unwrap();
    let marked: Vec<_> = report.turns.iter().filter(|t| t.mark.is_some()).collect();
    assert_eq!(marks.len(), marked.len());
    for (m, t) in marks.iter().zip(&marked) {
        assert_eq!(m.x, (t.step + 1) as f64);
        assert_eq!(m.y, 100.0 * t.win.unwrap().played);
    }
    // And the two players' chances sum to 100 % at every point, ending at the result (Ada won)
    assert_eq!(series[0].len(), series[1].len());
    for (a, b) in series[0].iter().zip(&series[1]) {
        assert!((a[1] + b[1] - 100.0).abs() < 1e-9, "{a:?} {b:?}");
    }
    assert_eq!(series[0].last().unwrap()[1], 100.0);
    // When the graph is clicked at three quarters and then near its start
    click_at(
        &mut h,
        egui::pos2(rect.left() + 0.75 * rect.width(), rect.center().y),
    );
    let at = h.state().cursor();
    assert!((18..=32).contains(&at), "jumped to {at}");
    click_at(
        &mut h,
        egui::pos2(rect.left() + 0.1 * rect.width(), rect.center().y),
    );
    // Then the cursor follows
    let back = h.state().cursor();
    assert!(back < at && back <= 8, "jumped back to {back}");
}

#[test]
fn the_playout_judge_draws_no_win_graph() {
    // Given the short game judged by playouts (which measure points, not chances)
    let h = judged(Judge::Playouts);
    // Then there is no win-probability graph
    assert!(h.state().quality().report().is_some());
    assert!(h.state().win_graph_rect().is_none());
}
