//! Returns within the warranty (issue 24): the customer asks from Purchase History; the shop
//! (roles owner and fulfilment) approves or refuses with a note, receives the part, and resolves the
//! return as a refund (through the refunds' use case, so a GST credit note is issued), a replacement
//! (a new order at no charge, stock taken through the order store like any other) or store credit
//! (a grant in the `store_credit` ledger, written with the move).
//!
//! Whether a return may be asked for or moved is the domain's rule (`marque_domain::order`'s
//! `returns.rs`); the store keeps what was decided, only on the version it was decided on.

use std::sync::Arc;

use marque_domain::cart::Quantity;
use marque_domain::catalog::ProductId;
use marque_domain::invoice::Seller;
use marque_domain::order::{
    check_quantity, line_warranty_days, parse_note, parse_reason, units_left, OrderLine, OrderNotice, OrderStatus,
    RefundAsk, RefundError, RefundReason, ReturnError, ReturnOutcome, ReturnState, ReturnWindow, MAX_RETURN_PHOTOS,
};
use marque_domain::paging::ListWindow;
use marque_domain::pricing::DiscountPercent;
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::store_credit::{Grant, GrantSource};
use marque_domain::{Message, Money, UserFacing};
use marque_ports::{
    Actor, AdminOrder, AuditEntry, BlobStore, CatalogEditor, Clock, CreditGrant, EncodedPhoto, NewReturn, OrderDesk,
    OrderDraft, OrderId, OrderStore, OrderStoreError, PaymentId, PaymentOrderId, PhotoEncodeError, PhotoEncoder,
    ProductReturn, Reservation, ReturnMove, ReturnPage, ReturnQuery, ReturnStore, ReturnStoreError, UserId,
};

use crate::admin::orders::AdminOrderError;
use crate::admin::refunds::{parse_key, refundable_of, RefundInput, RefundLineInput, RefundsService};
use crate::notices::{queue_for, NoticeSettings};

/// The audit trail's actions of returns.
pub const ACTION_APPROVE: &str = "return.approve";
pub const ACTION_REFUSE: &str = "return.refuse";
pub const ACTION_RECEIVE: &str = "return.receive";
pub const ACTION_RESOLVE: &str = "return.resolve";

/// Largest photograph a customer may send with a return: 10 MB (the encoder's pixel limit
/// applies too, read from the header before anything is decoded).
pub const MAX_RETURN_PHOTO_BYTES: usize = 10 * 1024 * 1024;

/// Where a return's photographs are kept in the blob store.
pub const RETURN_BLOB_PREFIX: &str = "returns/";

/// How long the stock of a replacement is held before it is placed (it is placed at once).
const REPLACEMENT_HOLD_SECS: i64 = 15 * 60;

/// Why a return call did not happen. Each maps to one HTTP status in the API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReturnsError {
    /// The staff member's role does not cover returns (or, for a money outcome, refunds) (403).
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// Input that does not parse (400).
    #[error("invalid: {}", .0.code())]
    Invalid(Message),
    /// No such order, or the order is another customer's (404 `order.not_found`).
    #[error("no such order")]
    OrderNotFound,
    /// No such return, or another customer's (404 `return.not_found`).
    #[error("no such return")]
    NotFound,
    /// The shop's rules refuse it as things stand (409): not delivered, window closed, units not
    /// left, a move the state does not allow.
    #[error("refused: {}", .0.code())]
    Refused(ReturnError),
    /// The return is no longer at the version named (409 `return.changed`).
    #[error("the return changed meanwhile (now at version {version})")]
    Changed { version: u64 },
    /// The refund rules refuse the refund or credit (409).
    #[error("refund refused: {}", .0.code())]
    RefundRefused(RefundError),
    /// The refund's idempotency key was used for another refund of the order (409).
    #[error("the idempotency key was used for another refund")]
    KeyReused,
    /// The replacement cannot be made: the part is out of stock (409).
    #[error("the replacement cannot be made now")]
    ReplacementUnavailable,
    /// A store cannot be reached (503).
    #[error("returns are unavailable: {0}")]
    Unavailable(String),
}

