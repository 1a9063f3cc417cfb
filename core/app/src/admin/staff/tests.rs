use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Mutex;

use marque_ports::{MockRateCounter, MockStaffStore, StaffPage};

use super::*;
use crate::throttle::tests::counting;

const NOW: i64 = 1_800_000_000;

struct FixedClock(AtomicI64);

impl Clock for FixedClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

fn clock() -> Arc<FixedClock> {
    Arc::new(FixedClock(AtomicI64::new(NOW)))
}

fn staff(id: &str, role: StaffRole) -> Staff {
    Staff { id: StaffId(id.to_owned()), email: format!("{id}@marque.test"), name: format!("Staff {id}"), role }
}

fn service_with(store: MockStaffStore, counter: MockRateCounter, clock: Arc<FixedClock>) -> StaffService {
    StaffService::new(Arc::new(store), Arc::new(counter), clock, StaffSettings::new(SealKey::dev()))
}

fn service(store: MockStaffStore) -> StaffService {
    service_with(store, counting(), clock())
}

const PASSWORD: &str = "correct horse battery staple";

/// An active staff member with [`PASSWORD`] and a known authenticator secret.
fn active(id: &str, role: StaffRole, secret: &[u8]) -> StaffRecord {
    let staff = staff(id, role);
    let sealed = SealKey::dev().seal(&staff.id, secret).expect("sealed");
    StaffRecord {
        staff,
        status: StaffStatus::Active,
        password_hash: Some(hash_password(PASSWORD).expect("hashed")),
        totp_sealed: Some(sealed),
        created_at: NOW - 100,
    }
}

/// The authenticator code of `secret` at `at`.
fn code_at(secret: &[u8], at: i64) -> String {
    authenticator(secret.to_vec(), "x@marque.test").expect("totp").generate(u64::try_from(at).expect("positive"))
}

const SECRET: &[u8] = b"twenty bytes secret!";

#[tokio::test]
async fn only_owners_invite_list_and_remove_and_the_store_is_not_touched_otherwise() {
    for role in [StaffRole::Catalog, StaffRole::Fulfilment] {
        // No expectation: any store call would panic.
        let service = service(MockStaffStore::new());
        let caller = staff("c1", role);
        let forbidden = StaffError::Forbidden(Forbidden { role, area: Area::Staff });
        assert_eq!(service.invite(&caller, "new@marque.test", "New", StaffRole::Owner).await, Err(forbidden.clone()));
        assert_eq!(service.list(&caller, ListWindow::default()).await, Err(forbidden.clone()));
        assert_eq!(service.remove(&caller, &StaffId("o1".into())).await, Err(forbidden.clone()));
        assert_eq!(forbidden.message(), Message::StaffForbidden);
    }
}

#[tokio::test]
async fn an_invitation_stores_the_member_a_hashed_code_and_its_audit_entry() {
    let kept = Arc::new(Mutex::new(None::<(StaffRecord, SetupCode, AuditEntry)>));
    let mut store = MockStaffStore::new();
    let keep = kept.clone();
    store.expect_invite().times(1).returning(move |record, code, audit| {
        *keep.lock().expect("not poisoned") = Some((record.clone(), code.clone(), audit.clone()));
        Ok(())
    });
    let owner = staff("o1", StaffRole::Owner);
    let invitation =
        service(store).invite(&owner, " New@Marque.Test ", " Ravi ", StaffRole::Catalog).await.expect("invited");
    let (record, code, audit) = kept.lock().expect("not poisoned").clone().expect("stored");
    assert_eq!(record.staff, invitation.staff);
    assert_eq!((record.staff.email.as_str(), record.staff.name.as_str()), ("new@marque.test", "Ravi"));
    assert_eq!((record.status, record.password_hash, record.totp_sealed), (StaffStatus::Invited, None, None));
    assert_eq!(code.code_hash, code_hash(invitation.code.expose()), "the code is stored as its hash only");
    assert_ne!(code.code_hash, invitation.code.expose());
    assert_eq!((code.staff.clone(), code.expires_at), (record.staff.id.clone(), NOW + 24 * 3600), "24 hours");
    assert_eq!(invitation.code.link(), format!("/admin/setup?code={}", invitation.code.expose()));
    assert_eq!(audit.action, "staff.invite");
    assert_eq!(audit.actor, Actor::staff(&owner));
    assert_eq!(audit.subject, format!("staff:{}", record.staff.id.0));
    let after: serde_json::Value = serde_json::from_str(audit.after.as_deref().expect("after")).expect("JSON");
    assert_eq!(after["role"], "catalog");
    assert_eq!(audit.before, None);
    assert!(!format!("{invitation:?}").contains(invitation.code.expose()), "Debug hides the code");
}

