//! `ReturnsService` over mocked ports: ownership before anything is read further, the window from
//! the delivery in the timeline, the roles first, and a store-credit resolution granting the units'
//! refund value to the order's customer with the move.

use marque_domain::address::{Address, AddressInput};
use marque_domain::invoice::{FinancialYear, InvoiceNumber};
use marque_domain::staff::{StaffId, StaffRole};
use marque_ports::{
    MockBlobStore, MockCatalogEditor, MockOrderDesk, MockOrderStore, MockPaymentGateway, MockPhotoEncoder,
    MockReturnStore, OrderEvent, PlacedOrder,
};

use super::*;

struct Fixed(i64);

impl Clock for Fixed {
    fn now(&self) -> i64 {
        self.0
    }
}

const NOW: i64 = 1_780_295_400;
const DAY: i64 = 86_400;

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "ravi@marque.test".into(), name: "Ravi".into(), role }
}

fn seller() -> Seller {
    Seller {
        legal_name: "Marque Parts Private Limited".into(),
        address_lines: vec!["Plot 14, Okhla Phase III".into(), "New Delhi 110020".into()],
        gstin: marque_domain::tax::Gstin::parse("07AAKCM4821R1ZU").expect("valid"),
        state: marque_domain::tax::GstState::by_name("Delhi").expect("a state"),
    }
}

fn line(product: &str, price: i64, quantity: u32) -> OrderLine {
    OrderLine {
        product_id: ProductId(product.into()),
        name: format!("Part {product}"),
        quantity: Quantity::new(quantity).expect("≥1"),
        price: Money::from_paise(price),
        gst: 18,
        hsn: None,
        margin_scheme: None,
        warranty_days: None,
    }
}

/// u1's order of 2 × ₹1,000 (a) and 1 × ₹500 (b), 10 % off, delivered `delivered_ago` seconds ago.
fn delivered(delivered_ago: i64) -> AdminOrder {
    let address = Address::parse(&AddressInput {
        house_no: "12B".into(),
        city: "New Delhi".into(),
        state: "Delhi".into(),
        mobile_no: "9876543210".into(),
        pincode: "110001".into(),
        ..AddressInput::default()
    })
    .expect("an address");
    let event = |status: OrderStatus, at: i64| OrderEvent {
        at,
        actor: "s2".into(),
        actor_label: "meera@marque.test".into(),
        action: "order.status".into(),
        status,
        shipment: None,
    };
    AdminOrder {
        order: PlacedOrder {
            id: OrderId("o1".into()),
            order_number: "MQ-000001".into(),
            invoice_number: InvoiceNumber::first(FinancialYear::starting(2026)),
            draft: OrderDraft {
                user: UserId("u1".into()),
                user_name: "Asha".into(),
                lines: vec![line("a", 100_000, 2), line("b", 50_000, 1)],
                address,
                discount: DiscountPercent::new(10).expect("10"),
                discount_amount: Money::from_paise(25_000),
                delivery_charge: Money::from_paise(10_000),
                total: Money::from_paise(235_000),
                store_credit: Money::ZERO,
            },
            payment_order: PaymentOrderId("order_1".into()),
            payment: PaymentId("pay_1".into()),
            created_at: NOW - 30 * DAY,
            status: 5,
            status_text: "delivered".into(),
            shipment: None,
        },
        version: 4,
        timeline: vec![
            event(OrderStatus::Confirmed, NOW - 29 * DAY),
            event(OrderStatus::Delivered, NOW - delivered_ago),
        ],
        customer_email: Some("asha@example.in".into()),
        customer_mobile: None,
        customer_language: None,
        refunds: Vec::new(),
    }
}

struct Mocks {
    returns: MockReturnStore,
    desk: MockOrderDesk,
    catalog: MockCatalogEditor,
}

impl Mocks {
    fn new() -> Self {
        Self { returns: MockReturnStore::new(), desk: MockOrderDesk::new(), catalog: MockCatalogEditor::new() }
    }

