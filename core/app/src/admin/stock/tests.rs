use marque_domain::paging::ListWindow;
use marque_domain::staff::{StaffId, StaffRole};
use marque_domain::stock::StockReason;
use marque_ports::{LowStockItem, MockStockLedger};

use super::*;

struct Fixed(i64);

impl Clock for Fixed {
    fn now(&self) -> i64 {
        self.0
    }
}

const NOW: i64 = 1_780_295_400;

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "asha@marque.test".into(), name: "Asha".into(), role }
}

fn service(ledger: MockStockLedger) -> StockService {
    StockService::new(Arc::new(ledger), Arc::new(Fixed(NOW)))
}

fn p1() -> ProductId {
    ProductId("p1".into())
}

fn input(delta: i64, reason: &str, note: Option<&str>) -> AdjustmentInput {
    AdjustmentInput { delta, reason: reason.into(), note: note.map(str::to_owned) }
}

fn entry(delta: i64, before: i64) -> StockEntry {
    StockEntry {
        id: "e1".into(),
        product: p1(),
        delta,
        reason: StockReason::Received,
        note: None,
        before,
        after: before + delta,
        actor: "s1".into(),
        actor_label: "asha@marque.test".into(),
        at: NOW,
        order: None,
    }
}

fn unavailable() -> StockLedgerError {
    StockLedgerError::Unavailable { reason: "down".into() }
}

#[tokio::test]
async fn an_adjustment_reaches_the_ledger_checked_and_with_its_audit_entry() {
    let mut ledger = MockStockLedger::new();
    ledger
        .expect_adjust()
        .withf(|product, adjustment, audit| {
            product.0 == "p1"
                && *adjustment == Adjustment { delta: 4, reason: StockReason::Received, note: Some("invoice 7".into()) }
                && audit.action == "stock.adjust"
                && audit.subject == "product:p1"
                && audit.at == NOW
                && audit.actor.key() == "s1"
        })
        .times(1)
        .returning(|_, _, _| Ok(entry(4, 2)));
    let got =
        service(ledger).adjust(&staff(StaffRole::Catalog), &p1(), &input(4, "received", Some(" invoice 7 "))).await;
    assert_eq!(got, Ok(entry(4, 2)));
}

#[tokio::test]
async fn bad_adjustments_never_reach_the_ledger() {
    let mut ledger = MockStockLedger::new();
    ledger.expect_adjust().never();
    let s = service(ledger);
    let owner = staff(StaffRole::Owner);
    let cases = [
        (input(3, "opening", None), Message::StockReasonUnknown),
        (input(3, "sold", None), Message::StockReasonUnknown),
        (input(0, "correction", None), Message::StockDeltaZero),
        (input(-1, "received", None), Message::StockDeltaMustAdd),
        (input(1, "damaged", None), Message::StockDeltaMustTake),
        (input(200_000, "received", None), Message::StockDeltaTooLarge),
        (input(1, "received", Some(&"x".repeat(501))), Message::StockNoteTooLong),
    ];
    for (given, message) in cases {
        let refused = s.adjust(&owner, &p1(), &given).await;
        assert_eq!(refused, Err(StockError::Invalid(message)), "{given:?}");
        assert_eq!(refused.map_err(|e| e.message()), Err(message));
    }
}

#[tokio::test]
async fn a_fulfilment_role_is_refused_before_anything_is_read_or_checked() {
    let mut ledger = MockStockLedger::new();
    ledger.expect_adjust().never();
    ledger.expect_history().never();
    ledger.expect_low_stock().never();
    ledger.expect_set_threshold().never();
    let s = service(ledger);
    let clerk = staff(StaffRole::Fulfilment);
    let forbidden = |r: Result<(), StockError>| {
        assert!(matches!(r, Err(StockError::Forbidden(_))), "{r:?}");
        assert_eq!(r.map_err(|e| e.message()), Err(Message::StaffForbidden));
    };
    forbidden(s.adjust(&clerk, &p1(), &input(0, "nonsense", None)).await.map(drop));
    forbidden(s.history(&clerk, &p1(), ListWindow::default()).await.map(drop));
    forbidden(s.low_stock(&clerk, ListWindow::default()).await.map(drop));
    forbidden(s.set_threshold(&clerk, &p1(), -1).await.map(drop));
}

