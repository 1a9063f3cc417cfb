//! The account use cases against mocks (stores failing, notifier down) and a small in-memory
//! store where a sequence of calls matters.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use marque_domain::paging::ListWindow;
use marque_domain::rate::WindowHits;
use marque_ports::{
    AuditEntry, CustomerOffer, MockAccountStore, MockBlobStore, MockNotifier, MockRateCounter, SystemClock, UsersPage,
};

use super::*;

const NOW: i64 = 1_800_000_000;

struct FixedClock(Mutex<i64>);

impl Clock for FixedClock {
    fn now(&self) -> i64 {
        *self.0.lock().expect("clock")
    }
}

/// A plain in-memory account store, enough for sequences of use cases.
#[derive(Default)]
struct MemStore {
    users: Mutex<Vec<UserRecord>>,
    sessions: Mutex<HashMap<String, (UserId, i64, bool)>>,
    challenges: Mutex<HashMap<ChallengeKey, (Challenge, bool)>>,
    hits: Mutex<HashMap<(String, i64), u32>>,
    pending: Mutex<HashMap<String, (marque_ports::PendingSignIn, i64)>>,
    external: Mutex<HashMap<(String, String), UserId>>,
    codes: Mutex<HashMap<String, marque_ports::SignInCode>>,
    languages: Mutex<HashMap<String, marque_domain::order::Language>>,
}

fn holds(user: &UserRecord, channel: Channel, value: &str) -> bool {
    match channel {
        Channel::Email => !value.is_empty() && user.email.eq_ignore_ascii_case(value),
        Channel::Sms => !value.is_empty() && user.mobile == value,
    }
}

impl MemStore {
    fn proven_owner(&self, channel: Channel, value: &str) -> Option<UserRecord> {
        self.users.lock().expect("lock").iter().find(|u| u.proven(channel) && holds(u, channel, value)).cloned()
    }
    fn claimants(&self, channel: Channel, value: &str, limit: u32) -> Vec<UserRecord> {
        let users = self.users.lock().expect("lock");
        let limit = usize::try_from(limit).unwrap_or(0);
        users.iter().filter(|u| !u.proven(channel) && holds(u, channel, value)).take(limit).cloned().collect()
    }
}

