//! Light Cycles evaluation: Voronoi territory, edges, checkerboard parity,
//! articulation-point chambers, and the separated endgame. Standard library
//! only.

use super::rows::RowPair;
use super::rules::{flood, xy, Direction, LightCycles, STRIDE};
use crate::bitboard::Bits512;
use crate::game::Player;
use std::cell::Cell;

crate::declare_params! {
    /// Cells I reach before the opponent, minus the reverse (Voronoi).
    TERRITORY = ("territory", 10, -20, 60, 1);
    /// Adjacent pairs of cells inside my Voronoi region, minus the opponent's.
    EDGES = ("edges", 2, -20, 30, 1);
    /// My Voronoi region's fillable length (checkerboard parity), minus the opponent's.
    PARITY = ("parity", 0, -30, 30, 1);
    /// Cells my best chamber path holds (articulation points), minus the opponent's.
    CHAMBER = ("chamber", 0, -30, 30, 1);
    /// My safe moves, minus the opponent's.
    MOBILITY = ("mobility", 4, -30, 60, 1);
    /// Manhattan distance between the bikes (positive: keep away).
    DISTANCE = ("distance", 0, -20, 20, 1);
    /// Once the bikes are apart: the cells I can still fill, minus the opponent's.
    ENDGAME_SPACE = ("endgame_space", 100, 0, 400, 5);
    /// Once the bikes are apart: +1 if I outlast the opponent, -1 if not, 0 if even.
    ENDGAME_WIN = ("endgame_win", 2000, 0, 5000, 50);
    /// What a drawn game (a head-on crash, both bikes out at once) is worth
    /// below even to me, in the search only ([`SequentialEval`]'s contempt):
    /// no position has this feature, so it is always 0 here.
    ///
    /// [`SequentialEval`]: crate::search::simultaneous::SequentialEval
    CONTEMPT = ("contempt", 0, 0, 300, 5);
}

/// Cells with `x + y` even.
const BLACK: Bits512 = {
    let mut words = [0u64; 8];
    let mut i = 0;
    while i < 512 {
        let (x, y) = (i % STRIDE, i / STRIDE);
        if (x + y) % 2 == 0 {
            words[i / 64] |= 1 << (i % 64);
        }
        i += 1;
    }
    Bits512(words)
};

fn is_black(c: usize) -> bool {
    BLACK.has(c)
}

/// An upper bound on the moves a bike at `head` can make through `region`:
/// each step changes square colour, so a path alternates colours.
pub fn fill_estimate(head: usize, region: Bits512) -> i32 {
    let black = (region & BLACK).count() as i32;
    let white = region.count() as i32 - black;
    // The first step lands on the colour opposite the head's.
    let (first, second) = if is_black(head) { (white, black) } else { (black, white) };
    2 * first.min(second) + i32::from(first > second)
}

/// Adjacent pairs inside `region` (the guard column keeps rows apart).
pub fn edges(region: Bits512) -> i32 {
    ((region & region.down(1)).count() + (region & region.down(STRIDE as u32)).count()) as i32
}

/// Whether the bikes can never meet again.
pub fn separated(state: &LightCycles) -> bool {
    let a = flood(Bits512::bit(state.head(0)), state.free());
    let b = flood(Bits512::bit(state.head(1)), state.free());
    (a & b).is_empty()
}

/// What one breadth-first pass from both heads finds.
pub struct Reach {
    /// Cells each bike reaches strictly first (Voronoi regions).
    pub mine: Bits512,
    pub theirs: Bits512,
    /// Every cell each bike can reach at all.
    pub my_reach: Bits512,
    pub op_reach: Bits512,
}

impl Reach {
    /// Whether the bikes can never meet again.
    pub fn separated(&self) -> bool {
        (self.my_reach & self.op_reach).is_empty()
    }
}

/// Voronoi regions and reachable sets of `me` and the opponent, in one pass.
pub fn reach(state: &LightCycles, me: Player) -> Reach {
    reach_from(state.free(), state.head(me), state.head(1 - me))
}

/// [`reach`] over `free` from the heads on cells `mine` and `theirs`: both
/// fronts step in one dilation of row pairs, `mine` in the low halves and
/// `theirs` in the high halves.
pub fn reach_from(free: Bits512, mine: usize, theirs: usize) -> Reach {
    let free = RowPair::new(free, free);
    let heads = RowPair::new(Bits512::bit(mine), Bits512::bit(theirs));
    let (mut seen, mut front, mut owned) = (heads, heads, RowPair::EMPTY);
    loop {
        let new = front.neighbours(&free).and_not(&seen);
        if new.is_empty() {
            break;
        }
        seen = seen.or(&new);
        // A cell is mine if I enter it before the opponent has seen or entered it.
        owned = owned.or(&new.and_not(&seen.swapped()));
        front = new;
    }
    let reached = seen.and_not(&heads);
    Reach {
        mine: owned.low(),
        theirs: owned.high(),
        my_reach: reached.low(),
        op_reach: reached.high(),
    }
}

