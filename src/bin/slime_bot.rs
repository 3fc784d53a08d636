//! slime-bot: the Slime submission. The control program starts it once per
//! turn with the board in its one argument (`P,row,row,...`); it prints
//! `from_row from_col to_row to_col` and a newline, with the weights frozen
//! into tuned.rs. Standard library only.
//!
//! Usage: `slime-bot [--budget-ms N] ARGUMENT` (either order; default:
//! tuned.rs's MOVE_BUDGET_MS for the whole run, start-up included).

fn main() {
    gridtune::submission::serve::<gridtune::games::slime::Slime>();
}