impl ReturnsError {
    /// The message the caller reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            ReturnsError::Forbidden(f) => f.message(),
            ReturnsError::Invalid(m) => *m,
            ReturnsError::OrderNotFound => Message::OrderNotFound,
            ReturnsError::NotFound => Message::ReturnNotFound,
            ReturnsError::Refused(e) => e.message(),
            ReturnsError::Changed { .. } => Message::ReturnChanged,
            ReturnsError::RefundRefused(e) => e.message(),
            ReturnsError::KeyReused => Message::RefundKeyReused,
            ReturnsError::ReplacementUnavailable => Message::ReturnReplacementUnavailable,
            ReturnsError::Unavailable(_) => Message::ReturnUnavailable,
        }
    }
}

/// A rule broken by the input itself is 400; by where things stand, 409.
fn refused(e: ReturnError) -> ReturnsError {
    match e {
        ReturnError::ReasonInvalid
        | ReturnError::NoteInvalid
        | ReturnError::QuantityInvalid
        | ReturnError::UnknownLine
        | ReturnError::TooManyPhotos => ReturnsError::Invalid(e.message()),
        ReturnError::QuantityAboveLeft { .. }
        | ReturnError::NotDelivered
        | ReturnError::WindowClosed
        | ReturnError::IllegalMove { .. } => ReturnsError::Refused(e),
    }
}

impl From<ReturnStoreError> for ReturnsError {
    fn from(e: ReturnStoreError) -> Self {
        match e {
            ReturnStoreError::NotFound => ReturnsError::NotFound,
            ReturnStoreError::Changed { version } => ReturnsError::Changed { version },
            ReturnStoreError::UnitsAboveLeft { left } => ReturnsError::Refused(ReturnError::QuantityAboveLeft { left }),
            ReturnStoreError::Unavailable { reason } => ReturnsError::Unavailable(reason),
        }
    }
}

impl From<marque_ports::OrderDeskError> for ReturnsError {
    fn from(e: marque_ports::OrderDeskError) -> Self {
        AdminOrderError::from(e).into()
    }
}

impl From<AdminOrderError> for ReturnsError {
    fn from(e: AdminOrderError) -> Self {
        match e {
            AdminOrderError::Forbidden(f) => ReturnsError::Forbidden(f),
            AdminOrderError::Invalid(m) => ReturnsError::Invalid(m),
            AdminOrderError::NotFound => ReturnsError::OrderNotFound,
            AdminOrderError::RefundRefused(r) => ReturnsError::RefundRefused(r),
            AdminOrderError::KeyReused => ReturnsError::KeyReused,
            AdminOrderError::Changed { .. }
            | AdminOrderError::Refused(_)
            | AdminOrderError::RefundNotFound
            | AdminOrderError::Unavailable(_) => ReturnsError::Unavailable(e.to_string()),
        }
    }
}

/// A customer's request, unchecked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnRequestInput {
    pub order: String,
    pub product: String,
    pub quantity: i64,
    pub reason: String,
    /// The photographs as uploaded.
    pub photos: Vec<Vec<u8>>,
}

/// A resolution as staff ask for it, unchecked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolveInput {
    /// `refund`, `replacement`, `storeCredit`.
    pub outcome: String,
    /// Whether the received units go back into stock.
    pub restock: bool,
    pub note: Option<String>,
}

/// A return resolved now, or found resolved the same way (a retried call).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub product_return: ProductReturn,
    pub replayed: bool,
}

/// The returns' use cases, for customers and for staff.
#[derive(Clone)]
pub struct ReturnsService {
    returns: Arc<dyn ReturnStore>,
    desk: Arc<dyn OrderDesk>,
    orders: Arc<dyn OrderStore>,
    catalog: Arc<dyn CatalogEditor>,
    refunds: RefundsService,
    encoder: Arc<dyn PhotoEncoder>,
    blobs: Arc<dyn BlobStore>,
    clock: Arc<dyn Clock>,
    seller: Seller,
    notices: Arc<NoticeSettings>,
}

impl std::fmt::Debug for ReturnsService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReturnsService").finish_non_exhaustive()
    }
}

/// The ports a [`ReturnsService`] holds.
#[derive(Clone)]
pub struct ReturnsPorts {
    pub returns: Arc<dyn ReturnStore>,
    pub desk: Arc<dyn OrderDesk>,
    pub orders: Arc<dyn OrderStore>,
    pub catalog: Arc<dyn CatalogEditor>,
    pub encoder: Arc<dyn PhotoEncoder>,
    pub blobs: Arc<dyn BlobStore>,
    pub clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for ReturnsPorts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReturnsPorts").finish_non_exhaustive()
    }
}

