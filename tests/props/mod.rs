//! Shared by the property tests (tests/props_*.rs) and the fuzz loop: every
//! parser as a [`Target`] (its valid seed files and the property each input
//! must keep), and the generators of inputs (arbitrary text, and structured
//! mutations of the seeds).
//!
//! The property, for every parser: no panic, and either a value that
//! round-trips through the parser's printer, or an error that names the
//! place (the origin given to the parser, a line, a field).
// Each test crate that includes this module uses only part of it.
#![allow(dead_code, unused_macros)]

use gridtune::distributed::wire;
use gridtune::evolve::config::EvolveConfig;
use gridtune::evolve::Checkpoint;
use gridtune::game::{MoveBuffer, ToMove};
use gridtune::games::ataxx::protocol::{read_turn, RowOrder};
use gridtune::games::ataxx::Ataxx;
use gridtune::games::isolation::Isolation;
use gridtune::games::lightcycles::LightCycles;
use gridtune::games::prelude::*;
use gridtune::games::slime::Slime;
use gridtune::games::{ataxx, isolation, lightcycles, slime};
use gridtune::genome::Genome;
use gridtune::protocol::clean;
use gridtune::referee::command::BotsFile;
use gridtune::replay::{self, Replay};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};

/// The origin every parser is given, so an error can be checked to name it.
pub const ORIGIN: &str = "fuzzed-input.txt";

/// The config of every property: `cases` unless `PROPTEST_CASES` says
/// otherwise, a fixed seed unless `PROPTEST_RNG_SEED` says otherwise (so CI
/// sees the same inputs on every run), and no regression files (a failure
/// prints its shrunk input; a fixed one becomes a named test).
pub fn config(cases: u32) -> Config {
    let from_env = Config::default();
    Config {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            from_env.cases
        } else {
            cases
        },
        rng_seed: if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
            from_env.rng_seed
        } else {
            RngSeed::Fixed(13)
        },
        failure_persistence: None,
        ..from_env
    }
}

/// A parser under test.
pub struct Target {
    pub name: &'static str,
    /// Valid inputs the mutations start from.
    pub seeds: fn() -> Vec<String>,
    /// `Err` says how the input broke the property; a panic breaks it too.
    pub check: fn(&str) -> Result<(), String>,
}

/// Every parser, in the order the fuzz loop runs them.
pub fn targets() -> Vec<Target> {
    vec![
        genome_target::<Isolation>("genome_isolation"),
        genome_target::<LightCycles>("genome_lightcycles"),
        genome_target::<Slime>("genome_slime"),
        genome_target::<Ataxx>("genome_ataxx"),
        config_target::<Isolation>("config_isolation"),
        config_target::<LightCycles>("config_lightcycles"),
        config_target::<Slime>("config_slime"),
        config_target::<Ataxx>("config_ataxx"),
        map_target::<Isolation>("map_isolation"),
        map_target::<LightCycles>("map_lightcycles"),
        map_target::<Slime>("map_slime"),
        map_target::<Ataxx>("map_ataxx"),
        position_target::<Isolation>("position_isolation"),
        position_target::<LightCycles>("position_lightcycles"),
        position_target::<Slime>("position_slime"),
        position_target::<Ataxx>("position_ataxx"),
        Target {
            name: "turns_isolation",
            seeds: grid_turn_seeds::<Isolation>,
            check: check_grid_turns::<Isolation>,
        },
        Target {
            name: "turns_lightcycles",
            seeds: grid_turn_seeds::<LightCycles>,
            check: check_grid_turns::<LightCycles>,
        },
        Target {
            name: "turns_ataxx",
            seeds: ataxx_turn_seeds,
            check: check_ataxx_turns,
        },
        reply_target::<Isolation>("reply_isolation"),
        reply_target::<LightCycles>("reply_lightcycles"),
        reply_target::<Slime>("reply_slime"),
        reply_target::<Ataxx>("reply_ataxx"),
        Target {
            name: "fen",
            seeds: fen_seeds,
            check: check_fen,
        },
        Target {
            name: "pentanomial",
            seeds: pentanomial_seeds,
            check: check_pentanomial,
        },
        Target {
            name: "checkpoint",
            seeds: checkpoint_seeds,
            check: check_checkpoint,
        },
        replay_target::<Isolation>("replay_isolation"),
        replay_target::<LightCycles>("replay_lightcycles"),
        replay_target::<Slime>("replay_slime"),
        replay_target::<Ataxx>("replay_ataxx"),
        Target {
            name: "bots_file",
            seeds: bots_file_seeds,
            check: check_bots_file,
        },
        Target {
            name: "batch_isolation",
            seeds: batch_seeds::<Isolation>,
            check: check_batch::<Isolation>,
        },
        Target {
            name: "batch_slime",
            seeds: batch_seeds::<Slime>,
            check: check_batch::<Slime>,
        },
        Target {
            name: "result_isolation",
            seeds: result_seeds::<Isolation>,
            check: check_result::<Isolation>,
        },
    ]
}

pub fn target(name: &str) -> Target {
    targets()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no target `{name}`"))
}

// ------------------------------------------------ distributed runs' messages

