//! The 20th Anniversary expansion end to end: simulated games with arrows replay through the
//! wire format to the scores they were played to, never give one player three turns in a row,
//! every generated arrow move is accepted, damaged logs never panic the fold, and the sample
//! logs really show every arrow symbol, a double-activation choice and an extra turn.

use std::collections::BTreeSet;
use std::path::PathBuf;

use carc_events::{
    read_log, record_actions, setup_from_header, write_log, ArrowMeepleAction, Color, Event,
    Header, Log, Player, RulesOptions,
};
use carc_replay::{check_assertions, fold, rebuild, Timeline};
use carc_rules::{
    Action, ArrowMeepleSpot, ArrowSymbol, Effects, Game, Note, Phase, PlacedArrow, Setup,
};
use carc_sim::Strategy as Play;
use proptest::prelude::*;

fn header(players: u8, seed: u64) -> Header {
    Header {
        game: format!("anniv-{seed}"),
        players: (0..players as usize)
            .map(|i| Player {
                name: format!("P{i}"),
                color: Color::ALL[i],
            })
            .collect(),
        rules: RulesOptions {
            expansions: vec!["anniversary".into()],
            ..RulesOptions::default()
        },
        tile_sets: vec!["base".into(), "anniversary".into()],
        bag: None,
        source: None,
        comment: None,
    }
}

fn setup(players: u8) -> Setup {
    setup_from_header(&header(players, 0), &[]).expect("anniversary setup")
}

/// Plays a game with the generator and records it as a log.
fn simulated(players: u8, seed: u64, strategies: &[Play]) -> (Log, Vec<u32>) {
    let sim = carc_sim::play(setup(players), seed, strategies).expect("sim plays legal games");
    let (log, game) = record_actions(
        header(players, seed),
        Game::new(setup(players)).unwrap(),
        &sim.actions,
    )
    .expect("sim actions replay");
    assert_eq!(game.scores(), &sim.scores[..]);
    (log, sim.scores)
}

/// The seat of every turn, in order (set-aside redraws belong to the same turn).
fn turn_seats(timeline: &Timeline) -> Vec<u8> {
    let mut seats: Vec<(u32, u8)> = timeline
        .steps
        .iter()
        .filter_map(|s| s.seat.map(|seat| (s.turn, seat)))
        .collect();
    seats.dedup();
    seats.into_iter().map(|(_, seat)| seat).collect()
}

