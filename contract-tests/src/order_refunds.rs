//! The `OrderDesk` contract's refunds (`marque_ports::order_desk`): a refund kept with its stock
//! entries and timeline row in one transaction, never above what was paid nor above a line's units
//! (also when many staff members refund at once), once per key, a cancellation only on its
//! version, and the provider's news recorded on it (its answers, the webhooks, retries).

use futures::future::join_all;
use marque_domain::catalog::ProductId;
use marque_domain::invoice::FinancialYear;
use marque_domain::order::{Fulfilment, OrderStatus, RefundFilter, ADMIN_CANCELLED};
use marque_domain::Money;
use marque_ports::{
    AccountStore, AdminOrderQuery, AuditEntry, CatalogStore, OrderDesk, OrderDeskError, OrderId, OrderRefund,
    OrderRefundLine, OrderStore, PaymentId, PlacedOrder, RefundCounts, RefundKind, RefundRecorded, RefundState,
    RefundWrite,
};

use crate::order_desk::change_entry;
use crate::orders::{reservation, stock, JUNE_2026};

/// Calls `$callback!(suite_name)` once for every order refund suite.
#[macro_export]
macro_rules! for_each_order_refund_suite {
    ($callback:ident) => {
        $callback!(a_refund_is_kept_with_its_restock_and_timeline_row);
        $callback!(concurrent_refunds_never_exceed_the_units_or_what_was_paid);
        $callback!(a_key_answers_its_first_refund_and_refuses_another_request);
        $callback!(a_cancellation_is_written_only_on_its_version);
        $callback!(the_providers_news_and_retries_are_recorded_on_the_refund);
        $callback!(credit_notes_are_numbered_consecutively_per_financial_year);
        $callback!(concurrent_refunds_get_distinct_consecutive_credit_note_numbers);
        $callback!(the_list_finds_orders_by_where_their_refunds_stand);
    };
}

/// ₹1,000 a unit, ₹100 delivery (the order fixtures' prices).
const UNIT: i64 = 100_000;
const DELIVERY: i64 = 10_000;

/// Places an order of `units` units of product `p001` (which must have stock), paid at `at`.
pub(crate) async fn place(orders: &dyn OrderStore, key: &str, units: u32) -> PlacedOrder {
    let r = reservation(key, "u1", &[(1, units)], JUNE_2026);
    orders.reserve(&r).await.expect("reserve");
    orders.place(&r.payment_order, &PaymentId(format!("pay_{key}")), JUNE_2026).await.expect("place").into_order()
}

/// The order's `n`-th refund: `units` of its line, `amount` paise for them, and the delivery charge.
pub(crate) fn refund(order: &PlacedOrder, n: usize, units: u32, amount: i64, delivery: bool, key: &str) -> OrderRefund {
    let product = order.draft.lines[0].product_id.clone();
    let lines = if units == 0 {
        Vec::new()
    } else {
        vec![OrderRefundLine {
            product,
            name: "Part 1".into(),
            quantity: units,
            amount: Money::from_paise(amount),
            restock: true,
            reason: "damaged".into(),
        }]
    };
    let delivery = Money::from_paise(if delivery { DELIVERY } else { 0 });
    OrderRefund {
        id: format!("{}-{n}", order.id.0),
        order: order.id.clone(),
        payment: order.payment.clone(),
        kind: RefundKind::Partial,
        lines,
        delivery,
        amount: Money::from_paise(amount) + delivery,
        reason: "damaged".into(),
        state: RefundState::Requested,
        provider_refund: None,
        attempt: 1,
        key: key.into(),
        request: format!("{units}/{delivery}"),
        actor: "s1".into(),
        actor_label: "staff1@marque.in".into(),
        created_at: JUNE_2026 + 10,
        updated_at: JUNE_2026 + 10,
        credit_note: None,
    }
}

fn write(refund: OrderRefund, seen: usize) -> RefundWrite {
    RefundWrite { refund, refunds_seen: seen, cancel: None, credit_note_year: None, notices: Vec::new() }
}

fn entry(order: &OrderId, action: &str) -> AuditEntry {
    change_entry(1, JUNE_2026 + 10, action, order)
}

async fn quantity(catalog: &dyn CatalogStore, product: &ProductId) -> u32 {
    catalog.product(product).await.expect("read").expect("the product").quantity
}

