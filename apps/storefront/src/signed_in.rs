//! A signed-in customer's first answers, written into the page like a visitor's (see `first_load`).
//!
//! The frontends keep the session's token in local storage and send it as `Authorization: Bearer` on every call;
//! they also set it in a first-party cookie ([`COOKIE`]) that only this module reads, to know who is opening a page.
//! The cookie is never a credential of the API: it is read here, for one page, and its token is then used as a
//! Bearer token by calls made in-process. A request from another site cannot make this page do anything (a GET of
//! a page changes nothing, and only the customer's own browser can read the page).
//!
//! The answers go in `<script id="marque-session-data" type="application/json">{ "for": tag, "answers": [...] }`,
//! where `tag` ([`token_tag`]) lets the page check that they were asked with the token it holds now: a page
//! whose session changed since (another tab signed out or in) ignores them.

use poem::http::header::{AUTHORIZATION, COOKIE as COOKIE_HEADER};
use poem::http::{HeaderMap, HeaderValue};
use poem::Request;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::first_load::{self, ApiCall, ApiEndpoint, Preload, PreloadKind};
use marque_api::CLIENT_VALIDATION_HEADER;

/// The cookie the frontends set beside the stored token (`@marque/session`'s `cookie.ts`).
pub const COOKIE: &str = "marque_session";

/// The longest token accepted from the cookie (the server's are 43 characters).
const MAX_TOKEN: usize = 128;

