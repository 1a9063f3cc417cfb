//! `garage`: a signed-in shopper's cars (at most five), kept with the account so the garage follows
//! them from one device to another (`GET /api/account/garage`, `PUT /api/account/garage`).

use marque_app::{Action, GarageEntry, GarageError, GarageService, Throttle};
use marque_domain::Message;
use marque_ports::UserId;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use super::auth::Customer;
use super::error::ErrorBody;

#[derive(Tags)]
enum Tag {
    /// The cars a signed-in shopper keeps in "My garage".
    Garage,
}

/// Most cars one `PUT` may name, repeats included (the garage keeps five different ones).
const MAX_NAMED: usize = 20;

/// A car as the shopper keeps it: a vehicle of the table and, maybe, its model year.
#[derive(Debug, Clone, Object)]
#[oai(rename = "KeptCar")]
pub struct KeptCarBody {
    /// The vehicle (`bmw-x5-g05.b57`) as `GET /api/get/vehicles?generation=` answers it.
    #[oai(rename = "vehicleId", validator(max_length = 120))]
    pub vehicle_id: String,
    /// 1950 to 2100; null when not known.
    #[oai(nullable)]
    pub year: Option<i64>,
}

/// A car of the garage with the vehicle table's names, as the header and product pages show it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "GarageCar")]
pub struct GarageCarBody {
    #[oai(rename = "vehicleId")]
    pub vehicle_id: String,
    /// As the maker writes it: `BMW`.
    pub make: String,
    pub model: String,
    /// The generation or body code: `G05`.
    pub generation: String,
    /// The engine's label: `3.0d`.
    pub engine: String,
    #[oai(nullable)]
    pub year: Option<u16>,
}

impl From<&GarageEntry> for GarageCarBody {
    fn from(e: &GarageEntry) -> Self {
        Self {
            vehicle_id: e.car.vehicle.to_string(),
            make: e.vehicle.make_name().to_owned(),
            model: e.vehicle.model.clone(),
            generation: e.vehicle.generation.clone(),
            engine: e.vehicle.engine.label.clone(),
            year: e.car.year,
        }
    }
}

/// The customer's garage, newest first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "Garage")]
pub struct GarageBody {
    pub cars: Vec<GarageCarBody>,
}

/// The whole garage to keep, newest first: each vehicle once (a repeat keeps its first place).
#[derive(Debug, Clone, Object)]
#[oai(rename = "GarageChange")]
pub struct GarageChangeBody {
    pub cars: Vec<KeptCarBody>,
}

session_response!(ReadResponse, GarageBody, read_bad_request, "read_bad_request", {});
session_response!(KeepResponse, GarageBody, keep_bad_request, "keep_bad_request", limited, {});

fn body(entries: &[GarageEntry]) -> Json<GarageBody> {
    Json(GarageBody { cars: entries.iter().map(GarageCarBody::from).collect() })
}

fn unavailable(e: &GarageError) -> Json<ErrorBody> {
    tracing::error!(error = %e, "garage unavailable");
    ErrorBody::from_message(Message::SomethingWentWrong)
}

pub struct GarageApi {
    garage: GarageService,
    throttle: Throttle,
}

impl GarageApi {
    pub fn new(garage: GarageService, throttle: Throttle) -> Self {
        Self { garage, throttle }
    }
}

#[OpenApi(tag = "Tag::Garage")]
impl GarageApi {
    /// The signed-in customer's garage, newest first, with the vehicle table's names (a vehicle the
    /// table no longer has is left out).
    #[oai(path = "/account/garage", method = "get", operation_id = "getGarage")]
    async fn read(&self, customer: Customer) -> ReadResponse {
        match self.garage.garage(&UserId(customer.id().to_owned())).await {
            Ok(entries) => ReadResponse::Ok(body(&entries)),
            Err(e) => ReadResponse::Unavailable(unavailable(&e)),
        }
    }

    /// Keeps the customer's whole garage, replacing it (the browser merges the cars kept while
    /// logged out at sign-in and sends the whole list with each change): at most five different
    /// vehicles of the table (`garage.too_many`, `vehicle.unknown`), years 1950–2100
    /// (`vehicle.year_invalid`); nothing is kept when one is refused.
    #[oai(path = "/account/garage", method = "put", operation_id = "setGarage")]
    async fn keep(&self, customer: Customer, input: Json<GarageChangeBody>) -> KeepResponse {
        throttle!(self.throttle, Action::GarageWrite, customer, KeepResponse);
        if input.0.cars.len() > MAX_NAMED {
            return KeepResponse::BadRequest(ErrorBody::from_message(Message::GarageTooMany));
        }
        let cars: Vec<(String, Option<i64>)> = input.0.cars.into_iter().map(|c| (c.vehicle_id, c.year)).collect();
        match self.garage.set_garage(&UserId(customer.id().to_owned()), &cars).await {
            Ok(entries) => KeepResponse::Ok(body(&entries)),
            Err(GarageError::Invalid(e)) => {
                KeepResponse::BadRequest(ErrorBody::from_message(marque_domain::UserFacing::message(&e)))
            }
            Err(e) => KeepResponse::Unavailable(unavailable(&e)),
        }
    }
}
