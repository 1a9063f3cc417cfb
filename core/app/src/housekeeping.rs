//! The use cases' own housekeeping, run on a timer, each on a task that ends once the app (the
//! sender of `alive`) is dropped: the hold sweeper (with the provider events past their 90 days),
//! the account store's sweep, the staff store's sweep, the reconciliation of payments with the
//! provider, the import worker ([`spawn_import_worker`]), the order notices' worker
//! ([`spawn_notice_worker`]), and the ticking they share. The composition root starts them. (The catalog cache's version poll is
//! `marque_catalog_cache::spawn_poller`; the finished responses' warmer is the API's:
//! `marque_api::response_cache::spawn_warmer`; the server's memory trimmer is its own.)

use crate::admin::imports::ImportService;
use crate::admin::refunds::RefundsService;
use crate::admin::staff::StaffService;
use crate::{AccountService, CheckoutService};

/// How often unpaid holds past their 15 minutes give their stock back.
const HOLD_SWEEP: std::time::Duration = std::time::Duration::from_secs(30);

/// Releases expired holds every [`HOLD_SWEEP`] until `alive`'s sender (the app) is dropped.
pub fn spawn_hold_sweeper(checkout: &CheckoutService, alive: tokio::sync::watch::Receiver<()>) {
    let checkout = checkout.clone();
    spawn_every(HOLD_SWEEP, alive, move || {
        let checkout = checkout.clone();
        async move {
            match checkout.release_expired().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(released = n, "gave back the stock of unpaid holds"),
                Err(e) => tracing::warn!(error = %e, "releasing expired holds failed; trying again later"),
            }
            forget_old_events(&checkout).await;
        }
    });
}

/// How often ended sessions, unfinished sign-ins and day-old accounts that proved nothing are deleted.
const ACCOUNT_SWEEP: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// Housekeeping of the account store every [`ACCOUNT_SWEEP`] until `alive`'s sender (the app) is dropped.
pub fn spawn_account_sweeper(accounts: &AccountService, alive: tokio::sync::watch::Receiver<()>) {
    let accounts = accounts.clone();
    spawn_every(ACCOUNT_SWEEP, alive, move || {
        let accounts = accounts.clone();
        async move {
            match accounts.sweep().await {
                Ok(swept) if swept.sessions + swept.pending_sign_ins > 0 || !swept.accounts.is_empty() => {
                    tracing::info!(
                        sessions = swept.sessions,
                        pending_sign_ins = swept.pending_sign_ins,
                        unverified_accounts = swept.accounts.len(),
                        "swept the account store"
                    )
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "sweeping the account store failed; trying again later"),
            }
        }
    });
}

/// How often ended or expired staff sessions and expired set-up codes are deleted.
const STAFF_SWEEP: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// Housekeeping of the staff store every [`STAFF_SWEEP`] until `alive`'s sender (the app) is dropped.
pub fn spawn_staff_sweeper(staff: &StaffService, alive: tokio::sync::watch::Receiver<()>) {
    let staff = staff.clone();
    spawn_every(STAFF_SWEEP, alive, move || {
        let staff = staff.clone();
        async move {
            match staff.sweep().await {
                Ok(swept) if swept.sessions + swept.setup_codes > 0 => {
                    tracing::info!(sessions = swept.sessions, setup_codes = swept.setup_codes, "swept the staff store")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "sweeping the staff store failed; trying again later"),
            }
        }
    });
}

/// Runs `work` every `period` (the first at once; a late tick is not made up for) on a task
/// that ends once `alive`'s sender (the app) is dropped.
pub fn spawn_every<F, Fut>(period: std::time::Duration, mut alive: tokio::sync::watch::Receiver<()>, mut work: F)
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                _ = alive.changed() => break,
            }
            work().await;
        }
    });
}

/// Deletes provider events past their 90 days. Best effort: tried again on the next sweep.
async fn forget_old_events(checkout: &CheckoutService) {
    match checkout.forget_old_events().await {
        Ok(0) => {}
        Ok(n) => tracing::info!(deleted = n, "forgot payment events older than 90 days"),
        Err(e) => tracing::warn!(error = %e, "forgetting old payment events failed; trying again later"),
    }
}

/// Reconciles payments with the provider at once and then every `period`
/// (`MARQUE_RECONCILE_SECONDS`), until `alive`'s sender (the app) is dropped.
pub fn spawn_reconciler(
    checkout: &CheckoutService,
    period: std::time::Duration,
    alive: tokio::sync::watch::Receiver<()>,
) {
    let checkout = checkout.clone();
    spawn_every(period, alive, move || {
        let checkout = checkout.clone();
        async move {
            match checkout.reconcile().await {
                Ok(done) if done.placed + done.refunded + done.failed > 0 => tracing::info!(
                    checked = done.checked,
                    placed = done.placed,
                    refunded = done.refunded,
                    failed = done.failed,
                    "reconciled payments with the provider"
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "reconciling payments failed; trying again later"),
            }
        }
    });
}

