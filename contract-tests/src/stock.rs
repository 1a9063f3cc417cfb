//! The `StockLedger` contract, one suite per promise in `marque_ports::stock`. Each suite gets an
//! empty ledger and the catalog and order stores of the same database (stock lives on the
//! products, and the order store's reservations, releases and sales are entries too).
//!
//! The ledger's invariant is checked after every step: for every product, the sum of its entries'
//! deltas equals its quantity, and each entry's `after` is its `before` plus its delta.

use futures::future::join_all;
use marque_domain::catalog::ProductId;
use marque_domain::stock::{Adjustment, LowStockThreshold, StockReason};
use marque_ports::{
    Actor, AuditEntry, CatalogStore, OrderStore, OrderStoreError, PaymentId, StockEntry, StockLedger, StockLedgerError,
};

use crate::fixtures::{product, window};
use crate::orders::{pid, reservation, stock, JUNE_2026};

/// Calls `$callback!(suite_name)` once for every stock ledger suite.
#[macro_export]
macro_rules! for_each_stock_suite {
    ($callback:ident) => {
        $callback!(an_adjustment_moves_the_stock_and_is_an_entry);
        $callback!(a_refused_adjustment_writes_nothing);
        $callback!(history_pages_neither_repeat_nor_skip);
        $callback!(reservations_releases_and_sales_are_entries);
        $callback!(the_sum_holds_under_concurrent_adjustments_and_purchases);
        $callback!(low_stock_follows_each_products_threshold);
    };
}

fn staff_audit(action: &str, product: &ProductId) -> AuditEntry {
    AuditEntry::new(
        JUNE_2026,
        Actor::Staff { id: marque_domain::staff::StaffId("s1".into()), email: "asha@marque.test".into() },
        action,
        format!("product:{}", product.0),
    )
}

fn adjustment(delta: i64, reason: &str, note: Option<&str>) -> Adjustment {
    Adjustment::parse(delta, reason, note).expect("a valid adjustment")
}

/// Every entry of `product`, newest first, read a page of 100 at a time.
async fn all_entries(ledger: &dyn StockLedger, product: &ProductId) -> Vec<StockEntry> {
    let mut entries = Vec::new();
    for page in 1.. {
        let history = ledger.history(product, window(page, 100)).await.expect("history");
        let last = history.entries.len() < 100;
        entries.extend(history.entries);
        if last {
            assert_eq!(history.total, entries.len() as u64, "the pages hold every entry of {}", product.0);
            return entries;
        }
    }
    unreachable!("a ledger has fewer than 100000 pages")
}

/// Panics unless `product`'s entries add up to its quantity and each entry's numbers agree; answers the quantity.
async fn assert_ledger_holds(ledger: &dyn StockLedger, catalog: &dyn CatalogStore, product: &ProductId) -> u32 {
    let quantity = catalog.product(product).await.expect("read the product").expect("the product exists").quantity;
    let entries = all_entries(ledger, product).await;
    let sum: i64 = entries.iter().map(|e| e.delta).sum();
    assert_eq!(sum, i64::from(quantity), "the entries of {} add up to its stock: {entries:#?}", product.0);
    for e in &entries {
        assert_eq!(e.after, e.before + e.delta, "after = before + delta: {e:?}");
        assert!(e.after >= 0 && e.before >= 0, "never below zero: {e:?}");
        assert_eq!(e.product, *product);
    }
    quantity
}