#[async_trait]
impl AccountStore for MemStore {
    async fn create_user(&self, user: &UserRecord) -> Result<(), AccountStoreError> {
        if user.email_verified && self.proven_owner(Channel::Email, &user.email).is_some() {
            return Err(AccountStoreError::DuplicateEmail);
        }
        if user.mobile_verified && self.proven_owner(Channel::Sms, &user.mobile).is_some() {
            return Err(AccountStoreError::DuplicateMobile);
        }
        self.users.lock().expect("lock").push(user.clone());
        Ok(())
    }
    async fn user(&self, id: &UserId) -> Result<Option<UserRecord>, AccountStoreError> {
        Ok(self.users.lock().expect("lock").iter().find(|u| u.id == *id).cloned())
    }
    async fn set_language(
        &self,
        user: &UserId,
        language: marque_domain::order::Language,
    ) -> Result<bool, AccountStoreError> {
        let known = self.users.lock().expect("lock").iter().any(|u| u.id == *user);
        if known {
            self.languages.lock().expect("lock").insert(user.0.clone(), language);
        }
        Ok(known)
    }
    async fn user_by_email(&self, email: &Email) -> Result<Option<UserRecord>, AccountStoreError> {
        Ok(self.proven_owner(Channel::Email, email.as_str()))
    }
    async fn user_by_mobile(&self, mobile: &str) -> Result<Option<UserRecord>, AccountStoreError> {
        Ok(self.proven_owner(Channel::Sms, mobile))
    }
    async fn user_by_google_email(&self, email: &str) -> Result<Option<UserRecord>, AccountStoreError> {
        Ok(self.users.lock().expect("lock").iter().find(|u| u.google_email.as_deref() == Some(email)).cloned())
    }
    async fn users_claiming_email(&self, email: &Email, limit: u32) -> Result<Vec<UserRecord>, AccountStoreError> {
        Ok(self.claimants(Channel::Email, email.as_str(), limit))
    }
    async fn users_claiming_mobile(&self, mobile: &str, limit: u32) -> Result<Vec<UserRecord>, AccountStoreError> {
        Ok(self.claimants(Channel::Sms, mobile, limit))
    }
    async fn update_user(&self, user: &UserRecord) -> Result<(), AccountStoreError> {
        let mut users = self.users.lock().expect("lock");
        let slot = users
            .iter_mut()
            .find(|u| u.id == user.id)
            .ok_or(AccountStoreError::Invalid { reason: "no such".into() })?;
        slot.name.clone_from(&user.name);
        slot.profile.clone_from(&user.profile);
        slot.google_email.clone_from(&user.google_email);
        slot.password_hash.clone_from(&user.password_hash);
        Ok(())
    }
    async fn search_users(&self, text: &str, window: ListWindow) -> Result<UsersPage, AccountStoreError> {
        let users = self.users.lock().expect("lock");
        let found: Vec<UserRecord> =
            users.iter().filter(|u| !text.is_empty() && u.name.contains(text)).cloned().collect();
        Ok(UsersPage { total: found.len() as u64, users: window.of(found) })
    }
    async fn set_offer(
        &self,
        user: &UserId,
        offer: Option<CustomerOffer>,
        _audit: &AuditEntry,
    ) -> Result<(), AccountStoreError> {
        let mut users = self.users.lock().expect("lock");
        let slot =
            users.iter_mut().find(|u| u.id == *user).ok_or(AccountStoreError::Invalid { reason: "no such".into() })?;
        slot.percentage = offer.map_or(0, |o| o.percentage.get());
        slot.offer_ends_on = offer.map(|o| o.ends_on);
        Ok(())
    }
    async fn prove(&self, id: &UserId, channel: Channel) -> Result<UserRecord, AccountStoreError> {
        let mut users = self.users.lock().expect("lock");
        let me = users
            .iter()
            .find(|u| u.id == *id)
            .cloned()
            .ok_or(AccountStoreError::Invalid { reason: "no such".into() })?;
        let value = match channel {
            Channel::Email => me.email.clone(),
            Channel::Sms => me.mobile.clone(),
        };
        if value.is_empty() {
            return Err(AccountStoreError::Invalid { reason: "no such channel".into() });
        }
        if me.proven(channel) {
            return Ok(me);
        }
        if users.iter().any(|u| u.id != *id && u.proven(channel) && holds(u, channel, &value)) {
            return Err(match channel {
                Channel::Email => AccountStoreError::DuplicateEmail,
                Channel::Sms => AccountStoreError::DuplicateMobile,
            });
        }
        for u in users.iter_mut() {
            if u.id == *id {
                match channel {
                    Channel::Email => u.email_verified = true,
                    Channel::Sms => u.mobile_verified = true,
                }
            } else if holds(u, channel, &value) {
                match channel {
                    Channel::Email => u.email.clear(),
                    Channel::Sms => u.mobile.clear(),
                }
            }
        }
        Ok(users.iter().find(|u| u.id == *id).cloned().unwrap_or(me))
    }
    async fn user_by_external(&self, issuer: &str, subject: &str) -> Result<Option<UserRecord>, AccountStoreError> {
        let id = self.external.lock().expect("lock").get(&(issuer.to_owned(), subject.to_owned())).cloned();
        Ok(match id {
            Some(id) => self.users.lock().expect("lock").iter().find(|u| u.id == id).cloned(),
            None => None,
        })
    }
    async fn link_external(&self, issuer: &str, subject: &str, user: &UserId) -> Result<(), AccountStoreError> {
        self.external
            .lock()
            .expect("lock")
            .entry((issuer.to_owned(), subject.to_owned()))
            .or_insert_with(|| user.clone());
        Ok(())
    }
    async fn create_session(&self, s: &NewSession) -> Result<(), AccountStoreError> {
        self.sessions.lock().expect("lock").insert(s.token_hash.clone(), (s.user.clone(), s.expires_at, false));
        Ok(())
    }
    async fn session_user(&self, hash: &str, now: i64) -> Result<Option<UserId>, AccountStoreError> {
        Ok(self
            .sessions
            .lock()
            .expect("lock")
            .get(hash)
            .filter(|(_, exp, ended)| !ended && *exp > now)
            .map(|s| s.0.clone()))
    }
    async fn end_session(&self, hash: &str) -> Result<(), AccountStoreError> {
        if let Some(s) = self.sessions.lock().expect("lock").get_mut(hash) {
            s.2 = true;
        }
        Ok(())
    }
    async fn put_challenge(&self, c: &Challenge) -> Result<(), AccountStoreError> {
        self.challenges.lock().expect("lock").insert(c.key.clone(), (c.clone(), false));
        Ok(())
    }
    async fn challenge(&self, key: &ChallengeKey, now: i64) -> Result<Option<Challenge>, AccountStoreError> {
        Ok(self
            .challenges
            .lock()
            .expect("lock")
            .get(key)
            .filter(|(c, used)| !used && c.tries_left > 0 && c.expires_at > now)
            .map(|(c, _)| c.clone()))
    }
    async fn check_challenge(
        &self,
        key: &ChallengeKey,
        now: i64,
        hash: &str,
    ) -> Result<ChallengeOutcome, AccountStoreError> {
        let mut all = self.challenges.lock().expect("lock");
        let Some((c, used)) = all.get_mut(key) else { return Ok(ChallengeOutcome::NoCode) };
        if *used || c.tries_left == 0 || c.expires_at <= now {
            return Ok(ChallengeOutcome::NoCode);
        }
        c.tries_left -= 1;
        if c.code_hash == hash {
            *used = true;
            return Ok(ChallengeOutcome::Accepted);
        }
        Ok(ChallengeOutcome::Wrong { tries_left: c.tries_left })
    }
    async fn sweep(&self, now: i64, unverified_before: i64) -> Result<Swept, AccountStoreError> {
        let mut sessions = self.sessions.lock().expect("lock");
        let before = sessions.len();
        sessions.retain(|_, (_, exp, ended)| !*ended && *exp > now);
        let mut pending = self.pending.lock().expect("lock");
        let pending_before = pending.len();
        pending.retain(|_, (_, exp)| *exp > now);
        let mut users = self.users.lock().expect("lock");
        let (gone, kept): (Vec<UserRecord>, Vec<UserRecord>) =
            users.drain(..).partition(|u| !u.verified() && u.created_at < unverified_before);
        *users = kept;
        Ok(Swept {
            sessions: u64::try_from(before - sessions.len()).unwrap_or(0),
            pending_sign_ins: u64::try_from(pending_before - pending.len()).unwrap_or(0),
            accounts: gone,
        })
    }
    async fn put_pending_sign_in(
        &self,
        p: &marque_ports::PendingSignIn,
        expires_at: i64,
    ) -> Result<(), AccountStoreError> {
        self.pending.lock().expect("lock").insert(p.state.clone(), (p.clone(), expires_at));
        Ok(())
    }
    async fn take_pending_sign_in(
        &self,
        state: &str,
        now: i64,
    ) -> Result<Option<marque_ports::PendingSignIn>, AccountStoreError> {
        Ok(self.pending.lock().expect("lock").remove(state).filter(|(_, exp)| *exp > now).map(|(p, _)| p))
    }
    async fn put_sign_in_code(&self, code: &marque_ports::SignInCode) -> Result<(), AccountStoreError> {
        self.codes.lock().expect("lock").insert(code.code_hash.clone(), code.clone());
        Ok(())
    }
    async fn take_sign_in_code(
        &self,
        hash: &str,
        now: i64,
    ) -> Result<Option<marque_ports::SignInCode>, AccountStoreError> {
        Ok(self.codes.lock().expect("lock").remove(hash).filter(|c| c.expires_at > now))
    }
    async fn erase_user(&self, id: &UserId) -> Result<(), AccountStoreError> {
        self.users.lock().expect("lock").retain(|u| u.id != *id);
        self.sessions.lock().expect("lock").retain(|_, (user, _, _)| user != id);
        self.challenges.lock().expect("lock").retain(|key, _| key.user != *id);
        self.codes.lock().expect("lock").retain(|_, c| c.user != *id);
        Ok(())
    }
}

