//! A product's picture: its address (`name`, as the specification's `images` objects have it),
//! its size when known, and the responsive variants a shopper's browser picks from.

use serde::{Deserialize, Serialize};

/// Most pictures one product may have.
pub const MAX_PRODUCT_PHOTOS: usize = 12;

/// The encoding of a stored variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    Webp,
    Jpeg,
}

impl ImageFormat {
    /// `webp` or `jpeg`: the stored code, the file extension and the wire value.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            ImageFormat::Webp => "webp",
            ImageFormat::Jpeg => "jpeg",
        }
    }

    /// The format a stored code or a file extension names.
    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        match code {
            "webp" => Some(ImageFormat::Webp),
            "jpeg" | "jpg" => Some(ImageFormat::Jpeg),
            _ => None,
        }
    }

    /// The media type served for it.
    #[must_use]
    pub fn media_type(self) -> &'static str {
        match self {
            ImageFormat::Webp => "image/webp",
            ImageFormat::Jpeg => "image/jpeg",
        }
    }
}

/// One stored rendition of a picture at one width.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageVariant {
    /// Its address.
    pub name: String,
    pub width: u32,
    pub height: u32,
    pub format: ImageFormat,
}

/// A product's picture. Pictures listed before photographs could be uploaded (the demo's
/// drawings) have only a `name`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductImage {
    /// Its address: for a photograph, its largest JPEG variant, which every browser shows.
    pub name: String,
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// Narrowest first; empty for a picture with only a `name`.
    pub variants: Vec<ImageVariant>,
}

impl ProductImage {
    /// A picture known only by its address.
    #[must_use]
    pub fn plain(name: impl Into<String>) -> Self {
        ProductImage { name: name.into(), width: None, height: None, variants: Vec::new() }
    }

    /// What names this picture among its product's: the last segment of its address without
    /// its extension and, for a photograph's variant (`{id}-{width}.{ext}`), without its width.
    #[must_use]
    pub fn id(&self) -> &str {
        let file = self.name.rsplit('/').next().unwrap_or(&self.name);
        let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
        if self.variants.is_empty() {
            return stem;
        }
        stem.rsplit_once('-').map_or(stem, |(id, _)| id)
    }

    /// Every address this picture is stored under: its variants' and its own.
    #[must_use]
    pub fn addresses(&self) -> Vec<&str> {
        let mut all: Vec<&str> = self.variants.iter().map(|v| v.name.as_str()).collect();
        if !all.contains(&self.name.as_str()) {
            all.push(&self.name);
        }
        all
    }
}

impl From<&str> for ProductImage {
    fn from(name: &str) -> Self {
        ProductImage::plain(name)
    }
}

impl From<String> for ProductImage {
    fn from(name: String) -> Self {
        ProductImage::plain(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn photo() -> ProductImage {
        let variant = |width, format: ImageFormat| ImageVariant {
            name: format!("/media/products/p1/ab12-{width}.{}", format.code()),
            width,
            height: width * 3 / 4,
            format,
        };
        ProductImage {
            name: "/media/products/p1/ab12-640.jpeg".into(),
            width: Some(640),
            height: Some(480),
            variants: vec![
                variant(320, ImageFormat::Webp),
                variant(640, ImageFormat::Webp),
                variant(320, ImageFormat::Jpeg),
                variant(640, ImageFormat::Jpeg),
            ],
        }
    }

    #[test]
    fn a_picture_is_named_by_its_file() {
        assert_eq!(ProductImage::plain("/media/parts/brake-disc-3.svg").id(), "brake-disc-3");
        assert_eq!(ProductImage::plain("plain").id(), "plain");
        assert_eq!(photo().id(), "ab12");
    }

    #[test]
    fn a_photograph_is_stored_under_each_variant() {
        let p = photo();
        assert_eq!(p.addresses().len(), 4, "the main address is one of the variants");
        assert_eq!(ProductImage::plain("/a.svg").addresses(), vec!["/a.svg"]);
    }

    #[test]
    fn formats_round_trip_their_codes() {
        for f in [ImageFormat::Webp, ImageFormat::Jpeg] {
            assert_eq!(ImageFormat::parse(f.code()), Some(f));
        }
        assert_eq!(ImageFormat::parse("jpg"), Some(ImageFormat::Jpeg));
        assert_eq!(ImageFormat::parse("gif"), None);
    }
}
