//! Razorpay's official Node SDK (npm `razorpay`, pinned in `tools/razorpay-sdk`) against the sandbox
//! served on a free port: orders, payments, an order's payments, captures, refunds (full and
//! partial, fetched and listed), and the SDK's webhook signature check on every webhook the
//! sandbox signed. The script is `tools/razorpay-sdk/drive.mjs`.
//!
//! Ignored by a plain `cargo test`: it needs `node` and `npm ci` in `tools/razorpay-sdk`, which
//! `make test` runs before the Rust tests (with `--include-ignored`).

use crate::common;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::{served_sandbox, KEY_ID, KEY_SECRET, WEBHOOK_SECRET};
use marque_razorpay::protocol::{NewOrderBody, RefundBody};
use marque_razorpay_sandbox::{Outcome, PayAnswer, RefundOutcome};
use serde_json::{json, Value};

fn tool_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/razorpay-sdk")
}

fn node(args: &[&str], env: &[(&str, &str)], stdin: Option<String>) -> Output {
    let dir = tool_dir();
    assert!(
        dir.join("node_modules/razorpay/package.json").is_file(),
        "Razorpay's SDK is not installed: run `npm ci` in {} (make test does)",
        dir.display()
    );
    let mut command = Command::new("node");
    command
        .current_dir(&dir)
        .arg("drive.mjs")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("node runs");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.unwrap_or_default().as_bytes()).expect("the script reads its input");
    drop(input);
    child.wait_with_output().expect("the script ends")
}

fn summary(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "the SDK script failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("a JSON summary ({e}): {stdout}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs node and `npm ci` in tools/razorpay-sdk; make test runs it"]
async fn razorpays_node_sdk_drives_the_sandbox() {
    let (sandbox, served, _gateway) = served_sandbox(None).await;
    let base = served.base.clone();
    let driven = tokio::task::spawn_blocking(move || {
        node(&[], &[("SANDBOX_URL", &base), ("KEY_ID", KEY_ID), ("KEY_SECRET", KEY_SECRET)], None)
    })
    .await
    .expect("the script ran");
    let driven = summary(&driven);
    assert_eq!(driven["refunds"].as_array().map(Vec::len), Some(3), "{driven}");

    // And a refund the bank fails, for its refund.failed.
    let order = sandbox.create_order(&NewOrderBody {
        amount: 7_000,
        currency: "INR".to_owned(),
        receipt: "r".to_owned(),
        payment_capture: None,
    });
    let PayAnswer::Paid(paid) = sandbox.pay(&order.expect("an order").id, Outcome::Success).expect("paid") else {
        panic!("paid")
    };
    sandbox.set_refund_outcome(RefundOutcome::Failed);
    let body = RefundBody { amount: Some(7_000), speed: None, receipt: None, notes: None };
    assert_eq!(sandbox.refund(&paid.razorpay_payment_id, &body, None).expect("a refund").status, "failed");

    // Every webhook the SDK's calls caused, as the sandbox signed it, through validateWebhookSignature.
    let events = sandbox.webhook_events();
    let signed: Vec<Value> = events.iter().map(|e| json!({ "body": e.body, "signature": e.signature })).collect();
    let checked = tokio::task::spawn_blocking(move || {
        node(&["webhooks"], &[("WEBHOOK_SECRET", WEBHOOK_SECRET)], Some(Value::from(signed).to_string()))
    })
    .await
    .expect("the script ran");
    let checked = summary(&checked);
    assert_eq!(checked["checked"].as_u64(), Some(events.len() as u64));
    let names: Vec<&str> = checked["events"].as_array().expect("names").iter().filter_map(Value::as_str).collect();
    let needed = [
        "payment.authorized",
        "payment.captured",
        "order.paid",
        "payment.failed",
        "refund.created",
        "refund.processed",
        "refund.failed",
    ];
    for needed in needed {
        assert!(names.contains(&needed), "no {needed} among {names:?}");
    }
}
