//! A fixed amount of decoding for callgrind to count: the 100 simulated 4-player games of
//! `benches/read.rs` are read once each by `read_log` and once each by the serde_json floor,
//! in two functions that callgrind reports apart (inclusive instruction counts of
//! `read_instructions::read_all` and `read_instructions::floor_all`, divided by 100).

use criterion::black_box;
use serde::de::IgnoredAny;

use carc_events::read_log;

mod common;
use common::simulated_4p_logs;

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
