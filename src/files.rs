//! Reading files within the file-size limit, as UTF-8 text: rulesets, house rules,
//! state files, scenarios and game logs all come in through here. A path is looked at
//! before it is opened: anything but a regular file (a folder, a named pipe, a device,
//! `/dev/stdin`) is refused unopened, since a pipe or a terminal would never answer.
//! Temporary files for whole-or-nothing writes are made here too ([`create_temp`]).

use crate::diagnostic::{Code, Diag, Diags};
use crate::limits::{self, Limits};

/// The error for a file (or a text) larger than the file-size limit `most`.
pub fn too_big(name: &str, most: u64) -> Diag {
    Diag::error(
        Code::LimitFileSize,
        format!(
            "{name} is larger than {}, the limit on a file's size",
            limits::bytes_text(most)
        ),
    )
    .help("the limit is set by --max-file-size BYTES")
}

/// What a path that is not a regular file is, in words (`a folder`, `a named pipe`,
/// `a device`, `a socket`), told from its metadata.
pub fn kind_of(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

/// The error for a path to read that is not a regular file: `X is not a regular file
/// (a named pipe)` (`umpire::io::read`).
fn not_regular(path: &str, m: &std::fs::Metadata) -> Diag {
    let said = if m.is_dir() {
        format!("{path} is a folder, not a file")
    } else {
        format!("{path} is not a regular file ({})", kind_of(m))
    };
    Diag::error(Code::IoRead, said)
        .help("name a file: umpire reads no folder, named pipe, device or terminal")
}

/// Reads a file as UTF-8 text, refusing files over the file-size limit
/// ([`Limits::file_bytes`]) and anything that is not a regular file, looked at before
/// it is opened (a named pipe or a terminal would wait for ever).
pub fn read_file(path: &str, limits: &Limits) -> Result<String, Diags> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Diag::error(Code::IoRead, format!("cannot read {path}: {e}")))?;
    let most = limits.file_bytes;
    if !meta.is_file() {
        return Err(not_regular(path, &meta).into());
    }
    if meta.len() > most {
        return Err(too_big(path, most).into());
    }
    // Read at most one byte past the limit, in case it grew since it was looked at.
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path)
        .map_err(|e| Diag::error(Code::IoRead, format!("cannot read {path}: {e}")))?;
    // Swapped for something else since it was looked at: not read.
    match file.metadata() {
        Ok(m) if !m.is_file() => return Err(not_regular(path, &m).into()),
        _ => {}
    }
    use std::io::Read;
    file.take(most.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Diag::error(Code::IoRead, format!("cannot read {path}: {e}")))?;
    if bytes.len() as u64 > most {
        return Err(too_big(path, most).into());
    }
    String::from_utf8(bytes).map_err(|e| {
        Diag::error(
            Code::IoEncoding,
            format!(
                "{path} is not UTF-8 text (bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
        .help("save the file as UTF-8")
        .into()
    })
}

/// The longest part of a file's name that a temporary file's name copies: the rest of
/// the temporary name adds under 40 bytes, so any name the file system takes (255
/// bytes) leaves a temporary name it takes too.
const TEMP_NAME_BYTES: usize = 96;

/// A new temporary file for `name` in `dir`, `.NAME.umpire-PID-RANDOM.tmp` (`NAME` cut
/// to its first 96 bytes): created only where nothing is (never through a symbolic link
/// planted there, never a file already there), a few `random` names tried.
///
/// Errors: none of the names was free; the folder cannot be written.
pub fn create_temp(
    dir: &std::path::Path,
    name: &str,
    random: &mut dyn FnMut() -> u64,
) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    let mut cut = name.len().min(TEMP_NAME_BYTES);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    let name = &name[..cut];
    let mut taken = std::io::Error::from(std::io::ErrorKind::AlreadyExists);
    for _ in 0..8 {
        let tmp = dir.join(format!(
            ".{name}.umpire-{}-{:016x}.tmp",
            std::process::id(),
            random()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => taken = e,
            Err(e) => return Err(e),
        }
    }
    Err(taken)
}

/// For tests: a named pipe made at `dir/name` (by `mkfifo`); its path.
#[cfg(all(test, unix))]
pub(crate) fn mkfifo(dir: &std::path::Path, name: &str) -> String {
    let fifo = dir.join(name);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    fifo.to_string_lossy().into_owned()
}

/// For tests: `f` run on a thread, its answer if it comes within ten seconds (`None`:
/// it hangs — a regression fails instead of hanging the suite).
#[cfg(test)]
pub(crate) fn within_ten_seconds<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(10)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A named pipe, and `/dev/stdin`, are refused from their metadata, never opened:
    /// opening a pipe with no writer would wait for ever. Run on a thread with a
    /// timeout, so a regression fails instead of hanging.
    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_refused_unopened() {
        let dir = std::env::temp_dir().join(format!("umpire-files-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let path = mkfifo(&dir, "fifo");
        let p = path.clone();
        let got = within_ten_seconds(move || {
            read_file(&p, &Limits::default())
                .map_err(|d| format!("{} {}", d.0[0].code, d.0[0].message))
        });
        let _ = std::fs::remove_dir_all(&dir);
        let Some(got) = got else {
            panic!("reading a named pipe hangs");
        };
        let err = got.expect_err("a named pipe is not read");
        assert!(
            err.contains(&format!("{path} is not a regular file (a named pipe)")),
            "{err}"
        );
        assert!(err.contains("umpire::io::read"), "{err}");
    }

    /// A long name (here 250 bytes) still gets a temporary file beside it.
    #[test]
    fn a_temporary_name_fits_beside_a_long_name() {
        let dir = std::env::temp_dir().join(format!("umpire-files-long-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let name = "é".repeat(125);
        let made = create_temp(&dir, &name, &mut || 7);
        let _ = std::fs::remove_dir_all(&dir);
        let (tmp, _) = made.expect("a temporary file");
        assert!(tmp.file_name().is_some_and(|n| n.len() < 255));
    }
}
