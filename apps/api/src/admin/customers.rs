//! `admin-customers`: finding customers and reading their orders (owner, fulfilment), and their
//! offers (owner): `GET /api/admin/customers?q=`, `GET /api/admin/customers/{id}`,
//! `GET /api/admin/customers/{id}/orders`, `PATCH` and `DELETE /api/admin/customers/{id}/offer`.

use marque_app::admin::customers::{CustomerView, CustomersError, CustomersService};
use marque_ports::UserId;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi, Tags};

use super::auth::{CustomersReadStaff, OffersStaff};
use super::list_window;
use crate::error::ErrorBody;
use crate::orders::Order;

#[derive(Tags)]
enum Tag {
    /// Staff: customers, their orders and their offers.
    #[oai(rename = "admin-customers")]
    AdminCustomers,
}

/// A customer as staff see them.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminCustomer")]
pub struct AdminCustomer {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    /// Empty for an account made by Google sign-in alone.
    pub email: String,
    #[oai(rename = "emailVerified")]
    pub email_verified: bool,
    /// Ten digits, or empty.
    pub mobile: String,
    #[oai(rename = "mobileVerified")]
    pub mobile_verified: bool,
    #[oai(rename = "googleEmail")]
    pub google_email: String,
    /// When the account was made (seconds since the Unix epoch).
    #[oai(rename = "createdAt")]
    pub created_at: i64,
    /// The days the offer still runs in India, today included (0 without one or once ended): what
    /// the customer's `offerExp` says.
    #[oai(rename = "offerExp")]
    pub offer_exp: i64,
    /// The offer's percentage (0 without one).
    pub percentage: u8,
    /// The offer's last day in India (`YYYY-MM-DD`, inclusive), `null` without one.
    #[oai(rename = "endsOn")]
    pub ends_on: Option<String>,
}

impl From<CustomerView> for AdminCustomer {
    fn from(c: CustomerView) -> Self {
        let u = c.user;
        AdminCustomer {
            id: u.id.0,
            name: u.name,
            email: u.email,
            email_verified: u.email_verified,
            mobile: u.mobile,
            mobile_verified: u.mobile_verified,
            google_email: u.google_email.unwrap_or_default(),
            created_at: u.created_at,
            offer_exp: c.offer.offer_exp,
            percentage: u.percentage,
            ends_on: u.offer_ends_on.map(|d| d.to_string()),
        }
    }
}

/// One page of customers.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminCustomerList")]
pub struct CustomerList {
    pub results: Vec<AdminCustomer>,
    /// How many pages of this size the matches fill.
    pub pages: u64,
    /// How many customers match.
    pub total: u64,
}

/// One page of a customer's orders.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminCustomerOrders")]
pub struct CustomerOrders {
    /// Newest first, each as it was sold.
    pub results: Vec<Order>,
    pub pages: u64,
    pub total: u64,
}

/// An offer to give a customer.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminOfferInput")]
pub struct OfferInput {
    /// The discount, a whole number from 1 to 90.
    pub percentage: u32,
    /// The offer's last day in India (IST), inclusive, `YYYY-MM-DD`: from today up to two years ahead.
    #[oai(rename = "endsOn")]
    pub ends_on: String,
}

admin_response!(CustomerListAnswer, customer_list_bad_request, "customer_list_bad_request", {
    /// The customers found, newest account first.
    Ok(poem_openapi::payload::Json<CustomerList>) = 200,
});

admin_response!(CustomerAnswer, customer_bad_request, "customer_bad_request", {
    /// The customer, with their offer as it runs now.
    Ok(poem_openapi::payload::Json<AdminCustomer>) = 200,
    /// No customer has this id (`admin.customer_not_found`).
    NotFound(poem_openapi::payload::Json<ErrorBody>) = 404,
});

admin_response!(CustomerOrdersAnswer, customer_orders_bad_request, "customer_orders_bad_request", {
    /// The customer's orders, newest first.
    Ok(poem_openapi::payload::Json<CustomerOrders>) = 200,
    /// No customer has this id (`admin.customer_not_found`).
    NotFound(poem_openapi::payload::Json<ErrorBody>) = 404,
});

/// The answer an error of the use case gets.
macro_rules! refused {
    ($answer:ident, $e:expr) => {{
        let e = $e;
        let body = ErrorBody::from_message(e.message());
        match e {
            CustomersError::Forbidden(_) => $answer::Forbidden(body),
            CustomersError::Percentage(_) | CustomersError::EndsOn(_) => $answer::BadRequest(body),
            CustomersError::Unavailable(reason) => {
                tracing::error!(%reason, "a customers call failed");
                $answer::Unavailable(body)
            }
            CustomersError::NotFound => refused!(@not_found $answer, body),
        }
    }};
    (@not_found CustomerListAnswer, $body:expr) => {
        CustomerListAnswer::BadRequest($body)
    };
    (@not_found $answer:ident, $body:expr) => {
        $answer::NotFound($body)
    };
}

