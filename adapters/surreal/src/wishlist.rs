//! The wishlist store on SurrealDB: one `wishes` record per (customer, product).

use async_trait::async_trait;
use marque_domain::catalog::ProductId;
use marque_ports::{Added, UserId, WishlistStore, WishlistStoreError};
use surrealdb::types::SurrealValue;

use crate::conn::Conn;
use crate::error::{until_settled, Attempt};

/// [`WishlistStore`] on a SurrealDB connection. Get one from [`crate::Database::wishlist`].
///
/// Entries are `wishes:[user, product]` records (so a product is there once). An add runs
/// in one transaction that first writes the customer's `wishlist_guard` record, then counts
/// and inserts: two adds to one wishlist always write the same record, so one of them
/// conflicts and is tried again with the other's entry counted — never both taking the last
/// slot. After [`crate::error::CONFLICT_RETRIES`] lost races the add answers `Unavailable`.
#[derive(Debug, Clone)]
pub struct SurrealWishlistStore {
    db: Conn,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct WishRow {
    product: String,
}

fn unavailable(e: &surrealdb::Error) -> WishlistStoreError {
    WishlistStoreError::Unavailable { reason: e.message().to_owned() }
}

impl SurrealWishlistStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    async fn try_add(&self, user: &str, product: &str, limit: usize) -> Attempt<Result<Added, WishlistStoreError>> {
        let fail = |e| Attempt::failed(e, unavailable);
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return fail(e),
        };
        let read = tx
            .query("UPSERT type::record('wishlist_guard', $user) SET touched = time::now() RETURN NONE")
            .query("SELECT VALUE product FROM wishes WHERE user = $user")
            .bind(("user", user.to_owned()))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .and_then(|mut r| r.take::<Vec<String>>(1));
        let products = match read {
            Ok(p) => p,
            Err(e) => {
                let _ = tx.cancel().await;
                return fail(e);
            }
        };
        let decided = if products.iter().any(|p| p == product) {
            Some(Ok(Added::AlreadyThere))
        } else if products.len() >= limit {
            Some(Err(WishlistStoreError::Full))
        } else {
            None
        };
        if let Some(outcome) = decided {
            let _ = tx.cancel().await;
            return Attempt::Done(outcome);
        }
        let written = tx
            .query("CREATE type::record('wishes', [$user, $product]) SET user = $user, product = $product, added_at = time::now() RETURN NONE")
            .bind(("user", user.to_owned()))
            .bind(("product", product.to_owned()))
            .await
            .and_then(surrealdb::IndexedResults::check);
        if let Err(e) = written {
            let _ = tx.cancel().await;
            // Another add of the same product won the race: it is there once.
            if e.is_already_exists() {
                return Attempt::Done(Ok(Added::AlreadyThere));
            }
            return fail(e);
        }
        match tx.commit().await {
            Ok(_) => Attempt::Done(Ok(Added::Added)),
            Err(e) => fail(e),
        }
    }
}

#[async_trait]
impl WishlistStore for SurrealWishlistStore {
    async fn wishlist(&self, user: &UserId) -> Result<Vec<ProductId>, WishlistStoreError> {
        let rows: Vec<WishRow> = self
            .db
            .query("SELECT product, added_at FROM wishes WHERE user = $user ORDER BY added_at DESC")
            .bind(("user", user.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows.into_iter().map(|r| ProductId(r.product)).collect())
    }

    async fn add(&self, user: &UserId, product: &ProductId, limit: usize) -> Result<Added, WishlistStoreError> {
        until_settled(|| self.try_add(&user.0, &product.0, limit), |e| Err(unavailable(e))).await
    }

    async fn remove(&self, user: &UserId, product: &ProductId) -> Result<(), WishlistStoreError> {
        let (user, product) = (user.0.clone(), product.0.clone());
        crate::accounts::retrying(|| {
            self.db
                .query("DELETE type::record('wishes', [$user, $product]) RETURN NONE")
                .bind(("user", user.clone()))
                .bind(("product", product.clone()))
        })
        .await
        .map(drop)
        .map_err(|e| unavailable(&e))
    }

    async fn clear(&self, user: &UserId) -> Result<(), WishlistStoreError> {
        let user = user.0.clone();
        crate::accounts::retrying(|| {
            self.db
                .query("DELETE wishes WHERE user = $user RETURN NONE; DELETE type::record('wishlist_guard', $user) RETURN NONE")
                .bind(("user", user.clone()))
        })
        .await
        .and_then(surrealdb::IndexedResults::check)
        .map(drop)
        .map_err(|e| unavailable(&e))
    }
}
