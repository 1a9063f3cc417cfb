//! Products' photographs in the back office: add several, reorder, remove.
//!
//! Each upload is turned into variants by the [`PhotoEncoder`] (one decode at a time), the
//! variants go to the [`BlobStore`] under `products/{product}/{photo}-{width}.{webp|jpeg}` (served
//! as `/media/products/…`), and then the product's pictures are set with their audit entry in one
//! transaction ([`ProductPhotos::set_images`]). A failed save removes the blobs it wrote; a
//! removed photograph's blobs go after the commit (a failure to delete them only leaves unused
//! files behind, never a picture without its file).

use std::sync::Arc;

use marque_domain::catalog::{ImageFormat, ImageVariant, ProductId, ProductImage, MAX_PRODUCT_PHOTOS};
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::{Message, UserFacing};
use marque_ports::{
    Actor, AuditEntry, BlobStore, BlobStoreError, Clock, PhotoEncodeError, PhotoEncoder, ProductPhotos,
    ProductPhotosError,
};

/// Largest photograph file taken: 25 MB, a phone's largest with room to spare.
pub const MAX_PHOTO_FILE_BYTES: usize = 25 * 1024 * 1024;
/// Most photographs one upload may carry.
pub const MAX_PHOTOS_PER_UPLOAD: usize = MAX_PRODUCT_PHOTOS;
/// Where photographs are served; the storefront answers `{MEDIA_PREFIX}{product}/{file}`.
pub const MEDIA_PREFIX: &str = "/media/products/";
/// Where their blobs are kept.
const BLOB_PREFIX: &str = "products/";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhotosError {
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    #[error("no such product")]
    ProductNotFound,
    #[error("no such photograph")]
    PhotoNotFound,
    /// Not a JPEG, PNG or WebP picture, or one that does not decode.
    #[error("not a photograph: {0}")]
    Invalid(String),
    #[error("the photograph is too large: {0}")]
    TooLarge(String),
    /// No file, or more than a product may have.
    #[error("{0} photographs")]
    Count(usize),
    #[error("the new order does not list each photograph once")]
    OrderInvalid,
    #[error("photographs are unavailable: {0}")]
    Unavailable(String),
}

impl UserFacing for PhotosError {
    fn message(&self) -> Message {
        match self {
            PhotosError::Forbidden(f) => f.message(),
            PhotosError::ProductNotFound => Message::AdminProductNotFound,
            PhotosError::PhotoNotFound => Message::PhotoNotFound,
            PhotosError::Invalid(_) => Message::PhotoInvalid,
            PhotosError::TooLarge(_) => Message::PhotoTooLarge,
            PhotosError::Count(_) => Message::PhotoCount,
            PhotosError::OrderInvalid => Message::PhotoOrderInvalid,
            PhotosError::Unavailable(_) => Message::StaffUnavailable,
        }
    }
}

impl From<ProductPhotosError> for PhotosError {
    fn from(e: ProductPhotosError) -> Self {
        match e {
            ProductPhotosError::NotFound(_) => PhotosError::ProductNotFound,
            ProductPhotosError::Unavailable { reason } => PhotosError::Unavailable(reason),
        }
    }
}

impl From<PhotoEncodeError> for PhotosError {
    fn from(e: PhotoEncodeError) -> Self {
        match e {
            PhotoEncodeError::NotAnImage(why) => PhotosError::Invalid(why),
            PhotoEncodeError::TooLarge(why) => PhotosError::TooLarge(why),
            PhotoEncodeError::Unavailable(why) => PhotosError::Unavailable(why),
        }
    }
}

impl From<BlobStoreError> for PhotosError {
    fn from(e: BlobStoreError) -> Self {
        PhotosError::Unavailable(e.to_string())
    }
}

/// The back office's photograph calls.
#[derive(Clone)]
pub struct PhotosService {
    photos: Arc<dyn ProductPhotos>,
    encoder: Arc<dyn PhotoEncoder>,
    blobs: Arc<dyn BlobStore>,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for PhotosService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PhotosService").finish_non_exhaustive()
    }
}

impl PhotosService {
    #[must_use]
    pub fn new(
        photos: Arc<dyn ProductPhotos>,
        encoder: Arc<dyn PhotoEncoder>,
        blobs: Arc<dyn BlobStore>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { photos, encoder, blobs, clock }
    }

