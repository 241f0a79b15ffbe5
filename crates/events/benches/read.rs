//! Decoding logs (`read_log`) against the floor of the same bytes: serde_json's syntax-only
//! pass (each line into `IgnoredAny`) and a generic `Value` parse of each line. On 100
//! distinct simulated 4-player base games (one game per iteration, cycling) and on the sample
//! logs of `logs/` (one file per iteration, cycling).

use std::path::Path;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use serde::de::IgnoredAny;

use carc_events::read_log;

mod common;
use common::simulated_4p_logs;

/// Every `logs/*.jsonl` file of the repository.
fn sample_logs() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the logs folder")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| std::fs::read(path).expect("a sample log"))
        .collect()
}

/// The floor: serde_json checks every line's syntax and builds nothing.
fn syntax_only(bytes: &[u8]) -> usize {
    let mut lines = 0;
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        serde_json::from_slice::<IgnoredAny>(line).expect("valid JSON");
        lines += 1;
    }
    lines
}

/// A generic DOM of every line.
fn generic_value(bytes: &[u8]) -> usize {
    let mut lines = 0;
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let value: serde_json::Value = serde_json::from_slice(line).expect("valid JSON");
        lines += usize::from(value.is_object());
    }
    lines
}

fn bench_files(c: &mut Criterion, group: &str, files: &[Vec<u8>]) {
    let mean_bytes = files.iter().map(Vec::len).sum::<usize>() / files.len();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(mean_bytes as u64));
    let mut i = 0;
    g.bench_function("read_log", |b| {
        b.iter(|| {
            i = (i + 1) % files.len();
            black_box(read_log(&files[i]).expect("a valid log").events.len())
        })
    });
    let mut i = 0;
    g.bench_function("floor_serde_json_ignored_any", |b| {
        b.iter(|| {
            i = (i + 1) % files.len();
            black_box(syntax_only(&files[i]))
        })
    });
    let mut i = 0;
    g.bench_function("serde_json_value", |b| {
        b.iter(|| {
            i = (i + 1) % files.len();
            black_box(generic_value(&files[i]))
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let sim = simulated_4p_logs();
    let samples = sample_logs();
    eprintln!(
        "simulated 4-player games: {} files, mean {} bytes; sample logs: {} files, mean {} bytes",
        sim.len(),
        sim.iter().map(Vec::len).sum::<usize>() / sim.len(),
        samples.len(),
        samples.iter().map(Vec::len).sum::<usize>() / samples.len(),
    );
    bench_files(c, "read_sim_4p", &sim);
    bench_files(c, "read_sample_logs", &samples);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