pub async fn a_refund_is_kept_with_its_restock_and_timeline_row(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 5).await;
    let order = place(orders, "r1", 3).await;
    let product = order.draft.lines[0].product_id.clone();
    assert_eq!(quantity(catalog, &product).await, 2);
    let first = refund(&order, 1, 2, 2 * UNIT, true, "key-r1-0001");
    let recorded = desk.record_refund(&write(first.clone(), 0), &entry(&order.id, "order.refund")).await;
    let Ok(RefundRecorded::Recorded(after)) = recorded else { panic!("recorded: {recorded:?}") };
    assert_eq!(after.refunds, vec![first.clone()], "kept as given");
    assert_eq!(after.version, 0, "a refund is no change of status");
    assert_eq!(after.timeline.len(), 1);
    assert_eq!((after.timeline[0].action.as_str(), after.timeline[0].status), ("order.refund", OrderStatus::Placed));
    assert_eq!(quantity(catalog, &product).await, 4, "the two units are back in stock");
    let read = desk.order(&order.id).await.expect("read").expect("the order");
    assert_eq!(read.refunds, vec![first]);
    // A line not restocked leaves the stock as it is.
    let mut kept = refund(&order, 2, 1, UNIT, false, "key-r1-0002");
    kept.lines[0].restock = false;
    let recorded = desk.record_refund(&write(kept, 1), &entry(&order.id, "order.refund")).await;
    assert!(matches!(recorded, Ok(RefundRecorded::Recorded(_))), "{recorded:?}");
    assert_eq!(quantity(catalog, &product).await, 4);
    // Everything is refunded now: no unit and no paisa is left.
    let more =
        desk.record_refund(&write(refund(&order, 3, 1, UNIT, false, "key-r1-0003"), 2), &entry(&order.id, "x")).await;
    assert_eq!(more, Err(OrderDeskError::AbovePaid { left: Money::ZERO }));
    assert_eq!(desk.order(&OrderId("nope".into())).await.expect("read"), None);
}

pub async fn concurrent_refunds_never_exceed_the_units_or_what_was_paid(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 10).await;
    let order = place(orders, "c1", 3).await;
    // Twelve staff members each refund one unit, computing on what they read and again when
    // another refund landed first.
    let tasks = (0..12).map(|n| {
        let order = order.clone();
        async move {
            loop {
                let seen = desk.order(&order.id).await.expect("read").expect("the order").refunds.len();
                let key = format!("key-c1-{n:04}");
                let one = refund(&order, seen + 1, 1, UNIT, false, &key);
                match desk.record_refund(&write(one, seen), &entry(&order.id, "order.refund")).await {
                    Err(OrderDeskError::RefundsChanged) => continue,
                    outcome => return outcome,
                }
            }
        }
    });
    let outcomes = join_all(tasks).await;
    let recorded = outcomes.iter().filter(|o| matches!(o, Ok(RefundRecorded::Recorded(_)))).count();
    assert_eq!(recorded, 3, "one refund per unit: {outcomes:?}");
    for refused in outcomes.iter().filter(|o| o.is_err()) {
        // ₹100 (the delivery charge) is left of what was paid, less than a unit; no unit is left.
        let told =
            [Err(OrderDeskError::UnitsAboveLeft), Err(OrderDeskError::AbovePaid { left: Money::from_paise(DELIVERY) })];
        assert!(told.contains(refused), "the others are told: {refused:?}");
    }
    let after = desk.order(&order.id).await.expect("read").expect("the order");
    let total: i64 = after.refunds.iter().map(|r| r.amount.paise()).sum();
    assert_eq!((after.refunds.len(), total), (3, 3 * UNIT));
    assert!(total <= order.draft.total.paise());
    assert_eq!(quantity(catalog, &order.draft.lines[0].product_id).await, 10, "each unit restocked once");

    // Amounts alone: many refunds of the delivery charge and more than is left, at once.
    let order = place(orders, "c2", 1).await;
    let tasks = (0..8).map(|n| {
        let order = order.clone();
        async move {
            loop {
                let seen = desk.order(&order.id).await.expect("read").expect("the order").refunds.len();
                let mut greedy = refund(&order, seen + 1, 0, 0, true, &format!("key-c2-{n:04}"));
                greedy.amount = Money::from_paise(UNIT);
                greedy.delivery = Money::from_paise(UNIT);
                match desk.record_refund(&write(greedy, seen), &entry(&order.id, "order.refund")).await {
                    Err(OrderDeskError::RefundsChanged) => continue,
                    outcome => return outcome,
                }
            }
        }
    });
    let outcomes = join_all(tasks).await;
    assert_eq!(outcomes.iter().filter(|o| o.is_ok()).count(), 1, "{outcomes:?}");
    let after = desk.order(&order.id).await.expect("read").expect("the order");
    let total: i64 = after.refunds.iter().map(|r| r.amount.paise()).sum();
    assert!(total <= order.draft.total.paise(), "{total} refunded of {}", order.draft.total.paise());
}

