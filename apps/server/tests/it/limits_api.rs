//! Black-box tests of the per-client limits (behind a trusted proxy and not), the deadlines for
//! slow clients, and the budget and deadline of catalog searches past the answer cache.

use crate::helpers;

use std::time::Duration;

use helpers::customers::{customer, form, read, PASSWORD};
use helpers::{spawn_with, TestShop};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A JSON POST as the client `forwarded` (sent as `X-Forwarded-For`).
async fn post_as(shop: &TestShop, forwarded: &str, path: &str, body: Value) -> (u16, Value, Option<u64>) {
    let resp = shop
        .client
        .post(format!("{}{path}", shop.base))
        .header("x-forwarded-for", forwarded)
        .json(&body)
        .send()
        .await
        .expect("an answer");
    let wait = retry_after(&resp);
    let (status, body) = read(resp).await;
    (status, body, wait)
}

fn retry_after(resp: &reqwest::Response) -> Option<u64> {
    resp.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok())
}

async fn get_as(shop: &TestShop, forwarded: &str, path: &str) -> (u16, Value, Option<u64>) {
    let resp = shop
        .client
        .get(format!("{}{path}", shop.base))
        .header("x-forwarded-for", forwarded)
        .send()
        .await
        .expect("an answer");
    let wait = retry_after(&resp);
    let (status, body) = read(resp).await;
    (status, body, wait)
}

fn bad_login() -> Value {
    json!({ "email": "asha@example.in", "password": "wrong1!xx" })
}

#[tokio::test]
async fn two_clients_behind_one_trusted_proxy_are_limited_apart() {
    let shop = spawn_with(|c| {
        c.limits.trusted_proxies = "127.0.0.0/8".into();
        c.limits.login_attempts_per_minute = 5;
    })
    .await;
    customer(&shop, "asha@example.in", "9876543210").await;
    let mut last = 0;
    // Until the first refusal: hammering on could cross the limit's minute and be let in again.
    for _ in 0..30 {
        last = post_as(&shop, "203.0.113.9", "/api/login", bad_login()).await.0;
        if last == 429 {
            break;
        }
    }
    assert_eq!(last, 429, "the hammering client is refused");
    // What the client wrote itself, left of what the proxy appended, changes nothing.
    let (status, _, wait) = post_as(&shop, "198.51.100.7, 203.0.113.9", "/api/login", bad_login()).await;
    assert_eq!(status, 429, "the right-most address is the client");
    // A sliding minute: the burst's hits still weigh in the next minute, so the wait may reach into it
    // (up to two minutes, `marque_domain::rate::Window::retry_after`).
    assert!(wait.is_some_and(|w| (1..=120).contains(&w)), "Retry-After {wait:?}");
    let (status, body, _) =
        post_as(&shop, "198.51.100.7", "/api/login", json!({ "email": "asha@example.in", "password": PASSWORD })).await;
    assert_eq!(status, 200, "another client behind the same proxy still logs in: {body}");
    // One IPv6 /64 is one client. Another customer's account, so that its own limit of wrong
    // passwords (10 in 15 minutes, from any address) does not answer for the client's.
    customer(&shop, "ravi@example.in", "9123456780").await;
    let bad_ravi = || json!({ "email": "ravi@example.in", "password": "wrong1!xx" });
    for n in 0..6 {
        last = post_as(&shop, &format!("2001:db8:7:7::{n:x}"), "/api/login", bad_ravi()).await.0;
    }
    assert_eq!(last, 429, "the sixth attempt from one /64");
    assert_eq!(
        post_as(&shop, "2001:db8:7:8::1", "/api/login", bad_ravi()).await.0,
        401,
        "the next /64 is another client"
    );
}

#[tokio::test]
async fn an_untrusted_peers_forwarded_for_is_ignored() {
    let shop = spawn_with(|c| c.limits.login_attempts_per_minute = 5).await;
    for n in 0..6 {
        post_as(&shop, &format!("203.0.113.{n}"), "/api/login", bad_login()).await;
    }
    let (status, body, _) = post_as(&shop, "198.51.100.7", "/api/login", bad_login()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("account.too_many_attempts")),
        "every address it names is one client: {body}"
    );
}

