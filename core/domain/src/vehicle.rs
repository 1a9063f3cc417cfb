//! Vehicles and fitment: which cars a part fits (issue 25).
//!
//! A vehicle is one engine of one generation of a model (`BMW X5 G05 3.0d, B57`); its id names
//! both: `{generation id}.{engine code}` in lower case, e.g. `bmw-x5-g05.b57`, where the
//! generation id is made of the make's slug, the model and the generation code
//! (`bmw-x5-g05`). A product's fitment is a list of rows, each a generation with, optionally,
//! one engine of it, a range of model years and a short note ("front axle"). Matching is
//! [`FitmentRow::fits`]: same generation; the row's engine when it names one (a row without
//! engine fits every engine of its generation); the row's years hold the car's year when both
//! are given (a car without a year, or a row without years, is not narrowed by year).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::catalog::FuelType;
use crate::filters::{BrandSlug, FilterValue};
use crate::message::{user_facing_error, Message, UserFacing};

/// The makes the shop sells parts for: slug and name as the makers write it.
pub const MAKES: [(&str, &str); 8] = [
    ("audi", "Audi"),
    ("bmw", "BMW"),
    ("mercedes-benz", "Mercedes-Benz"),
    ("jaguar", "Jaguar"),
    ("land-rover", "Land Rover"),
    ("range-rover", "Range Rover"),
    ("volvo", "Volvo"),
    ("porsche", "Porsche"),
];

/// Earliest and latest model year the shop accepts.
pub const FIRST_YEAR: u16 = 1950;
pub const LAST_YEAR: u16 = 2100;
/// Most fitment rows one product carries.
pub const MAX_FITMENT_ROWS: usize = 200;
/// Longest note of a fitment row, in characters.
pub const MAX_NOTE_CHARS: usize = 80;
/// Longest model name, generation code, engine code and engine label, in characters.
pub const MAX_MODEL_CHARS: usize = 40;
pub const MAX_CODE_CHARS: usize = 16;
pub const MAX_ENGINE_LABEL_CHARS: usize = 24;

/// Why a vehicle, a vehicle id, a year or a fitment row was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VehicleError {
    /// Not a vehicle id, or no such vehicle (`vehicle.unknown`).
    Unknown,
    /// A year outside [`FIRST_YEAR`]..=[`LAST_YEAR`], or a range that ends before it starts.
    YearInvalid,
    /// A make the shop does not sell, or an empty or too long model, code or label.
    Invalid,
    /// A fitment row naming no known generation, an engine its generation does not have,
    /// or the same row twice.
    FitmentInvalid,
    /// More than [`MAX_FITMENT_ROWS`] rows.
    FitmentTooMany,
    /// A note longer than [`MAX_NOTE_CHARS`].
    NoteTooLong,
    /// More than [`GARAGE_MAX_CARS`] cars in a shopper's garage (`garage.too_many`).
    GarageTooMany,
}

impl UserFacing for VehicleError {
    fn message(&self) -> Message {
        match self {
            VehicleError::Unknown => Message::VehicleUnknown,
            VehicleError::YearInvalid => Message::VehicleYearInvalid,
            VehicleError::Invalid => Message::VehicleInvalid,
            VehicleError::FitmentInvalid => Message::FitmentInvalid,
            VehicleError::FitmentTooMany => Message::FitmentTooMany,
            VehicleError::NoteTooLong => Message::FitmentNoteTooLong,
            VehicleError::GarageTooMany => Message::GarageTooMany,
        }
    }
}
user_facing_error!(VehicleError);

/// Lower-case letters and digits in groups joined by single hyphens: `X5 M` → `x5-m`.
#[must_use]
pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// The name of the make with this slug, when the shop sells it.
#[must_use]
pub fn make_name(slug: &str) -> Option<&'static str> {
    MAKES.iter().find(|(s, _)| *s == slug).map(|(_, name)| *name)
}

/// A generation of a model: `bmw-x5-g05`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct GenerationId(String);

