//! Photographs: turning an uploaded picture into the stored variants a shopper's browser picks
//! from ([`PhotoEncoder`]), and setting a product's pictures with its audit entry
//! ([`ProductPhotos`]).

use async_trait::async_trait;
use marque_domain::catalog::{ImageFormat, ProductId, ProductImage};

use crate::AuditEntry;

/// One encoded rendition of an uploaded picture.
#[derive(Clone, PartialEq, Eq)]
pub struct EncodedVariant {
    pub width: u32,
    pub height: u32,
    pub format: ImageFormat,
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for EncodedVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EncodedVariant({} × {} {}, {} bytes)", self.width, self.height, self.format.code(), self.bytes.len())
    }
}

/// An uploaded picture, turned the right way up, as its variants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedPhoto {
    /// The picture's size, the right way up.
    pub width: u32,
    pub height: u32,
    /// Narrowest first, each width in every format; never wider than the picture.
    pub variants: Vec<EncodedVariant>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhotoEncodeError {
    /// Not a JPEG, PNG or WebP picture by its content, or a picture that does not decode.
    #[error("not a picture the shop takes: {0}")]
    NotAnImage(String),
    /// More bytes, or (from its header, before decoding) more pixels than the encoder takes.
    #[error("the picture is too large: {0}")]
    TooLarge(String),
    /// The encoder could not run (its worker stopped).
    #[error("the photograph encoder is unavailable: {0}")]
    Unavailable(String),
}

/// Turns an uploaded picture into stored variants.
///
/// # Contract
/// - JPEG, PNG and WebP are recognised by their content; anything else is `NotAnImage`.
/// - A picture whose header tells more pixels than the encoder's limit is `TooLarge` before it
///   is decoded.
/// - Variants are never wider than the picture; their height keeps its proportions.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait PhotoEncoder: Send + Sync {
    /// The variants of `bytes`.
    ///
    /// # Errors
    /// As the contract says.
    async fn encode(&self, bytes: Vec<u8>) -> Result<EncodedPhoto, PhotoEncodeError>;
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProductPhotosError {
    #[error("no product `{0}`")]
    NotFound(ProductId),
    #[error("the catalog store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// A product's pictures, as the back office changes them.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait ProductPhotos: Send + Sync {
    /// The product's pictures, or `None` when there is no such product.
    ///
    /// # Errors
    /// [`ProductPhotosError::Unavailable`].
    async fn images(&self, product: &ProductId) -> Result<Option<Vec<ProductImage>>, ProductPhotosError>;

    /// Replaces the product's pictures with `images` (in that order) and stores `audit`, in one
    /// transaction that also moves the catalog's version, so every cache forgets the product.
    ///
    /// # Errors
    /// [`ProductPhotosError::NotFound`] (nothing is written, not even the audit entry);
    /// [`ProductPhotosError::Unavailable`].
    async fn set_images(
        &self,
        product: &ProductId,
        images: &[ProductImage],
        audit: &AuditEntry,
    ) -> Result<(), ProductPhotosError>;
}

/// Why a photograph could not be fetched from its address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhotoFetchError {
    /// Not `https` (nor `http` for a host a test allows), or the host is, or resolves to, a
    /// private, loopback, link-local or unspecified address (or a redirect was answered).
    #[error("the address is refused: {0}")]
    Refused(String),
    /// No answer in time, an error status, a type that is not a picture, or above the size limit.
    #[error("the photograph could not be fetched: {0}")]
    Failed(String),
}

/// Fetches the photographs an import names by address, within size, type and time limits, and
/// never from an address inside the shop's own networks (server-side request forgery).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait PhotoFetcher: Send + Sync {
    /// Whether `url` may be fetched, from its text alone (scheme, a literal address, the test
    /// allowlist): a dry run reports what this refuses without fetching anything.
    ///
    /// # Errors
    /// [`PhotoFetchError::Refused`].
    fn precheck(&self, url: &str) -> Result<(), PhotoFetchError>;

    /// The picture's bytes: every address the host resolves to checked, the connection made to a
    /// checked one, no redirect followed.
    ///
    /// # Errors
    /// [`PhotoFetchError::Refused`], [`PhotoFetchError::Failed`].
    async fn fetch(&self, url: &str) -> Result<Vec<u8>, PhotoFetchError>;
}
