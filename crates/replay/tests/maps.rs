//! Carcassonne Maps through the fold: random games on the Germany map (alone, with town
//! variants, with the 20th Anniversary) replay to the scores they were played with, every
//! generated move is accepted by the validator, the sample logs check, and the header's `map`
//! round-trips while logs without a map keep their bytes.

use std::path::PathBuf;
use std::sync::Arc;

use carc_events::{
    read_log, record_actions, setup_from_header, write_log, Color, Header, Log, MapRules, Player,
    RulesOptions, TownVariant,
};
use carc_replay::{check_assertions, fold};
use carc_rules::{Action, Effects, Game, Phase, Placement, Rotation};
use carc_sim::Strategy as Play;

fn header(players: u8, seed: u64, anniversary: bool, variants: Vec<TownVariant>) -> Header {
    Header {
        game: format!("map-{seed}"),
        players: (0..players as usize)
            .map(|i| Player {
                name: format!("P{i}"),
                color: Color::ALL[i],
            })
            .collect(),
        rules: RulesOptions {
            expansions: if anniversary {
                vec!["anniversary".into()]
            } else {
                Vec::new()
            },
            meeples: 9,
            map: Some(MapRules {
                name: "germany".into(),
                start_squares: 2 + (seed % 2) as u8,
                town_variants: variants,
            }),
            ..RulesOptions::default()
        },
        tile_sets: if anniversary {
            vec!["base".into(), "anniversary".into()]
        } else {
            vec!["base".into()]
        },
        bag: None,
        source: None,
        comment: None,
    }
}

fn simulated(seed: u64) -> (Log, Vec<u32>) {
    let players = 2 + (seed % 4) as u8;
    let variants = match seed % 3 {
        0 => Vec::new(),
        1 => vec![TownVariant::Cost, TownVariant::RoadBonus],
        _ => vec![TownVariant::ExtraTurn],
    };
    let header = header(players, seed, seed % 4 == 1, variants);
    let setup = setup_from_header(&header, &[]).unwrap();
    let strategies: &[Play] = if seed.is_multiple_of(2) {
        &[Play::Random]
    } else {
        &[Play::Greedy, Play::Random]
    };
    let sim = carc_sim::play(setup.clone(), seed, strategies).expect("sim plays legal games");
    let (log, game) =
        record_actions(header, Game::new(setup).unwrap(), &sim.actions).expect("replays");
    assert_eq!(game.scores(), &sim.scores[..]);
    (log, sim.scores)
}

#[test]
fn random_games_on_the_map_replay_to_the_scores_they_were_played_with() {
    for seed in 0..60u64 {
        let (log, scores) = simulated(seed);
        // Through the wire format, so the header's map is in the loop too.
        let text = write_log(&log);
        let back = read_log(text.as_bytes()).unwrap();
        assert_eq!(write_log(&back), text, "seed {seed}: byte-identical");
        let timeline = fold(back, &[]);
        assert!(
            timeline.error.is_none(),
            "seed {seed}: {:?}",
            timeline.error
        );
        assert!(timeline.finished, "seed {seed}");
        assert_eq!(timeline.final_scores(), scores, "seed {seed}");
        assert!(check_assertions(&timeline).is_empty());
    }
}

#[test]
fn every_generated_move_on_the_map_is_accepted_by_the_validator() {
    let mut placements: Vec<Placement> = Vec::new();
    let mut fx = Effects::default();
    for seed in 0..20u64 {
        let header = header(3, seed, seed % 2 == 1, Vec::new());
        let setup = setup_from_header(&header, &[]).unwrap();
        let map = Arc::clone(setup.map.as_ref().unwrap());
        let sim = carc_sim::play(setup.clone(), seed, &[Play::Random]).unwrap();
        let mut game = Game::new(setup).unwrap();
        for action in &sim.actions {
            if let Phase::Place { tile } = game.phase() {
                game.legal_placements(tile, &mut placements);
                for p in &placements {
                    assert!(map.is_playable(p.at));
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
                // And nothing left out is legal: every square of the map, every rotation.
                let t = game.tiles().get(tile).clone();
                for (at, _) in map.grid() {
                    for r in Rotation::ALL {
                        if !t.is_distinct_rotation(r) {
                            continue;
                        }
                        let legal = game.check_placement(tile, at, r).is_ok();
                        let listed = placements.iter().any(|p| p.at == at && p.rotation == r);
                        assert_eq!(legal, listed, "seed {seed} {} at {at} {r}", t.id);
                    }
                }
                assert_eq!(matches!(action, Action::SetAside), placements.is_empty());
            }
            game.apply(action, &mut fx).unwrap();
        }
        assert!(game.is_over());
    }
}

fn logs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../logs")
}

#[test]
fn the_map_sample_logs_replay_and_their_claims_hold() {
    let mut seen = 0;
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
        let bytes = std::fs::read(&path).unwrap();
        let log = read_log(&bytes).unwrap();
        assert_eq!(write_log(&log).as_bytes(), &bytes[..], "{}", path.display());
        if log.header.rules.map.is_none() {
            continue;
        }
        seen += 1;
        let timeline = fold(log, &[]);
        assert!(timeline.error.is_none(), "{}", path.display());
        assert!(timeline.finished);
        assert!(check_assertions(&timeline).is_empty());
    }
    assert!(seen >= 2, "map sample logs: {seen}");
}

#[test]
fn with_the_anniversary_an_arrow_pointing_off_the_map_scores_two() {
    // Simulated games on the map with the 20th Anniversary on, until an arrow tile is placed
    // with its arrow pointing at a square that holds no tile and never will.
    let mut found = false;
    for seed in 0..200u64 {
        let header = header(4, seed, true, Vec::new());
        let setup = setup_from_header(&header, &[]).unwrap();
        let sim = carc_sim::play(setup.clone(), seed, &[Play::Random]).unwrap();
        let (log, _) = record_actions(header, Game::new(setup).unwrap(), &sim.actions).unwrap();
        let timeline = fold(log, &[]);
        assert!(timeline.error.is_none());
        let off_map: Vec<&carc_rules::Score> = timeline
            .steps
            .iter()
            .flat_map(|s| s.effects.scores.iter())
            .filter(|s| s.formula == "arrow points off the map, at no square: +2")
            .collect();
        if let Some(s) = off_map.first() {
            assert_eq!((s.points, s.rule), (2, "anniversary.arrow.no-tile"));
            found = true;
            break;
        }
    }
    assert!(found, "no arrow pointed off the map in 200 games");
}

#[test]
fn an_unknown_map_or_a_repeated_town_variant_is_refused_at_setup() {
    let mut h = header(2, 0, false, Vec::new());
    h.rules.map.as_mut().unwrap().name = "atlantis".into();
    let err = setup_from_header(&h, &[]).unwrap_err().to_string();
    assert!(err.contains("atlantis") && err.contains("--map"), "{err}");
    let h = header(2, 0, false, vec![TownVariant::Cost, TownVariant::Cost]);
    assert!(setup_from_header(&h, &[]).is_err());
}
