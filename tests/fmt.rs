//! `umpire fmt`: the layout of every ruleset in the repository is idempotent and keeps
//! its meaning (the checked program but for source positions, its warnings, every
//! example's result); comments stay where they were; the command line rewrites files
//! whole, keeps their line endings, and `--check` lists what would change.

mod common;

use common::{repo, root, stderr, stdout, umpire, umpire_in, Scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};
use umpire::fmt::format_source;
use umpire::limits::Limits;
use umpire::Ruleset;

/// Every `.rules` file under `dir`, at any depth.
fn rules_under(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            rules_under(&path, found);
        } else if path.extension().is_some_and(|x| x == "rules") {
            found.push(path);
        }
    }
}

/// Every ruleset of the repository: bundled, examples, test cases, benches.
fn every_ruleset() -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in ["rulesets", "examples", "tests", "benches"] {
        rules_under(&root().join(dir), &mut found);
    }
    found.sort();
    found
}

/// `v` with every span (`{ file, start, end }`) blanked.
fn without_spans(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
            keys.sort_unstable();
            if keys == ["end", "file", "start"] {
                return Value::Null;
            }
            Value::Object(
                map.into_iter()
                    .map(|(k, v)| (k, without_spans(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(without_spans).collect()),
        other => other,
    }
}

/// What checking `text` (named `name`) gives, but for source positions: the program
/// (spans blanked) and the warnings, or the errors; and each example check's result.
fn meaning(name: &str, text: &str) -> (Value, Vec<String>, Vec<String>) {
    let limits = Limits::default();
    match Ruleset::check_source(name, text, &limits) {
        Ok(checked) => {
            let program = serde_json::to_value(&checked.program).expect("a program serialises");
            let warnings = checked
                .warnings
                .iter()
                .map(|d| format!("{} {}", d.code, d.message))
                .collect();
            let rules = Ruleset::from_checked(checked, &limits);
            let results = rules
                .run_examples()
                .iter()
                .map(|r| {
                    let check: Vec<&str> = r.check.split_whitespace().collect();
                    let failure = r
                        .failure
                        .as_ref()
                        .map(|d| format!("{} {}", d.code, d.message));
                    format!(
                        "{} #{} {}: {failure:?}",
                        r.example,
                        r.index,
                        check.join(" ")
                    )
                })
                .collect();
            (without_spans(program), warnings, results)
        }
        Err(ds) => {
            let errors =
                ds.0.iter()
                    .map(|d| format!("{} {}", d.code, d.message))
                    .collect();
            (Value::Null, errors, Vec::new())
        }
    }
}

#[test]
fn meaning_tells_a_changed_value_from_a_moved_one() {
    let base = meaning("m.rules", "const a = 1\nexample \"e\" { a == 1 }");
    let moved = meaning(
        "m.rules",
        "\n\nconst  a =   1\nexample \"e\" {\n  a == 1\n}",
    );
    let changed = meaning("m.rules", "const a = 2\nexample \"e\" { a == 1 }");
    assert_eq!(base, moved);
    assert!(base.0 != changed.0, "a changed constant reads the same");
    assert_ne!(base.2, changed.2, "a failing example reads the same");
}

#[test]
fn every_ruleset_keeps_its_meaning_and_formats_once() {
    let all = every_ruleset();
    // The bundled four, the house rules, the case files: more than a hundred.
    assert!(all.len() > 100, "found only {} rulesets", all.len());
    let mut formatted = 0;
    for path in &all {
        let name = path.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).expect("a ruleset reads");
        let once = match format_source(&name, &text) {
            Ok(once) => once,
            Err(ds) => {
                // A file that does not parse is refused with the parser's error, which
                // `umpire check` gives too.
                assert!(!ds.0.is_empty(), "{name}: refused without a word");
                let checked = Ruleset::check_source(&name, &text, &Limits::default());
                let Err(check) = checked else {
                    panic!("{name}: fmt refused a ruleset that checks: {ds}");
                };
                assert_eq!(check.0[0].code, ds.0[0].code, "{name}");
                assert_eq!(check.0[0].message, ds.0[0].message, "{name}");
                continue;
            }
        };
        formatted += 1;
        let twice = format_source(&name, &once).expect("a laid-out ruleset parses");
        assert_eq!(twice, once, "{name}: formatting twice changed it");
        let (before, after) = (meaning(&name, &text), meaning(&name, &once));
        assert_eq!(before.1, after.1, "{name}: warnings or errors changed");
        assert_eq!(before.2, after.2, "{name}: an example's result changed");
        assert!(before.0 == after.0, "{name}: the checked program changed");
    }
    assert!(formatted > 100, "formatted only {formatted}");
}

#[test]
fn indentation_and_trailing_spaces_are_the_formatters_own() {
    // Every line of every ruleset stripped of its indentation and given trailing spaces
    // lays out as the ruleset itself does: indentation comes from the brackets and the
    // items, never from what was typed.
    let mut compared = 0;
    for path in every_ruleset() {
        let name = path.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("a ruleset reads");
        let Ok(want) = format_source(&name, &text) else {
            continue;
        };
        let flat: Vec<String> = text
            .lines()
            .map(|l| format!("{}   ", l.trim_start()))
            .collect();
        // (A CRLF file stays CRLF.)
        let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let got = format_source(&name, &flat.join(eol)).expect("still parses");
        assert!(
            got == want,
            "{name}: the layout depends on the indentation typed"
        );
        compared += 1;
    }
    assert!(compared > 100, "compared only {compared}");
}

#[test]
fn lines_that_go_on_and_items_that_share_a_line() {
    let text = r#"enum R { a "A", b "B" } const k = 1
table t(n: Int) -> R {
  1 => a;  2 => b
  3-4 =>
 a
  _ => if n > 10 {
  a
  } else { b }
}
modifiers m(n: Int) {
  "x" +1
      if n > 1   # on the next line
  "yy" -1 per n if n > 2
}
rule g(n: Int,
m: Int) -> Int
{
  let y = n +
  m
  y
}
"#;
    // Two definitions on a line are parted; a row whose cell is on the next line, and
    // the `if` of a modifier on the next line, go on one level in; a parameter on the
    // next line is an item of the bracket, one level in.
    let want = r#"enum R { a "A", b "B" }

const k = 1

table t(n: Int) -> R {
  1 => a; 2 => b
  3-4 =>
    a
  _ => if n > 10 {
    a
  } else { b }
}

modifiers m(n: Int) {
  "x" +1
    if n > 1  # on the next line
  "yy" -1 per n if n > 2
}

rule g(n: Int,
  m: Int) -> Int
{
  let y = n +
    m
  y
}
"#;
    assert_eq!(format_source("on.rules", text).expect("parses"), want);
}

#[test]
fn the_bundled_rulesets_are_formatted() {
    for name in [
        "furious_reason",
        "horse_and_musket",
        "kriegspiel",
        "little_wars",
    ] {
        let path = repo(&format!("rulesets/{name}.rules"));
        let text = std::fs::read_to_string(&path).expect("a bundled ruleset reads");
        let once = format_source(&path, &text).expect("a bundled ruleset parses");
        assert!(
            once == text,
            "{name}: run `umpire fmt rulesets/{name}.rules`"
        );
    }
}

#[test]
fn a_broken_ruleset_is_refused_with_the_parsers_error() {
    for text in [
        "rule r( {",
        "table t(n: Int) -> Int { 3–4 => 1 }",
        "const x = 1 +",
        "\"",
        "#",
    ] {
        match format_source("broken.rules", text) {
            Ok(out) if text == "#" => assert_eq!(out, "#\n"),
            Ok(out) => panic!("{text:?} formatted as {out:?}"),
            Err(ds) => assert_eq!(ds.0[0].code.as_str(), "umpire::parse::syntax", "{text:?}"),
        }
    }
}

/// A ruleset with a comment in every place one can stand.
const COMMENTED: &str = r#"# The head of the file.
ruleset "Comments" cite "a # in a text is no comment"
# Before a definition.
enum R { a "A", b "B" }   # after an enum
table t(n: Int) -> R {
  # Before the first row.
  7 or more => a   # after a row
  # Between rows.
  1-6 =>   b
}
rule r(n: Int) -> R {
    # Inside a rule body.
  let x = n + 1 # after a let
  t(x)
}
example "labels" { r(6) == a }
# At the end.
"#;

#[test]
fn comments_stay_where_they_were() {
    // Each comment on its line, before or after the code it was with; the text's `#`
    // is no comment; a blank line before each definition (and before the comment that
    // leads into it); the rows aligned; a comment after code two spaces after it.
    let want = r#"# The head of the file.
ruleset "Comments" cite "a # in a text is no comment"

# Before a definition.
enum R { a "A", b "B" }  # after an enum

table t(n: Int) -> R {
  # Before the first row.
  7 or more => a  # after a row
  # Between rows.
  1-6       => b
}

rule r(n: Int) -> R {
  # Inside a rule body.
  let x = n + 1  # after a let
  t(x)
}

example "labels" { r(6) == a }
# At the end.
"#;
    assert_eq!(format_source("c.rules", COMMENTED).expect("parses"), want);
}

#[test]
fn rows_grids_and_modifiers_are_laid_out_as_a_chart() {
    let text = r#"enum R { a "A", b "B", c "C" }
table crt(odds: Int, roll: Int) -> R {
  grid roll by odds {
    1 or less | 2 | 3 or more
    -1 or less => a | b | c
    0 => a | b | c
  }
  _ => c
}
table two(x: R, n: Int) -> Int {
  a, b | 1 => 1
  c | 2-6 => 2
  otherwise => 3
}
modifiers m(n: Int) {
  "Long label" +1 if n > 1
  "L" -n per n
  "Plain" +2
}
"#;
    // The grid's header stands over its cells; a one-key row (`otherwise`) spans the
    // key columns; a modifier's amount is padded only where a condition follows it.
    let want = r#"enum R { a "A", b "B", c "C" }

table crt(odds: Int, roll: Int) -> R {
  grid roll by odds {
                  1 or less | 2 | 3 or more
    -1 or less => a         | b | c
    0          => a         | b | c
  }
  _ => c
}

table two(x: R, n: Int) -> Int {
  a, b | 1   => 1
  c    | 2-6 => 2
  otherwise  => 3
}

modifiers m(n: Int) {
  "Long label" +1 if n > 1
  "L"          -n per n
  "Plain"      +2
}
"#;
    assert_eq!(format_source("chart.rules", text).expect("parses"), want);
}

#[test]
fn continuation_lines_and_literals() {
    // A `cite` under the rule's head is indented once; a length, a mixed number and a
    // fraction stay as written; runs of spaces become one.
    let text = "rule r(n: Int) -> Length\ncite \"x\"\n{\n      1 1/2\"   +   n  *  3/4\"\n}\n";
    let want = "rule r(n: Int) -> Length\n  cite \"x\"\n{\n  1 1/2\" + n * 3/4\"\n}\n";
    assert_eq!(format_source("lit.rules", text).expect("parses"), want);
}

/// Modified time of a file.
fn mtime(path: &str) -> std::time::SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .expect("a file's time")
}

