//! The back office's catalog writes and reads: products (published or not), categories with
//! their subcategories, and brands.
//!
//! Every write takes the [`AuditEntry`] the use case built and stores it in the same transaction
//! as the change, and moves the catalog's version, so every instance's caches of catalog answers
//! follow (within their poll interval, 200 ms by default).

use async_trait::async_trait;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId};
use marque_domain::paging::ListWindow;

use crate::{AuditEntry, ProductSlice};

/// Why a catalog editor call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogEditorError {
    /// No product, category or brand has this id.
    #[error("no catalog record `{id}`")]
    NotFound { id: String },
    /// A product with this id is already stored.
    #[error("a product with id `{id}` already exists")]
    DuplicateId { id: String },
    /// Another product (published or not) has this SKU.
    #[error("another product has the SKU `{sku}`")]
    DuplicateSku { sku: String },
    /// Another category, or another subcategory of the same category, or another brand, has this slug.
    #[error("the slug `{slug}` is taken")]
    SlugTaken { slug: String },
    /// The record does not satisfy the store's schema.
    #[error("the store refused the record: {reason}")]
    Invalid { reason: String },
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the catalog store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// How the back office's product list is ordered; ties break on id.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AdminProductSort {
    /// Most recently listed first (`created_at` descending).
    #[default]
    Newest,
    /// By name, A to Z.
    Name,
    /// Cheapest first.
    PriceAscending,
    /// Dearest first.
    PriceDescending,
    /// By SKU.
    Sku,
}

/// Which products the back office lists; every given filter must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AdminProductQuery {
    /// Part of the name or SKU (case-insensitive), or a part number (own, alternate or superseded)
    /// in any spelling. Empty (after trimming) means every product.
    pub text: String,
    /// `category_slug` equal to this.
    pub category: Option<String>,
    /// `oem_slug` equal to this.
    pub brand: Option<String>,
    /// Only published (`true`) or only unpublished (`false`) products.
    pub published: Option<bool>,
    pub sort: AdminProductSort,
    /// The page of the ordered result to return.
    pub window: ListWindow,
}

/// The back office's catalog store.
///
/// Products read here carry `details.published`; an unpublished product is invisible to every
/// [`CatalogStore`](crate::CatalogStore) read (product, listings, searches, newest and best-selling
/// lists, stamps, `products_after`, counts) and visible here.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait CatalogEditor: Send + Sync {
    /// Adds a product with `quantity` as its opening stock: in one transaction, the product, its
    /// opening `stock_entry` (`reason` `opening`, `delta` = quantity, `before` 0, `after` = quantity,
    /// the audit entry's actor and time) and `audit`.
    ///
    /// # Errors
    /// [`CatalogEditorError::DuplicateId`] when the id is taken, [`CatalogEditorError::DuplicateSku`]
    /// when another product has its SKU; nothing is written then (no audit entry either).
    /// [`CatalogEditorError::Invalid`] for a value the store cannot hold, [`CatalogEditorError::Unavailable`].
    async fn create_product(&self, product: &Product, audit: &AuditEntry) -> Result<(), CatalogEditorError>;

    /// Writes `product`'s editable fields over the stored product with its id (everything but its
    /// stock, units sold, listing time and images, which are never changed here), moving it in or out
    /// of the shop when `details.published` changed, and stores `audit`; returns the product as stored.
    ///
    /// # Errors
    /// [`CatalogEditorError::NotFound`], [`CatalogEditorError::DuplicateSku`] (nothing written then),
    /// [`CatalogEditorError::Invalid`], [`CatalogEditorError::Unavailable`].
    async fn update_product(&self, product: &Product, audit: &AuditEntry) -> Result<Product, CatalogEditorError>;

    /// The product with this id, published or not.
    ///
    /// # Errors
    /// [`CatalogEditorError::Unavailable`].
    async fn product(&self, id: &ProductId) -> Result<Option<Product>, CatalogEditorError>;

    /// One window of the products `query` matches, published or not, and their number.
    ///
    /// # Errors
    /// [`CatalogEditorError::Unavailable`].
    async fn products(&self, query: &AdminProductQuery) -> Result<ProductSlice, CatalogEditorError>;

    /// Adds a category (with its subcategories) and stores `audit`.
    ///
    /// # Errors
    /// [`CatalogEditorError::SlugTaken`] when another category has its slug (nothing written),
    /// [`CatalogEditorError::Invalid`] for an id already stored, [`CatalogEditorError::Unavailable`].
    async fn create_category(&self, category: &Category, audit: &AuditEntry) -> Result<(), CatalogEditorError>;

    /// Replaces the category with `category.id` (name, slug, subcategories) and stores `audit`; the
    /// products of the category follow its new name and slug in the same transaction.
    ///
    /// # Errors
    /// [`CatalogEditorError::NotFound`], [`CatalogEditorError::SlugTaken`] (nothing written),
    /// [`CatalogEditorError::Unavailable`].
    async fn update_category(&self, category: &Category, audit: &AuditEntry) -> Result<(), CatalogEditorError>;

    /// Adds a brand and stores `audit`.
    ///
    /// # Errors
    /// [`CatalogEditorError::SlugTaken`] (nothing written), [`CatalogEditorError::Invalid`] for an id
    /// already stored, [`CatalogEditorError::Unavailable`].
    async fn create_brand(&self, brand: &OemBrand, audit: &AuditEntry) -> Result<(), CatalogEditorError>;

    /// Replaces the brand with `brand.id` and stores `audit`; its products follow its new name and
    /// slug in the same transaction.
    ///
    /// # Errors
    /// [`CatalogEditorError::NotFound`], [`CatalogEditorError::SlugTaken`] (nothing written),
    /// [`CatalogEditorError::Unavailable`].
    async fn update_brand(&self, brand: &OemBrand, audit: &AuditEntry) -> Result<(), CatalogEditorError>;
}
