//! Gives the build an identity, `GRIDTUNE_BUILD` (`0.1.0+src.<16 hex>`):
//! the package version and a hash of every file under src/ and of
//! Cargo.lock.
//!
//! A distributed run is byte-identical to a local one only if every worker
//! plays its games with the same code as the coordinator, and the package
//! version does not change with the code. Workers compare this identity
//! with each batch's (`distributed::wire`) and `gridtune --version` prints
//! it. It hashes the sources rather than asking git so that a tarball
//! checkout builds and a checkout with uncommitted edits is told apart.
//! Files outside src/ (genomes/, maps/) are not hashed: a batch carries its
//! weights and maps. The hash is FNV-1a, written here so the build script
//! needs no crate; it guards against mistakes, not against an attacker.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Cargo walks a directory given here, so a file added, edited or
    // removed anywhere under src/ runs this again.
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.lock");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root, Path::new("src"), &mut files);
    if root.join("Cargo.lock").is_file() {
        files.push("Cargo.lock".to_string());
    }
    // Byte order of '/'-separated paths: the same on every machine.
    files.sort();
    let mut hash = Fnv::new();
    for name in &files {
        let path = root.join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| fail(&path, e));
        // Name and length first, so moving bytes between files changes the hash.
        hash.write(name.as_bytes());
        hash.write(&[0]);
        hash.write(&(bytes.len() as u64).to_le_bytes());
        hash.write(&bytes);
    }
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    println!("cargo:rustc-env=GRIDTUNE_BUILD={version}+src.{:016x}", hash.0);
}

/// The files under `root/dir`, as '/'-separated paths from `root`. Hidden
/// entries are skipped: editors' swap and lock files come and go there (a
/// lock file may be a dangling link) and are no part of the build.
fn collect(root: &Path, dir: &Path, files: &mut Vec<String>) {
    let full = root.join(dir);
    let entries = std::fs::read_dir(&full).unwrap_or_else(|e| fail(&full, e));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| fail(&full, e));
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            fail(&entry.path(), "the file name is not UTF-8")
        };
        if name.starts_with('.') {
            continue;
        }
        let path = dir.join(name);
        if entry.path().is_dir() {
            collect(root, &path, files);
        } else {
            let parts: Vec<&str> = path.iter().map(|p| p.to_str().unwrap_or_default()).collect();
            files.push(parts.join("/"));
        }
    }
}

fn fail(path: &Path, why: impl std::fmt::Display) -> ! {
    eprintln!("build.rs: cannot hash {} for the build identity: {why}", path.display());
    std::process::exit(1)
}

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}