/// A batch of judge and genome games on generated maps, as a coordinator
/// makes one: the seed every batch and result check starts from.
pub fn seed_batch<G: GameKit>() -> wire::Batch {
    use gridtune::arena::executor::GameTask;
    use gridtune::bots::BotSpec;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let maps: Vec<G::Map> = (0..2)
        .map(|_| G::parse_map(&G::generate_map_text(&mut rng), "generated").expect("a generated map"))
        .collect();
    let bots: Vec<BotSpec> = G::JUDGES[..G::PLAYERS.min(G::JUDGES.len())]
        .iter()
        .map(|j| BotSpec::Judge(j.to_string()))
        .chain([BotSpec::Genome {
            label: String::new(),
            weights: Genome::defaults(G::PARAMS).weights,
            limits: gridtune::search::Limits::nodes(200),
        }])
        .collect();
    let tasks: Vec<GameTask> = (0..3)
        .map(|i| GameTask {
            map: i % maps.len(),
            seats: (0..G::PLAYERS).map(|s| &bots[(i + s) % bots.len()]).collect(),
            seed: i as u64 * 7 + 1,
        })
        .collect();
    wire::Batch::new::<G>("run1.nonce.0".into(), "gridtune.results.run1".into(), &maps, &tasks)
}

fn batch_seeds<G: GameKit>() -> Vec<String> {
    let batch = seed_batch::<G>();
    vec![
        String::from_utf8(batch.to_json()).expect("JSON is text"),
        serde_json::to_string_pretty(&batch).expect("a batch serialises"),
    ]
}

/// The error of a refused message names it (`batch` or `result`) and shows
/// no Rust debug text.
fn names_message(message: &str, input: &str) -> Result<(), String> {
    if !message.contains("batch") && !message.contains("result") {
        return Err(format!("error `{message}` names neither the batch nor the result"));
    }
    no_debug_text(message, input)
}

fn check_batch<G: GameKit>(text: &str) -> Result<(), String> {
    let batch = match wire::read_batch(text.as_bytes()) {
        Ok(b) => b,
        Err(e) => return names_message(&e.to_string(), text),
    };
    let again = wire::read_batch(&batch.to_json()).map_err(|e| format!("a read batch does not read back: {e}"))?;
    if again != batch {
        return Err("a read batch reads back different".into());
    }
    match batch.decode::<G>(false) {
        Ok(decoded) => {
            if decoded.tasks().len() != batch.games.len() {
                return Err("a decoded batch lost games".into());
            }
            Ok(())
        }
        Err(e) => names_message(&e.to_string(), text),
    }
}

fn result_seeds<G: GameKit>() -> Vec<String> {
    use gridtune::arena::executor::{Executor, Local};
    let batch = seed_batch::<G>();
    let decoded = batch.decode::<G>(false).expect("the seed batch decodes");
    let games = <Local as Executor<G>>::play(&Local, &decoded.maps, &decoded.tasks());
    let result = wire::BatchResult::new(&batch.id, "host-1", &games, 0.25);
    vec![String::from_utf8(result.to_json()).expect("JSON is text")]
}

fn check_result<G: GameKit>(text: &str) -> Result<(), String> {
    let result = match wire::read_result(text.as_bytes()) {
        Ok(r) => r,
        Err(e) => return names_message(&e.to_string(), text),
    };
    let again = wire::read_result(&result.to_json()).map_err(|e| format!("a read result does not read back: {e}"))?;
    if again != result {
        return Err("a read result reads back different".into());
    }
    let batch = seed_batch::<G>();
    match result.check_against(&batch, G::PLAYERS) {
        Ok(games) => {
            if games.len() != batch.games.len() || games.iter().any(|g| g.points.len() != G::PLAYERS) {
                return Err("a checked result does not fit its batch".into());
            }
            Ok(())
        }
        Err(e) => names_message(&e.to_string(), text),
    }
}

// ---------------------------------------------------------------- generators

/// Any text: bytes read as `from_utf8_lossy` reads them, any characters, and
/// the characters the formats are made of, so that a random input gets past
/// the first line now and then.
pub fn arbitrary_text() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..400).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        ".{0,300}",
        "[ -~\n\t\r]{0,400}",
        "[0-9 .#xo/\n-]{0,400}",
        "(turn|seat|ms|played|map|game|result|end|fault|reply|\\(|\\)|\\[|\\]|:|,|\"|[0-9]|[a-z_]| |\n|\\| ){0,200}",
    ]
}

/// Numbers a careless or hostile user writes where a small one belongs.
pub const EXTREMES: &[&str] = &[
    "-1",
    "0",
    "1",
    "-0",
    "00",
    "+1",
    "0.5",
    "-0.0",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e308",
    "-1e308",
    "1e309",
    "1e-320",
    "NaN",
    "inf",
    "-inf",
];

/// Characters worth dropping into a file: the formats' own, whitespace, a
/// byte order mark, a NUL and letters outside ASCII.
const CHARS: &[char] = &[
    '.', '#', '0', '1', '2', '3', '4', '5', '7', '9', 'x', 'o', '-', '/', ' ', '\t', '\r', '\n', ':', ',', '(', ')',
    '[', ']', '{', '}', '"', '|', '\u{feff}', '\0', 'é', '😀',
];

const WHITESPACE: &[&str] = &[" ", "  ", "\t", "\r\n", "\n", "\n\n", "\u{feff}", "\u{a0}"];

