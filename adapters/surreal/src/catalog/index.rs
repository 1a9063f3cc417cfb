//! The catalog's search and listing counts in the process (ADR 0019): what SurrealDB's full-text
//! index knows of every product's name (its words), and the fields listings filter on.
//!
//! Nothing here reads the database: [`super::follow`] fills and updates the index, and answers from
//! it only while it is provably in step with the database.
//!
//! Ranking reproduces SurrealDB 3.3.5's `@@` match and `search::score` on the `product_name`
//! analyzer (`blank,class` tokens, `lowercase,ascii`, then `edgengram(2,10)`) exactly:
//! - a document's terms are the edge n-grams (2 to 10 characters) of its words, so a query term of
//!   2 to 10 characters is in a document once for each of its words that begins with it, and a
//!   document's length is the number of its n-grams;
//! - `@@` keeps the documents holding every query term (none when a term is in no document);
//! - each document's score is `Σ bm25(tf, n, length)` over the query's terms (a repeated term at
//!   each of its places: SurrealDB keeps one document set per query token), with SurrealDB's BM25
//!   variant (k1 = 1.2 and b = 0.75 as `f32`, IDF floored at 0, tf′ = 1 + ln tf), summed in `f64`
//!   and rounded to `f32`.
//!
//! The words themselves come from the database (`search::analyze('product_query', name)`, the same
//! tokens and filters without the n-grams), so tokenizing is never reproduced here.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::BuildHasher as _;
use std::sync::Arc;

use marque_domain::catalog::Grade;
use marque_domain::vehicle::Car;
use marque_ports::ProductListing;

/// Longest and shortest edge n-gram of the `product_name` analyzer (migration 1).
const NGRAM_MIN: usize = 2;
const NGRAM_MAX: usize = 10;

/// BM25's parameters as the index defines them (`BM25` without arguments): `f32`, widened.
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// What the index keeps of one product, as read from the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexedProduct {
    pub id: String,
    /// `search::analyze('product_query', name)`: the name's words, in order, repeats kept.
    pub words: Vec<String>,
    pub oem_slug: String,
    pub category_slug: String,
    pub subcategory_slug: String,
    pub condition: String,
    pub fuel: Option<String>,
    /// A used unit's grade letter (`A`, `B`, `C`), when it has one.
    pub grade: Option<String>,
    /// When it was listed (listings are newest first).
    pub created_at: i64,
    /// Its fitment rows (the `product_fitment` record's), as listings and searches narrowed to a
    /// car check them.
    pub fits: Vec<IndexedFit>,
}

/// One fitment row as the index checks it against a car ([`FitmentRow::fits`]).
///
/// [`FitmentRow::fits`]: marque_domain::vehicle::FitmentRow::fits
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexedFit {
    /// The generation id (`bmw-x5-g05`).
    pub generation: String,
    /// The one engine's code it fits (`b57`); `None` fits every engine.
    pub engine: Option<String>,
    pub year_from: Option<i64>,
    pub year_to: Option<i64>,
}

/// A [`IndexedFit`] in numbers of [`Strings`] (12 bytes): the engine [`NO_FUEL`] when it fits every
/// engine, years [`FIRST`]/[`LAST`] when open. A product's rows are kept once for every product with
/// the same rows ([`FitSets`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct DocFit {
    generation: u32,
    engine: u32,
    from: u16,
    to: u16,
}

const FIRST: u16 = 0;
const LAST: u16 = u16::MAX;

/// A car in the index's numbers: its engine `None` when no row names it (only every-engine rows fit).
#[derive(Debug, Clone, Copy)]
struct CarKey {
    generation: u32,
    engine: Option<u32>,
    year: Option<u16>,
}

impl DocFit {
    /// [`FitmentRow::fits`](marque_domain::vehicle::FitmentRow::fits) in numbers.
    fn fits(&self, car: CarKey) -> bool {
        self.generation == car.generation
            && (self.engine == NO_FUEL || Some(self.engine) == car.engine)
            && car.year.is_none_or(|y| self.from <= y && y <= self.to)
    }
}

/// Whether `doc` is kept by a car filter (`None`: no filter).
fn fitting(car: Option<CarKey>, doc: &Doc) -> bool {
    car.is_none_or(|car| doc.fits.iter().any(|f| f.fits(car)))
}

/// A year as the index keeps it: clamped into `u16` (the shop's years are 1950 to 2100).
fn year(y: i64) -> u16 {
    u16::try_from(y.clamp(0, i64::from(u16::MAX))).unwrap_or(LAST)
}

/// One stored product: its words as word numbers, its length in n-grams, its listing fields as
/// numbers of [`Strings`].
#[derive(Debug)]
struct Doc {
    id: Box<str>,
    words: Box<[u32]>,
    length: u32,
    oem: u32,
    category: u32,
    subcategory: u32,
    condition: u32,
    /// [`NO_FUEL`] when the product has none.
    fuel: u32,
    /// [`NO_FUEL`] when the product has no grade.
    grade: u32,
    created_at: i64,
    /// Shared with every product whose rows are the same ([`FitSets`]).
    fits: Arc<[DocFit]>,
}

/// Each distinct list of fitment rows, kept once: parts of one family fit the same cars (at 100,000
/// products with 20 rows each, one list a product was 24 MB; the bench's lists are one a
/// generation's neighbourhood). A list is dropped with the last product holding it.
#[derive(Debug, Default)]
struct FitSets {
    lists: HashSet<Arc<[DocFit]>>,
}

