//! What `match` reports: wins, draws and losses, the contest score, Elo with
//! its interval from the pentanomial, the SPRT's state, why games ended, and
//! the program bots' reply times, as a table or as JSON. A match against the
//! field ([`super::field`]) scores each twin pair as one comparison (both
//! its games take its result) and adds what each bot held at the same
//! tables.

use super::runner::Played;
use super::EndReason;
use crate::bots::BotSpec;
use crate::game::Player;
use crate::protocol::REPLY_MARGIN;
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
    /// In a match against the field, what the two bots held at the same
    /// tables; there, each game's win, draw or loss is its twin pair's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<FieldScore>,
    #[serde(skip)]
    clock: ReplyClock,
    /// A field comparison waiting for the next to make a pentanomial unit.
    #[serde(skip)]
    pending: Option<f32>,
}

/// What the two bots of a field match held (the contest's result: Slime's
/// squares) at the tables each sat at in turn: each one's mean, and the
/// first's lead over the second at the same table with its 95% interval.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct FieldScore {
    pub tables: u32,
    pub results: [f64; 2],
    pub lead: f64,
    pub lead_lo: f64,
    pub lead_hi: f64,
    /// Sums of the two results, the lead and its square.
    #[serde(skip)]
    sums: [f64; 4],
}

