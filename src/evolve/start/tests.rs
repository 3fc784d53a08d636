use super::*;
use crate::games::isolation::Isolation;
use crate::games::prelude::*;

#[test]
fn folder_stamps_are_utc_dates_and_times() {
    let at = |s: i64| Timestamp::from_second(s).expect("in range");
    assert_eq!(folder_stamp(Timestamp::UNIX_EPOCH), "19700101-000000");
    assert_eq!(folder_stamp(at(951_825_599)), "20000229-115959");
    assert_eq!(folder_stamp(at(1_700_000_000)), "20231114-221320");
    assert_eq!(folder_stamp(at(4_102_444_799)), "20991231-235959");
}

#[test]
fn a_default_folder_is_named_after_game_date_and_seed() {
    assert_eq!(
        default_folder("slime", 42, Timestamp::UNIX_EPOCH),
        PathBuf::from("reports/slime/19700101-000000-seed42")
    );
}

#[test]
fn the_embedded_config_takes_the_overrides_and_absolute_paths() {
    let plain = resolve_config::<Isolation>(None, &Overrides::default()).expect("embedded config");
    let overrides = Overrides {
        games: Some(plain.games + 7),
        eval_every: Some(3),
        seed: Some(plain.seed + 1),
    };
    let config = resolve_config::<Isolation>(None, &overrides).expect("embedded config");
    assert_eq!(config.game, "isolation");
    assert_eq!(config.games, plain.games + 7);
    assert_eq!(config.eval_every, 3);
    assert_eq!(config.seed, plain.seed + 1);
    assert!(config.seed_genome.is_absolute(), "{}", config.seed_genome.display());
    assert!(config.train_maps.starts_with(env!("CARGO_MANIFEST_DIR")));
}

#[test]
fn an_override_the_config_refuses_is_bad_input_naming_the_origin() {
    let overrides = Overrides {
        games: Some(0),
        ..Overrides::default()
    };
    let e = resolve_config::<Isolation>(None, &overrides).expect_err("zero games");
    assert_eq!(crate::error::exit_code(&e), 2);
    assert_eq!(
        format!("{e:#}"),
        "genomes/isolation/evolve.ron (embedded) with command-line overrides: games must be at least 1"
    );
}

#[test]
fn a_config_file_of_another_game_is_refused() {
    let dir = std::env::temp_dir().join(format!("gridtune-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let path = dir.join("ataxx.ron");
    // Isolation's judges, so that only the game is wrong.
    let text = Isolation::DEFAULT_CONFIG.replace("game: \"isolation\"", "game: \"ataxx\"");
    assert_ne!(text, Isolation::DEFAULT_CONFIG);
    std::fs::write(&path, text).expect("config written");
    let e = resolve_config::<Isolation>(Some(&path), &Overrides::default()).expect_err("another game");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(crate::error::exit_code(&e), 2);
    assert_eq!(
        format!("{e:#}"),
        format!("{}: config is for `ataxx`, not `isolation`", path.display())
    );
}
