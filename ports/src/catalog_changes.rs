//! Catalog changes: what caches of catalog answers poll to know what to forget.
//!
//! Split from [`CatalogStore`](crate::CatalogStore): the storefront reads the catalog through
//! a cache that decorates the store, and only that cache (and whatever keeps answers made
//! from it) needs to know when and where the catalog moved.

use std::collections::HashSet;

use async_trait::async_trait;
use marque_domain::catalog::{Grade, Product, ProductId};
use marque_domain::part_number::normalize_part_number;
use marque_domain::vehicle::Car;

use crate::catalog::{CatalogStoreError, ProductListing, ProductQuery};

/// How long a stock change stays listed in [`CatalogVersion::stock_changes`]. A cache that
/// has not read the version for longer than half of it must forget everything instead.
pub const STOCK_CHANGE_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

/// What [`CatalogChanges::catalog_version`] reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogVersion {
    /// Moves with every write of brands, categories or products that is not listed in
    /// `catalog_changes`: a cache forgets everything when it moves.
    pub version: u64,
    /// The stock changes of the last [`STOCK_CHANGE_WINDOW`], in no particular order.
    pub stock_changes: Vec<StockChange>,
    /// The catalog writes of the last [`STOCK_CHANGE_WINDOW`] that say what they changed
    /// (the back office's), in no particular order.
    pub catalog_changes: Vec<CatalogChange>,
}

/// One change of the stock (`quantity`) or sales (`units_sold`) of some products.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockChange {
    /// Unique among the changes: a poller tells new changes from ones it has seen by it.
    pub id: String,
    /// The products whose stock or sales changed.
    pub products: Vec<ProductId>,
}

/// How the catalog of one store moves, read from the store itself by any process sharing it.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait CatalogChanges: Send + Sync {
    /// A stamp of the catalog's state: the version of what only the shop's writes change
    /// (brands, categories, products), the stock changes and the described catalog changes of
    /// the last [`STOCK_CHANGE_WINDOW`]. Caches of catalog reads poll it to know what to forget:
    /// everything when `version` moved, the answers holding a named product when only the
    /// stock moved, what a [`CatalogChange`] names for a described write.
    ///
    /// # Contract
    /// - Every successful write of the catalog store on the same database (`put_brands`,
    ///   `put_categories`, `add_products` with at least one item) changes `version` before
    ///   the write call returns.
    /// - Every successful write of the catalog editor or of the product photos on the same
    ///   database either changes `version` or appears in `catalog_changes` (a new id) before
    ///   the write call returns, describing at least everything it changed in shoppers'
    ///   answers (see [`CatalogChange::of_product`]), and stays there for at least
    ///   [`STOCK_CHANGE_WINDOW`].
    /// - A refused write (nothing written) may or may not change it; reads never do.
    /// - Every change of a product's stock or sales by the order store on the same database
    ///   (a reservation, its release, its expiry, a placed order) appears in `stock_changes`
    ///   before that call returns, naming exactly its products, and stays there for at least
    ///   [`STOCK_CHANGE_WINDOW`]; it does not move `version`. When a change cannot be
    ///   recorded so, `version` moves instead. A refused reservation lists nothing.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn catalog_version(&self) -> Result<CatalogVersion, CatalogStoreError>;
}

/// Where a product stands for the listings: the fields a [`ProductListing`] filters and orders by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingPlace {
    pub oem_slug: String,
    pub category_slug: String,
    pub subcategory_slug: String,
    /// The condition's stored code.
    pub condition: String,
    /// The fuel type's stored code, when the product has one.
    pub fuel: Option<String>,
    /// The used unit's grade, when it has one (issue 25).
    pub grade: Option<Grade>,
}

impl ListingPlace {
    /// Where `product` stands.
    #[must_use]
    pub fn of(product: &Product) -> Self {
        Self {
            oem_slug: product.oem_slug.clone(),
            category_slug: product.category_slug.clone(),
            subcategory_slug: product.subcategory_slug.clone(),
            condition: product.condition.code().to_owned(),
            fuel: product.fuel_type.map(|f| f.code().to_owned()),
            grade: product.details.grade,
        }
    }

