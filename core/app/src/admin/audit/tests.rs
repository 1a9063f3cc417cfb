use std::sync::Arc;

use marque_domain::paging::ListWindow;
use marque_domain::staff::{Staff, StaffId, StaffRole};
use marque_ports::{Actor, AuditEntry, AuditLogError, AuditPage, AuditQuery, AuditRecord, MockAuditLog};

use super::*;

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "someone@marque.in".into(), name: "Someone".into(), role }
}

#[tokio::test]
async fn owners_read_the_trail_with_their_filters() {
    let mut log = MockAuditLog::new();
    let wanted = AuditQuery {
        action: Some("offer".into()),
        window: ListWindow::new(Some(2), Some(20)).expect("a window"),
        ..AuditQuery::default()
    };
    let asked = wanted.clone();
    let record = AuditRecord {
        id: "a1".into(),
        entry: AuditEntry::new(5, Actor::System("cli".into()), "offer.end", "customer:u1"),
    };
    let answer = AuditPage { records: vec![record], total: 21 };
    let given = answer.clone();
    log.expect_entries().withf(move |q| *q == asked).times(1).returning(move |_| Ok(given.clone()));
    let page = AuditService::new(Arc::new(log)).entries(&staff(StaffRole::Owner), &wanted).await.expect("read");
    assert_eq!(page, answer);
}

#[tokio::test]
async fn only_owners_read_the_trail() {
    for role in [StaffRole::Catalog, StaffRole::Fulfilment] {
        // No expectations: reading the log would panic.
        let refused =
            AuditService::new(Arc::new(MockAuditLog::new())).entries(&staff(role), &AuditQuery::default()).await;
        assert!(matches!(refused, Err(AuditError::Forbidden(_))), "{role:?}");
        assert_eq!(refused.err().map(|e| e.message()), Some(Message::StaffForbidden));
    }
}

#[tokio::test]
async fn a_trail_that_cannot_be_read_is_unavailable() {
    let mut log = MockAuditLog::new();
    log.expect_entries().returning(|_| Err(AuditLogError::Unavailable { reason: "down".into() }));
    let failed = AuditService::new(Arc::new(log)).entries(&staff(StaffRole::Owner), &AuditQuery::default()).await;
    assert!(matches!(failed, Err(AuditError::Unavailable(_))));
    assert_eq!(failed.err().map(|e| e.message()), Some(Message::StaffUnavailable));
}
