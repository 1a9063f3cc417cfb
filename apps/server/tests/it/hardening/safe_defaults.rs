//! Issue 19's "safe by default": `MARQUE_ENV=dev` never listens beyond loopback.

use std::process::Command;

#[test]
fn dev_refuses_to_listen_beyond_loopback() {
    let dir = tempfile::tempdir().expect("a directory");
    for addr in ["0.0.0.0:0", "[::]:0"] {
        let mut out = Command::new(env!("CARGO_BIN_EXE_marque-server"))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("MARQUE_DATA_DIR", dir.path())
            .env("MARQUE_ENV", "dev")
            .env("MARQUE_ADDR", addr)
            .env("MARQUE_DB", "mem://")
            .env("MARQUE_WEB_DIR", "/nonexistent-web-dir")
            .env("RUST_LOG", "warn")
            .arg("serve")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        // A binary that listened would serve on: stop it and fail, instead of waiting forever.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while out.try_wait().expect("waits").is_none() {
            if std::time::Instant::now() > deadline {
                out.kill().expect("killed");
                panic!("{addr}: `serve` in dev went on serving on a non-loopback address");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let out = out.wait_with_output().expect("its output");
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(!out.status.success(), "{addr}: {stdout}{stderr}");
        assert!(!stdout.contains("listening on"), "{addr}: {stdout}");
        assert!(stderr.contains("MARQUE_ENV=dev listens only on a loopback address"), "{addr}: {stderr}");
    }
}

/// A page with a signed-in customer's answers also holds text from its request (the query, the
/// canonical link): it is sent uncompressed, so its size tells nothing of the customer's data (BREACH).
/// The same page for a visitor is still compressed.
#[tokio::test]
async fn a_page_with_a_customers_data_is_never_compressed() {
    use crate::helpers::customers::customer;
    let shop = crate::helpers::spawn_shop().await;
    let (token, _) = customer(&shop, "asha@example.in", "9876500001").await;
    let page = |cookie: Option<String>| {
        let mut request = shop
            .client
            .get(format!("{}/orderhistory?page=1&guess=asha%40example.in", shop.base))
            .header("accept-encoding", "br, gzip, deflate");
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        async move {
            let resp = request.send().await.expect("answers");
            let encoding = resp.headers().get("content-encoding").map(|v| v.to_str().expect("ascii").to_owned());
            let cache = resp.headers().get("cache-control").map(|v| v.to_str().expect("ascii").to_owned());
            (resp.status().as_u16(), encoding, cache, resp.bytes().await.expect("a body"))
        }
    };
    let (status, encoding, cache, body) = page(Some(format!("marque_session={token}"))).await;
    assert_eq!((status, encoding, cache.as_deref()), (200, None, Some("private, no-store")));
    let html = String::from_utf8(body.to_vec()).expect("plain HTML");
    assert!(
        html.contains("marque-session-data") && html.contains("asha@example.in"),
        "the customer's answers are there"
    );

    let (status, encoding, cache, _) = page(None).await;
    assert_eq!(
        (status, encoding.as_deref(), cache.as_deref()),
        (200, Some("br"), Some("no-cache")),
        "a visitor's page is compressed"
    );
}
