use marque_domain::address::{Address, AddressInput};
use marque_domain::invoice::{FinancialYear, InvoiceNumber};
use marque_domain::pricing::DiscountPercent;
use marque_domain::staff::{StaffId, StaffRole};
use marque_domain::Money;
use marque_ports::{MockOrderDesk, OrderDraft, PaymentId, PaymentOrderId, PlacedOrder, StatusCounts, UserId};

use super::*;

struct Fixed(i64);

impl Clock for Fixed {
    fn now(&self) -> i64 {
        self.0
    }
}

const NOW: i64 = 1_780_295_400;

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "ravi@marque.test".into(), name: "Ravi".into(), role }
}

fn service(desk: MockOrderDesk) -> AdminOrdersService {
    AdminOrdersService::new(Arc::new(desk), Arc::new(Fixed(NOW)))
}

fn o1() -> OrderId {
    OrderId("o1".into())
}

fn stored(status: OrderStatus, shipment: Option<Shipment>, version: u64) -> AdminOrder {
    let address = Address::parse(&AddressInput {
        house_no: "12B".into(),
        city: "New Delhi".into(),
        state: "Delhi".into(),
        mobile_no: "9876543210".into(),
        pincode: "110001".into(),
        ..AddressInput::default()
    })
    .expect("an address");
    AdminOrder {
        order: PlacedOrder {
            id: o1(),
            order_number: "MQ-000001".into(),
            invoice_number: InvoiceNumber::first(FinancialYear::starting(2026)),
            draft: OrderDraft {
                user: UserId("u1".into()),
                user_name: "Asha".into(),
                lines: Vec::new(),
                address,
                discount: DiscountPercent::new(0).expect("0"),
                discount_amount: Money::ZERO,
                delivery_charge: Money::ZERO,
                total: Money::ZERO,
                store_credit: marque_domain::Money::ZERO,
            },
            payment_order: PaymentOrderId("order_1".into()),
            payment: PaymentId("pay_1".into()),
            created_at: NOW - 3_600,
            status: u8::try_from(status.number()).expect("1-6"),
            status_text: status.status_string().into(),
            shipment,
        },
        version,
        timeline: Vec::new(),
        customer_email: None,
        customer_mobile: None,
        customer_language: None,
        refunds: Vec::new(),
    }
}

/// An audit value read as JSON (the order of its keys is not the contract).
fn json(text: &Option<String>) -> serde_json::Value {
    text.as_deref().and_then(|t| serde_json::from_str(t).ok()).unwrap_or_default()
}

fn ship(courier: &str, awb: &str, url: Option<&str>) -> FulfilmentInput {
    FulfilmentInput {
        status: Some(4),
        courier: Some(courier.into()),
        awb: Some(awb.into()),
        tracking_url: url.map(str::to_owned),
    }
}

fn to(status: i64) -> FulfilmentInput {
    FulfilmentInput { status: Some(status), ..FulfilmentInput::default() }
}

#[tokio::test]
async fn a_catalog_role_is_refused_before_anything_is_read_or_checked() {
    let mut desk = MockOrderDesk::new();
    desk.expect_orders().never();
    desk.expect_order().never();
    desk.expect_update_fulfilment().never();
    let s = service(desk);
    let catalog = staff(StaffRole::Catalog);
    let forbidden = |r: Result<(), AdminOrderError>| {
        assert!(matches!(r, Err(AdminOrderError::Forbidden(_))), "{r:?}");
        assert_eq!(r.map_err(|e| e.message()), Err(Message::StaffForbidden));
    };
    let nonsense = OrderFilters { status: Some(99), ..OrderFilters::default() };
    forbidden(s.list(&catalog, &nonsense).await.map(drop));
    forbidden(s.order(&catalog, &o1()).await.map(drop));
    forbidden(s.change(&catalog, &o1(), 0, &to(99)).await.map(drop));
}

