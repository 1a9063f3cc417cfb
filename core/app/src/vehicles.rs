//! The vehicle lists a shopper chooses a car from (make → model → generation → engine), and the
//! car a listing's `fits` query names.

use std::sync::Arc;

use marque_domain::filters::{BrandSlug, FilterValue};
use marque_domain::vehicle::{make_name, year, Car, GenerationId, Vehicle, VehicleError, VehicleId};
use marque_domain::Message;
use marque_ports::{Generation, Model, VehicleStore, VehicleStoreError};

/// Why a vehicle lookup failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VehicleLookupError {
    /// A value that cannot name a make, model, generation, vehicle or year (400), with its rule.
    #[error("{0}")]
    Invalid(VehicleError),
    /// Well formed, but the table has no such model, generation or vehicle (404 for the lists,
    /// 400 for a listing's `fits`): `vehicle.unknown`.
    #[error("no such vehicle")]
    Unknown,
    #[error("the vehicle table is unavailable: {0}")]
    Unavailable(String),
}

impl VehicleLookupError {
    /// The message the shopper reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            VehicleLookupError::Invalid(e) => marque_domain::UserFacing::message(e),
            VehicleLookupError::Unknown => Message::VehicleUnknown,
            VehicleLookupError::Unavailable(_) => Message::SomethingWentWrong,
        }
    }
}

impl From<VehicleStoreError> for VehicleLookupError {
    fn from(e: VehicleStoreError) -> Self {
        VehicleLookupError::Unavailable(e.to_string())
    }
}

/// The shopper's side of the vehicle table.
#[derive(Clone)]
pub struct VehicleService {
    store: Arc<dyn VehicleStore>,
}

impl std::fmt::Debug for VehicleService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VehicleService").finish_non_exhaustive()
    }
}

/// A make the shop sells, by slug (`bmw`).
fn make(slug: &str) -> Result<BrandSlug, VehicleLookupError> {
    BrandSlug::from_code(slug.trim())
        .filter(|m| make_name(m.as_str()).is_some())
        .ok_or(VehicleLookupError::Invalid(VehicleError::Unknown))
}

/// A model's slug (`x5`, `e-class`).
fn model_slug(slug: &str) -> Result<String, VehicleLookupError> {
    let slug = slug.trim();
    let ok = slug.len() <= 60 && BrandSlug::from_code(slug).is_some();
    ok.then(|| slug.to_owned()).ok_or(VehicleLookupError::Invalid(VehicleError::Unknown))
}

impl VehicleService {
    #[must_use]
    pub fn new(store: Arc<dyn VehicleStore>) -> Self {
        Self { store }
    }

    /// The models of the make `make` (its slug).
    ///
    /// # Errors
    /// [`VehicleLookupError::Invalid`] for a make the shop does not sell; [`VehicleLookupError::Unknown`]
    /// when the table has none of its models; [`VehicleLookupError::Unavailable`].
    pub async fn models(&self, make_slug: &str) -> Result<Vec<Model>, VehicleLookupError> {
        let models = self.store.models(&make(make_slug)?).await?;
        if models.is_empty() {
            return Err(VehicleLookupError::Unknown);
        }
        Ok(models)
    }

    /// The generations of the model `model` (its slug) of `make`.
    ///
    /// # Errors
    /// As [`VehicleService::models`], for the model.
    pub async fn generations(&self, make_slug: &str, model: &str) -> Result<Vec<Generation>, VehicleLookupError> {
        let generations = self.store.generations(&make(make_slug)?, &model_slug(model)?).await?;
        if generations.is_empty() {
            return Err(VehicleLookupError::Unknown);
        }
        Ok(generations)
    }

    /// The vehicles (engines) of the generation `generation` (its id, `bmw-x5-g05`).
    ///
    /// # Errors
    /// As [`VehicleService::models`], for the generation.
    pub async fn vehicles(&self, generation: &str) -> Result<Vec<Vehicle>, VehicleLookupError> {
        let id = GenerationId::parse(generation.trim().to_ascii_lowercase().as_str())
            .map_err(VehicleLookupError::Invalid)?;
        let vehicles = self.store.vehicles_of(&id).await?;
        if vehicles.is_empty() {
            return Err(VehicleLookupError::Unknown);
        }
        Ok(vehicles)
    }

    /// The car a listing's `fits` (a vehicle id) and `year` name.
    ///
    /// # Errors
    /// [`VehicleLookupError::Unknown`] for an id that is not one or names no vehicle of the table;
    /// [`VehicleLookupError::Invalid`] (`vehicle.year_invalid`) for a year outside 1950–2100;
    /// [`VehicleLookupError::Unavailable`].
    pub async fn car(&self, fits: &str, year_given: Option<i64>) -> Result<Car, VehicleLookupError> {
        let vehicle = VehicleId::parse(fits).map_err(|_| VehicleLookupError::Unknown)?;
        let year = year_given.map(year).transpose().map_err(VehicleLookupError::Invalid)?;
        match self.store.vehicle(&vehicle).await? {
            Some(_) => Ok(Car { vehicle, year }),
            None => Err(VehicleLookupError::Unknown),
        }
    }
}

#[cfg(test)]
mod tests;
