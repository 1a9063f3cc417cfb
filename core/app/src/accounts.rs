//! Customers: signing up, logging in by email or one-time code, sessions, the profile.
//!
//! Secrets never reach a log: one-time codes are stored as HMAC-SHA256(server secret,
//! user id + code), session tokens as their SHA-256, passwords as argon2id PHC strings, and
//! no type here prints a code, token or password through `Debug`.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::Engine as _;
use hmac::{Hmac, Mac};
use marque_domain::account::{
    sanitize_login_mobile, Email, LoginMobile, LoginMobileError, Otp, OtpError, PersonName, Registration,
    RegistrationErrors, RegistrationInput, OTP_LENGTH, OTP_MAX_ATTEMPTS, OTP_RESEND_AFTER_SECONDS, OTP_VALID_SECONDS,
};
use marque_domain::rate::Window;
use marque_domain::Message;
use marque_ports::{
    AccountStore, AccountStoreError, BlobStore, BlobStoreError, Challenge, ChallengeKey, ChallengeOutcome, Channel,
    Clock, ExternalIdentity, NewSession, Notification, Notifier, NotifyError, PendingSignIn, RateCounter,
    RateCounterError, Swept, UserId, UserRecord,
};
use sha2::{Digest, Sha256};

/// The server's key for one-time code hashes. Never printed.
#[derive(Clone)]
pub struct OtpSecret(Vec<u8>);

impl OtpSecret {
    #[must_use]
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        Self(bytes.into())
    }
}

impl std::fmt::Debug for OtpSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OtpSecret(…)")
    }
}

/// The limits of the account rules; [`AccountSettings::new`] gives the shop's defaults.
#[derive(Debug, Clone)]
pub struct AccountSettings {
    pub secret: OtpSecret,
    /// How long a code lives (default [`OTP_VALID_SECONDS`]).
    pub otp_valid_secs: i64,
    /// Wrong tries a code allows (default [`OTP_MAX_ATTEMPTS`]).
    pub otp_tries: u8,
    /// Least time between two codes for one customer (default [`OTP_RESEND_AFTER_SECONDS`]).
    pub resend_after_secs: i64,
    /// Most codes sent to one mobile number in an hour (default 5).
    pub sends_per_hour: u32,
    /// Most login or verification attempts from one client address in a minute (default 10).
    pub attempts_per_minute: u32,
    /// How long a session lasts (default 30 days).
    pub session_secs: i64,
    /// Most wrong guesses of one account's password, and apart of its codes, in
    /// `account_guess_window_secs` (default 10 in 15 minutes), from wherever they come.
    pub account_guesses: u32,
    pub account_guess_window_secs: i64,
    /// Messages (one SMS and one email each) all sign-ups together may send in an hour
    /// (default 2000, `MARQUE_SIGNUP_MESSAGES_PER_HOUR`); past it sign-ups are refused.
    pub signup_messages_per_hour: u32,
    /// How long an account with nothing proven is kept (default a day).
    pub unverified_account_secs: i64,
    /// The shop's name, in the code's text.
    pub shop_name: String,
}

impl AccountSettings {
    #[must_use]
    pub fn new(secret: OtpSecret) -> Self {
        Self {
            secret,
            otp_valid_secs: i64::from(OTP_VALID_SECONDS),
            otp_tries: u8::try_from(OTP_MAX_ATTEMPTS).unwrap_or(5),
            resend_after_secs: i64::from(OTP_RESEND_AFTER_SECONDS),
            sends_per_hour: 5,
            attempts_per_minute: 10,
            session_secs: 30 * 24 * 60 * 60,
            account_guesses: 10,
            account_guess_window_secs: 15 * 60,
            signup_messages_per_hour: 2000,
            unverified_account_secs: 24 * 60 * 60,
            shop_name: "Marque Parts".to_owned(),
        }
    }
}

/// Why an account use case failed. Each maps to one HTTP status in the API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    /// A sign-up field does not parse (400).
    #[error("{0}")]
    Registration(RegistrationErrors),
    /// A field does not parse (400): a mobile, an OTP, a name.
    #[error("{}", .0.text())]
    Invalid(Message),
    #[error("{}", Message::AccountEmailTaken.text())]
    DuplicateEmail,
    #[error("{}", Message::AccountMobileTaken.text())]
    DuplicateMobile,
    /// No account has the mobile number, email or id (404).
    #[error("{}", .0.text())]
    NotFound(Message),
    #[error("{}", Message::LoginFailed.text())]
    BadCredentials,
    #[error("{}", Message::OtpWrong.text())]
    OtpWrong,
    #[error("{}", Message::OtpExpired.text())]
    OtpExpired,
    /// A limit was reached (429): which one is the message; then the seconds until one more
    /// try is allowed (`Retry-After`).
    #[error("{}", .0.text())]
    RateLimited(Message, u64),
    /// No valid session (401).
    #[error("{}", Message::LoginRequired.text())]
    Unauthorized,
    /// The code could not be sent (503).
    #[error("{}", Message::OtpSendFailed.text())]
    NotifyFailed(#[source] NotifyError),
    /// A store is down (503).
    #[error("{}", Message::AccountUnavailable.text())]
    Unavailable(String),
}