/// A fresh return id: 20 hexadecimal digits.
fn return_id() -> Result<String, ReturnsError> {
    let mut bytes = [0u8; 10];
    getrandom::fill(&mut bytes).map_err(|e| ReturnsError::Unavailable(format!("no randomness: {e}")))?;
    Ok(hex::encode(bytes))
}

/// When the order was delivered: its latest move to status 5, while it is at status 5.
#[must_use]
pub fn delivered_at(order: &AdminOrder) -> Option<i64> {
    if i64::from(order.order.status) != OrderStatus::Delivered.number() {
        return None;
    }
    order.timeline.iter().filter(|e| e.status == OrderStatus::Delivered).map(|e| e.at).max()
}

/// The units of `product` the order's refunds gave back.
fn refunded_units(order: &AdminOrder, product: &ProductId) -> u32 {
    order.refunds.iter().flat_map(|r| r.lines.iter()).filter(|l| &l.product == product).map(|l| l.quantity).sum()
}

/// The idempotency key of the refund a return's resolution makes (one per return).
#[must_use]
pub fn refund_key(return_id: &str) -> String {
    format!("return-{return_id}")
}

impl ReturnsService {
    #[must_use]
    pub fn new(ports: ReturnsPorts, refunds: RefundsService, seller: Seller) -> Self {
        Self {
            returns: ports.returns,
            desk: ports.desk,
            orders: ports.orders,
            catalog: ports.catalog,
            refunds,
            encoder: ports.encoder,
            blobs: ports.blobs,
            clock: ports.clock,
            seller,
            notices: Arc::new(NoticeSettings::default()),
        }
    }

    /// How the customer's notices are signed and which go by SMS too.
    #[must_use]
    pub fn with_notices(mut self, notices: NoticeSettings) -> Self {
        self.notices = Arc::new(notices);
        self
    }

    async fn order(&self, id: &OrderId) -> Result<AdminOrder, ReturnsError> {
        self.desk.order(id).await?.ok_or(ReturnsError::OrderNotFound)
    }

    /// The line's warranty days: kept on the line when its order was placed; for an older order's
    /// line, the product's today, or `FALLBACK_WARRANTY_DAYS` when it is gone
    /// ([`line_warranty_days`]). The catalog is read only for an older order's line.
    async fn warranty_days(&self, line: &OrderLine) -> Result<u8, ReturnsError> {
        if line.warranty_days.is_some() {
            return Ok(line_warranty_days(line, None));
        }
        match self.catalog.product(&line.product_id).await {
            Ok(found) => Ok(line_warranty_days(line, found.map(|p| p.details.warranty_days))),
            Err(e) => Err(ReturnsError::Unavailable(e.to_string())),
        }
    }

    // ----- the customer's side -----

