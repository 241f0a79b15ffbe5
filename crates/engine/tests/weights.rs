//! The learned value's plumbing: the committed weights file loads and is the one the docs
//! name; a weights file that does not fit is refused with a reason; training is
//! reproducible and moves the weights; the search runs on the learned value.

mod common;

use carc_engine::{
    analyse, committed_weights, read_outlook, seat_features, train, Budget, Evaluation,
    SearchOptions, TrainingPlan, Weights, COMMITTED_WEIGHTS, FEATURES, FEATURE_NAMES,
};
use carc_rules::Setup;
use carc_sim::Strategy;

fn engine_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/engine.md");
    std::fs::read_to_string(path).expect("docs/engine.md")
}

#[test]
fn the_committed_weights_load_and_are_the_ones_the_docs_name() {
    // Given the committed weights file
    let weights = Weights::from_json(COMMITTED_WEIGHTS).expect("the committed weights load");
    // Then the engine uses exactly those
    assert_eq!(committed_weights(), &weights);
    // And their provenance names the command, the seeds, the games and the commit
    let field = |key: &str| {
        weights
            .provenance
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no {key} in the provenance"))
    };
    let command = field("command");
    assert!(command.starts_with("carc train "), "{command}");
    let games: u32 = field("games").parse().expect("a number of games");
    assert!(games >= 1_000, "{games} games");
    assert!(!field("seeds").is_empty());
    assert_ne!(field("commit"), "not given");
    // And docs/engine.md names that command, its commit and every weight (3 decimals)
    let docs = engine_md();
    assert!(
        docs.contains(&command),
        "docs/engine.md does not name `{command}`"
    );
    assert!(docs.contains(&field("commit")));
    for (name, w) in FEATURE_NAMES.iter().zip(weights.weights) {
        let row = format!("| `{name}` | {w:.3} |");
        assert!(docs.contains(&row), "docs/engine.md has no row {row}");
    }
}

#[test]
fn a_weights_file_for_other_terms_or_with_bad_numbers_is_refused_with_the_reason() {
    let good = Weights::untrained().to_json();
    assert_eq!(Weights::from_json(&good).unwrap(), Weights::untrained());
    for (text, says) in [
        ("{", "not JSON"),
        (r#"{"weights": [1]}"#, "no \"features\" list"),
        (
            &good.replace("\"farmers\"", "\"knights\""),
            "this engine's are",
        ),
        (
            &good.replace("\"weights\": [1.000000, ", "\"weights\": ["),
            "7 weights for 8 features",
        ),
        (
            &good.replace("\"weights\": [1.000000", "\"weights\": [\"x\""),
            "is not a finite number",
        ),
    ] {
        let e = Weights::from_json(text).unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
    }
}

#[test]
fn training_is_reproducible_and_moves_the_weights() {
    // Given a tiny plan
    let plan = TrainingPlan {
        games: 3,
        seed: 7,
        ..TrainingPlan::default()
    };
    // When it is trained twice
    let mut margins = Vec::new();
    let a = train(&plan, |g, _| margins.push(g.margin)).unwrap();
    let b = train(&plan, |_, _| {}).unwrap();
    // Then both runs give the same weights, away from the start, all finite
    assert_eq!(a, b);
    assert_ne!(a.weights, plan.start.weights);
    assert!(a.weights.iter().all(|w| w.is_finite()));
    // And each game was played to its end (a real margin each)
    assert_eq!(margins.len(), 3);
    assert!(margins.iter().all(|m| m.is_finite() && m.fract() == 0.0));
}

#[test]
fn with_the_bag_empty_every_learned_term_is_zero() {
    // Given the last position of a greedy game (the bag empty, features still unfinished)
    let positions = common::decisions(&Setup::base(2), 3, &[Strategy::Greedy]);
    let last = positions.last().expect("a decision").clone();
    let mut game = last;
    let mut fx = carc_rules::Effects::quiet();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    for action in moves[0].actions() {
        game.apply(&action, &mut fx).unwrap();
    }
    assert_eq!(game.bag_left(), 0);
    // When its learned terms are read
    let outlook = read_outlook(&game);
    // Then each is 0 for each seat: the value is the potential score, the final one
    for seat in 0..2 {
        assert_eq!(seat_features(&game, &outlook, seat), [0.0; FEATURES]);
    }
}

#[test]
fn the_search_runs_on_the_learned_value() {
    let positions = common::decisions(&Setup::base(2), 11, &[Strategy::Greedy]);
    let game = &positions[positions.len() / 2];
    let options = SearchOptions {
        budget: Budget::Nodes(200),
        evaluation: Evaluation::Outlook,
        ..SearchOptions::default()
    };
    let analysis = analyse(game, &options).unwrap();
    assert_eq!(analysis.nodes, 200);
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    assert!(!legal.is_empty());
    assert!((0.0..=1.0).contains(&analysis.win));
    assert!(analysis
        .moves
        .iter()
        .all(|m| m.win.is_none_or(|w| (0.0..=1.0).contains(&w))));
    // And the move it chose is a legal move of the turn
    assert!(legal
        .iter()
        .any(|m| carc_sim::TurnMove::from(*m) == analysis.best));
}
