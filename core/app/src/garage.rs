//! A signed-in shopper's garage: the cars they keep (at most five), kept with their account so it
//! follows them from one device to another. The browser merges the cars it kept while logged out
//! into the account's at sign-in and sends the whole list with each change.

use std::sync::Arc;

use marque_domain::vehicle::{garage, year, Car, Vehicle, VehicleError, VehicleId};
use marque_domain::Message;
use marque_ports::{GarageStore, GarageStoreError, UserId, VehicleStore, VehicleStoreError};

/// A car of the garage with the table's names of its vehicle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GarageEntry {
    pub car: Car,
    pub vehicle: Vehicle,
}

/// Why a garage could not be read or kept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GarageError {
    /// A car that cannot be kept (400): an unknown vehicle (`vehicle.unknown`), a year outside
    /// 1950–2100 (`vehicle.year_invalid`), or more than five cars (`garage.too_many`).
    #[error("{0:?}")]
    Invalid(VehicleError),
    #[error("the garage is unavailable: {0}")]
    Unavailable(String),
}

impl GarageError {
    /// The message the shopper reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            GarageError::Invalid(e) => marque_domain::UserFacing::message(e),
            GarageError::Unavailable(_) => Message::SomethingWentWrong,
        }
    }
}

impl From<GarageStoreError> for GarageError {
    fn from(e: GarageStoreError) -> Self {
        GarageError::Unavailable(e.to_string())
    }
}

impl From<VehicleStoreError> for GarageError {
    fn from(e: VehicleStoreError) -> Self {
        GarageError::Unavailable(e.to_string())
    }
}

/// Reading and keeping signed-in shoppers' garages.
#[derive(Clone)]
pub struct GarageService {
    garages: Arc<dyn GarageStore>,
    vehicles: Arc<dyn VehicleStore>,
}

impl std::fmt::Debug for GarageService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GarageService").finish_non_exhaustive()
    }
}

impl GarageService {
    #[must_use]
    pub fn new(garages: Arc<dyn GarageStore>, vehicles: Arc<dyn VehicleStore>) -> Self {
        Self { garages, vehicles }
    }

    /// The cars of `cars` whose vehicles the table still has, each with its names.
    async fn named(&self, cars: Vec<Car>) -> Result<Vec<GarageEntry>, GarageError> {
        let mut entries = Vec::with_capacity(cars.len());
        for car in cars {
            if let Some(vehicle) = self.vehicles.vehicle(&car.vehicle).await? {
                entries.push(GarageEntry { car, vehicle });
            }
        }
        Ok(entries)
    }

    /// The customer's garage, newest first, with the table's names of each car (a vehicle the
    /// table no longer has is left out).
    ///
    /// # Errors
    /// [`GarageError::Unavailable`] when a store cannot be read.
    pub async fn garage(&self, user: &UserId) -> Result<Vec<GarageEntry>, GarageError> {
        let cars = self.garages.garage(user).await?;
        self.named(cars).await
    }

    /// Keeps `cars` (vehicle ids and maybe years, newest first) as the customer's garage, replacing
    /// it whole: each vehicle once (its first place), at most five, every one in the table.
    ///
    /// # Errors
    /// [`GarageError::Invalid`] for a vehicle id that is not one or names no vehicle of the table
    /// (`vehicle.unknown`), a year outside 1950–2100 (`vehicle.year_invalid`) or more than five
    /// cars (`garage.too_many`), nothing kept; [`GarageError::Unavailable`].
    pub async fn set_garage(
        &self,
        user: &UserId,
        cars: &[(String, Option<i64>)],
    ) -> Result<Vec<GarageEntry>, GarageError> {
        let parsed = cars
            .iter()
            .map(|(id, given)| {
                let vehicle = VehicleId::parse(id).map_err(|_| VehicleError::Unknown)?;
                let year = given.map(year).transpose()?;
                Ok(Car { vehicle, year })
            })
            .collect::<Result<Vec<Car>, VehicleError>>()
            .map_err(GarageError::Invalid)?;
        let cars = garage(parsed).map_err(GarageError::Invalid)?;
        let entries = self.named(cars.clone()).await?;
        if entries.len() != cars.len() {
            return Err(GarageError::Invalid(VehicleError::Unknown));
        }
        self.garages.set_garage(user, &cars).await?;
        Ok(entries)
    }
}

#[cfg(test)]
mod tests;
