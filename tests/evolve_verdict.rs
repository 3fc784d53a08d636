//! The verdict that ends every evolve run (issue 16): the champion head to
//! head against the start genome, and against genomes/<game>/best.ron when
//! the working folder has one, at the submission bot's time per move. Its
//! lines are the run's last, and it is in report.html, generations.csv,
//! verdict.csv and verdict.ron; `verdict: (games: 0)` skips it; a run resumed
//! after it reads it back, and a run killed during it plays it again.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;
use common::{gridtune, root, scratch, stderr, stdout};

/// A run of a few seconds whose verdict plays `games` games a match.
fn config(dir: &Path, game: &str, judges: &str, games: usize) -> PathBuf {
    let text = format!(
        r#"(
    game: "{game}", seed: 5, games: 60, eval_every: 1,
    seed_genome: "{root}/genomes/{game}/default.ron",
    train_maps: "{root}/maps/{game}/train",
    holdout_maps: "{root}/maps/{game}/holdout",
    judges: [{judges}],
    peer_share: 0.2, nodes: 100, holdout_rounds: 1,
    ga: (twin_pairs: 2, max_rounds: 2),
    verdict: (games: {games}, sprt: (0, 10)),
)"#,
        root = root().display()
    );
    let path = dir.join(format!("{game}-{games}.ron"));
    std::fs::write(&path, text).unwrap();
    path
}

const ISOLATION_JUDGES: &str = r#"("mobility", 1.0), ("alphabeta", 1.0)"#;

