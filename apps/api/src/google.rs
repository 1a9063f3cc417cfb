//! Sign-in with Google (or, in `dev`, the local stand-in): redirects a browser follows, described
//! in the OpenAPI document with their `Location` like any other answer.
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
//! - `GET /api/dev/signin` and `/api/dev/signin/continue`: the `dev` provider's page (plain poem
//!   routes beside the document: a stand-in, never served in `prod`).

use std::sync::Arc;

use marque_ports::IdentityProvider;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{handler, Request, Response};
use serde::Deserialize;

use marque_app::{AccountError, AccountService};
use marque_domain::Message;
use poem_openapi::param::Query as ParamQuery;
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

impl SignInContext {
    /// The sign-in's part of the API's services.
    #[must_use]
    pub fn of(services: &crate::Services) -> Self {
        Self {
            sign_in: services.sign_in.clone(),
            accounts: services.accounts.clone(),
            throttle: services.throttle.clone(),
        }
    }
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

/// `Cache-Control` and `Referrer-Policy` of every sign-in redirect: never kept, and the provider
/// (or the landing page) is not told where the browser came from.
const NO_STORE: &str = "no-store";
const NO_REFERRER: &str = "no-referrer";

fn unavailable() -> Json<ErrorBody> {
    ErrorBody::new("Sign-in with Google is not available.", Some("signin.unavailable"))
}

/// The answers of `GET /api/google`.
#[derive(poem_openapi::ApiResponse)]
enum StartAnswer {
    /// To the provider's sign-in page (in `dev`, `/api/dev/signin`), with the sign-in cookie
    /// (`__Host-marque_signin`, ten minutes, bound to this sign-in); or to `/login/failure` when
    /// a sign-in cannot be started right now (no cookie then).
    #[oai(status = 302)]
    Redirect(
        /// The provider's sign-in page, or `/login/failure`.
        #[oai(header = "Location")]
        String,
        /// The sign-in cookie, on the way to the provider.
        #[oai(header = "Set-Cookie")]
        Option<String>,
        /// Always `no-store`.
        #[oai(header = "Cache-Control")]
        String,
        /// Always `no-referrer`.
        #[oai(header = "Referrer-Policy")]
        String,
    ),
    /// No sign-in provider is configured (`signin.unavailable`).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Too many sign-ins started by this client in a short time (`request.too_many`);
    /// `Retry-After` gives the seconds to wait.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
}

impl StartAnswer {
    fn to(location: &str, cookie: Option<String>) -> Self {
        Self::Redirect(location.to_owned(), cookie, NO_STORE.to_owned(), NO_REFERRER.to_owned())
    }

    fn failure() -> Self {
        Self::to(FAILURE, None)
    }
}

/// The answers of `GET /api/google/callback`.
#[derive(poem_openapi::ApiResponse)]
#[oai(bad_request_handler = "return_bad_request")]
enum ReturnAnswer {
    /// To `/login/success?token=…` (a one-time code for `POST /api/google/exchange`, a minute,
    /// this browser only) when the sign-in is finished; to `/login/failure` on any failure: no
    /// sign-in cookie or another browser's, an unknown, used or expired `state`, a refusal by the
    /// provider.
    #[oai(status = 302)]
    Redirect(
        /// `/login/success?token=…` or `/login/failure`.
        #[oai(header = "Location")]
        String,
        /// Always `no-store`.
        #[oai(header = "Cache-Control")]
        String,
        /// Always `no-referrer`: the landing's code never leaves in a `Referer`.
        #[oai(header = "Referrer-Policy")]
        String,
    ),
    /// A query that does not parse (`request.invalid`).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No sign-in provider is configured (`signin.unavailable`).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
}

fn return_bad_request(err: poem::Error) -> ReturnAnswer {
    ReturnAnswer::BadRequest(ErrorBody::from_poem(&err))
}

impl ReturnAnswer {
    fn to(location: &str) -> Self {
        Self::Redirect(location.to_owned(), NO_STORE.to_owned(), NO_REFERRER.to_owned())
    }

