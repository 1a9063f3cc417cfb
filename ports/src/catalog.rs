//! The catalog store: products, categories and OEM brands.

use async_trait::async_trait;
use marque_domain::catalog::{Category, Condition, FuelType, Grade, OemBrand, Product, ProductId};
use marque_domain::filters::BrandSlug;
use marque_domain::vehicle::Car;

/// Why a catalog store call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogStoreError {
    /// A record with this identifier is already stored.
    #[error("a catalog record with id `{id}` already exists")]
    Duplicate { id: String },
    /// The record does not satisfy the store's schema (a value out of range, a missing field).
    #[error("the store refused the record: {reason}")]
    Invalid { reason: String },
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the catalog store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// A text search over the catalog, one window of the ranked result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductQuery {
    /// What the visitor typed: part of a name, or a part number in any spelling.
    /// Empty (after trimming) means every product.
    pub text: String,
    /// Rows of the ranked result to skip.
    pub offset: u64,
    /// Most rows to return.
    pub limit: u32,
    /// Only products whose fitment fits this car (see [`ProductListing::fits`]).
    pub fits: Option<Car>,
    /// Only used units of any of these grades (see [`ProductListing::grades`]); empty means any.
    pub grades: Vec<Grade>,
}

/// Which products a listing page shows (brand, category and subcategory pages, with
/// or without their filters), one window of them, newest first.
///
/// Every filter that is given must hold; within one list any of its values will do.
/// An empty list or `None` leaves that field unfiltered, so the default listing is
/// every product. Values are compared exactly as stored (slugs are case-sensitive).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProductListing {
    /// Products of any of these makers (`oem_slug`); empty means every maker.
    pub brands: Vec<BrandSlug>,
    /// Products of this category (`category_slug`).
    pub category: Option<String>,
    /// Products of this subcategory (`subcategory_slug`). Subcategory slugs repeat
    /// across categories (`others`), so a subcategory page gives its category too.
    pub subcategory: Option<String>,
    /// Products in any of these conditions (stored code equal: `new` does not take
    /// in `new_without_box`); empty means any condition.
    pub conditions: Vec<Condition>,
    /// Products for any of these fuels; empty means any fuel, including none.
    /// A product without a fuel type matches no fuel filter.
    pub fuels: Vec<FuelType>,
    /// Rows of the ordered result to skip.
    pub offset: u64,
    /// Most rows to return.
    pub limit: u32,
    /// Only products with a fitment row that fits this car ([`FitmentRow::fits`]); `None` leaves
    /// fitment unfiltered. Found through the fitment's index by generation, never by reading the
    /// whole catalog.
    ///
    /// [`FitmentRow::fits`]: marque_domain::vehicle::FitmentRow::fits
    pub fits: Option<Car>,
    /// Only used units of any of these grades; empty leaves grades unfiltered. A product without
    /// a grade matches no grade filter.
    pub grades: Vec<Grade>,
}

/// One window of a ranked result and the size of the whole result.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductSlice {
    pub products: Vec<Product>,
    /// Number of products matching the query, over all windows.
    pub total: u64,
}

/// A product as the sitemap names it: its id and when it was listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductStamp {
    pub id: ProductId,
    /// When the product was listed, seconds since the Unix epoch (its `created_at`).
    pub listed_at: i64,
}

