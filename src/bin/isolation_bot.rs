//! isolation-bot: the Isolation submission, speaking the contest protocol on
//! stdin/stdout with the weights frozen into tuned.rs. Standard library only.
//!
//! Usage: `isolation-bot [--budget-ms N]` (default: tuned.rs's MOVE_BUDGET_MS).

fn main() {
    gridtune::submission::serve::<gridtune::games::isolation::Isolation>();
}
