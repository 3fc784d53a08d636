//! Percentiles of a sample by the nearest-rank method, and the summary a
//! match gives of its program bots' reply times (median, 99th and 99.9th
//! percentile, maximum).
//!
//! Nearest rank, not interpolation: every figure is a value that was
//! observed, so a reply time's 99.9th percentile is a turn that took that
//! long, and a sample of fewer than 1,000 values has its maximum as its
//! 99.9th percentile instead of a value between two turns.

use serde::Serialize;

/// The `p`-th percentile (0 < p ≤ 100) of `sorted`, an ascending sample,
/// by nearest rank: the smallest value with at least `p`% of the sample at or
/// below it. `None` for an empty sample or a `p` outside (0, 100].
pub fn nearest_rank(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() || !(p > 0.0 && p <= 100.0) {
        return None;
    }
    let n = sorted.len();
    // The rank is ⌈p/100 · n⌉, 1-based; rounding guards against 99.9% of
    // 1,000 coming out as 999.0000001.
    let exact = p / 100.0 * n as f64;
    let rank = ((exact * 1e9).round() / 1e9).ceil() as usize;
    Some(sorted[rank.clamp(1, n) - 1])
}

/// A sample's size, median, 99th and 99.9th percentile and maximum.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Percentiles {
    pub count: usize,
    pub median: f64,
    pub p99: f64,
    pub p999: f64,
    pub max: f64,
}

impl Percentiles {
    /// The summary of `values` in any order; `None` when there are none.
    /// NaNs sort above every number, so they show as the maximum rather than
    /// vanish.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Self> {
        let mut sorted: Vec<f64> = values.into_iter().collect();
        sorted.sort_by(f64::total_cmp);
        Some(Percentiles {
            count: sorted.len(),
            median: nearest_rank(&sorted, 50.0)?,
            p99: nearest_rank(&sorted, 99.0)?,
            p999: nearest_rank(&sorted, 99.9)?,
            max: *sorted.last()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_picks_observed_values() {
        let one_to_ten: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(nearest_rank(&one_to_ten, 50.0), Some(5.0));
        assert_eq!(nearest_rank(&one_to_ten, 51.0), Some(6.0));
        assert_eq!(nearest_rank(&one_to_ten, 10.0), Some(1.0));
        assert_eq!(nearest_rank(&one_to_ten, 0.1), Some(1.0));
        assert_eq!(nearest_rank(&one_to_ten, 99.0), Some(10.0));
        assert_eq!(nearest_rank(&one_to_ten, 100.0), Some(10.0));
    }

    #[test]
    fn the_999th_permille_of_a_thousand_is_the_second_largest() {
        let sample: Vec<f64> = (1..=1000).map(f64::from).collect();
        assert_eq!(nearest_rank(&sample, 99.9), Some(999.0));
        assert_eq!(nearest_rank(&sample, 99.0), Some(990.0));
        let p = Percentiles::of(sample.iter().rev().copied()).unwrap();
        assert_eq!(
            p,
            Percentiles {
                count: 1000,
                median: 500.0,
                p99: 990.0,
                p999: 999.0,
                max: 1000.0
            }
        );
    }

    #[test]
    fn small_samples_give_their_maximum_as_the_high_percentiles() {
        let p = Percentiles::of([30.0, 10.0, 20.0]).unwrap();
        assert_eq!((p.count, p.median, p.p99, p.p999, p.max), (3, 20.0, 30.0, 30.0, 30.0));
        let single = Percentiles::of([7.0]).unwrap();
        assert_eq!((single.median, single.p999, single.max), (7.0, 7.0, 7.0));
    }

    #[test]
    fn the_999th_percentile_of_a_thousand_turns_ignores_one_slow_turn_but_not_two() {
        let mut sample = vec![40.0; 999];
        sample.push(95.0);
        let p = Percentiles::of(sample.clone()).unwrap();
        assert_eq!((p.median, p.p99, p.p999, p.max), (40.0, 40.0, 40.0, 95.0));
        sample[0] = 90.0;
        let p = Percentiles::of(sample).unwrap();
        assert_eq!((p.p999, p.max), (90.0, 95.0));
    }

    #[test]
    fn empty_samples_and_bad_ranks_give_none() {
        assert_eq!(Percentiles::of(std::iter::empty()), None);
        assert_eq!(nearest_rank(&[], 50.0), None);
        for p in [0.0, -1.0, 100.5, f64::NAN] {
            assert_eq!(nearest_rank(&[1.0, 2.0], p), None, "{p}");
        }
    }

    #[test]
    fn nan_sorts_last() {
        let p = Percentiles::of([1.0, f64::NAN, 2.0]).unwrap();
        assert_eq!(p.median, 2.0);
        assert!(p.max.is_nan());
    }
}
