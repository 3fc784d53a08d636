//! Refusals told once: JetStream delivers a refused batch again and again
//! (to every worker, each second) until a worker that can play it takes
//! it, and a coordinator that follows its results again reads each stored
//! result again. A log line per delivery would bury everything else, so
//! the first refusal of an id is a warning and the later ones are counted
//! and summed up now and then.

use std::collections::{HashSet, VecDeque};
use std::time::{Duration, Instant};

/// The ids remembered: more than the batches a run has waiting at once at
/// any batch size in use, and a few tens of kilobytes.
pub const REMEMBERED: usize = 1024;

/// How often the repeats are summed up at most.
pub const SUMMARY_EVERY: Duration = Duration::from_secs(60);

/// What to log for one refusal.
#[derive(Debug, PartialEq, Eq)]
pub enum Tell {
    /// The first refusal of this id (or one forgotten since): say why.
    First,
    /// Refused before: say it only at debug level.
    Again,
    /// Refused before, and it is time to say how many repeats there were
    /// `over` the time since the last summary (this one included), and of
    /// how many ids (counted up to [`REMEMBERED`]).
    Summary { repeats: u64, ids: usize, over: Duration },
}

/// The ids refused lately (the last [`REMEMBERED`]) and the repeats since
/// the last summary.
#[derive(Debug)]
pub struct Refusals {
    order: VecDeque<String>,
    known: HashSet<String>,
    repeated: HashSet<String>,
    repeats: u64,
    since: Instant,
}

impl Refusals {
    pub fn new(now: Instant) -> Self {
        Refusals {
            order: VecDeque::new(),
            known: HashSet::new(),
            repeated: HashSet::new(),
            repeats: 0,
            since: now,
        }
    }

    /// Notes a refusal of `id` at `now` and says what to log.
    pub fn note(&mut self, id: &str, now: Instant) -> Tell {
        if !self.known.contains(id) {
            if self.order.len() == REMEMBERED {
                if let Some(old) = self.order.pop_front() {
                    self.known.remove(&old);
                }
            }
            self.order.push_back(id.to_string());
            self.known.insert(id.to_string());
            return Tell::First;
        }
        self.repeats += 1;
        if self.repeated.len() < REMEMBERED {
            self.repeated.insert(id.to_string());
        }
        if now.saturating_duration_since(self.since) < SUMMARY_EVERY {
            return Tell::Again;
        }
        let tell = Tell::Summary {
            repeats: self.repeats,
            ids: self.repeated.len(),
            over: now.saturating_duration_since(self.since),
        };
        self.repeats = 0;
        self.repeated.clear();
        self.since = now;
        tell
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_refusal_of_an_id_is_told_and_repeats_are_summed_up() {
        let start = Instant::now();
        let mut r = Refusals::new(start);
        assert_eq!(r.note("a", start), Tell::First);
        assert_eq!(r.note("b", start), Tell::First);
        for _ in 0..3 {
            assert_eq!(r.note("a", start + Duration::from_secs(1)), Tell::Again);
        }
        assert_eq!(r.note("b", start + Duration::from_secs(2)), Tell::Again);
        assert_eq!(
            r.note("a", start + SUMMARY_EVERY),
            Tell::Summary {
                repeats: 5,
                ids: 2,
                over: SUMMARY_EVERY
            }
        );
        assert_eq!(r.note("a", start + SUMMARY_EVERY), Tell::Again);
        assert_eq!(r.note("c", start + SUMMARY_EVERY), Tell::First);
        assert_eq!(
            r.note("b", start + 2 * SUMMARY_EVERY),
            Tell::Summary {
                repeats: 2,
                ids: 2,
                over: SUMMARY_EVERY
            }
        );
    }

    #[test]
    fn only_the_last_ids_are_remembered() {
        let now = Instant::now();
        let mut r = Refusals::new(now);
        for i in 0..=REMEMBERED {
            assert_eq!(r.note(&i.to_string(), now), Tell::First);
        }
        assert_eq!(r.order.len(), REMEMBERED);
        assert_eq!(r.known.len(), REMEMBERED);
        assert_eq!(r.note(&REMEMBERED.to_string(), now), Tell::Again);
        assert_eq!(r.note("0", now), Tell::First, "the oldest was forgotten");
        assert_eq!(r.note("1", now), Tell::First, "and then the next");
    }
}
