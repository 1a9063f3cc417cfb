//! `admin-grievances` (owner, fulfilment): the grievance officer's tickets with their clocks
//! (`GET /api/admin/grievances`, `GET /api/admin/grievances/{id}`) and their moves
//! (`PATCH /api/admin/grievances/{id}` with `If-Match: <version>`: acknowledge, or resolve with a reply).

use marque_app::admin::grievances::{AdminGrievanceError, AdminGrievancesService, TicketView};
use marque_domain::Message;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi, Tags};

use super::auth::GrievancesStaff;
use super::list_window;
use crate::error::ErrorBody;
use crate::orders::iso_8601;

#[derive(Tags)]
enum Tag {
    /// Staff: grievance tickets, their 48-hour and one-month clocks, acknowledgements and resolutions
    /// (roles: owner, fulfilment).
    #[oai(rename = "admin-grievances")]
    AdminGrievances,
}

/// One ticket as the grievance officer reads it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminGrievance")]
pub struct TicketBody {
    #[oai(rename = "_id")]
    pub id: String,
    /// `GR/26-27/000001`.
    pub number: String,
    pub name: String,
    pub email: String,
    pub mobile: String,
    #[oai(rename = "orderNumber")]
    pub order_number: Option<String>,
    pub message: String,
    /// `open`, `acknowledged` or `resolved`.
    pub state: String,
    /// When it arrived, ISO 8601 in UTC.
    #[oai(rename = "createdAt")]
    pub created_at: String,
    /// The 48-hour acknowledgement clock, ISO 8601 in UTC.
    #[oai(rename = "acknowledgeBy")]
    pub acknowledge_by: String,
    /// The one-month resolution clock, ISO 8601 in UTC.
    #[oai(rename = "resolveBy")]
    pub resolve_by: String,
    /// Still open past its acknowledgement clock.
    #[oai(rename = "acknowledgeOverdue")]
    pub acknowledge_overdue: bool,
    /// Not resolved past its resolution clock.
    #[oai(rename = "resolveOverdue")]
    pub resolve_overdue: bool,
    /// Either clock has run out.
    pub overdue: bool,
    #[oai(rename = "acknowledgedAt")]
    pub acknowledged_at: Option<String>,
    #[oai(rename = "resolvedAt")]
    pub resolved_at: Option<String>,
    /// The officer's note on acknowledging.
    pub acknowledgement: Option<String>,
    /// The reply sent with the resolution.
    pub resolution: Option<String>,
    /// Who last moved it (a staff member's email).
    #[oai(rename = "handledBy")]
    pub handled_by: Option<String>,
    /// Send it back as `If-Match` with a change.
    pub version: u64,
}

impl From<&TicketView> for TicketBody {
    fn from(v: &TicketView) -> Self {
        let g = &v.grievance;
        Self {
            id: g.id.clone(),
            number: g.number.clone(),
            name: g.name.clone(),
            email: g.email.clone(),
            mobile: g.mobile.clone(),
            order_number: g.order_number.clone(),
            message: g.message.clone(),
            state: g.state.code().to_owned(),
            created_at: iso_8601(g.created_at),
            acknowledge_by: iso_8601(v.clocks.acknowledge_by),
            resolve_by: iso_8601(v.clocks.resolve_by),
            acknowledge_overdue: v.clocks.acknowledge_overdue,
            resolve_overdue: v.clocks.resolve_overdue,
            overdue: v.clocks.overdue(),
            acknowledged_at: g.acknowledged_at.map(iso_8601),
            resolved_at: g.resolved_at.map(iso_8601),
            acknowledgement: g.acknowledgement.clone(),
            resolution: g.resolution.clone(),
            handled_by: g.handled_by.clone(),
            version: g.version,
        }
    }
}

/// One page of tickets, newest first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminGrievanceList")]
pub struct TicketListBody {
    pub results: Vec<TicketBody>,
    pub pages: u64,
    pub total: u64,
}

/// What `PATCH /api/admin/grievances/{id}` receives.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminGrievanceChange", deny_unknown_fields)]
pub struct ChangeBody {
    /// `acknowledge` (from open) or `resolve` (from open or acknowledged).
    pub action: String,
    /// The note: optional to acknowledge, the reply (required) to resolve; at most 2000 characters.
    /// The complainant is emailed it.
    pub note: Option<String>,
}

admin_response!(ListAnswer, list_bad_request, "list_bad_request", {
    /// One page of the tickets, newest first, each with its clocks.
    Ok(Json<TicketListBody>) = 200,
});

