//! Where each part of a tax invoice or credit note goes on the page.

use marque_domain::invoice::{Supply, TaxSplit};

use crate::printed::{state, Printed, Row};
use crate::sheet::{Align, Sheet, Style, Weight, MARGIN, PAGE_WIDTH};

const CONTENT: f32 = PAGE_WIDTH - 2.0 * MARGIN;
const BODY: Style = Style::new(Weight::Regular, 9.0);
const STRONG: Style = Style::new(Weight::Bold, 9.0);
const CELL: Style = Style::new(Weight::Regular, 7.8);
const CELL_BOLD: Style = Style::new(Weight::Bold, 7.8);
const HEAD: Style = Style::new(Weight::Bold, 7.2);
const BUYER_NAME: Style = Style::new(Weight::Bold, 10.5);
const CELL_LINE: f32 = 10.0;
const PAD: f32 = 4.0;

/// Half a rate as printed: 18 → "9%", 5 → "2.5%".
fn half_rate(rate: u8) -> String {
    if rate.is_multiple_of(2) {
        format!("{}%", rate / 2)
    } else {
        format!("{}.5%", rate / 2)
    }
}

/// One table column: heading lines, width and alignment.
#[derive(Debug, Clone, Copy)]
struct Column {
    head: [&'static str; 2],
    width: f32,
    align: Align,
}

const fn col(head: [&'static str; 2], width: f32, align: Align) -> Column {
    Column { head, width, align }
}

/// The tax columns: CGST and SGST within the state, IGST across states, each a rate and an amount.
fn tax_heads(supply: Supply) -> &'static [&'static str] {
    match supply {
        Supply::IntraState => &["CGST", "SGST"],
        Supply::InterState => &["IGST"],
    }
}

/// Rate and amount of each tax column for a line or row at `rate`.
fn tax_cells(supply: Supply, rate: u8, split: &TaxSplit) -> Vec<String> {
    match supply {
        Supply::IntraState => {
            vec![half_rate(rate), split.cgst.to_the_paisa(), half_rate(rate), split.sgst.to_the_paisa()]
        }
        Supply::InterState => vec![format!("{rate}%"), split.igst.to_the_paisa()],
    }
}

fn columns(supply: Supply) -> Vec<Column> {
    let (rate_w, amount_w) = match supply {
        Supply::IntraState => (26.0, 46.0),
        Supply::InterState => (30.0, 54.0),
    };
    let taxes = tax_heads(supply).len();
    #[expect(clippy::cast_precision_loss, reason = "one or two tax columns")]
    let tax_width = taxes as f32 * (rate_w + amount_w);
    let fixed = 16.0 + 42.0 + 24.0 + 54.0 + 58.0 + 58.0 + tax_width;
    let mut cols = vec![
        col(["#", ""], 16.0, Align::Left),
        col(["Description", ""], CONTENT - fixed, Align::Left),
        col(["HSN/SAC", ""], 42.0, Align::Left),
        col(["Qty", ""], 24.0, Align::Right),
        col(["Unit price", "(₹)"], 54.0, Align::Right),
        col(["Taxable", "value (₹)"], 58.0, Align::Right),
    ];
    for _ in 0..taxes {
        cols.push(col(["", "Rate"], rate_w, Align::Right));
        cols.push(col(["", "Amount (₹)"], amount_w, Align::Right));
    }
    cols.push(col(["Total (₹)", "inc. GST"], 58.0, Align::Right));
    cols
}

/// Lays out the whole document on `sheet`.
pub(crate) fn lay_out(sheet: &mut Sheet<'_>, doc: &Printed<'_>) {
    header(sheet, doc);
    parties(sheet, doc);
    table(sheet, doc);
    summary(sheet, doc);
    signature(sheet, doc);
}

fn header(sheet: &mut Sheet<'_>, doc: &Printed<'_>) {
    let seller = doc.seller;
    let top = sheet.y;
    sheet.text(MARGIN, CONTENT, top + 20.0, doc.title, Style::new(Weight::Bold, 20.0), Align::Right);
    sheet.text(MARGIN, CONTENT, top + 33.0, "Original for recipient", BODY.muted(), Align::Right);
    let left = CONTENT * 0.62;
    sheet.text(MARGIN, left, top + 16.0, &seller.legal_name, Style::new(Weight::Bold, 13.0), Align::Left);
    let mut y = top + 30.0;
    for line in &seller.address_lines {
        sheet.text(MARGIN, left, y, line, BODY, Align::Left);
        y += 11.5;
    }
    sheet.text(MARGIN, left, y, &format!("GSTIN: {}", seller.gstin.as_str()), STRONG, Align::Left);
    y += 11.5;
    sheet.text(MARGIN, left, y, &format!("State: {}", state(seller.state)), BODY, Align::Left);
    sheet.y = y + 10.0;
    sheet.line((MARGIN, sheet.y), (MARGIN + CONTENT, sheet.y), 0.8);
}

fn parties(sheet: &mut Sheet<'_>, doc: &Printed<'_>) {
    let buyer = doc.buyer;
    let top = sheet.y + 8.0;
    let left_w = CONTENT * 0.58;
    let right_x = MARGIN + left_w + 12.0;
    let right_w = CONTENT - left_w - 12.0;

    sheet.text(MARGIN, left_w, top + 9.0, "Bill to / Ship to", HEAD.muted(), Align::Left);
    // A long name or address line (a Devanagari one takes more room) wraps within the box.
    let mut y = top + 23.0;
    for (i, line) in sheet.wrap(&buyer.name, left_w, BUYER_NAME).iter().enumerate() {
        if i > 0 {
            y += 12.5;
        }
        sheet.text(MARGIN, left_w, y, line, BUYER_NAME, Align::Left);
    }
    y += 12.0;
    let mut lines: Vec<String> = buyer.address_lines.clone();
    lines.push(state(buyer.state));
    lines.push(format!("Mobile: {}", buyer.mobile.as_str()));
    let wrapped: Vec<String> = lines.iter().flat_map(|line| sheet.wrap(line, left_w, BODY)).collect();
    for line in wrapped {
        sheet.text(MARGIN, left_w, y, &line, BODY, Align::Left);
        y += 11.5;
    }
    if let Some(gstin) = &buyer.gstin {
        sheet.text(MARGIN, left_w, y, &format!("GSTIN: {}", gstin.as_str()), STRONG, Align::Left);
        y += 11.5;
    }

    sheet.text(right_x, right_w, top + 9.0, doc.facts_head, HEAD.muted(), Align::Left);
    let mut ry = top + 23.0;
    for (i, fact) in doc.facts.iter().enumerate() {
        let style = if i == 0 { STRONG } else { BODY };
        sheet.text(right_x, right_w, ry, fact, style, Align::Left);
        ry += 12.5;
    }
    sheet.y = y.max(ry) + 2.0;
    sheet.line((MARGIN + left_w + 4.0, top), (MARGIN + left_w + 4.0, sheet.y), 0.5);
    sheet.line((MARGIN, sheet.y), (MARGIN + CONTENT, sheet.y), 0.8);
    sheet.y += 12.0;
    if let Some(remark) = &doc.remark {
        for line in sheet.wrap(remark, CONTENT, BODY) {
            sheet.text(MARGIN, CONTENT, sheet.y, &line, BODY, Align::Left);
            sheet.y += 11.5;
        }
        sheet.y += 6.0;
    }
}

/// Draws one row of cells from `sheet.y`, each cell's lines stacked; returns its height.
fn row(sheet: &mut Sheet<'_>, cols: &[Column], cells: &[Vec<String>], style: Style) -> f32 {
    let lines = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
    #[expect(clippy::cast_precision_loss, reason = "a few lines per cell")]
    let height = lines as f32 * CELL_LINE + 2.0 * PAD;
    let mut x = MARGIN;
    for (col, cell) in cols.iter().zip(cells) {
        let mut baseline = sheet.y + PAD + 7.5;
        for text in cell {
            sheet.text(x + 2.0, col.width - 4.0, baseline, text, style, col.align);
            baseline += CELL_LINE;
        }
        x += col.width;
    }
    height
}

fn table_head(sheet: &mut Sheet<'_>, cols: &[Column], supply: Supply) {
    let height = 2.0 * CELL_LINE + 2.0 * PAD;
    sheet.shade(MARGIN, sheet.y, CONTENT, height);
    let cells: Vec<Vec<String>> =
        cols.iter().map(|c| c.head.iter().filter(|h| !h.is_empty()).map(|h| (*h).to_owned()).collect()).collect();
    // Each tax's name spans its rate and amount columns, above them.
    let before: f32 = cols.iter().take(6).map(|c| c.width).sum();
    let pair = cols.get(6).map_or(0.0, |c| c.width) + cols.get(7).map_or(0.0, |c| c.width);
    let mut x = MARGIN + before;
    for name in tax_heads(supply) {
        sheet.text(x, pair, sheet.y + PAD + 7.5, name, HEAD, Align::Centre);
        sheet.line((x + 6.0, sheet.y + PAD + 10.0), (x + pair - 2.0, sheet.y + PAD + 10.0), 0.4);
        x += pair;
    }
    let mut shifted = cells;
    for (cell, col) in shifted.iter_mut().zip(cols) {
        if col.head[0].is_empty() {
            cell.insert(0, String::new());
        }
    }
    row(sheet, cols, &shifted, HEAD);
    sheet.y += height;
    sheet.line((MARGIN, sheet.y), (MARGIN + CONTENT, sheet.y), 0.6);
}

fn line_cells(sheet: &Sheet<'_>, cols: &[Column], n: usize, line: &Row, supply: Supply) -> Vec<Vec<String>> {
    let description = cols.get(1).map_or(100.0, |c| c.width) - 4.0;
    let mut described = sheet.wrap(&line.description, description, CELL);
    for note in &line.note {
        described.extend(sheet.wrap(note, description, CELL));
    }
    let mut cells = vec![
        vec![n.to_string()],
        described,
        vec![line.hsn.clone().unwrap_or_default()],
        vec![line.units.map(|(quantity, _)| quantity.to_string()).unwrap_or_default()],
        vec![line.units.map(|(_, price)| price.to_the_paisa()).unwrap_or_default()],
        vec![line.tax.taxable.to_the_paisa()],
    ];
    cells.extend(tax_cells(supply, line.rate_percent, &line.tax).into_iter().map(|c| vec![c]));
    cells.push(vec![line.amount.to_the_paisa()]);
    cells
}

fn table(sheet: &mut Sheet<'_>, doc: &Printed<'_>) {
    let supply = doc.supply;
    let cols = columns(supply);
    table_head(sheet, &cols, supply);
    for (i, line) in doc.rows.iter().enumerate() {
        let cells = line_cells(sheet, &cols, i + 1, line, supply);
        let lines = cells.iter().map(Vec::len).max().unwrap_or(1);
        #[expect(clippy::cast_precision_loss, reason = "a few lines per cell")]
        let height = lines as f32 * CELL_LINE + 2.0 * PAD;
        if sheet.make_room(height) {
            table_head(sheet, &cols, supply);
        }
        sheet.y += row(sheet, &cols, &cells, CELL);
        sheet.line((MARGIN, sheet.y), (MARGIN + CONTENT, sheet.y), 0.3);
    }
    let sum: TaxSplit = doc.rows.iter().map(|l| l.tax).sum();
    let mut cells = vec![vec![], vec!["Total".to_owned()], vec![], vec![], vec![], vec![sum.taxable.to_the_paisa()]];
    for (i, cell) in tax_cells(supply, 0, &sum).into_iter().enumerate() {
        cells.push(if i % 2 == 0 { vec![] } else { vec![cell] });
    }
    cells.push(vec![doc.total.to_the_paisa()]);
    sheet.make_room(CELL_LINE + 2.0 * PAD);
    sheet.y += row(sheet, &cols, &cells, CELL_BOLD);
    sheet.line((MARGIN, sheet.y), (MARGIN + CONTENT, sheet.y), 0.8);
    sheet.y += 14.0;
    if let Some(footnote) = doc.footnote {
        for line in sheet.wrap(footnote, CONTENT, BODY.muted()) {
            sheet.make_room(11.5);
            sheet.text(MARGIN, CONTENT, sheet.y, &line, BODY.muted(), Align::Left);
            sheet.y += 11.5;
        }
        sheet.y += 6.0;
    }
}

/// The tax summary per rate on the left, the totals on the right, the total in words below.
fn summary(sheet: &mut Sheet<'_>, doc: &Printed<'_>) {
    let supply = doc.supply;
    let rows = doc.tax.len();
    #[expect(clippy::cast_precision_loss, reason = "a handful of GST rates")]
    let needed = (rows as f32 + 2.0) * (CELL_LINE + 2.0 * PAD) + 60.0;
    sheet.make_room(needed);
    let top = sheet.y;

    let taxes = tax_heads(supply);
    // A margin scheme's row names itself under its rate, in a wider column.
    let rate_width = if doc.tax.iter().any(|r| r.margin_scheme) { 62.0 } else { 44.0 };
    let mut cols =
        vec![col(["GST rate", ""], rate_width, Align::Left), col(["Taxable value (₹)", ""], 74.0, Align::Right)];
    for name in taxes {
        cols.push(col([name, ""], 58.0, Align::Right));
    }
    cols.push(col(["Total tax (₹)", ""], 62.0, Align::Right));
    let width: f32 = cols.iter().map(|c| c.width).sum();
    sheet.text(MARGIN, width, sheet.y + 8.0, "Tax summary", HEAD.muted(), Align::Left);
    sheet.y += 12.0;
    sheet.shade(MARGIN, sheet.y, width, CELL_LINE + 2.0 * PAD);
    let heads: Vec<Vec<String>> = cols.iter().map(|c| vec![c.head[0].to_owned()]).collect();
    sheet.y += row(sheet, &cols, &heads, HEAD);
    for tax_row in doc.tax {
        let s = tax_row.split;
        let mut rate = vec![format!("{}%", tax_row.rate_percent)];
        if tax_row.margin_scheme {
            rate.push("on margins".to_owned());
        }
        let mut cells = vec![rate, vec![s.taxable.to_the_paisa()]];
        match supply {
            Supply::IntraState => cells.extend([vec![s.cgst.to_the_paisa()], vec![s.sgst.to_the_paisa()]]),
            Supply::InterState => cells.push(vec![s.igst.to_the_paisa()]),
        }
        cells.push(vec![s.tax().to_the_paisa()]);
        sheet.y += row(sheet, &cols, &cells, CELL);
        sheet.line((MARGIN, sheet.y), (MARGIN + width, sheet.y), 0.3);
    }
    let left_bottom = sheet.y;

    let sum: TaxSplit = doc.tax.iter().map(|r| r.split).sum();
    let box_w = 180.0;
    let x = MARGIN + CONTENT - box_w;
    let mut y = top + 20.0;
    let mut totals = vec![("Taxable value", sum.taxable)];
    match supply {
        Supply::IntraState => totals.extend([("CGST", sum.cgst), ("SGST", sum.sgst)]),
        Supply::InterState => totals.push(("IGST", sum.igst)),
    }
    for (label, amount) in totals {
        sheet.text(x, box_w * 0.5, y, label, BODY, Align::Left);
        sheet.text(x, box_w, y, &format!("{amount:#}"), BODY, Align::Right);
        y += 14.0;
    }
    sheet.line((x, y - 5.0), (x + box_w, y - 5.0), 0.6);
    let big = Style::new(Weight::Bold, 11.5);
    sheet.text(x, box_w * 0.55, y + 9.0, doc.total_label, big, Align::Left);
    sheet.text(x, box_w, y + 9.0, &format!("{:#}", doc.total), big, Align::Right);
    sheet.y = left_bottom.max(y + 16.0) + 12.0;

    let words = format!("Amount in words: {}", doc.words);
    for line in sheet.wrap(&words, CONTENT, STRONG) {
        sheet.make_room(12.0);
        sheet.text(MARGIN, CONTENT, sheet.y + 9.0, &line, STRONG, Align::Left);
        sheet.y += 12.0;
    }
    if let Some(payment) = &doc.payment {
        for line in sheet.wrap(payment, CONTENT, BODY) {
            sheet.make_room(12.0);
            sheet.text(MARGIN, CONTENT, sheet.y + 9.0, &line, BODY, Align::Left);
            sheet.y += 12.0;
        }
    }
    sheet.y += 4.0;
}

fn signature(sheet: &mut Sheet<'_>, doc: &Printed<'_>) {
    sheet.make_room(70.0);
    let width = 220.0;
    let x = MARGIN + CONTENT - width;
    let top = sheet.y;
    sheet.text(
        MARGIN,
        CONTENT - width,
        top + 10.0,
        "All amounts in Indian rupees (₹), GST included.",
        BODY.muted(),
        Align::Left,
    );
    sheet.text(x, width, top + 10.0, &format!("For {}", doc.seller.legal_name), STRONG, Align::Right);
    sheet.line((x + 60.0, top + 48.0), (x + width, top + 48.0), 0.5);
    sheet.text(x, width, top + 60.0, "Authorised Signatory", BODY, Align::Right);
    sheet.y = top + 66.0;
}

#[cfg(test)]
mod tests {
    use marque_contract_tests::invoice_pdf::{hindi_invoice_on, HINDI_NAME};