const UNFORMATTED: &str = "const a  = 1\nconst b = 2\n";
const FORMATTED: &str = "const a = 1\n\nconst b = 2\n";

#[test]
fn check_lists_the_files_that_would_change_and_writes_nothing() {
    let dir = Scratch::new("check");
    std::fs::write(dir.join("messy.rules"), UNFORMATTED).expect("write");
    std::fs::write(dir.join("tidy.rules"), FORMATTED).expect("write");
    let o = umpire_in(&dir, &["fmt", "--check", "messy.rules", "tidy.rules"], "");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "messy.rules\n");
    assert_eq!(
        std::fs::read_to_string(dir.join("messy.rules")).expect("read"),
        UNFORMATTED
    );
    let o = umpire_in(&dir, &["fmt", "--check", "tidy.rules"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}

#[test]
fn a_file_is_rewritten_in_place_and_an_unchanged_one_left_alone() {
    let dir = Scratch::new("write");
    let (messy, tidy) = (dir.path("messy.rules"), dir.path("tidy.rules"));
    std::fs::write(&messy, UNFORMATTED).expect("write");
    std::fs::write(&tidy, FORMATTED).expect("write");
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    std::fs::File::options()
        .write(true)
        .open(&tidy)
        .and_then(|f| f.set_modified(old))
        .expect("set the time");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&messy, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    }
    let o = umpire_in(&dir, &["fmt", "messy.rules", "tidy.rules"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), FORMATTED);
    assert_eq!(mtime(&tidy), old, "an unchanged file was written");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&messy)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640);
    }
    // No temporary file left beside them.
    let left: Vec<String> = std::fs::read_dir(&*dir)
        .expect("list")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn line_endings_and_a_byte_order_mark_are_kept() {
    let dir = Scratch::new("crlf");
    let path = dir.path("win.rules");
    std::fs::write(
        &path,
        format!("\u{FEFF}{}", UNFORMATTED.replace('\n', "\r\n")),
    )
    .expect("write");
    let o = umpire_in(&dir, &["fmt", "win.rules"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = format!("\u{FEFF}{}", FORMATTED.replace('\n', "\r\n"));
    assert_eq!(std::fs::read_to_string(&path).expect("read"), want);
}

#[test]
fn a_syntax_error_leaves_the_file_and_the_others_are_done() {
    let dir = Scratch::new("broken");
    let (broken, messy) = (dir.path("broken.rules"), dir.path("messy.rules"));
    let text = "const a  = 1\nrule r( {\n";
    std::fs::write(&broken, text).expect("write");
    std::fs::write(&messy, UNFORMATTED).expect("write");
    let o = umpire_in(&dir, &["fmt", "broken.rules", "messy.rules"], "");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    // Under the file's name, as `umpire check` reports it.
    assert!(err.contains("broken.rules: 1 error"), "{err}");
    assert!(err.contains("umpire::parse::syntax"), "{err}");
    assert!(err.contains("broken.rules:2:"), "{err}");
    assert_eq!(std::fs::read_to_string(&broken).expect("read"), text);
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), FORMATTED);
}