admin_response!(TicketAnswer, ticket_bad_request, "ticket_bad_request", {
    /// The ticket, its clocks and its version.
    Ok(Json<TicketBody>) = 200,
    /// No ticket has this id (`grievance.not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

admin_response!(ChangeAnswer, change_bad_request, "change_bad_request", {
    /// The ticket after the move, at its new version.
    Ok(Json<TicketBody>) = 200,
    /// No ticket has this id (`grievance.not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// The ticket changed since the version named (`grievance.changed`), or the move is not one
    /// from where it stands (`grievance.already_acknowledged`, `grievance.already_resolved`);
    /// nothing was written.
    Conflict(Json<ErrorBody>) = 409,
    /// A resolution without a reply, or a note too long (`grievance.note_invalid`).
    UnprocessableEntity(Json<ErrorBody>) = 422,
    /// No `If-Match` header naming the ticket's version (`grievance.version_required`).
    PreconditionRequired(Json<ErrorBody>) = 428,
});

fn body(e: &AdminGrievanceError) -> Json<ErrorBody> {
    if let AdminGrievanceError::Unavailable(reason) = e {
        tracing::error!(%reason, "the grievances failed");
    }
    ErrorBody::from_message(e.message())
}

/// The grievance officer's calls.
#[derive(Debug)]
pub struct AdminGrievancesApi {
    grievances: AdminGrievancesService,
}

impl AdminGrievancesApi {
    #[must_use]
    pub fn new(grievances: AdminGrievancesService) -> Self {
        Self { grievances }
    }
}

#[OpenApi(tag = "Tag::AdminGrievances")]
impl AdminGrievancesApi {
    /// The tickets, newest first, optionally in one state, each with its 48-hour acknowledgement and
    /// one-month resolution clocks and whether either has run out.
    #[oai(path = "/admin/grievances", method = "get", operation_id = "adminListGrievances")]
    async fn list(
        &self,
        staff: GrievancesStaff,
        /// `open`, `acknowledged` or `resolved`.
        state: Query<Option<String>>,
        /// 1-based page number (default 1).
        page: Query<Option<u32>>,
        /// Tickets per page, 1 to 100 (default 20).
        size: Query<Option<u32>>,
    ) -> ListAnswer {
        let window = match list_window(page.0.map(u64::from), size.0.map(u64::from)) {
            Ok(w) => w,
            Err(body) => return ListAnswer::BadRequest(body),
        };
        match self.grievances.list(&staff, state.0.as_deref(), window).await {
            Ok(list) => ListAnswer::Ok(Json(TicketListBody {
                results: list.tickets.iter().map(TicketBody::from).collect(),
                pages: list.pages,
                total: list.total,
            })),
            Err(e @ AdminGrievanceError::Forbidden(_)) => ListAnswer::Forbidden(body(&e)),
            Err(e @ AdminGrievanceError::Invalid(_)) => ListAnswer::BadRequest(body(&e)),
            Err(e) => ListAnswer::Unavailable(body(&e)),
        }
    }

    /// One ticket with its clocks and its `version` (for `If-Match`).
    #[oai(path = "/admin/grievances/:id", method = "get", operation_id = "adminGetGrievance")]
    async fn ticket(&self, staff: GrievancesStaff, id: Path<String>) -> TicketAnswer {
        match self.grievances.ticket(&staff, &id.0).await {
            Ok(t) => TicketAnswer::Ok(Json(TicketBody::from(&t))),
            Err(e @ AdminGrievanceError::Forbidden(_)) => TicketAnswer::Forbidden(body(&e)),
            Err(e @ AdminGrievanceError::NotFound) => TicketAnswer::NotFound(body(&e)),
            Err(e) => TicketAnswer::Unavailable(body(&e)),
        }
    }

    /// Acknowledges a ticket, or resolves it with the reply the complainant is emailed, on the
    /// version named by `If-Match`: of two officers changing one ticket at once, one wins and the
    /// other is told (`grievance.changed`).
    #[oai(path = "/admin/grievances/:id", method = "patch", operation_id = "adminChangeGrievance")]
    async fn change(
        &self,
        staff: GrievancesStaff,
        id: Path<String>,
        /// The ticket's `version` as last read (`3`, or `"3"`).
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        input: Json<ChangeBody>,
    ) -> ChangeAnswer {
        let version = required_version!(ChangeAnswer, if_match.0, Message::GrievanceVersionRequired);
        let note = input.0.note.unwrap_or_default();
        match self.grievances.change(&staff, &id.0, version, &input.0.action, &note).await {
            Ok(t) => ChangeAnswer::Ok(Json(TicketBody::from(&t))),
            Err(e) => match &e {
                AdminGrievanceError::Forbidden(_) => ChangeAnswer::Forbidden(body(&e)),
                AdminGrievanceError::Invalid(_) => ChangeAnswer::BadRequest(body(&e)),
                AdminGrievanceError::NotFound => ChangeAnswer::NotFound(body(&e)),
                AdminGrievanceError::Refused(marque_domain::grievance::GrievanceMoveError::NoteInvalid) => {
                    ChangeAnswer::UnprocessableEntity(body(&e))
                }
                AdminGrievanceError::Changed { .. } | AdminGrievanceError::Refused(_) => {
                    ChangeAnswer::Conflict(body(&e))
                }
                AdminGrievanceError::Unavailable(_) => ChangeAnswer::Unavailable(body(&e)),
            },
        }
    }
}
