//! Sign-in with an OpenID Connect provider (Google by default) through the `openidconnect` crate.

use std::time::{Duration, Instant};

use async_trait::async_trait;
use marque_ports::{ExternalIdentity, IdentityError, IdentityProvider, PendingSignIn, SignInStart};
use openidconnect::core::{CoreAuthenticationFlow, CoreClient, CoreIdTokenClaims, CoreProviderMetadata};
use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce, PkceCodeChallenge, PkceCodeVerifier,
    RedirectUrl, RequestTokenError, Scope,
};
use secrecy::{ExposeSecret, SecretString};
use tokio::sync::Mutex;

/// Google's issuer; its discovery document is `{GOOGLE_ISSUER}/.well-known/openid-configuration`.
pub const GOOGLE_ISSUER: &str = "https://accounts.google.com";

/// How long the discovery document and signing keys are trusted before they are fetched again.
/// A token signed by a key not in the cached set also triggers one fetch (Google rotates keys).
const DISCOVERY_TTL: Duration = Duration::from_secs(60 * 60);

/// The OAuth client registered with the provider. `client_secret` never appears in `Debug` output.
#[derive(Debug, Clone)]
pub struct OidcConfig {
    /// Without a trailing slash, e.g. [`GOOGLE_ISSUER`]; a local fake in tests.
    pub issuer_url: String,
    pub client_id: String,
    pub client_secret: SecretString,
    /// How long to wait for the provider before giving up ([`IdentityError::Unavailable`]).
    pub timeout: Duration,
}

impl OidcConfig {
    /// Google, with a 10-second timeout.
    #[must_use]
    pub fn google(client_id: impl Into<String>, client_secret: SecretString) -> Self {
        Self {
            issuer_url: GOOGLE_ISSUER.to_owned(),
            client_id: client_id.into(),
            client_secret,
            timeout: Duration::from_secs(10),
        }
    }
}

/// A configuration the provider cannot be built from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OidcConfigError {
    #[error("the issuer `{0}` is not a URL")]
    Issuer(String),
    #[error("the client id must not be empty")]
    ClientId,
    #[error("the HTTP client cannot be built: {0}")]
    Client(String),
}

/// Google (or any OpenID Connect provider) sign-in: authorization code, PKCE S256, state and nonce.
pub struct OidcIdentityProvider {
    issuer: IssuerUrl,
    client_id: ClientId,
    client_secret: SecretString,
    http: reqwest::Client,
    discovered: Mutex<Option<(Instant, CoreProviderMetadata)>>,
}

impl std::fmt::Debug for OidcIdentityProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OidcIdentityProvider")
            .field("issuer", &self.issuer.as_str())
            .field("client_id", &self.client_id.as_str())
            .finish_non_exhaustive()
    }
}

impl OidcIdentityProvider {
    /// Builds the provider. Discovery happens on first use (and again every hour), so a provider
    /// that is down at start-up makes sign-in [`IdentityError::Unavailable`], not the server fail.
    ///
    /// # Errors
    /// [`OidcConfigError`] for an issuer that is not a URL or an empty client id.
    pub fn new(config: OidcConfig) -> Result<Self, OidcConfigError> {
        let issuer = IssuerUrl::new(config.issuer_url.clone())
            .map_err(|_| OidcConfigError::Issuer(config.issuer_url.clone()))?;
        if config.client_id.trim().is_empty() {
            return Err(OidcConfigError::ClientId);
        }
        // Redirects off: a token endpoint that redirects could otherwise forward the code and
        // client secret somewhere else (the SSRF advice in openidconnect's docs).
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(config.timeout)
            .build()
            .map_err(|e| OidcConfigError::Client(e.to_string()))?;
        Ok(Self {
            issuer,
            client_id: ClientId::new(config.client_id),
            client_secret: config.client_secret,
            http,
            discovered: Mutex::new(None),
        })
    }

