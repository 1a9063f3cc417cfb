use std::sync::Mutex;

use marque_domain::address::{Address, AddressInput};
use marque_domain::invoice::{FinancialYear, InvoiceNumber};
use marque_domain::order::{Language, Shipment, NOTICE_MAX_ATTEMPTS};
use marque_domain::pricing::DiscountPercent;
use marque_domain::staff::{Staff, StaffId, StaffRole};
use marque_domain::Money;
use marque_ports::{
    MockNoticeOutbox, MockNotifier, MockOrderDesk, NoticeState, OrderDraft, OrderId, PaymentId, PaymentOrderId,
    PlacedOrder, QueuedNotice, UserId,
};

use super::*;
use crate::admin::orders::{AdminOrdersService, FulfilmentInput};

struct Fixed(i64);

impl Clock for Fixed {
    fn now(&self) -> i64 {
        self.0
    }
}

const NOW: i64 = 1_780_295_400;

fn shipment() -> Shipment {
    Shipment::parse("delhivery", "1234567890", None).expect("a shipment")
}

fn at(status: OrderStatus, shipment: Option<Shipment>) -> Fulfilment {
    Fulfilment { status, shipment }
}

fn order(status: OrderStatus, language: Option<Language>) -> AdminOrder {
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
            id: OrderId("o1".into()),
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
            shipment: None,
        },
        version: 2,
        timeline: Vec::new(),
        customer_email: Some("asha@example.in".into()),
        customer_mobile: Some("9876543210".into()),
        customer_language: language,
        refunds: Vec::new(),
    }
}

fn every_sms() -> NoticeSettings {
    NoticeSettings { shop_name: "Marque Parts".into(), sms: NoticeKind::ALL.into_iter().collect() }
}

#[test]
fn each_move_tells_its_own_notice_and_packing_tells_nothing() {
    let s = shipment();
    let cases = [
        (at(OrderStatus::Placed, None), at(OrderStatus::Confirmed, None), Some(OrderNotice::Confirmed)),
        (at(OrderStatus::Confirmed, None), at(OrderStatus::Packed, None), None),
        (
            at(OrderStatus::Packed, None),
            at(OrderStatus::Shipped, Some(s.clone())),
            Some(OrderNotice::Shipped(s.clone())),
        ),
        (
            at(OrderStatus::Shipped, Some(s.clone())),
            at(OrderStatus::Delivered, Some(s.clone())),
            Some(OrderNotice::Delivered),
        ),
        (
            at(OrderStatus::Placed, None),
            at(OrderStatus::Cancelled, None),
            Some(OrderNotice::Cancelled { refund: Money::ZERO }),
        ),
    ];
    for (before, after, told) in cases {
        assert_eq!(notice_of_move(&before, &after), told, "{before:?} → {after:?}");
    }
    // A corrected AWB is told again; the same shipment is not.
    let corrected = Shipment::parse("bluedart", "BD99887766", None).expect("a shipment");
    assert_eq!(
        notice_of_move(&at(OrderStatus::Shipped, Some(s.clone())), &at(OrderStatus::Shipped, Some(corrected.clone()))),
        Some(OrderNotice::Shipped(corrected))
    );
    assert_eq!(notice_of_move(&at(OrderStatus::Shipped, Some(s.clone())), &at(OrderStatus::Shipped, Some(s))), None);
}

#[test]
fn a_notice_is_an_email_and_an_sms_in_the_customers_language() {
    let notice = OrderNotice::Shipped(shipment());
    let queued = queue_for(&order(OrderStatus::Packed, Some(Language::Hindi)), &notice, &every_sms(), NOW);
    assert_eq!(queued.len(), 2, "{queued:?}");
    let (email, sms) = (&queued[0], &queued[1]);
    assert_eq!(
        (email.channel, email.recipient.as_str(), email.template.as_deref()),
        (Channel::Email, "asha@example.in", None)
    );
    assert_eq!(
        (sms.channel, sms.recipient.as_str(), sms.template.as_deref()),
        (Channel::Sms, "9876543210", Some("order-shipped"))
    );
    assert_eq!(email.subject, "ऑर्डर MQ-000001 भेज दिया गया - Marque Parts");
    assert!(email.text.contains("कूरियर: Delhivery") && email.text.contains("AWB: 1234567890"), "{}", email.text);
    assert!(sms.text.contains("https://www.delhivery.com/track/package/1234567890"), "{}", sms.text);
    assert!(queued.iter().all(|n| n.order.0 == "o1" && n.kind == NoticeKind::Shipped && n.at == NOW));

    // Never chosen: English.
    let english = queue_for(&order(OrderStatus::Packed, None), &notice, &every_sms(), NOW);
    assert_eq!(english[0].subject, "Order MQ-000001 shipped - Marque Parts");
}

