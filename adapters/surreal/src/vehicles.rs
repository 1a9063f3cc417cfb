//! The vehicle table and products' fitment on SurrealDB (`vehicle`, `product_fitment`, migration 25).
//!
//! A vehicle's record key is its id (`bmw-x5-g05.b57`); the lists read through the indexes on the
//! make, the make and model, and the generation. A product's fitment is one `product_fitment` record
//! keyed by the product's key: its rows with their shown names, the distinct generations of the
//! rows (an index key each: [`FITTING`] starts from it), and a version. A write replaces the record
//! only at the version named, with its audit row and a `catalog_change` naming the product and the
//! generations before and after, in one transaction.

use async_trait::async_trait;
use marque_domain::catalog::{FuelType, ProductId};
use marque_domain::filters::{BrandSlug, FilterValue};
use marque_domain::vehicle::{
    Car, Engine, EngineCode, FitmentNote, FitmentRow, GenerationId, ProductFit, Vehicle, VehicleId, YearRange,
};
use marque_ports::{AuditEntry, CatalogChange, Generation, Model, StoredFitment, VehicleStore, VehicleStoreError};
use surrealdb::types::SurrealValue;

use crate::catalog::{CatalogChangeRow, RECORD_CHANGE};
use crate::conn::{Conn, Tx};
use crate::error::{until_settled, Attempt};

/// [`VehicleStore`] on a SurrealDB connection. Get one from [`crate::Database::vehicles`].
#[derive(Debug, Clone)]
pub struct SurrealVehicleStore {
    db: Conn,
}

impl SurrealVehicleStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

const VEHICLE_FIELDS: &str = "record::id(id) AS id, make, model, model_slug, generation, generation_id, \
                              engine_code, fuel, engine_label, year_from, year_to";

/// The keys of the products with a row that fits the car `$generation`, `$engine`, `$year`
/// (`NONE` for a car without a year), in no particular order: the generation's index finds the
/// candidates, and each candidate's rows are checked as `FitmentRow::fits` does. A statement of
/// its own, so the plan of the index read is never mixed with the rows' check.
pub(crate) const FITTING: &str = "
LET $candidates = (SELECT record::id(id) AS id, fits FROM product_fitment WHERE generations CONTAINS $fit_generation);
LET $fitting = $candidates.filter(|$c| $c.fits.any(|$f| $f.generation = $fit_generation
    AND ($f.engine = NONE OR $f.engine = $fit_engine)
    AND ($fit_year = NONE OR (($f.year_from = NONE OR $f.year_from <= $fit_year)
        AND ($f.year_to = NONE OR $f.year_to >= $fit_year))))).id;
";

/// The bindings [`FITTING`] reads for `car`.
pub(crate) fn fitting_vars(car: &Car) -> Vec<(&'static str, surrealdb::types::Value)> {
    vec![
        ("fit_generation", car.vehicle.generation.as_str().to_owned().into_value()),
        ("fit_engine", car.vehicle.engine.as_str().to_owned().into_value()),
        ("fit_year", car.year.map(i64::from).into_value()),
    ]
}

/// One `vehicle` row.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct VehicleRow {
    id: String,
    make: String,
    model: String,
    model_slug: String,
    generation: String,
    generation_id: String,
    engine_code: String,
    fuel: String,
    engine_label: String,
    year_from: i64,
    year_to: Option<i64>,
}

impl From<&Vehicle> for VehicleRow {
    fn from(v: &Vehicle) -> Self {
        Self {
            id: v.id().to_string(),
            make: v.make.as_str().to_owned(),
            model: v.model.clone(),
            model_slug: marque_domain::vehicle::slugify(&v.model),
            generation: v.generation.clone(),
            generation_id: v.generation_id().to_string(),
            engine_code: v.engine.code.as_str().to_owned(),
            fuel: v.engine.fuel.code().to_owned(),
            engine_label: v.engine.label.clone(),
            year_from: i64::from(v.years.from),
            year_to: v.years.to.map(i64::from),
        }
    }
}

