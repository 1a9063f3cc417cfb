//! The connection to a SurrealDB server going away, and coming back.
//!
//! What the SDK (3.3) does on `ws://` when the server goes: requests awaiting an answer fail at
//! once ("Connection reset"); the connection task then tries to reconnect every second, forever,
//! and sends nothing meanwhile, so every request made in that time waits, unanswered, until the
//! server is back (the SDK's query timeout is not applied on `ws://`). Once reconnected it replays
//! the session (sign-in, namespace, database) and sends the waiting requests.
//!
//! So every store call over the network goes through a [`Link`]: a watchdog probes the server every
//! second (a TCP connection to its address); once a probe fails the link is down, calls in flight are cut short and new ones fail at
//! once, never queueing behind the reconnect; the next probe that answers opens it again. Either
//! way the caller gets the port's `Unavailable` error. A deadline per call is the backstop for a
//! server that answers probes but not a call. Embedded engines (`mem://`,
//! `surrealkv://`) cannot lose their connection: their calls pass through untouched.
//!
//! Caveat: a call that timed out may still have been queued inside the SDK; it then runs once the
//! server is back (the deadline bounds the wait, it cannot recall the request). The gate keeps
//! that window to the few calls made between the server going and the next probe.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use marque_domain::account::Email;
use marque_domain::address::{Address, AddressId, SavedAddress};
use marque_domain::catalog::import::RowError;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId, ProductImage};
use marque_domain::filters::BrandSlug;
use marque_domain::order::Fulfilment;
use marque_domain::paging::ListWindow;
use marque_domain::rate::WindowHits;
use marque_domain::staff::{Staff, StaffId};
use marque_domain::stock::{Adjustment, LowStockThreshold};
use marque_domain::store_credit::GrantSource;
use marque_domain::vehicle::{Car, GenerationId, ProductFit, Vehicle, VehicleId};
use marque_domain::Money;
use marque_ports::{
    AccountStore, AccountStoreError, Added, AddressStore, AddressStoreError, CatalogChanges, CatalogStore,
    CatalogStoreError, CatalogVersion, Challenge, ChallengeKey, ChallengeOutcome, Channel, NewSession, OrderId,
    OrderStore, OrderStoreError, OrdersPage, PaymentId, PaymentOrderId, PendingSignIn, PlacedOrder, Placement,
    ProductListing, ProductQuery, ProductSlice, ProductStamp, Readiness, ReadinessError, Reservation, ReservationState,
    SignInCode, Swept, UserId, UserRecord, WishlistStore, WishlistStoreError,
};
use marque_ports::{
    AdminOrder, AdminOrderPage, AdminOrderQuery, IssuedCreditNote, OrderDesk, OrderDeskError, OrderRefund,
    RefundCounts, RefundRecorded, RefundWrite,
};
use marque_ports::{AdminProductQuery, CatalogEditor, CatalogEditorError};
use marque_ports::{
    AuditEntry, SetupCode, SetupSecrets, StaffPage, StaffRecord, StaffSession, StaffStore, StaffStoreError, StaffSwept,
};
use marque_ports::{AuditLog, AuditLogError, AuditPage, AuditQuery, CustomerOffer, UsersPage};
use marque_ports::{CreditBalance, StoreCreditError, StoreCreditStore, StoredGrant};
use marque_ports::{
    CreditGrant, NewReturn, ProductReturn, ReturnMove, ReturnPage, ReturnQuery, ReturnStore, ReturnStoreError,
};
use marque_ports::{GarageStore, GarageStoreError};
use marque_ports::{Generation, Model, StoredFitment, VehicleStore, VehicleStoreError};
use marque_ports::{
    Grievance, GrievanceMove, GrievancePage, GrievanceQuery, GrievanceStore, GrievanceStoreError, NewGrievance,
};
use marque_ports::{ImportBatch, ImportJob, ImportJobId, ImportJobs, ImportJobsError};
use marque_ports::{LowStockPage, StockEntry, StockHistory, StockLedger, StockLedgerError};
use marque_ports::{NewNotice, NoticeCounts, NoticeOutbox, NoticeOutboxError, QueuedNotice};
use marque_ports::{ProductPhotos, ProductPhotosError};
use marque_ports::{RateCounter, RateCounterError, RefundRecord, RefundState};

use crate::conn::Conn;

