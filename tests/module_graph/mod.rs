//! The module graph of a crate, read from its sources, and its cycles.
//!
//! A module is a file (or an inline `mod`); module A depends on module B
//! when any path in A resolves to an item defined in B: in a `use`, a
//! signature, a function body or a macro's arguments (where a lone word
//! that names a child module counts too, as a registry macro turns it into
//! paths through that module). Re-exports are
//! followed to the module that defines the item, so `use super::Thing` names
//! the module `Thing` comes from, not the parent that re-exports it.
//! `#[cfg(test)]` items and `macro_rules!` bodies are left out: tests may
//! reach anywhere, and a macro's paths belong to where it is called.
//!
//! Written for this crate because the tools we tried do not see it whole:
//! cargo-cycles lists edges between siblings only, and cargo-modules reads
//! `use` items and signatures but not paths in function bodies.

use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// A module's path below the crate root (`[]` is the root).
pub type ModPath = Vec<String>;

/// A reference found in a module, and where.
struct RawRef {
    what: Reference,
    line: usize,
}

enum Reference {
    /// A path as written, resolved against the module it is in.
    Written(Vec<String>),
    /// A path already made absolute when its `use` was read.
    Absolute(Vec<String>),
    /// A one-word macro name, which may be a `#[macro_export]` macro.
    Macro(String),
    /// A word in a macro's arguments, which may name a child module.
    Word(String),
}

#[derive(Default)]
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
    defs: BTreeSet<String>,
    /// Local name to the absolute path it imports (crate-internal only).
    imports: BTreeMap<String, Vec<String>>,
    /// Modules glob-imported (`use a::b::*`), as absolute paths.
    globs: Vec<Vec<String>>,
    /// Every use leaf and path found, unresolved.
    refs: Vec<RawRef>,
}

/// One dependency and the first place that makes it.
pub struct Edge {
    pub from: ModPath,
    pub to: ModPath,
    pub file: PathBuf,
    pub line: usize,
}

pub struct Crate {
    modules: BTreeMap<ModPath, Module>,
    /// `#[macro_export]` macros by name, with the module that defines each.
    macros: BTreeMap<String, ModPath>,
}

impl Crate {
    /// Reads the crate whose root file is `root` (`src/lib.rs`, `src/main.rs`).
    pub fn load(root: &Path) -> Result<Crate, String> {
        let mut krate = Crate {
            modules: BTreeMap::new(),
            macros: BTreeMap::new(),
        };
        let dir = root.parent().unwrap_or(Path::new(".")).to_path_buf();
        let items = parse(root)?;
        krate.load_module(Vec::new(), root, &items, &dir)?;
        Ok(krate)
    }

