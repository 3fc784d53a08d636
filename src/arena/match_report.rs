//! What `match` reports: wins, draws and losses, the contest score, Elo with
//! its interval from the pentanomial, the SPRT's state, and why games ended,
//! as a table or as JSON.

use super::runner::Played;
use super::EndReason;
use crate::stats::{EloEstimate, MatchStats, Pentanomial, Sprt, SprtReport, SprtStatus};
use serde::Serialize;
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
        }
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
        out
    }
}
