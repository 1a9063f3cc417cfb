//! How an external sign-in (Google) reaches the browser: not as a session in the landing page's
//! address, but as a one-time code that only the browser that started the sign-in can exchange,
//! once and within a minute, for a session.
//!
//! The start sets a cookie whose value is the HMAC of the sign-in's `state` under the server's
//! secret ([`AccountService::sign_in_browser`]): only this server can make it, and only the browser
//! given it holds it. The provider's return is accepted only with that cookie, and the code it ends
//! with is kept with the hash of the cookie, which the exchange must present again. A link to the
//! callback or to the landing, sent to someone else, signs them into nothing.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use marque_ports::{ExternalIdentity, SignInCode, UserRecord};
use sha2::{Digest, Sha256};

use super::{random_bytes, AccountError, AccountService, SessionToken};

/// A sign-in code as the landing page holds it. Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct SignInCodeText(String);

impl SignInCodeText {
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for SignInCodeText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SignInCodeText(…)")
    }
}

fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

impl AccountService {
    /// How long a sign-in code may wait for its exchange.
    pub const SIGN_IN_CODE_SECS: i64 = 60;

    fn browser_mac(&self, state: &str) -> Hmac<Sha256> {
        // HMAC takes a key of any length.
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.settings.secret.0).unwrap_or_else(|_| unreachable!());
        mac.update(b"marque-sign-in-browser:");
        mac.update(state.as_bytes());
        mac
    }

    /// The cookie value that binds the sign-in started with `state` to the browser it is given to.
    #[must_use]
    pub fn sign_in_browser(&self, state: &str) -> String {
        hex::encode(self.browser_mac(state).finalize().into_bytes())
    }

    /// Whether `cookie` is the one [`AccountService::sign_in_browser`] gave for `state` (compared in
    /// constant time).
    #[must_use]
    pub fn is_sign_in_browser(&self, state: &str, cookie: &str) -> bool {
        hex::decode(cookie.trim()).is_ok_and(|bytes| self.browser_mac(state).verify_slice(&bytes).is_ok())
    }

    /// Finishes an external sign-in: finds or makes the account as
    /// [`AccountService::sign_in_external`] does, and gives a code the browser holding `browser` (the
    /// sign-in cookie) may exchange once, within [`AccountService::SIGN_IN_CODE_SECS`], for a session.
    /// No session exists until then.
    ///
    /// # Errors
    /// As [`AccountService::sign_in_external`].
    pub async fn sign_in_external_code(
        &self,
        identity: &ExternalIdentity,
        browser: &str,
    ) -> Result<(SignInCodeText, UserRecord), AccountError> {
        let user = self.external_account(identity).await?;
        let code = SignInCodeText(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes::<32>()?));
        let kept = SignInCode {
            code_hash: sha256_hex(&code.0),
            user: user.id.clone(),
            browser_hash: sha256_hex(browser),
            expires_at: self.clock.now() + Self::SIGN_IN_CODE_SECS,
        };
        self.store.put_sign_in_code(&kept).await?;
        Ok((code, user))
    }

    /// Exchanges a sign-in code for a session: once, before it ends, and only with the sign-in cookie
    /// of the browser that started the sign-in. A code refused for any reason is used up all the same.
    ///
    /// # Errors
    /// [`AccountError::Unauthorized`] for an unknown, used or expired code, another browser's, or a
    /// customer no longer stored; [`AccountError::Unavailable`].
    pub async fn exchange_sign_in_code(
        &self,
        code: &str,
        browser: &str,
    ) -> Result<(SessionToken, UserRecord), AccountError> {
        if code.is_empty() || code.len() > 200 {
            return Err(AccountError::Unauthorized);
        }
        let kept = self
            .store
            .take_sign_in_code(&sha256_hex(code), self.clock.now())
            .await?
            .ok_or(AccountError::Unauthorized)?;
        let same_browser: bool = {
            let offered = Sha256::digest(browser.as_bytes());
            hex::decode(&kept.browser_hash).is_ok_and(|stored| {
                stored.len() == offered.len()
                    && stored.iter().zip(offered.iter()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
            })
        };
        if browser.is_empty() || !same_browser {
            tracing::info!(user = %kept.user.0, "a sign-in code was offered by another browser; refused");
            return Err(AccountError::Unauthorized);
        }
        let user = self.store.user(&kept.user).await?.ok_or(AccountError::Unauthorized)?;
        let token = self.start_session(&user.id).await?;
        Ok((token, user))
    }
}