impl GenerationId {
    /// The generation of `model` (`X5`) with code `code` (`G05`) by the make `make`.
    #[must_use]
    pub fn of(make: &BrandSlug, model: &str, code: &str) -> Self {
        Self(format!("{}-{}-{}", make.as_str(), slugify(model), slugify(code)))
    }

    /// A slug of at most 100 characters.
    ///
    /// # Errors
    /// [`VehicleError::Unknown`] when `text` cannot be a generation id.
    pub fn parse(text: &str) -> Result<Self, VehicleError> {
        let ok = !text.is_empty() && text.len() <= 100 && BrandSlug::from_code(text).is_some();
        ok.then(|| Self(text.to_owned())).ok_or(VehicleError::Unknown)
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for GenerationId {
    type Error = VehicleError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<GenerationId> for String {
    fn from(g: GenerationId) -> Self {
        g.0
    }
}

impl fmt::Display for GenerationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An engine's code as the maker writes it, upper case: `B57`, `OM654`, `PT204`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct EngineCode(String);

impl EngineCode {
    /// Letters and digits (hyphens between them), 1 to [`MAX_CODE_CHARS`] characters; kept in
    /// upper case, so `b57` and `B57` are one code.
    ///
    /// # Errors
    /// [`VehicleError::Invalid`] otherwise.
    pub fn parse(text: &str) -> Result<Self, VehicleError> {
        let upper = text.trim().to_ascii_uppercase();
        let ok = !upper.is_empty()
            && upper.len() <= MAX_CODE_CHARS
            && upper.split('-').all(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_alphanumeric()));
        ok.then_some(Self(upper)).ok_or(VehicleError::Invalid)
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for EngineCode {
    type Error = VehicleError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<EngineCode> for String {
    fn from(c: EngineCode) -> Self {
        c.0
    }
}

/// A vehicle: one engine of one generation, written `{generation}.{engine}` in lower case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VehicleId {
    pub generation: GenerationId,
    pub engine: EngineCode,
}

impl VehicleId {
    /// Reads `bmw-x5-g05.b57` (any case).
    ///
    /// # Errors
    /// [`VehicleError::Unknown`] when `text` cannot be a vehicle id.
    pub fn parse(text: &str) -> Result<Self, VehicleError> {
        let lower = text.trim().to_ascii_lowercase();
        let (generation, engine) = lower.rsplit_once('.').ok_or(VehicleError::Unknown)?;
        Ok(Self {
            generation: GenerationId::parse(generation)?,
            engine: EngineCode::parse(engine).map_err(|_| VehicleError::Unknown)?,
        })
    }
}

impl fmt::Display for VehicleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.generation, self.engine.as_str().to_ascii_lowercase())
    }
}

/// A model year the shop accepts.
///
/// # Errors
/// [`VehicleError::YearInvalid`] outside [`FIRST_YEAR`]..=[`LAST_YEAR`].
pub fn year(n: i64) -> Result<u16, VehicleError> {
    u16::try_from(n).ok().filter(|y| (FIRST_YEAR..=LAST_YEAR).contains(y)).ok_or(VehicleError::YearInvalid)
}

/// Model years from `from` to `to` inclusive; `to` absent while the model is still made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct YearRange {
    pub from: u16,
    pub to: Option<u16>,
}

impl YearRange {
    /// # Errors
    /// [`VehicleError::YearInvalid`] when a year is out of range or `to` is before `from`.
    pub fn new(from: i64, to: Option<i64>) -> Result<Self, VehicleError> {
        let from = year(from)?;
        let to = to.map(year).transpose()?;
        if to.is_some_and(|t| t < from) {
            return Err(VehicleError::YearInvalid);
        }
        Ok(Self { from, to })
    }

    /// Whether `year` is one of the range's years.
    #[must_use]
    pub fn holds(&self, year: u16) -> bool {
        self.from <= year && self.to.is_none_or(|to| year <= to)
    }
}

