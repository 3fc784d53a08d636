//! What `match` reports: wins, draws and losses, the contest score, Elo with
//! its interval from the pentanomial, the SPRT's state, why games ended, and
//! the program bots' reply times, as a table or as JSON.

use super::runner::Played;
use super::EndReason;
use crate::bots::BotSpec;
use crate::game::Player;
use crate::referee::{TimeLimits, TurnLog};
use crate::stats::{EloEstimate, MatchStats, Pentanomial, Percentiles, Sprt, SprtReport, SprtStatus};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Games ending one way, and which bot's failure ended them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EndCount {
    pub reason: &'static str,
    /// The bot that failed, for failures.
    pub bot: Option<String>,
    pub games: u32,
}

/// A match so far, from the first bot's side.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    pub game: &'static str,
    pub bots: [String; 2],
    pub maps: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The contest score: 100 × (wins + draws / 2) / games.
    pub score: f64,
    /// From the pentanomial (per pair of games), as fastchess reports it.
    pub elo: EloEstimate,
    /// Likelihood that the first bot is the stronger.
    pub los: f64,
    /// Pairs by total score: [LL, LD, DD+WL, WD, WW].
    pub pentanomial: Pentanomial,
    pub sprt: Option<SprtState>,
    pub end_reasons: Vec<EndCount>,
    pub concurrency: usize,
    pub seconds: f64,
    /// Whether the SPRT stopped the match before its last scheduled game.
    pub stopped_early: bool,
    /// Each program bot's reply times, as of the last [`MatchReport::summarise_replies`].
    pub reply_times: Vec<ReplyTimes>,
    #[serde(skip)]
    clock: ReplyClock,
}

/// An SPRT's settings and where it stands.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SprtState {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    #[serde(flatten)]
    pub report: SprtReport,
}

impl MatchReport {
    pub fn new(game: &'static str, bots: [String; 2], maps: String, concurrency: usize) -> Self {
        MatchReport {
            game,
            bots,
            maps,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score: 0.0,
            elo: EloEstimate {
                elo: 0.0,
                lo: f64::NEG_INFINITY,
                hi: f64::INFINITY,
            },
            los: 0.5,
            pentanomial: Pentanomial::default(),
            sprt: None,
            end_reasons: Vec::new(),
            concurrency,
            seconds: 0.0,
            stopped_early: false,
            reply_times: Vec::new(),
            clock: ReplyClock::default(),
        }
    }

    /// Clocks the program bots' turns of a pair: `specs` are the two bots in
    /// the report's order (built-in bots have no reply times).
    pub fn add_replies<M>(&mut self, specs: [&BotSpec; 2], pair: [&Played<M>; 2]) {
        for g in pair {
            for (who, spec) in specs.iter().enumerate() {
                let seat = if who == 0 {
                    g.pairing.first_seat
                } else {
                    1 - g.pairing.first_seat
                };
                self.clock.add(who, spec, seat, &g.record.turns);
            }
        }
    }

    /// Brings `reply_times` up to date with the turns clocked so far (it sorts
    /// every sample, so `match` does it once, at the end).
    pub fn summarise_replies(&mut self) {
        self.reply_times = self.clock.summary();
    }