    /// The customer asks to return `input.quantity` units of a delivered line of their order,
    /// within the product's warranty days after delivery, with a reason and up to three photographs.
    ///
    /// # Errors
    /// [`ReturnsError::Invalid`] (`return.reason_invalid`, `return.too_many_photos`,
    /// `return.quantity_invalid`, `return.unknown_line`, `return.photo_invalid`);
    /// [`ReturnsError::OrderNotFound`] for no such order or another customer's;
    /// [`ReturnsError::Refused`] (`return.not_delivered`, `return.window_closed`,
    /// `return.quantity_above_left`); [`ReturnsError::Unavailable`].
    pub async fn request(&self, customer: &UserId, input: ReturnRequestInput) -> Result<ProductReturn, ReturnsError> {
        let reason = parse_reason(&input.reason).map_err(refused)?;
        if input.photos.len() > MAX_RETURN_PHOTOS {
            return Err(refused(ReturnError::TooManyPhotos));
        }
        if input.photos.iter().any(|p| p.is_empty() || p.len() > MAX_RETURN_PHOTO_BYTES) {
            return Err(ReturnsError::Invalid(Message::ReturnPhotoInvalid));
        }
        let order_id = OrderId(input.order.trim().to_owned());
        if order_id.0.is_empty() {
            return Err(ReturnsError::OrderNotFound);
        }
        let order = self.order(&order_id).await?;
        // Another customer's order answers exactly as a missing one.
        if order.order.draft.user != *customer {
            return Err(ReturnsError::OrderNotFound);
        }
        let product = ProductId(input.product.trim().to_owned());
        let line = order
            .order
            .draft
            .lines
            .iter()
            .find(|l| l.product_id == product)
            .cloned()
            .ok_or(ReturnsError::Invalid(Message::ReturnUnknownLine))?;
        let delivered = delivered_at(&order).ok_or(ReturnsError::Refused(ReturnError::NotDelivered))?;
        let days = self.warranty_days(&line).await?;
        let now = self.clock.now();
        ReturnWindow { delivered_at: delivered, days }.check(now).map_err(refused)?;
        let refunded = refunded_units(&order, &product);
        let returning: u32 = self
            .returns
            .returns_of_order(&order_id)
            .await?
            .iter()
            .filter(|r| r.product == product && r.state.holds_units())
            // A return resolved as a refund: its units are the refund's, counted in `refunded`.
            .filter(|r| r.outcome != Some(ReturnOutcome::Refund))
            .map(|r| r.quantity)
            .sum();
        let quantity =
            check_quantity(input.quantity, units_left(line.quantity.get(), refunded, returning)).map_err(refused)?;
        let id = return_id()?;
        let mut written = Vec::new();
        for (n, photo) in input.photos.into_iter().enumerate() {
            match self.keep_photo(&id, n + 1, photo).await {
                Ok(key) => written.push(key),
                Err(e) => {
                    self.forget(&written).await;
                    return Err(e);
                }
            }
        }
        let notices = queue_for(&order, &OrderNotice::ReturnRequested { part: line.name.clone() }, &self.notices, now);
        let new = NewReturn {
            id,
            order: order_id,
            order_number: order.order.order_number.clone(),
            customer: customer.clone(),
            product,
            product_name: line.name.clone(),
            quantity,
            units_allowed: line.quantity.get().saturating_sub(refunded),
            reason,
            photos: written.clone(),
            delivered_at: delivered,
            warranty_days: days,
            created_at: now,
        };
        match self.returns.request(&new, &notices).await {
            Ok(made) => Ok(made),
            Err(e) => {
                self.forget(&written).await;
                Err(e.into())
            }
        }
    }

    /// Encodes one photograph (the photographs' guards: content type by its bytes, pixels read
    /// from the header before decoding, one decode at a time) and keeps its widest JPEG.
    async fn keep_photo(&self, id: &str, n: usize, bytes: Vec<u8>) -> Result<String, ReturnsError> {
        let encoded: EncodedPhoto = self.encoder.encode(bytes).await.map_err(|e| match e {
            PhotoEncodeError::NotAnImage(_) | PhotoEncodeError::TooLarge(_) => {
                ReturnsError::Invalid(Message::ReturnPhotoInvalid)
            }
            PhotoEncodeError::Unavailable(reason) => ReturnsError::Unavailable(reason),
        })?;
        let widest = encoded
            .variants
            .into_iter()
            .filter(|v| v.format == marque_domain::catalog::ImageFormat::Jpeg)
            .max_by_key(|v| v.width)
            .ok_or_else(|| ReturnsError::Unavailable("the encoder gave no JPEG variant".into()))?;
        let key = format!("{RETURN_BLOB_PREFIX}{id}/{n}.jpg");
        self.blobs.put(&key, widest.bytes).await.map_err(|e| ReturnsError::Unavailable(e.to_string()))?;
        Ok(key)
    }

    async fn forget(&self, keys: &[String]) {
        for key in keys {
            if let Err(e) = self.blobs.delete(key).await {
                tracing::warn!(key = %key, error = %e, "a return's photograph was not deleted");
            }
        }
    }

    /// The customer's returns, newest first.
    ///
    /// # Errors
    /// [`ReturnsError::Unavailable`].
    pub async fn mine(&self, customer: &UserId) -> Result<Vec<ProductReturn>, ReturnsError> {
        Ok(self.returns.returns_of(customer).await?)
    }

    /// One photograph of a return, as JPEG bytes: for the customer who asked (`customer`) or for
    /// staff (`None`, the caller checked the role).
    ///
    /// # Errors
    /// [`ReturnsError::NotFound`] for no such return or photograph, or another customer's;
    /// [`ReturnsError::Unavailable`].
    pub async fn photo(&self, customer: Option<&UserId>, id: &str, n: usize) -> Result<Vec<u8>, ReturnsError> {
        let found = self.returns.product_return(id).await?.ok_or(ReturnsError::NotFound)?;
        if customer.is_some_and(|c| *c != found.customer) {
            return Err(ReturnsError::NotFound);
        }
        let key = found.photos.get(n.wrapping_sub(1)).ok_or(ReturnsError::NotFound)?;
        self.blobs.get(key).await.map_err(|e| ReturnsError::Unavailable(e.to_string()))?.ok_or(ReturnsError::NotFound)
    }