impl FieldScore {
    fn add(&mut self, results: [f64; 2]) {
        let lead = results[0] - results[1];
        for (sum, x) in self.sums.iter_mut().zip([results[0], results[1], lead, lead * lead]) {
            *sum += x;
        }
        self.tables += 1;
        let n = f64::from(self.tables);
        self.results = [self.sums[0] / n, self.sums[1] / n];
        self.lead = self.sums[2] / n;
        // The sample variance over n - 1; one table has no spread to read.
        let var = if self.tables > 1 {
            ((self.sums[3] - n * self.lead * self.lead) / (n - 1.0)).max(0.0)
        } else {
            f64::INFINITY
        };
        let half = crate::stats::distributions::Z95 * (var / n).sqrt();
        (self.lead_lo, self.lead_hi) = (self.lead - half, self.lead + half);
    }
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
            field: None,
            clock: ReplyClock::default(),
            pending: None,
        }
    }

    /// Clocks the program bots' turns of a pair: `specs` are the two bots in
    /// the report's order (built-in bots have no reply times).
    pub fn add_replies<M>(&mut self, specs: [&BotSpec; 2], pair: [&Played<M>; 2]) {
        for g in pair {
            for (who, spec) in specs.iter().enumerate() {
                if let Some(seat) = g.pairing.seat_of(who) {
                    self.clock.add(who, spec, seat, &g.record.turns);
                }
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
        self.count_results(&points);
        self.games += 2;
        self.pentanomial.add_pair(points[0], points[1]);
        for g in pair {
            self.count_end(g);
        }
        self.update(sprt);
    }

    /// Adds twin field games (the first bot's, then the second's at the same
    /// table) with each one's contest result there. Every second twin pair
    /// completes a pentanomial unit and updates the Elo and the SPRT.
    pub fn add_field_twins<M>(&mut self, twins: [&Played<M>; 2], results: [f64; 2], sprt: Option<&Sprt>) {
        let result = twins[0].field_result(twins[1]);
        // Both games count the pair's result, so wins, draws and losses
        // still add up to the games played.
        self.count_results(&[result, result]);
        self.games += 2;
        self.field.get_or_insert_with(FieldScore::default).add(results);
        for g in twins {
            self.count_end(g);
        }
        match self.pending.take() {
            None => self.pending = Some(result),
            Some(first) => {
                self.pentanomial.add_pair(first, result);
                self.update(sprt);
            }
        }
    }

    fn count_results(&mut self, points: &[f32]) {
        let counted = MatchStats::from_points(points);
        self.wins += counted.wins;
        self.draws += counted.draws;
        self.losses += counted.losses;
        let n = f64::from(self.wins + self.draws + self.losses);
        self.score = 100.0 * (self.wins as f64 + 0.5 * self.draws as f64) / n;
    }

    fn update(&mut self, sprt: Option<&Sprt>) {
        self.elo = self.pentanomial.elo();
        self.los = self.pentanomial.los();
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
                let who = (0..2).find(|&who| g.pairing.seat_of(who) == Some(seat));
                // A filler's failure names no bot of the match.
                (g.record.end.name(), who.map(|who| self.bots[who].clone()))
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
        if let Some(f) = &self.field {
            let _ = writeln!(
                out,
                "against the field: each bot in turn at the same {} tables (a win: more held than the other at \
                 the table); held on average {:.2} and {:.2}, a lead of {:+.2} [{:+.2}, {:+.2}]",
                f.tables, f.results[0], f.results[1], f.lead, f.lead_lo, f.lead_hi
            );
        }
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

/// Consecutive turns whose slowest reply is one test of the margin: a
/// percentile over a whole match hides whether slow replies cluster, and
/// "the slowest reply over 1,000 turns" is how the margin is stated.
pub const BLOCK_TURNS: usize = 1000;

/// The reply times of one kind of turn in milliseconds, and its limit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TurnTimes {
    pub limit_ms: u64,
    #[serde(flatten)]
    pub ms: Percentiles,
    /// Whole blocks of [`BLOCK_TURNS`] turns, in the order they were clocked.
    pub blocks: usize,
    /// Those blocks with a reply over [`REPLY_MARGIN`] of the limit.
    pub blocks_past_margin: usize,
}

impl TurnTimes {
    /// `ms` as a percentage of the limit.
    pub fn percent(&self, ms: f64) -> f64 {
        100.0 * ms / self.limit_ms.max(1) as f64
    }

    /// The summary of `ms`, turns in the order they were clocked; `None`
    /// when there are none.
    fn of(ms: &[u32], limit: std::time::Duration) -> Option<Self> {
        let limit_ms = limit.as_millis().min(u64::MAX as u128) as u64;
        let margin = REPLY_MARGIN * limit_ms as f64;
        let blocks = ms.chunks_exact(BLOCK_TURNS);
        Some(TurnTimes {
            limit_ms,
            ms: Percentiles::of(ms.iter().map(|&m| f64::from(m)))?,
            blocks: blocks.len(),
            blocks_past_margin: blocks.filter(|b| b.iter().any(|&m| f64::from(m) > margin)).count(),
        })
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
        self.entries
            .values()
            .map(|s| ReplyTimes {
                bot: s.bot.clone(),
                first: TurnTimes::of(&s.first, s.limits.first),
                later: TurnTimes::of(&s.later, s.limits.later),
            })
            .collect()
    }
}

/// The reply times as `match` and `tournament` print them: per bot, a line
/// for first turns and one for the others, each figure in ms and as a
/// percentage of the turn's limit, and how many blocks of 1,000 turns had a
/// reply past the margin. Empty when no program played.
pub fn reply_time_lines(times: &[ReplyTimes]) -> String {
    let mut out = String::new();
    if times.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "{:<26} {:>6} {:>12} {:>12} {:>12} {:>12} {:>6} {:>14}",
        "reply times, ms (% limit)",
        "turns",
        "median",
        "99%",
        "99.9%",
        "max",
        "limit",
        format!("1k over {:.0}%", 100.0 * REPLY_MARGIN)
    );
    for bot in times {
        let _ = writeln!(out, "  {}", bot.bot);
        for (kind, t) in [("first turns", &bot.first), ("later turns", &bot.later)] {
            let Some(t) = t else { continue };
            let cell = |ms: f64| format!("{ms:.0} ({:.0}%)", t.percent(ms));
            let _ = writeln!(
                out,
                "    {kind:<22} {:>6} {:>12} {:>12} {:>12} {:>12} {:>6} {:>14}",
                t.ms.count,
                cell(t.ms.median),
                cell(t.ms.p99),
                cell(t.ms.p999),
                cell(t.ms.max),
                t.limit_ms,
                format!("{} of {}", t.blocks_past_margin, t.blocks)
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
    fn blocks_of_a_thousand_turns_count_those_with_a_reply_past_the_margin() {
        let spec = program(TimeLimits::millis(1000, 100));
        let mut clock = ReplyClock::default();
        // 2,500 later turns at 40 ms; one at 61 ms in the second block, one
        // at exactly 60 ms in the first, and one at 99 ms in the half block
        // that is not whole.
        let mut game: Vec<TurnLog> = (0..2501).map(|_| turn(0, 40, false)).collect();
        game[1 + 1500].millis = 61;
        game[1 + 10].millis = 60;
        game[1 + 2200].millis = 99;
        clock.add(0, &spec, 0, &game);
        let later = clock.summary()[0].later.unwrap();
        assert_eq!((later.ms.count, later.blocks, later.blocks_past_margin), (2500, 2, 1));
        assert!(reply_time_lines(&clock.summary()).contains("1 of 2"));
        let first = clock.summary()[0].first.unwrap();
        assert_eq!((first.blocks, first.blocks_past_margin), (0, 0));
    }

    #[test]
    fn no_program_no_reply_time_lines() {
        assert_eq!(reply_time_lines(&ReplyClock::default().summary()), "");
    }
}
