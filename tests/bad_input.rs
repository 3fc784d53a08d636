//! Bad maps, positions, replies, genomes and configs get errors that name
//! where and what.

use gridtune::evolve::EvolveConfig;
use gridtune::games::isolation::features::PARAMS;
use gridtune::games::isolation::protocol::{parse_position, parse_reply, ReplyError};
use gridtune::games::isolation::{Isolation, IsolationMap};
use gridtune::games::prelude::*;
use gridtune::genome::Genome;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn map_error(text: &str) -> String {
    IsolationMap::parse(text, "maps/bad.txt").unwrap_err().to_string()
}

#[test]
fn map_errors_name_the_file_line_and_rule() {
    let asymmetric = "7 7\n#......\n.......\n..0....\n.......\n....1..\n.......\n.......\n";
    assert_eq!(
        map_error(asymmetric),
        "maps/bad.txt:1: walls are not symmetric under 180-degree rotation: (0, 0) is a wall but (6, 6) is free"
    );
    let unmirrored = "7 7\n.......\n.......\n..0....\n.......\n...1...\n.......\n.......\n";
    assert!(map_error(unmirrored)
        .contains("start squares are not mirror images: 0 at (2, 2) needs 1 at (4, 4), found (3, 4)"));
    assert_eq!(map_error("6 7\n"), "maps/bad.txt:1: width 6 is outside 7..=9");
    assert_eq!(map_error("7 10\n"), "maps/bad.txt:1: height 10 is outside 7..=9");
    assert_eq!(
        map_error("seven 7\n"),
        "maps/bad.txt:1: expected `W H`, found `seven 7`"
    );
    let bad_char = "7 7\n.......\n..x....\n..0....\n.......\n....1..\n.......\n.......\n";
    assert_eq!(
        map_error(bad_char),
        "maps/bad.txt:3: unexpected `x` at (2, 1); expected `.`, `#`, `0` or `1`"
    );
    let short_row = "7 7\n.......\n......\n..0....\n.......\n....1..\n.......\n.......\n";
    assert_eq!(
        map_error(short_row),
        "maps/bad.txt:3: row 1 has 6 characters, expected 7"
    );
    let missing_row = "7 7\n.......\n..0....\n.......\n....1..\n.......\n.......\n";
    assert!(map_error(missing_row).contains("expected 7 rows, found 6"));
    let no_start = "7 7\n.......\n.......\n.......\n.......\n....1..\n.......\n.......\n";
    assert!(map_error(no_start).contains("no start square `0`"));
    let boxed = "7 7\n.......\n.###...\n.#0#...\n.#####.\n...#1#.\n...###.\n.......\n";
    assert!(map_error(boxed).contains("player 0 has no legal move from its start (2, 2)"));
    let trailing = "7 7\n.......\n.......\n..0....\n.......\n....1..\n.......\n.......\nextra\n";
    assert!(map_error(trailing).contains(":9: unexpected text after the board"));
}

#[test]
fn maps_tolerate_blank_lines_comments_and_carriage_returns() {
    let text =
        "// a comment\r\n7 7  \r\n\r\n.......\r\n.......\r\n..0....\r\n.......\r\n....1..\r\n.......\r\n.......\r\n";
    let map = IsolationMap::parse(text, "crlf").unwrap();
    assert_eq!(map.starts, [(2, 2), (4, 4)]);
}

#[test]
fn generated_maps_are_valid_and_print_back_to_themselves() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for _ in 0..200 {
        let map = IsolationMap::generate(&mut rng);
        let text = map.to_text();
        assert_eq!(IsolationMap::parse(&text, "generated").unwrap(), map);
    }
    // The same seed gives the same maps.
    let a = Isolation::generate_map_text(&mut Xoshiro256PlusPlus::seed_from_u64(9));
    let b = Isolation::generate_map_text(&mut Xoshiro256PlusPlus::seed_from_u64(9));
    assert_eq!(a, b);
}

const TURN_1: &str = "turn 1\n2 2\n4 4\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n";