#[tokio::test]
async fn invitations_refuse_bad_fields_and_report_the_store() {
    let owner = staff("o1", StaffRole::Owner);
    let service_refusing_all = service(MockStaffStore::new());
    assert_eq!(
        service_refusing_all.invite(&owner, "not an email", "A", StaffRole::Catalog).await,
        Err(StaffError::Invalid(Message::EmailInvalid))
    );
    assert_eq!(
        service_refusing_all.invite(&owner, "a@marque.test", "  ", StaffRole::Catalog).await,
        Err(StaffError::Invalid(Message::StaffNameRequired))
    );
    let mut store = MockStaffStore::new();
    store.expect_invite().times(1).returning(|_, _, _| Err(StaffStoreError::DuplicateEmail));
    assert_eq!(
        service(store).invite(&owner, "a@marque.test", "A", StaffRole::Catalog).await,
        Err(StaffError::EmailTaken)
    );
    let mut store = MockStaffStore::new();
    store.expect_invite().returning(|_, _, _| Err(StaffStoreError::Unavailable { reason: "down".into() }));
    let failed = service(store).invite(&owner, "a@marque.test", "A", StaffRole::Catalog).await;
    assert!(matches!(failed, Err(StaffError::Unavailable(_))), "{failed:?}");
}

#[tokio::test]
async fn set_up_seals_the_secret_hashes_the_password_and_uses_the_code() {
    let kept = Arc::new(Mutex::new(None::<(String, SetupSecrets, AuditEntry)>));
    let mut store = MockStaffStore::new();
    let invited = StaffRecord::invited(StaffId("s1".into()), "s1@marque.test", "S", StaffRole::Owner, NOW);
    let found = invited.clone();
    store
        .expect_setup_code()
        .withf(|hash, now| hash == code_hash("the-code") && *now == NOW)
        .returning(move |_, _| Ok(Some(found.clone())));
    let keep = kept.clone();
    store.expect_complete_setup().times(1).returning(move |hash, id, _, secrets, audit| {
        assert_eq!(id.0, "s1");
        *keep.lock().expect("not poisoned") = Some((hash.to_owned(), secrets.clone(), audit.clone()));
        Ok(true)
    });
    let enrolment = service(store).setup(" the-code ", PASSWORD).await.expect("set up");
    assert!(enrolment.totp_uri.starts_with("otpauth://totp/Marque:s1%40marque.test?"), "{}", enrolment.totp_uri);
    assert!(enrolment.totp_uri.contains("issuer=Marque"));
    assert!(!format!("{enrolment:?}").contains(&enrolment.secret), "Debug hides the secret");
    let (hash, secrets, audit) = kept.lock().expect("not poisoned").clone().expect("completed");
    assert_eq!(hash, code_hash("the-code"));
    assert!(verify_password(PASSWORD, &secrets.password_hash), "argon2id of the password");
    let opened = SealKey::dev().open(&StaffId("s1".into()), &secrets.totp_sealed).expect("opens for its staff member");
    let totp = TOTP::from_url(&enrolment.totp_uri).expect("a valid URI");
    assert_eq!(opened, totp.secret, "the sealed secret is the enrolled one");
    assert_eq!(SealKey::dev().open(&StaffId("s2".into()), &secrets.totp_sealed), None, "bound to the staff member");
    assert_eq!(
        SealKey::new([7; 32]).open(&StaffId("s1".into()), &secrets.totp_sealed),
        None,
        "another key opens nothing"
    );
    assert_eq!((audit.action.as_str(), audit.subject.as_str()), ("staff.setup", "staff:s1"));
    assert_eq!(audit.actor, Actor::staff(&invited.staff));
}

