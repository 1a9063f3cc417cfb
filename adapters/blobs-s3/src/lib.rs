//! [`BlobStore`] on an S3-compatible object store: `S3BlobStore`.
//!
//! A blob is the object `<key>` in one bucket, written with a single `PutObject` (atomic: a
//! reader gets the old object or the new one, never part of one), read with `GetObject`,
//! removed with `DeleteObjects`. Every instance configured with the same bucket sees the same
//! blobs. Keys follow the port's rule ([`is_valid_key`]) before any request is made.
//! `object_store` types stay in this crate: its errors become [`BlobStoreError::Unavailable`]
//! (a missing object is `None`, deleting one is not an error; a missing bucket is `Unavailable`).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use marque_ports::{is_valid_key, BlobStore, BlobStoreError};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path;
use object_store::{BackoffConfig, ClientOptions, ObjectStoreExt as _, PutPayload, RetryConfig};
use secrecy::{ExposeSecret as _, SecretString};

/// Where the bucket is and how to reach it. `Debug` leaves the secret key out.
#[derive(Debug, Clone)]
pub struct S3Settings {
    pub bucket: String,
    /// The bucket's region (`ap-south-1`); S3-compatible stores usually take any, e.g. `us-east-1`.
    pub region: String,
    /// An S3-compatible store's address (`http://127.0.0.1:9000`); `None` is AWS S3 itself.
    pub endpoint: Option<String>,
    pub access_key_id: String,
    pub secret_access_key: SecretString,
    /// Allows a plain `http://` endpoint (a local store); off, only HTTPS is spoken.
    pub allow_http: bool,
    /// `https://{bucket}.{endpoint}/{key}` instead of the default path style
    /// `https://{endpoint}/{bucket}/{key}`.
    pub virtual_hosted_style: bool,
    /// Longest a request may take (default 30 s) …
    pub request_timeout: Duration,
    /// … and all its retries together (default 10 s after the first attempt), so a store that is
    /// down makes callers wait seconds, not minutes.
    pub retry_timeout: Duration,
}

impl S3Settings {
    /// Settings with the default timeouts, path style, HTTPS only.
    #[must_use]
    pub fn new(
        bucket: impl Into<String>,
        region: impl Into<String>,
        access_key_id: impl Into<String>,
        secret_access_key: SecretString,
    ) -> Self {
        Self {
            bucket: bucket.into(),
            region: region.into(),
            endpoint: None,
            access_key_id: access_key_id.into(),
            secret_access_key,
            allow_http: false,
            virtual_hosted_style: false,
            request_timeout: Duration::from_secs(30),
            retry_timeout: Duration::from_secs(10),
        }
    }
}

/// Settings the object store client refused (an endpoint that is not a URL, …).
#[derive(Debug, thiserror::Error)]
#[error("the S3 settings are not usable: {0}")]
pub struct InvalidS3Settings(String);

/// Blobs as objects in one S3 bucket.
#[derive(Clone)]
pub struct S3BlobStore {
    store: AmazonS3,
    bucket: String,
    endpoint: Option<String>,
}

impl std::fmt::Debug for S3BlobStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3BlobStore")
            .field("bucket", &self.bucket)
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

impl S3BlobStore {
    /// A store on `settings.bucket`. Makes no request: a bucket that is missing or refuses
    /// the credentials shows on the first call, as [`BlobStoreError::Unavailable`].
    ///
    /// # Errors
    /// When the endpoint is not an `http(s)://` address, is `http://` without `allow_http`, or
    /// the client refuses the settings.
    pub fn new(settings: &S3Settings) -> Result<Self, InvalidS3Settings> {
        if let Some(endpoint) = &settings.endpoint {
            let host = endpoint.strip_prefix("https://").or_else(|| endpoint.strip_prefix("http://"));
            if host.is_none_or(|host| host.is_empty() || host.contains(char::is_whitespace)) {
                return Err(InvalidS3Settings(format!("the endpoint {endpoint:?} is not an http(s):// address")));
            }
            if endpoint.starts_with("http://") && !settings.allow_http {
                return Err(InvalidS3Settings(format!("{endpoint} is plain HTTP and allow_http is off")));
            }
        }
        let retry =
            RetryConfig { backoff: BackoffConfig::default(), max_retries: 3, retry_timeout: settings.retry_timeout };
        let client = ClientOptions::new()
            .with_allow_http(settings.allow_http)
            .with_timeout(settings.request_timeout)
            .with_connect_timeout(Duration::from_secs(5));
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(&settings.bucket)
            .with_region(&settings.region)
            .with_access_key_id(&settings.access_key_id)
            .with_secret_access_key(settings.secret_access_key.expose_secret())
            .with_virtual_hosted_style_request(settings.virtual_hosted_style)
            .with_allow_http(settings.allow_http)
            .with_client_options(client)
            .with_retry(retry);
        if let Some(endpoint) = &settings.endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        let store = builder.build().map_err(|e| InvalidS3Settings(e.to_string()))?;
        Ok(Self { store, bucket: settings.bucket.clone(), endpoint: settings.endpoint.clone() })
    }

    /// The bucket's name.
    #[must_use]
    pub fn bucket(&self) -> &str {
        &self.bucket
    }
}