    /// Whether a product standing here is kept by a grade filter of `grades` (any when empty).
    #[must_use]
    pub fn graded_by(&self, grades: &[Grade]) -> bool {
        grades.is_empty() || self.grade.is_some_and(|g| grades.contains(&g))
    }

    /// Whether a product standing here is listed by `listing` (its filters, as
    /// [`CatalogStore::list_products`](crate::CatalogStore::list_products) applies them).
    #[must_use]
    pub fn listed_by(&self, listing: &ProductListing) -> bool {
        (listing.brands.is_empty() || listing.brands.iter().any(|b| b.as_str() == self.oem_slug))
            && listing.category.as_ref().is_none_or(|c| *c == self.category_slug)
            && listing.subcategory.as_ref().is_none_or(|s| *s == self.subcategory_slug)
            && (listing.conditions.is_empty() || listing.conditions.iter().any(|c| c.code() == self.condition))
            && (listing.fuels.is_empty()
                || self.fuel.as_deref().is_some_and(|fuel| listing.fuels.iter().any(|f| f.code() == fuel)))
            && self.graded_by(&listing.grades)
    }
}

/// What one write of the catalog may have changed in shoppers' answers: read by every
/// instance's cache from [`CatalogVersion::catalog_changes`] to forget only those answers.
///
/// An answer is stale when it holds a product [`holds`](Self::holds_stale) names, or when its
/// question is one [`asks_stale`](Self::asks_stale) names (it may have gained, lost or
/// reordered a product without holding it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogChange {
    /// Unique among the changes: a poller tells new changes from ones it has seen by it.
    pub id: String,
    /// Products whose shown fields may have changed: every answer holding one, and the
    /// product's own answer (also when it is absent), is stale.
    pub products: Vec<ProductId>,
    /// Where the written products stood before and stand after, when they entered or left a
    /// listing or moved in one: every listing one of these is listed by is stale.
    pub placements: Vec<ListingPlace>,
    /// The products of the shop (the `product` table) or their names changed: the name
    /// index's statistics moved, which may reorder any search, so every search is stale.
    pub names: bool,
    /// Normalised part numbers (own, alternate, superseded) a product gained or lost: the
    /// searches whose normalised text is one of them are stale.
    pub numbers: Vec<String>,
    /// The shop's products, their listing times or sales ranks changed: the newest and
    /// best-selling lists and the count are stale.
    pub home: bool,
    /// Category slugs a category write named: the categories, the listings of these
    /// categories, and every answer holding a product of them are stale.
    pub categories: Vec<String>,
    /// Brand slugs a brand write named: the brands, the listings of these brands, and every
    /// answer holding a product of them are stale.
    pub brands: Vec<String>,
    /// Generation ids whose fitment rows a fitment write added or removed: the listings and
    /// searches narrowed to a car of one of them are stale.
    pub fitment: Vec<String>,
}

impl CatalogChange {
    /// What writing `after` over `before` changes, each `None` when the product is not in the
    /// shop (absent, or unpublished) on that side; `id` is left empty for the writer to fill.
    #[must_use]
    pub fn of_product(before: Option<&Product>, after: Option<&Product>) -> Self {
        let mut change = Self::default();
        for p in before.iter().chain(after.iter()) {
            if !change.products.contains(&p.id) {
                change.products.push(p.id.clone());
            }
        }
        let numbers = |p: Option<&Product>| p.map(|p| p.details.searched_numbers(&p.part_no)).unwrap_or_default();
        match (before, after) {
            (None, None) => {}
            (Some(b), Some(a)) => {
                let (was, is) = (ListingPlace::of(b), ListingPlace::of(a));
                if was != is || b.created_at != a.created_at {
                    change.placements = vec![was, is];
                }
                change.names = b.name != a.name;
                change.home = b.created_at != a.created_at || b.units_sold != a.units_sold;
                let (old, new) = (numbers(before), numbers(after));
                let mut moved: Vec<String> = old.iter().filter(|n| !new.contains(n)).cloned().collect();
                moved.extend(new.iter().filter(|n| !old.contains(n)).cloned());
                change.numbers = moved;
            }
            (Some(p), None) | (None, Some(p)) => {
                change.placements = vec![ListingPlace::of(p)];
                change.names = true;
                change.home = true;
                change.numbers = numbers(Some(p));
            }
        }
        change
    }

