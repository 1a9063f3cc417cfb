use super::*;

fn png(w: u32, h: u32) -> Vec<u8> {
    let img = RgbImage::from_fn(w, h, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png).expect("encode a PNG");
    out
}

fn jpeg_of(w: u32, h: u32) -> Vec<u8> {
    let img = RgbImage::from_fn(w, h, |x, y| image::Rgb([(x / 7 % 256) as u8, (y / 5 % 256) as u8, 120]));
    jpeg(&img).expect("encode a JPEG")
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

#[tokio::test]
async fn a_50_megapixel_header_passes_and_60_megapixels_are_refused_before_decoding() {
    let encoder = ImagePhotoEncoder::new();
    let refused = encoder.encode(claimed(10_000, 6_000)).await.expect_err("60 megapixels");
    assert!(
        matches!(&refused, PhotoEncodeError::TooLarge(why) if why.contains("10000 × 6000")),
        "refused for its size, from the header: {refused:?}"
    );
    assert_eq!(encoder.decodes_started(), 0, "a picture refused by its header never reaches the decoder");

    // 50 megapixels pass the header check (and then fail: the data is far too short).
    let refused = encoder.encode(claimed(10_000, 5_000)).await.expect_err("data far too short");
    assert!(matches!(refused, PhotoEncodeError::NotAnImage(_)), "not refused for its size: {refused:?}");
    assert_eq!(encoder.decodes_started(), 1, "a 50-megapixel header goes on to the decoder");
}

#[test]
fn a_50_megapixel_picture_fits_the_decoders_memory_limit() {
    const { assert!(MAX_DECODE_BYTES >= 4 * 10_000 * 5_000, "8-bit RGBA of 50 megapixels") };
    assert!(check(&claimed(7_000, 7_000)).is_ok(), "49 megapixels, square");
    assert!(check(&claimed(20_000, 2_500)).is_ok(), "a 50-megapixel panorama");
}

#[tokio::test]
async fn a_corrupt_or_foreign_file_is_refused_with_a_clear_error() {
    let encoder = ImagePhotoEncoder::new();
    let mut broken = jpeg_of(64, 48);
    broken.truncate(broken.len() / 3);
    let e = encoder.encode(broken).await.expect_err("a third of a JPEG");
    assert!(matches!(e, PhotoEncodeError::NotAnImage(_)), "{e:?}");
    let e = encoder.encode(b"%PDF-1.7 not a photograph".to_vec()).await.expect_err("a PDF");
    assert!(matches!(&e, PhotoEncodeError::NotAnImage(why) if why.contains("JPEG, PNG or WebP")), "{e:?}");
    let e = encoder.encode(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec()).await.expect_err("a GIF");
    assert!(matches!(&e, PhotoEncodeError::NotAnImage(why) if why.contains("Gif")), "{e:?}");
    let e = encoder.encode(Vec::new()).await.expect_err("nothing");
    assert!(matches!(e, PhotoEncodeError::NotAnImage(_)), "{e:?}");
    let e = encoder.encode(vec![0xFF; MAX_PHOTO_BYTES + 1]).await.expect_err("over 25 MB");
    assert!(matches!(e, PhotoEncodeError::TooLarge(_)), "{e:?}");
}

#[test]
fn widths_never_exceed_the_picture() {
    assert_eq!(widths_for(4000), vec![320, 640, 1024, 1600]);
    assert_eq!(widths_for(1600), vec![320, 640, 1024, 1600]);
    assert_eq!(widths_for(800), vec![320, 640, 800]);
    assert_eq!(widths_for(640), vec![320, 640]);
    assert_eq!(widths_for(200), vec![200]);
}

fn decoded(v: &EncodedVariant) -> DynamicImage {
    let format = match v.format {
        ImageFormat::Webp => image::ImageFormat::WebP,
        ImageFormat::Jpeg => image::ImageFormat::Jpeg,
    };
    image::load_from_memory_with_format(&v.bytes, format).expect("a variant decodes as its format")
}

#[tokio::test]
async fn a_photograph_becomes_webp_and_jpeg_at_each_width_with_its_proportions() {
    let encoder = ImagePhotoEncoder::new();
    let photo = encoder.encode(jpeg_of(2000, 1500)).await.expect("a JPEG photograph");
    assert_eq!((photo.width, photo.height), (2000, 1500));
    let sizes: Vec<(u32, u32, ImageFormat)> = photo.variants.iter().map(|v| (v.width, v.height, v.format)).collect();
    let mut expected = Vec::new();
    for (w, h) in [(320, 240), (640, 480), (1024, 768), (1600, 1200)] {
        expected.push((w, h, ImageFormat::Jpeg));
        expected.push((w, h, ImageFormat::Webp));
    }
    assert_eq!(sizes, expected);
    for v in &photo.variants {
        let back = decoded(v);
        assert_eq!((back.width(), back.height()), (v.width, v.height), "{v:?} is the size it says");
    }
    let webp_640 = photo.variants.iter().find(|v| v.width == 640 && v.format == ImageFormat::Webp).expect("640 WebP");
    assert_eq!(&webp_640.bytes[..4], b"RIFF");
    assert_eq!(&webp_640.bytes[12..16], b"VP8 ", "lossy WebP");
}

#[tokio::test]
async fn a_small_picture_is_never_upscaled() {
    let encoder = ImagePhotoEncoder::new();
    let photo = encoder.encode(png(500, 250)).await.expect("a PNG");
    let widths: Vec<u32> = photo.variants.iter().map(|v| v.width).collect();
    assert_eq!(widths, vec![320, 320, 500, 500]);
    assert!(photo.variants.iter().all(|v| v.width <= 500 && v.height <= 250));
    let webp = photo.variants.iter().find(|v| v.format == ImageFormat::Webp).expect("a WebP variant");
    let again = encoder.encode(webp.bytes.clone()).await.expect("WebP is taken too");
    assert_eq!((again.width, again.height), (320, 160));
}

/// A JPEG with an EXIF APP1 segment saying `orientation` (1–8).
fn jpeg_with_orientation(w: u32, h: u32, orientation: u8) -> Vec<u8> {
    let plain = jpeg_of(w, h);
    // TIFF header (big-endian), one IFD entry: tag 0x0112 (orientation), SHORT, count 1.
    let mut tiff = b"MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01".to_vec();
    tiff.extend_from_slice(&[0, orientation, 0, 0, 0, 0, 0, 0]);
    let mut app1 = b"Exif\x00\x00".to_vec();
    app1.extend_from_slice(&tiff);
    let length = u16::try_from(app1.len() + 2).expect("a short segment");
    let mut out = vec![0xFF, 0xD8, 0xFF, 0xE1];
    out.extend_from_slice(&length.to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&plain[2..]);
    out
}

#[tokio::test]
async fn a_photograph_taken_sideways_is_stored_the_right_way_up() {
    let encoder = ImagePhotoEncoder::new();
    let photo = encoder.encode(jpeg_with_orientation(800, 600, 6)).await.expect("a turned JPEG");
    assert_eq!((photo.width, photo.height), (600, 800), "orientation 6 is a quarter turn");
    let widest = photo.variants.iter().find(|v| v.width == 600 && v.format == ImageFormat::Jpeg).expect("600 JPEG");
    assert_eq!(widest.height, 800);
    let back = decoded(widest);
    assert_eq!((back.width(), back.height()), (600, 800));
}
