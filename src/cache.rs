//! The cache of checked rulesets: a ruleset parsed and checked once is kept, so that the
//! next process that loads the same text reads the checked program back instead of
//! parsing and checking it again.
//!
//! An entry is the checked program, its sources and the warnings its check found,
//! written with serde in postcard's compact binary form, in a file of its own,
//! `DIR/<digest>.checked`. The digest is of this build of umpire (`UMPIRE_BUILD_ID`,
//! a digest of its sources made by `build.rs`), the limits, and the name and text of
//! the ruleset file loaded; the entry holds a key, a digest of that and of the name and
//! text of every other file the load read (what it `extends` and `use`s), and each of
//! those files is read again and must give the key again. The entry's bytes are held to
//! a digest of them too. Whatever is not so — a file missing, unreadable, cut short, of
//! another build or for other texts — is passed over, and a fresh check writes it anew.
//! Nothing here is ever an error: the cache only spares work.
//!
//! Where: `$UMPIRE_CACHE_DIR`, else `$XDG_CACHE_HOME/umpire`, else
//! `$HOME/.cache/umpire`; `UMPIRE_CACHE=off` turns it off. A folder that cannot be made
//! or written is passed over as well. A ruleset with errors is never kept.
//!
//! The command line turns the cache on for its process ([`turn_on`]) for every command
//! but `umpire check`, which checks afresh; a library user's loads go uncached unless it
//! does the same.

use crate::bundled;
use crate::diagnostic::{Code, Diag};
use crate::limits::Limits;
use crate::program::Program;
use crate::span::{SourceMap, Span};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What a load checked: the program, the files it was read from (the one loaded first),
/// and the warnings the check found (without their sources attached).
#[derive(Debug, Clone)]
pub struct Checked {
    /// The checked program.
    pub program: Program,
    /// The ruleset's files, the one loaded first.
    pub sources: SourceMap,
    /// The checker's warnings, bare: the loader attaches the sources.
    pub warnings: Vec<Diag>,
}

/// A cache of checked rulesets in one folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
}

/// The cache this process's loads use, once turned on.
static IN_USE: OnceLock<Cache> = OnceLock::new();

/// Turns `cache` on for every ruleset this process loads by name or path from now on
/// ([`crate::Ruleset::load_with`]); a second call changes nothing.
pub fn turn_on(cache: Cache) {
    let _ = IN_USE.set(cache);
}

/// The cache this process's loads use, if one was turned on.
pub fn in_use() -> Option<&'static Cache> {
    IN_USE.get()
}

/// What an entry file starts with: the format's name and version.
const MAGIC: &[u8; 16] = b"umpire checked 1";

/// The longest entry file read, in bytes: a checked ruleset at the 4 MiB limit takes
/// far less.
const MOST_BYTES: u64 = 1 << 30;

