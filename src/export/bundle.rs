//! `freeze --bundle`: a game's submission bot as one self-contained Rust
//! file that plain `rustc --edition 2021 -O FILE` builds, no Cargo.
//!
//! The sources are the crate's own, embedded here with `include_str!` when
//! gridtune is compiled. The bundle is the bot's `main` (with `gridtune::`
//! paths turned into `crate::`) followed by the modules it needs, each
//! inlined as `pub mod name { ... }` in the crate's own module tree, so every
//! `crate::...` and `super::...` path resolves as it does in the crate. The
//! modules needed are computed: the paths the bot names, then the paths those
//! modules name, and so on. A directory module (a `mod.rs`) contributes only
//! its inlined submodules and the re-exports of them (`pub use rules::X;`);
//! its own items (the `GameKit` impls, which need the tuning crates) stay out.
//! `#[cfg(test)] mod tests { ... }` blocks are dropped, and tuned.rs is
//! replaced with the constants rendered from the genome being frozen.
//!
//! Only the standard-library-only modules below can be bundled; a bot that
//! came to need another (a judge, MCTS, the maps) is an error naming it.

use super::freeze::render_tuned;
use crate::games::GameKit;
use crate::genome::Genome;
use std::collections::{BTreeMap, BTreeSet};

/// The crate root: only its `pub mod` lines are read.
const CRATE_ROOT: &str = include_str!("../lib.rs");

/// Every module a bundle may contain, by its path in the crate. A path whose
/// source declares submodules (`pub mod x;`) is a directory module.
const MODULES: &[(&str, &str)] = &[
    ("bitboard", include_str!("../bitboard.rs")),
    ("game", include_str!("../game.rs")),
    ("params", include_str!("../params.rs")),
    ("protocol", include_str!("../protocol.rs")),
    ("search", include_str!("../search/mod.rs")),
    ("search::alphabeta", include_str!("../search/alphabeta.rs")),
    ("search::linear", include_str!("../search/linear.rs")),
    ("search::simultaneous", include_str!("../search/simultaneous.rs")),
    ("games", include_str!("../games/mod.rs")),
    ("games::isolation", include_str!("../games/isolation/mod.rs")),
    ("games::isolation::engine", include_str!("../games/isolation/engine.rs")),
    (
        "games::isolation::features",
        include_str!("../games/isolation/features.rs"),
    ),
    (
        "games::isolation::protocol",
        include_str!("../games/isolation/protocol.rs"),
    ),
    ("games::isolation::rules", include_str!("../games/isolation/rules.rs")),
    ("games::isolation::tuned", include_str!("../games/isolation/tuned.rs")),
    ("games::lightcycles", include_str!("../games/lightcycles/mod.rs")),
    (
        "games::lightcycles::endgame",
        include_str!("../games/lightcycles/endgame.rs"),
    ),
    (
        "games::lightcycles::engine",
        include_str!("../games/lightcycles/engine.rs"),
    ),
    (
        "games::lightcycles::features",
        include_str!("../games/lightcycles/features.rs"),
    ),
    (
        "games::lightcycles::protocol",
        include_str!("../games/lightcycles/protocol.rs"),
    ),
    (
        "games::lightcycles::rules",
        include_str!("../games/lightcycles/rules.rs"),
    ),
    (
        "games::lightcycles::tuned",
        include_str!("../games/lightcycles/tuned.rs"),
    ),
    ("games::slime", include_str!("../games/slime/mod.rs")),
    ("games::slime::engine", include_str!("../games/slime/engine.rs")),
    ("games::slime::features", include_str!("../games/slime/features.rs")),
    ("games::slime::protocol", include_str!("../games/slime/protocol.rs")),
    ("games::slime::rules", include_str!("../games/slime/rules.rs")),
    ("games::slime::tuned", include_str!("../games/slime/tuned.rs")),
    ("games::ataxx", include_str!("../games/ataxx/mod.rs")),
    ("games::ataxx::engine", include_str!("../games/ataxx/engine.rs")),
    ("games::ataxx::features", include_str!("../games/ataxx/features.rs")),
    ("games::ataxx::protocol", include_str!("../games/ataxx/protocol.rs")),
    ("games::ataxx::rules", include_str!("../games/ataxx/rules.rs")),
    ("games::ataxx::tuned", include_str!("../games/ataxx/tuned.rs")),
];

/// Each game's submission bot (src/bin).
const BOTS: &[(&str, &str)] = &[
    ("isolation", include_str!("../bin/isolation_bot.rs")),
    ("lightcycles", include_str!("../bin/lightcycles_bot.rs")),
    ("slime", include_str!("../bin/slime_bot.rs")),
    ("ataxx", include_str!("../bin/ataxx_bot.rs")),
];

