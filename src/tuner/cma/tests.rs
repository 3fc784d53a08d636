use super::*;
use crate::stats::Pentanomial;
use crate::tuner::synthetic::EloModel;

/// The model's games without their noise: each match's pentanomial is its
/// expected counts, so a ranking is wrong only by rounding.
struct Noiseless(EloModel);

impl Oracle for Noiseless {
    fn play_pairs(&self, a: &[f64], b: &[f64], pairs: u32, _seed: u64) -> Pentanomial {
        let p = self.0.pair_probabilities(self.0.elo(a) - self.0.elo(b));
        let counts: [u32; 5] = std::array::from_fn(|k| (p[k] * f64::from(pairs)).round() as u32);
        counts.into()
    }
}

/// A rotated quadratic steep enough for exact rankings: 200 Elo per
/// parameter at half the range on average, condition number 100.
fn steep_rotated(n: usize) -> EloModel {
    let mut m = EloModel::rotated(n, vec![40.0, 160.0, 65.0, 130.0, 20.0, 180.0][..n].to_vec(), 11);
    m.elo_at_half_range = vec![200.0; n];
    m
}

fn normalised_distance(m: &EloModel, x: &[f64]) -> f64 {
    (0..m.dim())
        .map(|i| ((x[i] - m.optimum[i]) / m.space.range(i)).powi(2))
        .sum::<f64>()
        .sqrt()
}

#[test]
fn converges_on_a_noiseless_rotated_quadratic_and_learns_its_shape() {
    let m = Noiseless(steep_rotated(4));
    let start = m.0.start(300.0);
    let mut cfg = CmaConfig::new(0);
    cfg.twin_pairs = 20_000;
    cfg.mean_pairs = 20_000;
    // A precision far above any loss here: the mean takes the full step.
    cfg.precision = 1e5;
    cfg.sigma_min = 1e-4;
    cfg.games = 150 * cfg.generation_games(4);
    let r = run(&m, &m.0.space, &start, &cfg, 3);
    let last = r.log.last().unwrap();
    assert!(r.log.iter().all(|l| l.eta == 1.0));
    assert!(r.log.iter().filter(|l| l.learned).count() > 30);
    // From 300 Elo and a quarter of the box away to within a fraction of an
    // Elo; what distance is left lies along the flattest axis.
    let (d0, d1) = (
        normalised_distance(&m.0, &start),
        normalised_distance(&m.0, &r.recommended),
    );
    assert!(d0 > 0.2, "{d0}");
    assert!(d1 < 0.03, "distance {d1} after {} generations", r.log.len());
    assert!(m.0.loss(&r.recommended) < 0.5, "loss {}", m.0.loss(&r.recommended));
    // The covariance stretched along the landscape's flat axes, which the
    // rotation puts across the parameters' own.
    assert!(last.condition > 10.0, "condition {}", last.condition);
}

#[test]
fn converges_on_a_noisy_quadratic() {
    // spsa_simul's model, 4 Elo below the optimum: games are mostly draws
    // and each match's result is noise of tens of Elo.
    let m = EloModel::spsa_simul(4);
    let start = m.start(4.0);
    let mut finals = Vec::new();
    for seed in 0..3 {
        let mut cfg = CmaConfig::new(1_000_000);
        cfg.parallel = false;
        let r = run(&m, &m.space, &start, &cfg, seed);
        assert!(r.games <= 1_000_000 && r.games + cfg.generation_games(4) > 1_000_000);
        finals.push(m.loss(&r.recommended));
    }
    // A mean that followed the noise ranking at full rate would end near the
    // start's loss; every seed ends well inside 1 Elo of the optimum.
    assert!(finals.iter().all(|&l| l < 1.0), "final losses {finals:?}");
}

