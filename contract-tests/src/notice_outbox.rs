//! The `NoticeOutbox` contract (`marque_ports::notice_outbox`): customers' order notices queued in
//! the transaction of the order change that carries them (and only then), claimed by one worker at
//! a time under a lease, and their attempts, retries and failures kept. Each suite gets the notice
//! outbox, the order desk, the order store and the catalog store of one fresh database.

use std::collections::BTreeSet;

use futures::future::join;
use marque_domain::order::{Fulfilment, NoticeKind, OrderStatus, Shipment};
use marque_ports::{
    CatalogStore, Channel, NewNotice, NoticeCounts, NoticeOutbox, NoticeState, OrderDesk, OrderDeskError, OrderStore,
    PlacedOrder, RefundRecorded, RefundWrite,
};

use crate::order_desk::change_entry;
use crate::order_refunds::{place, refund};
use crate::orders::{stock, JUNE_2026};

/// Calls `$callback!(suite_name)` once for every notice outbox suite.
#[macro_export]
macro_rules! for_each_notice_outbox_suite {
    ($callback:ident) => {
        $callback!(notices_are_queued_only_with_the_order_write_that_carries_them);
        $callback!(a_claim_is_exclusive_while_its_lease_holds);
        $callback!(a_failed_attempt_waits_for_its_retry_and_the_last_one_fails_the_notice);
    };
}

/// The email and the SMS of `kind` for `order`, queued at `at`.
fn pair(order: &PlacedOrder, kind: NoticeKind, at: i64) -> Vec<NewNotice> {
    let notice = |channel: Channel, recipient: &str| NewNotice {
        order: order.id.clone(),
        kind,
        channel,
        recipient: recipient.into(),
        subject: if channel == Channel::Email {
            format!("Order {} - Marque Parts", order.order_number)
        } else {
            String::new()
        },
        text: format!("ऑर्डर {} AWB D1234567", order.order_number),
        template: (channel == Channel::Sms).then(|| kind.template().to_owned()),
        at,
    };
    vec![notice(Channel::Email, "asha@example.in"), notice(Channel::Sms, "9876543210")]
}

fn shipped() -> Fulfilment {
    Fulfilment { status: OrderStatus::Shipped, shipment: Some(Shipment::parse("dtdc", "D1234567", None).expect("ok")) }
}

fn confirmed() -> Fulfilment {
    Fulfilment { status: OrderStatus::Confirmed, shipment: None }
}

pub async fn notices_are_queued_only_with_the_order_write_that_carries_them(
    outbox: &dyn NoticeOutbox,
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1], 20).await;
    let order = place(orders, "a", 2).await;
    assert!(outbox.notices_of(&order.id).await.expect("read").is_empty());

    let confirm = change_entry(1, JUNE_2026 + 100, "order.status", &order.id);
    let queued = pair(&order, NoticeKind::Confirmed, JUNE_2026 + 100);
    desk.update_fulfilment(&order.id, 0, &confirmed(), &confirm, &queued).await.expect("confirmed");
    let kept = outbox.notices_of(&order.id).await.expect("read");
    assert_eq!(kept.iter().map(|n| n.notice.clone()).collect::<Vec<_>>(), queued, "kept as given, in order");
    assert!(kept.iter().all(|n| n.state == NoticeState::Waiting && n.attempts == 0 && n.due_at == JUNE_2026 + 100));
    assert_eq!(kept.iter().map(|n| n.id.as_str()).collect::<BTreeSet<_>>().len(), 2, "each its own id");

    // A change refused on its version writes none of its notices; nor does an unknown order.
    let stale = pair(&order, NoticeKind::Shipped, JUNE_2026 + 200);
    let refused = desk.update_fulfilment(&order.id, 0, &shipped(), &confirm, &stale).await;
    assert_eq!(refused.map(|o| o.version), Err(OrderDeskError::Changed { version: 1 }));
    assert_eq!(outbox.notices_of(&order.id).await.expect("read").len(), 2, "nothing more queued");

    // A refund keeps its notices in its own transaction; one refused keeps none.
    let refunded = pair(&order, NoticeKind::Refunded, JUNE_2026 + 300);
    let write = RefundWrite {
        refund: refund(&order, 1, 1, 100_000, false, "key-n1"),
        refunds_seen: 0,
        cancel: None,
        credit_note_year: None,
        notices: refunded.clone(),
    };
    let entry = change_entry(1, JUNE_2026 + 300, "order.refund", &order.id);
    assert!(matches!(desk.record_refund(&write, &entry).await, Ok(RefundRecorded::Recorded(_))));
    let above = RefundWrite {
        refund: refund(&order, 2, 1, 900_000, false, "key-n2"),
        refunds_seen: 1,
        notices: pair(&order, NoticeKind::Refunded, JUNE_2026 + 400),
        ..write.clone()
    };
    assert!(matches!(desk.record_refund(&above, &entry).await, Err(OrderDeskError::AbovePaid { .. })));
    let kept = outbox.notices_of(&order.id).await.expect("read");
    assert_eq!(kept.len(), 4);
    assert_eq!(kept[2..].iter().map(|n| n.notice.clone()).collect::<Vec<_>>(), refunded);
    assert_eq!(outbox.counts().await.expect("counts"), NoticeCounts { waiting: 4, failed: 0 });
}

