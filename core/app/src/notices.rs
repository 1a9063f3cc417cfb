//! Customers' order notices (issue 24): what an order change tells the customer, queued with the
//! change in its transaction ([`queue_for`]), and the worker that sends the outbox's notices and
//! retries them ([`NoticeWorker`]).
//!
//! The texts are the domain's ([`OrderNotice::texts`]), in the language the customer last chose
//! (kept on the account; English until they choose). An email goes to the account's email, an SMS
//! to its mobile when the notice's SMS template is configured ([`NoticeSettings::sms`]). A notice
//! that fails is tried again after [`retry_after`] and marked failed after the last attempt; it
//! never fails, undoes or holds up the staff member's action that queued it.

use std::collections::BTreeSet;
use std::sync::Arc;

use marque_domain::order::{retry_after, Fulfilment, NoticeContext, NoticeKind, OrderNotice, OrderStatus};
use marque_ports::{
    AdminOrder, Channel, Clock, NewNotice, NoticeOutbox, NoticeOutboxError, Notification, Notifier, NotifyError,
};

/// How the shop signs its notices and which go by SMS as well.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoticeSettings {
    /// The trading name, signing every notice.
    pub shop_name: String,
    /// The notices also sent by SMS: those whose DLT template is configured (every one with the
    /// `dev` outbox). The others go by email only.
    pub sms: BTreeSet<NoticeKind>,
}

impl Default for NoticeSettings {
    /// Signed `Marque Parts`, by email only.
    fn default() -> Self {
        Self { shop_name: "Marque Parts".to_owned(), sms: BTreeSet::new() }
    }
}

/// What a change of the order from `before` to `after` tells the customer, if anything: a
/// confirmation, a shipment (also a corrected one: a new courier or AWB), a delivery or a
/// cancellation. Packing tells nothing.
#[must_use]
pub fn notice_of_move(before: &Fulfilment, after: &Fulfilment) -> Option<OrderNotice> {
    if before.status == after.status {
        return match (&after.shipment, after.status) {
            (Some(shipment), OrderStatus::Shipped) if before.shipment.as_ref() != Some(shipment) => {
                Some(OrderNotice::Shipped(shipment.clone()))
            }
            _ => None,
        };
    }
    match after.status {
        OrderStatus::Confirmed => Some(OrderNotice::Confirmed),
        OrderStatus::Shipped => after.shipment.clone().map(OrderNotice::Shipped),
        OrderStatus::Delivered => Some(OrderNotice::Delivered),
        OrderStatus::Cancelled => Some(OrderNotice::Cancelled { refund: marque_domain::Money::ZERO }),
        OrderStatus::Placed | OrderStatus::Packed => None,
    }
}

/// The messages `notice` of `order` queues at `now`: an email to the account's email and, when its
/// SMS is configured, an SMS to the account's mobile, in the customer's language. None when the
/// account has neither.
#[must_use]
pub fn queue_for(order: &AdminOrder, notice: &OrderNotice, settings: &NoticeSettings, now: i64) -> Vec<NewNotice> {
    let language = order.customer_language.unwrap_or_default();
    let texts = notice.texts(
        language,
        NoticeContext {
            order_number: &order.order.order_number,
            customer: &order.order.draft.user_name,
            shop: &settings.shop_name,
        },
    );
    let kind = notice.kind();
    let queued =
        |channel: Channel, recipient: &str, subject: String, text: String, template: Option<String>| NewNotice {
            order: order.order.id.clone(),
            kind,
            channel,
            recipient: recipient.to_owned(),
            subject,
            text,
            template,
            at: now,
        };
    let mut notices = Vec::new();
    if let Some(email) = order.customer_email.as_deref() {
        notices.push(queued(Channel::Email, email, texts.subject, texts.email, None));
    }
    if let Some(mobile) = order.customer_mobile.as_deref().filter(|_| settings.sms.contains(&kind)) {
        notices.push(queued(Channel::Sms, mobile, String::new(), texts.sms, Some(kind.template().to_owned())));
    }
    notices
}

