//! The evolve run against careless and hostile input (issue 13): a run
//! folder is never overwritten, every input is checked before the folder is
//! touched, a judge that cannot play is caught, a damaged checkpoint is
//! refused with the wrong field named, and each error says what is wrong.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{root, scratch, stderr, stdout};

/// A config small enough for a run of a few seconds; `judge` is the second
/// judge (a clone's name or a program spec), `extra` more top-level fields.
fn config_text(judge: &str, ga: &str) -> String {
    format!(
        r#"(
    game: "isolation", seed: 5, games: 60, eval_every: 1,
    seed_genome: "{root}/genomes/isolation/default.ron",
    train_maps: "{root}/maps/isolation/train",
    holdout_maps: "{root}/maps/isolation/holdout",
    judges: [("mobility", 1.0), ("{judge}", 1.0)],
    peer_share: 0.2, nodes: 100, holdout_rounds: 1,
    ga: (twin_pairs: 2, max_rounds: 2{ga}),
    verdict: (games: 0),
)"#,
        root = root().display()
    )
}

fn write_config(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn evolve(args: &[&str], cwd: &Path) -> Output {
    let mut all = vec!["evolve", "--game", "isolation", "--quiet"];
    all.extend_from_slice(args);
    common::gridtune(&all, cwd)
}

fn ok(o: &Output) {
    assert!(o.status.success(), "stdout: {}\nstderr: {}", stdout(o), stderr(o));
}

fn bad_input(o: &Output, says: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for s in says {
        assert!(err.contains(s), "expected `{s}` in: {err}");
    }
    assert!(!err.contains("Some("), "{err}");
}

/// Every file of a folder with its bytes, to show nothing was touched.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    files.sort();
    files
}

/// A finished tiny run in `dir/name`.
fn finished_run(dir: &Path, name: &str) -> PathBuf {
    let config = write_config(dir, &format!("{name}.ron"), &config_text("random_safe", ""));
    let run = dir.join(name);
    ok(&evolve(&["--config", &config, "--out", run.to_str().unwrap()], dir));
    run
}

#[test]
fn a_folder_holding_a_run_is_refused_and_left_as_it_was() {
    let dir = scratch("hardening-refuse");
    let run = finished_run(&dir, "run");
    let before = snapshot(&run);
    let config = write_config(&dir, "other.ron", &config_text("random_safe", ""));
    let out = run.to_str().unwrap();

    // The same folder again, with good input and with a budget too small:
    // refused, pointing to --resume, and not one byte of the run changes.
    let o = evolve(&["--config", &config, "--out", out, "--seed", "8"], &dir);
    bad_input(&o, &["holds a run already", "--resume"]);
    let o = evolve(&["--config", &config, "--out", out, "--games", "20"], &dir);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(snapshot(&run), before, "the old run was rewritten");
    // The old run still resumes to its own result.
    ok(&evolve(&["--resume", out], &dir));
    assert_eq!(
        std::fs::read(run.join("config.ron")).unwrap(),
        before.iter().find(|(p, _)| p.ends_with("config.ron")).unwrap().1
    );

    // A folder with someone else's file is refused too; an empty one is used.
    let mine = dir.join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep me").unwrap();
    let o = evolve(&["--config", &config, "--out", mine.to_str().unwrap()], &dir);
    bad_input(&o, &["is not empty", "notes.txt"]);
    assert_eq!(std::fs::read_to_string(mine.join("notes.txt")).unwrap(), "keep me");
    assert_eq!(std::fs::read_dir(&mine).unwrap().count(), 1);
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    ok(&evolve(&["--config", &config, "--out", empty.to_str().unwrap()], &dir));
    assert!(empty.join("best.ron").is_file());
}

