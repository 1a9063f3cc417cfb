//! Browsing and searching the catalog.

mod listing;

pub use listing::{CategoryListing, CategoryView, SubcategoryGroup, SubcategoryListing};

use std::sync::Arc;

use marque_domain::catalog::{
    Category, Grade, OemBrand, Page, Product, ProductId, SearchPage, GROUP_PREVIEW_SIZE, HOME_LIST_SIZE,
    LISTING_PAGE_SIZE,
};
use marque_domain::filters::{BrandSlug, FilterError, FilterValue};
use marque_domain::message::Message;
use marque_domain::vehicle::Car;
use marque_ports::{CatalogStore, CatalogStoreError, ProductListing, ProductQuery, ProductSlice, ProductStamp};

/// Why a catalog use case failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogError {
    #[error("Product not found")]
    ProductNotFound,
    /// No category has the slug, or the category has no such subcategory.
    #[error("{}", Message::CategoryNotFound.text())]
    CategoryNotFound,
    /// A filter names a value the shop does not offer (a brand it does not carry).
    #[error("{0}")]
    FilterInvalid(FilterError),
    #[error("the catalog is unavailable right now")]
    Unavailable(#[source] CatalogStoreError),
}

impl From<CatalogStoreError> for CatalogError {
    fn from(e: CatalogStoreError) -> Self {
        CatalogError::Unavailable(e)
    }
}

/// Browsing, searching and reading products.
#[derive(Clone)]
pub struct CatalogService {
    store: Arc<dyn CatalogStore>,
    page_size: u32,
    home_list_size: u32,
    group_preview_size: u32,
}

impl std::fmt::Debug for CatalogService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CatalogService").field("page_size", &self.page_size).finish_non_exhaustive()
    }
}

impl CatalogService {
    #[must_use]
    pub fn new(store: Arc<dyn CatalogStore>) -> Self {
        Self {
            store,
            page_size: LISTING_PAGE_SIZE,
            home_list_size: HOME_LIST_SIZE,
            group_preview_size: GROUP_PREVIEW_SIZE,
        }
    }

    /// Newest products each subcategory shows on a category page without filters.
    #[must_use]
    pub fn with_group_preview_size(mut self, size: u32) -> Self {
        self.group_preview_size = size;
        self
    }

    /// Products a listing page holds (at least 1).
    #[must_use]
    pub fn with_page_size(mut self, page_size: u32) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// Products each home list holds.
    #[must_use]
    pub fn with_home_list_size(mut self, size: u32) -> Self {
        self.home_list_size = size;
        self
    }

    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn categories(&self) -> Result<Vec<Category>, CatalogError> {
        Ok(self.store.categories().await?)
    }

    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn brands(&self) -> Result<Vec<OemBrand>, CatalogError> {
        Ok(self.store.brands().await?)
    }

    /// Most recently listed products.
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn recently_added(&self) -> Result<Vec<Product>, CatalogError> {
        Ok(self.store.newest_products(self.home_list_size).await?)
    }

    /// Best sellers, ranked by units actually sold.
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn hot_selling(&self) -> Result<Vec<Product>, CatalogError> {
        Ok(self.store.best_selling_products(self.home_list_size).await?)
    }

    /// # Errors
    /// [`CatalogError::ProductNotFound`] when no product has this id;
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn product(&self, id: &ProductId) -> Result<Product, CatalogError> {
        self.store.product(id).await?.ok_or(CatalogError::ProductNotFound)
    }

    /// One page of products matching `term` (a name or a part number in any spelling).
    ///
    /// A page beyond the last is empty but still reports the real page count.
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn search(&self, term: &str, page: Page) -> Result<SearchPage, CatalogError> {
        self.search_fitting(term, page, None).await
    }

    /// [`CatalogService::search`] narrowed to the parts that fit `car` (all parts when `None`).
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn search_fitting(&self, term: &str, page: Page, car: Option<Car>) -> Result<SearchPage, CatalogError> {
        self.search_narrowed(term, page, car, &[]).await
    }

    /// [`CatalogService::search_fitting`] narrowed to used units of `grades` too (any when empty).
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn search_narrowed(
        &self,
        term: &str,
        page: Page,
        car: Option<Car>,
        grades: &[Grade],
    ) -> Result<SearchPage, CatalogError> {
        let query = ProductQuery {
            text: term.trim().to_owned(),
            offset: page.offset(self.page_size),
            limit: self.page_size,
            fits: car,
            grades: grades.to_vec(),
        };
        let slice = self.store.search(&query).await?;
        Ok(self.page_of(slice, page))
    }

    /// One page of the products of the maker with this slug (`bmw`, `land-rover`),
    /// newest first.
    ///
    /// A slug no product carries is an empty page, not an error; so is text that could
    /// never be a slug (`BMW`, `land rover`), without asking the store. A page beyond
    /// the last is empty but still reports the real page count.
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn brand_products(&self, slug: &str, page: Page) -> Result<SearchPage, CatalogError> {
        self.brand_products_fitting(slug, page, None).await
    }

    /// [`CatalogService::brand_products`] narrowed to the parts that fit `car` (all when `None`).
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn brand_products_fitting(
        &self,
        slug: &str,
        page: Page,
        car: Option<Car>,
    ) -> Result<SearchPage, CatalogError> {
        self.brand_products_narrowed(slug, page, car, &[]).await
    }

    /// [`CatalogService::brand_products_fitting`] narrowed to used units of `grades` too (any when empty).
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn brand_products_narrowed(
        &self,
        slug: &str,
        page: Page,
        car: Option<Car>,
        grades: &[Grade],
    ) -> Result<SearchPage, CatalogError> {
        let Some(brand) = BrandSlug::from_code(slug) else {
            return Ok(self.page_of(ProductSlice { products: Vec::new(), total: 0 }, page));
        };
        let listing = ProductListing {
            brands: vec![brand],
            offset: page.offset(self.page_size),
            limit: self.page_size,
            fits: car,
            grades: grades.to_vec(),
            ..ProductListing::default()
        };
        let slice = self.store.list_products(&listing).await?;
        Ok(self.page_of(slice, page))
    }

    /// Page `page` of a listing whose window the store returned as `slice`.
    fn page_of(&self, slice: ProductSlice, page: Page) -> SearchPage {
        SearchPage {
            products: slice.products,
            page,
            pages: Page::count(slice.total, self.page_size),
            total: slice.total,
        }
    }

    /// Ids and listing times of the products after `after` in id order, up to `limit`:
    /// pass the last id of one window to get the next (the sitemap walks them all).
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn product_stamps(
        &self,
        after: Option<ProductId>,
        limit: u32,
    ) -> Result<Vec<ProductStamp>, CatalogError> {
        Ok(self.store.product_stamps(after, limit).await?)
    }

    /// Whether the catalog has no products yet (the server seeds it then).
    ///
    /// # Errors
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn is_empty(&self) -> Result<bool, CatalogError> {
        Ok(self.store.count_products().await? == 0)
    }
}

#[cfg(test)]
mod tests;
