//! The command line run as a user runs it.

use std::path::{Path, PathBuf};

mod common;
use common::{gridtune, root, scratch, stderr, stdout};

fn tiny_config(dir: &Path, game: &str, judges: [&str; 2], seed: u64) -> PathBuf {
    let text = format!(
        r#"(
    game: "{game}",
    seed: {seed},
    games: 400,
    eval_every: 4,
    seed_genome: "{root}/genomes/{game}/default.ron",
    train_maps: "{root}/maps/{game}/train",
    holdout_maps: "{root}/maps/{game}/holdout",
    judges: [("{j0}", 1.0), ("{j1}", 2.0)],
    peer_share: 0.2,
    nodes: 150,
    holdout_rounds: 1,
    ga: (twin_pairs: 2, max_rounds: 2),
    verdict: (games: 0),
)"#,
        root = root().display(),
        j0 = judges[0],
        j1 = judges[1],
    );
    let path = dir.join(format!("{game}.ron"));
    std::fs::write(&path, text).unwrap();
    path
}

/// The generations table's header; the judges stand in as J0,J1.
const CSV_HEADER: &str = "generation,best,mean,median,champion_elo,champion_se,sigma,offspring_games_min,\
offspring_games_max,train_score,holdout,J0,J1,games,tuning_games,verdict_start_elo,verdict_start_elo_lo,\
verdict_start_elo_hi,verdict_start_games,verdict_promoted_elo,verdict_promoted_elo_lo,verdict_promoted_elo_hi,\
verdict_promoted_games,seconds";

