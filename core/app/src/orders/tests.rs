//! `OrderService` over mocked ports: ownership, the invoice built from the order's snapshot,
//! pages of the history, and a confirmation that survives every failing port.

use std::sync::{Arc, Mutex};

use marque_domain::address::{Address, AddressInput};
use marque_domain::cart::Quantity;
use marque_domain::catalog::ProductId;
use marque_domain::invoice::{FinancialYear, InvoiceNumber};
use marque_domain::order::OrderLine;
use marque_domain::pricing::DiscountPercent;
use marque_domain::tax::{GstState, Gstin};
use marque_ports::{
    AccountStoreError, MockAccountStore, MockInvoiceRenderer, MockNotifier, MockOrderStore, NotifyError, OrderDraft,
    OrdersPage, PaymentId, PaymentOrderId, RenderError,
};

use super::*;

fn seller() -> Seller {
    Seller {
        legal_name: "Marque Parts Private Limited".into(),
        address_lines: vec!["Plot 14, Okhla Phase III".into(), "New Delhi 110020".into()],
        gstin: Gstin::parse("07AAKCM4821R1ZU").expect("valid"),
        state: GstState::by_name("Delhi").expect("a state"),
    }
}

fn address(state: &str) -> Address {
    Address::parse(&AddressInput {
        house_no: "12B".into(),
        city: "Pune".into(),
        state: state.into(),
        mobile_no: "9876543210".into(),
        pincode: "411001".into(),
        ..AddressInput::default()
    })
    .expect("a valid address")
}

/// Order `n` of customer `user`: two brake pads at ₹1,000, ₹100 delivery, to Maharashtra.
fn order(n: u32, user: &str) -> PlacedOrder {
    let lines = vec![OrderLine {
        product_id: ProductId("p1".into()),
        name: "Brake Pad Set".into(),
        quantity: Quantity::new(2).expect("≥ 1"),
        price: Money::from_rupees(1000),
        gst: 18,
        hsn: None,
        margin_scheme: None,
        warranty_days: None,
    }];
    PlacedOrder {
        id: OrderId(format!("o{n}")),
        order_number: format!("MQ-{n:06}"),
        invoice_number: InvoiceNumber::new(FinancialYear::starting(2026), n).expect("a serial"),
        draft: OrderDraft {
            user: UserId(user.into()),
            user_name: "Asha Rao".into(),
            lines,
            address: address("Maharashtra"),
            discount: DiscountPercent::new(0).expect("0"),
            discount_amount: Money::ZERO,
            delivery_charge: Money::from_rupees(100),
            total: Money::from_rupees(2100),
            store_credit: marque_domain::Money::ZERO,
        },
        payment_order: PaymentOrderId(format!("order_{n}")),
        payment: PaymentId(format!("pay_{n}")),
        // 2026-06-01 12:00 IST.
        created_at: 1_780_295_400,
        status: 1,
        status_text: "placed".into(),
        shipment: None,
    }
}

fn account(email: &str, mobile: &str) -> UserRecord {
    UserRecord {
        id: UserId("u1".into()),
        name: "Asha Rao".into(),
        email: email.into(),
        google_email: None,
        mobile: mobile.into(),
        password_hash: None,
        profile: String::new(),
        email_verified: true,
        mobile_verified: true,
        offer_ends_on: None,
        percentage: 0,
        created_at: 0,
    }
}

fn down() -> OrderStoreError {
    OrderStoreError::Unavailable { reason: "down".into() }
}

struct Ports {
    orders: MockOrderStore,
    accounts: MockAccountStore,
    renderer: MockInvoiceRenderer,
    notifier: MockNotifier,
    sms: bool,
}

impl Ports {
    fn new() -> Self {
        Self {
            orders: MockOrderStore::new(),
            accounts: MockAccountStore::new(),
            renderer: MockInvoiceRenderer::new(),
            notifier: MockNotifier::new(),
            sms: false,
        }
    }

    fn service(self) -> OrderService {
        let mut settings = OrderSettings::new(seller());
        settings.confirmation_sms = self.sms;
        OrderService::new(
            Arc::new(self.orders),
            Arc::new(self.accounts),
            Arc::new(self.renderer),
            Arc::new(self.notifier),
            settings,
        )
    }

