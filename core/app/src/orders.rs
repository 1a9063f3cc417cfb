//! Placed orders: the customer's purchase history, the GST tax invoice of each order as a PDF, and
//! the order confirmation (an email with the invoice attached, and a short SMS).
//!
//! An invoice is built from the order's own snapshot (lines, prices, GST, address, discount and
//! delivery as they were when the customer paid) and the seller from configuration; nothing is
//! read from today's catalog, so the same order always prints the same invoice.

use std::sync::Arc;

use marque_domain::catalog::Page;
use marque_domain::invoice::{Buyer, InvoiceDate, Seller, TaxInvoice, TaxInvoiceInput};
use marque_domain::order::HISTORY_PAGE_SIZE;
use marque_domain::Money;
use marque_ports::{
    AccountStore, Attachment, Channel, InvoiceRenderer, Notification, Notifier, OrderId, OrderStore, OrderStoreError,
    PlacedOrder, RefundRecord, UserId, UserRecord,
};

/// The name an invoice is saved and attached under.
pub const INVOICE_FILENAME: &str = "invoice.pdf";
/// The SMS template (an SMS gateway's registered text) of the order confirmation.
pub const ORDER_PLACED_SMS_TEMPLATE: &str = "order-placed";

/// The SMS template of the refund of a payment that found no stock.
pub const PAYMENT_REFUNDED_SMS_TEMPLATE: &str = "payment-refunded";

/// Told once an order is placed; the checkout calls it after the payment is confirmed.
#[async_trait::async_trait]
pub trait OrderPlaced: Send + Sync {
    /// Lets the customer know. Best effort: it never fails the caller.
    async fn order_placed(&self, order: &PlacedOrder);

    /// Lets the customer know their payment was refunded because no order could be placed for it
    /// (the stock sold out after their hold lapsed). Best effort; by default nothing is sent.
    async fn payment_refunded(&self, _refund: &RefundRecord) {}
}

/// Why an order use case failed. Each maps to one HTTP status in the API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    /// No order has this id (404).
    #[error("no such order")]
    NotFound,
    /// The order is another customer's (403).
    #[error("the order is another customer's")]
    Forbidden,
    /// The invoice could not be made: a renderer fault, or an address outside India's GST states (500).
    #[error("the invoice could not be made: {0}")]
    InvoiceFailed(String),
    /// The order store cannot be reached (503).
    #[error("the orders are unavailable: {0}")]
    Unavailable(String),
}

impl From<OrderStoreError> for OrderError {
    fn from(e: OrderStoreError) -> Self {
        OrderError::Unavailable(e.to_string())
    }
}

/// Who sells and how the confirmation goes out.
#[derive(Debug, Clone)]
pub struct OrderSettings {
    /// The shop as its invoices name it.
    pub seller: Seller,
    /// The trading name, signing the confirmation.
    pub shop_name: String,
    /// Whether the confirmation also goes by SMS (an SMS channel with the order template is configured).
    pub confirmation_sms: bool,
    /// Whether a refund notice also goes by SMS (an SMS channel with the refund template is configured).
    pub refund_sms: bool,
}

impl OrderSettings {
    /// The seller, signed as `Marque Parts`, confirmation by email only.
    #[must_use]
    pub fn new(seller: Seller) -> Self {
        Self { seller, shop_name: "Marque Parts".to_owned(), confirmation_sms: false, refund_sms: false }
    }
}

/// One page of a customer's orders, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryPage {
    pub orders: Vec<PlacedOrder>,
    pub page: Page,
    /// How many pages the whole history fills (0 when there are no orders).
    pub pages: u64,
}

/// The purchase history, the invoices and the order confirmation.
#[derive(Clone)]
pub struct OrderService {
    orders: Arc<dyn OrderStore>,
    accounts: Arc<dyn AccountStore>,
    renderer: Arc<dyn InvoiceRenderer>,
    notifier: Arc<dyn Notifier>,
    settings: Arc<OrderSettings>,
}

impl std::fmt::Debug for OrderService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OrderService").field("settings", &self.settings).finish_non_exhaustive()
    }
}

/// The GST tax invoice of a placed order: its snapshot, sold by `seller`, dated the day it was
/// placed (in India), supplied to the delivery address's state.
#[must_use]
pub fn tax_invoice(seller: &Seller, order: &PlacedOrder) -> TaxInvoice {
    let draft = &order.draft;
    let buyer = Buyer::at(&draft.user_name, &draft.address);
    let doc = TaxInvoice::build(TaxInvoiceInput {
        seller: seller.clone(),
        buyer,
        number: order.invoice_number,
        date: InvoiceDate::at_unix_seconds(order.created_at),
        lines: &draft.lines,
        discount: draft.discount,
        delivery_charge: draft.delivery_charge,
    })
    .with_store_credit(draft.store_credit);
    if doc.invoice().total != draft.total {
        // Both come from the same pricing rules; a difference means the rules changed under a stored order.
        tracing::warn!(order = %order.id.0, invoice = %doc.invoice().total.to_the_paisa(), paid = %draft.total.to_the_paisa(), "the invoice total differs from the total paid");
    }
    doc
}