/// The object path of a key, once it passes the port's rule.
fn path(key: &str) -> Result<Path, BlobStoreError> {
    let invalid = || BlobStoreError::InvalidKey { key: key.to_owned() };
    if !is_valid_key(key) {
        return Err(invalid());
    }
    Path::parse(key).map_err(|_| invalid())
}

fn unavailable(e: &object_store::Error) -> BlobStoreError {
    BlobStoreError::Unavailable { reason: e.to_string() }
}

/// A 404 is a missing object, unless S3 says the bucket itself is missing (`NoSuchBucket`,
/// the code AWS and the S3-compatible stores answer): that is a store misconfigured or
/// gone, and answering "no such picture" would hide it.
fn is_missing_object(e: &object_store::Error) -> bool {
    let object_store::Error::NotFound { source, .. } = e else { return false };
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(source.as_ref());
    while let Some(cause) = next {
        if cause.to_string().contains("NoSuchBucket") {
            return false;
        }
        next = cause.source();
    }
    true
}

#[async_trait]
impl BlobStore for S3BlobStore {
    async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), BlobStoreError> {
        let path = path(key)?;
        self.store.put(&path, PutPayload::from(bytes)).await.map(drop).map_err(|e| unavailable(&e))
    }

    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, BlobStoreError> {
        let path = path(key)?;
        let found = match self.store.get(&path).await {
            Ok(found) => found,
            Err(e) if is_missing_object(&e) => return Ok(None),
            Err(e) => return Err(unavailable(&e)),
        };
        found.bytes().await.map(Vec::from).map(Some).map_err(|e| unavailable(&e))
    }

    async fn put_file(&self, key: &str, from: &std::path::Path) -> Result<(), BlobStoreError> {
        use tokio::io::AsyncWriteExt as _;
        let path = path(key)?;
        let io = |e: std::io::Error| BlobStoreError::Unavailable { reason: e.to_string() };
        let mut file = tokio::fs::File::open(from).await.map_err(io)?;
        // A multipart upload in parts of a few megabytes: the file is never whole in memory.
        let store: Arc<dyn object_store::ObjectStore> = Arc::new(self.store.clone());
        let mut writer = object_store::buffered::BufWriter::new(store, path);
        if let Err(e) = tokio::io::copy(&mut file, &mut writer).await {
            let _ = writer.abort().await;
            return Err(io(e));
        }
        writer.shutdown().await.map_err(io)
    }

    async fn get_file(&self, key: &str, to: &std::path::Path) -> Result<bool, BlobStoreError> {
        use futures::StreamExt as _;
        use tokio::io::AsyncWriteExt as _;
        let path = path(key)?;
        let found = match self.store.get(&path).await {
            Ok(found) => found,
            Err(e) if is_missing_object(&e) => return Ok(false),
            Err(e) => return Err(unavailable(&e)),
        };
        let io = |e: std::io::Error| BlobStoreError::Unavailable { reason: e.to_string() };
        let mut file = tokio::fs::File::create(to).await.map_err(io)?;
        let mut parts = found.into_stream();
        while let Some(part) = parts.next().await {
            file.write_all(&part.map_err(|e| unavailable(&e))?).await.map_err(io)?;
        }
        file.flush().await.map_err(io)?;
        Ok(true)
    }

    async fn delete(&self, key: &str) -> Result<(), BlobStoreError> {
        let path = path(key)?;
        match self.store.delete(&path).await {
            Ok(()) => Ok(()),
            Err(e) if is_missing_object(&e) => Ok(()),
            Err(e) => Err(unavailable(&e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> S3Settings {
        S3Settings::new("pictures", "us-east-1", "AKIDEXAMPLE", SecretString::from("wJalrXUtnFEMI-secret-key"))
    }

    #[test]
    fn the_secret_key_stays_out_of_debug_output() {
        let mut settings = settings();
        settings.endpoint = Some("http://127.0.0.1:9000".into());
        settings.allow_http = true;
        let store = S3BlobStore::new(&settings).expect("valid settings");
        let printed = format!("{settings:?} {store:?}");
        assert!(!printed.contains("wJalrXUtnFEMI"), "{printed}");
        assert!(printed.contains("pictures") && printed.contains("127.0.0.1:9000"), "{printed}");
    }

    #[test]
    fn plain_http_needs_allow_http_and_the_endpoint_must_be_a_url() {
        let mut settings = settings();
        settings.endpoint = Some("http://127.0.0.1:9000".into());
        let refused = S3BlobStore::new(&settings).expect_err("plain HTTP refused");
        assert!(refused.to_string().contains("allow_http"), "{refused}");
        settings.allow_http = true;
        assert!(S3BlobStore::new(&settings).is_ok());
        settings.endpoint = Some("not a url".into());
        assert!(S3BlobStore::new(&settings).is_err(), "an endpoint that is not a URL");
    }

    #[test]
    fn keys_outside_the_rule_make_no_path() {
        assert_eq!(path("avatars/u1-a.png").map(|p| p.to_string()), Ok("avatars/u1-a.png".to_owned()));
        for bad in ["", "../x", "a//b", "a b"] {
            assert!(matches!(path(bad), Err(BlobStoreError::InvalidKey { .. })), "{bad}");
        }
    }
}