#[test]
fn without_its_template_a_notice_goes_by_email_only_and_without_contacts_not_at_all() {
    let mut only_shipped = NoticeSettings::default();
    only_shipped.sms.insert(NoticeKind::Shipped);
    let delivered = queue_for(&order(OrderStatus::Shipped, None), &OrderNotice::Delivered, &only_shipped, NOW);
    assert_eq!(delivered.iter().map(|n| n.channel).collect::<Vec<_>>(), vec![Channel::Email]);
    let mut nobody = order(OrderStatus::Shipped, None);
    nobody.customer_email = None;
    nobody.customer_mobile = None;
    assert!(queue_for(&nobody, &OrderNotice::Delivered, &every_sms(), NOW).is_empty());
}

fn fulfilment() -> Staff {
    Staff {
        id: StaffId("s1".into()),
        email: "ravi@marque.test".into(),
        name: "Ravi".into(),
        role: StaffRole::Fulfilment,
    }
}

#[tokio::test]
async fn shipping_queues_the_shipped_notice_in_the_same_write_as_the_move() {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(|_| Ok(Some(order(OrderStatus::Packed, Some(Language::English)))));
    desk.expect_update_fulfilment()
        .withf(|_, version, to, audit, notices| {
            *version == 2
                && to.status == OrderStatus::Shipped
                && audit.action == "order.status"
                && notices.len() == 2
                && notices.iter().all(|n| n.kind == NoticeKind::Shipped && n.text.contains("1234567890"))
                && notices[1].text
                    == "Marque Parts: order MQ-000001 shipped by Delhivery, AWB 1234567890. Track: \
                        https://www.delhivery.com/track/package/1234567890"
        })
        .times(1)
        .returning(|_, _, to, _, _| {
            let mut after = order(to.status, None);
            after.order.shipment = to.shipment.clone();
            Ok(after)
        });
    let input = FulfilmentInput {
        status: Some(4),
        courier: Some("delhivery".into()),
        awb: Some("1234567890".into()),
        tracking_url: None,
    };
    let service = AdminOrdersService::new(Arc::new(desk), Arc::new(Fixed(NOW))).with_notices(every_sms());
    let shipped = service.change(&fulfilment(), &OrderId("o1".into()), 2, &input).await.expect("shipped");
    assert_eq!(shipped.order.status, 4);
}

#[tokio::test]
async fn packing_queues_nothing() {
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(|_| Ok(Some(order(OrderStatus::Confirmed, None))));
    desk.expect_update_fulfilment()
        .withf(|_, _, to, _, notices| to.status == OrderStatus::Packed && notices.is_empty())
        .times(1)
        .returning(|_, _, to, _, _| Ok(order(to.status, None)));
    let service = AdminOrdersService::new(Arc::new(desk), Arc::new(Fixed(NOW))).with_notices(every_sms());
    let input = FulfilmentInput { status: Some(3), ..FulfilmentInput::default() };
    service.change(&fulfilment(), &OrderId("o1".into()), 2, &input).await.expect("packed");
}

fn queued(id: &str, channel: Channel, attempts: u32) -> QueuedNotice {
    QueuedNotice {
        id: id.into(),
        notice: NewNotice {
            order: OrderId("o1".into()),
            kind: NoticeKind::Shipped,
            channel,
            recipient: if channel == Channel::Sms { "9876543210".into() } else { "asha@example.in".into() },
            subject: "Order MQ-000001 shipped - Marque Parts".into(),
            text: "AWB 1234567890".into(),
            template: (channel == Channel::Sms).then(|| "order-shipped".to_owned()),
            at: NOW - 10,
        },
        state: NoticeState::Waiting,
        attempts,
        due_at: NOW - 10,
        last_error: None,
    }
}

type Outcomes = Arc<Mutex<Vec<(String, Option<Option<i64>>)>>>;

/// An outbox that hands out `claimed` once and records each outcome: `None` sent, `Some(retry_at)` failed.
fn outbox(claimed: Vec<QueuedNotice>) -> (MockNoticeOutbox, Outcomes) {
    let outcomes: Outcomes = Arc::default();
    let mut outbox = MockNoticeOutbox::new();
    let claimed = Mutex::new(Some(claimed));
    outbox
        .expect_claim()
        .withf(|worker, now, until, limit| {
            worker == "w1" && *now == NOW && *until == NOW + NOTICE_LEASE_SECS && *limit == NOTICE_BATCH
        })
        .returning(move |_, _, _, _| Ok(claimed.lock().expect("lock").take().unwrap_or_default()));
    let sent = Arc::clone(&outcomes);
    outbox.expect_sent().returning(move |id, worker, _| {
        assert_eq!(worker, "w1");
        sent.lock().expect("lock").push((id.to_owned(), None));
        Ok(true)
    });
    let failed = Arc::clone(&outcomes);
    outbox.expect_attempt_failed().returning(move |id, worker, error, retry_at| {
        assert_eq!(worker, "w1");
        assert!(!error.contains("AWB"), "the error names no text: {error}");
        failed.lock().expect("lock").push((id.to_owned(), Some(retry_at)));
        Ok(true)
    });
    (outbox, outcomes)
}