fn rupees(amount: Money) -> String {
    format!("₹{}", amount.to_the_paisa())
}

/// The confirmation email's text: the order and invoice numbers, each line, the charges and the total.
fn confirmation_text(order: &PlacedOrder, shop_name: &str, attached: bool) -> String {
    let draft = &order.draft;
    let mut text = format!(
        "Order Confirmed\n\nThank you for your order, {}.\n\nOrder number: {}\nInvoice number: {}\n\n",
        draft.user_name.trim(),
        order.order_number,
        order.invoice_number
    );
    for line in &draft.lines {
        text.push_str(&format!(
            "{} × {} @ {} = {}\n",
            line.name,
            line.quantity.get(),
            rupees(line.price),
            rupees(line.amount())
        ));
    }
    text.push_str(&format!("\nDelivery charge (18% inc. GST): {}\n", rupees(draft.delivery_charge)));
    if draft.discount_amount != Money::ZERO {
        text.push_str(&format!("Discount ({}%): -{}\n", draft.discount.get(), rupees(draft.discount_amount)));
    }
    text.push_str(&format!("Total paid (inc. GST): {}\n\n", rupees(draft.total)));
    if attached {
        text.push_str(&format!("Your GST tax invoice is attached ({INVOICE_FILENAME}).\n"));
    }
    text.push_str(&format!("You can view and download it any time under Purchase History.\n\n{shop_name}\n"));
    text
}

/// Where the customer reads email: the account's address, else the Google account's.
fn email_of(user: &UserRecord) -> Option<String> {
    let email = user.email.trim();
    let email = if email.is_empty() { user.google_email.as_deref().map(str::trim).unwrap_or_default() } else { email };
    (!email.is_empty()).then(|| email.to_owned())
}

impl OrderService {
    #[must_use]
    pub fn new(
        orders: Arc<dyn OrderStore>,
        accounts: Arc<dyn AccountStore>,
        renderer: Arc<dyn InvoiceRenderer>,
        notifier: Arc<dyn Notifier>,
        settings: OrderSettings,
    ) -> Self {
        Self { orders, accounts, renderer, notifier, settings: Arc::new(settings) }
    }

    /// The customer's orders, newest first.
    ///
    /// # Errors
    /// [`OrderError::Unavailable`].
    pub async fn history(&self, user: &UserId) -> Result<Vec<PlacedOrder>, OrderError> {
        Ok(self.orders.orders_of(user).await?)
    }

    /// One page of [`OrderService::history`], [`HISTORY_PAGE_SIZE`] orders a page; a page past
    /// the last is empty.
    ///
    /// # Errors
    /// [`OrderError::Unavailable`].
    pub async fn history_page(&self, user: &UserId, page: Page) -> Result<HistoryPage, OrderError> {
        let found = self.orders.orders_page(user, page.offset(HISTORY_PAGE_SIZE), u64::from(HISTORY_PAGE_SIZE)).await?;
        Ok(HistoryPage { orders: found.orders, page, pages: Page::count(found.total, HISTORY_PAGE_SIZE) })
    }

    /// The GST tax invoice of the customer's order, as PDF bytes (the same bytes every time).
    ///
    /// # Errors
    /// [`OrderError::NotFound`]; [`OrderError::Forbidden`] when the order is another customer's;
    /// [`OrderError::InvoiceFailed`]; [`OrderError::Unavailable`].
    pub async fn invoice_pdf(&self, user: &UserId, order: &OrderId) -> Result<Vec<u8>, OrderError> {
        let order = self.orders.order(order).await?.ok_or(OrderError::NotFound)?;
        if order.draft.user != *user {
            return Err(OrderError::Forbidden);
        }
        self.render(&order).await
    }

    /// Builds and renders the invoice on a blocking thread (rendering is CPU work).
    async fn render(&self, order: &PlacedOrder) -> Result<Vec<u8>, OrderError> {
        let doc = tax_invoice(&self.settings.seller, order);
        let renderer = Arc::clone(&self.renderer);
        tokio::task::spawn_blocking(move || renderer.render(&doc))
            .await
            .map_err(|e| OrderError::InvoiceFailed(format!("the rendering task ended: {e}")))?
            .map_err(|e| OrderError::InvoiceFailed(e.to_string()))
    }

