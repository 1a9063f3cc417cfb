//! The `CatalogChanges` contract, one suite per promise in `marque_ports::catalog_changes`.
//!
//! Each suite gets the changes of an empty database and the stores whose writes they follow
//! there: the catalog store (its writes move the version) and, for stock, the order store
//! (its reservations, releases, expiries and placements list stock changes). Adapters run
//! each on every engine.

use marque_domain::catalog::ProductId;
use marque_ports::{CatalogChanges, CatalogStore, CatalogVersion, OrderStore, PaymentId, ProductListing, ProductQuery};

use crate::fixtures::{brand, category, product};
use crate::orders::{pid, reservation, stock, JUNE_2026};

async fn version(changes: &dyn CatalogChanges) -> u64 {
    changes.catalog_version().await.unwrap_or_else(|e| panic!("catalog_version: {e}")).version
}

/// `catalog_version` changes with every successful write of the catalog store and with no read.
pub async fn catalog_version_moves_with_every_write(changes: &dyn CatalogChanges, store: &dyn CatalogStore) {
    let mut last = version(changes).await;
    let mut changed = |now: u64, what: &str| {
        assert_ne!(now, last, "the catalog version must change after {what}");
        last = now;
    };
    store.put_brands(&[brand("bmw", "BMW")]).await.expect("put_brands");
    changed(version(changes).await, "put_brands");
    store.put_categories(&[category("brakes", "Brakes", &[("discs", "Discs")])]).await.expect("put_categories");
    changed(version(changes).await, "put_categories");
    store.add_products(&[product("v1").build()]).await.expect("add_products");
    changed(version(changes).await, "add_products");
    store.add_products(&[product("v2").build(), product("v3").build()]).await.expect("add_products");
    changed(version(changes).await, "a second add_products");

    let before = version(changes).await;
    let _ = store.brands().await.expect("brands");
    let _ = store.product(&ProductId("v1".into())).await.expect("product");
    let _ = store
        .search(&ProductQuery { text: "brake".into(), offset: 0, limit: 5, fits: None, grades: Vec::new() })
        .await
        .expect("search");
    let _ = store.list_products(&ProductListing { limit: 5, ..ProductListing::default() }).await.expect("listing");
    assert_eq!(version(changes).await, before, "reads leave the catalog version alone");
}

/// The product ids of the stock changes `now` lists and `before` did not.
fn new_stock_changes(before: &CatalogVersion, now: &CatalogVersion) -> Vec<Vec<String>> {
    let mut changes: Vec<Vec<String>> = now
        .stock_changes
        .iter()
        .filter(|c| !before.stock_changes.iter().any(|b| b.id == c.id))
        .map(|c| {
            let mut ids: Vec<String> = c.products.iter().map(|p| p.0.clone()).collect();
            ids.sort();
            ids
        })
        .collect();
    changes.sort();
    changes
}

/// A reservation, a release, an expiry and a placement each list, in the catalog's version, a
/// stock change naming exactly their products, and leave the version of the shop's writes alone
/// (caches of catalog answers then forget only what holds those products). A refused reservation
/// lists nothing.
pub async fn every_stock_change_names_its_products_for_catalog_caches(
    changes: &dyn CatalogChanges,
    catalog: &dyn CatalogStore,
    orders: &dyn OrderStore,
) {
    stock(catalog, &[1, 2, 3], 2).await;
    let read = async || changes.catalog_version().await.expect("catalog_version");
    let ids = |numbers: &[u32]| numbers.iter().map(|&n| pid(n).0).collect::<Vec<_>>();
    let mut last = read().await;
    let version = last.version;
    let mut step = async |what: &str, expected: Vec<Vec<String>>| {
        let now = read().await;
        assert_eq!(new_stock_changes(&last, &now), expected, "{what}");
        assert_eq!(now.version, version, "{what} leaves the version alone");
        last = now;
    };

    let a = reservation("a", "u1", &[(1, 1), (2, 1)], JUNE_2026);
    orders.reserve(&a).await.expect("reserve");
    step("a reservation", vec![ids(&[1, 2])]).await;
    let refused = reservation("b", "u1", &[(3, 5)], JUNE_2026);
    assert!(orders.reserve(&refused).await.is_err());
    step("a refused reservation", vec![]).await;
    orders.release(&a.payment_order).await.expect("release");
    step("a release", vec![ids(&[1, 2])]).await;
    assert_eq!(orders.release(&a.payment_order).await, Ok(false));
    step("a release of nothing held", vec![]).await;
    let c = reservation("c", "u1", &[(3, 1)], JUNE_2026);
    orders.reserve(&c).await.expect("reserve");
    step("another reservation", vec![ids(&[3])]).await;
    orders.place(&c.payment_order, &PaymentId("pay_c".into()), JUNE_2026 + 60).await.expect("place");
    step("a placement", vec![ids(&[3])]).await;
    let d = reservation("d", "u1", &[(2, 1)], JUNE_2026);
    orders.reserve(&d).await.expect("reserve");
    step("a third reservation", vec![ids(&[2])]).await;
    assert_eq!(orders.release_expired(JUNE_2026 + 900).await, Ok(1));
    step("an expiry", vec![ids(&[2])]).await;
}

/// What the changes show after a write, against `before` (read before it): whether the version
/// moved, and the described catalog changes that are new.
pub async fn after_write(
    changes: &dyn CatalogChanges,
    before: &CatalogVersion,
) -> (bool, Vec<marque_ports::CatalogChange>) {
    let now = changes.catalog_version().await.unwrap_or_else(|e| panic!("catalog_version: {e}"));
    let fresh = now.catalog_changes.into_iter().filter(|c| !before.catalog_changes.iter().any(|b| b.id == c.id));
    (now.version != before.version, fresh.collect())
}

/// Asserts that a write seen as `seen` (from [`after_write`]) moved the version or was described
/// by exactly one new change that `covers` accepts.
pub fn assert_seen(
    seen: &(bool, Vec<marque_ports::CatalogChange>),
    what: &str,
    covers: impl Fn(&marque_ports::CatalogChange) -> bool,
) {
    let (moved, fresh) = seen;
    assert!(
        *moved || (fresh.len() == 1 && covers(&fresh[0])),
        "{what}: the version did not move and the new changes do not describe it: {fresh:?}"
    );
}