#[test]
fn a_resumed_run_continues_exactly() {
    let m = EloModel::rotated(3, vec![40.0, 160.0, 65.0], 5);
    let start = m.start(4.0);
    let mut cfg = CmaConfig::new(30_000);
    cfg.parallel = false;
    let mut whole = Cma::new(&m.space, &start, &cfg, 8);
    let mut whole_log = Vec::new();
    while !whole.finished() {
        whole_log.push(whole.step(&m));
    }
    let mut first = Cma::new(&m.space, &start, &cfg, 8);
    let mut log = Vec::new();
    for _ in 0..37 {
        log.push(first.step(&m));
    }
    let saved = ron::to_string(&first.state).unwrap();
    let state: CmaState = ron::from_str(&saved).unwrap();
    assert_eq!(state, first.state);
    state.check(&m.space, &cfg).unwrap();
    let mut resumed = Cma::resume(&m.space, &cfg, 8, state);
    while !resumed.finished() {
        log.push(resumed.step(&m));
    }
    assert_eq!(log, whole_log);
    assert_eq!(resumed.state, whole.state);
    assert!(whole_log.len() > 37);
}

#[test]
fn the_check_names_what_is_wrong() {
    let space = Space::cube(2, 0.0, 1.0);
    let mut cfg = CmaConfig::new(1000);
    cfg.parallel = false;
    let good = CmaState::new(&space, &[0.5, 0.5], &cfg);
    good.check(&space, &cfg).unwrap();
    let mut s = good.clone();
    s.cov = vec![1.0, 2.0, 2.0, 1.0];
    assert!(s.check(&space, &cfg).unwrap_err().contains("`cov`"));
    let mut s = good.clone();
    s.mean[1] = 2.0;
    assert!(s.check(&space, &cfg).unwrap_err().contains("`mean`"));
    let mut s = good.clone();
    s.sigma = f64::NAN;
    assert!(s.check(&space, &cfg).unwrap_err().contains("`sigma`"));
    let mut s = good;
    s.spent = 5000;
    s.generation = 1;
    assert!(s.check(&space, &cfg).unwrap_err().contains("`spent`"));
}

#[test]
fn order_statistics_and_the_population() {
    // E max of two standard normals is 1/√π; the median of three is 0.
    assert!((expected_order_statistic(1, 2) - 1.0 / std::f64::consts::PI.sqrt()).abs() < 1e-6);
    assert!(expected_order_statistic(2, 3).abs() < 1e-9);
    assert!((expected_order_statistic(1, 3) + expected_order_statistic(3, 3)).abs() < 1e-9);
    let cfg = CmaConfig::new(0);
    assert_eq!(cfg.population(4), 8);
    assert_eq!(cfg.population(8), 10);
    assert_eq!(cfg.population(1), 4);
    assert!(cfg.check().is_ok());
    let w = mean_weights(8);
    assert!(w.iter().sum::<f64>().abs() < 1e-15 && (w.iter().map(|v| v.abs()).sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(w.windows(2).all(|p| p[0] > p[1]));
    let bad = CmaConfig {
        mean_pairs: 0,
        ..CmaConfig::new(0)
    };
    assert!(bad.check().unwrap_err().contains("`mean_pairs`"));
}

/// Checks that every point played is in the box, then plays the model.
struct BoxChecked(EloModel);

impl Oracle for BoxChecked {
    fn play_pairs(&self, a: &[f64], b: &[f64], pairs: u32, seed: u64) -> Pentanomial {
        assert!(self.0.space.contains(a) && self.0.space.contains(b), "{a:?} {b:?}");
        // As evolve's oracle does: each point rounded onto the genome's grid.
        let (ra, rb) = (
            self.0.space.round_stochastic(a, seed),
            self.0.space.round_stochastic(b, seed),
        );
        self.0.play_pairs(&ra, &rb, pairs, seed)
    }
}

#[test]
fn plays_only_points_of_the_box_on_an_integer_grid_and_still_converges() {
    // The optimum sits 10 from a bound and the box is coarse: offspring are
    // clipped often, and the games see integer weights on a step of 5.
    let mut m = EloModel::spsa_simul(3);
    m.optimum = vec![10.0, 190.0, 100.0];
    m.space = m.space.clone().with_steps(vec![5.0; 3]);
    m.elo_at_half_range = vec![40.0; 3];
    let oracle = BoxChecked(m);
    let start = oracle.0.start(60.0);
    let mut cfg = CmaConfig::new(300_000);
    cfg.parallel = false;
    cfg.precision = 2.0;
    let r = run(&oracle, &oracle.0.space, &start, &cfg, 4);
    assert!(oracle.0.space.contains(&r.recommended));
    assert!(
        oracle.0.loss(&r.recommended) < 4.0,
        "loss {}",
        oracle.0.loss(&r.recommended)
    );
}