impl AccountError {
    /// The message a person reads, with its stable code.
    #[must_use]
    pub fn message(&self) -> Message {
        use marque_domain::UserFacing as _;
        match self {
            AccountError::Registration(e) => e.message(),
            AccountError::Invalid(m) | AccountError::NotFound(m) | AccountError::RateLimited(m, _) => *m,
            AccountError::DuplicateEmail => Message::AccountEmailTaken,
            AccountError::DuplicateMobile => Message::AccountMobileTaken,
            AccountError::BadCredentials => Message::LoginFailed,
            AccountError::OtpWrong => Message::OtpWrong,
            AccountError::OtpExpired => Message::OtpExpired,
            AccountError::Unauthorized => Message::LoginRequired,
            AccountError::NotifyFailed(_) => Message::OtpSendFailed,
            AccountError::Unavailable(_) => Message::AccountUnavailable,
        }
    }
}

impl From<AccountStoreError> for AccountError {
    fn from(e: AccountStoreError) -> Self {
        match e {
            AccountStoreError::DuplicateEmail => AccountError::DuplicateEmail,
            AccountStoreError::DuplicateMobile => AccountError::DuplicateMobile,
            other => AccountError::Unavailable(other.to_string()),
        }
    }
}

impl From<RateCounterError> for AccountError {
    fn from(e: RateCounterError) -> Self {
        AccountError::Unavailable(e.to_string())
    }
}

impl From<BlobStoreError> for AccountError {
    fn from(e: BlobStoreError) -> Self {
        AccountError::Unavailable(e.to_string())
    }
}

/// An opaque session token as the customer holds it. Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(String);

impl SessionToken {
    #[must_use]
    pub fn new(token: impl Into<String>) -> Self {
        Self(token.into())
    }

    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The SHA-256 hex the store keeps in place of the token.
    #[must_use]
    pub fn hash(&self) -> String {
        hex::encode(Sha256::digest(self.0.as_bytes()))
    }
}

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionToken(…)")
    }
}

/// A logged-in customer, as found from a session token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authenticated {
    pub user: UserRecord,
    /// The hash of the session's token (ends the session on logout).
    pub token_hash: String,
}

/// How an email login ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginOutcome {
    /// Logged in: a new session.
    Success { token: SessionToken, user: UserRecord },
    /// The password is right but the account was never confirmed: a code is on its way
    /// (or one sent less than 30 seconds ago is still live).
    NotVerified { user: UserRecord },
}

/// Where a verification or resend finds its customer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Who {
    pub email: Option<String>,
    pub mobile: Option<String>,
}

/// A profile picture already checked and re-encoded by the caller (PNG bytes).
#[derive(Clone, PartialEq, Eq)]
pub struct Avatar(pub Vec<u8>);

impl std::fmt::Debug for Avatar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Avatar({} bytes)", self.0.len())
    }
}

/// Where avatars are served: `/media/avatars/{file}` for the blob `avatars/{file}`.
pub const AVATAR_URL_PREFIX: &str = "/media/avatars/";

/// Whether a code was sent or one sent moments ago is still live.
enum Sent {
    Sent,
    /// Too soon: a new code may be sent in this many seconds.
    TooSoon(u64),
}

/// Most accounts a code or a password is tried against when several only claim one email or
/// mobile (none of them proved it).
const MAX_CLAIMANTS: u32 = 3;

/// Argon2id runs on the blocking pool, at most this many at once (19 MiB and ~20 ms of a core each).
pub const CONCURRENT_HASHES: usize = 2;

/// Password work (argon2id) on the blocking pool, at most [`CONCURRENT_HASHES`] at once, so a
/// flood of sign-ups or logins neither stalls the async workers nor takes all the memory.
#[derive(Debug, Clone)]
pub struct Hashing(Arc<tokio::sync::Semaphore>);

impl Default for Hashing {
    fn default() -> Self {
        Self(Arc::new(tokio::sync::Semaphore::new(CONCURRENT_HASHES)))
    }
}

impl Hashing {
    /// Runs `work` on the blocking pool once one of the permits is free.
    ///
    /// # Errors
    /// [`AccountError::Unavailable`] when the work panicked or the runtime is shutting down.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, AccountError> {
        let _permit = self.0.acquire().await.map_err(|e| AccountError::Unavailable(format!("password work: {e}")))?;
        tokio::task::spawn_blocking(work).await.map_err(|e| AccountError::Unavailable(format!("password work: {e}")))
    }
}

/// The kinds of guesses limited per account.
#[derive(Debug, Clone, Copy)]
enum Guess {
    Password,
    Code,
}

