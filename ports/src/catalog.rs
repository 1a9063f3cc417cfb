//! The catalog store: products, categories and OEM brands.

use async_trait::async_trait;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId};

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
}

/// One window of a ranked result and the size of the whole result.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductSlice {
    pub products: Vec<Product>,
    /// Number of products matching the query, over all windows.
    pub total: u64,
}

/// Where the catalog lives.
///
/// Every read returns complete [`Product`]s exactly as they were written
/// (money to the paisa, part number as printed and normalised).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait CatalogStore: Send + Sync {
    /// Stores brands, replacing any brand with the same id.
    ///
    /// # Errors
    /// MUST return [`CatalogStoreError::Unavailable`] when the store cannot be written.
    async fn put_brands(&self, brands: &[OemBrand]) -> Result<(), CatalogStoreError>;

    /// Stores categories with their subcategories, replacing any with the same id.
    ///
    /// # Errors
    /// MUST return [`CatalogStoreError::Unavailable`] when the store cannot be written.
    async fn put_categories(&self, categories: &[Category]) -> Result<(), CatalogStoreError>;

    /// Adds new products, all or none.
    ///
    /// # Errors
    /// MUST return [`CatalogStoreError::Duplicate`] naming the id when a product with
    /// one of these ids is already stored (or appears twice in `products`); nothing is
    /// written then. [`CatalogStoreError::Unavailable`] when the store cannot be written.
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

    /// Number of products stored.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn count_products(&self) -> Result<u64, CatalogStoreError>;
}