#[tokio::test]
async fn a_move_is_checked_by_the_rules_and_written_on_the_version_read_with_its_entry() {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(|_| Ok(Some(stored(OrderStatus::Packed, None, 2))));
    desk.expect_update_fulfilment()
        .withf(|id, version, to, audit, _| {
            id.0 == "o1"
                && *version == 2
                && to.status == OrderStatus::Shipped
                && to.shipment.as_ref().map(|s| s.tracking_link()).as_deref()
                    == Some("https://www.delhivery.com/track/package/1234567890")
                && audit.action == "order.status"
                && audit.subject == "order:o1"
                && audit.at == NOW
                && audit.actor.key() == "s1"
                && json(&audit.before) == serde_json::json!({"awb": null, "courier": null, "status": 3})
                && json(&audit.after) == serde_json::json!({"awb": "1234567890", "courier": "delhivery", "status": 4})
        })
        .times(1)
        .returning(|_, _, to, _, _| Ok(stored(to.status, to.shipment.clone(), 3)));
    let shipped = service(desk)
        .change(&staff(StaffRole::Fulfilment), &o1(), 2, &ship("delhivery", " 1234567890 ", None))
        .await
        .expect("shipped");
    assert_eq!((shipped.version, shipped.order.status), (3, 4));
}

#[tokio::test]
async fn a_corrected_shipment_is_its_own_action_and_names_only_what_changed() {
    let shipped = Shipment::parse("dtdc", "D1234567", None).expect("valid");
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(move |_| Ok(Some(stored(OrderStatus::Shipped, Some(shipped.clone()), 5))));
    desk.expect_update_fulfilment()
        .withf(|_, version, to, audit, _| {
            *version == 5
                && to.status == OrderStatus::Shipped
                && audit.action == "order.shipment"
                && json(&audit.before) == serde_json::json!({"awb": "D1234567", "courier": "dtdc", "trackingUrl": null})
                && json(&audit.after)
                    == serde_json::json!({"awb": "XB9999999", "courier": "other", "trackingUrl": "https://t.example.in/XB9999999"})
        })
        .times(1)
        .returning(|_, _, to, _, _| Ok(stored(to.status, to.shipment.clone(), 6)));
    let input = FulfilmentInput { status: None, ..ship("other", "xb9999999", Some("https://t.example.in/XB9999999")) };
    let corrected = service(desk).change(&staff(StaffRole::Owner), &o1(), 5, &input).await.expect("corrected");
    assert_eq!(corrected.version, 6);
}

#[tokio::test]
async fn moves_the_rules_refuse_never_reach_the_store() {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(|_| Ok(Some(stored(OrderStatus::Placed, None, 0))));
    desk.expect_update_fulfilment().never();
    let s = service(desk);
    let clerk = staff(StaffRole::Fulfilment);
    let cases = [
        (to(3), Message::OrderIllegalMove),
        (to(5), Message::OrderIllegalMove),
        (to(6), Message::OrderCancelByCancel),
        (to(1), Message::OrderNoChange),
        (FulfilmentInput::default(), Message::OrderNoChange),
        (FulfilmentInput { status: Some(2), ..ship("ekart", "FMPC1234567890", None) }, Message::OrderShipmentNotNow),
    ];
    for (input, message) in cases {
        let refused = s.change(&clerk, &o1(), 0, &input).await;
        assert!(matches!(refused, Err(AdminOrderError::Refused(_))), "{input:?}: {refused:?}");
        assert_eq!(refused.map_err(|e| e.message()), Err(message), "{input:?}");
    }
}