#[tokio::test]
async fn set_up_refuses_unknown_codes_short_passwords_and_lost_races() {
    let mut store = MockStaffStore::new();
    store.expect_setup_code().returning(|_, _| Ok(None));
    assert_eq!(service(store).setup("unknown", PASSWORD).await, Err(StaffError::SetupInvalid));
    assert_eq!(service(MockStaffStore::new()).setup("", PASSWORD).await, Err(StaffError::SetupInvalid));

    let invited = StaffRecord::invited(StaffId("s1".into()), "s1@marque.test", "S", StaffRole::Owner, NOW);
    let mut store = MockStaffStore::new();
    let found = invited.clone();
    store.expect_setup_code().returning(move |_, _| Ok(Some(found.clone())));
    // No complete_setup expectation: a refused password changes nothing.
    assert_eq!(service(store).setup("c", "too short").await, Err(StaffError::Invalid(Message::StaffPasswordRule)));

    let mut store = MockStaffStore::new();
    store.expect_setup_code().returning(move |_, _| Ok(Some(invited.clone())));
    store.expect_complete_setup().returning(|_, _, _, _, _| Ok(false));
    assert_eq!(service(store).setup("c", PASSWORD).await, Err(StaffError::SetupInvalid), "used by a racing call");

    let mut store = MockStaffStore::new();
    store.expect_setup_code().returning(|_, _| Err(StaffStoreError::Unavailable { reason: "down".into() }));
    assert!(matches!(service(store).setup("c", PASSWORD).await, Err(StaffError::Unavailable(_))));
}

#[tokio::test]
async fn sign_in_needs_the_password_and_a_current_code_used_once() {
    let record = active("s1", StaffRole::Owner, SECRET);
    let steps = Arc::new(Mutex::new(Vec::<i64>::new()));
    let sessions = Arc::new(Mutex::new(Vec::<StaffSession>::new()));
    let mut store = MockStaffStore::new();
    let found = record.clone();
    store.expect_staff_by_email().returning(move |_| Ok(Some(found.clone())));
    let used = steps.clone();
    store.expect_use_totp_step().returning(move |_, step| {
        let mut used = used.lock().expect("not poisoned");
        let fresh = used.iter().all(|s| *s < step);
        used.push(step);
        Ok(fresh)
    });
    let kept = sessions.clone();
    store.expect_create_session().returning(move |s| {
        kept.lock().expect("not poisoned").push(s.clone());
        Ok(())
    });
    let service = service(store);
    let code = code_at(SECRET, NOW);
    let (token, who) = service.login("s1@marque.test", PASSWORD, &code, "client-1").await.expect("signed in");
    assert_eq!(who, record.staff);
    let session = sessions.lock().expect("not poisoned")[0].clone();
    assert_eq!(session.token_hash, token.hash(), "the session is stored as the token's hash");
    assert_eq!(session.expires_at, NOW + 12 * 3600, "12 hours");
    assert_eq!(steps.lock().expect("not poisoned")[0], NOW / 30);
    assert_eq!(
        service.login("s1@marque.test", PASSWORD, &code, "client-1").await.map(|_| ()),
        Err(StaffError::BadCredentials),
        "the same code again is a replay"
    );
    let spaced = code_at(SECRET, NOW + 30);
    let spaced = format!("{} {}", &spaced[..3], &spaced[3..]);
    service
        .login("s1@marque.test", PASSWORD, &spaced, "client-1")
        .await
        .expect("the next step's code, typed with a space");
    let wrong = if code_at(SECRET, NOW + 60) == "123456" { "654321" } else { "123456" };
    let calls_before = steps.lock().expect("not poisoned").len();
    for (password, code) in
        [(PASSWORD, wrong), ("a wrong password!", code_at(SECRET, NOW + 60).as_str()), (PASSWORD, "12ab56")]
    {
        assert_eq!(
            service.login("s1@marque.test", password, code, "client-1").await.map(|_| ()),
            Err(StaffError::BadCredentials)
        );
    }
    assert_eq!(steps.lock().expect("not poisoned").len(), calls_before, "a wrong sign-in uses no step");
    let far = code_at(SECRET, NOW + 120);
    assert_eq!(
        service.login("s1@marque.test", PASSWORD, &far, "client-1").await.map(|_| ()),
        Err(StaffError::BadCredentials),
        "a code further than one step away"
    );
}

