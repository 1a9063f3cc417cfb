//! The `StaffStore` contract, one suite per promise in `marque_ports::staff`.
//!
//! Every suite takes a fresh, empty store and panics with a message naming the broken promise.
//! Adapters run them per engine through [`for_each_staff_suite!`](crate::for_each_staff_suite).

use futures::future::join_all;
use marque_domain::staff::{StaffId, StaffRole};
use marque_ports::{
    Actor, AuditEntry, SetupCode, SetupSecrets, StaffRecord, StaffSession, StaffStatus, StaffStore, StaffStoreError,
    StaffSwept,
};

use crate::fixtures::window;

/// Calls `$callback!(suite_name)` once for every staff suite.
#[macro_export]
macro_rules! for_each_staff_suite {
    ($callback:ident) => {
        $callback!(invited_staff_round_trip_by_id_and_email);
        $callback!(an_email_is_invited_once_in_any_case_even_when_invitations_race);
        $callback!(the_list_is_paged_oldest_first_without_the_removed);
        $callback!(owners_are_counted_until_removed);
        $callback!(a_set_up_code_is_live_for_its_time_and_used_once);
        $callback!(racing_set_ups_with_one_code_succeed_once);
        $callback!(a_reissued_code_replaces_the_earlier_one);
        $callback!(authenticator_steps_are_used_once_and_only_forward);
        $callback!(sessions_last_until_they_expire_or_end);
        $callback!(removing_ends_sessions_and_codes_and_frees_the_email);
        $callback!(a_sweep_deletes_ended_and_expired_sessions_and_codes_only);
    };
}

const NOW: i64 = 1_800_000_000;
const DAY: i64 = 86_400;

fn entry(action: &str, subject: &str) -> AuditEntry {
    AuditEntry::new(NOW, Actor::System("contract".into()), action, subject)
}

fn record(id: &str, email: &str, role: StaffRole, created_at: i64) -> StaffRecord {
    StaffRecord::invited(StaffId(id.to_owned()), email, &format!("Staff {id}"), role, created_at)
}

fn code(hash: &str, id: &str, expires_at: i64) -> SetupCode {
    SetupCode { code_hash: hash.to_owned(), staff: StaffId(id.to_owned()), expires_at }
}

fn secrets() -> SetupSecrets {
    SetupSecrets {
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".to_owned(),
        totp_sealed: "sealed-secret".to_owned(),
    }
}

async fn invite(store: &dyn StaffStore, id: &str, email: &str, role: StaffRole, hash: &str) {
    store
        .invite(
            &record(id, email, role, NOW),
            &code(hash, id, NOW + DAY),
            &entry("staff.invite", &format!("staff:{id}")),
        )
        .await
        .unwrap_or_else(|e| panic!("invite {id}: {e}"));
}

/// Invites `id` and sets it up (active, with a password and a sealed secret).
async fn active(store: &dyn StaffStore, id: &str, email: &str, role: StaffRole) {
    let hash = format!("code-{id}");
    invite(store, id, email, role, &hash).await;
    let done = store
        .complete_setup(&hash, &StaffId(id.to_owned()), NOW, &secrets(), &entry("staff.setup", &format!("staff:{id}")))
        .await
        .expect("set up");
    assert!(done, "a live code sets up");
}

pub async fn invited_staff_round_trip_by_id_and_email(store: &dyn StaffStore) {
    invite(store, "s1", "Owner@Marque.Test", StaffRole::Owner, "c1").await;
    let found = store.staff(&StaffId("s1".into())).await.expect("read").expect("stored");
    assert_eq!(found, record("s1", "owner@marque.test", StaffRole::Owner, NOW), "the email is kept lower-case");
    assert_eq!(found.status, StaffStatus::Invited);
    assert_eq!(found.password_hash, None, "nothing set up yet");
    let by_email = store.staff_by_email("OWNER@marque.test").await.expect("read").expect("found by email");
    assert_eq!(by_email.staff.id, StaffId("s1".into()), "emails compare case-insensitively");
    assert_eq!(store.staff(&StaffId("nobody".into())).await.expect("read"), None);
    assert_eq!(store.staff(&StaffId(String::new())).await.expect("read"), None, "an empty id names nobody");
    assert_eq!(store.staff_by_email("other@marque.test").await.expect("read"), None);
    assert_eq!(store.staff_by_email("").await.expect("read"), None);
}