pub async fn an_adjustment_moves_the_stock_and_is_an_entry(
    ledger: &dyn StockLedger,
    catalog: &dyn CatalogStore,
    _orders: &dyn OrderStore,
) {
    stock(catalog, &[1], 5).await;
    let p = pid(1);
    let opening = all_entries(ledger, &p).await;
    assert_eq!(opening.len(), 1, "a product added with stock has its opening entry");
    assert_eq!(
        (opening[0].reason, opening[0].delta, opening[0].before, opening[0].after),
        (StockReason::Opening, 5, 0, 5)
    );

    let entry = ledger
        .adjust(&p, &adjustment(3, "received", Some("invoice 42")), &staff_audit("stock.adjust", &p))
        .await
        .expect("received");
    assert_eq!((entry.reason, entry.delta, entry.before, entry.after), (StockReason::Received, 3, 5, 8));
    assert_eq!(entry.note.as_deref(), Some("invoice 42"));
    assert_eq!((entry.actor.as_str(), entry.actor_label.as_str(), entry.at), ("s1", "asha@marque.test", JUNE_2026));
    assert_eq!(entry.order, None);
    assert_eq!(assert_ledger_holds(ledger, catalog, &p).await, 8);

    let taken = ledger.adjust(&p, &adjustment(-8, "damaged", None), &staff_audit("stock.adjust", &p)).await;
    assert_eq!(taken.map(|e| (e.before, e.after, e.note)), Ok((8, 0, None)), "down to exactly zero");
    let back = ledger.adjust(&p, &adjustment(2, "correction", None), &staff_audit("stock.adjust", &p)).await;
    assert_eq!(back.map(|e| e.after), Ok(2));
    assert_eq!(assert_ledger_holds(ledger, catalog, &p).await, 2);

    let history = all_entries(ledger, &p).await;
    let reasons: Vec<StockReason> = history.iter().map(|e| e.reason).collect();
    assert_eq!(
        reasons,
        [StockReason::Correction, StockReason::Damaged, StockReason::Received, StockReason::Opening],
        "newest first"
    );
    assert_eq!(history[0], ledger.history(&p, window(1, 1)).await.expect("history").entries[0], "the entry as written");
}

pub async fn a_refused_adjustment_writes_nothing(
    ledger: &dyn StockLedger,
    catalog: &dyn CatalogStore,
    _orders: &dyn OrderStore,
) {
    stock(catalog, &[1], 2).await;
    let p = pid(1);
    let audit = staff_audit("stock.adjust", &p);
    assert_eq!(
        ledger.adjust(&p, &adjustment(-3, "sold_offline", None), &audit).await,
        Err(StockLedgerError::BelowZero { quantity: 2 })
    );
    assert_eq!(
        ledger.adjust(&p, &adjustment(-3, "correction", None), &audit).await,
        Err(StockLedgerError::BelowZero { quantity: 2 })
    );
    assert_eq!(all_entries(ledger, &p).await.len(), 1, "only the opening entry");
    assert_eq!(assert_ledger_holds(ledger, catalog, &p).await, 2);

    let nobody = ProductId("p999".into());
    assert_eq!(
        ledger.adjust(&nobody, &adjustment(1, "received", None), &audit).await,
        Err(StockLedgerError::UnknownProduct)
    );
    assert_eq!(ledger.history(&nobody, window(1, 20)).await, Err(StockLedgerError::UnknownProduct));
    assert!(catalog.product(&nobody).await.expect("read").is_none(), "an adjustment creates no product");
    let empty = ProductId(String::new());
    assert_eq!(
        ledger.adjust(&empty, &adjustment(1, "received", None), &audit).await,
        Err(StockLedgerError::UnknownProduct)
    );
    assert_eq!(ledger.history(&empty, window(1, 20)).await, Err(StockLedgerError::UnknownProduct));
    assert_eq!(ledger.threshold(&nobody).await, Err(StockLedgerError::UnknownProduct));
    let threshold = LowStockThreshold::new(3).expect("valid");
    assert_eq!(
        ledger.set_threshold(&nobody, threshold, &staff_audit("stock.threshold", &nobody)).await,
        Err(StockLedgerError::UnknownProduct)
    );
    assert!(catalog.product(&nobody).await.expect("read").is_none(), "a threshold creates no product");
}

pub async fn history_pages_neither_repeat_nor_skip(
    ledger: &dyn StockLedger,
    catalog: &dyn CatalogStore,
    _orders: &dyn OrderStore,
) {
    stock(catalog, &[1, 2], 0).await;
    let p = pid(1);
    for n in 1..=25 {
        ledger.adjust(&p, &adjustment(n, "received", None), &staff_audit("stock.adjust", &p)).await.expect("received");
    }
    ledger.adjust(&pid(2), &adjustment(4, "received", None), &staff_audit("stock.adjust", &pid(2))).await.expect("p2");

    let mut seen: Vec<StockEntry> = Vec::new();
    for number in 1..=4 {
        let page = ledger.history(&p, window(number, 7)).await.expect("a page");
        assert_eq!(page.total, 26, "25 adjustments and the opening entry");
        assert_eq!(page.entries.len(), if number < 4 { 7 } else { 5 }, "page {number}");
        seen.extend(page.entries);
    }
    assert_eq!(seen.len(), 26, "every entry once");
    let mut ids: Vec<&str> = seen.iter().map(|e| e.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 26, "no entry twice");
    let deltas: Vec<i64> = seen.iter().map(|e| e.delta).collect();
    let expected: Vec<i64> = (0..=25).rev().collect();
    assert_eq!(deltas, expected, "newest first, across pages");
    for pair in seen.windows(2) {
        assert_eq!(pair[0].before, pair[1].after, "each entry starts where the one before it ended");
    }
    assert_eq!(ledger.history(&p, window(5, 7)).await.map(|h| h.entries.len()), Ok(0), "past the end");
    assert_eq!(assert_ledger_holds(ledger, catalog, &p).await, 325);
    assert_eq!(assert_ledger_holds(ledger, catalog, &pid(2)).await, 4);
}

