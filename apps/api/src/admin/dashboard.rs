//! `admin-dashboard` (owner, fulfilment): the back office's first page, `GET /api/admin/dashboard`:
//! what waits on the shop now, and for the owner today's and this month's sales (India time).

use marque_app::admin::dashboard::{DashboardError, DashboardService};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi, Tags};

use super::auth::OrdersStaff;
use crate::error::ErrorBody;
use crate::orders::iso_8601;

#[derive(Tags)]
enum Tag {
    /// Staff: the first page's figures (roles: owner, fulfilment; sales figures for the owner only).
    #[oai(rename = "admin-dashboard")]
    AdminDashboard,
}

/// Sales in paise: what the orders placed in the period total, cancelled ones left out, refunds
/// not taken off.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminSales")]
pub struct SalesBody {
    /// Since midnight in India.
    pub today: i64,
    /// Since the first of the month in India.
    #[oai(rename = "thisMonth")]
    pub this_month: i64,
}

/// What waits on the shop. Returns are not counted: the shop takes no returns yet.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminDashboard")]
pub struct DashboardBody {
    /// Orders placed, to confirm (status 1).
    #[oai(rename = "toConfirm")]
    pub to_confirm: u64,
    /// Orders confirmed, to pack (status 2).
    #[oai(rename = "toPack")]
    pub to_pack: u64,
    /// Orders packed, to ship (status 3).
    #[oai(rename = "toShip")]
    pub to_ship: u64,
    /// Refunds requested or pending at the payment provider.
    #[oai(rename = "refundsPending")]
    pub refunds_pending: u64,
    /// Refunds the provider failed (retry them from the order).
    #[oai(rename = "refundsFailed")]
    pub refunds_failed: u64,
    /// Grievances open past 48 hours, or unresolved past one month.
    #[oai(rename = "grievancesOverdue")]
    pub grievances_overdue: u64,
    /// Parts at or below their low-stock threshold.
    #[oai(rename = "lowStock")]
    pub low_stock: u64,
    /// Returns requested, approved or received: waiting on the shop's next move.
    #[oai(rename = "returnsWaiting")]
    pub returns_waiting: u64,
    /// Notices to customers (email, SMS) the outbox gave up on after its attempts, marked failed:
    /// nobody was told (each order's page lists its notices).
    #[oai(rename = "noticesFailed")]
    pub notices_failed: u64,
    /// `null` for a role that may not see sales figures (fulfilment).
    pub sales: Option<SalesBody>,
    /// When the figures were read, ISO 8601 in UTC.
    pub at: String,
}

admin_response!(DashboardAnswer, dashboard_bad_request, "dashboard_bad_request", {
    /// The figures as they stand now.
    Ok(Json<DashboardBody>) = 200,
});

/// The dashboard's call.
#[derive(Debug)]
pub struct DashboardApi {
    dashboard: DashboardService,
}

impl DashboardApi {
    #[must_use]
    pub fn new(dashboard: DashboardService) -> Self {
        Self { dashboard }
    }
}

#[OpenApi(tag = "Tag::AdminDashboard")]
impl DashboardApi {
    /// Orders to confirm, pack and ship, refunds pending or failed, grievances past their clocks,
    /// returns waiting, failed notices, low-stock parts, and for the owner today's and this month's sales in paise (India time).
    #[oai(path = "/admin/dashboard", method = "get", operation_id = "adminDashboard")]
    async fn dashboard(&self, staff: OrdersStaff) -> DashboardAnswer {
        match self.dashboard.figures(&staff).await {
            Ok(d) => DashboardAnswer::Ok(Json(DashboardBody {
                to_confirm: d.to_confirm,
                to_pack: d.to_pack,
                to_ship: d.to_ship,
                refunds_pending: d.refunds_waiting,
                refunds_failed: d.refunds_failed,
                grievances_overdue: d.grievances_overdue,
                low_stock: d.low_stock,
                returns_waiting: d.returns_waiting,
                notices_failed: d.notices_failed,
                sales: d.sales.map(|s| SalesBody { today: s.today.paise(), this_month: s.this_month.paise() }),
                at: iso_8601(d.at),
            })),
            Err(e @ DashboardError::Forbidden(_)) => DashboardAnswer::Forbidden(ErrorBody::from_message(e.message())),
            Err(e @ DashboardError::Unavailable(_)) => {
                tracing::error!(error = %e, "the dashboard failed");
                DashboardAnswer::Unavailable(ErrorBody::from_message(e.message()))
            }
        }
    }
}