/// The store's counters, as the rate counter port describes them.
#[async_trait]
impl RateCounter for MemStore {
    async fn hit(&self, key: &str, now: i64, window: i64) -> Result<WindowHits, RateCounterError> {
        let mut hits = self.hits.lock().expect("lock");
        let at = now.div_euclid(window);
        let previous = hits.get(&(key.to_owned(), at - 1)).copied().unwrap_or(0);
        let n = hits.entry((key.to_owned(), at)).or_insert(0);
        *n += 1;
        Ok(WindowHits { current: *n, previous })
    }
    async fn unhit(&self, key: &str, now: i64, window: i64) -> Result<(), RateCounterError> {
        if let Some(n) = self.hits.lock().expect("lock").get_mut(&(key.to_owned(), now.div_euclid(window))) {
            *n = n.saturating_sub(1);
        }
        Ok(())
    }
}

/// A notifier that keeps what it sent.
#[derive(Default)]
struct Sent(Mutex<Vec<Notification>>);

#[async_trait]
impl Notifier for Sent {
    async fn send(&self, n: &Notification) -> Result<(), NotifyError> {
        self.0.lock().expect("lock").push(n.clone());
        Ok(())
    }
}

impl Sent {
    fn last_code(&self) -> String {
        let sent = self.0.lock().expect("lock");
        sent.last().expect("a message").text.chars().take(6).collect()
    }
    fn count(&self) -> usize {
        self.0.lock().expect("lock").len()
    }
    /// The newest code sent to this recipient.
    fn code_to(&self, recipient: &str) -> String {
        let sent = self.0.lock().expect("lock");
        sent.iter().rev().find(|n| n.recipient == recipient).expect("a message").text.chars().take(6).collect()
    }
}

struct World {
    service: AccountService,
    store: Arc<MemStore>,
    sent: Arc<Sent>,
    clock: Arc<FixedClock>,
}

impl World {
    fn advance(&self, secs: i64) {
        *self.clock.0.lock().expect("clock") += secs;
    }
}

fn blobs_ok() -> MockBlobStore {
    let mut blobs = MockBlobStore::new();
    blobs.expect_put().returning(|_, _| Ok(()));
    blobs.expect_delete().returning(|_| Ok(()));
    blobs
}

fn world() -> World {
    let store = Arc::new(MemStore::default());
    let sent = Arc::new(Sent::default());
    let clock = Arc::new(FixedClock(Mutex::new(NOW)));
    let service = AccountService::new(
        store.clone(),
        store.clone(),
        sent.clone(),
        Arc::new(blobs_ok()),
        clock.clone(),
        AccountSettings::new(OtpSecret::new(b"test secret".to_vec())),
    );
    World { service, store, sent, clock }
}

fn input() -> RegistrationInput {
    RegistrationInput {
        name: "Asha".into(),
        email: "Asha@Example.in".into(),
        password: "abcdef1!".into(),
        mobile: "9876543210".into(),
    }
}

fn by_mobile() -> Who {
    Who { email: None, mobile: Some("9876543210".into()) }
}