/// How often the watchdog asks a server whether it answers.
const WATCH_EVERY: Duration = Duration::from_secs(1);

/// How long a probe (the watchdog's, or a readiness check) waits for `RETURN 1`.
pub(crate) const PROBE_DEADLINE: Duration = Duration::from_secs(2);

/// The state of one connection, shared by every store handed out on it.
#[derive(Debug, Clone)]
pub(crate) struct Link(Arc<LinkState>);

#[derive(Debug)]
struct LinkState {
    db: Conn,
    /// A server over the network (`ws://`), where the connection can go away.
    remote: bool,
    /// Whether the last probe of a remote server was answered; calls in flight watch it.
    up: tokio::sync::watch::Sender<bool>,
    /// How long one store call over the network may take.
    deadline: Duration,
}

impl Link {
    /// A link over `db`; for a server at `remote` (`host:port`), a watchdog probes it every
    /// second for as long as any handle of the link is alive.
    pub(crate) fn new(db: Conn, remote: Option<String>, deadline: Duration) -> Self {
        let link = Self::unwatched(db, remote.is_some(), deadline);
        if let Some(address) = remote {
            link.watch(address);
        }
        link
    }

    fn unwatched(db: Conn, remote: bool, deadline: Duration) -> Self {
        Self(Arc::new(LinkState { db, remote, up: tokio::sync::watch::Sender::new(true), deadline }))
    }

    /// The watchdog's probe is a TCP connection to the server's address, not a query: a server
    /// busy with many transactions answers queries slowly but still accepts connections, and a
    /// server that is gone refuses them (or, unreachable, lets the connect time out).
    fn watch(&self, address: String) {
        let weak = Arc::downgrade(&self.0);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(WATCH_EVERY);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Some(state) = weak.upgrade() else { break };
                let outcome = match tokio::time::timeout(
                    PROBE_DEADLINE,
                    tokio::net::TcpStream::connect(address.as_str()),
                )
                .await
                {
                    Ok(Ok(_)) => Ok(()),
                    Ok(Err(e)) => Err(format!("connecting to {address}: {e}")),
                    Err(_) => {
                        Err(format!("connecting to {address}: no answer within {} ms", PROBE_DEADLINE.as_millis()))
                    }
                };
                state.record(&outcome);
            }
        });
    }

    /// Runs one store call: as it is when the engine is embedded; for a server, not at all while
    /// probes fail, and cut short when a probe fails while it runs or when it outlasts the
    /// deadline (a backstop: a slow call on a server that answers probes, such as a write retrying
    /// its lost races, is left to finish).
    async fn guard<T, E: Unavailable>(&self, call: impl Future<Output = Result<T, E>>) -> Result<T, E> {
        let state = &self.0;
        if !state.remote {
            return call.await;
        }
        let mut gate = state.up.subscribe();
        if !*gate.borrow_and_update() {
            return Err(E::unavailable("the database server cannot be reached".to_owned()));
        }
        tokio::select! {
            outcome = call => outcome,
            _ = gate.wait_for(|up| !*up) => Err(E::unavailable("the database server stopped answering".to_owned())),
            () = tokio::time::sleep(state.deadline) => {
                tracing::warn!(deadline_ms = state.deadline.as_millis(), "a database call did not answer in time");
                Err(E::unavailable(format!("the database did not answer within {} ms", state.deadline.as_millis())))
            }
        }
    }
}

impl LinkState {
    /// Opens or closes the gate after a probe, logging each change once.
    fn record(&self, outcome: &Result<(), String>) {
        let up = outcome.is_ok();
        let was = self.up.send_replace(up);
        match outcome {
            Err(reason) if was => tracing::error!(reason = %reason, "the database server stopped answering"),
            Ok(()) if !was => tracing::info!("the database server answers again"),
            _ => {}
        }
    }
}

/// `RETURN 1`: a round trip through the engine that reads no table, within [`PROBE_DEADLINE`]
/// (the readiness check; a server slow to answer it is not ready, though not gone).
async fn probe(db: &Conn) -> Result<(), String> {
    match tokio::time::timeout(PROBE_DEADLINE, db.query("RETURN 1")).await {
        Ok(Ok(answer)) => answer.check().map(drop).map_err(|e| e.message().to_owned()),
        Ok(Err(e)) => Err(e.message().to_owned()),
        Err(_) => Err(format!("no answer within {} ms", PROBE_DEADLINE.as_millis())),
    }
}

