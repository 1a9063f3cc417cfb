//! The `GrievanceStore` contract (`marque_ports::grievances`): tickets numbered consecutively per
//! financial year, listed newest first by state, moved only on the version they name (with their
//! audit record, or not at all), and counted when a clock has run out.

use futures::future::join_all;
use marque_domain::grievance::{acknowledge_by, resolve_by, GrievanceForm, GrievanceInput, GrievanceState};
use marque_domain::invoice::FinancialYear;
use marque_domain::staff::StaffId;
use marque_ports::{
    Actor, AuditEntry, AuditLog, AuditQuery, GrievanceMove, GrievanceQuery, GrievanceStore, GrievanceStoreError,
    NewGrievance,
};

use crate::fixtures::window;

/// Calls `$callback!(suite_name)` once for every grievance suite.
#[macro_export]
macro_rules! for_each_grievance_suite {
    ($callback:ident) => {
        $callback!(tickets_are_numbered_consecutively_per_year_even_when_opened_at_once);
        $callback!(the_list_filters_by_state_and_pages_newest_first);
        $callback!(a_move_happens_only_on_the_version_it_names_with_its_audit_record);
        $callback!(of_concurrent_moves_of_one_version_exactly_one_is_written);
        $callback!(overdue_tickets_are_counted_once_each);
    };
}

/// 2026-06-01T00:00:00Z, in financial year 2026-27.
const JUNE_2026: i64 = 1_780_272_000;

/// A ticket from customer `n`, received at `at`.
fn ticket(n: u32, at: i64) -> NewGrievance {
    let form = GrievanceForm::parse(&GrievanceInput {
        name: format!("Customer {n}"),
        email: format!("customer{n}@example.in"),
        mobile: format!("98{n:08}"),
        order_number: if n.is_multiple_of(2) { format!("MQ-{n:06}") } else { String::new() },
        message: format!("Complaint number {n}: the part did not fit my car."),
    })
    .expect("a valid form");
    NewGrievance {
        form,
        created_at: at,
        acknowledge_by: acknowledge_by(at),
        resolve_by: resolve_by(at),
        year: FinancialYear::at_unix_seconds(at),
    }
}

fn entry(n: u32, at: i64, action: &str, id: &str) -> AuditEntry {
    let actor = Actor::Staff { id: StaffId(format!("s{n}")), email: format!("officer{n}@marque.in") };
    AuditEntry::new(at, actor, action, format!("grievance:{id}"))
}

fn moved(to: GrievanceState, note: Option<&str>, at: i64) -> GrievanceMove {
    GrievanceMove { to, note: note.map(str::to_owned), at }
}

fn all(state: Option<GrievanceState>, page: u64, size: u64) -> GrievanceQuery {
    GrievanceQuery { state, window: window(page, size) }
}

pub async fn tickets_are_numbered_consecutively_per_year_even_when_opened_at_once(
    store: &dyn GrievanceStore,
    _audit: &dyn AuditLog,
) {
    let first = store.open(&ticket(1, JUNE_2026)).await.expect("opened");
    assert_eq!((first.number.as_str(), first.state, first.version), ("GR/26-27/000001", GrievanceState::Open, 0));
    assert_eq!(
        (first.name.as_str(), first.email.as_str(), first.mobile.as_str(), first.order_number.as_deref()),
        ("Customer 1", "customer1@example.in", "9800000001", None)
    );
    assert_eq!((first.acknowledge_by, first.resolve_by), (acknowledge_by(JUNE_2026), resolve_by(JUNE_2026)));
    assert_eq!((first.acknowledged_at, first.resolved_at, &first.handled_by), (None, None, &None));
    assert_eq!(store.grievance(&first.id).await.expect("read"), Some(first.clone()), "read back as opened");

    let tickets: Vec<_> = (2..=13).map(|n| ticket(n, JUNE_2026 + i64::from(n))).collect();
    let opened = join_all(tickets.iter().map(|t| store.open(t))).await;
    let mut numbers: Vec<String> = opened.into_iter().map(|o| o.expect("opened").number).collect();
    numbers.sort();
    let expected: Vec<String> = (2..=13).map(|n| format!("GR/26-27/{n:06}")).collect();
    assert_eq!(numbers, expected, "no gap, no number twice");

    // 2027-04-01T00:00:00 IST begins financial year 2027-28: its series starts again at 1.
    let next_year = store.open(&ticket(14, 1_806_517_800)).await.expect("opened");
    assert_eq!(next_year.number, "GR/27-28/000001");
    assert_eq!(store.grievance("nobody").await, Ok(None));
    assert_eq!(store.grievance("").await, Ok(None));
}

