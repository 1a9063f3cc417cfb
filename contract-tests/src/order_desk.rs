//! The `OrderDesk` contract (`marque_ports::order_desk`): the back office's list of orders, one
//! order with its version and timeline, and changes that happen only on the version they name.
//! Each suite gets the desk, the order store, the catalog store and the account store of one fresh
//! database (orders are placed through the order store, as checkout places them).

use futures::future::join_all;
use marque_domain::order::{Fulfilment, OrderSearch, OrderStatus, Shipment};
use marque_domain::staff::StaffId;
use marque_ports::{
    AccountStore, Actor, AdminOrderQuery, AuditEntry, CatalogStore, OrderDesk, OrderDeskError, OrderId, OrderStore,
    PaymentId, PlacedOrder,
};

use crate::accounts::user;
use crate::fixtures::window;
use crate::orders::{reservation, stock, JUNE_2026};

/// Calls `$callback!(suite_name)` once for every order desk suite.
#[macro_export]
macro_rules! for_each_order_desk_suite {
    ($callback:ident) => {
        $callback!(the_list_filters_pages_and_counts_per_status);
        $callback!(orders_are_found_by_number_invoice_email_and_mobile);
        $callback!(a_change_happens_only_on_the_version_it_names);
        $callback!(of_concurrent_changes_of_one_version_exactly_one_is_written);
        $callback!(sales_total_the_orders_placed_in_the_window_but_cancelled_ones);
    };
}

/// Places an order for `user` of one unit of product `p001` (which must have stock), paid at `at`.
pub async fn place(orders: &dyn OrderStore, key: &str, user: &str, at: i64) -> PlacedOrder {
    let r = reservation(key, user, &[(1, 1)], at);
    orders.reserve(&r).await.expect("reserve");
    orders.place(&r.payment_order, &PaymentId(format!("pay_{key}")), at).await.expect("place").into_order()
}

/// An entry by staff member `s<n>` at `at`.
pub(crate) fn change_entry(n: u32, at: i64, action: &str, order: &OrderId) -> AuditEntry {
    let actor = Actor::Staff { id: StaffId(format!("s{n}")), email: format!("staff{n}@marque.in") };
    AuditEntry::new(at, actor, action, format!("order:{}", order.0))
}

fn at(status: OrderStatus, shipment: Option<Shipment>) -> Fulfilment {
    Fulfilment { status, shipment }
}

fn query(size: u64) -> AdminOrderQuery {
    AdminOrderQuery { window: window(1, size), ..AdminOrderQuery::default() }
}

fn numbers(orders: &[PlacedOrder]) -> Vec<&str> {
    orders.iter().map(|o| o.order_number.as_str()).collect()
}

/// Moves `order` (at version `from`) to `status` through every step before it, as staff member 1.
async fn move_to(desk: &dyn OrderDesk, order: &OrderId, status: OrderStatus) {
    let mut version = desk.order(order).await.expect("read").expect("the order").version;
    let mut now = at(OrderStatus::Placed, None);
    while now.status != status {
        let next = now.status.next().expect("a next step");
        let shipment = (next == OrderStatus::Shipped).then(|| Shipment::parse("dtdc", "D1234567", None).expect("ok"));
        now = at(next, shipment.or(now.shipment));
        let entry = change_entry(1, JUNE_2026 + 1_000, "order.status", order);
        version = desk.update_fulfilment(order, version, &now, &entry, &[]).await.expect("a change").version;
    }
}

pub async fn the_list_filters_pages_and_counts_per_status(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 50).await;
    let empty = desk.orders(&query(20)).await.expect("an empty list");
    assert_eq!((empty.orders.len(), empty.total, empty.counts.0), (0, 0, [0; 6]));
    let mut placed = Vec::new();
    for i in 0..7 {
        placed.push(place(orders, &format!("k{i}"), if i % 2 == 0 { "u1" } else { "u2" }, JUNE_2026 + i * 3_600).await);
    }
    move_to(desk, &placed[1].id, OrderStatus::Confirmed).await;
    move_to(desk, &placed[2].id, OrderStatus::Shipped).await;
    move_to(desk, &placed[3].id, OrderStatus::Shipped).await;

    let all = desk.orders(&query(20)).await.expect("every order");
    let newest_first: Vec<&str> = placed.iter().rev().map(|o| o.order_number.as_str()).collect();
    assert_eq!(numbers(&all.orders), newest_first, "newest first");
    assert_eq!((all.total, all.counts.0), (7, [4, 1, 0, 2, 0, 0]));
    assert_eq!(all.counts.of(OrderStatus::Shipped), 2);
    let shipped = all.orders.iter().find(|o| o.id == placed[2].id).expect("listed");
    assert_eq!(shipped.shipment.as_ref().map(|s| s.awb().as_str()), Some("D1234567"), "the list shows the shipment");

    let only = |status| AdminOrderQuery { status: Some(status), ..query(20) };
    let shipped = desk.orders(&only(OrderStatus::Shipped)).await.expect("shipped orders");
    assert_eq!(numbers(&shipped.orders), [placed[3].order_number.as_str(), placed[2].order_number.as_str()]);
    assert_eq!((shipped.total, shipped.counts.0), (2, [4, 1, 0, 2, 0, 0]), "the counts leave the status out");

    let day = AdminOrderQuery { from: Some(JUNE_2026 + 3_600), until: Some(JUNE_2026 + 4 * 3_600), ..query(20) };
    let in_range = desk.orders(&day).await.expect("a range");
    let expected: Vec<&str> = placed[1..4].iter().rev().map(|o| o.order_number.as_str()).collect();
    assert_eq!(numbers(&in_range.orders), expected, "from included, until excluded");
    assert_eq!((in_range.total, in_range.counts.0), (3, [0, 1, 0, 2, 0, 0]));
    let both = AdminOrderQuery { status: Some(OrderStatus::Placed), ..day };
    assert_eq!(desk.orders(&both).await.expect("both").total, 0);

    let mut seen = Vec::new();
    for page in 1..=4 {
        let window = AdminOrderQuery { window: crate::fixtures::window(page, 2), ..query(2) };
        let got = desk.orders(&window).await.expect("a window");
        assert_eq!(got.total, 7);
        assert!(got.orders.len() <= 2);
        seen.extend(got.orders.into_iter().map(|o| o.order_number));
    }
    assert_eq!(seen, newest_first, "windows neither repeat nor skip");
}