/// The session token the page request's cookie carries, if it looks like one (base64url characters only).
#[must_use]
pub fn cookie_token(req: &Request) -> Option<String> {
    req.headers()
        .get_all(COOKIE_HEADER)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|token| {
            !token.is_empty()
                && token.len() <= MAX_TOKEN
                && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// What the page publishes about the token its answers were asked with: the first 32 hex digits of
/// SHA-256(`marque-page:` + token). It is not the store's key for the session (SHA-256 of the token alone) and says
/// nothing usable about the token; the page computes the same from the token it holds and compares.
#[must_use]
pub fn token_tag(token: &str) -> String {
    let digest = Sha256::digest(format!("marque-page:{token}").as_bytes());
    hex::encode(&digest[..16])
}

/// The customer's calls a page makes first, after `GET /api/user`: the wishlist the session loads at start
/// (every page), and the page's own first call where it has one (the purchase history's page of orders). The same
/// paths and queries the frontends ask (`session.ts`, `get-order-history.ts`).
fn calls_after_user(page: &str, user_id: &str, query: &(dyn Fn(&str) -> Option<String> + Sync)) -> Vec<ApiCall> {
    let mut calls = vec![ApiCall::new("/get/wishlist/").with("user", user_id)];
    if page == "account/OrderHistory" {
        calls.push(
            ApiCall::new(format!("/get/orderhistory/{}", first_load::segment(user_id)))
                .with("page", first_load::page_number(query)),
        );
    }
    calls
}

/// What a signed-in customer's page gets: its answers as embedded JSON, and the pictures it paints first.
#[derive(Debug)]
pub struct SignedIn {
    pub data: String,
    pub preloads: Vec<Preload>,
}

/// How many wishlist pictures the wishlist page fetches at once: its first row of cards on a phone, whose first
/// picture is the page's largest paint there.
const FIRST_WISHLIST_PICTURES: usize = 2;

/// The wishlist page's first pictures, from the wishlist answer (`{ result: [{ image }] }`); none for other pages.
fn first_pictures(page: &str, answers: &[Value]) -> Vec<Preload> {
    if page != "account/Wishlist" {
        return Vec::new();
    }
    let wishlist = answers.iter().find(|a| a["path"] == "/api/get/wishlist/");
    let entries = wishlist.and_then(|a| a["body"]["result"].as_array()).map_or(&[][..], Vec::as_slice);
    let mut hrefs: Vec<&str> = Vec::new();
    for image in entries.iter().filter_map(|e| e["image"].as_str()).filter(|i| i.starts_with('/')) {
        if hrefs.len() < FIRST_WISHLIST_PICTURES && !hrefs.contains(&image) {
            hrefs.push(image);
        }
    }
    hrefs
        .into_iter()
        .map(|href| Preload { href: href.to_owned(), kind: PreloadKind::Image, responsive: None })
        .collect()
}

/// The customer's answers and first pictures for the customer whose session token is `token`, or `None` when the
/// token opens no session (expired, signed out, made up) or the API cannot answer now: the page then asks as it
/// would without it.
pub async fn embedded(
    api: &ApiEndpoint,
    token: &str,
    client_validation: Option<&str>,
    page: &str,
    query: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Option<SignedIn> {
    let mut headers = HeaderMap::new();
    headers.insert(AUTHORIZATION, HeaderValue::from_str(&format!("Bearer {token}")).ok()?);
    if let Some(value) = client_validation {
        headers.insert(CLIENT_VALIDATION_HEADER, HeaderValue::from_str(value).ok()?);
    }
    let user = first_load::answers_with(api, vec![ApiCall::new("/user")], &headers).await.into_iter().next()?;
    let user_id = user["body"]["user"]["_id"].as_str().filter(|id| !id.is_empty())?.to_owned();
    let mut answers = vec![user];
    answers.extend(first_load::answers_with(api, calls_after_user(page, &user_id, query), &headers).await);
    let preloads = first_pictures(page, &answers);
    Some(SignedIn { data: json!({ "for": token_tag(token), "answers": Value::Array(answers) }).to_string(), preloads })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(cookies: &[&str]) -> Request {
        let mut builder = Request::builder();
        for cookie in cookies {
            builder = builder.header("cookie", *cookie);
        }
        builder.finish()
    }

    #[test]
    fn the_token_is_read_from_its_cookie_only() {
        assert_eq!(cookie_token(&request(&["a=1; marque_session=Ab-_9z; b=2"])).as_deref(), Some("Ab-_9z"));
        assert_eq!(cookie_token(&request(&["a=1", "marque_session=tok"])).as_deref(), Some("tok"));
        assert_eq!(cookie_token(&request(&["marque_session_x=tok; x_marque_session=tok"])), None);
        assert_eq!(cookie_token(&request(&[])), None);
    }

    #[test]
    fn a_cookie_that_cannot_be_a_token_is_ignored() {
        for bad in [
            "marque_session=",
            "marque_session=a b",
            "marque_session=a%20b",
            "marque_session=x\"y",
            "marque_session=a.b",
        ] {
            assert_eq!(cookie_token(&request(&[bad])), None, "{bad}");
        }
        let long = format!("marque_session={}", "a".repeat(MAX_TOKEN + 1));
        assert_eq!(cookie_token(&request(&[&long])), None);
    }

    #[test]
    fn the_tag_is_a_hash_of_the_token_and_not_the_stores_key() {
        // The same as the browser's crypto.subtle.digest('SHA-256', 'marque-page:' + token), first 16 bytes in hex.
        assert_eq!(token_tag("abc"), hex::encode(&Sha256::digest(b"marque-page:abc")[..16]));
        assert_eq!(token_tag("abc").len(), 32);
        assert_ne!(token_tag("abc"), token_tag("abd"));
        assert!(!hex::encode(Sha256::digest(b"abc")).starts_with(&token_tag("abc")));
    }

    #[test]
    fn the_wishlist_page_fetches_its_first_row_of_pictures_at_once() {
        let entry = |image: &str| json!({ "_id": image, "image": image });
        let answers = [
            json!({ "path": "/api/user", "query": {}, "body": { "user": { "profile": "/media/avatars/u.png" } } }),
            json!({ "path": "/api/get/wishlist/", "query": {}, "body": { "result": [entry("/m/a.svg"), entry(""), entry("/m/a.svg"), entry("https://x.test/b.svg"), entry("/m/c.svg"), entry("/m/d.svg")] } }),
        ];
        let hrefs: Vec<(String, PreloadKind)> =
            first_pictures("account/Wishlist", &answers).into_iter().map(|p| (p.href, p.kind)).collect();
        assert_eq!(hrefs, [("/m/a.svg".to_owned(), PreloadKind::Image), ("/m/c.svg".to_owned(), PreloadKind::Image)]);
        assert!(first_pictures("account/OrderHistory", &answers).is_empty());
        assert!(first_pictures("account/Wishlist", &answers[..1]).is_empty());
    }

    #[test]
    fn every_page_asks_the_wishlist_and_the_purchase_history_its_page_of_orders() {
        let none = |_: &str| None;
        let paths = |page: &str, query: &(dyn Fn(&str) -> Option<String> + Sync)| {
            calls_after_user(page, "u 1", query).into_iter().map(|c| (c.path, c.query)).collect::<Vec<_>>()
        };
        let wishlist = ("/get/wishlist/".to_owned(), vec![("user".to_owned(), "u 1".to_owned())]);
        assert_eq!(paths("catalog/Home", &none), vec![wishlist.clone()]);
        assert_eq!(paths("account/Wishlist", &none), vec![wishlist.clone()]);
        let page = |key: &str| (key == "page").then(|| "3".to_owned());
        assert_eq!(
            paths("account/OrderHistory", &page),
            vec![wishlist, ("/get/orderhistory/u%201".to_owned(), vec![("page".to_owned(), "3".to_owned())]),]
        );
    }
}
