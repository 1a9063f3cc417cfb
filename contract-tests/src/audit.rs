//! The `AuditLog` contract (`marque_ports::audit`), proven with the entries the staff-facing
//! ports write with their changes: every suite takes a fresh, empty database's account store
//! (whose `set_offer` writes an entry in its transaction) and its audit trail.
//!
//! Adapters run them per engine through [`for_each_audit_suite!`](crate::for_each_audit_suite).

use marque_domain::pricing::{DiscountPercent, OfferEndsOn};
use marque_domain::staff::StaffId;
use marque_ports::{
    AccountStore, AccountStoreError, Actor, AuditEntry, AuditLog, AuditQuery, AuditRecord, CustomerOffer, UserId,
    UserRecord,
};

use crate::fixtures::window;

/// Calls `$callback!(suite_name)` once for every audit suite.
#[macro_export]
macro_rules! for_each_audit_suite {
    ($callback:ident) => {
        $callback!(an_offer_write_leaves_its_entry_with_its_values);
        $callback!(a_failed_write_leaves_no_entry);
        $callback!(filters_by_actor_action_subject_and_time);
        $callback!(windows_neither_repeat_nor_skip);
    };
}

fn customer(id: &str) -> UserRecord {
    UserRecord {
        id: UserId(id.to_owned()),
        name: format!("Customer {id}"),
        email: format!("{id}@example.in"),
        google_email: None,
        mobile: String::new(),
        password_hash: None,
        profile: String::new(),
        email_verified: true,
        mobile_verified: false,
        offer_ends_on: None,
        percentage: 0,
        created_at: 1_700_000_000,
    }
}

fn owner(n: u32) -> Actor {
    Actor::Staff { id: StaffId(format!("s{n}")), email: format!("owner{n}@marque.in") }
}

fn offer(percent: u32) -> Option<CustomerOffer> {
    Some(CustomerOffer {
        percentage: DiscountPercent::for_offer(percent).expect("1-90"),
        ends_on: OfferEndsOn::parse("2030-01-31").expect("a day"),
    })
}

