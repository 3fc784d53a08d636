//! `gridtune sprt`: the matches between the same two bots pooled into one,
//! reported as `match` reports a match: a match capped undecided and its
//! continuation, or parts played on other machines, are one sample of game
//! pairs, and only their sum tells whether the SPRT has accepted.

use super::args::parse_sprt;
use anyhow::Result;
use clap::Args;
use gridtune::bad_input;
use gridtune::stats::counts::Pentanomial;

#[derive(Args)]
pub struct SprtArgs {
    /// A match's pentanomial as `match` prints it, `LL LD DD+WL WD WW`
    /// ("98 151 464 165 122", or with commas or brackets); one per match,
    /// each counted from the same bot's side.
    #[arg(long = "pentanomial", value_name = "COUNTS", required = true)]
    pub pentanomials: Vec<String>,
    /// The SPRT's bounds: H0 elo = ELO0 against H1 elo = ELO1.
    #[arg(long, value_name = "ELO0,ELO1", default_value = "0,10", allow_hyphen_values = true)]
    pub sprt: String,
    /// The SPRT's false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The SPRT's false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
}

pub fn run(a: &SprtArgs) -> Result<()> {
    let sprt = parse_sprt("--sprt", &a.sprt, a.alpha, a.beta)?;
    let parts: Vec<Pentanomial> = a
        .pentanomials
        .iter()
        .map(|text| text.parse::<Pentanomial>().map_err(|e| bad_input!("--pentanomial {e}")))
        .collect::<Result<_>>()?;
    let total = parts.iter().try_fold(Pentanomial::default(), |sum, p| {
        let pairs = u64::from(sum.pairs()) + u64::from(p.pairs());
        (pairs <= u64::from(u32::MAX)).then(|| sum.merge(*p)).ok_or_else(|| {
            bad_input!(
                "--pentanomial: {pairs} pairs in all, more than {} can be counted",
                u32::MAX
            )
        })
    })?;
    if total.pairs() == 0 {
        return Err(bad_input!(
            "--pentanomial: no pairs in all; give the counts of at least one played pair"
        ));
    }
    for (i, p) in parts.iter().enumerate() {
        println!("match {}: [{p}] over {} pairs: Elo {}", i + 1, p.pairs(), p.elo());
    }
    println!(
        // A --field match's pair is two twin comparisons, four games.
        "pooled [LL LD DD+WL WD WW]: [{total}] over {} pairs ({} games, {} in a --field match): score {:.1}%, Elo {}, LOS {:.1}%",
        total.pairs(),
        2 * u64::from(total.pairs()),
        4 * u64::from(total.pairs()),
        100.0 * total.score(),
        total.elo(),
        100.0 * total.los()
    );
    println!(
        "SPRT elo0 {} elo1 {} alpha {} beta {}: {}",
        sprt.elo0(),
        sprt.elo1(),
        sprt.alpha(),
        sprt.beta(),
        sprt.report(&total)
    );
    Ok(())
}
