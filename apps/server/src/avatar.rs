//! Profile pictures as uploaded: checked by content, decoded under limits, re-encoded.
//!
//! Only JPEG, PNG and WebP are taken, recognised by their magic bytes (not the name or the
//! declared type) and then really decoded, with the decoder's limits on width, height and
//! memory; at most [`MAX_AVATAR_BYTES`], checked before decoding. The picture is turned the
//! right way up (EXIF orientation), cropped to its centred square and scaled to
//! [`AVATAR_SIDE`] pixels, and written as a fresh PNG: EXIF and every other piece of
//! metadata stays behind.

use std::io::Cursor;

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use marque_app::Avatar;

/// Largest upload accepted: 5 MB.
pub const MAX_AVATAR_BYTES: usize = 5 * 1024 * 1024;
/// The stored picture is this many pixels square.
pub const AVATAR_SIDE: u32 = 256;
/// Largest width or height decoded.
const MAX_SIDE: u32 = 8_000;

/// Not an image the shop takes (the caller answers `avatar.invalid`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnAvatar(pub String);

/// Checks and re-encodes an uploaded picture.
///
/// # Errors
/// [`NotAnAvatar`] for an empty or oversized upload, anything but JPEG, PNG or WebP by
/// content, or a picture that does not decode within the limits.
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
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(256 * 1024 * 1024);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(|e| NotAnAvatar(e.to_string()))?;
    let orientation = decoder.orientation().ok();
    let mut picture = DynamicImage::from_decoder(decoder).map_err(|e| NotAnAvatar(e.to_string()))?;
    if let Some(orientation) = orientation {
        picture.apply_orientation(orientation);
    }
    let (w, h) = (picture.width(), picture.height());
    let side = w.min(h);
    if side == 0 {
        return Err(NotAnAvatar("an empty picture".to_owned()));
    }
    let square = picture.crop_imm((w - side) / 2, (h - side) / 2, side, side);
    let small = square.resize_exact(AVATAR_SIDE, AVATAR_SIDE, image::imageops::FilterType::Triangle);
    let mut out = Vec::new();
    small.to_rgba8().write_to(&mut Cursor::new(&mut out), ImageFormat::Png).map_err(|e| NotAnAvatar(e.to_string()))?;
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
}
