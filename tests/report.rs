//! The run report as a user gets it: `evolve` writes a self-contained
//! report.html with every section and plot (PNG and SVG files beside it),
//! `gridtune report DIR` rebuilds the same page from the folder's files,
//! `report --compare` overlays runs, and a folder that is not a run is
//! refused by name.

use std::path::{Path, PathBuf};

mod common;
use common::{gridtune, root, scratch, stderr, stdout};

/// A tiny Isolation run (a 300-game budget, two judges).
fn tiny_run(dir: &Path, name: &str, seed: u64) -> PathBuf {
    let config = dir.join(format!("{name}.ron"));
    std::fs::write(
        &config,
        format!(
            r#"(
    game: "isolation", seed: {seed}, games: 300, eval_every: 2,
    seed_genome: "{root}/genomes/isolation/default.ron",
    train_maps: "{root}/maps/isolation/train",
    holdout_maps: "{root}/maps/isolation/holdout",
    judges: [("mobility", 1.0), ("alphabeta", 1.0)],
    peer_share: 0.2, nodes: 200, holdout_rounds: 1,
    ga: (twin_pairs: 2, max_rounds: 2),
    verdict: (games: 0),
)"#,
            root = root().display()
        ),
    )
    .unwrap();
    let run = dir.join(name);
    let o = gridtune(
        &[
            "evolve",
            "--game",
            "isolation",
            "--config",
            &config.display().to_string(),
            "--out",
            &run.display().to_string(),
        ],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("report: {}", run.join("report.html").display())),
        "{}",
        stdout(&o)
    );
    // Not a terminal: no progress bar on stderr.
    assert!(!stderr(&o).contains("\x1b[2K"), "{}", stderr(&o));
    run
}

