use marque_contract_tests::fixtures::product;
use marque_domain::catalog::import::{export_cells, ImportHeader, RowChange};
use proptest::prelude::*;

use super::*;

fn read(bytes: &[u8]) -> Vec<(u64, Vec<String>)> {
    Records::new(bytes).map(|r| (r.line, r.cells.expect("readable"))).collect()
}

fn owned(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| (*c).to_owned()).collect()
}

#[test]
fn files_as_spreadsheets_save_them_are_read_with_their_lines() {
    let file =
        "\u{feff}SKU,Name,Description\r\nS1,\"Disc, front\",\"two\r\nlines, \"\"quoted\"\"\"\r\nS2,डिस्क ब्रेक,\r\n";
    assert_eq!(
        read(file.as_bytes()),
        [
            (1, owned(&["SKU", "Name", "Description"])),
            (2, owned(&["S1", "Disc, front", "two\r\nlines, \"quoted\""])),
            (4, owned(&["S2", "डिस्क ब्रेक", ""])),
        ]
    );
    let (h, unknown) = header(file.as_bytes()).expect("a header");
    assert!(unknown.is_empty() && h.has(Column::Sku) && h.has(Column::Description));
}

#[test]
fn what_is_not_a_catalog_file_is_refused_whole() {
    assert_eq!(header(b"").map(|_| ()), Err(Message::ImportEmpty));
    assert_eq!(header(b"sku,name\r\n").map(|_| ()), Err(Message::ImportNoRows));
    assert_eq!(header(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe").map(|_| ()), Err(Message::ImportNotText));
    assert_eq!(header(b"hello world\nthis is a letter\n").map(|_| ()), Err(Message::ImportSkuColumnMissing));
    let wide = (0..10_000).map(|i| format!("c{i}")).collect::<Vec<_>>().join(",");
    assert_eq!(header(format!("{wide}\nx\n").as_bytes()).map(|_| ()), Err(Message::ImportTooManyColumns));
}

#[test]
fn a_row_that_is_too_long_or_not_text_is_reported_on_its_line() {
    let mut bytes = format!("sku,description\nS1,ok\nS2,{}\nS3,", "x".repeat(ROW_MAX_BYTES)).into_bytes();
    bytes.extend(b"\xff\n");
    let records: Vec<Record> = Records::new(&bytes).collect();
    assert_eq!(records.len(), 4);
    assert!(records[1].cells.is_ok());
    assert_eq!(records[2].cells, Err(RowError::new(3, "", "", Message::ImportRowTooLong)));
    assert_eq!(records[3].cells, Err(RowError::new(4, "", "", Message::ImportNotText)));
}

#[test]
fn the_errors_report_opens_in_a_spreadsheet() {
    let report = errors_csv(&[RowError::new(3, "price", "-1, really", Message::ProductPriceInvalid)]);
    let text = String::from_utf8(report).expect("text");
    assert_eq!(
        text,
        format!(
            "line,column,value,code,message\n3,price,\"-1, really\",product.price_invalid,{}\n",
            Message::ProductPriceInvalid.text()
        )
    );
}

fn cell() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 ,\"'|\n\r\tअ-ह़-्।₹]{0,30}"
}

proptest! {
    /// Any row written as CSV and read back is the same row, whatever its cells hold (commas,
    /// quotes, CR and LF, Hindi), after a header, with or without a byte-order mark.
    #[test]
    fn any_row_written_and_read_back_is_the_same_row(
        rows in prop::collection::vec(prop::collection::vec(cell(), 1..8), 1..5),
        bom: bool,
    ) {
        let mut out = CsvWriter::default();
        out.write(["sku"]);
        for row in &rows {
            out.write(row);
        }
        let mut bytes = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
        bytes.extend(out.take());
        let read: Vec<Vec<String>> = Records::new(&bytes).map(|r| r.cells.expect("readable")).collect();
        prop_assert_eq!(&read[0], &vec!["sku".to_owned()]);
        prop_assert_eq!(&read[1..], &rows[..]);
    }
}

#[test]
fn an_exported_file_reads_back_as_unchanged_rows() {
    let stored = product("p1").name("Disc, front \"vented\"").quantity(4).sku("BMW-1").build();
    let mut file = export_header();
    let mut out = CsvWriter::default();
    out.write(export_cells(&stored));
    file.extend(out.take());
    let (h, unknown) = header(&file).expect("a header");
    assert!(unknown.is_empty());
    let rows: Vec<Record> = Records::new(&file).skip(1).collect();
    let cells = rows[0].cells.as_ref().expect("readable");
    let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
    let row = h.row(rows[0].line, &cells).expect("valid");
    assert_eq!(row.compare(Some(&stored)), Ok(RowChange::Unchanged));
    assert_eq!(ImportHeader::exported().len(), Column::exported().len());
}
