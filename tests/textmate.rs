//! The TextMate grammar `editors/umpire.tmLanguage.json`, run by the engine VS Code uses
//! (`vscode-textmate` over `vscode-oniguruma`, by `editors/test/tokenize.mjs`, one node
//! process for every file) on every bundled ruleset, every example, the language feature
//! rulesets, the docs' ruleset blocks and `editors/test/sample.rules`: invariants reasoned
//! from the language (comments, texts, reserved words, dice, lengths, definitions), and
//! snapshots of the scopes of chosen lines of the sample. The VS Code extension's manifest
//! is held to the grammar and the language.
//!
//! The tests need node. When `editors/test/node_modules` is missing the test runs
//! `npm ci` there (`.ci/run` does it before `cargo test`). Without node or npm, or when
//! `npm ci` cannot fetch the packages, each test prints a notice and passes, except under
//! `CI=true`, where that is a failure. To see how the grammar reads a file:
//! `node editors/test/tokenize.mjs FILE` (after `npm ci` in `editors/test`).

mod common;

use common::{root, umpire};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// A file as `tokenize.mjs` tokenised it.
#[derive(Deserialize)]
struct Tokenised {
    file: String,
    lines: Vec<Line>,
    /// The depth of the grammar's stack of open rules after the last line (1: none open).
    end_depth: u32,
}

#[derive(Deserialize)]
struct Line {
    /// The depth of the stack of open rules when the line starts.
    depth: u32,
    /// Whether the engine gave up on the line (past its time limit).
    stopped: bool,
    tokens: Vec<Token>,
}

#[derive(Deserialize)]
struct Token {
    text: String,
    scopes: Vec<String>,
}

fn on_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

fn test_dir() -> PathBuf {
    root().join("editors/test")
}

/// `program ARGS` in `dir`, ended well; or what went wrong, in words.
fn run(program: &str, args: &[&str], dir: &Path) -> Result<String, String> {
    match Command::new(program).args(args).current_dir(dir).output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).into_owned()),
        Ok(o) => Err(format!(
            "`{program} {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Err(format!("`{program}` cannot be run: {e}")),
    }
}

/// Node, with the two npm packages installed in `editors/test` (by `npm ci`, once, when
/// they are missing); or why not.
fn node_ready() -> Result<(), String> {
    static READY: OnceLock<Result<(), String>> = OnceLock::new();
    READY
        .get_or_init(|| {
            let dir = test_dir();
            run("node", &["--version"], &dir)?;
            let modules = dir.join("node_modules");
            if !modules.join("vscode-textmate").is_dir()
                || !modules.join("vscode-oniguruma").is_dir()
            {
                run("npm", &["ci", "--no-audit", "--no-fund"], &dir)?;
            }
            Ok(())
        })
        .clone()
}

/// Whether node can run the grammar here: if not, a notice (outside CI) or a failure.
fn node_or_skip(test: &str) -> bool {
    match node_ready() {
        Ok(()) => true,
        Err(why) if on_ci() => panic!("{test} needs node and npm under CI=true: {why}"),
        Err(why) => {
            eprintln!("notice: {test} was skipped: {why} (install node and npm to run it)");
            false
        }
    }
}

/// The docs' ruleset blocks (marked `rules`), each written to a file of its own.
fn docs_blocks() -> Vec<PathBuf> {
    let text = std::fs::read_to_string(root().join("docs/language.md")).expect("docs read");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("textmate-docs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("folder for the docs' blocks");
    let mut out = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        match block.as_mut() {
            None if line.trim_end() == "```rules" => block = Some(String::new()),
            None => {}
            Some(b) if line.trim_end() == "```" => {
                let path = dir.join(format!("block{:02}.rules", out.len() + 1));
                std::fs::write(&path, b).expect("block written");
                out.push(path);
                block = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
        }
    }
    out
}

/// The `.rules` files under `dir`, in name order, folders within it too.
fn rules_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(rules_under(&p));
        } else if p.extension().is_some_and(|x| x == "rules") {
            out.push(p);
        }
    }
    out
}

/// Every file the grammar is tried on.
fn corpus() -> &'static [PathBuf] {
    static FILES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut files = rules_under(&root().join("rulesets"));
        files.extend(rules_under(&root().join("examples")));
        let language = root().join("tests/language");
        files.extend(
            rules_under(&language)
                .into_iter()
                .filter(|p| p.parent() == Some(language.as_path())),
        );
        files.push(test_dir().join("sample.rules"));
        files.extend(docs_blocks());
        files
    })
}

