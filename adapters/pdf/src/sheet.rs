//! Pages as lists of things to draw, laid out top to bottom in points on A4, then painted
//! with krilla. Laying out first lets a long invoice break onto more pages and every page
//! carry "Page n of N".

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule, Stroke};
use krilla::surface::Surface;
use krilla::Document;
use marque_ports::RenderError;

use crate::fonts::{advance, Family, Fonts};

/// A4 in PostScript points.
pub(crate) const PAGE_WIDTH: f32 = 595.28;
pub(crate) const PAGE_HEIGHT: f32 = 841.89;
pub(crate) const MARGIN: f32 = 40.0;
/// Room kept under the content for the footer.
const FOOTER_ROOM: f32 = 36.0;

pub(crate) const INK: (u8, u8, u8) = (26, 26, 26);
pub(crate) const MUTED: (u8, u8, u8) = (96, 96, 96);
pub(crate) const RULE: (u8, u8, u8) = (170, 170, 170);
pub(crate) const SHADE: (u8, u8, u8) = (238, 240, 243);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Weight {
    Regular,
    Bold,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
    Centre,
}

/// How a text looks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    pub(crate) weight: Weight,
    pub(crate) size: f32,
    pub(crate) colour: (u8, u8, u8),
}

impl Style {
    pub(crate) const fn new(weight: Weight, size: f32) -> Self {
        Self { weight, size, colour: INK }
    }

    pub(crate) const fn muted(self) -> Self {
        Self { colour: MUTED, ..self }
    }
}

#[derive(Debug, Clone)]
enum Item {
    /// `y` is the baseline.
    Text {
        x: f32,
        y: f32,
        text: String,
        style: Style,
    },
    Line {
        from: (f32, f32),
        to: (f32, f32),
        width: f32,
    },
    Shade {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
    },
}

/// The pages laid out so far and the cursor on the last one.
#[derive(Debug)]
pub(crate) struct Sheet<'f> {
    fonts: &'f Fonts,
    pages: Vec<Vec<Item>>,
    /// Top of the free space on the current page.
    pub(crate) y: f32,
}

impl<'f> Sheet<'f> {
    pub(crate) fn new(fonts: &'f Fonts) -> Self {
        Self { fonts, pages: vec![Vec::new()], y: MARGIN }
    }

