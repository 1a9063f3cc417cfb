//! `admin-returns` (owner, fulfilment): the returns customers asked for (`GET /api/admin/returns`,
//! paged, by state; `GET /api/admin/returns/{id}` with its `version`; its photographs), and their
//! moves on the version named by `If-Match`: approve or refuse with a note, receive, and resolve as
//! a refund, a replacement or store credit (`Idempotency-Key`; a money outcome also needs the
//! refunds' role).

use marque_app::{ResolveInput, ReturnsError, ReturnsService};
use marque_domain::Message;
use marque_ports::ProductReturn;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{Object, OpenApi, Tags};

use super::auth::ReturnsStaff;
use super::list_window;
use crate::error::ErrorBody;
use crate::returns::ReturnBody;

#[derive(Tags)]
enum Tag {
    /// Staff: returns within the warranty, their approvals, receipt and resolution (roles: owner,
    /// fulfilment; a refund or store credit as the refunds' roles).
    #[oai(rename = "admin-returns")]
    AdminReturns,
}

/// One return as the shop reads it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminReturn")]
pub struct AdminReturnBody {
    #[oai(flatten)]
    pub r: ReturnBody,
    /// The customer's id.
    #[oai(rename = "customerId")]
    pub customer_id: String,
    /// Whether the received units went back into stock.
    pub restock: bool,
    /// The refund made for it (by its idempotency key on the order), for a refund.
    #[oai(nullable)]
    pub refund: Option<String>,
    /// Who last moved it (a staff member's email).
    #[oai(rename = "handledBy", nullable)]
    pub handled_by: Option<String>,
    /// Send it back as `If-Match` with a move.
    pub version: u64,
}

impl From<&ProductReturn> for AdminReturnBody {
    fn from(r: &ProductReturn) -> Self {
        Self {
            r: ReturnBody::from(r),
            customer_id: r.customer.0.clone(),
            restock: r.restock,
            refund: r.refund.clone(),
            handled_by: r.handled_by.clone(),
            version: r.version,
        }
    }
}

/// One page of returns, newest first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminReturnList")]
pub struct AdminReturnListBody {
    pub results: Vec<AdminReturnBody>,
    pub pages: u64,
    pub total: u64,
}

/// What a decision on a requested return carries.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminReturnDecision", deny_unknown_fields)]
pub struct DecisionBody {
    /// At most 1000 characters; required to refuse. The customer is emailed it.
    pub note: Option<String>,
}

/// What a resolution carries.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminReturnResolution", deny_unknown_fields)]
pub struct ResolutionBody {
    /// `refund` (with a GST credit note), `replacement` (a new order at no charge) or `storeCredit`
    /// (valid six months).
    pub outcome: String,
    /// Whether the received units go back into stock.
    pub restock: bool,
    /// What the inspection found, at most 1000 characters.
    pub note: Option<String>,
}

admin_response!(ListAnswer, list_bad_request, "list_bad_request", {
    /// One page of the returns, newest first.
    Ok(Json<AdminReturnListBody>) = 200,
});

