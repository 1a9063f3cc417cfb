//! The `AccountStore` contract, one suite per promise in `marque_ports::accounts`.
//!
//! Every suite takes a fresh, empty store and panics with a message naming the broken
//! promise. Adapters run them per engine through [`for_each_account_suite!`](crate::for_each_account_suite).

use futures::future::join_all;
use marque_domain::account::Email;
use marque_domain::pricing::{DiscountPercent, OfferEndsOn};
use marque_domain::staff::StaffId;
use marque_ports::{
    AccountStore, AccountStoreError, Actor, AuditEntry, Challenge, ChallengeKey, ChallengeOutcome, Channel,
    CustomerOffer, NewSession, PendingSignIn, SignInCode, UserId, UserRecord,
};

use crate::fixtures::window;

/// Calls `$callback!(suite_name)` once for every account suite.
#[macro_export]
macro_rules! for_each_account_suite {
    ($callback:ident) => {
        $callback!(users_round_trip_by_id_email_and_mobile);
        $callback!(unknown_users_are_none);
        $callback!(duplicate_email_is_refused_in_any_case_and_nothing_written);
        $callback!(duplicate_mobile_is_refused_and_nothing_written);
        $callback!(accounts_without_email_or_mobile_do_not_clash);
        $callback!(racing_sign_ups_store_exactly_one);
        $callback!(update_replaces_and_unknown_is_invalid);
        $callback!(a_language_is_kept_for_a_customer_and_creates_nobody);
        $callback!(update_never_changes_the_email_the_mobile_or_what_is_proven);
        $callback!(unproven_emails_and_mobiles_are_only_claims);
        $callback!(a_proof_takes_the_email_or_mobile_from_accounts_that_only_claimed_it);
        $callback!(racing_proofs_of_one_email_leave_exactly_one_owner);
        $callback!(external_identities_are_kept_by_issuer_and_subject);
        $callback!(sessions_last_until_they_expire);
        $callback!(ended_sessions_are_gone_and_ending_twice_is_harmless);
        $callback!(a_new_challenge_replaces_the_earlier_one);
        $callback!(challenges_expire);
        $callback!(the_right_code_is_accepted_once);
        $callback!(wrong_tries_count_down_and_the_last_ends_the_code);
        $callback!(concurrent_checks_grant_at_most_the_tries_stored);
        $callback!(fifty_concurrent_wrong_guesses_compare_at_most_five_and_then_the_right_code_is_refused);
        $callback!(email_and_mobile_codes_are_kept_apart);
        $callback!(pending_sign_ins_are_taken_once_and_expire);
        $callback!(the_sweep_removes_ended_sessions_stale_sign_ins_and_day_old_unproven_accounts);
        $callback!(sign_in_codes_are_taken_once_and_expire);
        $callback!(an_offer_is_set_replaced_and_ended_and_an_update_leaves_it);
        $callback!(an_offer_for_nobody_is_invalid);
        $callback!(customers_are_found_by_name_email_or_mobile);
        $callback!(customer_searches_page_newest_first);
        $callback!(erasing_a_customer_ends_their_sessions_and_frees_their_email_and_mobile);
    };
}

pub(crate) fn user(id: &str, email: &str, mobile: &str) -> UserRecord {
    UserRecord {
        id: UserId(id.to_owned()),
        name: format!("Customer {id}"),
        email: email.to_owned(),
        google_email: None,
        mobile: mobile.to_owned(),
        password_hash: Some("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".to_owned()),
        profile: String::new(),
        email_verified: false,
        mobile_verified: false,
        offer_ends_on: None,
        percentage: 0,
        created_at: 1_700_000_000,
    }
}

/// A customer who has proven both their email and their mobile.
fn proven(id: &str, email: &str, mobile: &str) -> UserRecord {
    UserRecord { email_verified: !email.is_empty(), mobile_verified: !mobile.is_empty(), ..user(id, email, mobile) }
}

fn email(s: &str) -> Email {
    Email::parse(s).expect("a valid email in a suite")
}

fn key(id: &str) -> ChallengeKey {
    ChallengeKey { user: UserId(id.to_owned()), channel: Channel::Sms }
}

fn challenge(id: &str, hash: &str, now: i64, tries: u8) -> Challenge {
    Challenge { key: key(id), code_hash: hash.to_owned(), sent_at: now, expires_at: now + 600, tries_left: tries }
}

const NOW: i64 = 1_800_000_000;

pub async fn users_round_trip_by_id_email_and_mobile(store: &dyn AccountStore) {
    let mut asha = user("u1", "asha@example.in", "9876543210");
    asha.google_email = Some("asha@gmail.com".to_owned());
    asha.offer_ends_on = OfferEndsOn::parse("2030-01-31").ok();
    asha.percentage = 10;
    asha.email_verified = true;
    asha.mobile_verified = true;
    store.create_user(&asha).await.expect("create");
    assert_eq!(store.user(&asha.id).await.expect("read"), Some(asha.clone()), "by id, exactly as stored");
    assert_eq!(
        store.user_by_email(&email("ASHA@example.in")).await.expect("read"),
        Some(asha.clone()),
        "by email, any case"
    );
    assert_eq!(store.user_by_mobile("9876543210").await.expect("read"), Some(asha.clone()), "by mobile");
    assert_eq!(store.user_by_google_email("asha@gmail.com").await.expect("read"), Some(asha), "by Google email");
}

