//! `OidcIdentityProvider` end to end against a fake OpenID Connect provider started here (poem on
//! port 0): discovery, the authorization redirect, the code exchange with PKCE, an RS256-signed
//! ID token checked against the published key set.
//!
//! The signing keys are fixed test keys (`tests/keys/*.pem`, made with `openssl genrsa
//! -traditional 2048`): they sign nothing but these tests' tokens.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use marque_google::{OidcConfig, OidcIdentityProvider};
use marque_ports::{ExternalIdentity, IdentityError, IdentityProvider, SignInStart};
use openidconnect::core::{
    CoreIdToken, CoreIdTokenClaims, CoreJsonWebKeySet, CoreJwsSigningAlgorithm, CoreRsaPrivateSigningKey,
};
use openidconnect::{
    Audience, EmptyAdditionalClaims, EndUserEmail, EndUserName, EndUserPictureUrl, IssuerUrl, JsonWebKeyId, Nonce,
    PkceCodeChallenge, PkceCodeVerifier, PrivateSigningKey, StandardClaims, SubjectIdentifier,
};
use poem::http::StatusCode;
use poem::listener::{Acceptor, Listener, TcpListener};
use poem::web::{Data, Form, Json, Query};
use poem::{get, handler, post, EndpointExt, Response, Route, Server};
use secrecy::SecretString;
use serde_json::json;

const CLIENT_ID: &str = "marque-test-client";
const CLIENT_SECRET: &str = "test-client-secret";
/// `Basic base64("marque-test-client:test-client-secret")`: how the client authenticates.
const CLIENT_BASIC_AUTH: &str = "Basic bWFycXVlLXRlc3QtY2xpZW50OnRlc3QtY2xpZW50LXNlY3JldA==";
const PROVIDER_KEY: &str = include_str!("keys/provider.pem");
const IMPOSTOR_KEY: &str = include_str!("keys/impostor.pem");
const BACK: &str = "http://127.0.0.1:8080/api/auth/google/callback";

/// What the fake does differently from an honest provider, set per test.
#[derive(Debug, Clone, Default)]
struct Twist {
    email_unverified: bool,
    /// Puts this nonce in the token instead of the one the client sent.
    nonce: Option<String>,
    /// Signs with a key the key set does not publish.
    impostor_key: bool,
    /// The token endpoint answers 503.
    token_endpoint_down: bool,
    /// The provider has rotated its keys: it signs with a new key (new key id) and publishes both.
    rotated: bool,
}

/// What `/authorize` saw, kept until `/token` redeems the code.
#[derive(Debug, Clone)]
struct Grant {
    nonce: String,
    challenge: String,
    redirect_uri: String,
}

struct Fake {
    issuer: String,
    key: CoreRsaPrivateSigningKey,
    impostor: CoreRsaPrivateSigningKey,
    rotated_key: CoreRsaPrivateSigningKey,
    grants: Mutex<HashMap<String, Grant>>,
    twist: Mutex<Twist>,
    next_code: Mutex<u32>,
}

#[handler]
fn discovery(fake: Data<&Arc<Fake>>) -> Json<serde_json::Value> {
    let issuer = &fake.issuer;
    Json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "jwks_uri": format!("{issuer}/jwks"),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "email", "profile"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic"],
        "code_challenge_methods_supported": ["S256"],
    }))
}

#[handler]
fn jwks(fake: Data<&Arc<Fake>>) -> Json<CoreJsonWebKeySet> {
    let mut keys = vec![fake.key.as_verification_key()];
    if fake.twist.lock().expect("twist").rotated {
        keys.push(fake.rotated_key.as_verification_key());
    }
    Json(CoreJsonWebKeySet::new(keys))
}