#[derive(Clone, Debug)]
pub enum Mutation {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    SetChar(usize, char),
    DeleteChar(usize),
    InsertWhitespace(usize, &'static str),
    Truncate(usize),
    /// Replaces the n-th number with an extreme one.
    Number(usize, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let i = any::<usize>();
    prop_oneof![
        i.prop_map(Mutation::DeleteLine),
        i.prop_map(Mutation::DuplicateLine),
        (i, i).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (i, prop_oneof![3 => proptest::sample::select(CHARS), 1 => any::<char>()])
            .prop_map(|(a, c)| Mutation::SetChar(a, c)),
        i.prop_map(Mutation::DeleteChar),
        (i, proptest::sample::select(WHITESPACE)).prop_map(|(a, w)| Mutation::InsertWhitespace(a, w)),
        i.prop_map(Mutation::Truncate),
        (i, proptest::sample::select(EXTREMES)).prop_map(|(a, v)| Mutation::Number(a, v)),
    ]
}

/// One of `seeds`, changed by one to four mutations.
pub fn mutated(seeds: Vec<String>) -> impl Strategy<Value = String> {
    assert!(!seeds.is_empty(), "a target needs seed inputs");
    (
        proptest::sample::select(seeds),
        proptest::collection::vec(mutation(), 1..=4),
    )
        .prop_map(|(seed, ms)| ms.iter().fold(seed, |text, m| apply(&text, m)))
}

pub fn apply(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize, n: usize| if n == 0 { 0 } else { i % n };
    match *m {
        Mutation::DeleteLine(i) if !lines.is_empty() => {
            lines.remove(at(i, lines.len()));
            lines.concat()
        }
        Mutation::DuplicateLine(i) if !lines.is_empty() => {
            let i = at(i, lines.len());
            lines.insert(i, lines[i]);
            lines.concat()
        }
        Mutation::SwapLines(a, b) if !lines.is_empty() => {
            let n = lines.len();
            lines.swap(at(a, n), at(b, n));
            lines.concat()
        }
        Mutation::SetChar(i, c) if !chars.is_empty() => {
            let mut chars = chars;
            let i = at(i, chars.len());
            chars[i] = c;
            chars.into_iter().collect()
        }
        Mutation::DeleteChar(i) if !chars.is_empty() => {
            let mut chars = chars;
            chars.remove(at(i, chars.len()));
            chars.into_iter().collect()
        }
        Mutation::InsertWhitespace(i, w) => {
            let i = at(i, chars.len() + 1);
            let mut out: String = chars[..i].iter().collect();
            out.push_str(w);
            out.extend(&chars[i..]);
            out
        }
        Mutation::Truncate(i) => chars[..at(i, chars.len() + 1)].iter().collect(),
        Mutation::Number(i, v) => {
            let numbers = number_spans(text);
            if numbers.is_empty() {
                return text.to_string();
            }
            let (start, end) = numbers[at(i, numbers.len())];
            format!("{}{v}{}", &text[..start], &text[end..])
        }
        _ => text.to_string(),
    }
}

/// Byte spans of the decimal numbers in `text` (a sign, digits, a fraction).
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

// --------------------------------------------------------- shared checks

/// An error a user reads must say where, and hold no Rust debug text.
fn names_place(message: &str, place: &str, input: &str) -> Result<(), String> {
    if !message.contains(place) {
        return Err(format!("error `{message}` does not name `{place}`"));
    }
    no_debug_text(message, input)
}

/// `input` is the text read: an error may quote it, whatever it holds.
fn no_debug_text(message: &str, input: &str) -> Result<(), String> {
    if message.contains("Some(") && !input.contains("Some(") {
        return Err(format!("error `{message}` shows Rust debug text"));
    }
    Ok(())
}

/// A line number in an error points into the text (or just past its end,
/// where something is missing).
fn line_in_text(line: usize, text: &str, message: &str) -> Result<(), String> {
    let lines = text.split('\n').count();
    if line == 0 || line > lines + 1 {
        return Err(format!("error `{message}` gives line {line} of a {lines}-line text"));
    }
    Ok(())
}

/// Whether a RON error says where: `line:column`.
fn has_position(message: &str) -> bool {
    let b = message.as_bytes();
    (1..b.len().saturating_sub(1)).any(|i| b[i] == b':' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn project(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

// ------------------------------------------------------------------ genomes

fn genome_target<G: GameKit>(name: &'static str) -> Target {
    Target {
        name,
        seeds: genome_seeds::<G>,
        check: check_genome::<G>,
    }
}

fn genome_seeds<G: GameKit>() -> Vec<String> {
    let mut out: Vec<String> = ["default.ron", "best.ron"]
        .iter()
        .map(|f| read(&project(&format!("genomes/{}/{f}", G::NAME))))
        .collect();
    out.push(Genome::defaults(G::PARAMS).to_ron(G::NAME, G::PARAMS, "defaults"));
    out
}

fn check_genome<G: GameKit>(text: &str) -> Result<(), String> {
    match Genome::parse(text, G::NAME, G::PARAMS) {
        Ok(genome) => {
            let printed = genome.to_ron(G::NAME, G::PARAMS, "a comment\nof two lines");
            match Genome::parse(&printed, G::NAME, G::PARAMS) {
                Ok(again) if again == genome => Ok(()),
                other => Err(format!("printed as\n{printed}\nit reads back as {other:?}")),
            }
        }
        // RON's own errors give `line:column`; the checks name the weight
        // or field in backquotes.
        Err(message) if has_position(&message) || message.contains('`') => no_debug_text(&message, text),
        Err(message) => Err(format!("error `{message}` does not say where")),
    }
}

// ------------------------------------------------------------------ configs

fn config_target<G: GameKit>(name: &'static str) -> Target {
    Target {
        name,
        seeds: config_seeds::<G>,
        check: check_config::<G>,
    }
}

fn config_seeds<G: GameKit>() -> Vec<String> {
    let mut out = vec![G::DEFAULT_CONFIG.to_string()];
    let parsed =
        EvolveConfig::parse(G::DEFAULT_CONFIG, "default", &G::judge_names()).expect("the default config is valid");
    out.push(parsed.to_ron());
    out
}

fn check_config<G: GameKit>(text: &str) -> Result<(), String> {
    match EvolveConfig::parse(text, ORIGIN, &G::judge_names()) {
        Ok(config) => {
            let printed = config.to_ron();
            match EvolveConfig::parse(&printed, ORIGIN, &G::judge_names()) {
                // A config that passed its checks holds no NaN, so it must
                // read back equal.
                Ok(again) if again == config => Ok(()),
                other => Err(format!("printed as\n{printed}\nit reads back as {other:?}")),
            }
        }
        Err(e) => names_place(&e.to_string(), ORIGIN, text),
    }
}

// --------------------------------------------------------------------- maps

fn map_target<G: GameKit>(name: &'static str) -> Target
where
    G::Map: PartialEq,
{
    Target {
        name,
        seeds: map_seeds::<G>,
        check: check_map::<G>,
    }
}

fn map_seeds<G: GameKit>() -> Vec<String> {
    let mut out: Vec<String> = files_under(&project(&format!("maps/{}", G::NAME)), "txt")
        .iter()
        .map(|p| read(p))
        .collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    out.extend((0..8).map(|_| G::generate_map_text(&mut rng)));
    out
}

fn check_map<G: GameKit>(text: &str) -> Result<(), String>
where
    G::Map: PartialEq,
{
    match G::parse_map(text, ORIGIN) {
        Ok(map) => {
            usable(&G::start(&map));
            let printed = G::map_text(&map);
            match G::parse_map(&printed, ORIGIN) {
                Ok(again) if again == map => Ok(()),
                other => Err(format!("printed as\n{printed}\nit reads back as {other:?}")),
            }
        }
        Err(e) => {
            names_place(&e.to_string(), ORIGIN, text)?;
            line_in_text(e.line, text, &e.to_string())
        }
    }
}

// ------------------------------------------------- positions from random play

/// Positions met in random games on generated maps, seeded: starts, middle
/// games, and finished games.
pub fn random_positions<G: GameKit>(games: usize, seed: u64) -> Vec<G> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = G::Moves::default();
    for _ in 0..games {
        let text = G::generate_map_text(&mut rng);
        let map = G::parse_map(&text, "generated").expect("generated maps are valid");
        let mut state = G::start(&map);
        let keep_every = rng.random_range(3..12);
        for ply in 0.. {
            if ply % keep_every == 0 {
                out.push(state.clone());
            }
            let actors: Vec<usize> = match state.to_move() {
                ToMove::Over => break,
                ToMove::One(p) => vec![p],
                ToMove::All => (0..G::PLAYERS).collect(),
            };
            let mut joint = Vec::new();
            for p in actors {
                state.legal_moves(p, &mut moves);
                let legal = moves.as_slice();
                joint.push(legal[rng.random_range(0..legal.len())]);
            }
            if G::SIMULTANEOUS {
                state.play_joint(&joint);
            } else {
                state.play(joint[0]);
            }
        }
        out.push(state);
    }
    out
}

/// A game's position text as `gridtune move` reads it, for `player`.
pub trait PositionText: GameKit {
    fn position_text(&self, player: usize) -> String;
}

impl PositionText for Isolation {
    fn position_text(&self, _player: usize) -> String {
        // The header must agree with the turn number's side.
        isolation::protocol::header(self, self.side()) + &isolation::protocol::turn_block(self)
    }
}

impl PositionText for LightCycles {
    fn position_text(&self, player: usize) -> String {
        lightcycles::protocol::header(self, player) + &lightcycles::protocol::turn_block(self)
    }
}

impl PositionText for Slime {
    fn position_text(&self, player: usize) -> String {
        slime::protocol::argument(self, player)
    }
}

impl PositionText for Ataxx {
    fn position_text(&self, player: usize) -> String {
        format!("{player}\n") + &ataxx::protocol::turn_input(self, "a1", RowOrder::TopFirst)
    }
}

fn position_target<G: PositionText>(name: &'static str) -> Target {
    Target {
        name,
        seeds: position_seeds::<G>,
        check: check_position::<G>,
    }
}

fn position_seeds<G: PositionText>() -> Vec<String> {
    let mut out: Vec<String> = random_positions::<G>(6, 11)
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let player = match s.to_move() {
                ToMove::One(p) => p,
                _ => i % G::PLAYERS,
            };
            s.position_text(player)
        })
        .collect();
    if G::NAME == "ataxx" {
        out.extend(fen_seeds());
    }
    out
}

/// A state a parser gives is one the rules can go on from: `gridtune move`
/// searches it (with overflow checks on, as tests build, an arithmetic
/// slip panics here).
fn usable<G: GameKit>(state: &G) {
    let mut moves = G::Moves::default();
    let _ = (state.max_length(), state.outcome(), state.hash());
    let actors = match state.to_move() {
        ToMove::Over => vec![],
        ToMove::One(p) => vec![p],
        ToMove::All => (0..G::PLAYERS).collect(),
    };
    for p in actors {
        state.legal_moves(p, &mut moves);
        assert!(!moves.as_slice().is_empty(), "seat {p} is to act with no legal move");
        let mut next = state.clone();
        if G::SIMULTANEOUS {
            let joint: Vec<G::Move> = (0..G::PLAYERS)
                .map(|q| {
                    next.legal_moves(q, &mut moves);
                    moves.as_slice()[0]
                })
                .collect();
            next.play_joint(&joint);
        } else {
            next.play(moves.as_slice()[0]);
        }
        let _ = (next.max_length(), next.to_move(), next.outcome());
    }
}

fn check_position<G: PositionText>(text: &str) -> Result<(), String> {
    match G::parse_position(text) {
        Ok((state, player)) => {
            usable(&state);
            // The printer keeps the board and the side, not every counter a
            // text may carry: a second reading must give the same text.
            let printed = state.position_text(player);
            match G::parse_position(&printed) {
                Ok((again, p)) if p == player && again.position_text(p) == printed => Ok(()),
                Ok((again, p)) => Err(format!(
                    "printed as\n{printed}\nit reads back for player {p} as\n{}",
                    again.position_text(p)
                )),
                Err(e) => Err(format!("printed as\n{printed}\nit does not read back: {e}")),
            }
        }
        Err(e) => {
            no_debug_text(&e.to_string(), text)?;
            line_in_text(e.line, text, &e.to_string())
        }
    }
}

// ----------------------------------------- the submission bots' turn parsers

/// What a grid game's bot reads: the header line, then turn blocks.
pub trait GridTurns: PositionText {
    fn parse_header(
        line: &str,
        line_no: usize,
    ) -> Result<gridtune::protocol::Header, gridtune::protocol::ProtocolError>;
    fn parse_turn(
        lines: &[&str],
        size: (usize, usize),
        first_line_no: usize,
    ) -> Result<Self, gridtune::protocol::ProtocolError>;
    fn turn_block(&self) -> String;
}

impl GridTurns for Isolation {
    fn parse_header(line: &str, no: usize) -> Result<gridtune::protocol::Header, gridtune::protocol::ProtocolError> {
        isolation::protocol::parse_header(line, no)
    }
    fn parse_turn(lines: &[&str], size: (usize, usize), no: usize) -> Result<Self, gridtune::protocol::ProtocolError> {
        isolation::protocol::parse_turn(lines, Some(size), no)
    }
    fn turn_block(&self) -> String {
        isolation::protocol::turn_block(self)
    }
}

impl GridTurns for LightCycles {
    fn parse_header(line: &str, no: usize) -> Result<gridtune::protocol::Header, gridtune::protocol::ProtocolError> {
        lightcycles::protocol::parse_header(line, no)
    }
    fn parse_turn(lines: &[&str], size: (usize, usize), no: usize) -> Result<Self, gridtune::protocol::ProtocolError> {
        lightcycles::protocol::parse_turn(lines, Some(size), no)
    }
    fn turn_block(&self) -> String {
        lightcycles::protocol::turn_block(self)
    }
}

/// Non-blank cleaned lines with their 1-based numbers, as `LineReader`
/// gives them to a bot.
fn bot_lines(text: &str) -> Vec<(usize, &str)> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, clean(l)))
        .filter(|(_, l)| !l.is_empty())
        .collect()
}

