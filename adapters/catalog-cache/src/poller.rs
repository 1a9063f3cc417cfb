//! The task that keeps a [`CachedCatalogStore`] in step with its database.

use std::sync::Arc;
use std::time::Duration;

use crate::CachedCatalogStore;

/// Refreshes `cache` from its catalog changes every `poll`, on a task that ends once the
/// cache is dropped. Needs a Tokio runtime.
pub fn spawn_poller(cache: &Arc<CachedCatalogStore>, poll: Duration) {
    let weak = Arc::downgrade(cache);
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(poll);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // Logged when reading starts failing and when it works again, not on every poll of an outage.
        let mut failing = false;
        loop {
            ticks.tick().await;
            let Some(cache) = weak.upgrade() else { break };
            match cache.refresh().await {
                Err(e) if !failing => {
                    failing = true;
                    tracing::warn!(error = %e, "catalog cache: reading the catalog version failed; reading through");
                }
                Ok(_) if failing => {
                    failing = false;
                    tracing::info!("catalog cache: the catalog version can be read again");
                }
                _ => {}
            }
        }
    });
}
