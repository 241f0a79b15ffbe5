//! Properties over many simulated games: the fold reproduces what was played, every move the
//! generator offers is accepted by the validator and the fold, and no mutated log makes the
//! decoder or the fold panic.

use carc_events::{
    read_log, record_actions, write_log, Color, Event, Header, Log, Player, RulesOptions,
};
use carc_replay::{check_assertions, fold, rebuild};
use carc_rules::{Action, Effects, Game, MeepleSpot, Phase, Placement, Pos, Rotation, Setup};
use carc_sim::Strategy as Play;
use proptest::prelude::*;

fn header(players: u8, seed: u64) -> Header {
    Header {
        game: format!("prop-{seed}"),
        players: (0..players as usize)
            .map(|i| Player {
                name: format!("P{i}"),
                color: Color::ALL[i],
            })
            .collect(),
        rules: RulesOptions::default(),
        tile_sets: vec!["base".into()],
        bag: None,
        source: None,
        comment: None,
    }
}

fn simulated(players: u8, seed: u64, strategies: &[Play]) -> (Log, Vec<u32>) {
    let sim =
        carc_sim::play(Setup::base(players), seed, strategies).expect("sim plays legal games");
    let (log, game) = record_actions(
        header(players, seed),
        Game::new(Setup::base(players)).unwrap(),
        &sim.actions,
    )
    .expect("sim actions replay");
    assert_eq!(game.scores(), &sim.scores[..]);
    (log, sim.scores)
}

#[test]
fn a_thousand_simulated_games_replay_to_their_scores() {
    for seed in 0..1000u64 {
        let players = 2 + (seed % 5) as u8;
        let (log, scores) = simulated(players, seed, &[Play::Random]);
        // Through the wire format for every tenth game, so the codec is in the loop too.
        let log = if seed % 10 == 0 {
            read_log(write_log(&log).as_bytes()).unwrap()
        } else {
            log
        };
        let timeline = fold(log.clone(), &[]);
        assert!(
            timeline.error.is_none(),
            "seed {seed}: {:?}",
            timeline.error
        );
        assert!(timeline.finished, "seed {seed}");
        assert_eq!(timeline.final_scores(), scores, "seed {seed}");
        assert_eq!(
            rebuild(&log, &[]).unwrap().scores(),
            &scores[..],
            "seed {seed}"
        );
        assert!(check_assertions(&timeline).is_empty());
    }
}

#[test]
fn greedy_games_replay_to_their_scores() {
    for seed in 0..20u64 {
        let (log, scores) = simulated(3, seed, &[Play::Greedy, Play::Random]);
        assert_eq!(fold(log, &[]).final_scores(), scores);
    }
}

