use super::*;
use marque_ports::MockCatalogStore;
use mockall::predicate::eq;

fn unavailable() -> CatalogStoreError {
    CatalogStoreError::Unavailable { reason: "connection refused".into() }
}

#[tokio::test]
async fn search_asks_the_store_for_the_right_window_and_counts_pages() {
    let mut store = MockCatalogStore::new();
    store
        .expect_search()
        .with(eq(ProductQuery { text: "brake disc".into(), offset: 40, limit: 20, fits: None, grades: Vec::new() }))
        .times(1)
        .returning(|_| Ok(ProductSlice { products: vec![], total: 41 }));
    let service = CatalogService::new(Arc::new(store));

    let page = Page::parse(Some("3")).expect("valid page");
    let result = service.search("  brake disc ", page).await.expect("search works");

    assert_eq!((result.pages, result.total, result.page), (3, 41, page));
    assert!(result.products.is_empty());
}

#[tokio::test]
async fn nothing_found_is_zero_pages() {
    let mut store = MockCatalogStore::new();
    store.expect_search().returning(|_| Ok(ProductSlice { products: vec![], total: 0 }));
    let service = CatalogService::new(Arc::new(store)).with_page_size(20);
    let result = service.search("zzz", Page::FIRST).await.expect("search works");
    assert_eq!(result.pages, 0);
}

#[tokio::test]
async fn an_unknown_product_is_not_found() {
    let mut store = MockCatalogStore::new();
    store.expect_product().returning(|_| Ok(None));
    let service = CatalogService::new(Arc::new(store));
    let err = service.product(&ProductId("nope".into())).await.expect_err("unknown id");
    assert_eq!(err, CatalogError::ProductNotFound);
    assert_eq!(err.to_string(), "Product not found");
}

#[tokio::test]
async fn a_failing_store_surfaces_as_unavailable() {
    let mut store = MockCatalogStore::new();
    store.expect_search().returning(|_| Err(unavailable()));
    store.expect_newest_products().returning(|_| Err(unavailable()));
    store.expect_product().returning(|_| Err(unavailable()));
    store.expect_list_products().returning(|_| Err(unavailable()));
    let service = CatalogService::new(Arc::new(store));

    assert_eq!(
        service.search("x", Page::FIRST).await.expect_err("store down"),
        CatalogError::Unavailable(unavailable())
    );
    assert!(matches!(service.recently_added().await, Err(CatalogError::Unavailable(_))));
    assert!(matches!(service.product(&ProductId("p1".into())).await, Err(CatalogError::Unavailable(_))));
    assert_eq!(
        service.brand_products("bmw", Page::FIRST).await.expect_err("store down"),
        CatalogError::Unavailable(unavailable())
    );
}

fn bmw_listing(offset: u64, limit: u32) -> ProductListing {
    let bmw = BrandSlug::from_code("bmw").expect("a slug");
    ProductListing { brands: vec![bmw], offset, limit, ..ProductListing::default() }
}

#[tokio::test]
async fn brand_products_ask_the_store_for_the_brand_window_and_count_pages() {
    let mut store = MockCatalogStore::new();
    store
        .expect_list_products()
        .with(eq(bmw_listing(40, 20)))
        .times(1)
        .returning(|_| Ok(ProductSlice { products: vec![], total: 41 }));
    let service = CatalogService::new(Arc::new(store));

    let page = Page::parse(Some("3")).expect("valid page");
    let result = service.brand_products("bmw", page).await.expect("listing works");

    assert_eq!((result.pages, result.total, result.page), (3, 41, page));
    assert!(result.products.is_empty());
}

#[tokio::test]
async fn brand_pages_follow_the_configured_page_size() {
    let mut store = MockCatalogStore::new();
    store
        .expect_list_products()
        .with(eq(bmw_listing(5, 5)))
        .times(1)
        .returning(|_| Ok(ProductSlice { products: vec![], total: 11 }));
    let service = CatalogService::new(Arc::new(store)).with_page_size(5);

    let page = Page::parse(Some("2")).expect("valid page");
    let result = service.brand_products("bmw", page).await.expect("listing works");
    assert_eq!(result.pages, 3);
}

#[tokio::test]
async fn a_brand_without_products_is_an_empty_page() {
    let mut store = MockCatalogStore::new();
    store.expect_list_products().returning(|_| Ok(ProductSlice { products: vec![], total: 0 }));
    let service = CatalogService::new(Arc::new(store));
    let result = service.brand_products("lada", Page::FIRST).await.expect("not an error");
    assert_eq!((result.products.len(), result.pages, result.total), (0, 0, 0));
}

#[tokio::test]
async fn text_that_is_no_slug_is_an_empty_page_without_asking_the_store() {
    // No expectation set: a call to the store would fail the test.
    let service = CatalogService::new(Arc::new(MockCatalogStore::new()));
    for slug in ["", "BMW", "land rover", "-bmw", "bmw--audi", "' OR 1=1"] {
        let result = service.brand_products(slug, Page::FIRST).await.expect("not an error");
        assert_eq!((result.products.len(), result.pages, result.total), (0, 0, 0), "{slug:?}");
    }
}

#[tokio::test]
async fn home_lists_default_to_twelve_and_follow_configuration() {
    let mut store = MockCatalogStore::new();
    store.expect_newest_products().with(eq(12)).times(1).returning(|_| Ok(vec![]));
    store.expect_best_selling_products().with(eq(5)).times(1).returning(|_| Ok(vec![]));
    let store: Arc<dyn CatalogStore> = Arc::new(store);

    CatalogService::new(store.clone()).recently_added().await.expect("works");
    CatalogService::new(store).with_home_list_size(5).hot_selling().await.expect("works");
}
