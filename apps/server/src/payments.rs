//! Wiring of the checkout's payment safety: the order limits, the test-only fault point of
//! webhooks, the housekeeping of provider events and the reconciliation with the provider.

use std::sync::Arc;

use marque_app::CheckoutService;

use crate::settings::{Environment, Settings};

/// The exit status of the fault point (`MARQUE_TEST_EXIT_AFTER_WEBHOOK_RECORD`).
pub const FAULT_EXIT_STATUS: i32 = 86;

/// The checkout with the configured order limits and, in `dev` when asked for, the fault point
/// that ends the process between noting a webhook and acting on it.
#[must_use]
pub fn configure_checkout(checkout: CheckoutService, settings: &Settings) -> CheckoutService {
    let checkout = checkout.with_limits(settings.orders.limits);
    if !settings.orders.test_exit_after_webhook_record {
        return checkout;
    }
    if settings.env != Environment::Dev {
        tracing::warn!("MARQUE_TEST_EXIT_AFTER_WEBHOOK_RECORD is honoured in dev only; ignored");
        return checkout;
    }
    tracing::warn!(
        "MARQUE_TEST_EXIT_AFTER_WEBHOOK_RECORD: the process exits after noting a payment webhook (fault test)"
    );
    checkout.probing_events(Arc::new(|| {
        tracing::error!("fault test: exiting between noting a payment webhook and acting on it");
        std::process::exit(FAULT_EXIT_STATUS);
    }))
}

/// Deletes provider events past their 90 days. Best effort: tried again on the next sweep.
pub async fn forget_old_events(checkout: &CheckoutService) {
    match checkout.forget_old_events().await {
        Ok(0) => {}
        Ok(n) => tracing::info!(deleted = n, "forgot payment events older than 90 days"),
        Err(e) => tracing::warn!(error = %e, "forgetting old payment events failed; trying again later"),
    }
}

/// Reconciles payments with the provider at once and then every `MARQUE_RECONCILE_SECONDS`, until
/// `alive`'s sender (the app) is dropped.
pub fn spawn_reconciler(checkout: &CheckoutService, settings: &Settings, alive: tokio::sync::watch::Receiver<()>) {
    let checkout = checkout.clone();
    let period = settings.orders.reconcile;
    crate::background::spawn_every(period, alive, move || {
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