fn grid_turn_seeds<G: GridTurns>() -> Vec<String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut out = Vec::new();
    for _ in 0..4 {
        let text = G::generate_map_text(&mut rng);
        let map = G::parse_map(&text, "generated").expect("generated maps are valid");
        let start = G::start(&map);
        let mut session = start.position_text(0);
        for s in random_positions::<G>(1, rng.random()).iter().take(3) {
            session.push_str(&s.turn_block());
        }
        out.push(session);
    }
    out
}

/// Reads a session as the grid games' bots do (`serve_turns`): the header,
/// then blocks of `H + 3` lines.
fn check_grid_turns<G: GridTurns>(text: &str) -> Result<(), String> {
    let lines = bot_lines(text);
    let Some(&(no, first)) = lines.first() else {
        return Ok(());
    };
    let header = match G::parse_header(first, no) {
        Ok(h) => h,
        Err(e) => return line_in_text(e.line, text, &e.to_string()),
    };
    for block in lines[1..].chunks(header.height + 3) {
        let texts: Vec<&str> = block.iter().map(|&(_, l)| l).collect();
        match G::parse_turn(&texts, (header.width, header.height), block[0].0) {
            Ok(state) => {
                usable(&state);
                let printed = state.turn_block();
                let again: Vec<&str> = printed.lines().collect();
                match G::parse_turn(&again, (header.width, header.height), 1) {
                    Ok(s) if s.turn_block() == printed => {}
                    other => return Err(format!("printed as\n{printed}\nit reads back as {other:?}")),
                }
            }
            Err(e) => {
                no_debug_text(&e.to_string(), text)?;
                line_in_text(e.line, text, &e.to_string())?;
            }
        }
    }
    Ok(())
}

