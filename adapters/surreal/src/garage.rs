//! The garage store on SurrealDB: one `garage` record per customer holding their cars in order.

use async_trait::async_trait;
use marque_domain::vehicle::{Car, VehicleId};
use marque_ports::{GarageStore, GarageStoreError, UserId};
use surrealdb::types::SurrealValue;

use crate::conn::Conn;

/// [`GarageStore`] on a SurrealDB connection. Get one from [`crate::Database::garage`].
///
/// A garage is the record `garage:⟨user⟩` whose `cars` keep the order the customer gave: a write
/// replaces the whole list in one statement, so two devices saving at once leave one list or the
/// other, never a mix.
#[derive(Debug, Clone)]
pub struct SurrealGarageStore {
    db: Conn,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct GarageRow {
    cars: Vec<CarRow>,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct CarRow {
    vehicle: String,
    year: Option<i64>,
}

fn unavailable(e: &surrealdb::Error) -> GarageStoreError {
    GarageStoreError::Unavailable { reason: e.message().to_owned() }
}

impl SurrealGarageStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

#[async_trait]
impl GarageStore for SurrealGarageStore {
    async fn garage(&self, user: &UserId) -> Result<Vec<Car>, GarageStoreError> {
        let rows: Vec<GarageRow> = self
            .db
            .query("SELECT cars FROM type::record('garage', $user)")
            .bind(("user", user.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        // A row the domain no longer reads (a vehicle id of an older form) is left out, not fatal.
        Ok(rows
            .into_iter()
            .next()
            .map(|g| g.cars)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|row| {
                let vehicle = VehicleId::parse(&row.vehicle).ok()?;
                let year = row.year.and_then(|y| u16::try_from(y).ok());
                Some(Car { vehicle, year })
            })
            .collect())
    }

    async fn set_garage(&self, user: &UserId, cars: &[Car]) -> Result<(), GarageStoreError> {
        let user = user.0.clone();
        let rows: Vec<CarRow> =
            cars.iter().map(|c| CarRow { vehicle: c.vehicle.to_string(), year: c.year.map(i64::from) }).collect();
        crate::accounts::retrying(|| {
            self.db
                .query("UPSERT type::record('garage', $user) SET cars = $cars, updated_at = time::now() RETURN NONE")
                .bind(("user", user.clone()))
                .bind(("cars", rows.clone()))
        })
        .await
        .and_then(surrealdb::IndexedResults::check)
        .map(drop)
        .map_err(|e| unavailable(&e))
    }

    async fn clear(&self, user: &UserId) -> Result<(), GarageStoreError> {
        let user = user.0.clone();
        crate::accounts::retrying(|| {
            self.db.query("DELETE type::record('garage', $user) RETURN NONE").bind(("user", user.clone()))
        })
        .await
        .and_then(surrealdb::IndexedResults::check)
        .map(drop)
        .map_err(|e| unavailable(&e))
    }
}