fn corrupt(what: &str) -> VehicleStoreError {
    VehicleStoreError::Unavailable { reason: format!("a stored {what} does not satisfy the shop's rules") }
}

impl VehicleRow {
    fn into_vehicle(self) -> Result<Vehicle, VehicleStoreError> {
        let code = EngineCode::parse(&self.engine_code).map_err(|_| corrupt("engine code"))?;
        let fuel = FuelType::parse(&self.fuel).ok_or_else(|| corrupt("fuel"))?;
        let years = YearRange::new(self.year_from, self.year_to).map_err(|_| corrupt("year range"))?;
        Vehicle::new(&self.make, &self.model, &self.generation, Engine { code, fuel, label: self.engine_label }, years)
            .map_err(|_| corrupt("vehicle"))
    }
}

/// One row of `product_fitment.fits`.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct FitRow {
    generation: String,
    engine: Option<String>,
    year_from: Option<i64>,
    year_to: Option<i64>,
    note: Option<String>,
    make: String,
    model: String,
    code: String,
    engine_label: Option<String>,
}

impl FitRow {
    /// What the catalog index keeps of the row (the car filter's fields).
    pub(crate) fn indexed(&self) -> crate::catalog::index::IndexedFit {
        crate::catalog::index::IndexedFit {
            generation: self.generation.clone(),
            engine: self.engine.clone(),
            year_from: self.year_from,
            year_to: self.year_to,
        }
    }
}

impl From<&ProductFit> for FitRow {
    fn from(f: &ProductFit) -> Self {
        Self {
            generation: f.row.generation.to_string(),
            engine: f.row.engine.as_ref().map(|e| e.as_str().to_owned()),
            year_from: f.row.years.map(|y| i64::from(y.from)),
            year_to: f.row.years.and_then(|y| y.to).map(i64::from),
            note: f.row.note.as_ref().map(|n| n.as_str().to_owned()),
            make: f.make.clone(),
            model: f.model.clone(),
            code: f.generation.clone(),
            engine_label: f.engine_label.clone(),
        }
    }
}

