//! The blob store: uploaded images (avatars now), shared by every app instance.

use async_trait::async_trait;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobStoreError {
    /// The key is not one the store accepts (empty, `..`, a leading `/`, characters outside
    /// `[A-Za-z0-9._/-]`).
    #[error("not a valid blob key: {key}")]
    InvalidKey { key: String },
    #[error("the blob store is unavailable: {reason}")]
    Unavailable { reason: String },
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait BlobStore: Send + Sync {
    /// Stores `bytes` under `key`, replacing any blob there; readers never see a half-written blob.
    ///
    /// # Errors
    /// [`BlobStoreError::InvalidKey`] for a key outside the rule; [`BlobStoreError::Unavailable`].
    async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), BlobStoreError>;
    /// The blob under `key`, or `None`.
    ///
    /// # Errors
    /// [`BlobStoreError::InvalidKey`] for a key outside the rule; [`BlobStoreError::Unavailable`].
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, BlobStoreError>;
    /// Removes the blob; removing a missing one is not an error.
    ///
    /// # Errors
    /// [`BlobStoreError::InvalidKey`]; [`BlobStoreError::Unavailable`].
    async fn delete(&self, key: &str) -> Result<(), BlobStoreError>;
}