/// Lines the language refuses, which must not take the lines after them with them: a
/// text not closed on its line, a rulebook's en dash in a range.
const BROKEN: &str = "rule r() -> Int { \"not closed\n\
                      # a comment after it\n\
                      table t(roll: Int) -> Int {\n  3\u{2013}4 => 1\n}\n";

fn broken_file() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("textmate-broken");
    std::fs::create_dir_all(&dir).expect("folder for the broken lines");
    let path = dir.join("broken.rules");
    std::fs::write(&path, BROKEN).expect("broken lines written");
    path
}

/// Every file of the corpus, then the broken lines, tokenised by one node process;
/// `None` (with a notice) where node is missing outside CI.
fn tokenised(test: &str) -> Option<&'static [Tokenised]> {
    if !node_or_skip(test) {
        return None;
    }
    static TOKENS: OnceLock<Vec<Tokenised>> = OnceLock::new();
    Some(TOKENS.get_or_init(|| {
        let mut files = corpus().to_vec();
        files.push(broken_file());
        let mut args = vec!["tokenize.mjs".to_string()];
        args.extend(files.iter().map(|p| p.to_string_lossy().into_owned()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run("node", &args, &test_dir()).unwrap_or_else(|e| panic!("{e}"));
        let parsed: Vec<Tokenised> = serde_json::from_str(&out).expect("tokenize.mjs prints JSON");
        assert_eq!(parsed.len(), files.len(), "a result for each file");
        parsed
    }))
}

/// What a character of a line is, by the language's lexical rules: in a comment (`#` to
/// the end of the line, outside a text), in a text (a `"` not straight after a number's
/// digits, where it is an inch mark, to its closing `"`, `\` escaping the character
/// after it; a text is one line), or code.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Code,
    Comment,
    Text,
}

