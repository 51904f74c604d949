//! `umpire fmt [--check] FILE...`: ruleset files laid out canonically (`crate::fmt`),
//! each rewritten whole or not at all; `--check` writes nothing and lists the files that
//! would change; `-` reads standard input and writes the layout to standard output.

use crate::bundled;
use crate::diagnostic::{Code, Diag, Diags, FileReport};
use crate::files::{create_temp, read_file};
use crate::limits::Limits;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Fmt`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// Ruleset files (`-`: standard input, laid out on standard output).
    #[arg(required = true)]
    files: Vec<String>,
    /// Write nothing: list the files that would change (exit 1 if any would).
    #[arg(long)]
    check: bool,
}

/// What became of one file.
enum Done {
    /// Already laid out.
    Same,
    /// Changed (rewritten, or listed by `--check`).
    Changed,
    /// Not done: its errors were shown.
    Failed,
}

/// Runs `umpire fmt`: exit 1 if a file could not be done, or (`--check`) would change.
pub(super) fn run(args: Args, limits: &Limits) -> ExitCode {
    let mut failed = false;
    let mut changed = false;
    for name in &args.files {
        let done = match one(name, args.check, limits) {
            Ok(done) => done,
            Err(ds) => {
                super::report(&ds);
                Done::Failed
            }
        };
        match done {
            Done::Same => {}
            Done::Changed => changed = true,
            Done::Failed => failed = true,
        }
    }
    super::failed_if(failed || (args.check && changed))
}

/// Lays out one file (or standard input, `-`).
fn one(name: &str, check: bool, limits: &Limits) -> Result<Done, Diags> {
    if name == "-" {
        return stdin(check, limits);
    }
    let looks_like_path = name.contains(['/', '\\', '.']);
    if !looks_like_path && bundled::source(name).is_some() && !Path::new(name).exists() {
        return Err(Diag::error(
            Code::IoRead,
            format!("`{name}` is a bundled ruleset, not a file: umpire fmt lays out files"),
        )
        .help(format!(
            "to lay out a copy, write `umpire show {name} > {name}.rules` and then `umpire fmt {name}.rules`"
        ))
        .into());
    }
    let text = read_file(name, limits)?;
    let out = match crate::fmt::format_source(name, &text) {
        Ok(out) => out,
        Err(ds) => {
            // The ruleset's own errors, under its name, as `umpire check` shows them.
            err!("{}", super::render(&FileReport::new(name, &ds.0)));
            return Ok(Done::Failed);
        }
    };
    if out == text {
        return Ok(Done::Same);
    }
    within_limit(name, &out, limits)?;
    if check {
        outln!("{name}");
    } else {
        write_whole(name, &out)?;
    }
    Ok(Done::Changed)
}

/// `umpire fmt -`: standard input laid out on standard output (`--check`: `-` listed
/// if it would change, nothing else written).
fn stdin(check: bool, limits: &Limits) -> Result<Done, Diags> {
    let mut bytes = Vec::new();
    let most = limits.file_bytes;
    std::io::stdin()
        .take(most.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Diag::error(Code::IoRead, format!("cannot read standard input: {e}")))?;
    if bytes.len() as u64 > most {
        return Err(crate::files::too_big("standard input", most).into());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        Diag::error(
            Code::IoEncoding,
            format!(
                "standard input is not UTF-8 text (bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    let out = match crate::fmt::format_source("<stdin>", &text) {
        Ok(out) => out,
        Err(ds) => {
            err!("{}", super::render(&FileReport::new("<stdin>", &ds.0)));
            return Ok(Done::Failed);
        }
    };
    let same = out == text;
    if !same {
        within_limit("standard input", &out, limits)?;
    }
    if check {
        if !same {
            outln!("-");
        }
    } else {
        out!("{out}");
    }
    Ok(if same { Done::Same } else { Done::Changed })
}

/// The layout of `name` no larger than the file-size limit: a file laid out past it
/// (padding and blank lines added) would no longer load.
fn within_limit(name: &str, out: &str, limits: &Limits) -> Result<(), Diags> {
    let most = limits.file_bytes;
    if out.len() as u64 > most {
        return Err(Diag::error(
            Code::IoWrite,
            format!(
                "laid out, {name} would be {} bytes, larger than the limit on a file's size \
                 ({most} bytes), and would no longer load: it is left unchanged",
                out.len()
            ),
        )
        .help("split the ruleset (`use`, `extends`), or raise the limit with --max-file-size")
        .into());
    }
    Ok(())
}

/// Writes `text` over the file `name` whole or not at all: into a new temporary file
/// beside it (of the permissions it has), then renamed over it. A symbolic link is
/// followed: the file it names is rewritten, the link kept.
fn write_whole(name: &str, text: &str) -> Result<(), Diags> {
    let fail = |e: std::io::Error| -> Diags {
        Diag::error(
            Code::IoWrite,
            format!("cannot write {name}: {e}; it is left unchanged"),
        )
        .into()
    };
    let target: PathBuf = std::fs::canonicalize(name).map_err(fail)?;
    let meta = std::fs::metadata(&target).map_err(fail)?;
    if meta.permissions().readonly() {
        return Err(Diag::error(
            Code::IoWrite,
            format!("cannot write {name}: it is read-only; it is left unchanged"),
        )
        .help("make it writable, or lay it out with `umpire fmt - < FILE`")
        .into());
    }
    same_file_kept(name, &meta)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let file_name = target
        .file_name()
        .map_or("ruleset".into(), |n| n.to_string_lossy().into_owned());
    let (tmp, mut f) = create_temp(dir, &file_name, &mut rand::random::<u64>).map_err(fail)?;
    let result = (|| {
        f.write_all(text.as_bytes())?;
        owned_as(&f, &meta)?;
        f.set_permissions(meta.permissions())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &target)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}

/// A file with other names (hard links) is refused: the new file renamed over one name
/// would part it from the others, which would keep the old text.
#[cfg(unix)]
fn same_file_kept(name: &str, meta: &std::fs::Metadata) -> Result<(), Diags> {
    use std::os::unix::fs::MetadataExt;
    if meta.nlink() > 1 {
        return Err(Diag::error(
            Code::IoWrite,
            format!(
                "cannot rewrite {name}: it has {} names (hard links), and a new file in its \
                 place would part them; it is left unchanged",
                meta.nlink()
            ),
        )
        .help("lay it out with `umpire fmt - < FILE` and copy the layout over it")
        .into());
    }
    Ok(())
}

#[cfg(not(unix))]
fn same_file_kept(_name: &str, _meta: &std::fs::Metadata) -> Result<(), Diags> {
    Ok(())
}

/// The new file owned as the old one is (its user and group), or an error when that
/// cannot be done (another user's file): the rewrite must not change who owns it.
#[cfg(unix)]
fn owned_as(f: &std::fs::File, meta: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let now = f.metadata()?;
    if now.uid() == meta.uid() && now.gid() == meta.gid() {
        return Ok(());
    }
    std::os::unix::fs::fchown(f, Some(meta.uid()), Some(meta.gid())).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("its new copy cannot be given the file's owner and group ({e})"),
        )
    })
}

#[cfg(not(unix))]
fn owned_as(_f: &std::fs::File, _meta: &std::fs::Metadata) -> std::io::Result<()> {
    Ok(())
}
