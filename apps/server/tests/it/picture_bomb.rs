//! A picture bomb: an 8000 × 8000 one-colour PNG (about 65 KB here, 64 MB decoded as grey,
//! 192 MB as colour) is refused from its header, before any decoding, and nothing is stored.
//! It reads the process's count of decodes, alone: it holds `helpers::DECODING` for writing.

use crate::helpers;

use std::io::Cursor;

use helpers::customers::{form, post, register};
use helpers::spawn_with;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::ImageEncoder as _;
use reqwest::multipart::Part;
use serde_json::json;

fn one_colour_png(side: u32) -> Vec<u8> {
    let pixels = vec![200u8; usize::try_from(side * side).expect("fits")];
    let mut out = Vec::new();
    PngEncoder::new_with_quality(Cursor::new(&mut out), CompressionType::Best, FilterType::NoFilter)
        .write_image(&pixels, side, side, image::ExtendedColorType::L8)
        .expect("encodes");
    out
}

#[tokio::test]
async fn an_8000_pixel_square_png_is_refused_undecoded_and_nothing_is_stored() {
    let bomb = one_colour_png(8000);
    assert!(bomb.len() < 1024 * 1024, "small on the wire: {} bytes", bomb.len());
    let data = tempfile::tempdir().expect("temporary directory");
    let dir = data.path().to_owned();
    let shop = spawn_with(move |c| c.data_dir = dir).await;

    let _alone = helpers::DECODING.write().await;
    let decodes = marque_api::avatar::decodes_started();
    let picture = Part::bytes(bomb).file_name("me.png").mime_str("image/png").expect("mime");
    let (status, body) = register(&shop, form("Asha", "asha@example.in", "9876543210").part("profile", picture)).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("avatar.invalid")), "{body}");
    assert_eq!(marque_api::avatar::decodes_started(), decodes, "the decoder never ran");

    let stored = std::fs::read_dir(data.path().join("blobs").join("avatars")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(stored, 0, "no picture stored");
    let (status, _) = post(&shop, "/api/resendotp", json!({ "email": "asha@example.in" })).await;
    assert_eq!(status, 404, "no account");

    // A picture of the same kind within 16 megapixels is decoded and taken.
    let fine = Part::bytes(one_colour_png(1000)).file_name("me.png").mime_str("image/png").expect("mime");
    let (status, body) = register(&shop, form("Asha", "asha@example.in", "9876543210").part("profile", fine)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(marque_api::avatar::decodes_started(), decodes + 1);
}