impl Cache {
    /// The cache the environment asks for: none with `UMPIRE_CACHE=off`; else in
    /// `$UMPIRE_CACHE_DIR`, `$XDG_CACHE_HOME/umpire` (an absolute path) or
    /// `$HOME/.cache/umpire`, the first set; none if none is.
    pub fn from_env() -> Option<Cache> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        // `off`, or any of the usual words for no.
        let off = |v: &std::ffi::OsStr| {
            let v = v.to_string_lossy().trim().to_ascii_lowercase();
            matches!(v.as_str(), "off" | "0" | "no" | "false")
        };
        if var("UMPIRE_CACHE").is_some_and(|v| off(&v)) {
            return None;
        }
        if let Some(dir) = var("UMPIRE_CACHE_DIR") {
            return Some(Cache::in_dir(dir));
        }
        // The XDG base directories are absolute paths; a relative one is ignored.
        if let Some(xdg) = var("XDG_CACHE_HOME").filter(|x| Path::new(x).is_absolute()) {
            return Some(Cache::in_dir(Path::new(&xdg).join("umpire")));
        }
        let home = var("HOME")?;
        Some(Cache::in_dir(
            Path::new(&home).join(".cache").join("umpire"),
        ))
    }

    /// A cache in `dir` (made when the first entry is written).
    pub fn in_dir(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into() }
    }

    /// The folder it keeps its entries in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The entry file for the ruleset `name` whose text is `text`, loaded within
    /// `limits`.
    pub fn entry_path(&self, name: &str, text: &str, limits: &Limits) -> PathBuf {
        let digest = entry_digest(name, text, limits);
        self.dir.join(format!("{}.checked", hex(&digest)))
    }

    /// The checked ruleset `name` (text `text`, loaded within `limits`), if an entry
    /// for it is kept and every file it was read from still reads as it did; `None`
    /// otherwise, for whatever reason.
    pub fn load(&self, name: &str, text: &str, limits: &Limits) -> Option<Checked> {
        let entry = entry_digest(name, text, limits);
        let path = self.dir.join(format!("{}.checked", hex(&entry)));
        let (bytes, written) = read_entry(&path)?;
        let rest = bytes.strip_prefix(MAGIC.as_slice())?;
        let (sum, body) = rest.split_at_checked(32)?;
        if blake3::hash(body).as_bytes().as_slice() != sum {
            return None;
        }
        let stored: Stored = postcard::from_bytes(body).ok()?;
        // The file loaded first is the one asked for; every other is read again as the
        // load read it, and the key says they all read as they did.
        let first = stored.sources.files().first()?;
        if first.name != name || *first.original != *text {
            return None;
        }
        let mut texts = Vec::new();
        for file in stored.sources.files().iter().skip(1) {
            texts.push((file.name.clone(), read_again(&file.name, limits)?));
        }
        let key = key(&entry, texts.iter().map(|(n, t)| (n.as_str(), t.as_str())));
        if key != stored.key {
            return None;
        }
        let warnings = stored
            .warnings
            .into_iter()
            .map(Warning::into_diag)
            .collect::<Option<_>>()?;
        // Used: marked so (at most once a day), to outlive the entries not used since.
        let now = SystemTime::now();
        if now.duration_since(written).is_ok_and(|d| d > FRESH_FOR) {
            if let Ok(f) = std::fs::File::open(&path) {
                let _ = f.set_modified(now);
            }
        }
        Some(Checked {
            program: stored.program,
            sources: stored.sources,
            warnings,
        })
    }

    /// Keeps `checked`, the ruleset `name` (text `text`) checked within `limits`: written
    /// whole or not at all, quietly not when the folder cannot be made or written or
    /// when a file the load read cannot be told again for certain.
    pub fn store(&self, name: &str, text: &str, limits: &Limits, checked: &Checked) {
        let _ = self.try_store(name, text, limits, checked);
    }

    fn try_store(&self, name: &str, text: &str, limits: &Limits, checked: &Checked) -> Option<()> {
        let files = checked.sources.files();
        let first = files.first()?;
        if first.name != name || *first.original != *text {
            return None;
        }
        let mut texts = Vec::new();
        for file in files.iter().skip(1) {
            // A file named like a bundled ruleset (`bundled:kriegspiel`) could be either:
            // such a load is not kept.
            if bundled_name(&file.name).is_some() && Path::new(&file.name).exists() {
                return None;
            }
            texts.push((file.name.as_str(), &*file.original));
        }
        let entry = entry_digest(name, text, limits);
        let stored = StoredRef {
            key: key(&entry, texts.into_iter()),
            sources: &checked.sources,
            program: &checked.program,
            warnings: checked.warnings.iter().map(Warning::of).collect(),
        };
        let body = postcard::to_stdvec(&stored).ok()?;
        make_dir(&self.dir).ok()?;
        let target = self.dir.join(format!("{}.checked", hex(&entry)));
        let (tmp, file) =
            crate::files::create_temp(&self.dir, "checked", &mut rand::random::<u64>).ok()?;
        let written = write_entry(file, &body).and_then(|()| std::fs::rename(&tmp, &target));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
            return None;
        }
        prune(&self.dir, &target);
        Some(())
    }
}

/// Writes an entry: the format's name, the digest of the body, the body.
fn write_entry(mut file: std::fs::File, body: &[u8]) -> std::io::Result<()> {
    file.write_all(MAGIC)?;
    file.write_all(blake3::hash(body).as_bytes())?;
    file.write_all(body)
}

