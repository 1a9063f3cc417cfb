//! Staff (tag `admin-staff`): the set-up link, two-factor sign-in, the session, and the owners'
//! invitations and removals.

use marque_app::admin::staff::{StaffError, StaffService};
use marque_domain::staff::{Area, StaffId, StaffRole};
use marque_ports::StaffRecord;
use poem::Request;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use super::auth::{AnyStaff, TeamStaff};
use super::list_window;
use crate::auth::client_address;
use crate::error::ErrorBody;

#[derive(Tags)]
enum Tag {
    /// Staff of the back office: set-up, two-factor sign-in, the session, invitations and removals.
    AdminStaff,
}

/// The body of an error the staff use cases report.
fn body(e: &StaffError) -> Json<ErrorBody> {
    if let StaffError::Unavailable(reason) = e {
        tracing::error!(%reason, "staff store unavailable");
    }
    ErrorBody::from_message(e.message())
}

/// The name of an area as the admin's navigation and `GET /api/admin/me` call it.
#[must_use]
pub fn area_name(area: Area) -> &'static str {
    match area {
        Area::Dashboard => "dashboard",
        Area::Products => "products",
        Area::Categories => "categories",
        Area::Brands => "brands",
        Area::Photos => "photos",
        Area::Stock => "stock",
        Area::Imports => "imports",
        Area::Orders => "orders",
        Area::Refunds => "refunds",
        Area::Returns => "returns",
        Area::Grievances => "grievances",
        Area::CustomersRead => "customersRead",
        Area::Customers => "customers",
        Area::Offers => "offers",
        Area::Staff => "staff",
        Area::Audit => "audit",
        Area::Sales => "sales",
    }
}

/// `POST /api/admin/setup`'s body.
#[derive(Clone, Object)]
pub struct SetupInput {
    /// The code of the set-up link (`/admin/setup?code=…`).
    pub code: String,
    /// The new password: 12 to 128 characters.
    pub password: String,
}
redacted_debug!(SetupInput {} hides code, password);

/// The authenticator to enrol.
#[derive(Clone, Object)]
pub struct SetupAnswer {
    /// An `otpauth://totp/…` URI (issuer `Marque`), for the QR code.
    #[oai(rename = "totpUri")]
    pub totp_uri: String,
    /// The same secret in base32, to type into an authenticator app.
    pub secret: String,
}
redacted_debug!(SetupAnswer {} hides totp_uri, secret);

/// `POST /api/admin/login`'s body.
#[derive(Clone, Object)]
pub struct StaffLoginInput {
    pub email: String,
    pub password: String,
    /// The authenticator's current six-digit code.
    pub totp: String,
}
redacted_debug!(StaffLoginInput { email } hides password, totp);

/// A staff session.
#[derive(Clone, Object)]
pub struct StaffLoginAnswer {
    /// The bearer token of the admin calls (`Authorization: Bearer …`), for 12 hours.
    pub token: String,
}
redacted_debug!(StaffLoginAnswer {} hides token);

/// The staff member signed in, and the areas their role may use.
#[derive(Debug, Clone, Object)]
pub struct Me {
    #[oai(rename = "_id")]
    pub id: String,
    pub email: String,
    pub name: String,
    /// `owner`, `catalog` or `fulfilment`.
    pub role: String,
    /// The areas of the back office this role may use (`dashboard`, `products`, `categories`,
    /// `brands`, `photos`, `stock`, `imports`, `orders`, `refunds`, `returns`, `grievances`,
    /// `customersRead`, `customers`, `offers`, `staff`, `audit`, `sales`).
    pub areas: Vec<String>,
}

/// A staff member as the staff list shows them.
#[derive(Debug, Clone, Object)]
pub struct StaffView {
    #[oai(rename = "_id")]
    pub id: String,
    pub email: String,
    pub name: String,
    /// `owner`, `catalog` or `fulfilment`.
    pub role: String,
    /// `invited` (not set up yet) or `active`.
    pub status: String,
    /// When they were invited, seconds since the Unix epoch.
    #[oai(rename = "createdAt")]
    pub created_at: i64,
}

impl From<&StaffRecord> for StaffView {
    fn from(r: &StaffRecord) -> Self {
        Self {
            id: r.staff.id.0.clone(),
            email: r.staff.email.clone(),
            name: r.staff.name.clone(),
            role: r.staff.role.as_str().to_owned(),
            status: r.status.as_str().to_owned(),
            created_at: r.created_at,
        }
    }
}

/// One page of the staff.
#[derive(Debug, Clone, Object)]
pub struct StaffList {
    pub results: Vec<StaffView>,
    /// How many pages of this size there are.
    pub pages: u64,
    /// How many staff members in all.
    pub total: u64,
}