pub async fn unknown_users_are_none(store: &dyn AccountStore) {
    store.create_user(&user("u1", "asha@example.in", "9876543210")).await.expect("create");
    assert_eq!(store.user(&UserId("nobody".into())).await.expect("read"), None);
    assert_eq!(store.user(&UserId(String::new())).await.expect("read"), None, "an empty id names nobody");
    assert_eq!(store.user_by_email(&email("ravi@example.in")).await.expect("read"), None);
    assert_eq!(store.user_by_mobile("9000000000").await.expect("read"), None);
    assert_eq!(store.user_by_mobile("").await.expect("read"), None, "an empty mobile names nobody");
    assert_eq!(store.user_by_google_email("asha@example.in").await.expect("read"), None);
}

pub async fn duplicate_email_is_refused_in_any_case_and_nothing_written(store: &dyn AccountStore) {
    store.create_user(&proven("u1", "asha@example.in", "9876543210")).await.expect("create");
    let clash = proven("u2", "Asha@Example.IN", "9123456780");
    assert_eq!(store.create_user(&clash).await, Err(AccountStoreError::DuplicateEmail));
    assert_eq!(store.user(&clash.id).await.expect("read"), None, "nothing written");
    assert_eq!(store.user_by_mobile("9123456780").await.expect("read"), None, "nothing written");
}

pub async fn duplicate_mobile_is_refused_and_nothing_written(store: &dyn AccountStore) {
    store.create_user(&proven("u1", "asha@example.in", "9876543210")).await.expect("create");
    let clash = proven("u2", "ravi@example.in", "9876543210");
    assert_eq!(store.create_user(&clash).await, Err(AccountStoreError::DuplicateMobile));
    assert_eq!(store.user(&clash.id).await.expect("read"), None, "nothing written");
}

pub async fn accounts_without_email_or_mobile_do_not_clash(store: &dyn AccountStore) {
    for id in ["g1", "g2"] {
        let mut google_only = user(id, "", "");
        google_only.password_hash = None;
        google_only.google_email = Some(format!("{id}@gmail.com"));
        store
            .create_user(&google_only)
            .await
            .unwrap_or_else(|e| panic!("{id}: empty email and mobile are not values: {e}"));
    }
    assert_eq!(store.user(&UserId("g2".into())).await.expect("read").map(|u| u.mobile), Some(String::new()));
}

pub async fn racing_sign_ups_store_exactly_one(store: &dyn AccountStore) {
    let attempts: Vec<UserRecord> =
        (0..8).map(|i| proven(&format!("r{i}"), "race@example.in", &format!("98765432{i:02}"))).collect();
    let outcomes = join_all(attempts.iter().map(|u| store.create_user(u))).await;
    let stored = outcomes.iter().filter(|o| o.is_ok()).count();
    assert_eq!(stored, 1, "exactly one racing sign-up is stored: {outcomes:?}");
    assert!(outcomes.iter().all(|o| o.is_ok() || *o == Err(AccountStoreError::DuplicateEmail)), "{outcomes:?}");
    let mut found = 0;
    for u in &attempts {
        found += usize::from(store.user(&u.id).await.expect("read").is_some());
    }
    assert_eq!(found, 1, "the refused ones wrote nothing");
}

pub async fn update_replaces_and_unknown_is_invalid(store: &dyn AccountStore) {
    let mut asha = user("u1", "asha@example.in", "9876543210");
    store.create_user(&asha).await.expect("create");
    asha.name = "Asha Rao".to_owned();
    asha.profile = "/media/avatars/u1-x.png".to_owned();
    asha.google_email = Some("asha@gmail.com".to_owned());
    store.update_user(&asha).await.expect("update");
    assert_eq!(store.user(&asha.id).await.expect("read"), Some(asha));
    let ghost = user("ghost", "ghost@example.in", "9000000001");
    assert!(matches!(store.update_user(&ghost).await, Err(AccountStoreError::Invalid { .. })), "unknown id");
    assert_eq!(store.user(&ghost.id).await.expect("read"), None, "an update creates nobody");
}

pub async fn a_language_is_kept_for_a_customer_and_creates_nobody(store: &dyn AccountStore) {
    use marque_domain::order::Language;
    let asha = user("u1", "asha@example.in", "9876543210");
    store.create_user(&asha).await.expect("create");
    assert!(store.set_language(&asha.id, Language::Hindi).await.expect("kept"), "a customer has this id");
    assert!(store.set_language(&asha.id, Language::English).await.expect("kept again"), "and may change it");
    assert_eq!(store.user(&asha.id).await.expect("read"), Some(asha), "nothing else changes");
    let ghost = UserId("ghost".to_owned());
    assert!(!store.set_language(&ghost, Language::Hindi).await.expect("answered"), "nobody has this id");
    assert_eq!(store.user(&ghost).await.expect("read"), None, "keeping a language creates nobody");
    assert!(!store.set_language(&UserId(String::new()), Language::Hindi).await.expect("answered"), "no id");
}

