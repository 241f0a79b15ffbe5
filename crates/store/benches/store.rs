//! Store benchmarks: durable append of a 3-event batch, and reading a 150-event stream
//! per event vs from its sealed record.
//!
//! `cargo bench -p carc-store -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use carc_store::{ExpectedVersion, NewEvent, Store};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn payload(n: u64, k: u64) -> Vec<u8> {
    let mut p =
        format!("{{\"turn\":{n},\"event\":{k},\"tile\":\"CRFR\",\"x\":3,\"y\":-2,\"rot\":90}}")
            .into_bytes();
    p.resize(100, b' ');
    p
}

fn batch(prefix: &str, n: u64) -> Vec<NewEvent> {
    (0..3)
        .map(|k| NewEvent::new(format!("{prefix}-{n}-{k}"), payload(n, k)))
        .collect()
}

fn append(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("db")).expect("open");
    let mut group = c.benchmark_group("append");
    group.throughput(Throughput::Elements(3));
    let mut n = 0u64;
    group.bench_function("durable batch of 3 x 100 B", |b| {
        b.iter(|| {
            n += 1;
            // A new stream every 50 batches keeps streams game-sized.
            let stream = format!("game-{}", n / 50);
            black_box(
                store
                    .append(&stream, ExpectedVersion::Any, &batch(&stream, n))
                    .expect("append"),
            )
        })
    });
    group.finish();
}

fn read(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("db")).expect("open");
    for stream in ["open-game", "sealed-game"] {
        for n in 0..50 {
            store
                .append(stream, ExpectedVersion::Exactly(n * 3), &batch(stream, n))
                .expect("append");
        }
    }
    store.seal("sealed-game").expect("seal");
    assert_eq!(
        store.read_stream("open-game", 1).expect("read").len(),
        store.read_stream("sealed-game", 1).expect("read").len()
    );

    let mut group = c.benchmark_group("read 150-event stream");
    group.throughput(Throughput::Elements(150));
    group.bench_function("per event", |b| {
        b.iter(|| black_box(store.read_stream("open-game", 1).expect("read")))
    });
    group.bench_function("sealed record", |b| {
        b.iter(|| black_box(store.read_stream("sealed-game", 1).expect("read")))
    });
    group.finish();
}

criterion_group!(benches, append, read);
criterion_main!(benches);
