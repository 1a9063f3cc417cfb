//! A catalog import's rows: the header matched to the import's columns (the back office's product
//! field names, any case), each row read into the catalog editor's [`ProductPatch`] with the
//! editor's own rules, compared with the stored product, and every refusal reported as
//! (line, column, value, message). The CSV framing (quotes, BOM, CRLF) is the caller's: this module
//! sees records, a line number and their cells. Exporting writes the same columns, so an export
//! read back changes nothing.

pub mod cells;
pub mod photos;
pub mod used;

use super::editor::{self, Hsn, ProductDraft, ProductPatch, Sku, WarrantyDays};
use super::{Condition, FuelType, Product};
use crate::{Message, PartNumber};
use used::UsedCells;

/// Most columns a header may have (the import knows 33; spreadsheets add a few of their own).
pub const COLUMNS_MAX: usize = 64;
/// Most bytes one cell may hold (a long description fits; a megabyte does not).
pub const CELL_MAX_BYTES: usize = 32 * 1024;
/// Most characters of a refused value a report repeats.
pub const REPORTED_VALUE_MAX: usize = 100;

/// A column the import knows, named as the admin product body names its field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Column {
    Sku,
    Name,
    Price,
    Quantity,
    Producttype,
    Description,
    CategorySlug,
    SubcategorySlug,
    OemSlug,
    FuelType,
    Variant,
    PartNo,
    InsideNcr,
    OutsideNcr,
    Gst,
    Hsn,
    WarrantyDays,
    WeightGrams,
    Published,
    AlternateNumbers,
    SupersededNumbers,
    // Issue 25's columns (`import/used.rs`).
    Fits,
    CrossReferences,
    Grade,
    DonorMake,
    DonorModel,
    DonorGeneration,
    DonorYear,
    DonorOdometerKm,
    MarginScheme,
    PurchasePrice,
    Photos,
    /// `true` (or yes, 1): the row's product is unpublished, never deleted.
    Delete,
}

impl Column {
    /// Every column, in the order an export writes them (`photos` and `delete` last; exports leave
    /// them out).
    pub const ALL: [Column; 33] = [
        Column::Sku,
        Column::Name,
        Column::Price,
        Column::Quantity,
        Column::Producttype,
        Column::Description,
        Column::CategorySlug,
        Column::SubcategorySlug,
        Column::OemSlug,
        Column::FuelType,
        Column::Variant,
        Column::PartNo,
        Column::InsideNcr,
        Column::OutsideNcr,
        Column::Gst,
        Column::Hsn,
        Column::WarrantyDays,
        Column::WeightGrams,
        Column::Published,
        Column::AlternateNumbers,
        Column::SupersededNumbers,
        Column::Fits,
        Column::CrossReferences,
        Column::Grade,
        Column::DonorMake,
        Column::DonorModel,
        Column::DonorGeneration,
        Column::DonorYear,
        Column::DonorOdometerKm,
        Column::MarginScheme,
        Column::PurchasePrice,
        Column::Photos,
        Column::Delete,
    ];

    /// The columns an export writes: all but `photos` (photographs are not carried back) and `delete`.
    #[must_use]
    pub fn exported() -> &'static [Column] {
        &Column::ALL[..31]
    }

    /// The name as the admin product body spells it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Column::Sku => "sku",
            Column::Name => "name",
            Column::Price => "price",
            Column::Quantity => "quantity",
            Column::Producttype => "producttype",
            Column::Description => "description",
            Column::CategorySlug => "category_slug",
            Column::SubcategorySlug => "subcategory_slug",
            Column::OemSlug => "oem_slug",
            Column::FuelType => "fuelType",
            Column::Variant => "variant",
            Column::PartNo => "partNo",
            Column::InsideNcr => "inside_ncr",
            Column::OutsideNcr => "outside_ncr",
            Column::Gst => "gst",
            Column::Hsn => "hsn",
            Column::WarrantyDays => "warrantyDays",
            Column::WeightGrams => "weightGrams",
            Column::Published => "published",
            Column::AlternateNumbers => "alternateNumbers",
            Column::SupersededNumbers => "supersededNumbers",
            Column::Fits => "fits",
            Column::CrossReferences => "crossReferences",
            Column::Grade => "grade",
            Column::DonorMake => "donorMake",
            Column::DonorModel => "donorModel",
            Column::DonorGeneration => "donorGeneration",
            Column::DonorYear => "donorYear",
            Column::DonorOdometerKm => "donorOdometerKm",
            Column::MarginScheme => "marginScheme",
            Column::PurchasePrice => "purchasePrice",
            Column::Photos => "photos",
            Column::Delete => "delete",
        }
    }

    /// The column a header cell names, in any case, spaces around it (and a byte-order mark) ignored.
    #[must_use]
    pub fn from_header(text: &str) -> Option<Column> {
        let name = text.trim_start_matches('\u{feff}').trim();
        Column::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(name))
    }
}