#[test]
fn bad_input_is_refused_before_the_run_folder_is_created() {
    let dir = scratch("hardening-inputs");
    let fresh = dir.join("fresh");
    let out = fresh.to_str().unwrap();
    let good = config_text("random_safe", "");
    // A seed genome whose scale anchor is 0 has no scale for the GA to keep.
    let hand_set = std::fs::read_to_string(root().join("genomes/isolation/default.ron")).unwrap();
    let unscaled = dir.join("unscaled.ron");
    std::fs::write(
        &unscaled,
        hand_set.replace("\"own_mobility\": 10", "\"own_mobility\": 0"),
    )
    .unwrap();
    let default_genome = root().join("genomes/isolation/default.ron").display().to_string();
    let cases: Vec<(String, Vec<&str>, Vec<&str>)> = vec![
        // A map folder, a seed genome and a bots file that do not exist.
        (
            good.replace("maps/isolation/holdout", "maps/isolation/nowhere"),
            vec![],
            vec!["nowhere"],
        ),
        (
            good.replace("genomes/isolation/default.ron", "genomes/isolation/nothing.ron"),
            vec![],
            vec!["nothing.ron"],
        ),
        (
            good.replace(&default_genome, &unscaled.display().to_string()),
            vec![],
            vec!["unscaled.ron", "`own_mobility` is 0", "fix_scale: false"],
        ),
        // Defect 5: numbers that overflow or are not numbers.
        (
            good.replace("(\"mobility\", 1.0)", "(\"mobility\", 1e308)"),
            vec![],
            vec!["judge `mobility` has weight 1e308", "above 0, up to"],
        ),
        (
            good.replace("(\"mobility\", 1.0)", "(\"mobility\", -0.0)"),
            vec![],
            vec!["judge `mobility` has weight", "above 0"],
        ),
        (
            config_text("random_safe", ", max_offspring_loss: NaN"),
            vec![],
            vec!["max_offspring_loss = NaN"],
        ),
        (
            config_text("random_safe", ", race_z: inf"),
            vec![],
            vec!["race_z = inf"],
        ),
        // Bounds of the promotion test, read before the run, not after it.
        (
            good.clone(),
            vec!["--promote", "--promote-sprt", "10,0"],
            vec!["--promote-sprt 10,0", "less than"],
        ),
        (
            good.clone(),
            vec!["--promote-sprt", "0,nan"],
            vec!["--promote-sprt 0,nan"],
        ),
        // Defect 9: a budget with no room for one generation says the least.
        (
            good.clone(),
            vec!["--games", "20"],
            vec!["games = 20", "at least 45 games"],
        ),
    ];
    for (i, (text, flags, says)) in cases.iter().enumerate() {
        let config = write_config(&dir, &format!("case{i}.ron"), text);
        let mut args = vec!["--config", config.as_str(), "--out", out];
        args.extend(flags);
        let o = evolve(&args, &dir);
        bad_input(&o, says);
        assert!(!fresh.exists(), "case {i} created the run folder: {}", stderr(&o));
    }
    // The embedded default config too: `--games 100` is below its least.
    let o = evolve(&["--games", "100", "--out", out], &dir);
    bad_input(&o, &["games = 100", "at least"]);
    assert!(!fresh.exists());
}

