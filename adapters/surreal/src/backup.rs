//! Backups of the shop's database as one SurrealQL file: every table's definition and every
//! record, written by the engine's own export and read back by its import.
//!
//! A backup ends with a mark, `-- marque backup end: N bytes, sha256 H`, over everything before it:
//! a file that does not read through to its mark (cut short by a full disk or an interrupted copy,
//! or altered) is refused before anything is erased. Replacing a database's contents first writes
//! them to a safety export.
//!
//! Supported on the embedded engines (`surrealkv://`, `mem://`); for a SurrealDB server use its
//! own `surreal export` / `surreal import`.

use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::schema;
use crate::{ConnectError, ConnectOptions, Database};

/// Why a backup could not be written or restored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackupError {
    #[error(transparent)]
    Connect(#[from] ConnectError),
    /// The target holds records already; restoring would mix two shops.
    #[error(
        "the database at {url} is not empty (records in: {tables}); restore into an empty database, \
         or pass --replace to erase everything in it first"
    )]
    NotEmpty { url: String, tables: String },
    #[error("cannot write the backup {}: {reason}", path.display())]
    Export { path: PathBuf, reason: String },
    #[error("cannot restore the backup {}: {reason}", path.display())]
    Import { path: PathBuf, reason: String },
    /// The file does not read through to its end mark: nothing was changed.
    #[error(
        "the backup {} does not read through to its end ({reason}): it is truncated or altered; nothing was changed",
        path.display()
    )]
    Incomplete { path: PathBuf, reason: String },
    /// What the database held could not be saved before replacing it: nothing was erased.
    #[error("cannot write the safety export {} of what the database holds ({reason}); nothing was erased", path.display())]
    Safety { path: PathBuf, reason: String },
}

/// How every backup ends: `{END_MARK} N bytes, sha256 H` and a line break, where N is the length of
/// what precedes the mark and H its SHA-256 (hex).
pub const END_MARK: &str = "-- marque backup end:";

/// Tables the schema keeps its own records in; a database holding only these is empty.
const BOOKKEEPING: &[&str] = &["migration"];

impl Database {
    /// Writes every table's definition and record to `file` (SurrealQL), replacing it, and ends it
    /// with the [`END_MARK`].
    ///
    /// # Errors
    /// [`BackupError::Export`] when the engine cannot export (e.g. a `ws://` server) or the file
    /// cannot be written.
    pub async fn export_to(&self, file: &Path) -> Result<(), BackupError> {
        let fail = |reason: String| BackupError::Export { path: file.to_owned(), reason };
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| fail(e.to_string()))?;
        }
        self.db.export(file).await.map_err(|e| fail(e.message().to_owned()))?;
        mark_end(file).map_err(|e| fail(e.to_string()))
    }

    /// Restores the backup `file` into the database at `url` and brings its schema up to date
    /// (a backup of an older version gets the newer migrations). The file must read through to its
    /// [`END_MARK`]. The database must hold no records, unless `replace` names a safety file: what
    /// the database holds is then exported there first, and erased only once that is written.
    /// Answers whether a safety export was written (not when the database held nothing).
    ///
    /// # Errors
    /// [`BackupError::Incomplete`] for a file that does not read through to its end mark, checked
    /// before the database is touched; [`BackupError::NotEmpty`] without `replace` when records
    /// exist; [`BackupError::Safety`] when the safety export cannot be written (nothing is erased);
    /// [`BackupError::Import`] when the file is missing or not a backup; [`BackupError::Connect`].
    pub async fn restore(
        url: &str,
        options: &ConnectOptions,
        file: &Path,
        replace: Option<&Path>,
    ) -> Result<(Self, bool), BackupError> {
        let fail = |reason: String| BackupError::Import { path: file.to_owned(), reason };
        if !file.is_file() {
            return Err(fail("no such file".to_owned()));
        }
        check_end(file).map_err(|reason| BackupError::Incomplete { path: file.to_owned(), reason })?;
        let db = Self::open_unmigrated(url, options).await?;
        let holding = db.tables_with_records().await?;
        let saved = match replace {
            _ if holding.is_empty() => false,
            None => return Err(BackupError::NotEmpty { url: db.url.clone(), tables: holding.join(", ") }),
            Some(safety) => {
                db.export_to(safety)
                    .await
                    .map_err(|e| BackupError::Safety { path: safety.to_owned(), reason: e.to_string() })?;
                check_end(safety).map_err(|reason| BackupError::Safety { path: safety.to_owned(), reason })?;
                true
            }
        };
        // A clean database, so the backup's definitions apply exactly as written.
        let unreachable =
            |e: surrealdb::Error| ConnectError::Unreachable { url: db.url.clone(), reason: e.message().to_owned() };
        db.db
            .query(format!("REMOVE DATABASE IF EXISTS {}", db.database))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map_err(unreachable)?;
        db.db.use_ns_db(&db.namespace, &db.database).await.map_err(unreachable)?;
        db.db.import(file).await.map_err(|e| fail(e.message().to_owned()))?;
        schema::migrate(&db.db).await?;
        Ok((db, saved))
    }

    /// The tables holding at least one record, bookkeeping aside.
    async fn tables_with_records(&self) -> Result<Vec<String>, ConnectError> {
        let unreachable =
            |e: surrealdb::Error| ConnectError::Unreachable { url: self.url.clone(), reason: e.message().to_owned() };
        let tables: Vec<String> = match self
            .db
            .query("RETURN object::keys((INFO FOR DB).tables)")
            .await
            .and_then(|mut r| r.take::<Vec<String>>(0))
        {
            Ok(tables) => tables,
            // A fresh store has no database yet: nothing in it.
            Err(e) if e.message().contains("does not exist") => Vec::new(),
            Err(e) => return Err(unreachable(e)),
        };
        let mut holding = Vec::new();
        for table in tables.into_iter().filter(|t| !BOOKKEEPING.contains(&t.as_str())) {
            let some: Vec<i64> = self
                .db
                .query("SELECT VALUE 1 FROM type::table($table) LIMIT 1")
                .bind(("table", table.clone()))
                .await
                .and_then(|mut r| r.take(0))
                .map_err(unreachable)?;
            if !some.is_empty() {
                holding.push(table);
            }
        }
        Ok(holding)
    }
}