    /// The store holds `order`; the renderer answers `%PDF` and keeps what it was given.
    fn holding(mut self, order: PlacedOrder) -> (Self, Arc<Mutex<Vec<TaxInvoice>>>) {
        self.orders.expect_order().returning(move |id| Ok((id == &order.id).then(|| order.clone())));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&seen);
        self.renderer.expect_render().returning(move |doc| {
            keep.lock().expect("lock").push(doc.clone());
            Ok(b"%PDF".to_vec())
        });
        (self, seen)
    }

    /// The notifier keeps every message.
    fn recording(mut self) -> (Self, Arc<Mutex<Vec<Notification>>>) {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&sent);
        self.notifier.expect_send().returning(move |n| {
            keep.lock().expect("lock").push(n.clone());
            Ok(())
        });
        (self, sent)
    }
}

fn u1() -> UserId {
    UserId("u1".into())
}

#[tokio::test]
async fn the_history_is_the_stores_and_a_failing_store_is_unavailable() {
    let mut ports = Ports::new();
    ports.orders.expect_orders_of().returning(|u| {
        if u.0 == "u1" {
            Ok(vec![order(2, "u1"), order(1, "u1")])
        } else {
            Err(down())
        }
    });
    let s = ports.service();
    let ids: Vec<String> = s.history(&u1()).await.expect("history").into_iter().map(|o| o.id.0).collect();
    assert_eq!(ids, ["o2", "o1"]);
    assert!(matches!(s.history(&UserId("u2".into())).await, Err(OrderError::Unavailable(_))));
}

#[tokio::test]
async fn the_history_comes_in_pages_of_twenty() {
    let mut ports = Ports::new();
    // The store is asked for the one page (offset, 20) and the total; the service turns them into pages.
    ports.orders.expect_orders_of().never();
    ports.orders.expect_orders_page().returning(|_, offset, limit| {
        let all: Vec<PlacedOrder> = (1..=45).rev().map(|n| order(n, "u1")).collect();
        let orders = all.iter().skip(offset as usize).take(limit as usize).cloned().collect();
        Ok(OrdersPage { orders, total: 45 })
    });
    let s = ports.service();
    let page = |n| Page::new(n).expect("a page");
    let first = s.history_page(&u1(), Page::FIRST).await.expect("page 1");
    assert_eq!((first.orders.len(), first.pages, first.orders[0].id.0.as_str()), (20, 3, "o45"));
    let last = s.history_page(&u1(), page(3)).await.expect("page 3");
    let ids: Vec<&str> = last.orders.iter().map(|o| o.id.0.as_str()).collect();
    assert_eq!(ids, ["o5", "o4", "o3", "o2", "o1"]);
    assert!(s.history_page(&u1(), page(4)).await.expect("page 4").orders.is_empty());
}

#[tokio::test]
async fn an_invoice_is_rendered_from_the_orders_snapshot_and_the_configured_seller() {
    let (ports, seen) = Ports::new().holding(order(7, "u1"));
    let pdf = ports.service().invoice_pdf(&u1(), &OrderId("o7".into())).await.expect("rendered");
    assert_eq!(pdf, b"%PDF");
    let docs = seen.lock().expect("lock");
    let doc = &docs[0];
    assert_eq!(doc.number().to_string(), "MQ/26-27/000007");
    assert_eq!((doc.buyer().name.as_str(), doc.place_of_supply().name), ("Asha Rao", "Maharashtra"));
    assert_eq!(doc.seller(), &seller());
    assert_eq!(Some(doc.date()), InvoiceDate::new(2026, 6, 1));
    assert_eq!(doc.invoice().total, Money::from_rupees(2100), "the total the customer paid");
}

#[tokio::test]
async fn another_customers_order_is_forbidden_and_an_unknown_one_not_found() {
    let mut ports = Ports::new();
    let theirs = order(3, "u2");
    ports.orders.expect_order().returning(move |id| Ok((id.0 == "o3").then(|| theirs.clone())));
    ports.renderer.expect_render().never();
    let s = ports.service();
    assert_eq!(s.invoice_pdf(&u1(), &OrderId("o3".into())).await, Err(OrderError::Forbidden));
    assert_eq!(s.invoice_pdf(&u1(), &OrderId("nope".into())).await, Err(OrderError::NotFound));
}

#[tokio::test]
async fn a_failing_store_or_renderer_is_reported() {
    let mut ports = Ports::new();
    ports.orders.expect_order().returning(|_| Err(down()));
    let s = ports.service();
    assert!(matches!(s.invoice_pdf(&u1(), &OrderId("o1".into())).await, Err(OrderError::Unavailable(_))));

    let mut ports = Ports::new();
    ports.orders.expect_order().returning(|_| Ok(Some(order(1, "u1"))));
    ports.renderer.expect_render().returning(|_| Err(RenderError::Failed { reason: "font".into() }));
    let s = ports.service();
    assert!(matches!(s.invoice_pdf(&u1(), &OrderId("o1".into())).await, Err(OrderError::InvoiceFailed(_))));
}