#[test]
fn a_judge_that_cannot_run_is_refused_and_one_that_fails_most_games_stops_the_run() {
    let dir = scratch("hardening-judges");
    let fresh = dir.join("fresh");
    for judge in ["sh:/nonexistent/bot", "cmd:/bin/false"] {
        let config = write_config(&dir, "missing.ron", &config_text(judge, ""));
        let o = evolve(&["--config", &config, "--out", fresh.to_str().unwrap()], &dir);
        bad_input(&o, &[&format!("judge `{judge}` cannot play"), "crash on turn 1"]);
        assert!(!fresh.exists());
        if judge.starts_with("sh:") {
            assert!(
                stderr(&o).contains("not found"),
                "the shell's own message: {}",
                stderr(&o)
            );
        }
    }

    // A bot that plays its test game, then crashes in every game after it.
    let script = dir.join("flaky.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n[ -e \"{flag}\" ] && exit 3\ntouch \"{flag}\"\nexec {bot} --budget-ms 5\n",
            flag = dir.join("played").display(),
            bot = env!("CARGO_BIN_EXE_isolation-bot")
        ),
    )
    .unwrap();
    make_executable(&script);
    let judge = format!("cmd:{}", script.display());
    let config = write_config(&dir, "flaky.ron", &config_text(&judge, ""));
    let run = dir.join("flaky");
    let o = evolve(&["--config", &config, "--out", run.to_str().unwrap()], &dir);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "a runtime failure: {err}");
    assert!(
        err.contains(&format!("judge `{judge}` failed")) && err.contains("crashes") && err.contains("exited"),
        "{err}"
    );
    let log = std::fs::read_to_string(run.join("run.log")).unwrap();
    assert!(log.contains(&format!("judge `{judge}` failed")), "{log}");
    assert!(
        !run.join("checkpoint.ron").exists(),
        "no generation of a broken judge is kept"
    );
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn judge_faults_are_counted_and_shown_in_the_report() {
    let dir = scratch("hardening-faults");
    // Every fourth game after the test game crashes: the run goes on, and
    // says so. The bot thinks 5 ms a move, so that a busy machine adds no
    // timeouts to the crashes.
    let script = dir.join("sometimes.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nn=$(cat \"{count}\" 2>/dev/null || echo 0)\necho $((n + 1)) > \"{count}\"\n\
             [ $((n % 4)) = 3 ] && exit 3\nexec {bot} --budget-ms 5\n",
            count = dir.join("count").display(),
            bot = env!("CARGO_BIN_EXE_isolation-bot")
        ),
    )
    .unwrap();
    make_executable(&script);
    let judge = format!("cmd:{}", script.display());
    let config = write_config(&dir, "faulty.ron", &config_text(&judge, ""));
    let run = dir.join("run");
    ok(&evolve(&["--config", &config, "--out", run.to_str().unwrap()], &dir));
    let csv = std::fs::read_to_string(run.join("judge_faults.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("generation,judge,games,faulted,timeouts,crashes,invalid_lines,illegal_moves")
    );
    let (mut games, mut crashes) = (0u64, 0u64);
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        if cells[1] == judge {
            games += cells[2].parse::<u64>().unwrap();
            crashes += cells[5].parse::<u64>().unwrap();
        } else {
            assert_eq!(cells[3], "0", "a built-in judge never faults: {line}");
        }
    }
    assert!(games > 0 && crashes > 0 && 2 * crashes < games, "{csv}");
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(
        html.contains("id=\"faults-table\"") && html.contains("id=\"faults-warning\""),
        "the report shows the faults"
    );
    let log = std::fs::read_to_string(run.join("run.log")).unwrap();
    assert!(
        log.contains(&format!("judge `{judge}` failed")) && log.contains("crash"),
        "{log}"
    );
    // `report` rebuilds the same page from the folder.
    let o = common::gridtune(&["report", run.to_str().unwrap()], &dir);
    ok(&o);
    assert_eq!(std::fs::read_to_string(run.join("report.html")).unwrap(), html);
}

/// The checkpoint's text with the first line starting with `key` (or, with
/// `next`, the line after it) replaced by `line`.
fn edited(text: &str, key: &str, next: bool, line: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.trim_start().starts_with(key)).unwrap() + next as usize;
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[at] = line.to_string();
    out.join("\n") + "\n"
}