impl Guess {
    const fn key(self) -> &'static str {
        match self {
            Guess::Password => "password-guess",
            Guess::Code => "code-guess",
        }
    }
}

/// Every byte compared, so the time taken does not tell how much of a hash matched.
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// An account a verification or resend names, with the channels of it the request named.
type Named = (UserRecord, Vec<Channel>);

/// Customers and their sessions.
#[derive(Clone)]
pub struct AccountService {
    store: Arc<dyn AccountStore>,
    /// The shared counters of the account rules' limits (per client, per number, per account).
    counter: Arc<dyn RateCounter>,
    notifier: Arc<dyn Notifier>,
    blobs: Arc<dyn BlobStore>,
    clock: Arc<dyn Clock>,
    settings: AccountSettings,
    hashing: Hashing,
}

impl std::fmt::Debug for AccountService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccountService").field("settings", &self.settings).finish_non_exhaustive()
    }
}

pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], AccountError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| AccountError::Unavailable(format!("no randomness: {e}")))?;
    Ok(bytes)
}

/// Six uniformly random digits from the OS's random source.
fn random_code() -> Result<String, AccountError> {
    let mut code = String::with_capacity(OTP_LENGTH);
    while code.len() < OTP_LENGTH {
        let [byte] = random_bytes::<1>()?;
        // 250 is the largest multiple of 10 in a byte: refusing above it keeps digits uniform.
        if byte < 250 {
            code.push(char::from(b'0' + byte % 10));
        }
    }
    Ok(code)
}

fn channel_name(channel: Channel) -> &'static str {
    match channel {
        Channel::Sms => "sms",
        Channel::Email => "email",
    }
}

impl AccountService {
    /// The customer's offer as it runs now (`offerExp` from its end date and the clock).
    #[must_use]
    pub fn offer(&self, user: &UserRecord) -> marque_domain::pricing::Offer {
        user.offer(self.clock.now())
    }

    #[must_use]
    pub fn new(
        store: Arc<dyn AccountStore>,
        counter: Arc<dyn RateCounter>,
        notifier: Arc<dyn Notifier>,
        blobs: Arc<dyn BlobStore>,
        clock: Arc<dyn Clock>,
        settings: AccountSettings,
    ) -> Self {
        Self { store, counter, notifier, blobs, clock, settings, hashing: Hashing::default() }
    }