    fn service(self) -> ReturnsService {
        let desk: Arc<dyn OrderDesk> = Arc::new(self.desk);
        let refunds =
            RefundsService::new(desk.clone(), Arc::new(MockPaymentGateway::new()), Arc::new(Fixed(NOW)), seller());
        ReturnsService::new(
            ReturnsPorts {
                returns: Arc::new(self.returns),
                desk,
                orders: Arc::new(MockOrderStore::new()),
                catalog: Arc::new(self.catalog),
                encoder: Arc::new(MockPhotoEncoder::new()),
                blobs: Arc::new(MockBlobStore::new()),
                clock: Arc::new(Fixed(NOW)),
            },
            refunds,
            seller(),
        )
    }
}

fn asked(quantity: i64) -> ReturnRequestInput {
    ReturnRequestInput {
        order: "o1".into(),
        product: "a".into(),
        quantity,
        reason: "The disc is warped out of the box".into(),
        photos: Vec::new(),
    }
}

#[tokio::test]
async fn another_customers_order_answers_as_a_missing_one_and_nothing_is_stored() {
    let mut m = Mocks::new();
    m.desk.expect_order().returning(|_| Ok(Some(delivered(DAY))));
    m.returns.expect_request().never();
    let refused = m.service().request(&UserId("u2".into()), asked(1)).await;
    assert_eq!(refused, Err(ReturnsError::OrderNotFound));
}

#[tokio::test]
async fn the_window_is_the_products_warranty_days_after_the_delivery_in_the_timeline() {
    // A product gone from the catalog counts 7 days: delivered 8 days ago is too late.
    let mut m = Mocks::new();
    m.desk.expect_order().returning(|_| Ok(Some(delivered(8 * DAY))));
    m.catalog.expect_product().returning(|_| Ok(None));
    m.returns.expect_request().never();
    let refused = m.service().request(&UserId("u1".into()), asked(1)).await;
    assert_eq!(refused, Err(ReturnsError::Refused(ReturnError::WindowClosed)));

    // Delivered 6 days ago: open; the units left are what was bought less what other returns hold.
    let mut m = Mocks::new();
    m.desk.expect_order().returning(|_| Ok(Some(delivered(6 * DAY))));
    m.catalog.expect_product().returning(|_| Ok(None));
    m.returns.expect_returns_of_order().returning(|_| Ok(Vec::new()));
    let refused = m.service().request(&UserId("u1".into()), asked(3)).await;
    assert_eq!(refused, Err(ReturnsError::Refused(ReturnError::QuantityAboveLeft { left: 2 })));
}

#[tokio::test]
async fn a_line_that_kept_its_warranty_days_is_returned_within_them_whatever_the_product_says_now() {
    use marque_domain::catalog::WarrantyDays;
    // Bought with 10 days of warranty, delivered 8 days ago: open, and the catalog is not asked
    // (the product has 2 days now, or is gone).
    let kept = |delivered_ago: i64| {
        let mut order = delivered(delivered_ago);
        order.order.draft.lines[0].warranty_days = Some(WarrantyDays::new(10).expect("2 to 15"));
        order
    };
    let mut m = Mocks::new();
    m.desk.expect_order().returning(move |_| Ok(Some(kept(8 * DAY))));
    m.catalog.expect_product().never();
    m.returns.expect_returns_of_order().returning(|_| Ok(Vec::new()));
    let refused = m.service().request(&UserId("u1".into()), asked(3)).await;
    assert_eq!(
        refused,
        Err(ReturnsError::Refused(ReturnError::QuantityAboveLeft { left: 2 })),
        "the window is open: only the units are refused"
    );

    // Eleven days after the delivery it is closed.
    let mut m = Mocks::new();
    m.desk.expect_order().returning(move |_| Ok(Some(kept(11 * DAY))));
    m.catalog.expect_product().never();
    m.returns.expect_request().never();
    let refused = m.service().request(&UserId("u1".into()), asked(1)).await;
    assert_eq!(refused, Err(ReturnsError::Refused(ReturnError::WindowClosed)));
}