#[tokio::test]
async fn sign_up_stores_an_unverified_account_and_sends_the_code_by_sms_and_email() {
    let w = world();
    let user = w.service.register(&input(), None).await.expect("register");
    assert!(!user.verified() && !user.email_verified && !user.mobile_verified);
    assert_eq!(user.email, "asha@example.in");
    let hash = user.password_hash.clone().expect("a password hash");
    assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
    let sent = w.sent.0.lock().expect("lock").clone();
    let channels: Vec<(Channel, &str)> = sent.iter().map(|n| (n.channel, n.recipient.as_str())).collect();
    assert_eq!(channels, vec![(Channel::Sms, "9876543210"), (Channel::Email, "asha@example.in")]);
    let code: String = sent[0].text.chars().take(6).collect();
    assert!(code.chars().all(|c| c.is_ascii_digit()), "{}", sent[0].text);
    let stored = w
        .store
        .challenge(&ChallengeKey { user: user.id.clone(), channel: Channel::Sms }, NOW)
        .await
        .expect("read")
        .expect("live");
    assert!(!stored.code_hash.contains(&code), "the code is stored hashed");
    assert_eq!(stored.code_hash.len(), 64);
    assert_eq!((stored.expires_at, stored.tries_left), (NOW + 600, 5));
    let by_email = w
        .store
        .challenge(&ChallengeKey { user: user.id.clone(), channel: Channel::Email }, NOW)
        .await
        .expect("read")
        .expect("live");
    assert_ne!(by_email.code_hash, stored.code_hash, "each channel has its own code");
}

#[tokio::test]
async fn the_code_confirms_the_account_and_opens_a_session() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    let code = w.sent.code_to("9876543210");
    let (token, user) = w.service.verify(&by_mobile(), &code, "ip").await.expect("verify");
    assert!(user.mobile_verified && !user.email_verified, "the SMS code proves the mobile only");
    assert_eq!(token.expose().len(), 43, "32 random bytes, URL-safe base64");
    assert!(!format!("{token:?}").contains(token.expose()), "tokens stay out of Debug");
    let me = w.service.authenticate(token.expose()).await.expect("authenticated");
    assert_eq!(me.user.id, user.id);
    assert_eq!(w.service.verify(&by_mobile(), &code, "ip").await.map(drop), Err(AccountError::OtpExpired), "used up");
    w.service.logout(&me.token_hash).await.expect("logout");
    assert_eq!(w.service.authenticate(token.expose()).await.map(drop), Err(AccountError::Unauthorized));
}

#[tokio::test]
async fn sessions_end_after_thirty_days() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    let (token, _) = w.service.verify(&by_mobile(), &w.sent.code_to("9876543210"), "ip").await.expect("verify");
    w.advance(30 * 24 * 3600 - 1);
    assert!(w.service.authenticate(token.expose()).await.is_ok());
    w.advance(1);
    assert_eq!(w.service.authenticate(token.expose()).await.map(drop), Err(AccountError::Unauthorized));
}

#[tokio::test]
async fn wrong_codes_and_expiry() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    let code = w.sent.code_to("9876543210");
    let wrong = if code == "000000" { "111111" } else { "000000" };
    assert_eq!(w.service.verify(&by_mobile(), wrong, "ip").await.map(drop), Err(AccountError::OtpWrong));
    assert_eq!(
        w.service.verify(&by_mobile(), "12", "ip").await.map(drop),
        Err(AccountError::Invalid(Message::OtpInvalid))
    );
    w.advance(600);
    assert_eq!(
        w.service.verify(&by_mobile(), &code, "ip").await.map(drop),
        Err(AccountError::OtpExpired),
        "10 minutes"
    );
    let nobody = Who { email: Some("nobody@example.in".into()), mobile: None };
    assert_eq!(w.service.verify(&nobody, &code, "ip").await.map(drop), Err(AccountError::OtpExpired));
    assert_eq!(
        w.service.verify(&Who::default(), &code, "ip").await.map(drop),
        Err(AccountError::Invalid(Message::AccountIdentityMissing))
    );
}

#[tokio::test]
async fn email_login_of_an_unverified_account_sends_a_code_then_logs_in_once_verified() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    w.advance(31);
    let outcome = w.service.login_by_email("asha@example.in", "abcdef1!", "ip").await.expect("login");
    assert!(matches!(outcome, LoginOutcome::NotVerified { .. }));
    assert_eq!(w.sent.count(), 3, "a new code by email");
    assert_eq!(w.sent.0.lock().expect("lock").last().map(|n| n.channel), Some(Channel::Email));
    let email = Who { email: Some("ASHA@example.in".into()), mobile: None };
    let sms_code = w.sent.code_to("9876543210");
    assert_eq!(
        w.service.verify(&email, &sms_code, "ip").await.map(drop),
        Err(AccountError::OtpWrong),
        "the SMS code does not prove the email"
    );
    w.service.verify(&email, &w.sent.last_code(), "ip").await.expect("verify");
    let outcome = w.service.login_by_email("asha@example.in", "abcdef1!", "ip").await.expect("login");
    assert!(matches!(outcome, LoginOutcome::Success { .. }));
    assert_eq!(w.service.login_by_email("asha@example.in", "wrong1!x", "ip").await, Err(AccountError::BadCredentials));
    assert_eq!(w.service.login_by_email("ravi@example.in", "abcdef1!", "ip").await, Err(AccountError::BadCredentials));
}