#[derive(Debug)]
pub struct CustomersApi {
    customers: CustomersService,
}

impl CustomersApi {
    pub fn new(customers: CustomersService) -> Self {
        Self { customers }
    }
}

#[OpenApi(tag = "Tag::AdminCustomers")]
impl CustomersApi {
    /// Customers whose name (every word begins a word of it), email (whole, any case) or mobile
    /// (ten digits, typed with spaces, dashes or +91) is `q`, newest account first.
    #[oai(path = "/admin/customers", method = "get", operation_id = "adminSearchCustomers")]
    async fn search(
        &self,
        staff: CustomersReadStaff,
        /// What to look for: a name, an email or a mobile number.
        q: Query<Option<String>>,
        /// Page number from 1; absent means 1.
        page: Query<Option<u64>>,
        /// Rows a page, 1–100; absent means 20.
        size: Query<Option<u64>>,
    ) -> CustomerListAnswer {
        let window = match list_window(page.0, size.0) {
            Ok(w) => w,
            Err(body) => return CustomerListAnswer::BadRequest(body),
        };
        match self.customers.search(&staff, q.0.as_deref().unwrap_or_default(), window).await {
            Ok(found) => CustomerListAnswer::Ok(Json(CustomerList {
                pages: window.pages(found.total),
                total: found.total,
                results: found.customers.into_iter().map(AdminCustomer::from).collect(),
            })),
            Err(e) => refused!(CustomerListAnswer, e),
        }
    }

    /// One customer, with their offer.
    #[oai(path = "/admin/customers/:id", method = "get", operation_id = "adminGetCustomer")]
    async fn customer(
        &self,
        staff: CustomersReadStaff,
        /// The customer's `_id`.
        id: Path<String>,
    ) -> CustomerAnswer {
        match self.customers.customer(&staff, &UserId(id.0)).await {
            Ok(c) => CustomerAnswer::Ok(Json(c.into())),
            Err(e) => refused!(CustomerAnswer, e),
        }
    }

    /// The customer's orders, newest first, each as it was sold.
    #[oai(path = "/admin/customers/:id/orders", method = "get", operation_id = "adminCustomerOrders")]
    async fn orders(
        &self,
        staff: CustomersReadStaff,
        /// The customer's `_id`.
        id: Path<String>,
        /// Page number from 1; absent means 1.
        page: Query<Option<u64>>,
        /// Rows a page, 1–100; absent means 20.
        size: Query<Option<u64>>,
    ) -> CustomerOrdersAnswer {
        let window = match list_window(page.0, size.0) {
            Ok(w) => w,
            Err(body) => return CustomerOrdersAnswer::BadRequest(body),
        };
        match self.customers.orders(&staff, &UserId(id.0), window).await {
            Ok(p) => CustomerOrdersAnswer::Ok(Json(CustomerOrders {
                results: p.orders.iter().map(Order::from).collect(),
                pages: window.pages(p.total),
                total: p.total,
            })),
            Err(e) => refused!(CustomerOrdersAnswer, e),
        }
    }

    /// Gives the customer an offer (owner only): `percentage` % off every order until the end of
    /// `endsOn` in India, replacing any offer they had. Their `offerExp` then counts the days left.
    /// Recorded in the audit trail (`offer.set`).
    #[oai(path = "/admin/customers/:id/offer", method = "patch", operation_id = "adminSetOffer")]
    async fn set_offer(
        &self,
        staff: OffersStaff,
        /// The customer's `_id`.
        id: Path<String>,
        body: Json<OfferInput>,
    ) -> CustomerAnswer {
        match self.customers.set_offer(&staff, &UserId(id.0), body.0.percentage, &body.0.ends_on).await {
            Ok(c) => CustomerAnswer::Ok(Json(c.into())),
            Err(e) => refused!(CustomerAnswer, e),
        }
    }

    /// Ends the customer's offer now (owner only): `offerExp` 0. Recorded in the audit trail (`offer.end`).
    #[oai(path = "/admin/customers/:id/offer", method = "delete", operation_id = "adminEndOffer")]
    async fn end_offer(
        &self,
        staff: OffersStaff,
        /// The customer's `_id`.
        id: Path<String>,
    ) -> CustomerAnswer {
        match self.customers.end_offer(&staff, &UserId(id.0)).await {
            Ok(c) => CustomerAnswer::Ok(Json(c.into())),
            Err(e) => refused!(CustomerAnswer, e),
        }
    }
}