    /// Emails the customer an 'Order Confirmed' message with the order's lines and total and the
    /// invoice attached (skipped when the account has no email), and sends a short SMS to the
    /// account's mobile when [`OrderSettings::confirmation_sms`] is on. Best effort: every failure
    /// is logged; an invoice that cannot be rendered leaves the email without its attachment.
    pub async fn order_placed(&self, order: &PlacedOrder) {
        let user = match self.accounts.user(&order.draft.user).await {
            Ok(Some(user)) => user,
            Ok(None) => {
                tracing::warn!(order = %order.id.0, "order confirmation: the customer's account is gone");
                return;
            }
            Err(e) => {
                tracing::warn!(order = %order.id.0, error = %e, "order confirmation: the account cannot be read");
                return;
            }
        };
        if let Some(email) = email_of(&user) {
            let attachments = match self.render(order).await {
                Ok(bytes) => vec![Attachment {
                    filename: INVOICE_FILENAME.to_owned(),
                    content_type: "application/pdf".to_owned(),
                    bytes,
                }],
                Err(e) => {
                    tracing::error!(order = %order.id.0, error = %e, "order confirmation: sent without its invoice");
                    Vec::new()
                }
            };
            let text = confirmation_text(order, &self.settings.shop_name, !attachments.is_empty());
            self.send(
                order,
                Notification {
                    channel: Channel::Email,
                    recipient: email,
                    subject: format!("Order Confirmed: {} - {}", order.order_number, self.settings.shop_name),
                    text,
                    template: None,
                    attachments,
                },
            )
            .await;
        }
        if self.settings.confirmation_sms && !user.mobile.trim().is_empty() {
            let text = format!(
                "Order {} confirmed: {} paid. Thank you for shopping with {}.",
                order.order_number,
                rupees(order.draft.total),
                self.settings.shop_name
            );
            self.send(
                order,
                Notification {
                    channel: Channel::Sms,
                    recipient: user.mobile.trim().to_owned(),
                    subject: String::new(),
                    text,
                    template: Some(ORDER_PLACED_SMS_TEMPLATE.to_owned()),
                    attachments: Vec::new(),
                },
            )
            .await;
        }
    }

    async fn send(&self, order: &PlacedOrder, notification: Notification) {
        if let Err(e) = self.notifier.send(&notification).await {
            tracing::warn!(order = %order.id.0, channel = ?notification.channel, error = %e, "order confirmation not sent");
        }
    }
}

/// The refund notice's text: what was paid, that it was refunded, and when it arrives.
fn refund_text(refund: &RefundRecord, name: &str, shop_name: &str) -> String {
    format!(
        "Payment refunded\n\nDear {},\n\nThe part you paid for sold out while your payment was on its way, so no order \
         was placed. We have refunded your payment of {} in full; it reaches your account in 5-7 working days.\n\n\
         Payment: {}\nRefund: {}\n\nWe are sorry for the trouble.\n\n{shop_name}\n",
        name.trim(),
        rupees(refund.amount),
        refund.payment.0,
        refund.refund_id.as_deref().unwrap_or("requested"),
    )
}

impl OrderService {
    /// Emails the customer that their payment was refunded (no order could be placed: the stock sold
    /// out after their hold lapsed), and sends an SMS when [`OrderSettings::refund_sms`] is on. Best
    /// effort: every failure is logged.
    pub async fn payment_refunded(&self, refund: &RefundRecord) {
        let user = match self.accounts.user(&refund.user).await {
            Ok(Some(user)) => user,
            Ok(None) => {
                return tracing::warn!(payment = %refund.payment.0, "refund notice: the customer's account is gone")
            }
            Err(e) => {
                return tracing::warn!(payment = %refund.payment.0, error = %e, "refund notice: the account cannot be read")
            }
        };
        let shop = &self.settings.shop_name;
        let mut notices = Vec::new();
        if let Some(email) = email_of(&user) {
            notices.push(Notification {
                channel: Channel::Email,
                recipient: email,
                subject: format!("Payment refunded - {shop}"),
                text: refund_text(refund, &user.name, shop),
                template: None,
                attachments: Vec::new(),
            });
        }
        if self.settings.refund_sms && !user.mobile.trim().is_empty() {
            notices.push(Notification {
                channel: Channel::Sms,
                recipient: user.mobile.trim().to_owned(),
                subject: String::new(),
                text: format!(
                    "{shop}: the part sold out before your payment arrived, so your payment of {} was refunded in full. It reaches your account in 5-7 working days.",
                    rupees(refund.amount)
                ),
                template: Some(PAYMENT_REFUNDED_SMS_TEMPLATE.to_owned()),
                attachments: Vec::new(),
            });
        }
        for notice in notices {
            if let Err(e) = self.notifier.send(&notice).await {
                tracing::warn!(payment = %refund.payment.0, channel = ?notice.channel, error = %e, "refund notice not sent");
            }
        }
    }
}

#[async_trait::async_trait]
impl OrderPlaced for OrderService {
    async fn order_placed(&self, order: &PlacedOrder) {
        OrderService::order_placed(self, order).await;
    }

    async fn payment_refunded(&self, refund: &RefundRecord) {
        OrderService::payment_refunded(self, refund).await;
    }
}

#[cfg(test)]
mod tests;
