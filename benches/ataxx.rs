//! Ataxx move generation speed: perft from the start position.
//! Run with `cargo bench --bench ataxx`; leaves per second = count / time.

use criterion::{criterion_group, criterion_main, Criterion};
use gridtune::games::ataxx::Ataxx;
use gridtune::perft::perft;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let start = Ataxx::from_fen("x5o/7/7/7/7/7/o5x x 0 1").unwrap();
    let mut group = c.benchmark_group("ataxx");
    group.sample_size(10);
    group.bench_function("perft(5) start (4752668 leaves)", |b| {
        b.iter(|| perft(black_box(&start), 5))
    });
    group.bench_function("perft(6) start (141865520 leaves)", |b| {
        b.iter(|| perft(black_box(&start), 6))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
