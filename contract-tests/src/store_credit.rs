//! The `StoreCreditStore` contract, and the order store's promises about store credit
//! (`marque_ports::store_credit`, `OrderStore::reserve`/`release`/`place`). Each suite gets the
//! credit ledger, the order store and the catalog store of one empty database.

use futures::future::join_all;
use marque_domain::store_credit::{self, GrantSource};
use marque_domain::Money;
use marque_ports::{
    CatalogStore, CreditBalance, OrderStore, OrderStoreError, PaymentId, Reservation, StoreCreditError,
    StoreCreditStore, UserId,
};

use crate::orders::{reservation, stock, JUNE_2026};

/// Calls `$callback!(suite_name)` once for every store credit suite.
#[macro_export]
macro_rules! for_each_store_credit_suite {
    ($callback:ident) => {
        $callback!(a_customer_without_grants_has_no_credit);
        $callback!(a_grant_is_written_once_per_source);
        $callback!(the_balance_is_the_live_grants_and_the_first_expiry);
        $callback!(a_grant_below_one_paisa_is_refused);
        $callback!(a_hold_takes_credit_from_the_first_expiry_and_a_release_gives_it_back);
        $callback!(a_hold_asking_more_credit_than_there_is_holds_nothing);
        $callback!(concurrent_checkouts_never_spend_more_credit_than_there_is);
        $callback!(a_placed_order_spends_its_credit_for_good);
        $callback!(a_lapsed_hold_gives_its_credit_back_and_a_late_payment_takes_it_again);
    };
}

const DAY: i64 = 86_400;

fn uid(s: &str) -> UserId {
    UserId(s.to_owned())
}

fn ret(id: &str) -> GrantSource {
    GrantSource::Return(id.to_owned())
}

/// A reservation of one unit of product 1 (₹1,100 with delivery) paying `credit` paise with store credit.
fn with_credit(key: &str, user: &str, credit: i64, now: i64) -> Reservation {
    let mut r = reservation(key, user, &[(1, 1)], now);
    r.draft.store_credit = Money::from_paise(credit);
    r
}

async fn balance(credit: &dyn StoreCreditStore, user: &str, now: i64) -> Money {
    credit.balance(&uid(user), now).await.expect("a balance").balance
}

pub async fn a_customer_without_grants_has_no_credit(
    credit: &dyn StoreCreditStore,
    _orders: &dyn OrderStore,
    _catalog: &dyn CatalogStore,
) {
    assert_eq!(credit.balance(&uid("u1"), JUNE_2026).await, Ok(CreditBalance::default()));
    assert_eq!(credit.grants(&uid("u1")).await, Ok(vec![]));
}

pub async fn a_grant_is_written_once_per_source(
    credit: &dyn StoreCreditStore,
    _orders: &dyn OrderStore,
    _catalog: &dyn CatalogStore,
) {
    assert_eq!(credit.grant(&uid("u1"), Money::from_rupees(500), &ret("r1"), JUNE_2026).await, Ok(true));
    assert_eq!(credit.grant(&uid("u1"), Money::from_rupees(900), &ret("r1"), JUNE_2026 + 5).await, Ok(false));
    let grants = credit.grants(&uid("u1")).await.expect("grants");
    assert_eq!(grants.len(), 1);
    assert_eq!(grants[0].amount, Money::from_rupees(500), "the first grant stays as it is");
    assert_eq!(grants[0].remaining, Money::from_rupees(500));
    assert_eq!(grants[0].source, "return:r1");
    assert_eq!(grants[0].granted_at, JUNE_2026);
    assert_eq!(grants[0].expires_at, store_credit::expires_at(JUNE_2026));
    // The same source at once from many writers: one grant.
    let (u2, r2) = (uid("u2"), ret("r2"));
    let many = join_all((0..8).map(|_| credit.grant(&u2, Money::from_rupees(10), &r2, JUNE_2026))).await;
    assert_eq!(many.iter().filter(|w| **w == Ok(true)).count(), 1, "{many:?}");
    assert!(many.iter().all(Result::is_ok), "{many:?}");
    assert_eq!(balance(credit, "u2", JUNE_2026).await, Money::from_rupees(10));
}