impl FitSets {
    /// The kept list equal to `fits`, kept now if it was not.
    fn share(&mut self, fits: Vec<DocFit>) -> Arc<[DocFit]> {
        if let Some(kept) = self.lists.get(fits.as_slice()) {
            return Arc::clone(kept);
        }
        let list: Arc<[DocFit]> = fits.into();
        self.lists.insert(Arc::clone(&list));
        list
    }

    /// Lets go of a removed product's list: dropped when no other product holds it.
    fn release(&mut self, fits: Arc<[DocFit]>) {
        // The set's own reference and `fits`: no product holds it any more.
        if Arc::strong_count(&fits) == 2 {
            self.lists.remove(&*fits);
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.lists.len()
    }
}

const NO_FUEL: u32 = u32::MAX;

impl Doc {
    /// Its word numbers, each once (what its postings hold).
    fn distinct_words(&self) -> Vec<u32> {
        let mut distinct = self.words.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        distinct
    }
}

/// Whether `doc` is kept by a grade filter of these grade numbers (`None`: no filter).
fn graded(grades: Option<&[u32]>, doc: &Doc) -> bool {
    grades.is_none_or(|g| doc.grade != NO_FUEL && g.contains(&doc.grade))
}

/// Slugs and codes, each stored once.
#[derive(Debug, Clone, Default)]
struct Strings {
    numbers: HashMap<Box<str>, u32>,
}

impl Strings {
    fn number(&mut self, s: &str) -> u32 {
        if let Some(n) = self.numbers.get(s) {
            return *n;
        }
        let n = u32::try_from(self.numbers.len()).unwrap_or(u32::MAX - 1);
        self.numbers.insert(s.into(), n);
        n
    }

    fn find(&self, s: &str) -> Option<u32> {
        self.numbers.get(s).copied()
    }
}

/// The index: every product of the `product` table (published ones), by record key.
#[derive(Debug, Default)]
pub(crate) struct CatalogIndex {
    docs: Vec<Option<Doc>>,
    free: Vec<u32>,
    /// The slot of each kept document, found by its id (which only the document holds: at 100,000
    /// products a map keyed by a copy of it was ~5 MB more).
    by_id: hashbrown::HashTable<u32>,
    ids: std::hash::RandomState,
    /// Every word ever seen, in byte order (which keeps every word beginning with a term together),
    /// with its number. Words are not forgotten when their last product goes: a rebuild drops them.
    vocabulary: BTreeMap<Box<str>, u32>,
    strings: Strings,
    fit_sets: FitSets,
    /// Σ length over every document, and how many there are (BM25's average length and N).
    total_length: u64,
    count: u64,
    /// For each word number, the slots of the documents that held it when they were put. Removing a
    /// document leaves its slots here (a slot may since hold another document, or none): readers
    /// check every slot against the document it holds now, and [`Self::compact`] drops the stale
    /// ones once they outnumber the live ones.
    postings: Vec<Vec<u32>>,
    /// Σ postings' lengths, and how many of those entries belong to the documents kept now.
    entries: usize,
    live_entries: usize,
}

/// The n-grams a word of `chars` characters gives: one for each length from 2 to 10 it has.
fn ngrams(chars: usize) -> u32 {
    let n = chars.min(NGRAM_MAX).saturating_sub(NGRAM_MIN - 1);
    u32::try_from(n).unwrap_or(0)
}

/// One ranked hit: whether a part number matched, its score, its record key.
#[derive(Debug, Clone, Copy)]
struct Hit<'a> {
    part: bool,
    score: f32,
    id: &'a str,
}

impl Hit<'_> {
    /// `ORDER BY part_hit DESC, score DESC, id ASC`.
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        other
            .part
            .cmp(&self.part)
            .then_with(|| other.score.partial_cmp(&self.score).unwrap_or(std::cmp::Ordering::Equal))
            .then_with(|| self.id.cmp(other.id))
    }
}

/// A ranked search: the record keys of the asked window, and the size of the whole result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ranked {
    pub ids: Vec<String>,
    pub total: u64,
}

impl CatalogIndex {
    /// Products in the index (the `product` table's count).
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Stores `product`, replacing what was kept under its id.
    pub(crate) fn put(&mut self, product: &IndexedProduct) {
        self.remove(&product.id);
        let mut length = 0u32;
        let mut words = Vec::with_capacity(product.words.len());
        for word in &product.words {
            length = length.saturating_add(ngrams(word.chars().count()));
            let next = u32::try_from(self.vocabulary.len()).unwrap_or(u32::MAX);
            words.push(*self.vocabulary.entry(word.as_str().into()).or_insert(next));
        }
        let doc = Doc {
            id: product.id.as_str().into(),
            words: words.into_boxed_slice(),
            length,
            oem: self.strings.number(&product.oem_slug),
            category: self.strings.number(&product.category_slug),
            subcategory: self.strings.number(&product.subcategory_slug),
            condition: self.strings.number(&product.condition),
            fuel: product.fuel.as_deref().map_or(NO_FUEL, |f| self.strings.number(f)),
            grade: product.grade.as_deref().map_or(NO_FUEL, |g| self.strings.number(g)),
            created_at: product.created_at,
            fits: self.shared_fits(&product.fits),
        };
        let slot = match self.free.pop() {
            Some(slot) => {
                self.docs[slot as usize] = Some(doc);
                slot
            }
            None => {
                self.docs.push(Some(doc));
                u32::try_from(self.docs.len() - 1).unwrap_or(u32::MAX)
            }
        };
        let hash = self.ids.hash_one(product.id.as_str());
        let (docs, ids) = (&self.docs, &self.ids);
        self.by_id.insert_unique(hash, slot, |slot| ids.hash_one(Self::id_in(docs, *slot)));
        self.total_length += u64::from(length);
        self.count += 1;
        self.post(slot);
    }

