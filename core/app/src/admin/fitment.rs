//! Vehicles and fitment in the back office (roles owner and catalog, [`Area::Products`]): a
//! product's fitment read with its version and replaced whole on that version, and vehicles added
//! to the table; every write with its audit entry in the same transaction.

use std::sync::Arc;

use marque_domain::catalog::{FuelType, ProductId};
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::vehicle::{
    fitment, Engine, EngineCode, FitmentNote, FitmentRow, GenerationId, ProductFit, Vehicle, VehicleError, YearRange,
};
use marque_domain::{Message, UserFacing};
use marque_ports::{Actor, AuditEntry, Clock, StoredFitment, VehicleStore, VehicleStoreError};
use serde_json::json;

/// Why a fitment or vehicle call did not happen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdminFitmentError {
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// A row or vehicle the rules refuse (400), with its message.
    #[error("refused: {}", .0.code())]
    Invalid(Message),
    /// No product has this id (`admin.product_not_found`).
    #[error("no such product")]
    NotFound,
    /// The vehicle is already in the table (`vehicle.duplicate`).
    #[error("the vehicle is already stored")]
    Duplicate,
    /// The fitment is no longer at the version named (`fitment.changed`).
    #[error("the fitment changed meanwhile (now at version {version})")]
    Changed { version: u64 },
    #[error("the vehicle table is unavailable: {0}")]
    Unavailable(String),
}

impl AdminFitmentError {
    /// The message a staff member reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            AdminFitmentError::Forbidden(f) => f.message(),
            AdminFitmentError::Invalid(m) => *m,
            AdminFitmentError::NotFound => Message::AdminProductNotFound,
            AdminFitmentError::Duplicate => Message::VehicleDuplicate,
            AdminFitmentError::Changed { .. } => Message::FitmentChanged,
            AdminFitmentError::Unavailable(_) => Message::CatalogUnavailable,
        }
    }
}

impl From<VehicleStoreError> for AdminFitmentError {
    fn from(e: VehicleStoreError) -> Self {
        match e {
            VehicleStoreError::ProductNotFound { .. } => AdminFitmentError::NotFound,
            VehicleStoreError::Duplicate { .. } => AdminFitmentError::Duplicate,
            VehicleStoreError::Changed { version } => AdminFitmentError::Changed { version },
            other => AdminFitmentError::Unavailable(other.to_string()),
        }
    }
}

impl From<VehicleError> for AdminFitmentError {
    fn from(e: VehicleError) -> Self {
        AdminFitmentError::Invalid(e.message())
    }
}

/// One fitment row as staff type it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FitmentInput {
    /// The generation's id, `bmw-x5-g05`.
    pub generation: String,
    /// An engine code of the generation; `None` (or blank) fits every engine.
    pub engine: Option<String>,
    pub year_from: Option<i64>,
    pub year_to: Option<i64>,
    pub note: Option<String>,
}

/// A vehicle as staff type it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VehicleInput {
    pub make: String,
    pub model: String,
    pub generation: String,
    pub engine_code: String,
    pub fuel: String,
    pub engine_label: String,
    pub year_from: i64,
    pub year_to: Option<i64>,
}

impl FitmentInput {
    fn row(&self) -> Result<FitmentRow, VehicleError> {
        let generation = GenerationId::parse(self.generation.trim().to_ascii_lowercase().as_str())
            .map_err(|_| VehicleError::FitmentInvalid)?;
        let engine = match self.engine.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(code) => Some(EngineCode::parse(code).map_err(|_| VehicleError::FitmentInvalid)?),
        };
        let years = match (self.year_from, self.year_to) {
            (None, None) => None,
            (Some(from), to) => Some(YearRange::new(from, to)?),
            (None, Some(_)) => return Err(VehicleError::YearInvalid),
        };
        let note = FitmentNote::parse(self.note.as_deref().unwrap_or(""))?;
        Ok(FitmentRow { generation, engine, years, note })
    }
}

/// The back office's vehicles and fitment.
#[derive(Clone)]
pub struct AdminFitmentService {
    store: Arc<dyn VehicleStore>,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for AdminFitmentService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminFitmentService").finish_non_exhaustive()
    }
}

/// The fitment as the audit trail keeps it: one line per row.
fn audited(fits: &[ProductFit]) -> String {
    audited_value(fits).to_string()
}