/// [`Readiness`] of one connection: a probe, unless the watchdog already found the server gone.
#[derive(Debug, Clone)]
pub struct SurrealReadiness {
    link: Link,
}

impl SurrealReadiness {
    pub(crate) fn new(link: Link) -> Self {
        Self { link }
    }
}

#[async_trait]
impl Readiness for SurrealReadiness {
    async fn ready(&self) -> Result<(), ReadinessError> {
        let state = &self.link.0;
        if state.remote && !*state.up.borrow() {
            return Err(ReadinessError::Unavailable { reason: "the database server cannot be reached".to_owned() });
        }
        probe(&state.db).await.map_err(|reason| ReadinessError::Unavailable { reason })
    }
}

/// A port error's "the store cannot be reached" case.
trait Unavailable {
    fn unavailable(reason: String) -> Self;
}

macro_rules! unavailable_is {
    ($($error:ty),+) => {
        $(impl Unavailable for $error {
            fn unavailable(reason: String) -> Self {
                Self::Unavailable { reason }
            }
        })+
    };
}

unavailable_is!(
    CatalogStoreError,
    CatalogEditorError,
    AccountStoreError,
    AuditLogError,
    AddressStoreError,
    OrderStoreError,
    OrderDeskError,
    GrievanceStoreError,
    RateCounterError,
    StaffStoreError,
    StockLedgerError,
    WishlistStoreError,
    ImportJobsError,
    ProductPhotosError,
    VehicleStoreError,
    GarageStoreError,
    NoticeOutboxError,
    StoreCreditError,
    ReturnStoreError
);

/// A store whose every call goes through the connection's [`Link`]. [`crate::Database`] hands
/// out its stores this way; it implements the same port as the store it wraps.
#[derive(Debug, Clone)]
pub struct Guarded<S> {
    store: S,
    link: Link,
}

impl<S> Guarded<S> {
    pub(crate) fn new(store: S, link: Link) -> Self {
        Self { store, link }
    }

    /// The wrapped store, for the adapter's own tests.
    #[cfg(test)]
    pub(crate) fn inner(&self) -> &S {
        &self.store
    }
}

/// `impl Port for Guarded<S>`: each method passes its arguments to the wrapped store's, guarded.
macro_rules! guarded {
    ($port:ident, $error:ty, { $(fn $name:ident(&self $(, $arg:ident: $ty:ty)* $(,)?) -> $ok:ty;)+ }) => {
        #[async_trait]
        impl<S: $port> $port for Guarded<S> {
            $(async fn $name(&self $(, $arg: $ty)*) -> Result<$ok, $error> {
                let started = std::time::Instant::now();
                let outcome = self.link.guard(self.store.$name($($arg),*)).await;
                metrics::histogram!("marque_db_call_duration_seconds", "store" => stringify!($port), "call" => stringify!($name))
                    .record(started.elapsed().as_secs_f64());
                outcome
            })+
        }
    };
}

guarded!(CatalogStore, CatalogStoreError, {
    fn put_brands(&self, brands: &[OemBrand]) -> ();
    fn put_categories(&self, categories: &[Category]) -> ();
    fn add_products(&self, products: &[Product]) -> ();
    fn brands(&self) -> Vec<OemBrand>;
    fn categories(&self) -> Vec<Category>;
    fn product(&self, id: &ProductId) -> Option<Product>;
    fn newest_products(&self, limit: u32) -> Vec<Product>;
    fn best_selling_products(&self, limit: u32) -> Vec<Product>;
    fn search(&self, query: &ProductQuery) -> ProductSlice;
    fn list_products(&self, listing: &ProductListing) -> ProductSlice;
    fn count_products(&self) -> u64;
    fn product_stamps(&self, after: Option<ProductId>, limit: u32) -> Vec<ProductStamp>;
    fn products_after(&self, after: Option<ProductId>, limit: u32) -> Vec<Product>;
});

