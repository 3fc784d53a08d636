//! Playing games between bots: one game, a schedule of paired games, and the
//! statistics of a match. Shared by `match` and `evolve`.

pub mod executor;
pub mod field;
pub mod head_to_head;
pub mod match_report;
pub mod runner;

use crate::bots::{Bot, BotSpec, Seat};
use crate::game::{mix64, Game, MoveBuffer, Outcome, Player, ToMove};
use crate::games::GameKit;
use crate::referee::{failure_pass, forced_move, Fault, OnFailure, Reply, TurnLog};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The rules ended it (a player could not move, a bike crashed, ...).
    Normal,
    /// The game's turn limit was reached.
    TurnLimit,
    /// A seat failed a turn and lost for it.
    Failed { seat: Player, fault: Fault },
}

impl EndReason {
    /// The reason as replays and reports write it.
    pub fn name(&self) -> &'static str {
        match self {
            EndReason::Normal => "normal",
            EndReason::TurnLimit => "turn limit",
            EndReason::Failed { fault, .. } => fault.name(),
        }
    }
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameRecord<M> {
    pub outcome: Outcome,
    pub moves: Vec<M>,
    pub end: EndReason,
    /// What happened, when a seat failed: who, how, on which turn.
    pub detail: String,
    /// Every seat's turns, in order, when the game was played with a log.
    pub turns: Vec<TurnLog>,
    /// Things the referee had to do that did not decide the game (a program
    /// that ignored its closed stdin and was killed).
    pub notes: Vec<String>,
}

/// Plays `state` to the end with one seat each.
///
/// Built-in bots are trusted: one that returns an illegal move has a bug, and
/// the game panics naming the seat and the move. Programs are refereed: a
/// failed turn costs what the game's [`OnFailure`] rule says. With `log`, every
/// turn is kept in the record (programs' turns always are).
pub fn play_game<G: GameKit>(mut state: G, seats: &mut [Seat<G>], log: bool) -> GameRecord<G::Move> {
    assert_eq!(seats.len(), G::PLAYERS, "one seat per player");
    for (p, seat) in seats.iter_mut().enumerate() {
        if let Seat::Program(bot) = seat {
            bot.start_game(&state, p);
        }
    }
    let mut record = GameRecord {
        outcome: Outcome { points: [0.0; 4] },
        moves: Vec::new(),
        end: EndReason::Normal,
        detail: String::new(),
        turns: Vec::new(),
        notes: Vec::new(),
    };
    let mut legal = G::Moves::default();
    let mut turn = 0u32;
    let (outcome, end) = loop {
        match state.to_move() {
            ToMove::Over => {
                let outcome = state.outcome().expect("a finished game has an outcome");
                let end = if G::ended_by_turn_limit(&state) {
                    EndReason::TurnLimit
                } else {
                    EndReason::Normal
                };
                break (outcome, end);
            }
            ToMove::One(p) => {
                let (reply, mut entry) = take_turn(&state, p, &mut seats[p], &record.moves, &mut legal);
                entry.turn = turn;
                let m = match reply {
                    Ok(m) => m,
                    Err((fault, why)) => {
                        record.detail = failure_detail(p, fault, &why, turn);
                        entry.fault = Some((fault, why));
                        if G::ON_FAILURE == OnFailure::Lose {
                            assert_eq!(G::PLAYERS, 2, "a failure loses only in two-player games");
                            record.turns.push(entry);
                            break (Outcome::win(1 - p), EndReason::Failed { seat: p, fault });
                        }
                        failure_pass(&state, p)
                    }
                };
                if log || entry.fault.is_some() || matches!(seats[p], Seat::Program(_)) {
                    entry.played = Some(played_text::<G>(&state, m));
                    record.turns.push(entry);
                }
                record.moves.push(m);
                state.play(m);
            }
            ToMove::All => {
                let failed = simultaneous_turn(&mut state, seats, &mut record, &mut legal, turn, log);
                if let Some((seat, fault, Some(outcome))) = failed {
                    break (outcome, EndReason::Failed { seat, fault });
                }
            }
        }
        turn += 1;
    };
    for seat in seats.iter_mut() {
        if let Seat::Program(bot) = seat {
            record.notes.extend(bot.end_game());
        }
    }
    record.outcome = outcome;
    record.end = end;
    record
}

/// How a played move is logged: the protocol's text, `pass` for a pass.
fn played_text<G: GameKit>(state: &G, m: G::Move) -> String {
    if state.is_pass(&m) {
        "pass".to_string()
    } else {
        G::move_text(m)
    }
}

