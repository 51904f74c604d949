//! The build id: a digest of everything that decides what a checked ruleset is and how it
//! is written down — the sources (`src/**`), the grammar (`grammar/**`), the locked
//! dependencies (`Cargo.lock`) and the package's version — handed to the crate as
//! `UMPIRE_BUILD_ID`. The cache of checked rulesets (`src/cache.rs`) keys every entry by
//! it, so that no build reads what another build wrote.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

fn main() {
    for watched in ["src", "grammar", "Cargo.lock", "build.rs"] {
        println!("cargo:rerun-if-changed={watched}");
    }
    let mut files = Vec::new();
    for dir in ["src", "grammar"] {
        walk(Path::new(dir), &mut files);
    }
    files.push(PathBuf::from("Cargo.lock"));
    // The same files in the same order on every machine.
    files.sort();
    let mut h = Sha256::new();
    h.update(b"umpire build id 1\0");
    h.update(env("CARGO_PKG_VERSION").as_bytes());
    h.update(b"\0");
    for f in &files {
        // A file that cannot be read counts as empty: it still changes the id by its name.
        let text = std::fs::read(f).unwrap_or_default();
        let name = f.to_string_lossy().replace('\\', "/");
        h.update((name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update((text.len() as u64).to_le_bytes());
        h.update(&text);
    }
    let id: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=UMPIRE_BUILD_ID={id}");
}

/// Every file under `dir`, depth first.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// An environment variable cargo sets for a build script ("" if it is not set).
fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}