    /// Adds `slot`'s document to the postings of each of its distinct words.
    /// `fits` in the index's numbers, as the list kept for every product with the same rows.
    fn shared_fits(&mut self, fits: &[IndexedFit]) -> Arc<[DocFit]> {
        let rows = fits
            .iter()
            .map(|f| DocFit {
                generation: self.strings.number(&f.generation),
                engine: f.engine.as_deref().map_or(NO_FUEL, |e| self.strings.number(e)),
                from: f.year_from.map_or(FIRST, year),
                to: f.year_to.map_or(LAST, year),
            })
            .collect();
        self.fit_sets.share(rows)
    }

    fn post(&mut self, slot: u32) {
        let Some(doc) = self.docs.get(slot as usize).and_then(Option::as_ref) else { return };
        let distinct = doc.distinct_words();
        if self.postings.len() < self.vocabulary.len() {
            self.postings.resize_with(self.vocabulary.len(), Vec::new);
        }
        for w in &distinct {
            self.postings[*w as usize].push(slot);
        }
        self.entries += distinct.len();
        self.live_entries += distinct.len();
    }

    /// Rebuilds the postings from the documents kept now, once removals left more stale entries
    /// than live ones (so edits never grow them without bound; amortised over those removals).
    fn compact(&mut self) {
        if self.entries <= 2 * self.live_entries + 4096 {
            return;
        }
        for list in &mut self.postings {
            list.clear();
        }
        self.entries = 0;
        self.live_entries = 0;
        for slot in 0..self.docs.len() {
            if self.docs[slot].is_some() {
                self.post(u32::try_from(slot).unwrap_or(u32::MAX));
            }
        }
    }

    /// Forgets the product `id` (nothing when it is not kept).
    pub(crate) fn remove(&mut self, id: &str) {
        let docs = &self.docs;
        let Ok(found) = self.by_id.find_entry(self.ids.hash_one(id), |slot| Self::id_in(docs, *slot) == id) else {
            return;
        };
        let (slot, _) = found.remove();
        if let Some(doc) = self.docs[slot as usize].take() {
            self.total_length -= u64::from(doc.length);
            self.count -= 1;
            self.live_entries -= doc.distinct_words().len();
            self.fit_sets.release(doc.fits);
        }
        self.free.push(slot);
        self.compact();
    }

    /// The id of the document in `slot` ("" for an empty one, which no id names).
    fn id_in(docs: &[Option<Doc>], slot: u32) -> &str {
        docs.get(slot as usize).and_then(Option::as_ref).map_or("", |doc| &*doc.id)
    }

    /// The document `id` names, when it is kept.
    fn doc(&self, id: &str) -> Option<&Doc> {
        let slot = self.by_id.find(self.ids.hash_one(id), |slot| Self::id_in(&self.docs, *slot) == id)?;
        self.docs[*slot as usize].as_ref()
    }

    fn docs(&self) -> impl Iterator<Item = &Doc> {
        self.docs.iter().flatten()
    }

    /// `listing`'s window as `LISTING` orders it (`created_at DESC, id ASC`), with the count of
    /// every product its filters keep: the window's edge is found here, where the database would
    /// walk every row before it.
    pub(crate) fn list_window(&self, listing: &ProductListing) -> Ranked {
        let Some(kept) = self.kept_by(listing) else { return Ranked { ids: Vec::new(), total: 0 } };
        let mut found: Vec<&Doc> = self.docs().filter(|doc| kept(doc)).collect();
        let total = found.len() as u64;
        let order = |a: &&Doc, b: &&Doc| b.created_at.cmp(&a.created_at).then_with(|| a.id.cmp(&b.id));
        let start = usize::try_from(listing.offset).unwrap_or(usize::MAX).min(found.len());
        let end = start.saturating_add(listing.limit as usize).min(found.len());
        if end <= start {
            return Ranked { ids: Vec::new(), total };
        }
        if end < found.len() {
            found.select_nth_unstable_by(end - 1, order);
            found.truncate(end);
        }
        found.sort_unstable_by(order);
        Ranked { ids: found[start..end].iter().map(|d| d.id.to_string()).collect(), total }
    }

