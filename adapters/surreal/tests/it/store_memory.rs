//! What an embedded `surrealkv://` store may keep in memory: the sizes reach SurrealKV, a store
//! opened with small ones works end to end, and sizes out of bounds are refused before anything
//! is opened.

use std::io::Write;
use std::sync::{Arc, Mutex};

use marque_contract_tests::fixtures::product;
use marque_domain::catalog::{Product, ProductId};
use marque_ports::{CatalogStore, ProductQuery};
use marque_surreal::{ConnectError, ConnectOptions, Database, StoreMemory};

fn options(block_cache_mb: u64, memtable_mb: u64) -> ConnectOptions {
    ConnectOptions { store_memory: StoreMemory { block_cache_mb, memtable_mb }, ..ConnectOptions::default() }
}

/// Products of about 1.5 KB each (a long description), numbered from `from`.
fn products(from: usize, count: usize) -> Vec<Product> {
    (from..from + count)
        .map(|n| {
            product(&format!("p{n:06}"))
                .name(&format!("Front Brake Disc {n}"))
                .with(|p| p.description = format!("Vented front disc, part {n}. ").repeat(50))
                .build()
        })
        .collect()
}

/// Log lines written while the test's thread runs, for what SurrealKV reports it was given.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log buffer").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("log buffer")).into_owned()
    }
}

#[tokio::test]
async fn surrealkv_is_opened_with_the_configured_block_cache_and_memtable() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .finish();
    // The engine is built on this thread (a current-thread runtime), so its log lines land here.
    let _guard = tracing::subscriber::set_default(subscriber);
    let tmp = tempfile::tempdir().expect("temporary directory");
    let url = format!("surrealkv://{}", tmp.path().join("db").display());
    let db = Database::connect_with(&url, &options(3, 12)).await.expect("open with small sizes");
    assert_eq!(db.catalog().count_products().await.expect("count"), 0);
    let logged = captured.text();
    assert!(logged.contains(&format!("Setting block cache capacity: {}", 3u64 << 20)), "{logged}");
    assert!(logged.contains(&format!("Setting max memtable size: {}", 12u64 << 20)), "{logged}");
}

#[tokio::test]
async fn a_write_larger_than_the_memtable_is_refused_and_smaller_ones_go_through() {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let url = format!("surrealkv://{}", tmp.path().join("db").display());
    let (min_memtable, _) = StoreMemory::MEMTABLE_MB;
    let db = Database::connect_with(&url, &options(1, min_memtable)).await.expect("open with the smallest memtable");
    let catalog = db.catalog();
    // ~1.5 MB of products, several times that with the search index's n-grams: more than 4 MB.
    let refused = catalog.add_products(&products(0, 1_000)).await.expect_err("one write larger than the memtable");
    assert!(refused.to_string().contains("Memtable arena is full"), "{refused}");
    assert_eq!(catalog.count_products().await.expect("count"), 0, "nothing of it was written");
    for from in (0..1_000).step_by(100) {
        catalog.add_products(&products(from, 100)).await.expect("writes of 100 fit");
    }
    assert_eq!(catalog.count_products().await.expect("count"), 1_000);
}

#[tokio::test]
async fn a_store_with_small_sizes_keeps_a_catalog_many_times_their_size() {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let url = format!("surrealkv://{}", tmp.path().join("db").display());
    let (min_cache, _) = StoreMemory::BLOCK_CACHE_MB;
    let small = options(min_cache, 16);
    // 6,000 products of ~1.5 KB (~9 MB, several times that with the indexes) in writes of 1,000,
    // as the seed writes them: the memtable fills and is flushed to files several times over,
    // and every read afterwards goes through a 1 MB block cache.
    let written = products(0, 6_000);
    {
        let db = Database::connect_with(&url, &small).await.expect("open with small sizes");
        let catalog = db.catalog();
        for batch in written.chunks(1_000) {
            catalog.add_products(batch).await.expect("a write of 1,000 fits in a 16 MB memtable");
        }
        let closing = db.closing();
        drop(catalog);
        drop(db);
        assert!(closing.wait(std::time::Duration::from_secs(10)).await, "the store closes");
    }
    let db = Database::connect_with(&url, &small).await.expect("reopen with small sizes");
    let catalog = db.catalog();
    assert_eq!(catalog.count_products().await.expect("count"), 6_000);
    for n in [0, 2_345, 5_999] {
        let id = ProductId(format!("p{n:06}"));
        assert_eq!(catalog.product(&id).await.expect("read").as_ref(), Some(&written[n]), "{id:?}");
    }
    let found = catalog
        .search(&ProductQuery { text: "brake disc 4321".into(), offset: 0, limit: 10, fits: None, grades: Vec::new() })
        .await
        .expect("search");
    assert_eq!(found.products.first().map(|p| p.id.0.as_str()), Some("p004321"), "the search index answers too");
}

#[tokio::test]
async fn sizes_out_of_bounds_are_refused_before_anything_is_opened() {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let dir = tmp.path().join("db");
    let url = format!("surrealkv://{}", dir.display());
    let (_, max_cache) = StoreMemory::BLOCK_CACHE_MB;
    let (min_memtable, max_memtable) = StoreMemory::MEMTABLE_MB;
    let cases = [
        (options(0, 64), "SurrealKV block cache", 0),
        (options(max_cache + 1, 64), "SurrealKV block cache", max_cache + 1),
        (options(16, min_memtable - 1), "SurrealKV memtable", min_memtable - 1),
        (options(16, max_memtable + 1), "SurrealKV memtable", max_memtable + 1),
    ];
    for (options, what, value) in cases {
        for address in [url.as_str(), "mem://"] {
            let error = Database::connect_with(address, &options).await.expect_err("out of bounds");
            assert!(
                matches!(error, ConnectError::StoreMemory { what: w, value: v, .. } if w == what && v == value),
                "{address}: {error:?}"
            );
            let message = error.to_string();
            assert!(message.contains(what) && message.contains(&format!("{value} MB")), "{message}");
        }
    }
    assert!(!dir.exists(), "nothing was created");
}
