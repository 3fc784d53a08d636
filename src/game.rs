//! The one interface every game implements, and the types the games share.
//!
//! Modelled on OpenSpiel's `State`: one API covers sequential and simultaneous
//! games, two or four players, passes, and per-player outcomes. This module is
//! on the submission path, so it uses the standard library only.

use std::fmt::Debug;
use std::hash::Hash;
use std::mem::MaybeUninit;

/// A seat at the table: 0-based, below [`MAX_PLAYERS`].
pub type Player = usize;

/// The most players any game has (Slime seats four).
pub const MAX_PLAYERS: usize = 4;

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToMove {
    /// One player moves; the others wait (Isolation, Ataxx, Slime).
    One(Player),
    /// Every player still in the game picks a move and they are applied together
    /// with [`Game::play_joint`] (Light Cycles).
    All,
    /// The game is over; [`Game::outcome`] is `Some`.
    Over,
}

/// How a finished game scored each seat.
///
/// `points[p]` is in `[0, 1]`: in two-player games 1 is a win, 0.5 a draw and 0 a
/// loss, which is the contest formula's `wins + 0.5 × draws`; in Slime it is the
/// share of the board. Seats beyond [`Game::PLAYERS`] are 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub points: [f32; MAX_PLAYERS],
}

impl Outcome {
    /// Two-player outcome with `winner` taking the point.
    pub fn win(winner: Player) -> Self {
        let mut points = [0.0; MAX_PLAYERS];
        points[winner] = 1.0;
        Outcome { points }
    }

    /// Two-player draw.
    pub fn draw() -> Self {
        Outcome {
            points: [0.5, 0.5, 0.0, 0.0],
        }
    }

    /// The seat that took the whole point, if one did.
    pub fn winner(&self) -> Option<Player> {
        self.points.iter().position(|&p| p == 1.0)
    }
}

/// A fixed-capacity move list on the stack, so move generation never allocates.
///
/// `N` is the game's documented worst case; pushing past it is a bug in the
/// game's bound and panics. The slots past `len` are left unwritten: search
/// and perft make a list at every node, and filling Ataxx's 833 slots or
/// Slime's 1,261 each time cost more than listing the moves.
#[derive(Clone, Copy)]
pub struct MoveList<M: Copy + Default, const N: usize> {
    moves: [MaybeUninit<M>; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    #[inline]
    fn default() -> Self {
        MoveList {
            moves: [MaybeUninit::uninit(); N],
            len: 0,
        }
    }
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    pub fn push(&mut self, m: M) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[M] {
        let written = &self.moves[..self.len];
        // SAFETY: `push` wrote each of the first `len` slots (and `clear`
        // only lowers `len`); `MaybeUninit<M>` has `M`'s size and alignment.
        unsafe { std::slice::from_raw_parts(written.as_ptr().cast::<M>(), written.len()) }
    }

    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }

    pub fn contains(&self, m: &M) -> bool
    where
        M: PartialEq,
    {
        self.as_slice().contains(m)
    }
}

impl<M: Copy + Default + Debug, const N: usize> Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// The move buffer a game fills; implemented by [`MoveList`].
pub trait MoveBuffer<M>: Default {
    fn push(&mut self, m: M);
    fn clear(&mut self);
    fn as_slice(&self) -> &[M];
}

impl<M: Copy + Default, const N: usize> MoveBuffer<M> for MoveList<M, N> {
    #[inline]
    fn push(&mut self, m: M) {
        MoveList::push(self, m)
    }
    #[inline]
    fn clear(&mut self) {
        MoveList::clear(self)
    }
    #[inline]
    fn as_slice(&self) -> &[M] {
        MoveList::as_slice(self)
    }
}