    /// The HMAC-SHA256 hex of `user id : channel : code` under the server's secret.
    fn code_hash(&self, user: &UserId, channel: Channel, code: &str) -> String {
        // HMAC takes a key of any length.
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.settings.secret.0).unwrap_or_else(|_| unreachable!());
        mac.update(user.0.as_bytes());
        mac.update(b":");
        mac.update(channel_name(channel).as_bytes());
        mac.update(b":");
        mac.update(code.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// Counts one event for `key`; past `limit` in the last `window_secs` the call is refused with
    /// `message` (and not counted).
    async fn limit(&self, key: &str, window_secs: i64, limit: u32, message: Message) -> Result<(), AccountError> {
        let now = self.clock.now();
        crate::throttle::count(self.counter.as_ref(), key, now, Window::new(limit, window_secs)).await?.map_err(
            |wait| {
                tracing::info!(key = key.split(':').next().unwrap_or(""), "rate limit reached");
                AccountError::RateLimited(message, wait)
            },
        )
    }

    /// Counts one login or verification attempt from a client address.
    async fn limit_attempts(&self, what: &str, client: &str) -> Result<(), AccountError> {
        let key = format!("{what}:{client}");
        self.limit(&key, 60, self.settings.attempts_per_minute, Message::TooManyAttempts).await
    }

    fn guess_key(guess: Guess, user: &UserId) -> String {
        format!("{}:{}", guess.key(), user.0)
    }

    /// Counts a guess of an account's password or codes, wherever it comes from; past the
    /// account's limit it is refused (and not counted).
    async fn begin_guess(&self, guess: Guess, user: &UserId) -> Result<(), AccountError> {
        let key = Self::guess_key(guess, user);
        self.limit(
            &key,
            self.settings.account_guess_window_secs,
            self.settings.account_guesses,
            Message::TooManyAttempts,
        )
        .await
    }

    /// A guess that was right is not a guess against the limit: it is taken back.
    async fn right_guess(&self, guess: Guess, user: &UserId) {
        let key = Self::guess_key(guess, user);
        if let Err(e) = self.counter.unhit(&key, self.clock.now(), self.settings.account_guess_window_secs).await {
            tracing::warn!(error = %e, "taking back a right guess failed");
        }
    }

    /// Sends a new code for `channel` (its own code: an SMS code proves the mobile, an email code
    /// the email), unless one was sent less than the resend interval ago; at most
    /// `sends_per_hour` codes per mobile number or email address.
    async fn send_code(&self, user: &UserRecord, channel: Channel) -> Result<Sent, AccountError> {
        let recipient = match channel {
            Channel::Sms => user.mobile.clone(),
            Channel::Email => user.email.clone(),
        };
        if recipient.is_empty() {
            return Ok(Sent::Sent);
        }
        let now = self.clock.now();
        let key = ChallengeKey { user: user.id.clone(), channel };
        if let Some(live) = self.store.challenge(&key, now).await? {
            let allowed_at = live.sent_at + self.settings.resend_after_secs;
            if now < allowed_at {
                return Ok(Sent::TooSoon(u64::try_from(allowed_at - now).unwrap_or(1)));
            }
        }
        let counted = match channel {
            Channel::Sms => format!("otp-send:{recipient}"),
            Channel::Email => format!("otp-send:{}", recipient.to_lowercase()),
        };
        self.limit(&counted, 3600, self.settings.sends_per_hour, Message::OtpTooMany).await?;
        let code = random_code()?;
        let challenge = Challenge {
            code_hash: self.code_hash(&user.id, channel, &code),
            key,
            sent_at: now,
            expires_at: now + self.settings.otp_valid_secs,
            tries_left: self.settings.otp_tries,
        };
        self.store.put_challenge(&challenge).await?;
        let minutes = self.settings.otp_valid_secs / 60;
        let text = format!(
            "{code} is your {} OTP. It is valid for {minutes} minutes. Do not share it with anyone.",
            self.settings.shop_name
        );
        let notification = Notification {
            channel,
            recipient,
            subject: format!("Your {} OTP", self.settings.shop_name),
            text,
            template: Some("otp".to_owned()),
            attachments: Vec::new(),
        };
        self.notifier.send(&notification).await.map_err(AccountError::NotifyFailed)?;
        Ok(Sent::Sent)
    }

    /// Sends a code by each channel; too soon only when every channel was too soon.
    async fn send_codes(&self, user: &UserRecord, channels: &[Channel]) -> Result<Sent, AccountError> {
        let mut wait = None;
        let mut sent = false;
        for channel in channels {
            match self.send_code(user, *channel).await? {
                Sent::Sent => sent = true,
                Sent::TooSoon(secs) => wait = Some(wait.map_or(secs, |w: u64| w.min(secs))),
            }
        }
        Ok(match wait {
            Some(secs) if !sent => Sent::TooSoon(secs),
            _ => Sent::Sent,
        })
    }

    /// Counts a sign-up against the shop's hourly budget of sign-up messages (two each).
    async fn spend_signup_budget(&self) -> Result<(), AccountError> {
        let sign_ups = (self.settings.signup_messages_per_hour / 2).max(1);
        let spent = self.limit("signup-messages:shop", 3600, sign_ups, Message::TooManyRequests).await;
        if let Err(AccountError::RateLimited(..)) = &spent {
            tracing::error!(
                budget = self.settings.signup_messages_per_hour,
                "the hourly budget of sign-up messages is spent: sign-ups are refused until it frees (MARQUE_SIGNUP_MESSAGES_PER_HOUR)"
            );
        }
        spent
    }

    /// Signs a customer up: stores the account with nothing proven (and its picture), then sends
    /// one code by SMS to the mobile and another by email, each proving its own channel. Only a
    /// proven email or mobile is taken (checked before any costly work); an unproven one is
    /// only claimed by the account that has it, so a new sign-up with it goes ahead.
    ///
    /// # Errors
    /// [`AccountError::Registration`] for fields that do not parse; the duplicate errors;
    /// [`AccountError::RateLimited`] past the shop's hourly sign-up messages;
    /// [`AccountError::NotifyFailed`] (the account is stored: a resend can follow); [`AccountError::Unavailable`].
    pub async fn register(
        &self,
        input: &RegistrationInput,
        avatar: Option<Avatar>,
    ) -> Result<UserRecord, AccountError> {
        let registration = Registration::parse(input).map_err(AccountError::Registration)?;
        if self.store.user_by_email(&registration.email).await?.is_some() {
            return Err(AccountError::DuplicateEmail);
        }
        if self.store.user_by_mobile(registration.mobile.as_str()).await?.is_some() {
            return Err(AccountError::DuplicateMobile);
        }
        self.spend_signup_budget().await?;
        let id = UserId(hex::encode(random_bytes::<12>()?));
        let password = registration.password.expose().to_owned();
        let password_hash = self.hashing.run(move || hash_password(&password)).await??;
        let (profile, blob_key) = match avatar {
            Some(avatar) => {
                let (url, key) = self.avatar_names(&id)?;
                self.blobs.put(&key, avatar.0).await?;
                (url, Some(key))
            }
            None => (String::new(), None),
        };
        let user = UserRecord {
            id,
            name: registration.name.as_str().to_owned(),
            email: registration.email.as_str().to_owned(),
            google_email: None,
            mobile: registration.mobile.as_str().to_owned(),
            password_hash: Some(password_hash),
            profile,
            email_verified: false,
            mobile_verified: false,
            offer_ends_on: None,
            percentage: 0,
            created_at: self.clock.now(),
        };
        if let Err(e) = self.store.create_user(&user).await {
            if let Some(key) = blob_key {
                if let Err(e) = self.blobs.delete(&key).await {
                    tracing::warn!(error = %e, "removing the picture of a refused sign-up failed");
                }
            }
            return Err(e.into());
        }
        tracing::info!(user = %user.id.0, "customer signed up");
        self.send_codes(&user, &[Channel::Sms, Channel::Email]).await?;
        Ok(user)
    }

    /// Mobile login: sends a code by SMS to the account that proved this number.
    ///
    /// # Errors
    /// [`AccountError::Invalid`] for a number that is not 10 digits; [`AccountError::NotFound`]
    /// when no account proved it; [`AccountError::RateLimited`]; [`AccountError::NotifyFailed`];
    /// [`AccountError::Unavailable`].
    pub async fn login_by_mobile(&self, mobile: &str) -> Result<UserRecord, AccountError> {
        let mobile =
            LoginMobile::parse(mobile).map_err(|e: LoginMobileError| AccountError::Invalid(mobile_message(e)))?;
        let user = self
            .store
            .user_by_mobile(mobile.as_str())
            .await?
            .ok_or(AccountError::NotFound(Message::AccountMobileUnknown))?;
        self.send_code(&user, Channel::Sms).await?;
        Ok(user)
    }

    /// Whether `password` is the account's, worked out on the blocking pool.
    async fn password_matches(&self, password: &str, user: Option<&UserRecord>) -> Result<bool, AccountError> {
        let password = password.to_owned();
        let phc = user.and_then(|u| u.password_hash.clone());
        self.hashing
            .run(move || match phc {
                Some(phc) => verify_password(&password, &phc),
                None => {
                    // The same work as for a real account, so the time taken does not tell which
                    // addresses have one.
                    let _ = verify_password(&password, dummy_hash());
                    false
                }
            })
            .await
    }

    /// Email login from the client address `client`. Only a proven email logs in; a password
    /// that is right for an account that only claims the email answers 'not verified' and
    /// sends a code to the email.
    ///
    /// # Errors
    /// [`AccountError::RateLimited`] past the attempts per minute, or past the account's wrong
    /// guesses; [`AccountError::BadCredentials`] for an unknown email or a wrong password (the
    /// same answer for both); [`AccountError::NotifyFailed`]; [`AccountError::Unavailable`].
    pub async fn login_by_email(
        &self,
        email: &str,
        password: &str,
        client: &str,
    ) -> Result<LoginOutcome, AccountError> {
        self.limit_attempts("login", client).await?;
        let Ok(email) = Email::parse(email) else {
            self.password_matches(password, None).await?;
            return Err(AccountError::BadCredentials);
        };
        let candidates = match self.store.user_by_email(&email).await? {
            Some(owner) => vec![owner],
            None => self.store.users_claiming_email(&email, MAX_CLAIMANTS).await?,
        };
        let candidates: Vec<UserRecord> = candidates.into_iter().filter(|u| u.password_hash.is_some()).collect();
        if candidates.is_empty() {
            self.password_matches(password, None).await?;
            return Err(AccountError::BadCredentials);
        }
        for user in candidates {
            self.begin_guess(Guess::Password, &user.id).await?;
            if !self.password_matches(password, Some(&user)).await? {
                continue;
            }
            self.right_guess(Guess::Password, &user.id).await;
            if !user.email_verified {
                self.send_code(&user, Channel::Email).await?;
                return Ok(LoginOutcome::NotVerified { user });
            }
            let token = self.start_session(&user.id).await?;
            return Ok(LoginOutcome::Success { token, user });
        }
        Err(AccountError::BadCredentials)
    }

    /// The accounts a request names, with the channels of each it names: by email, by mobile,
    /// or, when both are given, only accounts that hold both. An account that proved the email
    /// (or mobile) comes first, then those that only claim it.
    async fn named(&self, who: &Who) -> Result<Vec<Named>, AccountError> {
        let email_text = who.email.as_deref().map(str::trim).filter(|e| !e.is_empty());
        let mobile = who.mobile.as_deref().map(sanitize_login_mobile).filter(|m| !m.is_empty());
        if email_text.is_none() && mobile.is_none() {
            return Err(AccountError::Invalid(Message::AccountIdentityMissing));
        }
        let email = match email_text.map(Email::parse) {
            Some(Ok(email)) => Some(email),
            Some(Err(_)) => return Ok(Vec::new()),
            None => None,
        };
        let mut by_email = Vec::new();
        if let Some(email) = &email {
            by_email.extend(self.store.user_by_email(email).await?);
            by_email.extend(self.store.users_claiming_email(email, MAX_CLAIMANTS).await?);
        }
        let mut by_mobile = Vec::new();
        if let Some(mobile) = &mobile {
            by_mobile.extend(self.store.user_by_mobile(mobile).await?);
            by_mobile.extend(self.store.users_claiming_mobile(mobile, MAX_CLAIMANTS).await?);
        }
        let accounts = match (&email, &mobile) {
            (Some(_), Some(_)) => by_email.into_iter().filter(|u| by_mobile.iter().any(|m| m.id == u.id)).collect(),
            (Some(_), None) => by_email,
            _ => by_mobile,
        };
        Ok(accounts
            .into_iter()
            .map(|user| {
                let mut channels = Vec::new();
                if email.as_ref().is_some_and(|e| user.email.eq_ignore_ascii_case(e.as_str())) {
                    channels.push(Channel::Email);
                }
                if mobile.as_deref().is_some_and(|m| user.mobile == m) {
                    channels.push(Channel::Sms);
                }
                (user, channels)
            })
            .collect())
    }

    /// Checks a code for the account the request names (see [`Who`]): the code proves the channel
    /// it was sent to (an SMS code the mobile, an email code the email), takes that email or
    /// mobile from accounts that only claimed it, and starts a session.
    ///
    /// # Errors
    /// [`AccountError::RateLimited`] past the attempts per minute from `client`, or past the
    /// account's wrong guesses; [`AccountError::Invalid`] for a code that is not 6 digits or no
    /// email and mobile; [`AccountError::OtpWrong`]; [`AccountError::OtpExpired`] when no code is
    /// live (also for an unknown account); the duplicate errors when another account proved the
    /// channel meanwhile; [`AccountError::Unavailable`].
    pub async fn verify(&self, who: &Who, otp: &str, client: &str) -> Result<(SessionToken, UserRecord), AccountError> {
        self.limit_attempts("verify", client).await?;
        let otp =
            Otp::parse(otp).map_err(|e: OtpError| AccountError::Invalid(marque_domain::UserFacing::message(&e)))?;
        let now = self.clock.now();
        let mut live = Vec::new();
        for (user, channels) in self.named(who).await? {
            for channel in channels {
                let key = ChallengeKey { user: user.id.clone(), channel };
                if let Some(challenge) = self.store.challenge(&key, now).await? {
                    live.push((user.clone(), challenge));
                }
            }
        }
        if live.is_empty() {
            return Err(AccountError::OtpExpired);
        }
        let mut guessed: Vec<UserId> = Vec::new();
        for (user, _) in &live {
            if !guessed.contains(&user.id) {
                self.begin_guess(Guess::Code, &user.id).await?;
                guessed.push(user.id.clone());
            }
        }
        // Which live code this is, if any: only that one is checked, so a right code spends no
        // try of the other channel's. Otherwise a try of each is spent. The answer is the store's.
        let offered = |user: &UserRecord, key: &ChallengeKey| self.code_hash(&user.id, key.channel, otp.as_str());
        let matching = live.iter().position(|(user, c)| same(&c.code_hash, &offered(user, &c.key)));
        let checks: Vec<&(UserRecord, Challenge)> = match matching {
            Some(i) => live.get(i).into_iter().collect(),
            None => live.iter().collect(),
        };
        let mut outcome = AccountError::OtpExpired;
        for (user, challenge) in checks {
            match self.store.check_challenge(&challenge.key, now, &offered(user, &challenge.key)).await? {
                ChallengeOutcome::Accepted => {
                    for id in &guessed {
                        self.right_guess(Guess::Code, id).await;
                    }
                    let user = self.store.prove(&user.id, challenge.key.channel).await?;
                    let token = self.start_session(&user.id).await?;
                    return Ok((token, user));
                }
                ChallengeOutcome::Wrong { .. } => outcome = AccountError::OtpWrong,
                ChallengeOutcome::NoCode => {}
            }
        }
        Err(outcome)
    }

    /// Sends new codes to the account the request names (see [`Who`]), by each channel named
    /// that is not yet proven, or, when all are proven (a login by code), by each channel named;
    /// at least the resend interval after the last.
    ///
    /// # Errors
    /// [`AccountError::Invalid`] without email and mobile; [`AccountError::NotFound`];
    /// [`AccountError::RateLimited`] too soon or past the codes per hour;
    /// [`AccountError::NotifyFailed`]; [`AccountError::Unavailable`].
    pub async fn resend(&self, who: &Who) -> Result<UserRecord, AccountError> {
        let (user, named) = self
            .named(who)
            .await?
            .into_iter()
            .find(|(_, channels)| !channels.is_empty())
            .ok_or(AccountError::NotFound(Message::AccountUnknown))?;
        let unproven: Vec<Channel> = named.iter().copied().filter(|c| !user.proven(*c)).collect();
        let channels = if unproven.is_empty() { named } else { unproven };
        match self.send_codes(&user, &channels).await? {
            Sent::Sent => Ok(user),
            Sent::TooSoon(wait) => Err(AccountError::RateLimited(Message::OtpTooSoon, wait)),
        }
    }

    /// How long a started external sign-in waits for the visitor's return.
    pub const PENDING_SIGN_IN_SECS: i64 = 600;

    /// Keeps a started external sign-in until the visitor returns (at most ten minutes).
    ///
    /// # Errors
    /// [`AccountError::Unavailable`].
    pub async fn keep_pending_sign_in(&self, pending: &PendingSignIn) -> Result<(), AccountError> {
        let expires_at = self.clock.now() + Self::PENDING_SIGN_IN_SECS;
        Ok(self.store.put_pending_sign_in(pending, expires_at).await?)
    }

    /// Takes the started sign-in with this state, once; `None` when unknown, used or expired.
    ///
    /// # Errors
    /// [`AccountError::Unavailable`].
    pub async fn take_pending_sign_in(&self, state: &str) -> Result<Option<PendingSignIn>, AccountError> {
        Ok(self.store.take_pending_sign_in(state, self.clock.now()).await?)
    }

    /// Signs in someone an identity provider vouched for: the account linked to this identity
    /// (issuer and subject), else the account that proved this email (which is then linked), else
    /// a new account without password or mobile whose email is proven by the provider (taken
    /// from accounts that only claimed it). Never an account that only claims the email. Starts a session.
    ///
    /// # Errors
    /// [`AccountError::Invalid`] for an identity whose email does not parse; the duplicate
    /// errors when another account proved the email meanwhile; [`AccountError::Unavailable`].
    pub async fn sign_in_external(
        &self,
        identity: &ExternalIdentity,
    ) -> Result<(SessionToken, UserRecord), AccountError> {
        let user = self.external_account(identity).await?;
        let token = self.start_session(&user.id).await?;
        Ok((token, user))
    }

    /// The account [`AccountService::sign_in_external`] signs in, without a session.
    async fn external_account(&self, identity: &ExternalIdentity) -> Result<UserRecord, AccountError> {
        let email = Email::parse(identity.email.trim())
            .map_err(|e| AccountError::Invalid(marque_domain::UserFacing::message(&e)))?;
        let email_text = email.as_str().to_owned();
        let user = match self.store.user_by_external(&identity.issuer, &identity.subject).await? {
            Some(user) => user,
            None => {
                let user = match self.store.user_by_email(&email).await? {
                    Some(mut user) => {
                        if user.google_email.is_none() {
                            user.google_email = Some(email_text.clone());
                            self.store.update_user(&user).await?;
                        }
                        user
                    }
                    None => self.create_external(identity, &email_text).await?,
                };
                self.store.link_external(&identity.issuer, &identity.subject, &user.id).await?;
                user
            }
        };
        Ok(user)
    }

    /// A new account for an external identity, its email proven by the provider.
    async fn create_external(&self, identity: &ExternalIdentity, email: &str) -> Result<UserRecord, AccountError> {
        let name = PersonName::parse(identity.name.trim())
            .map(|n| n.as_str().to_owned())
            .unwrap_or_else(|_| email.split('@').next().unwrap_or_default().to_owned());
        let user = UserRecord {
            id: UserId(hex::encode(random_bytes::<12>()?)),
            name,
            email: email.to_owned(),
            google_email: Some(email.to_owned()),
            mobile: String::new(),
            password_hash: None,
            profile: String::new(),
            email_verified: false,
            mobile_verified: false,
            offer_ends_on: None,
            percentage: 0,
            created_at: self.clock.now(),
        };
        self.store.create_user(&user).await?;
        let user = self.store.prove(&user.id, Channel::Email).await?;
        tracing::info!(user = %user.id.0, "customer signed up with an external identity");
        Ok(user)
    }

    /// Housekeeping: deletes ended and expired sessions, sign-ins never finished, spent codes,
    /// and accounts that proved nothing within their day (with their pictures).
    ///
    /// # Errors
    /// [`AccountError::Unavailable`].
    pub async fn sweep(&self) -> Result<Swept, AccountError> {
        let now = self.clock.now();
        let swept = self.store.sweep(now, now - self.settings.unverified_account_secs).await?;
        for user in &swept.accounts {
            if let Some(file) = user.profile.strip_prefix(AVATAR_URL_PREFIX) {
                if let Err(e) = self.blobs.delete(&format!("avatars/{file}")).await {
                    tracing::warn!(error = %e, "removing the picture of a swept account failed");
                }
            }
        }
        Ok(swept)
    }

    async fn start_session(&self, user: &UserId) -> Result<SessionToken, AccountError> {
        let token = SessionToken(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes::<32>()?));
        let session = NewSession {
            token_hash: token.hash(),
            user: user.clone(),
            expires_at: self.clock.now() + self.settings.session_secs,
        };
        self.store.create_session(&session).await?;
        Ok(token)
    }

