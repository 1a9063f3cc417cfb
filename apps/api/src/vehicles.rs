//! `vehicles`: the vehicle table a shopper picks a car from, one step at a time
//! (`GET /api/get/vehicles`: makes → `?make=` models → `&model=` generations → `&generation=` engines).

use marque_app::{VehicleLookupError, VehicleService};
use marque_domain::vehicle::{Vehicle, MAKES};
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use crate::error::ErrorBody;
use crate::model::{YearsBody, SUCCESS};

#[derive(Tags)]
enum Tag {
    /// The vehicle table: makes, models, generations and engines, for choosing a car.
    Vehicles,
}

/// One step of the choice: exactly one of the lists is present.
#[derive(Debug, Clone, Object)]
#[oai(rename = "VehicleChoice")]
pub struct ChoiceBody {
    /// Always `success`.
    pub status: String,
    /// Without parameters: the shop's eight makes.
    #[oai(skip_serializing_if_is_none)]
    pub makes: Option<Vec<NamedBody>>,
    /// With `make`: its models, A to Z.
    #[oai(skip_serializing_if_is_none)]
    pub models: Option<Vec<NamedBody>>,
    /// With `make` and `model`: the model's generations, oldest first.
    #[oai(skip_serializing_if_is_none)]
    pub generations: Option<Vec<GenerationBody>>,
    /// With `generation`: its vehicles, one per engine.
    #[oai(skip_serializing_if_is_none)]
    pub vehicles: Option<Vec<VehicleBody>>,
}

/// A make or a model: what the next step asks by (`id`) and what a person reads (`name`).
#[derive(Debug, Clone, Object)]
#[oai(rename = "VehicleName")]
pub struct NamedBody {
    /// `bmw`, `x5`.
    pub id: String,
    /// `BMW`, `X5`, as the makers write them.
    pub name: String,
}

#[derive(Debug, Clone, Object)]
#[oai(rename = "VehicleGeneration")]
pub struct GenerationBody {
    /// `bmw-x5-g05`: the `generation` of the next step.
    pub id: String,
    /// The generation or body code: `G05`.
    pub code: String,
    pub years: YearsBody,
}

/// A vehicle: one engine of a generation. Its `id` is what listings' `fits` takes.
#[derive(Debug, Clone, Object)]
#[oai(rename = "Vehicle")]
pub struct VehicleBody {
    /// `bmw-x5-g05.b57`.
    pub id: String,
    pub make: String,
    pub model: String,
    /// The generation code: `G05`.
    pub generation: String,
    /// The engine as a shopper knows it: `3.0d`.
    pub engine: String,
    /// The maker's engine code: `B57`.
    #[oai(rename = "engineCode")]
    pub engine_code: String,
    /// petrol, diesel, hybrid or electric.
    pub fuel: String,
    pub years: YearsBody,
}

impl From<Vehicle> for VehicleBody {
    fn from(v: Vehicle) -> Self {
        Self {
            id: v.id().to_string(),
            make: v.make_name().to_owned(),
            generation: v.generation.clone(),
            engine_code: v.engine.code.as_str().to_owned(),
            fuel: v.engine.fuel.code().to_owned(),
            years: v.years.into(),
            engine: v.engine.label,
            model: v.model,
        }
    }
}

#[derive(ApiResponse)]
#[oai(bad_request_handler = "choice_bad_request")]
enum ChoiceResponse {
    #[oai(status = 200)]
    Ok(Json<ChoiceBody>),
    /// A make the shop does not sell, or a value that cannot be a model or generation
    /// (`vehicle.unknown`).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No such model or generation in the table (`vehicle.unknown`).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// The vehicle table cannot be read right now.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn choice_bad_request(err: poem::Error) -> ChoiceResponse {
    ChoiceResponse::BadRequest(ErrorBody::from_poem(&err))
}

fn choice(body: ChoiceBody) -> ChoiceResponse {
    ChoiceResponse::Ok(Json(body))
}

fn empty() -> ChoiceBody {
    ChoiceBody { status: SUCCESS.into(), makes: None, models: None, generations: None, vehicles: None }
}

impl From<VehicleLookupError> for ChoiceResponse {
    fn from(e: VehicleLookupError) -> Self {
        match e {
            VehicleLookupError::Invalid(_) => ChoiceResponse::BadRequest(ErrorBody::from_message(e.message())),
            VehicleLookupError::Unknown => ChoiceResponse::NotFound(ErrorBody::from_message(e.message())),
            VehicleLookupError::Unavailable(reason) => {
                tracing::error!(error = %reason, "vehicle table unavailable");
                ChoiceResponse::Unavailable(ErrorBody::new(
                    "The vehicle list is unavailable right now. Please try again.",
                    Some("vehicle.unavailable"),
                ))
            }
        }
    }
}

pub struct VehiclesApi {
    vehicles: VehicleService,
}

impl VehiclesApi {
    pub fn new(vehicles: VehicleService) -> Self {
        Self { vehicles }
    }
}

#[OpenApi(tag = "Tag::Vehicles")]
impl VehiclesApi {
    /// The next list of the car choice: without parameters the makes; with `make` its models; with
    /// `make` and `model` the model's generations; with `generation` its vehicles (engines), whose
    /// `id` the listings' `fits` takes. Vehicle names are as the makers write them.
    #[oai(path = "/get/vehicles", method = "get", operation_id = "listVehicles")]
    async fn vehicles(
        &self,
        /// A make's id, e.g. `bmw` or `mercedes-benz`.
        make: Query<Option<String>>,
        /// A model's id within the make, e.g. `x5` or `e-class`.
        model: Query<Option<String>>,
        /// A generation's id, e.g. `bmw-x5-g05`.
        generation: Query<Option<String>>,
    ) -> ChoiceResponse {
        let given = |q: Option<String>| q.filter(|v| !v.trim().is_empty());
        match (given(make.0), given(model.0), given(generation.0)) {
            (_, _, Some(generation)) => match self.vehicles.vehicles(&generation).await {
                Ok(v) => choice(ChoiceBody { vehicles: Some(v.into_iter().map(Into::into).collect()), ..empty() }),
                Err(e) => e.into(),
            },
            (Some(make), Some(model), None) => match self.vehicles.generations(&make, &model).await {
                Ok(g) => choice(ChoiceBody {
                    generations: Some(
                        g.into_iter()
                            .map(|g| GenerationBody { id: g.id.to_string(), code: g.code, years: g.years.into() })
                            .collect(),
                    ),
                    ..empty()
                }),
                Err(e) => e.into(),
            },
            (Some(make), None, None) => match self.vehicles.models(&make).await {
                Ok(m) => choice(ChoiceBody {
                    models: Some(m.into_iter().map(|m| NamedBody { id: m.slug, name: m.name }).collect()),
                    ..empty()
                }),
                Err(e) => e.into(),
            },
            (None, Some(_), None) => {
                ChoiceResponse::BadRequest(ErrorBody::from_message(marque_domain::Message::VehicleUnknown))
            }
            (None, None, None) => choice(ChoiceBody {
                makes: Some(
                    MAKES
                        .iter()
                        .map(|(id, name)| NamedBody { id: (*id).to_owned(), name: (*name).to_owned() })
                        .collect(),
                ),
                ..empty()
            }),
        }
    }
}