fn received(id: &str) -> ProductReturn {
    ProductReturn {
        id: id.into(),
        order: OrderId("o1".into()),
        order_number: "MQ-000001".into(),
        customer: UserId("u1".into()),
        product: ProductId("a".into()),
        product_name: "Part a".into(),
        quantity: 1,
        reason: "The disc is warped out of the box".into(),
        photos: Vec::new(),
        delivered_at: NOW - DAY,
        warranty_days: 7,
        state: ReturnState::Received,
        note: None,
        resolution_note: None,
        outcome: None,
        restock: false,
        amount: None,
        refund: None,
        replacement_order: None,
        created_at: NOW - 3_600,
        updated_at: NOW - 60,
        handled_by: None,
        version: 2,
    }
}

#[tokio::test]
async fn the_catalog_role_is_refused_before_anything_is_read() {
    let m = Mocks::new();
    let input = ResolveInput { outcome: "storeCredit".into(), restock: false, note: None };
    let refused = m.service().resolve(&staff(StaffRole::Catalog), "r1", 2, "key-00001", &input).await;
    assert!(matches!(refused, Err(ReturnsError::Forbidden(_))), "{refused:?}");
}

#[tokio::test]
async fn store_credit_grants_the_units_refund_value_to_the_orders_customer_with_the_move() {
    let mut m = Mocks::new();
    m.returns.expect_product_return().returning(|id| Ok(Some(received(id))));
    m.desk.expect_order().returning(|_| Ok(Some(delivered(DAY))));
    // One unit of ₹1,000 with its share of the 10 % discount (₹250 over ₹2,500 of items): ₹900.
    m.returns
        .expect_change()
        .withf(|id, version, change, credit, audit, notices| {
            let grant = credit.as_ref().expect("a grant");
            id == "r1"
                && *version == 2
                && change.to == ReturnState::Resolved
                && change.outcome == Some(ReturnOutcome::StoreCredit)
                && change.amount == Some(Money::from_paise(90_000))
                && grant.customer == UserId("u1".into())
                && grant.grant.amount == Money::from_paise(90_000)
                && grant.grant.remaining == grant.grant.amount
                && grant.grant.source.key() == "return:r1"
                && audit.action == ACTION_RESOLVE
                && notices.iter().all(|n| n.kind == marque_domain::order::NoticeKind::ReturnResolved)
                && !notices.is_empty()
        })
        .times(1)
        .returning(|id, _, change, _, _, _| {
            Ok(ProductReturn {
                state: change.to,
                outcome: change.outcome,
                amount: change.amount,
                version: 3,
                ..received(id)
            })
        });
    let input = ResolveInput { outcome: "storeCredit".into(), restock: false, note: Some("Fine".into()) };
    let done =
        m.service().resolve(&staff(StaffRole::Fulfilment), "r1", 2, "key-00001", &input).await.expect("resolved");
    assert_eq!((done.replayed, done.product_return.amount), (false, Some(Money::from_paise(90_000))));
}

#[tokio::test]
async fn a_resolution_repeated_after_it_was_made_writes_nothing_more() {
    let mut m = Mocks::new();
    m.returns.expect_product_return().returning(|id| {
        Ok(Some(ProductReturn {
            state: ReturnState::Resolved,
            outcome: Some(ReturnOutcome::StoreCredit),
            version: 3,
            ..received(id)
        }))
    });
    m.returns.expect_change().never();
    let input = ResolveInput { outcome: "storeCredit".into(), restock: false, note: None };
    let done = m.service().resolve(&staff(StaffRole::Owner), "r1", 2, "key-00001", &input).await.expect("answered");
    assert!(done.replayed);
    let other = ResolveInput { outcome: "replacement".into(), restock: false, note: None };
    let mut m = Mocks::new();
    m.returns.expect_product_return().returning(|id| {
        Ok(Some(ProductReturn {
            state: ReturnState::Resolved,
            outcome: Some(ReturnOutcome::StoreCredit),
            version: 3,
            ..received(id)
        }))
    });
    let refused = m.service().resolve(&staff(StaffRole::Owner), "r1", 3, "key-00002", &other).await;
    assert_eq!(refused, Err(ReturnsError::Refused(ReturnError::IllegalMove { from: ReturnState::Resolved })));
}
