//! jcz → ours → jcz → ours gives the same game, for every corpus file and for simulated-size
//! games written by us; and a written file reads back as the events it was written from.

mod common;
use common::events;

use carc_events::Event;

#[test]
fn every_corpus_game_survives_jcz_ours_jcz_ours() {
    for (name, text) in common::corpus_files() {
        let first = carc_jcz::read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = carc_jcz::write(&first).unwrap_or_else(|e| panic!("{name}: {e}"));
        let second = carc_jcz::read(&written).unwrap_or_else(|e| panic!("{name}: {e}\n{written}"));
        assert_eq!(events(&first), events(&second), "{name}");
        assert_eq!(first.header.players, second.header.players, "{name}");
        assert_eq!(first.header.rules, second.header.rules, "{name}");
        assert_eq!(first.header.bag, second.header.bag, "{name}");
        assert_eq!(first.header.game, second.header.game, "{name}");
        // Writing is deterministic: the second export is the first, byte for byte.
        assert_eq!(carc_jcz::write(&second).unwrap(), written, "{name}");
        let (a, _) = common::replay(&first);
        let (b, _) = common::replay(&second);
        assert_eq!(a.scores(), b.scores(), "{name}");
    }
}

#[test]
fn the_written_file_uses_jcloisterzone_conventions() {
    let text = std::fs::read_to_string(common::corpus_dir().join("tiny-city-rule.jcz")).unwrap();
    let written = carc_jcz::write(&carc_jcz::read(&text).unwrap()).unwrap();
    let v: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(v["setup"]["sets"]["basic:1"], 1);
    assert_eq!(v["setup"]["rules"]["tiny-city-scoring"], "2");
    assert_eq!(v["setup"]["start"][0]["tile"], "BA/RCr");
    assert_eq!(v["gameAnnotations"]["drawOrder"][0], "BA/CFc.1");
    let first = &v["replay"][0]["payload"];
    assert_eq!(first["tileId"], "BA/CFc.1");
    assert_eq!(first["rotation"], "R90");
    assert_eq!(first["position"], serde_json::json!([0, -1]));
    let deploy = &v["replay"][1]["payload"];
    assert_eq!(deploy["pointer"]["feature"], "City");
    assert_eq!(deploy["pointer"]["location"], "NS");
    assert_eq!(deploy["meepleId"], "0.small.1");
    assert!(carc_jcz::looks_like_jcz(written.as_bytes()));
}

#[test]
fn a_whole_simulated_base_game_round_trips() {
    // A complete game in our format (every tile, meeples on every kind of feature, tiles set
    // aside if the deal forces it) from the project's sample logs.
    let logs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs");
    let mut seen = 0;
    for entry in std::fs::read_dir(&logs).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let log = carc_events::read_log(&std::fs::read(&path).unwrap()).unwrap();
        if log.header.tile_sets != ["base"]
            || !log.header.rules.expansions.is_empty()
            || log.header.rules.map.is_some()
        {
            continue;
        }
        // Every sample log is a legal game (CI checks them), so every one can be written.
        let written = carc_jcz::write(&log).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = carc_jcz::read(&written).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(events(&back), events(&log), "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 4, "only {seen} sample logs in {}", logs.display());
}

/// Simulated games until one has a tile set aside (it fits nowhere): JCloisterZone discards
/// such a tile without a move, so only the draw order shows it, and reading it back must
/// recover the `tile_set_aside`.
#[test]
fn a_game_with_a_tile_set_aside_round_trips() {
    use carc_events::{Color, Header, Player, RulesOptions};
    use carc_rules::{Action, Game, Setup};
    let mut found = 0;
    for seed in 0..400u64 {
        let setup = Setup::base(2);
        let sim = carc_sim::play(setup.clone(), seed, &[carc_sim::Strategy::Random]).unwrap();
        if !sim.actions.iter().any(|a| matches!(a, Action::SetAside)) {
            continue;
        }
        let header = Header {
            game: format!("sim-{seed}"),
            players: vec![
                Player {
                    name: "Ada".into(),
                    color: Color::Red,
                },
                Player {
                    name: "Bo".into(),
                    color: Color::Blue,
                },
            ],
            rules: RulesOptions::default(),
            tile_sets: vec!["base".into()],
            bag: None,
            source: None,
            comment: None,
        };
        let (log, _) =
            carc_events::record_actions(header, Game::new(setup).unwrap(), &sim.actions).unwrap();
        let written = carc_jcz::write(&log).unwrap();
        let back = carc_jcz::read(&written).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(events(&back), events(&log), "seed {seed}");
        found += 1;
        if found == 2 {
            return;
        }
    }
    panic!("no simulated game with a tile set aside in 400 seeds (found {found})");
}

/// A file that stops after a committed turn: the next tile of the draw order is drawn and
/// waits to be placed, as in JCloisterZone.
#[test]
fn a_game_stopped_between_turns_ends_with_the_next_tile_drawn() {
    let text = std::fs::read_to_string(common::corpus_dir().join("tiny-city-rule.jcz")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["replay"].as_array_mut().unwrap().truncate(3);
    let log = carc_jcz::read(&v.to_string()).unwrap();
    let last = &log.events.last().unwrap().1.event;
    assert_eq!(
        last,
        &Event::TileDrawn {
            player: 0,
            tile: carc_events::TileId::new("H").unwrap()
        }
    );
    let (game, _) = common::replay(&log);
    assert!(!game.is_over());
}
