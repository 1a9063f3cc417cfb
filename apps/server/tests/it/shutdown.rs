//! SIGTERM drains: the real binary finishes a request already in flight, refuses new
//! connections, closes its embedded database and exits 0.

use crate::helpers;

use std::time::Duration;

use helpers::customers::{customer, PASSWORD};
use helpers::process::start;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Reads from `stream` until `needle` has arrived (or the server closes it); what was read.
async fn read_until(stream: &mut TcpStream, needle: &str) -> String {
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains(needle) {
        let n = tokio::time::timeout(Duration::from_secs(30), stream.read(&mut buf))
            .await
            .expect("the server answers")
            .expect("reading");
        if n == 0 {
            break;
        }
        seen.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&seen).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_the_request_in_flight_then_exits_cleanly() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let env = [
        ("MARQUE_DATA_DIR", dir.path().join("data").display().to_string()),
        ("MARQUE_WEB_DIR", "/nonexistent-web-dir".to_owned()),
        ("MARQUE_SEED_PRODUCTS", "20".to_owned()),
    ];
    let mut server = start(&env, &dir.path().join("server.log"));
    // Started without it, the binary ran itself again with a few malloc arenas (main.rs), as the same process.
    let environ = std::fs::read(format!("/proc/{}/environ", server.child.id())).expect("the server's environment");
    let arenas = format!("MALLOC_ARENA_MAX={}", marque_server::memory::malloc_arenas());
    assert!(
        environ.split(|b| *b == 0).any(|v| v == arenas.as_bytes()),
        "{arenas} not in {}",
        String::from_utf8_lossy(&environ)
    );
    let shop = server.shop();
    customer(&shop, "drain@example.in", "9876505678").await;
    let addr = server.base.trim_start_matches("http://").to_owned();

    // A login whose body is still on its way: `Expect: 100-continue` makes the server say when
    // the handler has started reading it, so the request is in flight when the signal comes.
    let body = json!({ "email": "drain@example.in", "password": PASSWORD }).to_string();
    let (first, rest) = body.split_at(body.len() / 2);
    let mut stream = TcpStream::connect(&addr).await.expect("connect");
    let head = format!(
        "POST /api/login HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.expect("write the head");
    let interim = read_until(&mut stream, "\r\n\r\n").await;
    assert!(interim.starts_with("HTTP/1.1 100"), "the handler reads the body: {interim}");
    stream.write_all(first.as_bytes()).await.expect("write half the body");

    server.signal("TERM");
    // New connections are refused once the signal is handled (the listener is closed).
    let mut refused = false;
    for _ in 0..500 {
        if TcpStream::connect(&addr).await.is_err() {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(refused, "the server still accepts connections after SIGTERM; its log:\n{}", server.logs());

    stream.write_all(rest.as_bytes()).await.expect("write the rest of the body");
    let answer = read_until(&mut stream, "\"token\"").await;
    assert!(answer.starts_with("HTTP/1.1 200"), "the request in flight completes: {answer}");
    assert!(answer.contains("\"token\""), "{answer}");

    let status = server.wait_exit(Duration::from_secs(60)).expect("the server exits after SIGTERM");
    assert_eq!(status.code(), Some(0), "a clean exit; its log:\n{}", server.logs());
    let logs = server.logs();
    assert!(logs.contains("the database is closed"), "the embedded database closed before the exit:\n{logs}");
}