pub async fn reservations_releases_and_sales_are_entries(
    ledger: &dyn StockLedger,
    catalog: &dyn CatalogStore,
    orders: &dyn OrderStore,
) {
    stock(catalog, &[1, 2], 5).await;
    let (p1, p2) = (pid(1), pid(2));
    let held = reservation("a", "u1", &[(1, 2), (2, 1)], JUNE_2026);
    orders.reserve(&held).await.expect("reserve");
    let latest = &all_entries(ledger, &p1).await[0];
    assert_eq!((latest.reason, latest.delta, latest.before, latest.after), (StockReason::Reserved, -2, 5, 3));
    assert_eq!(latest.order.as_deref(), Some(held.payment_order.0.as_str()));
    assert!(latest.actor.starts_with("system:"), "the shop itself: {latest:?}");
    assert_eq!(assert_ledger_holds(ledger, catalog, &p2).await, 4);

    assert_eq!(orders.release(&held.payment_order).await, Ok(true));
    let latest = &all_entries(ledger, &p1).await[0];
    assert_eq!((latest.reason, latest.delta, latest.before, latest.after), (StockReason::Released, 2, 3, 5));
    assert_eq!(assert_ledger_holds(ledger, catalog, &p1).await, 5);
    assert_eq!(assert_ledger_holds(ledger, catalog, &p2).await, 5);

    // Paid after its hold lapsed: the sale takes the units again.
    let late = orders.place(&held.payment_order, &PaymentId("pay_a".into()), JUNE_2026 + 1000).await;
    assert!(late.is_ok(), "placed: {late:?}");
    let latest = &all_entries(ledger, &p1).await[0];
    assert_eq!((latest.reason, latest.delta, latest.before, latest.after), (StockReason::Sold, -2, 5, 3));
    assert_eq!(assert_ledger_holds(ledger, catalog, &p1).await, 3);

    // Paid in time: the units were taken by the reservation, the sale is an entry of zero.
    let paid = reservation("b", "u1", &[(2, 3)], JUNE_2026);
    orders.reserve(&paid).await.expect("reserve");
    orders.place(&paid.payment_order, &PaymentId("pay_b".into()), JUNE_2026 + 60).await.expect("placed");
    let entries = all_entries(ledger, &p2).await;
    assert_eq!(
        (entries[0].reason, entries[0].delta, entries[0].before, entries[0].after),
        (StockReason::Sold, 0, 1, 1)
    );
    assert_eq!(entries[0].order.as_deref(), Some(paid.payment_order.0.as_str()));
    assert_eq!((entries[1].reason, entries[1].delta), (StockReason::Reserved, -3));
    assert_eq!(assert_ledger_holds(ledger, catalog, &p2).await, 1);

    // Out of stock: nothing is written.
    let short = reservation("c", "u2", &[(1, 1), (2, 2)], JUNE_2026);
    assert_eq!(orders.reserve(&short).await, Err(OrderStoreError::OutOfStock { product: p2.clone() }));
    assert_eq!(all_entries(ledger, &p1).await.len(), 4, "opening, reserved, released, sold");
    assert_eq!(assert_ledger_holds(ledger, catalog, &p1).await, 3);
}

