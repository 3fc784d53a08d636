//! Property tests of the file parsers: genomes, evolve configs, the four map
//! formats, checkpoints, replays and bots files. The targets and generators
//! are in tests/props/mod.rs; `PROPTEST_CASES` raises the case count.

#[macro_use]
mod props;

properties!(1000;
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
use gridtune::games::prelude::*;
use gridtune::games::slime::Slime;
use gridtune::replay;

/// The first seed replay of `G` with `edit` applied; `show`'s error.
fn show_edited<G: GameKit>(edit: impl Fn(&str) -> String) -> String {
    let text = edit(&props::replay_seeds::<G>()[0]);
    let parsed = replay::parse(&text, props::ORIGIN).expect("the edit keeps the replay readable");
    let message = replay::show::<G>(&parsed, props::ORIGIN)
        .expect_err("the edited replay is refused")
        .to_string();
    assert!(message.starts_with(props::ORIGIN), "{message}");
    message
}

#[test]
fn a_replay_turn_by_a_seat_not_at_the_table_is_refused() {
    let message = show_edited::<Isolation>(|t| t.replacen("turn 2 seat 1", "turn 2 seat 2", 1));
    assert!(
        message.contains("turn 2: seat 2 played, but seat 1 is to move"),
        "{message}"
    );
}

#[test]
fn a_replay_turn_by_the_seat_not_to_move_is_refused() {
    let message = show_edited::<Isolation>(|t| t.replacen("turn 2 seat 1", "turn 2 seat 0", 1));
    assert!(
        message.contains("turn 2: seat 0 played, but seat 1 is to move"),
        "{message}"
    );
}

#[test]
fn a_replay_pass_by_a_seat_that_cannot_pass_is_refused() {
    let message = show_edited::<Ataxx>(|t| {
        let first = t.lines().find(|l| l.starts_with("  played ")).unwrap();
        t.replacen(first, "  played pass", 1)
    });
    assert!(message.contains("the seat cannot pass"), "{message}");
}

#[test]
fn a_simultaneous_replay_turn_missing_a_bike_is_refused() {
    let message = show_edited::<LightCycles>(|t| {
        let at = t.find("turn 1 seat 1 ms").unwrap();
        let end = at + t[at..].find("turn 2 seat 0").unwrap();
        format!("{}{}", &t[..at], &t[end..])
    });
    assert!(
        message.contains("turn 1: seat 0 played, but seat 0 1 is to move"),
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
    assert!(message.contains("turn 1 seat 0: no move and no fault"), "{message}");
}

#[test]
fn the_seed_replays_show_without_error() {
    // The mutated-replay properties start from these: they must be valid.
    fn check<G: GameKit>() {
        for text in props::replay_seeds::<G>() {
            let replay = replay::parse(&text, props::ORIGIN).unwrap();
            replay::show::<G>(&replay, props::ORIGIN).unwrap();
        }
    }
    check::<Isolation>();
    check::<LightCycles>();
    check::<Slime>();
    check::<Ataxx>();
}

// Issue 13's defects that other branches fix. Each is ignored here until
// that fix is merged; then it should pass and lose its `ignore`.

const KNOWN: &str = "issue 13: fixed on another branch";

fn default_genome() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/genomes/isolation/default.ron")).unwrap()
}

#[test]
fn a_genome_with_a_weight_given_twice_is_refused_naming_it() {
    let text = default_genome().replacen(
        "\"own_mobility\": 10,",
        "\"own_mobility\": 10,\n\"own_mobility\": 12,",
        1,
    );
    let message = gridtune::genome::Genome::parse(&text, "isolation", Isolation::PARAMS).expect_err(KNOWN);
    assert!(message.contains("own_mobility"), "{message}");
}

#[test]
fn a_genome_with_a_byte_order_mark_is_read() {
    let plain = gridtune::genome::Genome::parse(&default_genome(), "isolation", Isolation::PARAMS).unwrap();
    let marked = format!("\u{feff}{}", default_genome());
    assert_eq!(
        gridtune::genome::Genome::parse(&marked, "isolation", Isolation::PARAMS),
        Ok(plain)
    );
}

#[test]
fn an_ataxx_map_with_every_free_square_walled_is_refused() {
    let text = "0#####1\n#######\n#######\n#######\n#######\n#######\n1#####0\n";
    assert!(Ataxx::parse_map(text, props::ORIGIN).is_err(), "{KNOWN}");
}

#[test]
fn a_slime_map_with_two_slimes_of_one_player_is_refused() {
    let mut rows = vec![".".repeat(8); 8];
    rows[0] = "1......2".into();
    rows[7] = "3.....44".into();
    assert!(
        Slime::parse_map(&(rows.join("\n") + "\n"), props::ORIGIN).is_err(),
        "{KNOWN}"
    );
}

/// Every number of the default config replaced in turn by a value no run
/// can use: each such config is refused, naming the file.
#[test]
fn no_config_number_is_nan_infinite_or_overflowing() {
    let text = Isolation::DEFAULT_CONFIG;
    for bad in ["NaN", "inf", "-inf", "1e308"] {
        for m in 0..text.matches(|c: char| c.is_ascii_digit()).count() {
            let edited = props::apply(text, &props::Mutation::Number(m, bad));
            if let Ok(config) =
                gridtune::evolve::config::EvolveConfig::parse(&edited, props::ORIGIN, &Isolation::judge_names())
            {
                let printed = config.to_ron();
                let weights: f64 = config.judges.iter().map(|j| j.1).sum();
                assert!(
                    !printed.contains("NaN") && !printed.contains("inf") && weights.is_finite(),
                    "accepted:\n{printed}"
                );
            }
        }
    }
}

#[test]
fn a_replay_reads_the_same_with_or_without_its_last_newline_after_a_carriage_return() {
    let text = props::replay_seeds::<Isolation>()[0].replace('\n', "\r\n");
    let whole = replay::parse(&text, props::ORIGIN).unwrap();
    let cut = replay::parse(text.strip_suffix('\n').unwrap(), props::ORIGIN).unwrap();
    // The last line kept its `\r` when no newline followed it.
    assert_eq!(whole, cut);
}
