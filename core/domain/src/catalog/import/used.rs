//! The import's columns for "find the part that fits" (issue 25): `fits`, `crossReferences`, and a
//! used unit's `grade`, donor car (`donorMake`, `donorModel`, `donorGeneration`, `donorYear`,
//! `donorOdometerKm`), `marginScheme` and `purchasePrice`. Each cell is read with the rules of the
//! domain types the admin product body is read with ([`Grade::parse`], [`Donor::parse`],
//! [`MarginScheme::new`], [`CrossReference::parse`], [`vehicle::fitment`]); the cells that only
//! make sense together (the donor's five, the scheme and its price) are completed from the stored
//! product, so an empty cell keeps the stored value as in every other column.
//!
//! Cell forms (docs/catalog-import.md):
//! - `fits`: rows separated by `|`, each `vehicle[:years[:note]]`, where `vehicle` is a vehicle id
//!   (`bmw-x5-g05.b57`: that engine) or a generation id (`bmw-x5-g05`: every engine), `years` is
//!   `2019-2023`, `2019-` (still made) or `2019`, or empty (`bmw-x5-g05::front axle`). Two parts whose
//!   second is not years are a vehicle and a note (`bmw-x5-g05:front axle`). `none` clears the fitment.
//! - `crossReferences`: `brand:number` items separated by `|` (`Bosch:0 986 494 104|Brembo:09.C394.13`);
//!   `none` clears them.
//! - `grade`: `A`, `B` or `C`; `none` removes it. `donorMake` `none` removes the donor car.
//! - `marginScheme`: true or false; `purchasePrice`: rupees as in `price`, only with the scheme.

use super::{cells, Column};
use crate::catalog::editor::ProductPatch;
use crate::catalog::used::{self, CrossReference, Donor, Grade, MarginScheme};
use crate::catalog::Product;
use crate::message::UserFacing;
use crate::vehicle::{self, EngineCode, FitmentNote, FitmentRow, GenerationId, ProductFit, VehicleId, YearRange};
use crate::Message;

/// The word that empties a list or removes a value.
pub const NONE: &str = "none";

fn is_none_word(cell: &str) -> bool {
    cell.trim().eq_ignore_ascii_case(NONE)
}

/// The cells of a row in these columns, as read (the ones that go straight into the product's
/// patch, `grade` and `crossReferences`, are in the patch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsedCells {
    /// The `fits` rows the row gives (`Some(empty)` for `none`).
    pub fits: Option<Vec<FitmentRow>>,
    donor_removed: bool,
    donor_make: Option<String>,
    donor_model: Option<String>,
    donor_generation: Option<String>,
    donor_year: Option<i64>,
    donor_odometer_km: Option<i64>,
    margin_scheme: Option<bool>,
    purchase_price: Option<MarginScheme>,
    /// This year, for the donor's latest model year.
    this_year: i32,
}

impl UsedCells {
    #[must_use]
    pub fn new(this_year: i32) -> Self {
        UsedCells {
            fits: None,
            donor_removed: false,
            donor_make: None,
            donor_model: None,
            donor_generation: None,
            donor_year: None,
            donor_odometer_km: None,
            margin_scheme: None,
            purchase_price: None,
            this_year,
        }
    }

    /// Whether the column is one of these.
    #[must_use]
    pub const fn reads(column: Column) -> bool {
        matches!(
            column,
            Column::Fits
                | Column::CrossReferences
                | Column::Grade
                | Column::DonorMake
                | Column::DonorModel
                | Column::DonorGeneration
                | Column::DonorYear
                | Column::DonorOdometerKm
                | Column::MarginScheme
                | Column::PurchasePrice
        )
    }

