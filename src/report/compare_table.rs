//! The comparison's table: one row per run (what its champion reached, at
//! what cost), as text for the terminal, CSV, and rows for the page.

use super::data::RunData;

/// One run's line in the comparison table.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    pub label: String,
    pub game: String,
    pub seed: u64,
    pub generations: u32,
    pub games: usize,
    /// The last champion's contest score on the train maps.
    pub final_train: f64,
    pub final_holdout: Option<f64>,
    pub seconds: f64,
}

impl CompareRow {
    pub fn of(run: &RunData) -> Self {
        CompareRow {
            label: run.label.clone(),
            game: run.game.clone(),
            seed: run.config.seed,
            generations: run.last().generation,
            games: run.games,
            final_train: run.last().train_score,
            final_holdout: run.last().holdout,
            seconds: run.seconds,
        }
    }
}

/// The table as text, for the terminal.
pub fn table(rows: &[CompareRow]) -> String {
    let width = rows.iter().map(|r| r.label.len()).max().unwrap_or(3).max(3);
    let mut text = format!(
        "{:<width$}  {:<11} {:>20} {:>5} {:>8} {:>6} {:>8} {:>8}\n",
        "run", "game", "seed", "gens", "games", "train", "holdout", "time"
    );
    for r in rows {
        text.push_str(&format!(
            "{:<width$}  {:<11} {:>20} {:>5} {:>8} {:>6.1} {:>8} {:>7.1}s\n",
            r.label,
            r.game,
            r.seed,
            r.generations,
            r.games,
            r.final_train,
            r.final_holdout.map_or("-".to_string(), |h| format!("{h:.1}")),
            r.seconds
        ));
    }
    text
}

/// The table as CSV.
pub fn csv(rows: &[CompareRow]) -> String {
    let mut text = String::from("run,game,seed,generations,games,final_train,final_holdout,seconds\n");
    for r in rows {
        text.push_str(&format!(
            "{},{},{},{},{},{:.3},{},{:.2}\n",
            r.label,
            r.game,
            r.seed,
            r.generations,
            r.games,
            r.final_train,
            r.final_holdout.map_or(String::new(), |h| format!("{h:.3}")),
            r.seconds
        ));
    }
    text
}