/// A game state. Cloning is the way to branch: states are small and `Copy`-like.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// One player's move. `Default` only fills unused move-list slots.
    type Move: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static;
    /// Stack move list sized to the game's worst case.
    type Moves: MoveBuffer<Self::Move>;

    /// The game's name as the CLI spells it (`--game NAME`).
    const NAME: &'static str;
    /// Seats at the table.
    const PLAYERS: usize;
    /// True when all players move at once ([`ToMove::All`]).
    const SIMULTANEOUS: bool;

    /// Upper bound on the number of `play`/`play_joint` calls from this state's
    /// start to the end of the game; the random-game test checks it holds.
    fn max_length(&self) -> u32;

    /// Who acts next, or `Over`.
    fn to_move(&self) -> ToMove;

    /// Fills `out` with `p`'s legal moves. Never empty for a player who is to
    /// act: where the rules let a player pass, the pass is a real move.
    fn legal_moves(&self, p: Player, out: &mut Self::Moves);

    /// Whether `m` is a pass that leaves the board as it is. Perft counts a
    /// pass only when it is a player's one choice (Slime lets a player pass at
    /// any time; a pass is a real move in the other games' terms only when
    /// forced).
    fn is_pass(&self, m: &Self::Move) -> bool {
        let _ = m;
        false
    }

    /// The position perft counts from. Perft counts move sequences by the
    /// moves alone, as the reference counts do (libataxx's ignore Ataxx's
    /// repetition and turn-limit draws), so a game whose draw rules would cut
    /// a sequence short switches them off here.
    fn perft_position(&self) -> Self {
        self.clone()
    }

    /// A move that hands the turn to the other side with the board as it
    /// is, for null-move pruning: only where that is nearly always worse
    /// than a real move (zugzwang is rare). Ataxx's pass. None by default:
    /// Isolation has no pass and is full of zugzwang (moving burns a
    /// square), Light Cycles' bikes move at once, and Slime's best-reply
    /// tree only passes when it must.
    fn null_move(&self) -> Option<Self::Move> {
        None
    }

    /// A cheap guess of what `m` gains the player to act, for the search's
    /// move ordering (higher is tried first; the history of cut-offs orders
    /// moves of equal hint). Ataxx counts a move's captures; by default every
    /// move is alike.
    #[inline]
    fn order_hint(&self, m: &Self::Move) -> i32 {
        let _ = m;
        0
    }

    /// How many moves perft counts for `p`, who is to act: the legal moves,
    /// a pass only when it is the one choice (see [`Game::is_pass`]). Perft's
    /// last ply asks only this, so a game may count its moves without listing
    /// them (bulk counting, as the fast engines do).
    fn perft_moves(&self, p: Player) -> u64 {
        let mut moves = Self::Moves::default();
        self.legal_moves(p, &mut moves);
        let all = moves.as_slice();
        match all.iter().filter(|m| !self.is_pass(m)).count() {
            0 => all.len() as u64,
            acting => acting as u64,
        }
    }

    /// Perft's count two plies on, `p` to act: over the moves perft counts
    /// for `p`, the sum of [`Game::perft_moves`] in the position each leads
    /// to (0 where the game is over). Perft's last two plies ask only this,
    /// so a game may count from each move's effect, without listing the
    /// moves, copying the position or playing them.
    fn perft_two_plies(&self, p: Player) -> u64 {
        sum_after_counted_moves(self, p, perft_one_ply)
    }

    /// One of `p`'s legal moves, drawn as a random playout draws it: the
    /// `pick(n)`-th of the `n` that [`Game::legal_moves`] lists, in that order
    /// (`pick` returns an index below `n`). A game may find it without listing
    /// the others: Ataxx's playouts spent three quarters of their time listing
    /// jumps to play one.
    fn pick_legal_move(&self, p: Player, pick: &mut dyn FnMut(usize) -> usize) -> Self::Move {
        let mut moves = Self::Moves::default();
        self.legal_moves(p, &mut moves);
        let all = moves.as_slice();
        all[pick(all.len()).min(all.len() - 1)]
    }

    /// Applies the move of the player to act (sequential games).
    fn play(&mut self, m: Self::Move);

    /// Applies one move per seat at once (simultaneous games). In a
    /// sequential game only the player to act has a move in a joint turn, so
    /// the default plays that seat's entry (and nothing once the game is over).
    fn play_joint(&mut self, moves: &[Self::Move]) {
        if let ToMove::One(p) = self.to_move() {
            if let Some(&m) = moves.get(p) {
                self.play(m);
            }
        }
    }

    /// The result once the game is over, `None` before.
    fn outcome(&self) -> Option<Outcome>;

    /// A hash of everything that decides the game's future (board, pieces, side
    /// to move); equal states hash equal.
    fn hash(&self) -> u64;
}

/// `Display` for a game state: its board as the state's `rows()`, one per
/// line. Every game draws its board as text rows (its protocol sends them),
/// so they share this one `Display`.
#[macro_export]
macro_rules! display_rows {
    ($state:ty) => {
        impl std::fmt::Display for $state {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                for row in self.rows() {
                    writeln!(f, "{row}")?;
                }
                Ok(())
            }
        }
    };
}

/// Something that plays a game: a judge clone, the genome bot, the
/// submission's engine. It lives with the rules, below the referee, so that
/// a game's own modules can implement it.
pub trait Bot<G: Game>: Send {
    /// The move for `player`, who is to act in `state`.
    fn choose(&mut self, state: &G, player: Player) -> G::Move;

    /// The positions the last `choose` searched, for a bot that searches
    /// (what `bench` divides by the time).
    fn nodes_searched(&self) -> Option<u64> {
        None
    }
}

/// Over the moves perft counts for `p`, who is to act (a pass only when it is
/// the one choice, see [`Game::is_pass`]), the sum of `count` of the position
/// each leads to. Perft's loop, here so that `Game`'s default can use it.
pub fn sum_after_counted_moves<G: Game>(state: &G, p: Player, mut count: impl FnMut(&G) -> u64) -> u64 {
    let mut moves = G::Moves::default();
    state.legal_moves(p, &mut moves);
    let listed = moves.as_slice();
    let acting = listed.iter().filter(|m| !state.is_pass(m)).count();
    listed
        .iter()
        .filter(|m| acting == 0 || !state.is_pass(m))
        .map(|&m| {
            let mut child = state.clone();
            child.play(m);
            count(&child)
        })
        .sum()
}

/// Perft's count one ply on from `state`: 0 once the game is over, the
/// mover's [`Game::perft_moves`], or in a simultaneous turn every joint move.
pub fn perft_one_ply<G: Game>(state: &G) -> u64 {
    match state.to_move() {
        ToMove::Over => 0,
        ToMove::One(p) => state.perft_moves(p),
        ToMove::All => (0..G::PLAYERS)
            .map(|p| {
                let mut moves = G::Moves::default();
                state.legal_moves(p, &mut moves);
                moves.as_slice().len() as u64
            })
            .product(),
    }
}

/// Mixes a 64-bit value into a well-spread hash (splitmix64's finaliser);
/// enough for transposition tables over bitboard states.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A small, fast hash of any `Hash` value (FNV-1a over what it feeds), for
/// folding a move into a state hash.
pub fn hash_of<T: Hash>(value: &T) -> u64 {
    struct Fnv(u64);
    impl std::hash::Hasher for Fnv {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    value.hash(&mut h);
    mix64(std::hash::Hasher::finish(&h))
}