#[tokio::test]
async fn bad_input_is_refused_before_the_order_is_read() {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().never();
    desk.expect_orders().never();
    desk.expect_update_fulfilment().never();
    let s = service(desk);
    let owner = staff(StaffRole::Owner);
    let cases = [
        (to(0), Message::OrderStatusInvalid),
        (to(7), Message::OrderStatusInvalid),
        (ship("fedex", "1234567", None), Message::OrderCourierUnknown),
        (ship("dtdc", "12", None), Message::OrderAwbInvalid),
        (ship("dtdc", "1234567", Some("https://t.example.in/1")), Message::OrderTrackingUrlUnexpected),
        (ship("other", "1234567", None), Message::OrderTrackingUrlRequired),
        (ship("other", "1234567", Some("http://t.example.in/1")), Message::OrderTrackingUrlInvalid),
        (FulfilmentInput { awb: Some("1234567".into()), ..to(4) }, Message::OrderCourierUnknown),
        (FulfilmentInput { courier: Some("dtdc".into()), ..to(4) }, Message::OrderAwbInvalid),
    ];
    for (input, message) in cases {
        assert_eq!(s.change(&owner, &o1(), 0, &input).await, Err(AdminOrderError::Invalid(message)), "{input:?}");
    }
    for filters in [
        OrderFilters { status: Some(0), ..OrderFilters::default() },
        OrderFilters { from: Some(-1), ..OrderFilters::default() },
        OrderFilters { from: Some(10), until: Some(10), ..OrderFilters::default() },
        OrderFilters { search: Some("x".repeat(101)), ..OrderFilters::default() },
        OrderFilters { refunds: Some("some".into()), ..OrderFilters::default() },
        OrderFilters { refunds: Some(String::new()), ..OrderFilters::default() },
    ] {
        assert_eq!(
            s.list(&owner, &filters).await.map(drop),
            Err(AdminOrderError::Invalid(Message::OrderFilterInvalid)),
            "{filters:?}"
        );
    }
}

#[tokio::test]
async fn a_stale_version_is_told_and_a_lost_race_too() {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(|_| Ok(Some(stored(OrderStatus::Placed, None, 4))));
    desk.expect_update_fulfilment().times(1).returning(|_, _, _, _, _| Err(OrderDeskError::Changed { version: 5 }));
    let s = service(desk);
    let clerk = staff(StaffRole::Fulfilment);
    let stale = s.change(&clerk, &o1(), 3, &to(2)).await;
    assert_eq!(stale, Err(AdminOrderError::Changed { version: 4 }), "refused before the store is asked");
    assert_eq!(stale.map_err(|e| e.message()), Err(Message::OrderChanged));
    let lost = s.change(&clerk, &o1(), 4, &to(2)).await;
    assert_eq!(lost, Err(AdminOrderError::Changed { version: 5 }), "another change won at the store");
}

#[tokio::test]
async fn unknown_orders_and_a_store_that_is_down() {
    let mut desk = MockOrderDesk::new();
    let mut answers = vec![Ok(None), Err(OrderDeskError::Unavailable { reason: "down".into() })].into_iter();
    desk.expect_order().times(2).returning(move |_| answers.next().expect("two answers"));
    desk.expect_orders().returning(|_| Err(OrderDeskError::Unavailable { reason: "down".into() }));
    let s = service(desk);
    let owner = staff(StaffRole::Owner);
    assert_eq!(s.order(&owner, &o1()).await.map_err(|e| e.message()), Err(Message::OrderNotFound));
    assert_eq!(s.change(&owner, &o1(), 0, &to(2)).await.map_err(|e| e.message()), Err(Message::OrderUnavailable));
    assert_eq!(s.list(&owner, &OrderFilters::default()).await.map_err(|e| e.message()), Err(Message::OrderUnavailable));
}

#[tokio::test]
async fn the_list_passes_its_filters_and_counts_pages() {
    let mut desk = MockOrderDesk::new();
    desk.expect_orders()
        .withf(|q| {
            q.status == Some(OrderStatus::Shipped)
                && q.from == Some(100)
                && q.until == Some(200)
                && q.search == Some(OrderSearch::Mobile("9876543210".into()))
                && q.refunds == Some(RefundFilter::Failed)
                && q.window.offset() == 10
                && q.window.limit() == 10
        })
        .returning(|_| Ok(AdminOrderPage { orders: Vec::new(), total: 21, counts: StatusCounts([1, 0, 0, 21, 0, 0]) }));
    let filters = OrderFilters {
        status: Some(4),
        from: Some(100),
        until: Some(200),
        search: Some("+91 98765 43210".into()),
        refunds: Some("failed".into()),
        window: ListWindow::new(Some(2), Some(10)).expect("a window"),
    };
    let list = service(desk).list(&staff(StaffRole::Fulfilment), &filters).await.expect("a list");
    assert_eq!((list.pages, list.page.total, list.page.counts.of(OrderStatus::Shipped)), (3, 21, 21));
}