fn kinds(chars: &[char]) -> Vec<Kind> {
    let mut out = vec![Kind::Code; chars.len()];
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '#' => {
                out[i..].fill(Kind::Comment);
                break;
            }
            '"' if !after_number(chars, i) => {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                let end = (i + 1).min(chars.len());
                out[start..end].fill(Kind::Text);
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether position `i` comes straight after a number's digits: `6"`, `1 3/4"`, `2'`, not
/// the digits that end a name (`x2`).
fn after_number(chars: &[char], i: usize) -> bool {
    let mut j = i;
    while j > 0 && chars[j - 1].is_ascii_digit() {
        j -= 1;
    }
    j < i && (j == 0 || !is_word_char(chars[j - 1]))
}

/// The scopes of each character of a line, the tokens laid end to end.
fn scopes_of(line: &Line) -> Vec<&[String]> {
    line.tokens
        .iter()
        .flat_map(|t| t.text.chars().map(move |_| t.scopes.as_slice()))
        .collect()
}

fn has(scopes: &[String], prefix: &str) -> bool {
    scopes.iter().any(|s| s.starts_with(prefix))
}

/// The words of a line that lie wholly in code: (first character, the word).
fn code_words(chars: &[char], kind: &[Kind]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if is_word_char(chars[i]) && (i == 0 || !is_word_char(chars[i - 1])) {
            let mut j = i;
            while j < chars.len() && is_word_char(chars[j]) {
                j += 1;
            }
            if kind[i..j].iter().all(|k| *k == Kind::Code) {
                out.push((i, chars[i..j].iter().collect()));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn is_dice(word: &str) -> bool {
    let digits = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let sides = digits
        .strip_prefix('d')
        .or_else(|| digits.strip_prefix('D'));
    sides.is_some_and(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
}

/// Where the keys of a row end (its `=>`), when the line is one row: code with no
/// bracket, brace, `=` or `;` before its first `=>`, and no text (an inch mark is no
/// text: it is code).
fn row_keys_end(chars: &[char], kind: &[Kind]) -> Option<usize> {
    let arrow = (1..chars.len())
        .find(|i| chars[i - 1] == '=' && chars[*i] == '>' && kind[*i] == Kind::Code)?
        - 1;
    let keys = &chars[..arrow];
    let clean = keys
        .iter()
        .zip(kind)
        .all(|(c, k)| *k == Kind::Code && !"(){}[];=".contains(*c));
    (clean && keys.iter().any(|c| !c.is_whitespace())).then_some(arrow)
}

/// The words that start a definition at the start of a line: a line starting with one
/// (or with a comment) is outside every rule of the grammar, nothing left open by the
/// lines before.
const DEFINITION_STARTS: [&str; 15] = [
    "ruleset",
    "rule",
    "table",
    "enum",
    "record",
    "const",
    "modifiers",
    "example",
    "state",
    "interpretation",
    "list",
    "extends",
    "use",
    "override",
    "die",
];

/// Every way a tokenised file breaks the invariants, in words.
fn problems(file: &Tokenised) -> Vec<String> {
    let text = std::fs::read_to_string(&file.file).expect("file read");
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != file.lines.len() {
        let (read, tokenised) = (lines.len(), file.lines.len());
        return vec![format!("{read} lines, {tokenised} tokenised")];
    }
    let mut out = Vec::new();
    if file.end_depth != 1 {
        let depth = file.end_depth;
        out.push(format!(
            "a rule of the grammar is left open at the end ({depth})"
        ));
    }
    for (n, (text, line)) in lines.iter().zip(&file.lines).enumerate() {
        let joined: String = line.tokens.iter().map(|t| t.text.as_str()).collect();
        let found = if joined != *text {
            vec![format!("its tokens make `{joined}`")]
        } else {
            line_problems(text, line)
        };
        out.extend(
            found
                .into_iter()
                .map(|p| format!("line {} `{text}`: {p}", n + 1)),
        );
    }
    out
}

/// A line and its tokens, character by character and word by word.
struct Read<'a> {
    chars: Vec<char>,
    kind: Vec<Kind>,
    scopes: Vec<&'a [String]>,
    words: Vec<(usize, String)>,
}

fn line_problems(text: &str, line: &Line) -> Vec<String> {
    let mut out = Vec::new();
    if line.stopped {
        out.push("the engine gave up on it".to_string());
    }
    let first = text.split_whitespace().next().unwrap_or("");
    let starts_definition = !text.starts_with(char::is_whitespace)
        && (first.starts_with('#') || DEFINITION_STARTS.contains(&first));
    if starts_definition && line.depth != 1 {
        let depth = line.depth;
        out.push(format!(
            "a definition starts inside an open rule of the grammar ({depth})"
        ));
    }
    let chars: Vec<char> = text.chars().collect();
    let kind = kinds(&chars);
    let words = code_words(&chars, &kind);
    let read = Read {
        scopes: scopes_of(line),
        chars,
        kind,
        words,
    };
    out.extend(character_problems(&read));
    out.extend(word_problems(&read));
    out.extend(row_problems(&read));
    out
}

/// Comments and texts scoped as such, and nothing else; every character of code scoped;
/// a number's mark (`6"`, `2'`) part of a length; nothing invalid.
fn character_problems(read: &Read) -> Vec<String> {
    let mut out = Vec::new();
    for (i, c) in read.chars.iter().enumerate() {
        let (s, column) = (read.scopes[i], i + 1);
        if let Some(bad) = s.iter().find(|s| s.starts_with("invalid")) {
            out.push(format!("`{c}` (column {column}) is {bad}"));
        }
        let comment = has(s, "comment.line.number-sign");
        let string = has(s, "string.quoted.double");
        let own_scope = s.iter().skip(1).any(|x| !x.starts_with("meta."));
        let wrong = match read.kind[i] {
            Kind::Comment => !comment,
            Kind::Text => !string,
            Kind::Code => comment || string || (!c.is_whitespace() && !own_scope),
        };
        if wrong {
            let kind = read.kind[i];
            out.push(format!(
                "`{c}` (column {column}) of {kind:?} is scoped {s:?}"
            ));
        }
        let mark = matches!(c, '"' | '\'' | '″' | '′') && after_number(&read.chars, i);
        if read.kind[i] == Kind::Code && mark && !has(s, "constant.numeric.length") {
            out.push(format!(
                "the mark `{c}` (column {column}) is not scoped a length"
            ));
        }
    }
    out
}

/// Reserved words scoped as keywords (`true` and `false` as constants), dice as dice, the
/// name a definition defines as an `entity.name`, and the title of a `ruleset` or an
/// `example` too.
fn word_problems(read: &Read) -> Vec<String> {
    let mut out = Vec::new();
    let Read {
        chars,
        scopes,
        words,
        ..
    } = read;
    for (k, (at, word)) in words.iter().enumerate() {
        let s = scopes[*at];
        if umpire::names::RESERVED.contains(&word.as_str()) {
            let ok = if word == "true" || word == "false" {
                has(s, "constant.language.boolean")
            } else {
                has(s, "keyword.")
            };
            if !ok {
                out.push(format!("the reserved word `{word}` is scoped {s:?}"));
            }
        }
        let end = at + word.chars().count();
        if let Some(i) = (*at..end).find(|i| scopes[*i] != s) {
            out.push(format!(
                "the word `{word}` is split: {s:?}, then {:?}",
                scopes[i]
            ));
        }
        if is_dice(word) && !has(s, "constant.numeric.dice") {
            out.push(format!("the dice `{word}` are scoped {s:?}"));
        }
        let declares = ["rule", "table", "enum", "record", "const", "modifiers"];
        if let Some((next_at, next)) = words
            .get(k + 1)
            .filter(|_| declares.contains(&word.as_str()))
        {
            let spaced = chars[end..*next_at].iter().all(|c| c.is_whitespace());
            if spaced && !has(scopes[*next_at], "entity.name.") {
                out.push(format!(
                    "`{next}`, the name `{word}` defines, is scoped {:?}",
                    scopes[*next_at]
                ));
            }
        }
        if word == "ruleset" || word == "example" {
            let quote = (end..chars.len()).find(|i| !chars[*i].is_whitespace());
            let inside = quote.filter(|q| chars[*q] == '"').map(|q| q + 1);
            if let Some(i) = inside.filter(|i| chars.get(*i).is_some_and(|c| *c != '"')) {
                if !has(scopes[i], "entity.name.") {
                    out.push(format!(
                        "the title after `{word}` is scoped {:?}",
                        scopes[i]
                    ));
                }
            }
        }
    }
    out
}

/// A table row or `match` arm: its keys are patterns, never arithmetic. A `-` straight
/// after a number (`2-3`, `13"-24"`) or a value's name (`one_one-three_one`) is a range,
/// and a name is an enum value (or a list's name).
fn row_problems(read: &Read) -> Vec<String> {
    let mut out = Vec::new();
    let Some(arrow) = row_keys_end(&read.chars, &read.kind) else {
        return out;
    };
    let chars = &read.chars;
    for i in 0..arrow {
        let prev = chars[..i].iter().rev().find(|c| !c.is_whitespace());
        let after_value =
            prev.is_some_and(|c| is_word_char(*c) || matches!(c, '"' | '\'' | '″' | '′'));
        if chars[i] == '-' && after_value && !has(read.scopes[i], "keyword.operator.range") {
            out.push(format!(
                "the `-` (column {}) of a row's range is scoped {:?}",
                i + 1,
                read.scopes[i]
            ));
        }
    }
    let bound = [
        "or",
        "more",
        "less",
        "than",
        "to",
        "otherwise",
        "_",
        "true",
        "false",
    ];
    for (at, word) in read.words.iter().filter(|(at, _)| *at < arrow) {
        let name =
            !word.starts_with(|c: char| c.is_ascii_digit()) && !bound.contains(&word.as_str());
        if name && !has(read.scopes[*at], "variable.other.enummember") {
            out.push(format!(
                "the key `{word}` of a row is scoped {:?}",
                read.scopes[*at]
            ));
        }
    }
    out
}

#[test]
fn every_ruleset_example_and_docs_block_tokenises_as_the_language_reads_it() {
    let Some(files) = tokenised("the TextMate grammar test") else {
        return;
    };
    let expected = corpus();
    let bundled = expected
        .iter()
        .filter(|p| p.starts_with(root().join("rulesets")))
        .count();
    assert!(
        bundled >= 4,
        "the four bundled rulesets are among the files"
    );
    assert!(
        expected.len() >= 30,
        "rulesets, examples, features, docs blocks: {}",
        expected.len()
    );
    let mut all = Vec::new();
    for f in &files[..expected.len()] {
        for p in problems(f) {
            all.push(format!("{}: {p}", f.file));
        }
    }
    assert!(
        all.is_empty(),
        "{} problem(s):\n{}",
        all.len(),
        all.join("\n")
    );
}

/// The oracle's own reading of a line, so that a mistake in it does not pass for the
/// grammar's.
#[test]
fn the_lexical_oracle_reads_marks_texts_and_comments() {
    let line: Vec<char> = r#"  x2"a#b" 6" # "q" 1 3/4""#.chars().collect();
    let k = kinds(&line);
    let at = |s: &str| -> Kind {
        let text: String = line.iter().collect();
        k[text[..text.find(s).expect("in line")].chars().count()]
    };
    assert_eq!(
        at("a#b"),
        Kind::Text,
        "after a name's digit, `\"` opens a text"
    );
    assert_eq!(
        at(r#"" #"#),
        Kind::Code,
        "after a number, `\"` is an inch mark"
    );
    assert_eq!(at("# \"q"), Kind::Comment);
    assert_eq!(*k.last().expect("a last character"), Kind::Comment);
    let escaped: Vec<char> = r##"note "a\"#b" # c"##.chars().collect();
    let k = kinds(&escaped);
    assert_eq!(
        k[9],
        Kind::Text,
        "`#` after an escaped quote is in the text"
    );
    assert_eq!(k[13], Kind::Comment);
    assert!(is_dice("2d6") && is_dice("D10") && is_dice("d6"));
    assert!(!is_dice("d6_bonus") && !is_dice("d") && !is_dice("2d"));
}

/// The sample checks clean and its examples hold: the snapshots below are the scopes of
/// lines the language accepts.
#[test]
fn the_sample_is_a_ruleset_that_checks() {
    let sample = test_dir().join("sample.rules");
    let sample = sample.to_string_lossy();
    let o = umpire(&["check", &sample]);
    let out = common::stdout(&o) + &common::stderr(&o);
    assert!(o.status.success(), "{out}");
    assert!(!out.contains("warning"), "no warnings: {out}");
    let o = umpire(&["test", &sample]);
    assert!(o.status.success(), "{}", common::stdout(&o));
}

/// The scopes of the first line of the sample that starts (after its indent) with `start`:
/// a token a line, its text then its scopes (`source.umpire` and the `.umpire` ending of
/// each scope left out); spaces between tokens are not shown.
fn scopes_of_line(files: &[Tokenised], start: &str) -> String {
    let sample = files
        .iter()
        .find(|f| f.file.ends_with("sample.rules"))
        .expect("the sample is tokenised");
    let text = std::fs::read_to_string(&sample.file).expect("sample read");
    let (text, line) = text
        .lines()
        .zip(&sample.lines)
        .find(|(t, _)| t.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no line of the sample starts with `{start}`"));
    let mut out = format!("{}\n", text.trim());
    for t in line.tokens.iter().filter(|t| !t.text.trim().is_empty()) {
        let scopes: Vec<&str> = t
            .scopes
            .iter()
            .skip(1)
            .map(|s| s.strip_suffix(".umpire").unwrap_or(s))
            .collect();
        out.push_str(&format!(
            "{:<14} {}\n",
            format!("`{}`", t.text.trim()),
            scopes.join(" ")
        ));
    }
    out
}

#[test]
fn chosen_lines_have_the_scopes_their_meaning_calls_for() {
    let Some(files) = tokenised("the TextMate snapshot test") else {
        return;
    };
    let lines = [
        ("rule_header_with_citation", "rule charge_distance("),
        ("die_range_row", "2-3 "),
        ("length_range_row", "13\"-24\""),
        ("length_with_a_mixed_fraction", "const charge_reach"),
        ("feet_and_inches", "const long_range"),
        ("fraction_times_and_a_comment_after_code", "3/4 x rate"),
        ("hash_inside_a_text", "note \"a # in a text"),
        ("comment_holding_quotes", "men: 0.."),
        ("grid_row_with_not_allowed_cell", "4-6 =>"),
        ("modifier_per", "\"Each 6 men\""),
        ("dice", "a > d or melee("),
        ("expectations", "wrong_table(3) is asked"),
        ("enum_value_named_by_its_enum", "label(Troop.blades)"),
    ];
    for (name, start) in lines {
        insta::assert_snapshot!(name, scopes_of_line(files, start));
    }
}

/// The VS Code extension contributes the language and the one grammar (copied into the
/// extension when it is installed or packaged, never written twice), and starts `umpire lsp`.
#[test]
fn the_vscode_extension_points_at_the_grammar_and_the_server() {
    let dir = root().join("editors/vscode");
    let read = |name: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.join(name)).expect(name);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let manifest = read("package.json");
    let grammar: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("editors/umpire.tmLanguage.json")).expect("grammar"),
    )
    .expect("the grammar is JSON");
    assert_eq!(grammar["scopeName"], "source.umpire");
    assert_eq!(grammar["fileTypes"], serde_json::json!(["rules"]));

    let language = &manifest["contributes"]["languages"][0];
    assert_eq!(language["id"], "umpire");
    assert_eq!(language["extensions"], serde_json::json!([".rules"]));
    let config_file = language["configuration"].as_str().expect("a configuration");
    let config = read(config_file);
    assert_eq!(
        config["comments"]["lineComment"], "#",
        "`#` starts a comment"
    );
    let pairs = config["brackets"].as_array().expect("brackets");
    for pair in [["{", "}"], ["(", ")"], ["[", "]"]] {
        assert!(pairs.contains(&serde_json::json!(pair)), "{pair:?}");
    }

    let contributed = &manifest["contributes"]["grammars"][0];
    assert_eq!(contributed["language"], "umpire");
    assert_eq!(contributed["scopeName"], grammar["scopeName"]);
    assert_eq!(contributed["path"], "./syntaxes/umpire.tmLanguage.json");
    let copy = std::fs::read_to_string(dir.join("copy-grammar.js")).expect("copy script");
    assert!(copy.contains("umpire.tmLanguage.json"), "{copy}");
    for script in ["postinstall", "vscode:prepublish"] {
        assert_eq!(
            manifest["scripts"][script], "node copy-grammar.js",
            "{script}"
        );
    }

    assert!(manifest["activationEvents"]
        .as_array()
        .expect("activation events")
        .contains(&serde_json::json!("onLanguage:umpire")));
    let setting = &manifest["contributes"]["configuration"]["properties"]["umpire.path"];
    assert_eq!(setting["default"], "umpire");
    assert_eq!(manifest["main"], "./extension.js");
    assert!(manifest["dependencies"]["vscode-languageclient"].is_string());
    let client = std::fs::read_to_string(dir.join("extension.js")).expect("extension.js");
    assert!(client.contains("vscode-languageclient/node") && client.contains("'lsp'"));
    if !node_or_skip("the extension's scripts test") {
        return;
    }
    run("node", &["--check", "extension.js"], &dir).unwrap_or_else(|e| panic!("{e}"));
    // `copy-grammar.js`, run in a copy of the folders, puts the one grammar where the
    // manifest says the grammar is.
    let scratch = common::Scratch::new("copy");
    let extension = scratch.join("vscode");
    std::fs::create_dir_all(&extension).expect("folder for the extension");
    std::fs::copy(
        dir.join("copy-grammar.js"),
        extension.join("copy-grammar.js"),
    )
    .expect("script copied");
    let grammar_file = root().join("editors/umpire.tmLanguage.json");
    std::fs::copy(&grammar_file, scratch.join("umpire.tmLanguage.json")).expect("grammar copied");
    run("node", &["copy-grammar.js"], &extension).unwrap_or_else(|e| panic!("{e}"));
    let path = contributed["path"].as_str().expect("a grammar path");
    let copied =
        std::fs::read(extension.join(path)).expect("the grammar is where the manifest says");
    assert_eq!(copied, std::fs::read(&grammar_file).expect("grammar read"));
}

/// A text left open ends with its line, and a look-alike character is marked: the lines
/// after them are read as before.
#[test]
fn broken_lines_do_not_take_the_lines_after_them() {
    let Some(files) = tokenised("the TextMate broken-lines test") else {
        return;
    };
    let broken = files.last().expect("the broken lines are tokenised");
    assert!(broken.file.ends_with("broken.rules"));
    let lines = &broken.lines;
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[1].depth, 1, "the open text closed with its line");
    let comment = &lines[1].tokens;
    assert!(comment
        .iter()
        .all(|t| has(&t.scopes, "comment.line.number-sign")));
    assert_eq!(lines[2].depth, 1);
    assert!(has(&lines[2].tokens[0].scopes, "keyword.declaration.table"));
    let dash = lines[3]
        .tokens
        .iter()
        .find(|t| t.text == "\u{2013}")
        .expect("the en dash is a token of its own");
    assert!(
        has(&dash.scopes, "invalid.illegal.lookalike"),
        "{:?}",
        dash.scopes
    );
    assert_eq!(broken.end_depth, 1);
}
