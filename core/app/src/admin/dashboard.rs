//! The back office's first page (roles owner, fulfilment): what waits on the shop now. Orders to
//! confirm, pack and ship, refunds waiting on the provider or failed there, grievances past a
//! clock, parts at or below their low-stock threshold, and, for the roles that may see sales
//! figures (owner), today's and this month's sales, days and months as they turn in India.
//!
//! Returns waiting on the shop (requested, approved or received) are counted once the returns'
//! store is given ([`DashboardService::with_returns`]); notices (emails and SMS) the outbox gave up
//! on, marked failed after their attempts, once the outbox is given
//! ([`DashboardService::with_notices`]).

use std::sync::Arc;

use marque_domain::calendar::{ist_day_start, ist_month_start};
use marque_domain::order::OrderStatus;
use marque_domain::paging::ListWindow;
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::{Message, Money};
use marque_ports::{AdminOrderQuery, Clock, GrievanceStore, NoticeOutbox, OrderDesk, ReturnStore, StockLedger};

/// Sales in a period: what the orders placed in it total, cancelled ones left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sales {
    pub today: Money,
    pub this_month: Money,
}

/// The dashboard's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dashboard {
    /// Orders at status 1 (placed), waiting to be confirmed.
    pub to_confirm: u64,
    /// At status 2 (confirmed), waiting to be packed.
    pub to_pack: u64,
    /// At status 3 (packed), waiting to be shipped.
    pub to_ship: u64,
    /// Refunds `requested` or `pending` at the provider.
    pub refunds_waiting: u64,
    /// Refunds the provider failed: staff must retry them.
    pub refunds_failed: u64,
    /// Grievances with a clock run out (open past 48 hours, or unresolved past a month).
    pub grievances_overdue: u64,
    /// Parts at or below their low-stock threshold.
    pub low_stock: u64,
    /// Returns requested, approved or received: the shop has a move to make.
    pub returns_waiting: u64,
    /// Notices to customers (email, SMS) marked failed in the outbox: nobody was told.
    pub notices_failed: u64,
    /// Only for a role that may see sales figures ([`Area::Sales`]); `None` for the others.
    pub sales: Option<Sales>,
    /// When the figures were read (seconds since 1970).
    pub at: i64,
}

/// Why the dashboard could not be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DashboardError {
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    #[error("the dashboard is unavailable: {0}")]
    Unavailable(String),
}

impl DashboardError {
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            DashboardError::Forbidden(f) => f.message(),
            DashboardError::Unavailable(_) => Message::DashboardUnavailable,
        }
    }
}

fn unavailable(e: impl std::fmt::Display) -> DashboardError {
    DashboardError::Unavailable(e.to_string())
}

/// Reads the figures through the ports that keep them.
#[derive(Clone)]
pub struct DashboardService {
    desk: Arc<dyn OrderDesk>,
    grievances: Arc<dyn GrievanceStore>,
    stock: Arc<dyn StockLedger>,
    clock: Arc<dyn Clock>,
    returns: Option<Arc<dyn ReturnStore>>,
    notices: Option<Arc<dyn NoticeOutbox>>,
}

impl std::fmt::Debug for DashboardService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DashboardService").finish_non_exhaustive()
    }
}

impl DashboardService {
    #[must_use]
    pub fn new(
        desk: Arc<dyn OrderDesk>,
        grievances: Arc<dyn GrievanceStore>,
        stock: Arc<dyn StockLedger>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { desk, grievances, stock, clock, returns: None, notices: None }
    }

    /// Counts the returns waiting on the shop too.
    #[must_use]
    pub fn with_returns(mut self, returns: Arc<dyn ReturnStore>) -> Self {
        self.returns = Some(returns);
        self
    }

    /// Counts the failed notices of the outbox too.
    #[must_use]
    pub fn with_notices(mut self, notices: Arc<dyn NoticeOutbox>) -> Self {
        self.notices = Some(notices);
        self
    }

    /// The figures as they stand now.
    ///
    /// # Errors
    /// [`DashboardError::Forbidden`] first, for a role that does not run orders (catalog);
    /// [`DashboardError::Unavailable`] when a store cannot be read.
    pub async fn figures(&self, staff: &Staff) -> Result<Dashboard, DashboardError> {
        staff.require(Area::Orders)?;
        let now = self.clock.now();
        let smallest = ListWindow::new(Some(1), Some(1)).map_err(|_| unavailable("a one-row window"))?;
        let every_order = AdminOrderQuery { window: smallest, ..AdminOrderQuery::default() };
        let orders = self.desk.orders(&every_order);
        let refunds = self.desk.refund_counts();
        let overdue = self.grievances.overdue(now);
        let low = self.stock.low_stock(smallest);
        let returns = async {
            match &self.returns {
                Some(store) => store.waiting().await.map_err(unavailable),
                None => Ok(0),
            }
        };
        let failed = async {
            match &self.notices {
                Some(outbox) => outbox.counts().await.map(|c| c.failed).map_err(unavailable),
                None => Ok(0),
            }
        };
        let (orders, refunds, overdue, low, returns, failed) =
            tokio::join!(orders, refunds, overdue, low, returns, failed);
        let counts = orders.map_err(unavailable)?.counts;
        let refunds = refunds.map_err(unavailable)?;
        let sales = if staff.require(Area::Sales).is_ok() {
            let (today, month) = tokio::join!(
                self.desk.sales(ist_day_start(now), now.saturating_add(1)),
                self.desk.sales(ist_month_start(now), now.saturating_add(1))
            );
            Some(Sales { today: today.map_err(unavailable)?, this_month: month.map_err(unavailable)? })
        } else {
            None
        };
        Ok(Dashboard {
            to_confirm: counts.of(OrderStatus::Placed),
            to_pack: counts.of(OrderStatus::Confirmed),
            to_ship: counts.of(OrderStatus::Packed),
            refunds_waiting: refunds.waiting,
            refunds_failed: refunds.failed,
            grievances_overdue: overdue.map_err(unavailable)?,
            low_stock: low.map_err(unavailable)?.total,
            returns_waiting: returns?,
            notices_failed: failed?,
            sales,
            at: now,
        })
    }
}

#[cfg(test)]
mod tests;