#[test]
fn position_errors_name_the_line() {
    let err = |text: &str| parse_position(text).unwrap_err().to_string();
    assert_eq!(
        err(&TURN_1.replace("turn 1", "turn one")),
        "line 1: expected `turn T`, found `turn one`"
    );
    assert_eq!(
        err(&TURN_1.replace("2 2\n4 4", "2,2\n4 4")),
        "line 2: expected `x y`, found `2,2`"
    );
    assert_eq!(
        err(&TURN_1.replace("4 4\n", "4 5\n")),
        "line 8: `1` drawn at (4, 4) but its position line says (4, 5)"
    );
    assert!(err(&TURN_1.replace(".#0.#..", ".#0.#.")).contains("line 6: row has 6 characters, expected 7"));
    assert!(err(&format!("7 7 1\n{TURN_1}")).contains("turn 1 belongs to player 0, but the header says my_id 1"));
    assert!(err(&TURN_1.replace("...#...\n.......\n.#0", "...#...\n...?...\n.#0"))
        .contains("line 5: unexpected `?` at (3, 1)"));
    // With the header the position reads the same.
    assert_eq!(
        parse_position(&format!("7 7 0\n{TURN_1}")).unwrap(),
        parse_position(TURN_1).unwrap()
    );
}

#[test]
fn replies_are_checked_as_the_statement_says() {
    let (state, _) = parse_position(TURN_1).unwrap();
    assert!(parse_reply(&state, "2 1").is_ok());
    for bad in ["3,4", "UP", "2  1", "2 1 0", "", "+2 1", "02 1", "2"] {
        assert!(
            matches!(parse_reply(&state, bad), Err(ReplyError::Invalid(_))),
            "{bad:?}"
        );
    }
    assert_eq!(
        parse_reply(&state, "4 2").unwrap_err().to_string(),
        "illegal move: (4, 2) is not a queen move from (2, 2) over free squares"
    );
    assert!(
        matches!(parse_reply(&state, "4 4"), Err(ReplyError::Illegal(_))),
        "onto the other piece"
    );
    assert!(
        matches!(parse_reply(&state, "2 2"), Err(ReplyError::Illegal(_))),
        "staying put"
    );
    assert!(
        matches!(parse_reply(&state, "9 0"), Err(ReplyError::Illegal(_))),
        "off the board"
    );
}

#[test]
fn genome_errors_name_the_weight() {
    let good = Genome::defaults(PARAMS).to_ron("isolation", PARAMS, "test");
    assert_eq!(
        Genome::parse(&good, "isolation", PARAMS).unwrap(),
        Genome::defaults(PARAMS)
    );
    let err = |text: &str| Genome::parse(text, "isolation", PARAMS).unwrap_err();
    assert!(err(&good.replace("\"territory\": 6", "\"teritory\": 6")).starts_with("unknown weight `teritory`"));
    assert_eq!(
        err(&good.replace("        \"territory\": 6,\n", "")),
        "missing weight `territory`"
    );
    assert_eq!(
        err(&good.replace("\"territory\": 6", "\"territory\": 61")),
        "weight `territory` = 61 is outside -20..=60 in steps of 1"
    );
    assert_eq!(
        err(&good.replace("\"isolation\"", "\"ataxx\"")),
        "this genome is for `ataxx`, not `isolation`"
    );
    assert!(err("(game: \"isolation\", weights: {").starts_with("not a genome:"));
}

#[test]
fn config_errors_name_the_field() {
    let text = Isolation::DEFAULT_CONFIG;
    let judges = Isolation::judge_names();
    assert!(EvolveConfig::parse(text, "evolve.ron", &judges).is_ok());
    let err = |t: &str| EvolveConfig::parse(t, "evolve.ron", &judges).unwrap_err().to_string();
    assert_eq!(
        err(&text.replace("(\"mcts\", 1.0)", "(\"mcst\", 1.0)")),
        "evolve.ron: unknown judge `mcst`; judges: random_safe, mobility, alphabeta, territory, mcts, \
         engine (or give a bot spec such as cmd:PROGRAM)"
    );
    assert_eq!(
        err(&text.replace("eval_every: 8", "eval_every: 0")),
        "evolve.ron: eval_every must be at least 1"
    );
    assert_eq!(
        err(&text.replace("sigma_min: 0.02", "sigma_min: 0.5")),
        "evolve.ron: ga: need 0 < sigma_min (0.5) <= sigma_init (0.15) <= sigma_max (0.35)"
    );
    assert_eq!(
        err(&text.replace("islands: 1,", "islands: 1, base_jitter: -0.5,")),
        "evolve.ron: ga: base_jitter = -0.5 must be at least 0"
    );
    for optional in ["base_jitter: 0.25,", "base_jitter: Some(0.25),"] {
        let config = EvolveConfig::parse(
            &text.replace("islands: 1,", &format!("islands: 1, {optional}")),
            "",
            &judges,
        );
        assert_eq!(config.unwrap().ga.base_jitter, Some(0.25), "{optional}");
    }
    assert!(err(&text.replace("islands: 1,", "islands: 1, colour: 3,")).contains("evolve.ron: not an evolve config"));
    assert!(err(&text.replace("seed: 1,", "seed: 1, colour: 3,")).contains("evolve.ron: not an evolve config"));
}

