//! What a catalog search or listing the answer cache cannot give may cost: each client has a
//! budget of them a minute (a database query each, 20–700 ms at 100,000 products for a random
//! search term), and each has a deadline.
//!
//! [`BudgetedCatalogStore`] sits between the answer cache and the database, so only misses reach
//! it. A catalog handler runs its call [`guarded`] by the client's [`Gate`]; the first search or
//! listing that reaches the store in that call spends one unit of the client's budget (a grouped
//! category page asks several listings: one unit) and starts the call's deadline. Past the budget
//! or the deadline the store answers an error, the cache keeps nothing, and the handler reads the
//! [`Verdict`]: 429 with `Retry-After`, or 503. Calls without a gate (the response cache's warmer,
//! the seed) are not limited.

use std::cell::Cell;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId};
use marque_ports::{CatalogStore, CatalogStoreError, ProductListing, ProductQuery, ProductSlice, ProductStamp};
use tokio::time::Instant;

/// Why a guarded call may not be answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The client spent its budget: 429, one more in this many seconds.
    TooMany(u64),
    /// The query ran past the deadline: 503.
    TooSlow,
}

/// Each client's budget of cache misses: a bucket of `per_minute` units that refills evenly.
/// Counted by this instance only (a miss costs this instance's database calls).
#[derive(Debug)]
pub struct MissBudget {
    per_minute: u32,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

/// Most clients remembered; past it the ones with a full bucket are forgotten.
const MAX_CLIENTS: usize = 100_000;

impl MissBudget {
    #[must_use]
    pub fn new(per_minute: u32) -> Self {
        Self { per_minute: per_minute.max(1), buckets: Mutex::new(HashMap::new()) }
    }

    /// Spends one unit of `client`'s budget, or says how many seconds until one is back.
    ///
    /// # Errors
    /// The seconds to wait (at least 1).
    pub fn spend(&self, client: &str, now: Instant) -> Result<(), u64> {
        let capacity = f64::from(self.per_minute);
        let per_sec = capacity / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= MAX_CLIENTS && !buckets.contains_key(client) {
            buckets.retain(|_, (units, at)| {
                *units + now.saturating_duration_since(*at).as_secs_f64() * per_sec < capacity
            });
        }
        let (units, at) = buckets.entry(client.to_owned()).or_insert((capacity, now));
        *units = (*units + now.saturating_duration_since(*at).as_secs_f64() * per_sec).min(capacity);
        *at = now;
        if *units >= 1.0 {
            *units -= 1.0;
            Ok(())
        } else {
            // Rounded up, so a retry then finds the unit back.
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a small positive number of seconds"
            )]
            let wait = ((1.0 - *units) / per_sec).ceil().max(1.0) as u64;
            Err(wait)
        }
    }
}

/// The budget and deadline of catalog misses, shared by the handlers.
#[derive(Debug)]
pub struct CatalogGuard {
    pub budget: MissBudget,
    pub deadline: Duration,
}

impl CatalogGuard {
    #[must_use]
    pub fn new(misses_per_minute: u32, deadline: Duration) -> Self {
        Self { budget: MissBudget::new(misses_per_minute), deadline }
    }
}

/// One guarded call: whose it is, and what happened to it.
#[derive(Debug)]
pub struct Gate {
    client: String,
    guard: Arc<CatalogGuard>,
    /// Set by the first miss: until when the call's misses may run.
    deadline: Cell<Option<Instant>>,
    verdict: Cell<Option<Verdict>>,
}

tokio::task_local! {
    static GATE: Gate;
}

/// Runs `call` (a catalog read) as `client`'s: its misses spend the client's budget and keep to
/// the deadline. Gives the call's output and, when a miss was refused, why.
pub async fn guarded<F: Future>(guard: &Arc<CatalogGuard>, client: String, call: F) -> (F::Output, Option<Verdict>) {
    if client == crate::clients::WARM_UP {
        // The instance's own warm-up (`clients::as_warm_up`): like the warmer, not limited.
        return (call.await, None);
    }
    let gate = Gate { client, guard: guard.clone(), deadline: Cell::new(None), verdict: Cell::new(None) };
    GATE.scope(gate, async move {
        let output = call.await;
        (output, GATE.with(|g| g.verdict.get()))
    })
    .await
}

fn refused(why: &str) -> CatalogStoreError {
    CatalogStoreError::Unavailable { reason: format!("catalog miss refused: {why}") }
}

