use std::sync::Mutex;

use marque_domain::address::{Address, AddressInput};
use marque_domain::cart::Quantity;
use marque_domain::invoice::{CreditNoteNumber, FinancialYear, InvoiceNumber};
use marque_domain::order::{OrderLine, OrderStatus};
use marque_domain::pricing::DiscountPercent;
use marque_domain::staff::{StaffId, StaffRole};
use marque_ports::{
    MockOrderDesk, MockPaymentGateway, OrderDraft, PaymentId, PaymentOrderId, PlacedOrder, Refund, RefundId, UserId,
};

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

fn o1() -> OrderId {
    OrderId("o1".into())
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

/// An order of 2 × ₹1,000 (a) and 1 × ₹500 (b), ₹250 off, ₹100 delivery: ₹2,350 paid.
fn stored(status: OrderStatus, version: u64) -> AdminOrder {
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
                lines: vec![line("a", 100_000, 2), line("b", 50_000, 1)],
                address,
                discount: DiscountPercent::new(10).expect("10"),
                discount_amount: Money::from_paise(25_000),
                delivery_charge: Money::from_paise(10_000),
                total: Money::from_paise(235_000),
                store_credit: marque_domain::Money::ZERO,
            },
            payment_order: PaymentOrderId("order_1".into()),
            payment: PaymentId("pay_1".into()),
            created_at: NOW - 3_600,
            status: u8::try_from(status.number()).expect("1-6"),
            status_text: status.status_string().into(),
            shipment: None,
        },
        version,
        timeline: Vec::new(),
        customer_email: None,
        customer_mobile: None,
        customer_language: None,
        refunds: Vec::new(),
    }
}

/// An earlier refund of `quantity` units of line a, for `amount` paise, under `key`.
fn earlier(id: &str, quantity: u32, amount: i64, key: &str, state: RefundState) -> OrderRefund {
    OrderRefund {
        id: id.into(),
        order: o1(),
        payment: PaymentId("pay_1".into()),
        kind: RefundKind::Partial,
        lines: vec![OrderRefundLine {
            product: ProductId("a".into()),
            name: "Part a".into(),
            quantity,
            amount: Money::from_paise(amount),
            restock: true,
            reason: "x".into(),
        }],
        delivery: Money::ZERO,
        amount: Money::from_paise(amount),
        reason: "x".into(),
        state,
        provider_refund: Some("rfnd_0".into()),
        attempt: 1,
        key: key.into(),
        request: "{}".into(),
        actor: "s2".into(),
        actor_label: "meera@marque.test".into(),
        created_at: NOW,
        updated_at: NOW,
        credit_note: None,
    }
}

fn seller() -> Seller {
    Seller {
        legal_name: "Marque Parts Private Limited".into(),
        address_lines: vec!["Plot 14, Okhla Phase III".into(), "New Delhi 110020".into()],
        gstin: marque_domain::tax::Gstin::parse("07AAKCM4821R1ZU").expect("valid"),
        state: marque_domain::tax::GstState::by_name("Delhi").expect("a state"),
    }
}

fn service(desk: MockOrderDesk, payments: MockPaymentGateway) -> RefundsService {
    RefundsService::new(Arc::new(desk), Arc::new(payments), Arc::new(Fixed(NOW)), seller())
}

fn one_of_a() -> RefundInput {
    RefundInput {
        lines: vec![RefundLineInput { product: "a".into(), quantity: 1, restock: true, reason: None }],
        delivery_charge: false,
        reason: "damaged in transit".into(),
    }
}

/// A desk that keeps what it is given: the order and its refunds, written as a store would.
fn keeping_desk(order: AdminOrder) -> (MockOrderDesk, Arc<Mutex<AdminOrder>>) {
    keeping_desk_read_first_as(order, None)
}

