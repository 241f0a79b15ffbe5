//! A fixed amount of decoding for callgrind to count: the 100 simulated 4-player games of
//! `benches/read.rs` are read once each by `read_log` and once each by the serde_json floor,
//! in two functions that callgrind reports apart (inclusive instruction counts of
//! `read_instructions::read_all` and `read_instructions::floor_all`, divided by 100).

use criterion::black_box;
use serde::de::IgnoredAny;

use carc_events::{
    read_log, record_actions, setup_from_header, write_log, Color, Header, Player, RulesOptions,
};
use carc_rules::Game;
use carc_sim::Strategy;

fn simulated_4p_logs() -> Vec<Vec<u8>> {
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

#[inline(never)]
fn read_all(files: &[Vec<u8>]) -> usize {
    files
        .iter()
        .map(|bytes| {
            read_log(black_box(bytes))
                .expect("a valid log")
                .events
                .len()
        })
        .sum()
}

#[inline(never)]
fn floor_all(files: &[Vec<u8>]) -> usize {
    let mut lines = 0;
    for bytes in files {
        for line in black_box(bytes)
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
        {
            serde_json::from_slice::<IgnoredAny>(line).expect("valid JSON");
            lines += 1;
        }
    }
    lines
}

fn main() {
    let files = simulated_4p_logs();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let events = read_all(&files);
    let lines = floor_all(&files);
    println!(
        "{} files, {bytes} bytes, {lines} lines, {events} events",
        files.len()
    );
}