#[test]
fn a_damaged_checkpoint_is_refused_with_its_field_named() {
    let dir = scratch("hardening-checkpoint");
    let run = finished_run(&dir, "run");
    let path = run.join("checkpoint.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let before = snapshot(&run);
    let max = "18446744073709551615";
    let cases = [
        (edited(&text, "mean: [", true, "NaN,"), "`islands[0].mean[0]` = NaN"),
        (
            edited(&text, "spent:", false, &format!("spent: {max},")),
            "`spent` = 18446744073709551615",
        ),
        (
            edited(&text, "period_seconds:", true, &format!("games: {max},")),
            "`games` = 18446744073709551615",
        ),
        (
            edited(&text, "sigma:", false, "sigma: -1.0,"),
            "`islands[0].sigma` = -1",
        ),
        (
            edited(&text, "judge_rates: [", true, "7.5,"),
            "`history[0].judge_rates[0]` = 7.5",
        ),
        (
            edited(&text, "train_score:", false, "train_score: inf,"),
            "`history[0].train_score` = inf",
        ),
        (
            edited(&text, "champion_elo:", false, "champion_elo: NaN,"),
            "`history[0].champion_elo` = NaN",
        ),
        (
            edited(&text, "tail_weight:", false, "tail_weight: -2.0,"),
            "`tail_weight` = -2",
        ),
        (
            edited(&text, "generation:", false, "generation: 999,"),
            "`generation` = 999",
        ),
        (text[..text.len() / 2].to_string(), "not a checkpoint"),
    ];
    for (broken, says) in cases {
        std::fs::write(&path, &broken).unwrap();
        let o = evolve(&["--resume", run.to_str().unwrap()], &dir);
        bad_input(&o, &[&path.display().to_string(), says]);
        // `report` reads the same file, and refuses it the same way.
        let o = common::gridtune(&["report", run.to_str().unwrap()], &dir);
        bad_input(&o, &[&path.display().to_string()]);
        std::fs::write(&path, &text).unwrap();
        assert_eq!(snapshot(&run), before, "{says}: the run was rewritten");
    }
}

#[test]
fn resume_errors_name_the_run_and_resume_works_from_any_directory() {
    let dir = scratch("hardening-resume");
    // A config with paths relative to the directory the run starts in.
    let project = dir.join("project");
    for sub in ["maps/train", "maps/holdout", "genomes"] {
        std::fs::create_dir_all(project.join(sub)).unwrap();
    }
    for (from, to) in [
        ("maps/isolation/train", "maps/train"),
        ("maps/isolation/holdout", "maps/holdout"),
    ] {
        for e in std::fs::read_dir(root().join(from)).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, project.join(to).join(p.file_name().unwrap())).unwrap();
        }
    }
    std::fs::copy(
        root().join("genomes/isolation/default.ron"),
        project.join("genomes/default.ron"),
    )
    .unwrap();
    let text = config_text("random_safe", "")
        .replace(
            &format!("{}/genomes/isolation/default.ron", root().display()),
            "genomes/default.ron",
        )
        .replace(&format!("{}/maps/isolation/train", root().display()), "./maps/train")
        .replace(&format!("{}/maps/isolation/holdout", root().display()), "maps/holdout");
    write_config(&project, "relative.ron", &text);
    ok(&evolve(&["--config", "relative.ron", "--out", "run"], &project));
    let run = project.join("run");
    let other = dir.join("elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    ok(&evolve(&["--resume", run.to_str().unwrap()], &other));

    // A run folder from before: paths relative to the project still resume
    // from the project.
    std::fs::write(run.join("config.ron"), &text).unwrap();
    ok(&evolve(&["--resume", "run"], &project));

    // The wrong game is named as such, not as an unknown judge.
    let o = common::gridtune(
        &["evolve", "--game", "lightcycles", "--resume", run.to_str().unwrap()],
        &other,
    );
    bad_input(
        &o,
        &["is a run of game `isolation`, not `lightcycles`", "--game isolation"],
    );

    // No run: an error, not a new run.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    bad_input(
        &evolve(&["--resume", empty.to_str().unwrap()], &other),
        &["holds no run"],
    );
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
    // A run stopped before its first generation ended starts over, and
    // says so.
    std::fs::remove_file(run.join("checkpoint.ron")).unwrap();
    let o = evolve(&["--resume", "run"], &project);
    ok(&o);
    assert!(
        stdout(&o).contains("no generation of it had finished (it has no checkpoint.ron), so it starts over"),
        "{}",
        stdout(&o)
    );
    assert!(run.join("checkpoint.ron").is_file());
    bad_input(
        &evolve(&["--resume", dir.join("nothing").to_str().unwrap()], &other),
        &["no such run folder"],
    );
}

#[test]
fn an_unwritable_best_ron_is_named() {
    let dir = scratch("hardening-unwritable");
    let run = finished_run(&dir, "run");
    // A folder in best.ron's place: no rename can replace it, even as root.
    std::fs::remove_file(run.join("best.ron")).unwrap();
    std::fs::create_dir_all(run.join("best.ron").join("x")).unwrap();
    let o = evolve(&["--resume", run.to_str().unwrap()], &dir);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("cannot write {}", run.join("best.ron").display())),
        "{err}"
    );
}
