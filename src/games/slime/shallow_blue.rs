//! A port of ShallowBlue.java's search, quirks included. It plans on its own
//! model of the rules, which differs from the control program's: a jump
//! converts the enemies around the square it leaves and never places the
//! new slime, and a spread or merge fills the empty squares around the
//! source rather than the target. Its score is integer arithmetic
//! (`us * (empties + 1) / (max enemy + 1)`) in which the enemies of players
//! 2 and 3 are partly never counted (it looks for players "5" and "6"). Its
//! lines are sampled with `Math.random()`; here with a seeded generator. Only
//! the move it prints reaches the control program.

use super::rules::{Slime, SlimeMove};
use crate::bots::Bot;
use crate::game::Player;
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

const MAX_ROUNDS: i32 = 5;
const PLAYERS: i32 = 4;

/// The board as ShallowBlue holds it: 8 rows of 8 joined by commas, square
/// `(x, y)` at index `9x + y`.
type Board = Vec<u8>;

fn char_at(b: &Board, x: i32, y: i32) -> u8 {
    if (0..8).contains(&x) && (0..8).contains(&y) {
        b[(9 * x + y) as usize]
    } else {
        0
    }
}

fn set(b: &mut Board, (x, y): (i32, i32), c: u8) {
    b[(9 * x + y) as usize] = c;
}

/// The first digit of `n` written in decimal (Java's `Integer.toString(n).charAt(0)`).
fn digit(n: i32) -> u8 {
    let mut n = n.abs();
    while n >= 10 {
        n /= 10;
    }
    b'0' + n as u8
}

fn neighbouring_matches(b: &Board, (cx, cy): (i32, i32), m: u8) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for x in cx - 1..=cx + 1 {
        for y in cy - 1..=cy + 1 {
            if (y != cy || x != cx) && char_at(b, x, y) == m {
                out.push((x, y));
            }
        }
    }
    out
}

fn next_neighbouring_matches(b: &Board, (cx, cy): (i32, i32), m: u8) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for x in cx - 2..=cx + 2 {
        for y in cy - 2..=cy + 2 {
            if ((y - cy).abs() == 2 || (x - cx).abs() == 2) && char_at(b, x, y) == m {
                out.push((x, y));
            }
        }
    }
    out
}

/// `calculateMove`: ShallowBlue's own idea of a move.
fn calculate_move(board: &Board, (x1, y1, x2, y2): (i32, i32, i32, i32)) -> Board {
    let mut b = board.clone();
    if ((y1 - y2).abs() == 2 || (x1 - x2).abs() == 2) && char_at(&b, x2, y2) == b'.' {
        let player = (char_at(&b, x1, y1) - b'0') as i32;
        let mut enemies = Vec::new();
        for i in 1..=PLAYERS {
            enemies.extend(neighbouring_matches(
                &b,
                (x1, y1),
                digit((player + i - 1) % PLAYERS + 1),
            ));
        }
        let source = char_at(&b, x1, y1);
        for e in enemies {
            set(&mut b, e, source);
        }
        set(&mut b, (x1, y1), b'.');
    }
    if (y1 - y2).abs() == 1 || (x1 - x2).abs() == 1 {
        let (from, to) = (char_at(&b, x1, y1), char_at(&b, x2, y2));
        if to == b'.' || from == to {
            let merge = to != b'.';
            for s in neighbouring_matches(&b, (x1, y1), b'.') {
                set(&mut b, s, from);
            }
            if merge {
                set(&mut b, (x1, y1), b'.');
            }
        }
    }
    b
}

/// `calculateScore`, integer arithmetic and all.
fn calculate_score(b: &Board, me: i32, rounds_passed: i32) -> f32 {
    let (mut empties, mut us, mut e1, mut e2, mut e3) = (0, 0, 0, 0, 0);
    let (mine, first, second, third) = (
        digit(me),
        digit(me % PLAYERS + 1),
        digit(me % PLAYERS + 2),
        digit(me % PLAYERS + 3),
    );
    for &c in b {
        if c == b'.' {
            empties += 1;
        } else if c == mine {
            us += 1;
        } else if c == first {
            e1 += 1;
        } else if c == second {
            e2 += 1;
        } else if c == third {
            e3 += 1;
        }
    }
    if us != 0 {
        us += rounds_passed;
    }
    if e1 != 0 {
        e1 += (rounds_passed + 3) % PLAYERS;
    }
    if e2 != 0 {
        e2 += (rounds_passed + 2) % PLAYERS;
    }
    if e3 != 0 {
        e3 += (rounds_passed + 1) % PLAYERS;
    }
    (us * (empties + 1) / (e1.max(e2).max(e3) + 1)) as f32
}

/// `getScore` of a (best, worst, average) triple.
fn combine(best: f32, worst: f32, average: f32) -> f32 {
    ((best * average * worst * worst) as f64).sqrt().sqrt() as f32
}

/// What `getBestMove` returns: the move at the top, the score triple below.
enum Found {
    Move((i32, i32, i32, i32)),
    Scores(f32, f32, f32),
}

struct Search<'a> {
    me: i32,
    rng: &'a mut Xoshiro256PlusPlus,
}