    async fn current(&self, product: &ProductId) -> Result<Vec<ProductImage>, PhotosError> {
        self.photos.images(product).await?.ok_or(PhotosError::ProductNotFound)
    }

    /// Saves `images` as the product's pictures with an audit entry of `action`.
    async fn save(
        &self,
        staff: &Staff,
        product: &ProductId,
        action: &str,
        before: &[ProductImage],
        images: &[ProductImage],
    ) -> Result<(), PhotosError> {
        let audit = AuditEntry::new(self.clock.now(), Actor::staff(staff), action, format!("product:{product}"))
            .with_values(Some(names_json(before)), Some(names_json(images)));
        self.photos.set_images(product, images, &audit).await?;
        Ok(())
    }

    /// Adds `uploads` (the files as sent, in order) after the product's pictures.
    ///
    /// # Errors
    /// `Forbidden` for a role without photographs; `Count` for no file or more than
    /// [`MAX_PRODUCT_PHOTOS`] in all; `ProductNotFound`; `TooLarge` / `Invalid` for a file that is
    /// not a photograph the shop takes (nothing of the upload is kept); `Unavailable`.
    pub async fn add(
        &self,
        staff: &Staff,
        product: &ProductId,
        uploads: Vec<Vec<u8>>,
    ) -> Result<Vec<ProductImage>, PhotosError> {
        staff.require(Area::Photos)?;
        if uploads.is_empty() || uploads.len() > MAX_PHOTOS_PER_UPLOAD {
            return Err(PhotosError::Count(uploads.len()));
        }
        if let Some(big) = uploads.iter().find(|u| u.len() > MAX_PHOTO_FILE_BYTES) {
            return Err(PhotosError::TooLarge(format!("{} bytes", big.len())));
        }
        let before = self.current(product).await?;
        if before.len() + uploads.len() > MAX_PRODUCT_PHOTOS {
            return Err(PhotosError::Count(before.len() + uploads.len()));
        }
        let mut written = Vec::new();
        let mut added = Vec::new();
        for upload in uploads {
            match self.store(product, upload, &mut written).await {
                Ok(image) => added.push(image),
                Err(e) => {
                    self.forget(&written).await;
                    return Err(e);
                }
            }
        }
        let mut images = before.clone();
        images.extend(added);
        if let Err(e) = self.save(staff, product, "photo.add", &before, &images).await {
            self.forget(&written).await;
            return Err(e);
        }
        Ok(images)
    }

    /// For an import's photograph worker (the job's role was checked when it was uploaded, and its
    /// one audit entry covers its photographs): encodes one photograph through the same pipeline as
    /// [`PhotosService::add`] and writes its variants, noting each key in `written`; the caller
    /// saves the picture with the job, or [`PhotosService::discard`]s the keys.
    ///
    /// # Errors
    /// `TooLarge` / `Invalid` for a file that is not a photograph the shop takes; `Unavailable`.
    pub async fn store_for_import(
        &self,
        product: &ProductId,
        upload: Vec<u8>,
        written: &mut Vec<String>,
    ) -> Result<ProductImage, PhotosError> {
        if upload.len() > MAX_PHOTO_FILE_BYTES {
            return Err(PhotosError::TooLarge(format!("{} bytes", upload.len())));
        }
        self.store(product, upload, written).await
    }

    /// Deletes the files an unsaved [`PhotosService::store_for_import`] wrote.
    pub async fn discard(&self, written: &[String]) {
        self.forget(written).await;
    }

    /// Encodes one upload and writes its variants, noting each key written in `written`.
    async fn store(
        &self,
        product: &ProductId,
        upload: Vec<u8>,
        written: &mut Vec<String>,
    ) -> Result<ProductImage, PhotosError> {
        let encoded = self.encoder.encode(upload).await?;
        let id = photo_id()?;
        let mut variants = Vec::with_capacity(encoded.variants.len());
        for variant in encoded.variants {
            let file = format!("{id}-{}.{}", variant.width, variant.format.code());
            let key = format!("{BLOB_PREFIX}{product}/{file}");
            self.blobs.put(&key, variant.bytes).await?;
            written.push(key);
            variants.push(ImageVariant {
                name: format!("{MEDIA_PREFIX}{product}/{file}"),
                width: variant.width,
                height: variant.height,
                format: variant.format,
            });
        }
        // The address every browser shows: the widest JPEG.
        let name = variants
            .iter()
            .filter(|v| v.format == ImageFormat::Jpeg)
            .max_by_key(|v| v.width)
            .map(|v| v.name.clone())
            .ok_or_else(|| PhotosError::Unavailable("the encoder gave no JPEG variant".into()))?;
        Ok(ProductImage { name, width: Some(encoded.width), height: Some(encoded.height), variants })
    }

