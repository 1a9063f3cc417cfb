//! The one rule of the back office's lists: `?page=&size=`, a page from 1 and 1–100 rows a page (20
//! when not given), answering `{results, pages, total}`. Every admin list and every store port that
//! pages for one takes a [`ListWindow`], so the rule, its limits and its two messages live here only.

use crate::catalog::Page;
use crate::message::{user_facing_error, Message, UserFacing};

/// Rows a page of an admin list holds when `size` is not given.
pub const DEFAULT_LIST_SIZE: u32 = 20;
/// Most rows a page of an admin list may hold.
pub const MAX_LIST_SIZE: u32 = 100;

/// Why a `?page=&size=` pair is not a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListWindowError {
    /// The page is not a whole number from 1 to 100000 (`page.invalid`).
    Page,
    /// The size is not a whole number from 1 to [`MAX_LIST_SIZE`] (`page.size_invalid`).
    Size,
}

impl UserFacing for ListWindowError {
    fn message(&self) -> Message {
        match self {
            ListWindowError::Page => Message::PageInvalid,
            ListWindowError::Size => Message::PageSizeInvalid,
        }
    }
}
user_facing_error!(ListWindowError);

/// One page of an admin list: a 1-based page of `size` rows. Holding one means both were checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListWindow {
    page: Page,
    size: u32,
}

impl Default for ListWindow {
    /// The first page of [`DEFAULT_LIST_SIZE`] rows.
    fn default() -> Self {
        ListWindow { page: Page::FIRST, size: DEFAULT_LIST_SIZE }
    }
}

impl ListWindow {
    /// The window `?page=&size=` asks for; an absent page is 1, an absent size [`DEFAULT_LIST_SIZE`].
    /// Numbers are taken as wide as a query can carry them, so a huge one is this rule's fault too.
    ///
    /// # Errors
    /// [`ListWindowError::Page`] for a page outside 1–100000 (checked first);
    /// [`ListWindowError::Size`] for a size outside 1–[`MAX_LIST_SIZE`].
    pub fn new(page: Option<u64>, size: Option<u64>) -> Result<Self, ListWindowError> {
        let page = match page {
            None => Page::FIRST,
            Some(n) => u32::try_from(n).ok().and_then(|n| Page::new(n).ok()).ok_or(ListWindowError::Page)?,
        };
        let size = match size {
            None => DEFAULT_LIST_SIZE,
            Some(n) => {
                u32::try_from(n).ok().filter(|n| (1..=MAX_LIST_SIZE).contains(n)).ok_or(ListWindowError::Size)?
            }
        };
        Ok(ListWindow { page, size })
    }

    /// The page, from 1.
    #[must_use]
    pub fn page(self) -> Page {
        self.page
    }

    /// Rows before this window.
    #[must_use]
    pub fn offset(self) -> u64 {
        self.page.offset(self.size)
    }

    /// Most rows this window holds (1–[`MAX_LIST_SIZE`]).
    #[must_use]
    pub fn limit(self) -> u32 {
        self.size
    }

    /// Pages of this window's size that `total` rows fill (0 when there are none).
    #[must_use]
    pub fn pages(self, total: u64) -> u64 {
        Page::count(total, self.size)
    }

