//! What one order may hold, and how payments are reconciled with the provider.

use std::time::Duration;

use marque_domain::checkout::OrderLimits;

use super::flags::OrdersFlags;

/// The orders' settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Orders {
    /// Most units of one part, and most different parts, in an order (each at least 1).
    pub limits: OrderLimits,
    /// Between reconciliations with the provider (at least 1 s).
    pub reconcile: Duration,
    /// Test-only, honoured in `dev` alone: exit right after noting a provider webhook.
    pub test_exit_after_webhook_record: bool,
}

impl Orders {
    #[must_use]
    pub fn parse(flags: &OrdersFlags) -> Self {
        Self {
            limits: OrderLimits {
                units_per_line: flags.max_units_per_line.max(1),
                lines_per_order: flags.max_lines_per_order.max(1),
            },
            reconcile: Duration::from_secs(flags.reconcile_seconds.max(1)),
            test_exit_after_webhook_record: flags.test_exit_after_webhook_record,
        }
    }
}
