//! The transposition table: what earlier searches learned about a position
//! (a score bound at a depth, and the best move found there).
//!
//! Two entries share a bucket. The first keeps the deepest result of the
//! current search, because a deep result saves the most work; the second
//! always takes the newest, so the positions the search is in now are not
//! starved by old deep ones. Entries from earlier searches (earlier moves of
//! the game) give way in the first slot too. A one-entry table, always
//! replaced, is the plain search the judge clones keep. Standard library only.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least this (the search failed high).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub depth: u8,
    pub bound: Bound,
    pub score: i32,
    pub best: Option<M>,
    /// The search (move of the game) that stored it.
    age: u8,
}

pub struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
    /// Entries per bucket: 2, or 1 for the plain always-replace table.
    ways: usize,
    age: u8,
}

impl<M: Copy + PartialEq> Table<M> {
    /// `2^bits` entries, in buckets of `ways` (1 or 2).
    pub fn new(bits: u32, ways: usize) -> Self {
        debug_assert!(ways == 1 || ways == 2);
        Table {
            entries: vec![None; 1 << bits.max(1)],
            ways,
            age: 0,
        }
    }

    /// A new search starts: what is stored so far is from an earlier one.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1) & !(self.ways - 1)
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = self.bucket(key);
        self.entries[b..b + self.ways]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    #[inline]
    pub fn store(&mut self, key: u64, depth: u32, bound: Bound, score: i32, best: Option<M>) {
        let b = self.bucket(key);
        let age = self.age;
        let mut entry = Entry {
            key,
            depth: depth.min(255) as u8,
            bound,
            score,
            best,
            age,
        };
        if self.ways == 1 {
            self.entries[b] = Some(entry);
            return;
        }
        // A result without a move keeps the move an earlier visit found.
        for e in self.entries[b..b + 2].iter().flatten() {
            if e.key == key && entry.best.is_none() {
                entry.best = e.best;
            }
        }
        let slot = match (self.entries[b], self.entries[b + 1]) {
            (Some(deep), _) if deep.key == key => b,
            (_, Some(newest)) if newest.key == key => {
                // Moving up into the deep slot when it is at least as deep.
                if self.entries[b].is_none_or(|deep| deep.age != age || deep.depth <= entry.depth) {
                    self.entries[b + 1] = self.entries[b];
                    b
                } else {
                    b + 1
                }
            }
            (Some(deep), _) if deep.age == age && deep.depth > entry.depth => b + 1,
            _ => {
                // The deep slot's entry moves to the always-replaced slot.
                self.entries[b + 1] = self.entries[b];
                b
            }
        };
        self.entries[slot] = Some(entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_entry_of_this_search_survives_shallow_ones_in_its_bucket() {
        let mut t: Table<u8> = Table::new(4, 2);
        t.store(2, 9, Bound::Exact, 5, Some(1));
        for key in [18, 34, 50] {
            t.store(key, 1, Bound::Lower, 0, None);
        }
        assert_eq!(t.probe(2).map(|e| (e.depth, e.score, e.best)), Some((9, 5, Some(1))));
        // The newest shallow one is there too; the older ones were replaced.
        assert!(t.probe(50).is_some());
        assert!(t.probe(18).is_none() && t.probe(34).is_none());
    }

    #[test]
    fn an_old_search_s_deep_entry_gives_way() {
        let mut t: Table<u8> = Table::new(4, 2);
        t.store(2, 9, Bound::Exact, 5, Some(1));
        t.new_search();
        t.store(18, 1, Bound::Upper, 0, None);
        t.store(34, 1, Bound::Upper, 0, None);
        assert!(t.probe(2).is_none());
        assert!(t.probe(18).is_some() && t.probe(34).is_some());
    }

    #[test]
    fn a_result_without_a_move_keeps_the_move_found_before() {
        let mut t: Table<u8> = Table::new(4, 2);
        t.store(7, 3, Bound::Lower, 10, Some(4));
        t.store(7, 4, Bound::Upper, -3, None);
        let e = t.probe(7).unwrap();
        assert_eq!((e.depth, e.bound, e.best), (4, Bound::Upper, Some(4)));
    }

    #[test]
    fn the_plain_table_always_replaces() {
        let mut t: Table<u8> = Table::new(4, 1);
        t.store(2, 9, Bound::Exact, 5, Some(1));
        t.store(18, 1, Bound::Lower, 0, None);
        assert!(t.probe(2).is_none());
        assert_eq!(t.probe(18).map(|e| e.best), Some(None));
    }
}