pub async fn update_never_changes_the_email_the_mobile_or_what_is_proven(store: &dyn AccountStore) {
    store.create_user(&proven("u1", "asha@example.in", "9876543210")).await.expect("create");
    let ravi = user("u2", "ravi@example.in", "9123456780");
    store.create_user(&ravi).await.expect("create");
    let mut changed = ravi.clone();
    changed.email = "ASHA@example.in".to_owned();
    changed.mobile = "9876543210".to_owned();
    changed.email_verified = true;
    changed.mobile_verified = true;
    store.update_user(&changed).await.expect("an update of the other fields");
    assert_eq!(store.user(&ravi.id).await.expect("read"), Some(ravi), "email, mobile and proofs unchanged");
    assert_eq!(
        store.user_by_email(&email("asha@example.in")).await.expect("read").map(|u| u.id),
        Some(UserId("u1".into()))
    );
}

pub async fn unproven_emails_and_mobiles_are_only_claims(store: &dyn AccountStore) {
    let owner = proven("u1", "asha@example.in", "9876543210");
    store.create_user(&owner).await.expect("create");
    // Two strangers claim Asha's email and mobile, and each other's: no clash, none of them owns it.
    let stranger = user("u2", "ASHA@example.in", "9123456780");
    let other = user("u3", "asha@example.in", "9123456780");
    store.create_user(&stranger).await.expect("an unproven email is not a claim against a proven one");
    store.create_user(&other).await.expect("nor against another unproven one");
    assert_eq!(
        store.user_by_email(&email("asha@example.in")).await.expect("read"),
        Some(owner.clone()),
        "the proven owner only"
    );
    assert_eq!(store.user_by_mobile("9123456780").await.expect("read"), None, "nobody proved this mobile");
    let claims = store.users_claiming_email(&email("Asha@Example.in"), 10).await.expect("read");
    assert_eq!(claims, vec![stranger.clone(), other.clone()], "the accounts only claiming it, oldest first");
    assert_eq!(
        store.users_claiming_email(&email("asha@example.in"), 1).await.expect("read"),
        vec![stranger.clone()],
        "at most the limit"
    );
    assert_eq!(store.users_claiming_mobile("9123456780", 10).await.expect("read").len(), 2);
    assert_eq!(
        store.users_claiming_mobile("9876543210", 10).await.expect("read"),
        vec![],
        "a proven mobile has no claimants"
    );
    assert_eq!(store.users_claiming_mobile("", 10).await.expect("read"), vec![], "an empty mobile names nobody");
}

pub async fn a_proof_takes_the_email_or_mobile_from_accounts_that_only_claimed_it(store: &dyn AccountStore) {
    // The stranger signs up first with Asha's email and their own mobile, and proves the mobile.
    let stranger = user("s", "asha@example.in", "9123456780");
    store.create_user(&stranger).await.expect("create");
    let stranger = store.prove(&stranger.id, Channel::Sms).await.expect("the stranger proves their own mobile");
    assert!(stranger.mobile_verified && !stranger.email_verified);
    assert_eq!(store.user_by_mobile("9123456780").await.expect("read").map(|u| u.id), Some(stranger.id.clone()));
    assert_eq!(store.user_by_email(&email("asha@example.in")).await.expect("read"), None, "a claim opens nothing");
    // Asha signs up with her email and proves it: the stranger's account loses it.
    let asha = user("a", "Asha@example.in", "9876543210");
    store.create_user(&asha).await.expect("create");
    let asha = store.prove(&asha.id, Channel::Email).await.expect("Asha proves her email");
    assert!(asha.email_verified && !asha.mobile_verified);
    assert_eq!(store.user_by_email(&email("asha@example.in")).await.expect("read"), Some(asha.clone()));
    let stranger = store.user(&stranger.id).await.expect("read").expect("still there");
    assert_eq!((stranger.email.as_str(), stranger.email_verified), ("", false), "the claim is gone");
    assert_eq!(store.users_claiming_email(&email("asha@example.in"), 10).await.expect("read"), vec![]);
    assert_eq!(store.prove(&asha.id, Channel::Email).await.expect("again"), asha, "proving twice changes nothing");
    // The same the other way: the mobile.
    let impostor = user("i", "imp@example.in", "9876543210");
    store.create_user(&impostor).await.expect("create");
    store.prove(&asha.id, Channel::Sms).await.expect("Asha proves her mobile");
    let impostor = store.user(&impostor.id).await.expect("read").expect("still there");
    assert_eq!((impostor.mobile.as_str(), impostor.mobile_verified), ("", false), "the mobile claim is gone");
    assert_eq!(store.user_by_mobile("9876543210").await.expect("read").map(|u| u.id), Some(asha.id.clone()));
    // A proven email or mobile is refused to anyone else; an unknown customer, or a channel it does not have, is invalid.
    let late = user("l", "asha@example.in", "9876543210");
    store.create_user(&late).await.expect("a claim");
    assert_eq!(store.prove(&late.id, Channel::Email).await, Err(AccountStoreError::DuplicateEmail));
    assert_eq!(store.prove(&late.id, Channel::Sms).await, Err(AccountStoreError::DuplicateMobile));
    assert_eq!(store.user(&late.id).await.expect("read"), Some(late), "nothing changed");
    assert!(matches!(
        store.prove(&UserId("ghost".into()), Channel::Email).await,
        Err(AccountStoreError::Invalid { .. })
    ));
    assert!(
        matches!(store.prove(&impostor.id, Channel::Sms).await, Err(AccountStoreError::Invalid { .. })),
        "no mobile left"
    );
}