    /// The customer a session token belongs to.
    ///
    /// # Errors
    /// [`AccountError::Unauthorized`] for an unknown, expired or ended session (or a customer
    /// no longer stored); [`AccountError::Unavailable`].
    pub async fn authenticate(&self, token: &str) -> Result<Authenticated, AccountError> {
        if token.is_empty() || token.len() > 200 {
            return Err(AccountError::Unauthorized);
        }
        let token_hash = SessionToken(token.to_owned()).hash();
        let id = self.store.session_user(&token_hash, self.clock.now()).await?.ok_or(AccountError::Unauthorized)?;
        let user = self.store.user(&id).await?.ok_or(AccountError::Unauthorized)?;
        Ok(Authenticated { user, token_hash })
    }

    /// Ends the session with this token hash.
    ///
    /// # Errors
    /// [`AccountError::Unavailable`].
    pub async fn logout(&self, token_hash: &str) -> Result<(), AccountError> {
        Ok(self.store.end_session(token_hash).await?)
    }

    /// Keeps the language the customer chose on the storefront, the language of the notices they
    /// are sent.
    ///
    /// # Errors
    /// [`AccountError::NotFound`] when no customer has this id; [`AccountError::Unavailable`] when the
    /// store cannot be reached.
    pub async fn set_language(
        &self,
        id: &UserId,
        language: marque_domain::order::Language,
    ) -> Result<(), AccountError> {
        if self.store.set_language(id, language).await? {
            Ok(())
        } else {
            Err(AccountError::NotFound(Message::AccountUnknown))
        }
    }