/// How many notices one pass claims.
pub const NOTICE_BATCH: u32 = 20;

/// How long a claim holds before another worker may take the notice (a worker that died mid-send).
pub const NOTICE_LEASE_SECS: i64 = 120;

/// What one pass of the worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoticePass {
    pub claimed: usize,
    pub sent: usize,
    /// Failed this time, to be tried again later.
    pub retrying: usize,
    /// Failed for good: tried the last time, or refused (no such recipient, no template).
    pub failed: usize,
}

/// Sends the outbox's due notices through the notifier, each claimed under this worker's lease.
#[derive(Clone)]
pub struct NoticeWorker {
    outbox: Arc<dyn NoticeOutbox>,
    notifier: Arc<dyn Notifier>,
    clock: Arc<dyn Clock>,
    worker: String,
}

impl std::fmt::Debug for NoticeWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NoticeWorker").field("worker", &self.worker).finish_non_exhaustive()
    }
}

impl NoticeWorker {
    /// `worker` names this instance in the claims (unique among instances sharing the database).
    #[must_use]
    pub fn new(
        outbox: Arc<dyn NoticeOutbox>,
        notifier: Arc<dyn Notifier>,
        clock: Arc<dyn Clock>,
        worker: impl Into<String>,
    ) -> Self {
        Self { outbox, notifier, clock, worker: worker.into() }
    }

    /// Claims up to [`NOTICE_BATCH`] due notices and sends each: a sent one is marked sent; one the
    /// gateway could not take now waits [`retry_after`] its attempts, and after the last is marked
    /// failed (logged as an error); one refused for good (a malformed recipient, no template) is
    /// marked failed at once.
    ///
    /// # Errors
    /// [`NoticeOutboxError::Unavailable`] when the outbox cannot be read; a notice whose outcome
    /// cannot be recorded is claimed again once its lease lapses.
    pub async fn run_once(&self) -> Result<NoticePass, NoticeOutboxError> {
        let now = self.clock.now();
        let claimed = self.outbox.claim(&self.worker, now, now + NOTICE_LEASE_SECS, NOTICE_BATCH).await?;
        let mut pass = NoticePass { claimed: claimed.len(), ..NoticePass::default() };
        for queued in claimed {
            let n = &queued.notice;
            let notification = Notification {
                channel: n.channel,
                recipient: n.recipient.clone(),
                subject: n.subject.clone(),
                text: n.text.clone(),
                template: n.template.clone(),
                attachments: Vec::new(),
            };
            let outcome = self.notifier.send(&notification).await;
            let recorded = match outcome {
                Ok(()) => {
                    pass.sent += 1;
                    self.outbox.sent(&queued.id, &self.worker, self.clock.now()).await
                }
                Err(e) => {
                    let attempts = queued.attempts + 1;
                    let retry = match &e {
                        NotifyError::Unavailable { .. } => retry_after(attempts).map(|wait| self.clock.now() + wait),
                        NotifyError::Refused { .. } => None,
                    };
                    if retry.is_some() {
                        pass.retrying += 1;
                        tracing::warn!(notice = %queued.id, order = %n.order.0, kind = n.kind.template(), channel = ?n.channel, attempts, error = %e, "an order notice was not sent; trying again later");
                    } else {
                        pass.failed += 1;
                        tracing::error!(notice = %queued.id, order = %n.order.0, kind = n.kind.template(), channel = ?n.channel, attempts, error = %e, "an order notice failed for good");
                    }
                    metrics::counter!("marque_notices_failed_total", "final" => if retry.is_some() { "no" } else { "yes" })
                        .increment(1);
                    self.outbox.attempt_failed(&queued.id, &self.worker, &e.to_string(), retry).await
                }
            };
            if let Err(e) = recorded {
                tracing::warn!(notice = %queued.id, error = %e, "an order notice's outcome was not recorded; it is claimed again when its lease lapses");
            }
        }
        if pass.sent > 0 {
            metrics::counter!("marque_notices_sent_total").increment(pass.sent as u64);
        }
        Ok(pass)
    }
}

#[cfg(test)]
mod tests;
