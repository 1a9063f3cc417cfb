//! [`PhotoEncoder`] for staff photographs: JPEG, PNG or WebP up to [`MAX_PIXELS`] (50
//! megapixels, today's phones) and [`MAX_PHOTO_BYTES`] a file, recognised by their content.
//!
//! - The header is read first: a picture that tells more than [`MAX_PIXELS`] is refused before
//!   anything is decoded (a one-colour PNG of 10000 × 10000 is a few hundred kilobytes).
//! - Decoding runs on the blocking pool, ONE picture at a time per encoder (a semaphore), with
//!   the decoder's memory limit ([`MAX_DECODE_BYTES`]) that fits a 50-megapixel picture in 8-bit
//!   RGBA; whatever needs more (a 16-bit PNG that large) is refused as too large.
//! - The picture is scaled down to each of [`WIDTHS`] narrower than it (never up; a picture
//!   narrower than the widest width also keeps its own width), turned the right way up (EXIF
//!   orientation, applied to the small copies, so it costs nothing on the big one) and written
//!   as lossy WebP (libwebp, quality [`WEBP_QUALITY`]) and baseline JPEG (quality
//!   [`JPEG_QUALITY`]); metadata stays behind. See docs/adr/0016-photographs.md.

pub mod fetch;

use std::io::Cursor;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageReader, Limits, RgbImage};
use marque_domain::catalog::ImageFormat;
use marque_ports::{EncodedPhoto, EncodedVariant, PhotoEncodeError, PhotoEncoder};

/// Largest file accepted: 25 MB, a phone's largest photograph with room to spare.
pub const MAX_PHOTO_BYTES: usize = 25 * 1024 * 1024;
/// Most pixels a photograph may have, read from its header: 50 megapixels.
pub const MAX_PIXELS: u64 = 50_000_000;
/// Largest width or height decoded (a panorama may be long and narrow).
const MAX_SIDE: u32 = 20_000;
/// Most memory one decode may allocate: a 50-megapixel picture in 8-bit RGBA, and a little.
pub const MAX_DECODE_BYTES: u64 = 4 * MAX_PIXELS + 16 * 1024 * 1024;
/// The widths stored, narrowest first.
pub const WIDTHS: [u32; 4] = [320, 640, 1024, 1600];
/// libwebp's quality factor (0–100) for the WebP variants.
pub const WEBP_QUALITY: f32 = 78.0;
/// The JPEG variants' quality (1–100).
pub const JPEG_QUALITY: u8 = 82;

/// Turns uploads into variants, one decode at a time.
#[derive(Debug, Clone)]
pub struct ImagePhotoEncoder {
    permits: Arc<tokio::sync::Semaphore>,
    decodes: Arc<AtomicU64>,
}

impl Default for ImagePhotoEncoder {
    fn default() -> Self {
        Self::new()
    }
}

impl ImagePhotoEncoder {
    #[must_use]
    pub fn new() -> Self {
        Self { permits: Arc::new(tokio::sync::Semaphore::new(1)), decodes: Arc::new(AtomicU64::new(0)) }
    }

    /// How many pictures this encoder has begun to decode (past their header), for tests that
    /// show a refused picture never reaches the decoder.
    #[must_use]
    pub fn decodes_started(&self) -> u64 {
        self.decodes.load(Ordering::Relaxed)
    }
}

#[async_trait]
impl PhotoEncoder for ImagePhotoEncoder {
    async fn encode(&self, bytes: Vec<u8>) -> Result<EncodedPhoto, PhotoEncodeError> {
        // Cheap refusals first, without waiting for the decoder's turn.
        let format = check(&bytes)?;
        let _permit = self.permits.acquire().await.map_err(|e| PhotoEncodeError::Unavailable(e.to_string()))?;
        let decodes = self.decodes.clone();
        tokio::task::spawn_blocking(move || encode(&bytes, format, &decodes))
            .await
            .map_err(|e| PhotoEncodeError::Unavailable(format!("the encoder stopped: {e}")))?
    }
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    limits
}

fn not_an_image(e: impl std::fmt::Display) -> PhotoEncodeError {
    PhotoEncodeError::NotAnImage(e.to_string())
}

/// A decoder's error: its limits are "too large", anything else "not an image".
fn decode_error(e: image::ImageError) -> PhotoEncodeError {
    match e {
        image::ImageError::Limits(limit) => PhotoEncodeError::TooLarge(limit.to_string()),
        other => not_an_image(other),
    }
}