    // ----- the shop's side -----

    /// The returns in `state` (all when `None`), newest first.
    ///
    /// # Errors
    /// [`ReturnsError::Forbidden`] first; [`ReturnsError::Invalid`] (`return.state_invalid`);
    /// [`ReturnsError::Unavailable`].
    pub async fn list(
        &self,
        staff: &Staff,
        state: Option<&str>,
        window: ListWindow,
    ) -> Result<ReturnPage, ReturnsError> {
        staff.require(Area::Returns)?;
        let state = match state.map(str::trim).filter(|s| !s.is_empty()) {
            None => None,
            Some(code) => Some(ReturnState::parse(code).ok_or(ReturnsError::Invalid(Message::ReturnStateInvalid))?),
        };
        Ok(self.returns.returns(&ReturnQuery { state, window }).await?)
    }

    /// One return with its version.
    ///
    /// # Errors
    /// [`ReturnsError::Forbidden`] first; [`ReturnsError::NotFound`]; [`ReturnsError::Unavailable`].
    pub async fn get(&self, staff: &Staff, id: &str) -> Result<ProductReturn, ReturnsError> {
        staff.require(Area::Returns)?;
        self.returns.product_return(id).await?.ok_or(ReturnsError::NotFound)
    }

    fn audit(&self, staff: &Staff, action: &str, r: &ProductReturn, after: serde_json::Value) -> AuditEntry {
        let before = serde_json::json!({ "state": r.state.code(), "version": r.version });
        AuditEntry::new(self.clock.now(), Actor::staff(staff), action, format!("return:{}", r.id))
            .with_values(Some(before.to_string()), Some(after.to_string()))
    }

    async fn current(&self, id: &str, version: u64) -> Result<ProductReturn, ReturnsError> {
        let found = self.returns.product_return(id).await?.ok_or(ReturnsError::NotFound)?;
        if found.version != version {
            return Err(ReturnsError::Changed { version: found.version });
        }
        Ok(found)
    }

    fn plain(to: ReturnState, note: Option<String>, at: i64, kept: &ProductReturn) -> ReturnMove {
        ReturnMove {
            to,
            note,
            outcome: kept.outcome,
            restock: kept.restock,
            put_back: false,
            amount: kept.amount,
            refund: kept.refund.clone(),
            replacement_order: kept.replacement_order.clone(),
            at,
        }
    }

    /// Approves (`approve`) or refuses a requested return with a note (required to refuse).
    ///
    /// # Errors
    /// [`ReturnsError::Forbidden`] first; [`ReturnsError::Invalid`] (`return.note_invalid`);
    /// [`ReturnsError::NotFound`]; [`ReturnsError::Changed`]; [`ReturnsError::Refused`]
    /// (`return.illegal_move`); [`ReturnsError::Unavailable`].
    pub async fn decide(
        &self,
        staff: &Staff,
        id: &str,
        version: u64,
        approve: bool,
        note: Option<&str>,
    ) -> Result<ProductReturn, ReturnsError> {
        staff.require(Area::Returns)?;
        let note = parse_note(note, !approve).map_err(refused)?;
        let found = self.current(id, version).await?;
        let to = if approve { found.state.approve() } else { found.state.refuse() }.map_err(refused)?;
        let order = self.order(&found.order).await?;
        let now = self.clock.now();
        let part = found.product_name.clone();
        let notice = if approve {
            OrderNotice::ReturnApproved { part, note: note.clone() }
        } else {
            OrderNotice::ReturnRefused { part, note: note.clone() }
        };
        let notices = queue_for(&order, &notice, &self.notices, now);
        let action = if approve { ACTION_APPROVE } else { ACTION_REFUSE };
        let audit = self.audit(staff, action, &found, serde_json::json!({ "state": to.code(), "note": note }));
        let moved = Self::plain(to, note, now, &found);
        Ok(self.returns.change(id, version, &moved, None, &audit, &notices).await?)
    }