pub async fn a_key_answers_its_first_refund_and_refuses_another_request(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 5).await;
    let order = place(orders, "k1", 2).await;
    let first = refund(&order, 1, 1, UNIT, false, "key-k1-0001");
    // The same request sent six times at once: one refund.
    let same = write(first.clone(), 0);
    let audit = entry(&order.id, "order.refund");
    let outcomes = join_all((0..6).map(|_| desk.record_refund(&same, &audit))).await;
    for outcome in &outcomes {
        match outcome {
            Ok(RefundRecorded::Recorded(o)) => assert_eq!(o.refunds, vec![first.clone()]),
            Ok(RefundRecorded::Existing(r)) => assert_eq!(**r, first),
            // Computed on no refunds, one landed first: the caller reads again and finds its key.
            Err(OrderDeskError::RefundsChanged) => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(outcomes.iter().filter(|o| matches!(o, Ok(RefundRecorded::Recorded(_)))).count(), 1);
    let again = desk.record_refund(&write(first.clone(), 1), &entry(&order.id, "order.refund")).await;
    assert_eq!(again, Ok(RefundRecorded::Existing(Box::new(first.clone()))));
    let mut other = refund(&order, 2, 1, UNIT, false, "key-k1-0001");
    other.request = "another body".into();
    let refused = desk.record_refund(&write(other, 1), &entry(&order.id, "order.refund")).await;
    assert_eq!(refused, Err(OrderDeskError::KeyReused));
    let read = desk.order(&order.id).await.expect("read").expect("the order");
    assert_eq!((read.refunds.len(), read.timeline.len()), (1, 1), "nothing else written");
    assert_eq!(quantity(catalog, &order.draft.lines[0].product_id).await, 4, "restocked once");
}

pub async fn a_cancellation_is_written_only_on_its_version(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 5).await;
    let order = place(orders, "x1", 2).await;
    let mut all = refund(&order, 1, 2, 2 * UNIT, true, "cancel");
    all.kind = RefundKind::Cancel;
    let to = Fulfilment { status: OrderStatus::Cancelled, shipment: None };
    let stale = RefundWrite {
        refund: all.clone(),
        refunds_seen: 0,
        cancel: Some((3, to.clone())),
        credit_note_year: None,
        notices: Vec::new(),
    };
    let refused = desk.record_refund(&stale, &entry(&order.id, "order.cancel")).await;
    assert_eq!(refused, Err(OrderDeskError::Changed { version: 0 }));
    let read = desk.order(&order.id).await.expect("read").expect("the order");
    assert!(read.refunds.is_empty() && read.timeline.is_empty(), "nothing written");
    let cancel = RefundWrite {
        refund: all.clone(),
        refunds_seen: 0,
        cancel: Some((0, to)),
        credit_note_year: None,
        notices: Vec::new(),
    };
    let recorded = desk.record_refund(&cancel, &entry(&order.id, "order.cancel")).await;
    let Ok(RefundRecorded::Recorded(after)) = recorded else { panic!("recorded: {recorded:?}") };
    assert_eq!((after.order.status, after.order.status_text.as_str(), after.version), (6, ADMIN_CANCELLED, 1));
    assert_eq!(
        after.timeline.last().map(|e| (e.action.as_str(), e.status)),
        Some(("order.cancel", OrderStatus::Cancelled))
    );
    assert_eq!(after.refunds[0].amount, order.draft.total, "all that was paid");
    let customer = orders.order(&order.id).await.expect("read").expect("the order");
    assert_eq!((customer.status, customer.status_text.as_str()), (6, ADMIN_CANCELLED));
    assert_eq!(quantity(catalog, &order.draft.lines[0].product_id).await, 5);
}