/// [`keeping_desk`], whose first read answers `stale` (a refund of someone else lands just after).
fn keeping_desk_read_first_as(order: AdminOrder, stale: Option<AdminOrder>) -> (MockOrderDesk, Arc<Mutex<AdminOrder>>) {
    let kept = Arc::new(Mutex::new(order));
    let mut desk = MockOrderDesk::new();
    let read = Arc::clone(&kept);
    let stale = Mutex::new(stale);
    desk.expect_order().returning(move |_| match stale.lock().expect("lock").take() {
        Some(old) => Ok(Some(old)),
        None => Ok(Some(read.lock().expect("lock").clone())),
    });
    let write = Arc::clone(&kept);
    desk.expect_record_refund().returning(move |w, _| {
        let mut order = write.lock().expect("lock");
        if let Some(first) = order.refunds.iter().find(|r| r.key == w.refund.key) {
            return if first.request == w.refund.request {
                Ok(RefundRecorded::Existing(Box::new(first.clone())))
            } else {
                Err(OrderDeskError::KeyReused)
            };
        }
        if order.refunds.len() != w.refunds_seen {
            return Err(OrderDeskError::RefundsChanged);
        }
        if let Some((_, to)) = &w.cancel {
            order.order.status = u8::try_from(to.status.number()).expect("1-6");
            order.version += 1;
        }
        let mut refund = w.refund.clone();
        if let Some(year) = w.credit_note_year {
            // One series, as the store keeps it: the next number of the year.
            let issued = order.refunds.iter().filter(|r| r.credit_note.is_some()).count();
            let serial = u32::try_from(issued).expect("few") + 1;
            refund.credit_note = Some(CreditNoteNumber::new(year, serial).expect("a serial").to_string());
        }
        order.refunds.push(refund);
        Ok(RefundRecorded::Recorded(Box::new(order.clone())))
    });
    let settle = Arc::clone(&kept);
    desk.expect_settle_refund().returning(move |id, _, state, provider, _| {
        let mut order = settle.lock().expect("lock");
        let refund = order.refunds.iter_mut().find(|r| r.id == id).ok_or(OrderDeskError::RefundNotFound)?;
        refund.state = state;
        refund.provider_refund = provider.or(refund.provider_refund.clone());
        Ok(refund.clone())
    });
    let retry = Arc::clone(&kept);
    desk.expect_retry_refund().returning(move |_, id, _| {
        let mut order = retry.lock().expect("lock");
        let refund = order.refunds.iter_mut().find(|r| r.id == id).ok_or(OrderDeskError::RefundNotFound)?;
        if refund.state == RefundState::Failed {
            refund.state = RefundState::Requested;
            refund.attempt += 1;
            refund.provider_refund = None;
        }
        Ok(refund.clone())
    });
    (desk, kept)
}

fn pending(id: &str, amount: Money) -> Refund {
    Refund { id: RefundId(id.into()), payment_id: PaymentId("pay_1".into()), amount, status: RefundStatus::Pending }
}

#[tokio::test]
async fn a_catalog_member_is_refused_before_anything_is_read_or_paid() {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().never();
    desk.expect_record_refund().never();
    let mut payments = MockPaymentGateway::new();
    payments.expect_refund().never();
    let s = service(desk, payments);
    let catalog = staff(StaffRole::Catalog);
    let cancel = CancelInput { reason: "out of stock".into(), restock: true };
    assert!(matches!(s.cancel(&catalog, &o1(), 0, &cancel).await, Err(AdminOrderError::Forbidden(_))));
    assert!(matches!(s.refund(&catalog, &o1(), "key-00000001", &one_of_a()).await, Err(AdminOrderError::Forbidden(_))));
    assert!(matches!(s.retry(&catalog, &o1(), "o1-1").await, Err(AdminOrderError::Forbidden(_))));
}