#[tokio::test]
async fn resend_waits_thirty_seconds_and_stops_at_five_an_hour() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    assert_eq!(w.service.resend(&by_mobile()).await.map(drop), Err(AccountError::RateLimited(Message::OtpTooSoon, 30)));
    for _ in 0..4 {
        w.advance(30);
        w.service.resend(&by_mobile()).await.expect("resend after 30 s");
    }
    w.advance(30);
    let Err(AccountError::RateLimited(Message::OtpTooMany, wait)) = w.service.resend(&by_mobile()).await.map(drop)
    else {
        panic!("a sixth code within the hour");
    };
    // NOW starts an hour; five kept by 150 s in (the refused sixth is not counted). The estimate spreads them
    // over the hour, so one more is allowed once they weigh four: 5 × (3600 − e) ≤ 14,400, 720 s into the next hour.
    assert_eq!(NOW.rem_euclid(3600), 0);
    assert_eq!(wait, 3600 - 150 + 720);
    let nobody = Who { email: None, mobile: Some("9000000000".into()) };
    assert_eq!(w.service.resend(&nobody).await.map(drop), Err(AccountError::NotFound(Message::AccountUnknown)));
}

#[tokio::test]
async fn login_attempts_from_one_address_are_limited_per_minute() {
    let w = world();
    for _ in 0..10 {
        assert_eq!(
            w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
            Err(AccountError::BadCredentials)
        );
    }
    // Ten kept (the refused eleventh is not counted): one more is allowed when they weigh nine,
    // 10 × (60 − e) ≤ 540, 6 s into the next minute; refusals in between do not move it.
    for _ in 0..3 {
        assert_eq!(
            w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
            Err(AccountError::RateLimited(
                Message::TooManyAttempts,
                u64::try_from(66 - NOW.rem_euclid(60)).expect("positive")
            ))
        );
    }
    assert_eq!(
        w.service.login_by_email("x@example.in", "abcdef1!", "198.51.100.1").await,
        Err(AccountError::BadCredentials)
    );
}

#[tokio::test]
async fn login_attempts_across_a_minute_boundary_are_counted_together() {
    let w = world();
    w.advance(60 - NOW.rem_euclid(60) - 3);
    for _ in 0..5 {
        assert_eq!(
            w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
            Err(AccountError::BadCredentials)
        );
    }
    w.advance(5);
    for _ in 0..5 {
        assert_eq!(
            w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
            Err(AccountError::BadCredentials)
        );
    }
    assert_eq!(
        w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
        // Five before the minute, five kept in it: one more once the five before weigh four, 5 × (60 − e) ≤ 240,
        // at 12 s in.
        Err(AccountError::RateLimited(Message::TooManyAttempts, 10)),
        "ten in five seconds, split by the start of a minute"
    );
    w.advance(60);
    assert_eq!(
        w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
        Err(AccountError::BadCredentials),
        "a minute later"
    );
}

#[tokio::test]
async fn mobile_login_sends_a_code_by_sms_to_proven_numbers_only() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    assert_eq!(
        w.service.login_by_mobile("9876543210").await.map(drop),
        Err(AccountError::NotFound(Message::AccountMobileUnknown)),
        "an unproven mobile logs nobody in"
    );
    w.service.verify(&by_mobile(), &w.sent.code_to("9876543210"), "ip").await.expect("verify");
    w.advance(31);
    w.service.login_by_mobile("9876543210").await.expect("login");
    assert_eq!(w.sent.0.lock().expect("lock").last().map(|n| n.channel), Some(Channel::Sms));
    assert_eq!(w.sent.count(), 3);
    assert_eq!(
        w.service.login_by_mobile("9000000000").await.map(drop),
        Err(AccountError::NotFound(Message::AccountMobileUnknown))
    );
    assert_eq!(w.service.login_by_mobile("98").await.map(drop), Err(AccountError::Invalid(Message::MobileTooShort)));
}

#[tokio::test]
async fn proven_duplicates_and_bad_fields_are_refused() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    let again = RegistrationInput { mobile: "9123456780".into(), ..input() };
    w.service.register(&again, None).await.expect("an unproven email is not a claim: no 409");
    let email = Who { email: Some("asha@example.in".into()), mobile: Some("9876543210".into()) };
    w.service.verify(&email, &w.sent.code_to("9876543210"), "ip").await.expect("the mobile proven");
    w.service
        .verify(&email, &w.sent.code_to("asha@example.in"), "ip")
        .await
        .map(drop)
        .expect_err("the newest email code is the second sign-up's");
    let third = RegistrationInput { email: "ravi@example.in".into(), ..input() };
    assert_eq!(
        w.service.register(&third, None).await.map(drop),
        Err(AccountError::DuplicateMobile),
        "a proven mobile is taken"
    );
    let bad = RegistrationInput { password: "short".into(), ..input() };
    let Err(AccountError::Registration(errors)) = w.service.register(&bad, None).await else { panic!("refused") };
    assert_eq!(errors.get(marque_domain::account::RegistrationField::Password), Some(Message::PasswordRule));
}

#[tokio::test]
async fn a_refused_sign_up_leaves_no_picture() {
    let mut store = MockAccountStore::new();
    store.expect_user_by_email().returning(|_| Ok(None));
    store.expect_user_by_mobile().returning(|_| Ok(None));
    let mut counter = MockRateCounter::new();
    counter.expect_hit().returning(|_, _, _| Ok(WindowHits { current: 1, previous: 0 }));
    store.expect_create_user().returning(|_| Err(AccountStoreError::DuplicateMobile));
    let mut blobs = MockBlobStore::new();
    blobs
        .expect_put()
        .withf(|key, _| key.starts_with("avatars/") && key.ends_with(".png"))
        .times(1)
        .returning(|_, _| Ok(()));
    blobs.expect_delete().times(1).returning(|_| Ok(()));
    let service = AccountService::new(
        Arc::new(store),
        Arc::new(counter),
        Arc::new(MockNotifier::new()),
        Arc::new(blobs),
        Arc::new(SystemClock),
        AccountSettings::new(OtpSecret::new(b"k".to_vec())),
    );
    let r = service.register(&input(), Some(Avatar(vec![1, 2, 3]))).await;
    assert_eq!(r.map(drop), Err(AccountError::DuplicateMobile));
}

