//! The wishlist: products a customer keeps for later, at most [`WISHLIST_LIMIT`].

use std::sync::Arc;

use marque_domain::catalog::{Product, ProductId};
use marque_domain::wishlist::WISHLIST_LIMIT;
use marque_ports::{Added, CatalogStore, CatalogStoreError, UserId, WishlistStore, WishlistStoreError};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WishlistError {
    /// The wishlist holds [`WISHLIST_LIMIT`] products already.
    #[error("the wishlist is full")]
    Full,
    /// No product has this id.
    #[error("no such product")]
    ProductNotFound,
    #[error("the wishlist is unavailable: {0}")]
    Unavailable(String),
}

impl From<WishlistStoreError> for WishlistError {
    fn from(e: WishlistStoreError) -> Self {
        match e {
            WishlistStoreError::Full => WishlistError::Full,
            WishlistStoreError::Unavailable { reason } => WishlistError::Unavailable(reason),
        }
    }
}

impl From<CatalogStoreError> for WishlistError {
    fn from(e: CatalogStoreError) -> Self {
        WishlistError::Unavailable(e.to_string())
    }
}

/// Listing, adding and removing wished products. Entries are read from the catalog, so a
/// wishlist always shows today's name, price, stock and picture.
#[derive(Clone)]
pub struct WishlistService {
    wishlist: Arc<dyn WishlistStore>,
    catalog: Arc<dyn CatalogStore>,
    limit: usize,
}

impl std::fmt::Debug for WishlistService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WishlistService").field("limit", &self.limit).finish_non_exhaustive()
    }
}

impl WishlistService {
    #[must_use]
    pub fn new(wishlist: Arc<dyn WishlistStore>, catalog: Arc<dyn CatalogStore>) -> Self {
        Self { wishlist, catalog, limit: WISHLIST_LIMIT }
    }

    /// The customer's wished products as the catalog has them now, newest first; products
    /// no longer in the catalog are left out.
    ///
    /// # Errors
    /// [`WishlistError::Unavailable`] when a store cannot be read.
    pub async fn list(&self, user: &UserId) -> Result<Vec<Product>, WishlistError> {
        let ids = self.wishlist.wishlist(user).await?;
        let mut products = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(product) = self.catalog.product(&id).await? {
                products.push(product);
            }
        }
        Ok(products)
    }

    /// Adds a product that exists in the catalog.
    ///
    /// # Errors
    /// [`WishlistError::ProductNotFound`]; [`WishlistError::Full`]; [`WishlistError::Unavailable`].
    pub async fn add(&self, user: &UserId, product: &ProductId) -> Result<Added, WishlistError> {
        if product.0.is_empty() || self.catalog.product(product).await?.is_none() {
            return Err(WishlistError::ProductNotFound);
        }
        Ok(self.wishlist.add(user, product, self.limit).await?)
    }

    /// Removes a product; one that is not there is not an error.
    ///
    /// # Errors
    /// [`WishlistError::Unavailable`].
    pub async fn remove(&self, user: &UserId, product: &ProductId) -> Result<(), WishlistError> {
        Ok(self.wishlist.remove(user, product).await?)
    }
}

#[cfg(test)]
mod tests;
