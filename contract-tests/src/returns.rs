//! The `ReturnStore` contract (`marque_ports::returns`): returns asked for never hold more units of
//! a line than allowed (also when asked for at once), listed newest first by state, moved only on
//! the version they name with their audit record and notices (or not at all), and a grant of store
//! credit written once with the move that makes it.

use futures::future::join_all;
use marque_domain::catalog::ProductId;
use marque_domain::order::{NoticeKind, ReturnOutcome, ReturnState};
use marque_domain::staff::StaffId;
use marque_domain::store_credit::{Grant, GrantSource};
use marque_domain::Money;
use marque_ports::{
    Actor, AuditEntry, AuditLog, AuditQuery, Channel, CreditGrant, NewNotice, NewReturn, NoticeOutbox, OrderId,
    ReturnMove, ReturnQuery, ReturnStore, ReturnStoreError, UserId,
};

use crate::fixtures::window;

/// Calls `$callback!(suite_name)` once for every return suite.
#[macro_export]
macro_rules! for_each_return_suite {
    ($callback:ident) => {
        $callback!(requests_never_hold_more_units_than_allowed_even_when_made_at_once);
        $callback!(the_list_filters_by_state_and_pages_newest_first);
        $callback!(a_move_happens_only_on_the_version_it_names_with_its_audit_record_and_notices);
        $callback!(of_concurrent_resolutions_one_wins_and_the_credit_is_granted_once);
        $callback!(forgetting_a_customer_empties_their_reasons_and_photos_and_nothing_else);
    };
}

/// 2026-06-01T00:00:00Z.
const JUNE_2026: i64 = 1_780_272_000;

fn asked(id: &str, order: &str, product: &str, quantity: u32, allowed: u32, at: i64) -> NewReturn {
    NewReturn {
        id: id.to_owned(),
        order: OrderId(order.to_owned()),
        order_number: format!("MQ-{order}"),
        customer: UserId(format!("user-of-{order}")),
        product: ProductId(product.to_owned()),
        product_name: format!("Part {product}"),
        quantity,
        units_allowed: allowed,
        reason: "The disc is warped out of the box".to_owned(),
        photos: vec![format!("returns/{id}/1.jpg")],
        delivered_at: at - 86_400,
        warranty_days: 7,
        created_at: at,
    }
}

fn notice(order: &str, kind: NoticeKind, at: i64) -> NewNotice {
    NewNotice {
        order: OrderId(order.to_owned()),
        kind,
        channel: Channel::Email,
        recipient: "buyer@example.in".to_owned(),
        subject: "Return".to_owned(),
        text: "Your return".to_owned(),
        template: None,
        at,
    }
}

fn entry(n: u32, at: i64, action: &str, id: &str) -> AuditEntry {
    let actor = Actor::Staff { id: StaffId(format!("s{n}")), email: format!("desk{n}@marque.in") };
    AuditEntry::new(at, actor, action, format!("return:{id}"))
}

fn moved(to: ReturnState, note: Option<&str>, at: i64) -> ReturnMove {
    ReturnMove {
        to,
        note: note.map(str::to_owned),
        outcome: None,
        restock: false,
        put_back: false,
        amount: None,
        refund: None,
        replacement_order: None,
        at,
    }
}

fn as_credit(amount: i64, at: i64) -> ReturnMove {
    ReturnMove {
        outcome: Some(ReturnOutcome::StoreCredit),
        amount: Some(Money::from_paise(amount)),
        ..moved(ReturnState::Resolved, Some("Part is fine, credit given"), at)
    }
}

fn grant(id: &str, customer: &str, amount: i64, at: i64) -> CreditGrant {
    CreditGrant {
        customer: UserId(customer.to_owned()),
        grant: Grant::new(Money::from_paise(amount), at, GrantSource::Return(id.to_owned())),
    }
}

