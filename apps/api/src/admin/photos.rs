//! `admin-photos`: a product's photographs. Upload several at once (multipart, each file a phone
//! photograph of up to 25 MB and 50 megapixels), put them in order, remove one. Every answer is
//! the product's pictures in their order, each with its `_id` (what `DELETE …/photos/{photoId}`
//! takes), its address (`name`), its size and its responsive variants.

use marque_app::admin::photos::{PhotosError, PhotosService, MAX_PHOTO_FILE_BYTES};
use marque_domain::catalog::{ProductId, ProductImage};
use marque_domain::{Message, UserFacing};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{Multipart, Object, OpenApi, Tags};

use super::auth::PhotosStaff;
use crate::error::ErrorBody;
use crate::model::{ImageRef, ImageVariantRef};

#[derive(Tags)]
enum PhotoTags {
    /// Back office: products' photographs (roles owner and catalog).
    #[oai(rename = "admin-photos")]
    AdminPhotos,
}

/// One of a product's pictures, as the back office sees it.
#[derive(Debug, Clone, Object)]
pub struct AdminPhoto {
    /// What names the picture in `DELETE /api/admin/products/{id}/photos/{photoId}`.
    #[oai(rename = "_id")]
    pub id: String,
    /// Its address, as the storefront's `images[].name`.
    pub name: String,
    #[oai(skip_serializing_if_is_none)]
    pub width: Option<u32>,
    #[oai(skip_serializing_if_is_none)]
    pub height: Option<u32>,
    /// Narrowest first, each width as WebP and as JPEG; empty for a picture with only an address.
    pub variants: Vec<ImageVariantRef>,
}

impl From<ProductImage> for AdminPhoto {
    fn from(image: ProductImage) -> Self {
        let id = image.id().to_owned();
        let r = ImageRef::from(image);
        AdminPhoto { id, name: r.name, width: r.width, height: r.height, variants: r.variants.unwrap_or_default() }
    }
}

/// A product's pictures, first one the main picture.
#[derive(Debug, Clone, Object)]
pub struct AdminPhotos {
    pub images: Vec<AdminPhoto>,
}

fn answer(images: Vec<ProductImage>) -> Json<AdminPhotos> {
    Json(AdminPhotos { images: images.into_iter().map(AdminPhoto::from).collect() })
}

/// `POST /api/admin/products/{id}/photos`: one or several photographs.
#[derive(Debug, Multipart)]
pub struct PhotoUpload {
    /// JPEG, PNG or WebP, each at most 25 MB and 50 megapixels; repeat the field for several.
    photos: Vec<Upload>,
}

/// `PUT /api/admin/products/{id}/photos/order`: every picture's address once, in the new order.
#[derive(Debug, Clone, Object)]
pub struct PhotoOrder {
    names: Vec<String>,
}

admin_response!(PhotosAdded, photos_added_bad_request, "photos_added_bad_request", {
    /// The photographs are stored; the product's pictures, the new ones last.
    Created(Json<AdminPhotos>) = 201,
    /// No product has this id (`admin.product_not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

admin_response!(PhotosAnswer, photos_bad_request, "photos_bad_request", {
    /// The product's pictures, in their order.
    Ok(Json<AdminPhotos>) = 200,
    /// No product has this id (`admin.product_not_found`), or no such photograph (`photo.not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

/// The answer for a refused call: its status and the rule's message.
macro_rules! refusal {
    ($answer:ident, $e:expr) => {{
        let e: PhotosError = $e;
        let body = ErrorBody::from_rule(&e);
        match e {
            PhotosError::Forbidden(_) => $answer::Forbidden(body),
            PhotosError::ProductNotFound | PhotosError::PhotoNotFound => $answer::NotFound(body),
            PhotosError::Unavailable(reason) => {
                tracing::error!(%reason, "a photograph call failed");
                $answer::Unavailable(ErrorBody::from_message(Message::StaffUnavailable))
            }
            PhotosError::Invalid(ref why) | PhotosError::TooLarge(ref why) => {
                tracing::info!(reason = %why, code = e.code(), "refused a photograph");
                $answer::BadRequest(body)
            }
            PhotosError::Count(_) | PhotosError::OrderInvalid => $answer::BadRequest(body),
        }
    }};
}

#[derive(Debug)]
pub struct PhotosApi {
    photos: PhotosService,
}

impl PhotosApi {
    #[must_use]
    pub fn new(photos: PhotosService) -> Self {
        Self { photos }
    }
}

#[OpenApi(prefix_path = "/admin/products", tag = "PhotoTags::AdminPhotos")]
impl PhotosApi {
    /// Adds one or several photographs after the product's pictures (at most 12 in all). Each is
    /// checked by its content (JPEG, PNG or WebP), refused above 50 megapixels from its header,
    /// decoded one at a time, scaled down to 320, 640, 1024 and 1600 pixels wide (never up) and
    /// stored as WebP and JPEG. A file refused keeps nothing of the upload.
    #[oai(path = "/:id/photos", method = "post", operation_id = "adminAddPhotos")]
    async fn add(&self, staff: PhotosStaff, id: Path<String>, form: PhotoUpload) -> PhotosAdded {
        let mut files = Vec::with_capacity(form.photos.len());
        for upload in form.photos {
            if upload.size() > MAX_PHOTO_FILE_BYTES {
                return refusal!(PhotosAdded, PhotosError::TooLarge(format!("{} bytes", upload.size())));
            }
            match upload.into_vec().await {
                Ok(bytes) => files.push(bytes),
                Err(e) => return refusal!(PhotosAdded, PhotosError::Invalid(e.to_string())),
            }
        }
        match self.photos.add(&staff, &ProductId(id.0), files).await {
            Ok(images) => PhotosAdded::Created(answer(images)),
            Err(e) => refusal!(PhotosAdded, e),
        }
    }

    /// Puts the product's pictures in a new order: `names` lists each picture's address once.
    #[oai(path = "/:id/photos/order", method = "put", operation_id = "adminReorderPhotos")]
    async fn reorder(&self, staff: PhotosStaff, id: Path<String>, body: Json<PhotoOrder>) -> PhotosAnswer {
        match self.photos.reorder(&staff, &ProductId(id.0), &body.0.names).await {
            Ok(images) => PhotosAnswer::Ok(answer(images)),
            Err(e) => refusal!(PhotosAnswer, e),
        }
    }

    /// Removes one picture; its stored files go once the change is saved.
    #[oai(path = "/:id/photos/:photoId", method = "delete", operation_id = "adminRemovePhoto")]
    async fn remove(
        &self,
        staff: PhotosStaff,
        id: Path<String>,
        #[oai(name = "photoId")] photo_id: Path<String>,
    ) -> PhotosAnswer {
        match self.photos.remove(&staff, &ProductId(id.0), &photo_id.0).await {
            Ok(images) => PhotosAnswer::Ok(answer(images)),
            Err(e) => refusal!(PhotosAnswer, e),
        }
    }
}
