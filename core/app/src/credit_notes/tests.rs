use marque_domain::address::{Address, AddressInput};
use marque_domain::cart::Quantity;
use marque_domain::catalog::ProductId;
use marque_domain::invoice::{refund_amount, FinancialYear, InvoiceNumber};
use marque_domain::order::{OrderLine, OrderStatus};
use marque_domain::pricing::DiscountPercent;
use marque_domain::staff::{StaffId, StaffRole};
use marque_ports::{
    MockInvoiceRenderer, MockOrderDesk, OrderDraft, OrderRefundLine, PaymentId, PaymentOrderId, PlacedOrder,
    RefundKind, RefundState,
};

use super::*;

const NOW: i64 = 1_780_295_400;

fn o1() -> OrderId {
    OrderId("o1".into())
}

fn seller() -> Seller {
    Seller {
        legal_name: "Marque Parts Private Limited".into(),
        address_lines: vec!["Plot 14, Okhla Phase III".into(), "New Delhi 110020".into()],
        gstin: marque_domain::tax::Gstin::parse("07AAKCM4821R1ZU").expect("valid"),
        state: marque_domain::tax::GstState::by_name("Delhi").expect("a state"),
    }
}

fn line(product: &str, price: i64, quantity: u32, gst: u8) -> OrderLine {
    OrderLine {
        product_id: ProductId(product.into()),
        name: format!("Part {product}"),
        quantity: Quantity::new(quantity).expect("≥1"),
        price: Money::from_paise(price),
        gst,
        hsn: None,
        margin_scheme: None,
        warranty_days: None,
    }
}

fn refund(n: usize, lines: &[(&str, u32)], delivery: i64, note: Option<&str>) -> OrderRefund {
    OrderRefund {
        id: format!("o1-{n}"),
        order: o1(),
        payment: PaymentId("pay_1".into()),
        kind: RefundKind::Partial,
        lines: lines
            .iter()
            .map(|(p, q)| OrderRefundLine {
                product: ProductId((*p).into()),
                name: format!("Part {p}"),
                quantity: *q,
                amount: Money::ZERO,
                restock: true,
                reason: "damaged".into(),
            })
            .collect(),
        delivery: Money::from_paise(delivery),
        amount: Money::ZERO,
        reason: "damaged in transit".into(),
        state: RefundState::Processed,
        provider_refund: None,
        attempt: 1,
        key: format!("key-{n}"),
        request: "{}".into(),
        actor: "s1".into(),
        actor_label: "ravi@marque.test".into(),
        created_at: NOW + 86_400 * i64::try_from(n).expect("small"),
        updated_at: NOW,
        credit_note: note.map(str::to_owned),
    }
}

/// Asha's order (u1) of 2 × a at 28% and 3 × b at 18%, 10% off, ₹100 delivery, with two refunds
/// that issued notes and one that issued none.
fn order() -> AdminOrder {
    let address = Address::parse(&AddressInput {
        house_no: "12B".into(),
        city: "Mumbai".into(),
        state: "Maharashtra".into(),
        mobile_no: "9876543210".into(),
        pincode: "400001".into(),
        ..AddressInput::default()
    })
    .expect("an address");
    let lines = vec![line("a", 100_000, 2, 28), line("b", 20_001, 3, 18)];
    let totals = marque_domain::order::stored_order_totals(
        &lines,
        DiscountPercent::new(10).expect("10"),
        Money::from_paise(10_000),
    );
    AdminOrder {
        order: PlacedOrder {
            id: o1(),
            order_number: "MQ-000001".into(),
            invoice_number: InvoiceNumber::new(FinancialYear::starting(2026), 7).expect("7"),
            draft: OrderDraft {
                user: UserId("u1".into()),
                user_name: "Asha".into(),
                lines,
                address,
                discount: DiscountPercent::new(10).expect("10"),
                discount_amount: totals.discount,
                delivery_charge: Money::from_paise(10_000),
                total: totals.total,
                store_credit: marque_domain::Money::ZERO,
            },
            payment_order: PaymentOrderId("order_1".into()),
            payment: PaymentId("pay_1".into()),
            created_at: NOW - 3_600,
            status: u8::try_from(OrderStatus::Delivered.number()).expect("1-6"),
            status_text: OrderStatus::Delivered.status_string().into(),
            shipment: None,
        },
        version: 3,
        timeline: Vec::new(),
        customer_email: None,
        customer_mobile: None,
        customer_language: None,
        refunds: vec![
            refund(1, &[("b", 1)], 0, Some("CN/26-27/000004")),
            refund(2, &[("a", 1), ("b", 2)], 10_000, Some("CN/26-27/000009")),
            refund(3, &[], 0, None),
        ],
    }
}

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "ravi@marque.test".into(), name: "Ravi".into(), role }
}

fn desk_with(order: AdminOrder) -> MockOrderDesk {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(move |id| Ok((*id == order.order.id).then(|| order.clone())));
    desk
}

