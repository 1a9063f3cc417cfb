//! Following the catalog's answers: what a reader that keeps something made of catalog answers
//! (the API's finished responses) needs from the catalog answer cache it reads through, so that
//! what it keeps is forgotten whenever an answer it was made of is (docs/adr/0002).

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;

use marque_domain::catalog::{Product, ProductId};

use crate::catalog_changes::{Forgotten, Question};
use crate::CatalogStore;

/// What an answer (or a response made of answers) was made of: the questions asked and the
/// products their answers held.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// Every product the answers held.
    pub products: HashSet<ProductId>,
    /// The category slugs of those products.
    pub categories: HashSet<String>,
    /// The brand slugs of those products.
    pub brands: HashSet<String>,
    /// An answer was ranked by units sold (the best sellers): any stock change may reorder it.
    pub by_sales: bool,
    /// The questions asked, each once.
    pub questions: Vec<Question>,
}

impl Sources {
    /// Notes an answer to `question` that held `products`.
    pub fn note<'a>(&mut self, question: &Question, products: impl IntoIterator<Item = &'a Product>) {
        self.by_sales |= question.by_sales();
        if !self.questions.contains(question) {
            self.questions.push(question.clone());
        }
        for p in products {
            if !self.products.contains(&p.id) {
                self.products.insert(p.id.clone());
            }
            if !self.categories.contains(&p.category_slug) {
                self.categories.insert(p.category_slug.clone());
            }
            if !self.brands.contains(&p.oem_slug) {
                self.brands.insert(p.oem_slug.clone());
            }
        }
    }

    /// Whether a stock change of `changed` makes what was made of these sources stale.
    #[must_use]
    pub fn touched_by(&self, changed: &HashSet<ProductId>) -> bool {
        self.by_sales || changed.iter().any(|id| self.products.contains(id))
    }

    /// Whether `forgotten` makes what was made of these sources stale: an answer it was made
    /// of asked a stale question or held a stale product.
    #[must_use]
    pub fn stale_after(&self, forgotten: &Forgotten) -> bool {
        (!forgotten.stock.is_empty() && self.touched_by(&forgotten.stock))
            || self.questions.iter().any(|q| forgotten.asks_stale(q))
            || forgotten.changes.iter().any(|c| {
                c.products.iter().any(|id| self.products.contains(id))
                    || c.categories.iter().any(|s| self.categories.contains(s))
                    || c.brands.iter().any(|s| self.brands.contains(s))
            })
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

/// Told what each forget (of stock changes and described catalog changes) covered.
pub type ForgetHook = Box<dyn Fn(&Forgotten) + Send + Sync>;

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
/// - Every forget (stock changes, described catalog changes) calls each
///   [`on_forget`](Self::on_forget) hook with what it covered, under the same lock; a clear
///   moves the generation instead.
pub trait FollowedCatalog: CatalogStore {
    /// The generation answers are given under now; `None` while they are not trusted.
    fn answering_generation(&self) -> Option<u64>;

    /// Taken before reading the answers something will be made of; `None` while not trusted.
    fn answering_stamp(&self) -> Option<Stamp>;

    /// Runs `keep` unless the cache cleared or forgot anything since `stamp`; whether it ran.
    fn keep_unless_forgotten(&self, stamp: Stamp, keep: &mut dyn FnMut()) -> bool;

    /// Calls `hook` with what every forget covers, from now on.
    fn on_forget(&self, hook: ForgetHook);

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