pub async fn the_list_filters_by_state_and_pages_newest_first(store: &dyn GrievanceStore, _audit: &dyn AuditLog) {
    let empty = store.grievances(&all(None, 1, 20)).await.expect("an empty list");
    assert_eq!((empty.grievances.len(), empty.total), (0, 0));
    let mut ids = Vec::new();
    for n in 1..=5 {
        ids.push(store.open(&ticket(n, JUNE_2026 + i64::from(n) * 60)).await.expect("opened").id);
    }
    let ack = entry(1, JUNE_2026 + 1_000, "grievance.acknowledge", &ids[1]);
    store.change(&ids[1], 0, &moved(GrievanceState::Acknowledged, None, JUNE_2026 + 1_000), &ack).await.expect("ok");

    let page1 = store.grievances(&all(None, 1, 2)).await.expect("page 1");
    let page2 = store.grievances(&all(None, 2, 2)).await.expect("page 2");
    let page3 = store.grievances(&all(None, 3, 2)).await.expect("page 3");
    let names: Vec<&str> =
        [&page1, &page2, &page3].iter().flat_map(|p| p.grievances.iter().map(|g| g.name.as_str())).collect();
    assert_eq!(
        names,
        ["Customer 5", "Customer 4", "Customer 3", "Customer 2", "Customer 1"],
        "newest first, once each"
    );
    assert_eq!((page1.total, page3.grievances.len()), (5, 1));

    let open = store.grievances(&all(Some(GrievanceState::Open), 1, 20)).await.expect("open ones");
    assert_eq!(open.total, 4);
    assert!(open.grievances.iter().all(|g| g.state == GrievanceState::Open));
    let acknowledged = store.grievances(&all(Some(GrievanceState::Acknowledged), 1, 20)).await.expect("list");
    assert_eq!((acknowledged.total, acknowledged.grievances[0].id.as_str()), (1, ids[1].as_str()));
    let resolved = store.grievances(&all(Some(GrievanceState::Resolved), 1, 20)).await.expect("list");
    assert_eq!((resolved.total, resolved.grievances.len()), (0, 0));
}

pub async fn a_move_happens_only_on_the_version_it_names_with_its_audit_record(
    store: &dyn GrievanceStore,
    audit: &dyn AuditLog,
) {
    let opened = store.open(&ticket(2, JUNE_2026)).await.expect("opened");
    let id = opened.id.clone();
    let ack_at = JUNE_2026 + 3_600;
    let ack = entry(1, ack_at, "grievance.acknowledge", &id);
    let acknowledged = store
        .change(&id, 0, &moved(GrievanceState::Acknowledged, Some("We are looking into it."), ack_at), &ack)
        .await
        .expect("acknowledged");
    assert_eq!((acknowledged.state, acknowledged.version), (GrievanceState::Acknowledged, 1));
    assert_eq!(
        (acknowledged.acknowledged_at, acknowledged.acknowledgement.as_deref(), acknowledged.resolved_at),
        (Some(ack_at), Some("We are looking into it."), None)
    );
    assert_eq!(acknowledged.handled_by.as_deref(), Some("officer1@marque.in"));
    assert_eq!(acknowledged.order_number.as_deref(), Some("MQ-000002"));

    let stale = entry(2, ack_at + 1, "grievance.resolve", &id);
    let refused = store.change(&id, 0, &moved(GrievanceState::Resolved, Some("Late"), ack_at + 1), &stale).await;
    assert_eq!(refused, Err(GrievanceStoreError::Changed { version: 1 }));
    let ahead = store.change(&id, 9, &moved(GrievanceState::Resolved, Some("Late"), ack_at + 1), &stale).await;
    assert_eq!(ahead, Err(GrievanceStoreError::Changed { version: 1 }), "a version from the future is stale too");
    assert_eq!(store.grievance(&id).await.expect("read"), Some(acknowledged.clone()), "nothing written");
    let missing = store.change("nobody", 0, &moved(GrievanceState::Resolved, Some("x"), ack_at), &stale).await;
    assert_eq!(missing, Err(GrievanceStoreError::NotFound));

    let done_at = JUNE_2026 + 86_400;
    let resolve = entry(2, done_at, "grievance.resolve", &id);
    let resolved = store
        .change(&id, 1, &moved(GrievanceState::Resolved, Some("A replacement is on its way."), done_at), &resolve)
        .await
        .expect("resolved");
    assert_eq!((resolved.state, resolved.version, resolved.resolved_at), (GrievanceState::Resolved, 2, Some(done_at)));
    assert_eq!(
        (resolved.acknowledged_at, resolved.acknowledgement.as_deref(), resolved.resolution.as_deref()),
        (Some(ack_at), Some("We are looking into it."), Some("A replacement is on its way.")),
        "the acknowledgement stays as it was"
    );
    assert_eq!(resolved.handled_by.as_deref(), Some("officer2@marque.in"));

    // Resolving an open ticket acknowledges it at the same time.
    let other = store.open(&ticket(3, JUNE_2026 + 5)).await.expect("opened");
    let at_once = entry(1, done_at, "grievance.resolve", &other.id);
    let straight = store
        .change(&other.id, 0, &moved(GrievanceState::Resolved, Some("Refunded."), done_at), &at_once)
        .await
        .expect("resolved");
    assert_eq!((straight.acknowledged_at, straight.resolved_at), (Some(done_at), Some(done_at)));

    let trail = audit
        .entries(&AuditQuery {
            subject: Some(format!("grievance:{id}")),
            window: window(1, 20),
            ..AuditQuery::default()
        })
        .await
        .expect("the trail");
    let actions: Vec<(&str, String)> =
        trail.records.iter().map(|r| (r.entry.action.as_str(), r.entry.actor.key())).collect();
    assert_eq!(
        actions,
        [("grievance.resolve", "s2".to_owned()), ("grievance.acknowledge", "s1".to_owned())],
        "one entry per move written, none for the refused ones"
    );
}