/// The record's detail line for a seat's failed turn.
pub(crate) fn failure_detail(seat: Player, fault: Fault, why: &str, turn: u32) -> String {
    format!("seat {seat}: {} on turn {}: {why}", fault.name(), turn + 1)
}

/// Asks one seat for its move.
fn take_turn<G: GameKit>(
    state: &G,
    p: Player,
    seat: &mut Seat<G>,
    moves: &[G::Move],
    legal: &mut G::Moves,
) -> (Reply<G::Move>, TurnLog) {
    let mut entry = TurnLog::new(p);
    match seat {
        Seat::Builtin(bot) => {
            let started = Instant::now();
            let m = checked_choice(state, p, &mut **bot, legal);
            entry.millis = started.elapsed().as_millis() as u32;
            (Ok(m), entry)
        }
        Seat::Program(bot) => {
            // A seat the referee does not ask gets its forced move; one with
            // no move at all is asked, and fails, rather than panic here.
            let forced = if G::asks(state, p) { None } else { forced_move(state, p) };
            match forced {
                Some(m) => {
                    entry.forced = true;
                    (Ok(m), entry)
                }
                None => {
                    let started = bot.send_turn(state, p, moves);
                    bot.read_reply(state, p, started)
                }
            }
        }
    }
}

/// One simultaneous turn: programs get their input first so their clocks run
/// together, built-in bots choose, then the programs' replies are read.
/// Returns the first seat that failed, if any did, with the outcome when its
/// failure ended the game.
fn simultaneous_turn<G: GameKit>(
    state: &mut G,
    seats: &mut [Seat<G>],
    record: &mut GameRecord<G::Move>,
    legal: &mut G::Moves,
    turn: u32,
    log: bool,
) -> Option<(Player, Fault, Option<Outcome>)> {
    let started: Vec<Option<Instant>> = seats
        .iter_mut()
        .enumerate()
        .map(|(p, seat)| match seat {
            Seat::Program(bot) => Some(bot.send_turn(state, p, &record.moves)),
            Seat::Builtin(_) => None,
        })
        .collect();
    let mut joint: Vec<Option<G::Move>> = Vec::with_capacity(G::PLAYERS);
    let mut failed = None;
    let mut entries = Vec::with_capacity(G::PLAYERS);
    for (p, seat) in seats.iter_mut().enumerate() {
        let (reply, mut entry) = match (seat, started[p]) {
            (Seat::Program(bot), Some(at)) => bot.read_reply(state, p, at),
            (seat, _) => take_turn(state, p, seat, &record.moves, legal),
        };
        entry.turn = turn;
        match reply {
            Ok(m) => {
                entry.played = Some(G::move_text(m));
                joint.push(Some(m));
            }
            Err((fault, why)) => {
                if failed.is_none() {
                    record.detail = failure_detail(p, fault, &why, turn);
                    failed = Some((p, fault));
                }
                entry.fault = Some((fault, why));
                joint.push(match G::ON_FAILURE {
                    OnFailure::Lose => None,
                    OnFailure::Pass => Some(failure_pass(state, p)),
                });
            }
        }
        entries.push(entry);
    }
    if log || started.iter().any(Option::is_some) {
        record.turns.extend(entries);
    }
    if joint.iter().all(Option::is_some) {
        let moves: Vec<G::Move> = joint.into_iter().flatten().collect();
        record.moves.extend_from_slice(&moves);
        state.play_joint(&moves);
        failed.map(|(seat, fault)| (seat, fault, None))
    } else {
        let outcome = state.play_with_failures(&joint);
        failed.map(|(seat, fault)| (seat, fault, Some(outcome)))
    }
}

fn checked_choice<G: Game>(state: &G, p: Player, bot: &mut dyn Bot<G>, legal: &mut G::Moves) -> G::Move {
    let m = bot.choose(state, p);
    state.legal_moves(p, legal);
    assert!(
        legal.as_slice().contains(&m),
        "bot in seat {p} chose illegal {m:?} in {state:?}"
    );
    m
}

/// One game of a match: which map, which seat the first bot takes (in a
/// field game, the seat of whichever bot sits), and the seed for the bots'
/// randomness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub map: usize,
    pub first_seat: Player,
    pub seed: u64,
    /// A game against the field ([`field`]); `None`: head to head.
    pub field: Option<FieldTable>,
}

