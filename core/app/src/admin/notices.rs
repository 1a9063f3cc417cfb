//! The customer notices of one order as staff see them (issue 24): each email and SMS the outbox
//! queued for it, whether it was sent, is waiting for another attempt or failed, and why the last
//! attempt failed. The texts stay the customer's: staff see who, what kind and where it stands.

use std::sync::Arc;

use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::Message;
use marque_ports::{NoticeOutbox, OrderId, QueuedNotice};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrderNoticesError {
    /// The staff member's role does not run orders (403).
    #[error("{0:?}")]
    Forbidden(Forbidden),
    /// The outbox cannot be read (503).
    #[error("the notices are unavailable: {0}")]
    Unavailable(String),
}

impl OrderNoticesError {
    /// What the staff member reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            OrderNoticesError::Forbidden(f) => f.message(),
            OrderNoticesError::Unavailable(_) => Message::StaffUnavailable,
        }
    }
}

impl From<Forbidden> for OrderNoticesError {
    fn from(f: Forbidden) -> Self {
        OrderNoticesError::Forbidden(f)
    }
}

/// Reading an order's notices.
#[derive(Clone)]
pub struct OrderNoticesService {
    outbox: Arc<dyn NoticeOutbox>,
}

impl std::fmt::Debug for OrderNoticesService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OrderNoticesService").finish_non_exhaustive()
    }
}

impl OrderNoticesService {
    #[must_use]
    pub fn new(outbox: Arc<dyn NoticeOutbox>) -> Self {
        Self { outbox }
    }

    /// The notices queued for `order`, oldest first (none for an order that has none, or that
    /// does not exist).
    ///
    /// # Errors
    /// [`OrderNoticesError::Forbidden`] first, without [`Area::Orders`];
    /// [`OrderNoticesError::Unavailable`].
    pub async fn of_order(&self, staff: &Staff, order: &OrderId) -> Result<Vec<QueuedNotice>, OrderNoticesError> {
        staff.require(Area::Orders)?;
        self.outbox.notices_of(order).await.map_err(|e| OrderNoticesError::Unavailable(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use marque_domain::order::NoticeKind;
    use marque_domain::staff::{StaffId, StaffRole};
    use marque_ports::{Channel, MockNoticeOutbox, NewNotice, NoticeOutboxError, NoticeState};

    use super::*;

    fn staff(role: StaffRole) -> Staff {
        Staff { id: StaffId("s1".into()), email: "s1@marque.example".into(), name: "Sam".into(), role }
    }

    fn failed_sms() -> QueuedNotice {
        QueuedNotice {
            id: "n1".into(),
            notice: NewNotice {
                order: OrderId("o1".into()),
                kind: NoticeKind::Shipped,
                channel: Channel::Sms,
                recipient: "9812345671".into(),
                subject: String::new(),
                text: "shipped".into(),
                template: Some("shipped".into()),
                at: 1_780_000_000,
            },
            state: NoticeState::Failed,
            attempts: 8,
            due_at: 1_780_100_000,
            last_error: Some("the gateway refused the template".into()),
        }
    }

    #[tokio::test]
    async fn fulfilment_and_owners_read_an_orders_notices() {
        for role in [StaffRole::Owner, StaffRole::Fulfilment] {
            let mut outbox = MockNoticeOutbox::new();
            outbox.expect_notices_of().withf(|order| order.0 == "o1").times(1).returning(|_| Ok(vec![failed_sms()]));
            let notices = OrderNoticesService::new(Arc::new(outbox));
            let read = notices.of_order(&staff(role), &OrderId("o1".into())).await.expect("read");
            assert_eq!(read, vec![failed_sms()]);
        }
    }

    #[tokio::test]
    async fn the_catalog_role_is_refused_before_the_outbox_is_read() {
        let mut outbox = MockNoticeOutbox::new();
        outbox.expect_notices_of().never();
        let notices = OrderNoticesService::new(Arc::new(outbox));
        let refused = notices.of_order(&staff(StaffRole::Catalog), &OrderId("o1".into())).await;
        assert!(matches!(refused, Err(OrderNoticesError::Forbidden(_))), "{refused:?}");
    }

    #[tokio::test]
    async fn an_outbox_that_cannot_be_read_is_unavailable() {
        let mut outbox = MockNoticeOutbox::new();
        outbox.expect_notices_of().returning(|_| Err(NoticeOutboxError::Unavailable { reason: "down".into() }));
        let notices = OrderNoticesService::new(Arc::new(outbox));
        let e = notices.of_order(&staff(StaffRole::Owner), &OrderId("o1".into())).await.expect_err("down");
        assert_eq!(e.message(), Message::StaffUnavailable);
    }
}