    /// Whether a product is kept by `listing`'s filters (its window aside); `None` when a pinned
    /// category or subcategory is one no product holds (nothing is kept).
    fn kept_by<'a>(&'a self, listing: &'a ProductListing) -> Option<impl Fn(&Doc) -> bool + 'a> {
        // A filter value no product holds keeps nothing; a list keeps what any of its values keeps.
        let one = |value: &Option<String>| value.as_deref().map(|v| self.strings.find(v).ok_or(()));
        let any = |values: Vec<&str>| -> Option<Vec<u32>> {
            (!values.is_empty()).then(|| values.iter().filter_map(|v| self.strings.find(v)).collect())
        };
        let (Ok(category), Ok(subcategory)) =
            (one(&listing.category).transpose(), one(&listing.subcategory).transpose())
        else {
            return None;
        };
        let brands = any(listing.brands.iter().map(marque_domain::filters::BrandSlug::as_str).collect());
        let conditions = any(listing.conditions.iter().map(|c| c.code()).collect());
        let fuels = any(listing.fuels.iter().map(|f| f.code()).collect());
        let grades = self.grades(&listing.grades);
        let car = match &listing.fits {
            None => None,
            Some(car) => Some(self.car_key(car)?),
        };
        Some(move |doc: &Doc| {
            category.is_none_or(|c| doc.category == c)
                && subcategory.is_none_or(|s| doc.subcategory == s)
                && brands.as_ref().is_none_or(|b| b.contains(&doc.oem))
                && conditions.as_ref().is_none_or(|c| c.contains(&doc.condition))
                && fuels.as_ref().is_none_or(|f| doc.fuel != NO_FUEL && f.contains(&doc.fuel))
                && graded(grades.as_deref(), doc)
                && fitting(car, doc)
        })
    }

    /// `car` in the index's numbers; `None` when no product's row names its generation (none fits).
    fn car_key(&self, car: &Car) -> Option<CarKey> {
        Some(CarKey {
            generation: self.strings.find(car.vehicle.generation.as_str())?,
            engine: self.strings.find(car.vehicle.engine.as_str()),
            year: car.year,
        })
    }

    /// The numbers of a grade filter's letters (`None`: no filter; a letter no product holds keeps nothing).
    fn grades(&self, grades: &[Grade]) -> Option<Vec<u32>> {
        (!grades.is_empty()).then(|| grades.iter().filter_map(|g| self.strings.find(g.letter())).collect())
    }

    /// The words beginning with `term`, as one flag per word number, and their numbers (none when
    /// `term` is not the length of an n-gram).
    fn words_beginning(&self, term: &str) -> (Vec<bool>, Vec<u32>) {
        let mut flags = vec![false; self.vocabulary.len()];
        let chars = term.chars().count();
        if !(NGRAM_MIN..=NGRAM_MAX).contains(&chars) {
            return (flags, Vec::new());
        }
        let words: Vec<u32> = self
            .vocabulary
            .range::<str, _>((std::ops::Bound::Included(term), std::ops::Bound::Unbounded))
            .take_while(|(word, _)| word.starts_with(term))
            .map(|(_, n)| *n)
            .collect();
        for n in &words {
            flags[*n as usize] = true;
        }
        (flags, words)
    }

    /// The search `SEARCH` runs, ranked here: `terms` are the query's terms as SurrealDB analyses
    /// them (repeats kept), `parts` the products whose part numbers matched; the window is
    /// `offset..offset + limit` of the ranking.
    /// With `grades`, only the products of one of them are ranked (as the database's search narrowed
    /// to grades keeps them); with `car`, only the products that fit it.
    pub(crate) fn rank(
        &self,
        terms: &[String],
        parts: &[String],
        narrowed: (&[Grade], Option<&Car>),
        window: (u64, u32),
    ) -> Ranked {
        let (offset, limit) = window;
        let (grades, car) = narrowed;
        let wanted = self.grades(grades);
        let car = match car {
            None => None,
            Some(car) => match self.car_key(car) {
                Some(key) => Some(key),
                None => return Ranked { ids: Vec::new(), total: 0 },
            },
        };
        let kept = |doc: &Doc| graded(wanted.as_deref(), doc) && fitting(car, doc);
        let kept_id = |id: &str| (wanted.is_none() && car.is_none()) || self.doc(id).is_some_and(kept);
        let named = self.named(terms, kept);
        let parts: HashSet<&str> = parts.iter().map(String::as_str).filter(|id| kept_id(id)).collect();
        let mut hits: Vec<Hit<'_>> =
            named.iter().map(|&(id, score)| Hit { part: parts.contains(id), score, id }).collect();
        if !parts.is_empty() {
            // A broad name search matches no part number: the set of its tens of thousands of names is
            // only made when there are part numbers to set apart.
            let in_named: HashSet<&str> = named.iter().map(|(id, _)| *id).collect();
            let mut only_parts: Vec<&str> = parts.iter().copied().filter(|id| !in_named.contains(id)).collect();
            only_parts.sort_unstable();
            hits.extend(only_parts.into_iter().map(|id| Hit { part: true, score: 0.0, id }));
        }
        let total = hits.len() as u64;
        let start = usize::try_from(offset).unwrap_or(usize::MAX).min(hits.len());
        let end = start.saturating_add(limit as usize).min(hits.len());
        if end > start {
            if end < hits.len() {
                hits.select_nth_unstable_by(end - 1, Hit::order);
                hits.truncate(end);
            }
            hits.sort_unstable_by(Hit::order);
        }
        Ranked { ids: hits[start..end].iter().map(|h| h.id.to_owned()).collect(), total }
    }