pub async fn racing_proofs_of_one_email_leave_exactly_one_owner(store: &dyn AccountStore) {
    let claimants: Vec<UserRecord> =
        (0..6).map(|i| user(&format!("c{i}"), "race@example.in", &format!("98765432{i:02}"))).collect();
    for c in &claimants {
        store.create_user(c).await.expect("create");
    }
    let outcomes = join_all(claimants.iter().map(|c| store.prove(&c.id, Channel::Email))).await;
    let won: Vec<&UserRecord> = outcomes.iter().filter_map(|o| o.as_ref().ok()).collect();
    assert_eq!(won.len(), 1, "exactly one proof wins: {outcomes:?}");
    assert!(
        outcomes
            .iter()
            .all(|o| o.is_ok()
                || matches!(o, Err(AccountStoreError::DuplicateEmail | AccountStoreError::Invalid { .. }))),
        "{outcomes:?}"
    );
    let owner = store.user_by_email(&email("race@example.in")).await.expect("read").expect("an owner");
    assert_eq!(&owner.id, &won[0].id);
    let mut holding = 0;
    for c in &claimants {
        holding += usize::from(store.user(&c.id).await.expect("read").is_some_and(|u| !u.email.is_empty()));
    }
    assert_eq!(holding, 1, "only the owner still holds the email");
}

pub async fn external_identities_are_kept_by_issuer_and_subject(store: &dyn AccountStore) {
    let asha = proven("u1", "asha@example.in", "9876543210");
    store.create_user(&asha).await.expect("create");
    let google = "https://accounts.google.com";
    assert_eq!(store.user_by_external(google, "108").await.expect("read"), None);
    store.link_external(google, "108", &asha.id).await.expect("link");
    assert_eq!(store.user_by_external(google, "108").await.expect("read"), Some(asha.clone()));
    assert_eq!(
        store.user_by_external("https://other.example", "108").await.expect("read"),
        None,
        "another issuer's subject"
    );
    store.link_external(google, "108", &UserId("u2".into())).await.expect("linking again is not an error");
    assert_eq!(
        store.user_by_external(google, "108").await.expect("read").map(|u| u.id),
        Some(asha.id),
        "the first link stays"
    );
    assert_eq!(store.user_by_external("", "").await.expect("read"), None);
}

pub async fn sessions_last_until_they_expire(store: &dyn AccountStore) {
    let session = NewSession { token_hash: "h1".to_owned(), user: UserId("u1".into()), expires_at: NOW + 100 };
    store.create_session(&session).await.expect("create");
    assert_eq!(store.session_user("h1", NOW).await.expect("read"), Some(UserId("u1".into())));
    assert_eq!(store.session_user("h1", NOW + 99).await.expect("read"), Some(UserId("u1".into())));
    assert_eq!(store.session_user("h1", NOW + 100).await.expect("read"), None, "expired at expires_at");
    assert_eq!(store.session_user("other", NOW).await.expect("read"), None, "unknown hash");
    assert_eq!(store.session_user("", NOW).await.expect("read"), None, "empty hash");
}

pub async fn ended_sessions_are_gone_and_ending_twice_is_harmless(store: &dyn AccountStore) {
    for (hash, user) in [("h1", "u1"), ("h2", "u1")] {
        let s = NewSession { token_hash: hash.to_owned(), user: UserId(user.into()), expires_at: NOW + 100 };
        store.create_session(&s).await.expect("create");
    }
    store.end_session("h1").await.expect("end");
    assert_eq!(store.session_user("h1", NOW).await.expect("read"), None, "ended");
    assert_eq!(store.session_user("h2", NOW).await.expect("read"), Some(UserId("u1".into())), "only that session ends");
    store.end_session("h1").await.expect("ending an ended session is not an error");
    store.end_session("never").await.expect("ending an unknown session is not an error");
}

