use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Mutex;

use marque_domain::rate::WindowHits;
use marque_ports::{MockRateCounter, RateCounterError};

use super::*;

struct FixedClock(AtomicI64);

impl Clock for FixedClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Counters that live in a map, windows as the port describes them.
pub(crate) fn counting() -> MockRateCounter {
    let counts = Arc::new(Mutex::new(std::collections::HashMap::<(String, i64), u32>::new()));
    let mut counter = MockRateCounter::new();
    let taken = counts.clone();
    counter.expect_hit().returning(move |key, now, window| {
        let start = now.div_euclid(window) * window;
        let mut counts = counts.lock().expect("not poisoned");
        let previous = counts.get(&(key.to_owned(), start - window)).copied().unwrap_or(0);
        let n = counts.entry((key.to_owned(), start)).or_insert(0);
        *n += 1;
        Ok(WindowHits { current: *n, previous })
    });
    counter.expect_unhit().returning(move |key, now, window| {
        let start = now.div_euclid(window) * window;
        if let Some(n) = taken.lock().expect("not poisoned").get_mut(&(key.to_owned(), start)) {
            *n = n.saturating_sub(1);
        }
        Ok(())
    });
    counter
}

fn throttle(counter: MockRateCounter, now: i64) -> (Throttle, Arc<FixedClock>) {
    let clock = Arc::new(FixedClock(AtomicI64::new(now)));
    let rules = ThrottleRules { pay: Rule { limit: 3, window_secs: 60 }, ..ThrottleRules::default() };
    (Throttle::new(Arc::new(counter), clock.clone(), rules), clock)
}

#[tokio::test]
async fn refuses_past_the_limit_until_enough_of_the_last_minute_has_passed() {
    let (throttle, clock) = throttle(counting(), 6_000 + 45);
    for _ in 0..3 {
        throttle.check(Action::Pay, "u1").await.expect("within the limit");
    }
    // The refused fourth is not kept: one more is allowed once the three weigh at most two,
    // 3 × (60 − e) ≤ 120 ⇒ 20 s into the next window.
    assert_eq!(throttle.check(Action::Pay, "u1").await, Err(ThrottleError::Limited { retry_after_secs: 15 + 20 }));
    // Another customer and another action have counters of their own.
    throttle.check(Action::Pay, "u2").await.expect("another customer");
    throttle.check(Action::Invoice, "u1").await.expect("another action");
    clock.0.store(6_060 + 20, Ordering::SeqCst);
    throttle.check(Action::Pay, "u1").await.expect("when the retry said");
}

#[tokio::test]
async fn hammering_past_the_limit_does_not_move_the_end_of_the_refusal() {
    let (throttle, clock) = throttle(counting(), 6_000 + 45);
    for _ in 0..3 {
        throttle.check(Action::Pay, "u1").await.expect("within the limit");
    }
    for _ in 0..200 {
        assert_eq!(throttle.check(Action::Pay, "u1").await, Err(ThrottleError::Limited { retry_after_secs: 35 }));
    }
    clock.0.store(6_060 + 20, Ordering::SeqCst);
    throttle.check(Action::Pay, "u1").await.expect("when the first refusal said, however many were refused since");
}

#[tokio::test]
async fn a_burst_at_the_end_of_one_minute_still_counts_at_the_start_of_the_next() {
    let (throttle, clock) = throttle(counting(), 6_059);
    for _ in 0..3 {
        throttle.check(Action::Pay, "u1").await.expect("within the limit");
    }
    clock.0.store(6_061, Ordering::SeqCst);
    assert!(matches!(throttle.check(Action::Pay, "u1").await, Err(ThrottleError::Limited { .. })));
}

#[tokio::test]
async fn counters_that_cannot_be_written_are_reported() {
    let mut counter = MockRateCounter::new();
    counter.expect_hit().returning(|_, _, _| Err(RateCounterError::Unavailable { reason: "down".into() }));
    let (throttle, _) = throttle(counter, 100);
    assert!(matches!(throttle.check(Action::Pay, "u1").await, Err(ThrottleError::Unavailable(_))));
}

#[test]
fn every_action_has_its_own_key() {
    let actions = [
        Action::Pay,
        Action::AddressWrite,
        Action::WishlistWrite,
        Action::ProfileUpdate,
        Action::Invoice,
        Action::SignUp,
        Action::MobileLogin,
        Action::Resend,
        Action::SignInStart,
        Action::Grievance,
    ];
    let keys: std::collections::HashSet<_> = actions.iter().map(|a| a.key()).collect();
    assert_eq!(keys.len(), actions.len());
}
