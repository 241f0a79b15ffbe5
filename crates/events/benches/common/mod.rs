//! The games both read benches decode: the same 100 simulated logs, so the criterion times
//! and the callgrind counts are of the same work.

use carc_events::{
    record_actions, setup_from_header, write_log, Color, Header, Player, RulesOptions,
};
use carc_rules::Game;
use carc_sim::Strategy;

/// 100 simulated 4-player base games with farmers, random players, written as logs.
pub fn simulated_4p_logs() -> Vec<Vec<u8>> {
    (0..100u64)
        .map(|seed| {
            let header = Header {
                game: format!("bench-4p-{seed}"),
                players: (0..4)
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
            };
            let setup = || setup_from_header(&header, &[]).expect("a base-game setup");
            let sim = carc_sim::play(setup(), seed, &[Strategy::Random]).expect("a whole game");
            let (log, _) = record_actions(
                header.clone(),
                Game::new(setup()).expect("a game"),
                &sim.actions,
            )
            .expect("the game's log");
            write_log(&log).into_bytes()
        })
        .collect()
}
