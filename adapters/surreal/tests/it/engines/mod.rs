//! Opening each engine for the store contract suites, and the macro that runs one suite on all of them.
//!
//! The `ws` tests need a SurrealDB server named by `MARQUE_TEST_SURREAL_URL`
//! (e.g. `ws://127.0.0.1:8000`; `MARQUE_TEST_SURREAL_USER` / `MARQUE_TEST_SURREAL_PASS`
//! sign in as a root user, which creates a database per test and a database user with the
//! `EDITOR` role on it; the suite runs signed in as that user, as the shop does in `prod`).
//! They are marked ignored, so a plain `cargo test` reports each of them as skipped by name;
//! `make test` starts a server and runs them (`-- --include-ignored`), and run without one they fail
//! rather than pass quietly.

use marque_surreal::{ConnectOptions, Credentials, Database, UserLevel};

pub async fn in_memory() -> Database {
    Database::connect("mem://").await.expect("open mem://")
}

/// A fresh database in a temporary directory; the directory goes when the guard drops.
pub async fn on_disk() -> (Database, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let url = format!("surrealkv://{}", dir.path().join("db").display());
    let db = Database::connect(&url).await.unwrap_or_else(|e| panic!("open {url}: {e}"));
    (db, dir)
}

/// A database of its own on the server under test, opened as its own database user, and the
/// root connection that created it (to erase it afterwards).
pub async fn on_server(suite: &str) -> (Database, Database) {
    let url = std::env::var("MARQUE_TEST_SURREAL_URL")
        .ok()
        .filter(|url| !url.trim().is_empty())
        .unwrap_or_else(|| panic!("{suite} on ws:// needs MARQUE_TEST_SURREAL_URL (e.g. ws://127.0.0.1:8000)"));
    let credentials = match (std::env::var("MARQUE_TEST_SURREAL_USER"), std::env::var("MARQUE_TEST_SURREAL_PASS")) {
        (Ok(username), Ok(password)) => Some(Credentials { username, password, level: UserLevel::Root }),
        _ => None,
    };
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let options = ConnectOptions {
        namespace: "marque_test".to_owned(),
        database: format!("{suite}_{}_{stamp}", std::process::id()),
        credentials,
        ..ConnectOptions::default()
    };
    let admin = Database::connect_with(&url, &options).await.unwrap_or_else(|e| panic!("open {url}: {e}"));
    if options.credentials.is_none() {
        return (admin.clone(), admin);
    }
    // A quote and a backslash: the password reaches DEFINE USER as a literal.
    let password = format!("pw'\\{stamp}");
    admin.define_editor("marque_suite", &password).await.expect("define the suite's database user");
    let user = Credentials { username: "marque_suite".to_owned(), password, level: UserLevel::Database };
    let options = ConnectOptions { credentials: Some(user), ..options };
    let db =
        Database::connect_with(&url, &options).await.unwrap_or_else(|e| panic!("open {url} as the database user: {e}"));
    (db, admin)
}

/// Runs suite `$suite` of `marque_contract_tests::$module` against `Database::$store()` (or several
/// stores of one database, `[orders, catalog]`) on every engine: one test each, `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`.
macro_rules! on_every_engine {
    ($module:ident, $store:ident, $suite:ident) => {
        on_every_engine!($module, [$store], $suite);
    };
    ($module:ident, [$($store:ident),+], $suite:ident) => {
        mod $suite {
            use crate::engines::{in_memory, on_disk, on_server};

            #[tokio::test]
            async fn mem() {
                let db = in_memory().await;
                marque_contract_tests::$module::$suite($(&db.$store()),+).await;
            }

            #[tokio::test]
            async fn surrealkv() {
                let (db, _dir) = on_disk().await;
                marque_contract_tests::$module::$suite($(&db.$store()),+).await;
            }

            #[tokio::test]
            #[ignore = "needs a SurrealDB server: `make test` starts one (tools/with-surreal.sh) and runs these with --include-ignored"]
            async fn ws() {
                let (db, admin) = on_server(stringify!($suite)).await;
                marque_contract_tests::$module::$suite($(&db.$store()),+).await;
                drop(db);
                admin.erase().await.expect("remove the test database");
            }
        }
    };
}