guarded!(CatalogEditor, CatalogEditorError, {
    fn create_product(&self, product: &Product, audit: &AuditEntry) -> ();
    fn update_product(&self, product: &Product, audit: &AuditEntry) -> Product;
    fn product(&self, id: &ProductId) -> Option<Product>;
    fn products(&self, query: &AdminProductQuery) -> ProductSlice;
    fn create_category(&self, category: &Category, audit: &AuditEntry) -> ();
    fn update_category(&self, category: &Category, audit: &AuditEntry) -> ();
    fn create_brand(&self, brand: &OemBrand, audit: &AuditEntry) -> ();
    fn update_brand(&self, brand: &OemBrand, audit: &AuditEntry) -> ();
});

guarded!(CatalogChanges, CatalogStoreError, {
    fn catalog_version(&self) -> CatalogVersion;
});

guarded!(AccountStore, AccountStoreError, {
    fn create_user(&self, user: &UserRecord) -> ();
    fn user(&self, id: &UserId) -> Option<UserRecord>;
    fn user_by_email(&self, email: &Email) -> Option<UserRecord>;
    fn user_by_mobile(&self, mobile: &str) -> Option<UserRecord>;
    fn user_by_google_email(&self, email: &str) -> Option<UserRecord>;
    fn users_claiming_email(&self, email: &Email, limit: u32) -> Vec<UserRecord>;
    fn users_claiming_mobile(&self, mobile: &str, limit: u32) -> Vec<UserRecord>;
    fn update_user(&self, user: &UserRecord) -> ();
    fn search_users(&self, text: &str, window: ListWindow) -> UsersPage;
    fn set_offer(&self, user: &UserId, offer: Option<CustomerOffer>, audit: &AuditEntry) -> ();
    fn set_language(&self, user: &UserId, language: marque_domain::order::Language) -> bool;
    fn prove(&self, user: &UserId, channel: Channel) -> UserRecord;
    fn user_by_external(&self, issuer: &str, subject: &str) -> Option<UserRecord>;
    fn link_external(&self, issuer: &str, subject: &str, user: &UserId) -> ();
    fn create_session(&self, session: &NewSession) -> ();
    fn session_user(&self, token_hash: &str, now: i64) -> Option<UserId>;
    fn end_session(&self, token_hash: &str) -> ();
    fn put_challenge(&self, challenge: &Challenge) -> ();
    fn challenge(&self, key: &ChallengeKey, now: i64) -> Option<Challenge>;
    fn check_challenge(&self, key: &ChallengeKey, now: i64, offered_hash: &str) -> ChallengeOutcome;
    fn sweep(&self, now: i64, unverified_before: i64) -> Swept;
    fn put_pending_sign_in(&self, pending: &PendingSignIn, expires_at: i64) -> ();
    fn take_pending_sign_in(&self, state: &str, now: i64) -> Option<PendingSignIn>;
    fn put_sign_in_code(&self, code: &SignInCode) -> ();
    fn take_sign_in_code(&self, code_hash: &str, now: i64) -> Option<SignInCode>;
    fn erase_user(&self, id: &UserId) -> ();
});

guarded!(ImportJobs, ImportJobsError, {
    fn create(&self, job: &ImportJob) -> ();
    fn job(&self, id: &ImportJobId) -> Option<ImportJob>;
    fn claim(&self, worker: &str, now: i64, until: i64) -> Option<ImportJob>;
    fn renew(&self, id: &ImportJobId, worker: &str, until: i64) -> ();
    fn write_batch(&self, id: &ImportJobId, worker: &str, now: i64, batch: &ImportBatch) -> ();
    fn fail(&self, id: &ImportJobId, worker: &str, now: i64, reason: &str) -> ();
    fn cancel(&self, id: &ImportJobId, now: i64) -> ImportJob;
    fn rejected(&self, id: &ImportJobId) -> Vec<RowError>;
    fn claim_photos(&self, worker: &str, now: i64, until: i64) -> Option<(ImportJob, marque_ports::ImportPhotoTask)>;
    fn finish_photos(
        &self,
        task: &marque_ports::ImportPhotoTask,
        worker: &str,
        now: i64,
        outcome: &marque_ports::PhotoOutcome,
    ) -> ();
    fn products_by_sku(&self, skus: &[String]) -> Vec<Product>;
});

guarded!(AuditLog, AuditLogError, {
    fn entries(&self, query: &AuditQuery) -> AuditPage;
});

guarded!(RateCounter, RateCounterError, {
    fn hit(&self, key: &str, now: i64, window_secs: i64) -> WindowHits;
    fn unhit(&self, key: &str, now: i64, window_secs: i64) -> ();
});

