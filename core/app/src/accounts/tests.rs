//! The account use cases against mocks (stores failing, notifier down) and a small in-memory
//! store where a sequence of calls matters.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use marque_domain::rate::WindowHits;
use marque_ports::{MockAccountStore, MockBlobStore, MockNotifier};

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
    challenges: Mutex<HashMap<UserId, (Challenge, bool)>>,
    hits: Mutex<HashMap<(String, i64), u32>>,
    pending: Mutex<HashMap<String, (marque_ports::PendingSignIn, i64)>>,
}

#[async_trait]
impl AccountStore for MemStore {
    async fn create_user(&self, user: &UserRecord) -> Result<(), AccountStoreError> {
        let mut users = self.users.lock().expect("lock");
        if users.iter().any(|u| u.email.eq_ignore_ascii_case(&user.email)) {
            return Err(AccountStoreError::DuplicateEmail);
        }
        if users.iter().any(|u| u.mobile == user.mobile) {
            return Err(AccountStoreError::DuplicateMobile);
        }
        users.push(user.clone());
        Ok(())
    }
    async fn user(&self, id: &UserId) -> Result<Option<UserRecord>, AccountStoreError> {
        Ok(self.users.lock().expect("lock").iter().find(|u| u.id == *id).cloned())
    }
    async fn user_by_email(&self, email: &Email) -> Result<Option<UserRecord>, AccountStoreError> {
        Ok(self.users.lock().expect("lock").iter().find(|u| u.email.eq_ignore_ascii_case(email.as_str())).cloned())
    }
    async fn user_by_mobile(&self, mobile: &str) -> Result<Option<UserRecord>, AccountStoreError> {
        Ok(self.users.lock().expect("lock").iter().find(|u| u.mobile == mobile).cloned())
    }
    async fn user_by_google_email(&self, email: &str) -> Result<Option<UserRecord>, AccountStoreError> {
        Ok(self.users.lock().expect("lock").iter().find(|u| u.google_email.as_deref() == Some(email)).cloned())
    }
    async fn update_user(&self, user: &UserRecord) -> Result<(), AccountStoreError> {
        let mut users = self.users.lock().expect("lock");
        let slot = users.iter_mut().find(|u| u.id == user.id).ok_or(AccountStoreError::Invalid { reason: "no such".into() })?;
        *slot = user.clone();
        Ok(())
    }
    async fn create_session(&self, s: &NewSession) -> Result<(), AccountStoreError> {
        self.sessions.lock().expect("lock").insert(s.token_hash.clone(), (s.user.clone(), s.expires_at, false));
        Ok(())
    }
    async fn session_user(&self, hash: &str, now: i64) -> Result<Option<UserId>, AccountStoreError> {
        Ok(self.sessions.lock().expect("lock").get(hash).filter(|(_, exp, ended)| !ended && *exp > now).map(|s| s.0.clone()))
    }
    async fn end_session(&self, hash: &str) -> Result<(), AccountStoreError> {
        if let Some(s) = self.sessions.lock().expect("lock").get_mut(hash) {
            s.2 = true;
        }
        Ok(())
    }
    async fn put_challenge(&self, c: &Challenge) -> Result<(), AccountStoreError> {
        self.challenges.lock().expect("lock").insert(c.key.user.clone(), (c.clone(), false));
        Ok(())
    }
    async fn challenge(&self, key: &ChallengeKey, now: i64) -> Result<Option<Challenge>, AccountStoreError> {
        Ok(self
            .challenges
            .lock()
            .expect("lock")
            .get(&key.user)
            .filter(|(c, used)| !used && c.tries_left > 0 && c.expires_at > now)
            .map(|(c, _)| c.clone()))
    }
    async fn check_challenge(&self, key: &ChallengeKey, now: i64, hash: &str) -> Result<ChallengeOutcome, AccountStoreError> {
        let mut all = self.challenges.lock().expect("lock");
        let Some((c, used)) = all.get_mut(&key.user) else { return Ok(ChallengeOutcome::NoCode) };
        if *used || c.tries_left == 0 || c.expires_at <= now {
            return Ok(ChallengeOutcome::NoCode);
        }
        if c.code_hash == hash {
            *used = true;
            return Ok(ChallengeOutcome::Accepted);
        }
        c.tries_left -= 1;
        Ok(ChallengeOutcome::Wrong { tries_left: c.tries_left })
    }
    async fn hit(&self, key: &str, now: i64, window: i64) -> Result<WindowHits, AccountStoreError> {
        let mut hits = self.hits.lock().expect("lock");
        let at = now.div_euclid(window);
        let previous = hits.get(&(key.to_owned(), at - 1)).copied().unwrap_or(0);
        let n = hits.entry((key.to_owned(), at)).or_insert(0);
        *n += 1;
        Ok(WindowHits { current: *n, previous })
    }
    async fn unhit(&self, key: &str, now: i64, window: i64) -> Result<(), AccountStoreError> {
        if let Some(n) = self.hits.lock().expect("lock").get_mut(&(key.to_owned(), now.div_euclid(window))) {
            *n = n.saturating_sub(1);
        }
        Ok(())
    }
    async fn put_pending_sign_in(&self, p: &marque_ports::PendingSignIn, expires_at: i64) -> Result<(), AccountStoreError> {
        self.pending.lock().expect("lock").insert(p.state.clone(), (p.clone(), expires_at));
        Ok(())
    }
    async fn take_pending_sign_in(&self, state: &str, now: i64) -> Result<Option<marque_ports::PendingSignIn>, AccountStoreError> {
        Ok(self.pending.lock().expect("lock").remove(state).filter(|(_, exp)| *exp > now).map(|(p, _)| p))
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
    assert!(!user.verified);
    assert_eq!(user.email, "asha@example.in");
    let hash = user.password_hash.clone().expect("a password hash");
    assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
    let sent = w.sent.0.lock().expect("lock").clone();
    let channels: Vec<(Channel, &str)> = sent.iter().map(|n| (n.channel, n.recipient.as_str())).collect();
    assert_eq!(channels, vec![(Channel::Sms, "9876543210"), (Channel::Email, "asha@example.in")]);
    let code: String = sent[0].text.chars().take(6).collect();
    assert!(code.chars().all(|c| c.is_ascii_digit()), "{}", sent[0].text);
    let stored = w.store.challenge(&ChallengeKey { user: user.id.clone() }, NOW).await.expect("read").expect("live");
    assert!(!stored.code_hash.contains(&code), "the code is stored hashed");
    assert_eq!(stored.code_hash.len(), 64);
    assert_eq!((stored.expires_at, stored.tries_left), (NOW + 600, 5));
}

#[tokio::test]
async fn the_code_confirms_the_account_and_opens_a_session() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    let code = w.sent.last_code();
    let (token, user) = w.service.verify(&by_mobile(), &code, "ip").await.expect("verify");
    assert!(user.verified);
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
    let (token, _) = w.service.verify(&by_mobile(), &w.sent.last_code(), "ip").await.expect("verify");
    w.advance(30 * 24 * 3600 - 1);
    assert!(w.service.authenticate(token.expose()).await.is_ok());
    w.advance(1);
    assert_eq!(w.service.authenticate(token.expose()).await.map(drop), Err(AccountError::Unauthorized));
}