#[tokio::test]
async fn a_store_that_is_down_and_a_notifier_that_is_down_are_reported() {
    let mut store = MockAccountStore::new();
    store.expect_user_by_mobile().returning(|_| Err(AccountStoreError::Unavailable { reason: "down".into() }));
    let mut counter = MockRateCounter::new();
    counter.expect_hit().returning(|_, _, _| Err(RateCounterError::Unavailable { reason: "down".into() }));
    let service = AccountService::new(
        Arc::new(store),
        Arc::new(counter),
        Arc::new(MockNotifier::new()),
        Arc::new(MockBlobStore::new()),
        Arc::new(SystemClock),
        AccountSettings::new(OtpSecret::new(b"k".to_vec())),
    );
    assert!(matches!(service.login_by_mobile("9876543210").await, Err(AccountError::Unavailable(_))));
    assert!(matches!(service.login_by_email("a@example.in", "x", "ip").await, Err(AccountError::Unavailable(_))));

    let store = Arc::new(MemStore::default());
    let mut notifier = MockNotifier::new();
    notifier.expect_send().returning(|_| Err(NotifyError::Unavailable { reason: "gateway down".into() }));
    let service = AccountService::new(
        store.clone(),
        store.clone(),
        Arc::new(notifier),
        Arc::new(MockBlobStore::new()),
        Arc::new(SystemClock),
        AccountSettings::new(OtpSecret::new(b"k".to_vec())),
    );
    assert!(matches!(service.register(&input(), None).await, Err(AccountError::NotifyFailed(_))));
    assert_eq!(
        store.users_claiming_mobile("9876543210", 5).await.expect("read").len(),
        1,
        "the account stays; a resend can follow"
    );
}

#[tokio::test]
async fn profile_updates_change_the_name_and_replace_the_picture() {
    let w = world();
    let user = w.service.register(&input(), None).await.expect("register");
    let updated = w.service.update_profile(&user.id, Some(" Asha Rao "), Some(Avatar(vec![1]))).await.expect("update");
    assert_eq!(updated.name, "Asha Rao");
    assert!(updated.profile.starts_with(&format!("/media/avatars/{}-", user.id.0)), "{}", updated.profile);
    assert_eq!(
        w.service.update_profile(&user.id, Some("  "), None).await.map(drop),
        Err(AccountError::Invalid(Message::NameRequired))
    );
}

#[test]
fn codes_are_six_uniform_digits_and_secrets_stay_out_of_debug() {
    for _ in 0..50 {
        let code = random_code().expect("code");
        assert!(code.len() == 6 && code.chars().all(|c| c.is_ascii_digit()), "{code}");
    }
    let settings = AccountSettings::new(OtpSecret::new(b"very secret".to_vec()));
    assert!(!format!("{settings:?}").contains("very secret"));
}

fn google(email: &str, name: &str) -> ExternalIdentity {
    ExternalIdentity {
        issuer: "https://accounts.google.com".into(),
        subject: format!("g:{}", email.to_lowercase()),
        email: email.into(),
        name: name.into(),
        picture: None,
    }
}

#[tokio::test]
async fn external_sign_in_creates_a_proven_account_once_and_links_only_a_proven_email() {
    let w = world();
    let (token, user) = w.service.sign_in_external(&google("Ravi@Example.in", "Ravi Kumar")).await.expect("signed in");
    assert!(user.email_verified && !user.mobile_verified && user.password_hash.is_none() && user.mobile.is_empty());
    assert_eq!((user.name.as_str(), user.email.as_str()), ("Ravi Kumar", "ravi@example.in"));
    assert_eq!(user.google_email.as_deref(), Some("ravi@example.in"));
    assert_eq!(w.service.authenticate(token.expose()).await.expect("session").user.id, user.id);
    let (_, again) = w.service.sign_in_external(&google("ravi@example.in", "R")).await.expect("again");
    assert_eq!(again.id, user.id, "the same account by its issuer and subject");

    // An account whose email is proven is linked.
    let registered = w.service.register(&input(), None).await.expect("register");
    let who = Who { email: Some("asha@example.in".into()), mobile: Some("9876543210".into()) };
    w.service.verify(&who, &w.sent.code_to("asha@example.in"), "ip").await.expect("the email proven");
    let (_, linked) = w.service.sign_in_external(&google("asha@example.in", "Asha")).await.expect("linked");
    assert_eq!(linked.id, registered.id, "the account that proved the email is the one signed in");
    assert_eq!(linked.google_email.as_deref(), Some("asha@example.in"));
    assert_eq!(w.sent.count(), 2, "no code is sent for an external sign-in");
}

