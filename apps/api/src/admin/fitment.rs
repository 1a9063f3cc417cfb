//! `admin-fitment`: a product's fitment (`GET` and `PUT /api/admin/products/{id}/fitment`, the
//! rows replaced whole on the version named by `If-Match`) and vehicles added to the table
//! (`POST /api/admin/vehicles`). Roles owner and catalog; each write with its audit entry.

use marque_app::admin::fitment::{AdminFitmentError, AdminFitmentService, FitmentInput, VehicleInput};
use marque_domain::catalog::ProductId;
use marque_domain::vehicle::MAX_FITMENT_ROWS;
use marque_domain::Message;
use marque_ports::StoredFitment;
use poem_openapi::param::{Header, Path};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi, Tags};

use super::auth::ProductsStaff;
use crate::error::ErrorBody;
use crate::model::FitBody;

#[derive(Tags)]
enum Tag {
    /// Back office: the vehicle table and the vehicles each product fits (roles owner, catalog).
    #[oai(rename = "admin-fitment")]
    AdminFitment,
}

/// A product's fitment and the version to send back as `If-Match`.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminFitment")]
pub struct FitmentBody {
    pub fits: Vec<FitBody>,
    pub version: u64,
}

impl From<StoredFitment> for FitmentBody {
    fn from(f: StoredFitment) -> Self {
        Self { fits: f.fits.iter().map(FitBody::from).collect(), version: f.version }
    }
}

/// One row as staff give it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminFitmentRow")]
pub struct FitmentRowBody {
    /// The generation's id, e.g. `bmw-x5-g05`.
    #[oai(rename = "generationId")]
    pub generation_id: String,
    /// One of the generation's engine codes (`B57`); absent or blank: every engine.
    #[oai(rename = "engineCode")]
    pub engine_code: Option<String>,
    /// First and last model year it fits; both absent: every year (`to` absent: still made).
    #[oai(rename = "yearFrom")]
    pub year_from: Option<i64>,
    #[oai(rename = "yearTo")]
    pub year_to: Option<i64>,
    /// At most 80 characters, e.g. `front axle`.
    pub note: Option<String>,
}

/// The whole fitment, replacing the stored one.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminFitmentChange")]
pub struct FitmentChangeBody {
    /// At most 200 rows, none twice.
    #[oai(validator(max_items = 200))]
    pub fits: Vec<FitmentRowBody>,
}

/// A vehicle to add to the table.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminVehicle")]
pub struct VehicleFields {
    /// One of the shop's makes: `audi`, `bmw`, `mercedes-benz`, `jaguar`, `land-rover`,
    /// `range-rover`, `volvo`, `porsche`.
    pub make: String,
    /// As the maker writes it, at most 40 characters: `X5`.
    pub model: String,
    /// The generation or body code, at most 16 characters: `G05`.
    pub generation: String,
    /// The engine's code: letters and digits, hyphens between them, at most 16: `B57`.
    #[oai(rename = "engineCode")]
    pub engine_code: String,
    /// petrol, diesel, hybrid or electric.
    pub fuel: String,
    /// The engine as shoppers know it, at most 24 characters: `3.0d`.
    pub engine: String,
    #[oai(rename = "yearFrom")]
    pub year_from: i64,
    /// Absent while the model is still made.
    #[oai(rename = "yearTo")]
    pub year_to: Option<i64>,
}

/// The vehicle as stored, with the id listings' `fits` takes.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminVehicleCreated")]
pub struct VehicleCreated {
    #[oai(rename = "_id")]
    pub id: String,
    #[oai(rename = "generationId")]
    pub generation_id: String,
}

admin_response!(FitmentAnswer, fitment_bad_request, "fitment_bad_request", {
    /// The product's fitment and its version.
    Ok(Json<FitmentBody>) = 200,
});

admin_response!(FitmentChanged, fitment_change_bad_request, "fitment_change_bad_request", {
    /// The fitment as stored, at its new version.
    Ok(Json<FitmentBody>) = 200,
    /// No product has this id (`admin.product_not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// The fitment changed since the version named (`fitment.changed`); nothing was written.
    Conflict(Json<ErrorBody>) = 409,
    /// A row naming no generation of the table or an engine it does not have, a row twice
    /// (`fitment.invalid`), years out of order (`vehicle.year_invalid`), a note too long
    /// (`fitment.note_too_long`), more than 200 rows (`fitment.too_many`).
    UnprocessableEntity(Json<ErrorBody>) = 422,
    /// No `If-Match` header naming the fitment's version (`fitment.version_required`).
    PreconditionRequired(Json<ErrorBody>) = 428,
});