pub async fn a_new_challenge_replaces_the_earlier_one(store: &dyn AccountStore) {
    store.put_challenge(&challenge("u1", "first", NOW, 5)).await.expect("put");
    store.put_challenge(&challenge("u1", "second", NOW + 40, 5)).await.expect("put");
    let live = store.challenge(&key("u1"), NOW + 41).await.expect("read").expect("a live code");
    assert_eq!(live, challenge("u1", "second", NOW + 40, 5));
    assert!(
        matches!(store.check_challenge(&key("u1"), NOW + 41, "first").await, Ok(ChallengeOutcome::Wrong { .. })),
        "the earlier code ended"
    );
    assert_eq!(store.check_challenge(&key("u1"), NOW + 42, "second").await, Ok(ChallengeOutcome::Accepted));
    assert_eq!(store.challenge(&key("u2"), NOW).await.expect("read"), None, "other keys have none");
}

pub async fn challenges_expire(store: &dyn AccountStore) {
    store.put_challenge(&challenge("u1", "code", NOW, 5)).await.expect("put");
    assert!(store.challenge(&key("u1"), NOW + 599).await.expect("read").is_some());
    assert_eq!(store.challenge(&key("u1"), NOW + 600).await.expect("read"), None, "expired");
    assert_eq!(store.check_challenge(&key("u1"), NOW + 600, "code").await, Ok(ChallengeOutcome::NoCode));
}

pub async fn the_right_code_is_accepted_once(store: &dyn AccountStore) {
    assert_eq!(store.check_challenge(&key("u1"), NOW, "code").await, Ok(ChallengeOutcome::NoCode), "never sent");
    store.put_challenge(&challenge("u1", "code", NOW, 5)).await.expect("put");
    assert_eq!(store.check_challenge(&key("u1"), NOW + 1, "code").await, Ok(ChallengeOutcome::Accepted));
    assert_eq!(store.check_challenge(&key("u1"), NOW + 2, "code").await, Ok(ChallengeOutcome::NoCode), "used up");
    assert_eq!(store.challenge(&key("u1"), NOW + 2).await.expect("read"), None);
}

pub async fn wrong_tries_count_down_and_the_last_ends_the_code(store: &dyn AccountStore) {
    store.put_challenge(&challenge("u1", "code", NOW, 3)).await.expect("put");
    for left in [2, 1, 0] {
        assert_eq!(
            store.check_challenge(&key("u1"), NOW + 1, "nope").await,
            Ok(ChallengeOutcome::Wrong { tries_left: left })
        );
    }
    assert_eq!(
        store.check_challenge(&key("u1"), NOW + 1, "code").await,
        Ok(ChallengeOutcome::NoCode),
        "ended by wrong tries"
    );
    assert_eq!(store.challenge(&key("u1"), NOW + 1).await.expect("read"), None);
}

pub async fn concurrent_checks_grant_at_most_the_tries_stored(store: &dyn AccountStore) {
    store.put_challenge(&challenge("u1", "code", NOW, 5)).await.expect("put");
    let k1 = key("u1");
    let outcomes = join_all((0..20).map(|_| store.check_challenge(&k1, NOW + 1, "nope"))).await;
    let wrong = outcomes.iter().filter(|o| matches!(o, Ok(ChallengeOutcome::Wrong { .. }))).count();
    let none = outcomes.iter().filter(|o| matches!(o, Ok(ChallengeOutcome::NoCode))).count();
    assert_eq!((wrong, none), (5, 15), "20 concurrent wrong tries of a code with 5: {outcomes:?}");
    let mut lefts: Vec<u8> = outcomes
        .iter()
        .filter_map(|o| match o {
            Ok(ChallengeOutcome::Wrong { tries_left }) => Some(*tries_left),
            _ => None,
        })
        .collect();
    lefts.sort_unstable();
    assert_eq!(lefts, vec![0, 1, 2, 3, 4], "each try spent exactly once");

    store.put_challenge(&challenge("u2", "code", NOW, 5)).await.expect("put");
    let k2 = key("u2");
    let outcomes = join_all((0..10).map(|_| store.check_challenge(&k2, NOW + 1, "code"))).await;
    let accepted = outcomes.iter().filter(|o| **o == Ok(ChallengeOutcome::Accepted)).count();
    assert_eq!(accepted, 1, "a code is used once however many check it at once: {outcomes:?}");
}

pub async fn fifty_concurrent_wrong_guesses_compare_at_most_five_and_then_the_right_code_is_refused(
    store: &dyn AccountStore,
) {
    store.put_challenge(&challenge("u1", "right", NOW, 5)).await.expect("put");
    let k = key("u1");
    let guesses: Vec<String> = (0..50).map(|i| format!("wrong-{i}")).collect();
    let outcomes = join_all(guesses.iter().map(|g| store.check_challenge(&k, NOW + 1, g))).await;
    let compared = outcomes.iter().filter(|o| matches!(o, Ok(ChallengeOutcome::Wrong { .. }))).count();
    assert!(
        outcomes.iter().all(|o| matches!(o, Ok(ChallengeOutcome::Wrong { .. } | ChallengeOutcome::NoCode))),
        "{outcomes:?}"
    );
    assert!(compared <= 5, "at most 5 of 50 concurrent guesses were compared, not {compared}");
    assert_eq!(compared, 5, "and every try was spent: {outcomes:?}");
    assert_eq!(
        store.check_challenge(&k, NOW + 2, "right").await,
        Ok(ChallengeOutcome::NoCode),
        "the right code is then refused"
    );
    assert_eq!(store.challenge(&k, NOW + 2).await.expect("read"), None);
}