impl Search<'_> {
    fn score_of(&mut self, board: &Board, player: i32, rounds: i32) -> f32 {
        match self.best_move(board, player % PLAYERS + 1, rounds - 1) {
            Found::Scores(b, w, a) => combine(b, w, a),
            Found::Move(_) => unreachable!("only the top level returns a move"),
        }
    }

    /// Scores one candidate: sampled to a leaf, or searched a round deeper.
    fn candidate(&mut self, board: &Board, player: i32, rounds: i32, skip: f64) -> f32 {
        if rounds != MAX_ROUNDS - 1 && (rounds == 0 || self.rng.random::<f64>() < skip) {
            calculate_score(board, self.me, MAX_ROUNDS - rounds - 1)
        } else {
            self.score_of(board, player, rounds)
        }
    }

    fn best_move(&mut self, board: &Board, player: i32, rounds: i32) -> Found {
        let mut boards: Vec<Option<Board>> = vec![None; 24];
        let mut checked = 1usize;
        let me_char = digit(player);
        let pass = (0, 0, 0, 0);
        let temp_board = calculate_move(board, pass);
        boards[0] = Some(temp_board.clone());
        let mut best_move = pass;
        let us = board.iter().filter(|&&c| c == me_char).count() as f64;
        let mut skip = (us * 2.5 / (us * 2.5 + 1.0)) / 4.0 + 0.735;
        if rounds == MAX_ROUNDS - 2 {
            skip *= skip;
        }
        let first = if rounds == 0 {
            calculate_score(&temp_board, self.me, MAX_ROUNDS - rounds - 1)
        } else {
            self.score_of(&temp_board, player, rounds)
        };
        let (mut best, mut worst, mut average, mut scores) = (first, first, first, 1);
        let mut consider = |search: &mut Self, mv: (i32, i32, i32, i32), next: &Board, best_move: &mut _| {
            let score = search.candidate(next, player, rounds, skip);
            if score > best {
                *best_move = mv;
            }
            best = best.max(score);
            worst = worst.min(score);
            scores += 1;
            average = (average * (scores - 1) as f32 + score) / scores as f32;
        };
        for x in 0..8 {
            for y in 0..8 {
                let c = char_at(board, x, y);
                if c == me_char {
                    if let Some(&(mx, my)) = neighbouring_matches(board, (x, y), me_char).first() {
                        let mv = (mx, my, x, y);
                        let next = calculate_move(board, mv);
                        // addIfUnique: merges that repeat a board are skipped.
                        let fresh = !boards.iter().flatten().any(|b| *b == next);
                        if fresh {
                            match boards.iter().position(Option::is_none) {
                                Some(i) => boards[i] = Some(next.clone()),
                                None => boards[checked % 24] = Some(next.clone()),
                            }
                            checked += 1;
                            consider(self, mv, &next, &mut best_move);
                        }
                    }
                } else if c == b'.' {
                    let sources = neighbouring_matches(board, (x, y), me_char)
                        .into_iter()
                        .chain(next_neighbouring_matches(board, (x, y), me_char));
                    for (sx, sy) in sources.collect::<Vec<_>>() {
                        let mv = (sx, sy, x, y);
                        let next = calculate_move(board, mv);
                        consider(self, mv, &next, &mut best_move);
                    }
                }
            }
        }
        if rounds == MAX_ROUNDS - 1 {
            Found::Move(best_move)
        } else {
            Found::Scores(best, worst, average)
        }
    }
}

/// ShallowBlue.java: plans five rounds ahead on its own rules, sampling.
pub struct ShallowBlue {
    pub rng: Xoshiro256PlusPlus,
}

impl Bot<Slime> for ShallowBlue {
    fn choose(&mut self, state: &Slime, p: Player) -> SlimeMove {
        if state.size() != 8 {
            return SlimeMove::PASS;
        }
        let board: Board = state.rows().join(",").into_bytes();
        let me = p as i32 + 1;
        let mut search = Search { me, rng: &mut self.rng };
        match search.best_move(&board, me, MAX_ROUNDS - 1) {
            Found::Move((x1, y1, x2, y2)) => {
                let m = SlimeMove::new((x1 as usize, y1 as usize), (x2 as usize, y2 as usize));
                // "0 0 0 0" is its pass.
                if (x1, y1, x2, y2) == (0, 0, 0, 0) {
                    SlimeMove::PASS
                } else {
                    m
                }
            }
            Found::Scores(..) => unreachable!("the top level returns a move"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &str) -> Board {
        rows.replace(' ', ",").into_bytes()
    }

    #[test]
    fn its_jump_converts_around_the_source_and_never_lands() {
        let b = board("12...... ........ 3....... ........ ........ ........ ........ .......4");
        let after = calculate_move(&b, (0, 0, 2, 2));
        assert_eq!(
            String::from_utf8(after).unwrap(),
            ".1......,........,3.......,........,........,........,........,.......4"
        );
    }

    #[test]
    fn its_spread_fills_around_the_source() {
        let b = board("1....... ........ ........ ........ ........ ........ ........ ........");
        let after = calculate_move(&b, (0, 0, 0, 1));
        assert_eq!(
            String::from_utf8(after).unwrap(),
            "11......,11......,........,........,........,........,........,........"
        );
    }

    #[test]
    fn its_score_is_integer_division_and_misses_players_5_and_6() {
        // Player 3 counts only player 4 as an enemy ("5" and "6" never occur).
        let b = board("1111.... ........ ........ ........ ........ ........ 333..... 4.......");
        // us = 3 + 1 round, empties = 56, enemy1 (player 4) = 1 + (1 + 3) % 4.
        assert_eq!(calculate_score(&b, 3, 1), (4 * 57 / 2) as f32);
        // Player 1 counts 2, 3 and 4.
        assert_eq!(calculate_score(&b, 1, 0), (4 * 57 / (3 + 2 + 1)) as f32);
    }
}
