//! Sign-in with Google (or, in `dev`, the local stand-in): plain redirects beside the OpenAPI
//! service, because a browser follows them, not the API client.
//!
//! - `GET /api/google`: starts a sign-in, keeps it in the account store under its state
//!   (ten minutes, any instance can finish it), gives the browser the sign-in cookie
//!   ([`SIGN_IN_COOKIE`], bound to the state) and redirects to the provider.
//! - `GET /api/google/callback?state&code`: only with the cookie of the browser that started the
//!   sign-in, takes the kept sign-in (once), finishes it and redirects to `/login/success?token=…`
//!   where `token` is a one-time code (a minute, that browser only), or to `/login/failure` on any
//!   failure.
//! - `POST /api/google/exchange {token}` (an OpenAPI operation): the landing page exchanges the code,
//!   with the cookie, for the session `{token}`. The code itself opens nothing.
//! - `GET /api/dev/signin` and `/api/dev/signin/continue`: the `dev` provider's page.

use std::sync::Arc;

use marque_ports::IdentityProvider;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{handler, Request, Response};
use serde::Deserialize;

use marque_app::{AccountError, AccountService};
use marque_domain::Message;
use poem_openapi::payload::Json;

use super::error::ErrorBody;

/// The configured sign-in provider, and whether it is the `dev` stand-in.
#[derive(Clone)]
pub struct SignIn {
    pub provider: Arc<dyn IdentityProvider>,
    /// The `dev` stand-in: its page (`/api/dev/signin`) is served only then.
    pub dev: bool,
    /// `MARQUE_PUBLIC_URL` without a trailing slash; else the request's host is the origin.
    pub public_url: Option<String>,
}

impl std::fmt::Debug for SignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignIn").field("dev", &self.dev).finish_non_exhaustive()
    }
}

/// What the sign-in routes (`/api/google`, its callback, the `dev` stand-in's pages) need: the
/// provider when one is configured, the accounts it signs into, and the rate limit on starts.
#[derive(Debug, Clone)]
pub struct SignInContext {
    pub sign_in: Option<SignIn>,
    pub accounts: AccountService,
    pub throttle: marque_app::Throttle,
}

pub const CALLBACK_PATH: &str = "/api/google/callback";
pub const DEV_EMAIL: &str = "dev.shopper@marqueparts.in";

impl SignIn {
    fn origin(&self, req: &Request) -> String {
        self.public_url.clone().unwrap_or_else(|| {
            let host = req
                .headers()
                .get("host")
                .and_then(|h| h.to_str().ok())
                .filter(|h| h.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']')))
                .unwrap_or("localhost");
            format!("http://{host}")
        })
    }

    fn callback(&self, req: &Request) -> String {
        format!("{}{CALLBACK_PATH}", self.origin(req))
    }
}

fn redirect(to: &str) -> Response {
    Response::builder()
        .status(StatusCode::FOUND)
        .header("location", to)
        .header("cache-control", "no-store")
        .header("referrer-policy", "no-referrer")
        .finish()
}

fn failure() -> Response {
    redirect("/login/failure")
}

fn unavailable() -> Response {
    let body = serde_json::json!({
        "status": "failed",
        "message": "Sign-in with Google is not available.",
        "code": "signin.unavailable",
    });
    Response::builder()
        .status(StatusCode::NOT_FOUND)
        .content_type("application/json")
        .body(body.to_string())
}

/// `GET /api/google`
#[handler]
pub async fn start(req: &Request, ctx: Data<&SignInContext>) -> Response {
    let Some(sign_in) = &ctx.sign_in else { return unavailable() };
    let client = super::auth::client_address(req);
    match super::limits::check(&ctx.throttle, marque_app::Action::SignInStart, &client).await {
        Ok(()) => {}
        Err(super::limits::Refusal::TooMany(body, secs)) => {
            return Response::builder()
                .status(StatusCode::TOO_MANY_REQUESTS)
                .header("retry-after", secs.to_string())
                .content_type("application/json")
                .body(poem_openapi::types::ToJSON::to_json_string(&body.0));
        }
        Err(super::limits::Refusal::Unavailable(_)) => return failure(),
    }
    let started = match sign_in.provider.start(&sign_in.callback(req)).await {
        Ok(started) => started,
        Err(e) => {
            tracing::warn!(error = %e, "starting a sign-in failed");
            return failure();
        }
    };
    if let Err(e) = ctx.accounts.keep_pending_sign_in(&started.pending).await {
        tracing::error!(error = %e, "keeping a started sign-in failed");
        return failure();
    }
    let mut to_provider = redirect(&started.redirect_to);
    let cookie = sign_in_cookie(&ctx.accounts.sign_in_browser(&started.pending.state), marque_app::AccountService::PENDING_SIGN_IN_SECS);
    if let Ok(value) = poem::http::HeaderValue::from_str(&cookie) {
        to_provider.headers_mut().append(poem::http::header::SET_COOKIE, value);
    }
    to_provider
}