#[tokio::test]
async fn the_confirmation_emails_the_invoice_and_texts_the_mobile() {
    let (ports, _) = Ports::new().holding(order(42, "u1"));
    let (mut ports, sent) = ports.recording();
    ports.accounts.expect_user().returning(|_| Ok(Some(account("asha@example.in", "9876543210"))));
    ports.sms = true;
    ports.service().order_placed(&order(42, "u1")).await;
    let sent = sent.lock().expect("lock");
    assert_eq!(sent.len(), 2, "{sent:?}");
    let email = &sent[0];
    assert_eq!((email.channel, email.recipient.as_str()), (Channel::Email, "asha@example.in"));
    assert!(email.subject.starts_with("Order Confirmed"), "{}", email.subject);
    for needle in ["Order Confirmed", "MQ-000042", "MQ/26-27/000042", "Brake Pad Set × 2", "₹2,000.00", "₹2,100.00"]
    {
        assert!(email.text.contains(needle), "{needle} in {}", email.text);
    }
    let attached: Vec<(&str, &str, &[u8])> =
        email.attachments.iter().map(|a| (a.filename.as_str(), a.content_type.as_str(), a.bytes.as_slice())).collect();
    assert_eq!(attached, [("invoice.pdf", "application/pdf", b"%PDF".as_slice())]);
    let sms = &sent[1];
    assert_eq!(
        (sms.channel, sms.recipient.as_str(), sms.template.as_deref()),
        (Channel::Sms, "9876543210", Some("order-placed"))
    );
    assert!(sms.text.contains("MQ-000042") && sms.text.contains("₹2,100.00"), "{}", sms.text);
    assert!(sms.attachments.is_empty());
}

#[tokio::test]
async fn no_email_no_email_and_no_sms_channel_no_sms() {
    let (mut ports, sent) = Ports::new().recording();
    ports.accounts.expect_user().returning(|_| Ok(Some(account("", "9876543210"))));
    ports.renderer.expect_render().never();
    ports.service().order_placed(&order(1, "u1")).await;
    assert!(sent.lock().expect("lock").is_empty());
}

#[tokio::test]
async fn a_google_account_is_emailed_at_its_google_address() {
    let (ports, _) = Ports::new().holding(order(1, "u1"));
    let (mut ports, sent) = ports.recording();
    let google = UserRecord { google_email: Some("asha@gmail.com".into()), ..account("", "") };
    ports.accounts.expect_user().returning(move |_| Ok(Some(google.clone())));
    ports.sms = true;
    ports.service().order_placed(&order(1, "u1")).await;
    let recipients: Vec<String> = sent.lock().expect("lock").iter().map(|n| n.recipient.clone()).collect();
    assert_eq!(recipients, ["asha@gmail.com"], "no mobile, no SMS");
}

#[tokio::test]
async fn a_failing_renderer_sends_the_email_without_its_invoice() {
    let (mut ports, sent) = Ports::new().recording();
    ports.accounts.expect_user().returning(|_| Ok(Some(account("asha@example.in", ""))));
    ports.renderer.expect_render().returning(|_| Err(RenderError::Failed { reason: "font".into() }));
    ports.service().order_placed(&order(1, "u1")).await;
    let sent = sent.lock().expect("lock");
    assert_eq!(sent.len(), 1);
    assert!(sent[0].attachments.is_empty() && !sent[0].text.contains("attached"), "{}", sent[0].text);
}

#[tokio::test]
async fn failing_accounts_or_notifier_never_fail_the_caller() {
    let mut ports = Ports::new();
    ports.accounts.expect_user().returning(|_| Err(AccountStoreError::Unavailable { reason: "down".into() }));
    ports.notifier.expect_send().never();
    ports.service().order_placed(&order(1, "u1")).await;

    let (mut ports, _) = Ports::new().holding(order(1, "u1"));
    ports.accounts.expect_user().returning(|_| Ok(Some(account("asha@example.in", "9876543210"))));
    ports.notifier.expect_send().times(2).returning(|_| Err(NotifyError::Unavailable { reason: "down".into() }));
    ports.sms = true;
    let placed: &dyn OrderPlaced = &ports.service();
    placed.order_placed(&order(1, "u1")).await;
}