pub async fn email_and_mobile_codes_are_kept_apart(store: &dyn AccountStore) {
    let sms = key("u1");
    let mail = ChallengeKey { user: UserId("u1".into()), channel: Channel::Email };
    store.put_challenge(&challenge("u1", "by-sms", NOW, 5)).await.expect("put");
    store.put_challenge(&Challenge { key: mail.clone(), ..challenge("u1", "by-email", NOW, 5) }).await.expect("put");
    assert_eq!(store.challenge(&sms, NOW + 1).await.expect("read").map(|c| c.code_hash), Some("by-sms".to_owned()));
    assert_eq!(store.challenge(&mail, NOW + 1).await.expect("read").map(|c| c.key), Some(mail.clone()));
    assert_eq!(
        store.check_challenge(&sms, NOW + 1, "by-email").await,
        Ok(ChallengeOutcome::Wrong { tries_left: 4 }),
        "the email's code does not open the SMS key"
    );
    assert_eq!(store.check_challenge(&mail, NOW + 1, "by-email").await, Ok(ChallengeOutcome::Accepted));
    assert_eq!(
        store.check_challenge(&sms, NOW + 1, "by-sms").await,
        Ok(ChallengeOutcome::Accepted),
        "each key has its own code"
    );
}

pub async fn the_sweep_removes_ended_sessions_stale_sign_ins_and_day_old_unproven_accounts(store: &dyn AccountStore) {
    const DAY: i64 = 86_400;
    for (hash, expires) in [("live", NOW + 100), ("expired", NOW), ("ended", NOW + 100)] {
        store
            .create_session(&NewSession { token_hash: hash.into(), user: UserId("u1".into()), expires_at: expires })
            .await
            .expect("session");
    }
    store.end_session("ended").await.expect("end");
    let pending = |state: &str| PendingSignIn { state: state.into(), nonce: "n".into(), pkce_verifier: "v".into() };
    store.put_pending_sign_in(&pending("fresh"), NOW + 600).await.expect("put");
    store.put_pending_sign_in(&pending("stale"), NOW - 1).await.expect("put");
    let old_unproven = UserRecord { created_at: NOW - DAY - 1, ..user("old", "old@example.in", "9000000001") };
    let new_unproven = UserRecord { created_at: NOW - 10, ..user("new", "new@example.in", "9000000002") };
    let old_half = UserRecord { created_at: NOW - 2 * DAY, ..user("half", "half@example.in", "9000000003") };
    for u in [&old_unproven, &new_unproven, &old_half] {
        store.create_user(u).await.expect("create");
    }
    store.prove(&old_half.id, Channel::Sms).await.expect("one channel proven");

    let swept = store.sweep(NOW, NOW - DAY).await.expect("sweep");
    assert_eq!((swept.sessions, swept.pending_sign_ins), (2, 1), "{swept:?}");
    assert_eq!(swept.accounts, vec![old_unproven.clone()], "only the day-old account with nothing proven");
    assert_eq!(store.session_user("live", NOW).await.expect("read"), Some(UserId("u1".into())));
    assert_eq!(store.user(&old_unproven.id).await.expect("read"), None);
    assert!(store.user(&new_unproven.id).await.expect("read").is_some(), "a day to prove something");
    assert!(store.user(&old_half.id).await.expect("read").is_some(), "one proven channel keeps an account");
    assert_eq!(
        store.take_pending_sign_in("fresh", NOW).await.expect("take").map(|p| p.state),
        Some("fresh".to_owned())
    );
    let again = store.sweep(NOW, NOW - DAY).await.expect("sweep");
    assert_eq!((again.sessions, again.pending_sign_ins, again.accounts.len()), (0, 0, 0), "nothing left to sweep");
}

pub async fn pending_sign_ins_are_taken_once_and_expire(store: &dyn AccountStore) {
    let pending = |state: &str| PendingSignIn {
        state: state.into(),
        nonce: format!("n-{state}"),
        pkce_verifier: format!("v-{state}"),
    };
    store.put_pending_sign_in(&pending("s1"), NOW + 600).await.expect("put");
    store.put_pending_sign_in(&pending("s2"), NOW + 600).await.expect("put");
    assert_eq!(store.take_pending_sign_in("nope", NOW).await, Ok(None), "an unknown state has nothing");
    let taken = join_all((0..5).map(|_| store.take_pending_sign_in("s1", NOW + 1))).await;
    let got: Vec<_> = taken.into_iter().filter_map(|t| t.expect("take")).collect();
    assert_eq!(got, vec![pending("s1")], "a pending sign-in is taken exactly once, intact");
    assert_eq!(store.take_pending_sign_in("s1", NOW + 2).await, Ok(None), "and never again");
    assert_eq!(store.take_pending_sign_in("s2", NOW + 600).await, Ok(None), "none at or past its end");
}

