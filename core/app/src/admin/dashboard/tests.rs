//! `DashboardService` over mocked ports: the role first, each figure from its port, sales only for
//! the owner, over the day and the month as they turn in India.

use marque_domain::staff::{StaffId, StaffRole};
use marque_ports::{
    AdminOrderPage, LowStockPage, MockGrievanceStore, MockNoticeOutbox, MockOrderDesk, MockReturnStore,
    MockStockLedger, NoticeCounts, OrderDeskError, RefundCounts, StatusCounts,
};

use super::*;

struct Fixed(i64);

impl Clock for Fixed {
    fn now(&self) -> i64 {
        self.0
    }
}

/// 2026-03-31T18:29:59Z: the last second of 31 March in India.
const NOW: i64 = 1_774_981_799;
/// Midnight IST that began 31 March, and 1 March.
const TODAY: i64 = 1_774_895_400;
const MONTH: i64 = 1_772_303_400;

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "ravi@marque.test".into(), name: "Ravi".into(), role }
}

fn desk() -> MockOrderDesk {
    let mut desk = MockOrderDesk::new();
    desk.expect_orders().times(1).returning(|_| {
        Ok(AdminOrderPage { orders: Vec::new(), total: 40, counts: StatusCounts([4, 3, 2, 20, 10, 1]) })
    });
    desk.expect_refund_counts().times(1).returning(|| Ok(RefundCounts { waiting: 5, failed: 1 }));
    desk
}

fn service(desk: MockOrderDesk) -> DashboardService {
    let mut grievances = MockGrievanceStore::new();
    grievances.expect_overdue().withf(|now| *now == NOW).returning(|_| Ok(2));
    let mut stock = MockStockLedger::new();
    stock.expect_low_stock().returning(|_| Ok(LowStockPage { items: Vec::new(), total: 7 }));
    let mut returns = MockReturnStore::new();
    returns.expect_waiting().returning(|| Ok(6));
    let mut outbox = MockNoticeOutbox::new();
    outbox.expect_counts().returning(|| Ok(NoticeCounts { waiting: 8, failed: 3 }));
    DashboardService::new(Arc::new(desk), Arc::new(grievances), Arc::new(stock), Arc::new(Fixed(NOW)))
        .with_returns(Arc::new(returns))
        .with_notices(Arc::new(outbox))
}

#[tokio::test]
async fn the_owner_sees_every_figure_with_sales_of_the_day_and_month_in_india() {
    let mut desk = desk();
    desk.expect_sales()
        .withf(|from, until| *from == TODAY && *until == NOW + 1)
        .times(1)
        .returning(|_, _| Ok(Money::from_paise(150_000)));
    desk.expect_sales()
        .withf(|from, until| *from == MONTH && *until == NOW + 1)
        .times(1)
        .returning(|_, _| Ok(Money::from_paise(9_900_000)));
    let figures = service(desk).figures(&staff(StaffRole::Owner)).await.expect("figures");
    assert_eq!(
        figures,
        Dashboard {
            to_confirm: 4,
            to_pack: 3,
            to_ship: 2,
            refunds_waiting: 5,
            refunds_failed: 1,
            grievances_overdue: 2,
            low_stock: 7,
            returns_waiting: 6,
            notices_failed: 3,
            sales: Some(Sales { today: Money::from_paise(150_000), this_month: Money::from_paise(9_900_000) }),
            at: NOW,
        }
    );
}

#[tokio::test]
async fn fulfilment_sees_the_work_but_not_the_sales() {
    let mut desk = desk();
    desk.expect_sales().never();
    let figures = service(desk).figures(&staff(StaffRole::Fulfilment)).await.expect("figures");
    assert_eq!((figures.to_confirm, figures.sales), (4, None));
}

#[tokio::test]
async fn a_catalog_member_is_refused_before_anything_is_read() {
    let mut desk = MockOrderDesk::new();
    desk.expect_orders().never();
    let refused = service(desk).figures(&staff(StaffRole::Catalog)).await.expect_err("refused");
    assert_eq!(refused.message(), Message::StaffForbidden);
}

#[tokio::test]
async fn a_store_that_fails_makes_the_dashboard_unavailable() {
    let mut desk = MockOrderDesk::new();
    desk.expect_orders().returning(|_| Err(OrderDeskError::Unavailable { reason: "down".into() }));
    desk.expect_refund_counts().returning(|| Ok(RefundCounts::default()));
    let refused = service(desk).figures(&staff(StaffRole::Owner)).await.expect_err("unavailable");
    assert_eq!(refused.message(), Message::DashboardUnavailable);
}