    /// Deletes blobs, logging (not returning) failures: they only leave unused files behind.
    async fn forget(&self, keys: &[String]) {
        for key in keys {
            if let Err(e) = self.blobs.delete(key).await {
                tracing::warn!(key = %key, error = %e, "a photograph's file was not deleted");
            }
        }
    }

    /// Puts the product's pictures in the order of `names` (their addresses), which must list
    /// each of them exactly once.
    ///
    /// # Errors
    /// `Forbidden`; `ProductNotFound`; `OrderInvalid`; `Unavailable`.
    pub async fn reorder(
        &self,
        staff: &Staff,
        product: &ProductId,
        names: &[String],
    ) -> Result<Vec<ProductImage>, PhotosError> {
        staff.require(Area::Photos)?;
        let before = self.current(product).await?;
        if names.len() != before.len() {
            return Err(PhotosError::OrderInvalid);
        }
        let mut left = before.clone();
        let mut images = Vec::with_capacity(names.len());
        for name in names {
            let at = left.iter().position(|i| &i.name == name).ok_or(PhotosError::OrderInvalid)?;
            images.push(left.swap_remove(at));
        }
        self.save(staff, product, "photo.reorder", &before, &images).await?;
        Ok(images)
    }

    /// Removes the picture `photo` (its [`ProductImage::id`]); its files go after the change is saved.
    ///
    /// # Errors
    /// `Forbidden`; `ProductNotFound`; `PhotoNotFound`; `Unavailable`.
    pub async fn remove(
        &self,
        staff: &Staff,
        product: &ProductId,
        photo: &str,
    ) -> Result<Vec<ProductImage>, PhotosError> {
        staff.require(Area::Photos)?;
        let before = self.current(product).await?;
        let at = before.iter().position(|i| i.id() == photo).ok_or(PhotosError::PhotoNotFound)?;
        let mut images = before.clone();
        let removed = images.remove(at);
        self.save(staff, product, "photo.remove", &before, &images).await?;
        let own = format!("{MEDIA_PREFIX}{product}/");
        let keys: Vec<String> = removed
            .addresses()
            .into_iter()
            .filter_map(|a| a.strip_prefix(&own).map(|file| format!("{BLOB_PREFIX}{product}/{file}")))
            .collect();
        self.forget(&keys).await;
        Ok(images)
    }

    /// A stored photograph's file (`{product}/{file}` under [`MEDIA_PREFIX`]) and its format, or
    /// `None`; for serving.
    ///
    /// # Errors
    /// `Unavailable` when the blob store fails.
    pub async fn file(&self, product: &str, file: &str) -> Result<Option<(Vec<u8>, ImageFormat)>, PhotosError> {
        let Some(format) = file.rsplit_once('.').and_then(|(_, ext)| ImageFormat::parse(ext)) else {
            return Ok(None);
        };
        if product.contains('/') || file.contains('/') {
            return Ok(None);
        }
        match self.blobs.get(&format!("{BLOB_PREFIX}{product}/{file}")).await {
            Ok(bytes) => Ok(bytes.map(|b| (b, format))),
            Err(BlobStoreError::InvalidKey { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}

/// `{"images":[…addresses…]}`, what the audit trail keeps of a product's pictures.
fn names_json(images: &[ProductImage]) -> String {
    serde_json::json!({ "images": images.iter().map(|i| i.name.as_str()).collect::<Vec<_>>() }).to_string()
}

/// A fresh photograph id: 16 hexadecimal digits.
fn photo_id() -> Result<String, PhotosError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| PhotosError::Unavailable(format!("no randomness: {e}")))?;
    Ok(hex::encode(bytes))
}

#[cfg(test)]
mod tests;
