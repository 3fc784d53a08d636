//! `gridtune sprt`, run as a user runs it: matches pooled into one report.

mod common;
use common::{gridtune, root, stderr, stdout};

/// The pentanomial of a 1,000-pair Light Cycles match and what `match`
/// printed for it: Elo +10.8 [-1.0, +22.6], LOS 96.4%, LLR 1.60.
const MATCH: &str = "98 151 464 165 122";

#[test]
fn one_match_reads_as_match_reported_it() {
    let o = gridtune(&["sprt", "--pentanomial", MATCH], root());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(
            "pooled [LL LD DD+WL WD WW]: [98 151 464 165 122] over 1000 pairs (2000 games, 4000 in a --field match)"
        ),
        "{text}"
    );
    assert!(text.contains("Elo +10.8 [-1.0, +22.6], LOS 96.4%"), "{text}");
    assert!(
        text.contains("SPRT elo0 0 elo1 10 alpha 0.05 beta 0.05: LLR 1.60 (-2.94, 2.94) continue"),
        "{text}"
    );
}

#[test]
fn parts_pool_into_the_whole() {
    let o = gridtune(
        &[
            "sprt",
            "--pentanomial",
            "[49 75 232 82 61]",
            "--pentanomial",
            "49,76,232,83,61",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("match 1: [49 75 232 82 61] over 499 pairs: Elo "),
        "{text}"
    );
    assert!(
        text.contains("match 2: [49 76 232 83 61] over 501 pairs: Elo "),
        "{text}"
    );
    assert!(
        text.contains("pooled [LL LD DD+WL WD WW]: [98 151 464 165 122] over 1000 pairs"),
        "{text}"
    );
    assert!(text.contains("LLR 1.60 (-2.94, 2.94) continue"), "{text}");
}

#[test]
fn the_bounds_decide_what_is_accepted() {
    // The same pairs against a non-regression test's bounds: H1 (no worse
    // than 10 Elo down) is accepted.
    let o = gridtune(&["sprt", "--pentanomial", MATCH, "--sprt", "-10,0"], root());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("SPRT elo0 -10 elo1 0 alpha 0.05 beta 0.05: LLR "),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("H1 accepted"), "{}", stdout(&o));
    let o = gridtune(&["sprt", "--pentanomial", "300 50 100 50 10"], root());
    assert!(stdout(&o).contains("H0 accepted"), "{}", stdout(&o));
}

#[test]
fn bad_counts_or_bounds_are_bad_input_named() {
    for (args, says) in [
        (
            vec!["sprt", "--pentanomial", "98 151 464 165"],
            "--pentanomial pentanomial `98 151 464 165`",
        ),
        (vec!["sprt", "--pentanomial", "98 x 464 165 122"], "count 2 `x`"),
        (vec!["sprt", "--pentanomial", "0 0 0 0 0"], "no pairs"),
        (
            vec![
                "sprt",
                "--pentanomial",
                "4294967295 0 0 0 0",
                "--pentanomial",
                "1 0 0 0 0",
            ],
            "more than 4294967295",
        ),
        (vec!["sprt", "--pentanomial", MATCH, "--sprt", "10,0"], "--sprt 10,0"),
        (vec!["sprt", "--pentanomial", MATCH, "--alpha", "0.7"], "alpha"),
    ] {
        let o = gridtune(&args, root());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    let none = gridtune(&["sprt"], root());
    assert_eq!(none.status.code(), Some(2), "clap's usage error: {}", stderr(&none));
}
