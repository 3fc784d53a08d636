//! What `match` and `tournament` share: their maps and their progress bar.

use anyhow::Result;
use gridtune::arena;
use gridtune::games::GameKit;
use gridtune::maps::{load_dir, NamedMap};
use gridtune::progress;
use std::path::PathBuf;
use std::time::Instant;

/// The maps of a match or tournament, and where they came from as the
/// report names it: `generated` new maps from `seed`, or else `dir`'s files.
pub fn play_maps<G: GameKit>(
    generated: Option<usize>,
    seed: u64,
    dir: PathBuf,
) -> Result<(String, Vec<NamedMap<G::Map>>)> {
    let Some(count) = generated else {
        return Ok((dir.display().to_string(), load_dir(&dir, G::parse_map)?));
    };
    let named: Vec<NamedMap<G::Map>> = arena::generated_maps::<G>(count, seed)
        .into_iter()
        .enumerate()
        .map(|(i, map)| NamedMap {
            name: format!("generated{:05} (seed {seed})", i + 1),
            map,
        })
        .collect();
    Ok((format!("{} generated maps", named.len()), named))
}

/// A progress bar over games counted by the arena, for `match` and
/// `tournament`; `note` describes the games so far.
pub fn games_bar(
    quiet: bool,
    stage: String,
    total: Option<u64>,
    note: impl Fn(u64) -> String + Send + 'static,
) -> progress::Bar {
    let base = arena::games_finished();
    let started = Instant::now();
    progress::Bar::start(progress::wanted(quiet), move || {
        let done = arena::games_finished().saturating_sub(base);
        let elapsed = started.elapsed().as_secs_f64();
        let rate = (elapsed > 0.2 && done > 0).then(|| done as f64 / elapsed);
        let left = match (total, rate) {
            (Some(t), Some(r)) => Some(t.saturating_sub(done) as f64 / r),
            _ => None,
        };
        progress::Line {
            stage: stage.clone(),
            done,
            total,
            games_per_second: rate,
            seconds_left: left,
            note: note(done),
        }
        .render()
    })
}