    /// Adds a pair of games (the same map, sides swapped) and updates the
    /// statistics and the SPRT.
    pub fn add_pair<M>(&mut self, pair: [&Played<M>; 2], sprt: Option<&Sprt>) {
        let points = pair.map(Played::head_to_head);
        let games = MatchStats::from_points(&points);
        self.wins += games.wins;
        self.draws += games.draws;
        self.losses += games.losses;
        self.games += games.games();
        self.score = 100.0 * (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64;
        self.pentanomial.add_pair(points[0], points[1]);
        self.elo = self.pentanomial.elo();
        self.los = self.pentanomial.los();
        for g in pair {
            self.count_end(g);
        }
        if let Some(s) = sprt {
            self.sprt = Some(SprtState {
                elo0: s.elo0(),
                elo1: s.elo1(),
                alpha: s.alpha(),
                beta: s.beta(),
                report: s.report(&self.pentanomial),
            });
        }
    }

    fn count_end<M>(&mut self, g: &Played<M>) {
        let (reason, bot) = match g.record.end {
            EndReason::Failed { seat, .. } => {
                // The first bot sits in `first_seat`; the other seat is the second's.
                let who = usize::from(seat != g.pairing.first_seat);
                (g.record.end.name(), Some(self.bots[who].clone()))
            }
            end => (end.name(), None),
        };
        match self.end_reasons.iter_mut().find(|e| e.reason == reason && e.bot == bot) {
            Some(e) => e.games += 1,
            None => self.end_reasons.push(EndCount { reason, bot, games: 1 }),
        }
    }

    /// Whether the SPRT has decided.
    pub fn decided(&self) -> bool {
        self.sprt.is_some_and(|s| s.report.status != SprtStatus::Continue)
    }

    /// The report as the table `match` prints.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} vs {} on {}: {} games in {:.1}s (concurrency {}){}",
            self.bots[0],
            self.bots[1],
            self.maps,
            self.games,
            self.seconds,
            self.concurrency,
            if self.stopped_early { ", stopped by SPRT" } else { "" }
        );
        let width = self.bots.iter().map(String::len).max().unwrap_or(3).max(3);
        let _ = writeln!(
            out,
            "{:<width$}  {:>5} {:>5} {:>6} {:>6}  elo [95%]",
            "bot", "wins", "draws", "losses", "score"
        );
        let _ = writeln!(
            out,
            "{:<width$}  {:>5} {:>5} {:>6} {:>6.1}  {}",
            self.bots[0], self.wins, self.draws, self.losses, self.score, self.elo
        );
        let flipped = EloEstimate {
            elo: -self.elo.elo,
            lo: -self.elo.hi,
            hi: -self.elo.lo,
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>5} {:>5} {:>6} {:>6.1}  {}",
            self.bots[1],
            self.losses,
            self.draws,
            self.wins,
            100.0 - self.score,
            flipped
        );
        let c = self.pentanomial.counts;
        let _ = writeln!(
            out,
            "pentanomial [LL LD DD+WL WD WW]: [{} {} {} {} {}] over {} pairs; LOS {:.1}%",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            self.pentanomial.pairs(),
            100.0 * self.los
        );
        if let Some(s) = &self.sprt {
            let _ = writeln!(
                out,
                "SPRT elo0 {} elo1 {} alpha {} beta {}: {}",
                s.elo0, s.elo1, s.alpha, s.beta, s.report
            );
        }
        let ends: Vec<String> = self
            .end_reasons
            .iter()
            .map(|e| match &e.bot {
                Some(bot) => format!("{} by {bot}: {}", e.reason, e.games),
                None => format!("{}: {}", e.reason, e.games),
            })
            .collect();
        let _ = writeln!(out, "games ended: {}", ends.join(", "));
        out.push_str(&reply_time_lines(&self.reply_times));
        out
    }
}

/// One program bot's reply times over a match, its first turn of each game
/// apart: the first turn has a limit of its own (the process may still be
/// starting), usually longer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplyTimes {
    pub bot: String,
    pub first: Option<TurnTimes>,
    pub later: Option<TurnTimes>,
}

/// The reply times of one kind of turn in milliseconds, and its limit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TurnTimes {
    pub limit_ms: u64,
    #[serde(flatten)]
    pub ms: Percentiles,
}

impl TurnTimes {
    /// `ms` as a percentage of the limit.
    pub fn percent(&self, ms: f64) -> f64 {
        100.0 * ms / self.limit_ms.max(1) as f64
    }
}

/// The program bots' reply times of a match or a tournament, collected game
/// by game, by entry (the same program entered twice is clocked twice).
#[derive(Clone, Debug, Default)]
pub struct ReplyClock {
    entries: BTreeMap<usize, Samples>,
}

#[derive(Clone, Debug)]
struct Samples {
    bot: String,
    limits: TimeLimits,
    first: Vec<u32>,
    later: Vec<u32>,
}

impl ReplyClock {
    /// Adds the turns `seat` was asked in one game's `turns`, where entry
    /// `entry`, `spec`, sat. A forced turn (the referee played it without
    /// asking) has no reply; a built-in bot adds nothing.
    pub fn add(&mut self, entry: usize, spec: &BotSpec, seat: Player, turns: &[TurnLog]) {
        let BotSpec::Program { label, limits, .. } = spec else {
            return;
        };
        let samples = self.entries.entry(entry).or_insert_with(|| Samples {
            bot: label.clone(),
            limits: *limits,
            first: Vec::new(),
            later: Vec::new(),
        });
        let mut asked = turns.iter().filter(|t| t.seat == seat && !t.forced).map(|t| t.millis);
        samples.first.extend(asked.next());
        samples.later.extend(asked);
    }

