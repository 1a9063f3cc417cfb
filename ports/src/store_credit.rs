//! The store credit ledger (issue 24): grants of credit to a customer, each valid six months, and
//! the balance they can spend. Spending happens with the stock hold of a checkout, in the order
//! store's transaction ([`crate::OrderStore::reserve`] takes the credit a draft names, a release
//! gives it back, [`crate::OrderStore::place`] makes it final), so a balance is never spent twice.

use async_trait::async_trait;
use marque_domain::store_credit::GrantSource;
use marque_domain::Money;

use crate::accounts::UserId;

/// What a customer can spend now: the sum of their live grants, and the earliest expiry among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CreditBalance {
    /// In paise; zero when nothing is live.
    pub balance: Money,
    /// Seconds since 1970 UTC: when the first live grant expires; `None` when nothing is live.
    pub expires_at: Option<i64>,
}

/// One grant as the ledger keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGrant {
    /// The ledger's id of the grant.
    pub id: String,
    pub amount: Money,
    pub remaining: Money,
    pub granted_at: i64,
    pub expires_at: i64,
    /// The grant's `source` key (`return:{id}`, `refund:{id}`).
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreCreditError {
    /// An amount below one paisa.
    #[error("a grant of store credit must be at least one paisa")]
    BadAmount,
    #[error("the store credit ledger is unavailable: {reason}")]
    Unavailable { reason: String },
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait StoreCreditStore: Send + Sync {
    /// The customer's balance at `now`: what remains of every grant with `now < expires_at`
    /// (credit held by an unpaid checkout is not in it), and the earliest of their expiries.
    ///
    /// # Errors
    /// [`StoreCreditError::Unavailable`].
    async fn balance(&self, customer: &UserId, now: i64) -> Result<CreditBalance, StoreCreditError>;

    /// Grants `amount` to the customer at `granted_at`, valid until
    /// `marque_domain::store_credit::expires_at(granted_at)`. Idempotent on `source`: a second
    /// grant with the same source writes nothing and answers `false` (the first one stays as it is).
    ///
    /// # Errors
    /// [`StoreCreditError::BadAmount`] for an amount below one paisa; [`StoreCreditError::Unavailable`].
    async fn grant(
        &self,
        customer: &UserId,
        amount: Money,
        source: &GrantSource,
        granted_at: i64,
    ) -> Result<bool, StoreCreditError>;

    /// Every grant of the customer, spent and expired ones included, earliest expiry first.
    ///
    /// # Errors
    /// [`StoreCreditError::Unavailable`].
    async fn grants(&self, customer: &UserId) -> Result<Vec<StoredGrant>, StoreCreditError>;
}
