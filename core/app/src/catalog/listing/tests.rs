use std::sync::Arc;

use marque_domain::catalog::{FuelType, OemBrand};
use marque_domain::filters::FilterValue;
use marque_ports::{CatalogStoreError, MockCatalogStore, ProductSlice};
use mockall::predicate::{always, eq};

use super::*;

fn sub(slug: &str) -> Subcategory {
    Subcategory { id: format!("sub-{slug}"), name: slug.to_uppercase(), slug: slug.to_owned() }
}

fn brakes() -> Category {
    Category {
        id: "cat-brakes".into(),
        name: "Brakes".into(),
        slug: "brakes".into(),
        subcategories: vec![sub("calipers"), sub("discs"), sub("pads")],
    }
}

fn engine() -> Category {
    Category {
        id: "cat-engine".into(),
        name: "Engine".into(),
        slug: "engine".into(),
        subcategories: vec![sub("pistons")],
    }
}

fn brand(slug: &str) -> OemBrand {
    OemBrand { id: format!("brand-{slug}"), name: slug.to_uppercase(), slug: slug.to_owned(), image: String::new() }
}

fn store_with_categories() -> MockCatalogStore {
    let mut store = MockCatalogStore::new();
    store.expect_categories().returning(|| Ok(vec![brakes(), engine()]));
    store
}

fn unavailable() -> CatalogStoreError {
    CatalogStoreError::Unavailable { reason: "connection refused".into() }
}

fn filters(oem: Option<&str>, product_type: Option<&str>, fuel_type: Option<&str>) -> ListingFilters {
    ListingFilters::parse(oem, product_type, fuel_type).expect("valid filters")
}

fn of_sub(subcategory: &str, limit: u32) -> ProductListing {
    ProductListing {
        category: Some("brakes".into()),
        subcategory: Some(subcategory.into()),
        offset: 0,
        limit,
        ..ProductListing::default()
    }
}

fn slice(total: u64) -> ProductSlice {
    ProductSlice { products: vec![], total }
}

#[test]
fn condition_filters_ask_for_the_stored_condition_with_the_same_code() {
    for filter in ConditionFilter::ALL {
        assert_eq!(condition(filter).code(), filter.code());
    }
}

#[tokio::test]
async fn without_filters_each_subcategory_with_products_is_a_group_in_category_order() {
    let mut store = store_with_categories();
    store.expect_list_products().with(eq(of_sub("calipers", 4))).times(1).returning(|_| Ok(slice(7)));
    store.expect_list_products().with(eq(of_sub("discs", 4))).times(1).returning(|_| Ok(slice(0)));
    store.expect_list_products().with(eq(of_sub("pads", 4))).times(1).returning(|_| Ok(slice(2)));
    let service = CatalogService::new(Arc::new(store));

    let listing = service.category_listing("brakes", &ListingFilters::default(), Page::FIRST).await.expect("works");

    assert_eq!(listing.category, brakes());
    let CategoryView::Grouped(groups) = &listing.view else { panic!("grouped without filters: {listing:?}") };
    let shown: Vec<(&str, u64)> = groups.iter().map(|g| (g.subcategory.slug.as_str(), g.total)).collect();
    assert_eq!(shown, [("calipers", 7), ("pads", 2)], "a subcategory without products is left out");
    assert_eq!(listing.view.total(), 9);
}

#[tokio::test]
async fn the_preview_size_follows_configuration() {
    let mut store = MockCatalogStore::new();
    store.expect_categories().returning(|| Ok(vec![engine()]));
    let pistons = ProductListing {
        category: Some("engine".into()),
        subcategory: Some("pistons".into()),
        limit: 2,
        ..ProductListing::default()
    };
    store.expect_list_products().with(eq(pistons)).times(1).returning(|_| Ok(slice(1)));
    let service = CatalogService::new(Arc::new(store)).with_group_preview_size(2);
    let listing = service.category_listing("engine", &ListingFilters::default(), Page::FIRST).await.expect("works");
    assert_eq!(listing.view.total(), 1);
}

#[tokio::test]
async fn with_filters_the_category_is_one_filtered_page() {
    let mut store = store_with_categories();
    store.expect_brands().times(1).returning(|| Ok(vec![brand("audi"), brand("bmw")]));
    let expected = ProductListing {
        brands: vec![BrandSlug::from_code("bmw").expect("slug"), BrandSlug::from_code("audi").expect("slug")],
        category: Some("brakes".into()),
        subcategory: None,
        conditions: vec![Condition::Old, Condition::New],
        fuels: vec![FuelType::Diesel],
        offset: 20,
        limit: 20,
        fits: None,
        grades: vec![marque_domain::catalog::Grade::A, marque_domain::catalog::Grade::C],
    };
    store.expect_list_products().with(eq(expected)).times(1).returning(|_| Ok(slice(41)));
    let service = CatalogService::new(Arc::new(store));

    let page = Page::parse(Some("2")).expect("page");
    let wanted =
        filters(Some("BMW--audi"), Some("old--new"), Some("diesel")).with_grades(Some("a--C")).expect("grades");
    let listing = service.category_listing("brakes", &wanted, page).await.expect("works");

    let CategoryView::Flat(result) = listing.view else { panic!("flat with filters") };
    assert_eq!((result.page, result.pages, result.total), (page, 3, 41));
}

#[tokio::test]
async fn filters_without_a_brand_do_not_ask_for_brands() {
    // No `brands` expectation: asking for them would fail the test.
    let mut store = store_with_categories();
    store.expect_list_products().times(1).returning(|_| Ok(slice(0)));
    let service = CatalogService::new(Arc::new(store));
    let listing = service.category_listing("brakes", &filters(None, Some("old"), None), Page::FIRST).await;
    let view = listing.expect("works").view;
    assert!(matches!(view, CategoryView::Flat(SearchPage { pages: 0, total: 0, .. })), "{view:?}");
}

