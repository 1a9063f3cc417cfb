//! Rate limits on the writes a customer could abuse (payments, addresses, wishlist, pictures,
//! invoices), counted in the shared [`RateCounter`] so every instance of the shop sees the
//! same counts.
//!
//! Each [`Action`] has a [`Rule`]: at most `limit` calls in any `window_secs` seconds, per
//! subject (a customer's id), as [`marque_domain::rate::Window`] estimates it. Past it the call
//! is refused with the seconds until one more would be allowed, which the HTTP layer sends as
//! `Retry-After`.

use std::sync::Arc;

use marque_domain::rate::Window;
use marque_ports::{Clock, RateCounter, RateCounterError};

/// A write that is limited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// `POST /api/razorpay/pay`: a provider order and a stock hold each.
    Pay,
    /// Adding, editing or removing a delivery address.
    AddressWrite,
    /// Adding or removing a wishlist product.
    WishlistWrite,
    /// Keeping the garage's cars (`PUT /api/account/garage`).
    GarageWrite,
    /// Changing the profile (name and picture: a decode and a re-encode each), or the language.
    ProfileUpdate,
    /// Rendering an invoice PDF.
    Invoice,
    /// `POST /api/register` from one client (an address, not a customer): a password hash and
    /// two messages each.
    SignUp,
    /// `POST /api/mobile/login` from one client: an SMS each.
    MobileLogin,
    /// `POST /api/resendotp` from one client: an SMS and an email each.
    Resend,
    /// `GET /api/google` from one client: a kept sign-in each.
    SignInStart,
    /// `POST /api/grievances` from one client: a ticket and an email each.
    Grievance,
    /// `POST /api/account/returns` by one customer: up to three photographs decoded, stored and
    /// an email and SMS each.
    ReturnRequest,
}

impl Action {
    /// The counter's key prefix.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Action::Pay => "pay",
            Action::AddressWrite => "address-write",
            Action::WishlistWrite => "wishlist-write",
            Action::GarageWrite => "garage-write",
            Action::ProfileUpdate => "profile-update",
            Action::Invoice => "invoice",
            Action::SignUp => "client-sign-up",
            Action::MobileLogin => "client-mobile-login",
            Action::Resend => "client-resend",
            Action::SignInStart => "client-sign-in-start",
            Action::Grievance => "client-grievance",
            Action::ReturnRequest => "return-request",
        }
    }
}

/// At most `limit` calls in any `window_secs` seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub limit: u32,
    pub window_secs: i64,
}

impl Rule {
    #[must_use]
    pub const fn per_minute(limit: u32) -> Self {
        Self { limit, window_secs: 60 }
    }

    #[must_use]
    pub const fn per_hour(limit: u32) -> Self {
        Self { limit, window_secs: 3600 }
    }
}

/// The rule of each action. The defaults leave an honest customer far below them
/// (the address book holds 20, the wishlist 50; a checkout is one pay call). The per-client
/// rules are generous: Indian mobile networks put many people behind one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottleRules {
    pub pay: Rule,
    pub address_write: Rule,
    pub wishlist_write: Rule,
    pub garage_write: Rule,
    pub profile_update: Rule,
    pub invoice: Rule,
    pub sign_up: Rule,
    pub mobile_login: Rule,
    pub resend: Rule,
    pub sign_in_start: Rule,
    pub grievance: Rule,
    pub return_request: Rule,
}

impl Default for ThrottleRules {
    fn default() -> Self {
        Self {
            pay: Rule::per_minute(10),
            address_write: Rule::per_minute(30),
            wishlist_write: Rule::per_minute(60),
            garage_write: Rule::per_minute(30),
            profile_update: Rule::per_minute(10),
            invoice: Rule::per_minute(30),
            sign_up: Rule::per_hour(60),
            mobile_login: Rule::per_hour(120),
            resend: Rule::per_hour(120),
            sign_in_start: Rule::per_hour(240),
            grievance: Rule::per_hour(20),
            return_request: Rule::per_hour(10),
        }
    }
}