#[tokio::test]
async fn fulfilment_refunds_one_unit_net_of_its_discount_share_and_pays_it_once() {
    let (desk, kept) = keeping_desk(stored(OrderStatus::Delivered, 4));
    let mut payments = MockPaymentGateway::new();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    payments.expect_refund().times(1).returning(move |payment, ask| {
        seen.lock().expect("lock").push((payment.clone(), ask.clone()));
        Ok(pending("rfnd_1", ask.amount))
    });
    let s = service(desk, payments);
    let who = staff(StaffRole::Fulfilment);
    let done = s.refund(&who, &o1(), "key-00000001", &one_of_a()).await.expect("refunded");
    // Line a is ₹2,000 of ₹2,500: its share of ₹250 off is ₹200; one unit of two: ₹900.
    assert_eq!(done.refund.amount, Money::from_paise(90_000));
    assert_eq!(done.refund.state, RefundState::Pending);
    assert_eq!(done.refund.provider_refund.as_deref(), Some("rfnd_1"));
    assert!(!done.replayed);
    let (payment, ask) = asked.lock().expect("lock")[0].clone();
    assert_eq!(
        (payment, ask.amount, ask.idempotency_key.as_str()),
        (PaymentId("pay_1".into()), Money::from_paise(90_000), "mq-rf-o1-1-a1")
    );
    // The same key and body: the same refund, not paid again (the mock allows one provider call).
    let again = s.refund(&who, &o1(), "key-00000001", &one_of_a()).await.expect("answered again");
    assert!(again.replayed);
    assert_eq!(again.refund.id, done.refund.id);
    assert_eq!(kept.lock().expect("lock").refunds.len(), 1);
    // The same key with another body is refused.
    let mut other = one_of_a();
    other.lines[0].quantity = 2;
    assert_eq!(s.refund(&who, &o1(), "key-00000001", &other).await.err(), Some(AdminOrderError::KeyReused));
}

#[tokio::test]
async fn an_over_refund_and_bad_input_never_reach_the_store_or_the_provider() {
    let mut order = stored(OrderStatus::Shipped, 3);
    order.refunds.push(earlier("o1-1", 2, 180_000, "key-earlier-1", RefundState::Processed));
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(move |_| Ok(Some(order.clone())));
    desk.expect_record_refund().never();
    let mut payments = MockPaymentGateway::new();
    payments.expect_refund().never();
    let s = service(desk, payments);
    let who = staff(StaffRole::Owner);
    let refused = s.refund(&who, &o1(), "key-00000002", &one_of_a()).await.err();
    assert_eq!(refused.map(|e| e.message()), Some(Message::RefundQuantityAboveLeft));
    let bad = |product: &str, quantity: i64| RefundInput {
        lines: vec![RefundLineInput { product: product.into(), quantity, restock: false, reason: None }],
        delivery_charge: false,
        reason: "r".into(),
    };
    for (input, message) in [
        (bad("b", -1), Message::RefundQuantityInvalid),
        (bad("b", 0), Message::RefundQuantityInvalid),
        (bad("zz", 1), Message::RefundUnknownProduct),
        (RefundInput { lines: vec![], delivery_charge: false, reason: "r".into() }, Message::RefundEmpty),
        (RefundInput { reason: " ".into(), ..bad("b", 1) }, Message::RefundReasonInvalid),
    ] {
        let e = s.refund(&who, &o1(), "key-00000003", &input).await.expect_err("refused");
        assert!(matches!(e, AdminOrderError::Invalid(_)), "{e:?}");
        assert_eq!(e.message(), message);
    }
    for key in ["", "short", "has space in it", "cancel", &"k".repeat(65)] {
        let e = s.refund(&who, &o1(), key, &bad("b", 1)).await.expect_err("bad key");
        assert_eq!(e.message(), Message::RefundKeyRequired, "{key:?}");
    }
}