    /// Each entry's reply-time percentiles, in entry order.
    pub fn summary(&self) -> Vec<ReplyTimes> {
        let times = |ms: &[u32], limit: std::time::Duration| {
            Percentiles::of(ms.iter().map(|&m| f64::from(m))).map(|ms| TurnTimes {
                limit_ms: limit.as_millis().min(u64::MAX as u128) as u64,
                ms,
            })
        };
        self.entries
            .values()
            .map(|s| ReplyTimes {
                bot: s.bot.clone(),
                first: times(&s.first, s.limits.first),
                later: times(&s.later, s.limits.later),
            })
            .collect()
    }
}

/// The reply times as `match` and `tournament` print them: per bot, a line
/// for first turns and one for the others, each figure in ms and as a
/// percentage of the turn's limit. Empty when no program played.
pub fn reply_time_lines(times: &[ReplyTimes]) -> String {
    let mut out = String::new();
    if times.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "{:<26} {:>6} {:>12} {:>12} {:>12} {:>12} {:>6}",
        "reply times, ms (% limit)", "turns", "median", "99%", "99.9%", "max", "limit"
    );
    for bot in times {
        let _ = writeln!(out, "  {}", bot.bot);
        for (kind, t) in [("first turns", &bot.first), ("later turns", &bot.later)] {
            let Some(t) = t else { continue };
            let cell = |ms: f64| format!("{ms:.0} ({:.0}%)", t.percent(ms));
            let _ = writeln!(
                out,
                "    {kind:<22} {:>6} {:>12} {:>12} {:>12} {:>12} {:>6}",
                t.ms.count,
                cell(t.ms.median),
                cell(t.ms.p99),
                cell(t.ms.p999),
                cell(t.ms.max),
                t.limit_ms
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::process::Launch;

    fn turn(seat: Player, millis: u32, forced: bool) -> TurnLog {
        TurnLog {
            millis,
            forced,
            ..TurnLog::new(seat)
        }
    }

    fn program(limits: TimeLimits) -> BotSpec {
        BotSpec::Program {
            label: "cmd:bot".into(),
            launch: Launch {
                program: "bot".into(),
                args: Vec::new(),
                dir: None,
            },
            limits,
            uai: None,
        }
    }

    #[test]
    fn each_games_first_asked_turn_is_clocked_apart_and_forced_turns_not_at_all() {
        let spec = program(TimeLimits::millis(1000, 100));
        let mut clock = ReplyClock::default();
        // Seat 1's turns between seat 0's; its first turn here is forced.
        let game = [
            turn(0, 7, false),
            turn(1, 0, true),
            turn(0, 400, false),
            turn(1, 30, false),
            turn(1, 20, false),
        ];
        clock.add(0, &spec, 1, &game);
        clock.add(0, &spec, 1, &[turn(1, 50, false), turn(1, 60, false)]);
        clock.add(1, &BotSpec::Judge("greedy".into()), 0, &game);
        let times = clock.summary();
        assert_eq!(times.len(), 1, "a judge has no reply times");
        let first = times[0].first.unwrap();
        let later = times[0].later.unwrap();
        assert_eq!(
            (first.ms.count, first.ms.median, first.ms.max, first.limit_ms),
            (2, 30.0, 50.0, 1000)
        );
        assert_eq!(
            (later.ms.count, later.ms.median, later.ms.max, later.limit_ms),
            (2, 20.0, 60.0, 100)
        );
        assert_eq!(later.percent(later.ms.max), 60.0);
        let lines = reply_time_lines(&times);
        assert!(lines.contains("cmd:bot"), "{lines}");
        assert!(lines.contains("50 (5%)") && lines.contains("60 (60%)"), "{lines}");
    }

    #[test]
    fn no_program_no_reply_time_lines() {
        assert_eq!(reply_time_lines(&ReplyClock::default().summary()), "");
    }
}