/// The pre-hijack of issue 19: a stranger signs up with the owner's email and their own mobile.
#[tokio::test]
async fn a_stranger_who_only_claims_an_email_never_gets_the_owners_sign_in() {
    let w = world();
    let stranger = RegistrationInput { mobile: "9123456780".into(), password: "stranger1!".into(), ..input() };
    let stranger = w.service.register(&stranger, None).await.expect("the stranger signs up");
    let on_phone = Who { email: Some("asha@example.in".into()), mobile: Some("9123456780".into()) };
    let (_, proved) = w.service.verify(&on_phone, &w.sent.code_to("9123456780"), "ip").await.expect("their own phone");
    assert!(proved.mobile_verified && !proved.email_verified, "the phone's code proves the phone, not the email");
    // The stranger's password does not log in by the email they only claim.
    assert!(matches!(
        w.service.login_by_email("asha@example.in", "stranger1!", "ip").await,
        Ok(LoginOutcome::NotVerified { .. })
    ));
    // The owner signs in with Google: a new account, and the stranger's account loses the email.
    let (_, owner) = w.service.sign_in_external(&google("asha@example.in", "Asha")).await.expect("owner");
    assert_ne!(owner.id, stranger.id, "never linked to an account that only claimed the email");
    let stranger = w.store.user(&stranger.id).await.expect("read").expect("kept");
    assert_eq!(stranger.email, "", "the claim is gone");
    assert_eq!(
        w.service.login_by_email("asha@example.in", "stranger1!", "ip").await,
        Err(AccountError::BadCredentials)
    );
}

#[tokio::test]
async fn uniqueness_is_checked_before_the_password_is_hashed() {
    let mut store = MockAccountStore::new();
    let taken = UserRecord {
        id: UserId("u1".into()),
        name: "Asha".into(),
        email: "asha@example.in".into(),
        google_email: None,
        mobile: "9000000000".into(),
        password_hash: None,
        profile: String::new(),
        email_verified: true,
        mobile_verified: true,
        offer_ends_on: None,
        percentage: 0,
        created_at: NOW,
    };
    store.expect_user_by_email().returning(move |_| Ok(Some(taken.clone())));
    store.expect_user_by_mobile().returning(|_| Ok(None));
    let mut counter = MockRateCounter::new();
    counter.expect_hit().never();
    store.expect_create_user().never();
    let service = AccountService::new(
        Arc::new(store),
        Arc::new(counter),
        Arc::new(MockNotifier::new()),
        Arc::new(MockBlobStore::new()),
        Arc::new(SystemClock),
        AccountSettings::new(OtpSecret::new(b"k".to_vec())),
    );
    assert_eq!(service.register(&input(), None).await.map(drop), Err(AccountError::DuplicateEmail));
}

#[tokio::test]
async fn hashing_runs_on_the_blocking_pool_at_most_two_at_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let hashing = Hashing::default();
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let runs: Vec<_> = (0..8)
        .map(|_| {
            let (hashing, running, most) = (hashing.clone(), running.clone(), most.clone());
            tokio::spawn(async move {
                hashing
                    .run(move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
            })
        })
        .collect();
    for run in runs {
        run.await.expect("joined").expect("ran");
    }
    let most = most.load(Ordering::SeqCst);
    assert!((1..=CONCURRENT_HASHES).contains(&most), "at most two at once: {most}");
}

#[tokio::test]
async fn refused_attempts_do_not_extend_the_window() {
    let w = world();
    for _ in 0..10 {
        assert_eq!(
            w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
            Err(AccountError::BadCredentials)
        );
    }
    let Err(AccountError::RateLimited(_, wait)) =
        w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await
    else {
        panic!("the eleventh is refused");
    };
    for _ in 0..100 {
        assert!(matches!(
            w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
            Err(AccountError::RateLimited(..))
        ));
    }
    w.advance(i64::try_from(wait).expect("seconds"));
    assert_eq!(
        w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
        Err(AccountError::BadCredentials),
        "hammering while refused did not move the time the first refusal gave"
    );
}

#[tokio::test]
async fn wrong_passwords_for_one_account_are_limited_from_any_address() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    let who = Who { email: Some("asha@example.in".into()), mobile: None };
    w.service.verify(&who, &w.sent.code_to("asha@example.in"), "ip").await.expect("email proven");
    for i in 0..10 {
        let client = format!("198.51.100.{i}");
        assert_eq!(
            w.service.login_by_email("asha@example.in", "wrong1!x", &client).await,
            Err(AccountError::BadCredentials)
        );
    }
    let refused = w.service.login_by_email("asha@example.in", "abcdef1!", "203.0.113.77").await;
    assert!(matches!(refused, Err(AccountError::RateLimited(Message::TooManyAttempts, _))), "{refused:?}");
    w.advance(15 * 60 * 2);
    assert!(matches!(
        w.service.login_by_email("asha@example.in", "abcdef1!", "203.0.113.78").await,
        Ok(LoginOutcome::Success { .. })
    ));
}

#[tokio::test]
async fn wrong_codes_for_one_account_are_limited_across_codes() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    let mut guesses = 0;
    for round in 0..3 {
        w.advance(31);
        if round > 0 {
            w.service.resend(&by_mobile()).await.expect("a new code");
        }
        let code = w.sent.code_to("9876543210");
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            if w.service.verify(&by_mobile(), wrong, &format!("10.0.0.{guesses}")).await == Err(AccountError::OtpWrong)
            {
                guesses += 1;
            }
        }
    }
    assert_eq!(guesses, 10, "ten wrong codes in 15 minutes, however many codes are sent");
}

