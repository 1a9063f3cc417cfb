//! The shared rate counters on SurrealDB: one `rate_hit` record per key and fixed window.

use async_trait::async_trait;
use marque_domain::rate::WindowHits;
use marque_ports::{RateCounter, RateCounterError};

use crate::accounts::retrying;
use crate::conn::Conn;

/// [`RateCounter`] on a SurrealDB connection. Get one from [`crate::Database::rate_counter`].
///
/// - `rate_hit` records are keyed by `[key, window start]`; a hit is one `UPSERT … count += 1`,
///   retried when it loses a race, so concurrent hits each count once.
/// - Counters of windows that ended a day ago are swept when a new window starts.
#[derive(Debug, Clone)]
pub struct SurrealRateCounter {
    db: Conn,
}

impl SurrealRateCounter {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

fn unavailable(e: &surrealdb::Error) -> RateCounterError {
    RateCounterError::Unavailable { reason: e.message().to_owned() }
}

#[async_trait]
impl RateCounter for SurrealRateCounter {
    async fn hit(&self, key: &str, now: i64, window_secs: i64) -> Result<WindowHits, RateCounterError> {
        let window = window_secs.max(1);
        let start = now.div_euclid(window) * window;
        let key = key.to_owned();
        let (counts, previous): (Vec<i64>, Vec<i64>) = retrying(|| {
            self.db
                .query(
                    "UPSERT type::record('rate_hit', [$key, $start]) SET count += 1, window_end = $end \
                     RETURN VALUE count",
                )
                .query("SELECT VALUE count FROM ONLY type::record('rate_hit', [$key, $before])")
                .bind(("key", key.clone()))
                .bind(("start", start))
                .bind(("before", start - window))
                .bind(("end", start + window))
        })
        .await
        .and_then(|mut r| Ok((r.take(0)?, r.take::<Option<i64>>(1)?.into_iter().collect())))
        .map_err(|e| unavailable(&e))?;
        let count = counts.first().copied().unwrap_or(1);
        if count == 1 {
            // A new window began: sweep counters whose windows ended a day ago or more.
            let swept = self
                .db
                .query("DELETE rate_hit WHERE window_end < $before RETURN NONE")
                .bind(("before", now - 86_400))
                .await
                .and_then(surrealdb::IndexedResults::check);
            if let Err(e) = swept {
                tracing::debug!(error = %e.message(), "sweeping old rate counters failed; the next window tries again");
            }
        }
        let count_of = |n: i64| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
        Ok(WindowHits { current: count_of(count.max(1)), previous: previous.first().copied().map_or(0, count_of) })
    }

    async fn unhit(&self, key: &str, now: i64, window_secs: i64) -> Result<(), RateCounterError> {
        let window = window_secs.max(1);
        let start = now.div_euclid(window) * window;
        let key = key.to_owned();
        retrying(|| {
            self.db
                .query("UPDATE type::record('rate_hit', [$key, $start]) SET count -= 1 WHERE count > 0 RETURN NONE")
                .bind(("key", key.clone()))
                .bind(("start", start))
        })
        .await
        .map(drop)
        .map_err(|e| unavailable(&e))
    }
}
