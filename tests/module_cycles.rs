//! No import cycles between gridtune's modules (issue 14): the library's and
//! the CLI's module graphs, read from the sources by `module_graph`, are
//! acyclic. The checker is tested on small crates written here, so this
//! test can fail.

mod module_graph;

use module_graph::{cycles, display, Crate, Edge, ModPath};
use std::path::Path;

/// The cycles of the crate rooted at `root`, each with the edges that make
/// it and where.
fn cycles_of(root: &Path) -> Vec<String> {
    let krate = Crate::load(root).unwrap_or_else(|e| panic!("cannot read the crate at {}: {e}", root.display()));
    let edges = krate.edges();
    cycles(&edges)
        .into_iter()
        .map(|component| {
            let names: Vec<String> = component.iter().map(display).collect();
            let inside = |e: &&Edge| component.contains(&e.from) && component.contains(&e.to);
            let why: Vec<String> = edges
                .iter()
                .filter(inside)
                .map(|e| {
                    format!(
                        "  {} -> {} ({}:{})",
                        display(&e.from),
                        display(&e.to),
                        e.file.display(),
                        e.line
                    )
                })
                .collect();
            format!("{}\n{}", names.join(", "), why.join("\n"))
        })
        .collect()
}

#[test]
fn the_library_and_the_cli_have_no_import_cycles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for root in ["lib.rs", "main.rs"] {
        let found = cycles_of(&src.join(root));
        assert!(
            found.is_empty(),
            "import cycles in src/{root}'s crate:\n{}",
            found.join("\n")
        );
    }
}

/// Writes a small crate: `(file, text)` pairs below a fresh `src/`. The folder
/// is under the target directory, named for the crate alone, so each run
/// replaces the last one's instead of leaving another behind in /tmp.
fn small_crate(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("module-cycles-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    for (file, text) in files {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    dir.join("lib.rs")
}

fn modules(names: &[&str]) -> Vec<ModPath> {
    names
        .iter()
        .map(|n| n.split("::").map(String::from).collect())
        .collect()
}

fn found(root: &Path) -> Vec<Vec<ModPath>> {
    cycles(&Crate::load(root).unwrap().edges())
}

#[test]
fn a_cycle_through_use_lines_is_found() {
    let root = small_crate(
        "uses",
        &[
            ("lib.rs", "pub mod a;\npub mod b;\n"),
            ("a.rs", "use crate::b::B;\npub struct A(pub B);\n"),
            ("b.rs", "use crate::a::A;\npub struct B;\npub fn f(_: A) {}\n"),
        ],
    );
    assert_eq!(found(&root), vec![modules(&["a", "b"])]);
}

#[test]
fn a_cycle_through_a_function_body_or_a_macro_is_found() {
    let body = small_crate(
        "body",
        &[
            ("lib.rs", "pub mod x;\npub mod y;\n"),
            ("x.rs", "pub fn f() { crate::y::g() }\n"),
            ("y/mod.rs", "pub fn g() { let _ = super::x::f; }\n"),
        ],
    );
    assert_eq!(found(&body), vec![modules(&["x", "y"])]);
    let args = small_crate(
        "macro",
        &[
            ("lib.rs", "pub mod x;\npub mod y;\n"),
            ("x.rs", "pub fn f() -> String { format!(\"{}\", crate::y::G) }\n"),
            ("y.rs", "pub const G: u8 = 1;\npub fn g() { crate::x::f(); }\n"),
        ],
    );
    assert_eq!(found(&args), vec![modules(&["x", "y"])]);
}

#[test]
fn a_re_export_leads_to_the_module_that_defines_the_item() {
    // `shared` is used through the parent's re-export; the parent uses `user`.
    // Only a checker that stops at the re-export would see parent <-> user.
    let root = small_crate(
        "reexport",
        &[
            ("lib.rs", "pub mod p;\n"),
            (
                "p/mod.rs",
                "mod shared;\nmod user;\npub use shared::S;\npub fn go() { user::u(S) }\n",
            ),
            ("p/shared.rs", "pub struct S;\n"),
            ("p/user.rs", "use super::S;\npub fn u(_: S) {}\n"),
        ],
    );
    assert_eq!(found(&root), Vec::<Vec<ModPath>>::new());
    let edges = Crate::load(&root).unwrap().edges();
    let pairs: Vec<(String, String)> = edges.iter().map(|e| (display(&e.from), display(&e.to))).collect();
    assert!(pairs.contains(&("p::user".into(), "p::shared".into())), "{pairs:?}");
}

#[test]
fn modules_a_macro_declares_are_read_from_their_files() {
    // A registry macro declares `g`; the file is still a module of `games`.
    let root = small_crate(
        "registry",
        &[
            ("lib.rs", "pub mod games;\npub mod run;\n"),
            ("games/mod.rs", "register! { g }\n"),
            ("games/g.rs", "pub fn play() { crate::run::start() }\n"),
            (
                "run.rs",
                "pub fn start() {}\npub fn all() { crate::games::g::play() }\n",
            ),
        ],
    );
    assert_eq!(found(&root), vec![modules(&["games::g", "run"])]);
}

#[test]
fn a_word_in_a_macro_call_depends_on_the_child_module_it_names() {
    // The registry's expansion reaches `g::play`; `g` implements the parent's trait.
    let root = small_crate(
        "registry-words",
        &[
            ("lib.rs", "pub mod games;\n"),
            ("games/mod.rs", "pub trait Kit {}\nregister! { g: G }\n"),
            ("games/g.rs", "pub struct G;\nimpl super::Kit for G {}\n"),
        ],
    );
    assert_eq!(found(&root), vec![modules(&["games", "games::g"])]);
}

#[test]
fn tests_are_left_out() {
    let root = small_crate(
        "tests",
        &[
            ("lib.rs", "pub mod a;\npub mod b;\n"),
            ("a.rs", "pub fn f() { crate::b::g() }\n"),
            (
                "b.rs",
                "pub fn g() {}\n#[cfg(test)]\nmod tests { #[test] fn t() { crate::a::f() } }\n",
            ),
        ],
    );
    assert_eq!(found(&root), Vec::<Vec<ModPath>>::new());
}
