//! Decisions over several seeds: a run's seed alone can move its champion by
//! more than a setting does (README: +13.2 against -5.5 Elo from seeds 1 and
//! 3), so `evolve --seeds` runs one config over several seeds and ranks the
//! champions by a round robin among them: every pair matched (`genome_match`) on maps
//! generated for the sweep, each from both sides, at the config's node
//! budget (deterministic, as the runs were tuned). Each champion's Elo is
//! against the others pooled, from its game pairs, with its 95% interval.

use super::config::EvolveConfig;
use super::genome_match::genome_match;
use crate::arena::generated_maps;
use crate::arena::match_report::MatchReport;
use crate::bots::BotSpec;
use crate::game::mix64;
use crate::games::GameKit;
use crate::stats::{EloEstimate, Pentanomial};
use anyhow::Context;
use std::path::Path;

/// The sweep's standings in its parent folder.
pub const SWEEP_CSV: &str = "sweep.csv";
/// Each pairing of its round robin, beside them.
pub const PAIRINGS_CSV: &str = "sweep_pairings.csv";

const MAPS_SEED: u64 = 0x5a33_e900;
const GAMES_SEED: u64 = 0x5a33_e901;

/// One run's champion in the sweep.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The run's seed and folder.
    pub seed: u64,
    pub run: String,
    pub weights: Vec<i32>,
}

/// A champion's result against all the others.
#[derive(Clone, Debug)]
pub struct Standing {
    pub seed: u64,
    pub run: String,
    pub games: u32,
    /// Its share of the points, 0 to 1.
    pub score: f64,
    pub elo: EloEstimate,
}

/// One pairing of the round robin, from the first entry's side.
#[derive(Clone, Debug)]
pub struct Pairing {
    pub first: u64,
    pub second: u64,
    pub report: MatchReport,
}

/// Plays every pair of `entries` head to head, `games` games a pairing on
/// the same generated maps (seeded by `seed`), and ranks them, best first.
/// `each_pair` sees the pairing under way after each pair of games.
pub fn round_robin<G: GameKit>(
    config: &EvolveConfig,
    entries: &[Entry],
    games: usize,
    seed: u64,
    mut each_pair: impl FnMut(&MatchReport),
) -> anyhow::Result<(Vec<Standing>, Vec<Pairing>)> {
    anyhow::ensure!(
        games >= 2 && games.is_multiple_of(2),
        "a pairing needs a positive even number of games"
    );
    let limits = config.limits::<G>();
    let maps = generated_maps::<G>(games / 2, mix64(seed ^ MAPS_SEED));
    let bot = |e: &Entry| BotSpec::Genome {
        label: format!("seed {}", e.seed),
        weights: e.weights.clone(),
        limits,
    };
    let bots: Vec<BotSpec> = entries.iter().map(bot).collect();
    let mut pooled = vec![Pentanomial::default(); entries.len()];
    let mut pairings = Vec::new();
    for i in 0..entries.len() {
        for j in i + 1..entries.len() {
            let schedule = (games, mix64(seed ^ GAMES_SEED));
            let report = genome_match::<G>(config, [&bots[i], &bots[j]], &maps, schedule, None, &mut each_pair)?;
            pooled[i] = pooled[i].merge(report.pentanomial);
            pooled[j] = pooled[j].merge(report.pentanomial.swapped());
            pairings.push(Pairing {
                first: entries[i].seed,
                second: entries[j].seed,
                report,
            });
        }
    }
    let mut standings: Vec<Standing> = entries
        .iter()
        .zip(&pooled)
        .map(|(e, p)| Standing {
            seed: e.seed,
            run: e.run.clone(),
            games: 2 * p.pairs(),
            score: if p.pairs() == 0 { 0.5 } else { p.score() },
            elo: p.elo(),
        })
        .collect();
    standings.sort_by(|a, b| b.elo.elo.total_cmp(&a.elo.elo).then(a.seed.cmp(&b.seed)));
    Ok((standings, pairings))
}

/// The standings as the table `evolve --seeds` prints.
pub fn table(standings: &[Standing]) -> String {
    let mut out = String::from("rank  seed  games  score  Elo vs the others [95%]  run\n");
    for (rank, s) in standings.iter().enumerate() {
        out.push_str(&format!(
            "{:>4}  {:>4}  {:>5}  {:>4.1}%  {:<24}  {}\n",
            rank + 1,
            s.seed,
            s.games,
            100.0 * s.score,
            s.elo.to_string(),
            s.run
        ));
    }
    out
}

/// Writes sweep.csv (the standings) and sweep_pairings.csv (each pairing
/// from its first seed's side) into `parent`.
pub fn write_summary(parent: &Path, standings: &[Standing], pairings: &[Pairing]) -> anyhow::Result<()> {
    let mut csv = String::from("rank,seed,games,score,elo,elo_lo,elo_hi,run\n");
    for (rank, s) in standings.iter().enumerate() {
        csv.push_str(&format!(
            "{},{},{},{:.4},{:.1},{:.1},{:.1},{}\n",
            rank + 1,
            s.seed,
            s.games,
            s.score,
            s.elo.elo,
            s.elo.lo,
            s.elo.hi,
            super::outputs::csv_field(&s.run)
        ));
    }
    let mut pairs = String::from("seed,against,games,wins,draws,losses,elo,elo_lo,elo_hi\n");
    for p in pairings {
        let r = &p.report;
        pairs.push_str(&format!(
            "{},{},{},{},{},{},{:.1},{:.1},{:.1}\n",
            p.first, p.second, r.games, r.wins, r.draws, r.losses, r.elo.elo, r.elo.lo, r.elo.hi
        ));
    }
    for (name, text) in [(SWEEP_CSV, csv), (PAIRINGS_CSV, pairs)] {
        let path = parent.join(name);
        crate::fsutil::write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
