//! `GrievanceService` over mocked ports: the form checked before anything is stored, the ticket
//! opened with the domain's clocks in this financial year, and an acknowledgement that is sent at
//! once but never undoes the ticket when the mail fails.

use std::sync::{Arc, Mutex};

use marque_domain::grievance::{GrievanceField, GrievanceState};
use marque_ports::{MockGrievanceStore, MockNotifier, NotifyError};

use super::*;

struct Fixed(i64);

impl Clock for Fixed {
    fn now(&self) -> i64 {
        self.0
    }
}

/// 2026-06-01 12:00 IST.
const NOW: i64 = 1_780_295_400;

fn officer() -> GrievanceOfficerContact {
    GrievanceOfficerContact {
        name: "Anita Sharma".into(),
        email: "grievance@marqueparts.in".into(),
        phone: "+91 11 4055 8201".into(),
    }
}

fn input() -> GrievanceInput {
    GrievanceInput {
        name: "Asha Verma".into(),
        email: "asha@example.in".into(),
        mobile: "9810012345".into(),
        order_number: "MQ-000042".into(),
        message: "The brake pads I received are for the wrong model.".into(),
    }
}

fn stored(new: &NewGrievance) -> Grievance {
    Grievance {
        id: "g1".into(),
        number: "GR/26-27/000007".into(),
        name: new.form.name.clone(),
        email: new.form.email.as_str().to_owned(),
        mobile: new.form.mobile.as_str().to_owned(),
        order_number: new.form.order_number.clone(),
        message: new.form.message.clone(),
        state: GrievanceState::Open,
        created_at: new.created_at,
        acknowledge_by: new.acknowledge_by,
        resolve_by: new.resolve_by,
        acknowledged_at: None,
        resolved_at: None,
        acknowledgement: None,
        resolution: None,
        handled_by: None,
        version: 0,
    }
}

fn service(store: MockGrievanceStore, notifier: MockNotifier) -> GrievanceService {
    GrievanceService::new(Arc::new(store), Arc::new(notifier), Arc::new(Fixed(NOW)), officer(), "Marque Parts")
}

#[tokio::test]
async fn a_grievance_is_opened_with_its_clocks_and_acknowledged_by_email() {
    let mut store = MockGrievanceStore::new();
    store
        .expect_open()
        .withf(|new| {
            new.created_at == NOW
                && new.acknowledge_by == NOW + 48 * 3_600
                && new.resolve_by == marque_domain::grievance::resolve_by(NOW)
                && new.year == FinancialYear::starting(2026)
                && new.form.order_number.as_deref() == Some("MQ-000042")
        })
        .times(1)
        .returning(|new| Ok(stored(new)));
    let sent = Arc::new(Mutex::new(Vec::new()));
    let mut notifier = MockNotifier::new();
    let keep = sent.clone();
    notifier.expect_send().times(1).returning(move |n| {
        keep.lock().expect("lock").push(n.clone());
        Ok(())
    });
    let ticket = service(store, notifier).submit(&input()).await.expect("registered");
    assert_eq!(ticket.number, "GR/26-27/000007");
    let mails = sent.lock().expect("lock");
    let mail = &mails[0];
    assert_eq!((mail.channel, mail.recipient.as_str()), (Channel::Email, "asha@example.in"));
    assert!(mail.subject.contains("GR/26-27/000007"), "{}", mail.subject);
    for needed in ["GR/26-27/000007", "MQ-000042", "48 hours", "one month", "Anita Sharma", "grievance@marqueparts.in"]
    {
        assert!(mail.text.contains(needed), "{needed} in {}", mail.text);
    }
}

#[tokio::test]
async fn a_form_that_does_not_parse_stores_and_sends_nothing() {
    let mut store = MockGrievanceStore::new();
    store.expect_open().never();
    let mut notifier = MockNotifier::new();
    notifier.expect_send().never();
    let bad = GrievanceInput { mobile: "12345".into(), message: "short".into(), ..input() };
    let refused = service(store, notifier).submit(&bad).await.expect_err("refused");
    let GrievanceError::Invalid(errors) = &refused else { panic!("{refused:?}") };
    let fields: Vec<_> = errors.iter().map(|(f, _)| f).collect();
    assert_eq!(fields, [GrievanceField::Mobile, GrievanceField::Message]);
    assert_eq!(refused.message(), Message::AddressMobileInvalid);
}

#[tokio::test]
async fn a_mail_that_fails_does_not_undo_the_ticket() {
    let mut store = MockGrievanceStore::new();
    store.expect_open().times(1).returning(|new| Ok(stored(new)));
    let mut notifier = MockNotifier::new();
    notifier.expect_send().times(1).returning(|_| Err(NotifyError::Unavailable { reason: "smtp down".into() }));
    let ticket = service(store, notifier).submit(&input()).await.expect("still registered");
    assert_eq!(ticket.id, "g1");
}

#[tokio::test]
async fn a_store_that_fails_is_unavailable_and_sends_nothing() {
    for failure in [GrievanceStoreError::Unavailable { reason: "down".into() }, GrievanceStoreError::SerialExhausted] {
        let mut store = MockGrievanceStore::new();
        store.expect_open().times(1).returning(move |_| Err(failure.clone()));
        let mut notifier = MockNotifier::new();
        notifier.expect_send().never();
        let refused = service(store, notifier).submit(&input()).await.expect_err("unavailable");
        assert_eq!(refused.message(), Message::GrievanceUnavailable);
    }
}