    fn load_module(&mut self, path: ModPath, file: &Path, items: &[syn::Item], dir: &Path) -> Result<(), String> {
        let mut module = Module {
            file: file.to_path_buf(),
            ..Module::default()
        };
        let mut uses = Vec::new();
        let mut children = Vec::new();
        for item in items {
            if is_test_only(item_attrs(item)) {
                continue;
            }
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    module.children.insert(name.clone());
                    children.push(m);
                }
                syn::Item::Use(u) => {
                    let mut leaves = Vec::new();
                    use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
                    let line = u.use_token.span.start().line;
                    uses.extend(leaves.into_iter().map(|l| (l, line)));
                }
                syn::Item::Macro(m) if m.ident.is_some() => {
                    let name = m.ident.as_ref().map(|i| i.to_string()).unwrap_or_default();
                    if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) {
                        self.macros.insert(name.clone(), path.clone());
                    }
                    module.defs.insert(name);
                }
                other => {
                    if let Some(name) = item_name(other) {
                        module.defs.insert(name);
                    }
                    let mut collector = Collector::default();
                    collector.visit_item(other);
                    module.refs.extend(collector.refs);
                }
            }
        }
        // Uses are read once the module's own names are known, since a
        // path may start from a child module or a local item.
        for (leaf, line) in uses {
            let Some(absolute) = absolute(&path, &module, &leaf.segments) else {
                continue;
            };
            match leaf.kind {
                LeafKind::Glob => module.globs.push(absolute.clone()),
                LeafKind::Name(ref local) if local != "_" => {
                    module.imports.insert(local.clone(), absolute.clone());
                }
                LeafKind::Name(_) => {}
            }
            module.refs.push(RawRef {
                what: Reference::Absolute(absolute),
                line,
            });
        }
        // A module's files on disk are its children even when no `mod` line
        // names them, as when a macro declares them (the games registry).
        // Crate roots share `src/` with each other, so they go by their
        // `mod` lines alone.
        let mut undeclared = Vec::new();
        if !path.is_empty() {
            for name in files_below(dir) {
                if module.children.insert(name.clone()) {
                    undeclared.push(name);
                }
            }
        }
        self.modules.insert(path.clone(), module);
        for name in undeclared {
            let mut child = path.clone();
            child.push(name.clone());
            let child_file = module_file(dir, &name);
            let items = parse(&child_file)?;
            self.load_module(child, &child_file, &items, &child_dir_of(&child_file, dir, &name))?;
        }
        for m in children {
            let name = m.ident.to_string();
            let mut child = path.clone();
            child.push(name.clone());
            let child_dir = dir.join(&name);
            match &m.content {
                Some((_, items)) => self.load_module(child, file, items, &child_dir)?,
                None => {
                    let child_file = module_file(dir, &name);
                    let items = parse(&child_file)?;
                    self.load_module(child, &child_file, &items, &child_dir_of(&child_file, dir, &name))?;
                }
            }
        }
        Ok(())
    }

    /// Each module's dependencies on the others.
    pub fn edges(&self) -> Vec<Edge> {
        let mut seen = BTreeSet::new();
        let mut edges = Vec::new();
        for (path, module) in &self.modules {
            for r in &module.refs {
                let to = match &r.what {
                    Reference::Absolute(absolute) => self.locate(absolute, 0).map(|(to, _)| to),
                    Reference::Macro(name) => self.macros.get(name).cloned(),
                    Reference::Word(word) if module.children.contains(word) => {
                        Some(path.iter().chain([word]).cloned().collect())
                    }
                    Reference::Word(_) => None,
                    Reference::Written(segments) => {
                        absolute(path, module, segments).and_then(|a| self.locate(&a, 0).map(|(to, _)| to))
                    }
                };
                let Some(to) = to else { continue };
                if &to != path && seen.insert((path.clone(), to.clone())) {
                    edges.push(Edge {
                        from: path.clone(),
                        to,
                        file: module.file.clone(),
                        line: r.line,
                    });
                }
            }
        }
        edges
    }

    /// The module defining the item at `absolute`, and whether the name was
    /// found there (an unknown name, such as an enum's variant, stays with
    /// the module it was looked up in).
    fn locate(&self, absolute: &[String], depth: usize) -> Option<(ModPath, bool)> {
        if depth > 32 {
            return None;
        }
        let mut current: ModPath = Vec::new();
        for (i, segment) in absolute.iter().enumerate() {
            let module = self.modules.get(&current)?;
            if module.children.contains(segment) {
                current.push(segment.clone());
                continue;
            }
            if module.defs.contains(segment) {
                return Some((current, true));
            }
            if let Some(target) = module.imports.get(segment) {
                let mut next = target.clone();
                next.extend_from_slice(&absolute[i + 1..]);
                return self.locate(&next, depth + 1);
            }
            if current.is_empty() {
                if let Some(home) = self.macros.get(segment) {
                    return Some((home.clone(), true));
                }
            }
            for glob in &module.globs {
                let mut next = glob.clone();
                next.extend_from_slice(&absolute[i..]);
                if let Some((found, true)) = self.locate(&next, depth + 1) {
                    return Some((found, true));
                }
            }
            return Some((current, false));
        }
        Some((current, true))
    }
}