#[handler]
fn authorize(fake: Data<&Arc<Fake>>, Query(query): Query<HashMap<String, String>>) -> Response {
    let param = |name: &str| query.get(name).cloned().unwrap_or_default();
    let well_formed = param("response_type") == "code"
        && param("client_id") == CLIENT_ID
        && param("code_challenge_method") == "S256"
        && param("scope").split(' ').any(|s| s == "openid")
        && !param("state").is_empty()
        && !param("nonce").is_empty()
        && !param("code_challenge").is_empty();
    if !well_formed {
        return Response::builder()
            .status(StatusCode::BAD_REQUEST)
            .body(format!("malformed authorization request: {query:?}"));
    }
    let code = {
        let mut next = fake.next_code.lock().expect("codes");
        *next += 1;
        format!("code-{next}")
    };
    let grant =
        Grant { nonce: param("nonce"), challenge: param("code_challenge"), redirect_uri: param("redirect_uri") };
    fake.grants.lock().expect("grants").insert(code.clone(), grant);
    let back = format!(
        "{}?{}",
        param("redirect_uri"),
        serde_urlencoded::to_string([("code", code), ("state", param("state"))]).expect("a query")
    );
    Response::builder().status(StatusCode::FOUND).header("location", back).finish()
}

fn oauth_error(status: StatusCode, error: &str) -> Response {
    Response::builder().status(status).content_type("application/json").body(json!({ "error": error }).to_string())
}

#[handler]
fn token(
    fake: Data<&Arc<Fake>>,
    headers: &poem::http::HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let twist = fake.twist.lock().expect("twist").clone();
    if twist.token_endpoint_down {
        return Response::builder().status(StatusCode::SERVICE_UNAVAILABLE).body("<html>down for maintenance</html>");
    }
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(CLIENT_BASIC_AUTH) {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client");
    }
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    if field("grant_type") != "authorization_code" {
        return oauth_error(StatusCode::BAD_REQUEST, "unsupported_grant_type");
    }
    // A code is good once.
    let Some(grant) = fake.grants.lock().expect("grants").remove(&field("code")) else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant");
    };
    let verifier = PkceCodeVerifier::new(field("code_verifier"));
    if PkceCodeChallenge::from_code_verifier_sha256(&verifier).as_str() != grant.challenge
        || field("redirect_uri") != grant.redirect_uri
    {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant");
    }

    let now = chrono::Utc::now();
    let standard = StandardClaims::new(SubjectIdentifier::new("108234567890123456789".to_owned()))
        .set_email(Some(EndUserEmail::new("asha.rao@example.in".to_owned())))
        .set_email_verified(Some(!twist.email_unverified))
        .set_name(Some(EndUserName::new("Asha Rao".to_owned()).into()))
        .set_picture(Some(EndUserPictureUrl::new("https://lh3.example/asha.jpg".to_owned()).into()));
    let claims = CoreIdTokenClaims::new(
        IssuerUrl::new(fake.issuer.clone()).expect("the issuer"),
        vec![Audience::new(CLIENT_ID.to_owned())],
        now + chrono::Duration::minutes(60),
        now,
        standard,
        EmptyAdditionalClaims {},
    )
    .set_nonce(Some(Nonce::new(twist.nonce.unwrap_or(grant.nonce))));
    let key = if twist.impostor_key {
        &fake.impostor
    } else if twist.rotated {
        &fake.rotated_key
    } else {
        &fake.key
    };
    let id_token = CoreIdToken::new(claims, key, CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256, None, None)
        .expect("sign the ID token");
    Response::builder().content_type("application/json").body(
        json!({ "access_token": "fake-access-token", "token_type": "Bearer", "expires_in": 3600, "id_token": id_token }).to_string(),
    )
}

struct Running {
    fake: Arc<Fake>,
    provider: OidcIdentityProvider,
    /// Follows nothing: the test reads each redirect itself.
    browser: reqwest::Client,
}