    /// A change of the pictures (or another shown field that moves nothing) of `product`.
    #[must_use]
    pub fn shown(product: &ProductId) -> Self {
        Self { products: vec![product.clone()], ..Self::default() }
    }

    /// A category write that named these slugs (the stored one and the written one).
    #[must_use]
    pub fn of_category(slugs: &[&str]) -> Self {
        Self { categories: distinct(slugs), ..Self::default() }
    }

    /// A brand write that named these slugs (the stored one and the written one).
    #[must_use]
    pub fn of_brand(slugs: &[&str]) -> Self {
        Self { brands: distinct(slugs), ..Self::default() }
    }

    /// Whether the change moves nothing a shopper reads.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        let Self { id: _, products, placements, names, numbers, home, categories, brands, fitment } = self;
        fitment.is_empty()
            && products.is_empty()
            && placements.is_empty()
            && !names
            && numbers.is_empty()
            && !home
            && categories.is_empty()
            && brands.is_empty()
    }

    /// Whether an answer holding `product` is stale.
    #[must_use]
    pub fn holds_stale(&self, product: &Product) -> bool {
        self.products.contains(&product.id)
            || self.categories.contains(&product.category_slug)
            || self.brands.contains(&product.oem_slug)
    }

    /// Whether the answer to `question` is stale whatever it holds.
    #[must_use]
    pub fn asks_stale(&self, question: &Question) -> bool {
        match question {
            Question::Brands => !self.brands.is_empty(),
            Question::Categories => !self.categories.is_empty(),
            Question::Product(id) => self.products.contains(id),
            Question::Newest(_) | Question::BestSelling(_) | Question::Count => self.home,
            // An empty search lists every product newest first: the home lists' order.
            // A search narrowed to grades may gain or lose a product whose grade moved (its place).
            Question::Search(query) => {
                self.fits_stale(query.fits.as_ref())
                    || (!query.grades.is_empty() && self.placements.iter().any(|p| p.graded_by(&query.grades)))
                    || self.names
                    || (self.home && query.text.trim().is_empty())
                    || self.numbers.contains(&normalize_part_number(query.text.trim()))
            }
            Question::Listing(listing) => {
                self.fits_stale(listing.fits.as_ref())
                    || self.placements.iter().any(|p| p.listed_by(listing))
                    || listing.category.as_ref().is_some_and(|c| self.categories.contains(c))
                    || listing.brands.iter().any(|b| self.brands.iter().any(|s| s == b.as_str()))
            }
        }
    }
}

impl CatalogChange {
    /// A fitment write on `product` whose rows named these generations before and after.
    #[must_use]
    pub fn of_fitment(product: &ProductId, generations: &[&str]) -> Self {
        Self { products: vec![product.clone()], fitment: distinct(generations), ..Self::default() }
    }

    /// Whether an answer narrowed to `car` may have gained or lost a product.
    fn fits_stale(&self, car: Option<&Car>) -> bool {
        car.is_some_and(|car| self.fitment.iter().any(|g| g == car.vehicle.generation.as_str()))
    }
}

fn distinct(slugs: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(slugs.len());
    for slug in slugs {
        if !out.iter().any(|s| s == slug) {
            out.push((*slug).to_owned());
        }
    }
    out
}

/// One question a [`CatalogStore`](crate::CatalogStore) answers (its read calls, with their
/// arguments): what a cache keys an answer by and what a change is checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {
    Brands,
    Categories,
    Product(ProductId),
    Newest(u32),
    BestSelling(u32),
    Search(ProductQuery),
    Listing(ProductListing),
    Count,
}

impl Question {
    /// Ranked by units sold: any stock change may reorder it.
    #[must_use]
    pub fn by_sales(&self) -> bool {
        matches!(self, Question::BestSelling(_))
    }
}