/// Why a bundle cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("no submission bot source is embedded for game `{0}`")]
    UnknownGame(String),
    #[error("`{module}` (needed by `{needed_by}`) is not standard-library-only, so it cannot go into a bundle")]
    NotBundleable { module: String, needed_by: String },
    #[error("`{module}` uses the crate `{krate}`; a bundle can only use the standard library")]
    UsesCrate { module: String, krate: String },
}

/// The bundle's text for game `G`, frozen from `genome` (read from `source`,
/// named in the header) with a per-move budget of `budget_ms`.
pub fn render_bundle<G: GameKit>(genome: &Genome, source: &str, budget_ms: u64) -> Result<String, BundleError> {
    let bot = BOTS
        .iter()
        .find(|(name, _)| *name == G::NAME)
        .ok_or_else(|| BundleError::UnknownGame(G::NAME.to_string()))?
        .1;
    let main = bot.replace("gridtune::", "crate::");
    let tuned_path = format!("games::{}::tuned", G::NAME);
    let tuned = render_tuned::<G>(genome, source, budget_ms);
    let mut texts: BTreeMap<&str, String> = MODULES.iter().map(|&(p, t)| (p, strip_tests(t))).collect();
    texts.insert(tuned_path.as_str(), tuned);
    let tree = Tree { texts };
    let needed = tree.needed(&main)?;

    let weights: Vec<String> = G::PARAMS
        .iter()
        .zip(&genome.weights)
        .map(|(p, v)| format!("{}={v}", p.name))
        .collect();
    let mut out = String::new();
    out.push_str(&format!(
        "// Generated by `gridtune freeze --bundle` (gridtune {}); do not edit.\n",
        env!("CARGO_PKG_VERSION")
    ));
    out.push_str(&format!("// Genome: {}\n", source.escape_debug()));
    out.push_str(&format!("// Weights: {}\n", weights.join(" ")));
    out.push_str(&format!("// Move budget: {budget_ms} ms\n"));
    out.push_str(&format!(
        "// The {}-bot submission in one file, standard library only. Build it with\n//     rustc --edition 2021 -O <this file>\n\n",
        G::NAME
    ));
    // The bot's own `//!` lines come first: inner attributes precede items.
    let (docs, body) = split_inner_docs(&main);
    out.push_str(&docs);
    // Not everything in an inlined module is used by this one bot.
    out.push_str("#![allow(dead_code)]\n");
    out.push_str(&body);
    tree.emit("", &needed, &mut out);
    Ok(out)
}

/// The sources of the bundleable modules, by path ("" is the crate root).
struct Tree<'a> {
    texts: BTreeMap<&'a str, String>,
}

impl<'a> Tree<'a> {
    fn text(&self, path: &str) -> Option<&str> {
        if path.is_empty() {
            Some(CRATE_ROOT)
        } else {
            self.texts.get(path).map(String::as_str)
        }
    }

    /// The submodules `path` declares, with their visibility, in order.
    fn children(&self, path: &str) -> Vec<(String, String)> {
        self.text(path).map(module_decls).unwrap_or_default()
    }

    fn is_dir(&self, path: &str) -> bool {
        !self.children(path).is_empty()
    }

    /// The modules the bot's `main` needs, with their ancestors.
    fn needed(&self, main: &str) -> Result<BTreeSet<String>, BundleError> {
        let macros = self.exported_macros();
        let mut needed = BTreeSet::new();
        let mut todo = self.scan("", main, "the bot's main", &macros)?;
        while let Some(path) = todo.pop() {
            let mut p = path.as_str();
            // A module needs its ancestors: they hold it.
            while !p.is_empty() {
                if needed.insert(p.to_string()) {
                    let text = self.text(p).expect("resolved paths have sources");
                    if self.is_dir(p) {
                        let children = reexported(text).into_iter().map(|child| join(p, &child));
                        todo.extend(children.filter(|c| self.texts.contains_key(c.as_str())));
                    } else {
                        todo.extend(self.scan(p, text, p, &macros)?);
                    }
                }
                p = parent(p);
            }
        }
        Ok(needed)
    }