pub async fn the_sum_holds_under_concurrent_adjustments_and_purchases(
    ledger: &dyn StockLedger,
    catalog: &dyn CatalogStore,
    orders: &dyn OrderStore,
) {
    stock(catalog, &[1], 10).await;
    let p = pid(1);
    // Twelve staff adjustments (half add, half take away) and twelve buyers of two units, all at once.
    let adjustments = (0..12).map(|i| {
        let change = if i % 2 == 0 { adjustment(3, "received", None) } else { adjustment(-2, "sold_offline", None) };
        let audit = staff_audit("stock.adjust", &p);
        let p = p.clone();
        async move { ledger.adjust(&p, &change, &audit).await.map(|e| e.delta) }
    });
    let purchases = (0..12).map(|i| {
        let r = reservation(&format!("race{i}"), &format!("u{i}"), &[(1, 2)], JUNE_2026);
        async move {
            let reserved = orders.reserve(&r).await;
            // Every third buyer gives up and the hold is released.
            if reserved.is_ok() && i % 3 == 0 {
                assert_eq!(orders.release(&r.payment_order).await, Ok(true));
                return Ok(0);
            }
            reserved.map(|()| -2)
        }
    });
    let (adjusted, bought) = futures::join!(join_all(adjustments), join_all(purchases));
    let mut expected: i64 = 10;
    for outcome in &adjusted {
        match outcome {
            Ok(delta) => expected += delta,
            Err(StockLedgerError::BelowZero { .. }) => {}
            Err(e) => panic!("an adjustment failed: {e}"),
        }
    }
    for outcome in &bought {
        match outcome {
            Ok(delta) => expected += delta,
            Err(OrderStoreError::OutOfStock { .. }) => {}
            Err(e) => panic!("a reservation failed: {e}"),
        }
    }
    assert!(adjusted.iter().filter(|o| o.is_ok()).count() >= 6, "every addition lands: {adjusted:?}");
    assert_eq!(i64::from(assert_ledger_holds(ledger, catalog, &p).await), expected, "no update lost");
}

pub async fn low_stock_follows_each_products_threshold(
    ledger: &dyn StockLedger,
    catalog: &dyn CatalogStore,
    _orders: &dyn OrderStore,
) {
    let quantities = [(1, 0), (2, 3), (3, 5), (4, 6), (5, 50)];
    let products: Vec<_> =
        quantities.iter().map(|&(n, q)| product(&pid(n).0).name(&format!("Part {n}")).quantity(q).build()).collect();
    catalog.add_products(&products).await.expect("add products");
    let default = LowStockThreshold::DEFAULT;
    assert_eq!(default.get(), 5);
    assert_eq!(ledger.threshold(&pid(5)).await, Ok(default), "a new product has the default threshold");

    let low = ledger.low_stock(window(1, 20)).await.expect("low stock");
    let listed: Vec<(ProductId, u32, u32)> =
        low.items.iter().map(|i| (i.product.clone(), i.quantity, i.threshold)).collect();
    assert_eq!(listed, [(pid(1), 0, 5), (pid(2), 3, 5), (pid(3), 5, 5)], "at or below the threshold, fewest first");
    assert_eq!(low.total, 3);
    assert_eq!(low.items[1].name, "Part 2");

    let sixty = LowStockThreshold::new(60).expect("valid");
    assert_eq!(ledger.set_threshold(&pid(5), sixty, &staff_audit("stock.threshold", &pid(5))).await, Ok(default));
    assert_eq!(ledger.threshold(&pid(5)).await, Ok(sixty));
    let zero = LowStockThreshold::new(0).expect("valid");
    assert_eq!(ledger.set_threshold(&pid(2), zero, &staff_audit("stock.threshold", &pid(2))).await, Ok(default));
    assert_eq!(
        catalog.product(&pid(5)).await.expect("read").map(|p| p.quantity),
        Some(50),
        "a threshold leaves the stock alone"
    );

    let first = ledger.low_stock(window(1, 2)).await.expect("page 1");
    let second = ledger.low_stock(window(2, 2)).await.expect("page 2");
    assert_eq!((first.total, second.total), (3, 3));
    let ids: Vec<ProductId> = first.items.iter().chain(&second.items).map(|i| i.product.clone()).collect();
    assert_eq!(ids, [pid(1), pid(3), pid(5)], "paged without repeats or gaps");

    ledger
        .adjust(&pid(1), &adjustment(10, "received", None), &staff_audit("stock.adjust", &pid(1)))
        .await
        .expect("received");
    let ids: Vec<ProductId> =
        ledger.low_stock(window(1, 20)).await.expect("low").items.into_iter().map(|i| i.product).collect();
    assert_eq!(ids, [pid(3), pid(5)], "stock received leaves the list");
}