#[tokio::test]
async fn wrong_codes_and_expiry() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    let code = w.sent.last_code();
    let wrong = if code == "000000" { "111111" } else { "000000" };
    assert_eq!(w.service.verify(&by_mobile(), wrong, "ip").await.map(drop), Err(AccountError::OtpWrong));
    assert_eq!(w.service.verify(&by_mobile(), "12", "ip").await.map(drop), Err(AccountError::Invalid(Message::OtpInvalid)));
    w.advance(600);
    assert_eq!(w.service.verify(&by_mobile(), &code, "ip").await.map(drop), Err(AccountError::OtpExpired), "10 minutes");
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
    assert_eq!(w.sent.count(), 4, "a new code by SMS and email");
    let email = Who { email: Some("ASHA@example.in".into()), mobile: None };
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
    let Err(AccountError::RateLimited(Message::OtpTooMany, wait)) = w.service.resend(&by_mobile()).await.map(drop) else {
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
        assert_eq!(w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await, Err(AccountError::BadCredentials));
    }
    // Ten kept (the refused eleventh is not counted): one more is allowed when they weigh nine,
    // 10 × (60 − e) ≤ 540, 6 s into the next minute; refusals in between do not move it.
    for _ in 0..3 {
        assert_eq!(
            w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
            Err(AccountError::RateLimited(Message::TooManyAttempts, u64::try_from(66 - NOW.rem_euclid(60)).expect("positive")))
        );
    }
    assert_eq!(w.service.login_by_email("x@example.in", "abcdef1!", "198.51.100.1").await, Err(AccountError::BadCredentials));
}

#[tokio::test]
async fn login_attempts_across_a_minute_boundary_are_counted_together() {
    let w = world();
    w.advance(60 - NOW.rem_euclid(60) - 3);
    for _ in 0..5 {
        assert_eq!(w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await, Err(AccountError::BadCredentials));
    }
    w.advance(5);
    for _ in 0..5 {
        assert_eq!(w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await, Err(AccountError::BadCredentials));
    }
    assert_eq!(
        w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await,
        // Five before the minute, five kept in it: one more once the five before weigh four, 5 × (60 − e) ≤ 240,
        // at 12 s in.
        Err(AccountError::RateLimited(Message::TooManyAttempts, 10)),
        "ten in five seconds, split by the start of a minute"
    );
    w.advance(60);
    assert_eq!(w.service.login_by_email("x@example.in", "abcdef1!", "203.0.113.9").await, Err(AccountError::BadCredentials), "a minute later");
}