pub async fn the_providers_news_and_retries_are_recorded_on_the_refund(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 5).await;
    let order = place(orders, "n1", 2).await;
    let one = refund(&order, 1, 1, UNIT, false, "key-n1-0001");
    assert_eq!(desk.refund_counts().await, Ok(RefundCounts { waiting: 0, failed: 0 }));
    desk.record_refund(&write(one.clone(), 0), &entry(&order.id, "order.refund")).await.expect("recorded");
    assert_eq!(
        desk.unsettled_refunds(10).await.expect("read").iter().map(|r| r.id.clone()).collect::<Vec<_>>(),
        vec![one.id.clone()]
    );
    assert_eq!(desk.refund_counts().await, Ok(RefundCounts { waiting: 1, failed: 0 }), "requested waits");
    // The provider accepted it; a late answer to another attempt changes nothing.
    let pending = desk.settle_refund(&one.id, 1, RefundState::Pending, Some("rfnd_n1".into()), JUNE_2026 + 20).await;
    assert_eq!(
        pending.as_ref().map(|r| (r.state, r.provider_refund.clone())),
        Ok((RefundState::Pending, Some("rfnd_n1".into())))
    );
    let stale = desk.settle_refund(&one.id, 7, RefundState::Processed, None, JUNE_2026 + 21).await.expect("read");
    assert_eq!(stale.state, RefundState::Pending);
    // `refund.failed` arrives through the order store's webhook handling.
    assert!(orders.refund_status("rfnd_n1", RefundState::Failed, JUNE_2026 + 30).await.expect("recorded"));
    let failed = desk.order(&order.id).await.expect("read").expect("the order").refunds[0].clone();
    assert_eq!(failed.state, RefundState::Failed);
    assert!(desk.unsettled_refunds(10).await.expect("read").is_empty());
    assert_eq!(desk.refund_counts().await, Ok(RefundCounts { waiting: 0, failed: 1 }));
    // A retry starts attempt 2, once; the second retry finds it no longer failed.
    let retried =
        desk.retry_refund(&order.id, &one.id, &entry(&order.id, "order.refund_retry")).await.expect("retried");
    assert_eq!((retried.state, retried.attempt, retried.provider_refund.clone()), (RefundState::Requested, 2, None));
    let twice = desk.retry_refund(&order.id, &one.id, &entry(&order.id, "order.refund_retry")).await.expect("as is");
    assert_eq!(twice.attempt, 2);
    let read = desk.order(&order.id).await.expect("read").expect("the order");
    assert_eq!(read.timeline.iter().filter(|e| e.action == "order.refund_retry").count(), 1);
    // The old provider refund's news no longer reaches the new attempt.
    orders.refund_status("rfnd_n1", RefundState::Processed, JUNE_2026 + 40).await.expect("read");
    let processed =
        desk.settle_refund(&one.id, 2, RefundState::Processed, Some("rfnd_n2".into()), JUNE_2026 + 50).await;
    assert_eq!(processed.map(|r| (r.state, r.attempt)), Ok((RefundState::Processed, 2)));
    assert_eq!(desk.refund_counts().await, Ok(RefundCounts::default()), "a processed refund waits no more");
    assert_eq!(
        desk.settle_refund("nope-1", 1, RefundState::Processed, None, 0).await,
        Err(OrderDeskError::RefundNotFound)
    );
    assert_eq!(
        desk.retry_refund(&order.id, "nope-1", &entry(&order.id, "order.refund_retry")).await,
        Err(OrderDeskError::RefundNotFound)
    );
}

/// `write` issuing a credit note in the financial year of the refund's day.
fn with_note(refund: OrderRefund, seen: usize) -> RefundWrite {
    let year = FinancialYear::at_unix_seconds(refund.created_at);
    RefundWrite { credit_note_year: Some(year), ..write(refund, seen) }
}