fn longest_run(seats: &[u8]) -> usize {
    let mut best = 0;
    let mut run = 0;
    for (i, s) in seats.iter().enumerate() {
        run = if i > 0 && seats[i - 1] == *s {
            run + 1
        } else {
            1
        };
        best = best.max(run);
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// Generator vs validator: the actions the simulator chose, written as a log, decoded and
    /// folded by the bridge and the rules, give the same scores; and no seat ever gets three
    /// consecutive turns.
    #[test]
    fn random_anniversary_games_replay_to_their_scores_and_never_give_three_turns_in_a_row(
        seed in any::<u64>(), players in 2u8..=6, greedy_seat in any::<bool>()
    ) {
        let strategies: &[Play] = if greedy_seat && seed % 4 == 0 {
            &[Play::Greedy, Play::Random]
        } else {
            &[Play::Random]
        };
        let (log, scores) = simulated(players, seed, strategies);
        let log = read_log(write_log(&log).as_bytes()).unwrap();
        let timeline = fold(log.clone(), &[]);
        prop_assert!(timeline.error.is_none(), "{:?}", timeline.error);
        prop_assert!(timeline.finished);
        prop_assert_eq!(timeline.final_scores(), scores.clone());
        prop_assert_eq!(rebuild(&log, &[]).unwrap().scores().to_vec(), scores);
        prop_assert!(check_assertions(&timeline).is_empty());
        let seats = turn_seats(&timeline);
        prop_assert!(longest_run(&seats) <= 2, "three turns in a row: {:?}", seats);
    }

    #[test]
    fn decoding_then_folding_damaged_anniversary_logs_never_panics(
        seed in 0u64..10, flips in prop::collection::vec((0usize..25_000, any::<u8>()), 1..6)
    ) {
        let (log, _) = simulated(2, seed, &[Play::Random]);
        let mut bytes = write_log(&log).into_bytes();
        for (i, b) in flips {
            let len = bytes.len();
            bytes[i % len] = b;
        }
        if let Ok(log) = read_log(&bytes) {
            let _ = fold(log, &[]);
        }
    }
}

#[test]
fn extra_turns_do_happen_so_the_three_in_a_row_check_is_not_vacuous() {
    let mut doubles = 0;
    for seed in 0..20u64 {
        let (log, _) = simulated(3, seed, &[Play::Random]);
        let timeline = fold(log, &[]);
        assert!(timeline.error.is_none());
        let seats = turn_seats(&timeline);
        assert!(longest_run(&seats) <= 2, "seed {seed}: {seats:?}");
        doubles += seats.windows(2).filter(|w| w[0] == w[1]).count();
    }
    assert!(doubles > 0, "no extra turn in 20 games");
}

#[test]
fn every_generated_arrow_move_is_accepted_by_the_rules() {
    let mut choices: Vec<PlacedArrow> = Vec::new();
    let mut spots: Vec<ArrowMeepleSpot> = Vec::new();
    let mut fx = Effects::default();
    let (mut chose, mut sent) = (0, 0);
    for seed in 0..30u64 {
        let sim = carc_sim::play(setup(3), seed, &[Play::Random]).unwrap();
        let mut game = Game::new(setup(3)).unwrap();
        for action in &sim.actions {
            match game.phase() {
                Phase::ChooseArrow { .. } => {
                    game.legal_arrow_choices(&mut choices);
                    assert!(choices.len() >= 2, "seed {seed}");
                    for a in &choices {
                        let mut g = game.clone();
                        g.apply(&Action::ChooseArrow { arrow: a.at }, &mut fx)
                            .unwrap();
                        chose += 1;
                    }
                }
                Phase::Meeple { .. } => {
                    game.legal_arrow_meeples(&mut spots);
                    if game.arrow_action().is_none() {
                        assert!(spots.is_empty(), "seed {seed}");
                    }
                    for s in &spots {
                        let mut g = game.clone();
                        g.apply(
                            &Action::PlaceArrowMeeple {
                                via: s.via,
                                at: s.at,
                                segment: s.segment,
                            },
                            &mut fx,
                        )
                        .unwrap_or_else(|e| panic!("seed {seed}: {s:?}: {e}"));
                        sent += 1;
                    }
                }
                _ => {}
            }
            game.apply(action, &mut fx).unwrap();
        }
        assert!(game.is_over());
    }
    assert!(chose > 0 && sent > 0, "chose {chose}, sent {sent}");
}

#[test]
fn base_game_simulations_are_unchanged_by_the_expansion_code() {
    // The random player draws exactly as before when no arrow is in play: the base sample log
    // simulated with seed 1 (greedy, random) is reproduced byte for byte.
    let path = logs_dir().join("sim-2p-greedy-vs-random.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let log = read_log(text.as_bytes()).unwrap();
    let sim = carc_sim::play(Setup::base(2), 1, &[Play::Greedy, Play::Random]).unwrap();
    let (replayed, _) = record_actions(
        log.header.clone(),
        Game::new(Setup::base(2)).unwrap(),
        &sim.actions,
    )
    .unwrap();
    assert_eq!(replayed.events, log.events);
}

fn logs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../logs")
}

#[test]
fn the_anniversary_sample_logs_show_every_symbol_a_choice_and_an_extra_turn() {
    let mut samples = Vec::new();
    for entry in std::fs::read_dir(logs_dir()).unwrap() {
        let path = entry.unwrap().path();
        // Games only: logs/ also holds the tour's moves (`city-north.moves`), and the tour
        // writes annotations and variations beside a sample.
        let name = path.to_string_lossy();
        if !name.ends_with(".jsonl")
            || name.ends_with(".annotations.jsonl")
            || name.ends_with(".variations.jsonl")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let log = read_log(text.as_bytes()).unwrap();
        // The anniversary's own samples: games on a map board are checked by `maps.rs`, and the
        // gifts samples that also play the anniversary make their own claims (`tests/gifts.rs`).
        if log.header.rules.map.is_none() && log.header.rules.expansions == ["anniversary"] {
            samples.push((path, log));
        }
    }
    samples.sort_by(|a, b| a.0.cmp(&b.0));
    let players: BTreeSet<usize> = samples
        .iter()
        .map(|(_, l)| l.header.players.len())
        .collect();
    assert!(players.contains(&2) && players.contains(&4), "{players:?}");
    for (path, log) in samples {
        let name = path.display().to_string();
        let timeline = fold(log, &[]);
        assert!(timeline.error.is_none(), "{name}: {:?}", timeline.error);
        assert!(timeline.finished, "{name}");
        assert!(check_assertions(&timeline).is_empty(), "{name}");
        let notes: Vec<&Note> = timeline
            .steps
            .iter()
            .flat_map(|s| s.effects.notes.iter())
            .collect();
        let activated: BTreeSet<ArrowSymbol> = notes
            .iter()
            .filter_map(|n| match n {
                Note::ArrowActivated { symbol, .. } => Some(*symbol),
                _ => None,
            })
            .collect();
        assert_eq!(activated.len(), 3, "{name}: activated {activated:?}");
        let events: Vec<&Event> = timeline.steps.iter().map(|s| &s.event).collect();
        for action in [ArrowMeepleAction::Companion, ArrowMeepleAction::Portal] {
            assert!(
                events.iter().any(
                    |e| matches!(e, Event::ArrowMeeplePlaced { action: a, .. } if *a == action)
                ),
                "{name}: no meeple through a {} arrow",
                action.as_str()
            );
        }
        assert!(
            notes
                .iter()
                .any(|n| matches!(n, Note::ArrowsToChoose { .. })),
            "{name}: no double activation"
        );
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::ArrowChosen { .. })),
            "{name}: no recorded choice"
        );
        // At least one choice was between arrows of different symbols.
        let mut choices: Vec<PlacedArrow> = Vec::new();
        let symbol_choice = timeline.steps.iter().enumerate().any(|(i, s)| {
            if !matches!(s.event, Event::ArrowChosen { .. }) {
                return false;
            }
            timeline
                .state_at(i)
                .unwrap()
                .legal_arrow_choices(&mut choices);
            let symbols: BTreeSet<ArrowSymbol> = choices.iter().map(|a| a.symbol).collect();
            symbols.len() > 1
        });
        assert!(symbol_choice, "{name}: no choice between two symbols");
        assert!(
            notes
                .iter()
                .any(|n| matches!(n, Note::ExtraTurnBegins { .. })),
            "{name}: no extra turn"
        );
        assert!(
            notes.iter().any(|n| matches!(n, Note::ArrowNoTile { .. })),
            "{name}: no arrow pointing at no tile"
        );
        let seats = turn_seats(&timeline);
        assert!(longest_run(&seats) == 2, "{name}: {seats:?}");
    }
}