fn entry(at: i64, actor: Actor, action: &str, subject: &str) -> AuditEntry {
    AuditEntry::new(at, actor, action, subject)
        .with_values(Some(format!(r#"{{"at":{at}}}"#)), Some(format!(r#"{{"action":"{action}"}}"#)))
}

fn query(size: u64) -> AuditQuery {
    AuditQuery { window: window(1, size), ..AuditQuery::default() }
}

fn entries(records: &[AuditRecord]) -> Vec<AuditEntry> {
    records.iter().map(|r| r.entry.clone()).collect()
}

/// `n` offer writes on customer `c1` by owner 1, one second apart from `at`, alternating set and end.
async fn offer_writes(accounts: &dyn AccountStore, at: i64, n: i64) -> Vec<AuditEntry> {
    let mut written = Vec::new();
    for i in 0..n {
        let (action, offer) = if i % 2 == 0 { ("offer.set", offer(10)) } else { ("offer.end", None) };
        let e = entry(at + i, owner(1), action, "customer:c1");
        accounts.set_offer(&UserId("c1".into()), offer, &e).await.expect("an offer write");
        written.push(e);
    }
    written
}

pub async fn an_offer_write_leaves_its_entry_with_its_values(accounts: &dyn AccountStore, log: &dyn AuditLog) {
    accounts.create_user(&customer("c1")).await.expect("create");
    let set = AuditEntry::new(1_800_000_000, owner(1), "offer.set", "customer:c1").with_values(
        Some(r#"{"percentage":0,"endsOn":null}"#.to_owned()),
        Some(r#"{"percentage":15,"endsOn":"2030-01-31"}"#.to_owned()),
    );
    accounts.set_offer(&UserId("c1".into()), offer(15), &set).await.expect("set");
    let stored = accounts.user(&UserId("c1".into())).await.expect("read").expect("the customer");
    assert_eq!((stored.percentage, stored.offer_ends_on), (15, OfferEndsOn::parse("2030-01-31").ok()));
    let page = log.entries(&query(10)).await.expect("read the trail");
    assert_eq!(page.total, 1);
    assert_eq!(entries(&page.records), vec![set.clone()], "the entry with exactly its values");
    assert!(!page.records[0].id.is_empty(), "an id");

    let system = AuditEntry::new(1_800_000_100, Actor::System("cli".into()), "offer.end", "customer:c1");
    accounts.set_offer(&UserId("c1".into()), None, &system).await.expect("end");
    let page = log.entries(&query(10)).await.expect("read the trail");
    assert_eq!(entries(&page.records), vec![system, set], "newest first; a system actor and no values kept as such");
    let ended = accounts.user(&UserId("c1".into())).await.expect("read").expect("the customer");
    assert_eq!((ended.percentage, ended.offer_ends_on), (0, None), "ended");
}

pub async fn a_failed_write_leaves_no_entry(accounts: &dyn AccountStore, log: &dyn AuditLog) {
    let ghost = entry(1_800_000_000, owner(1), "offer.set", "customer:ghost");
    let refused = accounts.set_offer(&UserId("ghost".into()), offer(10), &ghost).await;
    assert!(matches!(refused, Err(AccountStoreError::Invalid { .. })), "no such customer: {refused:?}");
    let page = log.entries(&query(10)).await.expect("read the trail");
    assert_eq!((page.total, page.records.len()), (0, 0), "the failed write left no entry");
    assert_eq!(accounts.user(&UserId("ghost".into())).await.expect("read"), None, "nor a customer");
}

pub async fn filters_by_actor_action_subject_and_time(accounts: &dyn AccountStore, log: &dyn AuditLog) {
    for id in ["c1", "c2"] {
        accounts.create_user(&customer(id)).await.expect("create");
    }
    let c1 = UserId("c1".into());
    let c2 = UserId("c2".into());
    let a = entry(100, owner(1), "offer.set", "customer:c1");
    let b = entry(200, owner(2), "offer.set", "customer:c2");
    let c = entry(300, owner(1), "offer.end", "customer:c1");
    let d = entry(400, Actor::System("cli".into()), "offer.setting", "customer:c2");
    accounts.set_offer(&c1, offer(10), &a).await.expect("a");
    accounts.set_offer(&c2, offer(20), &b).await.expect("b");
    accounts.set_offer(&c1, None, &c).await.expect("c");
    accounts.set_offer(&c2, offer(30), &d).await.expect("d");
    let find = |q: AuditQuery| async move {
        let page = log.entries(&AuditQuery { window: window(1, 10), ..q }).await.expect("read the trail");
        assert_eq!(page.total, page.records.len() as u64, "total counts what the filter matches");
        entries(&page.records)
    };
    assert_eq!(find(AuditQuery::default()).await, vec![d.clone(), c.clone(), b.clone(), a.clone()]);
    assert_eq!(
        find(AuditQuery { actor: Some("s1".into()), ..AuditQuery::default() }).await,
        vec![c.clone(), a.clone()]
    );
    assert_eq!(find(AuditQuery { actor: Some("system:cli".into()), ..AuditQuery::default() }).await, vec![d.clone()]);
    assert_eq!(
        find(AuditQuery { action: Some("offer.set".into()), ..AuditQuery::default() }).await,
        vec![b.clone(), a.clone()],
        "an action exactly (offer.setting is another action)"
    );
    assert_eq!(
        find(AuditQuery { action: Some("offer".into()), ..AuditQuery::default() }).await,
        vec![d.clone(), c.clone(), b.clone(), a.clone()],
        "an area: the action followed by a dot"
    );
    assert_eq!(
        find(AuditQuery { action: Some("offe".into()), ..AuditQuery::default() }).await,
        vec![],
        "not a prefix of a word"
    );
    assert_eq!(
        find(AuditQuery { subject: Some("customer:c2".into()), ..AuditQuery::default() }).await,
        vec![d.clone(), b.clone()]
    );
    assert_eq!(
        find(AuditQuery { from: Some(200), until: Some(400), ..AuditQuery::default() }).await,
        vec![c.clone(), b.clone()],
        "from inclusive, until exclusive"
    );
    assert_eq!(
        find(AuditQuery {
            actor: Some("s1".into()),
            action: Some("offer".into()),
            subject: Some("customer:c1".into()),
            from: Some(101),
            ..AuditQuery::default()
        })
        .await,
        vec![c],
        "every filter at once"
    );
    assert_eq!(find(AuditQuery { subject: Some("customer:c3".into()), ..AuditQuery::default() }).await, vec![]);
}

pub async fn windows_neither_repeat_nor_skip(accounts: &dyn AccountStore, log: &dyn AuditLog) {
    accounts.create_user(&customer("c1")).await.expect("create");
    // Seven entries, three of them in the same second: the order stays total.
    let mut written = offer_writes(accounts, 1_000, 4).await;
    for _ in 0..3 {
        let e = entry(2_000, owner(1), "offer.set", "customer:c1");
        accounts.set_offer(&UserId("c1".into()), offer(5), &e).await.expect("same second");
        written.push(e);
    }
    let mut seen: Vec<AuditRecord> = Vec::new();
    for page in 1..=3 {
        let page =
            log.entries(&AuditQuery { window: window(page, 3), ..AuditQuery::default() }).await.expect("a window");
        assert_eq!(page.total, 7);
        seen.extend(page.records);
    }
    assert_eq!(seen.len(), 7, "every entry once");
    let mut ids: Vec<&str> = seen.iter().map(|r| r.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 7, "no entry twice");
    assert!(seen.windows(2).all(|w| w[0].entry.at >= w[1].entry.at), "newest first");
    written.reverse();
    assert_eq!(&entries(&seen)[3..], &written[3..], "the older ones in the order they were written, latest first");
    let past = log.entries(&AuditQuery { window: window(4, 3), ..AuditQuery::default() }).await.expect("past the end");
    assert_eq!((past.records.len(), past.total), (0, 7));
}
