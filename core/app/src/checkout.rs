//! Checkout and payment: pricing an order on the server, holding its stock, and placing it once
//! the payment provider confirms it — from the browser or from a webhook, whichever comes first.

use std::collections::BTreeMap;
use std::sync::Arc;

use marque_domain::address::AddressId;
use marque_domain::cart::Quantity;
use marque_domain::catalog::{Product, ProductId};
use marque_domain::checkout::{Checkout, CheckoutError as Rule, CheckoutLine, OrderLimitError, OrderLimits};
use marque_domain::order::OrderLine;
use marque_domain::pricing::Totals;
use marque_domain::Money;
use marque_ports::{
    AddressStore, CatalogStore, Clock, NewPaymentOrder, NewRefund, OrderDraft, OrderStore, OrderStoreError,
    PaymentError, PaymentEventKind, PaymentGateway, PaymentId, PaymentOrder, PaymentOrderId, PaymentState, PlacedOrder,
    Placement, RefundRecord, RefundState, RefundStatus, Reservation, ReservationState, StoreCreditStore, UserId,
    UserRecord,
};

use crate::orders::OrderPlaced;

/// How long stock is held for a payment that has not arrived: 15 minutes.
pub const HOLD_SECONDS: i64 = 15 * 60;

/// Most unpaid holds a customer keeps: a further Pay releases the oldest (shop rules, "Orders").
pub const MAX_UNPAID_HOLDS: usize = 2;

/// How long a provider event is remembered (for de-duplication): 90 days.
pub const EVENT_KEEP_SECONDS: i64 = 90 * 24 * 60 * 60;

/// How far back the reconciliation asks the provider about checkouts without an order: a day.
pub const RECONCILE_WINDOW_SECONDS: i64 = 24 * 60 * 60;

/// Why a payment was refunded, as the refund record keeps it.
pub const REFUND_SOLD_OUT: &str = "sold_out";

/// What one reconciliation did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reconciled {
    /// Checkouts without an order that the provider was asked about.
    pub checked: usize,
    /// Orders placed from a payment nobody had reported.
    pub placed: usize,
    /// Payments refunded because their stock was gone.
    pub refunded: usize,
    /// Checkouts that could not be settled now (tried again on the next pass).
    pub failed: usize,
}

/// The only currency the shop collects.
pub const CURRENCY: &str = "INR";

/// The payment id of an order paid wholly with store credit (no card payment was made).
pub const STORE_CREDIT_PAYMENT: &str = "store_credit";

/// How the shop's own payment order ids of wholly-credit checkouts begin (never a provider's `order_…`).
pub const STORE_CREDIT_ORDER_PREFIX: &str = "credit_";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckoutError {
    /// A checkout rule: no address, an empty cart, or a line above its stock (the product named).
    #[error("{0}")]
    Rule(Rule),
    /// A quantity below 1.
    #[error("a quantity must be at least 1")]
    BadQuantity,
    /// More units of a part, or more parts, than one order may hold.
    #[error("{0}")]
    Limit(OrderLimitError),
    /// The product does not exist (checkout items).
    #[error("no such product")]
    ProductNotFound,
    /// The address or the payment belongs to another customer.
    #[error("this belongs to another customer")]
    Forbidden,
    /// The payment's signature does not match: nothing is placed.
    #[error("the payment signature is not valid")]
    BadSignature,
    /// The provider does not report this payment as paid for this order and amount.
    #[error("the payment is not complete")]
    NotPaid,
    /// No checkout is waiting for this payment order.
    #[error("no checkout waits for this payment")]
    UnknownPayment,
    /// The store credit the order was priced with was spent or expired meanwhile (another
    /// checkout took it): nothing is held; pricing again shows the credit there is.
    #[error("the store credit changed since the order was priced")]
    CreditChanged,
    /// The payment came after its hold lapsed and the stock was sold meanwhile: it was refunded
    /// (or its refund is under way) and no order was placed.
    #[error("the stock was sold before the payment arrived; the payment was refunded")]
    Refunded,
    /// The payment provider or a store cannot be reached.
    #[error("checkout is unavailable: {0}")]
    Unavailable(String),
}