/// Most entries kept in one folder, and most bytes of them: past either, those used
/// least lately go when a new one is written.
const MOST_ENTRIES: usize = 200;
const MOST_KEPT_BYTES: u64 = 256 << 20;

/// How long an entry counts as used lately after it was written or marked used.
const FRESH_FOR: Duration = Duration::from_secs(24 * 60 * 60);

/// How long a temporary file of an entry being written may stay: one older was left
/// by a process that stopped half-way.
const TEMP_FOR: Duration = Duration::from_secs(60 * 60);

/// Holds the folder to [`MOST_ENTRIES`] and [`MOST_KEPT_BYTES`], removing the entries
/// used least lately (never `keep`, just written), and temporary files left behind.
/// Only files of the cache's own naming are touched.
fn prune(dir: &Path, keep: &Path) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    let mut found = Vec::new();
    for e in read.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        // Not followed if it is a link: only the file itself is looked at.
        let Ok(meta) = e.metadata() else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let used = meta.modified().unwrap_or(UNIX_EPOCH);
        if is_entry_name(&name) {
            found.push((used, meta.len(), e.path()));
        } else if name.starts_with(".checked.umpire-")
            && name.ends_with(".tmp")
            && now.duration_since(used).is_ok_and(|d| d > TEMP_FOR)
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
    if found.len() <= MOST_ENTRIES && found.iter().map(|f| f.1).sum::<u64>() <= MOST_KEPT_BYTES {
        return;
    }
    // The one just written first, then those used most lately.
    found.sort_by_key(|f| (f.2 != keep, std::cmp::Reverse(f.0)));
    let (mut count, mut bytes) = (0, 0u64);
    for (_, len, path) in found {
        count += 1;
        bytes = bytes.saturating_add(len);
        if path != keep && (count > MOST_ENTRIES || bytes > MOST_KEPT_BYTES) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Is `name` an entry's file name: 64 lowercase hex digits and `.checked`?
fn is_entry_name(name: &str) -> bool {
    name.strip_suffix(".checked").is_some_and(|stem| {
        stem.len() == 64
            && stem
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// An entry as written: the key, then what was checked.
#[derive(Serialize)]
struct StoredRef<'a> {
    key: [u8; 32],
    sources: &'a SourceMap,
    program: &'a Program,
    warnings: Vec<Warning>,
}

/// An entry as read back ([`StoredRef`]).
#[derive(Deserialize)]
struct Stored {
    key: [u8; 32],
    sources: SourceMap,
    program: Program,
    warnings: Vec<Warning>,
}

/// A warning as kept: a [`Diag`] without its sources, its code by its name.
#[derive(Serialize, Deserialize)]
struct Warning {
    code: String,
    message: String,
    labels: Vec<(Span, String)>,
    help: Option<String>,
    warning: bool,
    count: usize,
    subject: Option<String>,
}

impl Warning {
    fn of(d: &Diag) -> Warning {
        Warning {
            code: d.code.as_str().to_string(),
            message: d.message.clone(),
            labels: d.labels.clone(),
            help: d.help.clone(),
            warning: d.warning,
            count: d.count,
            subject: d.subject.clone(),
        }
    }

    /// The diagnostic again; `None` for a code this build does not have.
    fn into_diag(self) -> Option<Diag> {
        let code = *Code::ALL.iter().find(|c| c.as_str() == self.code)?;
        let mut d = Diag::error(code, self.message);
        d.labels = self.labels;
        d.help = self.help;
        d.warning = self.warning;
        d.count = self.count;
        d.subject = self.subject;
        Some(d)
    }
}

/// The digest naming the entry of the ruleset `name` with `text`, within `limits`.
fn entry_digest(name: &str, text: &str, limits: &Limits) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(b"umpire cache entry\0");
    h.update(env!("UMPIRE_BUILD_ID").as_bytes());
    // Every limit, in a fixed order: a load within other limits is another entry.
    for n in [
        limits.file_bytes,
        u64::from(limits.dice_per_roll),
        u64::from(limits.sides),
        limits.steps,
        u64::from(limits.depth),
        limits.dice,
    ] {
        h.update(&n.to_le_bytes());
    }
    field(&mut h, name);
    field(&mut h, text);
    *h.finalize().as_bytes()
}

/// The key of an entry: its digest and the name and text of every other file read.
fn key<'a>(entry: &[u8; 32], others: impl Iterator<Item = (&'a str, &'a str)>) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(b"umpire cache key\0");
    h.update(entry);
    for (name, text) in others {
        field(&mut h, name);
        field(&mut h, text);
    }
    *h.finalize().as_bytes()
}

/// A text into a digest, its length first (so that no two lists of texts run together).
fn field(h: &mut blake3::Hasher, text: &str) {
    h.update(&(text.len() as u64).to_le_bytes());
    h.update(text.as_bytes());
}

fn hex(digest: &[u8; 32]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bundled ruleset a file name `bundled:NAME` stands for.
fn bundled_name(name: &str) -> Option<&'static str> {
    bundled::source(name.strip_prefix("bundled:")?)
}

/// The text of a file a load read besides the first, read again as the load reads it:
/// a bundled ruleset by its name, else the file.
fn read_again(name: &str, limits: &Limits) -> Option<String> {
    match bundled_name(name) {
        Some(text) => Some(text.to_string()),
        None => crate::files::read_file(name, limits).ok(),
    }
}

/// An entry file's bytes and when it was last written or marked used, if it is a
/// regular file no larger than [`MOST_BYTES`] that reads whole.
fn read_entry(path: &Path) -> Option<(Vec<u8>, SystemTime)> {
    // Looked at before it is opened: a named pipe put there would never answer.
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MOST_BYTES {
        return None;
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).ok()?);
    file.take(MOST_BYTES).read_to_end(&mut bytes).ok()?;
    Some((bytes, meta.modified().unwrap_or(UNIX_EPOCH)))
}