mod ataxx {
    use gridtune::games::ataxx::map::AtaxxMap;

    const START: &str = "0.....1\n.......\n.......\n.......\n.......\n.......\n1.....0\n";

    #[test]
    fn map_errors_name_the_symmetry_rule() {
        let err = |t: &str| AtaxxMap::parse(t, "ax.txt").unwrap_err().to_string();
        assert!(AtaxxMap::parse(START, "ax.txt").is_ok());
        let walled = START.replacen(".......", "...#...", 1);
        assert_eq!(
            err(&walled),
            "ax.txt:1: walls are not symmetric under 180-degree rotation"
        );
        // The same wall with its image (d6 and d2) is symmetric.
        let paired = format!("{}...#...\n{}", &walled[..40], &walled[48..]);
        assert!(AtaxxMap::parse(&paired, "ax.txt").is_ok(), "{paired}");
        let piece = START.replacen(".......", "..0....", 1);
        assert_eq!(
            err(&piece),
            "ax.txt:1: each player's pieces must be symmetric under 180-degree rotation"
        );
    }
}

mod lightcycles {
    use gridtune::games::lightcycles::protocol::{parse_position, parse_reply};
    use gridtune::games::lightcycles::LightCyclesMap;

    const TURN_2: &str = "turn 2\n3 2\n11 6\n###############\n#...##........#\n#..0##....#####\n#..0##....#####\n#.........###.#\n#.###.....###.#\n#.###......1..#\n#####....##1..#\n#####....##...#\n#........##...#\n###############\n";

    #[test]
    fn map_errors_name_the_rule() {
        let err = |t: &str| LightCyclesMap::parse(t, "lc.txt").unwrap_err().to_string();
        assert_eq!(err("14 11\n"), "lc.txt:1: width 14 is outside 15..=25");
        assert_eq!(err("15 19\n"), "lc.txt:1: height 19 is outside 10..=18");
        let row = ".".repeat(15);
        let mut rows = vec![row.clone(); 10];
        rows[2] = format!("..0{}", &row[3..]);
        rows[7] = format!("{}1..", &row[..12]);
        rows[0] = format!("#{}", &row[1..]);
        let text = format!("15 10\n{}\n", rows.join("\n"));
        assert!(err(&text)
            .contains("walls are not symmetric under 180-degree rotation: (0, 0) is a wall but (14, 9) is free"));
        let boxed = "15 10\n###############\n#0#...........#\n###...........#\n#.............#\n#.............#\n#.............#\n#.............#\n#...........###\n#...........#1#\n###############\n";
        assert_eq!(
            err(boxed),
            "lc.txt:1: bike 0 has no safe first move from its start (1, 1)"
        );
    }

    #[test]
    fn a_position_needs_its_header_and_replies_are_exact_words() {
        assert!(parse_position(TURN_2)
            .unwrap_err()
            .to_string()
            .contains("needs the `W H my_id` line"));
        let bad_head = TURN_2.replace("11 6\n", "12 6\n");
        assert!(parse_position(&format!("15 11 0\n{bad_head}"))
            .unwrap_err()
            .to_string()
            .contains("line 4: bike 1 is at (12, 6) but the board does not show `1` there"));
        assert_eq!(parse_reply("LEFT").unwrap().to_string(), "LEFT");
        for bad in ["up", "NORTH", "1", "", "LEFT LEFT", " UP"] {
            assert_eq!(
                parse_reply(bad).unwrap_err(),
                format!("invalid line `{bad}`: expected UP, DOWN, LEFT or RIGHT")
            );
        }
    }
}