#[tokio::test]
async fn cancelling_refunds_everything_on_the_version_read_and_only_from_1_to_3() {
    let (desk, kept) = keeping_desk(stored(OrderStatus::Confirmed, 1));
    let mut payments = MockPaymentGateway::new();
    payments.expect_refund().times(1).returning(|_, ask| Ok(pending("rfnd_c", ask.amount)));
    let s = service(desk, payments);
    let who = staff(StaffRole::Fulfilment);
    let input = CancelInput { reason: "customer called".into(), restock: false };
    assert_eq!(s.cancel(&who, &o1(), 0, &input).await.err(), Some(AdminOrderError::Changed { version: 1 }));
    let done = s.cancel(&who, &o1(), 1, &input).await.expect("cancelled");
    assert_eq!(done.refund.amount, Money::from_paise(235_000), "all that was paid");
    assert_eq!(done.refund.kind, RefundKind::Cancel);
    assert!(done.refund.lines.iter().all(|l| !l.restock));
    assert_eq!(done.order.order.status, 6);
    // Cancelled is not cancellable again.
    let again = s.cancel(&who, &o1(), 2, &input).await.err();
    assert_eq!(again.map(|e| e.message()), Some(Message::OrderIllegalMove));
    assert_eq!(kept.lock().expect("lock").refunds.len(), 1);

    let (desk, _) = keeping_desk(stored(OrderStatus::Shipped, 5));
    let s = service(desk, MockPaymentGateway::new());
    let shipped = s.cancel(&who, &o1(), 5, &input).await.err();
    assert_eq!(shipped.map(|e| e.message()), Some(Message::OrderIllegalMove));
}

#[tokio::test]
async fn a_failed_refund_is_retried_under_a_new_key_and_a_second_retry_pays_nothing_more() {
    let (desk, _) = keeping_desk(stored(OrderStatus::Delivered, 4));
    let mut payments = MockPaymentGateway::new();
    let keys = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&keys);
    payments.expect_refund().times(2).returning(move |_, ask| {
        let mut keys = seen.lock().expect("lock");
        keys.push(ask.idempotency_key.clone());
        if keys.len() == 1 {
            Err(PaymentError::Refused { reason: "the bank said no".into() })
        } else {
            Ok(pending("rfnd_2", ask.amount))
        }
    });
    let s = service(desk, payments);
    let who = staff(StaffRole::Fulfilment);
    let first = s.refund(&who, &o1(), "key-00000009", &one_of_a()).await.expect("recorded");
    assert_eq!(first.refund.state, RefundState::Failed, "shown as failed");
    let retried = s.retry(&who, &o1(), &first.refund.id).await.expect("retried");
    assert_eq!((retried.refund.state, retried.refund.attempt), (RefundState::Pending, 2));
    let twice = s.retry(&who, &o1(), &first.refund.id).await.expect("answered as it is");
    assert_eq!(twice.refund.state, RefundState::Pending);
    assert_eq!(*keys.lock().expect("lock"), vec!["mq-rf-o1-1-a1".to_owned(), "mq-rf-o1-1-a2".to_owned()]);
    assert_eq!(s.retry(&who, &o1(), "o1-9").await.err(), Some(AdminOrderError::RefundNotFound));
}

#[tokio::test]
async fn a_provider_that_is_down_leaves_the_refund_requested_for_the_reconciliation() {
    let (desk, kept) = keeping_desk(stored(OrderStatus::Delivered, 4));
    let unsettled = Arc::clone(&kept);
    let mut desk = desk;
    desk.expect_unsettled_refunds().returning(move |_| {
        Ok(unsettled
            .lock()
            .expect("lock")
            .refunds
            .iter()
            .filter(|r| r.state == RefundState::Requested)
            .cloned()
            .collect())
    });
    let mut payments = MockPaymentGateway::new();
    let calls = Arc::new(Mutex::new(0));
    let count = Arc::clone(&calls);
    payments.expect_refund().returning(move |_, ask| {
        let mut n = count.lock().expect("lock");
        *n += 1;
        if *n == 1 {
            Err(PaymentError::Unavailable { reason: "timeout".into() })
        } else {
            Ok(pending("rfnd_3", ask.amount))
        }
    });
    let s = service(desk, payments);
    let done = s.refund(&staff(StaffRole::Owner), &o1(), "key-00000010", &one_of_a()).await.expect("recorded");
    assert_eq!(done.refund.state, RefundState::Requested);
    let pass = s.settle_unsettled().await.expect("a pass");
    assert_eq!(pass, SettledRefunds { checked: 1, changed: 1, failed: 0 });
    assert_eq!(kept.lock().expect("lock").refunds[0].state, RefundState::Pending);
}