pub async fn requests_never_hold_more_units_than_allowed_even_when_made_at_once(
    store: &dyn ReturnStore,
    _audit: &dyn AuditLog,
    outbox: &dyn NoticeOutbox,
) {
    let first = store
        .request(&asked("r1", "o1", "p1", 1, 3, JUNE_2026), &[notice("o1", NoticeKind::ReturnRequested, JUNE_2026)])
        .await
        .expect("asked");
    assert_eq!((first.state, first.version, first.quantity), (ReturnState::Requested, 0, 1));
    assert_eq!((first.customer.0.as_str(), first.product.0.as_str()), ("user-of-o1", "p1"));
    assert_eq!((first.photos.len(), first.warranty_days, first.outcome), (1, 7, None));
    assert_eq!(store.product_return("r1").await.expect("read"), Some(first.clone()), "read back as asked");
    assert_eq!(store.product_return("nope").await.expect("read"), None);
    assert_eq!(store.product_return("").await.expect("read"), None);
    let queued = outbox.notices_of(&OrderId("o1".into())).await.expect("notices");
    assert_eq!(queued.len(), 1, "the notice is queued with the request");

    // Two units left of three; eight requests of one unit at once: exactly two are taken.
    let asks: Vec<NewReturn> =
        (0..8).map(|n| asked(&format!("c{n}"), "o1", "p1", 1, 3, JUNE_2026 + 10 + i64::from(n))).collect();
    let outcomes = join_all(asks.iter().map(|a| store.request(a, &[]))).await;
    let taken = outcomes.iter().filter(|o| o.is_ok()).count();
    assert_eq!(taken, 2, "{outcomes:?}");
    for refused in outcomes.iter().filter_map(|o| o.as_ref().err()) {
        assert_eq!(refused, &ReturnStoreError::UnitsAboveLeft { left: 0 });
    }
    // Another line of the same order, and the same product on another order, are their own.
    store.request(&asked("x1", "o1", "p2", 2, 2, JUNE_2026 + 30), &[]).await.expect("another line");
    store.request(&asked("x2", "o2", "p1", 1, 1, JUNE_2026 + 31), &[]).await.expect("another order");
    assert_eq!(
        store.request(&asked("x3", "o1", "p2", 1, 2, JUNE_2026 + 32), &[]).await,
        Err(ReturnStoreError::UnitsAboveLeft { left: 0 })
    );
    // A refused return gives its units back.
    store
        .change(
            "r1",
            0,
            &moved(ReturnState::Refused, Some("Fitted already"), JUNE_2026 + 40),
            None,
            &entry(1, JUNE_2026 + 40, "return.refuse", "r1"),
            &[],
        )
        .await
        .expect("refused");
    store.request(&asked("r2", "o1", "p1", 1, 3, JUNE_2026 + 50), &[]).await.expect("the refused unit is free again");
    let of_order = store.returns_of_order(&OrderId("o1".into())).await.expect("of the order");
    assert_eq!(of_order.len(), 5, "r1, two of c*, x1, r2");
    let mine = store.returns_of(&UserId("user-of-o2".into())).await.expect("mine");
    assert_eq!(mine.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["x2"]);
}

pub async fn the_list_filters_by_state_and_pages_newest_first(
    store: &dyn ReturnStore,
    _audit: &dyn AuditLog,
    _outbox: &dyn NoticeOutbox,
) {
    for n in 0..7u32 {
        let order = format!("o{n}");
        store.request(&asked(&format!("r{n}"), &order, "p", 1, 1, JUNE_2026 + i64::from(n)), &[]).await.expect("asked");
    }
    for n in [1u32, 3, 5] {
        let id = format!("r{n}");
        store
            .change(
                &id,
                0,
                &moved(ReturnState::Approved, None, JUNE_2026 + 100),
                None,
                &entry(1, JUNE_2026 + 100, "return.approve", &id),
                &[],
            )
            .await
            .expect("approved");
    }
    let all = store.returns(&ReturnQuery { state: None, window: window(1, 100) }).await.expect("all");
    assert_eq!(all.total, 7);
    assert_eq!(
        all.returns.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["r6", "r5", "r4", "r3", "r2", "r1", "r0"],
        "newest first"
    );
    let approved =
        store.returns(&ReturnQuery { state: Some(ReturnState::Approved), window: window(1, 2) }).await.expect("page 1");
    assert_eq!(approved.total, 3);
    assert_eq!(approved.returns.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["r5", "r3"]);
    let rest =
        store.returns(&ReturnQuery { state: Some(ReturnState::Approved), window: window(2, 2) }).await.expect("page 2");
    assert_eq!(rest.returns.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["r1"]);
    assert_eq!(store.waiting().await.expect("waiting"), 7, "requested and approved both wait");
}