pub async fn the_balance_is_the_live_grants_and_the_first_expiry(
    credit: &dyn StoreCreditStore,
    _orders: &dyn OrderStore,
    _catalog: &dyn CatalogStore,
) {
    let early = JUNE_2026 - 100 * DAY;
    credit.grant(&uid("u1"), Money::from_paise(30_050), &ret("a"), early).await.expect("grant");
    credit
        .grant(&uid("u1"), Money::from_rupees(200), &GrantSource::Refund("f".into()), JUNE_2026)
        .await
        .expect("grant");
    credit.grant(&uid("u9"), Money::from_rupees(999), &ret("other"), JUNE_2026).await.expect("grant");
    assert_eq!(
        credit.balance(&uid("u1"), JUNE_2026).await,
        Ok(CreditBalance { balance: Money::from_paise(50_050), expires_at: Some(store_credit::expires_at(early)) })
    );
    // At the first grant's expiry it is no longer spendable.
    let later = store_credit::expires_at(early);
    assert_eq!(
        credit.balance(&uid("u1"), later).await,
        Ok(CreditBalance { balance: Money::from_rupees(200), expires_at: Some(store_credit::expires_at(JUNE_2026)) })
    );
    let all = credit.grants(&uid("u1")).await.expect("grants");
    assert_eq!(
        all.iter().map(|g| g.source.as_str()).collect::<Vec<_>>(),
        ["return:a", "refund:f"],
        "earliest expiry first"
    );
}

pub async fn a_grant_below_one_paisa_is_refused(
    credit: &dyn StoreCreditStore,
    _orders: &dyn OrderStore,
    _catalog: &dyn CatalogStore,
) {
    assert_eq!(credit.grant(&uid("u1"), Money::ZERO, &ret("z"), JUNE_2026).await, Err(StoreCreditError::BadAmount));
    assert_eq!(
        credit.grant(&uid("u1"), Money::from_paise(-5), &ret("n"), JUNE_2026).await,
        Err(StoreCreditError::BadAmount)
    );
    assert_eq!(credit.grants(&uid("u1")).await, Ok(vec![]));
}

pub async fn a_hold_takes_credit_from_the_first_expiry_and_a_release_gives_it_back(
    credit: &dyn StoreCreditStore,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1], 5).await;
    credit.grant(&uid("u1"), Money::from_rupees(400), &ret("late"), JUNE_2026 - DAY).await.expect("grant");
    credit.grant(&uid("u1"), Money::from_rupees(300), &ret("early"), JUNE_2026 - 30 * DAY).await.expect("grant");
    let r = with_credit("a", "u1", 50_000, JUNE_2026);
    orders.reserve(&r).await.expect("reserve");
    assert_eq!(balance(credit, "u1", JUNE_2026).await, Money::from_rupees(200), "₹500 held of ₹700");
    let grants = credit.grants(&uid("u1")).await.expect("grants");
    assert_eq!(
        grants.iter().map(|g| (g.source.as_str(), g.remaining)).collect::<Vec<_>>(),
        [("return:early", Money::ZERO), ("return:late", Money::from_rupees(200))],
        "the grant that expires first is spent first"
    );
    let (kept, _) = orders.reservation(&r.payment_order).await.expect("read").expect("kept");
    assert_eq!(kept.draft.store_credit, Money::from_rupees(500));
    assert_eq!(kept.draft.card_amount(), Money::from_rupees(600));
    assert_eq!(orders.release(&r.payment_order).await, Ok(true));
    assert_eq!(orders.release(&r.payment_order).await, Ok(false));
    assert_eq!(balance(credit, "u1", JUNE_2026).await, Money::from_rupees(700), "given back once");
}

pub async fn a_hold_asking_more_credit_than_there_is_holds_nothing(
    credit: &dyn StoreCreditStore,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1], 5).await;
    credit.grant(&uid("u1"), Money::from_rupees(300), &ret("a"), JUNE_2026).await.expect("grant");
    credit.grant(&uid("u2"), Money::from_rupees(300), &ret("b"), JUNE_2026).await.expect("grant");
    let r = with_credit("a", "u1", 30_001, JUNE_2026);
    assert_eq!(orders.reserve(&r).await, Err(OrderStoreError::CreditShort));
    assert_eq!(orders.reservation(&r.payment_order).await, Ok(None));
    assert_eq!(
        catalog.product(&crate::orders::pid(1)).await.expect("read").expect("there").quantity,
        5,
        "no stock held"
    );
    assert_eq!(balance(credit, "u1", JUNE_2026).await, Money::from_rupees(300));
    // Another customer's credit is not this one's.
    let r = with_credit("b", "u3", 100, JUNE_2026);
    assert_eq!(orders.reserve(&r).await, Err(OrderStoreError::CreditShort));
    // An expired grant pays nothing.
    let r = with_credit("c", "u1", 100, store_credit::expires_at(JUNE_2026));
    assert_eq!(orders.reserve(&r).await, Err(OrderStoreError::CreditShort));
}

