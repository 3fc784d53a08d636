//! Bitboards: `Bits512` for boards larger than 128 cells (Light Cycles' 25x18
//! with a guard column), and `shift` for one-word boards. Standard library
//! only (on the submission path).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor};

const WORDS: usize = 8;

/// 512 bits, bit `i` in word `i / 64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits512(pub [u64; WORDS]);

impl Bits512 {
    pub const EMPTY: Bits512 = Bits512([0; WORDS]);
    pub const BITS: usize = 64 * WORDS;

    #[inline]
    pub fn bit(i: usize) -> Self {
        let mut b = Self::EMPTY;
        b.set(i);
        b
    }

    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    #[inline]
    pub fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// `self & !other`.
    #[inline]
    pub fn and_not(self, other: Self) -> Self {
        let mut out = self;
        for (o, b) in out.0.iter_mut().zip(other.0) {
            *o &= !b;
        }
        out
    }

    /// Moves every bit up by `k` (0 < k < 64) places; bits past the top vanish.
    #[inline]
    pub fn up(self, k: u32) -> Self {
        debug_assert!(k > 0 && k < 64);
        let a = self.0;
        let mut out = [0u64; WORDS];
        out[0] = a[0] << k;
        for i in 1..WORDS {
            out[i] = a[i] << k | a[i - 1] >> (64 - k);
        }
        Bits512(out)
    }

    /// Moves every bit down by `k` (0 < k < 64) places; bits below 0 vanish.
    #[inline]
    pub fn down(self, k: u32) -> Self {
        debug_assert!(k > 0 && k < 64);
        let a = self.0;
        let mut out = [0u64; WORDS];
        for i in 0..WORDS - 1 {
            out[i] = a[i] >> k | a[i + 1] << (64 - k);
        }
        out[WORDS - 1] = a[WORDS - 1] >> k;
        Bits512(out)
    }

    /// The set bits, lowest first.
    pub fn ones(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(w, mut word)| {
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let i = word.trailing_zeros() as usize;
                    word &= word - 1;
                    w * 64 + i
                })
            })
        })
    }
}

macro_rules! bitwise {
    ($Trait:ident, $method:ident, $op:tt) => {
        impl $Trait for Bits512 {
            type Output = Bits512;
            #[inline]
            fn $method(self, rhs: Bits512) -> Bits512 {
                Bits512(std::array::from_fn(|i| self.0[i] $op rhs.0[i]))
            }
        }
    };
}

bitwise!(BitAnd, bitand, &);
bitwise!(BitOr, bitor, |);
bitwise!(BitXor, bitxor, ^);

impl BitAndAssign for Bits512 {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bits512) {
        *self = *self & rhs;
    }
}

impl BitOrAssign for Bits512 {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bits512) {
        *self = *self | rhs;
    }
}

/// A board of up to 128 cells in one word moved `d` cells: towards higher
/// cells for positive `d`, lower for negative. Isolation's and Slime's rays
/// and rings step with it.
#[inline]
pub fn shift(b: u128, d: i32) -> u128 {
    if d > 0 {
        b << d
    } else {
        b >> -d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_carry_across_words() {
        let b = Bits512::bit(63) | Bits512::bit(200);
        assert_eq!(b.up(1).ones().collect::<Vec<_>>(), vec![64, 201]);
        assert_eq!(b.down(26).ones().collect::<Vec<_>>(), vec![37, 174]);
        assert!(Bits512::bit(511).up(1).is_empty());
        assert!(Bits512::bit(0).down(1).is_empty());
        assert_eq!(Bits512::bit(5).down(5).ones().collect::<Vec<_>>(), vec![0]);
    }

    #[test]
    fn set_ops_and_counts() {
        let mut a = Bits512::EMPTY;
        for i in [0, 64, 100, 511] {
            a.set(i);
        }
        assert_eq!(a.count(), 4);
        assert!(a.has(100) && !a.has(101));
        let b = Bits512::bit(100) | Bits512::bit(7);
        assert_eq!((a & b).ones().collect::<Vec<_>>(), vec![100]);
        assert_eq!(a.and_not(b).count(), 3);
        a.clear(511);
        assert_eq!(a.ones().collect::<Vec<_>>(), vec![0, 64, 100]);
    }
}