    /// The modules `text` (module `at`, named `by` in errors) names by path
    /// or by a macro they export.
    fn scan(
        &self,
        at: &str,
        text: &str,
        by: &str,
        macros: &BTreeMap<String, String>,
    ) -> Result<Vec<String>, BundleError> {
        let mut found = Vec::new();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            if let Some(krate) = external_use(code) {
                return Err(BundleError::UsesCrate {
                    module: by.to_string(),
                    krate,
                });
            }
            for segments in paths(code) {
                found.extend(self.resolve(at, &segments, by)?);
            }
            for (name, module) in macros {
                if code.contains(&format!("{name}!")) {
                    found.push(module.clone());
                }
            }
        }
        Ok(found)
    }

    /// The deepest module a path names (`crate::a::b::Item` names `a::b`),
    /// or `None` for a path outside the crate.
    fn resolve(&self, at: &str, segments: &[String], by: &str) -> Result<Option<String>, BundleError> {
        let mut cur = match segments.first().map(String::as_str) {
            Some("crate") => String::new(),
            Some("self") => at.to_string(),
            Some("super") => parent(at).to_string(),
            _ => return Ok(None),
        };
        for seg in &segments[1..] {
            if seg == "super" {
                cur = parent(&cur).to_string();
                continue;
            }
            if !self.children(&cur).iter().any(|(_, name)| name == seg) {
                break;
            }
            cur = join(&cur, seg);
            if !self.texts.contains_key(cur.as_str()) {
                return Err(BundleError::NotBundleable {
                    module: format!("crate::{cur}"),
                    needed_by: by.to_string(),
                });
            }
        }
        Ok((!cur.is_empty()).then_some(cur))
    }

    /// `#[macro_export]` macros by name, with the module defining each.
    fn exported_macros(&self) -> BTreeMap<String, String> {
        let mut macros = BTreeMap::new();
        for (&path, text) in &self.texts {
            let mut exported = false;
            for line in text.lines() {
                let line = line.trim();
                if line == "#[macro_export]" {
                    exported = true;
                } else if let Some(rest) = line.strip_prefix("macro_rules!") {
                    if exported {
                        let name: String = rest.trim().chars().take_while(|c| is_ident(*c)).collect();
                        macros.insert(name, path.to_string());
                    }
                    exported = false;
                }
            }
        }
        macros
    }

    /// Writes the needed submodules of `at` as nested `mod` blocks.
    fn emit(&self, at: &str, needed: &BTreeSet<String>, out: &mut String) {
        for (vis, name) in self.children(at) {
            let path = join(at, &name);
            if !needed.contains(&path) {
                continue;
            }
            let text = self.text(&path).expect("needed modules have sources");
            out.push_str(&format!("\n{vis}mod {name} {{\n"));
            if self.is_dir(&path) {
                for line in text.lines() {
                    let keep_use = reexport_of(line).is_some_and(|child| needed.contains(&join(&path, &child)));
                    if line.starts_with("//!") || keep_use {
                        out.push_str(line);
                        out.push('\n');
                    }
                }
                self.emit(&path, needed, out);
            } else {
                out.push_str(text);
                if !text.ends_with('\n') {
                    out.push('\n');
                }
            }
            out.push_str(&format!("}} // mod {path}\n"));
        }
    }
}

/// `text` without its `#[cfg(test)] mod tests { ... }` block. The block ends
/// at the first `}` as indented as its `mod` line (rustfmt's layout).
fn strip_tests(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let next = lines.get(i + 1).copied().unwrap_or("");
        if line.trim() == "#[cfg(test)]" && next.trim_start().starts_with("mod tests") && next.trim_end().ends_with('{')
        {
            let indent = &next[..next.len() - next.trim_start().len()];
            let close = format!("{indent}}}");
            if let Some(end) = lines[i + 2..].iter().position(|l| l.trim_end() == close) {
                i += 2 + end + 1;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
        i += 1;
    }
    // The blank line that separated the block from what came before.
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The leading `//!` lines of a file, and the rest.
fn split_inner_docs(text: &str) -> (String, String) {
    let mut docs = String::new();
    let mut rest = String::new();
    let mut in_docs = true;
    for line in text.lines() {
        if in_docs && line.starts_with("//!") {
            docs.push_str(line);
            docs.push('\n');
        } else {
            in_docs = false;
            rest.push_str(line);
            rest.push('\n');
        }
    }
    (docs, rest)
}

/// Submodule declarations (`pub mod x;`, `mod x;`): (visibility, name).
fn module_decls(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_suffix(';')?;
            let (vis, rest) = match rest.find("mod ") {
                Some(i) => (&rest[..i], &rest[i + 4..]),
                None => return None,
            };
            let vis_ok = vis.is_empty() || vis == "pub " || vis == "pub(crate) ";
            (vis_ok && !rest.is_empty() && rest.chars().all(is_ident)).then(|| (vis.to_string(), rest.to_string()))
        })
        .collect()
}

/// The submodule a top-level `pub use child::...;` line re-exports from.
fn reexport_of(line: &str) -> Option<String> {
    let rest = line.strip_prefix("pub use ")?;
    line.ends_with(';').then_some(())?;
    let (first, _) = rest.split_once("::")?;
    first.chars().all(is_ident).then(|| first.to_string())
}

/// The submodules a directory module's text re-exports from.
fn reexported(text: &str) -> Vec<String> {
    text.lines().filter_map(reexport_of).collect()
}

