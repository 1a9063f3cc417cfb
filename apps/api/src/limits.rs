//! Rate limits on a customer's abusable writes, counted in the shared counters (see
//! `marque_app::Throttle`): the handler asks here first (through the `throttle!` macro).

use marque_app::{Action, Throttle, ThrottleError};
use marque_domain::Message;
use poem_openapi::payload::Json;

use super::error::ErrorBody;

/// Why a limited call may not go ahead.
#[derive(Debug)]
pub enum Refusal {
    /// 429 with the seconds to wait (`Retry-After`).
    TooMany(Json<ErrorBody>, u64),
    /// 503: the counters cannot be reached.
    Unavailable(Json<ErrorBody>),
}

/// Counts one `action` by the customer `subject`.
///
/// # Errors
/// The [`Refusal`] to answer.
pub async fn check(throttle: &Throttle, action: Action, subject: &str) -> Result<(), Refusal> {
    match throttle.check(action, subject).await {
        Ok(()) => Ok(()),
        Err(ThrottleError::Limited { retry_after_secs }) => {
            Err(Refusal::TooMany(ErrorBody::from_message(Message::TooManyRequests), retry_after_secs))
        }
        Err(e @ ThrottleError::Unavailable(_)) => {
            tracing::error!(error = %e, "rate counters unavailable");
            Err(Refusal::Unavailable(ErrorBody::from_message(Message::AccountUnavailable)))
        }
    }
}
