//! A customer's rights over their data (India's Digital Personal Data Protection Act 2023): a copy of
//! everything the shop keeps about them, and erasure.
//!
//! Erasure removes the addresses, the wishlist, the garage, the profile picture and the account with its contact
//! details, and ends every session. Orders and their invoices stay: GST law requires the shop to keep
//! its tax records for 72 months, and they keep the customer's name and delivery address as printed
//! on the invoice (the order holds its own copy), nothing else of the account.
//!
//! Returns are treated as their orders are: the record stays (the part, units, states, outcome and
//! the shop's notes, which the refunds, GST credit notes and stock entries they led to name), and
//! what the customer wrote and sent with them goes: the reason is emptied and the photographs are
//! deleted from the blob store. Grants of store credit stay in the ledger (an accounting record of
//! what the shop owed, naming only the account's id and the return or refund it came from); what is
//! left of them cannot be spent once the account is gone. (`docs/shop-rules.md`, "Privacy".)

use std::sync::Arc;

use marque_domain::address::SavedAddress;
use marque_domain::catalog::ProductId;
use marque_domain::pricing::Offer;
use marque_domain::vehicle::Car;
use marque_ports::{
    AccountStore, AddressStore, BlobStore, Clock, GarageStore, OrderStore, PlacedOrder, ProductReturn, ReturnStore,
    StoreCreditStore, StoredGrant, UserRecord, WishlistStore,
};

use crate::accounts::AVATAR_URL_PREFIX;

/// Everything the shop keeps about one customer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataExport {
    pub user: UserRecord,
    /// The customer's offer as it runs at the time of the export (`offerExp` from its end date).
    pub offer: Offer,
    pub addresses: Vec<SavedAddress>,
    /// Most recently added first.
    pub wishlist: Vec<ProductId>,
    /// The garage's cars, newest first.
    pub garage: Vec<Car>,
    /// Newest first, as the purchase history shows them.
    pub orders: Vec<PlacedOrder>,
    /// The customer's returns, newest first, with their photographs' names (blob keys).
    pub returns: Vec<ProductReturn>,
    /// Every grant of store credit to the customer, as the ledger keeps it (spent or not).
    pub store_credit: Vec<StoredGrant>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrivacyError {
    /// A store is down (503); an erasure may be asked again and goes on where it stopped.
    #[error("a store is unavailable: {0}")]
    Unavailable(String),
}

/// Export and erasure of a customer's data.
#[derive(Clone)]
pub struct PrivacyService {
    accounts: Arc<dyn AccountStore>,
    addresses: Arc<dyn AddressStore>,
    wishlist: Arc<dyn WishlistStore>,
    garage: Arc<dyn GarageStore>,
    orders: Arc<dyn OrderStore>,
    returns: Arc<dyn ReturnStore>,
    credit: Arc<dyn StoreCreditStore>,
    blobs: Arc<dyn BlobStore>,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for PrivacyService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrivacyService").finish_non_exhaustive()
    }
}

fn unavailable(e: impl std::fmt::Display) -> PrivacyError {
    PrivacyError::Unavailable(e.to_string())
}

impl PrivacyService {
    #[must_use]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        accounts: Arc<dyn AccountStore>,
        addresses: Arc<dyn AddressStore>,
        wishlist: Arc<dyn WishlistStore>,
        garage: Arc<dyn GarageStore>,
        orders: Arc<dyn OrderStore>,
        returns: Arc<dyn ReturnStore>,
        credit: Arc<dyn StoreCreditStore>,
        blobs: Arc<dyn BlobStore>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { accounts, addresses, wishlist, garage, orders, returns, credit, blobs, clock }
    }

    /// Everything kept about `user`: the account, addresses, wishlist, garage, orders, returns and
    /// grants of store credit.
    ///
    /// # Errors
    /// [`PrivacyError::Unavailable`] when a store cannot be read.
    pub async fn export(&self, user: &UserRecord) -> Result<DataExport, PrivacyError> {
        let addresses = self.addresses.addresses(&user.id).await.map_err(unavailable)?;
        let wishlist = self.wishlist.wishlist(&user.id).await.map_err(unavailable)?;
        let garage = self.garage.garage(&user.id).await.map_err(unavailable)?;
        let mut orders = self.orders.orders_of(&user.id).await.map_err(unavailable)?;
        orders.sort_by_key(|order| std::cmp::Reverse(order.created_at));
        let returns = self.returns.returns_of(&user.id).await.map_err(unavailable)?;
        let store_credit = self.credit.grants(&user.id).await.map_err(unavailable)?;
        Ok(DataExport {
            user: user.clone(),
            offer: user.offer(self.clock.now()),
            addresses,
            wishlist,
            garage,
            orders,
            returns,
            store_credit,
        })
    }

    /// Erases `user`'s account: addresses, wishlist, garage, the returns' photographs and reasons, and
    /// the picture first, then the account with its contact details and every session (last, so that a
    /// failure part-way leaves the customer able to ask again). Orders, invoices, the returns' records
    /// and the store credit ledger are kept (see the module's documentation).
    ///
    /// # Errors
    /// [`PrivacyError::Unavailable`] when a store cannot be written.
    pub async fn erase(&self, user: &UserRecord) -> Result<(), PrivacyError> {
        self.addresses.remove_all(&user.id).await.map_err(unavailable)?;
        self.wishlist.clear(&user.id).await.map_err(unavailable)?;
        self.garage.clear(&user.id).await.map_err(unavailable)?;
        // The photographs first, their keys after: a failure part-way leaves the keys to delete again.
        for kept in self.returns.returns_of(&user.id).await.map_err(unavailable)? {
            for key in &kept.photos {
                self.blobs.delete(key).await.map_err(unavailable)?;
            }
        }
        self.returns.forget_customer(&user.id).await.map_err(unavailable)?;
        if let Some(file) = user.profile.strip_prefix(AVATAR_URL_PREFIX) {
            self.blobs.delete(&format!("avatars/{file}")).await.map_err(unavailable)?;
        }
        self.accounts.erase_user(&user.id).await.map_err(unavailable)?;
        tracing::info!(user = %user.id.0, "a customer erased their account; their orders are kept for GST records");
        Ok(())
    }
}

#[cfg(test)]
mod tests;
