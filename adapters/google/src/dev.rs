//! A stand-in identity provider for `dev`: no network, the developer picks the account.

use async_trait::async_trait;
use marque_ports::{ExternalIdentity, IdentityError, IdentityProvider, PendingSignIn, SignInStart};

/// The local page the server serves in `dev`, where a developer picks or types a test account.
/// It redirects to `redirect_uri?state=…&code=<email>`.
pub const DEV_SIGNIN_PATH: &str = "/api/dev/signin";
/// The issuer the stand-in's identities carry.
pub const DEV_ISSUER: &str = "marque-dev";

/// Sign-in without a provider, for `dev` only: whoever reaches the page can be anyone, so the
/// composition root must never build it outside `dev`.
///
/// `start` sends the visitor to `{DEV_SIGNIN_PATH}?state=…&redirect_uri=…`; `finish` checks the
/// state and takes the code as the email of the account picked. The subject is `dev:<email>`.
#[derive(Debug, Clone)]
pub struct DevIdentityProvider {
    signin_path: String,
}

impl Default for DevIdentityProvider {
    fn default() -> Self {
        Self::new()
    }
}

impl DevIdentityProvider {
    /// Sends visitors to [`DEV_SIGNIN_PATH`].
    #[must_use]
    pub fn new() -> Self {
        Self { signin_path: DEV_SIGNIN_PATH.to_owned() }
    }

    /// Sends visitors to another local page (e.g. one under a path prefix).
    #[must_use]
    pub fn with_signin_path(path: impl Into<String>) -> Self {
        Self { signin_path: path.into() }
    }
}

/// A plausible address: one `@`, something on each side, a dot in the domain, no spaces.
fn plausible_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else { return false };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !email.chars().any(char::is_whitespace)
}

#[async_trait]
impl IdentityProvider for DevIdentityProvider {
    async fn start(&self, redirect_uri: &str) -> Result<SignInStart, IdentityError> {
        let state = openidconnect::CsrfToken::new_random().secret().clone();
        let query = serde_urlencoded::to_string([("state", state.as_str()), ("redirect_uri", redirect_uri)])
            .map_err(|e| IdentityError::Refused { reason: format!("the redirect URI cannot be encoded: {e}") })?;
        Ok(SignInStart {
            redirect_to: format!("{}?{query}", self.signin_path),
            pending: PendingSignIn { state, nonce: String::new(), pkce_verifier: String::new() },
        })
    }

    async fn finish(
        &self,
        pending: &PendingSignIn,
        _redirect_uri: &str,
        state: &str,
        code: &str,
    ) -> Result<ExternalIdentity, IdentityError> {
        if pending.state.is_empty() || state != pending.state {
            return Err(IdentityError::Refused {
                reason: "the state does not match the sign-in that was started".to_owned(),
            });
        }
        let email = code.trim().to_lowercase();
        if !plausible_email(&email) {
            return Err(IdentityError::Refused { reason: format!("`{code}` is not an email address") });
        }
        let name = email.split('@').next().unwrap_or_default().to_owned();
        Ok(ExternalIdentity {
            issuer: DEV_ISSUER.to_owned(),
            subject: format!("dev:{email}"),
            email,
            name,
            picture: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BACK: &str = "http://localhost:8080/api/auth/google/callback";

    fn query_of(redirect_to: &str) -> Vec<(String, String)> {
        let (path, query) = redirect_to.split_once('?').expect("a query");
        assert_eq!(path, DEV_SIGNIN_PATH);
        serde_urlencoded::from_str(query).expect("a form-encoded query")
    }

    #[tokio::test]
    async fn start_sends_the_visitor_to_the_local_page_with_state_and_return_address() {
        let start = DevIdentityProvider::new().start(BACK).await.expect("started");
        let query = query_of(&start.redirect_to);
        assert_eq!(
            query,
            [("state".to_owned(), start.pending.state.clone()), ("redirect_uri".to_owned(), BACK.to_owned())]
        );
        assert!(start.pending.state.len() >= 16, "a state worth guessing: {}", start.pending.state);
    }

    #[tokio::test]
    async fn every_start_has_its_own_state() {
        let provider = DevIdentityProvider::new();
        let first = provider.start(BACK).await.expect("started");
        let second = provider.start(BACK).await.expect("started");
        assert_ne!(first.pending.state, second.pending.state);
    }

    #[tokio::test]
    async fn the_picked_email_becomes_the_identity() {
        let provider = DevIdentityProvider::new();
        let start = provider.start(BACK).await.expect("started");
        let who = provider
            .finish(&start.pending, BACK, &start.pending.state, " Asha.Rao@Example.in ")
            .await
            .expect("signed in");
        assert_eq!(
            who,
            ExternalIdentity {
                issuer: DEV_ISSUER.to_owned(),
                subject: "dev:asha.rao@example.in".to_owned(),
                email: "asha.rao@example.in".to_owned(),
                name: "asha.rao".to_owned(),
                picture: None,
            }
        );
    }

    #[tokio::test]
    async fn a_state_that_does_not_match_is_refused() {
        let provider = DevIdentityProvider::new();
        let start = provider.start(BACK).await.expect("started");
        let other = provider.start(BACK).await.expect("started");
        for state in [other.pending.state.as_str(), "", "forged"] {
            let outcome = provider.finish(&start.pending, BACK, state, "asha@example.in").await;
            assert!(matches!(outcome, Err(IdentityError::Refused { .. })), "{state:?}: {outcome:?}");
        }
    }

    #[tokio::test]
    async fn a_code_that_is_not_an_email_is_refused() {
        let provider = DevIdentityProvider::new();
        let start = provider.start(BACK).await.expect("started");
        for code in ["", "asha", "asha@", "@example.in", "asha@example", "a b@example.in", "asha@@example.in"] {
            let outcome = provider.finish(&start.pending, BACK, &start.pending.state, code).await;
            assert!(matches!(outcome, Err(IdentityError::Refused { .. })), "{code:?}: {outcome:?}");
        }
    }

    #[tokio::test]
    async fn another_signin_path_is_used_when_given() {
        let start = DevIdentityProvider::with_signin_path("/shop/api/dev/signin").start(BACK).await.expect("started");
        assert!(start.redirect_to.starts_with("/shop/api/dev/signin?state="), "{}", start.redirect_to);
    }
}