    /// Records that the shop received the approved return's part.
    ///
    /// # Errors
    /// As [`ReturnsService::decide`].
    pub async fn receive(&self, staff: &Staff, id: &str, version: u64) -> Result<ProductReturn, ReturnsError> {
        staff.require(Area::Returns)?;
        let found = self.current(id, version).await?;
        let to = found.state.receive().map_err(refused)?;
        let order = self.order(&found.order).await?;
        let now = self.clock.now();
        let notices =
            queue_for(&order, &OrderNotice::ReturnReceived { part: found.product_name.clone() }, &self.notices, now);
        let audit = self.audit(staff, ACTION_RECEIVE, &found, serde_json::json!({ "state": to.code() }));
        let moved = Self::plain(to, found.note.clone(), now, &found);
        Ok(self.returns.change(id, version, &moved, None, &audit, &notices).await?)
    }

    /// Resolves a received return as `input.outcome`, once: a call repeated after the return was
    /// resolved the same way answers it as it is (and completes its refund if that was cut short).
    ///
    /// # Errors
    /// [`ReturnsError::Forbidden`] first (a refund or store credit also needs the refunds' role);
    /// [`ReturnsError::Invalid`] (`return.outcome_invalid`, `refund.key_required`,
    /// `return.note_invalid`); [`ReturnsError::NotFound`]; [`ReturnsError::Changed`];
    /// [`ReturnsError::Refused`] (`return.illegal_move`, also for a return resolved otherwise);
    /// [`ReturnsError::RefundRefused`]; [`ReturnsError::KeyReused`];
    /// [`ReturnsError::ReplacementUnavailable`]; [`ReturnsError::Unavailable`].
    pub async fn resolve(
        &self,
        staff: &Staff,
        id: &str,
        version: u64,
        key: &str,
        input: &ResolveInput,
    ) -> Result<Resolved, ReturnsError> {
        staff.require(Area::Returns)?;
        let outcome =
            ReturnOutcome::parse(&input.outcome).ok_or(ReturnsError::Invalid(Message::ReturnOutcomeInvalid))?;
        if outcome.is_money() {
            staff.require(Area::Refunds)?;
        }
        parse_key(key).map_err(ReturnsError::from)?;
        let note = parse_note(input.note.as_deref(), false).map_err(refused)?;
        let found = self.returns.product_return(id).await?.ok_or(ReturnsError::NotFound)?;
        if found.state == ReturnState::Resolved && found.outcome == Some(outcome) {
            if outcome == ReturnOutcome::Refund {
                self.refund_for(staff, &found, found.restock).await?;
            }
            return Ok(Resolved { product_return: found, replayed: true });
        }
        if found.version != version {
            return Err(ReturnsError::Changed { version: found.version });
        }
        let to = found.state.resolve().map_err(refused)?;
        let order = self.order(&found.order).await?;
        let now = self.clock.now();
        let reason = RefundReason::parse(&format!("Return {}", found.id)).map_err(ReturnsError::RefundRefused)?;
        let value = || {
            refundable_of(&order, &self.seller)
                .refund(
                    &[RefundAsk {
                        product: found.product.clone(),
                        quantity: i64::from(found.quantity),
                        restock: false,
                        reason: None,
                    }],
                    false,
                    &reason,
                )
                .map(|a| a.total)
                .map_err(ReturnsError::RefundRefused)
        };
        let mut moved = ReturnMove {
            to,
            note: note.clone(),
            outcome: Some(outcome),
            restock: input.restock,
            put_back: false,
            amount: None,
            refund: None,
            replacement_order: None,
            at: now,
        };
        let mut credit = None;
        let mut placed = None;
        match outcome {
            ReturnOutcome::StoreCredit => {
                let amount = value()?;
                moved.amount = Some(amount);
                moved.put_back = input.restock;
                credit = Some(CreditGrant {
                    customer: order.order.draft.user.clone(),
                    grant: Grant::new(amount, now, GrantSource::Return(found.id.clone())),
                });
            }
            ReturnOutcome::Refund => {
                // Checked before the move is written; the refund itself follows it, under a key of
                // the return's own, so a retry never pays twice.
                moved.amount = Some(value()?);
                moved.refund = Some(refund_key(&found.id));
            }
            ReturnOutcome::Replacement => {
                moved.amount = Some(Money::ZERO);
                moved.put_back = input.restock;
                let order_id = self.replace(&order, &found, now).await?;
                moved.replacement_order = Some(order_id.0.clone());
                placed = Some(order_id);
            }
        }
        let notices = queue_for(
            &order,
            &OrderNotice::ReturnResolved {
                part: found.product_name.clone(),
                outcome,
                amount: moved.amount.unwrap_or(Money::ZERO),
            },
            &self.notices,
            now,
        );
        let audit = self.audit(
            staff,
            ACTION_RESOLVE,
            &found,
            serde_json::json!({
                "state": to.code(), "outcome": outcome.code(), "restock": input.restock,
                "amount": moved.amount.map(Money::paise), "replacementOrder": moved.replacement_order,
                "idempotencyKey": key, "note": note,
            }),
        );
        let after = match self.returns.change(id, version, &moved, credit, &audit, &notices).await {
            Ok(after) => after,
            Err(e) => {
                if let Some(order) = placed {
                    tracing::warn!(product_return = %found.id, order = %order.0, "a replacement order was placed for a return another resolution won");
                }
                return Err(e.into());
            }
        };
        if outcome == ReturnOutcome::Refund {
            self.refund_for(staff, &after, input.restock).await?;
        }
        Ok(Resolved { product_return: after, replayed: false })
    }

