//! Backups of the shop's database as one SurrealQL file: every table's definition and every
//! record, written by the engine's own export and read back by its import.
//!
//! Supported on the embedded engines (`surrealkv://`, `mem://`); for a SurrealDB server use its
//! own `surreal export` / `surreal import`.

use std::path::{Path, PathBuf};

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
}

/// Tables the schema keeps its own records in; a database holding only these is empty.
const BOOKKEEPING: &[&str] = &["migration"];

impl Database {
    /// Writes every table's definition and record to `file` (SurrealQL), replacing it.
    ///
    /// # Errors
    /// [`BackupError::Export`] when the engine cannot export (e.g. a `ws://` server) or the file
    /// cannot be written.
    pub async fn export_to(&self, file: &Path) -> Result<(), BackupError> {
        let fail = |reason: String| BackupError::Export { path: file.to_owned(), reason };
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| fail(e.to_string()))?;
        }
        self.db.export(file).await.map_err(|e| fail(e.message().to_owned()))
    }

    /// Restores the backup `file` into the database at `url` and brings its schema up to date
    /// (a backup of an older version gets the newer migrations). The database must hold no
    /// records, unless `replace`, which erases everything in it first.
    ///
    /// # Errors
    /// [`BackupError::NotEmpty`] without `replace` when records exist; [`BackupError::Import`]
    /// when the file is missing or not a backup; [`BackupError::Connect`].
    pub async fn restore(url: &str, options: &ConnectOptions, file: &Path, replace: bool) -> Result<Self, BackupError> {
        let fail = |reason: String| BackupError::Import { path: file.to_owned(), reason };
        if !file.is_file() {
            return Err(fail("no such file".to_owned()));
        }
        let db = Self::open_unmigrated(url, options).await?;
        let holding = db.tables_with_records().await?;
        if !holding.is_empty() && !replace {
            return Err(BackupError::NotEmpty { url: db.url.clone(), tables: holding.join(", ") });
        }
        // A clean database, so the backup's definitions apply exactly as written.
        let unreachable = |e: surrealdb::Error| ConnectError::Unreachable { url: db.url.clone(), reason: e.message().to_owned() };
        db.db
            .query(format!("REMOVE DATABASE IF EXISTS {}", db.database))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map_err(unreachable)?;
        db.db.use_ns_db(&db.namespace, &db.database).await.map_err(unreachable)?;
        db.db.import(file).await.map_err(|e| fail(e.message().to_owned()))?;
        schema::migrate(&db.db).await?;
        Ok(db)
    }

    /// The tables holding at least one record, bookkeeping aside.
    async fn tables_with_records(&self) -> Result<Vec<String>, ConnectError> {
        let unreachable = |e: surrealdb::Error| ConnectError::Unreachable { url: self.url.clone(), reason: e.message().to_owned() };
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