/// The cookie that binds a started sign-in to the browser that started it. `__Host-`: set only by
/// this origin over a secure connection (browsers count `http://localhost` as one), for the whole
/// site, never by a sibling domain. `SameSite=Lax` lets it ride the provider's redirect back.
pub const SIGN_IN_COOKIE: &str = "__Host-marque_signin";

fn sign_in_cookie(value: &str, max_age: i64) -> String {
    format!("{SIGN_IN_COOKIE}={value}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age={max_age}")
}

/// The sign-in cookie the request carries, if any.
fn sign_in_cookie_of(req: &Request) -> Option<String> {
    req.headers()
        .get_all(poem::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SIGN_IN_COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

#[derive(Deserialize)]
pub struct Return {
    #[serde(default)]
    state: String,
    #[serde(default)]
    code: String,
}

redacted_debug!(Return {} hides state, code);

/// `GET /api/google/callback?state&code`
#[handler]
pub async fn callback(req: &Request, ctx: Data<&SignInContext>, Query(back): Query<Return>) -> Response {
    let Some(sign_in) = &ctx.sign_in else { return unavailable() };
    let Some(browser) = sign_in_cookie_of(req).filter(|c| ctx.accounts.is_sign_in_browser(&back.state, c)) else {
        tracing::info!("a sign-in returned to a browser that did not start it");
        return failure();
    };
    let pending = match ctx.accounts.take_pending_sign_in(&back.state).await {
        Ok(Some(pending)) => pending,
        Ok(None) => {
            tracing::info!("a sign-in returned with an unknown, used or expired state");
            return failure();
        }
        Err(e) => {
            tracing::error!(error = %e, "taking a started sign-in failed");
            return failure();
        }
    };
    let identity = match sign_in.provider.finish(&pending, &sign_in.callback(req), &back.state, &back.code).await {
        Ok(identity) => identity,
        Err(e) => {
            tracing::info!(error = %e, "a sign-in was refused");
            return failure();
        }
    };
    match ctx.accounts.sign_in_external_code(&identity, &browser).await {
        Ok((code, _)) => {
            let query = serde_urlencoded::to_string([("token", code.expose())]).unwrap_or_default();
            redirect(&format!("/login/success?{query}"))
        }
        Err(e) => {
            tracing::warn!(error = %e, "signing in an external identity failed");
            failure()
        }
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

#[derive(Deserialize)]
pub struct DevStart {
    #[serde(default)]
    state: String,
    #[serde(default)]
    redirect_uri: String,
}

redacted_debug!(DevStart { redirect_uri } hides state);

/// `GET /api/dev/signin?state&redirect_uri` (`dev` stand-in only): pick the test account.
#[handler]
pub fn dev_page(ctx: Data<&SignInContext>, Query(q): Query<DevStart>) -> Response {
    if !ctx.sign_in.as_ref().is_some_and(|s| s.dev) {
        return Response::builder().status(StatusCode::NOT_FOUND).finish();
    }
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"robots\" content=\"noindex\"><title>Development sign-in</title></head>\n<body>\n\
<h1>Development sign-in</h1>\n<p>This stands in for Google while developing: the address below becomes the signed-in account.</p>\n\
<form method=\"get\" action=\"/api/dev/signin/continue\">\n\
<input type=\"hidden\" name=\"state\" value=\"{state}\">\n\
<input type=\"hidden\" name=\"redirect_uri\" value=\"{redirect}\">\n\
<label for=\"dev-email\">Email</label>\n\
<input id=\"dev-email\" type=\"text\" name=\"email\" value=\"{email}\" autocomplete=\"email\">\n\
<button type=\"submit\">Sign in</button>\n</form>\n</body></html>\n",
        state = escape(&q.state),
        redirect = escape(&q.redirect_uri),
        email = escape(DEV_EMAIL),
    );
    Response::builder()
        .content_type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header("referrer-policy", "no-referrer")
        .body(html)
}

#[derive(Deserialize)]
pub struct DevContinue {
    #[serde(default)]
    state: String,
    #[serde(default)]
    redirect_uri: String,
    #[serde(default)]
    email: String,
}

redacted_debug!(DevContinue { redirect_uri, email } hides state);

/// `GET /api/dev/signin/continue?state&redirect_uri&email`: back to the callback, which must
/// be this shop's own `/api/google/callback`.
#[handler]
pub fn dev_continue(req: &Request, ctx: Data<&SignInContext>, Query(q): Query<DevContinue>) -> Response {
    let Some(sign_in) = ctx.sign_in.as_ref().filter(|s| s.dev) else {
        return Response::builder().status(StatusCode::NOT_FOUND).finish();
    };
    if q.redirect_uri != sign_in.callback(req) {
        return Response::builder()
            .status(StatusCode::BAD_REQUEST)
            .content_type("application/json")
            .body(serde_json::json!({"status": "failed", "message": "The return address is not this shop's."}).to_string());
    }
    let query = serde_urlencoded::to_string([("state", q.state.as_str()), ("code", q.email.as_str())]).unwrap_or_default();
    redirect(&format!("{}?{query}", q.redirect_uri))
}

#[derive(poem_openapi::Tags)]
enum Tag {
    /// Signing up, logging in (email and password, or a one-time code), the profile.
    Account,
}

/// The one-time code `/login/success?token=…` carries.
#[derive(Clone, poem_openapi::Object)]
pub struct ExchangeInput {
    /// The code from the landing page's address (valid for a minute, once, in the browser that
    /// started the sign-in: its sign-in cookie must come with it).
    pub token: String,
}

/// The session the code was exchanged for.
#[derive(Clone, poem_openapi::Object)]
pub struct ExchangeBody {
    /// The session token (`Authorization: Bearer …`), stored under `token`.
    pub token: String,
}

redacted_debug!(ExchangeInput {} hides token);
redacted_debug!(ExchangeBody {} hides token);

#[derive(poem_openapi::ApiResponse)]
#[oai(bad_request_handler = "exchange_bad_request")]
enum ExchangeResponse {
    /// A session; the sign-in cookie is cleared.
    #[oai(status = 200)]
    Ok(Json<ExchangeBody>, #[oai(header = "Set-Cookie")] String),
    /// A body that does not parse.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// The code is unknown, used, older than a minute, or offered by another browser
    /// (`account.login_required`).
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// The accounts store cannot be reached right now.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn exchange_bad_request(err: poem::Error) -> ExchangeResponse {
    ExchangeResponse::BadRequest(ErrorBody::from_poem(&err))
}

/// `POST /api/google/exchange`.
#[derive(Debug)]
pub struct SignInApi {
    accounts: AccountService,
}

impl SignInApi {
    pub fn new(accounts: AccountService) -> Self {
        Self { accounts }
    }
}

#[poem_openapi::OpenApi(tag = "Tag::Account")]
impl SignInApi {
    /// Exchanges the one-time code of a third-party sign-in's landing (`/login/success?token=…`)
    /// for a session. Only the browser that started the sign-in (`GET /api/google`) can: its
    /// sign-in cookie must come with the call; the code works once, within a minute.
    #[oai(path = "/google/exchange", method = "post", operation_id = "exchangeSignInCode")]
    async fn exchange(&self, req: &Request, input: Json<ExchangeInput>) -> ExchangeResponse {
        let browser = sign_in_cookie_of(req).unwrap_or_default();
        match self.accounts.exchange_sign_in_code(&input.0.token, &browser).await {
            Ok((token, _)) => ExchangeResponse::Ok(Json(ExchangeBody { token: token.expose().to_owned() }), sign_in_cookie("", 0)),
            Err(AccountError::Unavailable(reason)) => {
                tracing::error!(%reason, "accounts unavailable");
                ExchangeResponse::Unavailable(ErrorBody::from_message(Message::AccountUnavailable))
            }
            Err(_) => ExchangeResponse::Unauthorized(ErrorBody::from_message(Message::LoginRequired)),
        }
    }
}