const PLOTS: [&str; 5] = [
    "plot-fitness",
    "plot-holdout",
    "plot-judges",
    "plot-weights",
    "plot-effort",
];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn evolve_writes_a_self_contained_report_that_report_rebuilds_byte_for_byte() {
    let dir = scratch("report-run");
    let run = tiny_run(&dir, "run", 3);
    let html = read(&run.join("report.html"));

    // Self-contained: nothing to fetch, no scripts.
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "a URL in the page"
    );
    assert!(
        !html.contains("<script") && !html.contains("<img"),
        "scripts or external images"
    );
    // Every section, in order.
    let mut at = 0;
    for id in [
        "summary",
        "config",
        "fitness",
        "holdout",
        "interval-method",
        "judges",
        "weights",
        "weights-table",
        "champion",
        "champion-table",
        "verdict",
        "effort",
        "generations-table",
        "files",
    ] {
        let pos = html[at..]
            .find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("section {id} missing or out of order"));
        at += pos;
    }
    // Every plot inline, and as files.
    for stem in PLOTS {
        assert!(
            html.contains(&format!("<svg class=\"plot\" id=\"svg-{stem}\"")),
            "{stem} inline"
        );
        assert!(html.contains(&format!("<a href=\"{stem}.png\">")), "{stem} link");
        let png = std::fs::read(run.join(format!("{stem}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 5_000, "{stem}.png");
        let svg = read(&run.join(format!("{stem}.svg")));
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{stem}.svg");
    }
    assert_eq!(html.matches("<svg class=\"plot\"").count(), PLOTS.len());
    // The config and seed, the judges, every weight, the interval's method.
    assert!(html.contains("Seed <b>3</b>"), "seed");
    assert!(html.contains("config.ron as the run wrote it"));
    for judge in ["mobility", "alphabeta"] {
        assert!(html.contains(&format!("<td class=\"l\">{judge}</td>")), "{judge} row");
    }
    for weight in ["own_mobility", "opp_mobility", "territory", "partition_win"] {
        assert!(html.contains(&format!("<td class=\"l\">{weight}</td>")), "{weight} row");
    }
    // Two judges, six train maps, two seats: 12 games per judge.
    assert!(
        html.contains("the champion played 12 games against each judge"),
        "interval method"
    );
    assert!(html.contains("Wilson score intervals over 40 holdout and 12 train games per judge"));
    // No temporary files left behind.
    for entry in std::fs::read_dir(&run).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.starts_with('.'), "left behind: {name}");
    }
    // The log: run start, each generation, checkpoints, reports.
    let log = read(&run.join("run.log"));
    assert!(log.contains("evolve run started") && log.contains("seed=3"), "{log}");
    let evaluations = read(&run.join("generations.csv")).lines().count() - 1;
    assert!(evaluations >= 2, "a 300-game budget evaluated every 2 generations");
    assert_eq!(log.matches("evaluation finished").count(), evaluations, "{log}");
    assert_eq!(log.matches("checkpoint written").count(), evaluations, "{log}");
    assert_eq!(log.matches("report written").count(), evaluations, "{log}");
    assert!(log.contains("evolve run finished"), "{log}");

    // Rebuilt from the folder's files: the same page and plots.
    let svgs: Vec<String> = PLOTS.iter().map(|s| read(&run.join(format!("{s}.svg")))).collect();
    std::fs::remove_file(run.join("report.html")).unwrap();
    let o = gridtune(&["report", "run"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("wrote run/report.html"), "{}", stdout(&o));
    assert_eq!(read(&run.join("report.html")), html, "the rebuilt page differs");
    for (stem, svg) in PLOTS.iter().zip(&svgs) {
        assert_eq!(&read(&run.join(format!("{stem}.svg"))), svg, "{stem}.svg differs");
    }
}

#[test]
fn compare_overlays_runs_and_writes_one_table() {
    let dir = scratch("report-compare");
    let a = tiny_run(&dir, "seed-a", 4);
    let b = tiny_run(&dir, "seed-b", 5);
    let out = dir.join("cmp/two-runs.html");
    let o = gridtune(
        &[
            "report",
            "--compare",
            &a.display().to_string(),
            &b.display().to_string(),
            "--out",
            &out.display().to_string(),
        ],
        &dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("run") && lines[0].contains("seed") && lines[0].contains("holdout"));
    assert!(lines[1].starts_with("seed-a") && lines[1].contains(" 4 "), "{text}");
    assert!(lines[2].starts_with("seed-b") && lines[2].contains(" 5 "), "{text}");
    assert!(text.contains(&format!("wrote {}", out.display())), "{text}");

    let csv = read(&dir.join("cmp/two-runs.csv"));
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert_eq!(
        rows[0],
        "run,game,seed,generations,games,final_train,final_holdout,seconds"
    );
    assert!(rows[1].starts_with("seed-a,isolation,4,"), "{csv}");
    assert!(rows[2].starts_with("seed-b,isolation,5,"), "{csv}");
    let png = std::fs::read(dir.join("cmp/two-runs-fitness.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let svg = read(&dir.join("cmp/two-runs-fitness.svg"));
    assert!(
        svg.contains("seed-a") && svg.contains("seed-b"),
        "the legend names both runs"
    );
    let html = read(&out);
    assert!(!html.contains("http://") && !html.contains("https://"));
    assert!(html.contains("<svg class=\"plot\" id=\"svg-two-runs-fitness\""));
    assert!(html.contains("<td class=\"l\">seed-a</td>") && html.contains("<td class=\"l\">seed-b</td>"));

    // Without --out: compare.html beside the runs.
    let o = gridtune(&["report", "--compare", "seed-a", "seed-b"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("wrote ./compare.html"), "{}", stdout(&o));
    assert!(dir.join("compare.html").is_file() && dir.join("compare-fitness.svg").is_file());
}

#[test]
fn a_folder_that_is_not_a_run_is_refused_by_name() {
    let dir = scratch("report-bad");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let o = gridtune(&["report", "empty"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("empty is not a gridtune run folder: it has no config.ron"),
        "{}",
        stderr(&o)
    );
    let o = gridtune(&["report", "--compare", "empty", "missing"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("empty is not a gridtune run folder"),
        "{}",
        stderr(&o)
    );
    let o = gridtune(&["report", "missing"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing is not a run folder: no such folder"),
        "{}",
        stderr(&o)
    );
    // A config but no finished generation.
    std::fs::create_dir_all(dir.join("started")).unwrap();
    std::fs::copy(
        root().join("genomes/isolation/evolve.ron"),
        dir.join("started/config.ron"),
    )
    .unwrap();
    let o = gridtune(&["report", "started"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("started") && stderr(&o).contains("no checkpoint.ron"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("empty/report.html").exists() && !dir.join("started/report.html").exists());
}