/// One refusal in a report: where (line, the header being line 1; the column as the header wrote
/// it), what (the value, cut to [`REPORTED_VALUE_MAX`] characters) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub line: u64,
    pub column: String,
    pub value: String,
    pub message: Message,
}

impl RowError {
    #[must_use]
    pub fn new(line: u64, column: &str, value: &str, message: Message) -> Self {
        let value = value.chars().take(REPORTED_VALUE_MAX).collect();
        RowError { line, column: column.to_owned(), value, message }
    }
}

/// A header read: which column each position holds (`None` for a column the import does not know,
/// which is reported and left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportHeader {
    names: Vec<String>,
    columns: Vec<Option<Column>>,
    /// This year (India), for a donor car's latest model year ([`ImportHeader::with_this_year`]).
    this_year: i32,
}

impl ImportHeader {
    /// Reads the header (line 1); returns it with the unknown columns reported.
    ///
    /// # Errors
    /// The file is refused whole with [`Message::ImportEmpty`] for a header without any name,
    /// [`Message::ImportTooManyColumns`] past [`COLUMNS_MAX`], [`Message::ImportColumnTwice`] when a
    /// column is named twice and [`Message::ImportSkuColumnMissing`] without a `sku` column.
    pub fn parse(cells: &[&str]) -> Result<(ImportHeader, Vec<RowError>), Message> {
        if cells.len() > COLUMNS_MAX {
            return Err(Message::ImportTooManyColumns);
        }
        if cells.iter().all(|c| c.trim_start_matches('\u{feff}').trim().is_empty()) {
            return Err(Message::ImportEmpty);
        }
        let mut columns: Vec<Option<Column>> = Vec::with_capacity(cells.len());
        let mut unknown = Vec::new();
        for cell in cells {
            let column = Column::from_header(cell);
            if column.is_some() && columns.contains(&column) {
                return Err(Message::ImportColumnTwice);
            }
            if column.is_none() {
                unknown.push(RowError::new(1, cell.trim(), cell.trim(), Message::ImportColumnUnknown));
            }
            columns.push(column);
        }
        if !columns.contains(&Some(Column::Sku)) {
            return Err(Message::ImportSkuColumnMissing);
        }
        let names = cells.iter().map(|c| c.trim_start_matches('\u{feff}').trim().to_owned()).collect();
        // Until the caller tells the year, every donor year is refused (never a wrong one accepted).
        let this_year = i32::from(u16::MIN);
        Ok((ImportHeader { names, columns, this_year }, unknown))
    }

    /// The same header reading donor cars up to `this_year` + 1 (next year's models are sold this year).
    #[must_use]
    pub fn with_this_year(mut self, this_year: i32) -> Self {
        self.this_year = this_year;
        self
    }