/// The upload's format by its content, and its size checked: before anything is decoded.
fn check(bytes: &[u8]) -> Result<image::ImageFormat, PhotoEncodeError> {
    if bytes.len() > MAX_PHOTO_BYTES {
        return Err(PhotoEncodeError::TooLarge(format!("{} bytes, at most {MAX_PHOTO_BYTES}", bytes.len())));
    }
    let format = match image::guess_format(bytes) {
        Ok(f @ (image::ImageFormat::Jpeg | image::ImageFormat::Png | image::ImageFormat::WebP)) => f,
        Ok(other) => return Err(not_an_image(format!("{other:?} is not taken: JPEG, PNG or WebP"))),
        Err(_) => return Err(not_an_image("not a JPEG, PNG or WebP picture")),
    };
    let mut header = ImageReader::with_format(Cursor::new(bytes), format);
    header.limits(limits());
    let (w, h) = header.into_dimensions().map_err(decode_error)?;
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(PhotoEncodeError::TooLarge(format!("{w} × {h} pixels, at most 50 megapixels")));
    }
    if w == 0 || h == 0 {
        return Err(not_an_image("an empty picture"));
    }
    Ok(format)
}

/// The widths to store for a picture `width` pixels wide: each of [`WIDTHS`] it is at least as
/// wide as, and its own width when it is narrower than the widest.
#[must_use]
pub fn widths_for(width: u32) -> Vec<u32> {
    let mut widths: Vec<u32> = WIDTHS.iter().copied().filter(|&w| w <= width).collect();
    if width < WIDTHS[WIDTHS.len() - 1] && !widths.contains(&width) {
        widths.push(width);
    }
    widths
}

fn encode(bytes: &[u8], format: image::ImageFormat, decodes: &AtomicU64) -> Result<EncodedPhoto, PhotoEncodeError> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits());
    let mut decoder = reader.into_decoder().map_err(decode_error)?;
    let orientation = decoder.orientation().unwrap_or(image::metadata::Orientation::NoTransforms);
    decodes.fetch_add(1, Ordering::Relaxed);
    let picture = DynamicImage::from_decoder(decoder).map_err(decode_error)?;
    let (stored_w, stored_h) = (picture.width(), picture.height());
    // The picture's size the right way up: a quarter turn swaps its sides.
    let turned = matches!(
        orientation,
        image::metadata::Orientation::Rotate90
            | image::metadata::Orientation::Rotate270
            | image::metadata::Orientation::Rotate90FlipH
            | image::metadata::Orientation::Rotate270FlipH
    );
    let (width, height) = if turned { (stored_h, stored_w) } else { (stored_w, stored_h) };

    let mut variants = Vec::new();
    // Widest first: each smaller copy is made from the one before, which is quick and sharp enough.
    let mut source = picture;
    for &target in widths_for(width).iter().rev() {
        let target_h = scaled(height, target, width);
        let (w, h) = if turned { (target_h, target) } else { (target, target_h) };
        let mut small = if (w, h) == (source.width(), source.height()) {
            source.clone()
        } else {
            source.resize_exact(w, h, FilterType::Triangle)
        };
        source = small.clone();
        small.apply_orientation(orientation);
        let rgb = small.into_rgb8();
        variants.push(EncodedVariant {
            width: rgb.width(),
            height: rgb.height(),
            format: ImageFormat::Webp,
            bytes: webp(&rgb),
        });
        variants.push(EncodedVariant {
            width: rgb.width(),
            height: rgb.height(),
            format: ImageFormat::Jpeg,
            bytes: jpeg(&rgb)?,
        });
    }
    variants.sort_by_key(|v| (v.width, v.format.code()));
    Ok(EncodedPhoto { width, height, variants })
}

/// `side` scaled by `to / from`, rounded, at least 1.
fn scaled(side: u32, to: u32, from: u32) -> u32 {
    let exact = (u64::from(side) * u64::from(to) + u64::from(from) / 2) / u64::from(from.max(1));
    u32::try_from(exact.max(1)).unwrap_or(u32::MAX)
}

fn webp(rgb: &RgbImage) -> Vec<u8> {
    webp::Encoder::from_rgb(rgb.as_raw(), rgb.width(), rgb.height()).encode(WEBP_QUALITY).to_vec()
}

fn jpeg(rgb: &RgbImage) -> Result<Vec<u8>, PhotoEncodeError> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
        .encode_image(rgb)
        .map_err(|e| PhotoEncodeError::Unavailable(format!("JPEG encoding: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod tests;
