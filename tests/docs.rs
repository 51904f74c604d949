//! docs/language.md says "every example here was run with the `umpire` program, and the
//! output shown is what it printed". This test holds it to that: it runs every `$ umpire …`
//! transcript in the document with the real binary, and loads every snippet the document
//! marks as a whole ruleset. The conventions it reads are set out at the top of the
//! document ("How the examples are checked"):
//!
//! - A fenced block whose first line is `# file: NAME` is the file NAME. So is a hidden
//!   `<!-- file: NAME` … `-->` comment, for the files the text only describes in a sentence.
//!   The commands run in a folder holding all of them, and a copy of the repository's
//!   `examples/`.
//! - In a fenced block, a line starting `$ ` is a command, run by `sh` (so the quoting is
//!   the shell's, as a reader would type it), with the error stream merged into the output.
//!   The lines after it, up to the next `$ ` or the end of the block, are what it shows.
//! - Each line shown must appear in the output, in order; lines in between may be left out
//!   (the document abridges diagnostics). A line that is only `...` marks such a cut and
//!   matches nothing. Lines are compared whole, spaces at the end aside.
//! - In a transcript of `umpire repl` with no input piped in, a line `umpire> INPUT` is
//!   typed input: INPUT is fed on stdin and the line is not looked for in the output (a
//!   script prints no prompt). A die asked for at the table is answered the same way: a
//!   line ending `1 to N: FACE` feeds FACE, and only the words before FACE are looked for.
//! - A block fenced as ```` ```rules ```` is a whole ruleset (or house rule): it must load
//!   (`umpire check` exits 0). Fragments of a ruleset are fenced plainly.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A fenced block of the document.
struct Block {
    /// The 1-based line of its opening fence.
    line: usize,
    /// The word after the opening fence (`rules`, or empty).
    info: String,
    /// Its lines, with the fence's own indentation taken off.
    lines: Vec<String>,
}

/// One `$ …` command and what the document shows it printing.
struct Transcript {
    /// The 1-based line of the `$`.
    line: usize,
    command: String,
    shown: Vec<String>,
    /// What is typed at it, for an interactive session.
    stdin: Option<String>,
}

fn doc_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md")
}

fn blocks(doc: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(usize, Block)> = None;
    for (i, raw) in doc.lines().enumerate() {
        let trimmed = raw.trim_start();
        let indent = raw.len() - trimmed.len();
        match open.take() {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let block = Block {
                        line: i + 1,
                        info: info.trim().to_string(),
                        lines: Vec::new(),
                    };
                    open = Some((indent, block));
                }
            }
            Some((fence_indent, mut block)) => {
                if trimmed == "```" {
                    out.push(block);
                } else {
                    let cut = raw
                        .char_indices()
                        .take_while(|&(n, c)| n < fence_indent && c == ' ')
                        .count();
                    block.lines.push(raw[cut..].to_string());
                    open = Some((fence_indent, block));
                }
            }
        }
    }
    assert!(
        open.is_none(),
        "docs/language.md ends inside a fenced block"
    );
    out
}

/// The files the document gives: `# file:` blocks and hidden `<!-- file: … -->` comments.
fn files(doc: &str, blocks: &[Block]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for b in blocks {
        if let Some(name) = b.lines.first().and_then(|l| l.strip_prefix("# file: ")) {
            out.push((name.trim().to_string(), b.lines.join("\n") + "\n"));
        }
    }
    let mut lines = doc.lines();
    while let Some(l) = lines.next() {
        if let Some(name) = l.strip_prefix("<!-- file: ") {
            let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "-->").collect();
            out.push((name.trim().to_string(), body.join("\n") + "\n"));
        }
    }
    let mut names: Vec<&str> = out.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names.len(),
        out.len(),
        "two files of one name in the document"
    );
    out
}

fn transcripts(blocks: &[Block]) -> Vec<Transcript> {
    let mut out: Vec<Transcript> = Vec::new();
    for b in blocks {
        let mut current: Option<Transcript> = None;
        for (n, l) in b.lines.iter().enumerate() {
            if let Some(command) = l.strip_prefix("$ ") {
                out.extend(current.take());
                current = Some(Transcript {
                    line: b.line + 1 + n,
                    command: command.to_string(),
                    shown: Vec::new(),
                    stdin: None,
                });
            } else if let Some(t) = current.as_mut() {
                t.shown.push(l.clone());
            }
        }
        out.extend(current);
    }
    for t in &mut out {
        if t.command.starts_with("umpire repl") && !t.command.contains('<') {
            typed_input(t);
        }
    }
    out
}