/// The strongly connected components of more than one module (Tarjan).
pub fn cycles(edges: &[Edge]) -> Vec<Vec<ModPath>> {
    let mut nodes: BTreeMap<&ModPath, usize> = BTreeMap::new();
    for e in edges {
        let n = nodes.len();
        nodes.entry(&e.from).or_insert(n);
        let n = nodes.len();
        nodes.entry(&e.to).or_insert(n);
    }
    let names: Vec<&ModPath> = {
        let mut v = vec![&edges[0].from; nodes.len()];
        for (name, &i) in &nodes {
            v[i] = name;
        }
        v
    };
    let mut next = vec![Vec::new(); nodes.len()];
    for e in edges {
        next[nodes[&e.from]].push(nodes[&e.to]);
    }
    let mut tarjan = Tarjan {
        next: &next,
        index: vec![None; nodes.len()],
        low: vec![0; nodes.len()],
        on_stack: vec![false; nodes.len()],
        stack: Vec::new(),
        counter: 0,
        components: Vec::new(),
    };
    for v in 0..nodes.len() {
        if tarjan.index[v].is_none() {
            tarjan.connect(v);
        }
    }
    let mut out: Vec<Vec<ModPath>> = tarjan
        .components
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut c: Vec<ModPath> = c.into_iter().map(|i| names[i].clone()).collect();
            c.sort();
            c
        })
        .collect();
    out.sort();
    out
}

struct Tarjan<'a> {
    next: &'a [Vec<usize>],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    counter: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn connect(&mut self, v: usize) {
        self.index[v] = Some(self.counter);
        self.low[v] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for &w in &self.next[v] {
            match self.index[w] {
                None => {
                    self.connect(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.index[v] {
            let mut component = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}

/// The absolute path `segments` names when written in module `here`, or
/// `None` for a path outside the crate (std, another crate, a local
/// variable, a generic parameter).
fn absolute(here: &ModPath, module: &Module, segments: &[String]) -> Option<Vec<String>> {
    let first = segments.first()?;
    match first.as_str() {
        "crate" => Some(segments[1..].to_vec()),
        "self" => Some(here.iter().chain(&segments[1..]).cloned().collect()),
        "super" => {
            let mut base = here.clone();
            let mut rest = segments;
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        }
        name if module.children.contains(name) => Some(here.iter().chain(segments).cloned().collect()),
        name => module
            .imports
            .get(name)
            .map(|target| target.iter().chain(&segments[1..]).cloned().collect()),
    }
}

enum LeafKind {
    /// Brings one name into scope under this local name.
    Name(String),
    Glob,
}

struct Leaf {
    segments: Vec<String>,
    kind: LeafKind,
}

fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Leaf>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            // `use a::b::{self}` names `b` itself.
            let (segments, local) = if name == "self" {
                (prefix.clone(), prefix.last().cloned().unwrap_or_default())
            } else {
                (prefix.iter().cloned().chain([name.clone()]).collect(), name)
            };
            out.push(Leaf {
                segments,
                kind: LeafKind::Name(local),
            });
        }
        syn::UseTree::Rename(r) => out.push(Leaf {
            segments: prefix.iter().cloned().chain([r.ident.to_string()]).collect(),
            kind: LeafKind::Name(r.rename.to_string()),
        }),
        syn::UseTree::Glob(_) => out.push(Leaf {
            segments: prefix.clone(),
            kind: LeafKind::Glob,
        }),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, out);
            }
        }
    }
}