pub async fn an_email_is_invited_once_in_any_case_even_when_invitations_race(store: &dyn StaffStore) {
    invite(store, "s1", "a@marque.test", StaffRole::Catalog, "c1").await;
    let again = store
        .invite(
            &record("s2", "A@MARQUE.TEST", StaffRole::Owner, NOW),
            &code("c2", "s2", NOW + DAY),
            &entry("staff.invite", "staff:s2"),
        )
        .await;
    assert_eq!(again, Err(StaffStoreError::DuplicateEmail));
    assert_eq!(store.staff(&StaffId("s2".into())).await.expect("read"), None, "nothing written for a duplicate");
    assert_eq!(store.setup_code("c2", NOW).await.expect("read"), None, "no code either");

    let racing = join_all((0..8).map(|i| async move {
        let id = format!("r{i}");
        store
            .invite(
                &record(&id, "race@marque.test", StaffRole::Fulfilment, NOW),
                &code(&format!("rc{i}"), &id, NOW + DAY),
                &entry("staff.invite", &format!("staff:{id}")),
            )
            .await
    }))
    .await;
    let won = racing.iter().filter(|r| r.is_ok()).count();
    assert_eq!(won, 1, "exactly one racing invitation of one email succeeds: {racing:?}");
    assert!(
        racing.iter().all(|r| r.is_ok() || *r == Err(StaffStoreError::DuplicateEmail)),
        "the others are duplicates: {racing:?}"
    );
}

pub async fn the_list_is_paged_oldest_first_without_the_removed(store: &dyn StaffStore) {
    for (i, id) in ["s3", "s1", "s2", "s4"].iter().enumerate() {
        let created = NOW + i64::try_from(i).expect("small") * 10;
        store
            .invite(
                &record(id, &format!("{id}@marque.test"), StaffRole::Catalog, created),
                &code(&format!("c-{id}"), id, NOW + DAY),
                &entry("staff.invite", &format!("staff:{id}")),
            )
            .await
            .expect("invite");
    }
    store.remove(&StaffId("s2".into()), &entry("staff.remove", "staff:s2")).await.expect("remove");
    let first = store.list(window(1, 2)).await.expect("list");
    let ids = |page: &marque_ports::StaffPage| page.records.iter().map(|r| r.staff.id.0.clone()).collect::<Vec<_>>();
    assert_eq!(first.total, 3, "removed staff are not counted");
    assert_eq!(ids(&first), ["s3", "s1"], "oldest first");
    let second = store.list(window(2, 2)).await.expect("list");
    assert_eq!(ids(&second), ["s4"]);
    assert_eq!(second.total, 3);
    assert!(store.list(window(6, 2)).await.expect("list").records.is_empty(), "past the end");
}

pub async fn owners_are_counted_until_removed(store: &dyn StaffStore) {
    assert_eq!(store.owners().await.expect("count"), 0);
    invite(store, "o1", "o1@marque.test", StaffRole::Owner, "c1").await;
    active(store, "o2", "o2@marque.test", StaffRole::Owner).await;
    invite(store, "c1", "c1@marque.test", StaffRole::Catalog, "c3").await;
    assert_eq!(store.owners().await.expect("count"), 2, "invited and active owners");
    store.remove(&StaffId("o1".into()), &entry("staff.remove", "staff:o1")).await.expect("remove");
    assert_eq!(store.owners().await.expect("count"), 1);
}

pub async fn a_set_up_code_is_live_for_its_time_and_used_once(store: &dyn StaffStore) {
    invite(store, "s1", "s1@marque.test", StaffRole::Catalog, "c1").await;
    let id = StaffId("s1".into());
    assert_eq!(store.setup_code("c1", NOW + DAY - 1).await.expect("read").map(|r| r.staff.id), Some(id.clone()));
    assert_eq!(store.setup_code("c1", NOW + DAY).await.expect("read"), None, "expired at expires_at");
    assert_eq!(store.setup_code("nope", NOW).await.expect("read"), None);
    assert_eq!(store.setup_code("", NOW).await.expect("read"), None);
    let audit = entry("staff.setup", "staff:s1");
    assert!(
        !store.complete_setup("c1", &id, NOW + DAY, &secrets(), &audit).await.expect("setup"),
        "an expired code sets nothing up"
    );
    assert!(
        !store.complete_setup("c1", &StaffId("other".into()), NOW, &secrets(), &audit).await.expect("setup"),
        "a code sets up only its own staff member"
    );
    assert_eq!(store.staff(&id).await.expect("read").map(|r| r.status), Some(StaffStatus::Invited));
    assert!(store.complete_setup("c1", &id, NOW, &secrets(), &audit).await.expect("setup"), "a live code");
    let done = store.staff(&id).await.expect("read").expect("stored");
    assert_eq!(done.status, StaffStatus::Active);
    assert_eq!(done.password_hash, Some(secrets().password_hash));
    assert_eq!(done.totp_sealed, Some(secrets().totp_sealed));
    assert!(!store.complete_setup("c1", &id, NOW, &secrets(), &audit).await.expect("setup"), "used once");
    assert_eq!(store.setup_code("c1", NOW).await.expect("read"), None, "gone once used");
}