    /// The provider's metadata and keys: cached, fetched when missing, stale or `refresh`ed.
    async fn metadata(&self, refresh: bool) -> Result<CoreProviderMetadata, IdentityError> {
        let mut cached = self.discovered.lock().await;
        if let Some((fetched, metadata)) = cached.as_ref() {
            if !refresh && fetched.elapsed() < DISCOVERY_TTL {
                return Ok(metadata.clone());
            }
        }
        let metadata = CoreProviderMetadata::discover_async(self.issuer.clone(), &self.http).await.map_err(|e| {
            tracing::warn!(issuer = %self.issuer.as_str(), error = %e, "OpenID Connect discovery failed");
            IdentityError::Unavailable { reason: format!("the identity provider's discovery failed: {e}") }
        })?;
        *cached = Some((Instant::now(), metadata.clone()));
        Ok(metadata)
    }

    fn client(&self, metadata: CoreProviderMetadata, redirect_uri: &str) -> Result<OidcClient, IdentityError> {
        let redirect = RedirectUrl::new(redirect_uri.to_owned())
            .map_err(|_| IdentityError::Refused { reason: format!("`{redirect_uri}` is not a redirect URL") })?;
        Ok(CoreClient::from_provider_metadata(
            metadata,
            self.client_id.clone(),
            Some(ClientSecret::new(self.client_secret.expose_secret().to_owned())),
        )
        .set_redirect_uri(redirect))
    }

    /// The token's claims, verified: signature, audience, issuer, expiry and nonce.
    fn verified_claims(
        &self,
        client: &OidcClient,
        token: &openidconnect::core::CoreIdToken,
        nonce: &Nonce,
    ) -> Result<CoreIdTokenClaims, Verification> {
        // The issuer is checked here rather than by the verifier: Google documents that its
        // tokens may name the issuer without the scheme (`accounts.google.com`).
        let verifier = client.id_token_verifier().require_issuer_match(false);
        let claims = token.claims(&verifier, nonce).map_err(|e| match e {
            openidconnect::ClaimsVerificationError::SignatureVerification(
                openidconnect::SignatureVerificationError::NoMatchingKey,
            ) => Verification::UnknownKey,
            other => Verification::Refused(other.to_string()),
        })?;
        let issuer = claims.issuer().as_str();
        let expected = self.issuer.as_str();
        let google_alias = expected == GOOGLE_ISSUER && issuer == "accounts.google.com";
        if issuer != expected && !google_alias {
            return Err(Verification::Refused(format!("the token was issued by `{issuer}`, not `{expected}`")));
        }
        Ok(claims.clone())
    }
}

type OidcClient = CoreClient<
    openidconnect::EndpointSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointMaybeSet,
    openidconnect::EndpointMaybeSet,
>;

enum Verification {
    /// Signed by a key the cached key set does not hold: fetch the keys again once.
    UnknownKey,
    Refused(String),
}

/// Compares two strings in time that depends on their lengths only.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn refused(reason: impl Into<String>) -> IdentityError {
    IdentityError::Refused { reason: reason.into() }
}

fn identity(claims: &CoreIdTokenClaims) -> Result<ExternalIdentity, IdentityError> {
    let email = claims.email().map(|e| e.as_str().trim().to_owned()).filter(|e| !e.is_empty());
    let email = email.ok_or_else(|| refused("the provider gave no email address (is the `email` scope granted?)"))?;
    if claims.email_verified() != Some(true) {
        return Err(refused("the provider has not verified this email address"));
    }
    let name = claims
        .name()
        .and_then(|n| n.get(None))
        .map(|n| n.as_str().to_owned())
        .or_else(|| {
            let given = claims.given_name().and_then(|n| n.get(None)).map(|n| n.as_str().to_owned());
            let family = claims.family_name().and_then(|n| n.get(None)).map(|n| n.as_str().to_owned());
            let joined = [given, family].into_iter().flatten().collect::<Vec<_>>().join(" ");
            (!joined.is_empty()).then_some(joined)
        })
        .unwrap_or_else(|| email.split('@').next().unwrap_or_default().to_owned());
    let picture = claims.picture().and_then(|p| p.get(None)).map(|p| p.as_str().to_owned());
    Ok(ExternalIdentity {
        issuer: claims.issuer().as_str().to_owned(),
        subject: claims.subject().as_str().to_owned(),
        email,
        name,
        picture,
    })
}