    /// The documents `name @1@ terms` matches that `keep` keeps, with `search::score(1)` (a score
    /// counts every matching document, kept or not, as the database's does).
    fn named<'a>(&'a self, terms: &[String], keep: impl Fn(&Doc) -> bool) -> Vec<(&'a str, f32)> {
        // SurrealDB (`extract_querying_terms`) keeps one document set per query token, a repeated
        // term at each of its places (tokens differ by position), needs a document in every set
        // (`AND`), and sums one BM25 term per token (`Scorer::score`). A repeated term's set and
        // frequency are those of its first place, so each distinct term is looked up once.
        if terms.is_empty() {
            return Vec::new();
        }
        let mut distinct: Vec<&str> = Vec::new();
        let places: Vec<usize> = terms
            .iter()
            .map(|term| {
                distinct.iter().position(|d| *d == term.as_str()).unwrap_or_else(|| {
                    distinct.push(term);
                    distinct.len() - 1
                })
            })
            .collect();
        // Each distinct term: the words beginning with it (as flags by word number), the documents
        // holding one of them now (from the postings, checked against the documents themselves:
        // their count is the term's document frequency) and each one's term frequency.
        let mut matching = Vec::with_capacity(distinct.len());
        let mut holding = Vec::with_capacity(distinct.len());
        let mut narrowest: Option<(usize, Vec<u32>)> = None;
        for (d, term) in distinct.iter().enumerate() {
            let (flags, words) = self.words_beginning(term);
            if words.is_empty() {
                return Vec::new();
            }
            let mut slots: Vec<u32> = words
                .iter()
                .flat_map(|w| self.postings.get(*w as usize).map_or(&[][..], Vec::as_slice))
                .copied()
                .collect();
            slots.sort_unstable();
            slots.dedup();
            slots.retain(|slot| {
                self.docs[*slot as usize]
                    .as_ref()
                    .is_some_and(|doc| doc.words.iter().any(|w| flags.get(*w as usize).copied().unwrap_or(false)))
            });
            if slots.is_empty() {
                return Vec::new();
            }
            holding.push(slots.len() as u64);
            if narrowest.as_ref().is_none_or(|(_, kept)| slots.len() < kept.len()) {
                narrowest = Some((d, slots));
            }
            matching.push(flags);
        }
        let has = |flags: &[bool], w: &u32| flags.get(*w as usize).copied().unwrap_or(false);
        let candidates = narrowest.map(|(_, slots)| slots).unwrap_or_default();
        // The documents holding every term, and their term frequencies, `matching.len()` a document in
        // one vector (not a vector each: a broad term has tens of thousands of documents).
        let terms_count = matching.len();
        let mut found: Vec<&Doc> = Vec::with_capacity(candidates.len());
        let mut frequencies: Vec<u32> = Vec::with_capacity(candidates.len() * terms_count);
        for slot in candidates {
            let Some(doc) = self.docs[slot as usize].as_ref().filter(|doc| keep(doc)) else { continue };
            let start = frequencies.len();
            frequencies.extend(
                matching
                    .iter()
                    .map(|words| u32::try_from(doc.words.iter().filter(|w| has(words, w)).count()).unwrap_or(u32::MAX)),
            );
            if frequencies[start..].iter().all(|tf| *tf > 0) {
                found.push(doc);
            } else {
                frequencies.truncate(start);
            }
        }
        let scorer = Scorer::new(self.count, self.total_length);
        found
            .into_iter()
            .zip(frequencies.chunks_exact(terms_count.max(1)))
            .map(|(doc, frequencies)| {
                let mut score = 0.0f64;
                for &d in &places {
                    score += scorer.term(f64::from(frequencies[d]), holding[d] as f64, f64::from(doc.length));
                }
                #[expect(clippy::cast_possible_truncation, reason = "SurrealDB rounds the score to f32 likewise")]
                (&*doc.id, score as f32)
            })
            .collect()
    }
}

/// SurrealDB's BM25 variant (`surrealdb-idx` 3.3.5, `Scorer`), computed the same way step by step.
struct Scorer {
    k1: f64,
    k1_plus_1: f64,
    one_minus_b: f64,
    b_over_avg_len: f64,
    doc_count: f64,
}

impl Scorer {
    fn new(count: u64, total_length: u64) -> Self {
        let doc_count = count as f64;
        let average = total_length as f64 / doc_count;
        let (k1, b) = (f64::from(K1), f64::from(B));
        Self { k1, k1_plus_1: k1 + 1.0, one_minus_b: 1.0 - b, b_over_avg_len: b / average, doc_count }
    }

    fn term(&self, tf: f64, holding: f64, length: f64) -> f64 {
        if tf <= 0.0 {
            return 0.0;
        }
        let idf = ((self.doc_count - holding + 0.5) / (holding + 0.5)).ln().max(0.0);
        if idf == 0.0 {
            return 0.0;
        }
        let tf_prime = 1.0 + tf.ln();
        let length_norm = self.one_minus_b + self.b_over_avg_len * length;
        (idf * self.k1_plus_1 * tf_prime) / (tf_prime + self.k1 * length_norm)
    }
}

#[cfg(test)]
mod tests {
    use super::{CatalogIndex, IndexedProduct};
    use marque_domain::catalog::{Condition, FuelType, Grade};
    use marque_domain::filters::{BrandSlug, FilterValue};
    use marque_ports::ProductListing;

    fn product(id: &str, name: &str, place: (&str, &str, &str), fuel: Option<&str>) -> IndexedProduct {
        IndexedProduct {
            id: id.into(),
            words: name.split(' ').map(str::to_lowercase).collect(),
            oem_slug: place.0.into(),
            category_slug: place.1.into(),
            subcategory_slug: place.2.into(),
            condition: "new".into(),
            fuel: fuel.map(str::to_owned),
            grade: None,
            created_at: i64::from(id.bytes().map(u32::from).sum::<u32>() % 3),
            fits: Vec::new(),
        }
    }