    /// The header of an export: every exported column, in order.
    #[must_use]
    pub fn exported() -> Vec<&'static str> {
        Column::exported().iter().map(|c| c.name()).collect()
    }

    /// Whether the file has this column.
    #[must_use]
    pub fn has(&self, column: Column) -> bool {
        self.columns.contains(&Some(column))
    }

    /// Where the column is (0-based), if the file has it.
    #[must_use]
    pub fn position(&self, column: Column) -> Option<usize> {
        self.columns.iter().position(|c| *c == Some(column))
    }

    /// The column as the header spells it, if the file has it.
    #[must_use]
    pub fn name_of(&self, column: Column) -> Option<&str> {
        self.position(column).map(|i| self.names[i].as_str())
    }

    /// Reads one row (`line` is where it starts in the file). A row may have fewer cells than the
    /// header (the missing ones are empty), never more; an empty cell keeps the stored value.
    ///
    /// # Errors
    /// Every refusal of the row, each with its column: [`Message::ImportRowTooWide`],
    /// [`Message::ImportCellTooLong`], the editor's message for a value it refuses (a price of −1 is
    /// [`Message::ProductPriceInvalid`], a GST rate of 7 [`Message::ProductGstInvalid`], …),
    /// [`Message::ProductSkuInvalid`] for an empty or malformed SKU.
    pub fn row(&self, line: u64, cells: &[&str]) -> Result<ImportRow, Vec<RowError>> {
        if cells.len() > self.columns.len() {
            let extra = cells[self.columns.len()..].iter().find(|c| !c.is_empty()).copied().unwrap_or("");
            return Err(vec![RowError::new(line, "", extra, Message::ImportRowTooWide)]);
        }
        let mut row = RowReader {
            line,
            errors: Vec::new(),
            patch: ProductPatch::default(),
            quantity: None,
            delete: false,
            used: UsedCells::new(self.this_year),
            photos: Vec::new(),
        };
        let mut sku = None;
        for (i, cell) in cells.iter().enumerate() {
            let Some(column) = self.columns[i] else { continue };
            let name = &self.names[i];
            if cell.len() > CELL_MAX_BYTES {
                row.errors.push(RowError::new(line, name, cell, Message::ImportCellTooLong));
                continue;
            }
            if column == Column::Sku {
                match Sku::parse(cell) {
                    Ok(s) => sku = Some(s),
                    Err(m) => row.errors.push(RowError::new(line, name, cell, m)),
                }
            } else if !cell.trim().is_empty() {
                row.cell(column, name, cell);
            }
        }
        if sku.is_none() && !row.errors.iter().any(|e| e.message == Message::ProductSkuInvalid) {
            let name = self.name_of(Column::Sku).unwrap_or(Column::Sku.name());
            row.errors.push(RowError::new(line, name, "", Message::ProductSkuInvalid));
        }
        match sku {
            Some(sku) if row.errors.is_empty() => {
                let mut patch = row.patch;
                patch.sku = Some(sku.clone());
                // Unpublishing wins over a `published` cell of the same row.
                if row.delete {
                    patch.published = Some(false);
                }
                Ok(ImportRow {
                    line,
                    sku,
                    patch,
                    quantity: row.quantity,
                    delete: row.delete,
                    used: row.used,
                    photos: row.photos,
                })
            }
            _ => Err(row.errors),
        }
    }
}

/// One row's cells as they are read, with the refusals so far.
struct RowReader {
    line: u64,
    errors: Vec<RowError>,
    patch: ProductPatch,
    quantity: Option<u32>,
    delete: bool,
    used: UsedCells,
    photos: Vec<photos::PhotoSource>,
}

impl RowReader {
    /// Reads a non-empty cell into the patch with the editor's rules.
    fn cell(&mut self, column: Column, name: &str, cell: &str) {
        let p = &mut self.patch;
        let number = |invalid: Message| cells::whole_number(cell).ok_or(invalid);
        let parts = |text: &str| editor::other_numbers(&cells::list(text));
        let result: Result<(), Message> = match column {
            Column::Sku => Ok(()),
            Column::Name => editor::product_name(cell).map(|v| p.name = Some(v)),
            Column::Price => cells::rupees_text(cell).map(|v| p.price = Some(v)),
            Column::Quantity => number(Message::ImportQuantityInvalid)
                .and_then(|n| editor::opening_stock(n).map_err(|_| Message::ImportQuantityInvalid))
                .map(|v| self.quantity = Some(v)),
            Column::Producttype => {
                p.condition = Some(Condition::from(cell.trim()));
                Ok(())
            }
            Column::Description => {
                p.description = Some(cell.to_owned());
                Ok(())
            }
            Column::CategorySlug => editor::catalog_slug(cell).map(|v| p.category_slug = Some(v)),
            Column::SubcategorySlug => editor::catalog_slug(cell).map(|v| p.subcategory_slug = Some(v)),
            Column::OemSlug => editor::catalog_slug(cell).map(|v| p.oem_slug = Some(v)),
            Column::FuelType if cell.trim().eq_ignore_ascii_case("none") => {
                p.fuel_type = Some(None);
                Ok(())
            }
            Column::FuelType => {
                FuelType::parse(cell).map(|f| p.fuel_type = Some(Some(f))).ok_or(Message::ImportFuelTypeInvalid)
            }
            Column::Variant => {
                p.variant = Some(cell.trim().to_owned());
                Ok(())
            }
            Column::PartNo => {
                PartNumber::parse(cell).map(|v| p.part_no = Some(v)).map_err(|_| Message::PartNumberEmpty)
            }
            Column::InsideNcr => cells::rupees_text(cell).map(|v| p.inside_ncr = Some(v)),
            Column::OutsideNcr => cells::rupees_text(cell).map(|v| p.outside_ncr = Some(v)),
            Column::Gst => {
                number(Message::ProductGstInvalid).and_then(editor::gst_rate).map(|v| p.gst_percent = Some(v))
            }
            Column::Hsn => Hsn::parse(cell).map(|v| p.hsn = Some(v)),
            Column::WarrantyDays => {
                number(Message::ProductWarrantyDays).and_then(WarrantyDays::new).map(|v| p.warranty_days = Some(v))
            }
            Column::WeightGrams => {
                number(Message::ProductWeightInvalid).and_then(editor::weight_grams).map(|v| p.weight_grams = Some(v))
            }
            Column::Published => cells::yes_no(cell).map(|v| p.published = Some(v)),
            Column::AlternateNumbers => parts(cell).map(|v| p.alternate_numbers = Some(v)),
            Column::SupersededNumbers => parts(cell).map(|v| p.superseded_numbers = Some(v)),
            Column::Photos => photos::photo_list(cell).map(|v| self.photos = v),
            Column::Delete => cells::yes_no(cell).map(|v| self.delete = v),
            c if UsedCells::reads(c) => self.used.cell(c, cell, p),
            _ => Ok(()),
        };
        if let Err(message) = result {
            self.errors.push(RowError::new(self.line, name, cell, message));
        }
    }
}