pub async fn concurrent_checkouts_never_spend_more_credit_than_there_is(
    credit: &dyn StoreCreditStore,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1], 50).await;
    credit.grant(&uid("u1"), Money::from_rupees(600), &ret("a"), JUNE_2026).await.expect("grant");
    credit.grant(&uid("u1"), Money::from_rupees(500), &ret("b"), JUNE_2026 - DAY).await.expect("grant");
    // Ten checkouts of ₹1,100 each at once, each paying ₹600 with the ₹1,100 of credit: one fits.
    let holds: Vec<Reservation> = (0..10).map(|i| with_credit(&format!("c{i}"), "u1", 60_000, JUNE_2026)).collect();
    let outcomes = join_all(holds.iter().map(|r| orders.reserve(r))).await;
    let won = outcomes.iter().filter(|o| o.is_ok()).count();
    assert_eq!(won, 1, "{outcomes:?}");
    assert!(outcomes.iter().all(|o| o.is_ok() || *o == Err(OrderStoreError::CreditShort)), "{outcomes:?}");
    assert_eq!(balance(credit, "u1", JUNE_2026).await, Money::from_rupees(500));
    let grants = credit.grants(&uid("u1")).await.expect("grants");
    assert!(grants.iter().all(|g| g.remaining.paise() >= 0 && g.remaining <= g.amount));
    // Two at once spending the whole rest: one.
    let last: Vec<Reservation> = (0..2).map(|i| with_credit(&format!("d{i}"), "u1", 50_000, JUNE_2026)).collect();
    let outcomes = join_all(last.iter().map(|r| orders.reserve(r))).await;
    assert_eq!(outcomes.iter().filter(|o| o.is_ok()).count(), 1, "{outcomes:?}");
    assert_eq!(balance(credit, "u1", JUNE_2026).await, Money::ZERO);
}

pub async fn a_placed_order_spends_its_credit_for_good(
    credit: &dyn StoreCreditStore,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1], 5).await;
    credit.grant(&uid("u1"), Money::from_rupees(2000), &ret("a"), JUNE_2026).await.expect("grant");
    let r = with_credit("a", "u1", 110_000, JUNE_2026);
    orders.reserve(&r).await.expect("reserve");
    let placed =
        orders.place(&r.payment_order, &PaymentId("store_credit".into()), JUNE_2026 + 1).await.expect("placed");
    let order = placed.order();
    assert_eq!(order.draft.store_credit, Money::from_rupees(1100));
    assert_eq!(order.draft.total, Money::from_rupees(1100), "the total stays the full price");
    assert_eq!(order.draft.card_amount(), Money::ZERO);
    assert_eq!(
        orders.order(&order.id).await.expect("read").expect("there").draft.store_credit,
        Money::from_rupees(1100)
    );
    assert_eq!(orders.release(&r.payment_order).await, Ok(false));
    assert_eq!(orders.release_expired(JUNE_2026 + 10_000).await, Ok(0));
    assert_eq!(balance(credit, "u1", JUNE_2026 + 10_000).await, Money::from_rupees(900), "spent for good");
}

pub async fn a_lapsed_hold_gives_its_credit_back_and_a_late_payment_takes_it_again(
    credit: &dyn StoreCreditStore,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1], 5).await;
    credit.grant(&uid("u1"), Money::from_rupees(300), &ret("a"), JUNE_2026).await.expect("grant");
    let r = with_credit("a", "u1", 30_000, JUNE_2026);
    orders.reserve(&r).await.expect("reserve");
    assert_eq!(balance(credit, "u1", JUNE_2026).await, Money::ZERO);
    assert_eq!(orders.release_expired(r.expires_at).await, Ok(1));
    assert_eq!(balance(credit, "u1", r.expires_at).await, Money::from_rupees(300), "a lapsed hold gives it back");
    // The card's late payment: the credit is still there, so it is taken again and the order placed.
    let placed = orders.place(&r.payment_order, &PaymentId("pay_late".into()), r.expires_at + 5).await.expect("placed");
    assert_eq!(placed.order().draft.store_credit, Money::from_rupees(300));
    assert_eq!(balance(credit, "u1", r.expires_at + 5).await, Money::ZERO);
    // Another lapsed hold whose credit was spent meanwhile: nothing is placed.
    credit.grant(&uid("u1"), Money::from_rupees(300), &ret("b"), JUNE_2026).await.expect("grant");
    let late = with_credit("b", "u1", 30_000, JUNE_2026);
    orders.reserve(&late).await.expect("reserve");
    assert_eq!(orders.release(&late.payment_order).await, Ok(true));
    orders.reserve(&with_credit("c", "u1", 30_000, JUNE_2026)).await.expect("the credit spent by another checkout");
    assert_eq!(
        orders.place(&late.payment_order, &PaymentId("pay_b".into()), JUNE_2026 + 60).await,
        Err(OrderStoreError::CreditShort)
    );
    assert_eq!(
        catalog.product(&crate::orders::pid(1)).await.expect("read").expect("there").quantity,
        3,
        "no stock taken by it"
    );
}
