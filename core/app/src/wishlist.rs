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
mod tests {
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
        wishlist.expect_add().withf(|_, p, limit| p.0 == "p1" && *limit == WISHLIST_LIMIT).returning(|_, _, _| Ok(Added::Added));
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
}