/// Which of the two bots sits in a field game, and beside which fillers; the
/// seat is the pairing's `first_seat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldTable {
    /// 0: the match's first bot; 1: its second.
    pub bot: usize,
    /// Index of the fillers' combination ([`field::FieldPlan::combinations`]).
    pub fillers: usize,
}

impl Pairing {
    /// The seat the match's first (`who` 0) or second bot took in this game,
    /// if it played.
    pub fn seat_of(&self, who: usize) -> Option<Player> {
        match self.field {
            None if who == 0 => Some(self.first_seat),
            None => Some(1 - self.first_seat),
            Some(table) => (table.bot == who).then_some(self.first_seat),
        }
    }
}

/// `count` random legal maps drawn from `seed`: a fresh map for every pair
/// of a long match, as an opening book gives chess engines fresh starts.
/// Bots that search a node budget play the same game on the same map, so
/// repeating a small map set adds no information.
pub fn generated_maps<G: GameKit>(count: usize, seed: u64) -> Vec<G::Map> {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..count)
        .map(|i| {
            let text = G::generate_map_text(&mut rng);
            G::parse_map(&text, &format!("generated map {}", i + 1))
                .unwrap_or_else(|e| panic!("the {} generator made an invalid map: {e}", G::NAME))
        })
        .collect()
}

/// `pairs` pairs of games cycling through `maps` maps; the two games of a pair
/// share a map and a seed and swap sides, so neither bot gains from the map or
/// the luck of the draw.
pub fn paired_schedule(maps: usize, pairs: usize, seed: u64) -> Vec<Pairing> {
    (0..pairs)
        .flat_map(|i| {
            let seed = mix64(seed ^ mix64(i as u64 + 1));
            [0, 1].map(|first_seat| Pairing {
                map: i % maps,
                first_seat,
                seed,
                field: None,
            })
        })
        .collect()
}

/// One seat's result against another from their points: 1 if it took
/// more, 0.5 if as many, 0 if fewer (a head-to-head game at any table).
pub fn beats(a: f32, b: f32) -> f32 {
    match a.total_cmp(&b) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// Plays one game with `specs[p]` in seat `p`; each bot's randomness comes
/// from `seed` and its seat. With `log`, the record keeps every turn.
pub fn play_seated<G: GameKit>(map: &G::Map, specs: &[&BotSpec], seed: u64, log: bool) -> GameRecord<G::Move> {
    let mut seats: Vec<Seat<G>> = specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| spec.build::<G>(mix64(seed ^ seat as u64)))
        .collect();
    let record = play_game(G::start(map), &mut seats, log);
    GAMES_FINISHED.fetch_add(1, Ordering::Relaxed);
    record
}

/// Games finished by [`play_seated`] in this process (every match, evolve
/// and tournament game), for progress displays.
static GAMES_FINISHED: AtomicU64 = AtomicU64::new(0);

/// Counts games finished elsewhere (by workers, for a coordinator) with
/// this process's, for its progress display.
pub fn add_games_finished(games: u64) {
    GAMES_FINISHED.fetch_add(games, Ordering::Relaxed);
}

/// How many games [`play_seated`] has finished in this process so far.
pub fn games_finished() -> u64 {
    GAMES_FINISHED.load(Ordering::Relaxed)
}

/// The two seats of a pairing's game: `a` takes `pairing.first_seat`.
pub fn pairing_seats<T>(a: T, b: T, pairing: Pairing) -> [T; 2] {
    if pairing.first_seat == 0 {
        [a, b]
    } else {
        [b, a]
    }
}

/// Plays one two-player game of `a` against `b`; returns `a`'s points.
pub fn play_pairing<G: GameKit>(maps: &[G::Map], a: &BotSpec, b: &BotSpec, pairing: Pairing) -> f32 {
    let seats = pairing_seats(a, b, pairing);
    play_seated::<G>(&maps[pairing.map], &seats, pairing.seed, false)
        .outcome
        .points[pairing.first_seat]
}