fn worker(outbox: MockNoticeOutbox, notifier: MockNotifier) -> NoticeWorker {
    NoticeWorker::new(Arc::new(outbox), Arc::new(notifier), Arc::new(Fixed(NOW)), "w1")
}

#[tokio::test]
async fn the_worker_sends_each_claimed_notice_and_marks_it_sent() {
    let (outbox, outcomes) = outbox(vec![queued("n1", Channel::Email, 0), queued("n2", Channel::Sms, 0)]);
    let mut notifier = MockNotifier::new();
    notifier
        .expect_send()
        .withf(|n| n.text == "AWB 1234567890" && n.attachments.is_empty())
        .times(2)
        .returning(|_| Ok(()));
    let pass = worker(outbox, notifier).run_once().await.expect("a pass");
    assert_eq!(pass, NoticePass { claimed: 2, sent: 2, retrying: 0, failed: 0 });
    assert_eq!(*outcomes.lock().expect("lock"), vec![("n1".to_owned(), None), ("n2".to_owned(), None)]);
}

#[tokio::test]
async fn a_gateway_that_is_down_is_tried_again_later_and_given_up_after_the_last_attempt() {
    let (outbox, outcomes) = outbox(vec![
        queued("first", Channel::Sms, 0),
        queued("third", Channel::Sms, 2),
        queued("last", Channel::Sms, NOTICE_MAX_ATTEMPTS - 1),
    ]);
    let mut notifier = MockNotifier::new();
    notifier.expect_send().times(3).returning(|_| Err(NotifyError::Unavailable { reason: "timeout".into() }));
    let pass = worker(outbox, notifier).run_once().await.expect("a pass, whatever the gateway");
    assert_eq!(pass, NoticePass { claimed: 3, sent: 0, retrying: 2, failed: 1 });
    assert_eq!(
        *outcomes.lock().expect("lock"),
        vec![
            ("first".to_owned(), Some(Some(NOW + 30))),
            ("third".to_owned(), Some(Some(NOW + 120))),
            ("last".to_owned(), Some(None)),
        ]
    );
}

#[tokio::test]
async fn a_refused_recipient_is_failed_at_once() {
    let (outbox, outcomes) = outbox(vec![queued("n1", Channel::Sms, 0)]);
    let mut notifier = MockNotifier::new();
    notifier.expect_send().times(1).returning(|_| Err(NotifyError::Refused { reason: "not a mobile".into() }));
    let pass = worker(outbox, notifier).run_once().await.expect("a pass");
    assert_eq!(pass.failed, 1);
    assert_eq!(*outcomes.lock().expect("lock"), vec![("n1".to_owned(), Some(None))]);
}

#[tokio::test]
async fn a_failing_notifier_never_reaches_the_staff_members_action() {
    // The move writes its notices with the order; the gateway is the worker's alone, so a notifier
    // that fails every call changes nothing of the move's outcome.
    let mut desk = MockOrderDesk::new();
    desk.expect_order().returning(|_| Ok(Some(order(OrderStatus::Shipped, None))));
    desk.expect_update_fulfilment()
        .withf(|_, _, _, _, notices| notices.len() == 2)
        .times(1)
        .returning(|_, _, to, _, _| Ok(order(to.status, None)));
    let service = AdminOrdersService::new(Arc::new(desk), Arc::new(Fixed(NOW))).with_notices(every_sms());
    let input = FulfilmentInput { status: Some(5), ..FulfilmentInput::default() };
    let delivered = service.change(&fulfilment(), &OrderId("o1".into()), 2, &input).await;
    assert_eq!(delivered.map(|o| o.order.status), Ok(5));

    let (outbox, outcomes) = outbox(vec![queued("n1", Channel::Email, 0)]);
    let mut notifier = MockNotifier::new();
    notifier.expect_send().returning(|_| Err(NotifyError::Unavailable { reason: "down".into() }));
    assert!(worker(outbox, notifier).run_once().await.is_ok());
    assert_eq!(outcomes.lock().expect("lock").len(), 1, "kept to be tried again");
}
