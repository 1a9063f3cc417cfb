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

use marque_domain::catalog::Grade;
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
}

/// One stored product: its words as word numbers, its length in n-grams, its listing fields as
/// numbers of [`Strings`].
#[derive(Debug, Clone)]
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
}

const NO_FUEL: u32 = u32::MAX;

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
#[derive(Debug, Clone, Default)]
pub(crate) struct CatalogIndex {
    docs: Vec<Option<Doc>>,
    free: Vec<u32>,
    by_id: HashMap<Box<str>, u32>,
    /// Every word ever seen, in byte order (which keeps every word beginning with a term together),
    /// with its number. Words are not forgotten when their last product goes: a rebuild drops them.
    vocabulary: BTreeMap<Box<str>, u32>,
    strings: Strings,
    /// Σ length over every document, and how many there are (BM25's average length and N).
    total_length: u64,
    count: u64,
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
        self.by_id.insert(product.id.as_str().into(), slot);
        self.total_length += u64::from(length);
        self.count += 1;
    }

    /// Forgets the product `id` (nothing when it is not kept).
    pub(crate) fn remove(&mut self, id: &str) {
        let Some(slot) = self.by_id.remove(id) else { return };
        if let Some(doc) = self.docs[slot as usize].take() {
            self.total_length -= u64::from(doc.length);
            self.count -= 1;
        }
        self.free.push(slot);
    }

    fn docs(&self) -> impl Iterator<Item = &Doc> {
        self.docs.iter().flatten()
    }

    /// How many products `listing`'s filters keep (its window aside), as the `LISTING` count does.
    pub(crate) fn count_listing(&self, listing: &ProductListing) -> u64 {
        // A filter value no product holds keeps nothing; a list keeps what any of its values keeps.
        let one = |value: &Option<String>| value.as_deref().map(|v| self.strings.find(v).ok_or(()));
        let any = |values: Vec<&str>| -> Option<Vec<u32>> {
            (!values.is_empty()).then(|| values.iter().filter_map(|v| self.strings.find(v)).collect())
        };
        let (Ok(category), Ok(subcategory)) =
            (one(&listing.category).transpose(), one(&listing.subcategory).transpose())
        else {
            return 0;
        };
        let brands = any(listing.brands.iter().map(marque_domain::filters::BrandSlug::as_str).collect());
        let conditions = any(listing.conditions.iter().map(|c| c.code()).collect());
        let fuels = any(listing.fuels.iter().map(|f| f.code()).collect());
        let grades = self.grades(&listing.grades);
        let kept = |doc: &&Doc| {
            category.is_none_or(|c| doc.category == c)
                && subcategory.is_none_or(|s| doc.subcategory == s)
                && brands.as_ref().is_none_or(|b| b.contains(&doc.oem))
                && conditions.as_ref().is_none_or(|c| c.contains(&doc.condition))
                && fuels.as_ref().is_none_or(|f| doc.fuel != NO_FUEL && f.contains(&doc.fuel))
                && graded(grades.as_deref(), doc)
        };
        self.docs().filter(kept).count() as u64
    }

    /// The numbers of a grade filter's letters (`None`: no filter; a letter no product holds keeps nothing).
    fn grades(&self, grades: &[Grade]) -> Option<Vec<u32>> {
        (!grades.is_empty()).then(|| grades.iter().filter_map(|g| self.strings.find(g.letter())).collect())
    }

    /// The words beginning with `term`, as one flag per word number (none when `term` is not the
    /// length of an n-gram), and how many there are.
    fn words_beginning(&self, term: &str) -> (Vec<bool>, usize) {
        let mut flags = vec![false; self.vocabulary.len()];
        let chars = term.chars().count();
        if !(NGRAM_MIN..=NGRAM_MAX).contains(&chars) {
            return (flags, 0);
        }
        let mut found = 0;
        let words = self
            .vocabulary
            .range::<str, _>((std::ops::Bound::Included(term), std::ops::Bound::Unbounded))
            .take_while(|(word, _)| word.starts_with(term));
        for (_, n) in words {
            flags[*n as usize] = true;
            found += 1;
        }
        (flags, found)
    }

    /// The search `SEARCH` runs, ranked here: `terms` are the query's terms as SurrealDB analyses
    /// them (repeats kept), `parts` the products whose part numbers matched; the window is
    /// `offset..offset + limit` of the ranking.
    /// With `grades`, only the products of one of them are ranked (as the database's search narrowed
    /// to grades keeps them).
    pub(crate) fn rank(&self, terms: &[String], parts: &[String], grades: &[Grade], window: (u64, u32)) -> Ranked {
        let (offset, limit) = window;
        let wanted = self.grades(grades);
        let graded_id = |id: &str| {
            wanted.is_none()
                || self
                    .by_id
                    .get(id)
                    .and_then(|slot| self.docs[*slot as usize].as_ref())
                    .is_some_and(|doc| graded(wanted.as_deref(), doc))
        };
        let mut named = self.named(terms);
        named.retain(|(id, _)| graded_id(id));
        let parts: HashSet<&str> = parts.iter().map(String::as_str).filter(|id| graded_id(id)).collect();
        let mut hits: Vec<Hit<'_>> =
            named.iter().map(|&(id, score)| Hit { part: parts.contains(id), score, id }).collect();
        let in_named: HashSet<&str> = named.iter().map(|(id, _)| *id).collect();
        let mut only_parts: Vec<&str> = parts.iter().copied().filter(|id| !in_named.contains(id)).collect();
        only_parts.sort_unstable();
        hits.extend(only_parts.into_iter().map(|id| Hit { part: true, score: 0.0, id }));
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

    /// The documents `name @1@ terms` matches, with `search::score(1)`.
    fn named<'a>(&'a self, terms: &[String]) -> Vec<(&'a str, f32)> {
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
        let mut matching = Vec::with_capacity(distinct.len());
        for term in &distinct {
            let (flags, found) = self.words_beginning(term);
            if found == 0 {
                return Vec::new();
            }
            matching.push(flags);
        }
        let has = |flags: &[bool], w: &u32| flags.get(*w as usize).copied().unwrap_or(false);
        let mut holding = vec![0u64; distinct.len()];
        let mut found: Vec<(&Doc, Vec<u32>)> = Vec::new();
        for doc in self.docs() {
            let frequencies: Vec<u32> = matching
                .iter()
                .map(|words| u32::try_from(doc.words.iter().filter(|w| has(words, w)).count()).unwrap_or(u32::MAX))
                .collect();
            for (held, tf) in holding.iter_mut().zip(&frequencies) {
                *held += u64::from(*tf > 0);
            }
            if frequencies.iter().all(|tf| *tf > 0) {
                found.push((doc, frequencies));
            }
        }
        let scorer = Scorer::new(self.count, self.total_length);
        found
            .into_iter()
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
        let ranked = index.rank(&terms(&["brake"]), &[], &[], (0, 10));
        assert_eq!(ranked.total, 2);
        // "b" holds "brake" twice and is ranked above "a", which holds it once in a longer name.
        assert_eq!(ranked.ids, ["b", "a"]);
        assert_eq!(index.rank(&terms(&["brake", "x5"]), &[], &[], (0, 10)).ids, ["a"]);
        assert_eq!(index.rank(&terms(&["turbochar"]), &[], &[], (0, 10)).ids, ["d"]);
        // Longer than an n-gram, shorter than one, or in no name: nothing.
        assert_eq!(index.rank(&terms(&["turbocharger"]), &[], &[], (0, 10)).total, 0);
        assert_eq!(index.rank(&terms(&["x"]), &[], &[], (0, 10)).total, 0);
        assert_eq!(index.rank(&terms(&["brake", "zz"]), &[], &[], (0, 10)).total, 0);
    }

    #[test]
    fn a_repeated_query_term_scores_at_each_of_its_places() {
        // SurrealDB keeps one document set per query token, so `brake brake` sums brake's BM25 twice.
        let index = index();
        let once = index.named(&["brake".to_owned()]);
        let twice = index.named(&["brake".to_owned(), "brake".to_owned()]);
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
        let ranked = index.rank(&["brake".to_owned()], &["d".to_owned(), "a".to_owned()], &[], (0, 10));
        assert_eq!(ranked.ids, ["a", "d", "b"]);
        assert_eq!(ranked.total, 3);
        let window = index.rank(&["brake".to_owned()], &["d".to_owned(), "a".to_owned()], &[], (1, 1));
        assert_eq!((window.ids, window.total), (vec!["d".to_owned()], 3));
        assert!(index.rank(&["brake".to_owned()], &[], &[], (5, 10)).ids.is_empty());
    }

    #[test]
    fn listing_counts_follow_every_filter_and_every_write() {
        let mut index = index();
        let listing = |brands: &[&str], category: Option<&str>| ProductListing {
            brands: brands.iter().map(|b| BrandSlug::from_code(b).expect("a slug")).collect(),
            category: category.map(str::to_owned),
            limit: 20,
            ..ProductListing::default()
        };
        assert_eq!(index.count_listing(&listing(&[], Some("brakes"))), 2);
        assert_eq!(index.count_listing(&listing(&["bmw", "audi"], Some("engine"))), 2);
        assert_eq!(index.count_listing(&listing(&["bmw"], None)), 2);
        assert_eq!(index.count_listing(&listing(&[], Some("nowhere"))), 0);
        let diesel = ProductListing { fuels: vec![FuelType::Diesel], ..listing(&[], None) };
        assert_eq!(index.count_listing(&diesel), 2);
        let old = ProductListing { conditions: vec![Condition::Old], ..listing(&[], None) };
        assert_eq!(index.count_listing(&old), 0);
        index.put(&product("a", "BMW X5 Oil Filter", ("bmw", "engine", "filters"), Some("diesel")));
        index.remove("b");
        index.remove("nobody");
        assert_eq!(index.count(), 4);
        assert_eq!(index.count_listing(&listing(&[], Some("brakes"))), 0);
        assert_eq!(index.count_listing(&diesel), 3);
        assert_eq!(index.rank(&["filter".to_owned()], &[], &[], (0, 10)).total, 2);
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
        assert_eq!(index.count_listing(&listing(vec![])), 4);
        assert_eq!(index.count_listing(&listing(vec![Grade::A])), 1);
        assert_eq!(index.count_listing(&listing(vec![Grade::A, Grade::C])), 2);
        assert_eq!(index.count_listing(&listing(vec![Grade::B])), 0, "a grade no product holds keeps nothing");
        let brake = ["brake".to_owned()];
        assert_eq!(index.rank(&brake, &[], &[], (0, 10)).total, 4);
        assert_eq!(index.rank(&brake, &[], &[Grade::C], (0, 10)).ids, ["u2"]);
        let parts = ["a".to_owned(), "u1".to_owned()];
        assert_eq!(index.rank(&[], &parts, &[Grade::A], (0, 10)).ids, ["u1"], "part hits are graded too");
        // A regrade is a put: the counts follow it.
        index.put(&graded("u2", "BMW Worn Brake Disc", "A"));
        assert_eq!(index.count_listing(&listing(vec![Grade::A])), 2);
        assert_eq!(index.count_listing(&listing(vec![Grade::C])), 0);
    }
}