#[tokio::test]
async fn unknown_invited_and_removed_staff_cannot_sign_in() {
    let mut invited = active("s1", StaffRole::Owner, SECRET);
    invited.status = StaffStatus::Invited;
    for found in [None, Some(invited)] {
        let mut store = MockStaffStore::new();
        store.expect_staff_by_email().returning(move |_| Ok(found.clone()));
        let outcome = service(store).login("s1@marque.test", PASSWORD, &code_at(SECRET, NOW), "c").await;
        assert_eq!(outcome.map(|_| ()), Err(StaffError::BadCredentials));
    }
}

#[tokio::test]
async fn wrong_sign_ins_are_limited_per_account_with_growing_delays_and_a_right_one_is_not_counted() {
    let record = active("s1", StaffRole::Owner, SECRET);
    let mut store = MockStaffStore::new();
    let found = record.clone();
    store.expect_staff_by_email().returning(move |_| Ok(Some(found.clone())));
    store.expect_use_totp_step().returning(|_, _| Ok(true));
    store.expect_create_session().returning(|_| Ok(()));
    let clock = clock();
    let service = service_with(store, counting(), clock.clone());
    let wrong = |n: usize| format!("client-{n}");
    // Four wrong sign-ins from four clients, then a right one: not counted, so five more wrong fit.
    for n in 0..4 {
        assert_eq!(
            service.login("s1@marque.test", "wrong password!!", "000000", &wrong(n)).await.map(|_| ()),
            Err(StaffError::BadCredentials)
        );
    }
    service.login("s1@marque.test", PASSWORD, &code_at(SECRET, NOW), "owner").await.expect("the owner signs in");
    assert_eq!(
        service.login("s1@marque.test", "wrong password!!", "000000", "client-9").await.map(|_| ()),
        Err(StaffError::BadCredentials)
    );
    // Five wrong in the minute: the sixth waits, from any client, the owner's included.
    let limited = service.login("s1@marque.test", PASSWORD, &code_at(SECRET, NOW), "owner").await.map(|_| ());
    assert!(matches!(limited, Err(StaffError::RateLimited(wait)) if (1..=120).contains(&wait)), "{limited:?}");
    // The short window passes; the longer one counts on: 20 wrong in 15 minutes.
    let mut limited_long = None;
    for minute in 1..=10 {
        clock.0.store(NOW + minute * 120, Ordering::SeqCst);
        for n in 0..5 {
            match service.login("s1@marque.test", "wrong password!!", "000000", &wrong(n + 10)).await {
                Err(StaffError::RateLimited(wait)) => {
                    limited_long.get_or_insert(wait);
                }
                other => assert_eq!(other.map(|_| ()), Err(StaffError::BadCredentials)),
            }
        }
    }
    let wait = limited_long.expect("the longer window refuses at last");
    assert!(wait > 60 && wait <= 30 * 60, "a longer wait, never more than two windows: {wait}");
    // Once it has passed, the owner signs in.
    clock.0.store(NOW + 3 * 3600, Ordering::SeqCst);
    service
        .login("s1@marque.test", PASSWORD, &code_at(SECRET, NOW + 3 * 3600), "owner")
        .await
        .expect("never locked for long");
}