impl ThrottleRules {
    #[must_use]
    pub const fn rule(&self, action: Action) -> Rule {
        match action {
            Action::Pay => self.pay,
            Action::AddressWrite => self.address_write,
            Action::WishlistWrite => self.wishlist_write,
            Action::GarageWrite => self.garage_write,
            Action::ProfileUpdate => self.profile_update,
            Action::Invoice => self.invoice,
            Action::SignUp => self.sign_up,
            Action::MobileLogin => self.mobile_login,
            Action::Resend => self.resend,
            Action::SignInStart => self.sign_in_start,
            Action::Grievance => self.grievance,
            Action::ReturnRequest => self.return_request,
        }
    }
}

/// Why a call may not go ahead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThrottleError {
    /// Past the action's limit: try again in `retry_after_secs` seconds (at least 1).
    #[error("too many calls; try again in {retry_after_secs} s")]
    Limited { retry_after_secs: u64 },
    /// The counters cannot be reached.
    #[error("the rate counters are unavailable: {0}")]
    Unavailable(String),
}

/// Counts limited calls in the shared counters.
#[derive(Clone)]
pub struct Throttle {
    counter: Arc<dyn RateCounter>,
    clock: Arc<dyn Clock>,
    rules: ThrottleRules,
}

impl std::fmt::Debug for Throttle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Throttle").field("rules", &self.rules).finish_non_exhaustive()
    }
}

impl Throttle {
    #[must_use]
    pub fn new(counter: Arc<dyn RateCounter>, clock: Arc<dyn Clock>, rules: ThrottleRules) -> Self {
        Self { counter, clock, rules }
    }

    /// Counts one `action` by `subject` (a customer's id, or a client's key for the per-client
    /// actions) and says whether it may go ahead.
    ///
    /// # Errors
    /// [`ThrottleError::Limited`] past the action's limit in the last window length (the refused
    /// call is not counted: hammering does not move the end of the refusal); [`ThrottleError::Unavailable`]
    /// when the counters cannot be written.
    pub async fn check(&self, action: Action, subject: &str) -> Result<(), ThrottleError> {
        let rule = self.rules.rule(action);
        let window = rule.window_secs.max(1);
        let now = self.clock.now();
        let key = format!("{}:{subject}", action.key());
        let counted = count(self.counter.as_ref(), &key, now, Window::new(rule.limit, window))
            .await
            .map_err(|e| ThrottleError::Unavailable(e.to_string()))?;
        counted.map_err(|retry_after_secs| {
            tracing::info!(action = action.key(), "rate limit reached");
            ThrottleError::Limited { retry_after_secs }
        })
    }
}

/// Counts one event for `key` under `limit` at `now`: `Ok(Ok(()))` when it stays within the
/// limit, `Ok(Err(seconds))` when it is refused (at least one second to wait). A refused event
/// is taken back at once, so hammering past a limit never pushes its end further away.
///
/// # Errors
/// The counter's, when it cannot be written.
pub(crate) async fn count(
    counter: &dyn RateCounter,
    key: &str,
    now: i64,
    limit: Window,
) -> Result<Result<(), u64>, RateCounterError> {
    let hits = counter.hit(key, now, limit.window_secs).await?;
    if limit.allows(hits, now) {
        return Ok(Ok(()));
    }
    // The wait counts what stays once this hit is taken back.
    let kept = marque_domain::rate::WindowHits { current: hits.current.saturating_sub(1), ..hits };
    let retry_after_secs = u64::try_from(limit.retry_after(kept, now)).unwrap_or(1).max(1);
    if let Err(e) = counter.unhit(key, now, limit.window_secs).await {
        // Only the refusal lasts a little longer; the call is refused either way.
        tracing::warn!(error = %e, "taking back a refused hit failed");
    }
    Ok(Err(retry_after_secs))
}

#[cfg(test)]
pub(crate) mod tests;