#[async_trait]
impl IdentityProvider for OidcIdentityProvider {
    async fn start(&self, redirect_uri: &str) -> Result<SignInStart, IdentityError> {
        let client = self.client(self.metadata(false).await?, redirect_uri)?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = client
            .authorize_url(CoreAuthenticationFlow::AuthorizationCode, CsrfToken::new_random, Nonce::new_random)
            .add_scope(Scope::new("email".to_owned()))
            .add_scope(Scope::new("profile".to_owned()))
            .set_pkce_challenge(challenge)
            .url();
        Ok(SignInStart {
            redirect_to: url.to_string(),
            pending: PendingSignIn {
                state: state.secret().clone(),
                nonce: nonce.secret().clone(),
                pkce_verifier: verifier.secret().clone(),
            },
        })
    }

    async fn finish(
        &self,
        pending: &PendingSignIn,
        redirect_uri: &str,
        state: &str,
        code: &str,
    ) -> Result<ExternalIdentity, IdentityError> {
        if pending.state.is_empty() || !same(state, &pending.state) {
            return Err(refused("the state does not match the sign-in that was started"));
        }
        if code.is_empty() {
            return Err(refused("the provider returned no code"));
        }
        let client = self.client(self.metadata(false).await?, redirect_uri)?;
        let request = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .map_err(|e| IdentityError::Unavailable { reason: format!("the provider names no token endpoint: {e}") })?;
        let tokens = request
            .set_pkce_verifier(PkceCodeVerifier::new(pending.pkce_verifier.clone()))
            .request_async(&self.http)
            .await
            .map_err(|e| match e {
                // The provider answered with an OAuth error: a used, expired or forged code, a
                // wrong verifier. A retry with the same code cannot succeed.
                RequestTokenError::ServerResponse(answer) => {
                    refused(format!("the provider refused the code: {answer}"))
                }
                RequestTokenError::Request(e) => {
                    IdentityError::Unavailable { reason: format!("the token endpoint cannot be reached: {e}") }
                }
                RequestTokenError::Parse(e, _) => IdentityError::Unavailable {
                    reason: format!("the token endpoint's answer is not a token response: {e}"),
                },
                RequestTokenError::Other(e) => {
                    IdentityError::Unavailable { reason: format!("the token request failed: {e}") }
                }
            })?;
        let token = openidconnect::TokenResponse::id_token(&tokens)
            .ok_or_else(|| refused("the provider returned no ID token"))?;
        let nonce = Nonce::new(pending.nonce.clone());
        let claims = match self.verified_claims(&client, token, &nonce) {
            Ok(claims) => claims,
            Err(Verification::UnknownKey) => {
                let client = self.client(self.metadata(true).await?, redirect_uri)?;
                self.verified_claims(&client, token, &nonce).map_err(|e| match e {
                    Verification::UnknownKey => {
                        refused("the ID token is signed by a key the provider does not publish")
                    }
                    Verification::Refused(reason) => refused(format!("the ID token is not valid: {reason}")),
                })?
            }
            Err(Verification::Refused(reason)) => return Err(refused(format!("the ID token is not valid: {reason}"))),
        };
        identity(&claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_secret_never_prints() {
        let config = OidcConfig::google("123.apps.googleusercontent.com", SecretString::from("GOCSPX-very-secret"));
        assert!(!format!("{config:?}").contains("very-secret"));
        let provider = OidcIdentityProvider::new(config).expect("a valid config");
        let printed = format!("{provider:?}");
        assert!(!printed.contains("very-secret") && printed.contains("123.apps.googleusercontent.com"), "{printed}");
    }

    #[test]
    fn a_bad_configuration_is_reported() {
        let mut config = OidcConfig::google("", SecretString::from("s"));
        assert_eq!(OidcIdentityProvider::new(config.clone()).err(), Some(OidcConfigError::ClientId));
        config.client_id = "id".to_owned();
        config.issuer_url = "not a url".to_owned();
        assert!(matches!(OidcIdentityProvider::new(config), Err(OidcConfigError::Issuer(_))));
    }

    #[test]
    fn strings_compare_whole() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd") && !same("abc", "ab") && !same("", "a"));
    }
}