    fn index() -> CatalogIndex {
        let mut index = CatalogIndex::default();
        index.put(&product("a", "BMW X5 Front Brake Disc", ("bmw", "brakes", "brake-disc"), Some("petrol")));
        index.put(&product("b", "Audi A4 Brake Pads Brake", ("audi", "brakes", "brake-pads"), None));
        index.put(&product("c", "Audi A4 Oil Filter", ("audi", "engine", "filters"), Some("diesel")));
        index.put(&product("d", "BMW X1 Turbocharger", ("bmw", "engine", "turbo"), Some("diesel")));
        index.put(&product("e", "Mercedes C200 Headlamp", ("mercedes", "lighting", "headlamps"), None));
        index
    }

    #[test]
    fn a_term_matches_every_word_it_begins_and_all_terms_must_match() {
        let index = index();
        let terms = |t: &[&str]| t.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let ranked = index.rank(&terms(&["brake"]), &[], (&[], None), (0, 10));
        assert_eq!(ranked.total, 2);
        // "b" holds "brake" twice and is ranked above "a", which holds it once in a longer name.
        assert_eq!(ranked.ids, ["b", "a"]);
        assert_eq!(index.rank(&terms(&["brake", "x5"]), &[], (&[], None), (0, 10)).ids, ["a"]);
        assert_eq!(index.rank(&terms(&["turbochar"]), &[], (&[], None), (0, 10)).ids, ["d"]);
        // Longer than an n-gram, shorter than one, or in no name: nothing.
        assert_eq!(index.rank(&terms(&["turbocharger"]), &[], (&[], None), (0, 10)).total, 0);
        assert_eq!(index.rank(&terms(&["x"]), &[], (&[], None), (0, 10)).total, 0);
        assert_eq!(index.rank(&terms(&["brake", "zz"]), &[], (&[], None), (0, 10)).total, 0);
    }

    #[test]
    fn a_repeated_query_term_scores_at_each_of_its_places() {
        // SurrealDB keeps one document set per query token, so `brake brake` sums brake's BM25 twice.
        let index = index();
        let once = index.named(&["brake".to_owned()], |_| true);
        let twice = index.named(&["brake".to_owned(), "brake".to_owned()], |_| true);
        assert_eq!(once.len(), 2);
        for ((id, one), (same, two)) in once.iter().zip(&twice) {
            assert_eq!(id, same);
            assert!(*one > 0.0);
            assert_eq!(*two, one * 2.0, "{id}");
        }
    }

    #[test]
    fn part_hits_come_first_then_the_window_is_cut() {
        let index = index();
        let ranked = index.rank(&["brake".to_owned()], &["d".to_owned(), "a".to_owned()], (&[], None), (0, 10));
        assert_eq!(ranked.ids, ["a", "d", "b"]);
        assert_eq!(ranked.total, 3);
        let window = index.rank(&["brake".to_owned()], &["d".to_owned(), "a".to_owned()], (&[], None), (1, 1));
        assert_eq!((window.ids, window.total), (vec!["d".to_owned()], 3));
        assert!(index.rank(&["brake".to_owned()], &[], (&[], None), (5, 10)).ids.is_empty());
    }

    #[test]
    fn listing_counts_and_windows_follow_every_filter_and_every_write() {
        let mut index = index();
        let listing = |brands: &[&str], category: Option<&str>| ProductListing {
            brands: brands.iter().map(|b| BrandSlug::from_code(b).expect("a slug")).collect(),
            category: category.map(str::to_owned),
            limit: 20,
            ..ProductListing::default()
        };
        assert_eq!(index.list_window(&listing(&[], Some("brakes"))).total, 2);
        assert_eq!(index.list_window(&listing(&["bmw", "audi"], Some("engine"))).total, 2);
        assert_eq!(index.list_window(&listing(&["bmw"], None)).total, 2);
        assert_eq!(index.list_window(&listing(&[], Some("nowhere"))).total, 0);
        let diesel = ProductListing { fuels: vec![FuelType::Diesel], ..listing(&[], None) };
        assert_eq!(index.list_window(&diesel).total, 2);
        let old = ProductListing { conditions: vec![Condition::Old], ..listing(&[], None) };
        assert_eq!(index.list_window(&old).total, 0);
        index.put(&product("a", "BMW X5 Oil Filter", ("bmw", "engine", "filters"), Some("diesel")));
        index.remove("b");
        index.remove("nobody");
        assert_eq!(index.count(), 4);
        assert_eq!(index.list_window(&listing(&[], Some("brakes"))).total, 0);
        assert_eq!(index.list_window(&diesel).total, 3);
        assert_eq!(index.rank(&["filter".to_owned()], &[], (&[], None), (0, 10)).total, 2);
    }

