//! ataxx-bot: the Ataxx submission for CodinGame's protocol, with the weights
//! frozen into tuned.rs. Standard library only.
//!
//! Reads the `id` line, then each turn 7 rows, `lastAction`, `actionsCount`
//! and the actions; answers with one of the listed actions (`b7` or `a7c7`).
//! The row order is taken from whichever reading the action list agrees
//! with. Budget: 1000 ms on the first turn, then tuned.rs's MOVE_BUDGET_MS;
//! `--budget-ms N` sets every turn's, the first included.

fn main() {
    gridtune::submission::serve::<gridtune::games::ataxx::Ataxx>();
}
