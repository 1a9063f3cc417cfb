//! The `AuditLog` contract (`marque_ports::audit`), proven with the entries the staff-facing
//! ports write with their changes.
//!
//! - [`for_each_audit_suite!`](crate::for_each_audit_suite): reading the trail back (values,
//!   filters, windows); each suite takes a fresh database's account store (whose `set_offer` writes
//!   an entry in its transaction) and its audit trail.
//! - [`for_each_staff_write_suite!`](crate::for_each_staff_write_suite): every write of every
//!   staff-facing port ([`AUDITED_WRITES`]) leaves exactly its entry, and a write that fails leaves
//!   none and changes nothing; each suite takes all the staff-facing stores of a fresh database.
//!
//! Adapters run both per engine.

use marque_domain::catalog::{Category, OemBrand, Product, ProductId, ProductImage};
use marque_domain::pricing::{DiscountPercent, OfferEndsOn};
use marque_domain::staff::{StaffId, StaffRole};
use marque_domain::stock::{Adjustment, LowStockThreshold};
use marque_ports::{
    AccountStore, AccountStoreError, Actor, AuditEntry, AuditLog, AuditQuery, AuditRecord, CatalogEditor,
    CatalogEditorError, CatalogStore, CustomerOffer, GrievanceStore, OrderDesk, OrderDeskError, OrderId, OrderStore,
    ProductPhotos, ProductPhotosError, ReturnStore, SetupCode, SetupSecrets, StaffRecord, StaffStatus, StaffStore,
    StaffStoreError, StockLedger, StockLedgerError, UserId, UserRecord, VehicleStore,
};

use crate::fixtures::{brand, category, photo, product, window};

/// Calls `$callback!(suite_name)` once for every audit suite.
#[macro_export]
macro_rules! for_each_audit_suite {
    ($callback:ident) => {
        $callback!(an_offer_write_leaves_its_entry_with_its_values);
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

// ---------------------------------------------------------------------------------------------
// Every audited write of every staff-facing port.
// ---------------------------------------------------------------------------------------------

/// Calls `$callback!(suite_name)` once for every suite proving that each write of a staff-facing
/// port leaves exactly its entry (actor, action, subject, the values before and after) and that a
/// write that fails leaves none and changes nothing. Each takes the staff-facing stores of one
/// fresh database: `(accounts, catalog, editor, photos, staff, stock, orders, desk, grievances, vehicles, returns, log)`; [`AUDITED_WRITES`]
/// names the suite of every write, and `tests/audited_writes.rs` fails when a port gains a write
/// that no suite covers.
#[macro_export]
macro_rules! for_each_staff_write_suite {
    ($callback:ident) => {
        $callback!(staff_store_writes_leave_their_entries);
        $callback!(catalog_editor_writes_leave_their_entries);
        $callback!(photo_writes_leave_their_entries);
        $callback!(stock_writes_leave_their_entries);
        $callback!(offer_writes_leave_their_entries);
        $callback!(order_desk_writes_leave_their_entries);
        $callback!(grievance_writes_leave_their_entries);
        $callback!(vehicle_writes_leave_their_entries);
        $callback!(return_writes_leave_their_entries);
    };
}

/// A write method of a staff-facing port (one that takes an [`AuditEntry`]) and the suite that
/// proves it leaves its entry, and none when it fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuditedWrite {
    /// The port trait, as `ports/src/` names it.
    pub port: &'static str,
    pub method: &'static str,
    /// A suite of [`for_each_staff_write_suite!`](crate::for_each_staff_write_suite).
    pub suite: &'static str,
}

const fn audited(port: &'static str, method: &'static str, suite: &'static str) -> AuditedWrite {
    AuditedWrite { port, method, suite }
}

/// Every write of every staff-facing port, with its suite. `tests/audited_writes.rs` reads the port
/// traits and fails when a method that takes an [`AuditEntry`] is missing here (or one here no
/// longer exists), so a new write cannot go unproven.
pub const AUDITED_WRITES: [AuditedWrite; 21] = [
    audited("StaffStore", "invite", "staff_store_writes_leave_their_entries"),
    audited("StaffStore", "reissue", "staff_store_writes_leave_their_entries"),
    audited("StaffStore", "complete_setup", "staff_store_writes_leave_their_entries"),
    audited("StaffStore", "remove", "staff_store_writes_leave_their_entries"),
    audited("CatalogEditor", "create_product", "catalog_editor_writes_leave_their_entries"),
    audited("CatalogEditor", "update_product", "catalog_editor_writes_leave_their_entries"),
    audited("CatalogEditor", "create_category", "catalog_editor_writes_leave_their_entries"),
    audited("CatalogEditor", "update_category", "catalog_editor_writes_leave_their_entries"),
    audited("CatalogEditor", "create_brand", "catalog_editor_writes_leave_their_entries"),
    audited("CatalogEditor", "update_brand", "catalog_editor_writes_leave_their_entries"),
    audited("ProductPhotos", "set_images", "photo_writes_leave_their_entries"),
    audited("StockLedger", "adjust", "stock_writes_leave_their_entries"),
    audited("StockLedger", "set_threshold", "stock_writes_leave_their_entries"),
    audited("AccountStore", "set_offer", "offer_writes_leave_their_entries"),
    audited("OrderDesk", "update_fulfilment", "order_desk_writes_leave_their_entries"),
    audited("OrderDesk", "record_refund", "order_desk_writes_leave_their_entries"),
    audited("OrderDesk", "retry_refund", "order_desk_writes_leave_their_entries"),
    audited("GrievanceStore", "change", "grievance_writes_leave_their_entries"),
    audited("VehicleStore", "add_vehicle", "vehicle_writes_leave_their_entries"),
    audited("VehicleStore", "set_fitment", "vehicle_writes_leave_their_entries"),
    audited("ReturnStore", "change", "return_writes_leave_their_entries"),
];

/// The other methods of the ports that have an audited write, and why each leaves no entry. A
/// new method of such a port must be listed here or in [`AUDITED_WRITES`] (`tests/audited_writes.rs`).
pub const NOT_AUDITED: [(&str, &[&str], &str); 16] = [
    ("StaffStore", &["staff", "staff_by_email", "list", "owners", "setup_code", "session_staff"], "reads"),
    (
        "StaffStore",
        &["use_totp_step", "create_session", "end_session"],
        "signing in and out changes nothing in the shop (the set-up that allows it is audited)",
    ),
    ("StaffStore", &["sweep"], "housekeeping: deletes only sessions and set-up codes that had already ended"),
    ("CatalogEditor", &["product", "products"], "reads"),
    ("ProductPhotos", &["images"], "reads"),
    ("StockLedger", &["history", "low_stock", "threshold"], "reads"),
    ("OrderDesk", &["orders", "order", "unsettled_refunds", "credit_notes_of", "refund_counts", "sales"], "reads"),
    ("GrievanceStore", &["grievances", "grievance", "overdue"], "reads"),
    (
        "ReturnStore",
        &["returns_of", "returns_of_order", "returns", "product_return", "waiting", "credit_granted"],
        "reads",
    ),
    (
        "ReturnStore",
        &["request"],
        "a customer's own return request from Purchase History: no staff member acts through it",
    ),
    (
        "ReturnStore",
        &["forget_customer"],
        "a customer's own erasure of their account (its personal data leaves no trail by design)",
    ),
    ("VehicleStore", &["models", "generations", "vehicles_of", "vehicle", "fitment"], "reads"),
    (
        "VehicleStore",
        &["seed_vehicles", "seed_fitment"],
        "the shop's own seed list and demo fitment, loaded at start-up: no staff member acts through them",
    ),
    (
        "GrievanceStore",
        &["open"],
        "a complainant's own ticket from the public contact form: no staff member acts through it",
    ),
    (
        "OrderDesk",
        &["settle_refund"],
        "the payment provider's answer to a refund staff made (audited when made), as the webhooks record it",
    ),
    (
        "AccountStore",
        &[
            "create_user",
            "user",
            "user_by_email",
            "user_by_mobile",
            "user_by_google_email",
            "users_claiming_email",
            "users_claiming_mobile",
            "update_user",
            "search_users",
            "prove",
            "user_by_external",
            "link_external",
            "create_session",
            "session_user",
            "end_session",
            "put_challenge",
            "challenge",
            "check_challenge",
            "sweep",
            "put_pending_sign_in",
            "take_pending_sign_in",
            "put_sign_in_code",
            "take_sign_in_code",
            "erase_user",
            "set_language",
        ],
        "a customer's own account and sign-in, or a read: no staff member acts through them",
    ),
];

/// The trail as a write leaves it: how many entries it held at the last look, and the entries a
/// suite's writes are given (one second apart, so the newest is always the latest write's).
struct Trail<'a> {
    log: &'a dyn AuditLog,
    len: u64,
    at: i64,
}

