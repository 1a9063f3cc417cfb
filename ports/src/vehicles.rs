//! The vehicle table and products' fitment (issue 25).
//!
//! Vehicles are looked up make → model → generation → engine, each step through an index of the
//! step before. A product's fitment is written whole (every row at once) on the version it was read
//! at, with its audit entry and the catalog change every cache of catalog answers follows, in one
//! transaction; it is read with the product ([`ProductDetails::fits`](marque_domain::catalog::ProductDetails))
//! and, for the listings' `fits` filter, by generation (see
//! [`ProductListing::fits`](crate::ProductListing)).

use async_trait::async_trait;
use marque_domain::catalog::ProductId;
use marque_domain::filters::BrandSlug;
use marque_domain::vehicle::{GenerationId, ProductFit, Vehicle, VehicleId, YearRange};

use crate::AuditEntry;

/// Why a vehicle store call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VehicleStoreError {
    /// A vehicle with this id is already in the table.
    #[error("the vehicle `{id}` is already stored")]
    Duplicate { id: String },
    /// No product (published or not) has this id.
    #[error("no product `{id}`")]
    ProductNotFound { id: String },
    /// The fitment was written since the version the caller read: it is now at `version`.
    #[error("the fitment changed (now version {version})")]
    Changed { version: u64 },
    /// The store refused a value it cannot hold.
    #[error("the store refused the record: {reason}")]
    Invalid { reason: String },
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the vehicle store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// A model of a make, as the lists show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Model {
    /// `x5`, `e-class`: what the next step asks by.
    pub slug: String,
    /// `X5`, `E-Class`.
    pub name: String,
}

/// A generation of a model, as the lists show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generation {
    pub id: GenerationId,
    /// `G05`.
    pub code: String,
    /// From the first year of its vehicles to the last (open while any is still made).
    pub years: YearRange,
}

/// A product's fitment and the version it is at (0 before its first write).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredFitment {
    pub fits: Vec<ProductFit>,
    pub version: u64,
}

/// The vehicle table and products' fitment.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait VehicleStore: Send + Sync {
    /// Adds the vehicles that are not yet stored (by id) and leaves the others as they are: the
    /// shop's seed list, loaded at every start. Returns how many were added.
    ///
    /// # Errors
    /// [`VehicleStoreError::Unavailable`].
    async fn seed_vehicles(&self, vehicles: &[Vehicle]) -> Result<u64, VehicleStoreError>;

    /// Gives products without any fitment yet the fitment listed for them (the demo seed and the
    /// command line: no audit entry), all in one transaction that also moves the catalog's version
    /// (every cache of catalog answers forgets everything). A product that already has a
    /// fitment record keeps it.
    ///
    /// # Errors
    /// [`VehicleStoreError::Invalid`] for a value the store cannot hold (nothing written);
    /// [`VehicleStoreError::Unavailable`].
    async fn seed_fitment(&self, fitments: &[(ProductId, Vec<ProductFit>)]) -> Result<(), VehicleStoreError>;

    /// Adds one vehicle and stores `audit` in the same transaction.
    ///
    /// # Errors
    /// [`VehicleStoreError::Duplicate`] when its id is stored (nothing written, no audit entry);
    /// [`VehicleStoreError::Unavailable`].
    async fn add_vehicle(&self, vehicle: &Vehicle, audit: &AuditEntry) -> Result<(), VehicleStoreError>;

    /// The models of `make` that have vehicles, by name (A to Z), each once.
    ///
    /// # Errors
    /// [`VehicleStoreError::Unavailable`].
    async fn models(&self, make: &BrandSlug) -> Result<Vec<Model>, VehicleStoreError>;

    /// The generations of the model `model` (its slug) of `make`, oldest first (then by code).
    ///
    /// # Errors
    /// [`VehicleStoreError::Unavailable`].
    async fn generations(&self, make: &BrandSlug, model: &str) -> Result<Vec<Generation>, VehicleStoreError>;

    /// The vehicles (engines) of `generation`, by engine label then code.
    ///
    /// # Errors
    /// [`VehicleStoreError::Unavailable`].
    async fn vehicles_of(&self, generation: &GenerationId) -> Result<Vec<Vehicle>, VehicleStoreError>;

    /// The vehicle with this id.
    ///
    /// # Errors
    /// [`VehicleStoreError::Unavailable`].
    async fn vehicle(&self, id: &VehicleId) -> Result<Option<Vehicle>, VehicleStoreError>;

    /// The fitment of `product` (published or not) and its version; empty at version 0 when
    /// none was ever written.
    ///
    /// # Errors
    /// [`VehicleStoreError::Unavailable`].
    async fn fitment(&self, product: &ProductId) -> Result<StoredFitment, VehicleStoreError>;

    /// Replaces the fitment of `product` with `fits` when it is still at `version`, and stores
    /// `audit` and a catalog change naming the product and the generations of the rows before
    /// and after, all in one transaction. Returns the new version (`version + 1`). Afterwards,
    /// every read of the product carries `fits` in its details, and listings with a `fits`
    /// filter follow the new rows.
    ///
    /// # Errors
    /// [`VehicleStoreError::ProductNotFound`]; [`VehicleStoreError::Changed`] with the current
    /// version when it is not `version` (nothing written either way, no audit entry);
    /// [`VehicleStoreError::Invalid`]; [`VehicleStoreError::Unavailable`].
    async fn set_fitment(
        &self,
        product: &ProductId,
        fits: &[ProductFit],
        version: u64,
        audit: &AuditEntry,
    ) -> Result<u64, VehicleStoreError>;
}