    /// Changes the name and/or the picture of a customer.
    ///
    /// # Errors
    /// [`AccountError::Invalid`] for a blank name; [`AccountError::NotFound`] for an unknown
    /// customer; [`AccountError::Unavailable`].
    pub async fn update_profile(
        &self,
        id: &UserId,
        name: Option<&str>,
        avatar: Option<Avatar>,
    ) -> Result<UserRecord, AccountError> {
        let name = name
            .map(|n| PersonName::parse(n).map_err(|e| AccountError::Invalid(marque_domain::UserFacing::message(&e))))
            .transpose()?;
        let mut user = self.store.user(id).await?.ok_or(AccountError::NotFound(Message::AccountUnknown))?;
        if let Some(name) = name {
            user.name = name.as_str().to_owned();
        }
        let old_profile = user.profile.clone();
        let mut new_key = None;
        if let Some(avatar) = avatar {
            let (url, key) = self.avatar_names(id)?;
            self.blobs.put(&key, avatar.0).await?;
            user.profile = url;
            new_key = Some(key);
        }
        if let Err(e) = self.store.update_user(&user).await {
            if let Some(key) = new_key {
                let _ = self.blobs.delete(&key).await;
            }
            return Err(e.into());
        }
        if new_key.is_some() {
            if let Some(old) = old_profile.strip_prefix(AVATAR_URL_PREFIX) {
                if let Err(e) = self.blobs.delete(&format!("avatars/{old}")).await {
                    tracing::warn!(error = %e, "removing a replaced picture failed");
                }
            }
        }
        Ok(user)
    }