    /// Reads a non-empty cell of one of these columns (`grade` and `crossReferences` into `patch`).
    ///
    /// # Errors
    /// The message of the rule the cell breaks.
    pub fn cell(&mut self, column: Column, cell: &str, patch: &mut ProductPatch) -> Result<(), Message> {
        let number = |invalid: Message| cells::whole_number(cell).ok_or(invalid);
        let text = || Some(cell.trim().to_owned());
        match column {
            Column::Fits => self.fits = Some(fits_cell(cell)?),
            Column::CrossReferences => patch.cross_references = Some(cross_references_cell(cell)?),
            Column::Grade if is_none_word(cell) => patch.grade = Some(None),
            Column::Grade => patch.grade = Some(Some(Grade::parse(cell)?)),
            Column::DonorMake if is_none_word(cell) => self.donor_removed = true,
            Column::DonorMake => self.donor_make = text(),
            Column::DonorModel => self.donor_model = text(),
            Column::DonorGeneration => self.donor_generation = text(),
            Column::DonorYear => self.donor_year = Some(number(Message::ProductDonorInvalid)?),
            Column::DonorOdometerKm => self.donor_odometer_km = Some(number(Message::ProductDonorInvalid)?),
            Column::MarginScheme => self.margin_scheme = Some(cells::yes_no(cell)?),
            Column::PurchasePrice => {
                let price = cells::rupees_text(cell).map_err(|_| Message::ProductPurchasePriceInvalid)?;
                self.purchase_price = Some(MarginScheme::new(price)?);
            }
            _ => {}
        }
        Ok(())
    }