fn service(desk: MockOrderDesk, renderer: MockInvoiceRenderer) -> CreditNoteService {
    CreditNoteService::new(Arc::new(desk), Arc::new(renderer), seller())
}

#[test]
fn a_note_is_rebuilt_from_the_invoice_the_refunds_before_it_and_its_own_lines() {
    let order = order();
    let note = credit_note_of(&seller(), &order, "o1-2").expect("the second note");
    let invoice = crate::orders::tax_invoice(&seller(), &order.order);
    let before = RefundSelection::of([(1, 1)], false);
    let now = RefundSelection::of([(0, 1), (1, 2)], true);
    assert_eq!(note.total(), refund_amount(invoice.invoice(), &before, &now).expect("an amount"));
    assert_eq!(note.number().to_string(), "CN/26-27/000009");
    assert_eq!(note.invoice_number(), order.order.invoice_number);
    assert_eq!(note.date(), InvoiceDate::at_unix_seconds(order.refunds[1].created_at), "the day of the refund");
    let first = credit_note_of(&seller(), &order, "o1-1").expect("the first note");
    assert_eq!(
        first.total(),
        refund_amount(invoice.invoice(), &RefundSelection::default(), &before).expect("an amount")
    );
    assert_eq!(credit_note_of(&seller(), &order, "o1-3").err(), Some(CreditNoteFileError::NoCreditNote));
    assert_eq!(credit_note_of(&seller(), &order, "o1-9").err(), Some(CreditNoteFileError::NoCreditNote));
    let mut odd = order.clone();
    odd.refunds[0].lines[0].product = ProductId("zz".into());
    assert!(matches!(credit_note_of(&seller(), &odd, "o1-2"), Err(CreditNoteFileError::Failed(_))));
}

#[tokio::test]
async fn the_customer_gets_the_note_of_their_own_order_and_no_other() {
    let mut renderer = MockInvoiceRenderer::new();
    renderer
        .expect_render_credit_note()
        .withf(|note| note.number().to_string() == "CN/26-27/000004")
        .times(1)
        .returning(|_| Ok(b"%PDF-note".to_vec()));
    let notes = service(desk_with(order()), renderer);
    let asha = UserId("u1".into());
    assert_eq!(notes.for_customer(&asha, &o1(), "o1-1").await, Ok(b"%PDF-note".to_vec()));
    // Another customer is refused before the refund is looked at (the renderer is never called again).
    let ravi = UserId("u2".into());
    assert_eq!(notes.for_customer(&ravi, &o1(), "o1-1").await, Err(CreditNoteFileError::NotOwner));
    assert_eq!(notes.for_customer(&ravi, &o1(), "o1-9").await, Err(CreditNoteFileError::NotOwner));
    assert_eq!(notes.for_customer(&asha, &OrderId("nope".into()), "o1-1").await, Err(CreditNoteFileError::NotFound));
    assert_eq!(notes.for_customer(&asha, &o1(), "o1-3").await, Err(CreditNoteFileError::NoCreditNote));
}

#[tokio::test]
async fn staff_of_refunds_get_any_note_and_other_roles_are_refused_before_any_read() {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().never();
    let mut renderer = MockInvoiceRenderer::new();
    renderer.expect_render_credit_note().never();
    let refused = service(desk, renderer);
    let got = refused.for_staff(&staff(StaffRole::Catalog), &o1(), "o1-1").await;
    assert!(matches!(got, Err(CreditNoteFileError::Forbidden(_))), "{got:?}");

    let mut renderer = MockInvoiceRenderer::new();
    renderer
        .expect_render_credit_note()
        .withf(|note| note.number().to_string() == "CN/26-27/000009")
        .times(2)
        .returning(|_| Ok(b"%PDF-note".to_vec()));
    let notes = service(desk_with(order()), renderer);
    for role in [StaffRole::Owner, StaffRole::Fulfilment] {
        assert_eq!(notes.for_staff(&staff(role), &o1(), "o1-2").await, Ok(b"%PDF-note".to_vec()), "{role:?}");
    }
}

#[tokio::test]
async fn a_store_down_or_a_renderer_fault_is_told_apart() {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(|_| Err(OrderDeskError::Unavailable { reason: "down".into() }));
    let down = service(desk, MockInvoiceRenderer::new());
    let got = down.for_customer(&UserId("u1".into()), &o1(), "o1-1").await;
    assert!(matches!(got, Err(CreditNoteFileError::Unavailable(_))), "{got:?}");
    let mut renderer = MockInvoiceRenderer::new();
    renderer
        .expect_render_credit_note()
        .returning(|_| Err(marque_ports::RenderError::Failed { reason: "fonts".into() }));
    let broken = service(desk_with(order()), renderer);
    let got = broken.for_customer(&UserId("u1".into()), &o1(), "o1-1").await;
    assert!(matches!(got, Err(CreditNoteFileError::Failed(_))), "{got:?}");
}