    /// The address and blob key of a new picture: `avatars/{userId}-{random}.png`.
    fn avatar_names(&self, id: &UserId) -> Result<(String, String), AccountError> {
        let file = format!("{}-{}.png", id.0, hex::encode(random_bytes::<8>()?));
        Ok((format!("{AVATAR_URL_PREFIX}{file}"), format!("avatars/{file}")))
    }

    /// A stored picture by its file name (`{userId}-{random}.png`), for serving.
    ///
    /// # Errors
    /// [`AccountError::Unavailable`] when the blob store fails.
    pub async fn avatar(&self, file: &str) -> Result<Option<Vec<u8>>, AccountError> {
        match self.blobs.get(&format!("avatars/{file}")).await {
            Ok(bytes) => Ok(bytes),
            Err(BlobStoreError::InvalidKey { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}

fn mobile_message(e: LoginMobileError) -> Message {
    marque_domain::UserFacing::message(&e)
}

/// argon2id with OWASP's minimum parameters (`Params::DEFAULT`: 19 MiB, t = 2, p = 1), as a PHC string.
pub(crate) fn hash_password(password: &str) -> Result<String, AccountError> {
    let salt = SaltString::encode_b64(&random_bytes::<16>()?)
        .map_err(|e| AccountError::Unavailable(format!("password salt: {e}")))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AccountError::Unavailable(format!("password hashing: {e}")))
}

/// A hash of a password nobody has, made once, to verify against for unknown accounts.
pub(crate) fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password("no account has this password 1!").unwrap_or_default())
}

pub(crate) fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|hash| Argon2::default().verify_password(password.as_bytes(), &hash).is_ok())
}

pub mod sign_in;

#[cfg(test)]
mod tests;
