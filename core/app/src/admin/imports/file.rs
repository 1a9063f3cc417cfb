//! A catalog file's framing: CSV as spreadsheets save it (UTF-8 with or without a byte-order mark,
//! CRLF or LF, quoted cells holding commas, quotes and newlines), read a record at a time, and
//! written back the same way for exports and reports.

use marque_domain::catalog::import::{Column, ImportHeader, RowError};
use marque_domain::Message;

/// Most bytes one row may hold, all its cells together.
pub const ROW_MAX_BYTES: usize = 256 * 1024;

/// One record of a file: where it starts (the header is line 1) and its cells, or why it cannot
/// be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub line: u64,
    pub cells: Result<Vec<String>, RowError>,
}

/// The records of a CSV file held in `bytes`, one at a time.
pub struct Records<'a> {
    bytes: &'a [u8],
    reader: csv::Reader<&'a [u8]>,
    record: csv::ByteRecord,
    /// Line ends counted so far, up to `counted` bytes in.
    newlines: u64,
    counted: usize,
}

impl std::fmt::Debug for Records<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records").finish_non_exhaustive()
    }
}

impl<'a> Records<'a> {
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> Self {
        let reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(bytes);
        Records { bytes, reader, record: csv::ByteRecord::new(), newlines: 0, counted: 0 }
    }

    /// The line a record starting at byte `at` begins on (the reader's own count is one behind
    /// until it reads the line end after a record, so lines are counted here).
    fn line_at(&mut self, at: u64) -> u64 {
        let mut start = usize::try_from(at).unwrap_or(self.bytes.len()).min(self.bytes.len());
        while start < self.bytes.len() && matches!(self.bytes[start], b'\r' | b'\n') {
            start += 1;
        }
        if start > self.counted {
            self.newlines += self.bytes[self.counted..start].iter().filter(|b| **b == b'\n').count() as u64;
            self.counted = start;
        }
        self.newlines + 1
    }
}

impl Iterator for Records<'_> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        match self.reader.read_byte_record(&mut self.record) {
            Ok(false) => None,
            Ok(true) => {
                let line = self.line_at(self.record.position().map_or(0, csv::Position::byte));
                Some(Record { line, cells: cells(line, &self.record) })
            }
            // Reading raw bytes from memory does not fail; were it to, the rest is not read.
            Err(e) => {
                let line = self.line_at(e.position().map_or(0, csv::Position::byte));
                Some(Record { line, cells: Err(RowError::new(line, "", "", Message::ImportNotText)) })
            }
        }
    }
}

fn cells(line: u64, record: &csv::ByteRecord) -> Result<Vec<String>, RowError> {
    if record.as_slice().len() > ROW_MAX_BYTES {
        return Err(RowError::new(line, "", "", Message::ImportRowTooLong));
    }
    let mut cells = Vec::with_capacity(record.len());
    for (i, cell) in record.iter().enumerate() {
        // A byte-order mark starts the first cell of a file saved as "CSV UTF-8".
        let cell = if line == 1 && i == 0 { cell.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(cell) } else { cell };
        match std::str::from_utf8(cell) {
            Ok(text) => cells.push(text.to_owned()),
            Err(_) => return Err(RowError::new(line, "", "", Message::ImportNotText)),
        }
    }
    Ok(cells)
}

/// The file's header and the reports about it, or the message refusing the whole file: empty, not
/// UTF-8 text, a header the import cannot read, or no row under the header.
///
/// # Errors
/// [`Message::ImportEmpty`], [`Message::ImportNotText`], [`Message::ImportNoRows`] and the
/// header's own ([`ImportHeader::parse`]).
pub fn header(bytes: &[u8]) -> Result<(ImportHeader, Vec<RowError>), Message> {
    let mut records = Records::new(bytes);
    let first = records.next().ok_or(Message::ImportEmpty)?;
    let names = first.cells.map_err(|e| e.message)?;
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let header = ImportHeader::parse(&names)?;
    if records.next().is_none() {
        return Err(Message::ImportNoRows);
    }
    Ok(header)
}

/// Writes records as CSV (cells quoted where they need it, LF line ends) into a byte buffer.
#[derive(Debug)]
pub struct CsvWriter {
    writer: csv::Writer<Vec<u8>>,
}

impl Default for CsvWriter {
    fn default() -> Self {
        CsvWriter { writer: Self::fresh() }
    }
}

impl CsvWriter {
    /// Appends one record.
    pub fn write<I, T>(&mut self, cells: I)
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        // Writing into memory cannot fail.
        let _ = self.writer.write_record(cells);
    }

    fn fresh() -> csv::Writer<Vec<u8>> {
        csv::WriterBuilder::new().flexible(true).from_writer(Vec::new())
    }

    /// Takes what is written so far, leaving the writer empty.
    pub fn take(&mut self) -> Vec<u8> {
        // Flushing into memory cannot fail.
        std::mem::replace(&mut self.writer, Self::fresh()).into_inner().unwrap_or_default()
    }
}

/// The report of a job's refused rows as CSV: `line,column,value,code,message`, one row each.
#[must_use]
pub fn errors_csv(errors: &[RowError]) -> Vec<u8> {
    let mut out = CsvWriter::default();
    out.write(["line", "column", "value", "code", "message"]);
    for e in errors {
        out.write([&e.line.to_string(), &e.column, &e.value, e.message.code(), e.message.text()]);
    }
    out.take()
}

/// The header line of an export (the import's columns).
#[must_use]
pub fn export_header() -> Vec<u8> {
    let mut out = CsvWriter::default();
    out.write(Column::exported().iter().map(|c| c.name()));
    out.take()
}

#[cfg(test)]
mod tests;