/// Makes the cache folder (and those above it) if it is not there; one made is the
/// user's own (mode 700).
fn make_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past [`MOST_ENTRIES`], the entries used least lately go; the one just written,
    /// files of other names and fresh temporary files stay; old temporary files go.
    #[test]
    fn the_folder_is_held_to_its_most_entries() {
        let dir = std::env::temp_dir().join(format!("umpire-cache-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let now = SystemTime::now();
        let at = |age_secs: u64| now - Duration::from_secs(age_secs);
        let put = |name: &str, when: SystemTime| {
            let p = dir.join(name);
            let f = std::fs::File::create(&p).expect("file");
            f.set_modified(when).expect("time set");
            p
        };
        // Entry i was used i hours ago; the oldest of all is the one just written.
        let name = |i: usize| format!("{i:064x}.checked");
        for i in 0..MOST_ENTRIES + 5 {
            put(&name(i), at(3600 * i as u64));
        }
        let keep = put(&format!("{}.checked", "e".repeat(64)), at(999_999));
        let other = put("notes.txt", at(999_999));
        let old_tmp = put(".checked.umpire-1-00.tmp", at(2 * 3600));
        let new_tmp = put(".checked.umpire-2-00.tmp", at(60));
        prune(&dir, &keep);
        for i in 0..MOST_ENTRIES + 5 {
            // The one just written counts among the most: one fewer of the others stay.
            assert_eq!(
                dir.join(name(i)).exists(),
                i < MOST_ENTRIES - 1,
                "entry {i}"
            );
        }
        assert!(keep.exists() && other.exists() && new_tmp.exists());
        assert!(!old_tmp.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn entry_names_are_the_caches_own() {
        assert!(is_entry_name(&format!("{}.checked", "0a".repeat(32))));
        assert!(!is_entry_name(&format!("{}.checked", "0A".repeat(32))));
        assert!(!is_entry_name(&format!("{}.checked", "0a".repeat(31))));
        assert!(!is_entry_name(&format!("{}.txt", "0a".repeat(32))));
        assert!(!is_entry_name(".checked"));
    }
}