#[tokio::test]
async fn a_refund_computed_on_stale_refunds_is_computed_again() {
    // Another staff member's refund of one unit of a lands between this one's read and its write.
    let mut now = stored(OrderStatus::Delivered, 4);
    now.refunds.push(earlier("o1-1", 1, 90_000, "key-other-0001", RefundState::Pending));
    let (desk, kept) = keeping_desk_read_first_as(now, Some(stored(OrderStatus::Delivered, 4)));
    let mut payments = MockPaymentGateway::new();
    payments.expect_refund().times(1).returning(|_, ask| Ok(pending("rfnd_4", ask.amount)));
    let s = service(desk, payments);
    let done = s.refund(&staff(StaffRole::Owner), &o1(), "key-00000011", &one_of_a()).await.expect("computed again");
    assert_eq!(done.refund.id, "o1-2");
    // The second unit takes the line's remainder: ₹1,800 net for the two.
    assert_eq!(kept.lock().expect("lock").refunds.iter().map(|r| r.amount.paise()).sum::<i64>(), 180_000);
    // With both units refunded, a third is refused.
    let third = s.refund(&staff(StaffRole::Owner), &o1(), "key-00000012", &one_of_a()).await.err();
    assert_eq!(third.map(|e| e.message()), Some(Message::RefundQuantityAboveLeft));
}

#[tokio::test]
async fn every_refund_of_money_issues_a_credit_note_whose_total_is_the_refund() {
    let (desk, kept) = keeping_desk(stored(OrderStatus::Placed, 0));
    let mut payments = MockPaymentGateway::new();
    payments.expect_refund().returning(|_, ask| Ok(pending("rfnd_1", ask.amount)));
    let refunds = service(desk, payments);
    let fulfilment = staff(StaffRole::Fulfilment);
    let first = refunds.refund(&fulfilment, &o1(), "key-first-1", &one_of_a()).await.expect("refunded");
    assert_eq!(first.refund.credit_note.as_deref(), Some("CN/26-27/000001"), "answered with its number");
    let second = RefundInput {
        lines: vec![
            RefundLineInput { product: "a".into(), quantity: 1, restock: false, reason: None },
            RefundLineInput { product: "b".into(), quantity: 1, restock: true, reason: None },
        ],
        delivery_charge: true,
        reason: "wrong part".into(),
    };
    let second = refunds.refund(&fulfilment, &o1(), "key-second-2", &second).await.expect("refunded");
    assert_eq!(second.refund.credit_note.as_deref(), Some("CN/26-27/000002"));
    // Everything is refunded: a cancellation now gives nothing back and issues no note.
    let cancel = CancelInput { reason: "customer asked".into(), restock: false };
    let none = refunds.cancel(&fulfilment, &o1(), 0, &cancel).await.expect("cancelled");
    assert_eq!((none.refund.amount, none.refund.credit_note.as_deref()), (Money::ZERO, None));

    let order = kept.lock().expect("lock").clone();
    let mut notes = Money::ZERO;
    for refund in order.refunds.iter().filter(|r| r.credit_note.is_some()) {
        let note = crate::credit_notes::credit_note_of(&seller(), &order, &refund.id).expect("a note");
        assert_eq!(note.total(), refund.amount, "the note reverses what was refunded");
        assert_eq!(Some(note.number().to_string()), refund.credit_note);
        assert_eq!(note.invoice_number(), order.order.invoice_number);
        notes = notes + note.total();
    }
    assert_eq!(notes, order.order.draft.total, "the notes together reverse the whole invoice");
    let no_note = crate::credit_notes::credit_note_of(&seller(), &order, &none.refund.id);
    assert_eq!(no_note.err(), Some(crate::credit_notes::CreditNoteFileError::NoCreditNote));
}