/// A row that passed its cells' rules: the product it names by SKU, the fields it gives (its SKU
/// included) and the stock on hand it gives.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportRow {
    pub line: u64,
    pub sku: Sku,
    pub patch: ProductPatch,
    /// The absolute stock, when the row gives it.
    pub quantity: Option<u32>,
    /// The row's `delete` cell said so: the product is unpublished (`patch.published` is false).
    pub delete: bool,
    /// Its `fits`, donor car and margin-scheme cells (`grade` and `crossReferences` are in `patch`).
    pub used: UsedCells,
    /// The row's `photos`, in order: attached after the rows, by the import's photograph worker.
    pub photos: Vec<photos::PhotoSource>,
}

/// What a row does to the catalog.
#[derive(Debug, Clone, PartialEq)]
pub enum RowChange {
    /// A new SKU: the product to create, its stock the opening entry.
    Create(ProductDraft),
    /// A known SKU: only the fields that differ from the stored product (`patch`, with `changed`
    /// naming their columns), and the stock `(before, after)` when the row's quantity differs.
    Update { patch: ProductPatch, changed: Vec<Column>, stock: Option<(u32, u32)> },
    /// Everything the row gives is what is stored.
    Unchanged,
}

impl ImportRow {
    /// Compares the row with the stored product of its SKU (`None` when there is none).
    ///
    /// # Errors
    /// For a new SKU, each column a product cannot be without that the row leaves empty or out
    /// (`name`, `price`, `category_slug`, `subcategory_slug`, `oem_slug`, `partNo`), with
    /// [`Message::ImportRequiredForNew`]; a row deleting a SKU the shop does not have,
    /// [`Message::ImportDeleteUnknown`].
    pub fn compare(&self, stored: Option<&Product>) -> Result<RowChange, Vec<RowError>> {
        let mut completed = self.patch.clone();
        self.used.complete(stored, &mut completed).map_err(|errors| {
            errors
                .into_iter()
                .map(|(column, value, m)| RowError::new(self.line, column.name(), &value, m))
                .collect::<Vec<_>>()
        })?;
        let Some(stored) = stored else {
            if self.delete {
                return Err(vec![RowError::new(
                    self.line,
                    Column::Delete.name(),
                    self.sku.as_str(),
                    Message::ImportDeleteUnknown,
                )]);
            }
            return self.draft(completed).map(RowChange::Create);
        };
        let (p, s, d) = (&completed, stored, &stored.details);
        let mut patch = ProductPatch::default();
        let mut changed = Vec::new();
        macro_rules! diff {
            ($field:ident, $column:expr, $stored:expr) => {
                if let Some(v) = &p.$field {
                    if v != $stored {
                        patch.$field = Some(v.clone());
                        changed.push($column);
                    }
                }
            };
        }
        diff!(name, Column::Name, &s.name);
        diff!(price, Column::Price, &s.price);
        diff!(condition, Column::Producttype, &s.condition);
        diff!(description, Column::Description, &s.description);
        diff!(category_slug, Column::CategorySlug, &s.category_slug);
        diff!(subcategory_slug, Column::SubcategorySlug, &s.subcategory_slug);
        diff!(oem_slug, Column::OemSlug, &s.oem_slug);
        diff!(fuel_type, Column::FuelType, &s.fuel_type);
        diff!(variant, Column::Variant, &s.variant);
        diff!(part_no, Column::PartNo, &s.part_no);
        diff!(inside_ncr, Column::InsideNcr, &s.inside_ncr);
        diff!(outside_ncr, Column::OutsideNcr, &s.outside_ncr);
        diff!(gst_percent, Column::Gst, &s.gst_percent);
        diff!(hsn, Column::Hsn, &d.hsn);
        diff!(warranty_days, Column::WarrantyDays, &d.warranty_days);
        diff!(weight_grams, Column::WeightGrams, &d.weight_grams);
        diff!(published, Column::Published, &d.published);
        diff!(alternate_numbers, Column::AlternateNumbers, &d.alternate_numbers);
        diff!(superseded_numbers, Column::SupersededNumbers, &d.superseded_numbers);
        diff!(cross_references, Column::CrossReferences, &d.cross_references);
        diff!(grade, Column::Grade, &d.grade);
        diff!(donor, Column::DonorMake, &d.donor);
        diff!(margin_scheme, Column::MarginScheme, &d.margin_scheme);
        // Fitment is written apart from the product's fields (the use case takes it from `used`).
        if self.used.fits_to_write(Some(stored)).is_some() {
            changed.push(Column::Fits);
        }
        let stock = self.quantity.filter(|q| *q != s.quantity).map(|q| (s.quantity, q));
        if changed.is_empty() && stock.is_none() {
            return Ok(RowChange::Unchanged);
        }
        if stock.is_some() {
            changed.push(Column::Quantity);
        }
        Ok(RowChange::Update { patch, changed, stock })
    }

