//! The database: where it is, who signs in to a server, and the embedded store's memory.

use std::time::Duration;

use marque_surreal::{ConnectOptions, Credentials, StoreMemory, UserLevel};
use secrecy::{ExposeSecret as _, SecretString};

use super::flags::{DbAuth, Flags};

/// A database URL: `surrealkv://<dir>`, `mem://` or `ws://host:port` (trimmed, never blank).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatabaseUrl(String);

impl DatabaseUrl {
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// An in-memory database, lost at every restart.
    #[must_use]
    pub fn is_memory(&self) -> bool {
        self.0.starts_with("mem://")
    }

    /// A SurrealDB server (`ws://`, `wss://`).
    #[must_use]
    pub fn is_server(&self) -> bool {
        self.0.starts_with("ws://") || self.0.starts_with("wss://")
    }
}

impl std::fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// How to reach the shop's database.
#[derive(Debug, Clone)]
pub struct DatabaseSettings {
    /// `MARQUE_DB`, by default `surrealkv://<data dir>/db`.
    pub url: DatabaseUrl,
    /// The `ws://` server's user (`MARQUE_DB_USER`, trimmed; `None` when blank).
    pub user: Option<String>,
    /// Its password (`MARQUE_DB_PASS`; `None` when empty).
    pub password: Option<SecretString>,
    /// Where that user is defined.
    pub auth: DbAuth,
    pub namespace: String,
    pub database: String,
    /// How long one call to a server may take (at least 1 ms).
    pub timeout: Duration,
    /// The embedded store's block cache and memtable.
    pub store_memory: StoreMemory,
    /// Whether search rankings and listing counts come from the in-process catalog index
    /// (`MARQUE_CATALOG_INDEX`, on by default; ADR 0019).
    pub catalog_index: bool,
}

impl DatabaseSettings {
    /// The database part of `flags`; nothing in it can be refused here (the engine checks the
    /// store's memory, `prod` refuses what it does not run with).
    #[must_use]
    pub fn parse(flags: &Flags) -> Self {
        let url = match flags.db.as_deref().map(str::trim) {
            Some(url) if !url.is_empty() => url.to_owned(),
            _ => format!("surrealkv://{}", flags.data_dir.join("db").display()),
        };
        Self {
            url: DatabaseUrl(url),
            user: super::flags::text(flags.db_user.as_ref()),
            password: flags.db_pass.clone().filter(|p| !p.expose_secret().is_empty()),
            auth: flags.db_auth,
            namespace: flags.db_namespace.clone(),
            database: flags.db_database.clone(),
            timeout: Duration::from_millis(flags.db_timeout_ms.max(1)),
            store_memory: StoreMemory { block_cache_mb: flags.db_cache_mb, memtable_mb: flags.db_memtable_mb },
            catalog_index: flags.catalog_index,
        }
    }

    /// The adapter's options: namespace, database, deadline, memory, and the server's user when
    /// both it and its password are given.
    #[must_use]
    pub fn connect_options(&self) -> ConnectOptions {
        let level = match self.auth {
            DbAuth::Root => UserLevel::Root,
            DbAuth::Namespace => UserLevel::Namespace,
            DbAuth::Database => UserLevel::Database,
        };
        ConnectOptions {
            namespace: self.namespace.clone(),
            database: self.database.clone(),
            timeout: self.timeout,
            store_memory: self.store_memory,
            catalog_index: self.catalog_index,
            credentials: self.user.clone().zip(self.password.as_ref()).map(|(username, password)| Credentials {
                username,
                password: password.expose_secret().to_owned(),
                level,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn the_embedded_database_lives_in_the_data_dir() {
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        flags.db = None;
        flags.data_dir = PathBuf::from("/srv/marque");
        assert_eq!(DatabaseSettings::parse(&flags).url.as_str(), "surrealkv:///srv/marque/db");
    }
}