#[tokio::test]
async fn a_cancellation_and_a_refund_queue_their_notices_with_the_amount_in_the_same_write() {
    let mut order = stored(OrderStatus::Confirmed, 1);
    order.customer_email = Some("asha@example.in".into());
    order.customer_mobile = Some("9876543210".into());
    order.customer_language = Some(marque_domain::order::Language::Hindi);
    let notices = Arc::new(Mutex::new(Vec::new()));
    let mut desk = MockOrderDesk::new();
    let kept = Arc::new(Mutex::new(order));
    let read = Arc::clone(&kept);
    desk.expect_order().returning(move |_| Ok(Some(read.lock().expect("lock").clone())));
    let seen = Arc::clone(&notices);
    let write = Arc::clone(&kept);
    desk.expect_record_refund().returning(move |w, _| {
        seen.lock().expect("lock").push(w.notices.clone());
        let mut order = write.lock().expect("lock");
        if let Some((_, to)) = &w.cancel {
            order.order.status = u8::try_from(to.status.number()).expect("1-6");
            order.version += 1;
        }
        order.refunds.push(w.refund.clone());
        Ok(RefundRecorded::Recorded(Box::new(order.clone())))
    });
    desk.expect_settle_refund().returning(|_, _, _, _, _| Err(OrderDeskError::Unavailable { reason: "x".into() }));
    let mut payments = MockPaymentGateway::new();
    // The provider is down: the cancellation still stands, its notices queued with it.
    payments.expect_refund().returning(|_, _| Err(PaymentError::Unavailable { reason: "down".into() }));
    let mut settings = crate::notices::NoticeSettings::default();
    settings.sms.insert(marque_domain::order::NoticeKind::Cancelled);
    let s = service(desk, payments).with_notices(settings);
    let who = staff(StaffRole::Fulfilment);
    s.cancel(&who, &o1(), 1, &CancelInput { reason: "customer called".into(), restock: true })
        .await
        .expect("cancelled");
    let queued = notices.lock().expect("lock").pop().expect("one write");
    assert_eq!(queued.len(), 2, "an email and an SMS: {queued:?}");
    assert!(queued.iter().all(|n| n.kind == marque_domain::order::NoticeKind::Cancelled && n.at == NOW));
    assert!(queued[0].text.contains("₹2,350.00 का रिफ़ंड"), "{}", queued[0].text);
    assert_eq!(queued[1].template.as_deref(), Some("order-cancelled"));
    assert!(queued[1].text.contains("₹2,350.00"), "{}", queued[1].text);
}

#[tokio::test]
async fn a_partial_refund_queues_the_refunded_notice_by_email_without_its_sms_template() {
    let mut order = stored(OrderStatus::Delivered, 4);
    order.customer_email = Some("asha@example.in".into());
    order.customer_mobile = Some("9876543210".into());
    let kept = Arc::new(Mutex::new(order));
    let mut desk = MockOrderDesk::new();
    let read = Arc::clone(&kept);
    desk.expect_order().returning(move |_| Ok(Some(read.lock().expect("lock").clone())));
    let notices = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&notices);
    let write = Arc::clone(&kept);
    desk.expect_record_refund().returning(move |w, _| {
        seen.lock().expect("lock").extend(w.notices.clone());
        let mut order = write.lock().expect("lock");
        order.refunds.push(w.refund.clone());
        Ok(RefundRecorded::Recorded(Box::new(order.clone())))
    });
    desk.expect_settle_refund().returning(|id, attempt, state, provider, _| {
        let mut r = earlier(id, 1, 90_000, "k", state);
        r.attempt = attempt;
        r.provider_refund = provider;
        Ok(r)
    });
    let mut payments = MockPaymentGateway::new();
    payments.expect_refund().returning(|_, ask| Ok(pending("rfnd_1", ask.amount)));
    let s = service(desk, payments).with_notices(crate::notices::NoticeSettings::default());
    let done = s.refund(&staff(StaffRole::Fulfilment), &o1(), "key-0001-abc", &one_of_a()).await.expect("refunded");
    let queued = notices.lock().expect("lock").clone();
    assert_eq!(queued.len(), 1, "email only: {queued:?}");
    let amount = format!("₹{}", done.refund.amount.to_the_paisa());
    assert_eq!(queued[0].subject, "Refund for order MQ-000001 - Marque Parts");
    assert!(
        queued[0].text.contains(&format!("We have started a refund of {amount} for your order MQ-000001")),
        "{}",
        queued[0].text
    );
}