/// Splits an interactive session into what is typed and what is shown.
fn typed_input(t: &mut Transcript) {
    let mut input = String::new();
    let mut shown = Vec::new();
    for l in &t.shown {
        if let Some(typed) = prompted(l) {
            input.push_str(typed);
            input.push('\n');
        } else if let Some((prompt, face)) = die_answer(l) {
            input.push_str(face);
            input.push('\n');
            shown.push(prompt.to_string());
        } else {
            shown.push(l.clone());
        }
    }
    t.shown = shown;
    t.stdin = Some(input);
}

/// What is typed after the REPL's prompt, `umpire> ` or with its marks,
/// `umpire [table dice]> `.
fn prompted(line: &str) -> Option<&str> {
    if let Some(typed) = line.strip_prefix("umpire> ") {
        return Some(typed);
    }
    let rest = line.strip_prefix("umpire [")?;
    let (marks, typed) = rest.split_once("]> ")?;
    (!marks.contains(']')).then_some(typed)
}

/// `D10 for … , 1 to 10: 4` → (`D10 for … , 1 to 10:`, `4`); the die's sides may be
/// followed by a note in brackets (`1 to 10 (0 reads as 10): 4`), and several dice
/// answered at once (`3 4`).
fn die_answer(line: &str) -> Option<(&str, &str)> {
    let (prompt, face) = line.rsplit_once(": ")?;
    let sides = prompt.rsplit_once(" 1 to ")?.1;
    let sides = sides.split(' ').next().unwrap_or("");
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let faces = |s: &str| s.split([' ', ',']).filter(|w| !w.is_empty()).all(numeric);
    (numeric(sides.trim_end_matches(',')) && !face.trim().is_empty() && faces(face))
        .then_some((&line[..prompt.len() + 1], face))
}

/// A folder of the test's own, removed when the test ends (pass or fail).
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("make folder");
    for entry in std::fs::read_dir(from).expect("read folder") {
        let entry = entry.expect("folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy file");
        }
    }
}

/// Runs a command line as the document's reader would, in `dir`; the output with the
/// error stream merged in, as it appeared.
fn run(dir: &Path, command: &str, stdin: Option<&str>) -> String {
    let script = format!("umpire() {{ \"$UMPIRE_BIN\" \"$@\"; }}\nexec 2>&1\n{command}\n");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("UMPIRE_BIN", env!("CARGO_BIN_EXE_umpire"))
        // The reader's own settings stay out of it; a transcript may set its own.
        .env("XDG_CONFIG_HOME", dir.join(".no-config"))
        .env_remove("UMPIRE_DICE")
        .env("NO_COLOR", "1")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .spawn()
        .expect("sh runs");
    if let Some(input) = stdin {
        use std::io::Write;
        let mut pipe = child.stdin.take().expect("stdin piped");
        pipe.write_all(input.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("command ends");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The first line shown that is not found, in order, in the output.
fn first_missing<'a>(shown: &'a [String], output: &str) -> Option<&'a str> {
    let mut got = output.lines().map(str::trim_end);
    shown
        .iter()
        .map(|l| l.trim_end())
        .filter(|l| l.trim() != "...")
        .find(|want| !got.any(|g| g == *want))
}

/// Runs `jobs` on a few threads; the failures, in the order of the jobs.
fn in_parallel<T: Sync>(jobs: &[T], work: impl Fn(&T) -> Option<String> + Sync) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                if let Some(f) = work(job) {
                    failures.lock().expect("no worker panicked").push((i, f));
                }
            });
        }
    });
    let mut failures = failures.into_inner().expect("no worker panicked");
    failures.sort();
    failures.into_iter().map(|(_, f)| f).collect()
}