pub async fn orders_are_found_by_number_invoice_email_and_mobile(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 50).await;
    accounts.create_user(&user("u1", "Asha@Example.in", "9812345678")).await.expect("u1");
    accounts.create_user(&user("u2", "ravi@example.in", "9898989898")).await.expect("u2");
    let first = place(orders, "a", "u1", JUNE_2026).await;
    let second = place(orders, "b", "u2", JUNE_2026 + 60).await;
    let third = place(orders, "c", "u1", JUNE_2026 + 120).await;
    let found = |text: &str| {
        let search = OrderSearch::parse(text).expect("a search");
        async move {
            let page = desk.orders(&AdminOrderQuery { search, ..query(20) }).await.expect("a search");
            page.orders.into_iter().map(|o| o.order_number).collect::<Vec<_>>()
        }
    };
    assert_eq!(found(&second.order_number.to_lowercase()).await, vec![second.order_number.clone()], "order number");
    assert_eq!(found(&third.invoice_number.to_string()).await, vec![third.order_number.clone()], "invoice number");
    assert_eq!(
        found("ASHA@example.IN").await,
        [third.order_number.clone(), first.order_number.clone()],
        "the account's email"
    );
    assert_eq!(found("+91 98989 89898").await, vec![second.order_number.clone()], "the account's mobile");
    // Every order here is delivered to the fixture address's mobile.
    assert_eq!(found("9876543210").await.len(), 3, "the delivery address's mobile");
    assert!(found("nobody@example.in").await.is_empty());
    assert!(found("MQ-999999").await.is_empty());
    let with_status = AdminOrderQuery {
        search: OrderSearch::parse("asha@example.in").expect("a search"),
        status: Some(OrderStatus::Confirmed),
        ..query(20)
    };
    let none = desk.orders(&with_status).await.expect("a search");
    assert_eq!((none.total, none.counts.0), (0, [2, 0, 0, 0, 0, 0]), "counts follow the search");

    let detail = desk.order(&first.id).await.expect("read").expect("the order");
    assert_eq!(
        (detail.customer_email.as_deref(), detail.customer_mobile.as_deref()),
        (Some("Asha@Example.in"), Some("9812345678"))
    );
}

