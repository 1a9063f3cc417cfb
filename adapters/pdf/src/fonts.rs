//! The typefaces every document is set in, compiled in so no system font is ever read:
//! Lato (from Debian's `fonts-lato`; it has the ₹ sign, U+20B9) for Latin text, figures and
//! signs, and Noto Sans Devanagari (from Debian's `fonts-noto-core`) for Hindi names and
//! addresses. Both are under the SIL Open Font License 1.1 (`fonts/LICENSE-*`).
//!
//! A text is cut into runs by script, each run shaped with rustybuzz in its own font (so
//! conjuncts and vowel signs of Devanagari come out joined and in order) and drawn with the
//! glyphs that shaping gave: what is measured for layout is exactly what is drawn.

use std::ops::Range;

use krilla::text::{Font, GlyphId, KrillaGlyph};
use marque_ports::RenderError;
use rustybuzz::{Face, UnicodeBuffer};

const LATO_REGULAR: &[u8] = include_bytes!("../fonts/Lato-Regular.ttf");
const LATO_BOLD: &[u8] = include_bytes!("../fonts/Lato-Bold.ttf");
const DEVANAGARI_REGULAR: &[u8] = include_bytes!("../fonts/NotoSansDevanagari-Regular.ttf");
const DEVANAGARI_BOLD: &[u8] = include_bytes!("../fonts/NotoSansDevanagari-Bold.ttf");

/// One font: the font krilla embeds and the same font's shaper.
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

    /// `text` (one script) shaped into glyphs, their advances and offsets in ems, each glyph
    /// naming the bytes of `text` its cluster came from (what the PDF maps back to Unicode).
    pub(crate) fn shape(&self, text: &str) -> Vec<KrillaGlyph> {
        let mut buffer = UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        let shaped = rustybuzz::shape(&self.shaper, &[], buffer);
        let infos = shaped.glyph_infos();
        let em = |units: i32| {
            // Glyph advances and offsets are font units, far below f32's exact integer range.
            #[expect(clippy::cast_precision_loss, reason = "font units are small integers")]
            let units = units as f32;
            units / self.units_per_em
        };
        let cluster = |i: usize| infos.get(i).map_or(text.len(), |info| info.cluster as usize);
        shaped
            .glyph_positions()
            .iter()
            .enumerate()
            .map(|(i, pos)| {
                let start = cluster(i);
                // A cluster's text ends where the next cluster starts (left to right).
                let end = (i + 1..=infos.len()).map(cluster).find(|c| *c != start).unwrap_or(text.len());
                KrillaGlyph::new(
                    GlyphId::new(infos.get(i).map_or(0, |info| info.glyph_id)),
                    em(pos.x_advance),
                    em(pos.x_offset),
                    em(pos.y_offset),
                    em(pos.y_advance),
                    Range { start, end: end.max(start) },
                    None,
                )
            })
            .collect()
    }
}

/// The advance of shaped glyphs set at `size` points.
pub(crate) fn advance(glyphs: &[KrillaGlyph], size: f32) -> f32 {
    glyphs.iter().map(|g| g.x_advance).sum::<f32>() * size
}

impl std::fmt::Debug for Typeface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Typeface").field("units_per_em", &self.units_per_em).finish_non_exhaustive()
    }
}

/// Which font a character is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Devanagari,
    /// Latin letters, figures, punctuation and signs: everything Lato sets.
    Other,
}

/// The script of a character, or `None` for one that goes with its neighbours: spaces, and
/// the joiners that steer how Devanagari letters combine.
fn script(c: char) -> Option<Script> {
    match u32::from(c) {
        // Devanagari, Vedic Extensions, Devanagari Extended; the dotted circle a lone sign sits on.
        0x0900..=0x097F | 0x1CD0..=0x1CFF | 0xA8E0..=0xA8FF | 0x25CC => Some(Script::Devanagari),
        0x200C | 0x200D => None,
        _ if c.is_whitespace() => None,
        _ => Some(Script::Other),
    }
}

/// One weight in both scripts.
#[derive(Debug)]
pub(crate) struct Family {
    latin: Typeface,
    devanagari: Typeface,
}

impl Family {
    fn face(&self, script: Script) -> &Typeface {
        match script {
            Script::Devanagari => &self.devanagari,
            Script::Other => &self.latin,
        }
    }

    /// `text` cut where its script changes, each piece with its typeface. Spaces and joiners
    /// stay in the run they are in (leading ones go with the first letter's run).
    pub(crate) fn runs<'t>(&self, text: &'t str) -> Vec<(&Typeface, &'t str)> {
        let mut runs = Vec::new();
        let mut start = 0;
        let mut current: Option<Script> = None;
        for (at, c) in text.char_indices() {
            let Some(this) = script(c) else { continue };
            match current {
                Some(script) if script != this => {
                    runs.push((self.face(script), &text[start..at]));
                    start = at;
                    current = Some(this);
                }
                Some(_) => {}
                None => current = Some(this),
            }
        }
        if start < text.len() {
            runs.push((self.face(current.unwrap_or(Script::Other)), &text[start..]));
        }
        runs
    }

    /// The advance of `text` set at `size` points, each run in its font.
    pub(crate) fn width(&self, text: &str, size: f32) -> f32 {
        self.runs(text).into_iter().map(|(face, run)| advance(&face.shape(run), size)).sum()
    }
}