#[tokio::test]
async fn the_hourly_budget_of_sign_up_messages_refuses_sign_ups_past_it() {
    let store = Arc::new(MemStore::default());
    let mut settings = AccountSettings::new(OtpSecret::new(b"k".to_vec()));
    settings.signup_messages_per_hour = 4;
    let clock = Arc::new(FixedClock(Mutex::new(NOW)));
    let service =
        AccountService::new(store.clone(), store, Arc::new(Sent::default()), Arc::new(blobs_ok()), clock, settings);
    for i in 0..2 {
        let input = RegistrationInput { email: format!("a{i}@example.in"), mobile: format!("987654321{i}"), ..input() };
        service.register(&input, None).await.expect("within the budget");
    }
    let input = RegistrationInput { email: "late@example.in".into(), mobile: "9876543219".into(), ..input() };
    assert!(matches!(
        service.register(&input, None).await,
        Err(AccountError::RateLimited(Message::TooManyRequests, _))
    ));
}

#[tokio::test]
async fn the_sweep_deletes_day_old_accounts_that_proved_nothing_and_their_pictures() {
    let store = Arc::new(MemStore::default());
    let mut blobs = MockBlobStore::new();
    blobs.expect_put().returning(|_, _| Ok(()));
    blobs.expect_delete().withf(|key| key.starts_with("avatars/")).times(1).returning(|_| Ok(()));
    let clock = Arc::new(FixedClock(Mutex::new(NOW)));
    let sent = Arc::new(Sent::default());
    let service = AccountService::new(
        store.clone(),
        store.clone(),
        sent.clone(),
        Arc::new(blobs),
        clock.clone(),
        AccountSettings::new(OtpSecret::new(b"k".to_vec())),
    );
    let idle = service.register(&input(), Some(Avatar(vec![1]))).await.expect("register");
    let other = RegistrationInput { email: "ravi@example.in".into(), mobile: "9123456780".into(), ..input() };
    service.register(&other, None).await.expect("register");
    service
        .verify(&Who { email: None, mobile: Some("9123456780".into()) }, &sent.code_to("9123456780"), "ip")
        .await
        .expect("proved");
    *clock.0.lock().expect("clock") += 24 * 3600 + 1;
    let swept = service.sweep().await.expect("swept");
    assert_eq!(swept.accounts.iter().map(|u| u.id.clone()).collect::<Vec<_>>(), vec![idle.id]);
    assert_eq!(store.users.lock().expect("lock").len(), 1, "the account that proved its mobile stays");
}

#[tokio::test]
async fn pending_sign_ins_are_kept_ten_minutes_and_taken_once() {
    let w = world();
    let pending = PendingSignIn { state: "st".into(), nonce: "n".into(), pkce_verifier: "v".into() };
    w.service.keep_pending_sign_in(&pending).await.expect("kept");
    assert_eq!(w.service.take_pending_sign_in("st").await, Ok(Some(pending.clone())));
    assert_eq!(w.service.take_pending_sign_in("st").await, Ok(None), "once");
    w.service.keep_pending_sign_in(&pending).await.expect("kept");
    w.advance(600);
    assert_eq!(w.service.take_pending_sign_in("st").await, Ok(None), "expired after ten minutes");
}

#[tokio::test]
async fn an_external_sign_in_ends_with_a_code_for_its_browser_exchanged_once_within_a_minute() {
    let w = world();
    let browser = w.service.sign_in_browser("state-1");
    assert!(w.service.is_sign_in_browser("state-1", &browser));
    assert!(!w.service.is_sign_in_browser("state-2", &browser), "the cookie belongs to one sign-in");
    assert!(!w.service.is_sign_in_browser("state-1", "00ff") && !w.service.is_sign_in_browser("state-1", ""));

    let (code, user) =
        w.service.sign_in_external_code(&google("meera@example.in", "Meera"), &browser).await.expect("code");
    assert!(w.service.authenticate(code.expose()).await.is_err(), "the code is no session");
    assert!(format!("{code:?}").find(code.expose()).is_none(), "never printed");
    let (token, signed_in) = w.service.exchange_sign_in_code(code.expose(), &browser).await.expect("exchanged");
    assert_eq!(signed_in.id, user.id);
    assert_eq!(w.service.authenticate(token.expose()).await.map(|a| a.user.id), Ok(user.id.clone()));
    assert_eq!(w.service.exchange_sign_in_code(code.expose(), &browser).await, Err(AccountError::Unauthorized), "once");

    let (other, _) =
        w.service.sign_in_external_code(&google("meera@example.in", "Meera"), &browser).await.expect("code");
    assert_eq!(
        w.service.exchange_sign_in_code(other.expose(), &w.service.sign_in_browser("state-2")).await,
        Err(AccountError::Unauthorized),
        "another browser's cookie"
    );
    assert_eq!(
        w.service.exchange_sign_in_code(other.expose(), &browser).await,
        Err(AccountError::Unauthorized),
        "used up by the refusal"
    );

    let (late, _) =
        w.service.sign_in_external_code(&google("meera@example.in", "Meera"), &browser).await.expect("code");
    w.advance(AccountService::SIGN_IN_CODE_SECS);
    assert_eq!(
        w.service.exchange_sign_in_code(late.expose(), &browser).await,
        Err(AccountError::Unauthorized),
        "a minute old"
    );
}