#[test]
fn every_generated_move_is_accepted_by_the_validator_and_the_rules() {
    let mut placements: Vec<Placement> = Vec::new();
    let mut spots: Vec<MeepleSpot> = Vec::new();
    let mut fx = Effects::default();
    for seed in 0..40u64 {
        let sim = carc_sim::play(Setup::base(3), seed, &[Play::Random]).unwrap();
        let mut game = Game::new(Setup::base(3)).unwrap();
        for action in &sim.actions {
            match game.phase() {
                Phase::Place { tile } => {
                    game.legal_placements(tile, &mut placements);
                    for p in &placements {
                        game.check_placement(tile, p.at, p.rotation).unwrap();
                        let mut g = game.clone();
                        g.apply(
                            &Action::Place {
                                at: p.at,
                                rotation: p.rotation,
                            },
                            &mut fx,
                        )
                        .unwrap();
                    }
                    // And nothing the generator left out is legal (up to symmetric rotations).
                    let t = game.tiles().get(tile).clone();
                    for &at in game.open_squares() {
                        for r in Rotation::ALL {
                            let legal = game.check_placement(tile, at, r).is_ok();
                            let listed = placements.iter().any(|p| p.at == at && p.rotation == r);
                            if t.is_distinct_rotation(r) {
                                assert_eq!(legal, listed, "seed {seed} {} at {at} {r}", t.id);
                            }
                        }
                    }
                    assert_eq!(matches!(action, Action::SetAside), placements.is_empty());
                }
                Phase::Meeple { .. } => {
                    game.legal_meeples(&mut spots);
                    for s in &spots {
                        let mut g = game.clone();
                        g.apply(&Action::PlaceMeeple { segment: s.segment }, &mut fx)
                            .unwrap();
                    }
                }
                _ => {}
            }
            game.apply(action, &mut fx).unwrap();
        }
        assert!(game.is_over());
    }
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize),
    Duplicate(usize),
    Swap(usize),
    Tile(usize, &'static str),
    Move(usize, i32, i32),
    Turn(usize, u8),
    Seat(usize, u8),
    Meeple(usize, &'static str),
    /// The event becomes `game_ended` (the players end the game there, legal or not).
    End(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let i = 0usize..220;
    prop_oneof![
        i.clone().prop_map(Mutation::Delete),
        i.clone().prop_map(Mutation::Duplicate),
        i.clone().prop_map(Mutation::Swap),
        (
            i.clone(),
            prop::sample::select(vec!["A", "C", "D", "V", "X", "Z", "Q"])
        )
            .prop_map(|(i, t)| Mutation::Tile(i, t)),
        (i.clone(), -2i32..=2, -2i32..=2).prop_map(|(i, x, y)| Mutation::Move(i, x, y)),
        (i.clone(), 0u8..4).prop_map(|(i, r)| Mutation::Turn(i, r)),
        (i.clone(), 0u8..3).prop_map(|(i, s)| Mutation::Seat(i, s)),
        i.clone().prop_map(Mutation::End),
        (
            i,
            prop::sample::select(vec!["city N", "road E", "field Sw", "monastery", "road S"])
        )
            .prop_map(|(i, m)| Mutation::Meeple(i, m)),
    ]
}

fn mutate(log: &mut Log, m: &Mutation) {
    let n = log.events.len();
    if n == 0 {
        return;
    }
    let rot = |q: u8| carc_events::Rotation::from_degrees(i64::from(q) * 90).unwrap();
    match m.clone() {
        Mutation::Delete(i) => {
            log.events.remove(i % n);
        }
        Mutation::Duplicate(i) => {
            let e = log.events[i % n].clone();
            log.events.insert(i % n, e);
        }
        Mutation::Swap(i) => log.events.swap(i % n, (i + 1) % n),
        Mutation::Tile(i, t) => match &mut log.events[i % n].1.event {
            Event::TileDrawn { tile, .. }
            | Event::TilePlaced { tile, .. }
            | Event::StartPlaced { tile, .. } => *tile = carc_events::TileId::new(t).unwrap(),
            _ => {}
        },
        Mutation::Move(i, dx, dy) => {
            if let Event::TilePlaced { at, .. } | Event::StartPlaced { at, .. } =
                &mut log.events[i % n].1.event
            {
                at.x += dx;
                at.y += dy;
            }
        }
        Mutation::Turn(i, q) => {
            if let Event::TilePlaced { rotation, .. } = &mut log.events[i % n].1.event {
                *rotation = rot(q);
            }
        }
        Mutation::Seat(i, s) => match &mut log.events[i % n].1.event {
            Event::TileDrawn { player, .. }
            | Event::TilePlaced { player, .. }
            | Event::MeeplePlaced { player, .. }
            | Event::MeepleSkipped { player }
            | Event::TileSetAside { player, .. }
            | Event::ArrowChosen { player, .. }
            | Event::ArrowMeeplePlaced { player, .. }
            | Event::GiftReceived { player, .. }
            | Event::GiftOpened { player, .. }
            | Event::TileReturned { player, .. }
            | Event::AbbotPlaced { player, .. }
            | Event::AbbotTakenBack { player, .. } => *player = s,
            Event::StartPlaced { .. } | Event::GameEnded => {}
        },
        Mutation::End(i) => log.events[i % n].1.event = Event::GameEnded,
        Mutation::Meeple(i, target) => {
            let player = log.events[i % n].1.event.player().unwrap_or(0);
            log.events[i % n].1.event = Event::MeeplePlaced {
                player,
                on: target.parse().unwrap(),
                figure: carc_events::Figure::Meeple,
            };
        }
    }
    // Keep the envelope consistent (gapless seq, lines in order) so the fold, not the
    // decoder, meets the mutation.
    for (k, (line, env)) in log.events.iter_mut().enumerate() {
        env.seq = k as u64 + 1;
        *line = k + 2;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn the_fold_never_panics_on_mutated_games_and_names_the_bad_line(
        seed in 0u64..30, mutations in prop::collection::vec(mutation(), 1..4)
    ) {
        let (mut log, _) = simulated(3, seed, &[Play::Random]);
        for m in &mutations {
            mutate(&mut log, m);
        }
        let lines = log.events.len() + 1;
        let timeline = fold(log.clone(), &[]);
        if let Some(err) = &timeline.error {
            prop_assert!(err.line() >= 1 && err.line() <= lines);
            prop_assert_eq!(err.line(), timeline.steps.len() + 2, "the error is the event after the legal prefix");
        }
        // The prefix folds to the same scores as a direct rebuild of that prefix.
        let mut prefix = log.clone();
        prefix.events.truncate(timeline.steps.len());
        prop_assert_eq!(rebuild(&prefix, &[]).map(|g| g.scores().to_vec()).ok(), Some(timeline.final_scores()));
        // Stepping back anywhere works.
        let mid = timeline.steps.len() / 2;
        prop_assert!(timeline.state_at(mid).is_ok());
    }

    #[test]
    fn decoding_then_folding_never_panics_on_damaged_bytes(
        seed in 0u64..10, flips in prop::collection::vec((0usize..20_000, any::<u8>()), 1..6)
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
fn stepping_to_any_event_gives_the_state_the_timeline_recorded() {
    let (log, _) = simulated(4, 99, &[Play::Random]);
    let timeline = fold(log, &[]);
    for n in [0, 1, 2, 50, 100, timeline.steps.len()] {
        let game = timeline.state_at(n).unwrap();
        let expected = if n == 0 {
            vec![0; 4]
        } else {
            timeline.steps[n - 1].scores_after.clone()
        };
        assert_eq!(game.scores(), &expected[..]);
        if n > 0 {
            assert_eq!(game.supply(), &timeline.steps[n - 1].supply_after[..]);
        }
    }
    let _ = Pos::new(0, 0);
}