#[tokio::test]
async fn a_brand_the_shop_does_not_carry_is_an_invalid_filter() {
    let mut store = store_with_categories();
    store.expect_brands().returning(|| Ok(vec![brand("audi"), brand("bmw")]));
    store.expect_list_products().never();
    let service = CatalogService::new(Arc::new(store));

    let err = service.category_listing("brakes", &filters(Some("bmw--tesla"), None, None), Page::FIRST).await;
    assert_eq!(err, Err(CatalogError::FilterInvalid(FilterError { value: "tesla".into() })));
    let err = service.subcategory_listing("brakes", "pads", &filters(Some("lada"), None, None), Page::FIRST).await;
    assert!(matches!(err, Err(CatalogError::FilterInvalid(FilterError { ref value })) if value == "lada"), "{err:?}");
}

#[tokio::test]
async fn an_unknown_category_or_subcategory_is_not_found() {
    let mut store = store_with_categories();
    store.expect_list_products().never();
    store.expect_brands().never();
    let service = CatalogService::new(Arc::new(store));
    let none = ListingFilters::default();

    for slug in ["nope", "Brakes", "", "brakes "] {
        let err = service.category_listing(slug, &none, Page::FIRST).await.expect_err(slug);
        assert_eq!(err, CatalogError::CategoryNotFound, "{slug:?}");
    }
    assert_eq!(err_text(&service, "brakes", "nope").await, Some(CatalogError::CategoryNotFound));
    assert_eq!(
        err_text(&service, "brakes", "pistons").await,
        Some(CatalogError::CategoryNotFound),
        "another category's"
    );
    assert_eq!(err_text(&service, "nope", "pads").await, Some(CatalogError::CategoryNotFound));
    assert_eq!(CatalogError::CategoryNotFound.to_string(), "Category not found");
}

async fn err_text(service: &CatalogService, category: &str, sub: &str) -> Option<CatalogError> {
    service.subcategory_listing(category, sub, &ListingFilters::default(), Page::FIRST).await.err()
}

#[tokio::test]
async fn a_subcategory_page_lists_its_own_products_one_page_at_a_time() {
    let mut store = store_with_categories();
    let expected = ProductListing {
        category: Some("brakes".into()),
        subcategory: Some("pads".into()),
        fuels: vec![FuelType::Petrol],
        offset: 40,
        limit: 20,
        ..ProductListing::default()
    };
    store.expect_list_products().with(eq(expected)).times(1).returning(|_| Ok(slice(45)));
    let service = CatalogService::new(Arc::new(store));

    let page = Page::parse(Some("3")).expect("page");
    let listing =
        service.subcategory_listing("brakes", "pads", &filters(None, None, Some("petrol")), page).await.expect("works");
    assert_eq!((listing.category.slug.as_str(), listing.subcategory.slug.as_str()), ("brakes", "pads"));
    assert_eq!((listing.page.page, listing.page.pages, listing.page.total), (page, 3, 45));
}

#[tokio::test]
async fn a_store_that_is_down_is_unavailable() {
    let mut down = MockCatalogStore::new();
    down.expect_categories().returning(|| Err(unavailable()));
    let service = CatalogService::new(Arc::new(down));
    let none = ListingFilters::default();
    let expected = Some(CatalogError::Unavailable(unavailable()));
    assert_eq!(service.category_listing("brakes", &none, Page::FIRST).await.err(), expected);
    assert_eq!(service.subcategory_listing("brakes", "pads", &none, Page::FIRST).await.err(), expected);

    let mut listing_fails = store_with_categories();
    listing_fails.expect_list_products().with(always()).returning(|_| Err(unavailable()));
    let service = CatalogService::new(Arc::new(listing_fails));
    assert_eq!(service.category_listing("brakes", &none, Page::FIRST).await.err(), expected);
    let old = filters(None, Some("old"), None);
    assert_eq!(service.category_listing("brakes", &old, Page::FIRST).await.err(), expected);
    assert_eq!(service.subcategory_listing("brakes", "pads", &none, Page::FIRST).await.err(), expected);

    let mut brands_fail = store_with_categories();
    brands_fail.expect_brands().returning(|| Err(unavailable()));
    let service = CatalogService::new(Arc::new(brands_fail));
    assert_eq!(
        service.category_listing("brakes", &filters(Some("bmw"), None, None), Page::FIRST).await.err(),
        expected
    );
}

#[tokio::test]
async fn a_car_alone_makes_the_category_one_list_of_the_parts_that_fit_it() {
    let car = marque_domain::vehicle::Car {
        vehicle: marque_domain::vehicle::VehicleId::parse("bmw-x5-g05.b57").expect("a vehicle id"),
        year: Some(2021),
    };
    let mut store = store_with_categories();
    let expected = ProductListing {
        category: Some("brakes".into()),
        offset: 0,
        limit: 20,
        fits: Some(car.clone()),
        ..ProductListing::default()
    };
    store.expect_list_products().with(eq(expected)).times(1).returning(|_| Ok(slice(3)));
    let service = CatalogService::new(Arc::new(store));
    let wanted = ListingFilters::default().fitting(Some(car));
    let listing = service.category_listing("brakes", &wanted, Page::FIRST).await.expect("works");
    let CategoryView::Flat(result) = listing.view else { panic!("flat with a car") };
    assert_eq!(result.total, 3);
}