/// The two bikes' Voronoi regions: cells each reaches strictly first.
pub fn voronoi(state: &LightCycles, me: Player) -> (Bits512, Bits512) {
    let r = reach(state, me);
    (r.mine, r.theirs)
}

/// The cells a bike at `head` can count on in `region` when it can enter only
/// one dead-end pocket behind each articulation point (a1k0n's chamber tree):
/// its own chamber plus the best pocket hanging off it.
pub fn chamber_space(head: usize, region: Bits512) -> i32 {
    // Tarjan's articulation-point DFS over the region's cells, rooted at the head.
    const NONE: u16 = u16::MAX;
    let mut disc = [NONE; 512];
    let mut low = [0u16; 512];
    // Cells in this vertex's own chamber, and the best pocket it can enter.
    let mut size = [0i32; 512];
    let mut pocket = [0i32; 512];
    let mut time = 0u16;
    let mut stack: Vec<(usize, usize, u8)> = Vec::with_capacity(512); // (cell, parent, next direction)
    disc[head] = time;
    low[head] = time;
    size[head] = 0; // the head is already used
    stack.push((head, usize::MAX, 0));
    let steps: [isize; 4] = [-(STRIDE as isize), STRIDE as isize, -1, 1];
    while let Some(&mut (v, parent, ref mut dir)) = stack.last_mut() {
        if (*dir as usize) < 4 {
            let w = v as isize + steps[*dir as usize];
            *dir += 1;
            if w < 0 || w as usize >= 512 || !region.has(w as usize) {
                continue;
            }
            let w = w as usize;
            if disc[w] == NONE {
                time += 1;
                disc[w] = time;
                low[w] = time;
                size[w] = 1;
                pocket[w] = 0;
                stack.push((w, v, 0));
            } else if w != parent {
                low[v] = low[v].min(disc[w]);
            }
            continue;
        }
        stack.pop();
        if parent == usize::MAX {
            break;
        }
        low[parent] = low[parent].min(low[v]);
        if low[v] >= disc[parent] {
            // `v`'s subtree is a pocket behind `parent`: enter at most one.
            pocket[parent] = pocket[parent].max(size[v] + pocket[v]);
        } else {
            size[parent] += size[v];
            pocket[parent] = pocket[parent].max(pocket[v]);
        }
    }
    size[head] + pocket[head]
}

/// The feature values of `state` seen by `me`, indexed like [`PARAMS`].
/// `chamber` says whether to compute the (costlier) chamber feature.
pub fn features(state: &LightCycles, me: Player, chamber: bool) -> [i32; COUNT] {
    let opp = 1 - me;
    let mut f = [0i32; COUNT];
    let (mh, oh) = (state.head(me), state.head(opp));
    let safe = |p: Player| Direction::ALL.iter().filter(|&&d| state.is_safe(p, d)).count() as i32;
    f[MOBILITY] = safe(me) - safe(opp);
    let ((mx, my), (ox, oy)) = (xy(mh), xy(oh));
    f[DISTANCE] = (mx as i32 - ox as i32).abs() + (my as i32 - oy as i32).abs();

    let r = reach(state, me);
    if r.separated() {
        let (a, b) = (fill_estimate(mh, r.my_reach), fill_estimate(oh, r.op_reach));
        f[ENDGAME_SPACE] = a - b;
        f[ENDGAME_WIN] = (a - b).signum();
        f[TERRITORY] = r.my_reach.count() as i32 - r.op_reach.count() as i32;
        return f;
    }
    let (mine, theirs) = (r.mine, r.theirs);
    f[TERRITORY] = mine.count() as i32 - theirs.count() as i32;
    f[EDGES] = edges(mine) - edges(theirs);
    f[PARITY] = fill_estimate(mh, mine) - fill_estimate(oh, theirs);
    if chamber {
        f[CHAMBER] = chamber_space(mh, mine) - chamber_space(oh, theirs);
    }
    f
}

/// The endgame weights are ordinary features (0 until the bikes are apart),
/// so the shared weighted sum covers them; the chamber flag is the one twist.
impl crate::search::Features<COUNT> for LightCycles {
    #[inline]
    fn features(&self, me: Player) -> [i32; COUNT] {
        features(self, me, true)
    }

    /// The chamber tree is the costliest feature: skipped when its weight is 0.
    /// The last answer is kept per thread: alpha-beta over half-moves reads
    /// the position before a half-played turn, so the leaves below one
    /// first half-move ask for the same position in a row.
    #[inline]
    fn features_for(&self, me: Player, weights: &Weights) -> [i32; COUNT] {
        let chamber = weights[CHAMBER] != 0;
        LAST.with(|last| match last.get() {
            Some((state, p, c, f)) if p == me && c == chamber && state == *self => f,
            _ => {
                let f = features(self, me, chamber);
                last.set(Some((*self, me, chamber, f)));
                f
            }
        })
    }
}

/// A position evaluated, for whom, with or without the chamber tree, and its
/// features.
type Evaluated = (LightCycles, Player, bool, [i32; COUNT]);

thread_local! {
    static LAST: Cell<Option<Evaluated>> = const { Cell::new(None) };
}