    fn face(&self, weight: Weight) -> &'f Family {
        match weight {
            Weight::Regular => &self.fonts.regular,
            Weight::Bold => &self.fonts.bold,
        }
    }

    pub(crate) fn width(&self, text: &str, style: Style) -> f32 {
        self.face(style.weight).width(text, style.size)
    }

    /// Whether `height` more points fit on this page; if not, a new page starts.
    /// Returns true when it did.
    pub(crate) fn make_room(&mut self, height: f32) -> bool {
        if self.y + height <= PAGE_HEIGHT - MARGIN - FOOTER_ROOM {
            return false;
        }
        self.pages.push(Vec::new());
        self.y = MARGIN;
        true
    }

    fn push(&mut self, item: Item) {
        if let Some(page) = self.pages.last_mut() {
            page.push(item);
        }
    }

    /// Draws `text` on `baseline` within `[x, x + width]`, shrunk to fit the width if it
    /// would overflow.
    pub(crate) fn text(&mut self, x: f32, width: f32, baseline: f32, text: &str, style: Style, align: Align) {
        let natural = self.width(text, style);
        let style = if natural > width && natural > 0.0 {
            Style { size: style.size * width / natural, ..style }
        } else {
            style
        };
        let used = natural.min(width);
        let x = match align {
            Align::Left => x,
            Align::Right => x + width - used,
            Align::Centre => x + (width - used) / 2.0,
        };
        self.push(Item::Text { x, y: baseline, text: text.to_owned(), style });
    }

    /// `text` broken into lines no wider than `width` (words longer than a line stay whole).
    pub(crate) fn wrap(&self, text: &str, width: f32, style: Style) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut current = String::new();
        for word in text.split_whitespace() {
            let candidate = if current.is_empty() { word.to_owned() } else { format!("{current} {word}") };
            if current.is_empty() || self.width(&candidate, style) <= width {
                current = candidate;
            } else {
                lines.push(std::mem::replace(&mut current, word.to_owned()));
            }
        }
        if !current.is_empty() || lines.is_empty() {
            lines.push(current);
        }
        lines
    }

    /// Every text laid out so far, page by page: `(page, x, baseline, text, style)`.
    #[cfg(test)]
    pub(crate) fn texts(&self) -> Vec<(usize, f32, f32, &str, Style)> {
        let mut texts = Vec::new();
        for (page, items) in self.pages.iter().enumerate() {
            for item in items {
                if let Item::Text { x, y, text, style } = item {
                    texts.push((page, *x, *y, text.as_str(), *style));
                }
            }
        }
        texts
    }

    pub(crate) fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32) {
        self.push(Item::Line { from, to, width });
    }

    pub(crate) fn shade(&mut self, x: f32, y: f32, w: f32, h: f32) {
        self.push(Item::Shade { x, y, w, h });
    }

    /// "Page n of N" under every page, then the PDF.
    pub(crate) fn finish(mut self, footer: &str, document: &mut Document) -> Result<(), RenderError> {
        let count = self.pages.len();
        let small = Style::new(Weight::Regular, 7.5).muted();
        let baseline = PAGE_HEIGHT - MARGIN + 4.0;
        let content = PAGE_WIDTH - 2.0 * MARGIN;
        let mut pages = std::mem::take(&mut self.pages);
        for (i, page) in pages.iter_mut().enumerate() {
            self.pages = vec![Vec::new()];
            self.line((MARGIN, baseline - 12.0), (PAGE_WIDTH - MARGIN, baseline - 12.0), 0.5);
            self.text(MARGIN, content, baseline, footer, small, Align::Left);
            self.text(MARGIN, content, baseline, &format!("Page {} of {count}", i + 1), small, Align::Right);
            page.extend(self.pages.pop().unwrap_or_default());
        }
        let settings = PageSettings::from_wh(PAGE_WIDTH, PAGE_HEIGHT)
            .ok_or_else(|| RenderError::Failed { reason: "A4 is not a page size".into() })?;
        for items in &pages {
            let mut page = document.start_page_with(settings.clone());
            let mut surface = page.surface();
            for item in items {
                self.paint(&mut surface, item);
            }
            surface.finish();
            page.finish();
        }
        Ok(())
    }

    fn paint(&self, surface: &mut Surface<'_>, item: &Item) {
        match item {
            Item::Text { x, y, text, style } => {
                surface.set_stroke(None);
                surface.set_fill(Some(fill(style.colour)));
                // Each run of one script in its own font, one after the other.
                let mut x = *x;
                for (face, run) in self.face(style.weight).runs(text) {
                    let glyphs = face.shape(run);
                    surface.draw_glyphs(Point::from_xy(x, *y), &glyphs, face.font.clone(), run, style.size, false);
                    x += advance(&glyphs, style.size);
                }
            }
            Item::Line { from, to, width } => {
                let mut path = PathBuilder::new();
                path.move_to(from.0, from.1);
                path.line_to(to.0, to.1);
                if let Some(path) = path.finish() {
                    surface.set_fill(None);
                    surface.set_stroke(Some(Stroke { paint: colour(RULE).into(), width: *width, ..Stroke::default() }));
                    surface.draw_path(&path);
                }
            }
            Item::Shade { x, y, w, h } => {
                let mut path = PathBuilder::new();
                path.move_to(*x, *y);
                path.line_to(x + w, *y);
                path.line_to(x + w, y + h);
                path.line_to(*x, y + h);
                path.close();
                if let Some(path) = path.finish() {
                    surface.set_stroke(None);
                    surface.set_fill(Some(fill(SHADE)));
                    surface.draw_path(&path);
                }
            }
        }
    }
}

fn colour((r, g, b): (u8, u8, u8)) -> rgb::Color {
    rgb::Color::new(r, g, b)
}

fn fill(rgb: (u8, u8, u8)) -> Fill {
    Fill { paint: colour(rgb).into(), opacity: NormalizedF32::ONE, rule: FillRule::NonZero }
}