/// The credit-note number the store gave a recorded refund.
fn number_of(recorded: &Result<RefundRecorded, OrderDeskError>, refund_id: &str) -> String {
    let Ok(RefundRecorded::Recorded(order)) = recorded else { panic!("recorded: {recorded:?}") };
    let refund = order.refunds.iter().find(|r| r.id == refund_id).expect("the refund on its order");
    refund.credit_note.clone().expect("a credit note number")
}

/// `CN/26-27/00000n` for each of `serials`.
fn numbers(serials: impl IntoIterator<Item = u32>) -> Vec<String> {
    serials.into_iter().map(|n| format!("CN/26-27/{n:06}")).collect()
}

pub async fn credit_notes_are_numbered_consecutively_per_financial_year(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 10).await;
    let first_order = place(orders, "cn1", 3).await;
    let second_order = place(orders, "cn2", 2).await;
    let audit = |o: &PlacedOrder| entry(&o.id, "order.refund");

    let one = refund(&first_order, 1, 1, UNIT, false, "key-cn1-0001");
    let recorded = desk.record_refund(&with_note(one.clone(), 0), &audit(&first_order)).await;
    assert_eq!(number_of(&recorded, &one.id), "CN/26-27/000001");
    // Another order's refund takes the next number of the same series.
    let two = refund(&second_order, 1, 1, UNIT, true, "key-cn2-0001");
    let recorded = desk.record_refund(&with_note(two.clone(), 0), &audit(&second_order)).await;
    assert_eq!(number_of(&recorded, &two.id), "CN/26-27/000002");
    // A refund refused takes no number: the series has no gap.
    let too_much = refund(&first_order, 2, 5, 5 * UNIT, false, "key-cn1-0002");
    let refused = desk.record_refund(&with_note(too_much, 1), &audit(&first_order)).await;
    assert!(refused.is_err(), "{refused:?}");
    // A refund without a credit note takes none either, and keeps `credit_note` as given.
    let plain = refund(&first_order, 2, 1, UNIT, false, "key-cn1-0003");
    let recorded = desk.record_refund(&write(plain.clone(), 1), &audit(&first_order)).await;
    let Ok(RefundRecorded::Recorded(after)) = recorded else { panic!("recorded: {recorded:?}") };
    assert_eq!(after.refunds[1], plain);
    let three = refund(&first_order, 3, 1, UNIT, false, "key-cn1-0004");
    let recorded = desk.record_refund(&with_note(three.clone(), 2), &audit(&first_order)).await;
    assert_eq!(number_of(&recorded, &three.id), "CN/26-27/000003");
    // A repeat of a recorded refund answers the first, with its number, and takes no new one.
    let again = desk.record_refund(&with_note(three.clone(), 3), &audit(&first_order)).await;
    let Ok(RefundRecorded::Existing(first)) = again else { panic!("the first: {again:?}") };
    assert_eq!(first.credit_note.as_deref(), Some("CN/26-27/000003"));
    // The next financial year starts its own series at 1.
    let mut next_year = refund(&second_order, 2, 1, UNIT, false, "key-cn2-0002");
    next_year.created_at = JUNE_2026 + 365 * 86_400;
    let recorded = desk.record_refund(&with_note(next_year.clone(), 1), &audit(&second_order)).await;
    assert_eq!(number_of(&recorded, &next_year.id), "CN/27-28/000001");
    // As read back.
    let read = desk.order(&first_order.id).await.expect("read").expect("the order");
    let kept: Vec<Option<&str>> = read.refunds.iter().map(|r| r.credit_note.as_deref()).collect();
    assert_eq!(kept, vec![Some("CN/26-27/000001"), None, Some("CN/26-27/000003")]);
    // Listed for Purchase History: each order's notes, oldest first; an unknown order has none.
    let asked = [first_order.id.clone(), second_order.id.clone(), OrderId("nope".into())];
    let listed = desk.credit_notes_of(&asked).await.expect("read");
    let of = |order: &PlacedOrder| -> Vec<(String, String)> {
        listed.iter().filter(|n| n.order == order.id).map(|n| (n.refund.clone(), n.number.clone())).collect()
    };
    assert_eq!(of(&first_order), vec![(one.id.clone(), numbers([1])[0].clone()), (three.id, numbers([3])[0].clone())]);
    assert_eq!(of(&second_order), vec![(two.id, numbers([2])[0].clone()), (next_year.id, "CN/27-28/000001".into())]);
    assert_eq!(listed.len(), 4);
    assert_eq!(desk.credit_notes_of(&[]).await.expect("read"), Vec::new());
}

