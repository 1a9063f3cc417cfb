//! The stock ledger's calls (tag `admin-stock`): record an adjustment, read a product's history,
//! the low-stock list, and set a product's low-stock threshold. Stock changes only through
//! entries; every answer names who, when, why and the quantity before and after.

use marque_app::admin::stock::{AdjustmentInput, StockError, StockService};
use marque_domain::catalog::ProductId;
use marque_ports::{LowStockItem, StockEntry};
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi, Tags};

use super::auth::StockStaff;
use super::list_window;
use crate::error::ErrorBody;

#[derive(Tags)]
enum Tag {
    /// The back office's stock ledger: adjustments, history, low stock (roles: owner, catalog).
    AdminStock,
}

/// What `POST /api/admin/products/{id}/stock` receives.
#[derive(Debug, Clone, Object)]
pub struct StockAdjustment {
    /// Units added (positive) or taken away (negative); never 0, at most 100000 either way.
    /// `received` and `returned` add, `damaged` and `sold_offline` take away, `correction` either.
    pub delta: i64,
    /// One of `received`, `correction`, `damaged`, `returned`, `sold_offline`.
    pub reason: String,
    /// Up to 500 characters (a supplier's invoice, what was found broken, …).
    pub note: Option<String>,
}

/// One entry of a product's stock ledger.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminStockEntry")]
pub struct StockEntryBody {
    #[oai(rename = "_id")]
    pub id: String,
    /// The product's `_id`.
    pub product: String,
    /// Units added (positive) or taken away (negative).
    pub delta: i64,
    /// `opening`, `received`, `correction`, `damaged`, `returned`, `sold_offline`, `import`,
    /// `reserved`, `released` or `sold`.
    pub reason: String,
    pub note: Option<String>,
    /// The product's stock just before and just after the entry.
    pub before: i64,
    pub after: i64,
    /// Who: a staff member's `_id`, or `system:<what>` (`system:checkout`, `system:seed`, `system:migration`).
    pub actor: String,
    /// Who, as a person reads it: the staff member's email, or `system (<what>)`.
    #[oai(rename = "actorLabel")]
    pub actor_label: String,
    /// When, seconds since the Unix epoch.
    pub at: i64,
    /// The payment order of a reservation, release or sale.
    pub order: Option<String>,
}

impl From<StockEntry> for StockEntryBody {
    fn from(e: StockEntry) -> Self {
        Self {
            id: e.id,
            product: e.product.0,
            delta: e.delta,
            reason: e.reason.as_str().to_owned(),
            note: e.note,
            before: e.before,
            after: e.after,
            actor: e.actor,
            actor_label: e.actor_label,
            at: e.at,
            order: e.order,
        }
    }
}

/// One page of a product's ledger, newest first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminStockHistory")]
pub struct StockHistoryBody {
    pub results: Vec<StockEntryBody>,
    pub pages: u64,
    pub total: u64,
}

/// A product at or below its low-stock threshold.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminLowStockItem")]
pub struct LowStockBody {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    /// Units in stock.
    pub quantity: u32,
    /// Listed at this many units or fewer.
    pub threshold: u32,
}

impl From<LowStockItem> for LowStockBody {
    fn from(i: LowStockItem) -> Self {
        Self { id: i.product.0, name: i.name, quantity: i.quantity, threshold: i.threshold }
    }
}

/// One page of the low-stock list, fewest units first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminLowStock")]
pub struct LowStockListBody {
    pub results: Vec<LowStockBody>,
    pub pages: u64,
    pub total: u64,
}

/// What `PUT /api/admin/products/{id}/stock/threshold` receives and answers.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminStockThreshold")]
pub struct ThresholdBody {
    /// Listed as low stock at this many units or fewer: a whole number from 0 to 100000 (5 until set).
    pub threshold: i64,
}

admin_response!(AdjustAnswer, adjust_bad_request, "adjust_bad_request", {
    /// The entry written, with the stock before and after.
    Created(Json<StockEntryBody>) = 201,
    /// No product has this id (`admin.product_not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// The product has fewer units than the adjustment takes away (`stock.below_zero`); nothing was written.
    Conflict(Json<ErrorBody>) = 409,
});