/// What one forget of a catalog cache covers: the stock changes and the catalog changes it
/// newly saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// Products whose stock or sales changed: the answers holding one, and those ranked by sales.
    pub stock: HashSet<ProductId>,
    /// Catalog writes.
    pub changes: Vec<CatalogChange>,
}

impl Forgotten {
    /// Whether there is nothing to forget.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.stock.is_empty() && self.changes.iter().all(CatalogChange::is_empty)
    }

    /// Whether an answer holding `product` is stale.
    #[must_use]
    pub fn holds_stale(&self, product: &Product) -> bool {
        self.stock.contains(&product.id) || self.changes.iter().any(|c| c.holds_stale(product))
    }

    /// Whether the answer to `question` is stale whatever it holds.
    #[must_use]
    pub fn asks_stale(&self, question: &Question) -> bool {
        (!self.stock.is_empty() && question.by_sales())
            || matches!(question, Question::Product(id) if self.stock.contains(id))
            || self.changes.iter().any(|c| c.asks_stale(question))
    }
}

#[cfg(test)]
mod tests {
    use marque_domain::catalog::{Condition, Grade, Product, ProductDetails, ProductId};
    use marque_domain::{Money, PartNumber};

    use super::{CatalogChange, Question};
    use crate::{ProductListing, ProductQuery};

    fn used(grade: Option<Grade>) -> Product {
        Product {
            id: ProductId("p1".into()),
            name: "Used Disc".into(),
            price: Money::from_rupees(100),
            quantity: 1,
            condition: Condition::Old,
            images: Vec::new(),
            description: String::new(),
            category: "Brakes".into(),
            category_slug: "brakes".into(),
            subcategory: "Discs".into(),
            subcategory_slug: "discs".into(),
            oem: "BMW".into(),
            oem_slug: "bmw".into(),
            fuel_type: None,
            variant: String::new(),
            part_no: PartNumber::parse("A 1").expect("valid"),
            inside_ncr: Money::ZERO,
            outside_ncr: Money::ZERO,
            gst_percent: 18,
            units_sold: 0,
            created_at: 0,
            details: ProductDetails { sku: "S1".into(), grade, ..ProductDetails::default() },
        }
    }

    /// A regrade makes stale the listings and searches narrowed to the old grade or the new one,
    /// and no other narrowed one.
    #[test]
    fn a_regrade_makes_stale_the_answers_narrowed_to_either_grade() {
        let change = CatalogChange::of_product(Some(&used(Some(Grade::B))), Some(&used(Some(Grade::A))));
        let listing = |grades: Vec<Grade>| Question::Listing(ProductListing { grades, ..ProductListing::default() });
        let search = |grades: Vec<Grade>| {
            Question::Search(ProductQuery { text: "disc".into(), offset: 0, limit: 20, fits: None, grades })
        };
        for grades in [vec![Grade::A], vec![Grade::B], vec![Grade::C, Grade::B]] {
            assert!(change.asks_stale(&listing(grades.clone())), "listing {grades:?}");
            assert!(change.asks_stale(&search(grades.clone())), "search {grades:?}");
        }
        assert!(!change.asks_stale(&listing(vec![Grade::C])));
        assert!(!change.asks_stale(&search(vec![Grade::C])));
        assert!(!change.asks_stale(&search(Vec::new())), "an unnarrowed search holds the product or not, as before");
        // A price change moves no place: no narrowed answer is stale by its question.
        let mut dearer = used(Some(Grade::A));
        dearer.price = Money::from_rupees(200);
        let priced = CatalogChange::of_product(Some(&used(Some(Grade::A))), Some(&dearer));
        assert!(!priced.asks_stale(&listing(vec![Grade::A])) && !priced.asks_stale(&search(vec![Grade::A])));
        // Grading an ungraded unit reaches the new grade's answers.
        let graded = CatalogChange::of_product(Some(&used(None)), Some(&used(Some(Grade::C))));
        assert!(graded.asks_stale(&listing(vec![Grade::C])) && graded.asks_stale(&search(vec![Grade::C])));
    }
}