async fn start_fake() -> Running {
    let acceptor = TcpListener::bind("127.0.0.1:0").into_acceptor().await.expect("bind the fake provider");
    let addr = acceptor.local_addr().remove(0);
    let port = addr.as_socket_addr().expect("a TCP address").port();
    let issuer = format!("http://127.0.0.1:{port}");
    let key = |pem: &str, kid: &str| {
        CoreRsaPrivateSigningKey::from_pem(pem, Some(JsonWebKeyId::new(kid.to_owned()))).expect("a test key")
    };
    let fake = Arc::new(Fake {
        issuer: issuer.clone(),
        key: key(PROVIDER_KEY, "provider-key-1"),
        // The same key id as the published key: only the signature can give it away.
        impostor: key(IMPOSTOR_KEY, "provider-key-1"),
        rotated_key: key(IMPOSTOR_KEY, "provider-key-2"),
        grants: Mutex::new(HashMap::new()),
        twist: Mutex::new(Twist::default()),
        next_code: Mutex::new(0),
    });
    let app = Route::new()
        .at("/.well-known/openid-configuration", get(discovery))
        .at("/jwks", get(jwks))
        .at("/authorize", get(authorize))
        .at("/token", post(token))
        .data(Arc::clone(&fake));
    tokio::spawn(Server::new_with_acceptor(acceptor).run(app));
    Running { fake, provider: provider_for(&issuer), browser: browser() }
}

fn provider_for(issuer: &str) -> OidcIdentityProvider {
    let mut config = OidcConfig::google(CLIENT_ID, SecretString::from(CLIENT_SECRET));
    config.issuer_url = issuer.to_owned();
    config.timeout = std::time::Duration::from_secs(5);
    OidcIdentityProvider::new(config).expect("a valid configuration")
}

fn browser() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("a client")
}

impl Running {
    fn twist(&self, twist: Twist) {
        *self.fake.twist.lock().expect("twist") = twist;
    }

    /// The visitor follows `start.redirect_to` and comes back: the `(state, code)` in the return.
    async fn visit(&self, start: &SignInStart) -> (String, String) {
        let answer = self.browser.get(&start.redirect_to).send().await.expect("the provider answers");
        assert_eq!(answer.status(), reqwest::StatusCode::FOUND, "{:?}", answer.text().await);
        let location = answer.headers()["location"].to_str().expect("a location").to_owned();
        let back = url::Url::parse(&location).expect("a return URL");
        assert_eq!(format!("{}://{}{}", back.scheme(), back.authority(), back.path()), BACK);
        let param = |name: &str| back.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned()).expect(name);
        (param("state"), param("code"))
    }

    /// A whole sign-in: start, visit, finish.
    async fn sign_in(&self) -> Result<ExternalIdentity, IdentityError> {
        let start = self.provider.start(BACK).await.expect("started");
        let (state, code) = self.visit(&start).await;
        self.provider.finish(&start.pending, BACK, &state, &code).await
    }
}

#[tokio::test]
async fn a_visitor_signs_in_and_the_verified_identity_comes_back() {
    let running = start_fake().await;
    let start = running.provider.start(BACK).await.expect("started");

    let to = url::Url::parse(&start.redirect_to).expect("an authorization URL");
    let param = |name: &str| to.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
    assert_eq!(to.path(), "/authorize");
    assert_eq!(param("state").as_deref(), Some(start.pending.state.as_str()));
    assert_eq!(param("nonce").as_deref(), Some(start.pending.nonce.as_str()));
    assert_eq!(param("code_challenge_method").as_deref(), Some("S256"));
    let challenge =
        PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(start.pending.pkce_verifier.clone()));
    assert_eq!(param("code_challenge").as_deref(), Some(challenge.as_str()));
    assert_eq!(param("redirect_uri").as_deref(), Some(BACK));

    let (state, code) = running.visit(&start).await;
    let who = running.provider.finish(&start.pending, BACK, &state, &code).await.expect("signed in");
    assert_eq!(
        who,
        ExternalIdentity {
            issuer: running.fake.issuer.clone(),
            subject: "108234567890123456789".to_owned(),
            email: "asha.rao@example.in".to_owned(),
            name: "Asha Rao".to_owned(),
            picture: Some("https://lh3.example/asha.jpg".to_owned()),
        }
    );
}

#[tokio::test]
async fn every_start_has_its_own_state_nonce_and_verifier() {
    let running = start_fake().await;
    let first = running.provider.start(BACK).await.expect("started");
    let second = running.provider.start(BACK).await.expect("started");
    assert_ne!(first.pending.state, second.pending.state);
    assert_ne!(first.pending.nonce, second.pending.nonce);
    assert_ne!(first.pending.pkce_verifier, second.pending.pkce_verifier);
}

