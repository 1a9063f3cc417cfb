//! Who is calling: the session as a type, the client validation header, and ownership.
//!
//! A handler that takes a [`Customer`] cannot run without a valid session: poem-openapi runs
//! [`check_session`] first and answers 401 when it fails. [`ensure_owner`] is the one place
//! that decides whether a path or query naming a customer is the caller's own (403 otherwise).

use std::sync::Arc;

use marque_app::{AccountError, AccountService, Authenticated};
use marque_domain::Message;
use poem::http::StatusCode;
use poem::Request;
use poem_openapi::auth::Bearer;
use poem_openapi::payload::Json;
use poem_openapi::SecurityScheme;

use super::error::ErrorBody;

/// The header an authorized call carries when the server is configured with a value.
pub const CLIENT_VALIDATION_HEADER: &str = "x-client-validation";

/// The configured `x-client-validation` value. Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientValidation(pub String);

impl std::fmt::Debug for ClientValidation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClientValidation(…)")
    }
}

/// What [`check_session`] needs, attached to every API request: the accounts that hold the
/// sessions and the `x-client-validation` value authorized calls must carry, when configured.
#[derive(Debug, Clone)]
pub struct AuthContext {
    pub accounts: AccountService,
    pub client_validation: Option<Arc<ClientValidation>>,
}

/// A logged-in customer: `Authorization: Bearer <token>` from `POST /api/login` or `/api/verify`.
#[derive(Debug, SecurityScheme)]
#[oai(ty = "bearer", rename = "bearerAuth", checker = "check_session")]
pub struct Customer(pub Authenticated);

impl Customer {
    #[must_use]
    pub fn id(&self) -> &str {
        &self.0.user.id.0
    }
}

/// Every byte compared, so the time taken does not tell how much of a guess was right.
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn check_session(req: &Request, bearer: Bearer) -> poem::Result<Authenticated> {
    let unauthorized = || poem::Error::from_string(Message::LoginRequired.text(), StatusCode::UNAUTHORIZED);
    let auth = req.data::<AuthContext>().ok_or_else(|| {
        poem::Error::from_string("the auth context is not attached to the API", StatusCode::INTERNAL_SERVER_ERROR)
    })?;
    if let Some(expected) = &auth.client_validation {
        let offered = req.header(CLIENT_VALIDATION_HEADER).unwrap_or_default();
        if !same_bytes(offered.as_bytes(), expected.0.as_bytes()) {
            return Err(unauthorized());
        }
    }
    match auth.accounts.authenticate(&bearer.token).await {
        Ok(who) => Ok(who),
        Err(AccountError::Unauthorized) => Err(unauthorized()),
        Err(e) => {
            tracing::error!(error = %e, "checking a session failed");
            Err(poem::Error::from_string(Message::AccountUnavailable.text(), StatusCode::SERVICE_UNAVAILABLE))
        }
    }
}

/// The 403 body for a call naming another customer.
#[must_use]
pub fn forbidden() -> Json<ErrorBody> {
    ErrorBody::from_message(Message::AccountForbidden)
}

/// Whether the customer owns the account `user_id` names: every user-scoped handler asks here
/// before it reads or changes anything.
///
/// # Errors
/// The 403 body when `user_id` is another customer's.
pub fn ensure_owner(customer: &Customer, user_id: &str) -> Result<(), Json<ErrorBody>> {
    if customer.id() == user_id {
        Ok(())
    } else {
        Err(forbidden())
    }
}

/// The caller's key for per-client limits: its address (behind `MARQUE_TRUSTED_PROXIES`, the one
/// they forwarded; an IPv6 address's /64), see [`crate::clients`].
#[must_use]
pub fn client_address(req: &Request) -> String {
    crate::clients::current(req)
}

#[cfg(test)]
mod tests {
    use super::same_bytes as same;

    #[test]
    fn comparison_is_exact() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd") && !same(b"abc", b"ab") && !same(b"", b"a"));
    }
}