admin_response!(HistoryAnswer, history_bad_request, "history_bad_request", {
    /// One page of the product's entries, newest first.
    Ok(Json<StockHistoryBody>) = 200,
    /// No product has this id (`admin.product_not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

admin_response!(LowAnswer, low_bad_request, "low_bad_request", {
    /// One page of the products at or below their threshold, fewest units first.
    Ok(Json<LowStockListBody>) = 200,
});

admin_response!(ThresholdAnswer, threshold_bad_request, "threshold_bad_request", {
    /// The threshold now set.
    Ok(Json<ThresholdBody>) = 200,
    /// No product has this id (`admin.product_not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

/// The answer's body for a refusal or failure (the message and code of the shop's rules).
fn body(e: &StockError) -> Json<ErrorBody> {
    if let StockError::Unavailable(reason) = e {
        tracing::error!(%reason, "the stock ledger failed");
    }
    ErrorBody::from_message(e.message())
}

macro_rules! refusal {
    ($answer:ident, $e:expr, { $($variant:pat => $to:ident),* }) => {{
        let e = $e;
        match &e {
            StockError::Forbidden(_) => $answer::Forbidden(body(&e)),
            StockError::Invalid(_) => $answer::BadRequest(body(&e)),
            StockError::Unavailable(_) => $answer::Unavailable(body(&e)),
            $($variant => $answer::$to(body(&e)),)*
        }
    }};
}

/// The stock ledger's calls, built from their one service.
#[derive(Debug)]
pub struct StockApi {
    stock: StockService,
}

impl StockApi {
    #[must_use]
    pub fn new(stock: StockService) -> Self {
        Self { stock }
    }
}

#[OpenApi(tag = "Tag::AdminStock")]
impl StockApi {
    /// Records a change of a product's stock (stock received, a correction, damage, a return to
    /// stock, a sale over the counter) as a new entry of its ledger, with its audit record. The
    /// stock never goes below zero.
    #[oai(path = "/admin/products/:id/stock", method = "post", operation_id = "adminAdjustStock")]
    async fn adjust(&self, staff: StockStaff, id: Path<String>, input: Json<StockAdjustment>) -> AdjustAnswer {
        let input = AdjustmentInput { delta: input.delta, reason: input.0.reason, note: input.0.note };
        match self.stock.adjust(&staff, &ProductId(id.0), &input).await {
            Ok(entry) => AdjustAnswer::Created(Json(entry.into())),
            Err(e) => refusal!(AdjustAnswer, e, {
                StockError::ProductNotFound => NotFound,
                StockError::BelowZero { .. } => Conflict
            }),
        }
    }

    /// A product's stock ledger, newest first: who, when, why, the change and the stock before and after.
    #[oai(path = "/admin/products/:id/stock", method = "get", operation_id = "adminStockHistory")]
    async fn history(
        &self,
        staff: StockStaff,
        id: Path<String>,
        /// 1-based page number (default 1).
        page: Query<Option<u32>>,
        /// Entries per page, 1 to 100 (default 20).
        size: Query<Option<u32>>,
    ) -> HistoryAnswer {
        let window = match list_window(page.0.map(u64::from), size.0.map(u64::from)) {
            Ok(w) => w,
            Err(body) => return HistoryAnswer::BadRequest(body),
        };
        match self.stock.history(&staff, &ProductId(id.0), window).await {
            Ok(paged) => HistoryAnswer::Ok(Json(StockHistoryBody {
                results: paged.page.entries.into_iter().map(StockEntryBody::from).collect(),
                pages: paged.pages,
                total: paged.page.total,
            })),
            Err(e) => refusal!(HistoryAnswer, e, {
                StockError::ProductNotFound | StockError::BelowZero { .. } => NotFound
            }),
        }
    }

    /// The products at or below their low-stock threshold, fewest units first.
    #[oai(path = "/admin/stock/low", method = "get", operation_id = "adminLowStock")]
    async fn low(
        &self,
        staff: StockStaff,
        /// 1-based page number (default 1).
        page: Query<Option<u32>>,
        /// Products per page, 1 to 100 (default 20).
        size: Query<Option<u32>>,
    ) -> LowAnswer {
        let window = match list_window(page.0.map(u64::from), size.0.map(u64::from)) {
            Ok(w) => w,
            Err(body) => return LowAnswer::BadRequest(body),
        };
        match self.stock.low_stock(&staff, window).await {
            Ok(paged) => LowAnswer::Ok(Json(LowStockListBody {
                results: paged.page.items.into_iter().map(LowStockBody::from).collect(),
                pages: paged.pages,
                total: paged.page.total,
            })),
            Err(e) => refusal!(LowAnswer, e, {
                StockError::ProductNotFound | StockError::BelowZero { .. } => Unavailable
            }),
        }
    }

    /// Sets the stock at or below which a product is listed as low, with its audit record.
    #[oai(path = "/admin/products/:id/stock/threshold", method = "put", operation_id = "adminSetStockThreshold")]
    async fn set_threshold(&self, staff: StockStaff, id: Path<String>, input: Json<ThresholdBody>) -> ThresholdAnswer {
        match self.stock.set_threshold(&staff, &ProductId(id.0), input.threshold).await {
            Ok(t) => ThresholdAnswer::Ok(Json(ThresholdBody { threshold: i64::from(t.get()) })),
            Err(e) => refusal!(ThresholdAnswer, e, {
                StockError::ProductNotFound | StockError::BelowZero { .. } => NotFound
            }),
        }
    }
}