guarded!(AddressStore, AddressStoreError, {
    fn addresses(&self, user: &UserId) -> Vec<SavedAddress>;
    fn address(&self, id: &AddressId) -> Option<(UserId, SavedAddress)>;
    fn add(&self, user: &UserId, address: &Address, limit: usize) -> SavedAddress;
    fn replace(&self, user: &UserId, id: &AddressId, address: &Address) -> ();
    fn remove(&self, user: &UserId, id: &AddressId) -> ();
    fn remove_all(&self, user: &UserId) -> ();
});

guarded!(OrderStore, OrderStoreError, {
    fn reserve(&self, reservation: &Reservation) -> ();
    fn reservation(&self, payment_order: &PaymentOrderId) -> Option<(Reservation, ReservationState)>;
    fn release(&self, payment_order: &PaymentOrderId) -> bool;
    fn release_expired(&self, now: i64) -> usize;
    fn place(&self, payment_order: &PaymentOrderId, payment: &PaymentId, placed_at: i64) -> Placement;
    fn order(&self, id: &OrderId) -> Option<PlacedOrder>;
    fn orders_of(&self, user: &UserId) -> Vec<PlacedOrder>;
    fn orders_page(&self, user: &UserId, offset: u64, limit: u64) -> OrdersPage;
    fn receive_event(&self, event_id: &str, now: i64) -> bool;
    fn event_handled(&self, event_id: &str, now: i64) -> ();
    fn forget_events_before(&self, before: i64) -> usize;
    fn held_by(&self, user: &UserId) -> Vec<Reservation>;
    fn unplaced_since(&self, since: i64) -> Vec<(Reservation, ReservationState)>;
    fn save_refund(&self, refund: &RefundRecord) -> ();
    fn refund_of(&self, payment: &PaymentId) -> Option<RefundRecord>;
    fn refund_status(&self, refund_id: &str, status: RefundState, now: i64) -> bool;
});

guarded!(OrderDesk, OrderDeskError, {
    fn orders(&self, query: &AdminOrderQuery) -> AdminOrderPage;
    fn order(&self, id: &OrderId) -> Option<AdminOrder>;
    fn update_fulfilment(
        &self,
        id: &OrderId,
        version: u64,
        to: &Fulfilment,
        audit: &AuditEntry,
        notices: &[NewNotice],
    ) -> AdminOrder;
    fn record_refund(&self, write: &RefundWrite, audit: &AuditEntry) -> RefundRecorded;
    fn settle_refund(
        &self,
        refund_id: &str,
        attempt: u32,
        state: RefundState,
        provider_refund: Option<String>,
        now: i64,
    ) -> OrderRefund;
    fn retry_refund(&self, order: &OrderId, refund_id: &str, audit: &AuditEntry) -> OrderRefund;
    fn unsettled_refunds(&self, limit: u32) -> Vec<OrderRefund>;
    fn credit_notes_of(&self, orders: &[OrderId]) -> Vec<IssuedCreditNote>;
    fn refund_counts(&self) -> RefundCounts;
    fn sales(&self, from: i64, until: i64) -> Money;
});

guarded!(NoticeOutbox, NoticeOutboxError, {
    fn claim(&self, worker: &str, now: i64, lease_until: i64, limit: u32) -> Vec<QueuedNotice>;
    fn sent(&self, id: &str, worker: &str, now: i64) -> bool;
    fn attempt_failed(&self, id: &str, worker: &str, error: &str, retry_at: Option<i64>) -> bool;
    fn notices_of(&self, order: &OrderId) -> Vec<QueuedNotice>;
    fn counts(&self) -> NoticeCounts;
});

guarded!(VehicleStore, VehicleStoreError, {
    fn seed_vehicles(&self, vehicles: &[Vehicle]) -> u64;
    fn seed_fitment(&self, fitments: &[(ProductId, Vec<ProductFit>)]) -> ();
    fn add_vehicle(&self, vehicle: &Vehicle, audit: &AuditEntry) -> ();
    fn models(&self, make: &BrandSlug) -> Vec<Model>;
    fn generations(&self, make: &BrandSlug, model: &str) -> Vec<Generation>;
    fn vehicles_of(&self, generation: &GenerationId) -> Vec<Vehicle>;
    fn vehicle(&self, id: &VehicleId) -> Option<Vehicle>;
    fn fitment(&self, product: &ProductId) -> StoredFitment;
    fn set_fitment(&self, product: &ProductId, fits: &[ProductFit], version: u64, audit: &AuditEntry) -> u64;
});