pub async fn a_change_happens_only_on_the_version_it_names(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 5).await;
    let order = place(orders, "a", "u1", JUNE_2026).await;
    let read = desk.order(&order.id).await.expect("read").expect("the order");
    assert_eq!((read.version, read.timeline.len(), &read.order), (0, 0, &order), "as placed, at version 0");
    assert_eq!((read.customer_email, read.customer_mobile), (None, None), "no account in this store");

    let confirm = change_entry(1, JUNE_2026 + 100, "order.status", &order.id);
    let confirmed = desk.update_fulfilment(&order.id, 0, &at(OrderStatus::Confirmed, None), &confirm, &[]).await;
    let confirmed = confirmed.expect("the first change");
    assert_eq!((confirmed.version, confirmed.order.status, confirmed.order.status_text.as_str()), (1, 2, "confirmed"));
    let event = &confirmed.timeline;
    assert_eq!(event.len(), 1);
    assert_eq!(
        (event[0].at, event[0].actor.as_str(), event[0].actor_label.as_str(), event[0].action.as_str()),
        (JUNE_2026 + 100, "s1", "staff1@marque.in", "order.status")
    );
    assert_eq!((event[0].status, &event[0].shipment), (OrderStatus::Confirmed, &None));

    let stale = change_entry(2, JUNE_2026 + 101, "order.status", &order.id);
    let refused = desk.update_fulfilment(&order.id, 0, &at(OrderStatus::Packed, None), &stale, &[]).await;
    assert_eq!(refused, Err(OrderDeskError::Changed { version: 1 }));
    let unchanged = desk.order(&order.id).await.expect("read").expect("the order");
    assert_eq!((unchanged.version, unchanged.order.status, unchanged.timeline.len()), (1, 2, 1), "nothing written");
    let ahead = desk.update_fulfilment(&order.id, 7, &at(OrderStatus::Packed, None), &stale, &[]).await;
    assert_eq!(ahead, Err(OrderDeskError::Changed { version: 1 }), "a version from the future is stale too");

    let nobody = OrderId("nobody".into());
    let missing = desk.update_fulfilment(&nobody, 0, &at(OrderStatus::Confirmed, None), &confirm, &[]).await;
    assert_eq!(missing, Err(OrderDeskError::NotFound));
    assert_eq!(desk.order(&nobody).await, Ok(None));
    assert_eq!(desk.order(&OrderId(String::new())).await, Ok(None));

    let other = Shipment::parse("other", "xb12345678", Some("https://track.example.in/XB12345678")).expect("valid");
    let ship = change_entry(1, JUNE_2026 + 200, "order.status", &order.id);
    let packed =
        desk.update_fulfilment(&order.id, 1, &at(OrderStatus::Packed, None), &ship, &[]).await.expect("packed");
    let shipped = desk
        .update_fulfilment(&order.id, packed.version, &at(OrderStatus::Shipped, Some(other.clone())), &ship, &[])
        .await
        .expect("shipped");
    assert_eq!((shipped.version, shipped.order.status), (3, 4));
    assert_eq!(shipped.order.shipment.as_ref(), Some(&other), "courier, AWB and typed link kept");
    assert_eq!(shipped.timeline.iter().map(|e| e.status.number()).collect::<Vec<_>>(), [2, 3, 4], "oldest first");
    assert_eq!(shipped.timeline[2].shipment.as_ref(), Some(&other));
    let seen_by_customer = orders.order(&order.id).await.expect("read").expect("the order");
    assert_eq!(seen_by_customer.shipment, Some(other), "the customer's order store reads the same shipment");
    assert_eq!(seen_by_customer.status_text, "shipped");
}

pub async fn of_concurrent_changes_of_one_version_exactly_one_is_written(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 5).await;
    let order = place(orders, "a", "u1", JUNE_2026).await;
    let entries: Vec<AuditEntry> =
        (1..=12).map(|n| change_entry(n, JUNE_2026 + i64::from(n), "order.status", &order.id)).collect();
    let confirmed = at(OrderStatus::Confirmed, None);
    let outcomes = join_all(entries.iter().map(|e| desk.update_fulfilment(&order.id, 0, &confirmed, e, &[]))).await;
    let won: Vec<_> = outcomes.iter().filter_map(|o| o.as_ref().ok()).collect();
    assert_eq!(won.len(), 1, "exactly one change is written: {outcomes:?}");
    for lost in outcomes.iter().filter(|o| o.is_err()) {
        assert_eq!(lost, &Err(OrderDeskError::Changed { version: 1 }), "the others are told");
    }
    let after = desk.order(&order.id).await.expect("read").expect("the order");
    assert_eq!((after.version, after.timeline.len()), (1, 1));
    assert_eq!(after.timeline[0].actor, won[0].timeline[0].actor, "the winner's entry");
}

pub async fn sales_total_the_orders_placed_in_the_window_but_cancelled_ones(
    desk: &dyn OrderDesk,
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
    _accounts: &dyn AccountStore,
) {
    stock(catalog, &[1], 10).await;
    assert_eq!(desk.sales(0, i64::MAX).await, Ok(marque_domain::Money::ZERO), "no orders, no sales");
    let a = place(orders, "a", "u1", JUNE_2026).await;
    let b = place(orders, "b", "u1", JUNE_2026 + 100).await;
    let c = place(orders, "c", "u2", JUNE_2026 + 200).await;
    let one = a.draft.total;
    assert!(one.paise() > 0 && b.draft.total == one && c.draft.total == one, "three like orders");
    let triple = marque_domain::Money::from_paise(one.paise() * 3);
    assert_eq!(desk.sales(JUNE_2026, JUNE_2026 + 201).await, Ok(triple));
    assert_eq!(desk.sales(JUNE_2026 + 1, JUNE_2026 + 200).await, Ok(b.draft.total), "from inclusive, until exclusive");
    let cancel = change_entry(1, JUNE_2026 + 300, "order.cancel", &c.id);
    desk.update_fulfilment(&c.id, 0, &at(OrderStatus::Cancelled, None), &cancel, &[]).await.expect("cancelled");
    let double = marque_domain::Money::from_paise(one.paise() * 2);
    assert_eq!(desk.sales(JUNE_2026, JUNE_2026 + 201).await, Ok(double), "a cancelled order is no sale");
}
