//! Profile pictures as uploaded: checked by content, decoded under limits, re-encoded.
//!
//! Only JPEG, PNG and WebP are taken, recognised by their magic bytes (not the name or the
//! declared type) and then really decoded, with the decoder's limits on width, height and
//! memory; at most [`MAX_AVATAR_BYTES`], checked before decoding, and at most [`MAX_PIXELS`],
//! read from the picture's header before decoding (a one-colour PNG of 8000 × 8000 is 200 KB
//! and would decode to 192 MB). Decoding runs on the blocking pool, [`DECODERS`] at once
//! ([`normalize_off_runtime`]). The picture is turned the
//! right way up (EXIF orientation), cropped to its centred square and scaled to
//! [`AVATAR_SIDE`] pixels, and written as a fresh PNG: EXIF and every other piece of
//! metadata stays behind.

use std::io::Cursor;
use std::sync::atomic::{AtomicU64, Ordering};

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use marque_app::Avatar;

/// Largest upload accepted: 5 MB.
pub const MAX_AVATAR_BYTES: usize = 5 * 1024 * 1024;
/// The stored picture is this many pixels square.
pub const AVATAR_SIDE: u32 = 256;
/// Largest width or height decoded.
const MAX_SIDE: u32 = 8_000;
/// Most pixels a picture may have (16 megapixels, a large phone photo), read from its header.
pub const MAX_PIXELS: u64 = 16_000_000;
/// Most memory one decode may allocate: a picture of [`MAX_PIXELS`] in 8-bit RGBA fits.
const MAX_ALLOC: u64 = 64 * 1024 * 1024;
/// Pictures decoded at once; the others wait their turn.
pub const DECODERS: usize = 2;

static DECODE_PERMITS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(DECODERS);
static DECODES: AtomicU64 = AtomicU64::new(0);

/// How many pictures this process has begun to decode (past their header), for tests that
/// show a refused picture never reaches the decoder.
#[must_use]
pub fn decodes_started() -> u64 {
    DECODES.load(Ordering::Relaxed)
}

/// [`normalize`] on the blocking pool, at most [`DECODERS`] at once, so decoding never holds an
/// async worker.
///
/// # Errors
/// As [`normalize`].
pub async fn normalize_off_runtime(bytes: Vec<u8>) -> Result<Avatar, NotAnAvatar> {
    let _permit = DECODE_PERMITS.acquire().await.map_err(|e| NotAnAvatar(e.to_string()))?;
    tokio::task::spawn_blocking(move || normalize(&bytes))
        .await
        .map_err(|e| NotAnAvatar(format!("the decoder stopped: {e}")))?
}

/// Not an image the shop takes (the caller answers `avatar.invalid`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnAvatar(pub String);