    /// The donor car and margin scheme the row gives, completed from `stored` (the product of its
    /// SKU, if any), written into `patch`.
    ///
    /// # Errors
    /// Each refusal with its column and value: a donor car that is not whole once completed (or
    /// removed while other donor cells are given), [`Message::ProductDonorInvalid`]; the margin
    /// scheme without a purchase price (a product not yet in it), [`Message::ProductPurchasePriceInvalid`];
    /// a purchase price for a product out of the scheme, [`Message::ImportPurchasePriceNeedsScheme`].
    pub fn complete(
        &self,
        stored: Option<&Product>,
        patch: &mut ProductPatch,
    ) -> Result<(), Vec<(Column, String, Message)>> {
        let mut errors = Vec::new();
        if let Err(e) = self.complete_donor(stored, patch) {
            errors.push(e);
        }
        if let Err(e) = self.complete_margin_scheme(stored, patch) {
            errors.push(e);
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    fn complete_donor(
        &self,
        stored: Option<&Product>,
        patch: &mut ProductPatch,
    ) -> Result<(), (Column, String, Message)> {
        let given: [(Column, Option<String>); 4] = [
            (Column::DonorModel, self.donor_model.clone()),
            (Column::DonorGeneration, self.donor_generation.clone()),
            (Column::DonorYear, self.donor_year.map(|y| y.to_string())),
            (Column::DonorOdometerKm, self.donor_odometer_km.map(|k| k.to_string())),
        ];
        let any_given = self.donor_make.is_some() || given.iter().any(|(_, v)| v.is_some());
        if self.donor_removed {
            if let Some((column, value)) = given.into_iter().find_map(|(c, v)| v.map(|v| (c, v))) {
                return Err((column, value, Message::ProductDonorInvalid));
            }
            patch.donor = Some(None);
            return Ok(());
        }
        if !any_given {
            return Ok(());
        }
        let before = stored.and_then(|p| p.details.donor.as_ref());
        let make = self.donor_make.clone().or_else(|| before.map(|d| d.make.clone()));
        let model = self.donor_model.clone().or_else(|| before.map(|d| d.model.clone()));
        let generation = self.donor_generation.clone().or_else(|| before.map(|d| d.generation.clone()));
        let year = self.donor_year.or_else(|| before.map(|d| i64::from(d.year)));
        let odometer = self.donor_odometer_km.or_else(|| before.map(|d| i64::from(d.odometer_km)));
        let (Some(make), Some(model), Some(generation), Some(year), Some(odometer)) =
            (make, model, generation, year, odometer)
        else {
            // A donor the shop does not have yet needs all five cells: the first one missing is reported.
            let missing = [
                (Column::DonorMake, self.donor_make.is_none()),
                (Column::DonorModel, self.donor_model.is_none()),
                (Column::DonorGeneration, self.donor_generation.is_none()),
                (Column::DonorYear, self.donor_year.is_none()),
                (Column::DonorOdometerKm, self.donor_odometer_km.is_none()),
            ];
            let column = missing.iter().find(|(_, m)| *m).map_or(Column::DonorMake, |(c, _)| *c);
            return Err((column, String::new(), Message::ProductDonorInvalid));
        };
        let donor = Donor::parse((&make, &model, &generation), year, odometer, self.this_year).map_err(|m| {
            // Reported on the first cell the row gave.
            let first = [
                (Column::DonorMake, self.donor_make.clone()),
                (Column::DonorModel, self.donor_model.clone()),
                (Column::DonorGeneration, self.donor_generation.clone()),
                (Column::DonorYear, self.donor_year.map(|y| y.to_string())),
                (Column::DonorOdometerKm, self.donor_odometer_km.map(|k| k.to_string())),
            ]
            .into_iter()
            .find_map(|(c, v)| v.map(|v| (c, v)))
            .unwrap_or((Column::DonorMake, String::new()));
            (first.0, first.1, m)
        })?;
        patch.donor = Some(Some(donor));
        Ok(())
    }

    fn complete_margin_scheme(
        &self,
        stored: Option<&Product>,
        patch: &mut ProductPatch,
    ) -> Result<(), (Column, String, Message)> {
        let before = stored.and_then(|p| p.details.margin_scheme);
        let price_text = |s: &MarginScheme| s.purchase_price.decimal_rupees();
        match (self.margin_scheme, self.purchase_price) {
            (None, None) => {}
            (Some(true), Some(scheme)) => patch.margin_scheme = Some(Some(scheme)),
            (Some(true), None) => match before {
                Some(kept) => patch.margin_scheme = Some(Some(kept)),
                None => return Err((Column::PurchasePrice, String::new(), Message::ProductPurchasePriceInvalid)),
            },
            (Some(false), None) => patch.margin_scheme = Some(None),
            (Some(false), Some(scheme)) => {
                return Err((Column::PurchasePrice, price_text(&scheme), Message::ImportPurchasePriceNeedsScheme))
            }
            (None, Some(scheme)) if before.is_some() => patch.margin_scheme = Some(Some(scheme)),
            (None, Some(scheme)) => {
                return Err((Column::PurchasePrice, price_text(&scheme), Message::ImportPurchasePriceNeedsScheme))
            }
        }
        Ok(())
    }

    /// The fitment rows to write when the row's `fits` differ from `stored`'s (every row of a new
    /// product's non-empty `fits`).
    #[must_use]
    pub fn fits_to_write(&self, stored: Option<&Product>) -> Option<&[FitmentRow]> {
        let rows = self.fits.as_deref()?;
        let before: Vec<&FitmentRow> =
            stored.map(|p| p.details.fits.iter().map(|f| &f.row).collect()).unwrap_or_default();
        let same = rows.len() == before.len() && rows.iter().zip(&before).all(|(a, b)| a == *b);
        (!same).then_some(rows)
    }
}

/// Reads a `fits` cell: `none` is no row; otherwise `|`-separated rows (empty ones left out), at
/// most [`vehicle::MAX_FITMENT_ROWS`], none twice.
///
/// # Errors
/// [`Message::VehicleUnknown`] for a vehicle or generation that cannot be an id,
/// [`Message::VehicleYearInvalid`], [`Message::FitmentNoteTooLong`], [`Message::FitmentInvalid`]
/// for a row given twice, [`Message::FitmentTooMany`].
pub fn fits_cell(cell: &str) -> Result<Vec<FitmentRow>, Message> {
    if is_none_word(cell) {
        return Ok(Vec::new());
    }
    let rows = cells::list(cell).iter().map(|entry| fits_entry(entry)).collect::<Result<Vec<_>, _>>()?;
    vehicle::fitment(rows).map_err(|e| e.message())
}

/// `2019-2023`, `2019-`, `2019` (also with an en dash, as the shop shows ranges).
fn years(text: &str) -> Option<Result<YearRange, Message>> {
    let text = text.trim();
    let looks_like = !text.is_empty() && text.chars().all(|c| c.is_ascii_digit() || c == '-' || c == '–' || c == ' ');
    if !looks_like {
        return None;
    }
    let invalid = Message::VehicleYearInvalid;
    let number = |t: &str| t.trim().parse::<i64>().map_err(|_| invalid);
    let range = match text.split_once(['-', '–']) {
        None => number(text).and_then(|y| YearRange::new(y, Some(y)).map_err(|e| e.message())),
        Some((from, to)) if to.trim().is_empty() => {
            number(from).and_then(|f| YearRange::new(f, None).map_err(|e| e.message()))
        }
        Some((from, to)) => {
            number(from).and_then(|f| number(to).and_then(|t| YearRange::new(f, Some(t)).map_err(|e| e.message())))
        }
    };
    Some(range)
}

fn fits_entry(entry: &str) -> Result<FitmentRow, Message> {
    let mut parts = entry.splitn(3, ':');
    let vehicle_text = parts.next().unwrap_or("").trim();
    let second = parts.next();
    let third = parts.next();
    let (generation, engine) = if vehicle_text.contains('.') {
        let id = VehicleId::parse(vehicle_text).map_err(|e| e.message())?;
        (id.generation, Some(id.engine))
    } else {
        (GenerationId::parse(&vehicle_text.to_ascii_lowercase()).map_err(|e| e.message())?, None::<EngineCode>)
    };
    let (years, note) = match (second, third) {
        (None, _) => (None, ""),
        (Some(second), None) => match years(second) {
            Some(range) => (Some(range?), ""),
            None => (None, second),
        },
        (Some(second), Some(note)) if second.trim().is_empty() => (None, note),
        (Some(second), Some(note)) => match years(second) {
            Some(range) => (Some(range?), note),
            None => return Err(Message::VehicleYearInvalid),
        },
    };
    let note = FitmentNote::parse(note).map_err(|e| e.message())?;
    Ok(FitmentRow { generation, engine, years, note })
}

/// A product's fitment as a `fits` cell reads it back.
#[must_use]
pub fn fits_text(fits: &[ProductFit]) -> String {
    fits.iter()
        .map(|f| {
            let r = &f.row;
            let mut out = match &r.engine {
                Some(engine) => VehicleId { generation: r.generation.clone(), engine: engine.clone() }.to_string(),
                None => r.generation.to_string(),
            };
            let years = r.years.map(|y| match y.to {
                Some(to) if to == y.from => to.to_string(),
                Some(to) => format!("{}-{to}", y.from),
                None => format!("{}-", y.from),
            });
            match (years, &r.note) {
                (None, None) => {}
                (Some(years), None) => out = format!("{out}:{years}"),
                (years, Some(note)) => out = format!("{out}:{}:{}", years.unwrap_or_default(), note.as_str()),
            }
            out
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// Reads a `crossReferences` cell: `none` is no reference; otherwise `brand:number` items.
///
/// # Errors
/// [`Message::ProductCrossReferenceInvalid`] for an item without a brand or a number,
/// [`Message::ProductCrossReferencesTooMany`].
pub fn cross_references_cell(cell: &str) -> Result<Vec<CrossReference>, Message> {
    if is_none_word(cell) {
        return Ok(Vec::new());
    }
    let refs = cells::list(cell)
        .iter()
        .map(|item| {
            let (brand, number) = item.split_once(':').ok_or(Message::ProductCrossReferenceInvalid)?;
            CrossReference::parse(brand, number)
        })
        .collect::<Result<Vec<_>, _>>()?;
    used::cross_references(refs)
}

/// A product's cell in one of these columns, as an import reads it back unchanged.
#[must_use]
pub fn export_cell(column: Column, product: &Product) -> String {
    let d = &product.details;
    let donor = d.donor.as_ref();
    match column {
        Column::Fits => fits_text(&d.fits),
        Column::CrossReferences => d
            .cross_references
            .iter()
            .map(|r| format!("{}:{}", r.brand, r.number.printed()))
            .collect::<Vec<_>>()
            .join("|"),
        Column::Grade => d.grade.map(|g| g.letter().to_owned()).unwrap_or_default(),
        Column::DonorMake => donor.map(|d| d.make.clone()).unwrap_or_default(),
        Column::DonorModel => donor.map(|d| d.model.clone()).unwrap_or_default(),
        Column::DonorGeneration => donor.map(|d| d.generation.clone()).unwrap_or_default(),
        Column::DonorYear => donor.map(|d| d.year.to_string()).unwrap_or_default(),
        Column::DonorOdometerKm => donor.map(|d| d.odometer_km.to_string()).unwrap_or_default(),
        Column::MarginScheme => d.margin_scheme.is_some().to_string(),
        Column::PurchasePrice => d.margin_scheme.map(|m| m.purchase_price.decimal_rupees()).unwrap_or_default(),
        _ => String::new(),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use proptest::prelude::*;

    use super::super::{ImportHeader, RowChange, RowError};
    use super::*;
    use crate::catalog::{Condition, ProductDetails, ProductId};
    use crate::{Money, PartNumber};

    const YEAR: i32 = 2026;

    fn header(names: &[&str]) -> ImportHeader {
        ImportHeader::parse(names).expect("a header").0.with_this_year(YEAR)
    }

    fn gen(id: &str) -> GenerationId {
        GenerationId::parse(id).expect("generation")
    }

    fn row(generation: &str, engine: Option<&str>, years: Option<(i64, Option<i64>)>, note: &str) -> FitmentRow {
        FitmentRow {
            generation: gen(generation),
            engine: engine.map(|e| EngineCode::parse(e).expect("engine")),
            years: years.map(|(f, t)| YearRange::new(f, t).expect("years")),
            note: FitmentNote::parse(note).expect("note"),
        }
    }

    /// A used BMW unit in the shop, with a donor and the margin scheme.
    fn stored_used() -> Product {
        Product {
            id: ProductId("p9".into()),
            name: "Alternator".into(),
            price: Money::from_rupees(18_000),
            quantity: 1,
            condition: Condition::Old,
            images: Vec::new(),
            description: String::new(),
            category: "Electrics".into(),
            category_slug: "electrics".into(),
            subcategory: "Alternators".into(),
            subcategory_slug: "alternators".into(),
            oem: "BMW".into(),
            oem_slug: "bmw".into(),
            fuel_type: None,
            variant: String::new(),
            part_no: PartNumber::parse("12 31 8 603 775").expect("valid"),
            inside_ncr: Money::ZERO,
            outside_ncr: Money::ZERO,
            gst_percent: 18,
            units_sold: 0,
            created_at: 1,
            details: ProductDetails {
                sku: "USED-ALT-1".into(),
                grade: Some(Grade::B),
                donor: Some(Donor::parse(("BMW", "X5", "G05"), 2019, 84_000, YEAR).expect("donor")),
                margin_scheme: Some(MarginScheme::new(Money::from_rupees(9_000)).expect("scheme")),
                ..ProductDetails::default()
            },
        }
    }

    #[test]
    fn fits_cells_read_vehicles_generations_years_and_notes() {
        let read = fits_cell(
            "bmw-x5-g05.B57:2019-2023:with M Sport brakes | BMW-X5-G05 | mercedes-benz-e-class-w213::front axle|\
             audi-a4-b9:2016-|audi-q7-4m:2020|volvo-xc90-2::front: left",
        )
        .expect("valid");
        assert_eq!(
            read,
            vec![
                row("bmw-x5-g05", Some("B57"), Some((2019, Some(2023))), "with M Sport brakes"),
                row("bmw-x5-g05", None, None, ""),
                row("mercedes-benz-e-class-w213", None, None, "front axle"),
                row("audi-a4-b9", None, Some((2016, None)), ""),
                row("audi-q7-4m", None, Some((2020, Some(2020))), ""),
                row("volvo-xc90-2", None, None, "front: left"),
            ]
        );
        assert_eq!(fits_cell(" NONE "), Ok(Vec::new()));
        assert_eq!(
            fits_cell("bmw-x5-g05.b57:2019–2023"),
            Ok(vec![row("bmw-x5-g05", Some("B57"), Some((2019, Some(2023))), "")])
        );
        assert_eq!(
            fits_cell("BMW X5 G05"),
            Err(Message::VehicleUnknown),
            "not an id (the table is asked by the use case)"
        );
        assert_eq!(fits_cell("bmw-x5-g05.b57.x"), Err(Message::VehicleUnknown));
        assert_eq!(fits_cell("bmw-x5-g05:2023-2019"), Err(Message::VehicleYearInvalid));
        assert_eq!(fits_cell("bmw-x5-g05:1900"), Err(Message::VehicleYearInvalid));
        assert_eq!(fits_cell("bmw-x5-g05:soon:note"), Err(Message::VehicleYearInvalid));
        assert_eq!(
            fits_cell("bmw-x5-g05:front: left"),
            Err(Message::VehicleYearInvalid),
            "a note with a colon after `::`"
        );
        assert_eq!(fits_cell(&format!("bmw-x5-g05::{}", "n".repeat(81))), Err(Message::FitmentNoteTooLong));
        assert_eq!(fits_cell("bmw-x5-g05|BMW-X5-G05"), Err(Message::FitmentInvalid), "a row twice");
        let many: Vec<String> = (0..201).map(|n| format!("bmw-x{n}-g05")).collect();
        assert_eq!(fits_cell(&many.join("|")), Err(Message::FitmentTooMany));
    }

    #[test]
    fn cross_references_are_brand_and_number() {
        let refs = cross_references_cell("Bosch: 0 986 494 104 | Brembo:09.C394.13|bosch:0986494104").expect("valid");
        let shown: Vec<(String, String)> =
            refs.iter().map(|r| (r.brand.clone(), r.number.printed().to_owned())).collect();
        assert_eq!(shown, [("Bosch".into(), "0 986 494 104".into()), ("Brembo".into(), "09.C394.13".into())]);
        assert_eq!(cross_references_cell("none"), Ok(Vec::new()));
        for bad in ["Bosch 0986494104", ":0986", "Bosch:", "Bosch:--"] {
            assert_eq!(cross_references_cell(bad), Err(Message::ProductCrossReferenceInvalid), "{bad:?}");
        }
        let many: Vec<String> = (0..21).map(|n| format!("Bosch:{n}")).collect();
        assert_eq!(cross_references_cell(&many.join("|")), Err(Message::ProductCrossReferencesTooMany));
    }

    const USED_HEADER: [&str; 14] = [
        "sku",
        "name",
        "price",
        "producttype",
        "category_slug",
        "subcategory_slug",
        "oem_slug",
        "partNo",
        "grade",
        "donorMake",
        "donorModel",
        "donorGeneration",
        "donorYear",
        "donorOdometerKm",
    ];

    #[test]
    fn a_new_used_unit_needs_its_whole_donor_and_a_used_condition() {
        let h = header(&[&USED_HEADER[..], &["marginScheme", "purchasePrice"]].concat());
        let base = ["used-1", "Alternator", "18000", "old", "electrics", "alternators", "bmw", "12318603775"];
        let cells =
            |rest: [&str; 8]| -> Vec<String> { base.iter().chain(rest.iter()).map(|s| (*s).to_owned()).collect() };
        let read = |rest: [&str; 8]| {
            let cells = cells(rest);
            let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
            h.row(2, &cells)
        };
        let whole = read(["b", "BMW", "X5", "G05", "2019", "84000", "yes", "9,000"]).expect("read");
        let Ok(RowChange::Create(draft)) = whole.compare(None) else { panic!("a creation") };
        let product = draft.product(ProductId("n".into()), 0);
        assert_eq!(product.details.grade, Some(Grade::B));
        assert_eq!(product.details.donor, stored_used().details.donor);
        assert_eq!(product.details.margin_scheme, stored_used().details.margin_scheme);

        let part = read(["", "BMW", "X5", "", "2019", "", "", ""]).expect("cells read");
        assert_eq!(
            part.compare(None),
            Err(vec![RowError::new(2, "donorGeneration", "", Message::ProductDonorInvalid)])
        );
        let future = read(["", "BMW", "X5", "G05", "2028", "1", "", ""]).expect("cells read");
        assert_eq!(future.compare(None), Err(vec![RowError::new(2, "donorMake", "BMW", Message::ProductDonorInvalid)]));
        let no_price = read(["", "", "", "", "", "", "true", ""]).expect("cells read");
        assert_eq!(
            no_price.compare(None),
            Err(vec![RowError::new(2, "purchasePrice", "", Message::ProductPurchasePriceInvalid)]),
            "a new product is not in the margin scheme without its purchase price"
        );
        let not_used = {
            let mut cells = cells(["A", "", "", "", "", "", "", ""]);
            cells[3] = "new".into();
            let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
            h.row(2, &cells).expect("cells read")
        };
        assert_eq!(not_used.compare(None), Err(vec![RowError::new(2, "producttype", "new", Message::ProductUsedOnly)]));
        assert_eq!(
            read(["D", "", "", "", "nineteen", "-", "maybe", "0"]).expect_err("refused"),
            vec![
                RowError::new(2, "grade", "D", Message::ProductGradeInvalid),
                RowError::new(2, "donorYear", "nineteen", Message::ProductDonorInvalid),
                RowError::new(2, "donorOdometerKm", "-", Message::ProductDonorInvalid),
                RowError::new(2, "marginScheme", "maybe", Message::ImportBooleanInvalid),
                RowError::new(2, "purchasePrice", "0", Message::ProductPurchasePriceInvalid),
            ]
        );
    }

    #[test]
    fn a_stored_used_unit_keeps_what_the_row_leaves_empty() {
        let stored = stored_used();
        let h = header(&["sku", "donorYear", "donorMake", "marginScheme", "purchasePrice", "grade"]);
        let change = |cells: &[&str]| h.row(2, cells).expect("read").compare(Some(&stored));
        assert_eq!(change(&["used-alt-1", "", "", "", "", ""]), Ok(RowChange::Unchanged));
        assert_eq!(change(&["used-alt-1", "2019", "BMW", "true", "9000", "b"]), Ok(RowChange::Unchanged));
        let Ok(RowChange::Update { patch, changed, .. }) = change(&["used-alt-1", "2020", "", "", "9500", ""]) else {
            panic!("an update")
        };
        assert_eq!(changed, [Column::DonorMake, Column::MarginScheme]);
        let donor = patch.donor.flatten().expect("a donor");
        assert_eq!(
            (donor.make.as_str(), donor.generation.as_str(), donor.year, donor.odometer_km),
            ("BMW", "G05", 2020, 84_000)
        );
        assert_eq!(patch.margin_scheme.flatten().map(|m| m.purchase_price), Some(Money::from_rupees(9_500)));
        let Ok(RowChange::Update { patch, .. }) = change(&["used-alt-1", "", "none", "false", "", "none"]) else {
            panic!("an update")
        };
        assert_eq!((patch.donor, patch.margin_scheme, patch.grade), (Some(None), Some(None), Some(None)));
        assert_eq!(
            change(&["used-alt-1", "2019", "none", "", "", ""]),
            Err(vec![RowError::new(2, "donorYear", "2019", Message::ProductDonorInvalid)]),
            "a donor removed and given at once"
        );
        assert_eq!(
            change(&["used-alt-1", "", "", "false", "100", ""]),
            Err(vec![RowError::new(2, "purchasePrice", "100.00", Message::ImportPurchasePriceNeedsScheme)])
        );
        let mut out = stored.clone();
        out.details.margin_scheme = None;
        let h = header(&["sku", "purchasePrice"]);
        assert_eq!(
            h.row(2, &["used-alt-1", "₹1,000"]).expect("read").compare(Some(&out)),
            Err(vec![RowError::new(2, "purchasePrice", "1000.00", Message::ImportPurchasePriceNeedsScheme)])
        );
    }

    #[test]
    fn fits_differing_from_the_stored_rows_are_written() {
        let mut stored = stored_used();
        let fit = |r: FitmentRow| ProductFit {
            row: r,
            make: "BMW".into(),
            model: "X5".into(),
            generation: "G05".into(),
            engine_label: None,
        };
        stored.details.fits = vec![fit(row("bmw-x5-g05", Some("B57"), None, "front axle"))];
        let h = header(&["sku", "fits"]);
        let same = h.row(2, &["used-alt-1", "bmw-x5-g05.b57::front axle"]).expect("read");
        assert_eq!(same.compare(Some(&stored)), Ok(RowChange::Unchanged));
        assert_eq!(same.used.fits_to_write(Some(&stored)), None);
        let other = h.row(2, &["used-alt-1", "bmw-x5-g05.b57"]).expect("read");
        let Ok(RowChange::Update { changed, .. }) = other.compare(Some(&stored)) else { panic!("an update") };
        assert_eq!(changed, [Column::Fits]);
        assert_eq!(other.used.fits_to_write(Some(&stored)), Some(&[row("bmw-x5-g05", Some("B57"), None, "")][..]));
        let cleared = h.row(2, &["used-alt-1", "none"]).expect("read");
        assert_eq!(cleared.used.fits_to_write(Some(&stored)), Some(&[][..]));
        assert_eq!(cleared.used.fits_to_write(None), None, "a new product without fitment has none to write");
    }

    fn fitment_row() -> impl Strategy<Value = FitmentRow> {
        (
            prop::sample::select(vec![
                "bmw-x5-g05",
                "mercedes-benz-e-class-w213",
                "audi-a4-b9",
                "land-rover-defender-l663",
            ]),
            prop::option::of(prop::sample::select(vec!["B57", "OM654", "CVKA", "PT204", "N-55"])),
            prop::option::of((1950i64..=2100, prop::option::of(0i64..=10))),
            "[a-zA-Z0-9 ,.:()/अ-ह-]{0,30}",
        )
            .prop_map(|(g, e, years, note)| FitmentRow {
                generation: gen(g),
                engine: e.map(|e| EngineCode::parse(e).expect("engine")),
                years: years
                    .map(|(from, span)| YearRange::new(from, span.map(|s| (from + s).min(2100))).expect("years")),
                note: FitmentNote::parse(&note).expect("note"),
            })
    }

    prop_compose! {
        /// The issue 25 details of a product an export may hold (a used condition when it has any).
        pub(in crate::catalog::import) fn details()(
            rows in prop::collection::vec(fitment_row(), 0..5),
            refs in prop::collection::vec(("[A-Z][a-z]{0,8}( [A-Z][a-z]{1,6})?", "[A-Z0-9]{1,4}[ .-]?[0-9]{1,6}"), 0..4),
            grade in prop::option::of(prop::sample::select(Grade::ALL.to_vec())),
            donor in prop::option::of(("[A-Z][a-zA-Z -]{0,20}", "[A-Z0-9][a-zA-Z0-9 -]{0,10}", "[A-Z0-9]{1,6}", 1950i64..=2027, 0i64..=2_000_000)),
            scheme in prop::option::of(1i64..=1_000_000_000),
        ) -> ProductDetails {
            let mut fits: Vec<ProductFit> = Vec::new();
            for r in vehicle::fitment(dedup(rows)).expect("distinct rows") {
                fits.push(ProductFit { row: r, make: String::new(), model: String::new(), generation: String::new(), engine_label: None });
            }
            let refs = refs.into_iter().map(|(b, n)| CrossReference::parse(&b, &n).expect("a reference")).collect();
            ProductDetails {
                fits,
                cross_references: used::cross_references(refs).expect("few"),
                grade,
                donor: donor.map(|(make, model, g, y, km)| Donor::parse((&make, &model, &g), y, km, YEAR).expect("donor")),
                margin_scheme: scheme.map(|p| MarginScheme::new(Money::from_paise(p)).expect("scheme")),
                ..ProductDetails::default()
            }
        }
    }

    fn dedup(rows: Vec<FitmentRow>) -> Vec<FitmentRow> {
        let mut kept: Vec<FitmentRow> = Vec::new();
        for r in rows {
            if !kept.iter().any(|k| k.generation == r.generation && k.engine == r.engine && k.years == r.years) {
                kept.push(r);
            }
        }
        kept
    }

    proptest! {
        /// Any fitment written as a `fits` cell reads back as the same rows.
        #[test]
        fn fits_cells_read_back_what_they_wrote(details in details()) {
            let text = fits_text(&details.fits);
            let rows: Vec<FitmentRow> = details.fits.iter().map(|f| f.row.clone()).collect();
            prop_assert_eq!(fits_cell(&text), Ok(rows));
        }
    }
}