impl From<OrderStoreError> for CheckoutError {
    fn from(e: OrderStoreError) -> Self {
        match e {
            OrderStoreError::OutOfStock { product } => CheckoutError::Rule(Rule::OutOfStock { product }),
            OrderStoreError::UnknownReservation => CheckoutError::UnknownPayment,
            OrderStoreError::CreditShort => CheckoutError::CreditChanged,
            other => CheckoutError::Unavailable(other.to_string()),
        }
    }
}

impl From<PaymentError> for CheckoutError {
    fn from(e: PaymentError) -> Self {
        match e {
            PaymentError::BadSignature => CheckoutError::BadSignature,
            other => CheckoutError::Unavailable(other.to_string()),
        }
    }
}

fn store_down(e: impl std::fmt::Display) -> CheckoutError {
    CheckoutError::Unavailable(e.to_string())
}

/// One line of a pay request: a product and how many. Anything else the client sent is ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WantedLine {
    pub product: ProductId,
    pub quantity: u32,
}

/// A started payment: the provider's order to open the checkout with, and the server's totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartedPayment {
    /// The provider's order for the card's part; when store credit pays everything, the shop's own
    /// id (beginning [`STORE_CREDIT_ORDER_PREFIX`]) with an amount of zero, and no provider order.
    pub order: PaymentOrder,
    pub totals: Totals,
    /// The store credit that pays part of `totals.total` (zero when none), held with the stock.
    pub store_credit: Money,
    /// What is left to pay by card: `totals.total − store_credit`.
    pub card: Money,
    /// The order, placed at once, when store credit paid everything.
    pub placed: Option<PlacedOrder>,
}

/// What a provider event did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventOutcome {
    /// Seen before: nothing done again.
    Duplicate,
    /// An order was placed (or had been, by the browser).
    Placed(Box<PlacedOrder>),
    /// A failed payment gave its stock back.
    Released,
    /// The payment found no stock (its hold had lapsed): it was refunded.
    Refunded,
    /// A refund's news (processed, failed) was recorded on the shop's refund record.
    Recorded,
    /// Nothing for the shop to do (another event, or a payment order it does not know).
    Ignored,
}

/// Called between noting a provider event and acting on it: a test-only fault point (`dev` only,
/// see `MARQUE_TEST_EXIT_AFTER_WEBHOOK_RECORD`).
pub type EventProbe = Arc<dyn Fn() + Send + Sync>;

#[derive(Clone)]
pub struct CheckoutService {
    catalog: Arc<dyn CatalogStore>,
    addresses: Arc<dyn AddressStore>,
    orders: Arc<dyn OrderStore>,
    payments: Arc<dyn PaymentGateway>,
    placed: Option<Arc<dyn OrderPlaced>>,
    credit: Option<Arc<dyn StoreCreditStore>>,
    clock: Arc<dyn Clock>,
    limits: OrderLimits,
    event_probe: Option<EventProbe>,
}

impl std::fmt::Debug for CheckoutService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckoutService").finish_non_exhaustive()
    }
}