#[tokio::test]
async fn a_state_that_does_not_match_is_refused() {
    let running = start_fake().await;
    let start = running.provider.start(BACK).await.expect("started");
    let other = running.provider.start(BACK).await.expect("started");
    let (_, code) = running.visit(&start).await;
    for state in [other.pending.state.as_str(), "", "forged"] {
        let outcome = running.provider.finish(&start.pending, BACK, state, &code).await;
        assert!(matches!(outcome, Err(IdentityError::Refused { .. })), "{state:?}: {outcome:?}");
    }
}

#[tokio::test]
async fn a_token_with_another_nonce_is_refused() {
    let running = start_fake().await;
    running.twist(Twist { nonce: Some("a-nonce-from-another-sign-in".to_owned()), ..Twist::default() });
    let outcome = running.sign_in().await;
    assert!(matches!(&outcome, Err(IdentityError::Refused { reason }) if reason.contains("nonce")), "{outcome:?}");
}

#[tokio::test]
async fn an_unverified_email_is_refused() {
    let running = start_fake().await;
    running.twist(Twist { email_unverified: true, ..Twist::default() });
    let outcome = running.sign_in().await;
    assert!(matches!(&outcome, Err(IdentityError::Refused { reason }) if reason.contains("verified")), "{outcome:?}");
}

#[tokio::test]
async fn a_token_signed_by_a_key_the_provider_does_not_publish_is_refused() {
    let running = start_fake().await;
    running.twist(Twist { impostor_key: true, ..Twist::default() });
    let outcome = running.sign_in().await;
    assert!(matches!(outcome, Err(IdentityError::Refused { .. })), "{outcome:?}");
}

#[tokio::test]
async fn a_code_used_twice_or_a_wrong_verifier_is_refused() {
    let running = start_fake().await;
    let start = running.provider.start(BACK).await.expect("started");
    let (state, code) = running.visit(&start).await;
    running.provider.finish(&start.pending, BACK, &state, &code).await.expect("the first use signs in");
    let again = running.provider.finish(&start.pending, BACK, &state, &code).await;
    assert!(matches!(again, Err(IdentityError::Refused { .. })), "{again:?}");

    let start = running.provider.start(BACK).await.expect("started");
    let (state, code) = running.visit(&start).await;
    let mut tampered = start.pending.clone();
    tampered.pkce_verifier = PkceCodeChallenge::new_random_sha256().1.secret().clone();
    let outcome = running.provider.finish(&tampered, BACK, &state, &code).await;
    assert!(matches!(outcome, Err(IdentityError::Refused { .. })), "{outcome:?}");
}

#[tokio::test]
async fn a_provider_that_is_down_is_unavailable() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    drop(listener);
    let provider = provider_for(&format!("http://127.0.0.1:{port}"));
    let outcome = provider.start(BACK).await;
    assert!(matches!(outcome, Err(IdentityError::Unavailable { .. })), "{outcome:?}");
}

#[tokio::test]
async fn a_token_endpoint_that_fails_is_unavailable() {
    let running = start_fake().await;
    running.twist(Twist { token_endpoint_down: true, ..Twist::default() });
    let outcome = running.sign_in().await;
    assert!(matches!(outcome, Err(IdentityError::Unavailable { .. })), "{outcome:?}");
}

#[tokio::test]
async fn a_token_signed_with_a_newly_rotated_key_is_accepted_after_fetching_the_keys_again() {
    let running = start_fake().await;
    // The first start caches the discovery document and the key set with key 1 only.
    let start = running.provider.start(BACK).await.expect("started");
    running.twist(Twist { rotated: true, ..Twist::default() });
    let (state, code) = running.visit(&start).await;
    let who = running.provider.finish(&start.pending, BACK, &state, &code).await.expect("signed in with the new key");
    assert_eq!(who.email, "asha.rao@example.in");
}