#[tokio::test]
async fn the_ledgers_refusals_and_failures_become_messages() {
    let mut ledger = MockStockLedger::new();
    let mut answers = vec![
        Err(StockLedgerError::BelowZero { quantity: 2 }),
        Err(StockLedgerError::UnknownProduct),
        Err(unavailable()),
    ]
    .into_iter();
    ledger.expect_adjust().times(3).returning(move |_, _, _| answers.next().expect("three answers"));
    ledger.expect_history().returning(|_, _| Err(unavailable()));
    ledger.expect_low_stock().returning(|_| Err(unavailable()));
    ledger.expect_set_threshold().returning(|_, _, _| Err(StockLedgerError::UnknownProduct));
    let s = service(ledger);
    let owner = staff(StaffRole::Owner);
    let take = input(-5, "sold_offline", None);
    let below = s.adjust(&owner, &p1(), &take).await;
    assert_eq!(below, Err(StockError::BelowZero { quantity: 2 }));
    assert_eq!(below.map_err(|e| e.message()), Err(Message::StockBelowZero));
    let unknown = s.adjust(&owner, &p1(), &take).await.map_err(|e| e.message());
    assert_eq!(unknown, Err(Message::AdminProductNotFound));
    let down = s.adjust(&owner, &p1(), &take).await.map_err(|e| e.message());
    assert_eq!(down, Err(Message::StockUnavailable));
    assert_eq!(
        s.history(&owner, &p1(), ListWindow::default()).await.map_err(|e| e.message()),
        Err(Message::StockUnavailable)
    );
    assert_eq!(
        s.low_stock(&owner, ListWindow::default()).await.map_err(|e| e.message()),
        Err(Message::StockUnavailable)
    );
    assert_eq!(s.set_threshold(&owner, &p1(), 4).await, Err(StockError::ProductNotFound));
}

#[tokio::test]
async fn history_and_low_stock_are_paged() {
    let mut ledger = MockStockLedger::new();
    ledger
        .expect_history()
        .withf(|product, window| product.0 == "p1" && window.offset() == 20 && window.limit() == 10)
        .returning(|_, _| Ok(StockHistory { entries: vec![entry(1, 0)], total: 21 }));
    ledger.expect_low_stock().withf(|window| window.offset() == 0 && window.limit() == 20).returning(|_| {
        Ok(LowStockPage {
            items: vec![LowStockItem { product: p1(), name: "Part".into(), quantity: 1, threshold: 5 }],
            total: 1,
        })
    });
    let s = service(ledger);
    let catalog = staff(StaffRole::Catalog);
    let history =
        s.history(&catalog, &p1(), ListWindow::new(Some(3), Some(10)).expect("a window")).await.expect("history");
    assert_eq!((history.pages, history.page.total, history.page.entries.len()), (3, 21, 1));
    let low = s.low_stock(&catalog, ListWindow::default()).await.expect("low stock");
    assert_eq!((low.pages, low.page.items.len()), (1, 1));
}

#[tokio::test]
async fn a_threshold_is_checked_and_audited() {
    let mut ledger = MockStockLedger::new();
    ledger
        .expect_set_threshold()
        .withf(|product, threshold, audit| {
            product.0 == "p1" && threshold.get() == 12 && audit.action == "stock.threshold" && audit.at == NOW
        })
        .times(1)
        .returning(|_, _, _| Ok(LowStockThreshold::DEFAULT));
    let s = service(ledger);
    let owner = staff(StaffRole::Owner);
    assert_eq!(s.set_threshold(&owner, &p1(), 12).await.map(LowStockThreshold::get), Ok(12));
    assert_eq!(s.set_threshold(&owner, &p1(), -1).await.map_err(|e| e.message()), Err(Message::StockThresholdInvalid));
    assert_eq!(
        s.set_threshold(&owner, &p1(), 100_001).await.map_err(|e| e.message()),
        Err(Message::StockThresholdInvalid)
    );
}