/// `2019–` or `2013–2018`.
impl fmt::Display for YearRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to {
            Some(to) if to == self.from => write!(f, "{to}"),
            Some(to) => write!(f, "{}–{to}", self.from),
            None => write!(f, "{}–", self.from),
        }
    }
}

/// An engine of a generation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Engine {
    pub code: EngineCode,
    pub fuel: FuelType,
    /// What a shopper calls it: `3.0d`, `2.0 TFSI`, `P400e`.
    pub label: String,
}

/// One row of the vehicle table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vehicle {
    pub make: BrandSlug,
    /// As the maker writes it: `X5`, `E-Class`, `Range Rover Sport`.
    pub model: String,
    /// The generation or body code: `G05`, `W213`, `L494`.
    pub generation: String,
    pub engine: Engine,
    pub years: YearRange,
}

impl Vehicle {
    /// Checks every field: a make the shop sells, a model, a generation code and an engine label
    /// of sensible length.
    ///
    /// # Errors
    /// [`VehicleError::Invalid`] for a field that is not one.
    pub fn new(
        make: &str,
        model: &str,
        generation: &str,
        engine: Engine,
        years: YearRange,
    ) -> Result<Self, VehicleError> {
        let make = BrandSlug::from_code(make.trim()).filter(|m| make_name(m.as_str()).is_some());
        let fits =
            |s: &str, max: usize| !s.trim().is_empty() && s.trim().chars().count() <= max && !slugify(s).is_empty();
        let ok = fits(model, MAX_MODEL_CHARS)
            && fits(generation, MAX_CODE_CHARS)
            && !engine.label.trim().is_empty()
            && engine.label.trim().chars().count() <= MAX_ENGINE_LABEL_CHARS;
        match make {
            Some(make) if ok => Ok(Self {
                make,
                model: model.trim().to_owned(),
                generation: generation.trim().to_owned(),
                engine: Engine { label: engine.label.trim().to_owned(), ..engine },
                years,
            }),
            _ => Err(VehicleError::Invalid),
        }
    }

    #[must_use]
    pub fn generation_id(&self) -> GenerationId {
        GenerationId::of(&self.make, &self.model, &self.generation)
    }

    #[must_use]
    pub fn id(&self) -> VehicleId {
        VehicleId { generation: self.generation_id(), engine: self.engine.code.clone() }
    }

    /// The make's name: `Mercedes-Benz`.
    #[must_use]
    pub fn make_name(&self) -> &'static str {
        make_name(self.make.as_str()).unwrap_or("")
    }
}

/// A note on a fitment row, at most [`MAX_NOTE_CHARS`] characters: "front axle".
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct FitmentNote(String);

impl FitmentNote {
    /// Blank is no note.
    ///
    /// # Errors
    /// [`VehicleError::NoteTooLong`] above [`MAX_NOTE_CHARS`] characters.
    pub fn parse(text: &str) -> Result<Option<Self>, VehicleError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        if text.chars().count() > MAX_NOTE_CHARS || text.chars().any(char::is_control) {
            return Err(VehicleError::NoteTooLong);
        }
        Ok(Some(Self(text.to_owned())))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for FitmentNote {
    type Error = VehicleError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)?.ok_or(VehicleError::FitmentInvalid)
    }
}

impl From<FitmentNote> for String {
    fn from(n: FitmentNote) -> Self {
        n.0
    }
}

/// One row of a product's fitment.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FitmentRow {
    pub generation: GenerationId,
    /// The one engine of the generation it fits; `None` fits every engine.
    pub engine: Option<EngineCode>,
    /// The model years it fits; `None` fits every year.
    pub years: Option<YearRange>,
    pub note: Option<FitmentNote>,
}

/// A fitment row as a product shows it: the row, with the names of what it fits as they were when
/// the row was written (vehicles are added to the table, never renamed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductFit {
    pub row: FitmentRow,
    /// The make's name: `BMW`.
    pub make: String,
    /// `X5`.
    pub model: String,
    /// The generation code: `G05`.
    pub generation: String,
    /// The engine's label (`3.0d`) when the row names an engine.
    pub engine_label: Option<String>,
}

