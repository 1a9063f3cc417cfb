//! Category and subcategory pages: grouped by subcategory without filters, one
//! filtered page of products with them.

use marque_domain::catalog::{Category, Condition, Page, Product, SearchPage, Subcategory};
use marque_domain::filters::{BrandSlug, ConditionFilter, FilterError, ListingFilters};
use marque_ports::ProductListing;

use super::{CatalogError, CatalogService};

/// What a category page shows.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryListing {
    pub category: Category,
    pub view: CategoryView,
}

/// Without filters products are grouped by subcategory; with any, they form one list.
#[derive(Debug, Clone, PartialEq)]
pub enum CategoryView {
    /// Each subcategory of the category that has products, in the category's order.
    Grouped(Vec<SubcategoryGroup>),
    /// One page of the category's products that match the filters, newest first.
    Flat(SearchPage),
}

/// One subcategory on a category page without filters.
#[derive(Debug, Clone, PartialEq)]
pub struct SubcategoryGroup {
    pub subcategory: Subcategory,
    /// Every product of the subcategory (its 'See all' count).
    pub total: u64,
    /// Its newest products, at most the preview size.
    pub newest: Vec<Product>,
}

impl CategoryView {
    /// Products the page stands for: the sum of the groups, or the filtered total.
    #[must_use]
    pub fn total(&self) -> u64 {
        match self {
            CategoryView::Grouped(groups) => groups.iter().map(|g| g.total).sum(),
            CategoryView::Flat(page) => page.total,
        }
    }
}

/// What a subcategory page shows: one page of its products matching the filters.
#[derive(Debug, Clone, PartialEq)]
pub struct SubcategoryListing {
    pub category: Category,
    pub subcategory: Subcategory,
    pub page: SearchPage,
}

impl CatalogService {
    /// The category page for `slug`: without filters its subcategories that have
    /// products, each with its count and newest products; with filters one page of
    /// its products that match them, newest first. `page` only counts with filters.
    ///
    /// # Errors
    /// [`CatalogError::CategoryNotFound`] when no category has this slug;
    /// [`CatalogError::FilterInvalid`] when `filters` name a brand the shop does not carry;
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn category_listing(
        &self,
        slug: &str,
        filters: &ListingFilters,
        page: Page,
    ) -> Result<CategoryListing, CatalogError> {
        let category = self.category_by_slug(slug).await?;
        if filters.is_empty() {
            let groups = self.subcategory_groups(&category).await?;
            return Ok(CategoryListing { category, view: CategoryView::Grouped(groups) });
        }
        self.check_brands(filters).await?;
        let listing = self.filtered(filters, &category.slug, None, page);
        let slice = self.store.list_products(&listing).await?;
        Ok(CategoryListing { view: CategoryView::Flat(self.page_of(slice, page)), category })
    }

    /// One page of the subcategory `sub_slug` of the category `category_slug`, newest
    /// first, narrowed by `filters`. A page beyond the last is empty but still reports
    /// the real page count.
    ///
    /// # Errors
    /// [`CatalogError::CategoryNotFound`] when no category has this slug or it has no
    /// such subcategory; [`CatalogError::FilterInvalid`] when `filters` name a brand
    /// the shop does not carry; [`CatalogError::Unavailable`] when the store fails.
    pub async fn subcategory_listing(
        &self,
        category_slug: &str,
        sub_slug: &str,
        filters: &ListingFilters,
        page: Page,
    ) -> Result<SubcategoryListing, CatalogError> {
        let category = self.category_by_slug(category_slug).await?;
        let subcategory = category
            .subcategories
            .iter()
            .find(|s| s.slug == sub_slug)
            .cloned()
            .ok_or(CatalogError::CategoryNotFound)?;
        self.check_brands(filters).await?;
        let listing = self.filtered(filters, &category.slug, Some(&subcategory.slug), page);
        let slice = self.store.list_products(&listing).await?;
        Ok(SubcategoryListing { page: self.page_of(slice, page), category, subcategory })
    }

    async fn category_by_slug(&self, slug: &str) -> Result<Category, CatalogError> {
        let categories = self.store.categories().await?;
        categories.into_iter().find(|c| c.slug == slug).ok_or(CatalogError::CategoryNotFound)
    }

    /// One store read per subcategory, each through its own newest-first listing.
    async fn subcategory_groups(&self, category: &Category) -> Result<Vec<SubcategoryGroup>, CatalogError> {
        let mut groups: Vec<SubcategoryGroup> = Vec::new();
        for subcategory in &category.subcategories {
            if groups.iter().any(|g| g.subcategory.slug == subcategory.slug) {
                continue; // a slug listed twice would count its products twice
            }
            let listing = ProductListing {
                category: Some(category.slug.clone()),
                subcategory: Some(subcategory.slug.clone()),
                offset: 0,
                limit: self.group_preview_size,
                ..ProductListing::default()
            };
            let slice = self.store.list_products(&listing).await?;
            if slice.total > 0 {
                groups.push(SubcategoryGroup { subcategory: subcategory.clone(), total: slice.total, newest: slice.products });
            }
        }
        Ok(groups)
    }

    /// A brand filter may only name brands the shop carries; the store is asked only
    /// when there is one.
    async fn check_brands(&self, filters: &ListingFilters) -> Result<(), CatalogError> {
        if filters.oem.is_empty() {
            return Ok(());
        }
        let brands = self.store.brands().await?;
        match filters.oem.values().iter().find(|wanted| !brands.iter().any(|b| b.slug == wanted.as_str())) {
            Some(unknown) => Err(CatalogError::FilterInvalid(FilterError { value: unknown.as_str().to_owned() })),
            None => Ok(()),
        }
    }

    fn filtered(&self, filters: &ListingFilters, category: &str, subcategory: Option<&str>, page: Page) -> ProductListing {
        ProductListing {
            brands: filters.oem.values().iter().map(BrandSlug::clone).collect(),
            category: Some(category.to_owned()),
            subcategory: subcategory.map(str::to_owned),
            conditions: filters.product_type.values().iter().map(|c| condition(*c)).collect(),
            fuels: filters.fuel_type.values().iter().map(|f| f.fuel_type()).collect(),
            offset: page.offset(self.page_size),
            limit: self.page_size,
        }
    }
}

fn condition(filter: ConditionFilter) -> Condition {
    match filter {
        ConditionFilter::Old => Condition::Old,
        ConditionFilter::New => Condition::New,
    }
}

#[cfg(test)]
mod tests {
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
        Category { id: "cat-engine".into(), name: "Engine".into(), slug: "engine".into(), subcategories: vec![sub("pistons")] }
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
        };
        store.expect_list_products().with(eq(expected)).times(1).returning(|_| Ok(slice(41)));
        let service = CatalogService::new(Arc::new(store));

        let page = Page::parse(Some("2")).expect("page");
        let wanted = filters(Some("BMW--audi"), Some("old--new"), Some("diesel"));
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
        assert_eq!(err_text(&service, "brakes", "pistons").await, Some(CatalogError::CategoryNotFound), "another category's");
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
        assert_eq!(service.category_listing("brakes", &filters(Some("bmw"), None, None), Page::FIRST).await.err(), expected);
    }
}