pub async fn a_move_happens_only_on_the_version_it_names_with_its_audit_record_and_notices(
    store: &dyn ReturnStore,
    audit: &dyn AuditLog,
    outbox: &dyn NoticeOutbox,
) {
    store.request(&asked("m1", "om", "p", 2, 2, JUNE_2026), &[]).await.expect("asked");
    let at = JUNE_2026 + 60;
    let approved = store
        .change(
            "m1",
            0,
            &moved(ReturnState::Approved, Some("Send it with the invoice"), at),
            None,
            &entry(1, at, "return.approve", "m1"),
            &[notice("om", NoticeKind::ReturnApproved, at)],
        )
        .await
        .expect("approved");
    assert_eq!((approved.state, approved.version), (ReturnState::Approved, 1));
    assert_eq!(
        (approved.note.as_deref(), approved.handled_by.as_deref(), approved.updated_at),
        (Some("Send it with the invoice"), Some("desk1@marque.in"), at)
    );
    // A stale version writes nothing: no move, no audit record, no notice.
    let stale = store
        .change(
            "m1",
            0,
            &moved(ReturnState::Refused, Some("late"), at + 1),
            None,
            &entry(2, at + 1, "return.refuse", "m1"),
            &[notice("om", NoticeKind::ReturnRefused, at + 1)],
        )
        .await;
    assert_eq!(stale, Err(ReturnStoreError::Changed { version: 1 }));
    assert_eq!(
        store
            .change(
                "none",
                0,
                &moved(ReturnState::Approved, None, at),
                None,
                &entry(1, at, "return.approve", "none"),
                &[]
            )
            .await,
        Err(ReturnStoreError::NotFound)
    );
    let trail = audit
        .entries(&AuditQuery { subject: Some("return:m1".into()), window: window(1, 10), ..AuditQuery::default() })
        .await
        .expect("trail");
    assert_eq!(trail.records.iter().map(|e| e.entry.action.as_str()).collect::<Vec<_>>(), ["return.approve"]);
    let queued = outbox.notices_of(&OrderId("om".into())).await.expect("notices");
    assert_eq!(queued.iter().map(|q| q.notice.kind).collect::<Vec<_>>(), [NoticeKind::ReturnApproved]);

    let received = store
        .change(
            "m1",
            1,
            &moved(ReturnState::Received, None, at + 2),
            None,
            &entry(1, at + 2, "return.receive", "m1"),
            &[],
        )
        .await
        .expect("received");
    assert_eq!((received.state, received.note.as_deref()), (ReturnState::Received, None), "a move keeps its own note");
    let resolved = store
        .change(
            "m1",
            2,
            &ReturnMove { restock: true, ..as_credit(150_000, at + 3) },
            Some(grant("m1", "user-of-om", 150_000, at + 3)),
            &entry(1, at + 3, "return.resolve", "m1"),
            &[],
        )
        .await
        .expect("resolved");
    assert_eq!(
        (resolved.state, resolved.outcome, resolved.amount, resolved.restock, resolved.version),
        (ReturnState::Resolved, Some(ReturnOutcome::StoreCredit), Some(Money::from_paise(150_000)), true, 3)
    );
    assert_eq!(
        (resolved.note.as_deref(), resolved.resolution_note.as_deref()),
        (None, Some("Part is fine, credit given")),
        "the approval's note stays; the resolution's is its own"
    );
    assert_eq!(
        store.credit_granted("return:m1").await.expect("granted"),
        vec![(UserId("user-of-om".into()), Money::from_paise(150_000))]
    );
    assert_eq!(store.waiting().await.expect("waiting"), 0);
}

