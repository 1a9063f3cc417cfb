//! The [`IdentityProvider`](marque_ports::IdentityProvider) port: sign-in with Google (or any
//! OpenID Connect provider), and a network-free stand-in for development.
//!
//! - [`OidcIdentityProvider`]: authorization-code flow with PKCE (S256), a fresh state and nonce
//!   per sign-in, the ID token's signature checked against the provider's published keys, its
//!   audience, issuer, nonce and expiry checked, and the email required to be verified.
//! - [`DevIdentityProvider`]: for `dev` only; sends the visitor to a local page where a developer
//!   picks a test account, and turns the returned email into an identity.
//!
//! What a shop must configure for Google: a Google Cloud project with the OAuth consent screen
//! (app name, support email, the shop's domain as an authorised domain, scopes `openid`,
//! `email`, `profile`), and an OAuth client of type "Web application" whose authorised redirect
//! URI is exactly the server's callback (e.g. `https://marque.example/api/auth/google/callback`).
//! Its client id and secret go into [`OidcConfig`].

mod dev;
mod oidc;

pub use dev::{DevIdentityProvider, DEV_SIGNIN_PATH};
pub use oidc::{OidcConfig, OidcConfigError, OidcIdentityProvider, GOOGLE_ISSUER};