    #[test]
    fn grade_filters_keep_only_graded_products_in_counts_and_rankings() {
        let mut index = index();
        let graded = |id: &str, name: &str, grade: &str| IndexedProduct {
            grade: Some(grade.to_owned()),
            condition: "old".into(),
            ..product(id, name, ("bmw", "brakes", "brake-disc"), None)
        };
        index.put(&graded("u1", "BMW Used Brake Disc", "A"));
        index.put(&graded("u2", "BMW Worn Brake Disc", "C"));
        let listing = |grades: Vec<Grade>| ProductListing {
            category: Some("brakes".into()),
            grades,
            limit: 20,
            ..ProductListing::default()
        };
        assert_eq!(index.list_window(&listing(vec![])).total, 4);
        assert_eq!(index.list_window(&listing(vec![Grade::A])).total, 1);
        assert_eq!(index.list_window(&listing(vec![Grade::A, Grade::C])).total, 2);
        assert_eq!(index.list_window(&listing(vec![Grade::B])).total, 0, "a grade no product holds keeps nothing");
        let brake = ["brake".to_owned()];
        assert_eq!(index.rank(&brake, &[], (&[], None), (0, 10)).total, 4);
        assert_eq!(index.rank(&brake, &[], (&[Grade::C], None), (0, 10)).ids, ["u2"]);
        let parts = ["a".to_owned(), "u1".to_owned()];
        assert_eq!(index.rank(&[], &parts, (&[Grade::A], None), (0, 10)).ids, ["u1"], "part hits are graded too");
        // A regrade is a put: the counts follow it.
        index.put(&graded("u2", "BMW Worn Brake Disc", "A"));
        assert_eq!(index.list_window(&listing(vec![Grade::A])).total, 2);
        assert_eq!(index.list_window(&listing(vec![Grade::C])).total, 0);
    }

    #[test]
    fn car_filters_keep_the_products_a_row_fits_by_generation_engine_and_years() {
        use super::IndexedFit;
        use marque_domain::vehicle::{Car, VehicleId};
        let fit = |generation: &str, engine: Option<&str>, years: (Option<i64>, Option<i64>)| IndexedFit {
            generation: generation.into(),
            engine: engine.map(str::to_owned),
            year_from: years.0,
            year_to: years.1,
        };
        let mut index = index();
        let fitted = |id: &str, name: &str, fits: Vec<IndexedFit>| IndexedProduct {
            fits,
            ..product(id, name, ("bmw", "brakes", "brake-disc"), None)
        };
        // Engine codes as the store keeps them (upper case). Every engine of the X5 G05; only its B57; only the B57 of 2019 to 2021; another generation.
        index.put(&fitted("f1", "BMW Brake Disc", vec![fit("bmw-x5-g05", None, (None, None))]));
        index.put(&fitted("f2", "BMW Brake Pads", vec![fit("bmw-x5-g05", Some("B57"), (None, None))]));
        index.put(&fitted("f3", "BMW Brake Hose", vec![fit("bmw-x5-g05", Some("B57"), (Some(2019), Some(2021)))]));
        index.put(&fitted(
            "f4",
            "BMW Brake Caliper",
            vec![fit("bmw-x5-f15", None, (None, None)), fit("bmw-x5-g05", Some("B58"), (None, None))],
        ));
        let car = |id: &str, year: Option<u16>| Car { vehicle: VehicleId::parse(id).expect("a vehicle id"), year };
        let kept = |car: Car| {
            let listing = ProductListing { fits: Some(car), limit: 20, ..ProductListing::default() };
            let mut ids = index.list_window(&listing).ids;
            ids.sort();
            ids
        };
        assert_eq!(kept(car("bmw-x5-g05.b57", None)), ["f1", "f2", "f3"]);
        assert_eq!(kept(car("bmw-x5-g05.b57", Some(2022))), ["f1", "f2"], "the year is outside f3's range");
        assert_eq!(kept(car("bmw-x5-g05.b58", Some(2020))), ["f1", "f4"]);
        assert_eq!(kept(car("bmw-x5-g05.s58", None)), ["f1"], "an engine no row names: every-engine rows only");
        assert_eq!(kept(car("bmw-x5-f15.n57", None)), ["f4"]);
        assert!(kept(car("bmw-x3-g01.b47", None)).is_empty(), "a generation no row names: nothing");
        let brake = ["brake".to_owned()];
        let b57 = car("bmw-x5-g05.b57", Some(2020));
        assert_eq!(index.rank(&brake, &[], (&[], Some(&b57)), (0, 10)).total, 3);
        let parts = ["f4".to_owned(), "f2".to_owned()];
        assert_eq!(index.rank(&[], &parts, (&[], Some(&b57)), (0, 10)).ids, ["f2"], "part hits must fit too");
        // A fitment write is a put of the product: the filter follows it.
        index.put(&fitted("f4", "BMW Brake Caliper", vec![fit("bmw-x5-g05", None, (None, None))]));
        assert_eq!(index.rank(&brake, &[], (&[], Some(&b57)), (0, 10)).total, 4);
        // Products with the same rows share one list, dropped with the last product holding it.
        let fits = |id: &str| std::sync::Arc::clone(&index.doc(id).expect("kept").fits);
        assert!(std::sync::Arc::ptr_eq(&fits("f1"), &fits("f4")), "f1 and f4 have the same rows now");
        let lists = index.fit_sets.len();
        index.remove("f2");
        assert_eq!(index.fit_sets.len(), lists - 1, "f2's list was its own");
        index.remove("f1");
        assert_eq!(index.fit_sets.len(), lists - 1, "f4 still holds f1's list");
        assert_eq!(index.rank(&brake, &[], (&[], Some(&b57)), (0, 10)).total, 2);
        index.remove("f4");
        assert_eq!(index.fit_sets.len(), lists - 2);
        index.put(&fitted("f5", "BMW Brake Line", vec![fit("bmw-x5-g05", Some("B57"), (Some(2019), Some(2021)))]));
        assert_eq!(index.fit_sets.len(), lists - 2, "f5 takes f3's list");
        let listing = ProductListing { fits: Some(b57), limit: 20, ..ProductListing::default() };
        let mut ids = index.list_window(&listing).ids;
        ids.sort();
        assert_eq!(ids, ["f3", "f5"]);
    }

