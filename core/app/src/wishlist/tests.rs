use super::*;
use marque_ports::{MockCatalogStore, MockWishlistStore};

fn product(id: &str) -> Product {
    marque_contract_tests::fixtures::product(id).build()
}

fn service(wishlist: MockWishlistStore, catalog: MockCatalogStore) -> WishlistService {
    WishlistService::new(Arc::new(wishlist), Arc::new(catalog))
}

#[tokio::test]
async fn lists_catalog_entries_newest_first_skipping_gone_products() {
    let mut wishlist = MockWishlistStore::new();
    wishlist
        .expect_wishlist()
        .returning(|_| Ok(vec![ProductId("p2".into()), ProductId("gone".into()), ProductId("p1".into())]));
    let mut catalog = MockCatalogStore::new();
    catalog.expect_product().returning(|id| Ok((id.0 != "gone").then(|| product(&id.0))));
    let listed = service(wishlist, catalog).list(&UserId("u1".into())).await.expect("list");
    let ids: Vec<&str> = listed.iter().map(|p| p.id.0.as_str()).collect();
    assert_eq!(ids, vec!["p2", "p1"]);
}

#[tokio::test]
async fn adds_only_known_products_with_the_shops_limit() {
    let mut wishlist = MockWishlistStore::new();
    wishlist
        .expect_add()
        .withf(|_, p, limit| p.0 == "p1" && *limit == WISHLIST_LIMIT)
        .returning(|_, _, _| Ok(Added::Added));
    let mut catalog = MockCatalogStore::new();
    catalog.expect_product().returning(|id| Ok((id.0 == "p1").then(|| product("p1"))));
    let s = service(wishlist, catalog);
    assert_eq!(s.add(&UserId("u1".into()), &ProductId("p1".into())).await, Ok(Added::Added));
    assert_eq!(s.add(&UserId("u1".into()), &ProductId("nope".into())).await, Err(WishlistError::ProductNotFound));
}

#[tokio::test]
async fn full_and_failing_stores_are_reported() {
    let mut wishlist = MockWishlistStore::new();
    wishlist.expect_add().returning(|_, _, _| Err(WishlistStoreError::Full));
    wishlist.expect_wishlist().returning(|_| Err(WishlistStoreError::Unavailable { reason: "down".into() }));
    wishlist.expect_remove().returning(|_, _| Err(WishlistStoreError::Unavailable { reason: "down".into() }));
    let mut catalog = MockCatalogStore::new();
    catalog.expect_product().returning(|_| Ok(Some(product("p1"))));
    let s = service(wishlist, catalog);
    let u = UserId("u1".into());
    assert_eq!(s.add(&u, &ProductId("p1".into())).await, Err(WishlistError::Full));
    assert!(matches!(s.list(&u).await, Err(WishlistError::Unavailable(_))));
    assert!(matches!(s.remove(&u, &ProductId("p1".into())).await, Err(WishlistError::Unavailable(_))));

    let mut catalog = MockCatalogStore::new();
    catalog.expect_product().returning(|_| Err(CatalogStoreError::Unavailable { reason: "down".into() }));
    let s = service(MockWishlistStore::new(), catalog);
    assert!(matches!(s.add(&u, &ProductId("p1".into())).await, Err(WishlistError::Unavailable(_))));
}
