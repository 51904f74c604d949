//! Reading files within the file-size limit, as UTF-8 text: rulesets, house rules,
//! state files, scenarios and game logs all come in through here.

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

/// Reads a file as UTF-8 text, refusing files over the file-size limit
/// ([`Limits::file_bytes`]).
pub fn read_file(path: &str, limits: &Limits) -> Result<String, Diags> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Diag::error(Code::IoRead, format!("cannot read {path}: {e}")))?;
    let most = limits.file_bytes;
    if meta.len() > most {
        return Err(too_big(path, most).into());
    }
    if meta.is_dir() {
        return Err(Diag::error(Code::IoRead, format!("{path} is a folder, not a file")).into());
    }
    // Read at most one byte past the limit: a device or pipe reports no size.
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path)
        .map_err(|e| Diag::error(Code::IoRead, format!("cannot read {path}: {e}")))?;
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