    use super::*;
    use crate::fonts::Fonts;

    #[test]
    fn a_long_devanagari_address_wraps_within_the_buyer_box() {
        let street = "श्री द्वारकाधीश मंदिर के पीछे वाली गली, पुराने डाकघर के सामने, क्षेत्रीय परिवहन कार्यालय के पास, \
                      गांधी नगर विस्तार";
        let fonts = Fonts::load().expect("the embedded fonts load");
        let mut sheet = Sheet::new(&fonts);
        lay_out(&mut sheet, &Printed::invoice(&hindi_invoice_on(street)));
        let right = MARGIN + CONTENT * 0.58;
        let texts = sheet.texts();
        let street_lines: Vec<_> =
            texts.iter().filter(|(_, _, _, text, _)| street.contains(*text) && !text.is_empty()).collect();
        assert!(street_lines.len() >= 2, "the street wraps onto several lines: {street_lines:?}");
        let rejoined = street_lines.iter().map(|(_, _, _, text, _)| *text).collect::<Vec<_>>().join(" ");
        assert_eq!(rejoined, street, "every word is printed once, in order");
        for (page, x, _, text, style) in &street_lines {
            assert_eq!(*page, 0);
            assert!((style.size - BODY.size).abs() < f32::EPSILON, "{text:?} is set at the body size, not shrunk");
            let end = x + sheet.width(text, *style);
            assert!(end <= right + 0.01, "{text:?} ends at {end}, past the buyer box's {right}");
        }
        let baselines: Vec<f32> = street_lines.iter().map(|(_, _, y, _, _)| *y).collect();
        assert!(baselines.windows(2).all(|w| w[1] > w[0]), "one line below the other: {baselines:?}");
        // Nothing on the page runs past the right margin.
        for (_, x, _, text, style) in &texts {
            assert!(x + sheet.width(text, *style) <= MARGIN + CONTENT + 0.01, "{text:?} overflows the page");
        }
        assert!(texts.iter().any(|(_, _, _, text, _)| *text == HINDI_NAME));
    }
}
