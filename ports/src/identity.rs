//! Sign-in with another provider (Google, OpenID Connect).

use async_trait::async_trait;

/// Where to send the visitor to sign in, and what must come back unchanged.
#[derive(Clone, PartialEq, Eq)]
pub struct SignInStart {
    /// The provider's authorisation address, with state, nonce and PKCE challenge in it.
    pub redirect_to: String,
    /// Kept by the server until the visitor returns (state, nonce and PKCE verifier, opaque here).
    pub pending: PendingSignIn,
}

/// What the server keeps between the start and the return: never shown to the visitor.
#[derive(Clone, PartialEq, Eq)]
pub struct PendingSignIn {
    pub state: String,
    pub nonce: String,
    pub pkce_verifier: String,
}

impl std::fmt::Debug for SignInStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignInStart").field("redirect_to", &self.redirect_to).finish_non_exhaustive()
    }
}

impl std::fmt::Debug for PendingSignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PendingSignIn(…)")
    }
}

/// Who the provider says signed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalIdentity {
    /// Who vouches (the OpenID issuer, e.g. `https://accounts.google.com`); with `subject`, the key
    /// an identity is kept by.
    pub issuer: String,
    /// The provider's stable subject id.
    pub subject: String,
    /// Verified email address.
    pub email: String,
    pub name: String,
    pub picture: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// The return does not belong to the pending sign-in (state, nonce or code refused, token invalid,
    /// email not verified).
    #[error("the sign-in was refused: {reason}")]
    Refused { reason: String },
    #[error("the identity provider is unavailable: {reason}")]
    Unavailable { reason: String },
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait IdentityProvider: Send + Sync {
    /// Starts a sign-in that returns to `redirect_uri`.
    ///
    /// # Errors
    /// [`IdentityError::Unavailable`] when the provider cannot be reached (e.g. discovery fails).
    async fn start(&self, redirect_uri: &str) -> Result<SignInStart, IdentityError>;
    /// Finishes a sign-in: exchanges `code` (checking `state` against `pending`, the nonce and the ID
    /// token's signature) and returns who signed in.
    ///
    /// # Errors
    /// [`IdentityError::Refused`] for a state mismatch, a bad code or token, an unverified email;
    /// [`IdentityError::Unavailable`] when the provider cannot be reached.
    async fn finish(
        &self,
        pending: &PendingSignIn,
        redirect_uri: &str,
        state: &str,
        code: &str,
    ) -> Result<ExternalIdentity, IdentityError>;
}
