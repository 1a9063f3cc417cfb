//! Shared rate counters: fixed windows of counted events, kept where every instance sees them.

use async_trait::async_trait;
use marque_domain::rate::WindowHits;

/// Why a rate counter call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RateCounterError {
    /// The counters could not be reached or failed; the caller may retry later.
    #[error("the rate counters are unavailable: {reason}")]
    Unavailable { reason: String },
}

/// Counts events (a login, a code sent, a payment started) per key in fixed windows, shared by
/// every instance of the shop, so a limit holds across them.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait RateCounter: Send + Sync {
    /// Counts one event for `key` (e.g. `otp-send:9876543210`, `login:203.0.113.9`) in the fixed
    /// window of `window_secs` seconds that contains `now` (windows start at multiples of
    /// `window_secs`), and returns that window's count including this one together with the
    /// count of the window before it, from which [`marque_domain::rate::Window`] estimates the
    /// hits in the last `window_secs`. Concurrent hits each count once.
    ///
    /// # Errors
    /// [`RateCounterError::Unavailable`] when the counters cannot be written.
    async fn hit(&self, key: &str, now: i64, window_secs: i64) -> Result<WindowHits, RateCounterError>;

    /// Takes back one event [`RateCounter::hit`] counted for `key` in the fixed window of
    /// `window_secs` seconds that contains `now`: a refused call, which must not extend its own
    /// refusal. Never takes a count below zero; a window with no count is left as it is.
    ///
    /// # Errors
    /// [`RateCounterError::Unavailable`] when the counters cannot be written.
    async fn unhit(&self, key: &str, now: i64, window_secs: i64) -> Result<(), RateCounterError>;
}
