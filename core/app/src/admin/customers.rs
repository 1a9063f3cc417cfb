//! Customers in the back office: finding them, reading them and their orders (owner and
//! fulfilment: [`Area::CustomersRead`]), and their offers (owner only: [`Area::Offers`]).
//!
//! An offer is a percentage (1–90) until a day in India, inclusive; `offerExp` is computed from
//! that day and the clock wherever it is shown ([`UserRecord::offer`]). Each offer write hands the
//! account store its [`AuditEntry`] (`offer.set` / `offer.end` on `customer:<id>`, with the
//! percentage and end date before and after), stored in the same transaction.

use std::sync::Arc;

use marque_domain::paging::ListWindow;
use marque_domain::pricing::{DiscountPercent, Offer, OfferEndError, OfferEndsOn, OfferPercentError};
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::{Message, UserFacing};
use marque_ports::{
    AccountStore, AccountStoreError, Actor, AuditEntry, Clock, CustomerOffer, OrderStore, OrdersPage, UserId,
    UserRecord,
};

/// A customer as the back office shows them, with their offer as it runs now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerView {
    pub user: UserRecord,
    pub offer: Offer,
}

/// One window of a customer search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomersPage {
    pub customers: Vec<CustomerView>,
    pub total: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CustomersError {
    /// The staff member's role does not cover the call (403).
    #[error("{0:?}")]
    Forbidden(Forbidden),
    /// No customer has this id (404).
    #[error("no customer has this id")]
    NotFound,
    /// An offer's percentage outside 1–90 (400).
    #[error("{0}")]
    Percentage(OfferPercentError),
    /// An offer's end date that is not a day, is past or too far (400).
    #[error("{0}")]
    EndsOn(OfferEndError),
    /// A store cannot be reached (503).
    #[error("a store is unavailable: {0}")]
    Unavailable(String),
}

impl CustomersError {
    /// What the staff member reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            CustomersError::Forbidden(_) => Message::StaffForbidden,
            CustomersError::NotFound => Message::CustomerNotFound,
            CustomersError::Percentage(e) => e.message(),
            CustomersError::EndsOn(e) => e.message(),
            CustomersError::Unavailable(_) => Message::StaffUnavailable,
        }
    }
}

impl From<Forbidden> for CustomersError {
    fn from(f: Forbidden) -> Self {
        CustomersError::Forbidden(f)
    }
}

fn unavailable(e: impl std::fmt::Display) -> CustomersError {
    CustomersError::Unavailable(e.to_string())
}