/// The fitment as the audit trail keeps it (also for the import's fitment writes).
pub(crate) fn audited_value(fits: &[ProductFit]) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = fits
        .iter()
        .map(|f| {
            json!({
                "generation": f.row.generation.as_str(),
                "engine": f.row.engine.as_ref().map(EngineCode::as_str),
                "years": f.row.years.map(|y| y.to_string()),
                "note": f.row.note.as_ref().map(FitmentNote::as_str),
            })
        })
        .collect();
    json!({ "fits": rows })
}

impl AdminFitmentService {
    #[must_use]
    pub fn new(store: Arc<dyn VehicleStore>, clock: Arc<dyn Clock>) -> Self {
        Self { store, clock }
    }

    /// The fitment of `product` and its version (0 before the first write).
    ///
    /// # Errors
    /// [`AdminFitmentError::Forbidden`] outside the catalog roles; [`AdminFitmentError::Unavailable`].
    pub async fn fitment(&self, staff: &Staff, product: &ProductId) -> Result<StoredFitment, AdminFitmentError> {
        staff.require(Area::Products)?;
        Ok(self.store.fitment(product).await?)
    }

    /// Replaces the fitment of `product` with `rows` when it is still at `version`. Each row must
    /// name a generation of the table (and one of its engines when it names one), at most 200 rows,
    /// none twice. Returns the fitment as stored.
    ///
    /// # Errors
    /// [`AdminFitmentError::Forbidden`]; [`AdminFitmentError::Invalid`] for the first row the rules
    /// refuse; [`AdminFitmentError::NotFound`]; [`AdminFitmentError::Changed`];
    /// [`AdminFitmentError::Unavailable`].
    pub async fn set_fitment(
        &self,
        staff: &Staff,
        product: &ProductId,
        rows: &[FitmentInput],
        version: u64,
    ) -> Result<StoredFitment, AdminFitmentError> {
        staff.require(Area::Products)?;
        if rows.len() > marque_domain::vehicle::MAX_FITMENT_ROWS {
            return Err(VehicleError::FitmentTooMany.into());
        }
        let rows = fitment(rows.iter().map(FitmentInput::row).collect::<Result<Vec<_>, _>>()?)?;
        let mut known: Vec<(GenerationId, Vec<Vehicle>)> = Vec::new();
        let mut fits = Vec::with_capacity(rows.len());
        for row in rows {
            if !known.iter().any(|(g, _)| *g == row.generation) {
                let vehicles = self.store.vehicles_of(&row.generation).await?;
                known.push((row.generation.clone(), vehicles));
            }
            let vehicles = known.iter().find(|(g, _)| *g == row.generation).map(|(_, v)| v.as_slice()).unwrap_or(&[]);
            fits.push(ProductFit::named(row, vehicles)?);
        }
        let before = self.store.fitment(product).await?;
        let audit =
            AuditEntry::new(self.clock.now(), Actor::staff(staff), "product.fitment", format!("product:{product}"))
                .with_values(Some(audited(&before.fits)), Some(audited(&fits)));
        let version = self.store.set_fitment(product, &fits, version, &audit).await?;
        Ok(StoredFitment { fits, version })
    }

    /// Adds a vehicle to the table.
    ///
    /// # Errors
    /// [`AdminFitmentError::Forbidden`]; [`AdminFitmentError::Invalid`] for a field the rules refuse;
    /// [`AdminFitmentError::Duplicate`]; [`AdminFitmentError::Unavailable`].
    pub async fn add_vehicle(&self, staff: &Staff, input: &VehicleInput) -> Result<Vehicle, AdminFitmentError> {
        staff.require(Area::Products)?;
        let code = EngineCode::parse(&input.engine_code)?;
        let fuel = FuelType::parse(&input.fuel).ok_or(VehicleError::Invalid)?;
        let years = YearRange::new(input.year_from, input.year_to)?;
        let engine = Engine { code, fuel, label: input.engine_label.clone() };
        let vehicle = Vehicle::new(&input.make, &input.model, &input.generation, engine, years)?;
        let after = json!({
            "make": vehicle.make.as_str(), "model": vehicle.model, "generation": vehicle.generation,
            "engine": vehicle.engine.code.as_str(), "fuel": vehicle.engine.fuel.code(),
            "label": vehicle.engine.label, "years": vehicle.years.to_string(),
        });
        let audit =
            AuditEntry::new(self.clock.now(), Actor::staff(staff), "vehicle.add", format!("vehicle:{}", vehicle.id()))
                .with_values(None, Some(after.to_string()));
        self.store.add_vehicle(&vehicle, &audit).await?;
        Ok(vehicle)
    }
}

#[cfg(test)]
mod tests;
