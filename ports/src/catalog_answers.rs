//! Following the catalog's answers: what a reader that keeps something made of catalog answers
//! (the API's finished responses) needs from the catalog answer cache it reads through, so that
//! what it keeps is forgotten whenever an answer it was made of is (docs/adr/0002).

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;

use marque_domain::catalog::ProductId;

use crate::CatalogStore;

/// Which products an answer (or a response made of answers) was made of.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// Every product the answers held.
    pub products: HashSet<ProductId>,
    /// An answer was ranked by units sold (the best sellers): any stock change may reorder it.
    pub by_sales: bool,
}

impl Sources {
    /// Whether a stock change of `changed` makes what was made of these sources stale.
    #[must_use]
    pub fn touched_by(&self, changed: &HashSet<ProductId>) -> bool {
        self.by_sales || changed.iter().any(|id| self.products.contains(id))
    }
}

/// What a reader saw when it started reading: see [`FollowedCatalog::answering_stamp`]. Compared,
/// never made up by a reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// Moves on every clear.
    pub generation: u64,
    /// Moves on every clear and every stock forget.
    pub forgets: u64,
}

/// Told the products whose answers a stock change forgot.
pub type StockForgetHook = Box<dyn Fn(&HashSet<ProductId>) + Send + Sync>;

/// A read of the catalog run while its answers' sources are noted.
pub type NotedRead<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// A catalog store whose answers can be followed (the catalog answer cache).
///
/// # Contract
/// - [`answering_stamp`](Self::answering_stamp) is `None` while answers are not trusted (the
///   cache has not confirmed the catalog's version recently); a reader keeps nothing then.
/// - [`keep_unless_forgotten`](Self::keep_unless_forgotten) runs `keep` only if nothing was
///   cleared or forgotten since `stamp` was taken, under the lock clears and forgets take: what
///   `keep` stores is then either refused or seen by the next forget's hooks.
/// - Every stock forget calls each [`on_stock_forget`](Self::on_stock_forget) hook with the
///   products it forgot; a clear moves the generation.
pub trait FollowedCatalog: CatalogStore {
    /// The generation answers are given under now; `None` while they are not trusted.
    fn answering_generation(&self) -> Option<u64>;

    /// Taken before reading the answers something will be made of; `None` while not trusted.
    fn answering_stamp(&self) -> Option<Stamp>;

    /// Runs `keep` unless the cache cleared or forgot anything since `stamp`; whether it ran.
    fn keep_unless_forgotten(&self, stamp: Stamp, keep: &mut dyn FnMut()) -> bool;

    /// Calls `hook` with the products of every stock forget from now on.
    fn on_stock_forget(&self, hook: StockForgetHook);

    /// Runs `read` and gives the [`Sources`] of every answer given meanwhile on this task.
    fn noting_sources<'a>(&'a self, read: NotedRead<'a>) -> Pin<Box<dyn Future<Output = Sources> + Send + 'a>>;
}

/// Runs `read` through `catalog` and gives its output with the [`Sources`] it was made of.
pub async fn noting_sources<T: Send>(
    catalog: &dyn FollowedCatalog,
    read: impl Future<Output = T> + Send,
) -> (T, Sources) {
    let mut output = None;
    let sources = catalog.noting_sources(Box::pin(async { output = Some(read.await) })).await;
    match output {
        Some(output) => (output, sources),
        // `noting_sources` awaits `read` to its end before it answers.
        None => unreachable!("a noted read finished without its output"),
    }
}
