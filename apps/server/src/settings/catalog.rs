//! The catalog's answers kept in memory: the answer cache and the ready product answers.

use std::time::Duration;

use super::flags::Flags;
use super::SettingsError;

/// The memory of the catalog's answers and how often the catalog's version is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatalogCache {
    /// Megabytes of catalog answers (`MARQUE_CATALOG_CACHE_MB`; 0 turns the cache, and the
    /// ready answers with it, off).
    pub cache_mb: u64,
    /// Megabytes of ready product answers (`MARQUE_READY_PRODUCT_ANSWERS_MB`, formerly
    /// `MARQUE_PRODUCT_PAGES_MB`; 0 turns them, and the ready listings, off).
    pub ready_product_answers_mb: u64,
    /// How often the catalog's version is read (at least 10 ms).
    pub poll: Duration,
    /// Most time the instance reports unready while it warms its answers after a start
    /// (`MARQUE_WARM_UP_LIMIT_SECS`, 60 s).
    pub warm_up_limit: Duration,
    /// Tests only: how long the first warm-up waits before it starts (`MARQUE_TEST_WARM_UP_DELAY_MS`, 0).
    pub warm_up_delay: Duration,
}

/// The ready product answers' default size.
pub const READY_PRODUCT_ANSWERS_MB: u64 = 96;

impl CatalogCache {
    /// # Errors
    /// When `MARQUE_READY_PRODUCT_ANSWERS_MB` and its older name `MARQUE_PRODUCT_PAGES_MB` are both
    /// set, to different sizes; when `MARQUE_TEST_WARM_UP_DELAY_MS` is set in `prod`.
    pub fn parse(flags: &Flags) -> Result<Self, SettingsError> {
        if flags.test_warm_up_delay_ms > 0 && flags.env == super::flags::Environment::Prod {
            return Err(SettingsError::invalid(
                "MARQUE_TEST_WARM_UP_DELAY_MS",
                "a delay of the warm-up is for tests only: unset it in prod".to_owned(),
            ));
        }
        let ready_product_answers_mb = match (flags.ready_product_answers_mb, flags.product_pages_mb) {
            (Some(new), Some(old)) if new != old => {
                return Err(SettingsError::invalid(
                    "MARQUE_PRODUCT_PAGES_MB",
                    format!(
                        "MARQUE_READY_PRODUCT_ANSWERS_MB is {new} but its older name MARQUE_PRODUCT_PAGES_MB is {old}: set one of them"
                    ),
                ))
            }
            (Some(mb), _) | (None, Some(mb)) => mb,
            (None, None) => READY_PRODUCT_ANSWERS_MB,
        };
        Ok(Self {
            cache_mb: flags.catalog_cache_mb,
            ready_product_answers_mb,
            poll: Duration::from_millis(flags.catalog_poll_ms.max(10)),
            warm_up_limit: Duration::from_secs(flags.warm_up_limit_secs),
            warm_up_delay: Duration::from_millis(flags.test_warm_up_delay_ms),
        })
    }
}
