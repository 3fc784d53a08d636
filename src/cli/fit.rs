//! `gridtune fit`: a genome fitted to the results of simulated games
//! (Texel's method), written to a new file.

use super::args::GameArg;
use super::fit_progress::FitProgress;
use anyhow::Result;
use clap::Args;
use gridtune::bail_input;
use gridtune::fit::{fit_telling, Candidate, FitConfig};
use gridtune::games::GameKit;
use gridtune::genome::Genome;
use std::path::PathBuf;

#[derive(Args)]
pub struct FitArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Games to play for positions (one in five validates).
    #[arg(long, default_value_t = FitConfig::default().games)]
    pub games: usize,
    /// The genome that plays the games and the fit starts from (default: the
    /// game's hand-set weights).
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Where to write the fitted genome; never an existing file.
    #[arg(long)]
    pub out: PathBuf,
    /// The genome bot's search budget per move while the games are played.
    #[arg(long, default_value_t = FitConfig::default().nodes)]
    pub nodes: u64,
    /// Pulls toward the start genome, in log-odds per weight range squared:
    /// each gives a candidate (default: 1,0.1,0.01,0.001).
    #[arg(long, value_delimiter = ',')]
    pub ridges: Option<Vec<f64>>,
    /// Pairs of games each candidate plays against the start genome to be
    /// chosen (0: take the smallest ridge's fit).
    #[arg(long, default_value_t = FitConfig::default().choose_pairs)]
    pub pairs: usize,
    /// Play those pairs as the submission bot searches, for its time a move
    /// (its share of the frozen budget), instead of at --nodes.
    #[arg(long)]
    pub choose_timed: bool,
    /// Record each position's features at the leaf of a search this many
    /// plies deep (two-player games that take turns; 0: the position itself).
    #[arg(long, default_value_t = FitConfig::default().leaf_depth)]
    pub leaf_depth: u32,
    /// The seed of the maps, seats, judges and opening plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub quiet: bool,
}

pub fn run<G: GameKit>(a: &FitArgs) -> Result<()> {
    if a.out.exists() {
        bail_input!("{}: already exists; give another --out", a.out.display());
    }
    let (from, source) = match &a.from {
        Some(path) => (Genome::load(path, G::NAME, G::PARAMS)?, path.display().to_string()),
        None => (Genome::defaults(G::PARAMS), "the hand-set weights".to_string()),
    };
    let config = FitConfig {
        games: a.games,
        nodes: a.nodes,
        ridges: a.ridges.clone().unwrap_or(FitConfig::default().ridges),
        choose_pairs: a.pairs,
        choose_timed: a.choose_timed,
        leaf_depth: a.leaf_depth,
        ..FitConfig::default()
    };
    if let Err(e) = config.check_for::<G>() {
        bail_input!("{e}");
    }
    let progress = FitProgress::start(a.quiet);
    let report = fit_telling::<G>(&config, &from, a.seed, &|stage| progress.tell(stage))?;
    progress.finish();
    println!(
        "{} games, {} positions ({} train, {} validation) in {:.1} s; scale {:.3e} log-odds per unit",
        report.games,
        report.train_positions + report.validation_positions,
        report.train_positions,
        report.validation_positions,
        report.seconds,
        report.scale
    );
    println!(
        "start: loss (cross-entropy) train {:.5}, validation {:.5}",
        report.before.0, report.before.1
    );
    print!("{:<20} {:>8}", "weight", "start");
    for c in &report.candidates {
        print!(" {:>9}", format!("r={}", c.ridge));
    }
    println!();
    for (j, spec) in G::PARAMS.iter().enumerate() {
        print!("{:<20} {:>8}", spec.name, from.weights[j]);
        for c in &report.candidates {
            let bound = if c.at_bound.iter().any(|(name, _)| name == spec.name) {
                "*"
            } else {
                " "
            };
            print!(" {:>8}{bound}", c.genome.weights[j]);
        }
        println!();
    }
    let row = |label: &str, value: &dyn Fn(&Candidate) -> String| {
        print!("{label:<29}");
        for c in &report.candidates {
            print!(" {:>9}", value(c));
        }
        println!();
    };
    row("validation loss", &|c| format!("{:.5}", c.loss.1));
    row("score/pairs vs the start", &|c| {
        c.trial.map_or("-".into(), |t| t.cell())
    });
    // With no pairs the smallest ridge is taken without games: no budget chose it.
    let played_at = (a.pairs > 0).then(|| format!("at {}", G::tuning_budget(a.choose_timed, a.nodes)));
    match &played_at {
        Some(budget) => println!(
            "(* at a declared bound; scores {budget}, each candidate's pairs stopped early when an SPRT (0, 10) accepted H0 or H1, or the drop test, SPRT (-30, 0), found it worse)"
        ),
        None => println!("(* at a declared bound)"),
    }
    match report.chosen {
        Some(i) => println!("chosen: ridge {}", report.candidates[i].ridge),
        None => println!("no candidate beat the start genome: writing the start genome"),
    }
    let comment = format!(
        "fitted by `gridtune fit` from {source}: {} games, seed {}, {} nodes; {}",
        report.games,
        a.seed,
        a.nodes,
        match report.chosen {
            Some(i) => match &played_at {
                Some(budget) => format!("ridge {}, chosen {budget}", report.candidates[i].ridge),
                None => format!("ridge {}", report.candidates[i].ridge),
            },
            None => "no candidate beat the start".to_string(),
        }
    );
    report.genome.save(&a.out, G::NAME, G::PARAMS, &comment)?;
    println!("wrote {}", a.out.display());
    Ok(())
}
