//! The run's verdict: when the GA has confirmed its champion, the champion
//! plays the genome the run started from and the promoted genome
//! (genomes/<game>/best.ron, unless it has the start genome's weights) head
//! to head (in a game of more seats, against the field: `genome_match`) as
//! the submission bot searches at its time per move
//! (`Tuning::submission_limits`, for `Tuning::MOVE_BUDGET_MS`),
//! on maps generated from the run's seed (neither train nor holdout maps),
//! each map from both sides, each match under an SPRT and capped at the
//! config's `verdict.games`. What the run tuned at a node budget is thereby
//! measured where it counts, in Elo with its 95% interval.
//!
//! Its maps and game seeds come from the run's seed; the games themselves
//! are timed, so the result varies with the machine's load as a real match
//! does. It is written to verdict.ron (which a resumed run reads back rather
//! than play again) and verdict.csv.

use super::config::EvolveConfig;
use super::genome_match::{genome_match, incumbent_path};
use crate::arena::generated_maps;
use crate::arena::match_report::MatchReport;
use crate::bots::BotSpec;
use crate::game::mix64;
use crate::games::GameKit;
use crate::genome::Genome;
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The verdict in a run folder, read back on resume and by the report.
pub const VERDICT_RON: &str = "verdict.ron";
/// The same as a table.
pub const VERDICT_CSV: &str = "verdict.csv";

/// Seeds the verdict's maps and games apart from the promotion test's.
const MAPS_SEED: u64 = 0x7e4d_1c70;
const GAMES_SEED: u64 = 0x7e4d_1c71;

/// Who the champion played: the run's start genome, or the promoted one.
pub const OPPONENTS: [&str; 2] = ["start", "promoted"];

/// The champion's matches at the submission bot's time control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The genome judged: a verdict of another champion is played again.
    pub champion: Vec<i32>,
    pub ms_per_move: u64,
    /// Freshly generated maps, each played from both sides.
    pub maps: usize,
    pub matches: Vec<VerdictMatch>,
}

/// One match of the verdict, from the champion's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerdictMatch {
    /// One of [`OPPONENTS`].
    pub opponent: String,
    /// The genome file the opponent was read from.
    pub genome: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Logistic Elo from the game pairs, with its 95% interval.
    pub elo: f64,
    pub elo_lo: f64,
    pub elo_hi: f64,
    /// The SPRT's bounds, its log-likelihood ratio and where it stands
    /// (`continue` when the game cap came first).
    pub sprt: (f64, f64),
    pub llr: f64,
    pub status: String,
    pub seconds: f64,
}

impl VerdictMatch {
    fn new(opponent: &str, genome: &Path, report: &MatchReport, sprt: (f64, f64)) -> Self {
        let (llr, status) = report.sprt.map_or((0.0, "no games".to_string()), |s| {
            (s.report.llr, s.report.status.to_string())
        });
        VerdictMatch {
            opponent: opponent.to_string(),
            genome: genome.display().to_string(),
            games: report.games,
            wins: report.wins,
            draws: report.draws,
            losses: report.losses,
            elo: report.elo.elo,
            elo_lo: report.elo.lo,
            elo_hi: report.elo.hi,
            sprt,
            llr,
            status,
            seconds: report.seconds,
        }
    }

    /// The line the run ends with.
    pub fn line(&self, ms_per_move: u64) -> String {
        format!(
            "verdict vs {} genome ({}): {:+.1} Elo [{:+.1}, {:+.1}] over {} games (W {} D {} L {}) at {} ms a move; \
             SPRT [{}, {}] {} (LLR {:.2})",
            self.opponent,
            self.genome,
            self.elo,
            self.elo_lo,
            self.elo_hi,
            self.games,
            self.wins,
            self.draws,
            self.losses,
            ms_per_move,
            self.sprt.0,
            self.sprt.1,
            self.status,
            self.llr
        )
    }
}

/// The genomes the champion plays, labelled by [`OPPONENTS`]: the start
/// genome, and the promoted one when it exists and differs from it. A
/// promoted genome that does not load is left out with a warning: the run's
/// own results are already written.
pub fn opponents<G: GameKit>(
    config: &EvolveConfig,
) -> anyhow::Result<Vec<(&'static str, std::path::PathBuf, Vec<i32>)>> {
    let start = Genome::load(&config.seed_genome, G::NAME, G::PARAMS)?;
    let mut out = vec![(OPPONENTS[0], config.seed_genome.clone(), start.weights.clone())];
    let promoted = incumbent_path::<G>();
    if promoted.exists() {
        match Genome::load(&promoted, G::NAME, G::PARAMS) {
            Ok(g) if g.weights == start.weights => {}
            Ok(g) => out.push((OPPONENTS[1], promoted, g.weights)),
            Err(e) => tracing::warn!("the verdict leaves out {}: {e}", promoted.display()),
        }
    }
    Ok(out)
}

/// Plays the verdict of `champion`; `each_pair` sees the match under way
/// (its index in the opponents) after every pair. None when the config
/// skips it (`verdict: (games: 0)`).
pub fn play<G: GameKit>(
    config: &EvolveConfig,
    champion: &[i32],
    mut each_pair: impl FnMut(usize, &MatchReport),
) -> anyhow::Result<Option<Verdict>> {
    let games = config.verdict.games;
    if games == 0 {
        return Ok(None);
    }
    let sprt = config.verdict.sprt_test().map_err(anyhow::Error::msg)?;
    // The submission bot's own search at its budget: the share of the move
    // time it searches, not the whole move time.
    let limits = G::submission_limits();
    let maps = generated_maps::<G>(games / 2, mix64(config.seed ^ MAPS_SEED));
    let bot = |label: &str, weights: &[i32]| BotSpec::Genome {
        label: label.to_string(),
        weights: weights.to_vec(),
        limits,
    };
    let champion_bot = bot("champion", champion);
    let mut matches = Vec::new();
    for (i, (name, path, weights)) in opponents::<G>(config)?.into_iter().enumerate() {
        let opponent = bot(&format!("{name} genome"), &weights);
        tracing::info!(opponent = name, games, ms = G::MOVE_BUDGET_MS, "verdict match started");
        // The same maps and seeds for each opponent: the matches differ only in who is played.
        let schedule = (games, mix64(config.seed ^ GAMES_SEED));
        let report = genome_match::<G>(config, [&champion_bot, &opponent], &maps, schedule, Some(&sprt), |r| {
            each_pair(i, r)
        })?;
        let m = VerdictMatch::new(name, &path, &report, config.verdict.sprt);
        tracing::info!("{}", m.line(G::MOVE_BUDGET_MS));
        matches.push(m);
    }
    Ok(Some(Verdict {
        champion: champion.to_vec(),
        ms_per_move: G::MOVE_BUDGET_MS,
        maps: maps.len(),
        matches,
    }))
}

impl Verdict {
    /// The lines the run ends with, one per match.
    pub fn lines(&self) -> Vec<String> {
        self.matches.iter().map(|m| m.line(self.ms_per_move)).collect()
    }

    /// The match against `opponent` (one of [`OPPONENTS`]).
    pub fn against(&self, opponent: &str) -> Option<&VerdictMatch> {
        self.matches.iter().find(|m| m.opponent == opponent)
    }

    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).expect("verdicts serialise")
    }

    /// The verdict in a run folder, if it has one.
    pub fn load(out: &Path) -> anyhow::Result<Option<Verdict>> {
        let path = out.join(VERDICT_RON);
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let verdict = ron::from_str(&text).with_context(|| format!("{} is not a verdict", path.display()))?;
        Ok(Some(verdict))
    }
}
