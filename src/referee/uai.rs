//! UAI, the protocol of Ataxx engines (libataxx, AtaxxDotCpp, cuteataxx),
//! spoken as cutechess speaks UCI. A `uai:` seat is a program refereed like
//! any other ([`super::ProgramBot`]: its process, deadlines, stderr and
//! faults); this module is what is said to it and how its answers are read,
//! with no process, so that it is tested on its own.
//!
//! A game: `uai`, answered by `uaiok`; `uainewgame` and `isready`, answered
//! by `readyok`. Each turn: `position fen <FEN of the current position>`
//! (the boards have walls, which `startpos` cannot give) and `go <limit>`,
//! answered by `bestmove <move>` (`b7`, `a7c7`, or `0000` for the pass);
//! every other line (`info`, `id`, an engine's chatter) is passed over. At
//! the end, `quit`, then the referee's close, grace period and kill.
//!
//! The spec gives the limit: `uai(nodes=N):PROGRAM`, `uai(movetime=MS):...`,
//! `uai(tc=SECONDS+SECONDS):...` (a clock per side, as cutechess's `tc`), or
//! `uai:PROGRAM`, which searches as long as the game's submission bot does.

use crate::contest::{BadReply, Protocol, UaiNotation};
use crate::game::Player;
use std::fmt;
use std::time::{Duration, Instant};

/// How far past its limit a `bestmove` may come and still count: the pipes,
/// the scheduler, and an engine's own stop checks.
pub const MARGIN: Duration = Duration::from_millis(100);

/// How long the referee waits where no time limit says: for `uaiok` and
/// `readyok`, and for a move searched to a node count.
pub const WAIT: Duration = Duration::from_secs(10);

/// The start of a game: what the referee writes, and the answer it waits
/// for (within [`WAIT`]) before going on.
pub const HANDSHAKE: [(&str, &str); 2] = [("uai\n", "uaiok"), ("uainewgame\nisready\n", "readyok")];

/// What the referee writes when the game is over.
pub const QUIT: &str = "quit\n";

/// The longest `movetime` and clock increment: an hour.
const MAX_MOVE_MS: u64 = 3_600_000;
/// The longest clock: a day.
const MAX_CLOCK_MS: u64 = 86_400_000;

/// An engine's limit per move, as its `go` line gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UaiLimit {
    /// `go nodes N`: the referee waits up to [`WAIT`].
    Nodes(u64),
    /// `go movetime MS`: the move is due within MS plus [`MARGIN`].
    MoveTime(u64),
    /// A clock per side, `base` ms to start with and `inc` ms added after
    /// each move: `go wtime .. btime .. winc .. binc ..`. A move is due
    /// within the engine's time left plus [`MARGIN`]; the time it took comes
    /// off its clock.
    Clock { base: u64, inc: u64 },
}

impl fmt::Display for UaiLimit {
    /// As a spec writes it: `nodes=N`, `movetime=MS`, `tc=SECONDS+SECONDS`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UaiLimit::Nodes(n) => write!(f, "nodes={n}"),
            UaiLimit::MoveTime(ms) => write!(f, "movetime={ms}"),
            UaiLimit::Clock { base, inc: 0 } => write!(f, "tc={}", Seconds(base)),
            UaiLimit::Clock { base, inc } => write!(f, "tc={}+{}", Seconds(base), Seconds(inc)),
        }
    }
}

/// Milliseconds written as seconds, with no more decimals than they need.
struct Seconds(u64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, ms) = (self.0 / 1000, self.0 % 1000);
        if ms == 0 {
            write!(f, "{s}")
        } else {
            write!(f, "{s}.{}", format!("{ms:03}").trim_end_matches('0'))
        }
    }
}

/// What a spec's limit may be, for messages.
const LIMITS: &str = "nodes=N, movetime=MS or tc=SECONDS[+SECONDS]";