admin_response!(VehicleAnswer, vehicle_bad_request, "vehicle_bad_request", {
    /// The vehicle was added.
    Created(Json<VehicleCreated>) = 201,
    /// That engine of that generation is already in the table (`vehicle.duplicate`).
    Conflict(Json<ErrorBody>) = 409,
    /// A make the shop does not sell or a field out of its rules (`vehicle.invalid`,
    /// `vehicle.year_invalid`).
    UnprocessableEntity(Json<ErrorBody>) = 422,
});

fn body(e: &AdminFitmentError) -> Json<ErrorBody> {
    if let AdminFitmentError::Unavailable(reason) = e {
        tracing::error!(%reason, "the vehicle table failed");
    }
    ErrorBody::from_message(e.message())
}

/// The back office's fitment calls.
#[derive(Debug)]
pub struct FitmentApi {
    fitment: AdminFitmentService,
}

impl FitmentApi {
    pub fn new(fitment: AdminFitmentService) -> Self {
        Self { fitment }
    }
}

#[OpenApi(tag = "Tag::AdminFitment")]
impl FitmentApi {
    /// A product's fitment (published or not) and its `version` (0 before the first write), for
    /// `If-Match`.
    #[oai(path = "/admin/products/:id/fitment", method = "get", operation_id = "adminGetFitment")]
    async fn fitment(&self, staff: ProductsStaff, id: Path<String>) -> FitmentAnswer {
        match self.fitment.fitment(&staff, &ProductId(id.0)).await {
            Ok(f) => FitmentAnswer::Ok(Json(f.into())),
            Err(e @ AdminFitmentError::Forbidden(_)) => FitmentAnswer::Forbidden(body(&e)),
            Err(e) => FitmentAnswer::Unavailable(body(&e)),
        }
    }

    /// Replaces a product's fitment with the rows given (at most 200), on the version named by
    /// `If-Match`: each row a generation of the vehicle table, with one of its engines or every
    /// engine, maybe some model years only and a note. Listings narrowed to a car follow at once.
    #[oai(path = "/admin/products/:id/fitment", method = "put", operation_id = "adminSetFitment")]
    async fn set_fitment(
        &self,
        staff: ProductsStaff,
        id: Path<String>,
        /// The fitment's `version` as last read (`3`, or `"3"`).
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        input: Json<FitmentChangeBody>,
    ) -> FitmentChanged {
        let version = required_version!(FitmentChanged, if_match.0, Message::FitmentVersionRequired);
        if input.0.fits.len() > MAX_FITMENT_ROWS {
            return FitmentChanged::UnprocessableEntity(ErrorBody::from_message(Message::FitmentTooMany));
        }
        let rows: Vec<FitmentInput> = input
            .0
            .fits
            .into_iter()
            .map(|r| FitmentInput {
                generation: r.generation_id,
                engine: r.engine_code,
                year_from: r.year_from,
                year_to: r.year_to,
                note: r.note,
            })
            .collect();
        match self.fitment.set_fitment(&staff, &ProductId(id.0), &rows, version).await {
            Ok(f) => FitmentChanged::Ok(Json(f.into())),
            Err(e) => match &e {
                AdminFitmentError::Forbidden(_) => FitmentChanged::Forbidden(body(&e)),
                AdminFitmentError::Invalid(_) => FitmentChanged::UnprocessableEntity(body(&e)),
                AdminFitmentError::NotFound => FitmentChanged::NotFound(body(&e)),
                AdminFitmentError::Changed { .. } | AdminFitmentError::Duplicate => FitmentChanged::Conflict(body(&e)),
                AdminFitmentError::Unavailable(_) => FitmentChanged::Unavailable(body(&e)),
            },
        }
    }

    /// Adds a vehicle (one engine of one generation) to the table.
    #[oai(path = "/admin/vehicles", method = "post", operation_id = "adminAddVehicle")]
    async fn add_vehicle(&self, staff: ProductsStaff, input: Json<VehicleFields>) -> VehicleAnswer {
        let v = input.0;
        let fields = VehicleInput {
            make: v.make,
            model: v.model,
            generation: v.generation,
            engine_code: v.engine_code,
            fuel: v.fuel,
            engine_label: v.engine,
            year_from: v.year_from,
            year_to: v.year_to,
        };
        match self.fitment.add_vehicle(&staff, &fields).await {
            Ok(vehicle) => VehicleAnswer::Created(Json(VehicleCreated {
                id: vehicle.id().to_string(),
                generation_id: vehicle.generation_id().to_string(),
            })),
            Err(e) => match &e {
                AdminFitmentError::Forbidden(_) => VehicleAnswer::Forbidden(body(&e)),
                AdminFitmentError::Invalid(_) => VehicleAnswer::UnprocessableEntity(body(&e)),
                AdminFitmentError::Duplicate | AdminFitmentError::Changed { .. } => VehicleAnswer::Conflict(body(&e)),
                AdminFitmentError::NotFound | AdminFitmentError::Unavailable(_) => VehicleAnswer::Unavailable(body(&e)),
            },
        }
    }
}