#[tokio::test]
async fn one_client_is_limited_whatever_account_it_tries() {
    let mut store = MockStaffStore::new();
    store.expect_staff_by_email().returning(|_| Ok(None));
    let service = service(store);
    for n in 0..10 {
        let outcome = service.login(&format!("u{n}@marque.test"), "wrong password!!", "000000", "one-client").await;
        assert_eq!(outcome.map(|_| ()), Err(StaffError::BadCredentials));
    }
    let limited = service.login("u@marque.test", "wrong password!!", "000000", "one-client").await.map(|_| ());
    assert!(matches!(limited, Err(StaffError::RateLimited(_))), "{limited:?}");
    let other = service.login("u@marque.test", "wrong password!!", "000000", "another-client").await.map(|_| ());
    assert_eq!(other, Err(StaffError::BadCredentials), "another client is not slowed");
}

#[tokio::test]
async fn counters_that_cannot_be_reached_refuse_sign_in_as_unavailable() {
    let mut counter = MockRateCounter::new();
    counter
        .expect_hit()
        .returning(|_, _, _| Err(marque_ports::RateCounterError::Unavailable { reason: "down".into() }));
    let outcome = service_with(MockStaffStore::new(), counter, clock()).login("a@b.in", PASSWORD, "000000", "c").await;
    assert!(matches!(outcome, Err(StaffError::Unavailable(_))), "{:?}", outcome.map(|_| ()));
}

#[tokio::test]
async fn sessions_name_their_staff_member_or_nobody() {
    let member = staff("s1", StaffRole::Fulfilment);
    let mut store = MockStaffStore::new();
    let token = SessionToken::new("token-1");
    let hash = token.hash();
    let found = member.clone();
    store
        .expect_session_staff()
        .withf(move |h, now| h == hash && *now == NOW)
        .returning(move |_, _| Ok(Some(found.clone())));
    store.expect_session_staff().returning(|_, _| Ok(None));
    let service = service(store);
    assert_eq!(service.authenticate("token-1").await, Ok(member));
    assert_eq!(service.authenticate("a customer's token").await, Err(StaffAuthError::Unauthorized));
    assert_eq!(service.authenticate("").await, Err(StaffAuthError::Unauthorized));
    let mut store = MockStaffStore::new();
    store.expect_session_staff().returning(|_, _| Err(StaffStoreError::Unavailable { reason: "down".into() }));
    assert!(matches!(self::service(store).authenticate("t").await, Err(StaffAuthError::Unavailable(_))));
}

#[tokio::test]
async fn logout_ends_the_session_of_the_token() {
    let mut store = MockStaffStore::new();
    let hash = SessionToken::new("token-1").hash();
    store.expect_end_session().withf(move |h| h == hash).times(1).returning(|_| Ok(()));
    service(store).logout("token-1").await.expect("ended");
}

#[tokio::test]
async fn me_lists_the_areas_of_the_role() {
    let service = service(MockStaffStore::new());
    let (_, areas) = service.me(&staff("c", StaffRole::Fulfilment)).expect("every role");
    assert_eq!(
        areas,
        [Area::Dashboard, Area::Orders, Area::Refunds, Area::Returns, Area::Grievances, Area::CustomersRead]
    );
    assert_eq!(service.me(&staff("o", StaffRole::Owner)).expect("owner").1, Area::ALL);
}

#[tokio::test]
async fn owners_remove_others_but_not_themselves_with_an_audit_entry() {
    let owner = staff("o1", StaffRole::Owner);
    assert_eq!(service(MockStaffStore::new()).remove(&owner, &owner.id).await, Err(StaffError::RemoveSelf));
    let target = active("s2", StaffRole::Catalog, SECRET);
    let mut store = MockStaffStore::new();
    let found = target.clone();
    store.expect_staff().returning(move |_| Ok(Some(found.clone())));
    let removed = target.clone();
    let by = owner.clone();
    store
        .expect_remove()
        .withf(move |id, audit| {
            id.0 == "s2"
                && audit.action == "staff.remove"
                && audit.subject == "staff:s2"
                && audit.actor == Actor::staff(&by)
                && audit.before.as_deref().is_some_and(|b| b.contains("\"active\""))
        })
        .times(1)
        .returning(move |_, _| Ok(removed.clone()));
    assert_eq!(service(store).remove(&owner, &StaffId("s2".into())).await, Ok(target.staff));
    let mut store = MockStaffStore::new();
    store.expect_staff().returning(|_| Ok(None));
    assert_eq!(service(store).remove(&owner, &StaffId("nobody".into())).await, Err(StaffError::NotFound));
}