/// Where the catalog lives.
///
/// Every read returns complete [`Product`]s exactly as they were written
/// (money to the paisa, part number as printed and normalised), but for one thing: the products of
/// a list ([`newest_products`](Self::newest_products), [`best_selling_products`](Self::best_selling_products),
/// [`search`](Self::search), [`list_products`](Self::list_products)) come without their fitment rows
/// (`details.fits` empty), which no listing shows; [`product`](Self::product) and
/// [`products_after`](Self::products_after) read them.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait CatalogStore: Send + Sync {
    /// Stores brands, replacing any brand with the same id.
    ///
    /// # Errors
    /// MUST return [`CatalogStoreError::Invalid`] when a brand has an empty id or a value
    /// the store cannot hold; nothing is written then.
    /// [`CatalogStoreError::Unavailable`] when the store cannot be written.
    async fn put_brands(&self, brands: &[OemBrand]) -> Result<(), CatalogStoreError>;

    /// Stores categories with their subcategories, replacing any with the same id.
    ///
    /// # Errors
    /// MUST return [`CatalogStoreError::Invalid`] when a category has an empty id or a
    /// value the store cannot hold; nothing is written then.
    /// [`CatalogStoreError::Unavailable`] when the store cannot be written.
    async fn put_categories(&self, categories: &[Category]) -> Result<(), CatalogStoreError>;

    /// Adds new products, all or none.
    ///
    /// # Errors
    /// MUST return [`CatalogStoreError::Duplicate`] naming the id when a product with
    /// one of these ids is already stored (or appears twice in `products`); nothing is
    /// written then. MUST return [`CatalogStoreError::Invalid`] when a product has an
    /// empty id or a value the store cannot hold (e.g. a fuel type it does not know);
    /// nothing is written then. [`CatalogStoreError::Unavailable`] when the store cannot
    /// be written.
    async fn add_products(&self, products: &[Product]) -> Result<(), CatalogStoreError>;

    /// All brands, ordered by name.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn brands(&self) -> Result<Vec<OemBrand>, CatalogStoreError>;

    /// All categories ordered by name, each with its subcategories ordered by name.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn categories(&self) -> Result<Vec<Category>, CatalogStoreError>;

    /// The product with this id, or `None` when there is none (including ids
    /// that could never exist, such as empty or punctuation-only ones).
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn product(&self, id: &ProductId) -> Result<Option<Product>, CatalogStoreError>;

    /// Up to `limit` products, most recently listed first (`created_at` descending, then id).
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn newest_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError>;

    /// Up to `limit` products that have sold at least one unit, best sellers first
    /// (`units_sold` descending, then id).
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn best_selling_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError>;

    /// Searches by name or part number.
    ///
    /// # Contract
    /// - Empty text matches every product, most recently listed first.
    /// - A product matches when its normalised part number equals the normalised
    ///   text (`A 000 180 26 09`, `a0001802609` and `A000-180-2609` are one part), or when
    ///   every word of the text (case-insensitive) begins a word of its name
    ///   (`brak dis` finds 'Front Brake Disc'). Words of one character are ignored and
    ///   only the first ten characters of a word are compared.
    /// - Exact part-number matches rank before every name-only match.
    /// - The order is deterministic, so windows over the same result neither
    ///   repeat nor skip a product; `total` counts the whole result.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn search(&self, query: &ProductQuery) -> Result<ProductSlice, CatalogStoreError>;

    /// One window of the products a listing shows.
    ///
    /// # Contract
    /// - A product is listed when it satisfies every filter of `listing` that is given
    ///   (see [`ProductListing`]); within one filter's list, any value matches.
    /// - Newest first: `created_at` descending, then id ascending. The order is complete,
    ///   so windows over the same listing neither repeat nor skip a product.
    /// - `total` counts every product the listing matches, over all windows (a window
    ///   past the end, or of `limit` 0, is empty and still reports it).
    /// - A slug no product carries (an unknown brand, category or subcategory) simply
    ///   lists no products: `total` 0, not an error.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn list_products(&self, listing: &ProductListing) -> Result<ProductSlice, CatalogStoreError>;

    /// Number of products stored.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn count_products(&self) -> Result<u64, CatalogStoreError>;

    /// Every product's id and listing time, a window at a time in id order, for
    /// the sitemap: the products whose id sorts after `after` (all of them when
    /// `None`), up to `limit`.
    ///
    /// # Contract
    /// - Ids ascend in byte order of their text, so passing the last id of one window
    ///   as `after` gives the next window; windows put together hold every product
    ///   exactly once. An `after` no product has (a removed one) still works.
    /// - An empty window means there is nothing after `after`; `limit` 0 is empty.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn product_stamps(
        &self,
        after: Option<ProductId>,
        limit: u32,
    ) -> Result<Vec<ProductStamp>, CatalogStoreError>;

    /// Every product, a window at a time in id order, for readers that keep the
    /// catalog at hand: the products whose id sorts after `after` (all of them when
    /// `None`), up to `limit`, each as [`product`](Self::product) gives it.
    ///
    /// # Contract
    /// The windows of [`product_stamps`](Self::product_stamps): ids ascend in byte
    /// order, the last id of one window as `after` gives the next, an `after` no
    /// product has still works, an empty window ends the walk, `limit` 0 is empty.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn products_after(&self, after: Option<ProductId>, limit: u32) -> Result<Vec<Product>, CatalogStoreError>;
}