fn ataxx_turn_seeds() -> Vec<String> {
    random_positions::<Ataxx>(4, 9)
        .chunks(4)
        .map(|states| {
            let me = states[0].side();
            let mut session = format!("{me}\n");
            for s in states {
                session.push_str(&ataxx::protocol::turn_input(s, "b2", RowOrder::TopFirst));
            }
            session
        })
        .collect()
}

/// Reads a session as ataxx-bot does: the id line, then each turn's 7 rows,
/// `lastAction`, `actionsCount` and the actions.
fn check_ataxx_turns(text: &str) -> Result<(), String> {
    let lines = bot_lines(text);
    let me = match lines.first().map(|&(_, l)| l) {
        Some("0") => 0,
        Some("1") => 1,
        _ => return Ok(()),
    };
    let mut rest = &lines[1..];
    while rest.len() >= 9 {
        let Ok(count) = rest[8].1.parse::<usize>() else {
            return Ok(());
        };
        let Some(actions) = rest.get(9..9usize.saturating_add(count)) else {
            return Ok(());
        };
        let rows: Vec<&str> = rest[..7].iter().map(|&(_, l)| l).collect();
        let listed: Vec<&str> = actions.iter().map(|&(_, l)| l).collect();
        match read_turn(&rows, &listed, me) {
            Ok((state, moves)) => {
                usable(&state);
                if state.side() != me {
                    return Err(format!("read for player {me}, the position is for {}", state.side()));
                }
                if moves.len() != count {
                    return Err(format!("{count} actions listed, {} read", moves.len()));
                }
            }
            Err(e) => no_debug_text(&e.to_string(), text)?,
        }
        rest = &rest[9 + count..];
    }
    Ok(())
}