    /// The documents `name @1@ terms` matches, found by reading every document (as the index did
    /// before its postings): what [`CatalogIndex::named`] must answer.
    fn named_by_reading_all(index: &CatalogIndex, terms: &[String]) -> Vec<(String, f32)> {
        let mut distinct: Vec<&str> = Vec::new();
        for term in terms {
            if !distinct.contains(&term.as_str()) {
                distinct.push(term);
            }
        }
        let matching: Vec<Vec<bool>> = distinct.iter().map(|t| index.words_beginning(t).0).collect();
        let has = |flags: &[bool], w: &u32| flags.get(*w as usize).copied().unwrap_or(false);
        let frequencies = |doc: &super::Doc| -> Vec<u32> {
            matching.iter().map(|f| doc.words.iter().filter(|w| has(f, w)).count() as u32).collect()
        };
        let holding: Vec<u64> =
            (0..distinct.len()).map(|d| index.docs().filter(|doc| frequencies(doc)[d] > 0).count() as u64).collect();
        let scorer = super::Scorer::new(index.count, index.total_length);
        let mut found = Vec::new();
        for doc in index.docs() {
            let tf = frequencies(doc);
            if terms.is_empty() || tf.contains(&0) {
                continue;
            }
            let mut score = 0.0f64;
            for term in terms {
                let d = distinct.iter().position(|x| *x == term.as_str()).unwrap_or(0);
                score += scorer.term(f64::from(tf[d]), holding[d] as f64, f64::from(doc.length));
            }
            found.push((doc.id.to_string(), score as f32));
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found
    }

    fn sorted(found: Vec<(&str, f32)>) -> Vec<(String, f32)> {
        let mut found: Vec<(String, f32)> = found.into_iter().map(|(id, s)| (id.to_owned(), s)).collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found
    }

    const WORDS: [&str; 10] = ["brake", "brakes", "bracket", "disc", "discs", "bmw", "audi", "oil", "filter", "x5"];

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(64))]
        /// Puts (new and again), removes and compactions in any order: the postings find exactly
        /// the documents, frequencies and scores that reading every document finds.
        #[test]
        fn postings_answer_as_reading_every_document(
            edits in proptest::collection::vec((0u8..40, proptest::collection::vec(0usize..10, 0..6), proptest::bool::ANY), 1..300),
            query in proptest::collection::vec(0usize..10, 1..3),
            cut in 2usize..6,
        ) {
            let mut index = CatalogIndex::default();
            for (id, words, keep) in &edits {
                let id = format!("p{id}");
                if *keep {
                    let name: Vec<&str> = words.iter().map(|w| WORDS[*w]).collect();
                    index.put(&product(&id, &name.join(" "), ("bmw", "brakes", "brake-disc"), None));
                } else {
                    index.remove(&id);
                }
            }
            // Terms as prefixes of the vocabulary's words, of n-gram lengths.
            let terms: Vec<String> = query.iter().map(|w| WORDS[*w].chars().take(cut).collect()).collect();
            proptest::prop_assert_eq!(sorted(index.named(&terms, |_| true)), named_by_reading_all(&index, &terms));
            proptest::prop_assert!(index.entries <= 2 * index.live_entries + 4096);
        }
    }

    #[test]
    fn removals_past_the_live_entries_compact_the_postings() {
        let mut index = CatalogIndex::default();
        for round in 0..3 {
            for n in 0..3000 {
                let name = if round % 2 == 0 { "BMW Brake Disc" } else { "Audi Oil Filter" };
                index.put(&product(&format!("p{n}"), name, ("bmw", "brakes", "brake-disc"), None));
            }
        }
        assert_eq!(index.live_entries, 3 * 3000);
        assert!(index.entries <= 2 * index.live_entries + 4096, "{} entries", index.entries);
        assert_eq!(index.rank(&["filter".to_owned()], &[], (&[], None), (0, 5)).total, 0);
        assert_eq!(index.rank(&["brake".to_owned()], &[], (&[], None), (0, 5)).total, 3000);
    }

    #[test]
    fn listing_windows_are_newest_first_then_by_id_and_cut_where_asked() {
        let mut index = CatalogIndex::default();
        for (n, at) in [("p3", 5), ("p1", 9), ("p2", 5), ("p5", 1), ("p4", 9), ("p6", 5)] {
            let mut p = product(n, "BMW Brake Disc", ("bmw", "brakes", "brake-disc"), None);
            p.created_at = at;
            index.put(&p);
        }
        let window = |offset: u64, limit: u32| {
            index.list_window(&ProductListing {
                category: Some("brakes".into()),
                offset,
                limit,
                ..ProductListing::default()
            })
        };
        assert_eq!(window(0, 10).ids, ["p1", "p4", "p2", "p3", "p6", "p5"]);
        assert_eq!(window(0, 10).total, 6);
        assert_eq!(window(2, 2).ids, ["p2", "p3"]);
        assert_eq!(window(5, 2).ids, ["p5"]);
        assert!(window(6, 2).ids.is_empty());
        assert_eq!(window(6, 2).total, 6);
        let nowhere = ProductListing { category: Some("nowhere".into()), limit: 5, ..ProductListing::default() };
        assert_eq!((index.list_window(&nowhere).ids.len(), index.list_window(&nowhere).total), (0, 0));
    }
}
