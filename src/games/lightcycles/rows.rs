//! Both bikes' breadth-first fronts side by side, one `u64` per board row:
//! the first bike's cells in the low half, the other's in the high half, so
//! one dilation by shifts steps both fronts at once, and a board row is one
//! word instead of a shift carried across eight. Standard library only.

use super::rules::STRIDE;
use crate::bitboard::Bits512;

/// Board rows a `Bits512` can hold (the last one partly).
const ROWS: usize = Bits512::BITS.div_ceil(STRIDE);
/// The rows at `1..=ROWS`, with an empty row on either side so that the
/// vertical steps need no bounds.
const PADDED: usize = ROWS + 2;
/// One row's cells, its guard column included.
const ROW_MASK: u64 = (1 << STRIDE) - 1;
/// Where the second bike's half starts.
const HIGH: u32 = 32;

/// A pair of cell sets, row by row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowPair([u64; PADDED]);

impl RowPair {
    pub const EMPTY: RowPair = RowPair([0; PADDED]);

    /// `low` in the low halves and `high` in the high halves.
    #[inline]
    pub fn new(low: Bits512, high: Bits512) -> Self {
        let mut rows = [0; PADDED];
        for (y, r) in rows[1..=ROWS].iter_mut().enumerate() {
            *r = row(&low, y) | row(&high, y) << HIGH;
        }
        RowPair(rows)
    }

    /// The low halves as a `Bits512`.
    #[inline]
    pub fn low(&self) -> Bits512 {
        self.half(0)
    }

    /// The high halves as a `Bits512`.
    #[inline]
    pub fn high(&self) -> Bits512 {
        self.half(HIGH)
    }

    fn half(&self, at: u32) -> Bits512 {
        let mut b = Bits512::EMPTY;
        for (y, &r) in self.0[1..=ROWS].iter().enumerate() {
            let v = r >> at & ROW_MASK;
            let o = y * STRIDE;
            let (w, s) = (o / 64, o % 64);
            b.0[w] |= v << s;
            if s + STRIDE > 64 && w + 1 < b.0.len() {
                b.0[w + 1] |= v >> (64 - s);
            }
        }
        b
    }

    /// The four neighbours of every cell, restricted to `free` (both halves
    /// step at once: a half's bit 25 is the guard column, never free, so no
    /// cell crosses into the other half or the next row).
    #[inline]
    pub fn neighbours(&self, free: &RowPair) -> RowPair {
        let (f, mut out) = (&self.0, [0; PADDED]);
        for i in 1..PADDED - 1 {
            out[i] = (f[i] << 1 | f[i] >> 1 | f[i - 1] | f[i + 1]) & free.0[i];
        }
        RowPair(out)
    }

    /// `self & !other`.
    #[inline]
    pub fn and_not(&self, other: &RowPair) -> RowPair {
        RowPair(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    #[inline]
    pub fn or(&self, other: &RowPair) -> RowPair {
        RowPair(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The halves swapped: each bike's cells where the other's were.
    #[inline]
    pub fn swapped(&self) -> RowPair {
        RowPair(self.0.map(|r| r.rotate_left(HIGH)))
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |a, &r| a | r) == 0
    }
}

/// Row `y` of `b` (its `STRIDE` bits, which may straddle two words).
#[inline]
fn row(b: &Bits512, y: usize) -> u64 {
    let o = y * STRIDE;
    let (w, s) = (o / 64, o % 64);
    let mut v = b.0[w] >> s;
    if s + STRIDE > 64 && w + 1 < b.0.len() {
        v |= b.0[w + 1] << (64 - s);
    }
    v & ROW_MASK
}
