//! Wiring of the checkout's payment safety: the order limits and the test-only fault point of
//! webhooks. (The housekeeping of provider events and the reconciliation with the provider are
//! `marque_app::housekeeping`'s.)

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