fn evolve(game: &str, config: &Path, run: &Path, cwd: &Path) -> Output {
    let o = gridtune(
        &[
            "evolve",
            "--game",
            game,
            "--quiet",
            "--config",
            config.to_str().unwrap(),
            "--out",
            run.to_str().unwrap(),
        ],
        cwd,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The generations table's cell `column` on its last row.
fn last_row_cell(run: &Path, column: &str) -> String {
    let csv = read(&run.join("generations.csv"));
    let lines: Vec<&str> = csv.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == column)
        .unwrap_or_else(|| panic!("{column}: {csv}"));
    let last: Vec<&str> = lines[lines.len() - 1].split(',').collect();
    assert_eq!(last.len(), header.len(), "{csv}");
    assert_eq!(header.last(), Some(&"seconds"), "seconds stays the last column");
    last[at].to_string()
}

/// Checks a verdict line's figures: Elo with its interval, games, W/D/L,
/// the SPRT; returns the games it counts.
fn check_line(line: &str, opponent: &str, genome: &str) -> u32 {
    let prefix = format!("verdict vs {opponent} genome (");
    assert!(line.starts_with(&prefix) && line.contains(genome), "{line}");
    assert!(
        line.contains("Elo [") && line.contains("at 100 ms a move; SPRT [0, 10] "),
        "{line}"
    );
    let games: u32 = line
        .split(" over ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let wdl = line.split("(W ").nth(1).unwrap().split(')').next().unwrap();
    let counts: Vec<u32> = wdl.split(['D', 'L', ' ']).filter_map(|c| c.parse().ok()).collect();
    assert_eq!(counts.len(), 3, "{line}");
    assert_eq!(counts.iter().sum::<u32>(), games, "{line}");
    games
}

#[test]
fn a_run_ends_with_its_verdict_in_every_output_and_a_resume_reads_it_back() {
    let dir = scratch("verdict-start");
    let config = config(&dir, "isolation", ISOLATION_JUDGES, 4);
    let run = dir.join("run");
    let o = evolve("isolation", &config, &run, &dir);
    let out = stdout(&o);
    // No genomes/isolation/best.ron in this folder: the start genome alone.
    let last = out.lines().last().unwrap();
    assert_eq!(out.matches("verdict vs").count(), 1, "{out}");
    let games = check_line(last, "start", "genomes/isolation/default.ron");
    assert!(games == 2 || games == 4, "{last}");

    let html = read(&run.join("report.html"));
    assert!(html.contains("<table id=\"verdict-table\">"), "the verdict's section");
    assert!(html.contains("<td class=\"l\">start</td>"), "its row");
    assert_eq!(last_row_cell(&run, "verdict_start_games"), games.to_string());
    assert_eq!(last_row_cell(&run, "verdict_promoted_games"), "");
    let elo: f64 = last_row_cell(&run, "verdict_start_elo").parse().unwrap();
    assert!(last.contains(&format!("{elo:+.1} Elo")), "{elo} in {last}");
    let csv = read(&run.join("verdict.csv"));
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(csv.lines().nth(1).unwrap().starts_with("start,"), "{csv}");

    // Resumed after the verdict: read back, not played again.
    let ron = read(&run.join("verdict.ron"));
    let o = gridtune(
        &[
            "evolve",
            "--game",
            "isolation",
            "--quiet",
            "--resume",
            run.to_str().unwrap(),
        ],
        &dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().last(), Some(last), "{}", stdout(&o));
    assert_eq!(read(&run.join("verdict.ron")), ron, "the same verdict, seconds and all");
    let log = read(&run.join("run.log"));
    assert_eq!(log.matches("verdict match started").count(), 1, "{log}");
    assert!(log.contains("verdict read back"), "{log}");
}

#[test]
fn games_zero_skips_the_verdict() {
    let dir = scratch("verdict-off");
    let config = config(&dir, "isolation", ISOLATION_JUDGES, 0);
    let run = dir.join("run");
    let out = stdout(&evolve("isolation", &config, &run, &dir));
    assert!(!out.contains("verdict vs"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("report: "), "{out}");
    assert!(!run.join("verdict.ron").exists() && !run.join("verdict.csv").exists());
    assert_eq!(last_row_cell(&run, "verdict_start_elo"), "");
    assert!(read(&run.join("report.html")).contains("The config skips the verdict"));
}

/// The repository's promoted genome of `game` (tuned weights, unlike the
/// start genome's) as the working folder's genomes/<game>/best.ron.
fn promoted_genome(cwd: &Path, game: &str) {
    let promoted = read(&root().join(format!("genomes/{game}/best.ron")));
    let start = read(&root().join(format!("genomes/{game}/default.ron")));
    let weights = |text: &str| {
        text.lines()
            .filter(|l| l.contains("\": "))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_ne!(
        weights(&promoted),
        weights(&start),
        "the promoted genome is the start genome"
    );
    let dest = cwd.join(format!("genomes/{game}/best.ron"));
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    std::fs::write(dest, promoted).unwrap();
}

#[test]
fn a_promoted_genome_in_the_working_folder_is_played_too() {
    let dir = scratch("verdict-promoted");
    promoted_genome(&dir, "isolation");
    let config = config(&dir, "isolation", ISOLATION_JUDGES, 2);
    let run = dir.join("run");
    let out = stdout(&evolve("isolation", &config, &run, &dir));
    let lines: Vec<&str> = out.lines().collect();
    let [start, promoted] = [lines[lines.len() - 2], lines[lines.len() - 1]];
    assert_eq!(check_line(start, "start", "default.ron"), 2);
    assert_eq!(check_line(promoted, "promoted", "genomes/isolation/best.ron"), 2);
    assert_eq!(last_row_cell(&run, "verdict_promoted_games"), "2");
    assert!(read(&run.join("report.html")).contains("<td class=\"l\">promoted</td>"));

    // A promoted genome with the start genome's weights is not played twice.
    std::fs::copy(
        root().join("genomes/isolation/default.ron"),
        dir.join("genomes/isolation/best.ron"),
    )
    .unwrap();
    let out = stdout(&evolve("isolation", &config, &dir.join("same"), &dir));
    assert_eq!(out.matches("verdict vs").count(), 1, "{out}");
}

#[test]
fn slime_plays_its_verdict_at_a_table_with_two_judges() {
    let dir = scratch("verdict-slime");
    promoted_genome(&dir, "slime");
    let judges = r#"("greedy_slime", 1.0), ("jumper", 1.0), ("lichen", 1.0)"#;
    let config = config(&dir, "slime", judges, 2);
    let run = dir.join("run");
    let out = stdout(&evolve("slime", &config, &run, &dir));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(check_line(lines[lines.len() - 2], "start", "default.ron"), 2);
    assert_eq!(
        check_line(lines[lines.len() - 1], "promoted", "genomes/slime/best.ron"),
        2
    );
}

#[test]
fn a_run_killed_during_its_verdict_plays_it_again_on_resume() {
    let dir = scratch("verdict-killed");
    let config = config(&dir, "isolation", ISOLATION_JUDGES, 4);
    let run = dir.join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridtune"))
        .args(["evolve", "--game", "isolation", "--quiet", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(&run)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let in_verdict = || std::fs::read_to_string(run.join("run.log")).is_ok_and(|l| l.contains("verdict match started"));
    while !in_verdict() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the run never reached its verdict"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before its verdict was seen"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !run.join("verdict.ron").exists(),
        "killed before its verdict was written"
    );

    let o = gridtune(
        &[
            "evolve",
            "--game",
            "isolation",
            "--quiet",
            "--resume",
            run.to_str().unwrap(),
        ],
        &dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    check_line(stdout(&o).lines().last().unwrap(), "start", "default.ron");
    assert!(run.join("verdict.ron").exists());
    let log = read(&run.join("run.log"));
    assert_eq!(log.matches("verdict match started").count(), 2, "{log}");
    assert!(!log.contains("verdict read back"), "{log}");
}
