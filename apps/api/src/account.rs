//! Customers: sign-up, logins, one-time codes, the profile, logout.

use marque_app::{AccountError, AccountService, Action, AddressService, Avatar, LoginOutcome, Throttle, Who};
use marque_domain::account::{Registration, RegistrationInput};
use marque_domain::address::SavedAddress;
use marque_domain::pricing::Offer;
use marque_domain::Message;
use marque_ports::UserRecord;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Enum, Multipart, Object, OpenApi, Tags};

use super::address::AddressView;
use super::auth::{client_address, ensure_owner, Customer};
use super::error::ErrorBody;
use super::model::SUCCESS;
use crate::avatar::{self, MAX_AVATAR_BYTES};

#[derive(Tags)]
enum Tag {
    /// Signing up, logging in (email and password, or a one-time code), the profile.
    Account,
}

/// A response enum whose error variants are those listed: 400, 429 (described by `too_many`, with
/// `Retry-After`) and 503 always.
macro_rules! account_response {
    ($name:ident, $body:ty, $handler:ident, $handler_name:tt, too_many: $too_many:literal, { $($(#[doc = $doc:literal])* $variant:ident = $status:literal),* $(,)? }) => {
        #[derive(ApiResponse)]
        #[oai(bad_request_handler = $handler_name)]
        enum $name {
            #[oai(status = 200)]
            Ok(Json<$body>),
            /// A field that does not parse; its message and code come from the shop's rules.
            #[oai(status = 400)]
            BadRequest(Json<ErrorBody>),
            $(
                $(#[doc = $doc])*
                #[oai(status = $status)]
                $variant(Json<ErrorBody>),
            )*
            #[doc = $too_many]
            #[oai(status = 429)]
            TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
            /// The accounts store or the message service cannot be reached right now.
            #[oai(status = 503)]
            Unavailable(Json<ErrorBody>),
        }

        fn $handler(err: poem::Error) -> $name {
            $name::BadRequest(ErrorBody::from_poem(&err))
        }
    };
}

/// The body of an error the account use cases report.
fn body(e: &AccountError) -> Json<ErrorBody> {
    if let AccountError::Unavailable(reason) = e {
        tracing::error!(%reason, "accounts unavailable");
    }
    if let AccountError::NotifyFailed(reason) = e {
        tracing::error!(%reason, "a one-time code could not be sent");
    }
    ErrorBody::from_message(e.message())
}

/// `status`, `message`.
#[derive(Debug, Clone, Object)]
pub struct StatusMessage {
    /// `success`.
    pub status: String,
    pub message: String,
}

/// `status` only.
#[derive(Debug, Clone, Object)]
pub struct StatusOnly {
    /// `success`.
    pub status: String,
}

/// A sign-up was stored and its code sent.
#[derive(Debug, Clone, Object)]
pub struct RegisterBody {
    /// `success`.
    pub status: String,
    pub message: String,
    pub email: String,
    pub mobile: String,
}

redacted_debug!(RegisterForm { name, email, mobile, profile } hides password);
redacted_debug!(EmailLogin { email } hides password);
redacted_debug!(LoginBody { status, message, email, mobile } hides token);
redacted_debug!(VerifyInput { email, mobile } hides otp);
redacted_debug!(VerifyBody { status, message } hides token);

/// `POST /api/register`: the sign-up form, with an optional profile picture.
#[derive(Multipart)]
pub struct RegisterForm {
    name: Option<String>,
    email: Option<String>,
    password: Option<String>,
    mobile: Option<String>,
    /// JPEG, PNG or WebP, at most 5 MB.
    profile: Option<Upload>,
}

#[derive(Debug, Clone, Object)]
pub struct MobileLogin {
    /// 10 digits.
    pub mobile: String,
}

/// A code was sent by SMS.
#[derive(Debug, Clone, Object)]
pub struct MobileLoginBody {
    /// `success`.
    pub status: String,
    pub message: String,
    pub mobile: String,
}

#[derive(Clone, Object)]
pub struct EmailLogin {
    pub email: String,
    pub password: String,
}

/// `success` with a session token, or `not verified` (a code was sent; verify, then log in).
#[derive(Clone, Object)]
pub struct LoginBody {
    /// `success` or `not verified`.
    pub status: String,
    pub message: String,
    /// The session token (`Authorization: Bearer …`), when `success`.
    #[oai(skip_serializing_if_is_none)]
    pub token: Option<String>,
    pub email: String,
    pub mobile: String,
}

#[derive(Clone, Object)]
pub struct VerifyInput {
    /// The account's email, or
    pub email: Option<String>,
    /// its mobile number.
    pub mobile: Option<String>,
    /// The 6-digit code.
    pub otp: String,
}

/// The code matched: a session token.
#[derive(Clone, Object)]
pub struct VerifyBody {
    /// `success`.
    pub status: String,
    /// `success`.
    pub message: String,
    pub token: String,
}

#[derive(Debug, Clone, Object)]
pub struct ResendInput {
    pub email: Option<String>,
    pub mobile: Option<String>,
}

/// A customer as the frontends see it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "User")]
pub struct UserView {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: String,
    #[oai(rename = "googleEmail")]
    pub google_email: String,
    pub mobile: String,
    /// Whether a code sent to the email proved it (or Google vouched for it). An unproven email
    /// logs nobody in; a code asked for with `POST /api/resendotp` proves it.
    #[oai(rename = "emailVerified")]
    pub email_verified: bool,
    /// Whether a code sent by SMS proved the mobile number.
    #[oai(rename = "mobileVerified")]
    pub mobile_verified: bool,
    /// Address of the profile picture; empty for the default picture.
    pub profile: String,
    /// Saved delivery addresses, oldest first.
    pub address: Vec<AddressView>,
    /// Above 0 means a discount is active: the days the customer's offer still runs in India,
    /// today included (1 on its last day), 0 once it has ended.
    #[oai(rename = "offerExp")]
    pub offer_exp: i64,
    /// The discount in percent when active.
    pub percentage: u8,
    /// The store credit the customer can spend (granted, for example, for a returned part; each
    /// grant valid six months). At checkout it pays before the card.
    #[oai(rename = "storeCredit")]
    pub store_credit: StoreCreditView,
}

/// A customer's store credit.
#[derive(Debug, Clone, Object)]
#[oai(rename = "StoreCredit")]
pub struct StoreCreditView {
    /// What can be spent now, in rupees (0 when none).
    pub balance: f64,
    /// When the first of the live grants expires, ISO 8601 in UTC; `null` when the balance is 0.
    #[oai(rename = "expiresAt", nullable)]
    pub expires_at: Option<String>,
}

impl From<marque_ports::CreditBalance> for StoreCreditView {
    fn from(c: marque_ports::CreditBalance) -> Self {
        Self { balance: c.balance.rupees(), expires_at: c.expires_at.map(crate::orders::iso_8601) }
    }
}

impl UserView {
    /// The customer with their saved addresses (and no store credit; see [`UserView::with_store_credit`]).
    #[must_use]
    pub fn new(u: UserRecord, offer: Offer, addresses: Vec<SavedAddress>) -> Self {
        Self {
            id: u.id.0,
            name: u.name,
            email: u.email,
            google_email: u.google_email.unwrap_or_default(),
            mobile: u.mobile,
            email_verified: u.email_verified,
            mobile_verified: u.mobile_verified,
            profile: u.profile,
            address: addresses.into_iter().map(AddressView::from).collect(),
            offer_exp: offer.offer_exp,
            percentage: u.percentage,
            store_credit: marque_ports::CreditBalance::default().into(),
        }
    }

    /// The same with the customer's store credit.
    #[must_use]
    pub fn with_store_credit(mut self, credit: marque_ports::CreditBalance) -> Self {
        self.store_credit = credit.into();
        self
    }
}

#[derive(Debug, Clone, Object)]
pub struct UserBody {
    /// `success`.
    pub status: String,
    pub user: UserView,
}

/// `PATCH /api/update/user/{userId}`: a new name and/or picture.
#[derive(Debug, Multipart)]
pub struct UpdateUserForm {
    name: Option<String>,
    /// JPEG, PNG or WebP, at most 5 MB.
    profile: Option<Upload>,
}

account_response!(RegisterResponse, RegisterBody, register_bad_request, "register_bad_request", too_many: "Too many codes sent to this number, or too many sign-ups from this client, in an hour, or the shop's hourly budget of sign-up messages is spent (`request.too_many`). `Retry-After` gives the seconds to wait.", {
    /// An account has proven this email or mobile number (`account.email_taken`, `account.mobile_taken`).
    Conflict = 409,
});
account_response!(MobileLoginResponse, MobileLoginBody, mobile_login_bad_request, "mobile_login_bad_request", too_many: "A code was sent too often, or too many codes were asked from this client in an hour. `Retry-After` gives the seconds to wait.", {
    /// No account has this mobile number.
    NotFound = 404,
});
account_response!(LoginResponse, LoginBody, login_bad_request, "login_bad_request", too_many: "Too many attempts from this address in a minute, or too many wrong passwords for this account. `Retry-After` gives the seconds to wait.", {
    /// Invalid email or password.
    Unauthorized = 401,
});
account_response!(VerifyResponse, VerifyBody, verify_bad_request, "verify_bad_request", too_many: "Too many attempts from this address in a minute, or too many wrong codes for this account. `Retry-After` gives the seconds to wait.", {
    /// Another account proved this email or mobile number a moment before.
    Conflict = 409,
});
account_response!(ResendResponse, StatusMessage, resend_bad_request, "resend_bad_request", too_many: "Asked again within 30 seconds, or too many codes in an hour (for this account or from this client). `Retry-After` gives the seconds to wait.", {
    /// No account has this email or mobile number.
    NotFound = 404,
});
session_response!(UserResponse, UserBody, user_bad_request, "user_bad_request", {});
session_response!(LogoutResponse, StatusMessage, logout_bad_request, "logout_bad_request", {});
session_response!(AuthLogoutResponse, StatusOnly, auth_logout_bad_request, "auth_logout_bad_request", {});
session_response!(UpdateUserResponse, UserBody, update_user_bad_request, "update_user_bad_request", limited, {
    /// The path names another customer.
    Forbidden = 403,
});

/// Reads an uploaded picture and checks it, before anything is stored.
async fn read_avatar(upload: Option<Upload>) -> Result<Option<Avatar>, Json<ErrorBody>> {
    let Some(upload) = upload else { return Ok(None) };
    let invalid = || ErrorBody::from_message(Message::AvatarInvalid);
    if upload.size() > MAX_AVATAR_BYTES {
        return Err(invalid());
    }
    let bytes = upload.into_vec().await.map_err(|_| invalid())?;
    // A form's empty file field means no picture.
    if bytes.is_empty() {
        return Ok(None);
    }
    avatar::normalize_off_runtime(bytes).await.map(Some).map_err(|e| {
        tracing::info!(reason = %e.0, "refused a profile picture");
        invalid()
    })
}
/// A language of the storefront's selector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename = "LanguageCode")]
pub enum LanguageCode {
    #[oai(rename = "en")]
    En,
    #[oai(rename = "hi")]
    Hi,
}

impl From<LanguageCode> for marque_domain::order::Language {
    fn from(code: LanguageCode) -> Self {
        match code {
            LanguageCode::En => marque_domain::order::Language::English,
            LanguageCode::Hi => marque_domain::order::Language::Hindi,
        }
    }
}

/// The language a customer reads the shop in, kept with the account for the notices they are sent.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AccountLanguage")]
pub struct LanguageBody {
    pub language: LanguageCode,
}

session_response!(LanguageResponse, LanguageBody, language_bad_request, "language_bad_request", limited, {});

pub struct AccountApi {
    /// Sign-up, sign-in and profiles.
    accounts: AccountService,
    /// The addresses a profile lists.
    addresses: AddressService,
    /// The store credit a profile shows.
    checkout: marque_app::CheckoutService,
    /// Rate limits on sign-ups, codes and profile writes.
    throttle: Throttle,
}

impl AccountApi {
    pub fn new(
        accounts: AccountService,
        addresses: AddressService,
        checkout: marque_app::CheckoutService,
        throttle: Throttle,
    ) -> Self {
        Self { accounts, addresses, checkout, throttle }
    }

    /// The user object with the customer's saved addresses.
    async fn user_body(&self, user: UserRecord) -> Result<Json<UserBody>, Json<ErrorBody>> {
        let offer = self.accounts.offer(&user);
        let credit = match self.checkout.store_credit(&user.id).await {
            Ok(credit) => credit,
            Err(e) => {
                tracing::error!(error = %e, "store credit unavailable");
                return Err(ErrorBody::from_message(Message::PaymentUnavailable));
            }
        };
        match self.addresses.list(&user.id).await {
            Ok(addresses) => Ok(Json(UserBody {
                status: SUCCESS.into(),
                user: UserView::new(user, offer, addresses).with_store_credit(credit),
            })),
            Err(e) => {
                tracing::error!(error = %e, "address book unavailable");
                Err(ErrorBody::from_message(e.message()))
            }
        }
    }

    async fn current_user(&self, customer: Customer) -> UserResponse {
        match self.user_body(customer.0.user).await {
            Ok(body) => UserResponse::Ok(body),
            Err(e) => UserResponse::Unavailable(e),
        }
    }
}

#[OpenApi(tag = "Tag::Account")]
impl AccountApi {
    /// Signs up: stores the account with nothing proven and sends one code by SMS and another by
    /// email, each proving its own channel.
    #[oai(path = "/register", method = "post", operation_id = "register")]
    async fn register(&self, req: &Request, form: RegisterForm) -> RegisterResponse {
        // The client's limit and the fields first: a picture is decoded only for a sign-up that may happen.
        by_client!(self.throttle, Action::SignUp, req, RegisterResponse);
        let input = RegistrationInput {
            name: form.name.unwrap_or_default(),
            email: form.email.unwrap_or_default(),
            password: form.password.unwrap_or_default(),
            mobile: form.mobile.unwrap_or_default(),
        };
        if let Err(e) = Registration::parse(&input) {
            return RegisterResponse::BadRequest(body(&AccountError::Registration(e)));
        }
        let avatar = match read_avatar(form.profile).await {
            Ok(a) => a,
            Err(e) => return RegisterResponse::BadRequest(e),
        };
        match self.accounts.register(&input, avatar).await {
            Ok(user) => RegisterResponse::Ok(Json(RegisterBody {
                status: SUCCESS.into(),
                message: Message::SignUpOtpSent.text().into(),
                email: user.email,
                mobile: user.mobile,
            })),
            Err(e @ (AccountError::Registration(_) | AccountError::Invalid(_))) => {
                RegisterResponse::BadRequest(body(&e))
            }
            Err(e @ (AccountError::DuplicateEmail | AccountError::DuplicateMobile)) => {
                RegisterResponse::Conflict(body(&e))
            }
            Err(e @ AccountError::RateLimited(_, wait)) => RegisterResponse::TooMany(body(&e), wait),
            Err(e) => RegisterResponse::Unavailable(body(&e)),
        }
    }

    /// Mobile login: sends a one-time code by SMS (verify it with `POST /api/verify`).
    #[oai(path = "/mobile/login", method = "post", operation_id = "loginByMobile")]
    async fn mobile_login(&self, req: &Request, input: Json<MobileLogin>) -> MobileLoginResponse {
        by_client!(self.throttle, Action::MobileLogin, req, MobileLoginResponse);
        match self.accounts.login_by_mobile(&input.mobile).await {
            Ok(user) => MobileLoginResponse::Ok(Json(MobileLoginBody {
                status: SUCCESS.into(),
                message: Message::OtpSentMobile.text().into(),
                mobile: user.mobile,
            })),
            Err(e @ AccountError::Invalid(_)) => MobileLoginResponse::BadRequest(body(&e)),
            Err(e @ AccountError::NotFound(_)) => MobileLoginResponse::NotFound(body(&e)),
            Err(e @ AccountError::RateLimited(_, wait)) => MobileLoginResponse::TooMany(body(&e), wait),
            Err(e) => MobileLoginResponse::Unavailable(body(&e)),
        }
    }

    /// Email login. Only a proven email logs in: a right password for an email not yet proven
    /// answers `not verified` and sends a code to the email.
    #[oai(path = "/login", method = "post", operation_id = "loginByEmail")]
    async fn login(&self, req: &Request, input: Json<EmailLogin>) -> LoginResponse {
        let client = client_address(req);
        match self.accounts.login_by_email(&input.email, &input.password, &client).await {
            Ok(LoginOutcome::Success { token, user }) => LoginResponse::Ok(Json(LoginBody {
                status: SUCCESS.into(),
                message: Message::LoginSuccess.text().into(),
                token: Some(token.expose().to_owned()),
                email: user.email,
                mobile: user.mobile,
            })),
            Ok(LoginOutcome::NotVerified { user }) => LoginResponse::Ok(Json(LoginBody {
                status: "not verified".into(),
                message: Message::AccountNotVerified.text().into(),
                token: None,
                email: user.email,
                mobile: user.mobile,
            })),
            Err(e @ AccountError::BadCredentials) => LoginResponse::Unauthorized(body(&e)),
            Err(e @ AccountError::RateLimited(_, wait)) => LoginResponse::TooMany(body(&e), wait),
            Err(e @ AccountError::Invalid(_)) => LoginResponse::BadRequest(body(&e)),
            Err(e) => LoginResponse::Unavailable(body(&e)),
        }
    }

    /// Checks a one-time code for the account with this email and mobile (or either): the code
    /// proves the channel it was sent to (an SMS code the mobile, an email code the email), and
    /// starts a session. Wrong: `otp.wrong`; no live code: `otp.expired`.
    #[oai(path = "/verify", method = "post", operation_id = "verifyOtp")]
    async fn verify(&self, req: &Request, input: Json<VerifyInput>) -> VerifyResponse {
        let client = client_address(req);
        let who = Who { email: input.email.clone(), mobile: input.mobile.clone() };
        match self.accounts.verify(&who, &input.otp, &client).await {
            Ok((token, _)) => VerifyResponse::Ok(Json(VerifyBody {
                status: SUCCESS.into(),
                message: SUCCESS.into(),
                token: token.expose().to_owned(),
            })),
            Err(e @ (AccountError::OtpWrong | AccountError::OtpExpired | AccountError::Invalid(_))) => {
                VerifyResponse::BadRequest(body(&e))
            }
            Err(e @ (AccountError::DuplicateEmail | AccountError::DuplicateMobile)) => {
                VerifyResponse::Conflict(body(&e))
            }
            Err(e @ AccountError::RateLimited(_, wait)) => VerifyResponse::TooMany(body(&e), wait),
            Err(e) => VerifyResponse::Unavailable(body(&e)),
        }
    }

    /// Sends new one-time codes to the account with this email and mobile (or either): by each
    /// named channel not yet proven (each its own code), or by the named ones when all are
    /// proven; at least 30 seconds after the last.
    #[oai(path = "/resendotp", method = "post", operation_id = "resendOtp")]
    async fn resend(&self, req: &Request, input: Json<ResendInput>) -> ResendResponse {
        by_client!(self.throttle, Action::Resend, req, ResendResponse);
        let who = Who { email: input.email.clone(), mobile: input.mobile.clone() };
        match self.accounts.resend(&who).await {
            Ok(_) => ResendResponse::Ok(Json(StatusMessage {
                status: SUCCESS.into(),
                message: Message::OtpResent.text().into(),
            })),
            Err(e @ AccountError::Invalid(_)) => ResendResponse::BadRequest(body(&e)),
            Err(e @ AccountError::NotFound(_)) => ResendResponse::NotFound(body(&e)),
            Err(e @ AccountError::RateLimited(_, wait)) => ResendResponse::TooMany(body(&e), wait),
            Err(e) => ResendResponse::Unavailable(body(&e)),
        }
    }

    /// The logged-in customer with their saved addresses.
    #[oai(path = "/user", method = "get", operation_id = "currentUser")]
    async fn user(&self, customer: Customer) -> UserResponse {
        self.current_user(customer).await
    }

    /// The logged-in customer (the same as `GET /api/user`).
    #[oai(path = "/auth/user", method = "get", operation_id = "authUser")]
    async fn auth_user(&self, customer: Customer) -> UserResponse {
        self.current_user(customer).await
    }

    /// Ends the session.
    #[oai(path = "/logout", method = "delete", operation_id = "logout")]
    async fn logout(&self, customer: Customer) -> LogoutResponse {
        match self.accounts.logout(&customer.0.token_hash).await {
            Ok(()) => LogoutResponse::Ok(Json(StatusMessage { status: SUCCESS.into(), message: SUCCESS.into() })),
            Err(e) => LogoutResponse::Unavailable(body(&e)),
        }
    }

    /// Ends the session (the Google sign-in flow's logout).
    #[oai(path = "/auth/logout", method = "get", operation_id = "authLogout")]
    async fn auth_logout(&self, customer: Customer) -> AuthLogoutResponse {
        match self.accounts.logout(&customer.0.token_hash).await {
            Ok(()) => AuthLogoutResponse::Ok(Json(StatusOnly { status: SUCCESS.into() })),
            Err(e) => AuthLogoutResponse::Unavailable(body(&e)),
        }
    }

    /// Changes the logged-in customer's name and/or profile picture.
    #[oai(path = "/update/user/:userId", method = "patch", operation_id = "updateUser")]
    async fn update_user(
        &self,
        customer: Customer,
        #[oai(name = "userId")] user_id: Path<String>,
        form: UpdateUserForm,
    ) -> UpdateUserResponse {
        if let Err(e) = ensure_owner(&customer, &user_id) {
            return UpdateUserResponse::Forbidden(e);
        }
        throttle!(self.throttle, Action::ProfileUpdate, customer, UpdateUserResponse);
        let avatar = match read_avatar(form.profile).await {
            Ok(a) => a,
            Err(e) => return UpdateUserResponse::BadRequest(e),
        };
        let name = form.name.as_deref();
        match self.accounts.update_profile(&customer.0.user.id, name, avatar).await {
            Ok(user) => match self.user_body(user).await {
                Ok(body) => UpdateUserResponse::Ok(body),
                Err(e) => UpdateUserResponse::Unavailable(e),
            },
            Err(e @ AccountError::Invalid(_)) => UpdateUserResponse::BadRequest(body(&e)),
            Err(e) => UpdateUserResponse::Unavailable(body(&e)),
        }
    }

    /// Keeps the language the signed-in customer chose on the storefront (`en`, `hi`): the emails
    /// and SMS about their orders are sent in it. The storefront sends it when the customer signs in
    /// and each time they change it.
    #[oai(path = "/account/language", method = "put", operation_id = "setLanguage")]
    async fn set_language(&self, customer: Customer, input: Json<LanguageBody>) -> LanguageResponse {
        throttle!(self.throttle, Action::ProfileUpdate, customer, LanguageResponse);
        match self.accounts.set_language(&customer.0.user.id, input.0.language.into()).await {
            Ok(()) => LanguageResponse::Ok(input),
            Err(AccountError::NotFound(_)) => {
                LanguageResponse::Unauthorized(ErrorBody::from_message(Message::LoginRequired))
            }
            Err(e) => LanguageResponse::Unavailable(body(&e)),
        }
    }
}

#[cfg(test)]
mod redaction_tests {
    use super::*;

    #[test]
    fn types_holding_a_password_code_or_token_never_print_it() {
        let s = |v: &str| v.to_owned();
        let printed = [
            format!("{:?}", EmailLogin { email: s("a@b.in"), password: s("Pass-word-1!") }),
            format!(
                "{:?}",
                LoginBody {
                    status: s("success"),
                    message: s("ok"),
                    token: Some(s("session-token-1")),
                    email: s("a@b.in"),
                    mobile: s("")
                }
            ),
            format!("{:?}", VerifyInput { email: None, mobile: Some(s("9876543210")), otp: s("424242") }),
            format!("{:?}", VerifyBody { status: s("success"), message: s("success"), token: s("session-token-2") }),
        ];
        for (text, secret) in printed.iter().zip(["Pass-word-1!", "session-token-1", "424242", "session-token-2"]) {
            assert!(!text.contains(secret) && text.contains("[redacted]"), "{text}");
        }
        assert!(printed[0].contains("a@b.in") && printed[2].contains("9876543210"), "other fields stay readable");
    }
}
