//! Rate limits over a sliding window, counted in fixed windows.
//!
//! A store keeps one counter per key and fixed window (windows start at multiples of their
//! length). Counting only the current fixed window lets a burst straddle a boundary: ten
//! attempts in the last second of one minute and ten in the first second of the next would
//! all pass a limit of ten a minute. So a limit looks at the last full window length instead,
//! estimated from the two counters: every hit of the current window, plus the previous
//! window's hits weighted by how much of it still lies inside the last window length,
//! rounded up so the estimate never undercounts a burst that sits at the boundary.

/// The hits counted for one key in the fixed window containing `now` and in the one before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WindowHits {
    /// Hits in the current fixed window, including the one just counted.
    pub current: u32,
    /// Hits in the fixed window before it.
    pub previous: u32,
}

/// A limit: at most `limit` hits in any `window_secs` seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub limit: u32,
    pub window_secs: i64,
}

impl Window {
    #[must_use]
    pub const fn new(limit: u32, window_secs: i64) -> Self {
        Self { limit, window_secs }
    }

    fn secs(self) -> i64 {
        self.window_secs.max(1)
    }

    /// Where `now` lies in its fixed window, in seconds from the window's start.
    fn elapsed(self, now: i64) -> i64 {
        now.rem_euclid(self.secs())
    }

    /// The estimated hits in the `window_secs` seconds up to `now`.
    #[must_use]
    pub fn estimate(self, hits: WindowHits, now: i64) -> u64 {
        let secs = self.secs();
        let overlap = secs - self.elapsed(now);
        u64::from(hits.current) + weighted_up(hits.previous, overlap, secs)
    }

    /// Whether the hits, the latest included, stay within the limit.
    #[must_use]
    pub fn allows(self, hits: WindowHits, now: i64) -> bool {
        self.estimate(hits, now) <= u64::from(self.limit)
    }

    /// Seconds from `now` until one more hit would be allowed again, at least one, if no
    /// other hit is counted meanwhile.
    #[must_use]
    pub fn retry_after(self, hits: WindowHits, now: i64) -> i64 {
        let secs = self.secs();
        let elapsed = self.elapsed(now);
        // One more hit is allowed when the estimate before it is at most `limit - 1`.
        let room = i64::from(self.limit) - 1;
        let current = i64::from(hits.current);
        if room < 0 {
            return secs - elapsed;
        }
        let wait = if current <= room {
            // Within this window, once the previous window's share has shrunk enough.
            elapsed_for(hits.previous, room - current, secs).max(elapsed) - elapsed
        } else {
            // In the next window, where this window's hits are the previous ones.
            (secs - elapsed) + elapsed_for(hits.current, room, secs)
        };
        wait.max(1)
    }
}

/// `ceil(count × part / whole)` for `0 ≤ part ≤ whole`.
fn weighted_up(count: u32, part: i64, whole: i64) -> u64 {
    let part = u64::try_from(part.clamp(0, whole)).unwrap_or(0);
    let whole = u64::try_from(whole.max(1)).unwrap_or(1);
    (u64::from(count) * part).div_ceil(whole)
}

/// The earliest second into a window at which `count` hits of the window before weigh at most
/// `room`: the least `e` with `ceil(count × (whole − e) / whole) ≤ room`.
fn elapsed_for(count: u32, room: i64, whole: i64) -> i64 {
    if room < 0 {
        return whole;
    }
    // count × (whole − e) ≤ room × whole  ⇔  e ≥ whole − room × whole / count.
    let count = i64::from(count);
    if count <= room {
        return 0;
    }
    let allowed = room * whole; // the largest count × (whole − e) that is fine
                                // whole − e ≤ allowed / count (floor), so e ≥ whole − floor(allowed / count).
    whole - allowed.div_euclid(count)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const MINUTE: Window = Window::new(10, 60);

    #[test]
    fn a_burst_across_a_window_boundary_is_counted_whole() {
        // Five hits at the end of one minute and six at the start of the next.
        let hits = WindowHits { current: 6, previous: 5 };
        assert_eq!(MINUTE.estimate(hits, 6_000 + 1), 11);
        assert!(!MINUTE.allows(hits, 6_000 + 1));
    }

    #[test]
    fn the_previous_window_fades_as_the_current_one_goes_on() {
        let hits = WindowHits { current: 1, previous: 12 };
        assert_eq!(MINUTE.estimate(hits, 6_000), 13, "at the boundary all of it counts");
        assert_eq!(MINUTE.estimate(hits, 6_030), 7, "half way: half of it");
        assert_eq!(MINUTE.estimate(hits, 6_059), 2, "at the end: a twelfth of a second's share, rounded up");
    }

    #[test]
    fn retry_after_waits_for_enough_of_the_previous_window_to_fade() {
        let hits = WindowHits { current: 10, previous: 0 };
        assert_eq!(MINUTE.retry_after(hits, 6_045), 15 + 6, "into the next window until 10 hits weigh at most 9");
        let hits = WindowHits { current: 3, previous: 20 };
        // Room for 6 of the previous 20: 20 × (60 − e) ≤ 360 ⇒ e ≥ 42.
        assert_eq!(MINUTE.retry_after(hits, 6_010), 32);
    }

    proptest! {
        /// The wait is exactly long enough: a hit then is allowed, a second earlier it is not.
        #[test]
        fn retry_after_is_the_first_allowed_second(
            limit in 1u32..30, window_secs in 1i64..4_000, current in 0u32..60, previous in 0u32..60, at in 0i64..1_000_000,
        ) {
            let window = Window::new(limit, window_secs);
            let hits = WindowHits { current, previous };
            let wait = window.retry_after(hits, at);
            prop_assert!(wait >= 1);
            let then = at + wait;
            let crossed = then.div_euclid(window_secs) != at.div_euclid(window_secs);
            let later = if crossed {
                let skipped = then.div_euclid(window_secs) - at.div_euclid(window_secs) > 1;
                WindowHits { current: 1, previous: if skipped { 0 } else { current } }
            } else {
                WindowHits { current: current + 1, previous }
            };
            prop_assert!(window.allows(later, then), "allowed after {wait}s");
            if wait > 1 {
                let before = then - 1;
                let same = before.div_euclid(window_secs) == at.div_euclid(window_secs);
                let earlier = if same {
                    WindowHits { current: current + 1, previous }
                } else {
                    WindowHits { current: 1, previous: current }
                };
                prop_assert!(!window.allows(earlier, before), "refused a second before ({wait}s)");
            }
        }
    }
}
