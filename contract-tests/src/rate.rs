//! The `RateCounter` contract, one suite per promise in `marque_ports::rate`.
//!
//! Every suite takes fresh, empty counters and panics with a message naming the broken
//! promise. Adapters run them per engine through [`for_each_rate_suite!`](crate::for_each_rate_suite).

use futures::future::join_all;
use marque_domain::rate::WindowHits;
use marque_ports::RateCounter;

/// Calls `$callback!(suite_name)` once for every rate counter suite.
#[macro_export]
macro_rules! for_each_rate_suite {
    ($callback:ident) => {
        $callback!(hits_are_counted_per_key_and_window);
        $callback!(an_unhit_takes_back_one_hit_of_its_window);
        $callback!(a_taken_back_hit_no_longer_counts);
    };
}

/// 2027-01-15 08:00 UTC, as in the account suites.
const NOW: i64 = 1_800_000_000;

pub async fn hits_are_counted_per_key_and_window(counter: &dyn RateCounter) {
    let hits = |current, previous| Ok(WindowHits { current, previous });
    let start = NOW - NOW.rem_euclid(3600);
    for n in 1..=3 {
        assert_eq!(counter.hit("otp-send:9876543210", start + i64::from(n), 3600).await, hits(n, 0));
    }
    assert_eq!(counter.hit("otp-send:9123456780", start + 5, 3600).await, hits(1, 0), "keys count apart");
    assert_eq!(
        counter.hit("otp-send:9876543210", start + 3600, 3600).await,
        hits(1, 3),
        "a new window starts at one, the last one is told"
    );
    assert_eq!(counter.hit("otp-send:9876543210", start + 3601, 3600).await, hits(2, 3));
    assert_eq!(
        counter.hit("otp-send:9876543210", start + 3 * 3600, 3600).await,
        hits(1, 0),
        "a window after an empty one"
    );
    let counts = join_all((0..10).map(|_| counter.hit("login:203.0.113.9", start + 7, 60))).await;
    let mut counts: Vec<u32> = counts.into_iter().map(|c| c.expect("hit").current).collect();
    counts.sort_unstable();
    assert_eq!(counts, (1..=10).collect::<Vec<u32>>(), "concurrent hits each count once");
    assert_eq!(counter.hit("login:203.0.113.9", start + 60, 60).await, hits(1, 10), "the next minute sees all ten");
    assert_eq!(
        counter.hit("otp-send:9876543210", start + 3 * 86_400, 3600).await,
        hits(1, 0),
        "days later: a fresh count"
    );
    assert_eq!(counter.hit("otp-send:9876543210", start + 3 * 86_400 + 1, 3600).await, hits(2, 0));
}

pub async fn an_unhit_takes_back_one_hit_of_its_window(counter: &dyn RateCounter) {
    let start = NOW - NOW.rem_euclid(60);
    for _ in 0..3 {
        counter.hit("guess:u1", start + 1, 60).await.expect("hit");
    }
    counter.unhit("guess:u1", start + 2, 60).await.expect("unhit");
    assert_eq!(
        counter.hit("guess:u1", start + 3, 60).await,
        Ok(WindowHits { current: 3, previous: 0 }),
        "one taken back"
    );
    for _ in 0..5 {
        counter.unhit("guess:u1", start + 4, 60).await.expect("unhit");
    }
    assert_eq!(
        counter.hit("guess:u1", start + 5, 60).await,
        Ok(WindowHits { current: 1, previous: 0 }),
        "never below zero"
    );
    counter.unhit("never:counted", start, 60).await.expect("an unknown key is not an error");
    assert_eq!(counter.hit("never:counted", start + 1, 60).await, Ok(WindowHits { current: 1, previous: 0 }));
}

pub async fn a_taken_back_hit_no_longer_counts(counter: &dyn RateCounter) {
    let hits = |current, previous| Ok(WindowHits { current, previous });
    let start = NOW - NOW.rem_euclid(60);
    assert_eq!(counter.hit("login:198.51.100.7", start + 1, 60).await, hits(1, 0));
    assert_eq!(counter.hit("login:198.51.100.7", start + 2, 60).await, hits(2, 0));
    counter.unhit("login:198.51.100.7", start + 3, 60).await.expect("taken back");
    assert_eq!(counter.hit("login:198.51.100.7", start + 4, 60).await, hits(2, 0), "the taken-back hit is gone");
    counter.unhit("login:198.51.100.7", start + 61, 60).await.expect("a window with no count");
    assert_eq!(
        counter.hit("login:198.51.100.7", start + 62, 60).await,
        hits(1, 2),
        "nothing below zero, the last window told"
    );
    counter.unhit("never-hit", start, 60).await.expect("an unknown key");
    assert_eq!(counter.hit("never-hit", start + 1, 60).await, hits(1, 0));
}
