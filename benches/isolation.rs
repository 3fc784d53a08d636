//! Isolation speed: move generation (perft), evaluation, and search.
//! Run with `cargo bench --bench isolation`; compare ratios within one run.

use criterion::{criterion_group, criterion_main, Criterion};
use gridtune::game::{Game, ToMove};
use gridtune::games::isolation::features::DEFAULTS;
use gridtune::games::isolation::rules::IsolationMoves;
use gridtune::games::isolation::{Isolation, IsolationMap};
use gridtune::perft::perft;
use gridtune::search::{AlphaBeta, Evaluator, Limits, Linear};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;

const EXAMPLE: &str = "7 7\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n";

/// Positions from random games, a few plies in, as search meets them.
fn midgames(n: usize) -> Vec<Isolation> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut out = Vec::new();
    let mut moves = IsolationMoves::new();
    while out.len() < n {
        let mut state = IsolationMap::generate(&mut rng).start_state();
        for _ in 0..rng.random_range(0..16) {
            let ToMove::One(p) = state.to_move() else { break };
            state.legal_moves(p, &mut moves);
            state.play(moves.as_slice()[rng.random_range(0..moves.len())]);
        }
        if matches!(state.to_move(), ToMove::One(_)) {
            out.push(state);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let start = IsolationMap::parse(EXAMPLE, "example").unwrap().start_state();
    c.bench_function("perft(4) statement example (10690 leaves)", |b| {
        b.iter(|| perft(black_box(&start), 4))
    });
    let positions = midgames(256);
    let eval = Linear(DEFAULTS);
    c.bench_function("evaluate 256 midgame positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|s| eval.evaluate(black_box(s), s.side()))
                .sum::<i32>()
        })
    });
    c.bench_function("genome bot search, 20000 nodes", |b| {
        let mut search = AlphaBeta::new(16);
        b.iter(|| search.search(black_box(&start), &eval, Limits::nodes(20_000)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