    fn draft(&self, completed: ProductPatch) -> Result<ProductDraft, Vec<RowError>> {
        let p = &completed;
        let required = [
            (p.name.is_none(), Column::Name),
            (p.price.is_none(), Column::Price),
            (p.category_slug.is_none(), Column::CategorySlug),
            (p.subcategory_slug.is_none(), Column::SubcategorySlug),
            (p.oem_slug.is_none(), Column::OemSlug),
            (p.part_no.is_none(), Column::PartNo),
        ];
        let missing: Vec<RowError> = required
            .iter()
            .filter(|(missing, _)| *missing)
            .map(|(_, column)| RowError::new(self.line, column.name(), "", Message::ImportRequiredForNew))
            .collect();
        if !missing.is_empty() {
            return Err(missing);
        }
        let draft = ProductDraft::new(completed.clone(), self.quantity.unwrap_or(0))
            .map_err(|m| vec![RowError::new(self.line, Column::Sku.name(), self.sku.as_str(), m)])?;
        // A grade, donor car or margin scheme only on a used condition, as the editor keeps it.
        let product = draft.product(super::ProductId(String::new()), 0);
        super::used::check_used_fields(&product)
            .map_err(|m| vec![RowError::new(self.line, Column::Producttype.name(), product.condition.code(), m)])?;
        Ok(draft)
    }
}

/// A product's cells in the order of [`Column::exported`]: what an import reads back unchanged.
/// Prices are rupees with two decimals and no grouping, lists `|`-separated, `published`
/// `true`/`false`, a missing fuel type an empty cell.
#[must_use]
pub fn export_cells(product: &Product) -> Vec<String> {
    let d = &product.details;
    let numbers = |list: &[PartNumber]| list.iter().map(PartNumber::printed).collect::<Vec<_>>().join("|");
    Column::exported()
        .iter()
        .map(|column| match column {
            Column::Sku => d.sku.clone(),
            Column::Name => product.name.clone(),
            Column::Price => product.price.decimal_rupees(),
            Column::Quantity => product.quantity.to_string(),
            Column::Producttype => product.condition.code().to_owned(),
            Column::Description => product.description.clone(),
            Column::CategorySlug => product.category_slug.clone(),
            Column::SubcategorySlug => product.subcategory_slug.clone(),
            Column::OemSlug => product.oem_slug.clone(),
            Column::FuelType => product.fuel_type.map(|f| f.code().to_owned()).unwrap_or_default(),
            Column::Variant => product.variant.clone(),
            Column::PartNo => product.part_no.printed().to_owned(),
            Column::InsideNcr => product.inside_ncr.decimal_rupees(),
            Column::OutsideNcr => product.outside_ncr.decimal_rupees(),
            Column::Gst => product.gst_percent.to_string(),
            Column::Hsn => d.hsn.as_str().to_owned(),
            Column::WarrantyDays => d.warranty_days.days().to_string(),
            Column::WeightGrams => d.weight_grams.to_string(),
            Column::Published => d.published.to_string(),
            Column::AlternateNumbers => numbers(&d.alternate_numbers),
            Column::SupersededNumbers => numbers(&d.superseded_numbers),
            c if UsedCells::reads(*c) => used::export_cell(*c, product),
            _ => String::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests;
