//! The time of day, from a clock tests can fix.

/// Seconds since the Unix epoch, from a clock tests can fix.
pub trait Clock: Send + Sync {
    fn now(&self) -> i64;
}

/// The system's clock.
///
/// The one implementation of a port that lives beside it: it is the standard library's clock
/// and nothing else (no crate, no I/O to translate), and every composition needs it.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::{Clock, SystemClock};

    #[test]
    fn the_system_clock_tells_seconds_since_the_epoch() {
        // 2026-01-01T00:00:00Z: no machine running these tests is set earlier.
        assert!(SystemClock.now() > 1_767_225_600);
    }
}
