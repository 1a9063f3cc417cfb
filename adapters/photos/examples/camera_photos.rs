//! Camera-like photographs for issue 23's photographs bench (`bench/import-photos.sh`): `N` JPEGs of
//! 4000 × 3000 (12 megapixels, as a phone writes them) with gradients, shapes and sensor noise, each
//! different (a photograph a part), named `p1.jpg` … `pN.jpg` in `DIR`.
//!
//! ```text
//! cargo run --release -p marque-photos --example camera_photos -- DIR N
//! ```

use std::path::PathBuf;

use image::codecs::jpeg::JpegEncoder;
use image::{Rgb, RgbImage};

const WIDTH: u32 = 4000;
const HEIGHT: u32 = 3000;
/// A camera's own quality setting, about.
const QUALITY: u8 = 90;

/// A small deterministic generator (xorshift64*): the same files every run.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value in `-amplitude..=amplitude`.
    fn around(&mut self, amplitude: i32) -> i32 {
        let span = u64::try_from(2 * amplitude + 1).unwrap_or(1);
        i32::try_from(self.next() % span).unwrap_or(0) - amplitude
    }
}

fn channel(value: i32) -> u8 {
    u8::try_from(value.clamp(0, 255)).unwrap_or(u8::MAX)
}

/// Photograph `n`: a lit background, a few discs and bars (the part), and noise on every pixel.
fn photograph(n: u64) -> RgbImage {
    let mut noise = Noise(0x9E37_79B9_7F4A_7C15 ^ (n + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let tint = [noise.around(60), noise.around(60), noise.around(60)];
    let shapes: Vec<(i64, i64, i64, [i32; 3])> = (0..6)
        .map(|_| {
            let x = i64::from(noise.around(1800)) + 2000;
            let y = i64::from(noise.around(1300)) + 1500;
            let r = i64::from(noise.around(300)) + 500;
            (x, y, r, [noise.around(120), noise.around(120), noise.around(120)])
        })
        .collect();
    let mut image = RgbImage::new(WIDTH, HEIGHT);
    for (x, y, pixel) in image.enumerate_pixels_mut() {
        let (xi, yi) = (i64::from(x), i64::from(y));
        let light = i32::try_from((xi * 90) / i64::from(WIDTH) + (yi * 70) / i64::from(HEIGHT)).unwrap_or(0);
        let mut rgb = [90 + light + tint[0], 100 + light + tint[1], 110 + light + tint[2]];
        for (cx, cy, r, colour) in &shapes {
            let (dx, dy) = (xi - cx, yi - cy);
            if dx * dx + dy * dy < r * r || (dx.abs() < r / 6 && dy.abs() < *r * 2) {
                for (c, shade) in rgb.iter_mut().zip(colour) {
                    *c += shade;
                }
            }
        }
        let grain = noise.around(14);
        *pixel = Rgb([channel(rgb[0] + grain), channel(rgb[1] + grain), channel(rgb[2] + grain)]);
    }
    image
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(dir), Some(count)) = (args.next(), args.next()) else {
        return Err("usage: camera_photos DIR N".into());
    };
    let dir = PathBuf::from(dir);
    let count: u64 = count.parse()?;
    std::fs::create_dir_all(&dir)?;
    for n in 1..=count {
        let file = std::fs::File::create(dir.join(format!("p{n}.jpg")))?;
        let mut writer = std::io::BufWriter::new(file);
        JpegEncoder::new_with_quality(&mut writer, QUALITY).encode_image(&photograph(n))?;
    }
    Ok(())
}