pub async fn racing_set_ups_with_one_code_succeed_once(store: &dyn StaffStore) {
    invite(store, "s1", "s1@marque.test", StaffRole::Owner, "c1").await;
    let id = StaffId("s1".into());
    let audit = entry("staff.setup", "staff:s1");
    let secrets = secrets();
    let outcomes = join_all((0..8).map(|_| store.complete_setup("c1", &id, NOW, &secrets, &audit))).await;
    let done = outcomes.iter().filter(|o| matches!(o, Ok(true))).count();
    assert_eq!(done, 1, "one code, one set-up: {outcomes:?}");
    assert!(outcomes.iter().all(Result::is_ok), "the losers are told the code is used: {outcomes:?}");
}

pub async fn a_reissued_code_replaces_the_earlier_one(store: &dyn StaffStore) {
    active(store, "s1", "s1@marque.test", StaffRole::Owner).await;
    let id = StaffId("s1".into());
    let session = StaffSession { token_hash: "t1".into(), staff: id.clone(), expires_at: NOW + 100 };
    store.create_session(&session).await.expect("session");
    invite(store, "s2", "s2@marque.test", StaffRole::Catalog, "first").await;
    store.reissue(&code("second", "s2", NOW + DAY), &entry("staff.invite", "staff:s2")).await.expect("reissue");
    assert_eq!(store.setup_code("first", NOW).await.expect("read"), None, "the earlier code ends");
    assert!(store.setup_code("second", NOW).await.expect("read").is_some());
    assert_eq!(
        store.reissue(&code("x", "nobody", NOW + DAY), &entry("staff.invite", "staff:nobody")).await,
        Err(StaffStoreError::NotFound)
    );
    // A new set-up of an active member (a lost authenticator) ends their sessions.
    store.reissue(&code("again", "s1", NOW + DAY), &entry("staff.invite", "staff:s1")).await.expect("reissue");
    assert!(store
        .complete_setup("again", &id, NOW, &secrets(), &entry("staff.setup", "staff:s1"))
        .await
        .expect("setup"));
    assert_eq!(store.session_staff("t1", NOW).await.expect("read"), None, "a new set-up ends the old sessions");
}

pub async fn authenticator_steps_are_used_once_and_only_forward(store: &dyn StaffStore) {
    active(store, "s1", "s1@marque.test", StaffRole::Owner).await;
    let id = StaffId("s1".into());
    assert!(store.use_totp_step(&id, 100).await.expect("step"), "a first step");
    assert!(!store.use_totp_step(&id, 100).await.expect("step"), "the same step again is a replay");
    assert!(!store.use_totp_step(&id, 99).await.expect("step"), "an earlier step is refused");
    assert!(store.use_totp_step(&id, 101).await.expect("step"), "a later step");
    let racing = join_all((0..8).map(|_| store.use_totp_step(&id, 200))).await;
    assert_eq!(racing.iter().filter(|r| matches!(r, Ok(true))).count(), 1, "racing uses of one step: {racing:?}");
    assert_eq!(store.use_totp_step(&StaffId("nobody".into()), 300).await, Err(StaffStoreError::NotFound));
    invite(store, "s2", "s2@marque.test", StaffRole::Owner, "c2").await;
    assert_eq!(
        store.use_totp_step(&StaffId("s2".into()), 300).await,
        Err(StaffStoreError::NotFound),
        "an invited member has no authenticator yet"
    );
}

pub async fn sessions_last_until_they_expire_or_end(store: &dyn StaffStore) {
    active(store, "s1", "s1@marque.test", StaffRole::Fulfilment).await;
    let id = StaffId("s1".into());
    let session = StaffSession { token_hash: "h1".into(), staff: id.clone(), expires_at: NOW + 100 };
    store.create_session(&session).await.expect("create");
    let who = store.session_staff("h1", NOW + 99).await.expect("read").expect("live");
    assert_eq!((who.id, who.role), (id.clone(), StaffRole::Fulfilment));
    assert_eq!(store.session_staff("h1", NOW + 100).await.expect("read"), None, "expired at expires_at");
    assert_eq!(store.session_staff("other", NOW).await.expect("read"), None);
    assert_eq!(store.session_staff("", NOW).await.expect("read"), None);
    store.end_session("h1").await.expect("end");
    assert_eq!(store.session_staff("h1", NOW).await.expect("read"), None, "ended");
    store.end_session("h1").await.expect("ending twice is harmless");
    store.end_session("never").await.expect("ending an unknown session is harmless");
    let invited = StaffSession { token_hash: "h2".into(), staff: StaffId("s9".into()), expires_at: NOW + 100 };
    store.create_session(&invited).await.expect("create");
    assert_eq!(store.session_staff("h2", NOW).await.expect("read"), None, "no active staff member, no session");
}

