//! Shortening product titles to fit where they are shown, and page titles.

use std::borrow::Cow;

/// Appended to a shortened title: three full stops, not the '…' character.
pub const ELLIPSIS: &str = "...";

/// The places a product title is shortened, each with its own limit (docs/shop-rules.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TitlePlace {
    /// Product cards on the home page.
    HomeCard,
    /// Hot-selling titles.
    HotSelling,
    /// Cards on search, category, subcategory and brand listings.
    ListingCard,
    /// Names in the wishlist.
    Wishlist,
    /// Product names on order lines in the purchase history.
    OrderLine,
}

impl TitlePlace {
    pub const ALL: [TitlePlace; 5] = [
        TitlePlace::HomeCard,
        TitlePlace::HotSelling,
        TitlePlace::ListingCard,
        TitlePlace::Wishlist,
        TitlePlace::OrderLine,
    ];

    /// Most characters shown before the ellipsis.
    #[must_use]
    pub fn limit(self) -> usize {
        match self {
            TitlePlace::HomeCard => 50,
            TitlePlace::HotSelling => 45,
            TitlePlace::ListingCard => 70,
            TitlePlace::Wishlist => 45,
            TitlePlace::OrderLine => 40,
        }
    }

    /// The place's name for clients, e.g. `homeCard`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            TitlePlace::HomeCard => "homeCard",
            TitlePlace::HotSelling => "hotSelling",
            TitlePlace::ListingCard => "listingCard",
            TitlePlace::Wishlist => "wishlist",
            TitlePlace::OrderLine => "orderLine",
        }
    }

    #[must_use]
    pub fn truncate(self, title: &str) -> Cow<'_, str> {
        truncate_title(title, self.limit())
    }
}

/// The one truncation rule: a title of at most `max` characters is returned
/// unchanged; a longer one becomes its first `max` characters followed by
/// [`ELLIPSIS`] (so `max + 3` characters in all). Characters are Unicode
/// scalar values, not bytes: a Hindi or accented title is cut between
/// characters, never inside one. Nothing is trimmed.
#[must_use]
pub fn truncate_title(title: &str, max: usize) -> Cow<'_, str> {
    match title.char_indices().nth(max) {
        None => Cow::Borrowed(title),
        Some((cut, _)) => Cow::Owned(format!("{}{ELLIPSIS}", &title[..cut])),
    }
}

/// A page's `<title>`: `{title} - {shop name}`, or the shop name alone when
/// the page has no title of its own.
#[must_use]
pub fn page_title(title: Option<&str>, shop_name: &str) -> String {
    match title.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => format!("{t} - {shop_name}"),
        None => shop_name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn limits_per_place() {
        let limits: Vec<_> = TitlePlace::ALL.iter().map(|p| (p.key(), p.limit())).collect();
        assert_eq!(
            limits,
            [("homeCard", 50), ("hotSelling", 45), ("listingCard", 70), ("wishlist", 45), ("orderLine", 40)]
        );
    }

    #[test]
    fn at_or_below_the_limit_nothing_changes() {
        assert_eq!(truncate_title("", 40), "");
        assert_eq!(truncate_title(&"a".repeat(40), 40), "a".repeat(40));
        assert!(matches!(truncate_title("short", 40), Cow::Borrowed(_)));
    }

    #[test]
    fn above_the_limit_the_first_characters_and_an_ellipsis() {
        assert_eq!(truncate_title(&"a".repeat(41), 40), format!("{}...", "a".repeat(40)));
        assert_eq!(truncate_title("Front Brake Pad Set", 5), "Front...");
        assert_eq!(truncate_title("abc ", 3), "abc...", "a trailing space is a character too");
        assert_eq!(TitlePlace::OrderLine.truncate(&"x".repeat(45)), format!("{}...", "x".repeat(40)));
    }

    #[test]
    fn characters_not_bytes() {
        let hindi = "ब्रेक पैड सेट"; // 13 characters, 37 bytes
        assert_eq!(truncate_title(hindi, 13), hindi);
        assert_eq!(truncate_title(hindi, 5), "ब्रेक...");
        assert_eq!(truncate_title("Café Mirror", 4), "Café...");
    }

    #[test]
    fn page_titles() {
        assert_eq!(page_title(Some("Brake Pads"), "Marque Parts"), "Brake Pads - Marque Parts");
        assert_eq!(page_title(None, "Marque Parts"), "Marque Parts");
        assert_eq!(page_title(Some("  "), "Marque Parts"), "Marque Parts");
    }

    proptest! {
        #[test]
        fn truncation_keeps_a_prefix_and_bounds_the_length(title in ".{0,80}", max in 0_usize..75) {
            let out = truncate_title(&title, max);
            let n = title.chars().count();
            if n <= max {
                prop_assert_eq!(out.as_ref(), title.as_str());
            } else {
                prop_assert_eq!(out.chars().count(), max + ELLIPSIS.len());
                prop_assert!(out.ends_with(ELLIPSIS));
                prop_assert!(title.starts_with(&out[..out.len() - ELLIPSIS.len()]));
            }
        }
    }
}