#[derive(Debug)]
pub(crate) struct Fonts {
    pub(crate) regular: Family,
    pub(crate) bold: Family,
}

impl Fonts {
    pub(crate) fn load() -> Result<Self, RenderError> {
        Ok(Self {
            regular: Family {
                latin: Typeface::load(LATO_REGULAR, "Lato Regular")?,
                devanagari: Typeface::load(DEVANAGARI_REGULAR, "Noto Sans Devanagari Regular")?,
            },
            bold: Family {
                latin: Typeface::load(LATO_BOLD, "Lato Bold")?,
                devanagari: Typeface::load(DEVANAGARI_BOLD, "Noto Sans Devanagari Bold")?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use krilla::text::Glyph;

    use super::*;

    fn fonts() -> Fonts {
        Fonts::load().expect("the embedded fonts load")
    }

    fn pieces<'t>(family: &Family, text: &'t str) -> Vec<(bool, &'t str)> {
        family.runs(text).into_iter().map(|(face, run)| (std::ptr::eq(face, &family.devanagari), run)).collect()
    }

    #[test]
    fn text_is_cut_where_the_script_changes() {
        let f = fonts();
        assert_eq!(pieces(&f.regular, "राहुल शर्मा"), vec![(true, "राहुल शर्मा")]);
        assert_eq!(pieces(&f.regular, "Ravi Kumar"), vec![(false, "Ravi Kumar")]);
        assert_eq!(
            pieces(&f.bold, "B-12, गली नं. 4, करोल बाग"),
            vec![(false, "B-12, "), (true, "गली नं"), (false, ". 4, "), (true, "करोल बाग")]
        );
        assert_eq!(pieces(&f.regular, "  नई दिल्ली 110005"), vec![(true, "  नई दिल्ली "), (false, "110005")]);
        assert_eq!(pieces(&f.regular, " "), vec![(false, " ")]);
        assert!(pieces(&f.regular, "").is_empty());
        // Joined back, the runs are the text.
        let text = "Mobile: ९८१० and ₹1,234.50 शर्मा";
        assert_eq!(pieces(&f.regular, text).into_iter().map(|(_, r)| r).collect::<String>(), text);
    }

    #[test]
    fn every_character_has_a_glyph_in_its_font() {
        let f = fonts();
        for family in [&f.regular, &f.bold] {
            for text in ["राहुल शर्मा", "क्षत्रिय श्री द्वारका", "Tax Invoice ₹12,345.67 (18% GST)", "हिन्दी — नई दिल्ली।"]
            {
                for (face, run) in family.runs(text) {
                    let glyphs = face.shape(run);
                    assert!(!glyphs.is_empty(), "{run:?} shapes to glyphs");
                    assert!(glyphs.iter().all(|g| g.glyph_id() != GlyphId::new(0)), "{run:?} has a missing glyph");
                }
            }
        }
    }

    #[test]
    fn conjuncts_and_vowel_signs_are_shaped_not_set_letter_by_letter() {
        let f = fonts();
        let run = "क्ष";
        // क + virama + ष: three characters, shaped into the one conjunct glyph.
        let glyphs = f.regular.devanagari.shape(run);
        assert_eq!(run.chars().count(), 3);
        assert_eq!(glyphs.len(), 1, "क्ष is one conjunct");
        assert_eq!(glyphs[0].text_range, 0..run.len(), "the conjunct maps back to all three characters");
        // The i sign (ि) is written after its consonant but drawn before it.
        let glyphs = f.regular.devanagari.shape("कि");
        assert_eq!(glyphs.len(), 2);
        let ka = f.regular.devanagari.shape("क");
        assert_ne!(glyphs[0].glyph_id, ka[0].glyph_id, "the sign comes first");
        assert_eq!(glyphs[1].glyph_id, ka[0].glyph_id);
    }

    #[test]
    fn a_mixed_text_measures_as_its_runs() {
        let f = fonts();
        let mixed = "B-12 करोल बाग";
        let runs: f32 = [(&f.regular.latin, "B-12 "), (&f.regular.devanagari, "करोल बाग")]
            .iter()
            .map(|(face, run)| advance(&face.shape(run), 9.0))
            .sum();
        assert!((f.regular.width(mixed, 9.0) - runs).abs() < 1e-3);
        assert!(f.regular.width(mixed, 9.0) > 0.0);
        assert!(f.bold.width("राहुल", 10.0) > f.regular.width("राहुल", 9.0));
    }
}