guarded!(GrievanceStore, GrievanceStoreError, {
    fn open(&self, new: &NewGrievance) -> Grievance;
    fn grievances(&self, query: &GrievanceQuery) -> GrievancePage;
    fn grievance(&self, id: &str) -> Option<Grievance>;
    fn change(&self, id: &str, version: u64, change: &GrievanceMove, audit: &AuditEntry) -> Grievance;
    fn overdue(&self, now: i64) -> u64;
});

guarded!(ReturnStore, ReturnStoreError, {
    fn request(&self, new: &NewReturn, notices: &[NewNotice]) -> ProductReturn;
    fn returns_of(&self, customer: &UserId) -> Vec<ProductReturn>;
    fn returns_of_order(&self, order: &OrderId) -> Vec<ProductReturn>;
    fn returns(&self, query: &ReturnQuery) -> ReturnPage;
    fn product_return(&self, id: &str) -> Option<ProductReturn>;
    fn change(
        &self,
        id: &str,
        version: u64,
        change: &ReturnMove,
        credit: Option<CreditGrant>,
        audit: &AuditEntry,
        notices: &[NewNotice],
    ) -> ProductReturn;
    fn waiting(&self) -> u64;
    fn forget_customer(&self, customer: &UserId) -> u64;
    fn credit_granted(&self, source: &str) -> Vec<(UserId, Money)>;
});

guarded!(StaffStore, StaffStoreError, {
    fn invite(&self, record: &StaffRecord, code: &SetupCode, audit: &AuditEntry) -> ();
    fn reissue(&self, code: &SetupCode, audit: &AuditEntry) -> ();
    fn staff(&self, id: &StaffId) -> Option<StaffRecord>;
    fn staff_by_email(&self, email: &str) -> Option<StaffRecord>;
    fn list(&self, window: ListWindow) -> StaffPage;
    fn owners(&self) -> u64;
    fn setup_code(&self, code_hash: &str, now: i64) -> Option<StaffRecord>;
    fn complete_setup(
        &self,
        code_hash: &str,
        staff: &StaffId,
        now: i64,
        secrets: &SetupSecrets,
        audit: &AuditEntry,
    ) -> bool;
    fn use_totp_step(&self, staff: &StaffId, step: i64) -> bool;
    fn create_session(&self, session: &StaffSession) -> ();
    fn session_staff(&self, token_hash: &str, now: i64) -> Option<Staff>;
    fn end_session(&self, token_hash: &str) -> ();
    fn remove(&self, staff: &StaffId, audit: &AuditEntry) -> StaffRecord;
    fn sweep(&self, now: i64) -> StaffSwept;
});

guarded!(StockLedger, StockLedgerError, {
    fn adjust(&self, product: &ProductId, adjustment: &Adjustment, audit: &AuditEntry) -> StockEntry;
    fn history(&self, product: &ProductId, window: ListWindow) -> StockHistory;
    fn low_stock(&self, window: ListWindow) -> LowStockPage;
    fn threshold(&self, product: &ProductId) -> LowStockThreshold;
    fn set_threshold(&self, product: &ProductId, threshold: LowStockThreshold, audit: &AuditEntry)
        -> LowStockThreshold;
});

guarded!(ProductPhotos, ProductPhotosError, {
    fn images(&self, product: &ProductId) -> Option<Vec<ProductImage>>;
    fn set_images(&self, product: &ProductId, images: &[ProductImage], audit: &AuditEntry) -> ();
});

guarded!(GarageStore, GarageStoreError, {
    fn garage(&self, user: &UserId) -> Vec<Car>;
    fn set_garage(&self, user: &UserId, cars: &[Car]) -> ();
    fn clear(&self, user: &UserId) -> ();
});

guarded!(StoreCreditStore, StoreCreditError, {
    fn balance(&self, customer: &UserId, now: i64) -> CreditBalance;
    fn grant(&self, customer: &UserId, amount: Money, source: &GrantSource, granted_at: i64) -> bool;
    fn grants(&self, customer: &UserId) -> Vec<StoredGrant>;
});