impl<'a> Trail<'a> {
    async fn new(log: &'a dyn AuditLog) -> Trail<'a> {
        let len = log.entries(&query(1)).await.expect("read the trail").total;
        Trail { log, len, at: 1_800_000_000 }
    }

    /// The next entry, by owner 1, with its values.
    fn entry(&mut self, action: &str, subject: &str, before: Option<&str>, after: Option<&str>) -> AuditEntry {
        self.by(owner(1), action, subject, before, after)
    }

    /// The next entry, by `actor`, with its values.
    fn by(
        &mut self,
        actor: Actor,
        action: &str,
        subject: &str,
        before: Option<&str>,
        after: Option<&str>,
    ) -> AuditEntry {
        self.at += 1;
        AuditEntry::new(self.at, actor, action, subject)
            .with_values(before.map(str::to_owned), after.map(str::to_owned))
    }

    /// Panics unless `write` (named for the message) added exactly `expected` to the trail: one more
    /// entry, the newest, equal to it, and found once by its actor, action, subject and time.
    async fn added(&mut self, write: &str, expected: &AuditEntry) {
        let page = self.log.entries(&query(1)).await.expect("read the trail");
        assert_eq!(page.total, self.len + 1, "{write}: exactly one entry");
        assert_eq!(
            page.records.iter().map(|r| comparable(&r.entry)).collect::<Vec<_>>(),
            vec![comparable(expected)],
            "{write}: the newest entry, with its values"
        );
        let filtered = AuditQuery {
            actor: Some(expected.actor.key()),
            action: Some(expected.action.clone()),
            subject: Some(expected.subject.clone()),
            from: Some(expected.at),
            until: Some(expected.at + 1),
            window: window(1, 10),
        };
        let found = self.log.entries(&filtered).await.expect("read the trail");
        assert_eq!(found.records.len(), 1, "{write}: found once by who, what and when");
        self.len += 1;
    }

    /// Panics unless the trail is as it was: `write` failed and left no entry.
    async fn unchanged(&self, write: &str) {
        let page = self.log.entries(&query(100)).await.expect("read the trail");
        assert_eq!(page.total, self.len, "{write} failed and left no entry: {:#?}", entries(&page.records));
    }
}

/// An entry with its values read as JSON: a store that writes the values itself (the stock ledger)
/// may order an object's keys as it likes.
fn comparable(e: &AuditEntry) -> (i64, String, &str, &str, Option<serde_json::Value>, Option<serde_json::Value>) {
    let json = |v: &Option<String>| {
        v.as_deref().map(|t| serde_json::from_str(t).unwrap_or_else(|_| serde_json::Value::String(t.to_owned())))
    };
    (e.at, e.actor.key(), &e.action, &e.subject, json(&e.before), json(&e.after))
}

/// Invitations, set-ups, new links and removals each leave their entry; a duplicate email, an
/// unknown member, a used or expired code leave none and change nothing.
#[expect(clippy::too_many_arguments, reason = "one store a parameter, as `on_every_engine!` hands a database's stores")]
pub async fn staff_store_writes_leave_their_entries(
    _accounts: &dyn AccountStore,
    _catalog: &dyn CatalogStore,
    _editor: &dyn CatalogEditor,
    _photos: &dyn ProductPhotos,
    staff: &dyn StaffStore,
    _stock: &dyn StockLedger,
    _orders: &dyn OrderStore,
    _desk: &dyn OrderDesk,
    _grievances: &dyn GrievanceStore,
    _vehicles: &dyn VehicleStore,
    _returns: &dyn ReturnStore,
    log: &dyn AuditLog,
) {
    let mut trail = Trail::new(log).await;
    let now = trail.at;
    let day = 86_400;
    let s1 = StaffId("s1".into());
    let record = StaffRecord::invited(s1.clone(), "asha@marque.test", "Asha", StaffRole::Catalog, now);
    let code =
        |hash: &str, id: &StaffId| SetupCode { code_hash: hash.into(), staff: id.clone(), expires_at: now + day };
    let invited =
        trail.entry("staff.invite", "staff:s1", None, Some(r#"{"email":"asha@marque.test","role":"catalog"}"#));
    staff.invite(&record, &code("c1", &s1), &invited).await.expect("invite");
    trail.added("StaffStore::invite", &invited).await;

    let twin = StaffRecord::invited(StaffId("s2".into()), "ASHA@marque.test", "Asha", StaffRole::Owner, now);
    let refused = trail.entry("staff.invite", "staff:s2", None, Some(r#"{"email":"asha@marque.test"}"#));
    assert_eq!(staff.invite(&twin, &code("c2", &twin.staff.id), &refused).await, Err(StaffStoreError::DuplicateEmail));
    trail.unchanged("StaffStore::invite of a taken email").await;
    assert_eq!(staff.staff(&twin.staff.id).await.expect("read"), None, "no second member");
    assert_eq!(staff.setup_code("c2", now).await.expect("read"), None, "nor their code");

    let again = trail.by(Actor::System("cli".into()), "staff.invite", "staff:s1", None, None);
    staff.reissue(&code("c3", &s1), &again).await.expect("reissue");
    trail.added("StaffStore::reissue", &again).await;
    let nobody = StaffId("nobody".into());
    let refused = trail.by(Actor::System("cli".into()), "staff.invite", "staff:nobody", None, None);
    assert_eq!(staff.reissue(&code("c4", &nobody), &refused).await, Err(StaffStoreError::NotFound));
    trail.unchanged("StaffStore::reissue for nobody").await;
    assert_eq!(staff.setup_code("c4", now).await.expect("read"), None, "no code for nobody");

    let secrets = SetupSecrets {
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        totp_sealed: "sealed".into(),
    };
    let expired =
        trail.entry("staff.setup", "staff:s1", Some(r#"{"status":"invited"}"#), Some(r#"{"status":"active"}"#));
    assert_eq!(staff.complete_setup("c3", &s1, now + day, &secrets, &expired).await, Ok(false), "an expired code");
    trail.unchanged("StaffStore::complete_setup with an expired code").await;
    let stale = trail.entry("staff.setup", "staff:s1", Some(r#"{"status":"invited"}"#), Some(r#"{"status":"active"}"#));
    assert_eq!(staff.complete_setup("c1", &s1, now, &secrets, &stale).await, Ok(false), "a code replaced by reissue");
    trail.unchanged("StaffStore::complete_setup with a replaced code").await;
    assert_eq!(staff.staff(&s1).await.expect("read").map(|r| r.status), Some(StaffStatus::Invited), "not set up");

    let set_up =
        trail.entry("staff.setup", "staff:s1", Some(r#"{"status":"invited"}"#), Some(r#"{"status":"active"}"#));
    assert_eq!(staff.complete_setup("c3", &s1, now, &secrets, &set_up).await, Ok(true));
    trail.added("StaffStore::complete_setup", &set_up).await;
    let used = trail.entry("staff.setup", "staff:s1", Some(r#"{"status":"active"}"#), Some(r#"{"status":"active"}"#));
    assert_eq!(staff.complete_setup("c3", &s1, now, &secrets, &used).await, Ok(false), "a used code");
    trail.unchanged("StaffStore::complete_setup with a used code").await;

    let removed =
        trail.entry("staff.remove", "staff:s1", Some(r#"{"email":"asha@marque.test","role":"catalog"}"#), None);
    staff.remove(&s1, &removed).await.expect("remove");
    trail.added("StaffStore::remove", &removed).await;
    for id in [&s1, &nobody] {
        let refused = trail.entry("staff.remove", &format!("staff:{}", id.0), Some("{}"), None);
        assert_eq!(staff.remove(id, &refused).await, Err(StaffStoreError::NotFound), "{id:?}");
        trail.unchanged("StaffStore::remove of a removed or unknown member").await;
    }
    assert_eq!(staff.staff(&s1).await.expect("read").map(|r| r.status), Some(StaffStatus::Removed));
}

/// Creating and changing products, categories and brands each leave their entry; a taken id, SKU
/// or slug and an unknown record leave none and change nothing.
#[expect(clippy::too_many_arguments, reason = "one store a parameter, as `on_every_engine!` hands a database's stores")]
pub async fn catalog_editor_writes_leave_their_entries(
    _accounts: &dyn AccountStore,
    catalog: &dyn CatalogStore,
    editor: &dyn CatalogEditor,
    _photos: &dyn ProductPhotos,
    _staff: &dyn StaffStore,
    _stock: &dyn StockLedger,
    _orders: &dyn OrderStore,
    _desk: &dyn OrderDesk,
    _grievances: &dyn GrievanceStore,
    _vehicles: &dyn VehicleStore,
    _returns: &dyn ReturnStore,
    log: &dyn AuditLog,
) {
    let mut trail = Trail::new(log).await;
    let p1 = product("p1").sku("SKU-1").build();
    let created = trail.entry("product.create", "product:p1", None, Some(r#"{"name":"Spare p1","sku":"SKU-1"}"#));
    editor.create_product(&p1, &created).await.expect("create");
    trail.added("CatalogEditor::create_product", &created).await;
    for (twin, fault) in [
        (product("p2").sku("SKU-1").build(), CatalogEditorError::DuplicateSku { sku: "SKU-1".into() }),
        (product("p1").sku("SKU-9").name("Other").build(), CatalogEditorError::DuplicateId { id: "p1".into() }),
    ] {
        let refused = trail.entry("product.create", &format!("product:{}", twin.id), None, Some("{}"));
        assert_eq!(editor.create_product(&twin, &refused).await, Err(fault));
        trail.unchanged("CatalogEditor::create_product of a taken SKU or id").await;
    }
    assert_eq!(editor.product(&ProductId("p2".into())).await.expect("read"), None, "p2 not stored");
    assert_eq!(editor.product(&p1.id).await.expect("read"), Some(p1.clone()), "p1 as created");

    let renamed = Product { name: "Front Brake Disc".into(), ..p1.clone() };
    let updated = trail.entry(
        "product.update",
        "product:p1",
        Some(r#"{"name":"Spare p1"}"#),
        Some(r#"{"name":"Front Brake Disc"}"#),
    );
    editor.update_product(&renamed, &updated).await.expect("update");
    trail.added("CatalogEditor::update_product", &updated).await;
    let p2 = product("p2").sku("SKU-2").build();
    let created = trail.entry("product.create", "product:p2", None, Some(r#"{"sku":"SKU-2"}"#));
    editor.create_product(&p2, &created).await.expect("create");
    trail.added("CatalogEditor::create_product", &created).await;
    let mut taking = p2.clone();
    taking.details.sku = "SKU-1".into();
    taking.name = "Taken".into();
    for (change, fault) in [
        (taking, CatalogEditorError::DuplicateSku { sku: "SKU-1".into() }),
        (product("nope").build(), CatalogEditorError::NotFound { id: "nope".into() }),
    ] {
        let refused = trail.entry("product.update", &format!("product:{}", change.id), Some("{}"), Some("{}"));
        assert_eq!(editor.update_product(&change, &refused).await, Err(fault));
        trail.unchanged("CatalogEditor::update_product of a taken SKU or an unknown product").await;
    }
    assert_eq!(editor.product(&p2.id).await.expect("read"), Some(p2.clone()), "p2 unchanged");
    assert_eq!(editor.product(&ProductId("nope".into())).await.expect("read"), None, "no product made");

    let brakes = category("c1", "Brakes", &[("s1", "Discs")]);
    let created = trail.entry("category.create", "category:c1", None, Some(r#"{"name":"Brakes"}"#));
    editor.create_category(&brakes, &created).await.expect("create");
    trail.added("CatalogEditor::create_category", &created).await;
    let lamps = category("c2", "Lamps", &[]);
    let created = trail.entry("category.create", "category:c2", None, Some(r#"{"name":"Lamps"}"#));
    editor.create_category(&lamps, &created).await.expect("create");
    trail.added("CatalogEditor::create_category", &created).await;
    let categories = catalog.categories().await.expect("read");
    let refused = trail.entry("category.create", "category:c3", None, Some("{}"));
    assert_eq!(
        editor.create_category(&category("c3", "Brakes", &[]), &refused).await,
        Err(CatalogEditorError::SlugTaken { slug: "brakes".into() })
    );
    trail.unchanged("CatalogEditor::create_category of a taken slug").await;
    let refused = trail.entry("category.create", "category:c1", None, Some("{}"));
    let taken_id = editor.create_category(&category("c1", "Filters", &[]), &refused).await;
    assert!(matches!(taken_id, Err(CatalogEditorError::Invalid { .. })), "a taken id: {taken_id:?}");
    trail.unchanged("CatalogEditor::create_category of a taken id").await;
    assert_eq!(catalog.categories().await.expect("read"), categories, "the refused creations added nothing");
    let renamed = Category { name: "Brake Parts".into(), slug: "brake-parts".into(), ..brakes.clone() };
    let updated = trail.entry(
        "category.update",
        "category:c1",
        Some(r#"{"name":"Brakes","slug":"brakes"}"#),
        Some(r#"{"name":"Brake Parts","slug":"brake-parts"}"#),
    );
    editor.update_category(&renamed, &updated).await.expect("update");
    trail.added("CatalogEditor::update_category", &updated).await;
    let categories_after = catalog.categories().await.expect("read");
    for (change, fault) in [
        (
            Category { slug: "brake-parts".into(), ..lamps.clone() },
            CatalogEditorError::SlugTaken { slug: "brake-parts".into() },
        ),
        (category("c9", "Mirrors", &[]), CatalogEditorError::NotFound { id: "c9".into() }),
    ] {
        let refused = trail.entry("category.update", &format!("category:{}", change.id), Some("{}"), Some("{}"));
        assert_eq!(editor.update_category(&change, &refused).await, Err(fault));
        trail.unchanged("CatalogEditor::update_category to a taken slug or of an unknown category").await;
    }
    assert_eq!(catalog.categories().await.expect("read"), categories_after, "the refused updates changed nothing");

    let bmw = brand("b1", "BMW");
    let created = trail.entry("brand.create", "brand:b1", None, Some(r#"{"name":"BMW"}"#));
    editor.create_brand(&bmw, &created).await.expect("create");
    trail.added("CatalogEditor::create_brand", &created).await;
    let audi = brand("b2", "Audi");
    let created = trail.entry("brand.create", "brand:b2", None, Some(r#"{"name":"Audi"}"#));
    editor.create_brand(&audi, &created).await.expect("create");
    trail.added("CatalogEditor::create_brand", &created).await;
    let refused = trail.entry("brand.create", "brand:b3", None, Some("{}"));
    assert_eq!(
        editor.create_brand(&brand("b3", "BMW"), &refused).await,
        Err(CatalogEditorError::SlugTaken { slug: "bmw".into() })
    );
    trail.unchanged("CatalogEditor::create_brand of a taken slug").await;
    let refused = trail.entry("brand.create", "brand:b1", None, Some("{}"));
    let taken_id = editor.create_brand(&brand("b1", "Volvo"), &refused).await;
    assert!(matches!(taken_id, Err(CatalogEditorError::Invalid { .. })), "a taken id: {taken_id:?}");
    trail.unchanged("CatalogEditor::create_brand of a taken id").await;
    let logo = OemBrand { image: "/logos/bmw.svg".into(), ..bmw.clone() };
    let updated = trail.entry(
        "brand.update",
        "brand:b1",
        Some(r#"{"image":"/new-car-logo/bmw.png"}"#),
        Some(r#"{"image":"/logos/bmw.svg"}"#),
    );
    editor.update_brand(&logo, &updated).await.expect("update");
    trail.added("CatalogEditor::update_brand", &updated).await;
    for (change, fault) in [
        (OemBrand { slug: "bmw".into(), ..audi.clone() }, CatalogEditorError::SlugTaken { slug: "bmw".into() }),
        (brand("b9", "Volvo"), CatalogEditorError::NotFound { id: "b9".into() }),
    ] {
        let refused = trail.entry("brand.update", &format!("brand:{}", change.id), Some("{}"), Some("{}"));
        assert_eq!(editor.update_brand(&change, &refused).await, Err(fault));
        trail.unchanged("CatalogEditor::update_brand to a taken slug or of an unknown brand").await;
    }
    let mut brands = catalog.brands().await.expect("read");
    brands.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(brands, vec![logo, audi], "the refused writes added and changed no brand");
}

/// Adding, reordering and removing photographs each leave their entry; an unknown product leaves
/// none and gets no pictures.
#[expect(clippy::too_many_arguments, reason = "one store a parameter, as `on_every_engine!` hands a database's stores")]
pub async fn photo_writes_leave_their_entries(
    _accounts: &dyn AccountStore,
    catalog: &dyn CatalogStore,
    _editor: &dyn CatalogEditor,
    photos: &dyn ProductPhotos,
    _staff: &dyn StaffStore,
    _stock: &dyn StockLedger,
    _orders: &dyn OrderStore,
    _desk: &dyn OrderDesk,
    _grievances: &dyn GrievanceStore,
    _vehicles: &dyn VehicleStore,
    _returns: &dyn ReturnStore,
    log: &dyn AuditLog,
) {
    catalog.add_products(&[product("ph1").build()]).await.expect("add products");
    let mut trail = Trail::new(log).await;
    let id = ProductId("ph1".into());
    let (a, b) = (photo("ph1", "a"), photo("ph1", "b"));
    let steps = [
        ("photo.add", vec![ProductImage::plain("/images/ph1.jpg"), a.clone(), b.clone()]),
        ("photo.reorder", vec![b.clone(), ProductImage::plain("/images/ph1.jpg"), a.clone()]),
        ("photo.remove", vec![b.clone()]),
    ];
    let mut names = vec!["/images/ph1.jpg".to_owned()];
    for (action, images) in steps {
        let now: Vec<String> = images.iter().map(|i| i.name.clone()).collect();
        let was = serde_json::json!({ "images": names }).to_string();
        let is = serde_json::json!({ "images": now }).to_string();
        let entry = trail.entry(action, "product:ph1", Some(&was), Some(&is));
        photos.set_images(&id, &images, &entry).await.expect("set images");
        trail.added(&format!("ProductPhotos::set_images ({action})"), &entry).await;
        assert_eq!(photos.images(&id).await.expect("read"), Some(images));
        names = now;
    }
    let ghost = ProductId("ghost".into());
    let refused = trail.entry("photo.add", "product:ghost", Some(r#"{"images":[]}"#), Some(r#"{"images":["a"]}"#));
    assert_eq!(photos.set_images(&ghost, &[a], &refused).await, Err(ProductPhotosError::NotFound(ghost.clone())));
    trail.unchanged("ProductPhotos::set_images of an unknown product").await;
    assert_eq!(photos.images(&ghost).await.expect("read"), None, "no product made");
}

/// A product's stock and the number of its ledger entries.
async fn stock_and_entries(catalog: &dyn CatalogStore, stock: &dyn StockLedger, id: &ProductId) -> (Option<u32>, u64) {
    let quantity = catalog.product(id).await.expect("read").map(|p| p.quantity);
    (quantity, stock.history(id, window(1, 100)).await.expect("history").total)
}

/// A stock adjustment and a new threshold each leave their entry; stock that would go below zero
/// and an unknown product leave none and change nothing.
#[expect(clippy::too_many_arguments, reason = "one store a parameter, as `on_every_engine!` hands a database's stores")]
pub async fn stock_writes_leave_their_entries(
    _accounts: &dyn AccountStore,
    catalog: &dyn CatalogStore,
    _editor: &dyn CatalogEditor,
    _photos: &dyn ProductPhotos,
    _staff: &dyn StaffStore,
    stock: &dyn StockLedger,
    _orders: &dyn OrderStore,
    _desk: &dyn OrderDesk,
    _grievances: &dyn GrievanceStore,
    _vehicles: &dyn VehicleStore,
    _returns: &dyn ReturnStore,
    log: &dyn AuditLog,
) {
    catalog.add_products(&[product("st1").quantity(2).build()]).await.expect("add products");
    let mut trail = Trail::new(log).await;
    let id = ProductId("st1".into());

    // The ledger writes the values itself, over whatever the caller gave (marque_ports::stock).
    let received = Adjustment::parse(3, "received", Some("invoice 7")).expect("valid");
    let given = trail.entry("stock.adjust", "product:st1", Some("{}"), None);
    stock.adjust(&id, &received, &given).await.expect("adjust");
    let after = r#"{"quantity":5,"delta":3,"reason":"received","note":"invoice 7"}"#;
    trail
        .added("StockLedger::adjust", &given.clone().with_values(Some(r#"{"quantity":2}"#.into()), Some(after.into())))
        .await;
    let after = stock_and_entries(catalog, stock, &id).await;
    assert_eq!(after.0, Some(5));

    let too_many = Adjustment::parse(-6, "sold_offline", None).expect("valid");
    let refused = trail.entry("stock.adjust", "product:st1", Some(r#"{"quantity":5}"#), Some(r#"{"quantity":-1}"#));
    assert_eq!(stock.adjust(&id, &too_many, &refused).await, Err(StockLedgerError::BelowZero { quantity: 5 }));
    trail.unchanged("StockLedger::adjust below zero").await;
    let ghost = ProductId("ghost".into());
    let refused = trail.entry("stock.adjust", "product:ghost", Some("{}"), Some("{}"));
    assert_eq!(stock.adjust(&ghost, &received, &refused).await, Err(StockLedgerError::UnknownProduct));
    trail.unchanged("StockLedger::adjust of an unknown product").await;
    assert_eq!(stock_and_entries(catalog, stock, &id).await, after, "the stock and its ledger unchanged");

    let eight = LowStockThreshold::new(8).expect("valid");
    let given = trail.entry("stock.threshold", "product:st1", None, None);
    assert_eq!(stock.set_threshold(&id, eight, &given).await, Ok(LowStockThreshold::DEFAULT));
    let expected = given.with_values(Some(r#"{"threshold":5}"#.into()), Some(r#"{"threshold":8}"#.into()));
    trail.added("StockLedger::set_threshold", &expected).await;
    let refused = trail.entry("stock.threshold", "product:ghost", Some("{}"), Some(r#"{"threshold":8}"#));
    assert_eq!(stock.set_threshold(&ghost, eight, &refused).await, Err(StockLedgerError::UnknownProduct));
    trail.unchanged("StockLedger::set_threshold of an unknown product").await;
    assert_eq!(stock.threshold(&id).await, Ok(eight));
    assert_eq!(catalog.product(&ghost).await.expect("read"), None, "no product made");
}

/// Setting and ending a customer's offer each leave their entry; an unknown customer leaves none
/// and gets no account.
#[expect(clippy::too_many_arguments, reason = "one store a parameter, as `on_every_engine!` hands a database's stores")]
pub async fn offer_writes_leave_their_entries(
    accounts: &dyn AccountStore,
    _catalog: &dyn CatalogStore,
    _editor: &dyn CatalogEditor,
    _photos: &dyn ProductPhotos,
    _staff: &dyn StaffStore,
    _stock: &dyn StockLedger,
    _orders: &dyn OrderStore,
    _desk: &dyn OrderDesk,
    _grievances: &dyn GrievanceStore,
    _vehicles: &dyn VehicleStore,
    _returns: &dyn ReturnStore,
    log: &dyn AuditLog,
) {
    accounts.create_user(&customer("c1")).await.expect("create");
    let mut trail = Trail::new(log).await;
    let c1 = UserId("c1".into());
    let set = trail.entry(
        "offer.set",
        "customer:c1",
        Some(r#"{"percentage":0,"endsOn":null}"#),
        Some(r#"{"percentage":20,"endsOn":"2030-01-31"}"#),
    );
    accounts.set_offer(&c1, offer(20), &set).await.expect("set");
    trail.added("AccountStore::set_offer (set)", &set).await;
    let end = trail.entry("offer.end", "customer:c1", Some(r#"{"percentage":20,"endsOn":"2030-01-31"}"#), None);
    accounts.set_offer(&c1, None, &end).await.expect("end");
    trail.added("AccountStore::set_offer (end)", &end).await;

    let ghost = UserId("ghost".into());
    let refused = trail.entry("offer.set", "customer:ghost", None, Some(r#"{"percentage":10}"#));
    let outcome = accounts.set_offer(&ghost, offer(10), &refused).await;
    assert!(matches!(outcome, Err(AccountStoreError::Invalid { .. })), "no such customer: {outcome:?}");
    trail.unchanged("AccountStore::set_offer for nobody").await;
    assert_eq!(accounts.user(&ghost).await.expect("read"), None, "nor a customer");
    let stored = accounts.user(&c1).await.expect("read").expect("the customer");
    assert_eq!((stored.percentage, stored.offer_ends_on), (0, None), "the offer ended");
}

/// A change of an order's status or shipment leaves its entry (with the values the use case gave);
/// a change on a stale version, or of an unknown order, leaves none and changes nothing.
#[expect(clippy::too_many_arguments, reason = "one store a parameter, as `on_every_engine!` hands a database's stores")]
pub async fn order_desk_writes_leave_their_entries(
    _accounts: &dyn AccountStore,
    catalog: &dyn CatalogStore,
    _editor: &dyn CatalogEditor,
    _photos: &dyn ProductPhotos,
    _staff: &dyn StaffStore,
    _stock: &dyn StockLedger,
    orders: &dyn OrderStore,
    desk: &dyn OrderDesk,
    _grievances: &dyn GrievanceStore,
    _vehicles: &dyn VehicleStore,
    _returns: &dyn ReturnStore,
    log: &dyn AuditLog,
) {
    use marque_domain::order::{Fulfilment, OrderStatus, Shipment};
    use marque_domain::Money;
    use marque_ports::{OrderRefund, RefundKind, RefundState, RefundWrite};

    crate::orders::stock(catalog, &[1], 5).await;
    let order = crate::order_desk::place(orders, "audited", "u1", crate::orders::JUNE_2026).await;
    let subject = format!("order:{}", order.id.0);
    let mut trail = Trail::new(log).await;
    let confirmed = Fulfilment { status: OrderStatus::Confirmed, shipment: None };
    let entry = trail.entry("order.status", &subject, Some(r#"{"status":1}"#), Some(r#"{"status":2}"#));
    desk.update_fulfilment(&order.id, 0, &confirmed, &entry, &[]).await.expect("a change");
    trail.added("OrderDesk::update_fulfilment", &entry).await;

    let packed = Fulfilment { status: OrderStatus::Packed, shipment: None };
    let stale = trail.entry("order.status", &subject, Some(r#"{"status":2}"#), Some(r#"{"status":3}"#));
    assert_eq!(
        desk.update_fulfilment(&order.id, 0, &packed, &stale, &[]).await.map(|o| o.version),
        Err(OrderDeskError::Changed { version: 1 })
    );
    trail.unchanged("OrderDesk::update_fulfilment on a stale version").await;
    let nobody = OrderId("nobody".into());
    let missing = trail.entry("order.status", "order:nobody", None, Some("{}"));
    assert_eq!(
        desk.update_fulfilment(&nobody, 0, &packed, &missing, &[]).await.map(|o| o.version),
        Err(OrderDeskError::NotFound)
    );
    trail.unchanged("OrderDesk::update_fulfilment of an unknown order").await;
    let read = desk.order(&order.id).await.expect("read").expect("the order");
    assert_eq!((read.version, read.order.status, read.timeline.len()), (1, 2, 1), "the refused changes wrote nothing");

    let shipment = Shipment::parse("bluedart", "77937279125", None).expect("valid");
    let shipped = Fulfilment { status: OrderStatus::Shipped, shipment: Some(shipment) };
    let packing = trail.entry("order.status", &subject, Some(r#"{"status":2}"#), Some(r#"{"status":3}"#));
    desk.update_fulfilment(&order.id, 1, &packed, &packing, &[]).await.expect("packed");
    trail.added("OrderDesk::update_fulfilment", &packing).await;
    let shipping = trail.entry(
        "order.status",
        &subject,
        Some(r#"{"status":3}"#),
        Some(r#"{"status":4,"courier":"bluedart","awb":"77937279125"}"#),
    );
    desk.update_fulfilment(&order.id, 2, &shipped, &shipping, &[]).await.expect("shipped");
    trail.added("OrderDesk::update_fulfilment", &shipping).await;

    // A refund of the shipped order's delivery charge, then one above what is left (refused).
    let refund = |n: usize, amount: i64, key: &str| OrderRefund {
        id: format!("{}-{n}", order.id.0),
        order: order.id.clone(),
        payment: order.payment.clone(),
        kind: RefundKind::Partial,
        lines: Vec::new(),
        delivery: Money::from_paise(amount),
        amount: Money::from_paise(amount),
        reason: "late delivery".into(),
        state: RefundState::Requested,
        provider_refund: None,
        attempt: 1,
        key: key.into(),
        request: key.into(),
        actor: "s1".into(),
        actor_label: "s1@marque.in".into(),
        created_at: crate::orders::JUNE_2026,
        updated_at: crate::orders::JUNE_2026,
        credit_note: None,
    };
    let first = refund(1, 10_000, "key-audit-1");
    let refunding = trail.entry("order.refund", &subject, None, Some(r#"{"amount":10000}"#));
    let write = RefundWrite {
        refund: first.clone(),
        refunds_seen: 0,
        cancel: None,
        credit_note_year: None,
        notices: Vec::new(),
    };
    desk.record_refund(&write, &refunding).await.expect("refunded");
    trail.added("OrderDesk::record_refund", &refunding).await;
    let greedy = trail.entry("order.refund", &subject, None, Some(r#"{"amount":200000}"#));
    let write = RefundWrite {
        refund: refund(2, 200_000, "key-audit-2"),
        refunds_seen: 1,
        cancel: None,
        credit_note_year: None,
        notices: Vec::new(),
    };
    assert!(matches!(desk.record_refund(&write, &greedy).await, Err(OrderDeskError::AbovePaid { .. })));
    trail.unchanged("OrderDesk::record_refund above what was paid").await;

    // The provider failed it; staff retry it once (a second retry finds it requested again).
    desk.settle_refund(&first.id, 1, RefundState::Failed, None, crate::orders::JUNE_2026).await.expect("failed");
    let retrying = trail.entry("order.refund_retry", &subject, None, Some(r#"{"attempt":2}"#));
    desk.retry_refund(&order.id, &first.id, &retrying).await.expect("retried");
    trail.added("OrderDesk::retry_refund", &retrying).await;
    let again = trail.entry("order.refund_retry", &subject, None, Some(r#"{"attempt":3}"#));
    assert_eq!(desk.retry_refund(&order.id, &first.id, &again).await.map(|r| r.attempt), Ok(2));
    trail.unchanged("OrderDesk::retry_refund of a refund not failed").await;
}

/// A grievance officer's move leaves its entry; a move on a stale version or of no ticket leaves none.
#[expect(clippy::too_many_arguments, reason = "one store a parameter, as `on_every_engine!` hands a database's stores")]
pub async fn grievance_writes_leave_their_entries(
    _accounts: &dyn AccountStore,
    _catalog: &dyn CatalogStore,
    _editor: &dyn CatalogEditor,
    _photos: &dyn ProductPhotos,
    _staff: &dyn StaffStore,
    _stock: &dyn StockLedger,
    _orders: &dyn OrderStore,
    _desk: &dyn OrderDesk,
    grievances: &dyn GrievanceStore,
    _vehicles: &dyn VehicleStore,
    _returns: &dyn ReturnStore,
    log: &dyn AuditLog,
) {
    use marque_domain::grievance::{acknowledge_by, resolve_by, GrievanceForm, GrievanceInput, GrievanceState};
    use marque_domain::invoice::FinancialYear;
    use marque_ports::{GrievanceMove, GrievanceStoreError, NewGrievance};

    let at = crate::orders::JUNE_2026;
    let form = GrievanceForm::parse(&GrievanceInput {
        name: "Asha".into(),
        email: "asha@example.in".into(),
        mobile: "9810012345".into(),
        order_number: String::new(),
        message: "The part did not fit my car at all.".into(),
    })
    .expect("a valid form");
    let new = NewGrievance {
        form,
        created_at: at,
        acknowledge_by: acknowledge_by(at),
        resolve_by: resolve_by(at),
        year: FinancialYear::at_unix_seconds(at),
    };
    let mut trail = Trail::new(log).await;
    let ticket = grievances.open(&new).await.expect("opened");
    trail.unchanged("GrievanceStore::open (the public form)").await;
    let subject = format!("grievance:{}", ticket.id);
    let ack = GrievanceMove { to: GrievanceState::Acknowledged, note: None, at: at + 60 };
    let entry = trail.entry(
        "grievance.acknowledge",
        &subject,
        Some(r#"{"state":"open"}"#),
        Some(r#"{"state":"acknowledged"}"#),
    );
    grievances.change(&ticket.id, 0, &ack, &entry).await.expect("acknowledged");
    trail.added("GrievanceStore::change", &entry).await;
    let stale = trail.entry("grievance.resolve", &subject, None, Some(r#"{"state":"resolved"}"#));
    let resolve = GrievanceMove { to: GrievanceState::Resolved, note: Some("Done.".into()), at: at + 120 };
    assert_eq!(
        grievances.change(&ticket.id, 0, &resolve, &stale).await.map(|g| g.version),
        Err(GrievanceStoreError::Changed { version: 1 })
    );
    trail.unchanged("GrievanceStore::change on a stale version").await;
    let nobody = trail.entry("grievance.resolve", "grievance:nobody", None, None);
    assert_eq!(
        grievances.change("nobody", 0, &resolve, &nobody).await.map(|g| g.version),
        Err(GrievanceStoreError::NotFound)
    );
    trail.unchanged("GrievanceStore::change of no ticket").await;
}

/// `ReturnStore`: a move leaves its entry (a store-credit grant with it); a customer's request, a
/// stale version and a return that does not exist leave none.
#[expect(clippy::too_many_arguments, reason = "one store a parameter, as `on_every_engine!` hands a database's stores")]
pub async fn return_writes_leave_their_entries(
    _accounts: &dyn AccountStore,
    _catalog: &dyn CatalogStore,
    _editor: &dyn CatalogEditor,
    _photos: &dyn ProductPhotos,
    _staff: &dyn StaffStore,
    _stock: &dyn StockLedger,
    _orders: &dyn OrderStore,
    _desk: &dyn OrderDesk,
    _grievances: &dyn GrievanceStore,
    _vehicles: &dyn VehicleStore,
    returns: &dyn ReturnStore,
    log: &dyn AuditLog,
) {
    use marque_domain::order::{ReturnOutcome, ReturnState};
    use marque_domain::store_credit::{Grant, GrantSource};
    use marque_domain::Money;
    use marque_ports::{CreditGrant, NewReturn, ReturnMove, ReturnStoreError};

    let at = crate::orders::JUNE_2026;
    let new = NewReturn {
        id: "ra1".into(),
        order: OrderId("o-ret".into()),
        order_number: "MQ-000001".into(),
        customer: UserId("u-ret".into()),
        product: ProductId("p-ret".into()),
        product_name: "Brake disc".into(),
        quantity: 1,
        units_allowed: 1,
        reason: "The disc is warped out of the box".into(),
        photos: Vec::new(),
        delivered_at: at - 86_400,
        warranty_days: 7,
        created_at: at,
    };
    let mut trail = Trail::new(log).await;
    returns.request(&new, &[]).await.expect("asked");
    trail.unchanged("ReturnStore::request (the customer's own)").await;
    let moved = |to: ReturnState, t: i64| ReturnMove {
        to,
        note: None,
        outcome: None,
        restock: false,
        put_back: false,
        amount: None,
        refund: None,
        replacement_order: None,
        at: t,
    };
    for (version, (to, action)) in
        [(ReturnState::Approved, "return.approve"), (ReturnState::Received, "return.receive")].into_iter().enumerate()
    {
        let entry = trail.entry(action, "return:ra1", None, Some(&format!(r#"{{"state":"{}"}}"#, to.code())));
        returns.change("ra1", version as u64, &moved(to, at + 60), None, &entry, &[]).await.expect("moved");
        trail.added("ReturnStore::change", &entry).await;
    }
    let stale = trail.entry("return.resolve", "return:ra1", None, None);
    assert_eq!(
        returns.change("ra1", 0, &moved(ReturnState::Resolved, at + 120), None, &stale, &[]).await.map(|r| r.version),
        Err(ReturnStoreError::Changed { version: 2 })
    );
    trail.unchanged("ReturnStore::change on a stale version").await;
    let nobody = trail.entry("return.resolve", "return:nobody", None, None);
    assert_eq!(
        returns
            .change("nobody", 0, &moved(ReturnState::Resolved, at + 120), None, &nobody, &[])
            .await
            .map(|r| r.version),
        Err(ReturnStoreError::NotFound)
    );
    trail.unchanged("ReturnStore::change of no return").await;
    let credit = CreditGrant {
        customer: UserId("u-ret".into()),
        grant: Grant::new(Money::from_paise(50_000), at + 180, GrantSource::Return("ra1".into())),
    };
    let resolve = ReturnMove {
        outcome: Some(ReturnOutcome::StoreCredit),
        amount: Some(Money::from_paise(50_000)),
        ..moved(ReturnState::Resolved, at + 180)
    };
    let entry = trail.entry("return.resolve", "return:ra1", None, Some(r#"{"state":"resolved"}"#));
    returns.change("ra1", 2, &resolve, Some(credit), &entry, &[]).await.expect("resolved");
    trail.added("ReturnStore::change with its grant", &entry).await;
    assert_eq!(returns.credit_granted("return:ra1").await.expect("granted").len(), 1);
}

/// `VehicleStore`: a vehicle added and a product's fitment written each leave their entry; the same
/// vehicle again, fitment on a stale version and the seed leave none.
#[expect(clippy::too_many_arguments, reason = "one store a parameter, as `on_every_engine!` hands a database's stores")]
pub async fn vehicle_writes_leave_their_entries(
    _accounts: &dyn AccountStore,
    catalog: &dyn CatalogStore,
    _editor: &dyn CatalogEditor,
    _photos: &dyn ProductPhotos,
    _staff: &dyn StaffStore,
    _stock: &dyn StockLedger,
    _orders: &dyn OrderStore,
    _desk: &dyn OrderDesk,
    _grievances: &dyn GrievanceStore,
    vehicles: &dyn VehicleStore,
    _returns: &dyn ReturnStore,
    log: &dyn AuditLog,
) {
    use crate::vehicles::{row, shown, table, vehicle};
    use marque_domain::catalog::{FuelType, ProductId};

    catalog.add_products(&[product("vh1").build()]).await.expect("add products");
    let mut trail = Trail::new(log).await;
    vehicles.seed_vehicles(&table()).await.expect("seeded");
    trail.unchanged("VehicleStore::seed_vehicles (the shop's own list)").await;

    let cayenne = vehicle("porsche", "Cayenne", "E3", ("DCB", FuelType::Petrol, "3.0 V6"), (2018, None));
    let subject = format!("vehicle:{}", cayenne.id());
    let entry = trail.entry("vehicle.add", &subject, None, Some(r#"{"engine":"DCB"}"#));
    vehicles.add_vehicle(&cayenne, &entry).await.expect("added");
    trail.added("VehicleStore::add_vehicle", &entry).await;
    let again = trail.entry("vehicle.add", &subject, None, Some(r#"{"engine":"DCB"}"#));
    assert!(vehicles.add_vehicle(&cayenne, &again).await.is_err(), "the same vehicle twice");
    trail.unchanged("VehicleStore::add_vehicle of a stored vehicle").await;

    let product_id = ProductId("vh1".into());
    let fits = shown(vec![row("bmw-x5-g05", Some("B57"), None, "front axle")]);
    let entry = trail.entry("product.fitment", "product:vh1", Some("[]"), Some(r#"[{"generation":"bmw-x5-g05"}]"#));
    assert_eq!(vehicles.set_fitment(&product_id, &fits, 0, &entry).await.ok(), Some(1));
    trail.added("VehicleStore::set_fitment", &entry).await;
    let stale = trail.entry("product.fitment", "product:vh1", None, Some("[]"));
    assert!(vehicles.set_fitment(&product_id, &[], 0, &stale).await.is_err(), "a stale version");
    trail.unchanged("VehicleStore::set_fitment on a stale version").await;
}
