//! One connection, whichever way it was opened.
//!
//! `mem://` and `ws://` are opened by the SDK from their address (`Surreal<Any>`). A
//! `surrealkv://` directory is opened on a datastore built here, so that its block cache and
//! memtable can be bounded (see `connect.rs`), and the SDK serves that datastore as a
//! `Surreal<Db>`: a different type, which the SDK cannot turn into `Surreal<Any>`. [`Conn`] is
//! either, with the few calls the stores make ([`Conn::query`], [`Conn::begin`], and backups'
//! export and import), each passed on unchanged.

use std::borrow::Cow;
use std::future::{Future, IntoFuture};
use std::path::Path;
use std::pin::Pin;

use surrealdb::engine::any::Any;
use surrealdb::engine::local::Db;
use surrealdb::method::Transaction;
use surrealdb::types::{SurrealValue, Value};
use surrealdb::{IndexedResults, Surreal};

/// A connection to the database on one engine.
#[derive(Debug, Clone)]
pub(crate) enum Conn {
    /// Opened from its address by the SDK (`mem://`, `ws://`).
    Any(Surreal<Any>),
    /// A datastore built here and served by the SDK (`surrealkv://`).
    Local(Surreal<Db>),
}

/// A transaction begun on a [`Conn`].
#[derive(Debug)]
pub(crate) enum Tx {
    Any(Transaction<Any>),
    Local(Transaction<Db>),
}

/// What a [`Statement`] runs on.
#[derive(Debug, Clone, Copy)]
enum Target<'a> {
    Any(&'a Surreal<Any>),
    Local(&'a Surreal<Db>),
    AnyTx(&'a Transaction<Any>),
    LocalTx(&'a Transaction<Db>),
}

/// SurrealQL and its bound parameters, run when awaited (the SDK's `Query`, on either engine).
#[derive(Debug)]
#[must_use = "a statement runs only when awaited"]
pub(crate) struct Statement<'a> {
    target: Target<'a>,
    /// The statements, run in one request.
    surql: Vec<Cow<'a, str>>,
    vars: Vec<(String, Value)>,
}

impl Conn {
    pub(crate) fn query<'a>(&'a self, surql: impl Into<Cow<'a, str>>) -> Statement<'a> {
        Statement::on(
            match self {
                Conn::Any(db) => Target::Any(db),
                Conn::Local(db) => Target::Local(db),
            },
            surql.into(),
        )
    }

    /// Begins a transaction (`BEGIN`), committed or cancelled through the [`Tx`].
    pub(crate) async fn begin(&self) -> surrealdb::Result<Tx> {
        match self {
            Conn::Any(db) => db.clone().begin().await.map(Tx::Any),
            Conn::Local(db) => db.clone().begin().await.map(Tx::Local),
        }
    }

    pub(crate) async fn use_ns_db(&self, namespace: &str, database: &str) -> surrealdb::Result<()> {
        match self {
            Conn::Any(db) => db.use_ns(namespace).use_db(database).await.map(drop),
            Conn::Local(db) => db.use_ns(namespace).use_db(database).await.map(drop),
        }
    }

    pub(crate) async fn export(&self, file: &Path) -> surrealdb::Result<()> {
        match self {
            Conn::Any(db) => db.export(file).await,
            Conn::Local(db) => db.export(file).await,
        }
    }

    pub(crate) async fn import(&self, file: &Path) -> surrealdb::Result<()> {
        match self {
            Conn::Any(db) => db.import(file).await,
            Conn::Local(db) => db.import(file).await,
        }
    }
}

impl Tx {
    pub(crate) fn query<'a>(&'a self, surql: impl Into<Cow<'a, str>>) -> Statement<'a> {
        Statement::on(
            match self {
                Tx::Any(tx) => Target::AnyTx(tx),
                Tx::Local(tx) => Target::LocalTx(tx),
            },
            surql.into(),
        )
    }

    pub(crate) async fn commit(self) -> surrealdb::Result<()> {
        match self {
            Tx::Any(tx) => tx.commit().await.map(drop),
            Tx::Local(tx) => tx.commit().await.map(drop),
        }
    }

    pub(crate) async fn cancel(self) -> surrealdb::Result<()> {
        match self {
            Tx::Any(tx) => tx.cancel().await.map(drop),
            Tx::Local(tx) => tx.cancel().await.map(drop),
        }
    }
}

impl<'a> Statement<'a> {
    fn on(target: Target<'a>, surql: Cow<'a, str>) -> Self {
        Statement { target, surql: vec![surql], vars: Vec::new() }
    }

    /// Adds more SurrealQL, run after what is there in the same request.
    pub(crate) fn query(mut self, surql: impl Into<Cow<'a, str>>) -> Self {
        self.surql.push(surql.into());
        self
    }

    /// Binds `$name` to `value`.
    pub(crate) fn bind(mut self, (name, value): (impl Into<String>, impl SurrealValue)) -> Self {
        self.vars.push((name.into(), value.into_value()));
        self
    }
}

/// Builds the SDK's query on `$on` (a connection or a transaction, of either engine) and runs it.
macro_rules! run {
    ($on:expr, $surql:expr, $vars:expr) => {{
        let mut surql = $surql.into_iter();
        let mut query = $on.query(surql.next().unwrap_or_default());
        for more in surql {
            query = query.query(more);
        }
        for var in $vars {
            query = query.bind(var);
        }
        query.await
    }};
}

impl<'a> IntoFuture for Statement<'a> {
    type Output = surrealdb::Result<IndexedResults>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        let Statement { target, surql, vars } = self;
        Box::pin(async move {
            match target {
                Target::Any(db) => run!(db, surql, vars),
                Target::Local(db) => run!(db, surql, vars),
                Target::AnyTx(tx) => run!(tx, surql, vars),
                Target::LocalTx(tx) => run!(tx, surql, vars),
            }
        })
    }
}
