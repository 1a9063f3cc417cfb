//! `AdminGrievancesService` over mocked ports: the role first, the clocks as they stand, and moves
//! made only on the version named, by the domain's rules, with their audit record and the mail.

use std::sync::{Arc, Mutex};

use marque_domain::staff::{StaffId, StaffRole};
use marque_ports::{GrievancePage, MockGrievanceStore, MockNotifier};

use super::*;

struct Fixed(i64);

impl Clock for Fixed {
    fn now(&self) -> i64 {
        self.0
    }
}

/// 2026-06-01 12:00 IST.
const RECEIVED: i64 = 1_780_295_400;

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "anita@marque.test".into(), name: "Anita".into(), role }
}

fn ticket(state: GrievanceState, version: u64) -> Grievance {
    Grievance {
        id: "g1".into(),
        number: "GR/26-27/000001".into(),
        name: "Asha Verma".into(),
        email: "asha@example.in".into(),
        mobile: "9810012345".into(),
        order_number: None,
        message: "The brake pads I received are for the wrong model.".into(),
        state,
        created_at: RECEIVED,
        acknowledge_by: marque_domain::grievance::acknowledge_by(RECEIVED),
        resolve_by: marque_domain::grievance::resolve_by(RECEIVED),
        acknowledged_at: None,
        resolved_at: None,
        acknowledgement: None,
        resolution: None,
        handled_by: None,
        version,
    }
}

fn service(store: MockGrievanceStore, notifier: MockNotifier, now: i64) -> AdminGrievancesService {
    AdminGrievancesService::new(Arc::new(store), Arc::new(notifier), Arc::new(Fixed(now)))
}

fn window() -> ListWindow {
    ListWindow::new(Some(1), Some(20)).expect("a window")
}

#[tokio::test]
async fn a_catalog_member_is_refused_before_anything_is_read() {
    let mut store = MockGrievanceStore::new();
    store.expect_grievances().never();
    store.expect_grievance().never();
    store.expect_change().never();
    let s = service(store, MockNotifier::new(), RECEIVED);
    let catalog = staff(StaffRole::Catalog);
    assert!(matches!(s.list(&catalog, None, window()).await, Err(AdminGrievanceError::Forbidden(_))));
    assert!(matches!(s.ticket(&catalog, "g1").await, Err(AdminGrievanceError::Forbidden(_))));
    let refused = s.change(&catalog, "g1", 0, "acknowledge", "").await.expect_err("refused");
    assert_eq!(refused.message(), Message::StaffForbidden);
}

#[tokio::test]
async fn the_list_reads_its_state_and_shows_the_clocks_as_they_stand() {
    let mut store = MockGrievanceStore::new();
    store
        .expect_grievances()
        .withf(|q| q.state == Some(GrievanceState::Open))
        .times(1)
        .returning(|_| Ok(GrievancePage { grievances: vec![ticket(GrievanceState::Open, 0)], total: 21 }));
    let two_days_on = RECEIVED + 48 * 3_600;
    let s = service(store, MockNotifier::new(), two_days_on);
    let list = s.list(&staff(StaffRole::Fulfilment), Some("open"), window()).await.expect("a list");
    assert_eq!((list.total, list.pages), (21, 2));
    let clocks = list.tickets[0].clocks;
    assert!(clocks.acknowledge_overdue && !clocks.resolve_overdue);
    let bad = s.list(&staff(StaffRole::Owner), Some("closed"), window()).await;
    assert_eq!(bad, Err(AdminGrievanceError::Invalid(Message::GrievanceStateInvalid)));
}

#[tokio::test]
async fn a_resolution_is_written_on_its_version_with_its_audit_record_and_mailed() {
    let mut store = MockGrievanceStore::new();
    store.expect_grievance().times(1).returning(|_| Ok(Some(ticket(GrievanceState::Acknowledged, 1))));
    store
        .expect_change()
        .withf(|id, version, change, audit| {
            id == "g1"
                && *version == 1
                && change.to == GrievanceState::Resolved
                && change.note.as_deref() == Some("A replacement is on its way.")
                && audit.action == "grievance.resolve"
                && audit.subject == "grievance:g1"
                && audit.actor.key() == "s1"
                && audit.after.as_deref().and_then(|a| serde_json::from_str::<serde_json::Value>(a).ok())
                    == Some(serde_json::json!({ "state": "resolved", "note": "A replacement is on its way." }))
        })
        .times(1)
        .returning(|_, _, change, _| {
            Ok(Grievance {
                state: change.to,
                resolution: change.note.clone(),
                resolved_at: Some(change.at),
                version: 2,
                ..ticket(GrievanceState::Acknowledged, 1)
            })
        });
    let sent = Arc::new(Mutex::new(Vec::new()));
    let keep = sent.clone();
    let mut notifier = MockNotifier::new();
    notifier.expect_send().times(1).returning(move |n| {
        keep.lock().expect("lock").push(n.clone());
        Ok(())
    });
    let s = service(store, notifier, RECEIVED + 86_400);
    let done = s
        .change(&staff(StaffRole::Fulfilment), "g1", 1, "resolve", "  A replacement is on its way. ")
        .await
        .expect("resolved");
    assert_eq!((done.grievance.version, done.clocks.overdue()), (2, false));
    let mails = sent.lock().expect("lock");
    assert_eq!(mails[0].recipient, "asha@example.in");
    assert!(mails[0].text.contains("A replacement is on its way."), "{}", mails[0].text);
}

#[tokio::test]
async fn stale_versions_bad_actions_and_refused_moves_write_nothing() {
    let mut store = MockGrievanceStore::new();
    store.expect_grievance().returning(|id| Ok((id == "g1").then(|| ticket(GrievanceState::Acknowledged, 3))));
    store.expect_change().never();
    let s = service(store, MockNotifier::new(), RECEIVED);
    let officer = staff(StaffRole::Owner);
    assert_eq!(s.change(&officer, "g1", 2, "resolve", "x").await, Err(AdminGrievanceError::Changed { version: 3 }));
    assert_eq!(
        s.change(&officer, "g1", 3, "close", "x").await,
        Err(AdminGrievanceError::Invalid(Message::GrievanceActionInvalid))
    );
    assert_eq!(
        s.change(&officer, "g1", 3, "acknowledge", "").await,
        Err(AdminGrievanceError::Refused(GrievanceMoveError::AlreadyAcknowledged))
    );
    assert_eq!(
        s.change(&officer, "g1", 3, "resolve", " ").await,
        Err(AdminGrievanceError::Refused(GrievanceMoveError::NoteInvalid))
    );
    assert_eq!(s.change(&officer, "g9", 0, "resolve", "x").await, Err(AdminGrievanceError::NotFound));
}

#[tokio::test]
async fn a_race_lost_at_the_store_is_told_as_changed() {
    let mut store = MockGrievanceStore::new();
    store.expect_grievance().returning(|_| Ok(Some(ticket(GrievanceState::Open, 0))));
    store.expect_change().times(1).returning(|_, _, _, _| Err(GrievanceStoreError::Changed { version: 1 }));
    let mut notifier = MockNotifier::new();
    notifier.expect_send().never();
    let s = service(store, notifier, RECEIVED);
    let lost = s.change(&staff(StaffRole::Owner), "g1", 0, "acknowledge", "Seen").await;
    assert_eq!(lost.map_err(|e| e.message()), Err(Message::GrievanceChanged));
}