impl UaiLimit {
    /// The per-turn limits the match report measures reply times against:
    /// the move time, the clock's base, or [`WAIT`] for a node count.
    pub fn reported_limits(self) -> super::TimeLimits {
        let ms = match self {
            UaiLimit::Nodes(_) => WAIT.as_millis() as u64,
            UaiLimit::MoveTime(ms) => ms,
            UaiLimit::Clock { base, .. } => base,
        };
        super::TimeLimits::millis(ms, ms)
    }
}

/// Reads what follows `uai` in a spec: `:PROGRAM ARGS`, with `default` as
/// the limit, or `(LIMIT):PROGRAM ARGS`. Returns the limit and the program's
/// text; an error names the part it refuses.
pub fn parse_spec(rest: &str, default: UaiLimit) -> Result<(UaiLimit, &str), String> {
    let (limit, program) = split_spec(rest, default)?;
    if program.trim().is_empty() {
        return Err("no program after `:`; expected uai[(LIMIT)]:PROGRAM ARGS".into());
    }
    Ok((limit, program))
}

fn split_spec(rest: &str, default: UaiLimit) -> Result<(UaiLimit, &str), String> {
    if let Some(program) = rest.strip_prefix(':') {
        return Ok((default, program));
    }
    let Some(inner) = rest.strip_prefix('(') else {
        return Err("expected uai:PROGRAM or uai(LIMIT):PROGRAM".into());
    };
    let Some((head, program)) = inner.split_once(':') else {
        return Err(format!(
            "`uai({inner}` has no `:PROGRAM` after the limit; expected uai(LIMIT):PROGRAM"
        ));
    };
    match head.strip_suffix(')') {
        Some(limit) => Ok((parse_limit(limit)?, program)),
        None if head.contains(')') => Err(format!("`({head}`: expected `:` right after `)`")),
        None => Err(format!("`({head}`: the limit has no closing `)` before `:`")),
    }
}

/// Reads one limit: `nodes=N`, `movetime=MS` or `tc=SECONDS[+SECONDS]`.
pub fn parse_limit(text: &str) -> Result<UaiLimit, String> {
    let unknown = || format!("`{text}` is not a limit; expected {LIMITS}");
    let (key, value) = text.split_once('=').ok_or_else(unknown)?;
    match key {
        "nodes" => whole(value)
            .filter(|&n| n >= 1)
            .map(UaiLimit::Nodes)
            .ok_or_else(|| format!("`{text}`: nodes must be a whole number of at least 1")),
        "movetime" => whole(value)
            .filter(|ms| (1..=MAX_MOVE_MS).contains(ms))
            .map(UaiLimit::MoveTime)
            .ok_or_else(|| format!("`{text}`: movetime must be a whole number of ms from 1 to 3600000 (an hour)")),
        "tc" => {
            let (base, inc) = value.split_once('+').unwrap_or((value, "0"));
            match (millis(base), millis(inc)) {
                (Some(base), Some(inc)) if (1..=MAX_CLOCK_MS).contains(&base) && inc <= MAX_MOVE_MS => {
                    Ok(UaiLimit::Clock { base, inc })
                }
                _ => Err(format!(
                    "`{text}`: tc must be the clock's seconds and optionally `+` the seconds added \
                     per move (tc=10+0.1), to the ms: from 0.001 to 86400 (a day), plus up to 3600"
                )),
            }
        }
        _ => Err(unknown()),
    }
}