/// Checks and re-encodes an uploaded picture.
///
/// # Errors
/// [`NotAnAvatar`] for an empty or oversized upload, anything but JPEG, PNG or WebP by
/// content, a header that tells more than [`MAX_PIXELS`], or a picture that does not decode
/// within the limits.
pub fn normalize(bytes: &[u8]) -> Result<Avatar, NotAnAvatar> {
    if bytes.is_empty() || bytes.len() > MAX_AVATAR_BYTES {
        return Err(NotAnAvatar(format!("{} bytes", bytes.len())));
    }
    let format = match infer::get(bytes).map(|t| t.mime_type()) {
        Some("image/jpeg") => ImageFormat::Jpeg,
        Some("image/png") => ImageFormat::Png,
        Some("image/webp") => ImageFormat::WebP,
        other => return Err(NotAnAvatar(format!("content type {other:?}"))),
    };
    let limits = || {
        let mut limits = Limits::default();
        limits.max_image_width = Some(MAX_SIDE);
        limits.max_image_height = Some(MAX_SIDE);
        limits.max_alloc = Some(MAX_ALLOC);
        limits
    };
    // The header alone first: a picture too large is refused before anything is decoded.
    let mut header = ImageReader::with_format(Cursor::new(bytes), format);
    header.limits(limits());
    let (w, h) = header.into_dimensions().map_err(|e| NotAnAvatar(e.to_string()))?;
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(NotAnAvatar(format!("{w} × {h} pixels")));
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits());
    let mut decoder = reader.into_decoder().map_err(|e| NotAnAvatar(e.to_string()))?;
    let orientation = decoder.orientation().ok();
    DECODES.fetch_add(1, Ordering::Relaxed);
    let mut picture = DynamicImage::from_decoder(decoder).map_err(|e| NotAnAvatar(e.to_string()))?;
    if let Some(orientation) = orientation {
        picture.apply_orientation(orientation);
    }
    // One 8-bit RGBA copy (none when it is one already); the square is a view of it.
    let picture = picture.into_rgba8();
    let (w, h) = picture.dimensions();
    let side = w.min(h);
    if side == 0 {
        return Err(NotAnAvatar("an empty picture".to_owned()));
    }
    let square = image::imageops::crop_imm(&picture, (w - side) / 2, (h - side) / 2, side, side);
    let small = image::imageops::resize(&*square, AVATAR_SIDE, AVATAR_SIDE, image::imageops::FilterType::Triangle);
    drop(picture);
    let mut out = Vec::new();
    small.write_to(&mut Cursor::new(&mut out), ImageFormat::Png).map_err(|e| NotAnAvatar(e.to_string()))?;
    Ok(Avatar(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
        let mut out = Vec::new();
        img.write_to(&mut Cursor::new(&mut out), ImageFormat::Png).expect("encode");
        out
    }

    #[test]
    fn pictures_become_256_pixel_png_squares() {
        for (w, h) in [(640, 480), (100, 300), (256, 256)] {
            let avatar = normalize(&png(w, h)).expect("an image");
            let back = image::load_from_memory_with_format(&avatar.0, ImageFormat::Png).expect("PNG");
            assert_eq!((back.width(), back.height()), (AVATAR_SIDE, AVATAR_SIDE));
        }
        let mut jpeg = Vec::new();
        DynamicImage::new_rgb8(50, 40).write_to(&mut Cursor::new(&mut jpeg), ImageFormat::Jpeg).expect("jpeg");
        assert!(normalize(&jpeg).is_ok());
    }

    #[test]
    fn anything_else_is_refused() {
        assert!(normalize(b"").is_err());
        assert!(normalize(b"just some text pretending to be a picture").is_err());
        let mut broken = png(10, 10);
        broken.truncate(40);
        assert!(normalize(&broken).is_err(), "a PNG header alone is not a picture");
        assert!(normalize(&vec![0u8; MAX_AVATAR_BYTES + 1]).is_err());
        let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;";
        assert!(normalize(gif).is_err(), "GIF is not taken");
    }

    /// A 2 × 2 PNG whose header claims `w` × `h`: its data is far too short for that size.
    fn claimed(w: u32, h: u32) -> Vec<u8> {
        fn crc32(bytes: &[u8]) -> u32 {
            let mut crc = !0u32;
            for &b in bytes {
                crc ^= u32::from(b);
                for _ in 0..8 {
                    crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
                }
            }
            !crc
        }
        let mut bytes = png(2, 2);
        // Signature (8), IHDR length (4), "IHDR" (4), width, height, …, CRC of "IHDR" and its 13 bytes.
        bytes[16..20].copy_from_slice(&w.to_be_bytes());
        bytes[20..24].copy_from_slice(&h.to_be_bytes());
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        bytes
    }

    #[test]
    fn a_picture_above_16_megapixels_is_refused_by_its_header() {
        let refused = normalize(&claimed(4001, 4000)).expect_err("too many pixels");
        assert!(refused.0.contains("4001 × 4000"), "refused for its size, from the header: {refused:?}");
        let refused = normalize(&claimed(4000, 4000)).expect_err("data far too short");
        assert!(!refused.0.contains("pixels"), "16 megapixels pass the header check: {refused:?}");
    }
}