/// `POST /api/admin/staff`'s body.
#[derive(Debug, Clone, Object)]
pub struct InviteInput {
    pub email: String,
    pub name: String,
    /// `owner`, `catalog` or `fulfilment`.
    pub role: String,
}

/// A new staff member and the link to hand over.
#[derive(Clone, Object)]
pub struct Invited {
    #[oai(rename = "_id")]
    pub id: String,
    /// `/admin/setup?code=…`: valid 24 hours, once. Hand it over privately.
    #[oai(rename = "setupLink")]
    pub setup_link: String,
}
redacted_debug!(Invited { id } hides setup_link);

/// `status: success`.
#[derive(Debug, Clone, Object)]
pub struct Done {
    pub status: String,
}

fn done() -> Json<Done> {
    Json(Done { status: "success".to_owned() })
}

#[derive(ApiResponse)]
#[oai(bad_request_handler = "setup_bad_request")]
enum SetupResponse {
    /// Set up: enrol the authenticator, then sign in.
    #[oai(status = 200)]
    Ok(Json<SetupAnswer>),
    /// The link is unknown, used or expired (`staff.setup_invalid`), or the password breaks the rule
    /// (`staff.password_rule`).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// The staff store cannot be reached right now.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn setup_bad_request(err: poem::Error) -> SetupResponse {
    SetupResponse::BadRequest(ErrorBody::from_poem(&err))
}

#[derive(ApiResponse)]
#[oai(bad_request_handler = "login_bad_request")]
enum LoginResponse {
    /// Signed in.
    #[oai(status = 200)]
    Ok(Json<StaffLoginAnswer>),
    /// A field that does not parse.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// A wrong email, password or authenticator code, or a code used before (`staff.login_failed`).
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// Too many sign-in attempts from this client or for this account (`staff.too_many_attempts`);
    /// `Retry-After` gives the seconds to wait.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    /// The staff store cannot be reached right now.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn login_bad_request(err: poem::Error) -> LoginResponse {
    LoginResponse::BadRequest(ErrorBody::from_poem(&err))
}

admin_response!(LogoutResponse, logout_bad_request, "logout_bad_request", {
    /// The session is ended.
    Ok(Json<Done>) = 200,
});

admin_response!(MeResponse, me_bad_request, "me_bad_request", {
    /// The staff member signed in.
    Ok(Json<Me>) = 200,
});

admin_response!(ListResponse, list_bad_request, "list_bad_request", {
    /// One page of the staff, oldest first.
    Ok(Json<StaffList>) = 200,
});

admin_response!(InviteResponse, invite_bad_request, "invite_bad_request", {
    /// Invited: hand over the set-up link.
    Created(Json<Invited>) = 201,
    /// A staff member already has this email (`staff.email_taken`).
    Conflict(Json<ErrorBody>) = 409,
});

admin_response!(RemoveResponse, remove_bad_request, "remove_bad_request", {
    /// Removed: every session of theirs has ended.
    Ok(Json<Done>) = 200,
    /// No staff member has this id (`staff.not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// An owner cannot remove themselves (`staff.remove_self`).
    Conflict(Json<ErrorBody>) = 409,
});

