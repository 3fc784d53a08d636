//! Property tests of the file parsers: genomes, evolve configs, the four map
//! formats, checkpoints, replays and bots files. The targets and generators
//! are in tests/props/mod.rs; `PROPTEST_CASES` raises the case count.

#[macro_use]
mod props;

properties!(400;
    genome_isolation, genome_lightcycles, genome_slime, genome_ataxx,
    config_isolation, config_lightcycles, config_slime, config_ataxx,
    map_isolation, map_lightcycles, map_slime, map_ataxx,
    checkpoint,
    replay_isolation, replay_lightcycles, replay_slime, replay_ataxx,
    bots_file,
);

// Inputs the properties found, kept as named cases: each edit of a valid
// replay made `replay show` panic.

use gridtune::games::ataxx::Ataxx;
use gridtune::games::isolation::Isolation;
use gridtune::games::lightcycles::LightCycles;
use gridtune::games::slime::Slime;
use gridtune::games::GameKit;
use gridtune::replay;

/// The first seed replay of `G` with `edit` applied; `show`'s error.
fn show_edited<G: GameKit>(edit: impl Fn(&str) -> String) -> String {
    let text = edit(&props::replay_seeds::<G>()[0]);
    let parsed = replay::parse(&text, props::ORIGIN).expect("the edit keeps the replay readable");
    let message = replay::show::<G>(&parsed, props::ORIGIN).expect_err("the edited replay is refused");
    assert!(message.starts_with(props::ORIGIN), "{message}");
    message
}

#[test]
fn a_replay_turn_by_a_seat_not_at_the_table_is_refused() {
    let message = show_edited::<Isolation>(|t| t.replacen("turn 2 seat 1", "turn 2 seat 2", 1));
    assert!(message.contains("turn 2: seat 2 is not at the table"), "{message}");
}

#[test]
fn a_replay_turn_by_the_seat_not_to_move_is_refused() {
    let message = show_edited::<Isolation>(|t| t.replacen("turn 2 seat 1", "turn 2 seat 0", 1));
    assert!(
        message.contains("turn 2: the record has seats 0 acting, the game has 1"),
        "{message}"
    );
}

#[test]
fn a_replay_pass_by_a_seat_that_cannot_pass_is_refused() {
    let message = show_edited::<Ataxx>(|t| {
        let first = t.lines().find(|l| l.starts_with("  played ")).unwrap();
        t.replacen(first, "  played pass", 1)
    });
    assert!(message.contains("this seat cannot pass"), "{message}");
}

#[test]
fn a_simultaneous_replay_turn_missing_a_bike_is_refused() {
    let message = show_edited::<LightCycles>(|t| {
        let at = t.find("turn 1 seat 1 ms").unwrap();
        let end = at + t[at..].find("turn 2 seat 0").unwrap();
        format!("{}{}", &t[..at], &t[end..])
    });
    assert!(
        message.contains("turn 1: the record has seats 0 acting, the game has 0, 1"),
        "{message}"
    );
}

#[test]
fn a_replay_turn_after_the_end_is_refused() {
    let message = show_edited::<LightCycles>(|t| format!("{t}turn 9999 seat 0 ms 0\n"));
    assert!(message.contains("turn 9999 comes after the game ended"), "{message}");
}

#[test]
fn a_slime_replay_turn_without_its_move_is_refused() {
    let message = show_edited::<Slime>(|t| {
        let first = t.lines().find(|l| l.starts_with("  played ")).unwrap();
        t.replacen(&format!("{first}\n"), "", 1)
    });
    assert!(message.contains("turn 1 seat 0: no `played` line"), "{message}");
}