/// The crate a `use` line imports from, when it is not the standard library
/// or this crate.
fn external_use(code: &str) -> Option<String> {
    let rest = code.trim_start();
    let rest = rest.strip_prefix("pub ").unwrap_or(rest);
    let rest = rest.strip_prefix("use ")?;
    let rest = rest.strip_prefix("::").unwrap_or(rest);
    let first: String = rest.chars().take_while(|c| is_ident(*c)).collect();
    let local = ["std", "core", "alloc", "crate", "super", "self"];
    // A mod.rs's `use alphabeta::X` would look like a crate here; directory
    // modules are never scanned this way, only leaf files and the bot.
    (!first.is_empty() && !local.contains(&first.as_str())).then_some(first)
}

/// The paths in a line of code that start at `crate`, `self` or `super`,
/// split into segments; `use a::{b, c::D}` gives `a::b` and `a::c::D`.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let starts = (i == 0 || !is_ident(chars[i - 1]) && chars[i - 1] != '$')
            && ["crate::", "self::", "super::"]
                .iter()
                .any(|p| chars[i..].iter().take(p.len()).copied().eq(p.chars()));
        if starts {
            let (segments, end) = path_at(&chars, i);
            found.extend(segments);
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// The path (or paths, for a `{...}` group) starting at `chars[i]`, and
/// where it ends.
fn path_at(chars: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut segments = Vec::new();
    loop {
        let start = i;
        while i < chars.len() && is_ident(chars[i]) {
            i += 1;
        }
        if i > start {
            segments.push(chars[start..i].iter().collect::<String>());
        }
        if chars.get(i) == Some(&':') && chars.get(i + 1) == Some(&':') {
            i += 2;
            if chars.get(i) == Some(&'{') {
                // A group: each item extends the path so far.
                let mut all = vec![segments.clone()];
                i += 1;
                loop {
                    while chars.get(i).is_some_and(|c| c.is_whitespace() || *c == ',') {
                        i += 1;
                    }
                    match chars.get(i) {
                        None => return (all, i),
                        Some('}') => return (all, i + 1),
                        _ => {}
                    }
                    let (inner, end) = path_at(chars, i);
                    for tail in inner {
                        let mut full = segments.clone();
                        full.extend(tail);
                        all.push(full);
                    }
                    if end == i {
                        i += 1;
                    } else {
                        i = end;
                    }
                }
            }
        } else {
            return (vec![segments], i);
        }
    }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}::{name}")
    }
}

fn parent(path: &str) -> &str {
    path.rfind("::").map_or("", |i| &path[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_groups() {
        let p = paths("use crate::protocol::{self, parse_ints, Header}; let x = super::rules::xy(1);");
        let text: Vec<String> = p.iter().map(|s| s.join("::")).collect();
        assert!(text.contains(&"crate::protocol".to_string()), "{text:?}");
        assert!(text.contains(&"crate::protocol::parse_ints".to_string()), "{text:?}");
        assert!(text.contains(&"super::rules::xy".to_string()), "{text:?}");
        assert!(paths("$crate::params::ParamSpec").is_empty());
    }

    #[test]
    fn test_blocks_are_dropped() {
        let text = "fn a() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n    }\n}\n";
        assert_eq!(strip_tests(text), "fn a() {}\n");
    }

    #[test]
    fn module_declarations() {
        let decls = module_decls("pub mod rules;\nmod x;\npub use rules::A;\nmod tests {\n");
        assert_eq!(
            decls,
            vec![
                ("pub ".to_string(), "rules".to_string()),
                (String::new(), "x".to_string())
            ]
        );
        assert_eq!(
            reexport_of("pub use rules::{Slime, SlimeMove};").as_deref(),
            Some("rules")
        );
    }

    #[test]
    fn a_module_outside_the_std_only_set_is_named() {
        let tree = Tree {
            texts: MODULES.iter().map(|&(p, t)| (p, t.to_string())).collect(),
        };
        let main = "use crate::search::mcts::Mcts;\nfn main() {}\n";
        let err = tree.needed(main).unwrap_err().to_string();
        assert!(
            err.contains("crate::search::mcts") && err.contains("not standard-library-only"),
            "{err}"
        );
        let err = tree.needed("use rand::Rng;\nfn main() {}\n").unwrap_err().to_string();
        assert!(err.contains("`rand`"), "{err}");
        let needed = tree.needed("use crate::search::Limits;\nfn main() {}\n").unwrap();
        let names: Vec<&str> = needed.iter().map(String::as_str).collect();
        // `search` re-exports from `alphabeta` and `linear`, so both come along.
        assert_eq!(names, ["game", "search", "search::alphabeta", "search::linear"]);
    }
}