/// Sends the order refunds the provider could not take when they were made, and reads where the
/// pending ones stand (the webhooks' news, when they were lost), at once and then every `period`
/// (`MARQUE_RECONCILE_SECONDS`), until `alive`'s sender (the app) is dropped.
pub fn spawn_refund_reconciler(
    refunds: &RefundsService,
    period: std::time::Duration,
    alive: tokio::sync::watch::Receiver<()>,
) {
    let refunds = refunds.clone();
    spawn_every(period, alive, move || {
        let refunds = refunds.clone();
        async move {
            match refunds.settle_unsettled().await {
                Ok(done) if done.changed + done.failed > 0 => tracing::info!(
                    checked = done.checked,
                    changed = done.changed,
                    failed = done.failed,
                    "reconciled order refunds with the provider"
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "reconciling order refunds failed; trying again later"),
            }
        }
    });
}

/// How long the import worker waits before looking again when no job was queued (or a store failed).
pub const IMPORT_IDLE: std::time::Duration = std::time::Duration::from_millis(500);

/// The import worker: claims one queued (or lapsed) job at a time with [`ImportService::run_next`]
/// and takes it to its end, looks again at once after a job, waits `idle` when there was none or a
/// store failed, and stops once `alive`'s sender (the app) is dropped. A job cut off by the stop
/// keeps its claim until it lapses; whichever instance claims it next resumes from its last batch.
pub fn spawn_import_worker(
    imports: &ImportService,
    idle: std::time::Duration,
    alive: tokio::sync::watch::Receiver<()>,
) {
    let imports = imports.clone();
    spawn_turns(idle, alive, "an import job stopped on a store's failure; trying again later", move || {
        let imports = imports.clone();
        async move {
            let id = imports.run_next().await?;
            if let Some(id) = &id {
                tracing::info!(job = %id, "import job worked through");
            }
            Ok::<bool, crate::admin::imports::ImportError>(id.is_some())
        }
    });
}

/// The import's photograph worker: attaches the photographs of jobs whose rows are over, one
/// row's at a time ([`ImportService::photos_next`]), at once while there are some, then every
/// `idle`, until `alive`'s sender is dropped. A row cut off by a stop is claimed again once its
/// claim lapses.
pub fn spawn_import_photo_worker(
    imports: &ImportService,
    idle: std::time::Duration,
    alive: tokio::sync::watch::Receiver<()>,
) {
    let imports = imports.clone();
    spawn_turns(idle, alive, "an import's photographs stopped on a store's failure; trying again later", move || {
        let imports = imports.clone();
        async move { imports.photos_next().await.map(|task| task.is_some()) }
    });
}

/// Runs `turn` again at once while it did something (`Ok(true)`), after `idle` otherwise (a
/// failure logged as `failing`), until `alive`'s sender is dropped.
fn spawn_turns<F, E>(
    idle: std::time::Duration,
    mut alive: tokio::sync::watch::Receiver<()>,
    failing: &'static str,
    turn: impl Fn() -> F + Send + 'static,
) where
    F: std::future::Future<Output = Result<bool, E>> + Send,
    E: std::fmt::Display + Send + 'static,
{
    tokio::spawn(async move {
        loop {
            let outcome = tokio::select! {
                outcome = turn() => outcome,
                _ = alive.changed() => break,
            };
            let wait = match outcome {
                Ok(true) => continue,
                Ok(false) => idle,
                Err(e) => {
                    tracing::warn!(error = %e, "{failing}");
                    idle
                }
            };
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                _ = alive.changed() => break,
            }
        }
    });
}

/// How often the notice worker looks for due notices in the outbox.
pub const NOTICE_TICK: std::time::Duration = std::time::Duration::from_secs(2);

/// The notice worker: sends the outbox's due order notices at once and then every `period`,
/// passing again at once while a pass finds a full batch, until `alive`'s sender (the app) is
/// dropped. A notice whose send is cut off by the stop is claimed again once its lease lapses.
pub fn spawn_notice_worker(
    notices: &crate::NoticeWorker,
    period: std::time::Duration,
    alive: tokio::sync::watch::Receiver<()>,
) {
    let notices = notices.clone();
    spawn_every(period, alive, move || {
        let notices = notices.clone();
        async move {
            loop {
                match notices.run_once().await {
                    Ok(pass) => {
                        if pass.sent + pass.retrying + pass.failed > 0 {
                            tracing::info!(
                                sent = pass.sent,
                                retrying = pass.retrying,
                                failed = pass.failed,
                                "sent order notices"
                            );
                        }
                        if pass.claimed < crate::notices::NOTICE_BATCH as usize {
                            break;
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "the notice outbox cannot be read; trying again later");
                        break;
                    }
                }
            }
        }
    });
}