impl ProductFit {
    /// The row shown with the names of `vehicles` (the vehicles of its generation).
    ///
    /// # Errors
    /// [`VehicleError::FitmentInvalid`] when `vehicles` holds none of the row's generation, or not
    /// its engine.
    pub fn named(row: FitmentRow, vehicles: &[Vehicle]) -> Result<Self, VehicleError> {
        check_against(std::slice::from_ref(&row), vehicles)?;
        let first =
            vehicles.iter().find(|v| v.generation_id() == row.generation).ok_or(VehicleError::FitmentInvalid)?;
        let engine_label = row
            .engine
            .as_ref()
            .and_then(|e| vehicles.iter().find(|v| v.generation_id() == row.generation && v.engine.code == *e))
            .map(|v| v.engine.label.clone());
        Ok(Self {
            make: first.make_name().to_owned(),
            model: first.model.clone(),
            generation: first.generation.clone(),
            engine_label,
            row,
        })
    }

    /// The vehicle the row names, when it names an engine.
    #[must_use]
    pub fn vehicle_id(&self) -> Option<VehicleId> {
        self.row.engine.clone().map(|engine| VehicleId { generation: self.row.generation.clone(), engine })
    }
}

/// A shopper's car as a listing's `fits` filter gives it: a vehicle and, maybe, its year.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Car {
    pub vehicle: VehicleId,
    pub year: Option<u16>,
}

impl FitmentRow {
    /// Whether a part with this row fits `car`: the same generation, the row's engine when it
    /// names one, and the row's years hold the car's year when both are known.
    #[must_use]
    pub fn fits(&self, car: &Car) -> bool {
        self.generation == car.vehicle.generation
            && self.engine.as_ref().is_none_or(|e| *e == car.vehicle.engine)
            && match (self.years, car.year) {
                (Some(range), Some(year)) => range.holds(year),
                _ => true,
            }
    }
}

/// Most cars a shopper's garage keeps.
pub const GARAGE_MAX_CARS: usize = 5;

/// A shopper's garage as they keep it, newest first: a vehicle named twice is kept once (its first
/// place, with its year there), and at most [`GARAGE_MAX_CARS`] cars.
///
/// # Errors
/// [`VehicleError::GarageTooMany`] when more than [`GARAGE_MAX_CARS`] different vehicles are named.
pub fn garage(cars: Vec<Car>) -> Result<Vec<Car>, VehicleError> {
    let mut kept: Vec<Car> = Vec::with_capacity(cars.len().min(GARAGE_MAX_CARS));
    for car in cars {
        if kept.iter().any(|k| k.vehicle == car.vehicle) {
            continue;
        }
        if kept.len() == GARAGE_MAX_CARS {
            return Err(VehicleError::GarageTooMany);
        }
        kept.push(car);
    }
    Ok(kept)
}

/// Whether any of `rows` fits `car`.
#[must_use]
pub fn fits_any(rows: &[FitmentRow], car: &Car) -> bool {
    rows.iter().any(|r| r.fits(car))
}

/// A product's fitment as staff give it: at most [`MAX_FITMENT_ROWS`] rows, no row twice (a row
/// is the same when generation, engine and years are).
///
/// # Errors
/// [`VehicleError::FitmentTooMany`] above the limit; [`VehicleError::FitmentInvalid`] for a
/// repeated row.
pub fn fitment(rows: Vec<FitmentRow>) -> Result<Vec<FitmentRow>, VehicleError> {
    if rows.len() > MAX_FITMENT_ROWS {
        return Err(VehicleError::FitmentTooMany);
    }
    for (i, row) in rows.iter().enumerate() {
        let same = |r: &FitmentRow| r.generation == row.generation && r.engine == row.engine && r.years == row.years;
        if rows[..i].iter().any(same) {
            return Err(VehicleError::FitmentInvalid);
        }
    }
    Ok(rows)
}