/// Collects the paths inside an item: in types, expressions, patterns,
/// nested `use`s, and the `crate::`/`super::`/`self::` paths in macro
/// arguments, which syn leaves as tokens.
#[derive(Default)]
struct Collector {
    refs: Vec<RawRef>,
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        // A one-word path is a local, a parameter or an imported name, and
        // the import is counted where it is made.
        if let (Some(first), true) = (path.segments.first(), segments.len() > 1) {
            self.refs.push(RawRef {
                what: Reference::Written(segments),
                line: first.ident.span().start().line,
            });
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
        let line = u.use_token.span.start().line;
        self.refs.extend(leaves.into_iter().map(|l| RawRef {
            what: Reference::Written(l.segments),
            line,
        }));
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(name) = mac.path.get_ident() {
            // `bail_input!` reaches an exported macro without a `use`.
            self.refs.push(RawRef {
                what: Reference::Macro(name.to_string()),
                line: name.span().start().line,
            });
        }
        self.visit_path(&mac.path);
        token_paths(mac.tokens.clone(), &mut self.refs);
    }

    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        // A `macro_rules!` body belongs to its callers.
        if m.ident.is_none() {
            self.visit_macro(&m.mac);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test_only(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }
}

/// Finds `crate::a::b`, `super::a` and `self::a` in a token stream, and
/// every lone word, which depends on a child module of the same name: a
/// macro such as the games registry turns `isolation: Isolation` into paths
/// through the module `isolation`.
fn token_paths(tokens: TokenStream, out: &mut Vec<RawRef>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        if let TokenTree::Ident(id) = &tokens[i] {
            out.push(RawRef {
                what: Reference::Word(id.to_string()),
                line: id.span().start().line,
            });
        }
        match &tokens[i] {
            TokenTree::Group(g) => token_paths(g.stream(), out),
            TokenTree::Ident(id) if ["crate", "super", "self"].contains(&id.to_string().as_str()) => {
                let preceded_by_dollar = i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
                let mut segments = vec![id.to_string()];
                let mut j = i + 1;
                while j + 2 < tokens.len() + 1 {
                    let colons = matches!(&tokens[j], TokenTree::Punct(p) if p.as_char() == ':')
                        && matches!(tokens.get(j + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                    match (colons, tokens.get(j + 2)) {
                        (true, Some(TokenTree::Ident(next))) => {
                            segments.push(next.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                    if j >= tokens.len() {
                        break;
                    }
                }
                if segments.len() > 1 && !preceded_by_dollar {
                    out.push(RawRef {
                        what: Reference::Written(segments),
                        line: id.span().start().line,
                    });
                }
                i = j.max(i + 1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

/// The file of module `name` declared in a module whose children live in `dir`.
fn module_file(dir: &Path, name: &str) -> PathBuf {
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        dir.join(name).join("mod.rs")
    }
}

/// Where the children of the module in `file` live.
fn child_dir_of(file: &Path, dir: &Path, name: &str) -> PathBuf {
    if file.ends_with("mod.rs") {
        file.parent().unwrap_or(dir).to_path_buf()
    } else {
        dir.join(name)
    }
}

/// The module names of the `.rs` files and `mod.rs` folders in `dir`.
fn files_below(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let path = e.path();
            let stem = path.file_stem()?.to_str()?.to_string();
            let is_module = if path.is_dir() {
                path.join("mod.rs").exists()
            } else {
                path.extension().is_some_and(|x| x == "rs") && stem != "mod"
            };
            is_module.then_some(stem)
        })
        .collect();
    names.sort();
    names
}

fn parse(file: &Path) -> Result<Vec<syn::Item>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let parsed = syn::parse_file(&text).map_err(|e| {
        let at = e.span().start();
        format!("{}:{}:{}: {e}", file.display(), at.line, at.column + 1)
    })?;
    Ok(parsed.items)
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && matches!(&a.meta, syn::Meta::List(list) if list.tokens.to_string() == "test")
    })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::TraitAlias(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// `a::b::c` for reports (`crate` for the root).
pub fn display(path: &ModPath) -> String {
    if path.is_empty() {
        "crate".to_string()
    } else {
        path.join("::")
    }
}