/// Lets one search or listing miss reach the store, within the caller's budget and deadline.
async fn admitted<T>(load: impl Future<Output = Result<T, CatalogStoreError>>) -> Result<T, CatalogStoreError> {
    let now = Instant::now();
    let admission = GATE.try_with(|gate| {
        if let Some(verdict) = gate.verdict.get() {
            return Err(verdict);
        }
        let deadline = match gate.deadline.get() {
            Some(deadline) => deadline,
            None => {
                if let Err(wait) = gate.guard.budget.spend(&gate.client, now) {
                    gate.verdict.set(Some(Verdict::TooMany(wait)));
                    return Err(Verdict::TooMany(wait));
                }
                let deadline = now + gate.guard.deadline;
                gate.deadline.set(Some(deadline));
                deadline
            }
        };
        Ok(deadline)
    });
    match admission {
        // No gate: not a client's call.
        Err(_) => load.await,
        Ok(Err(Verdict::TooMany(_))) => {
            tracing::info!("catalog miss budget spent");
            Err(refused("budget"))
        }
        Ok(Err(Verdict::TooSlow)) => Err(refused("deadline")),
        // A deadline of 0 ms refuses every miss (tests force the answer so).
        Ok(Ok(deadline)) if Instant::now() >= deadline => {
            let _ = GATE.try_with(|gate| gate.verdict.set(Some(Verdict::TooSlow)));
            tracing::warn!("a catalog query had no time left");
            Err(refused("deadline"))
        }
        Ok(Ok(deadline)) => match tokio::time::timeout_at(deadline, load).await {
            Ok(answer) => answer,
            Err(_) => {
                let _ = GATE.try_with(|gate| gate.verdict.set(Some(Verdict::TooSlow)));
                tracing::warn!("a catalog query ran past its deadline");
                Err(refused("deadline"))
            }
        },
    }
}

/// The catalog store the answer cache asks on a miss: searches and listings are
/// [`admitted`]; everything else passes through.
pub struct BudgetedCatalogStore {
    inner: Arc<dyn CatalogStore>,
}

impl std::fmt::Debug for BudgetedCatalogStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BudgetedCatalogStore(…)")
    }
}

impl BudgetedCatalogStore {
    #[must_use]
    pub fn new(inner: Arc<dyn CatalogStore>) -> Self {
        Self { inner }
    }
}

#[async_trait]
impl CatalogStore for BudgetedCatalogStore {
    async fn put_brands(&self, brands: &[OemBrand]) -> Result<(), CatalogStoreError> {
        self.inner.put_brands(brands).await
    }

    async fn put_categories(&self, categories: &[Category]) -> Result<(), CatalogStoreError> {
        self.inner.put_categories(categories).await
    }

    async fn add_products(&self, products: &[Product]) -> Result<(), CatalogStoreError> {
        self.inner.add_products(products).await
    }

    async fn brands(&self) -> Result<Vec<OemBrand>, CatalogStoreError> {
        self.inner.brands().await
    }

    async fn categories(&self) -> Result<Vec<Category>, CatalogStoreError> {
        self.inner.categories().await
    }

    async fn product(&self, id: &ProductId) -> Result<Option<Product>, CatalogStoreError> {
        self.inner.product(id).await
    }

    async fn newest_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        self.inner.newest_products(limit).await
    }

    async fn best_selling_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        self.inner.best_selling_products(limit).await
    }

    async fn search(&self, query: &ProductQuery) -> Result<ProductSlice, CatalogStoreError> {
        admitted(self.inner.search(query)).await
    }

    async fn list_products(&self, listing: &ProductListing) -> Result<ProductSlice, CatalogStoreError> {
        admitted(self.inner.list_products(listing)).await
    }

    async fn count_products(&self) -> Result<u64, CatalogStoreError> {
        self.inner.count_products().await
    }

    async fn product_stamps(
        &self,
        after: Option<ProductId>,
        limit: u32,
    ) -> Result<Vec<ProductStamp>, CatalogStoreError> {
        self.inner.product_stamps(after, limit).await
    }

    async fn products_after(&self, after: Option<ProductId>, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        self.inner.products_after(after, limit).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_refills_evenly_and_clients_count_apart() {
        let budget = MissBudget::new(2);
        let t0 = Instant::now();
        assert_eq!(budget.spend("a", t0), Ok(()));
        assert_eq!(budget.spend("a", t0), Ok(()));
        assert_eq!(budget.spend("a", t0), Err(30), "one unit back every 30 s");
        assert_eq!(budget.spend("b", t0), Ok(()), "another client");
        assert_eq!(budget.spend("a", t0 + Duration::from_secs(30)), Ok(()));
        assert_eq!(budget.spend("a", t0 + Duration::from_secs(31)), Err(29));
    }
}