/// The generations table without its timing column.
fn table_without_seconds(run: &Path) -> String {
    std::fs::read_to_string(run.join("generations.csv"))
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn evolve_writes_its_run_folder_and_repeats_with_the_same_seed() {
    let dir = scratch("evolve");
    let config = tiny_config(&dir, "isolation", ["random_safe", "mobility"], 7);
    let mut runs = Vec::new();
    for name in ["a", "b"] {
        let out = dir.join(name);
        let o = gridtune(
            &[
                "evolve",
                "--game",
                "isolation",
                "--config",
                config.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            &dir,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains("gen    4  champion"), "{text}");
        assert!(text.contains("<- recommended"), "{text}");
        assert!(text.contains("champion on holdout maps: random_safe"), "{text}");
        runs.push(out);
    }
    let run = &runs[0];
    let csv = std::fs::read_to_string(run.join("generations.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], CSV_HEADER.replace("J0,J1", "random_safe,mobility"));
    assert!(lines.len() >= 3, "at least two evaluations: {csv}");
    for line in &lines[1..] {
        let cells: Vec<&str> = line.split(',').collect();
        let holdout: f64 = cells[10].parse().unwrap();
        assert!((0.0..=100.0).contains(&holdout), "{csv}");
        // The evaluation: the champion against 2 judges on 6 train maps and
        // 20 holdout maps, both sides of each; the rest are the tuner's games.
        let (games, tuning): (usize, usize) = (cells[13].parse().unwrap(), cells[14].parse().unwrap());
        assert_eq!(games - tuning, 2 * 2 * (6 + 20), "{line}");
        // Racing: an offspring gets from one to two rounds of 2 pairs.
        let (least, most): (u32, u32) = (cells[7].parse().unwrap(), cells[8].parse().unwrap());
        assert!(4 <= least && least <= most && most <= 8, "{line}");
    }
    let genomes = std::fs::read_to_string(run.join("genomes.csv")).unwrap();
    assert!(
        genomes.starts_with("generation,role,elo,se,games,weights\n1,reference,0.00,"),
        "{genomes}"
    );
    assert!(
        genomes.contains(",fixed 1,") && genomes.contains(",island 0 offspring,"),
        "{genomes}"
    );
    assert!(run.join("checkpoint.ron").exists());
    let png = std::fs::read(run.join("fitness.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let svg = std::fs::read_to_string(run.join("fitness.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("isolation evolution, seed 7") && svg.contains("generation"));
    assert!(svg.contains("champion on train and holdout maps") && svg.contains("ratings over generations"));
    let best = run.join("best.ron");
    let o = gridtune(
        &[
            "freeze",
            "--game",
            "isolation",
            "--genome",
            best.to_str().unwrap(),
            "--check",
        ],
        &dir,
    );
    assert!(
        !stderr(&o).contains("cannot read genome"),
        "best.ron is a readable genome: {}",
        stderr(&o)
    );
    assert!(std::fs::read_to_string(run.join("config.ron"))
        .unwrap()
        .contains("seed: 7"));
    assert!(std::fs::read_to_string(run.join("holdout.csv"))
        .unwrap()
        .starts_with("judge,rate\nrandom_safe,"));
    // Same seed, same run.
    assert_eq!(table_without_seconds(&runs[0]), table_without_seconds(&runs[1]));
    assert_eq!(
        std::fs::read_to_string(runs[0].join("best.ron")).unwrap(),
        std::fs::read_to_string(runs[1].join("best.ron")).unwrap()
    );
}

#[test]
fn match_prints_both_sides_of_each_map() {
    let o = gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bot",
            "genome:genomes/isolation/default.ron",
            "--bot",
            "judge:random_safe",
            "--maps",
            "maps/isolation/train",
            "--nodes",
            "300",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("genome:genomes/isolation/default.ron vs judge:random_safe"),
        "{text}"
    );
    assert!(text.contains("12 games"), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("genome:genomes/isolation/default.ron ") && !l.contains(" vs "))
        .unwrap();
    let n: Vec<u32> = row
        .split_whitespace()
        .skip(1)
        .take(3)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(n.iter().sum::<u32>(), 12, "{row}");
    assert!(text.contains("over 6 pairs"), "{text}");
}

#[test]
fn move_answers_a_protocol_position_with_a_legal_move() {
    let dir = scratch("move");
    let pos = dir.join("turn1.txt");
    std::fs::write(
        &pos,
        "7 7 0\nturn 1\n2 2\n4 4\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n",
    )
    .unwrap();
    let legal = [
        "2 1", "2 0", "3 1", "4 0", "3 2", "3 3", "2 3", "1 3", "0 4", "1 1", "0 0",
    ];
    for bot in ["judge:mobility", "judge:mcts", "genome:genomes/isolation/best.ron"] {
        let o = gridtune(
            &[
                "move",
                "--game",
                "isolation",
                "--bot",
                bot,
                "--position",
                pos.to_str().unwrap(),
            ],
            root(),
        );
        assert!(o.status.success(), "{bot}: {}", stderr(&o));
        let reply = stdout(&o);
        assert!(legal.contains(&reply.trim()), "{bot} answered {reply:?}");
    }
}

#[test]
fn perft_prints_the_counts() {
    let dir = scratch("perft");
    let pos = dir.join("turn1.txt");
    std::fs::write(
        &pos,
        "turn 1\n2 2\n4 4\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n",
    )
    .unwrap();
    let o = gridtune(
        &[
            "perft",
            "--game",
            "isolation",
            "--position",
            pos.to_str().unwrap(),
            "--depth",
            "4",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(": 11 120 1153 10690"), "{}", stdout(&o));
}

#[test]
fn freeze_generates_the_constants_and_check_catches_a_stale_file() {
    let dir = scratch("freeze");
    std::fs::create_dir_all(dir.join("genomes/isolation")).unwrap();
    // freeze writes only into a gridtune source tree.
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"gridtune\"\n").unwrap();
    std::fs::create_dir_all(dir.join("src/games/isolation")).unwrap();
    let default = std::fs::read_to_string(root().join("genomes/isolation/default.ron")).unwrap();
    std::fs::write(
        dir.join("genomes/isolation/best.ron"),
        default.replace("\"territory\": 6", "\"territory\": 9"),
    )
    .unwrap();

    let o = gridtune(&["freeze", "--game", "isolation", "--check"], &dir);
    assert_eq!(o.status.code(), Some(1), "a missing tuned.rs fails the check");
    let o = gridtune(&["freeze", "--game", "isolation"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let tuned = std::fs::read_to_string(dir.join("src/games/isolation/tuned.rs")).unwrap();
    assert_eq!(
        tuned.lines().next().unwrap(),
        "// generated by gridtune freeze from genomes/isolation/best.ron; do not edit"
    );
    assert!(tuned.contains("    9, // territory\n"), "{tuned}");
    assert!(tuned.contains("pub const MOVE_BUDGET_MS: u64 = 100;"));
    let o = gridtune(&["freeze", "--game", "isolation", "--check"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));

    std::fs::write(dir.join("genomes/isolation/best.ron"), default).unwrap();
    let o = gridtune(&["freeze", "--game", "isolation", "--check"], &dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("src/games/isolation/tuned.rs is stale"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_committed_constants_match_the_committed_champions() {
    for game in ["isolation", "lightcycles", "slime", "ataxx"] {
        let o = gridtune(&["freeze", "--game", game, "--check"], root());
        assert!(o.status.success(), "{game}: {}", stderr(&o));
    }
}

#[test]
fn lightcycles_runs_through_match_move_and_perft() {
    let o = gridtune(
        &[
            "match",
            "--game",
            "lightcycles",
            "--bot",
            "genome:genomes/lightcycles/best.ron",
            "--bot",
            "judge:flood",
            "--maps",
            "maps/lightcycles/train",
            "--games",
            "4",
            "--nodes",
            "200",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("4 games"), "{}", stdout(&o));

    let dir = scratch("lightcycles");
    let pos = dir.join("turn2.txt");
    let block = "15 11 0\nturn 2\n3 2\n11 6\n###############\n#...##........#\n#..0##....#####\n#..0##....#####\n#.........###.#\n#.###.....###.#\n#.###......1..#\n#####....##1..#\n#####....##...#\n#........##...#\n###############\n";
    std::fs::write(&pos, block).unwrap();
    for bot in [
        "judge:random_safe",
        "judge:flood",
        "judge:voronoi",
        "judge:chamber",
        "judge:filler",
        "genome:genomes/lightcycles/best.ron",
    ] {
        let o = gridtune(
            &[
                "move",
                "--game",
                "lightcycles",
                "--bot",
                bot,
                "--position",
                pos.to_str().unwrap(),
            ],
            root(),
        );
        assert!(o.status.success(), "{bot}: {}", stderr(&o));
        let reply = stdout(&o);
        assert!(
            ["UP", "LEFT"].contains(&reply.trim()),
            "{bot} answered {reply:?}: only UP and LEFT are safe"
        );
    }
    // Each turn offers 4 x 4 joint moves.
    let o = gridtune(
        &[
            "perft",
            "--game",
            "lightcycles",
            "--position",
            pos.to_str().unwrap(),
            "--depth",
            "2",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(": 16 "), "{}", stdout(&o));
}

/// Runs an Isolation match of `bots` that must be refused as bad input
/// (exit 2) and returns what it said.
fn refused_isolation_match(bots: [&str; 2]) -> String {
    let o = gridtune(
        &["match", "--game", "isolation", "--bot", bots[0], "--bot", bots[1]],
        root(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    stderr(&o)
}

#[test]
fn a_genome_bot_given_its_own_node_budget_searches_it() {
    // The same weights, one bot with 40 times the other's nodes: the match is
    // seeded and node-bound, so it is the same every run, and the deeper
    // search must win it.
    let o = gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bot",
            "genome:genomes/isolation/default.ron@nodes=4000",
            "--bot",
            "genome:genomes/isolation/default.ron@nodes=100",
            "--fresh-maps",
            "--games",
            "20",
            "--nodes",
            "7",
            "--json",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["bots"][0], "genome:genomes/isolation/default.ron@nodes=4000");
    assert_eq!(report["bots"][1], "genome:genomes/isolation/default.ron@nodes=100");
    let count = |k: &str| report[k].as_f64().unwrap();
    let score = (count("wins") + count("draws") / 2.0) / count("games");
    assert!(score > 0.7, "the deeper search scored {score}: {report}");

    let said = refused_isolation_match(["genome:genomes/isolation/default.ron@ms=0", "judge:mobility"]);
    assert!(
        said.contains("`@ms=0`: ms must be a whole number from 1 to 3600000"),
        "{said}"
    );
}

#[test]
fn a_non_regression_sprt_takes_bounds_that_start_with_a_minus() {
    let o = gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bot",
            "genome:genomes/isolation/default.ron",
            "--bot",
            "judge:random_safe",
            "--fresh-maps",
            "--games",
            "40",
            "--nodes",
            "200",
            "--sprt",
            "-10,0",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("SPRT elo0 -10 elo1 0"), "{}", stdout(&o));
}

#[test]
fn bad_input_exits_with_code_2_and_says_where() {
    let dir = scratch("bad");
    let map = dir.join("broken.txt");
    std::fs::write(
        &map,
        "7 7\n#......\n.......\n..0....\n.......\n....1..\n.......\n.......\n",
    )
    .unwrap();
    let o = gridtune(&["maps", "check", "--game", "isolation", map.to_str().unwrap()], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).contains("broken.txt:1: walls are not symmetric"),
        "{}",
        stdout(&o)
    );

    let said = refused_isolation_match(["judge:nobody", "judge:mobility"]);
    assert!(
        said.contains(
            "unknown judge `nobody` for isolation; judges: random_safe, mobility, alphabeta, territory, mcts, engine"
        ),
        "{said}"
    );

    let o = gridtune(&["perft", "--game", "chess", "--depth", "1"], root());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown game `chess`"), "{}", stderr(&o));

    let genome = dir.join("g.ron");
    std::fs::write(&genome, "(game: \"isolation\", weights: {\"own_mobility\": 1000})").unwrap();
    let spec = format!("genome:{}", genome.display());
    let said = refused_isolation_match([&spec, "judge:mobility"]);
    assert!(
        said.contains("g.ron: weight `own_mobility` = 1000 is outside -40..=100 in steps of 1"),
        "{said}"
    );
}

#[test]
fn evolve_runs_lightcycles_the_same_way() {
    let dir = scratch("evolve-lightcycles");
    let config = tiny_config(&dir, "lightcycles", ["random_safe", "flood"], 3);
    let out = dir.join("run");
    let o = gridtune(
        &[
            "evolve",
            "--game",
            "lightcycles",
            "--config",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("champion on holdout maps: random_safe"),
        "{}",
        stdout(&o)
    );
    let csv = std::fs::read_to_string(out.join("generations.csv")).unwrap();
    assert!(
        csv.starts_with(&(CSV_HEADER.replace("J0,J1", "random_safe,flood") + "\n")),
        "{csv}"
    );
    assert!(csv.lines().count() >= 3, "{csv}");
    let best = std::fs::read_to_string(out.join("best.ron")).unwrap();
    assert!(
        best.contains("game: \"lightcycles\"") && best.contains("\"territory\":"),
        "{best}"
    );
    // A config for one game is refused by another.
    let o = gridtune(
        &["evolve", "--game", "isolation", "--config", config.to_str().unwrap()],
        &dir,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown judge `flood`") || stderr(&o).contains("config is for `lightcycles`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn slime_runs_through_tournament_match_move_and_perft() {
    let o = gridtune(
        &[
            "tournament",
            "--game",
            "slime",
            "--bot",
            "judge:greedy_slime",
            "--bot",
            "judge:jumper",
            "--bot",
            "judge:lichen",
            "--bot",
            "judge:corner_slime",
            "--bot",
            "genome:genomes/slime/best.ron",
            "--nodes",
            "200",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // Five entries make five 4-seat tables; each entry sits at four of them.
    assert!(text.contains("5 tables (seated in list order) x 1 games"), "{text}");
    let lichen = text.lines().find(|l| l.starts_with("judge:lichen")).unwrap();
    assert_eq!(lichen.split_whitespace().nth(1), Some("4"), "{lichen}");

    let o = gridtune(
        &[
            "match",
            "--game",
            "slime",
            "--bot",
            "judge:greedy_slime",
            "--bot",
            "judge:jumper",
            "--bot",
            "judge:lichen",
        ],
        root(),
    );
    assert_eq!(o.status.code(), Some(2), "three bots cannot fill a table");
    assert!(stderr(&o).contains("a slime table has 4 seats"), "{}", stderr(&o));

    // Two bots meet head to head, judges in the other two seats, under an SPRT.
    let head_to_head = |fill: &[&str]| {
        let mut args = vec![
            "match",
            "--game",
            "slime",
            "--bot",
            "genome:genomes/slime/best.ron",
            "--bot",
            "judge:lichen",
            "--fresh-maps",
            "--games",
            "8",
            "--sprt",
            "0,10",
            "--nodes",
            "200",
        ];
        for f in fill {
            args.extend(["--fill", f]);
        }
        gridtune(&args, root())
    };
    let o = head_to_head(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("beside judge:greedy_slime and judge:shallow_blue in the other seats: 8 games"),
        "{text}"
    );
    assert!(
        text.contains("pentanomial") && text.contains("SPRT elo0 0 elo1 10"),
        "{text}"
    );
    let o = head_to_head(&["judge:jumper", "judge:death_slime"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("beside judge:jumper and judge:death_slime"),
        "{}",
        stdout(&o)
    );
    let o = head_to_head(&["judge:jumper"]);
    assert_eq!(o.status.code(), Some(2), "one --fill for two seats");
    assert!(
        stderr(&o).contains("2 seats beside the two --bot, and 1 --fill"),
        "{}",
        stderr(&o)
    );

    let dir = scratch("slime");
    let pos = dir.join("turn.txt");
    std::fs::write(
        &pos,
        "3,11111222,11111444,11.22444,.1222.4.,333.3244,33333.44,333...44,333....4\n",
    )
    .unwrap();
    let o = gridtune(
        &[
            "move",
            "--game",
            "slime",
            "--bot",
            "judge:greedy_slime",
            "--position",
            pos.to_str().unwrap(),
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "4 0 2 2\n");
    let o = gridtune(&["perft", "--game", "slime", "--depth", "2"], root());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("standard8: 8 64"), "{}", stdout(&o));
}

#[test]
fn slime_match_against_the_field_plays_each_bot_at_the_same_tables() {
    let field = |bots: [&str; 2], games: &str, fill: &[&str]| {
        let mut args = vec![
            "match",
            "--game",
            "slime",
            "--field",
            "--fresh-maps",
            "--games",
            games,
            "--json",
        ];
        for b in bots {
            args.extend(["--bot", b]);
        }
        for f in fill {
            args.extend(["--fill", f]);
        }
        gridtune(&args, root())
    };
    let json = |o: &std::process::Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", stderr(o));
        serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
    };
    let count = |r: &serde_json::Value, key: &str| r[key].as_u64().unwrap_or_else(|| panic!("{key} in {r}"));

    // One bot against itself: twin games share seat, fillers, map and seed
    // (ShallowBlue's sampling too), so every table is played twice alike.
    let r = json(&field(["judge:greedy_slime", "judge:greedy_slime"], "16", &[]));
    assert_eq!(count(&r, "games"), 16);
    assert_eq!(
        (count(&r, "draws"), count(&r, "wins"), count(&r, "losses")),
        (16, 0, 0),
        "{r}"
    );
    assert_eq!(r["field"]["tables"], 8, "{r}");
    assert_eq!(r["field"]["lead"].as_f64(), Some(0.0), "{r}");
    let pentanomial: Vec<u64> = r["pentanomial"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(pentanomial, [0, 0, 4, 0, 0], "two tables make a pentanomial unit: {r}");

    // GreedySlime holds far more of the board than the random Simplebot at
    // the same tables, and the lead is the difference of what each held.
    let fill = [
        "judge:jumper",
        "judge:lichen",
        "judge:corner_slime",
        "judge:death_slime",
    ];
    let r = json(&field(["judge:greedy_slime", "judge:simplebot"], "24", &fill));
    let f = &r["field"];
    let held = [f["results"][0].as_f64().unwrap(), f["results"][1].as_f64().unwrap()];
    let (lead, lo, hi) = (
        f["lead"].as_f64().unwrap(),
        f["lead_lo"].as_f64().unwrap(),
        f["lead_hi"].as_f64().unwrap(),
    );
    assert!(held[0] > held[1] && lo > 0.0, "{r}");
    assert!(
        (lead - (held[0] - held[1])).abs() < 1e-9 && lo < lead && lead < hi,
        "{r}"
    );
    assert!(count(&r, "wins") > count(&r, "losses"), "{r}");
    assert_eq!(count(&r, "wins") + count(&r, "draws") + count(&r, "losses"), 24, "{r}");
    assert_eq!(count(&r, "wins") % 2, 0, "twin games share their pair's result: {r}");

    let o = field(["judge:greedy_slime", "judge:simplebot"], "6", &[]);
    assert_eq!(o.status.code(), Some(2), "games come in fours");
    assert!(
        stderr(&o).contains("--games 6: give a positive multiple of 4"),
        "{}",
        stderr(&o)
    );
    let o = field(
        ["judge:greedy_slime", "judge:simplebot"],
        "8",
        &["judge:jumper", "judge:lichen"],
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "two fillers cannot fill a table's three other seats"
    );
    assert!(
        stderr(&o).contains("3 seats beside the bot compared, and 2 --fill"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_two_seat_match_against_the_field_is_a_gauntlet_of_twin_games() {
    // In a two-seat game the field is the --fill bots, one at a table: each
    // of the two bots plays the same game against the same opponent, and
    // the one that does better wins the twin games.
    let gauntlet = |bots: [&str; 2], fill: &[&str]| {
        let mut args = vec![
            "match",
            "--game",
            "isolation",
            "--field",
            "--fresh-maps",
            "--games",
            "40",
            "--nodes",
            "300",
            "--seed",
            "5",
            "--json",
        ];
        for b in bots {
            args.extend(["--bot", b]);
        }
        for f in fill {
            args.extend(["--fill", f]);
        }
        let o = gridtune(&args, root());
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str::<serde_json::Value>(&stdout(&o))
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(&o)))
    };
    let r = gauntlet(
        ["judge:mobility", "judge:mobility"],
        &["judge:random_safe", "judge:alphabeta"],
    );
    assert_eq!(
        (r["draws"].as_u64(), r["field"]["lead"].as_f64()),
        (Some(40), Some(0.0)),
        "{r}"
    );
    assert_eq!(r["field"]["tables"], 20, "{r}");

    // Against a random mover, the alpha-beta judge wins far more of its
    // games than another random mover does.
    let r = gauntlet(["judge:alphabeta", "judge:random_safe"], &["judge:random_safe"]);
    let f = &r["field"];
    let held = [f["results"][0].as_f64().unwrap(), f["results"][1].as_f64().unwrap()];
    assert!(held[0] > held[1] && f["lead_lo"].as_f64().unwrap() > 0.0, "{r}");
    assert!(r["wins"].as_u64() > r["losses"].as_u64(), "{r}");
}

#[test]
fn a_slime_replay_names_every_seat_of_its_table() {
    let dir = scratch("slime-replays");
    for how in ["head-to-head", "field"] {
        let replays = dir.join(how);
        let replays_arg = replays.display().to_string();
        let mut args = vec![
            "match",
            "--game",
            "slime",
            "--bot",
            "judge:corner_slime",
            "--bot",
            "judge:jumper",
            "--fresh-maps",
            "--games",
            "4",
            "--replay",
            &replays_arg,
        ];
        if how == "field" {
            args.push("--field");
        }
        let o = gridtune(&args, root());
        assert!(o.status.success(), "{how}: {}", stderr(&o));
        let files: Vec<_> = std::fs::read_dir(&replays)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 4, "{how}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let seats: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("seat ")).collect();
            assert_eq!(seats.len(), 4, "{how}: every seat is named:\n{text}");
            let sitting = |bot: &str| seats.iter().filter(|s| s.ends_with(bot)).count();
            let compared = sitting("judge:corner_slime") + sitting("judge:jumper");
            if how == "field" {
                assert!(compared >= 1, "{how}: {seats:?}");
            } else {
                // The pair, and the game's first two judges beside them.
                assert_eq!(compared, 2, "{seats:?}");
                assert_eq!(
                    sitting("judge:greedy_slime") + sitting("judge:shallow_blue"),
                    2,
                    "{seats:?}"
                );
            }
            let shown = gridtune(&["replay", &file.display().to_string()], root());
            assert!(shown.status.success(), "{how}: {}", stderr(&shown));
        }
    }
}

#[test]
fn ataxx_runs_through_perft_move_and_match() {
    let dir = scratch("ataxx");
    let fen = dir.join("start.fen");
    std::fs::write(&fen, "x5o/7/7/7/7/7/o5x x 0 1\n").unwrap();
    let o = gridtune(
        &[
            "perft",
            "--game",
            "ataxx",
            "--position",
            fen.to_str().unwrap(),
            "--depth",
            "4",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(": 16 256 6460 155888"), "{}", stdout(&o));

    // CodinGame's turn input, rows bottom first as the statement says.
    let turn = dir.join("turn.txt");
    std::fs::write(
        &turn,
        "0\n1.....0\n.......\n.......\n.......\n.......\n.......\n0.....1\nnull\n3\nb7\nb6\na6\n",
    )
    .unwrap();
    let o = gridtune(
        &[
            "move",
            "--game",
            "ataxx",
            "--bot",
            "judge:greedy",
            "--position",
            turn.to_str().unwrap(),
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let reply = stdout(&o);
    assert_eq!(reply.trim().len(), 2, "a spawn: {reply:?}");

    let o = gridtune(
        &[
            "match",
            "--game",
            "ataxx",
            "--bot",
            "genome:genomes/ataxx/best.ron",
            "--bot",
            "judge:random",
            "--maps",
            "maps/ataxx/train",
            "--nodes",
            "200",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("12 games"), "{}", stdout(&o));
}

#[test]
fn a_missing_genome_is_named_once_with_its_reason() {
    let dir = scratch("missing-genome");
    let o = gridtune(&["freeze", "--game", "isolation", "--bundle", "bot.rs"], &dir);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("genomes/isolation/best.ron: cannot read genome: No such file or directory"),
        "{err}"
    );
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    assert!(!dir.join("bot.rs").exists());
}
