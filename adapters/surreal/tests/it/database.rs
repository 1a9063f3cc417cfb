//! Opening the database: engines, addresses, durability, migrations, and what the schema refuses.

use marque_contract_tests::fixtures::product;
use marque_domain::catalog::ProductId;
use marque_domain::Money;
use marque_ports::{CatalogStore, CatalogStoreError, ProductQuery};
use marque_surreal::{latest_migration, ConnectError, ConnectOptions, Database};

fn surrealkv(dir: &std::path::Path) -> String {
    format!("surrealkv://{}", dir.display())
}

#[tokio::test]
async fn surrealkv_keeps_the_catalog_across_reopening() {
    let tmp = tempfile::tempdir().expect("temporary directory");
    // Two levels that do not exist yet: connect creates them.
    let url = surrealkv(&tmp.path().join("data").join("db"));
    let disc = product("p1").name("Front Brake Disc").part_no("A 000 180 26 09").units_sold(3).build();
    {
        let db = Database::connect(&url).await.expect("first open");
        db.catalog().add_products(std::slice::from_ref(&disc)).await.expect("add");
    }
    let db = Database::connect(&url).await.expect("reopen");
    let catalog = db.catalog();
    assert_eq!(catalog.product(&disc.id).await.expect("read"), Some(disc.clone()));
    assert_eq!(catalog.count_products().await.expect("count"), 1);
    let found = catalog
        .search(&ProductQuery { text: "brak".into(), offset: 0, limit: 10, fits: None, grades: Vec::new() })
        .await
        .expect("search");
    assert_eq!(found.products, vec![disc], "the full-text index survives reopening too");
}

#[tokio::test]
async fn schema_is_applied_once_however_often_the_database_is_opened() {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let url = surrealkv(tmp.path());
    let first = Database::connect(&url).await.expect("first open");
    let applied = first.applied_migrations().await.expect("migrations");
    let numbers: Vec<u32> = applied.iter().map(|m| m.number).collect();
    assert_eq!(numbers, (1..=latest_migration()).collect::<Vec<_>>(), "every migration applied, in order");
    first.catalog().add_products(&[product("p1").build()]).await.expect("add");
    first.migrate().await.expect("migrating again");
    first.migrate().await.expect("and again");
    assert_eq!(first.applied_migrations().await.expect("migrations"), applied, "re-migrating records nothing new");
    drop(first);

    let second = Database::connect(&url).await.expect("second open");
    assert_eq!(second.applied_migrations().await.expect("migrations"), applied, "reopening records nothing new");
    assert_eq!(second.catalog().count_products().await.expect("count"), 1, "and changes no data");
}

#[tokio::test]
async fn a_relative_surrealkv_directory_is_created() {
    let tmp = tempfile::tempdir().expect("temporary directory");
    // A path relative to the current directory that lands in the temporary one.
    let cwd = std::env::current_dir().expect("current directory");
    let ups = "../".repeat(cwd.components().count().saturating_sub(1));
    let target = tmp.path().join("relative").join("db");
    let relative = format!("{ups}{}", target.display().to_string().trim_start_matches('/'));
    assert!(!relative.starts_with('/'));
    let db = Database::connect(&format!("surrealkv://{relative}")).await.expect("open a relative directory");
    assert_eq!(db.catalog().count_products().await.expect("count"), 0);
    assert!(target.is_dir(), "{} was created", target.display());
}

#[tokio::test]
async fn addresses_the_adapter_cannot_serve_are_refused() {
    for url in ["postgres://localhost/shop", "rocksdb://data", "", "surrealkv://", "data/db"] {
        assert!(
            matches!(Database::connect(url).await, Err(ConnectError::UnsupportedUrl { .. })),
            "{url:?} is not an engine here"
        );
    }
    let odd_name = ConnectOptions { database: "shop; REMOVE NAMESPACE marque".into(), ..ConnectOptions::default() };
    assert!(matches!(
        Database::connect_with("mem://", &odd_name).await,
        Err(ConnectError::InvalidName { what: "database", .. })
    ));
}

#[tokio::test]
async fn a_server_that_is_not_there_is_unreachable() {
    // Port 9 (discard) is closed on any machine that runs these tests.
    let outcome = tokio::time::timeout(std::time::Duration::from_secs(30), Database::connect("ws://127.0.0.1:9"))
        .await
        .expect("connecting to a closed port gives up by itself");
    assert!(matches!(outcome, Err(ConnectError::Unreachable { .. })), "{outcome:?}");
}

#[tokio::test]
async fn records_outside_the_schema_are_refused_as_invalid_and_nothing_is_written() {
    let db = Database::connect("mem://").await.expect("open");
    let catalog = db.catalog();
    let cases = [
        product("negative-price").price(Money::from_paise(-1)).build(),
        product("negative-delivery").with(|p| p.inside_ncr = Money::from_paise(-100)).build(),
        product("gst-too-high").with(|p| p.gst_percent = 29).build(),
        product("").build(),
    ];
    for bad in cases {
        let outcome = catalog.add_products(&[product("fine").build(), bad.clone()]).await;
        assert!(matches!(outcome, Err(CatalogStoreError::Invalid { .. })), "{:?}: {outcome:?}", bad.id);
    }
    assert_eq!(catalog.count_products().await.expect("count"), 0, "refused batches write nothing");
}

#[tokio::test]
async fn a_batch_of_several_statements_is_still_all_or_none() {
    let db = Database::connect("mem://").await.expect("open");
    let catalog = db.catalog();
    // More rows than one INSERT statement takes, the bad one in the last statement.
    let mut batch: Vec<_> = (0..1_050).map(|i| product(&format!("bulk{i:05}")).created_at(i).build()).collect();
    batch[1_020].gst_percent = 99;
    let outcome = catalog.add_products(&batch).await;
    assert!(matches!(outcome, Err(CatalogStoreError::Invalid { .. })), "{outcome:?}");
    assert_eq!(catalog.count_products().await.expect("count"), 0, "earlier statements are rolled back");

    batch[1_020].gst_percent = 18;
    catalog.add_products(&batch).await.expect("the corrected batch");
    assert_eq!(catalog.count_products().await.expect("count"), 1_050);
    let newest = catalog.newest_products(1).await.expect("newest");
    assert_eq!(newest[0].id, ProductId("bulk01049".into()));
}

#[tokio::test]
async fn stores_from_one_database_share_its_data() {
    let db = Database::connect("mem://").await.expect("open");
    db.catalog().add_products(&[product("p1").build()]).await.expect("add");
    assert_eq!(db.clone().catalog().count_products().await.expect("count"), 1);
}