    fn failure() -> Self {
        Self::to(FAILURE)
    }
}

/// Where every failed sign-in lands.
const FAILURE: &str = "/login/failure";

/// `GET /api/google`
async fn start(ctx: &SignInContext, req: &Request) -> StartAnswer {
    let Some(sign_in) = &ctx.sign_in else { return StartAnswer::NotFound(unavailable()) };
    let client = super::auth::client_address(req);
    match super::limits::check(&ctx.throttle, marque_app::Action::SignInStart, &client).await {
        Ok(()) => {}
        Err(super::limits::Refusal::TooMany(body, secs)) => return StartAnswer::TooMany(body, secs),
        Err(super::limits::Refusal::Unavailable(_)) => return StartAnswer::failure(),
    }
    let started = match sign_in.provider.start(&sign_in.callback(req)).await {
        Ok(started) => started,
        Err(e) => {
            tracing::warn!(error = %e, "starting a sign-in failed");
            return StartAnswer::failure();
        }
    };
    if let Err(e) = ctx.accounts.keep_pending_sign_in(&started.pending).await {
        tracing::error!(error = %e, "keeping a started sign-in failed");
        return StartAnswer::failure();
    }
    let cookie = sign_in_cookie(
        &ctx.accounts.sign_in_browser(&started.pending.state),
        marque_app::AccountService::PENDING_SIGN_IN_SECS,
    );
    StartAnswer::to(&started.redirect_to, Some(cookie))
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

/// `GET /api/google/callback?state&code`
async fn callback(ctx: &SignInContext, req: &Request, state: &str, code: &str) -> ReturnAnswer {
    let Some(sign_in) = &ctx.sign_in else { return ReturnAnswer::NotFound(unavailable()) };
    let Some(browser) = sign_in_cookie_of(req).filter(|c| ctx.accounts.is_sign_in_browser(state, c)) else {
        tracing::info!("a sign-in returned to a browser that did not start it");
        return ReturnAnswer::failure();
    };
    let pending = match ctx.accounts.take_pending_sign_in(state).await {
        Ok(Some(pending)) => pending,
        Ok(None) => {
            tracing::info!("a sign-in returned with an unknown, used or expired state");
            return ReturnAnswer::failure();
        }
        Err(e) => {
            tracing::error!(error = %e, "taking a started sign-in failed");
            return ReturnAnswer::failure();
        }
    };
    let identity = match sign_in.provider.finish(&pending, &sign_in.callback(req), state, code).await {
        Ok(identity) => identity,
        Err(e) => {
            tracing::info!(error = %e, "a sign-in was refused");
            return ReturnAnswer::failure();
        }
    };
    match ctx.accounts.sign_in_external_code(&identity, &browser).await {
        Ok((code, _)) => {
            let query = serde_urlencoded::to_string([("token", code.expose())]).unwrap_or_default();
            ReturnAnswer::to(&format!("/login/success?{query}"))
        }
        Err(e) => {
            tracing::warn!(error = %e, "signing in an external identity failed");
            ReturnAnswer::failure()
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
        return Response::builder().status(StatusCode::BAD_REQUEST).content_type("application/json").body(
            serde_json::json!({"status": "failed", "message": "The return address is not this shop's."}).to_string(),
        );
    }
    let query =
        serde_urlencoded::to_string([("state", q.state.as_str()), ("code", q.email.as_str())]).unwrap_or_default();
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

/// `GET /api/google`, `GET /api/google/callback`, `POST /api/google/exchange`.
#[derive(Debug)]
pub struct SignInApi {
    ctx: SignInContext,
}

impl SignInApi {
    pub fn new(ctx: SignInContext) -> Self {
        Self { ctx }
    }
}

#[poem_openapi::OpenApi(tag = "Tag::Account")]
impl SignInApi {
    /// Starts a sign-in with Google (in `dev`, the local stand-in): keeps it under its `state`
    /// for ten minutes (any instance can finish it), gives the browser the sign-in cookie bound to
    /// that state, and redirects to the provider. A browser follows it; it is no call for a script.
    #[oai(path = "/google", method = "get", operation_id = "startGoogleSignIn")]
    async fn start(&self, req: &Request) -> StartAnswer {
        start(&self.ctx, req).await
    }

    /// Where the provider sends the browser back: only with the sign-in cookie of the browser
    /// that started the sign-in, the kept sign-in is taken (once) and finished, and the browser
    /// lands on `/login/success?token=…` (a one-time code), or on `/login/failure` on any failure.
    #[oai(path = "/google/callback", method = "get", operation_id = "finishGoogleSignIn")]
    async fn callback(
        &self,
        req: &Request,
        /// The sign-in's state, as the provider hands it back.
        state: ParamQuery<Option<String>>,
        /// The provider's authorization code.
        code: ParamQuery<Option<String>>,
    ) -> ReturnAnswer {
        callback(&self.ctx, req, state.0.as_deref().unwrap_or_default(), code.0.as_deref().unwrap_or_default()).await
    }

    /// Exchanges the one-time code of a third-party sign-in's landing (`/login/success?token=…`)
    /// for a session. Only the browser that started the sign-in (`GET /api/google`) can: its
    /// sign-in cookie must come with the call; the code works once, within a minute.
    #[oai(path = "/google/exchange", method = "post", operation_id = "exchangeSignInCode")]
    async fn exchange(&self, req: &Request, input: Json<ExchangeInput>) -> ExchangeResponse {
        let browser = sign_in_cookie_of(req).unwrap_or_default();
        match self.ctx.accounts.exchange_sign_in_code(&input.0.token, &browser).await {
            Ok((token, _)) => {
                ExchangeResponse::Ok(Json(ExchangeBody { token: token.expose().to_owned() }), sign_in_cookie("", 0))
            }
            Err(AccountError::Unavailable(reason)) => {
                tracing::error!(%reason, "accounts unavailable");
                ExchangeResponse::Unavailable(ErrorBody::from_message(Message::AccountUnavailable))
            }
            Err(_) => ExchangeResponse::Unauthorized(ErrorBody::from_message(Message::LoginRequired)),
        }
    }
}