#[test]
fn a_folder_a_missing_file_and_a_bundled_name_are_refused() {
    let dir = Scratch::new("refused");
    std::fs::create_dir(dir.join("sub")).expect("mkdir");
    for (arg, says) in [
        ("sub", "sub is a folder, not a file"),
        ("missing.rules", "cannot read missing.rules"),
        (
            "little_wars",
            "`little_wars` is a bundled ruleset, not a file",
        ),
    ] {
        let o = umpire_in(&dir, &["fmt", arg], "");
        assert_eq!(o.status.code(), Some(1), "{arg}");
        assert!(stderr(&o).contains(says), "{arg}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{arg}");
    }
}

#[test]
fn standard_input_is_laid_out_on_standard_output() {
    let dir = Scratch::new("stdin");
    let o = umpire_in(&dir, &["fmt", "-"], UNFORMATTED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), FORMATTED);
    let o = umpire_in(&dir, &["fmt", "--check", "-"], UNFORMATTED);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "-\n");
    let o = umpire_in(&dir, &["fmt", "-"], "rule r( {");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("umpire::parse::syntax"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_bundled_rulesets_pass_the_check_ci_runs() {
    let o = umpire(&[
        "fmt",
        "--check",
        "rulesets/furious_reason.rules",
        "rulesets/horse_and_musket.rules",
        "rulesets/kriegspiel.rules",
        "rulesets/little_wars.rules",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

#[cfg(unix)]
#[test]
fn a_link_is_followed_and_a_read_only_file_refused() {
    let dir = Scratch::new("link");
    let (real, link, locked) = (
        dir.path("real.rules"),
        dir.path("link.rules"),
        dir.path("locked.rules"),
    );
    std::fs::write(&real, UNFORMATTED).expect("write");
    std::os::unix::fs::symlink(&real, &link).expect("symlink");
    let o = umpire_in(&dir, &["fmt", "link.rules"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The file the link names is rewritten; the link stays a link.
    assert_eq!(std::fs::read_to_string(&real).expect("read"), FORMATTED);
    let meta = std::fs::symlink_metadata(&link).expect("link");
    assert!(meta.file_type().is_symlink());
    // A read-only file is not renamed over.
    std::fs::write(&locked, UNFORMATTED).expect("write");
    let mut perms = std::fs::metadata(&locked).expect("meta").permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&locked, perms).expect("chmod");
    let o = umpire_in(&dir, &["fmt", "locked.rules"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot write locked.rules: it is read-only"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&locked).expect("read"), UNFORMATTED);
}

#[test]
fn a_hard_linked_file_and_a_layout_past_the_size_limit_are_left_unchanged() {
    let dir = Scratch::new("hard");
    let (one, other) = (dir.path("one.rules"), dir.path("other.rules"));
    std::fs::write(&one, UNFORMATTED).expect("write");
    std::fs::hard_link(&one, &other).expect("hard link");
    // A new file renamed over one name would part it from the other: refused.
    let o = umpire_in(&dir, &["fmt", "one.rules"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("hard links"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&one).expect("read"), UNFORMATTED);
    // Two definitions on two lines (24 bytes) laid out with a blank line between them
    // (25 bytes): past a limit of 24, the file would no longer load, so it is kept.
    let small = dir.path("small.rules");
    let text = "const a = 1\nconst b = 2\n";
    assert_eq!(text.len(), 24);
    std::fs::write(&small, text).expect("write");
    let o = umpire_in(&dir, &["fmt", "--max-file-size", "24", "small.rules"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("larger than the limit"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&small).expect("read"), text);
    // Within a limit of 25 it is laid out.
    let o = umpire_in(&dir, &["fmt", "--max-file-size", "25", "small.rules"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&small).expect("read"),
        "const a = 1\n\nconst b = 2\n"
    );
}
