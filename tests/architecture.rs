//! The import rule of `src/README.md`, enforced: each module may import only the modules
//! its row of the table lists, and those must stand below it in the table, so imports run
//! one way, down the list. Every `crate::` path in `src/**/*.rs` counts — in `use` lines
//! and inline — and, in `lib.rs` (the crate root), every path through a module's name.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One row of the README's table: a module and what it may import.
struct Row {
    module: String,
    may_import: Vec<String>,
}

fn rows(readme: &str) -> Vec<Row> {
    let mut out = Vec::new();
    for line in readme.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // `| `module` | job | may import |`
        if cells.len() < 5 || !cells[1].starts_with('`') {
            continue;
        }
        let module = ticked(cells[1]).into_iter().next().unwrap_or_default();
        let module = module
            .trim_end_matches(".rs")
            .trim_end_matches('/')
            .to_string();
        out.push(Row {
            module,
            may_import: ticked(cells[3])
                .into_iter()
                .map(|m| m.trim_end_matches('/').to_string())
                .collect(),
        });
    }
    out
}

/// The `backticked` words of a table cell.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file: `src/check/coverage/facts.rs` → `[check, coverage, facts]`,
/// `src/check/mod.rs` → `[check]`, `src/lib.rs` → `[]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src/");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The code of a file without its comments (line and doc comments) and string literals,
/// so that a path mentioned in prose or text does not count.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' {
            // A raw string `r#"…"#` has no escapes; a plain one does.
            let raw_hashes = raw_prefix(b, i);
            i += 1;
            while i < b.len() {
                if raw_hashes.is_none() && b[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if b[i] == b'"' {
                    let n = raw_hashes.unwrap_or(0);
                    if b[i + 1..].iter().take(n).filter(|c| **c == b'#').count() == n {
                        i += 1 + n;
                        break;
                    }
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // A character literal such as '"'.
            i += 3;
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            i += 2;
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

/// Whether the string starting at `at` is raw (`r"`, `r#"`, `br"`): its number of `#`s.
fn raw_prefix(b: &[u8], at: usize) -> Option<usize> {
    let mut j = at;
    let mut hashes = 0;
    while j > 0 && b[j - 1] == b'#' {
        hashes += 1;
        j -= 1;
    }
    (j > 0 && b[j - 1] == b'r').then_some(hashes)
}

/// The first names of a group's paths: `crate::{a::X, b, c::{d, e}}` → `a`, `b`, `c`
/// (`group` is what follows `crate::{`, up to the end of the file).
fn group_heads(group: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                heads.push(&group[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                heads.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    heads
        .into_iter()
        .filter_map(|h| h.trim().split("::").next().map(str::trim))
        .filter(|h| !h.is_empty())
        .collect()
}

/// Every top-level module a file's code names, with the line it does so on. The binary
/// (`main.rs`) names the library's modules as `umpire::X`.
fn imports(path: &[String], code: &str, modules: &BTreeSet<String>) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    let is_root = path.is_empty();
    let is_main = path == ["main"];
    for (at, _) in code.match_indices("crate::{") {
        let line = code[..at].matches('\n').count() + 1;
        for head in group_heads(&code[at + "crate::{".len()..]) {
            let m = if modules.contains(head) {
                head.to_string()
            } else {
                "lib".to_string()
            };
            found.push((m, line));
        }
    }
    for (n, line) in code.lines().enumerate() {
        let words: Vec<&str> = line
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .filter(|w| w.contains("::"))
            .collect();
        for w in words {
            let segs: Vec<&str> = w.split("::").filter(|s| !s.is_empty()).collect();
            let Some(first) = segs.first() else { continue };
            let target = if *first == "crate" || (is_main && *first == "umpire") {
                segs.get(1).map(|s| s.to_string())
            } else if *first == "super" {
                // Pop one level per `super`; past the top, the next name is a module.
                let ups = segs.iter().take_while(|s| **s == "super").count();
                if ups >= path.len() {
                    segs.get(ups).map(|s| s.to_string())
                } else {
                    None
                }
            } else if is_root && modules.contains(*first) {
                Some(first.to_string())
            } else {
                None
            };
            if let Some(t) = target {
                // A crate-root item (`crate::Ruleset`, `crate::read_file`) is the root's.
                let m = if modules.contains(&t) {
                    t
                } else {
                    "lib".to_string()
                };
                found.push((m, n + 1));
            }
        }
    }
    found
}

#[test]
fn imports_run_down_the_table_of_src_readme() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let readme = fs::read_to_string(src.join("README.md")).expect("src/README.md");
    let table = rows(&readme);
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut modules: BTreeSet<String> = BTreeSet::new();
    for f in &files {
        let p = module_path(&src, f);
        modules.insert(match p.first() {
            Some(m) => m.clone(),
            None => f
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().to_string()),
        });
    }
    let mut problems = Vec::new();
    let place: BTreeMap<&str, usize> = table
        .iter()
        .enumerate()
        .map(|(i, r)| (r.module.as_str(), i))
        .collect();
    for m in &modules {
        if !place.contains_key(m.as_str()) {
            problems.push(format!("module `{m}` is not in the table of src/README.md"));
        }
    }
    for (i, r) in table.iter().enumerate() {
        if !modules.contains(&r.module) {
            problems.push(format!(
                "the table lists `{}`, which is not a module",
                r.module
            ));
        }
        for m in &r.may_import {
            match place.get(m.as_str()) {
                None => problems.push(format!(
                    "`{}` may import `{m}`, which is not in the table",
                    r.module
                )),
                Some(&j) if j <= i => problems.push(format!(
                    "`{}` may import `{m}`, which stands above it: imports run down the list",
                    r.module
                )),
                _ => {}
            }
        }
    }
    let mut used: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let path = module_path(&src, f);
        let me = match path.first() {
            Some(m) => m.clone(),
            None => f
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().to_string()),
        };
        let Some(&row) = place.get(me.as_str()) else {
            continue;
        };
        let text = fs::read_to_string(f).expect("a source file");
        for (m, line) in imports(&path, &code_only(&text), &modules) {
            if m == me || (me == "main" && m == "lib") {
                continue;
            }
            used.entry(me.clone()).or_default().insert(m.clone());
            if !table[row].may_import.contains(&m) {
                problems.push(format!(
                    "{}:{line}: `{me}` imports `{m}`, which its row of src/README.md does not allow",
                    f.strip_prefix(root).unwrap_or(f).display()
                ));
            }
        }
    }
    // The table is the true map: it allows no edge the code does not take.
    for r in &table {
        for m in &r.may_import {
            if !used.get(&r.module).is_some_and(|u| u.contains(m)) {
                problems.push(format!(
                    "src/README.md says `{}` may import `{m}`, and it does not: take it out of its row",
                    r.module
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the import rule is broken:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_scanner_sees_paths_in_code_and_not_in_comments_or_text() {
    let modules: BTreeSet<String> = ["eval", "repl", "value", "check"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let code = code_only(
        "use crate::eval::Options;\n// crate::repl in a comment\nlet s = \"crate::repl\";\nlet x = crate::value::Value::Bool(true);\nlet c = '\"'; let y = super::super::check::x;\n",
    );
    let found = imports(&["a".into(), "b".into()], &code, &modules);
    let names: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(names, ["eval", "value", "check"]);
    // In the crate root, a module's name alone is a path into it.
    let root = imports(
        &[],
        &code_only("use eval::Options;\nfn f() { value::x(); }\n"),
        &modules,
    );
    assert_eq!(
        root.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>(),
        ["eval", "value"]
    );
    // A group names each of its heads.
    let grouped = imports(
        &["a".into()],
        &code_only("use crate::{eval::{A, B}, value, Ruleset};"),
        &modules,
    );
    assert_eq!(
        grouped.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>(),
        ["eval", "value", "lib"]
    );
    // A crate-root item is the root's.
    let lib = imports(
        &["a".into()],
        &code_only("crate::Ruleset::load(x)"),
        &modules,
    );
    assert_eq!(lib, [("lib".to_string(), 1)]);
}