/// [`stored`] paid ₹1,000 by card and ₹1,350 with store credit.
fn paid_partly_by_credit() -> AdminOrder {
    let mut order = stored(OrderStatus::Delivered, 4);
    order.order.draft.store_credit = Money::from_paise(135_000);
    order
}

fn crediting(granted: Arc<Mutex<Vec<(UserId, Money, String)>>>) -> marque_ports::MockStoreCreditStore {
    let mut credit = marque_ports::MockStoreCreditStore::new();
    credit.expect_grant().returning(move |user, amount, source, _| {
        let mut seen = granted.lock().expect("lock");
        let first = !seen.iter().any(|(_, _, s)| *s == source.key());
        if first {
            seen.push((user.clone(), amount, source.key()));
        }
        Ok(first)
    });
    credit
}

#[tokio::test]
async fn a_refund_of_an_order_paid_partly_by_credit_pays_the_card_at_most_what_it_paid_and_the_rest_as_credit() {
    let (desk, kept) = keeping_desk(paid_partly_by_credit());
    let mut payments = MockPaymentGateway::new();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    payments.expect_refund().returning(move |_, ask| {
        seen.lock().expect("lock").push(ask.amount);
        Ok(pending("rfnd_1", ask.amount))
    });
    let granted = Arc::new(Mutex::new(Vec::new()));
    let s = service(desk, payments).with_store_credit(Arc::new(crediting(Arc::clone(&granted))));
    let who = staff(StaffRole::Fulfilment);
    // ₹900, all within the card's ₹1,000.
    let first = s.refund(&who, &o1(), "key-00000001", &one_of_a()).await.expect("refunded");
    assert_eq!(first.refund.amount, Money::from_paise(90_000));
    // Another ₹900: ₹100 left of the card's part, ₹800 back as store credit.
    let second = s.refund(&who, &o1(), "key-00000002", &one_of_a()).await.expect("refunded");
    assert_eq!(second.refund.amount, Money::from_paise(90_000), "the credit note reverses the full line");
    assert_eq!(*asked.lock().expect("lock"), vec![Money::from_paise(90_000), Money::from_paise(10_000)]);
    assert_eq!(
        *granted.lock().expect("lock"),
        vec![(UserId("u1".into()), Money::from_paise(80_000), format!("refund:{}", second.refund.id))]
    );
    assert_eq!(kept.lock().expect("lock").refunds.len(), 2);
}

#[tokio::test]
async fn a_refund_of_an_order_paid_wholly_by_credit_never_reaches_the_provider() {
    let mut order = stored(OrderStatus::Delivered, 4);
    order.order.draft.store_credit = order.order.draft.total;
    order.order.payment = PaymentId(crate::checkout::STORE_CREDIT_PAYMENT.into());
    let (desk, _) = keeping_desk(order);
    let mut payments = MockPaymentGateway::new();
    payments.expect_refund().never();
    let granted = Arc::new(Mutex::new(Vec::new()));
    let s = service(desk, payments).with_store_credit(Arc::new(crediting(Arc::clone(&granted))));
    let done = s.refund(&staff(StaffRole::Fulfilment), &o1(), "key-00000001", &one_of_a()).await.expect("refunded");
    assert_eq!(done.refund.state, RefundState::Processed);
    assert_eq!(granted.lock().expect("lock").iter().map(|g| g.1).collect::<Vec<_>>(), vec![Money::from_paise(90_000)]);
}

