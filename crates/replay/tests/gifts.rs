//! The Gifts through the log: simulated games (gifts alone and with the anniversary) keep the
//! 25 cards at every event and replay to the scores played; the sample logs really open all
//! five cards and reshuffle the deck.

use std::collections::BTreeSet;
use std::path::PathBuf;

use carc_events::{
    read_log, record_actions, setup_from_header, write_log, Color, Event, Header, Log, Player,
    RulesOptions,
};
use carc_replay::fold;
use carc_rules::{Game, Note};
use carc_sim::Strategy as Play;
use proptest::prelude::*;

fn header(players: u8, anniversary: bool) -> Header {
    let mut expansions = vec!["gifts".to_string()];
    let mut tile_sets = vec!["base".to_string()];
    if anniversary {
        expansions.insert(0, "anniversary".into());
        tile_sets.push("anniversary".into());
    }
    Header {
        game: "gifts".into(),
        players: (0..players as usize)
            .map(|i| Player {
                name: format!("P{i}"),
                color: Color::ALL[i],
            })
            .collect(),
        rules: RulesOptions {
            expansions,
            ..RulesOptions::default()
        },
        tile_sets,
        bag: None,
        source: None,
        comment: None,
    }
}

fn simulated(players: u8, anniversary: bool, seed: u64, strategies: &[Play]) -> (Log, Vec<u32>) {
    let h = header(players, anniversary);
    let setup = setup_from_header(&h, &[]).unwrap();
    let sim = carc_sim::play(setup.clone(), seed, strategies).unwrap();
    let (log, game) = record_actions(h, Game::new(setup).unwrap(), &sim.actions).unwrap();
    assert_eq!(game.scores(), &sim.scores[..]);
    (log, sim.scores)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn cards_are_conserved_and_replay_gives_the_scores_played(
        seed in 0u64..10_000,
        players in 2u8..=5,
        anniversary in any::<bool>(),
        greedy in any::<bool>(),
    ) {
        let strategies = if greedy { vec![Play::Greedy, Play::Random] } else { vec![Play::Random] };
        let (log, scores) = simulated(players, anniversary, seed, &strategies);
        let log = read_log(write_log(&log).as_bytes()).unwrap();
        let h = log.header.clone();
        let timeline = fold(log, &[]);
        prop_assert!(timeline.error.is_none());
        prop_assert!(timeline.finished);
        prop_assert_eq!(timeline.final_scores(), scores);
        // Deck + discard + hands = 25 after every event.
        let mut game = carc_events::game_from_header(&h, &[]).unwrap();
        let mut fx = carc_rules::Effects::default();
        for step in &timeline.steps {
            let action = carc_events::event_to_action(&game, &step.event).unwrap();
            game.apply(&action, &mut fx).unwrap();
            prop_assert_eq!(game.gift_cards_total(), 25);
        }
    }
}

fn sample(name: &str) -> Log {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    read_log(&std::fs::read(path).unwrap()).unwrap()
}

fn opened_and_reshuffled(name: &str) -> (BTreeSet<&'static str>, bool) {
    let timeline = fold(sample(name), &[]);
    assert!(timeline.error.is_none() && timeline.finished, "{name}");
    let opened = timeline
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::GiftOpened { card, .. } => Some(card.as_str()),
            _ => None,
        })
        .collect();
    let reshuffled = timeline.steps.iter().any(|s| {
        s.effects
            .notes
            .iter()
            .any(|n| matches!(n, Note::GiftDeckReshuffled { .. }))
    });
    (opened, reshuffled)
}

#[test]
fn the_sample_logs_open_all_five_cards_and_one_reshuffles_the_deck() {
    let all: BTreeSet<&str> = [
        "synod",
        "road_sweeper",
        "change_position",
        "cash_out",
        "take_2",
    ]
    .into_iter()
    .collect();
    let (three, reshuffled) = opened_and_reshuffled("sim-3p-anniversary-gifts-mixed.jsonl");
    assert_eq!(three, all);
    assert!(reshuffled, "the 3-player sample reshuffles the gift deck");
    let (five, reshuffled) = opened_and_reshuffled("sim-5p-anniversary-gifts-mixed.jsonl");
    assert_eq!(five, all);
    assert!(reshuffled, "the 5-player sample reshuffles the gift deck");
}