/// Every way to pick `k` of `n` entries, each in increasing order (the
/// control program's tournament: one game per combination, seated in list
/// order).
pub fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn extend(start: usize, n: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            current.push(i);
            extend(i + 1, n, k, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    extend(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// Every ordering of `items`.
pub fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

/// Totals of a tournament: for each entry, its points summed, its results
/// as the contest reports them summed (squares in Slime, counted on each
/// game's own board), its games, and its failed turns by kind (in
/// [`Fault::ALL`] order).
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentTotals {
    pub points: Vec<f64>,
    pub results: Vec<f64>,
    pub games: Vec<u32>,
    pub faults: Vec<[u32; 4]>,
    pub tables: usize,
}

/// One finished game of a tournament, as [`tournament_with`] hands it over.
pub struct TableGame<'a, M> {
    /// The game's place in the tournament (tables in order, rounds within).
    pub index: usize,
    /// The entries in seat order.
    pub seats: &'a [usize],
    /// Which of the maps it was played on.
    pub map: usize,
    pub seed: u64,
    pub record: &'a GameRecord<M>,
}

/// The tables of a tournament: every combination of `entries` entries, in
/// list order or (with `all_seatings`) in every order.
pub fn tournament_tables(entries: usize, players: usize, all_seatings: bool) -> Vec<Vec<usize>> {
    let mut tables: Vec<Vec<usize>> = Vec::new();
    for combo in combinations(entries, players) {
        if all_seatings {
            tables.extend(permutations(&combo));
        } else {
            tables.push(combo);
        }
    }
    tables
}

/// Plays a tournament of `G::PLAYERS`-seat games among `entries`: every
/// combination seated in list order (or, with `all_seatings`, in every
/// order), `rounds` games per table cycling through the maps, in parallel.
pub fn tournament<G: GameKit>(
    maps: &[G::Map],
    entries: &[BotSpec],
    rounds: usize,
    all_seatings: bool,
    seed: u64,
) -> TournamentTotals {
    tournament_with::<G>(maps, entries, rounds, all_seatings, seed, false, &|_| {})
}

/// [`tournament`], handing each game to `on_game` as it finishes (on the
/// thread that played it); with `log`, the records keep every turn.
pub fn tournament_with<G: GameKit>(
    maps: &[G::Map],
    entries: &[BotSpec],
    rounds: usize,
    all_seatings: bool,
    seed: u64,
    log: bool,
    on_game: &(dyn Fn(TableGame<G::Move>) + Sync),
) -> TournamentTotals {
    let tables = tournament_tables(entries.len(), G::PLAYERS, all_seatings);
    let games: Vec<(usize, usize)> = (0..tables.len())
        .flat_map(|t| (0..rounds).map(move |r| (t, r)))
        .collect();
    // Only the outcome and the fault counts are kept: a long tournament of
    // program bots would otherwise hold every turn's stderr.
    let played: Vec<(Outcome, Vec<[u32; 4]>)> = games
        .par_iter()
        .enumerate()
        .map(|(index, &(t, r))| {
            let seats: Vec<&BotSpec> = tables[t].iter().map(|&e| &entries[e]).collect();
            let game_seed = mix64(seed ^ mix64((t * 1_000_003 + r) as u64));
            let map = r % maps.len();
            let record = play_seated::<G>(&maps[map], &seats, game_seed, log);
            let mut faults = vec![[0u32; 4]; G::PLAYERS];
            for (seat, fault) in record.turns.iter().filter_map(|t| Some((t.seat, t.fault.as_ref()?.0))) {
                faults[seat][fault.index()] += 1;
            }
            on_game(TableGame {
                index,
                seats: &tables[t],
                map,
                seed: game_seed,
                record: &record,
            });
            (record.outcome, faults)
        })
        .collect();
    let mut totals = TournamentTotals {
        points: vec![0.0; entries.len()],
        results: vec![0.0; entries.len()],
        games: vec![0; entries.len()],
        faults: vec![[0; 4]; entries.len()],
        tables: tables.len(),
    };
    for (&(t, r), (outcome, faults)) in games.iter().zip(&played) {
        for (seat, &e) in tables[t].iter().enumerate() {
            totals.points[e] += outcome.points[seat] as f64;
            totals.results[e] += G::points_to_result(outcome.points[seat] as f64, &maps[r % maps.len()]);
            totals.games[e] += 1;
            for (total, n) in totals.faults[e].iter_mut().zip(faults[seat]) {
                *total += n;
            }
        }
    }
    totals
}

/// Plays a whole schedule in parallel; results come back in schedule order,
/// so a run is the same whatever the thread count.
pub fn play_schedule<G: GameKit>(maps: &[G::Map], a: &BotSpec, b: &BotSpec, schedule: &[Pairing]) -> Vec<f32> {
    schedule.par_iter().map(|&p| play_pairing::<G>(maps, a, b, p)).collect()
}