    /// The refund of a return resolved as a refund, through the refunds' use case (its credit note,
    /// its notice, the provider), under the return's own key: made once however often it is asked.
    async fn refund_for(&self, staff: &Staff, r: &ProductReturn, restock: bool) -> Result<(), ReturnsError> {
        let input = RefundInput {
            lines: vec![RefundLineInput {
                product: r.product.0.clone(),
                quantity: i64::from(r.quantity),
                restock,
                reason: None,
            }],
            delivery_charge: false,
            reason: format!("Return {}", r.id),
        };
        self.refunds.refund(staff, &r.order, &refund_key(&r.id), &input).await?;
        Ok(())
    }

    /// Places the replacement: the same part and quantity to the same address at no charge, its
    /// stock held and sold through the order store like any order's (one per return: its payment
    /// order is the return's, so a repeat finds the same order).
    async fn replace(&self, order: &AdminOrder, r: &ProductReturn, now: i64) -> Result<OrderId, ReturnsError> {
        let original = order
            .order
            .draft
            .lines
            .iter()
            .find(|l| l.product_id == r.product)
            .ok_or(ReturnsError::Invalid(Message::ReturnUnknownLine))?;
        let quantity = Quantity::new(r.quantity).map_err(|_| ReturnsError::Invalid(Message::ReturnQuantityInvalid))?;
        // A replacement is given, not sold: no price, and so no margin-scheme purchase price either.
        let line = OrderLine { quantity, price: Money::ZERO, margin_scheme: None, ..original.clone() };
        let draft = OrderDraft {
            user: order.order.draft.user.clone(),
            user_name: order.order.draft.user_name.clone(),
            lines: vec![line],
            address: order.order.draft.address.clone(),
            discount: DiscountPercent::default(),
            discount_amount: Money::ZERO,
            delivery_charge: Money::ZERO,
            total: Money::ZERO,
            store_credit: Money::ZERO,
        };
        let payment_order = PaymentOrderId(refund_key(&r.id));
        let hold = Reservation {
            payment_order: payment_order.clone(),
            draft,
            created_at: now,
            expires_at: now + REPLACEMENT_HOLD_SECS,
        };
        match self.orders.reserve(&hold).await {
            Ok(()) | Err(OrderStoreError::DuplicateReservation) => {}
            Err(OrderStoreError::OutOfStock { .. }) => return Err(ReturnsError::ReplacementUnavailable),
            Err(e) => return Err(ReturnsError::Unavailable(e.to_string())),
        }
        match self.orders.place(&payment_order, &PaymentId(refund_key(&r.id)), now).await {
            Ok(placement) => Ok(placement.into_order().id),
            Err(OrderStoreError::OutOfStock { .. }) => Err(ReturnsError::ReplacementUnavailable),
            Err(e) => Err(ReturnsError::Unavailable(e.to_string())),
        }
    }

    /// How many returns wait on the shop (requested, approved or received): the dashboard's figure.
    ///
    /// # Errors
    /// [`ReturnsError::Unavailable`].
    pub async fn waiting(&self) -> Result<u64, ReturnsError> {
        Ok(self.returns.waiting().await?)
    }
}

#[cfg(test)]
mod tests;
