//! The referee: bot programs that speak a game's contest protocol, run as
//! the contest server runs them.
//!
//! A [`ProgramBot`] writes exactly the statement's input, reads one line per
//! turn against the turn's time limit, captures stderr per turn, and turns
//! every way a program can fail (no reply in time, exit or crash, an
//! unreadable line, an illegal move) into a [`Fault`] that the game's own rule
//! ([`OnFailure`]) settles. What each game sends and how it reads a reply is
//! the game's [`Protocol`]; this module is the same for all four. A program
//! given as a UAI engine (`uai:` specs, Ataxx) is refereed the same way, but
//! spoken to in UAI ([`uai`]).

pub mod command;
pub mod process;
pub mod uai;

use crate::game::{Game, MoveBuffer, Player};
use process::{describe_exit, BotProcess, Launch, Line, NoLine};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

pub use crate::contest::{BadReply, OnFailure, ProcessModel, Protocol, TimeLimits, UaiNotation};

// Written out as serde's derive would, so that the contest's types stay
// standard-library only on the submission path.
impl serde::Serialize for TimeLimits {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("TimeLimits", 2)?;
        s.serialize_field("first", &self.first)?;
        s.serialize_field("later", &self.later)?;
        s.end()
    }
}

/// How long a program may run on after its stdin closes before its process
/// group is killed.
pub const EXIT_GRACE: Duration = Duration::from_millis(300);

/// Ways a bot fails a turn; the end reasons of a game it loses that way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    Timeout,
    Crash,
    InvalidLine,
    IllegalMove,
}

impl Fault {
    /// Every fault, in the order fault counts are kept.
    pub const ALL: [Fault; 4] = [Fault::Timeout, Fault::Crash, Fault::InvalidLine, Fault::IllegalMove];

    /// The fault's place in [`Fault::ALL`], where fault counts keep it.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Fault::Timeout => "timeout",
            Fault::Crash => "crash",
            Fault::InvalidLine => "invalid line",
            Fault::IllegalMove => "illegal move",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Fault::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// The fault a refused reply is, with why.
fn reply_fault(bad: BadReply) -> (Fault, String) {
    match bad {
        BadReply::Invalid(why) => (Fault::InvalidLine, why),
        BadReply::Illegal(why) => (Fault::IllegalMove, why),
    }
}

/// One seat's turn as it happened: what it replied, how long it took, what it
/// wrote to stderr, and how it failed if it did.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnLog {
    /// The game's turn counter when the seat was asked (0-based).
    pub turn: u32,
    pub seat: Player,
    /// The move as the protocol writes it, when one was played for the seat.
    pub played: Option<String>,
    /// The raw reply line, when it differs from `played` (cut at 200 bytes).
    pub reply: Option<String>,
    pub millis: u32,
    /// Stderr written during the turn (at most 2,000 characters).
    pub stderr: String,
    pub fault: Option<(Fault, String)>,
    /// The referee played for the seat without asking (a forced pass).
    pub forced: bool,
}

impl TurnLog {
    /// A turn of `seat` with nothing recorded yet; the game fills in `turn`.
    pub fn new(seat: Player) -> Self {
        TurnLog {
            turn: 0,
            seat,
            played: None,
            reply: None,
            millis: 0,
            stderr: String::new(),
            fault: None,
            forced: false,
        }
    }
}

/// A seat played by an external program.
pub struct ProgramBot<G: Protocol> {
    label: String,
    launch: Launch,
    limits: TimeLimits,
    process: Option<BotProcess>,
    asked: u32,
    /// The process failed for good (per-game programs): no more turns.
    dead: Option<(Fault, String)>,
    /// For replies the protocol fills in at random (Ataxx's `random`).
    rng: Xoshiro256PlusPlus,
    /// The game of a UAI engine; `None` for a program of the contest protocol.
    uai: Option<uai::Session<G>>,
    _game: std::marker::PhantomData<fn() -> G>,
}

/// What a program's turn produced, before the game's failure rule.
pub type Reply<M> = Result<M, (Fault, String)>;

impl<G: Protocol> ProgramBot<G> {
    pub fn new(label: String, launch: Launch, limits: TimeLimits, seed: u64) -> Self {
        use rand::SeedableRng;
        ProgramBot {
            label,
            launch,
            limits,
            process: None,
            asked: 0,
            dead: None,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            uai: None,
            _game: std::marker::PhantomData,
        }
    }