/// The offer's fields as the audit trail keeps them (JSON text).
fn offer_values(user: &UserRecord) -> String {
    match user.offer_ends_on {
        Some(ends) => format!(r#"{{"percentage":{},"endsOn":"{ends}"}}"#, user.percentage),
        None => format!(r#"{{"percentage":{},"endsOn":null}}"#, user.percentage),
    }
}

/// Customers, their orders and their offers, for staff.
#[derive(Clone)]
pub struct CustomersService {
    accounts: Arc<dyn AccountStore>,
    orders: Arc<dyn OrderStore>,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for CustomersService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CustomersService").finish_non_exhaustive()
    }
}

impl CustomersService {
    #[must_use]
    pub fn new(accounts: Arc<dyn AccountStore>, orders: Arc<dyn OrderStore>, clock: Arc<dyn Clock>) -> Self {
        Self { accounts, orders, clock }
    }

    fn view(&self, user: UserRecord) -> CustomerView {
        CustomerView { offer: user.offer(self.clock.now()), user }
    }

    async fn existing(&self, id: &UserId) -> Result<UserRecord, CustomersError> {
        self.accounts.user(id).await.map_err(unavailable)?.filter(|u| u.id == *id).ok_or(CustomersError::NotFound)
    }

    /// Customers whose name, email or mobile `text` gives, newest account first: the page `window`.
    ///
    /// # Errors
    /// [`CustomersError::Forbidden`] without [`Area::CustomersRead`]; [`CustomersError::Unavailable`].
    pub async fn search(&self, staff: &Staff, text: &str, window: ListWindow) -> Result<CustomersPage, CustomersError> {
        staff.require(Area::CustomersRead)?;
        let page = self.accounts.search_users(text, window).await.map_err(unavailable)?;
        Ok(CustomersPage { customers: page.users.into_iter().map(|u| self.view(u)).collect(), total: page.total })
    }

    /// The customer with this id (their `_id`, never looked up by email or mobile).
    ///
    /// # Errors
    /// [`CustomersError::Forbidden`], [`CustomersError::NotFound`], [`CustomersError::Unavailable`].
    pub async fn customer(&self, staff: &Staff, id: &UserId) -> Result<CustomerView, CustomersError> {
        staff.require(Area::CustomersRead)?;
        Ok(self.view(self.existing(id).await?))
    }

    /// The page `window` of the customer's orders, newest first.
    ///
    /// # Errors
    /// [`CustomersError::Forbidden`], [`CustomersError::NotFound`], [`CustomersError::Unavailable`].
    pub async fn orders(&self, staff: &Staff, id: &UserId, window: ListWindow) -> Result<OrdersPage, CustomersError> {
        staff.require(Area::CustomersRead)?;
        self.existing(id).await?;
        self.orders.orders_page(id, window.offset(), u64::from(window.limit())).await.map_err(unavailable)
    }

    /// Gives the customer `percentage` % until `ends_on` (`YYYY-MM-DD`, a day in India, inclusive),
    /// replacing any offer they had, with an `offer.set` audit entry.
    ///
    /// # Errors
    /// [`CustomersError::Forbidden`] without [`Area::Offers`]; [`CustomersError::Percentage`] /
    /// [`CustomersError::EndsOn`] for values the shop's rules refuse; [`CustomersError::NotFound`];
    /// [`CustomersError::Unavailable`].
    pub async fn set_offer(
        &self,
        staff: &Staff,
        id: &UserId,
        percentage: u32,
        ends_on: &str,
    ) -> Result<CustomerView, CustomersError> {
        staff.require(Area::Offers)?;
        let now = self.clock.now();
        let percentage = DiscountPercent::for_offer(percentage).map_err(CustomersError::Percentage)?;
        let ends_on = OfferEndsOn::for_new_offer(ends_on, now).map_err(CustomersError::EndsOn)?;
        let offer = CustomerOffer { percentage, ends_on };
        self.write_offer(staff, id, Some(offer), "offer.set", now).await
    }

    /// Ends the customer's offer now (`offerExp` 0, 0 %), with an `offer.end` audit entry.
    ///
    /// # Errors
    /// [`CustomersError::Forbidden`] without [`Area::Offers`]; [`CustomersError::NotFound`];
    /// [`CustomersError::Unavailable`].
    pub async fn end_offer(&self, staff: &Staff, id: &UserId) -> Result<CustomerView, CustomersError> {
        staff.require(Area::Offers)?;
        let now = self.clock.now();
        self.write_offer(staff, id, None, "offer.end", now).await
    }

    async fn write_offer(
        &self,
        staff: &Staff,
        id: &UserId,
        offer: Option<CustomerOffer>,
        action: &str,
        now: i64,
    ) -> Result<CustomerView, CustomersError> {
        let before = self.existing(id).await?;
        let mut after = before.clone();
        after.percentage = offer.map_or(0, |o| o.percentage.get());
        after.offer_ends_on = offer.map(|o| o.ends_on);
        let audit = AuditEntry::new(now, Actor::staff(staff), action, format!("customer:{}", id.0))
            .with_values(Some(offer_values(&before)), Some(offer_values(&after)));
        match self.accounts.set_offer(id, offer, &audit).await {
            Ok(()) => Ok(CustomerView { offer: after.offer(now), user: after }),
            Err(AccountStoreError::Invalid { .. }) => Err(CustomersError::NotFound),
            Err(e) => Err(unavailable(e)),
        }
    }
}

#[cfg(test)]
mod tests;
