//! Finding products: page numbers and one page of results.

use serde::{Deserialize, Serialize};

use super::Product;
use crate::message::{user_facing_error, Message, UserFacing};

/// Products per listing page (docs/shop-rules.md).
pub const LISTING_PAGE_SIZE: u32 = 20;
/// Products in each home-page list (docs/shop-rules.md).
pub const HOME_LIST_SIZE: u32 = 12;
/// Newest products a category page shows of each subcategory when no filter is
/// chosen (the rest sit behind the group's 'See all' link).
pub const GROUP_PREVIEW_SIZE: u32 = 4;

/// A 1-based page number of a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct Page(u32);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageError {
    Invalid,
}

impl UserFacing for PageError {
    fn message(&self) -> Message {
        Message::PageInvalid
    }
}
user_facing_error!(PageError);

/// What a visitor typed into the search box: a part name or a part number, trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchTerm(String);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchTermError {
    TooLong,
}

impl UserFacing for SearchTermError {
    fn message(&self) -> Message {
        Message::SearchTooLong
    }
}
user_facing_error!(SearchTermError);

impl SearchTerm {
    /// Longest search text accepted; part names and numbers are far shorter.
    pub const MAX_CHARS: usize = 200;

    /// # Errors
    /// [`SearchTermError::TooLong`] above [`SearchTerm::MAX_CHARS`] characters.
    pub fn parse(raw: &str) -> Result<Self, SearchTermError> {
        let term = raw.trim();
        if term.chars().count() > Self::MAX_CHARS {
            return Err(SearchTermError::TooLong);
        }
        Ok(Self(term.to_owned()))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Page {
    pub const FIRST: Page = Page(1);
    const MAX: u32 = 100_000;

    /// Parses the `page` query value. An absent or empty value is page 1.
    ///
    /// # Errors
    /// [`PageError::Invalid`] for anything but a whole number from 1 to 100000.
    pub fn parse(raw: Option<&str>) -> Result<Self, PageError> {
        let raw = raw.map(str::trim).unwrap_or("");
        if raw.is_empty() {
            return Ok(Page::FIRST);
        }
        raw.parse::<u32>().map_err(|_| PageError::Invalid).and_then(Self::new)
    }

    /// # Errors
    /// [`PageError::Invalid`] for 0 and above 100000.
    pub fn new(n: u32) -> Result<Self, PageError> {
        if (1..=Self::MAX).contains(&n) {
            Ok(Page(n))
        } else {
            Err(PageError::Invalid)
        }
    }

    #[must_use]
    pub fn number(self) -> u32 {
        self.0
    }

    /// Rows to skip before this page.
    #[must_use]
    pub fn offset(self, page_size: u32) -> u64 {
        u64::from(self.0 - 1) * u64::from(page_size)
    }

    /// How many pages `total` items fill (0 when there are none).
    #[must_use]
    pub fn count(total: u64, page_size: u32) -> u64 {
        total.div_ceil(u64::from(page_size.max(1)))
    }
}

impl TryFrom<u32> for Page {
    type Error = PageError;
    fn try_from(n: u32) -> Result<Self, Self::Error> {
        Self::new(n)
    }
}

impl From<Page> for u32 {
    fn from(p: Page) -> Self {
        p.0
    }
}

/// One page of a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchPage {
    pub products: Vec<Product>,
    pub page: Page,
    /// Number of pages of the whole result.
    pub pages: u64,
    /// Number of products in the whole result.
    pub total: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_numbers_parse_strictly() {
        assert_eq!(Page::parse(None), Ok(Page::FIRST));
        assert_eq!(Page::parse(Some("")), Ok(Page::FIRST));
        assert_eq!(Page::parse(Some("3")).map(Page::number), Ok(3));
        for bad in ["0", "-1", "abc", "1.5", "100001", "99999999999"] {
            assert_eq!(Page::parse(Some(bad)), Err(PageError::Invalid), "{bad}");
        }
    }

    #[test]
    fn deserialised_pages_are_parsed_pages() {
        assert_eq!(serde_json::from_str::<Page>("3").ok(), Some(Page(3)));
        for bad in ["0", "100001", "-1", "\"2\""] {
            assert!(serde_json::from_str::<Page>(bad).is_err(), "{bad}");
        }
        assert_eq!(serde_json::to_string(&Page::FIRST).expect("serialises"), "1");
    }

    #[test]
    fn search_terms_are_trimmed_and_bounded() {
        assert_eq!(SearchTerm::parse("  brake disc ").map(|t| t.as_str().to_owned()), Ok("brake disc".into()));
        assert!(SearchTerm::parse(&"ब".repeat(200)).is_ok(), "characters, not bytes");
        let too_long = SearchTerm::parse(&"a".repeat(201)).expect_err("201 characters");
        assert_eq!(too_long.to_string(), "search must be at most 200 characters");
        assert_eq!(too_long.code(), "search.too_long");
    }

    #[test]
    fn page_counts_round_up() {
        assert_eq!(Page::count(0, 20), 0);
        assert_eq!(Page::count(1, 20), 1);
        assert_eq!(Page::count(20, 20), 1);
        assert_eq!(Page::count(21, 20), 2);
        assert_eq!(Page::parse(Some("3")).map(|p| p.offset(20)), Ok(40));
    }
}
