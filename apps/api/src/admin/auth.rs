//! Staff sessions as types: one security scheme per area of the back office.
//!
//! A handler that takes, say, a [`ProductsStaff`] cannot run unless the request carries
//! `Authorization: Bearer <staff token>` (from `POST /api/admin/login`) of a staff member whose role
//! covers [`Area::Products`]: the scheme's checker answers 401 (`staff.login_required`) for no token,
//! a customer's token or a dead session, and 403 (`staff.forbidden`) for a role that does not cover
//! the area. The checker runs before the body is read, because the scheme is the handler's first
//! argument. Each scheme is its own entry of the document's `securitySchemes`, whose description
//! ends with the roles it admits (`Roles: owner, catalog.`), so a client, and the test that walks
//! every admin operation, can read who may call what.

use std::sync::Arc;

use marque_app::admin::{StaffAuthError, StaffSessions};
use marque_domain::staff::{Area, Staff};
use marque_domain::Message;
use poem::http::StatusCode;
use poem::Request;
use poem_openapi::auth::Bearer;
use poem_openapi::SecurityScheme;

use crate::auth::{same_bytes, ClientValidation, CLIENT_VALIDATION_HEADER};

/// What the staff schemes need, attached to every API request: the staff sessions and the
/// `x-client-validation` value authorized calls must carry, when configured.
#[derive(Clone)]
pub struct AdminContext {
    pub sessions: Arc<dyn StaffSessions>,
    pub client_validation: Option<Arc<ClientValidation>>,
}

impl std::fmt::Debug for AdminContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminContext").finish_non_exhaustive()
    }
}

/// The staff member `bearer` names, if their role covers `area`.
async fn check(req: &Request, bearer: &Bearer, area: Area) -> poem::Result<Staff> {
    let unauthorized = || poem::Error::from_string(Message::StaffLoginRequired.text(), StatusCode::UNAUTHORIZED);
    let ctx = req.data::<AdminContext>().ok_or_else(|| {
        poem::Error::from_string("the admin context is not attached to the API", StatusCode::INTERNAL_SERVER_ERROR)
    })?;
    if let Some(expected) = &ctx.client_validation {
        let offered = req.header(CLIENT_VALIDATION_HEADER).unwrap_or_default();
        if !same_bytes(offered.as_bytes(), expected.0.as_bytes()) {
            return Err(unauthorized());
        }
    }
    let staff = match ctx.sessions.authenticate(&bearer.token).await {
        Ok(staff) => staff,
        Err(StaffAuthError::Unauthorized) => return Err(unauthorized()),
        Err(StaffAuthError::Unavailable(reason)) => {
            tracing::error!(%reason, "checking a staff session failed");
            return Err(poem::Error::from_string(Message::StaffUnavailable.text(), StatusCode::SERVICE_UNAVAILABLE));
        }
    };
    staff.require(area).map_err(|_| poem::Error::from_string(Message::StaffForbidden.text(), StatusCode::FORBIDDEN))?;
    Ok(staff)
}

/// One scheme type per area: `$ty(pub Staff)`, documented as `$scheme` with the roles that may use `$area`.
macro_rules! staff_schemes {
    ($( $ty:ident, $checker:ident = $checker_name:literal, $scheme:literal, $area:expr, $doc:literal; )*) => {
        $(
            #[doc = $doc]
            #[derive(Debug, SecurityScheme)]
            #[oai(ty = "bearer", rename = $scheme, checker = $checker_name)]
            pub struct $ty(pub Staff);

            async fn $checker(req: &Request, bearer: Bearer) -> poem::Result<Staff> {
                check(req, &bearer, $area).await
            }

            impl std::ops::Deref for $ty {
                type Target = Staff;
                fn deref(&self) -> &Staff {
                    &self.0
                }
            }
        )*

        /// Every scheme's document name and area, for the tests that keep descriptions and roles together.
        pub const SCHEMES: &[(&str, Area)] = &[ $( ($scheme, $area), )* ];
    };
}