pub async fn sign_in_codes_are_taken_once_and_expire(store: &dyn AccountStore) {
    let code = |hash: &str, expires_at: i64| SignInCode {
        code_hash: hash.into(),
        user: UserId(format!("user-{hash}")),
        browser_hash: format!("browser-{hash}"),
        expires_at,
    };
    store.put_sign_in_code(&code("c1", NOW + 60)).await.expect("put");
    store.put_sign_in_code(&code("c2", NOW + 60)).await.expect("put");
    assert_eq!(store.take_sign_in_code("nope", NOW).await, Ok(None), "an unknown code has nothing");
    let taken = join_all((0..5).map(|_| store.take_sign_in_code("c1", NOW + 1))).await;
    let got: Vec<_> = taken.into_iter().filter_map(|t| t.expect("take")).collect();
    assert_eq!(got, vec![code("c1", NOW + 60)], "a code is taken exactly once, intact");
    assert_eq!(store.take_sign_in_code("c1", NOW + 2).await, Ok(None), "and never again");
    assert_eq!(store.take_sign_in_code("c2", NOW + 60).await, Ok(None), "none at or past its end");
    assert_eq!(store.take_sign_in_code("c2", NOW).await, Ok(None), "an expired code is gone, not kept for later");
}

pub async fn erasing_a_customer_ends_their_sessions_and_frees_their_email_and_mobile(store: &dyn AccountStore) {
    let (asha, ravi) = (user("u1", "asha@example.in", "9876543210"), user("u2", "ravi@example.in", "9123456780"));
    for (u, hash) in [(&asha, "h1"), (&asha, "h2"), (&ravi, "h3")] {
        store.create_user(u).await.ok();
        store
            .create_session(&NewSession { token_hash: hash.into(), user: u.id.clone(), expires_at: NOW + 100 })
            .await
            .expect("session");
    }
    store.put_challenge(&challenge("u1", "code-hash", NOW, 5)).await.expect("challenge");
    store
        .put_sign_in_code(&SignInCode {
            code_hash: "c1".into(),
            user: asha.id.clone(),
            browser_hash: "b".into(),
            expires_at: NOW + 60,
        })
        .await
        .expect("code");

    store.erase_user(&asha.id).await.expect("erase");
    assert_eq!(store.user(&asha.id).await.expect("read"), None, "the account is gone");
    assert_eq!(store.user_by_email(&email("asha@example.in")).await.expect("read"), None);
    assert_eq!(store.user_by_mobile("9876543210").await.expect("read"), None);
    for hash in ["h1", "h2"] {
        assert_eq!(store.session_user(hash, NOW).await.expect("read"), None, "every session of theirs ended");
    }
    assert_eq!(store.challenge(&key("u1"), NOW).await.expect("read"), None, "their code is gone");
    assert_eq!(store.take_sign_in_code("c1", NOW).await.expect("take"), None, "their sign-in code is gone");
    assert_eq!(store.user(&ravi.id).await.expect("read"), Some(ravi.clone()), "another customer stays");
    assert_eq!(store.session_user("h3", NOW).await.expect("read"), Some(ravi.id.clone()));

    store.erase_user(&asha.id).await.expect("erasing again is harmless");
    store.erase_user(&UserId("nobody".into())).await.expect("an unknown id is harmless");
    store.create_user(&user("u3", "asha@example.in", "9876543210")).await.expect("the email and mobile are free again");
}

fn offer(percent: u32, ends_on: &str) -> CustomerOffer {
    CustomerOffer {
        percentage: DiscountPercent::for_offer(percent).expect("1-90"),
        ends_on: OfferEndsOn::parse(ends_on).expect("a day"),
    }
}

fn offer_audit(action: &str, id: &str) -> AuditEntry {
    let owner = Actor::Staff { id: StaffId("s1".into()), email: "owner@marque.in".into() };
    AuditEntry::new(NOW, owner, action, format!("customer:{id}"))
}