impl FitRow {
    /// The row as the domain has it, or why it cannot be one.
    pub(crate) fn into_fit(self) -> Result<ProductFit, String> {
        let generation = GenerationId::parse(&self.generation).map_err(|_| self.generation.clone())?;
        let engine = self.engine.as_deref().map(EngineCode::parse).transpose().map_err(|_| "engine".to_owned())?;
        let years = match self.year_from {
            Some(from) => Some(YearRange::new(from, self.year_to).map_err(|_| "years".to_owned())?),
            None => None,
        };
        let note = match self.note.as_deref() {
            Some(n) => FitmentNote::parse(n).map_err(|_| "note".to_owned())?,
            None => None,
        };
        Ok(ProductFit {
            row: FitmentRow { generation, engine, years, note },
            make: self.make,
            model: self.model,
            generation: self.code,
            engine_label: self.engine_label,
        })
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct FitmentRecord {
    version: i64,
    generations: Vec<String>,
    fits: Vec<FitRow>,
}

/// The fields of a product's stored fitment a write needs (read in the writing transaction).
pub(crate) const STORED_FITMENT: &str = "SELECT version, generations, fits FROM type::record('product_fitment', $id);";

/// Writes the `$fitments` ([`KeyedFitment`] rows) as `set_fitment` writes one: the record whole.
pub(crate) const WRITE_FITMENTS: &str = "FOR $f IN $fitments { \
     UPSERT type::record('product_fitment', $f.id) CONTENT { version: $f.version, generations: $f.generations, fits: $f.fits } \
     RETURN NONE; };";

/// A fitment record with its key, as [`WRITE_FITMENTS`] writes it.
pub(crate) type KeyedFitment = SeedRow;

impl From<&SeedRow> for FitmentRecord {
    fn from(r: &SeedRow) -> Self {
        FitmentRecord { version: r.version, generations: r.generations.clone(), fits: r.fits.clone() }
    }
}

/// A fitment write of `product`, as `set_fitment` and the import's batches make it: the record at
/// the version after `stored` (the stored record, if any) with `fits`, and the catalog change
/// naming the product and the generations of the rows before and after.
pub(crate) fn fitment_write(
    product: &ProductId,
    fits: &[ProductFit],
    stored: Option<&FitmentRecord>,
) -> (KeyedFitment, CatalogChange) {
    let generations = generations_of(fits);
    let mut touched: Vec<&str> = generations.iter().map(String::as_str).collect();
    if let Some(stored) = stored {
        touched.extend(stored.generations.iter().map(String::as_str));
    }
    let change = CatalogChange::of_fitment(product, &touched);
    let record = SeedRow {
        id: product.as_str().to_owned(),
        version: stored.map_or(0, |s| s.version) + 1,
        generations,
        fits: fits.iter().map(FitRow::from).collect(),
    };
    (record, change)
}

/// A `product_fitment` record as the seed inserts it (its key is `id`).
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct SeedRow {
    pub(crate) id: String,
    version: i64,
    generations: Vec<String>,
    fits: Vec<FitRow>,
}

/// The distinct generations of `fits`, in row order.
fn generations_of(fits: &[ProductFit]) -> Vec<String> {
    let mut generations: Vec<String> = Vec::new();
    for f in fits {
        let g = f.row.generation.to_string();
        if !generations.contains(&g) {
            generations.push(g);
        }
    }
    generations
}

fn unavailable(e: &surrealdb::Error) -> VehicleStoreError {
    VehicleStoreError::Unavailable { reason: e.message().to_owned() }
}

async fn give_up<T>(tx: Tx, outcome: VehicleStoreError) -> Attempt<Result<T, VehicleStoreError>> {
    // Nothing was written that a failing cancel could keep.
    let _ = tx.cancel().await;
    Attempt::Done(Err(outcome))
}

async fn abandon<T>(tx: Tx, e: surrealdb::Error) -> Attempt<Result<T, VehicleStoreError>> {
    let _ = tx.cancel().await;
    Attempt::failed(e, unavailable)
}

impl SurrealVehicleStore {
    async fn rows(&self, surql: &str, vars: Vec<(&'static str, String)>) -> Result<Vec<Vehicle>, VehicleStoreError> {
        let mut request = self.db.query(surql.replace("{FIELDS}", VEHICLE_FIELDS));
        for var in vars {
            request = request.bind(var);
        }
        let rows: Vec<VehicleRow> = request.await.and_then(|mut r| r.take(0)).map_err(|e| unavailable(&e))?;
        rows.into_iter().map(VehicleRow::into_vehicle).collect()
    }

    async fn try_add(&self, vehicle: &Vehicle, audit: &AuditEntry) -> Attempt<Result<(), VehicleStoreError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let id = vehicle.id().to_string();
        let exists: Result<Option<bool>, _> = tx
            .query("RETURN record::exists(type::record('vehicle', $id));")
            .bind(("id", id.clone()))
            .await
            .and_then(|mut r| r.take(0));
        match exists {
            Ok(Some(true)) => return give_up(tx, VehicleStoreError::Duplicate { id }).await,
            Ok(_) => {}
            Err(e) => return abandon(tx, e).await,
        }
        let written = tx
            .query("INSERT INTO vehicle $row RETURN NONE;")
            .query(crate::audit::WRITE)
            .bind(("row", VehicleRow::from(vehicle)))
            .bind(crate::audit::bind(audit))
            .await
            .and_then(surrealdb::IndexedResults::check);
        match written {
            Ok(_) => match tx.commit().await {
                Ok(()) => Attempt::Done(Ok(())),
                Err(e) => Attempt::failed(e, unavailable),
            },
            Err(e) => abandon(tx, e).await,
        }
    }

    async fn try_set(
        &self,
        product: &ProductId,
        fits: &[ProductFit],
        version: u64,
        audit: &AuditEntry,
    ) -> Attempt<Result<u64, VehicleStoreError>> {
        let Ok(expected) = i64::try_from(version) else {
            return Attempt::Done(Err(VehicleStoreError::Changed { version: 0 }));
        };
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let id = product.as_str().to_owned();
        let read: Result<(Option<bool>, Vec<FitmentRecord>), _> = tx
            .query(
                "RETURN record::exists(type::record('product', $id)) \
                 OR record::exists(type::record('unpublished_product', $id));",
            )
            .query(STORED_FITMENT)
            .bind(("id", id.clone()))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(1)?)));
        let (exists, stored) = match read {
            Ok(read) => read,
            Err(e) => return abandon(tx, e).await,
        };
        if exists != Some(true) {
            return give_up(tx, VehicleStoreError::ProductNotFound { id }).await;
        }
        let stored = stored.into_iter().next();
        let now = stored.as_ref().map_or(0, |s| s.version);
        if now != expected {
            return give_up(tx, VehicleStoreError::Changed { version: u64::try_from(now).unwrap_or(0) }).await;
        }
        let (record, change) = fitment_write(product, fits, stored.as_ref());
        let written = tx
            .query(WRITE_FITMENTS)
            .query(RECORD_CHANGE)
            .query(crate::audit::WRITE)
            .bind(("fitments", vec![record]))
            .bind(("change", CatalogChangeRow::from(&change)))
            .bind(crate::audit::bind(audit))
            .await
            .and_then(surrealdb::IndexedResults::check);
        match written {
            Ok(_) => match tx.commit().await {
                Ok(()) => Attempt::Done(Ok(version + 1)),
                Err(e) => Attempt::failed(e, unavailable),
            },
            Err(e) if crate::error::is_conflict(&e) => abandon(tx, e).await,
            Err(e) => {
                let _ = tx.cancel().await;
                Attempt::Done(Err(VehicleStoreError::Invalid { reason: e.message().to_owned() }))
            }
        }
    }
}