pub async fn removing_ends_sessions_and_codes_and_frees_the_email(store: &dyn StaffStore) {
    active(store, "s1", "s1@marque.test", StaffRole::Catalog).await;
    let id = StaffId("s1".into());
    for hash in ["a", "b"] {
        let session = StaffSession { token_hash: hash.into(), staff: id.clone(), expires_at: NOW + 100 };
        store.create_session(&session).await.expect("session");
    }
    store.reissue(&code("pending", "s1", NOW + DAY), &entry("staff.invite", "staff:s1")).await.expect("reissue");
    let before = store.remove(&id, &entry("staff.remove", "staff:s1")).await.expect("remove");
    assert_eq!((before.staff.email.as_str(), before.status), ("s1@marque.test", StaffStatus::Active), "as it was");
    for hash in ["a", "b"] {
        assert_eq!(store.session_staff(hash, NOW).await.expect("read"), None, "every session ends");
    }
    assert_eq!(store.setup_code("pending", NOW).await.expect("read"), None, "set-up codes end");
    let gone = store.staff(&id).await.expect("read").expect("kept for the trail");
    assert_eq!((gone.status, gone.password_hash, gone.totp_sealed), (StaffStatus::Removed, None, None));
    assert_eq!(store.staff_by_email("s1@marque.test").await.expect("read"), None);
    assert_eq!(store.remove(&id, &entry("staff.remove", "staff:s1")).await, Err(StaffStoreError::NotFound), "twice");
    assert_eq!(
        store.remove(&StaffId("nobody".into()), &entry("staff.remove", "staff:nobody")).await,
        Err(StaffStoreError::NotFound)
    );
    assert_eq!(store.use_totp_step(&id, 5).await, Err(StaffStoreError::NotFound), "no sign-in once removed");
    invite(store, "s2", "S1@marque.test", StaffRole::Owner, "c2").await;
    assert_eq!(
        store.staff_by_email("s1@marque.test").await.expect("read").map(|r| r.staff.id),
        Some(StaffId("s2".into())),
        "the email may be invited again"
    );
}

/// A sweep deletes the sessions that expired or were ended and the set-up codes that expired, so
/// not even an earlier clock finds them again, and leaves every live one as it was.
pub async fn a_sweep_deletes_ended_and_expired_sessions_and_codes_only(store: &dyn StaffStore) {
    assert_eq!(store.sweep(NOW).await, Ok(StaffSwept::default()), "an empty store: nothing to sweep");
    active(store, "s1", "s1@marque.test", StaffRole::Owner).await;
    let id = StaffId("s1".into());
    let session = |hash: &str, expires_at: i64| StaffSession { token_hash: hash.into(), staff: id.clone(), expires_at };
    for s in [session("past", NOW - 1), session("at-now", NOW), session("ended", NOW + 100), session("live", NOW + 1)] {
        store.create_session(&s).await.expect("session");
    }
    store.end_session("ended").await.expect("end");
    for (hash, staff, expires_at) in [("c-old", "s2", NOW - 1), ("c-now", "s3", NOW), ("c-live", "s4", NOW + 1)] {
        invite(store, staff, &format!("{staff}@marque.test"), StaffRole::Catalog, &format!("first-{staff}")).await;
        store
            .reissue(&code(hash, staff, expires_at), &entry("staff.invite", &format!("staff:{staff}")))
            .await
            .expect("code");
    }

    assert_eq!(
        store.sweep(NOW).await,
        Ok(StaffSwept { sessions: 3, setup_codes: 2 }),
        "past, at now, ended; two codes"
    );
    let earlier = NOW - 10;
    for gone in ["past", "at-now", "ended"] {
        assert_eq!(
            store.session_staff(gone, earlier).await.expect("read"),
            None,
            "{gone} is deleted, not only expired"
        );
    }
    assert_eq!(store.session_staff("live", NOW).await.expect("read").map(|s| s.id), Some(id.clone()), "live");
    for gone in ["c-old", "c-now"] {
        assert_eq!(store.setup_code(gone, earlier).await.expect("read"), None, "{gone} is deleted, not only expired");
    }
    let live = store.setup_code("c-live", NOW).await.expect("read").map(|r| r.staff.id);
    assert_eq!(live, Some(StaffId("s4".into())), "a live code stays");
    assert_eq!(store.sweep(NOW).await, Ok(StaffSwept::default()), "nothing left to sweep");
    assert_eq!(
        store.staff(&StaffId("s2".into())).await.expect("read").map(|r| r.status),
        Some(StaffStatus::Invited),
        "a swept code leaves its staff member invited: an owner can send a new link"
    );
}
