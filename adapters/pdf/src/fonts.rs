//! The typeface every invoice is set in: Lato (SIL Open Font License 1.1, from Debian's
//! `fonts-lato`), shipped in `fonts/` and compiled in, so no system font is ever read.
//! Lato has the ₹ sign (U+20B9).

use krilla::text::Font;
use marque_ports::RenderError;
use rustybuzz::{Face, UnicodeBuffer};

const LATO_REGULAR: &[u8] = include_bytes!("../fonts/Lato-Regular.ttf");
const LATO_BOLD: &[u8] = include_bytes!("../fonts/Lato-Bold.ttf");

/// One weight: the font krilla embeds and the same font's shaper, which measures
/// text exactly as krilla will set it.
pub(crate) struct Typeface {
    pub(crate) font: Font,
    shaper: Face<'static>,
    units_per_em: f32,
}

impl Typeface {
    fn load(data: &'static [u8], name: &str) -> Result<Self, RenderError> {
        let broken = || RenderError::Failed { reason: format!("the embedded font {name} does not load") };
        let font = Font::new(data.into(), 0).ok_or_else(broken)?;
        let shaper = Face::from_slice(data, 0).ok_or_else(broken)?;
        let units_per_em = f32::from(u16::try_from(shaper.units_per_em()).map_err(|_| broken())?);
        Ok(Self { font, shaper, units_per_em })
    }

    /// The advance of `text` set at `size` points.
    pub(crate) fn width(&self, text: &str, size: f32) -> f32 {
        let mut buffer = UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        let shaped = rustybuzz::shape(&self.shaper, &[], buffer);
        let units: i32 = shaped.glyph_positions().iter().map(|p| p.x_advance).sum();
        // Glyph advances of one line stay far below f32's exact integer range.
        #[expect(clippy::cast_precision_loss, reason = "advances of one line are small integers")]
        let units = units as f32;
        units / self.units_per_em * size
    }
}

impl std::fmt::Debug for Typeface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Typeface").field("units_per_em", &self.units_per_em).finish_non_exhaustive()
    }
}

#[derive(Debug)]
pub(crate) struct Fonts {
    pub(crate) regular: Typeface,
    pub(crate) bold: Typeface,
}

impl Fonts {
    pub(crate) fn load() -> Result<Self, RenderError> {
        Ok(Self {
            regular: Typeface::load(LATO_REGULAR, "Lato Regular")?,
            bold: Typeface::load(LATO_BOLD, "Lato Bold")?,
        })
    }
}
