//! Google sign-in through the `dev` stand-in, as a browser does it: the sign-in cookie that
//! `GET /api/google` sets goes with the provider's return and with the landing's exchange.

use serde_json::{json, Value};

use super::customers::read;
use super::{location, no_redirects, query_value, TestShop};

/// A started sign-in: its state and the browser's sign-in cookie (`name=value`).
#[derive(Debug, Clone)]
pub struct Started {
    pub state: String,
    pub cookie: String,
    /// The `Set-Cookie` line as sent.
    pub set_cookie: String,
}

/// `GET /api/google` on `shop`.
pub async fn start(shop: &TestShop) -> Started {
    let answer = no_redirects().get(format!("{}/api/google", shop.base)).send().await.expect("answer");
    let set_cookie = answer
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("__Host-marque_signin="))
        .expect("the sign-in cookie")
        .to_owned();
    let cookie = set_cookie.split(';').next().expect("name=value").to_owned();
    Started { state: query_value(&location(&answer), "state"), cookie, set_cookie }
}

/// The provider's return to `shop` for `email`, carrying `cookie` (or none): where it redirects.
pub async fn callback(shop: &TestShop, state: &str, email: &str, cookie: Option<&str>) -> String {
    let query = serde_urlencoded::to_string([("state", state), ("code", email)]).expect("query");
    let mut request = no_redirects().get(format!("{}/api/google/callback?{query}", shop.base));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    location(&request.send().await.expect("answer"))
}

/// The landing's `POST /api/google/exchange {token: code}`, carrying `cookie` (or none).
pub async fn exchange(shop: &TestShop, code: &str, cookie: Option<&str>) -> (u16, Value) {
    let mut request = shop.client.post(format!("{}/api/google/exchange", shop.base)).json(&json!({ "token": code }));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    read(request.send().await.expect("answer")).await
}

/// The one-time code of a successful return (`/login/success?token=…`).
pub fn landing_code(landing: &str) -> String {
    assert!(landing.starts_with("/login/success?token="), "{landing}");
    query_value(landing, "token")
}

/// A whole sign-in as `email`, started on `start_on` and returning to `back_to` (one browser):
/// the session token.
pub async fn sign_in(start_on: &TestShop, back_to: &TestShop, email: &str) -> String {
    let started = start(start_on).await;
    let code = landing_code(&callback(back_to, &started.state, email, Some(&started.cookie)).await);
    let (status, body) = exchange(back_to, &code, Some(&started.cookie)).await;
    assert_eq!(status, 200, "{body}");
    body["token"].as_str().expect("a session token").to_owned()
}
