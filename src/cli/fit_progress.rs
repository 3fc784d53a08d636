//! What `gridtune fit` shows while it plays: a line on stderr as each stage
//! begins and each candidate is scored, and a progress bar over the
//! stage's games (on a terminal).

use gridtune::arena;
use gridtune::fit::FitStage;
use gridtune::progress;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The bar's stage and how its games are counted.
struct Shown {
    stage: String,
    total: u64,
    /// Position games over, told by the fit; `None` while the choice's
    /// games run, which the arena counts from `base`.
    played: Option<u64>,
    base: u64,
    started: Instant,
}

impl Shown {
    fn line(&self) -> progress::Line {
        let done = self
            .played
            .unwrap_or_else(|| arena::games_finished().saturating_sub(self.base));
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = (elapsed > 0.2 && done > 0).then(|| done as f64 / elapsed);
        progress::Line {
            stage: self.stage.clone(),
            done,
            total: Some(self.total.max(done)),
            games_per_second: rate,
            seconds_left: rate.map(|r| self.total.saturating_sub(done) as f64 / r),
            note: String::new(),
        }
    }

    fn begin(&mut self, stage: String, total: u64, played: Option<u64>) {
        *self = Shown {
            stage,
            total,
            played,
            base: arena::games_finished(),
            started: Instant::now(),
        };
    }
}

/// The bar, and the handler that keeps it and the stage lines up to date.
pub struct FitProgress {
    shown: Arc<Mutex<Shown>>,
    bar: progress::Bar,
}

impl FitProgress {
    pub fn start(quiet: bool) -> FitProgress {
        let shown = Arc::new(Mutex::new(Shown {
            stage: "fit".into(),
            total: 0,
            played: Some(0),
            base: 0,
            started: Instant::now(),
        }));
        let bar = {
            let shown = Arc::clone(&shown);
            progress::Bar::start(progress::wanted(quiet), move || {
                shown.lock().unwrap_or_else(|e| e.into_inner()).line().render()
            })
        };
        FitProgress { shown, bar }
    }

    /// Takes one stage of the fit.
    pub fn tell(&self, stage: FitStage) {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        match stage {
            FitStage::Played { done, .. } => shown.played = Some(done as u64),
            FitStage::Positions { games, .. } => shown.begin("positions".into(), games as u64, Some(0)),
            FitStage::Choosing {
                index,
                of,
                ridge,
                pairs,
                ..
            } => shown.begin(format!("ridge {ridge} ({index}/{of})"), 2 * pairs as u64, None),
            FitStage::Fitted { .. } | FitStage::Scored { .. } => {}
        }
        drop(shown);
        if let Some(line) = stage.line() {
            progress::suspend(|| eprintln!("fit: {line}"));
        }
    }

    pub fn finish(self) {
        self.bar.finish();
    }
}