pub async fn of_concurrent_moves_of_one_version_exactly_one_is_written(
    store: &dyn GrievanceStore,
    audit: &dyn AuditLog,
) {
    let opened = store.open(&ticket(1, JUNE_2026)).await.expect("opened");
    let entries: Vec<AuditEntry> =
        (1..=10).map(|n| entry(n, JUNE_2026 + i64::from(n), "grievance.acknowledge", &opened.id)).collect();
    let ack = moved(GrievanceState::Acknowledged, None, JUNE_2026 + 100);
    let outcomes = join_all(entries.iter().map(|e| store.change(&opened.id, 0, &ack, e))).await;
    let won: Vec<_> = outcomes.iter().filter_map(|o| o.as_ref().ok()).collect();
    assert_eq!(won.len(), 1, "exactly one move is written: {outcomes:?}");
    for lost in outcomes.iter().filter(|o| o.is_err()) {
        assert_eq!(lost, &Err(GrievanceStoreError::Changed { version: 1 }), "the others are told");
    }
    let after = store.grievance(&opened.id).await.expect("read").expect("the ticket");
    assert_eq!((after.version, after.handled_by.as_ref()), (1, won[0].handled_by.as_ref()));
    let trail = audit
        .entries(&AuditQuery {
            subject: Some(format!("grievance:{}", opened.id)),
            window: window(1, 20),
            ..AuditQuery::default()
        })
        .await
        .expect("the trail");
    assert_eq!(trail.total, 1, "only the winner's audit record");
}

pub async fn overdue_tickets_are_counted_once_each(store: &dyn GrievanceStore, _audit: &dyn AuditLog) {
    assert_eq!(store.overdue(JUNE_2026).await, Ok(0));
    store.open(&ticket(1, JUNE_2026)).await.expect("opened");
    let b = store.open(&ticket(2, JUNE_2026 + 10)).await.expect("opened");
    let c = store.open(&ticket(3, JUNE_2026 + 20)).await.expect("opened");
    let two_days = JUNE_2026 + 48 * 3_600;
    assert_eq!(store.overdue(two_days - 1).await, Ok(0), "no clock has run out yet");
    assert_eq!(store.overdue(two_days).await, Ok(1), "a's 48 hours are over");
    assert_eq!(store.overdue(two_days + 20).await, Ok(3));

    let ack = entry(1, two_days, "grievance.acknowledge", &b.id);
    store.change(&b.id, 0, &moved(GrievanceState::Acknowledged, None, two_days), &ack).await.expect("acknowledged");
    let resolve = entry(1, two_days, "grievance.resolve", &c.id);
    store.change(&c.id, 0, &moved(GrievanceState::Resolved, Some("Done."), two_days), &resolve).await.expect("ok");
    assert_eq!(store.overdue(two_days + 20).await, Ok(1), "only the open one waits past its clock");
    let month = resolve_by(JUNE_2026 + 10);
    assert_eq!(store.overdue(month).await, Ok(2), "a (open, both clocks out) once, and b past its month");
}
