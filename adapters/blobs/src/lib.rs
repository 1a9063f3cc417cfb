//! [`BlobStore`] on a local directory: `LocalDiskBlobStore`.
//!
//! A blob is the file `<root>/<key>`; keys follow the port's rule ([`is_valid_key`]: `[A-Za-z0-9._/-]`,
//! no `..` segment, no leading `/`), so no key reaches outside the root. A write goes to a temporary
//! file beside the target and is renamed over it, so readers see the old blob or the new one,
//! never half of one. Several instances share blobs only when they share the directory (a
//! network file system); `marque-blobs-s3` (one S3 bucket) replaces this one for scale-out.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use marque_ports::{is_valid_key, BlobStore, BlobStoreError};

/// Blobs as files under one root directory.
#[derive(Debug)]
pub struct LocalDiskBlobStore {
    root: PathBuf,
    temp_counter: AtomicU64,
}

impl LocalDiskBlobStore {
    /// A store under `root` (created on the first write).
    #[must_use]
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into(), temp_counter: AtomicU64::new(0) }
    }

    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, key: &str) -> Result<PathBuf, BlobStoreError> {
        if is_valid_key(key) {
            Ok(self.root.join(key))
        } else {
            Err(BlobStoreError::InvalidKey { key: key.to_owned() })
        }
    }
}

impl LocalDiskBlobStore {
    /// Writes the blob of `key` with `write` into a temporary file beside it, then renames it into
    /// place: readers never see a half-written blob.
    async fn write_then_rename(
        &self,
        key: &str,
        write: impl AsyncFnOnce(&std::path::Path) -> std::io::Result<()>,
    ) -> Result<(), BlobStoreError> {
        let path = self.path(key)?;
        let dir = path.parent().unwrap_or(&self.root).to_owned();
        tokio::fs::create_dir_all(&dir).await.map_err(|e| unavailable(&e))?;
        let n = self.temp_counter.fetch_add(1, Ordering::Relaxed);
        // A name no key can have (keys have no `~`), unique in this process and among processes.
        let temp = dir.join(format!(
            ".~{}-{}-{n}",
            std::process::id(),
            path.file_name().and_then(|f| f.to_str()).unwrap_or("blob")
        ));
        if let Err(e) = write(&temp).await {
            let _ = tokio::fs::remove_file(&temp).await;
            return Err(unavailable(&e));
        }
        if let Err(e) = tokio::fs::rename(&temp, &path).await {
            let _ = tokio::fs::remove_file(&temp).await;
            return Err(unavailable(&e));
        }
        Ok(())
    }
}

fn unavailable(e: &std::io::Error) -> BlobStoreError {
    BlobStoreError::Unavailable { reason: e.to_string() }
}

#[async_trait]
impl BlobStore for LocalDiskBlobStore {
    async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), BlobStoreError> {
        self.write_then_rename(key, async |temp| tokio::fs::write(temp, &bytes).await).await
    }

    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, BlobStoreError> {
        let path = self.path(key)?;
        match tokio::fs::read(&path).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            // A directory where a file would be (`avatars` when `avatars/x` exists) is no blob.
            Err(_) if tokio::fs::metadata(&path).await.is_ok_and(|m| m.is_dir()) => Ok(None),
            Err(e) => Err(unavailable(&e)),
        }
    }

    async fn put_file(&self, key: &str, from: &std::path::Path) -> Result<(), BlobStoreError> {
        // Copied by the kernel, never whole in memory.
        self.write_then_rename(key, async |temp| tokio::fs::copy(from, temp).await.map(drop)).await
    }

    async fn get_file(&self, key: &str, to: &std::path::Path) -> Result<bool, BlobStoreError> {
        let path = self.path(key)?;
        match tokio::fs::copy(&path, to).await {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(_) if tokio::fs::metadata(&path).await.is_ok_and(|m| m.is_dir()) => Ok(false),
            Err(e) => Err(unavailable(&e)),
        }
    }

    async fn delete(&self, key: &str) -> Result<(), BlobStoreError> {
        let path = self.path(key)?;
        match tokio::fs::remove_file(&path).await {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(unavailable(&e)),
        }
    }
}