staff_schemes! {
    AnyStaff, check_any = "check_any", "staffAny", Area::Dashboard,
        "A staff session (`Authorization: Bearer`, from `POST /api/admin/login`). Roles: owner, catalog, fulfilment.";
    ProductsStaff, check_products = "check_products", "staffProducts", Area::Products,
        "A staff session whose role may edit products. Roles: owner, catalog.";
    CategoriesStaff, check_categories = "check_categories", "staffCategories", Area::Categories,
        "A staff session whose role may edit categories. Roles: owner, catalog.";
    BrandsStaff, check_brands = "check_brands", "staffBrands", Area::Brands,
        "A staff session whose role may edit brands. Roles: owner, catalog.";
    PhotosStaff, check_photos = "check_photos", "staffPhotos", Area::Photos,
        "A staff session whose role may edit photographs. Roles: owner, catalog.";
    StockStaff, check_stock = "check_stock", "staffStock", Area::Stock,
        "A staff session whose role may record stock. Roles: owner, catalog.";
    ImportsStaff, check_imports = "check_imports", "staffImports", Area::Imports,
        "A staff session whose role may import and export the catalog. Roles: owner, catalog.";
    OrdersStaff, check_orders = "check_orders", "staffOrders", Area::Orders,
        "A staff session whose role may run orders. Roles: owner, fulfilment.";
    RefundsStaff, check_refunds = "check_refunds", "staffRefunds", Area::Refunds,
        "A staff session whose role may refund. Roles: owner, fulfilment.";
    ReturnsStaff, check_returns = "check_returns", "staffReturns", Area::Returns,
        "A staff session whose role may take returns. Roles: owner, fulfilment.";
    GrievancesStaff, check_grievances = "check_grievances", "staffGrievances", Area::Grievances,
        "A staff session whose role may answer grievances. Roles: owner, fulfilment.";
    CustomersReadStaff, check_customers_read = "check_customers_read", "staffCustomersRead", Area::CustomersRead,
        "A staff session whose role may find customers and read their orders. Roles: owner, fulfilment.";
    CustomersStaff, check_customers = "check_customers", "staffCustomers", Area::Customers,
        "A staff session whose role may change customers. Roles: owner.";
    OffersStaff, check_offers = "check_offers", "staffOffers", Area::Offers,
        "A staff session whose role may set customers' offers. Roles: owner.";
    TeamStaff, check_team = "check_team", "staffTeam", Area::Staff,
        "A staff session whose role may invite and remove staff. Roles: owner.";
    AuditStaff, check_audit = "check_audit", "staffAudit", Area::Audit,
        "A staff session whose role may read the audit trail. Roles: owner.";
    SalesStaff, check_sales = "check_sales", "staffSales", Area::Sales,
        "A staff session whose role may see sales figures. Roles: owner.";
}

/// The roles a scheme's description names after `Roles: `.
#[must_use]
pub fn roles_in_description(description: &str) -> Vec<String> {
    description
        .rsplit_once("Roles: ")
        .map(|(_, roles)| roles.trim_end_matches('.').split(", ").map(str::to_owned).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use marque_domain::staff::StaffRole;

    use super::*;

    #[test]
    fn every_area_has_one_scheme_and_its_description_names_exactly_its_roles() {
        assert_eq!(SCHEMES.len(), Area::ALL.len());
        for area in Area::ALL {
            assert_eq!(SCHEMES.iter().filter(|(_, a)| *a == area).count(), 1, "{area:?}");
        }
        let registry = {
            let mut r = poem_openapi::registry::Registry::new();
            macro_rules! register {
                ($($ty:ty),*) => { $( <$ty as poem_openapi::ApiExtractor>::register(&mut r); )* };
            }
            register!(
                AnyStaff,
                ProductsStaff,
                CategoriesStaff,
                BrandsStaff,
                PhotosStaff,
                StockStaff,
                ImportsStaff,
                OrdersStaff,
                RefundsStaff,
                ReturnsStaff,
                GrievancesStaff,
                CustomersReadStaff,
                CustomersStaff,
                OffersStaff,
                TeamStaff,
                AuditStaff,
                SalesStaff
            );
            r
        };
        for (name, area) in SCHEMES {
            let scheme = registry.security_schemes.get(name).unwrap_or_else(|| panic!("{name} registered"));
            let described = roles_in_description(scheme.description.unwrap_or_default());
            let allowed: Vec<String> = StaffRole::allowed(*area).iter().map(|r| r.as_str().to_owned()).collect();
            assert_eq!(described, allowed, "{name}");
        }
    }
}
