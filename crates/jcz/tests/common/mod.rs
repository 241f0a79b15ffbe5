//! Shared by the tests: the corpus folder and replaying a log through the rules.

#![allow(dead_code)]

use std::path::PathBuf;

use carc_events::{event_to_action, game_from_header, Log};
use carc_rules::{Effects, Game, Score};

/// `../shared/corpus/jcz/` beside the workspace. Its absence fails the test: a conformance
/// suite that finds nothing to check must not pass.
pub fn corpus_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/jcz");
    assert!(
        dir.is_dir(),
        "the JCloisterZone corpus is missing: expected the folder {} (the repository is checked \
         out with `shared` beside it)",
        dir.display()
    );
    dir
}

/// Every `.jcz` file of the corpus, sorted; at least one.
pub fn corpus_files() -> Vec<(String, String)> {
    let dir = corpus_dir();
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jcz"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .jcz file in {}", dir.display());
    files
}

/// Replays a log through the rules: the game after the last event and every score awarded.
pub fn replay(log: &Log) -> (Game, Vec<Score>) {
    let mut game = game_from_header(&log.header, &[]).unwrap();
    let mut fx = Effects::default();
    let mut scores = Vec::new();
    for (_, env) in &log.events {
        let action =
            event_to_action(&game, &env.event).unwrap_or_else(|e| panic!("event {}: {e}", env.seq));
        game.apply(&action, &mut fx)
            .unwrap_or_else(|e| panic!("event {}: {e}", env.seq));
        scores.extend(fx.scores.iter().cloned());
    }
    (game, scores)
}

/// A whole simulated base game (random players) as our log.
pub fn simulated(seed: u64, players: u8, farmers: bool) -> Log {
    let mut setup = carc_rules::Setup::base(players);
    setup.options.farmers = farmers;
    let rules = carc_events::RulesOptions {
        farmers,
        ..carc_events::RulesOptions::default()
    };
    let header = seated_header(format!("sim-{seed}"), players, rules, &["base"]);
    played(header, setup, seed)
}

/// A header of `players` seats named P0, P1, … in the colours' order.
pub fn seated_header(
    game: String,
    players: u8,
    rules: carc_events::RulesOptions,
    tile_sets: &[&str],
) -> carc_events::Header {
    use carc_events::{Color, Header, Player};
    Header {
        game,
        players: (0..players)
            .map(|i| Player {
                name: format!("P{i}"),
                color: Color::ALL[usize::from(i)],
            })
            .collect(),
        rules,
        tile_sets: tile_sets.iter().map(|s| s.to_string()).collect(),
        bag: None,
        source: None,
        comment: None,
    }
}

/// The game `setup` played by random players from `seed`, recorded under `header`.
pub fn played(header: carc_events::Header, setup: carc_rules::Setup, seed: u64) -> Log {
    let sim = carc_sim::play(setup.clone(), seed, &[carc_sim::Strategy::Random]).unwrap();
    let (log, _) =
        carc_events::record_actions(header, Game::new(setup).unwrap(), &sim.actions).unwrap();
    log
}

/// The log cut after its first `events` events: a game in progress.
pub fn cut(log: &Log, events: usize) -> Log {
    let mut cut = log.clone();
    cut.events.truncate(events);
    cut
}

/// The events of a log, without their positions.
pub fn events(log: &Log) -> Vec<carc_events::Event> {
    log.events.iter().map(|(_, e)| e.event.clone()).collect()
}

/// A sample log of the project's `logs/` folder.
pub fn sample(name: &str) -> Log {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    carc_events::read_log(&std::fs::read(path).unwrap()).unwrap()
}

/// A sample log written as a JCloisterZone saved game, as JSON.
pub fn written(name: &str) -> serde_json::Value {
    serde_json::from_str(&carc_jcz::write(&sample(name)).unwrap()).unwrap()
}

/// The error of reading a (tampered) saved game.
pub fn read_err(v: &serde_json::Value) -> String {
    carc_jcz::read(&v.to_string()).unwrap_err().to_string()
}

/// A sample written with the garden edition `garden_set` of its expansion's tile set instead of
/// `set`: without the Abbot it reads as the same game; with the Abbot it is refused, naming the
/// set.
pub fn garden_set_reads_without_the_abbot_only(sample_name: &str, set: &str, garden_set: &str) {
    let mut v = written(sample_name);
    let sets = v["setup"]["sets"].as_object_mut().unwrap();
    sets.remove(set);
    sets.insert(garden_set.into(), serde_json::json!(1));
    let back = carc_jcz::read(&v.to_string()).unwrap();
    assert_eq!(events(&back), events(&sample(sample_name)));
    v["setup"]["elements"]["abbot"] = serde_json::json!(1);
    v["setup"]["elements"]["garden"] = serde_json::json!(true);
    let err = read_err(&v);
    assert!(
        err.contains(&format!("tile set \"{garden_set}\" with the abbot")),
        "{err}"
    );
}

/// What a sample read back from its saved game (`text`) keeps besides its events: the rules,
/// the tile sets (in any order), the same file when written again, and the same final scores
/// at the game's end. The two finished games, for the caller's own checks.
pub fn assert_the_rest_survives(log: &Log, back: &Log, text: &str, name: &str) -> (Game, Game) {
    assert_eq!(back.header.rules, log.header.rules, "{name}");
    let mut sets = back.header.tile_sets.clone();
    let mut want = log.header.tile_sets.clone();
    sets.sort();
    want.sort();
    assert_eq!(sets, want, "{name}");
    assert_eq!(carc_jcz::write(back).unwrap(), text, "{name}");
    let (a, _) = replay(log);
    let (b, _) = replay(back);
    assert!(b.is_over(), "{name}");
    assert_eq!(a.scores(), b.scores(), "{name}");
    (a, b)
}