/// A whole number in ASCII digits alone (no sign, no spaces).
fn whole(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Seconds with at most three decimals (`10`, `0.1`, `2.500`), as ms.
fn millis(text: &str) -> Option<u64> {
    let (s, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || (text.contains('.') && fraction.is_empty()) {
        return None;
    }
    let fraction = if fraction.is_empty() {
        0
    } else {
        whole(fraction)? * 10u64.pow(3 - fraction.len() as u32)
    };
    whole(s)?.checked_mul(1000)?.checked_add(fraction)
}

/// A line's first word.
pub fn first_word(line: &str) -> Option<&str> {
    line.split_whitespace().next()
}

/// Whether a line is the engine's answer to `go`.
pub fn is_bestmove(line: &str) -> bool {
    first_word(line) == Some("bestmove")
}

/// One game of a UAI engine: its limit and, with a clock, both sides' time.
pub struct Session<G: Protocol> {
    notation: UaiNotation<G>,
    limit: UaiLimit,
    /// The engine's clock and its opponent's, in ms left (below zero by at
    /// most the margin after a reply that used it).
    clock: i64,
    other: i64,
    /// When the engine's last `bestmove` came: the opponent's clock runs
    /// from then until the engine's next turn.
    replied: Option<Instant>,
}

/// Whole milliseconds of a duration, as a clock keeps them.
fn ms(d: Duration) -> i64 {
    d.as_millis().min(i64::MAX as u128) as i64
}

impl<G: Protocol> Session<G> {
    pub fn new(limit: UaiLimit, notation: UaiNotation<G>) -> Self {
        let base = match limit {
            UaiLimit::Clock { base, .. } => base as i64,
            _ => 0,
        };
        Session {
            notation,
            limit,
            clock: base,
            other: base,
            replied: None,
        }
    }

    /// A turn's input: the position and the `go` line. With a clock, the
    /// opponent is charged the time since the engine's last reply (its
    /// turn, and the referee's between), plus one increment, as cutechess
    /// keeps the other engine's clock.
    pub fn turn_input(&mut self, state: &G, seat: Player) -> String {
        let go = match self.limit {
            UaiLimit::Nodes(n) => format!("nodes {n}"),
            UaiLimit::MoveTime(ms) => format!("movetime {ms}"),
            UaiLimit::Clock { inc, .. } => {
                if let Some(at) = self.replied.take() {
                    self.other += inc as i64 - ms(at.elapsed());
                }
                // x moves first and is black, o is white, as libataxx names them.
                let (black, white) = if seat == 0 {
                    (self.clock, self.other)
                } else {
                    (self.other, self.clock)
                };
                format!("wtime {} btime {} winc {inc} binc {inc}", white.max(1), black.max(1))
            }
        };
        format!("position fen {}\ngo {go}\n", (self.notation.fen)(state))
    }

    /// How long the turn in progress may take: the limit plus [`MARGIN`].
    pub fn turn_limit(&self) -> Duration {
        match self.limit {
            UaiLimit::Nodes(_) => WAIT,
            UaiLimit::MoveTime(ms) => Duration::from_millis(ms) + MARGIN,
            UaiLimit::Clock { .. } => Duration::from_millis((self.clock + ms(MARGIN)).max(0) as u64),
        }
    }

    /// Why a turn was late, for its fault.
    pub fn late(&self) -> String {
        let within = self.turn_limit().as_millis();
        let margin = MARGIN.as_millis();
        match self.limit {
            UaiLimit::Nodes(n) => format!("no `bestmove` within {within} ms (nodes {n})"),
            UaiLimit::MoveTime(ms) => {
                format!("no `bestmove` within {within} ms (movetime {ms} + {margin} ms margin)")
            }
            UaiLimit::Clock { .. } => format!(
                "no `bestmove` within {within} ms ({} ms left on the clock + {margin} ms margin)",
                self.clock
            ),
        }
    }

    /// Reads a `bestmove` line as the seat's move.
    pub fn read_bestmove(&self, state: &G, seat: Player, line: &str) -> Result<G::Move, BadReply> {
        match line.split_whitespace().nth(1) {
            Some(word) => (self.notation.read_move)(state, seat, word),
            None => Err(BadReply::Invalid("`bestmove` without a move".into())),
        }
    }

    /// Takes a reply's time off the engine's clock and adds the increment.
    /// The opponent's clock starts when the reply `arrived`, not when the
    /// referee got round to reading it, so neither side pays for that gap.
    pub fn charge(&mut self, took: Duration, arrived: Instant) {
        if let UaiLimit::Clock { inc, .. } = self.limit {
            self.clock += inc as i64 - ms(took);
        }
        self.replied = Some(arrived);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::Ataxx;
    use proptest::prelude::*;

    const DEFAULT: UaiLimit = UaiLimit::MoveTime(45);

    #[test]
    fn a_spec_gives_its_limit_or_the_default() {
        let cases = [
            (":./engine -t 1", DEFAULT, "./engine -t 1"),
            ("(nodes=60000):./engine", UaiLimit::Nodes(60000), "./engine"),
            ("(movetime=45):a:b", UaiLimit::MoveTime(45), "a:b"),
            ("(tc=10+0.1):e", UaiLimit::Clock { base: 10_000, inc: 100 }, "e"),
            ("(tc=0.5):e", UaiLimit::Clock { base: 500, inc: 0 }, "e"),
            ("(tc=2.25+0.005):e", UaiLimit::Clock { base: 2250, inc: 5 }, "e"),
        ];
        for (rest, limit, program) in cases {
            assert_eq!(parse_spec(rest, DEFAULT), Ok((limit, program)), "{rest}");
        }
    }

    #[test]
    fn a_bad_limit_is_refused_naming_it() {
        for (rest, named) in [
            ("(nodes=0):e", "`nodes=0`"),
            ("(nodes=+5):e", "`nodes=+5`"),
            ("(nodes=99999999999999999999):e", "`nodes=99999999999999999999`"),
            ("(movetime=0):e", "`movetime=0`"),
            ("(movetime=3600001):e", "`movetime=3600001`"),
            ("(movetime=4.5):e", "`movetime=4.5`"),
            ("(tc=0):e", "`tc=0`"),
            ("(tc=10+):e", "`tc=10+`"),
            ("(tc=10.+1):e", "`tc=10.+1`"),
            ("(tc=0.0001):e", "`tc=0.0001`"),
            ("(tc=40/60+0.6):e", "`tc=40/60+0.6`"),
            ("(tc=86401):e", "`tc=86401`"),
            ("(depth=8):e", "`depth=8` is not a limit"),
            ("():e", "`` is not a limit"),
            ("(nodes=5:e", "`(nodes=5`: the limit has no closing `)`"),
            ("(nodes=5)x:e", "`(nodes=5)x`: expected `:` right after `)`"),
            ("(nodes=5)", "`uai(nodes=5)` has no `:PROGRAM`"),
            ("x:e", "expected uai:PROGRAM or uai(LIMIT):PROGRAM"),
            (":", "no program after `:`"),
            ("(nodes=5):  ", "no program after `:`"),
        ] {
            let message = parse_spec(rest, DEFAULT).unwrap_err();
            assert!(message.contains(named), "{rest}: {message}");
        }
    }

    #[test]
    fn a_clock_charges_each_side_and_tells_the_engine_both() {
        let notation = Ataxx::UAI.unwrap();
        let state = Ataxx::from_fen("x5o/7/7/7/7/7/o5x o 0 1").unwrap();
        let mut session = Session::new(UaiLimit::Clock { base: 1000, inc: 10 }, notation);
        assert_eq!(
            session.turn_input(&state, 1),
            "position fen x5o/7/7/7/7/7/o5x o 0 1\ngo wtime 1000 btime 1000 winc 10 binc 10\n"
        );
        assert_eq!(session.turn_limit(), Duration::from_millis(1100));
        session.charge(Duration::from_millis(300), Instant::now());
        assert_eq!(session.clock, 710);
        // The opponent's turn and the referee's time come off its clock.
        let input = session.turn_input(&state, 1);
        assert!(session.other <= 1010 && session.other > 0, "{}", session.other);
        assert!(
            input.contains(&format!("wtime 710 btime {} ", session.other)),
            "{input}"
        );
        // A reply within the margin leaves the overrun on the clock.
        session.charge(Duration::from_millis(780), Instant::now());
        assert_eq!(session.clock, -60);
        assert_eq!(session.turn_limit(), Duration::from_millis(40));
        assert!(session.late().contains("-60 ms left on the clock + 100 ms margin"));
        assert!(session.turn_input(&state, 0).contains("btime 1 winc"));
    }

    #[test]
    fn the_opponents_clock_runs_from_when_the_reply_arrived() {
        let notation = Ataxx::UAI.unwrap();
        let state = Ataxx::from_fen("x5o/7/7/7/7/7/o5x o 0 1").unwrap();
        let mut session = Session::new(UaiLimit::Clock { base: 1000, inc: 0 }, notation);
        session.turn_input(&state, 1);
        // The reply came 400 ms before the referee read it: the opponent's
        // turn began then, so its clock has lost at least those 400 ms.
        let arrived = Instant::now() - Duration::from_millis(400);
        session.charge(Duration::from_millis(100), arrived);
        session.turn_input(&state, 1);
        assert_eq!(session.clock, 900);
        assert!(session.other <= 600, "{}", session.other);
    }

    #[test]
    fn only_bestmove_answers_and_its_move_is_checked() {
        let notation = Ataxx::UAI.unwrap();
        let session = Session::new(UaiLimit::Nodes(5), notation);
        let state = Ataxx::from_fen("x5o/7/7/7/7/7/o5x x 0 1").unwrap();
        assert!(is_bestmove("bestmove b6 ponder a1"));
        assert!(!is_bestmove("info depth 3 pv b6") && !is_bestmove(""));
        assert_eq!(
            session
                .read_bestmove(&state, 0, "bestmove b6 ponder a1")
                .unwrap()
                .to_string(),
            "b6"
        );
        assert_eq!(
            session.read_bestmove(&state, 0, "bestmove a7c5").unwrap().to_string(),
            "a7c5"
        );
        let illegal = |line| match session.read_bestmove(&state, 0, line) {
            Err(BadReply::Illegal(why)) => why,
            other => panic!("{line}: {other:?}"),
        };
        assert!(illegal("bestmove 0000").contains("passes"));
        assert!(illegal("bestmove d4").contains("`d4` is not a legal move"));
        for garbage in ["bestmove", "bestmove hello", "bestmove a8", "bestmove a1c3x"] {
            assert!(
                matches!(session.read_bestmove(&state, 0, garbage), Err(BadReply::Invalid(_))),
                "{garbage}"
            );
        }
    }

    proptest! {
        #[test]
        fn any_spec_text_is_read_or_refused_without_panicking(rest in "\\PC{0,40}") {
            let _ = parse_spec(&rest, DEFAULT);
            let _ = parse_spec(&format!("({rest}"), DEFAULT);
            let _ = parse_limit(&rest);
        }

        #[test]
        fn limit_texts_near_the_grammar_never_panic(
            key in "(nodes|movetime|tc|)",
            value in "[0-9.+/:=-]{0,12}",
        ) {
            let text = format!("{key}={value}");
            if let Ok(limit) = parse_limit(&text) {
                prop_assert_eq!(parse_limit(&limit.to_string()), Ok(limit));
            }
        }

        #[test]
        fn every_limit_is_written_as_it_is_read(
            which in 0..3, n in 1u64..=MAX_MOVE_MS, base in 1u64..=MAX_CLOCK_MS, inc in 0u64..=MAX_MOVE_MS
        ) {
            let limit = match which {
                0 => UaiLimit::Nodes(n * 1000),
                1 => UaiLimit::MoveTime(n),
                _ => UaiLimit::Clock { base, inc },
            };
            let spec = format!("({limit}):./engine");
            prop_assert_eq!(parse_spec(&spec, DEFAULT), Ok((limit, "./engine")));
        }
    }
}