#[test]
fn the_documents_examples_hold() {
    let doc = std::fs::read_to_string(doc_path()).expect("docs/language.md");
    let blocks = blocks(&doc);
    let dir = std::env::temp_dir().join(format!("umpire-docs-{}", std::process::id()));
    let scratch = Scratch(dir);
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"),
        &scratch.0.join("examples"),
    );
    for (name, text) in files(&doc, &blocks) {
        std::fs::write(scratch.0.join(&name), text).expect("write file");
    }

    let transcripts = transcripts(&blocks);
    assert!(transcripts.len() >= 90, "{} transcripts", transcripts.len());
    let mut failures = in_parallel(&transcripts, |t| {
        let output = run(&scratch.0, &t.command, t.stdin.as_deref());
        first_missing(&t.shown, &output).map(|missing| {
            format!(
                "docs/language.md:{}: $ {}\n  not printed (in this order): {missing}\n  it printed:\n{}",
                t.line,
                t.command,
                output.lines().map(|l| format!("    | {l}\n")).collect::<String>()
            )
        })
    });

    let rulesets: Vec<&Block> = blocks.iter().filter(|b| b.info == "rules").collect();
    if rulesets.is_empty() {
        failures.push("docs/language.md has no ```rules block".to_string());
    }
    failures.extend(in_parallel(&rulesets, |b| {
        let name = match b.lines.first().and_then(|l| l.strip_prefix("# file: ")) {
            Some(name) => name.trim().to_string(),
            None => {
                let name = format!("snippet_{}.rules", b.line);
                let text = b.lines.join("\n") + "\n";
                std::fs::write(scratch.0.join(&name), text).expect("write snippet");
                name
            }
        };
        let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
            .args(["check", &name])
            .current_dir(&scratch.0)
            .env("NO_COLOR", "1")
            .output()
            .expect("umpire runs");
        (!out.status.success()).then(|| {
            format!(
                "docs/language.md:{}: this ```rules block does not load:\n{}",
                b.line,
                String::from_utf8_lossy(&out.stderr)
            )
        })
    }));

    assert!(
        failures.is_empty(),
        "{} of the document's claims do not hold:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_cut_matches_nothing_and_lines_keep_their_order() {
    let shown = |ls: &[&str]| ls.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let out = "a\nb  \nc\nd\n";
    assert_eq!(first_missing(&shown(&["a", "...", "c"]), out), None);
    assert_eq!(first_missing(&shown(&["b", "d"]), out), None);
    assert_eq!(first_missing(&shown(&["c", "b"]), out), Some("b"));
    assert_eq!(first_missing(&shown(&[" a"]), out), Some(" a"));
    assert_eq!(
        die_answer("D10 for `m` in `m(x)`, 1 to 10: 4"),
        Some(("D10 for `m` in `m(x)`, 1 to 10:", "4"))
    );
    assert_eq!(die_answer("note: a: 4"), None);
    assert_eq!(
        die_answer("D10 for `m` in `m(x)`, 1 to 10 (0 reads as 10): 0"),
        Some(("D10 for `m` in `m(x)`, 1 to 10 (0 reads as 10):", "0"))
    );
    assert_eq!(prompted("umpire [table dice]> m(x)"), Some("m(x)"));
    assert_eq!(prompted("umpire> m(x)"), Some("m(x)"));
}

/// The README's "Use" list shows a newcomer each way in: `report`, the REPL with table
/// dice and with a log, one line each; and it keeps exactly two set-up commands.
#[test]
fn the_readme_shows_the_report_table_dice_and_the_log_and_two_set_up_commands() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let section = |name: &str| -> String {
        let from = readme
            .find(&format!("## {name}\n"))
            .unwrap_or_else(|| panic!("no `## {name}` in the README"));
        let rest = &readme[from + name.len() + 4..];
        rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
    };
    let commands = |text: &str| -> Vec<String> {
        let mut inside = false;
        let mut out = Vec::new();
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                inside = !inside;
            } else if inside && !line.trim().is_empty() {
                out.push(line.trim().to_string());
            }
        }
        out
    };
    assert_eq!(commands(&section("Set up")).len(), 2, "{readme}");
    let used = commands(&section("Use"));
    for (what, words) in [
        ("umpire report", &["umpire report "][..]),
        ("repl --table-dice", &["umpire repl ", " --table-dice"]),
        ("repl --log", &["umpire repl ", " --log "]),
    ] {
        let lines = used
            .iter()
            .filter(|l| words.iter().all(|w| l.contains(w)))
            .count();
        assert_eq!(lines, 1, "one line of `Use` for {what}: {used:?}");
    }
}