pub async fn an_offer_is_set_replaced_and_ended_and_an_update_leaves_it(store: &dyn AccountStore) {
    let asha = user("u1", "asha@example.in", "9876543210");
    store.create_user(&asha).await.expect("create");
    store.set_offer(&asha.id, Some(offer(15, "2030-01-31")), &offer_audit("offer.set", "u1")).await.expect("set");
    let read = store.user(&asha.id).await.expect("read").expect("the customer");
    assert_eq!((read.percentage, read.offer_ends_on), (15, OfferEndsOn::parse("2030-01-31").ok()));
    assert_eq!(read.name, asha.name, "nothing else changes");

    let mut renamed = read.clone();
    renamed.name = "Asha Rao".to_owned();
    renamed.percentage = 0;
    renamed.offer_ends_on = None;
    store.update_user(&renamed).await.expect("a profile update");
    let read = store.user(&asha.id).await.expect("read").expect("the customer");
    assert_eq!(read.name, "Asha Rao");
    assert_eq!((read.percentage, read.offer_ends_on), (15, OfferEndsOn::parse("2030-01-31").ok()), "the offer stays");

    store.set_offer(&asha.id, Some(offer(5, "2029-02-28")), &offer_audit("offer.set", "u1")).await.expect("replace");
    let read = store.user(&asha.id).await.expect("read").expect("the customer");
    assert_eq!((read.percentage, read.offer_ends_on), (5, OfferEndsOn::parse("2029-02-28").ok()), "replaced");
    store.set_offer(&asha.id, None, &offer_audit("offer.end", "u1")).await.expect("end");
    let read = store.user(&asha.id).await.expect("read").expect("the customer");
    assert_eq!((read.percentage, read.offer_ends_on), (0, None), "ended");
}

pub async fn an_offer_for_nobody_is_invalid(store: &dyn AccountStore) {
    let refused = store
        .set_offer(&UserId("ghost".into()), Some(offer(10, "2030-01-31")), &offer_audit("offer.set", "ghost"))
        .await;
    assert!(matches!(refused, Err(AccountStoreError::Invalid { .. })), "{refused:?}");
    assert_eq!(store.user(&UserId("ghost".into())).await.expect("read"), None, "an offer creates nobody");
}

pub async fn customers_are_found_by_name_email_or_mobile(store: &dyn AccountStore) {
    let asha = UserRecord { name: "Asha Rao".into(), ..proven("u1", "Asha@Example.in", "9876543210") };
    let ravi = UserRecord {
        name: "Ravi Ashok Kumar".into(),
        created_at: 1_700_000_100,
        ..user("u2", "ravi@example.in", "9123456780")
    };
    let zoe = UserRecord { name: "Zoë Dias".into(), created_at: 1_700_000_200, ..user("u3", "", "") };
    for u in [&asha, &ravi, &zoe] {
        store.create_user(u).await.expect("create");
    }
    let ids = |found: Vec<UserRecord>| found.into_iter().map(|u| u.id.0).collect::<Vec<_>>();
    let find = |text: &'static str| async move {
        let page = store.search_users(text, window(1, 20)).await.unwrap_or_else(|e| panic!("search {text:?}: {e}"));
        assert_eq!(page.total, page.users.len() as u64, "{text:?}: total counts every match");
        ids(page.users)
    };
    assert_eq!(find("asha@example.IN").await, vec!["u1"], "a proven email in any case");
    assert_eq!(find(" ravi@example.in ").await, vec!["u2"], "a claimed email, trimmed");
    assert_eq!(find("ravi@example").await, Vec::<String>::new(), "an email is matched whole");
    assert_eq!(find("9876543210").await, vec!["u1"], "a proven mobile");
    assert_eq!(find("+91 91234-56780").await, vec!["u2"], "a claimed mobile as people type it");
    assert_eq!(find("asha").await, vec!["u1"], "a name word");
    assert_eq!(find("ash").await, vec!["u2", "u1"], "the beginning of a name word, newest account first");
    assert_eq!(find("RAVI kum").await, vec!["u2"], "every word must begin a name word, any case");
    assert_eq!(find("asha kumar").await, Vec::<String>::new(), "not when one word matches nothing");
    assert_eq!(find("zoe").await, vec!["u3"], "accents ignored");
    assert_eq!(find("sha").await, Vec::<String>::new(), "words are matched from their start");
    assert_eq!(find("").await, Vec::<String>::new(), "nothing finds nobody");
    assert_eq!(find("a").await, Vec::<String>::new(), "one letter finds nobody");
    assert_eq!(find("Asha Rao").await, vec!["u1"]);
    let found = store.search_users("asha rao", window(1, 20)).await.expect("search");
    assert_eq!(found.users, vec![asha], "the customer as stored");
}

pub async fn customer_searches_page_newest_first(store: &dyn AccountStore) {
    for i in 0..7_i64 {
        let u = UserRecord {
            name: format!("Meera {i}"),
            created_at: 1_700_000_000 + i / 2,
            ..user(&format!("m{i}"), &format!("meera{i}@example.in"), "")
        };
        store.create_user(&u).await.expect("create");
    }
    let mut seen = Vec::new();
    for page in 1..=3 {
        let page = store.search_users("meera", window(page, 3)).await.expect("a window");
        assert_eq!(page.total, 7);
        seen.extend(page.users.into_iter().map(|u| (u.created_at, u.id.0)));
    }
    let mut expected = seen.clone();
    expected.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    assert_eq!(seen, expected, "newest account first, then by id");
    expected.dedup();
    assert_eq!(expected.len(), 7, "every customer once");
    let past = store.search_users("meera", window(4, 3)).await.expect("past the end");
    assert_eq!((past.users, past.total), (vec![], 7));
}