/// Checks `rows` against the vehicles of their generations: each row's generation must have
/// vehicles (`known` lists them) and its engine, when given, must be one of them.
///
/// # Errors
/// [`VehicleError::FitmentInvalid`] for the first row that names an unknown generation or engine.
pub fn check_against(rows: &[FitmentRow], known: &[Vehicle]) -> Result<(), VehicleError> {
    for row in rows {
        let of_generation: Vec<&Vehicle> = known.iter().filter(|v| v.generation_id() == row.generation).collect();
        let engine_ok = row.engine.as_ref().is_none_or(|e| of_generation.iter().any(|v| v.engine.code == *e));
        if of_generation.is_empty() || !engine_ok {
            return Err(VehicleError::FitmentInvalid);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn engine(code: &str, fuel: FuelType, label: &str) -> Engine {
        Engine { code: EngineCode::parse(code).expect("code"), fuel, label: label.into() }
    }

    fn x5_b57() -> Vehicle {
        Vehicle::new(
            "bmw",
            "X5",
            "G05",
            engine("B57", FuelType::Diesel, "3.0d"),
            YearRange::new(2019, None).expect("years"),
        )
        .expect("vehicle")
    }

    #[test]
    fn a_garage_keeps_each_vehicle_once_and_at_most_five() {
        let kept =
            garage(vec![car("bmw-x5-g05.b57", Some(2020)), car("BMW-X5-G05.B57", None), car("audi-a4-b9.cvka", None)])
                .expect("two cars");
        assert_eq!(kept, vec![car("bmw-x5-g05.b57", Some(2020)), car("audi-a4-b9.cvka", None)], "the first place wins");
        let five: Vec<Car> = (1..=5).map(|n| car(&format!("bmw-x{n}-g0{n}.b57"), None)).collect();
        assert_eq!(garage(five.clone()).map(|g| g.len()), Ok(5));
        let mut six = five;
        six.push(car("bmw-x7-g07.b57", None));
        assert_eq!(garage(six), Err(VehicleError::GarageTooMany));
        assert_eq!(VehicleError::GarageTooMany.code(), "garage.too_many");
        assert_eq!(garage(Vec::new()), Ok(Vec::new()));
    }

    fn row(generation: &str, engine: Option<&str>, years: Option<(i64, Option<i64>)>) -> FitmentRow {
        FitmentRow {
            generation: GenerationId::parse(generation).expect("generation"),
            engine: engine.map(|e| EngineCode::parse(e).expect("engine")),
            years: years.map(|(f, t)| YearRange::new(f, t).expect("years")),
            note: None,
        }
    }

    fn car(id: &str, year: Option<u16>) -> Car {
        Car { vehicle: VehicleId::parse(id).expect("vehicle id"), year }
    }

    #[test]
    fn a_vehicle_id_names_its_generation_and_engine() {
        let v = x5_b57();
        assert_eq!(v.generation_id().as_str(), "bmw-x5-g05");
        assert_eq!(v.id().to_string(), "bmw-x5-g05.b57");
        assert_eq!(VehicleId::parse("BMW-X5-G05.B57"), Ok(v.id()));
        let e = Vehicle::new(
            "mercedes-benz",
            "E-Class",
            "W213",
            engine("OM654", FuelType::Diesel, "E 220 d"),
            YearRange::new(2017, Some(2023)).expect("years"),
        )
        .expect("vehicle");
        assert_eq!(e.id().to_string(), "mercedes-benz-e-class-w213.om654");
        assert_eq!(e.make_name(), "Mercedes-Benz");
        for bad in ["", "bmw-x5-g05", ".b57", "bmw-x5-g05.", "bmw x5.b57", "bmw-x5-g05.b 57", "bmw--x5.b57"] {
            assert_eq!(VehicleId::parse(bad), Err(VehicleError::Unknown), "{bad}");
        }
    }

    #[test]
    fn vehicles_are_of_the_eight_makes_with_sensible_fields() {
        let b57 = || engine("B57", FuelType::Diesel, "3.0d");
        let years = YearRange::new(2019, None).expect("years");
        assert_eq!(Vehicle::new("tata", "Nexon", "X1", b57(), years), Err(VehicleError::Invalid));
        assert_eq!(Vehicle::new("bmw", " ", "G05", b57(), years), Err(VehicleError::Invalid));
        assert_eq!(Vehicle::new("bmw", "X5", &"G".repeat(17), b57(), years), Err(VehicleError::Invalid));
        let no_label = Engine { label: " ".into(), ..b57() };
        assert_eq!(Vehicle::new("bmw", "X5", "G05", no_label, years), Err(VehicleError::Invalid));
        assert_eq!(EngineCode::parse("b57").map(|c| c.as_str().to_owned()), Ok("B57".to_owned()));
        assert!(EngineCode::parse("B57 D30").is_err());
        assert_eq!(MAKES.len(), 8);
    }

    #[test]
    fn years_are_checked_and_printed() {
        assert_eq!(YearRange::new(2019, Some(2018)), Err(VehicleError::YearInvalid));
        assert_eq!(YearRange::new(1949, None), Err(VehicleError::YearInvalid));
        assert_eq!(YearRange::new(2019, None).expect("open").to_string(), "2019–");
        assert_eq!(YearRange::new(2013, Some(2018)).expect("closed").to_string(), "2013–2018");
        assert_eq!(year(2101), Err(VehicleError::YearInvalid));
        assert_eq!(year(2020), Ok(2020));
    }

    #[test]
    fn a_row_fits_by_generation_engine_and_year() {
        let x5 = car("bmw-x5-g05.b57", Some(2020));
        assert!(row("bmw-x5-g05", None, None).fits(&x5), "no engine: every engine of the generation");
        assert!(row("bmw-x5-g05", Some("B57"), None).fits(&x5));
        assert!(!row("bmw-x5-g05", Some("B58"), None).fits(&x5), "another engine");
        assert!(!row("bmw-x5-f15", None, None).fits(&x5), "another generation");
        assert!(row("bmw-x5-g05", None, Some((2019, Some(2021)))).fits(&x5));
        assert!(!row("bmw-x5-g05", None, Some((2022, None))).fits(&x5), "the year is outside the range");
        let no_year = car("bmw-x5-g05.b57", None);
        assert!(row("bmw-x5-g05", None, Some((2022, None))).fits(&no_year), "a car without a year");
    }

    #[test]
    fn notes_rows_and_limits() {
        assert_eq!(FitmentNote::parse("  "), Ok(None));
        assert_eq!(FitmentNote::parse("front axle").map(|n| n.map(String::from)), Ok(Some("front axle".into())));
        assert_eq!(FitmentNote::parse(&"x".repeat(81)), Err(VehicleError::NoteTooLong));
        assert_eq!(FitmentNote::parse("a\nb"), Err(VehicleError::NoteTooLong));
        let many: Vec<FitmentRow> = (0..=MAX_FITMENT_ROWS).map(|i| row(&format!("bmw-x5-g{i}"), None, None)).collect();
        assert_eq!(fitment(many.clone()), Err(VehicleError::FitmentTooMany));
        assert_eq!(fitment(many[..MAX_FITMENT_ROWS].to_vec()).map(|r| r.len()), Ok(MAX_FITMENT_ROWS));
        let twice = vec![row("bmw-x5-g05", None, None), row("bmw-x5-g05", None, None)];
        assert_eq!(fitment(twice), Err(VehicleError::FitmentInvalid));
    }

    #[test]
    fn rows_name_known_generations_and_engines() {
        let known = [x5_b57()];
        assert_eq!(check_against(&[row("bmw-x5-g05", Some("B57"), None)], &known), Ok(()));
        assert_eq!(check_against(&[row("bmw-x5-g05", None, None)], &known), Ok(()));
        assert_eq!(check_against(&[row("bmw-x5-g05", Some("B58"), None)], &known), Err(VehicleError::FitmentInvalid));
        assert_eq!(check_against(&[row("bmw-x5-f15", None, None)], &known), Err(VehicleError::FitmentInvalid));
    }

    #[test]
    fn a_shown_row_carries_the_names_of_its_vehicle() {
        let known = [x5_b57()];
        let fit = ProductFit::named(row("bmw-x5-g05", Some("B57"), Some((2019, None))), &known).expect("known");
        assert_eq!((fit.make.as_str(), fit.model.as_str(), fit.generation.as_str()), ("BMW", "X5", "G05"));
        assert_eq!(fit.engine_label.as_deref(), Some("3.0d"));
        assert_eq!(fit.vehicle_id().map(|v| v.to_string()).as_deref(), Some("bmw-x5-g05.b57"));
        let every_engine = ProductFit::named(row("bmw-x5-g05", None, None), &known).expect("known");
        assert_eq!((every_engine.engine_label.clone(), every_engine.vehicle_id()), (None, None));
        assert!(ProductFit::named(row("bmw-x5-f15", None, None), &known).is_err());
    }

    #[test]
    fn errors_carry_their_codes() {
        assert_eq!(VehicleError::Unknown.code(), "vehicle.unknown");
        assert_eq!(Message::VehicleUnknown.audience(), crate::message::Audience::Storefront);
        assert_eq!(Message::FitmentTooMany.audience(), crate::message::Audience::BackOffice);
    }

    fn generation() -> impl Strategy<Value = GenerationId> {
        prop::sample::select(vec!["bmw-x5-g05", "bmw-x5-f15", "audi-a4-b9"])
            .prop_map(|g| GenerationId::parse(g).expect("generation"))
    }

    fn engine_code() -> impl Strategy<Value = EngineCode> {
        prop::sample::select(vec!["B57", "B58", "EA888"]).prop_map(|e| EngineCode::parse(e).expect("engine"))
    }

    fn range() -> impl Strategy<Value = YearRange> {
        (2000u16..2030, prop::option::of(0u16..10))
            .prop_map(|(from, len)| YearRange { from, to: len.map(|l| from + l) })
    }

    fn a_row() -> impl Strategy<Value = FitmentRow> {
        (generation(), prop::option::of(engine_code()), prop::option::of(range()))
            .prop_map(|(generation, engine, years)| FitmentRow { generation, engine, years, note: None })
    }

    fn a_car() -> impl Strategy<Value = Car> {
        (generation(), engine_code(), prop::option::of(2000u16..2040))
            .prop_map(|(generation, engine, year)| Car { vehicle: VehicleId { generation, engine }, year })
    }

    proptest! {
        #[test]
        fn a_row_without_engine_fits_every_engine_its_years_allow(r in a_row(), c in a_car()) {
            let open = FitmentRow { engine: None, ..r.clone() };
            if r.fits(&c) {
                prop_assert!(open.fits(&c), "dropping the engine never narrows");
            }
            let yearless = FitmentRow { years: None, ..r.clone() };
            if r.fits(&c) {
                prop_assert!(yearless.fits(&c), "dropping the years never narrows");
            }
            let undated = Car { year: None, ..c.clone() };
            if r.fits(&c) {
                prop_assert!(r.fits(&undated), "a car without a year is not narrowed by year");
            }
        }

        #[test]
        fn fitting_means_same_generation_engine_and_a_year_in_range(r in a_row(), c in a_car()) {
            let expected = r.generation == c.vehicle.generation
                && r.engine.as_ref().is_none_or(|e| *e == c.vehicle.engine)
                && match (r.years, c.year) {
                    (Some(y), Some(year)) => y.from <= year && y.to.is_none_or(|to| year <= to),
                    _ => true,
                };
            prop_assert_eq!(r.fits(&c), expected);
            prop_assert_eq!(fits_any(std::slice::from_ref(&r), &c), expected);
        }

        #[test]
        fn vehicle_ids_round_trip(g in generation(), e in engine_code()) {
            let id = VehicleId { generation: g, engine: e };
            prop_assert_eq!(VehicleId::parse(&id.to_string()), Ok(id));
        }
    }
}