pub async fn concurrent_refunds_get_distinct_consecutive_credit_note_numbers(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 30).await;
    let mut placed = Vec::new();
    for n in 0..5 {
        placed.push(place(orders, &format!("cc{n}"), 3).await);
    }
    // Five orders, each refunded one unit at a time by three staff members at once: fifteen
    // refunds racing on one series (and three on each order).
    let tasks = placed.iter().flat_map(|order| {
        (0..3).map(move |n| async move {
            loop {
                let seen = desk.order(&order.id).await.expect("read").expect("the order").refunds.len();
                let one = refund(order, seen + 1, 1, UNIT, false, &format!("key-{}-{n:04}", order.id.0));
                match desk.record_refund(&with_note(one, seen), &entry(&order.id, "order.refund")).await {
                    Err(OrderDeskError::RefundsChanged) => continue,
                    outcome => return outcome,
                }
            }
        })
    });
    let outcomes = join_all(tasks).await;
    assert!(outcomes.iter().all(|o| matches!(o, Ok(RefundRecorded::Recorded(_)))), "{outcomes:?}");
    let mut issued = Vec::new();
    for order in &placed {
        let read = desk.order(&order.id).await.expect("read").expect("the order");
        assert_eq!(read.refunds.len(), 3);
        issued.extend(read.refunds.iter().map(|r| r.credit_note.clone().expect("a number")));
    }
    issued.sort();
    assert_eq!(issued, numbers(1..=15), "fifteen numbers, none twice, none skipped");
}

pub async fn the_list_finds_orders_by_where_their_refunds_stand(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 20).await;
    let untouched = place(orders, "f0", 1).await;
    let partly = place(orders, "f1", 2).await;
    let wholly = place(orders, "f2", 1).await;
    let failing = place(orders, "f3", 2).await;
    let part = refund(&partly, 1, 1, UNIT, false, "key-f1-0001");
    desk.record_refund(&write(part.clone(), 0), &entry(&partly.id, "order.refund")).await.expect("recorded");
    desk.settle_refund(&part.id, 1, RefundState::Processed, Some("rfnd_f1".into()), JUNE_2026 + 20).await.expect("set");
    let all = refund(&wholly, 1, 1, UNIT, true, "key-f2-0001");
    desk.record_refund(&write(all, 0), &entry(&wholly.id, "order.refund")).await.expect("recorded");
    let fails = refund(&failing, 1, 1, UNIT, false, "key-f3-0001");
    desk.record_refund(&write(fails.clone(), 0), &entry(&failing.id, "order.refund")).await.expect("recorded");
    desk.settle_refund(&fails.id, 1, RefundState::Failed, Some("rfnd_f3".into()), JUNE_2026 + 30).await.expect("set");
    let found = |filter: RefundFilter| async move {
        let query = AdminOrderQuery { refunds: Some(filter), ..AdminOrderQuery::default() };
        let query = AdminOrderQuery { window: crate::fixtures::window(1, 20), ..query };
        let page = desk.orders(&query).await.expect("a list");
        let mut ids: Vec<String> = page.orders.iter().map(|o| o.id.0.clone()).collect();
        ids.sort();
        (ids, page.total)
    };
    let ids = |orders: &[&PlacedOrder]| {
        let mut ids: Vec<String> = orders.iter().map(|o| o.id.0.clone()).collect();
        ids.sort();
        let total = u64::try_from(ids.len()).expect("few");
        (ids, total)
    };
    assert_eq!(found(RefundFilter::None).await, ids(&[&untouched]), "nothing given back");
    assert_eq!(found(RefundFilter::Partial).await, ids(&[&partly, &failing]), "some of the total, paid or not");
    assert_eq!(found(RefundFilter::Full).await, ids(&[&wholly]), "the whole total with its delivery charge");
    assert_eq!(found(RefundFilter::Open).await, ids(&[&wholly]), "asked for, not settled");
    assert_eq!(found(RefundFilter::Failed).await, ids(&[&failing]), "refused by the provider");
}