pub async fn a_claim_is_exclusive_while_its_lease_holds(
    outbox: &dyn NoticeOutbox,
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1], 20).await;
    let mut queued = 0;
    for key in ["a", "b", "c"] {
        let order = place(orders, key, 1).await;
        let entry = change_entry(1, JUNE_2026 + 100, "order.status", &order.id);
        let notices = pair(&order, NoticeKind::Confirmed, JUNE_2026 + 100);
        queued += notices.len();
        desk.update_fulfilment(&order.id, 0, &confirmed(), &entry, &notices).await.expect("confirmed");
    }
    let now = JUNE_2026 + 200;
    assert!(outbox.claim("w0", JUNE_2026 + 99, now + 60, 10).await.expect("claim").is_empty(), "none due yet");

    let (one, two) = join(outbox.claim("w1", now, now + 60, 4), outbox.claim("w2", now, now + 60, 4)).await;
    let (one, two) = (one.expect("w1 claims"), two.expect("w2 claims"));
    let ids = |claimed: &[marque_ports::QueuedNotice]| claimed.iter().map(|n| n.id.clone()).collect::<BTreeSet<_>>();
    assert!(ids(&one).is_disjoint(&ids(&two)), "no notice claimed twice: {one:?} {two:?}");
    assert!(one.len() <= 4 && two.len() <= 4);
    assert_eq!(one.len() + two.len(), queued, "between them, every due notice");

    assert!(outbox.claim("w3", now + 30, now + 90, 10).await.expect("claim").is_empty(), "leased");
    // Only the holder of the lease records an outcome.
    let theirs = &one[0];
    assert!(!outbox.sent(&theirs.id, "w2", now + 1).await.expect("sent"), "not w2's");
    assert!(!outbox.attempt_failed(&theirs.id, "w2", "down", Some(now + 5)).await.expect("failed"), "not w2's");
    assert!(outbox.sent(&theirs.id, "w1", now + 1).await.expect("sent"));
    assert!(!outbox.sent(&theirs.id, "w1", now + 2).await.expect("sent"), "once");

    // A lapsed lease (a worker that died mid-send) is claimed again, but never a sent notice.
    let again = outbox.claim("w3", now + 61, now + 120, 10).await.expect("claim");
    assert_eq!(again.len(), queued - 1);
    assert!(!ids(&again).contains(&theirs.id));
    assert!(!outbox.sent(&again[0].id, "w1", now + 62).await.expect("sent"), "the lapsed holder lost it");
    assert!(outbox.sent(&again[0].id, "w3", now + 62).await.expect("sent"));
    assert_eq!(outbox.counts().await.expect("counts"), NoticeCounts { waiting: (queued - 2) as u64, failed: 0 });
}

pub async fn a_failed_attempt_waits_for_its_retry_and_the_last_one_fails_the_notice(
    outbox: &dyn NoticeOutbox,
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1], 20).await;
    let order = place(orders, "a", 1).await;
    let entry = change_entry(1, JUNE_2026 + 100, "order.status", &order.id);
    let notices = pair(&order, NoticeKind::Confirmed, JUNE_2026 + 100);
    desk.update_fulfilment(&order.id, 0, &confirmed(), &entry, &notices[..1]).await.expect("confirmed");
    let now = JUNE_2026 + 200;

    let claimed = outbox.claim("w1", now, now + 60, 10).await.expect("claim");
    let id = claimed[0].id.clone();
    assert!(outbox.attempt_failed(&id, "w1", "the SMTP relay did not answer", Some(now + 30)).await.expect("kept"));
    let kept = outbox.notices_of(&order.id).await.expect("read");
    assert_eq!(
        (kept[0].state, kept[0].attempts, kept[0].due_at, kept[0].last_error.as_deref()),
        (NoticeState::Waiting, 1, now + 30, Some("the SMTP relay did not answer"))
    );
    assert!(!outbox.sent(&id, "w1", now + 1).await.expect("sent"), "the failed attempt ended the lease");
    assert!(outbox.claim("w2", now + 29, now + 90, 10).await.expect("claim").is_empty(), "not due before its retry");

    let retried = outbox.claim("w2", now + 30, now + 90, 10).await.expect("claim");
    assert_eq!((retried.len(), retried[0].attempts), (1, 1));
    assert!(outbox.attempt_failed(&id, "w2", "refused", Some(now + 100)).await.expect("kept"));
    let third = outbox.claim("w1", now + 100, now + 160, 10).await.expect("claim");
    assert_eq!(third[0].attempts, 2);
    assert!(outbox.attempt_failed(&id, "w1", "still down", None).await.expect("kept"));
    let failed = outbox.notices_of(&order.id).await.expect("read");
    assert_eq!(
        (failed[0].state, failed[0].attempts, failed[0].last_error.as_deref()),
        (NoticeState::Failed, 3, Some("still down"))
    );
    assert!(outbox.claim("w1", now + 100_000, now + 100_060, 10).await.expect("claim").is_empty(), "never again");
    assert!(!outbox.sent(&id, "w1", now + 100_001).await.expect("sent"));
    assert_eq!(outbox.counts().await.expect("counts"), NoticeCounts { waiting: 0, failed: 1 });
}