#[tokio::test]
async fn a_credit_part_that_cannot_be_granted_leaves_the_refund_requested_and_pays_no_card() {
    let (desk, _) = keeping_desk(paid_partly_by_credit());
    let mut payments = MockPaymentGateway::new();
    payments.expect_refund().never();
    let mut credit = marque_ports::MockStoreCreditStore::new();
    credit
        .expect_grant()
        .returning(|_, _, _, _| Err(marque_ports::StoreCreditError::Unavailable { reason: "down".into() }));
    let s = service(desk, payments).with_store_credit(Arc::new(credit));
    let input = RefundInput {
        lines: vec![RefundLineInput { product: "a".into(), quantity: 2, restock: true, reason: None }],
        delivery_charge: false,
        reason: "damaged in transit".into(),
    };
    let done = s.refund(&staff(StaffRole::Fulfilment), &o1(), "key-00000001", &input).await.expect("recorded");
    assert_eq!(done.refund.state, RefundState::Requested, "sent again by the reconciliation");
}

/// A return of `quantity` units of line a of o1, at `state` and resolved as `outcome`.
fn a_return(
    id: &str,
    quantity: u32,
    state: marque_domain::order::ReturnState,
    outcome: Option<marque_domain::order::ReturnOutcome>,
) -> marque_ports::ProductReturn {
    marque_ports::ProductReturn {
        id: id.into(),
        order: o1(),
        order_number: "MQ-000001".into(),
        customer: UserId("u1".into()),
        product: ProductId("a".into()),
        product_name: "Part a".into(),
        quantity,
        reason: "The disc is warped out of the box".into(),
        photos: Vec::new(),
        delivered_at: NOW - 86_400,
        warranty_days: 7,
        state,
        note: None,
        resolution_note: None,
        outcome,
        restock: false,
        amount: None,
        refund: None,
        replacement_order: None,
        created_at: NOW - 3_600,
        updated_at: NOW - 60,
        handled_by: None,
        version: 3,
    }
}

fn two_of_a() -> RefundInput {
    let mut input = one_of_a();
    input.lines[0].quantity = 2;
    input
}

#[tokio::test]
async fn units_a_return_holds_or_settled_as_credit_or_replacement_are_not_refunded_again() {
    use marque_domain::order::{ReturnOutcome, ReturnState};
    let (desk, kept) = keeping_desk(stored(OrderStatus::Delivered, 4));
    let mut payments = MockPaymentGateway::new();
    payments.expect_refund().returning(|_, ask| Ok(pending("rfnd_1", ask.amount)));
    let mut returns = marque_ports::MockReturnStore::new();
    returns.expect_returns_of_order().withf(|order| order == &o1()).returning(|_| {
        Ok(vec![
            // One unit of a given back as store credit; a refused return and one refunded hold none.
            a_return("r1", 1, ReturnState::Resolved, Some(ReturnOutcome::StoreCredit)),
            a_return("r2", 2, ReturnState::Refused, None),
            a_return("r3", 1, ReturnState::Received, None),
        ])
    });
    let s = service(desk, payments).with_returns(Arc::new(returns));
    let who = staff(StaffRole::Owner);
    // Of two units of a, r1 settled one and r3 holds the other: none is left to refund directly.
    let refused = s.refund(&who, &o1(), "key-00000001", &one_of_a()).await.err();
    assert_eq!(refused.map(|e| e.message()), Some(Message::RefundQuantityAboveLeft));
    assert!(kept.lock().expect("lock").refunds.is_empty(), "nothing written");
    // r3's own refund (its key) may give its unit back; two units would take r1's as well.
    let own = crate::returns::refund_key("r3");
    let refused = s.refund(&who, &o1(), &own, &two_of_a()).await.err();
    assert_eq!(refused.map(|e| e.message()), Some(Message::RefundQuantityAboveLeft));
    let done = s.refund(&who, &o1(), &own, &one_of_a()).await.expect("r3's unit refunded");
    assert_eq!(done.refund.amount, Money::from_paise(90_000));
}