#[tokio::test]
async fn sign_ups_mobile_logins_and_resends_are_limited_per_client() {
    let shop = spawn_with(|c| {
        c.limits.trusted_proxies = "127.0.0.1".into();
        c.limits.signups_per_hour = 2;
        c.limits.code_requests_per_hour = 2;
    })
    .await;
    let sign_up = |n: u32, client: &'static str| {
        let shop = &shop;
        async move {
            let resp = shop
                .client
                .post(format!("{}/api/register", shop.base))
                .header("x-forwarded-for", client)
                .multipart(form("Asha", &format!("asha{n}@example.in"), &format!("98765432{n:02}")))
                .send()
                .await
                .expect("an answer");
            let wait = retry_after(&resp);
            (read(resp).await, wait)
        }
    };
    assert_eq!(sign_up(1, "203.0.113.9").await.0 .0, 200);
    assert_eq!(sign_up(2, "203.0.113.9").await.0 .0, 200);
    let ((status, body), wait) = sign_up(3, "203.0.113.9").await;
    assert_eq!(
        (status, body["status"].as_str(), body["code"].as_str()),
        (429, Some("failed"), Some("request.too_many")),
        "{body}"
    );
    assert!(wait.is_some_and(|w| w >= 1), "Retry-After {wait:?}");
    assert_eq!(sign_up(3, "198.51.100.7").await.0 .0, 200, "another client signs up");

    for path in ["/api/mobile/login", "/api/resendotp"] {
        for _ in 0..2 {
            let (status, body, _) = post_as(&shop, "192.0.2.1", path, json!({ "mobile": "9000000001" })).await;
            assert_eq!(status, 404, "{path}: an unknown number, counted: {body}");
        }
        let (status, body, wait) = post_as(&shop, "192.0.2.1", path, json!({ "mobile": "9000000001" })).await;
        assert_eq!((status, body["code"].as_str()), (429, Some("request.too_many")), "{path}: {body}");
        assert!(wait.is_some(), "{path}: Retry-After");
        assert_eq!(
            post_as(&shop, "192.0.2.2", path, json!({ "mobile": "9000000001" })).await.0,
            404,
            "{path}: another client"
        );
    }
}

/// Reads until the server closes the connection; `true` when it did (EOF or a reset) within `bound`.
async fn closed_by_server(stream: &mut TcpStream, bound: Duration) -> bool {
    let mut buf = [0u8; 4096];
    let closing = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(bound, closing).await.is_ok()
}

fn slow_shop(c: &mut marque_server::Flags) {
    c.limits.head_timeout_ms = 300;
    c.limits.idle_timeout_ms = 300;
    c.limits.body_timeout_ms = 300;
}

fn addr(shop: &TestShop) -> String {
    shop.base.trim_start_matches("http://").to_owned()
}

#[tokio::test]
async fn a_connection_that_never_finishes_its_request_head_is_closed() {
    let shop = spawn_with(slow_shop).await;
    let mut never = TcpStream::connect(addr(&shop)).await.expect("connects");
    never.write_all(b"GET /api/health/live HTTP/1.1\r\nHost: shop\r\n").await.expect("writes");
    assert!(closed_by_server(&mut never, Duration::from_secs(20)).await, "closed by the server");

    // A byte now and then does not keep a head alive.
    let mut trickle = TcpStream::connect(addr(&shop)).await.expect("connects");
    let mut closed = false;
    for byte in b"GET /api/health/live HTTP/1.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".iter() {
        if trickle.write_all(&[*byte]).await.is_err() {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(closed || closed_by_server(&mut trickle, Duration::from_secs(1)).await, "a trickled head is cut off");

    // A whole request is answered, and the connection then closes once idle.
    let mut kept = TcpStream::connect(addr(&shop)).await.expect("connects");
    kept.write_all(b"GET /api/health/live HTTP/1.1\r\nHost: shop\r\n\r\n").await.expect("writes");
    let mut buf = [0u8; 12];
    kept.read_exact(&mut buf).await.expect("an answer");
    assert_eq!(&buf, b"HTTP/1.1 200");
    assert!(closed_by_server(&mut kept, Duration::from_secs(20)).await, "an idle kept-alive connection is closed");
}

/// Sends `start` (a request's head and the beginning of its body, never finished) and checks the
/// answer is 408 `request.too_slow` and the connection closed.
async fn answered_too_slow(shop: &TestShop, start: &[u8]) {
    let mut slow = TcpStream::connect(addr(shop)).await.expect("connects");
    slow.write_all(start).await.expect("writes");
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), slow.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "answered and closed");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"request.too_slow\""), "{answer}");
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_is_answered_408() {
    let shop = spawn_with(slow_shop).await;
    answered_too_slow(
        &shop,
        b"POST /api/login HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":",
    )
    .await;
}