// ------------------------------------------------------------------ replies

fn reply_target<G: GameKit>(name: &'static str) -> Target {
    Target {
        name,
        seeds: reply_seeds::<G>,
        check: check_reply::<G>,
    }
}

/// The positions replies are read against (few, since each reply is read
/// against all of them), played once per thread: the fuzzers read millions
/// of replies.
fn reply_positions<G: GameKit + 'static>() -> Vec<G> {
    use std::any::Any;
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static PLAYED: RefCell<HashMap<&'static str, Box<dyn Any>>> = RefCell::new(HashMap::new());
    }
    PLAYED.with(|played| {
        played
            .borrow_mut()
            .entry(G::NAME)
            .or_insert_with(|| Box::new(random_positions::<G>(2, 3)))
            .downcast_ref::<Vec<G>>()
            .expect("one game per name")
            .clone()
    })
}

/// Who the referee asks in `state`.
fn asked<G: GameKit>(state: &G) -> Vec<usize> {
    let actors = match state.to_move() {
        ToMove::Over => vec![],
        ToMove::One(p) => vec![p],
        ToMove::All => (0..G::PLAYERS).collect(),
    };
    actors.into_iter().filter(|&p| G::asks(state, p)).collect()
}

fn reply_seeds<G: GameKit>() -> Vec<String> {
    let mut out = vec!["random".to_string(), "pass".to_string()];
    let mut moves = G::Moves::default();
    for state in reply_positions::<G>() {
        for p in asked(&state) {
            state.legal_moves(p, &mut moves);
            out.extend(moves.as_slice().iter().take(4).map(|&m| G::move_text(m)));
        }
    }
    out
}

