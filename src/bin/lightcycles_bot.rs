//! lightcycles-bot: the Light Cycles submission, speaking the contest
//! protocol on stdin/stdout with the weights frozen into tuned.rs. Standard
//! library only.
//!
//! Usage: `lightcycles-bot [--budget-ms N]` (default: tuned.rs's MOVE_BUDGET_MS).

fn main() {
    gridtune::submission::serve::<gridtune::games::lightcycles::LightCycles>();
}