admin_response!(OneAnswer, one_bad_request, "one_bad_request", {
    /// The return and its version.
    Ok(Json<AdminReturnBody>) = 200,
    /// No return has this id (`return.not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

admin_response!(PhotoAnswer, photo_bad_request, "photo_bad_request", {
    /// The photograph, as JPEG.
    Ok(Binary<Vec<u8>>) = 200 as "image/jpeg",
    /// No return has this id, or no photograph this number (`return.not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

admin_response!(MoveAnswer, move_bad_request, "move_bad_request", {
    /// The return after the move, at its new version.
    Ok(Json<AdminReturnBody>) = 200,
    /// No return has this id (`return.not_found`), or its order is gone (`order.not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// The return changed since the version named (`return.changed`), or the move is not one from
    /// where it stands (`return.illegal_move`); nothing was written.
    Conflict(Json<ErrorBody>) = 409,
    /// No `If-Match` header naming the return's version (`return.version_required`).
    PreconditionRequired(Json<ErrorBody>) = 428,
});

admin_response!(ResolveAnswer, resolve_bad_request, "resolve_bad_request", {
    /// The same return resolved the same way before (a retry): as it stands, nothing new made.
    Ok(Json<AdminReturnBody>) = 200,
    /// Resolved now.
    Created(Json<AdminReturnBody>) = 201,
    /// No return has this id (`return.not_found`), or its order is gone (`order.not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// The return changed since the version named (`return.changed`), it is not received or was
    /// resolved otherwise (`return.illegal_move`), the refund rules refuse it (`refund.…`), or the
    /// replacement's part is out of stock (`return.replacement_unavailable`); nothing was written.
    Conflict(Json<ErrorBody>) = 409,
    /// The refund's key was used for another refund of the order (`refund.key_reused`).
    UnprocessableEntity(Json<ErrorBody>) = 422,
    /// No `If-Match` header naming the return's version (`return.version_required`), or no
    /// `Idempotency-Key` (`refund.key_required`).
    PreconditionRequired(Json<ErrorBody>) = 428,
});

fn body(e: &ReturnsError) -> Json<ErrorBody> {
    if let ReturnsError::Unavailable(reason) = e {
        tracing::error!(%reason, "the returns failed");
    }
    ErrorBody::from_message(e.message())
}

/// The shop's calls on returns.
#[derive(Debug)]
pub struct AdminReturnsApi {
    returns: ReturnsService,
}

impl AdminReturnsApi {
    #[must_use]
    pub fn new(returns: ReturnsService) -> Self {
        Self { returns }
    }
}

macro_rules! move_refusal {
    ($answer:ident, $e:expr) => {
        match &$e {
            ReturnsError::Forbidden(_) => $answer::Forbidden(body(&$e)),
            ReturnsError::Invalid(_) => $answer::BadRequest(body(&$e)),
            ReturnsError::NotFound | ReturnsError::OrderNotFound => $answer::NotFound(body(&$e)),
            ReturnsError::Refused(_)
            | ReturnsError::Changed { .. }
            | ReturnsError::RefundRefused(_)
            | ReturnsError::ReplacementUnavailable => $answer::Conflict(body(&$e)),
            ReturnsError::KeyReused | ReturnsError::Unavailable(_) => $answer::Unavailable(body(&$e)),
        }
    };
}

impl AdminReturnsApi {
    /// Approves (`approve`) or refuses a requested return on the version `if_match` names.
    async fn decide(
        &self,
        staff: &ReturnsStaff,
        id: &str,
        if_match: Option<String>,
        approve: bool,
        note: Option<&str>,
    ) -> MoveAnswer {
        let version = required_version!(MoveAnswer, if_match, Message::ReturnVersionRequired);
        match self.returns.decide(staff, id, version, approve, note).await {
            Ok(r) => MoveAnswer::Ok(Json(AdminReturnBody::from(&r))),
            Err(e) => move_refusal!(MoveAnswer, e),
        }
    }
}

#[OpenApi(tag = "Tag::AdminReturns")]
impl AdminReturnsApi {
    /// The returns, newest first, optionally in one state.
    #[oai(path = "/admin/returns", method = "get", operation_id = "adminListReturns")]
    async fn list(
        &self,
        staff: ReturnsStaff,
        /// `requested`, `approved`, `refused`, `received` or `resolved`.
        state: Query<Option<String>>,
        /// 1-based page number (default 1).
        page: Query<Option<u32>>,
        /// Returns per page, 1 to 100 (default 20).
        size: Query<Option<u32>>,
    ) -> ListAnswer {
        let window = match list_window(page.0.map(u64::from), size.0.map(u64::from)) {
            Ok(w) => w,
            Err(body) => return ListAnswer::BadRequest(body),
        };
        match self.returns.list(&staff, state.0.as_deref(), window).await {
            Ok(found) => ListAnswer::Ok(Json(AdminReturnListBody {
                results: found.returns.iter().map(AdminReturnBody::from).collect(),
                pages: found.total.div_ceil(u64::from(window.limit()).max(1)),
                total: found.total,
            })),
            Err(e @ ReturnsError::Forbidden(_)) => ListAnswer::Forbidden(body(&e)),
            Err(e @ ReturnsError::Invalid(_)) => ListAnswer::BadRequest(body(&e)),
            Err(e) => ListAnswer::Unavailable(body(&e)),
        }
    }

    /// One return with its `version` (for `If-Match`).
    #[oai(path = "/admin/returns/:id", method = "get", operation_id = "adminGetReturn")]
    async fn one(&self, staff: ReturnsStaff, id: Path<String>) -> OneAnswer {
        match self.returns.get(&staff, &id.0).await {
            Ok(r) => OneAnswer::Ok(Json(AdminReturnBody::from(&r))),
            Err(e @ ReturnsError::Forbidden(_)) => OneAnswer::Forbidden(body(&e)),
            Err(e @ ReturnsError::NotFound) => OneAnswer::NotFound(body(&e)),
            Err(e) => OneAnswer::Unavailable(body(&e)),
        }
    }

    /// One of the return's photographs (1-based), as the customer sent it re-encoded.
    #[oai(path = "/admin/returns/:id/photos/:n", method = "get", operation_id = "adminGetReturnPhoto")]
    async fn photo(&self, staff: ReturnsStaff, id: Path<String>, n: Path<u32>) -> PhotoAnswer {
        if let Err(f) = staff.require(marque_domain::staff::Area::Returns) {
            return PhotoAnswer::Forbidden(ErrorBody::from_message(f.message()));
        }
        match self.returns.photo(None, &id.0, usize::try_from(n.0).unwrap_or(0)).await {
            Ok(bytes) => PhotoAnswer::Ok(Binary(bytes)),
            Err(e @ (ReturnsError::NotFound | ReturnsError::OrderNotFound)) => PhotoAnswer::NotFound(body(&e)),
            Err(e) => PhotoAnswer::Unavailable(body(&e)),
        }
    }

    /// Approves a requested return; the customer is told to send the part back.
    #[oai(path = "/admin/returns/:id/approve", method = "post", operation_id = "adminApproveReturn")]
    async fn approve(
        &self,
        staff: ReturnsStaff,
        id: Path<String>,
        /// The return's `version` as last read.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        input: Json<DecisionBody>,
    ) -> MoveAnswer {
        self.decide(&staff, &id.0, if_match.0, true, input.0.note.as_deref()).await
    }

    /// Refuses a requested return with a note the customer is emailed.
    #[oai(path = "/admin/returns/:id/refuse", method = "post", operation_id = "adminRefuseReturn")]
    async fn refuse(
        &self,
        staff: ReturnsStaff,
        id: Path<String>,
        /// The return's `version` as last read.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        input: Json<DecisionBody>,
    ) -> MoveAnswer {
        self.decide(&staff, &id.0, if_match.0, false, input.0.note.as_deref()).await
    }

    /// Records that the approved return's part arrived; it is inspected next.
    #[oai(path = "/admin/returns/:id/receive", method = "post", operation_id = "adminReceiveReturn")]
    async fn receive(
        &self,
        staff: ReturnsStaff,
        id: Path<String>,
        /// The return's `version` as last read.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
    ) -> MoveAnswer {
        let version = required_version!(MoveAnswer, if_match.0, Message::ReturnVersionRequired);
        match self.returns.receive(&staff, &id.0, version).await {
            Ok(r) => MoveAnswer::Ok(Json(AdminReturnBody::from(&r))),
            Err(e) => move_refusal!(MoveAnswer, e),
        }
    }

    /// Resolves a received return: a refund of the units' value less their share of the order's
    /// discount (through the order's refunds, with a GST credit note), a replacement (a new order at
    /// no charge, its stock taken like any order's) or store credit of the same value valid six
    /// months. Once per return: a retry with the same outcome answers the return as it stands and
    /// never pays or grants twice.
    #[oai(path = "/admin/returns/:id/resolve", method = "post", operation_id = "adminResolveReturn")]
    async fn resolve(
        &self,
        staff: ReturnsStaff,
        id: Path<String>,
        /// The return's `version` as last read.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        /// 8 to 64 letters, digits, `-` and `_`, new for each resolution and the same for its retries.
        #[oai(name = "Idempotency-Key")]
        key: Header<Option<String>>,
        input: Json<ResolutionBody>,
    ) -> ResolveAnswer {
        let version = required_version!(ResolveAnswer, if_match.0, Message::ReturnVersionRequired);
        let Some(key) = key.0 else {
            return ResolveAnswer::PreconditionRequired(ErrorBody::from_message(Message::RefundKeyRequired));
        };
        let asked = ResolveInput { outcome: input.0.outcome, restock: input.0.restock, note: input.0.note };
        match self.returns.resolve(&staff, &id.0, version, &key, &asked).await {
            Ok(done) if done.replayed => ResolveAnswer::Ok(Json(AdminReturnBody::from(&done.product_return))),
            Ok(done) => ResolveAnswer::Created(Json(AdminReturnBody::from(&done.product_return))),
            Err(e @ ReturnsError::KeyReused) => ResolveAnswer::UnprocessableEntity(body(&e)),
            Err(e) => move_refusal!(ResolveAnswer, e),
        }
    }
}