fn check_reply<G: GameKit>(line: &str) -> Result<(), String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut pick = |n: usize| rng.random_range(0..n);
    let mut moves = G::Moves::default();
    for state in reply_positions::<G>() {
        for p in asked(&state) {
            for newline in [true, false] {
                let Ok(m) = G::read_reply(&state, p, line, newline, &mut pick) else {
                    continue;
                };
                state.legal_moves(p, &mut moves);
                if !moves.as_slice().contains(&m) {
                    return Err(format!(
                        "`{line}` read as {m:?}, not a legal move of seat {p} in\n{state}"
                    ));
                }
                if state.is_pass(&m) {
                    continue;
                }
                let text = G::move_text(m);
                match G::read_reply(&state, p, &text, true, &mut pick) {
                    Ok(again) if again == m => {}
                    other => return Err(format!("{m:?} written as `{text}` reads back as {other:?}")),
                }
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------- FEN

fn fen_seeds() -> Vec<String> {
    let mut out = vec![
        "x5o/7/7/7/7/7/o5x x 0 1".to_string(),
        "x5o/7/2-1-2/7/2-1-2/7/o5x o 3 12".to_string(),
    ];
    out.extend(random_positions::<Ataxx>(2, 21).iter().map(Ataxx::to_fen));
    out
}

fn check_fen(text: &str) -> Result<(), String> {
    match Ataxx::from_fen(text) {
        Ok(state) => {
            let printed = state.to_fen();
            match Ataxx::from_fen(&printed) {
                Ok(again) if again.to_fen() == printed => Ok(()),
                other => Err(format!("printed as `{printed}`, it reads back as {other:?}")),
            }
        }
        Err(e) => names_place(&e.to_string(), "bad FEN", text),
    }
}

// -------------------------------------------------------------- pentanomials

fn pentanomial_seeds() -> Vec<String> {
    vec![
        "98 151 464 165 122".to_string(),
        "[190 34 400 47 229]".to_string(),
        "0,0,0,0,1".to_string(),
    ]
}

/// `gridtune sprt --pentanomial`: read, then printed and read back the
/// same; or refused naming the text.
fn check_pentanomial(text: &str) -> Result<(), String> {
    use gridtune::stats::counts::Pentanomial;
    match text.parse::<Pentanomial>() {
        Ok(p) => match p.to_string().parse::<Pentanomial>() {
            Ok(again) if again == p => Ok(()),
            other => Err(format!("printed as `{p}`, it reads back as {other:?}")),
        },
        Err(e) => names_place(&e, &format!("pentanomial `{text}`"), text),
    }
}

// -------------------------------------------------------------- checkpoints

fn checkpoint_seeds() -> Vec<String> {
    use gridtune::tuner::ga::{Ga, GaConfig};
    use gridtune::tuner::synthetic::EloModel;
    use gridtune::tuner::Space;
    let model = EloModel::spsa_simul(3);
    let space = Space::cube(3, 0.0, 200.0).with_steps(vec![1.0; 3]);
    let cfg = GaConfig::new(400);
    let mut ga = Ga::new(&space, &model.start(2.0), &cfg, 3, 0);
    let mut out = Vec::new();
    for generation in 0..2 {
        ga.step(&model);
        let checkpoint = Checkpoint {
            game: "isolation".into(),
            ga: Some(ga.state.clone()),
            cma: None,
            history: Vec::new(),
            period_games: 10 * generation,
            period_tuning_games: 8,
            period_seconds: 1.5,
            games: 400,
            seconds: 12.25,
            period_faults: Vec::new(),
        };
        out.push(ron::ser::to_string_pretty(&checkpoint, ron::ser::PrettyConfig::default()).unwrap());
    }
    // And one of a CMA-ES run, whose state sits in `cma`.
    let cma_cfg = gridtune::tuner::cma::CmaConfig::new(400);
    let mut cma = gridtune::tuner::cma::Cma::new(&space, &model.start(2.0), &cma_cfg, 3);
    cma.step(&model);
    let checkpoint = Checkpoint {
        game: "isolation".into(),
        ga: None,
        cma: Some(cma.state.clone()),
        history: Vec::new(),
        period_games: 0,
        period_tuning_games: 0,
        period_seconds: 0.5,
        games: 0,
        seconds: 3.0,
        period_faults: Vec::new(),
    };
    out.push(ron::ser::to_string_pretty(&checkpoint, ron::ser::PrettyConfig::default()).unwrap());
    out
}

fn check_checkpoint(text: &str) -> Result<(), String> {
    match Checkpoint::parse(text, ORIGIN) {
        Ok(checkpoint) => {
            let printed = ron::ser::to_string_pretty(&checkpoint, ron::ser::PrettyConfig::default())
                .map_err(|e| format!("a read checkpoint does not print: {e}"))?;
            match Checkpoint::parse(&printed, ORIGIN) {
                // NaN never equals itself; the printed form is then compared.
                Ok(again)
                    if again == checkpoint
                        || ron::ser::to_string_pretty(&again, ron::ser::PrettyConfig::default()).ok()
                            == Some(printed.clone()) =>
                {
                    Ok(())
                }
                other => Err(format!("printed as\n{printed}\nit reads back as {other:?}")),
            }
        }
        Err(e) => names_place(&format!("{e}"), ORIGIN, text),
    }
}

// ------------------------------------------------------------------ replays

fn replay_target<G: GameKit>(name: &'static str) -> Target {
    Target {
        name,
        seeds: replay_seeds::<G>,
        check: check_replay::<G>,
    }
}

/// Replays of games the first judge plays against itself on generated maps.
pub fn replay_seeds<G: GameKit>() -> Vec<String> {
    use gridtune::bots::Seat;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    (0..3)
        .map(|i| {
            let text = G::generate_map_text(&mut rng);
            let map = G::parse_map(&text, "generated").expect("generated maps are valid");
            let mut seats: Vec<Seat<G>> = (0..G::PLAYERS)
                .map(|p| Seat::Builtin(G::judge(G::JUDGES[0], (i * 10 + p) as u64).expect("a judge")))
                .collect();
            let record = gridtune::arena::play_game(G::start(&map), &mut seats, true);
            let labels: Vec<String> = (0..G::PLAYERS)
                .map(|p| format!("judge:{} #{p}", G::JUDGES[0]))
                .collect();
            replay::render::<G>(&format!("generated{i}"), &map, &labels, i as u64, &record)
        })
        .collect()
}

/// A replay's text, as `render` writes one.
pub fn replay_text(r: &Replay) -> String {
    let mut out = format!("gridtune replay 1\ngame {}\n", r.game);
    for (p, label) in r.seats.iter().enumerate() {
        out.push_str(&format!("seat {p} {label}\n"));
    }
    out.push_str(&format!("seed {}\nmap {}\n", r.seed, r.map_name));
    for line in r.map_text.split_terminator('\n') {
        out.push_str(&format!("| {line}\n"));
    }
    for t in &r.turns {
        out.push_str(&format!("turn {} seat {} ms {}\n", t.turn + 1, t.seat, t.millis));
        if t.forced {
            out.push_str("  forced\n");
        }
        if let Some(reply) = &t.reply {
            out.push_str(&format!("  reply {reply}\n"));
        }
        if let Some((fault, why)) = &t.fault {
            out.push_str(&format!("  fault {}: {why}\n", fault.name()));
        }
        for line in t.stderr.split_terminator('\n') {
            out.push_str(&format!("  stderr | {line}\n"));
        }
        if let Some(played) = &t.played {
            out.push_str(&format!("  played {played}\n"));
        }
    }
    if !r.result.is_empty() {
        let points: Vec<String> = r.result.iter().map(|p| p.to_string()).collect();
        out.push_str(&format!("result {}\n", points.join(" ")));
    }
    out.push_str(&format!("end {}\n", r.end));
    if !r.detail.is_empty() {
        out.push_str(&format!("detail {}\n", r.detail));
    }
    for note in &r.notes {
        out.push_str(&format!("note {note}\n"));
    }
    out
}

fn check_replay<G: GameKit>(text: &str) -> Result<(), String> {
    match replay::parse(text, ORIGIN) {
        Ok(r) => {
            let printed = replay_text(&r);
            match replay::parse(&printed, ORIGIN) {
                // Debug text, so that a NaN result compares equal to itself;
                // where each record sat in its text is not part of it.
                Ok(again)
                    if format!(
                        "{:?}",
                        Replay {
                            lines: r.lines.clone(),
                            ..again.clone()
                        }
                    ) == format!("{r:?}") => {}
                other => return Err(format!("{r:?}\nprinted as\n{printed}\nreads back as {other:?}")),
            }
            if r.game == G::NAME {
                if let Err(e) = replay::show::<G>(&r, ORIGIN) {
                    names_place(&e.to_string(), ORIGIN, text)?;
                }
            }
            Ok(())
        }
        Err(e) => {
            names_place(&e.to_string(), ORIGIN, text)?;
            line_in_text(e.line, text, &e.to_string())
        }
    }
}

// --------------------------------------------------------------- bots files

const BOTS_BASE: &str = "/bots/base";

fn bots_file_seeds() -> Vec<String> {
    vec![
        r#"// bots.ron: name, any spec; optional dir (relative to this file), turn_ms, first_turn_ms
[
    (name: "mine", spec: "cmd:./target/release/mybot --fast", dir: "../mybot", turn_ms: 100),
    (name: "last-week", spec: "cmd:python3 -u bot_v3.py", first_turn_ms: 2000),
    (name: "tuned", spec: "genome:genomes/isolation/best.ron"),
    (name: "territory", spec: "judge:territory"),
]
"#
        .to_string(),
        r#"[(name: "a", spec: "sh:echo 3 4", dir: Some("/abs"), turn_ms: Some(5), first_turn_ms: Some(7))]"#
            .to_string(),
        "[]".to_string(),
    ]
}

fn bots_file_text(file: &BotsFile) -> String {
    let q = |s: &str| ron::to_string(s).expect("strings print");
    let mut out = String::from("[\n");
    for e in &file.entries {
        out.push_str(&format!("    (name: {}, spec: {}", q(&e.name), q(&e.spec)));
        if let Some(dir) = &e.dir {
            out.push_str(&format!(
                ", dir: {}",
                q(dir.to_str().expect("dirs read from text are UTF-8"))
            ));
        }
        if let Some(ms) = e.turn_ms {
            out.push_str(&format!(", turn_ms: {ms}"));
        }
        if let Some(ms) = e.first_turn_ms {
            out.push_str(&format!(", first_turn_ms: {ms}"));
        }
        out.push_str("),\n");
    }
    out.push_str("]\n");
    out
}

fn check_bots_file(text: &str) -> Result<(), String> {
    match BotsFile::parse(text, Path::new(BOTS_BASE)) {
        Ok(file) => {
            // Paths are resolved by the first reading, so a second leaves them.
            let printed = bots_file_text(&file);
            match BotsFile::parse(&printed, Path::new(BOTS_BASE)) {
                Ok(again) if again == file => Ok(()),
                other => Err(format!("printed as\n{printed}\nit reads back as {other:?}")),
            }
        }
        // RON's errors give `line:column`; the checks name the entry.
        Err(message) if has_position(&message) || message.contains("entry") => no_debug_text(&message, text),
        Err(message) => Err(format!("error `{message}` does not say where")),
    }
}

/// Runs a target's check as a proptest property.
pub fn property(target: &Target, text: &str) -> Result<(), TestCaseError> {
    (target.check)(text).map_err(|why| TestCaseError::fail(format!("{}: {why}\ninput: {text:?}", target.name)))
}

/// Two properties per target: arbitrary text, and mutated seeds.
macro_rules! properties {
    ($cases:expr; $($name:ident),* $(,)?) => {
        $(
            mod $name {
                use super::props;
                use proptest::prelude::*;

                proptest! {
                    #![proptest_config(props::config($cases))]

                    #[test]
                    fn arbitrary_text_is_read_or_refused_with_its_place(text in props::arbitrary_text()) {
                        props::property(&props::target(stringify!($name)), &text)?;
                    }

                    #[test]
                    fn mutated_valid_files_round_trip_or_name_the_place(
                        text in props::mutated((props::target(stringify!($name)).seeds)())
                    ) {
                        props::property(&props::target(stringify!($name)), &text)?;
                    }
                }
            }
        )*
    };
}

/// One cargo-fuzz input (fuzz/fuzz_targets): every target whose name starts
/// with `prefix` checks it, and a broken property panics, which libFuzzer
/// reports as a crash with the input saved.
pub fn fuzz_one(prefix: &str, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for target in targets().iter().filter(|t| t.name.starts_with(prefix)) {
        if let Err(why) = (target.check)(&text) {
            panic!("{}: {why}", target.name);
        }
    }
}
