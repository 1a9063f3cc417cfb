//! `grievances`: the contact page's grievance form (`POST /api/grievances`), public and limited per
//! client. The ticket's number comes back, and the acknowledgement goes to the complainant's email.

use marque_app::{Action, GrievanceError, GrievanceService, Throttle};
use marque_domain::grievance::{GrievanceErrors, GrievanceInput};
use marque_domain::Message;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use crate::address::{field_errors, FieldError};
use crate::error::ErrorBody;
use crate::model::SUCCESS;

#[derive(Tags)]
enum Tag {
    /// Grievances to the shop's Grievance Officer (Consumer Protection (E-Commerce) Rules 2020).
    Grievances,
}

/// What the contact page's form sends. Missing fields are read as empty (and refused as such).
#[derive(Debug, Clone, Object)]
#[oai(rename = "GrievanceForm")]
pub struct GrievanceBody {
    /// 1 to 100 characters.
    pub name: Option<String>,
    pub email: Option<String>,
    /// Ten digits starting 6-9.
    pub mobile: Option<String>,
    /// The order the grievance is about, if any (at most 40 letters, digits, `-` or `/`).
    #[oai(rename = "orderNumber")]
    pub order_number: Option<String>,
    /// 20 to 2000 characters.
    pub message: Option<String>,
}

/// The ticket registered.
#[derive(Debug, Clone, Object)]
#[oai(rename = "GrievanceReceived")]
pub struct ReceivedBody {
    /// Always `success`.
    pub status: String,
    /// `grievance.received`'s text.
    pub message: String,
    pub code: String,
    /// The ticket's number, e.g. `GR/26-27/000001`.
    pub number: String,
    /// When it must be acknowledged, and resolved: ISO 8601 in UTC.
    #[oai(rename = "acknowledgeBy")]
    pub acknowledge_by: String,
    #[oai(rename = "resolveBy")]
    pub resolve_by: String,
}

/// `failed` with every failing field; `message` and `code` are the first one's.
#[derive(Debug, Clone, Object)]
#[oai(rename = "GrievanceError")]
pub struct InvalidGrievanceBody {
    /// Always `failed`.
    pub status: String,
    pub message: String,
    #[oai(skip_serializing_if_is_none)]
    pub code: Option<String>,
    /// Every failing field, in form order; empty when the body itself did not parse.
    pub errors: Vec<FieldError>,
}

impl From<ErrorBody> for InvalidGrievanceBody {
    fn from(e: ErrorBody) -> Self {
        Self { status: e.status, message: e.message, code: e.code, errors: Vec::new() }
    }
}

impl From<&GrievanceErrors> for InvalidGrievanceBody {
    fn from(errors: &GrievanceErrors) -> Self {
        let first = ErrorBody::from_rule(errors).0;
        Self { errors: field_errors(errors, |f| f.name()), ..first.into() }
    }
}

#[derive(ApiResponse)]
#[oai(bad_request_handler = "grievance_bad_request")]
enum GrievanceAnswer {
    /// The grievance is registered and its acknowledgement emailed.
    #[oai(status = 201)]
    Created(Json<ReceivedBody>),
    /// Fields that do not parse (`grievance.name_invalid`, `email.invalid`, `address.mobile_invalid`,
    /// `grievance.order_number_invalid`, `grievance.message_invalid`), every one of them.
    #[oai(status = 400)]
    BadRequest(Json<InvalidGrievanceBody>),
    /// Too many grievances from this client in an hour (`request.too_many`); `Retry-After` gives the
    /// seconds to wait.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    /// The grievances cannot be stored right now (`grievance.unavailable`).
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn grievance_bad_request(err: poem::Error) -> GrievanceAnswer {
    GrievanceAnswer::BadRequest(Json(ErrorBody::from_poem(&err).0.into()))
}

/// The grievance form's call.
#[derive(Debug)]
pub struct GrievanceApi {
    grievances: GrievanceService,
    throttle: Throttle,
}

impl GrievanceApi {
    #[must_use]
    pub fn new(grievances: GrievanceService, throttle: Throttle) -> Self {
        Self { grievances, throttle }
    }
}

#[OpenApi(tag = "Tag::Grievances")]
impl GrievanceApi {
    /// Registers a grievance for the Grievance Officer: a numbered ticket to be acknowledged within
    /// 48 hours and resolved within one month, acknowledged at once by email. No sign-in needed;
    /// limited per client.
    #[oai(path = "/grievances", method = "post", operation_id = "submitGrievance")]
    async fn submit(&self, req: &Request, body: Json<GrievanceBody>) -> GrievanceAnswer {
        by_client!(self.throttle, Action::Grievance, req, GrievanceAnswer);
        let GrievanceBody { name, email, mobile, order_number, message } = body.0;
        let input = GrievanceInput {
            name: name.unwrap_or_default(),
            email: email.unwrap_or_default(),
            mobile: mobile.unwrap_or_default(),
            order_number: order_number.unwrap_or_default(),
            message: message.unwrap_or_default(),
        };
        match self.grievances.submit(&input).await {
            Ok(g) => GrievanceAnswer::Created(Json(ReceivedBody {
                status: SUCCESS.into(),
                message: Message::GrievanceReceived.text().into(),
                code: Message::GrievanceReceived.code().into(),
                number: g.number,
                acknowledge_by: crate::orders::iso_8601(g.acknowledge_by),
                resolve_by: crate::orders::iso_8601(g.resolve_by),
            })),
            Err(GrievanceError::Invalid(errors)) => GrievanceAnswer::BadRequest(Json((&errors).into())),
            Err(e @ GrievanceError::Unavailable(_)) => {
                tracing::error!(error = %e, "a grievance was not registered");
                GrievanceAnswer::Unavailable(ErrorBody::from_message(e.message()))
            }
        }
    }
}