#[tokio::test]
async fn mobile_login_sends_a_code_by_sms_to_known_numbers_only() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    w.advance(31);
    w.service.login_by_mobile("9876543210").await.expect("login");
    assert_eq!(w.sent.0.lock().expect("lock").last().map(|n| n.channel), Some(Channel::Sms));
    assert_eq!(w.sent.count(), 3);
    assert_eq!(w.service.login_by_mobile("9000000000").await.map(drop), Err(AccountError::NotFound(Message::AccountMobileUnknown)));
    assert_eq!(w.service.login_by_mobile("98").await.map(drop), Err(AccountError::Invalid(Message::MobileTooShort)));
}

#[tokio::test]
async fn duplicates_and_bad_fields_are_refused() {
    let w = world();
    w.service.register(&input(), None).await.expect("register");
    let again = RegistrationInput { mobile: "9123456780".into(), ..input() };
    assert_eq!(w.service.register(&again, None).await.map(drop), Err(AccountError::DuplicateEmail));
    let bad = RegistrationInput { password: "short".into(), ..input() };
    let Err(AccountError::Registration(errors)) = w.service.register(&bad, None).await else { panic!("refused") };
    assert_eq!(errors.get(marque_domain::account::RegistrationField::Password), Some(Message::PasswordRule));
}

#[tokio::test]
async fn a_refused_sign_up_leaves_no_picture() {
    let mut store = MockAccountStore::new();
    store.expect_create_user().returning(|_| Err(AccountStoreError::DuplicateMobile));
    let mut blobs = MockBlobStore::new();
    blobs.expect_put().withf(|key, _| key.starts_with("avatars/") && key.ends_with(".png")).times(1).returning(|_, _| Ok(()));
    blobs.expect_delete().times(1).returning(|_| Ok(()));
    let service = AccountService::new(
        Arc::new(store),
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
    store.expect_hit().returning(|_, _, _| Err(AccountStoreError::Unavailable { reason: "down".into() }));
    let service = AccountService::new(
        Arc::new(store),
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
        Arc::new(notifier),
        Arc::new(MockBlobStore::new()),
        Arc::new(SystemClock),
        AccountSettings::new(OtpSecret::new(b"k".to_vec())),
    );
    assert!(matches!(service.register(&input(), None).await, Err(AccountError::NotifyFailed(_))));
    assert!(store.user_by_mobile("9876543210").await.expect("read").is_some(), "the account stays; a resend can follow");
}

#[tokio::test]
async fn profile_updates_change_the_name_and_replace_the_picture() {
    let w = world();
    let user = w.service.register(&input(), None).await.expect("register");
    let updated = w.service.update_profile(&user.id, Some(" Asha Rao "), Some(Avatar(vec![1]))).await.expect("update");
    assert_eq!(updated.name, "Asha Rao");
    assert!(updated.profile.starts_with(&format!("/media/avatars/{}-", user.id.0)), "{}", updated.profile);
    assert_eq!(w.service.update_profile(&user.id, Some("  "), None).await.map(drop), Err(AccountError::Invalid(Message::NameRequired)));
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
    ExternalIdentity { subject: format!("g:{email}"), email: email.into(), name: name.into(), picture: None }
}

#[tokio::test]
async fn external_sign_in_creates_a_verified_account_once_and_links_an_existing_email() {
    let w = world();
    let (token, user) = w.service.sign_in_external(&google("Ravi@Example.in", "Ravi Kumar")).await.expect("signed in");
    assert!(user.verified && user.password_hash.is_none() && user.mobile.is_empty());
    assert_eq!((user.name.as_str(), user.email.as_str()), ("Ravi Kumar", "ravi@example.in"));
    assert_eq!(user.google_email.as_deref(), Some("ravi@example.in"));
    assert_eq!(w.service.authenticate(token.expose()).await.expect("session").user.id, user.id);
    let (_, again) = w.service.sign_in_external(&google("ravi@example.in", "R")).await.expect("again");
    assert_eq!(again.id, user.id, "the same account by its Google email");

    let registered = w.service.register(&input(), None).await.expect("register");
    let (_, linked) = w.service.sign_in_external(&google("asha@example.in", "Asha")).await.expect("linked");
    assert_eq!(linked.id, registered.id, "an account with the email is the one signed in");
    assert!(linked.verified, "Google vouched for the email");
    assert_eq!(linked.google_email.as_deref(), Some("asha@example.in"));
    assert!(w.sent.0.lock().expect("lock").len() == 2, "no code is sent for an external sign-in");
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