#[tokio::test]
async fn the_list_is_paged() {
    let mut store = MockStaffStore::new();
    store
        .expect_list()
        .withf(|window| window.offset() == 40 && window.limit() == 20)
        .returning(|_| Ok(StaffPage { records: vec![active("s1", StaffRole::Owner, SECRET)], total: 41 }));
    let listing = service(store)
        .list(&staff("o1", StaffRole::Owner), ListWindow::new(Some(3), Some(20)).expect("a window"))
        .await
        .expect("listed");
    assert_eq!((listing.records.len(), listing.total), (1, 41));
}

#[tokio::test]
async fn the_sweep_asks_the_store_with_the_clocks_now_and_passes_on_its_failure() {
    let mut store = MockStaffStore::new();
    let swept = StaffSwept { sessions: 2, setup_codes: 1 };
    store.expect_sweep().withf(|now| *now == NOW).times(1).returning(move |_| Ok(swept));
    assert_eq!(service(store).sweep().await, Ok(swept));
    let mut store = MockStaffStore::new();
    store.expect_sweep().returning(|_| Err(StaffStoreError::Unavailable { reason: "down".into() }));
    assert!(matches!(service(store).sweep().await, Err(StaffError::Unavailable(_))));
}

#[tokio::test]
async fn the_first_owner_is_created_once_and_a_new_link_is_given_until_they_set_up() {
    let mut store = MockStaffStore::new();
    store.expect_staff_by_email().returning(|_| Ok(None));
    store.expect_owners().returning(|| Ok(0));
    store
        .expect_invite()
        .withf(|record, _, audit| {
            record.staff.role == StaffRole::Owner
                && record.staff.email == "boss@marque.test"
                && audit.actor == Actor::System("startup".into())
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let invitation = service(store).ensure_owner("boss@marque.test").await.expect("created").expect("a link");
    assert_eq!(invitation.staff.role, StaffRole::Owner);

    let mut store = MockStaffStore::new();
    store.expect_staff_by_email().returning(|_| Ok(None));
    store.expect_owners().returning(|| Ok(1));
    assert_eq!(service(store).ensure_owner("boss@marque.test").await, Ok(None), "an owner exists");

    let invited = StaffRecord::invited(StaffId("o1".into()), "boss@marque.test", "Boss", StaffRole::Owner, NOW);
    let mut store = MockStaffStore::new();
    store.expect_staff_by_email().returning(move |_| Ok(Some(invited.clone())));
    store.expect_reissue().withf(|code, _| code.staff.0 == "o1").times(1).returning(|_, _| Ok(()));
    let again = service(store).ensure_owner("boss@marque.test").await.expect("reissued").expect("a new link");
    assert_eq!(again.staff.id.0, "o1");

    let owner = active("o1", StaffRole::Owner, SECRET);
    let mut store = MockStaffStore::new();
    store.expect_staff_by_email().returning(move |_| Ok(Some(owner.clone())));
    store.expect_owners().returning(|| Ok(1));
    assert_eq!(service(store).ensure_owner("o1@marque.test").await, Ok(None), "set up: no new link");
}

#[test]
fn secrets_do_not_print() {
    assert_eq!(format!("{:?}", SealKey::dev()), "SealKey(…)");
    let record = active("s1", StaffRole::Owner, SECRET);
    let printed = format!("{record:?}");
    assert!(!printed.contains("argon2") && !printed.contains("v1."), "{printed}");
    assert!(SealKey::from_hex(&"ab".repeat(32)).is_ok());
    assert!(SealKey::from_hex("abc").is_err() && SealKey::from_hex(&"zz".repeat(32)).is_err());
}
