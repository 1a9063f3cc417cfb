//! Staff for black-box tests: a staff member of any role, set up through `POST /api/admin/setup`
//! and signed in through `POST /api/admin/login` with an authenticator code computed here.
//!
//! ```ignore
//! let (shop, app) = helpers::spawn_app_with(|_| {}).await;
//! let token = helpers::staff::staff_token(&app, &shop, StaffRole::Catalog).await;
//! // `Authorization: Bearer {token}` on /api/admin/… calls
//! ```

use marque_domain::staff::StaffRole;
use marque_server::App;
use serde_json::{json, Value};

use super::customers::{post, read};
use super::TestShop;

/// The password every test staff member sets.
pub const STAFF_PASSWORD: &str = "correct horse battery staple";

/// A staff member set up in a test shop, and what signs them in.
#[derive(Debug, Clone)]
pub struct TestStaff {
    pub id: String,
    pub email: String,
    pub role: StaffRole,
    /// The `otpauth://` URI the set-up answered.
    pub totp_uri: String,
}

impl TestStaff {
    /// The authenticator's code for the time step `offset` steps from now (30 s each).
    pub fn code(&self, offset: i64) -> String {
        totp_code(&self.totp_uri, offset)
    }
}

/// The code of the authenticator `uri` names, `offset` time steps from now.
pub fn totp_code(uri: &str, offset: i64) -> String {
    let totp = totp_rs::TOTP::from_url(uri).unwrap_or_else(|e| panic!("an otpauth URI ({e})"));
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs();
    let at = i64::try_from(now).expect("seconds fit") + offset * 30;
    totp.generate(u64::try_from(at).expect("after 1970"))
}

/// A new staff member's email, unique in the test run.
fn new_email(role: StaffRole) -> String {
    let n = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_nanos();
    format!("{}-{n}@staff.marque.test", role.as_str())
}

/// Sets up, over HTTP, the staff member invited with the set-up `code`: their authenticator's URI.
async fn set_up_invited(shop: &TestShop, code: &str) -> String {
    let (status, body) = post(shop, "/api/admin/setup", json!({ "code": code, "password": STAFF_PASSWORD })).await;
    assert_eq!(status, 200, "set-up: {body}");
    body["totpUri"].as_str().expect("totpUri").to_owned()
}

/// A new staff member of `role` (added as the command line does), set up over HTTP.
pub async fn set_up_staff(app: &App, shop: &TestShop, role: StaffRole) -> TestStaff {
    let email = new_email(role);
    let invitation = app.services.staff.add("test", &email, "Test Staff", role).await.expect("a staff member added");
    let totp_uri = set_up_invited(shop, invitation.code.expose()).await;
    TestStaff { id: invitation.staff.id.0, email, role, totp_uri }
}

/// A staff session token on `shop` (a `marque-server` process) of a new staff member of `role`, added by
/// `marque-server staff add`'s own code on the shop's `database`, set up and signed in over HTTP.
pub async fn staff_token_by_cli(database: &marque_surreal::Database, shop: &TestShop, role: StaffRole) -> String {
    let email = new_email(role);
    let add = marque_server::staff_cli::StaffCommand::Add {
        email: email.clone(),
        name: "Test Staff".to_owned(),
        role: role.as_str().to_owned(),
    };
    let printed = marque_server::staff_cli::run(database, None, add).await.expect("a staff member added");
    let link = printed.rsplit_once(' ').map_or(printed.as_str(), |(_, link)| link);
    let totp_uri = set_up_invited(shop, &super::query_value(link, "code")).await;
    let staff = TestStaff { id: String::new(), email, role, totp_uri };
    let (status, body) = login(shop, &staff, 0).await;
    assert_eq!(status, 200, "login: {body}");
    body["token"].as_str().expect("a token").to_owned()
}

/// Signs `staff` in with the code `offset` steps from now: the status and the body.
pub async fn login(shop: &TestShop, staff: &TestStaff, offset: i64) -> (u16, Value) {
    let body = json!({ "email": staff.email, "password": STAFF_PASSWORD, "totp": staff.code(offset) });
    post(shop, "/api/admin/login", body).await
}

/// A staff session token of a new staff member of `role`.
pub async fn staff_token(app: &App, shop: &TestShop, role: StaffRole) -> String {
    let staff = set_up_staff(app, shop, role).await;
    let (status, body) = login(shop, &staff, 0).await;
    assert_eq!(status, 200, "login: {body}");
    body["token"].as_str().expect("a token").to_owned()
}

/// A JSON call with a staff (or any) bearer token: the status and the body.
pub async fn call(
    shop: &TestShop,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = shop.client.request(method, format!("{}{path}", shop.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    read(request.send().await.expect("the server answers")).await
}