/// The bearer token of the request (the scheme has already checked it).
fn bearer(req: &Request) -> String {
    req.header("authorization")
        .and_then(|h| h.strip_prefix("Bearer ").or_else(|| h.strip_prefix("bearer ")))
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// The back office's staff calls.
#[derive(Debug)]
pub struct StaffApi {
    staff: StaffService,
}

impl StaffApi {
    #[must_use]
    pub fn new(staff: StaffService) -> Self {
        Self { staff }
    }
}

#[OpenApi(tag = "Tag::AdminStaff", prefix_path = "/admin")]
impl StaffApi {
    /// Sets the password (12 to 128 characters) with the code of a set-up link and enrols an
    /// authenticator: the answer's `totpUri` is shown as a QR code, `secret` to type in. The link
    /// is then used up.
    #[oai(path = "/setup", method = "post", operation_id = "adminSetup")]
    async fn setup(&self, input: Json<SetupInput>) -> SetupResponse {
        match self.staff.setup(&input.code, &input.password).await {
            Ok(enrolment) => {
                SetupResponse::Ok(Json(SetupAnswer { totp_uri: enrolment.totp_uri, secret: enrolment.secret }))
            }
            Err(e @ StaffError::Unavailable(_)) => SetupResponse::Unavailable(body(&e)),
            Err(e) => SetupResponse::BadRequest(body(&e)),
        }
    }

    /// Signs in with email, password and the authenticator's current code; the token lasts 12 hours.
    /// Wrong tries are limited per client and per account, with growing delays.
    #[oai(path = "/login", method = "post", operation_id = "adminLogin")]
    async fn login(&self, req: &Request, input: Json<StaffLoginInput>) -> LoginResponse {
        let client = client_address(req);
        match self.staff.login(&input.email, &input.password, &input.totp, &client).await {
            Ok((token, _)) => LoginResponse::Ok(Json(StaffLoginAnswer { token: token.expose().to_owned() })),
            Err(e @ StaffError::RateLimited(wait)) => LoginResponse::TooMany(body(&e), wait),
            Err(e @ StaffError::Unavailable(_)) => LoginResponse::Unavailable(body(&e)),
            Err(e @ StaffError::Invalid(_)) => LoginResponse::BadRequest(body(&e)),
            Err(e) => LoginResponse::Unauthorized(body(&e)),
        }
    }

    /// Ends this staff session.
    #[oai(path = "/logout", method = "delete", operation_id = "adminLogout")]
    async fn logout(&self, staff: AnyStaff, req: &Request) -> LogoutResponse {
        let _ = staff;
        match self.staff.logout(&bearer(req)).await {
            Ok(()) => LogoutResponse::Ok(done()),
            Err(e) => LogoutResponse::Unavailable(body(&e)),
        }
    }

    /// The staff member signed in, with the areas their role may use.
    #[oai(path = "/me", method = "get", operation_id = "adminMe")]
    async fn me(&self, staff: AnyStaff) -> MeResponse {
        match self.staff.me(&staff) {
            Ok((me, areas)) => MeResponse::Ok(Json(Me {
                id: me.id.0,
                email: me.email,
                name: me.name,
                role: me.role.as_str().to_owned(),
                areas: areas.into_iter().map(|a| area_name(a).to_owned()).collect(),
            })),
            Err(e) => MeResponse::Forbidden(body(&e)),
        }
    }

    /// The staff who are not removed, oldest first.
    #[oai(path = "/staff", method = "get", operation_id = "adminListStaff")]
    async fn list(
        &self,
        staff: TeamStaff,
        /// Page number from 1 (default 1).
        #[oai(validator(minimum(value = "1"), maximum(value = "100000")))]
        page: Query<Option<u32>>,
        /// Staff per page, 1 to 100 (default 20).
        #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
        size: Query<Option<u32>>,
    ) -> ListResponse {
        let window = match list_window(page.0.map(u64::from), size.0.map(u64::from)) {
            Ok(w) => w,
            Err(body) => return ListResponse::BadRequest(body),
        };
        match self.staff.list(&staff, window).await {
            Ok(listing) => ListResponse::Ok(Json(StaffList {
                results: listing.records.iter().map(StaffView::from).collect(),
                pages: window.pages(listing.total),
                total: listing.total,
            })),
            Err(e @ StaffError::Forbidden(_)) => ListResponse::Forbidden(body(&e)),
            Err(e) => ListResponse::Unavailable(body(&e)),
        }
    }

    /// Invites a staff member (owners only): the answer's `setupLink` (24 hours, once) is handed
    /// over privately; it is shown only here.
    #[oai(path = "/staff", method = "post", operation_id = "adminInviteStaff")]
    async fn invite(&self, staff: TeamStaff, input: Json<InviteInput>) -> InviteResponse {
        let role = match StaffRole::parse(input.role.trim()) {
            Ok(role) => role,
            Err(message) => return InviteResponse::BadRequest(ErrorBody::from_message(message)),
        };
        match self.staff.invite(&staff, &input.email, &input.name, role).await {
            Ok(invitation) => {
                InviteResponse::Created(Json(Invited { id: invitation.staff.id.0, setup_link: invitation.code.link() }))
            }
            Err(e @ StaffError::EmailTaken) => InviteResponse::Conflict(body(&e)),
            Err(e @ StaffError::Forbidden(_)) => InviteResponse::Forbidden(body(&e)),
            Err(e @ StaffError::Unavailable(_)) => InviteResponse::Unavailable(body(&e)),
            Err(e) => InviteResponse::BadRequest(body(&e)),
        }
    }

    /// Removes a staff member (owners only; not oneself): every session of theirs ends at once.
    #[oai(path = "/staff/:id", method = "delete", operation_id = "adminRemoveStaff")]
    async fn remove(&self, staff: TeamStaff, id: Path<String>) -> RemoveResponse {
        match self.staff.remove(&staff, &StaffId(id.0)).await {
            Ok(_) => RemoveResponse::Ok(done()),
            Err(e @ StaffError::NotFound) => RemoveResponse::NotFound(body(&e)),
            Err(e @ StaffError::RemoveSelf) => RemoveResponse::Conflict(body(&e)),
            Err(e @ StaffError::Forbidden(_)) => RemoveResponse::Forbidden(body(&e)),
            Err(e) => RemoveResponse::Unavailable(body(&e)),
        }
    }
}