/// Large bodies (an import's zip, photographs) are copied to a temporary file as they arrive, not
/// held in memory: the same deadline and limit hold there.
#[tokio::test]
async fn a_large_body_path_keeps_its_deadline_and_its_limit() {
    let shop = spawn_with(slow_shop).await;
    // An import whose body stops arriving: 408 as for any other.
    answered_too_slow(
        &shop,
        b"POST /api/admin/imports HTTP/1.1\r\nHost: shop\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\n",
    )
    .await;

    // A return request's body sent in chunks (no length declared) past its limit (three photographs of
    // 10 MB and the form): 413, read no further than the limit.
    let shop = helpers::spawn_shop().await;
    let mut chunked = TcpStream::connect(addr(&shop)).await.expect("connects");
    chunked
        .write_all(b"POST /api/account/returns HTTP/1.1\r\nHost: shop\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n")
        .await
        .expect("writes");
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..40 {
        // The server may answer and stop reading before the last chunk: later writes may fail.
        if chunked.write_all(format!("{:x}\r\n", chunk.len()).as_bytes()).await.is_err()
            || chunked.write_all(&chunk).await.is_err()
            || chunked.write_all(b"\r\n").await.is_err()
        {
            break;
        }
    }
    let _ = chunked.write_all(b"0\r\n\r\n").await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), chunked.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"code\":\"request.too_large\""), "{answer}");
}

#[tokio::test]
async fn searches_past_the_cache_have_a_budget_per_client() {
    let shop = spawn_with(|c| {
        c.limits.trusted_proxies = "127.0.0.1".into();
        c.limits.catalog_misses_per_minute = 2;
    })
    .await;
    assert_eq!(get_as(&shop, "203.0.113.9", "/api/get/productBySearch?search=qzx1").await.0, 200);
    assert_eq!(get_as(&shop, "203.0.113.9", "/api/get/productByOem/qzx3").await.0, 200);
    let (status, body, wait) = get_as(&shop, "203.0.113.9", "/api/get/productBySearch?search=qzx4").await;
    assert_eq!(
        (status, body["status"].as_str(), body["code"].as_str()),
        (429, Some("failed"), Some("request.too_many")),
        "{body}"
    );
    assert!(wait.is_some_and(|w| (1..=30).contains(&w)), "Retry-After {wait:?}");
    let (status, _, _) = get_as(&shop, "203.0.113.9", "/api/get/product/brakes/brake-disc?page=7").await;
    assert_eq!(status, 429, "listings share the budget");
    assert_eq!(get_as(&shop, "198.51.100.7", "/api/get/productBySearch?search=qzx4").await.0, 200, "another client");
}

#[tokio::test]
async fn a_search_past_its_deadline_answers_503() {
    // No time at all: every query past the cache is past its deadline.
    let shop = spawn_with(|c| c.limits.catalog_deadline_ms = 0).await;
    let (status, body, _) =
        get_as(&shop, "203.0.113.9", "/api/get/productBySearch?search=brake%20disc%20pad%20sensor").await;
    assert_eq!(
        (status, body["status"].as_str(), body["code"].as_str()),
        (503, Some("failed"), Some("catalog.too_slow")),
        "{body}"
    );
}