pub async fn of_concurrent_resolutions_one_wins_and_the_credit_is_granted_once(
    store: &dyn ReturnStore,
    audit: &dyn AuditLog,
    _outbox: &dyn NoticeOutbox,
) {
    store.request(&asked("k1", "ok", "p", 1, 1, JUNE_2026), &[]).await.expect("asked");
    store
        .change(
            "k1",
            0,
            &moved(ReturnState::Approved, None, JUNE_2026 + 1),
            None,
            &entry(1, JUNE_2026 + 1, "return.approve", "k1"),
            &[],
        )
        .await
        .expect("approved");
    store
        .change(
            "k1",
            1,
            &moved(ReturnState::Received, None, JUNE_2026 + 2),
            None,
            &entry(1, JUNE_2026 + 2, "return.receive", "k1"),
            &[],
        )
        .await
        .expect("received");
    let at = JUNE_2026 + 3;
    let moves: Vec<(ReturnMove, AuditEntry)> =
        (1..=8).map(|n| (as_credit(99_900, at), entry(n, at, "return.resolve", "k1"))).collect();
    let outcomes = join_all(
        moves.iter().map(|(m, e)| store.change("k1", 2, m, Some(grant("k1", "user-of-ok", 99_900, at)), e, &[])),
    )
    .await;
    assert_eq!(outcomes.iter().filter(|o| o.is_ok()).count(), 1, "{outcomes:?}");
    for lost in outcomes.iter().filter_map(|o| o.as_ref().err()) {
        assert_eq!(lost, &ReturnStoreError::Changed { version: 3 });
    }
    assert_eq!(store.credit_granted("return:k1").await.expect("granted").len(), 1, "one grant");
    let trail = audit
        .entries(&AuditQuery { action: Some("return.resolve".into()), window: window(1, 20), ..AuditQuery::default() })
        .await
        .expect("trail");
    assert_eq!(trail.total, 1, "one audit record for the one move written");
}

pub async fn forgetting_a_customer_empties_their_reasons_and_photos_and_nothing_else(
    store: &dyn ReturnStore,
    _audit: &dyn AuditLog,
    _outbox: &dyn NoticeOutbox,
) {
    // Two returns of one customer (orders f1 and f2 are theirs: `user-of-f1` is made the owner of
    // both) and one of another customer.
    let mut second = asked("f2r", "f2", "p1", 1, 1, JUNE_2026 + 1);
    second.customer = UserId("user-of-f1".to_owned());
    store.request(&asked("f1r", "f1", "p1", 1, 1, JUNE_2026), &[]).await.expect("asked");
    store.request(&second, &[]).await.expect("asked");
    let other = store.request(&asked("f3r", "f3", "p1", 1, 1, JUNE_2026 + 2), &[]).await.expect("asked");
    let moved_one = store
        .change(
            "f1r",
            0,
            &moved(ReturnState::Approved, Some("Send it back"), JUNE_2026 + 5),
            None,
            &entry(1, JUNE_2026 + 5, "return.approve", "f1r"),
            &[],
        )
        .await
        .expect("approved");

    let who = UserId("user-of-f1".to_owned());
    assert_eq!(store.forget_customer(&who).await.expect("forgotten"), 2);
    let mine = store.returns_of(&who).await.expect("read");
    assert_eq!(mine.len(), 2, "the returns stay");
    for r in &mine {
        assert_eq!((r.reason.as_str(), r.photos.len()), ("", 0), "{}: reason and photos are gone", r.id);
    }
    let first = store.product_return("f1r").await.expect("read").expect("kept");
    assert_eq!(
        (first.state, first.note.as_deref(), first.quantity, first.order.0.as_str()),
        (ReturnState::Approved, Some("Send it back"), 1, "f1"),
        "the shop's record of the return is kept"
    );
    assert_eq!(first.version, moved_one.version + 1, "a staff move read before the erasure is refused");
    assert_eq!(store.product_return("f3r").await.expect("read"), Some(other), "another customer's return is untouched");
    assert_eq!(store.forget_customer(&who).await.expect("again"), 0, "erasing again changes nothing");
    assert_eq!(store.product_return("f1r").await.expect("read").expect("kept").version, moved_one.version + 1);
    assert_eq!(store.forget_customer(&UserId("nobody".to_owned())).await.expect("nobody"), 0);
}