guarded!(WishlistStore, WishlistStoreError, {
    fn wishlist(&self, user: &UserId) -> Vec<ProductId>;
    fn add(&self, user: &UserId, product: &ProductId, limit: usize) -> Added;
    fn remove(&self, user: &UserId, product: &ProductId) -> ();
    fn clear(&self, user: &UserId) -> ();
});

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A wishlist store whose reads never answer (a request stuck behind a reconnect) and whose
    /// adds count the calls that reached it.
    #[derive(Debug, Default)]
    struct Stuck {
        reached: AtomicUsize,
    }

    #[async_trait]
    impl WishlistStore for Stuck {
        async fn wishlist(&self, _: &UserId) -> Result<Vec<ProductId>, WishlistStoreError> {
            self.reached.fetch_add(1, Ordering::SeqCst);
            std::future::pending().await
        }
        async fn add(&self, _: &UserId, _: &ProductId, _: usize) -> Result<Added, WishlistStoreError> {
            self.reached.fetch_add(1, Ordering::SeqCst);
            Ok(Added::Added)
        }
        async fn remove(&self, _: &UserId, _: &ProductId) -> Result<(), WishlistStoreError> {
            Ok(())
        }
        async fn clear(&self, _: &UserId) -> Result<(), WishlistStoreError> {
            Ok(())
        }
    }

    async fn guarded(remote: bool) -> Guarded<Stuck> {
        guarded_for(remote, Duration::from_millis(50)).await
    }

    async fn guarded_for(remote: bool, deadline: Duration) -> Guarded<Stuck> {
        let db = surrealdb::engine::any::connect("mem://").await.expect("mem://");
        Guarded::new(Stuck::default(), Link::unwatched(Conn::Any(db), remote, deadline))
    }

    fn ids() -> (UserId, ProductId) {
        (UserId("u1".into()), ProductId("p1".into()))
    }

    #[tokio::test]
    async fn a_call_to_a_server_that_does_not_answer_is_unavailable_after_the_deadline() {
        let store = guarded(true).await;
        let (user, product) = ids();
        assert!(matches!(store.wishlist(&user).await, Err(WishlistStoreError::Unavailable { .. })));
        assert_eq!(store.add(&user, &product, 50).await, Ok(Added::Added), "answered calls pass through");
    }

    #[tokio::test]
    async fn while_the_server_is_known_gone_calls_fail_without_reaching_the_store() {
        let store = guarded(true).await;
        let (user, product) = ids();
        store.link.0.record(&Err("probe failed".into()));
        assert!(matches!(store.add(&user, &product, 50).await, Err(WishlistStoreError::Unavailable { .. })));
        assert_eq!(store.store.reached.load(Ordering::SeqCst), 0, "nothing queued behind the reconnect");
        let readiness = SurrealReadiness::new(store.link.clone());
        assert!(readiness.ready().await.is_err(), "not ready while the gate is closed");
        store.link.0.record(&Ok(()));
        assert_eq!(store.add(&user, &product, 50).await, Ok(Added::Added), "open again after an answered probe");
        assert_eq!(readiness.ready().await, Ok(()), "a RETURN 1 round trip");
    }

    #[tokio::test]
    async fn a_call_in_flight_is_cut_short_when_a_probe_finds_the_server_gone() {
        let store = Arc::new(guarded_for(true, Duration::from_secs(3600)).await);
        let waiting = tokio::spawn({
            let store = store.clone();
            async move { store.wishlist(&UserId("u1".into())).await }
        });
        while store.store.reached.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        store.link.0.record(&Err("probe failed".into()));
        let outcome = waiting.await.expect("the call ends");
        assert!(matches!(outcome, Err(WishlistStoreError::Unavailable { .. })), "{outcome:?}");
    }

    #[tokio::test]
    async fn embedded_engines_have_no_gate() {
        let store = guarded(false).await;
        let (user, product) = ids();
        store.link.0.record(&Err("ignored".into()));
        assert_eq!(store.add(&user, &product, 50).await, Ok(Added::Added));
        // No deadline either: the stuck read is still waiting when the test stops polling it.
        let stuck = tokio::time::timeout(Duration::from_millis(200), store.wishlist(&user)).await;
        assert!(stuck.is_err(), "an embedded call is not cut short");
    }
}
