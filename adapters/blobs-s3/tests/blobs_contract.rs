//! Every `BlobStore` suite on a real S3-compatible server: moto (`MARQUE_TEST_MOTO`, set by
//! `make test-rust`) started on a free port, one fresh bucket per suite, killed at the end.
//! Without the variable the tests print `SKIPPED: …` and check nothing.

use std::time::Duration;

use marque_blobs_s3::{S3BlobStore, S3Settings};
use marque_contract_tests::moto::Moto;
use marque_ports::{BlobStore, BlobStoreError};
use secrecy::SecretString;

fn settings(endpoint: String, bucket: &str) -> S3Settings {
    let mut settings = S3Settings::new(bucket, "us-east-1", "testing", SecretString::from("testing-secret"));
    settings.endpoint = Some(endpoint);
    settings.allow_http = true;
    settings
}

/// One moto for all suites (a Python server takes a second or two to start), each suite on a
/// bucket of its own, run one after another and named on stderr as they go.
#[tokio::test]
async fn every_blob_suite_on_moto() {
    let Some(moto) = Moto::start_or_skip("the BlobStore suites on S3 (marque-blobs-s3)") else { return };
    let mut ran = Vec::new();
    macro_rules! on_s3 {
        ($suite:ident) => {{
            let name = stringify!($suite);
            let bucket: String = name.replace('_', "-").chars().take(63).collect();
            moto.create_bucket(&bucket);
            let store = S3BlobStore::new(&settings(moto.endpoint(), &bucket)).expect("settings");
            eprintln!("suite {name} on s3://{bucket}");
            marque_contract_tests::blobs::$suite(&store).await;
            ran.push(name);
        }};
    }
    marque_contract_tests::for_each_blob_suite!(on_s3);
    assert!(ran.len() >= 7, "every suite ran: {ran:?}");
}

#[tokio::test]
async fn instances_on_the_same_bucket_see_each_others_blobs() {
    let Some(moto) = Moto::start_or_skip("sharing a bucket between two S3BlobStores") else { return };
    moto.create_bucket("shared");
    let one = S3BlobStore::new(&settings(moto.endpoint(), "shared")).expect("settings");
    let other = S3BlobStore::new(&settings(moto.endpoint(), "shared")).expect("settings");
    one.put("avatars/u1-a.png", vec![7; 1000]).await.expect("put through one");
    assert_eq!(other.get("avatars/u1-a.png").await, Ok(Some(vec![7; 1000])), "read through the other");
    other.delete("avatars/u1-a.png").await.expect("delete through the other");
    assert_eq!(one.get("avatars/u1-a.png").await, Ok(None));
}

fn unavailable<T>(result: &Result<T, BlobStoreError>) -> bool {
    matches!(result, Err(BlobStoreError::Unavailable { .. }))
}

#[tokio::test]
async fn a_missing_bucket_and_an_unreachable_store_are_unavailable_not_missing_blobs() {
    let Some(moto) = Moto::start_or_skip("S3 failures mapped to the port's errors") else { return };

    let no_bucket = S3BlobStore::new(&settings(moto.endpoint(), "never-created")).expect("settings");
    assert!(unavailable(&no_bucket.put("a.png", vec![1]).await), "put into a missing bucket");
    // A missing bucket is not a missing blob: `get` must not answer `None`.
    let read = no_bucket.get("a.png").await;
    assert!(unavailable(&read), "get from a missing bucket: {read:?}");
    let removed = no_bucket.delete("a.png").await;
    assert!(unavailable(&removed), "delete in a missing bucket: {removed:?}");

    let endpoint = moto.endpoint();
    drop(moto);
    let mut down = settings(endpoint, "shared");
    down.retry_timeout = Duration::from_millis(500);
    let gone = S3BlobStore::new(&down).expect("settings");
    assert!(unavailable(&gone.put("a.png", vec![1]).await), "put to a stopped server");
    assert!(unavailable(&gone.get("a.png").await), "get from a stopped server");
    assert!(unavailable(&gone.delete("a.png").await), "delete on a stopped server");
}