    /// This window of a list held whole in memory: for the few short lists read in one go
    /// (categories, brands); a list that can grow without bound is paged by its store.
    #[must_use]
    pub fn of<T>(self, all: Vec<T>) -> Vec<T> {
        let skip = usize::try_from(self.offset()).unwrap_or(usize::MAX);
        all.into_iter().skip(skip).take(self.size as usize).collect()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn window(page: u64, size: u64) -> Result<(u64, u32), ListWindowError> {
        ListWindow::new(Some(page), Some(size)).map(|w| (w.offset(), w.limit()))
    }

    #[test]
    fn absent_values_are_the_first_page_of_twenty() {
        let w = ListWindow::new(None, None).expect("defaults");
        assert_eq!((w.page().number(), w.offset(), w.limit()), (1, 0, 20));
        assert_eq!(w, ListWindow::default());
        assert_eq!(ListWindow::new(Some(3), None).map(ListWindow::offset), Ok(40));
        assert_eq!(ListWindow::new(None, Some(7)).map(|w| (w.offset(), w.limit())), Ok((0, 7)));
    }

    #[test]
    fn boundaries_of_page_and_size() {
        assert_eq!(window(1, 1), Ok((0, 1)));
        assert_eq!(window(1, 100), Ok((0, 100)));
        assert_eq!(window(3, 100), Ok((200, 100)));
        assert_eq!(window(100_000, 100), Ok((9_999_900, 100)));
        assert_eq!(window(0, 20), Err(ListWindowError::Page));
        assert_eq!(window(100_001, 20), Err(ListWindowError::Page));
        assert_eq!(window(1, 0), Err(ListWindowError::Size));
        assert_eq!(window(1, 101), Err(ListWindowError::Size));
    }

    #[test]
    fn huge_numbers_are_the_same_faults() {
        for huge in [u64::from(u32::MAX), u64::from(u32::MAX) + 1, u64::MAX] {
            assert_eq!(window(huge, 20), Err(ListWindowError::Page), "{huge}");
            assert_eq!(window(1, huge), Err(ListWindowError::Size), "{huge}");
        }
        // Both wrong: the page is named first, as a form names its first field.
        assert_eq!(window(0, 0), Err(ListWindowError::Page));
    }

    #[test]
    fn each_fault_has_its_one_code_and_text() {
        assert_eq!(ListWindowError::Page.code(), "page.invalid");
        assert_eq!(ListWindowError::Size.code(), "page.size_invalid");
        assert_eq!(ListWindowError::Size.to_string(), "size must be a whole number from 1 to 100");
        assert_eq!(ListWindowError::Page.to_string(), "page must be a whole number from 1 to 100000");
    }

    #[test]
    fn pages_of_a_total() {
        let w = ListWindow::new(Some(2), Some(20)).expect("valid");
        assert_eq!(
            (w.pages(0), w.pages(1), w.pages(20), w.pages(21), w.pages(u64::MAX)),
            (0, 1, 1, 2, u64::MAX / 20 + 1)
        );
    }

    #[test]
    fn a_window_of_a_list_in_memory() {
        let all: Vec<u32> = (1..=45).collect();
        let page = |p, s| ListWindow::new(Some(p), Some(s)).expect("valid").of(all.clone());
        assert_eq!(page(1, 20), (1..=20).collect::<Vec<_>>());
        assert_eq!(page(3, 20), (41..=45).collect::<Vec<_>>());
        assert_eq!(page(4, 20), Vec::<u32>::new());
        assert_eq!(page(100_000, 100), Vec::<u32>::new());
        assert_eq!(ListWindow::default().of(Vec::<u32>::new()), Vec::<u32>::new());
    }

    proptest! {
        #[test]
        fn a_window_is_valid_exactly_within_the_rule(page in any::<u64>(), size in any::<u64>()) {
            let page_ok = (1..=100_000).contains(&page);
            let size_ok = (1..=100).contains(&size);
            match ListWindow::new(Some(page), Some(size)) {
                Ok(w) => {
                    prop_assert!(page_ok && size_ok);
                    prop_assert_eq!(w.offset(), (page - 1) * size);
                    prop_assert_eq!(u64::from(w.limit()), size);
                }
                Err(ListWindowError::Page) => prop_assert!(!page_ok),
                Err(ListWindowError::Size) => prop_assert!(page_ok && !size_ok),
            }
        }

        #[test]
        fn the_pages_hold_every_row_once(total in 0u64..10_000, size in 1u64..=100) {
            let first = ListWindow::new(None, Some(size)).expect("valid");
            let pages = first.pages(total);
            prop_assert!(pages * size >= total, "every row is on a page");
            prop_assert!(pages == 0 || (pages - 1) * size < total, "no page is empty");
            let rows: Vec<u64> = (0..total).collect();
            let mut seen = Vec::new();
            for p in 1..=pages + 1 {
                seen.extend(ListWindow::new(Some(p), Some(size)).expect("valid").of(rows.clone()));
            }
            prop_assert_eq!(seen, rows);
        }
    }
}