/// SHA-256 (hex) of the first `len` bytes of `file`.
fn digest(file: &mut std::fs::File, len: u64) -> std::io::Result<String> {
    file.seek(SeekFrom::Start(0))?;
    let mut hasher = Sha256::new();
    let copied = std::io::copy(&mut file.take(len), &mut hasher)?;
    if copied != len {
        return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the file is shorter than it was"));
    }
    Ok(hex::encode(hasher.finalize()))
}

/// Ends a freshly exported `file` with the [`END_MARK`] over what it holds.
fn mark_end(path: &Path) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().read(true).append(true).open(path)?;
    let mut len = file.metadata()?.len();
    let mut last = [0u8; 1];
    if len > 0 {
        file.seek(SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
    }
    if len > 0 && last[0] != b'\n' {
        file.write_all(b"\n")?;
        len += 1;
    }
    let digest = digest(&mut file, len)?;
    file.write_all(format!("{END_MARK} {len} bytes, sha256 {digest}\n").as_bytes())?;
    file.sync_all()
}

/// Whether `path` reads through to its [`END_MARK`]: why not, when it does not.
fn check_end(path: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| format!("cannot read it: {e}");
    let mut file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    // The mark line is short: it is within the file's last 256 bytes, or it is not there.
    let tail_start = size.saturating_sub(256);
    file.seek(SeekFrom::Start(tail_start)).map_err(io)?;
    let mut tail = Vec::new();
    file.read_to_end(&mut tail).map_err(io)?;
    let no_mark = || format!("it does not end with the line `{END_MARK} …` that `export` writes last");
    let body = tail.strip_suffix(b"\n").ok_or_else(no_mark)?;
    let line_start = body.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let line = std::str::from_utf8(&body[line_start..]).map_err(|_| no_mark())?;
    let (len, expected) = line
        .strip_prefix(END_MARK)
        .and_then(|rest| rest.trim().split_once(" bytes, sha256 "))
        .and_then(|(len, digest)| Some((len.parse::<u64>().ok()?, digest.to_owned())))
        .ok_or_else(no_mark)?;
    let mark_at = tail_start + line_start as u64;
    if len != mark_at {
        return Err(format!("its end mark counts {len} bytes before it, the file holds {mark_at}"));
    }
    let actual = digest(&mut file, len).map_err(io)?;
    if actual != expected {
        return Err("what precedes its end mark is not what was exported (SHA-256 differs)".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(content: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("b.surql");
        std::fs::write(&path, content).expect("written");
        (dir, path)
    }

    #[test]
    fn a_marked_file_reads_through_and_any_cut_or_change_does_not() {
        let (_dir, path) = written(b"DEFINE TABLE a;\nINSERT [{ id: a:1 }];");
        mark_end(&path).expect("marked");
        let whole = std::fs::read(&path).expect("read");
        assert!(
            whole.starts_with(b"DEFINE TABLE a;\nINSERT [{ id: a:1 }];\n-- marque backup end: 38 bytes, sha256 "),
            "{}",
            String::from_utf8_lossy(&whole)
        );
        assert_eq!(check_end(&path), Ok(()));
        let newline = whole.iter().position(|b| *b == b'\n').expect("a line") + 1;
        for cut in [0, 1, newline, whole.len() / 2, whole.len() - 1] {
            std::fs::write(&path, &whole[..cut]).expect("written");
            assert!(check_end(&path).is_err(), "cut at {cut}");
        }
        let mut altered = whole.clone();
        altered[20] = b'b';
        std::fs::write(&path, &altered).expect("written");
        assert!(check_end(&path).is_err_and(|e| e.contains("SHA-256")));
        let mut doubled = whole[..newline].to_vec();
        doubled.extend_from_slice(&whole);
        std::fs::write(&path, &doubled).expect("written");
        assert!(check_end(&path).is_err_and(|e| e.contains("counts 38 bytes")));
    }
}
