//! The blob store: uploaded images (avatars now), shared by every app instance.

use async_trait::async_trait;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobStoreError {
    /// The key is not one the store accepts (see [`is_valid_key`]).
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
    /// Stores the file at `from` under `key`, read as it is sent (an import's zip of photographs,
    /// up to 1 GB, is never held in memory by the adapters that override this; the default reads
    /// it whole).
    ///
    /// # Errors
    /// As [`BlobStore::put`], and `Unavailable` when the file cannot be read.
    async fn put_file(&self, key: &str, from: &std::path::Path) -> Result<(), BlobStoreError> {
        let bytes = std::fs::read(from).map_err(|e| BlobStoreError::Unavailable { reason: e.to_string() })?;
        self.put(key, bytes).await
    }
    /// Writes the blob under `key` into the file at `to` (created or truncated), as it is read;
    /// `false` when there is no such blob.
    ///
    /// # Errors
    /// As [`BlobStore::get`], and `Unavailable` when the file cannot be written.
    async fn get_file(&self, key: &str, to: &std::path::Path) -> Result<bool, BlobStoreError> {
        let Some(bytes) = self.get(key).await? else { return Ok(false) };
        std::fs::write(to, bytes).map_err(|e| BlobStoreError::Unavailable { reason: e.to_string() })?;
        Ok(true)
    }
}

/// The key rule every adapter applies: not empty, no leading `/`, only `[A-Za-z0-9._/-]`, and it
/// names a file: no empty segment (so no trailing `/` or `//`), no `.` or `..` segment. Such a
/// key is a relative file path that stays inside a root, and an object name every S3-compatible
/// store takes as it is.
#[must_use]
pub fn is_valid_key(key: &str) -> bool {
    !key.is_empty()
        && !key.starts_with('/')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '-'))
        && key.split('/').all(|segment| !segment.is_empty() && segment != ".." && segment != ".")
}

#[cfg(test)]
mod tests {
    use super::is_valid_key;

    #[test]
    fn keys_are_relative_file_names_inside_a_root() {
        for good in ["a", "avatars/u1-x.png", "a/b/c.d_e-f", "..a", "a.."] {
            assert!(is_valid_key(good), "{good}");
        }
        for bad in ["", "/a", "..", "a/../b", "a//b", "a/", "./a", "a/.", "a b", "a\\b", "a~b", "é", "a?b", "a%2Fb"] {
            assert!(!is_valid_key(bad), "{bad}");
        }
    }
}