impl CheckoutService {
    pub fn new(
        catalog: Arc<dyn CatalogStore>,
        addresses: Arc<dyn AddressStore>,
        orders: Arc<dyn OrderStore>,
        payments: Arc<dyn PaymentGateway>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            catalog,
            addresses,
            orders,
            payments,
            placed: None,
            credit: None,
            clock,
            limits: OrderLimits::DEFAULT,
            event_probe: None,
        }
    }

    /// Caps units per line and lines per order (default [`OrderLimits::DEFAULT`]).
    #[must_use]
    pub fn with_limits(mut self, limits: OrderLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Pays with the customer's store credit first (`marque_domain::store_credit::spend`): the
    /// card pays the rest, or nothing. Without it no checkout uses credit.
    #[must_use]
    pub fn with_store_credit(mut self, credit: Arc<dyn StoreCreditStore>) -> Self {
        self.credit = Some(credit);
        self
    }

    /// The customer's store credit at `now`, for the user object and the review page (zero
    /// balance and no expiry without a ledger).
    ///
    /// # Errors
    /// [`CheckoutError::Unavailable`].
    pub async fn store_credit(&self, customer: &UserId) -> Result<marque_ports::CreditBalance, CheckoutError> {
        match &self.credit {
            Some(credit) => credit.balance(customer, self.clock.now()).await.map_err(store_down),
            None => Ok(marque_ports::CreditBalance::default()),
        }
    }

    /// Calls `probe` after each provider event is noted and before it is acted on (fault tests).
    #[must_use]
    pub fn probing_events(mut self, probe: EventProbe) -> Self {
        self.event_probe = Some(probe);
        self
    }

    /// Tells `listener` about every order placed from now on (on a task of its own).
    #[must_use]
    pub fn notifying(mut self, listener: Arc<dyn OrderPlaced>) -> Self {
        self.placed = Some(listener);
        self
    }

    /// What the browser needs to open the provider's checkout.
    #[must_use]
    pub fn checkout_config(&self) -> marque_ports::CheckoutConfig {
        self.payments.checkout()
    }

    /// A product as checkout reloads it: today's price and stock.
    ///
    /// # Errors
    /// [`CheckoutError::ProductNotFound`]; [`CheckoutError::Unavailable`].
    pub async fn item(&self, id: &ProductId) -> Result<Product, CheckoutError> {
        self.catalog.product(id).await.map_err(store_down)?.ok_or(CheckoutError::ProductNotFound)
    }

    /// Prices the order from the catalog and the customer's offer (whatever the client believed),
    /// creates the provider's order for the total and holds the stock for [`HOLD_SECONDS`].
    ///
    /// A customer keeps at most [`MAX_UNPAID_HOLDS`] unpaid holds: holding a third releases the oldest.
    ///
    /// # Errors
    /// The checkout rules in order (address, empty cart, the order's limits, stock — a missing
    /// product counts as out of stock); [`CheckoutError::BadQuantity`]; [`CheckoutError::Limit`];
    /// [`CheckoutError::Forbidden`] for another customer's address; [`CheckoutError::Unavailable`].
    /// When stock cannot be held nothing is held.
    pub async fn pay(
        &self,
        customer: &UserRecord,
        wanted: &[WantedLine],
        address: Option<&AddressId>,
    ) -> Result<StartedPayment, CheckoutError> {
        let address = match address {
            Some(id) => match self.addresses.address(id).await.map_err(store_down)? {
                Some((owner, _)) if owner != customer.id => return Err(CheckoutError::Forbidden),
                found => found.map(|(_, saved)| saved.address),
            },
            None => None,
        };
        let wanted = merged(wanted)?;
        if address.is_some() && !wanted.is_empty() {
            self.limits.check(&wanted).map_err(CheckoutError::Limit)?;
            // Only worth reading the catalog once the first rules hold.
            let mut lines = Vec::with_capacity(wanted.len());
            for (product, quantity) in wanted {
                match self.catalog.product(&product).await.map_err(store_down)? {
                    Some(found) => lines.push(CheckoutLine::from_product(&found, quantity)),
                    None => return Err(CheckoutError::Rule(Rule::OutOfStock { product })),
                }
            }
            return self.hold(customer, Checkout::new(address, lines).map_err(CheckoutError::Rule)?).await;
        }
        Err(CheckoutError::Rule(Checkout::new(address, Vec::new()).err().unwrap_or(Rule::CartEmpty)))
    }

    async fn hold(&self, customer: &UserRecord, checkout: Checkout) -> Result<StartedPayment, CheckoutError> {
        let now = self.clock.now();
        // The offer as it runs now (offerExp from its end date and the clock), as the review page shows it.
        let offer = customer.offer(now);
        let totals = checkout.totals(&offer);
        // Store credit pays first (it is a way of paying: GST stays on the full price); the card the rest.
        let credit = self.credit_applying(&customer.id, totals.total, now).await?;
        let card = totals.total - credit;
        let order = if card.paise() > 0 {
            self.payments
                .create_order(&NewPaymentOrder {
                    amount: card,
                    currency: CURRENCY.to_owned(),
                    receipt: receipt(&customer.id, now),
                })
                .await?
        } else {
            PaymentOrder { id: credit_order_id()?, amount: Money::ZERO, currency: CURRENCY.to_owned() }
        };
        let draft = OrderDraft {
            user: customer.id.clone(),
            user_name: customer.name.clone(),
            lines: checkout
                .lines()
                .iter()
                .map(|l| OrderLine {
                    product_id: l.product_id.clone(),
                    name: l.name.clone(),
                    quantity: l.quantity,
                    price: l.unit_price,
                    gst: l.gst_percent,
                    hsn: None,
                    margin_scheme: l.margin_scheme,
                    warranty_days: l.warranty_days,
                })
                .collect(),
            address: checkout.address().clone(),
            discount: offer.percent_now(),
            discount_amount: totals.discount,
            delivery_charge: totals.delivery,
            total: totals.total,
            store_credit: credit,
        };
        let reservation =
            Reservation { payment_order: order.id.clone(), draft, created_at: now, expires_at: now + HOLD_SECONDS };
        // Room for this hold first (its stock may be what an older hold of the same cart keeps)…
        self.release_oldest_holds(&customer.id, MAX_UNPAID_HOLDS - 1).await?;
        self.orders.reserve(&reservation).await?;
        metrics::counter!("marque_holds_total", "event" => "held").increment(1);
        // …and again after, for Pays of the same customer that raced this one.
        self.release_oldest_holds(&customer.id, MAX_UNPAID_HOLDS).await?;
        if card.paise() > 0 {
            return Ok(StartedPayment { order, totals, store_credit: credit, card, placed: None });
        }
        // Store credit pays everything: the order is placed now, without a card payment.
        let placed = match self.orders.place(&order.id, &PaymentId(STORE_CREDIT_PAYMENT.to_owned()), now).await {
            Ok(placement) => placement,
            Err(e) => {
                // Nothing placed: the stock and the credit go back at once rather than at the hold's end.
                if let Err(release) = self.orders.release(&order.id).await {
                    tracing::warn!(order = %order.id.0, error = %release, "a store-credit checkout that could not be placed keeps its hold until it lapses");
                }
                return Err(e.into());
            }
        };
        metrics::counter!("marque_payments_total", "outcome" => "store_credit").increment(1);
        let placed = self.announce(placed);
        Ok(StartedPayment { order, totals, store_credit: credit, card, placed: Some(placed) })
    }

    /// The store credit that pays part of `total` for `customer` at `now`: `min(balance, total)`
    /// by the domain's rule. Credit held by the customer's earlier unpaid checkouts is theirs
    /// again first: a new Pay supersedes them (a late payment of one of them takes its credit
    /// again if it is still there, or is refunded).
    async fn credit_applying(&self, customer: &UserId, total: Money, now: i64) -> Result<Money, CheckoutError> {
        let Some(credit) = &self.credit else { return Ok(Money::ZERO) };
        for held in self.orders.held_by(customer).await? {
            if held.draft.store_credit.paise() > 0 && self.orders.release(&held.payment_order).await? {
                tracing::info!(order = %held.payment_order.0, "released a customer's unpaid hold of store credit for a newer checkout");
            }
        }
        let balance = credit.balance(customer, now).await.map_err(store_down)?;
        let grants = [marque_domain::store_credit::Spendable {
            id: String::new(),
            remaining: balance.balance,
            expires_at: balance.expires_at.unwrap_or(now),
        }];
        Ok(marque_domain::store_credit::spend(&grants, total, now).credit)
    }

    /// Tells the listener about an order this call placed; the order either way.
    fn announce(&self, placement: Placement) -> PlacedOrder {
        match placement {
            Placement::Placed(order) => {
                metrics::counter!("marque_orders_placed_total").increment(1);
                if let Some(listener) = self.placed.clone() {
                    // The confirmation (an invoice to render, mail to send) must not hold up the answer.
                    let placed = order.clone();
                    tokio::spawn(async move { listener.order_placed(&placed).await });
                }
                order
            }
            Placement::AlreadyPlaced(order) => order,
        }
    }

    /// Releases the customer's oldest unpaid holds until at most `keep` are left.
    async fn release_oldest_holds(&self, customer: &UserId, keep: usize) -> Result<(), CheckoutError> {
        let held = self.orders.held_by(customer).await?;
        for old in held.iter().take(held.len().saturating_sub(keep)) {
            if self.orders.release(&old.payment_order).await? {
                tracing::info!(order = %old.payment_order.0, "released a customer's oldest unpaid hold for a newer one");
            }
        }
        Ok(())
    }

    /// The browser's report of a successful payment: the signature is checked, then the payment
    /// with the provider (paid, for this order, for the whole amount), then the order is placed.
    /// The same payment reported again answers the same order.
    ///
    /// # Errors
    /// [`CheckoutError::BadSignature`]; [`CheckoutError::UnknownPayment`]; [`CheckoutError::Forbidden`]
    /// when the checkout is another customer's; [`CheckoutError::NotPaid`]; the stock error when a
    /// payment arrives after its hold expired and the stock is gone; [`CheckoutError::Unavailable`].
    pub async fn confirm(
        &self,
        customer: &UserId,
        order: &PaymentOrderId,
        payment: &PaymentId,
        signature: &str,
    ) -> Result<PlacedOrder, CheckoutError> {
        self.payments.verify_payment(order, payment, signature).inspect_err(|_| {
            metrics::counter!("marque_payments_total", "outcome" => "bad_signature").increment(1);
        })?;
        let (reservation, _) = self.orders.reservation(order).await?.ok_or(CheckoutError::UnknownPayment)?;
        if &reservation.draft.user != customer {
            return Err(CheckoutError::Forbidden);
        }
        Box::pin(self.settle(&reservation, payment)).await
    }

    /// The browser's report of a failed attempt: the stock goes back (a new Pay holds it again).
    ///
    /// # Errors
    /// [`CheckoutError::UnknownPayment`]; [`CheckoutError::Forbidden`]; [`CheckoutError::Unavailable`].
    pub async fn payment_failed(&self, customer: &UserId, order: &PaymentOrderId) -> Result<(), CheckoutError> {
        let (reservation, state) = self.orders.reservation(order).await?.ok_or(CheckoutError::UnknownPayment)?;
        if &reservation.draft.user != customer {
            return Err(CheckoutError::Forbidden);
        }
        metrics::counter!("marque_payments_total", "outcome" => "failed").increment(1);
        if state == ReservationState::Held {
            // Only a payment that has not gone through gives its stock back.
            self.orders.release(order).await?;
        }
        Ok(())
    }

    /// A provider webhook: checked, noted, acted on, and only then marked handled. A delivery of an
    /// event already handled is a duplicate; one whose handling failed or was cut short (a crash
    /// between noting and acting) is handled again when the provider retries it. Every effect is
    /// idempotent (placing answers the same order, a release happens once), so two deliveries
    /// handled at once do no harm.
    ///
    /// # Errors
    /// [`CheckoutError::BadSignature`]; [`CheckoutError::Unavailable`] (the provider retries).
    pub async fn webhook(
        &self,
        body: &[u8],
        signature: &str,
        event_id: Option<String>,
    ) -> Result<EventOutcome, CheckoutError> {
        let event = self.payments.read_webhook(body, signature, event_id)?;
        if self.orders.receive_event(&event.id, self.clock.now()).await? {
            return Ok(EventOutcome::Duplicate);
        }
        if let Some(probe) = &self.event_probe {
            probe();
        }
        let outcome = self.handle(event.kind).await?;
        if let Err(e) = self.orders.event_handled(&event.id, self.clock.now()).await {
            // The effect is done; a retry does it again, harmlessly.
            tracing::warn!(error = %e, event = %event.id, "a handled payment event could not be marked handled");
        }
        Ok(outcome)
    }

    /// Forgets provider events older than [`EVENT_KEEP_SECONDS`]; returns how many.
    ///
    /// # Errors
    /// [`CheckoutError::Unavailable`].
    pub async fn forget_old_events(&self) -> Result<usize, CheckoutError> {
        Ok(self.orders.forget_events_before(self.clock.now() - EVENT_KEEP_SECONDS).await?)
    }

    async fn handle(&self, kind: PaymentEventKind) -> Result<EventOutcome, CheckoutError> {
        match kind {
            // An authorization is captured by the shop; a capture is placed. Both go through
            // `settle`, which reads the payment from the provider itself.
            PaymentEventKind::Paid { order_id, payment_id, .. }
            | PaymentEventKind::Authorized { order_id, payment_id, .. } => {
                let Some((reservation, _)) = self.orders.reservation(&order_id).await? else {
                    return Ok(EventOutcome::Ignored);
                };
                match Box::pin(self.settle(&reservation, &payment_id)).await {
                    Ok(order) => Ok(EventOutcome::Placed(Box::new(order))),
                    Err(CheckoutError::NotPaid) => Ok(EventOutcome::Ignored),
                    Err(CheckoutError::Refunded) => Ok(EventOutcome::Refunded),
                    Err(e) => Err(e),
                }
            }
            PaymentEventKind::Failed { order_id, .. } => match self.orders.reservation(&order_id).await? {
                Some((_, ReservationState::Held)) => {
                    self.orders.release(&order_id).await?;
                    Ok(EventOutcome::Released)
                }
                _ => Ok(EventOutcome::Ignored),
            },
            PaymentEventKind::RefundProcessed { refund_id, .. } => {
                self.refund_news(&refund_id.0, RefundState::Processed).await
            }
            PaymentEventKind::RefundFailed { refund_id, .. } => {
                self.refund_news(&refund_id.0, RefundState::Failed).await
            }
            PaymentEventKind::Other { .. } => Ok(EventOutcome::Ignored),
        }
    }

    /// Records `refund.processed` / `refund.failed` on the shop's refund record.
    async fn refund_news(&self, refund_id: &str, state: RefundState) -> Result<EventOutcome, CheckoutError> {
        if self.orders.refund_status(refund_id, state, self.clock.now()).await? {
            if state == RefundState::Failed {
                tracing::error!(refund = %refund_id, "the provider could not make a refund: it is shown as failed on the order's admin page, where staff retry it");
            }
            Ok(EventOutcome::Recorded)
        } else {
            // A refund the shop did not make (from the provider's dashboard): nothing of ours to record.
            Ok(EventOutcome::Ignored)
        }
    }

    /// Asks the provider about every checkout of the last [`RECONCILE_WINDOW_SECONDS`] without an
    /// order, and places (or, when its stock is gone, refunds) each one paid: a payment whose
    /// browser report and webhooks were all lost still becomes an order or a refund.
    ///
    /// # Errors
    /// [`CheckoutError::Unavailable`] when the order store cannot be read; a checkout the provider
    /// cannot answer about is counted in [`Reconciled::failed`] and tried again next time.
    pub async fn reconcile(&self) -> Result<Reconciled, CheckoutError> {
        let mut done = Reconciled::default();
        for (reservation, _) in self.orders.unplaced_since(self.clock.now() - RECONCILE_WINDOW_SECONDS).await? {
            let order = &reservation.payment_order;
            if order.0.starts_with(STORE_CREDIT_ORDER_PREFIX) {
                // Paid by store credit alone: no provider order to ask about (placed at Pay, or lapsing).
                continue;
            }
            done.checked += 1;
            let payments = match self.payments.order_payments(order).await {
                Ok(payments) => payments,
                Err(e) => {
                    tracing::warn!(order = %order.0, error = %e, "reconciliation: the provider's payments of an order cannot be read");
                    done.failed += 1;
                    continue;
                }
            };
            // The captured payment first; else an authorized one (captured by settling it).
            let paid = payments
                .iter()
                .find(|p| p.state == PaymentState::Captured)
                .or_else(|| payments.iter().find(|p| p.state == PaymentState::Authorized));
            let Some(paid) = paid else { continue };
            match Box::pin(self.settle(&reservation, &paid.id)).await {
                Ok(_) => {
                    tracing::info!(order = %order.0, payment = %paid.id.0, "reconciliation: placed an order nobody had reported");
                    done.placed += 1;
                }
                Err(CheckoutError::Refunded) => done.refunded += 1,
                Err(CheckoutError::NotPaid) => {}
                Err(e) => {
                    tracing::warn!(order = %order.0, error = %e, "reconciliation: a paid checkout could not be settled now");
                    done.failed += 1;
                }
            }
        }
        Ok(done)
    }

    /// Places the order of `reservation` once `payment` is the shop's, in full: the payment as the
    /// provider reports it must be for this order, amount and currency; an authorized one is
    /// captured for the order's amount first, and only a captured payment is placed. When the hold
    /// had lapsed and the stock is gone, the payment is refunded instead ([`CheckoutError::Refunded`]).
    async fn settle(&self, reservation: &Reservation, payment: &PaymentId) -> Result<PlacedOrder, CheckoutError> {
        if let Some(refund) = self.orders.refund_of(payment).await? {
            // Refunded before: never placed (even if stock came back), the refund finished if it must.
            if refund.state == RefundState::Requested {
                Box::pin(self.refund(reservation, payment)).await?;
            }
            return Err(CheckoutError::Refunded);
        }
        let not_paid = |e: PaymentError| match e {
            PaymentError::Refused { .. } => CheckoutError::NotPaid,
            other => CheckoutError::from(other),
        };
        let mut paid = self.payments.payment(payment).await.map_err(not_paid)?;
        // The card pays what the store credit does not.
        let whole = paid.order_id == reservation.payment_order
            && paid.amount == reservation.draft.card_amount()
            && paid.currency == CURRENCY;
        if !whole {
            metrics::counter!("marque_payments_total", "outcome" => "not_paid").increment(1);
            return Err(CheckoutError::NotPaid);
        }
        if paid.state == PaymentState::Authorized {
            paid = self.payments.capture(payment, reservation.draft.card_amount()).await.map_err(not_paid)?;
        }
        if paid.state != PaymentState::Captured {
            metrics::counter!("marque_payments_total", "outcome" => "not_paid").increment(1);
            return Err(CheckoutError::NotPaid);
        }
        metrics::counter!("marque_payments_total", "outcome" => "captured").increment(1);
        match self.orders.place(&reservation.payment_order, payment, self.clock.now()).await {
            Ok(placement) => Ok(self.announce(placement)),
            Err(OrderStoreError::CreditShort) => {
                tracing::warn!(order = %reservation.payment_order.0, payment = %payment.0, "paid after the hold lapsed and its store credit is spent: refunding the card");
                Box::pin(self.refund(reservation, payment)).await?;
                Err(CheckoutError::Refunded)
            }
            Err(OrderStoreError::OutOfStock { product }) => {
                tracing::warn!(order = %reservation.payment_order.0, payment = %payment.0, product = %product.0, "paid after the hold lapsed and the stock is gone: refunding");
                Box::pin(self.refund(reservation, payment)).await?;
                Err(CheckoutError::Refunded)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Refunds `payment` in full for a checkout that found no stock, once: the shop's record is
    /// written first (a crash after it is finished by the next report or reconciliation), the
    /// provider's refund is idempotent by a key made of the payment id, and the customer is told
    /// when the provider accepts it.
    async fn refund(&self, reservation: &Reservation, payment: &PaymentId) -> Result<RefundRecord, CheckoutError> {
        let now = self.clock.now();
        let mut record = match self.orders.refund_of(payment).await? {
            Some(record) => record,
            None => {
                let record = RefundRecord {
                    payment: payment.clone(),
                    payment_order: reservation.payment_order.clone(),
                    user: reservation.draft.user.clone(),
                    amount: reservation.draft.card_amount(),
                    reason: REFUND_SOLD_OUT.to_owned(),
                    refund_id: None,
                    state: RefundState::Requested,
                    created_at: now,
                    updated_at: now,
                };
                self.orders.save_refund(&record).await?;
                record
            }
        };
        if record.state != RefundState::Requested {
            return Ok(record);
        }
        let notes = [
            ("reason".to_owned(), REFUND_SOLD_OUT.to_owned()),
            ("order".to_owned(), reservation.payment_order.0.clone()),
        ]
        .into_iter()
        .collect();
        let ask = NewRefund { amount: record.amount, idempotency_key: refund_key(payment), notes };
        let refund = self.payments.refund(payment, &ask).await?;
        record.refund_id = Some(refund.id.0.clone());
        record.state = match refund.status {
            RefundStatus::Pending => RefundState::Pending,
            RefundStatus::Processed => RefundState::Processed,
            RefundStatus::Failed => RefundState::Failed,
        };
        record.updated_at = self.clock.now();
        self.orders.save_refund(&record).await?;
        metrics::counter!("marque_refunds_total", "state" => record.state.code()).increment(1);
        tracing::info!(payment = %payment.0, refund = %refund.id.0, state = record.state.code(), "refunded a payment that found no stock");
        if let Some(listener) = self.placed.clone() {
            let told = record.clone();
            tokio::spawn(async move { listener.payment_refunded(&told).await });
        }
        Ok(record)
    }

    /// Gives back the stock of every hold that expired unpaid; returns how many.
    ///
    /// # Errors
    /// [`CheckoutError::Unavailable`].
    pub async fn release_expired(&self) -> Result<usize, CheckoutError> {
        let released = self.orders.release_expired(self.clock.now()).await?;
        metrics::counter!("marque_holds_total", "event" => "expired").increment(released as u64);
        Ok(released)
    }
}

/// One line per product, quantities of repeated products added up, in first-seen order.
fn merged(wanted: &[WantedLine]) -> Result<Vec<(ProductId, Quantity)>, CheckoutError> {
    let mut order = Vec::new();
    let mut totals: BTreeMap<ProductId, u32> = BTreeMap::new();
    for line in wanted {
        if line.quantity == 0 {
            return Err(CheckoutError::BadQuantity);
        }
        let sum = totals.entry(line.product.clone()).or_insert_with(|| {
            order.push(line.product.clone());
            0
        });
        *sum = sum.saturating_add(line.quantity);
    }
    order
        .into_iter()
        .map(|p| {
            let n = totals.get(&p).copied().unwrap_or(1);
            Quantity::new(n).map(|q| (p, q)).map_err(|_| CheckoutError::BadQuantity)
        })
        .collect()
}

/// The provider's idempotency key of the refund of `payment`: one refund per payment, whoever asks
/// and however often (10 to 64 characters of letters, digits, `-` and `_`).
fn refund_key(payment: &PaymentId) -> String {
    let clean: String =
        payment.0.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').take(50).collect();
    format!("refund-{clean:0>4}")
}

/// A new id for a checkout store credit pays wholly (no provider order): `credit_` and 24 random hex digits.
fn credit_order_id() -> Result<PaymentOrderId, CheckoutError> {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).map_err(|e| CheckoutError::Unavailable(format!("no randomness: {e}")))?;
    Ok(PaymentOrderId(format!("{STORE_CREDIT_ORDER_PREFIX}{}", hex::encode(bytes))))
}

/// The shop's reference on the provider's order (at most 40 characters).
fn receipt(user: &UserId, now: i64) -> String {
    let mut r = format!("{now}-{}", user.0);
    r.truncate(40);
    r
}

#[cfg(test)]
mod tests;