#[async_trait]
impl VehicleStore for SurrealVehicleStore {
    async fn seed_vehicles(&self, vehicles: &[Vehicle]) -> Result<u64, VehicleStoreError> {
        let rows: Vec<VehicleRow> = vehicles.iter().map(VehicleRow::from).collect();
        let counts: (Option<i64>, Option<i64>) = self
            .db
            .query("RETURN (SELECT count() AS n FROM vehicle GROUP ALL)[0].n ?? 0;")
            .query("INSERT IGNORE INTO vehicle $rows RETURN NONE;")
            .query("RETURN (SELECT count() AS n FROM vehicle GROUP ALL)[0].n ?? 0;")
            .bind(("rows", rows))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(2)?)))
            .map_err(|e| unavailable(&e))?;
        let (before, after) = (counts.0.unwrap_or(0), counts.1.unwrap_or(0));
        Ok(u64::try_from(after - before).unwrap_or(0))
    }

    async fn seed_fitment(&self, fitments: &[(ProductId, Vec<ProductFit>)]) -> Result<(), VehicleStoreError> {
        if fitments.is_empty() {
            return Ok(());
        }
        let rows: Vec<SeedRow> = fitments
            .iter()
            .filter(|(id, _)| !id.as_str().is_empty())
            .map(|(id, fits)| SeedRow {
                id: id.as_str().to_owned(),
                version: 1,
                generations: generations_of(fits),
                fits: fits.iter().map(FitRow::from).collect(),
            })
            .collect();
        self.db
            .query("BEGIN; INSERT IGNORE INTO product_fitment $rows RETURN NONE;")
            .query(crate::catalog::BUMP_VERSION)
            .query("COMMIT;")
            .bind(("rows", rows))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| {
                if crate::error::is_conflict(&e) {
                    unavailable(&e)
                } else {
                    VehicleStoreError::Invalid { reason: e.message().to_owned() }
                }
            })
    }

    async fn add_vehicle(&self, vehicle: &Vehicle, audit: &AuditEntry) -> Result<(), VehicleStoreError> {
        until_settled(|| self.try_add(vehicle, audit), |e| Err(unavailable(e))).await
    }

    async fn models(&self, make: &BrandSlug) -> Result<Vec<Model>, VehicleStoreError> {
        let vehicles = self
            .rows("SELECT {FIELDS} FROM vehicle WHERE make = $make", vec![("make", make.code().to_owned())])
            .await?;
        let mut models: Vec<Model> = Vec::new();
        for v in vehicles {
            let slug = marque_domain::vehicle::slugify(&v.model);
            if !models.iter().any(|m| m.slug == slug) {
                models.push(Model { slug, name: v.model });
            }
        }
        models.sort_by(|a, b| a.name.to_lowercase().cmp(&b.name.to_lowercase()).then_with(|| a.slug.cmp(&b.slug)));
        Ok(models)
    }

    async fn generations(&self, make: &BrandSlug, model: &str) -> Result<Vec<Generation>, VehicleStoreError> {
        let vehicles = self
            .rows(
                "SELECT {FIELDS} FROM vehicle WHERE make = $make AND model_slug = $model",
                vec![("make", make.code().to_owned()), ("model", model.to_owned())],
            )
            .await?;
        let mut generations: Vec<Generation> = Vec::new();
        for v in vehicles {
            let id = v.generation_id();
            match generations.iter_mut().find(|g| g.id == id) {
                Some(g) => {
                    g.years.from = g.years.from.min(v.years.from);
                    g.years.to = match (g.years.to, v.years.to) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
                None => generations.push(Generation { id, code: v.generation.clone(), years: v.years }),
            }
        }
        generations.sort_by(|a, b| a.years.from.cmp(&b.years.from).then_with(|| a.code.cmp(&b.code)));
        Ok(generations)
    }

    async fn vehicles_of(&self, generation: &GenerationId) -> Result<Vec<Vehicle>, VehicleStoreError> {
        let mut vehicles = self
            .rows(
                "SELECT {FIELDS} FROM vehicle WHERE generation_id = $generation",
                vec![("generation", generation.to_string())],
            )
            .await?;
        vehicles.sort_by(|a, b| a.engine.label.cmp(&b.engine.label).then_with(|| a.engine.code.cmp(&b.engine.code)));
        Ok(vehicles)
    }

    async fn vehicle(&self, id: &VehicleId) -> Result<Option<Vehicle>, VehicleStoreError> {
        let found =
            self.rows("SELECT {FIELDS} FROM type::record('vehicle', $id)", vec![("id", id.to_string())]).await?;
        Ok(found.into_iter().next())
    }

    async fn fitment(&self, product: &ProductId) -> Result<StoredFitment, VehicleStoreError> {
        if product.as_str().is_empty() {
            return Ok(StoredFitment::default());
        }
        let stored: Vec<FitmentRecord> = self
            .db
            .query("SELECT version, generations, fits FROM type::record('product_fitment', $id)")
            .bind(("id", product.as_str().to_owned()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        let Some(record) = stored.into_iter().next() else { return Ok(StoredFitment::default()) };
        Ok(StoredFitment {
            version: u64::try_from(record.version).map_err(|_| corrupt("fitment version"))?,
            fits: record
                .fits
                .into_iter()
                .map(FitRow::into_fit)
                .collect::<Result<_, _>>()
                .map_err(|_| corrupt("fitment row"))?,
        })
    }

    async fn set_fitment(
        &self,
        product: &ProductId,
        fits: &[ProductFit],
        version: u64,
        audit: &AuditEntry,
    ) -> Result<u64, VehicleStoreError> {
        if product.as_str().is_empty() {
            return Err(VehicleStoreError::ProductNotFound { id: String::new() });
        }
        until_settled(|| self.try_set(product, fits, version, audit), |e| Err(unavailable(e))).await
    }
}