    /// The same program as a UAI engine searching `limit` per move: one
    /// process per game whatever the game's own model, the handshake at the
    /// start, `quit` at the end, and its own deadlines in place of `limits`.
    pub fn speaking_uai(mut self, limit: uai::UaiLimit, notation: UaiNotation<G>) -> Self {
        self.uai = Some(uai::Session::new(limit, notation));
        self
    }

    /// Whether one process plays the whole game.
    fn per_game(&self) -> bool {
        self.uai.is_some() || G::PROCESS == ProcessModel::PerGame
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// Starts a per-game program and sends it the game's opening line(s), or
    /// a UAI engine and goes through its handshake.
    pub fn start_game(&mut self, state: &G, seat: Player) {
        if !self.per_game() {
            return;
        }
        match BotProcess::start(&self.launch, &[]) {
            Ok(mut process) => {
                if self.uai.is_none() {
                    process.send(&G::greeting(state, seat));
                } else if let Err(fault) = uai_handshake(&mut process) {
                    // Its first turn fails with this, and takes its stderr.
                    process.kill();
                    self.dead = Some(fault);
                }
                self.process = Some(process);
            }
            Err(e) => self.dead = Some((Fault::Crash, format!("cannot start `{}`: {e}", self.launch.program))),
        }
    }

    /// Sends the turn's input (or starts the turn's process); returns when the
    /// clock started.
    pub fn send_turn(&mut self, state: &G, seat: Player, moves: &[G::Move]) -> Instant {
        let input = match &mut self.uai {
            None => G::turn_input(state, seat, moves),
            Some(session) => session.turn_input(state, seat),
        };
        let started = Instant::now();
        if self.dead.is_some() {
            return started;
        }
        if self.per_game() {
            if let Some(p) = &mut self.process {
                p.send(&input);
            }
        } else {
            match BotProcess::start(&self.launch, &[input]) {
                Ok(mut process) => {
                    process.close_stdin();
                    self.process = Some(process);
                }
                Err(e) => {
                    self.process = None;
                    self.dead = Some((Fault::Crash, format!("cannot start `{}`: {e}", self.launch.program)));
                }
            }
        }
        started
    }

    /// Waits for the reply to the turn sent at `started` and reads it.
    pub fn read_reply(&mut self, state: &G, seat: Player, started: Instant) -> (Reply<G::Move>, TurnLog) {
        let limit = match &self.uai {
            Some(session) => session.turn_limit(),
            None if self.asked == 0 => self.limits.first,
            None => self.limits.later,
        };
        self.asked += 1;
        let mut log = TurnLog::new(seat);
        let reply = self.await_reply(started + limit, limit);
        let arrived = match &reply {
            Ok(line) => line.arrived,
            Err(_) => Instant::now(),
        };
        let took = arrived.saturating_duration_since(started);
        log.millis = took.as_millis().min(u32::MAX as u128) as u32;
        let reply = reply.and_then(|line| {
            log.reply = Some(line.text.chars().take(200).collect());
            if line.cut > 0 {
                return Err((
                    Fault::InvalidLine,
                    format!(
                        "a line of {} bytes, far longer than any move",
                        line.text.len() + line.cut
                    ),
                ));
            }
            let read = match &self.uai {
                Some(session) => session.read_bestmove(state, seat, &line.text),
                None => {
                    let rng = &mut self.rng;
                    let mut pick = |n: usize| rand::RngExt::random_range(rng, 0..n);
                    G::read_reply(state, seat, &line.text, line.newline, &mut pick)
                }
            };
            read.map_err(reply_fault)
        });
        if let (Some(session), Ok(_)) = (&mut self.uai, &reply) {
            session.charge(took, arrived);
        }
        if !self.per_game() {
            if let Some(mut p) = self.process.take() {
                p.kill();
                p.reap();
                log.stderr = p.take_final_stderr();
            }
            // Each turn is a new process: a failed one does not doom the next.
            self.dead = None;
        } else {
            if let Some(p) = &mut self.process {
                log.stderr = if reply.is_err() {
                    // A per-game program that failed a turn is out.
                    p.kill();
                    p.take_final_stderr()
                } else {
                    p.take_stderr()
                };
            }
            if let Err(fault) = &reply {
                self.dead = Some(fault.clone());
            }
        }
        (reply, log)
    }

    /// The turn's reply line, by `deadline` (`limit` after the turn began).
    fn await_reply(&mut self, deadline: Instant, limit: Duration) -> Result<Line, (Fault, String)> {
        if let Some(fault) = &self.dead {
            return Err(fault.clone());
        }
        let Some(process) = &mut self.process else {
            return Err((Fault::Crash, "the program is not running".into()));
        };
        match &self.uai {
            // An engine talks (`info` lines and the like); `bestmove` answers.
            Some(session) => await_line(process, deadline, uai::is_bestmove, || session.late()),
            None => {
                // The statements ignore blank lines; the Slime control
                // program reads whatever its first line is.
                let skip_blank = G::PROCESS == ProcessModel::PerGame;
                let wanted = |text: &str| !(skip_blank && crate::protocol::clean(text).is_empty());
                await_line(process, deadline, wanted, || {
                    format!("no reply within {} ms", limit.as_millis())
                })
            }
        }
    }

    /// Ends the program as the server does: stdin closed, a grace period,
    /// then the process group killed. Returns a note if it had to be killed.
    pub fn end_game(&mut self) -> Option<String> {
        let mut process = self.process.take()?;
        if self.uai.is_some() {
            process.send(uai::QUIT);
        }
        let (status, lingered) = process.finish(EXIT_GRACE);
        lingered.then(|| {
            format!(
                "{} was still running {} ms after its stdin closed; its process group was killed ({})",
                self.label,
                EXIT_GRACE.as_millis(),
                describe_exit(status)
            )
        })
    }
}

/// The next line `wanted` accepts, passing over the others, by `deadline`;
/// `late` says what did not come in time.
fn await_line(
    process: &mut BotProcess,
    deadline: Instant,
    wanted: impl Fn(&str) -> bool,
    late: impl FnOnce() -> String,
) -> Result<Line, (Fault, String)> {
    loop {
        match process.read_line(deadline) {
            // The game thread may wake after the deadline to find a line
            // that came after it too: that line is late.
            Ok(line) if line.arrived > deadline => return Err((Fault::Timeout, late())),
            Ok(line) if wanted(&line.text) => return Ok(line),
            Ok(_) => continue,
            Err(NoLine::Timeout) => return Err((Fault::Timeout, late())),
            Err(NoLine::Closed) => {
                process.kill();
                let status = process.reap();
                return Err((Fault::Crash, format!("{} before replying", describe_exit(status))));
            }
        }
    }
}

/// A UAI engine's start: each line of the handshake, and its answer awaited
/// within [`uai::WAIT`].
fn uai_handshake(process: &mut BotProcess) -> Result<(), (Fault, String)> {
    for (say, answer) in uai::HANDSHAKE {
        process.send(say);
        let deadline = Instant::now() + uai::WAIT;
        let wanted = |text: &str| uai::first_word(text) == Some(answer);
        await_line(process, deadline, wanted, || {
            format!("no `{answer}` within {} ms", uai::WAIT.as_millis())
        })?;
    }
    Ok(())
}

impl<G: Protocol> Drop for ProgramBot<G> {
    fn drop(&mut self) {
        // Dropping the process kills its group; nothing outlives a game.
        self.process.take();
    }
}

/// The only legal move, for a seat the referee does not ask (a forced pass);
/// `None` if the seat has no move at all (then it must be asked, and fail).
pub fn forced_move<G: Game>(state: &G, seat: Player) -> Option<G::Move> {
    let mut legal = G::Moves::default();
    state.legal_moves(seat, &mut legal);
    legal.as_slice().first().copied()
}

/// The pass a seat's failed turn turns into, under [`OnFailure::Pass`].
pub fn failure_pass<G: Game>(state: &G, seat: Player) -> G::Move {
    let mut legal = G::Moves::default();
    state.legal_moves(seat, &mut legal);
    *legal
        .as_slice()
        .iter()
        .find(|m| state.is_pass(m))
        .expect("a game whose failed turns pass has a pass move")
}
