//! Property tests of what coordinators and workers read from the network
//! (src/distributed/wire.rs): batches (read, then decoded against the game)
//! and results (read, then checked against their batch). Each input is
//! either a value that reads back the same or an error that names the batch
//! or result, never a panic. The targets are in tests/props/mod.rs.

#[macro_use]
mod props;

properties!(500; batch_isolation, batch_slime, result_isolation);

use gridtune::distributed::wire::{self, WireError};
use gridtune::games::isolation::Isolation;

#[test]
fn a_batch_of_another_version_is_left_for_another_worker() {
    let mut batch = props::seed_batch::<Isolation>();
    batch.gridtune = "0.0.1".into();
    let e = wire::read_batch(&batch.to_json()).unwrap_err();
    assert!(e.for_another_worker(), "{e}");
    assert!(e.to_string().contains("was made by gridtune 0.0.1"), "{e}");
}

#[test]
fn an_oversized_batch_is_refused_before_it_is_parsed() {
    let text = vec![b' '; wire::MAX_MESSAGE_BYTES + 1];
    assert!(matches!(wire::read_batch(&text), Err(WireError::TooLarge { .. })));
}

#[test]
fn program_bots_need_allow_programs() {
    let mut batch = props::seed_batch::<Isolation>();
    batch.bots.push(wire::WireBot::Program {
        label: "p".into(),
        program: "/bin/true".into(),
        args: vec![],
        dir: None,
        first_turn_ms: 1000,
        turn_ms: 100,
        uai: None,
    });
    let e = batch.decode::<Isolation>(false).err().expect("refused");
    assert!(
        e.for_another_worker() && e.to_string().contains("--allow-programs"),
        "{e}"
    );
    assert!(batch.decode::<Isolation>(true).is_ok());
}

#[test]
fn a_seat_naming_a_missing_bot_is_refused_with_its_game() {
    let mut batch = props::seed_batch::<Isolation>();
    batch.games[1].seats[0] = 99;
    let e = batch.decode::<Isolation>(false).err().expect("refused");
    assert!(e.to_string().contains("game 1: bot 99 of"), "{e}");
}

#[test]
fn a_result_with_a_game_missing_is_refused() {
    let batch = props::seed_batch::<Isolation>();
    let mut result = wire::BatchResult::new(&batch.id, "w", &[], 0.0);
    result.games.clear();
    let e = result.check_against(&batch, 2).unwrap_err();
    assert!(e.to_string().contains("0 games for a batch of 3"), "{e}");
}
