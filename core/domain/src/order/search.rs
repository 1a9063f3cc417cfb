//! What staff type in the back office's order search: an order number, an invoice number, a
//! customer's mobile or email. The text is read once into what it can only be. Beside it, the list's
//! filter by where an order's refunds stand.

use crate::address::typed_mobile_digits;
use crate::Message;

/// Most characters of an order search.
pub const ORDER_SEARCH_MAX: usize = 100;

/// One order search, by what the text is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OrderSearch {
    /// Text with an `@`: a customer's email, lower-cased (the account's, or its Google email).
    Email(String),
    /// Ten digits as people type them ([`typed_mobile_digits`]): a customer's mobile,
    /// the account's or the delivery address's.
    Mobile(String),
    /// Anything else, upper-cased: an order number (`MQ-000042`) or an invoice number (`MQ/26-27/000042`).
    Number(String),
}

impl OrderSearch {
    /// The search `text` asks for; `None` for empty text (no search).
    ///
    /// # Errors
    /// [`Message::OrderFilterInvalid`] for more than [`ORDER_SEARCH_MAX`] characters or a control character.
    pub fn parse(text: &str) -> Result<Option<Self>, Message> {
        let text = text.trim();
        if text.chars().count() > ORDER_SEARCH_MAX || text.chars().any(char::is_control) {
            return Err(Message::OrderFilterInvalid);
        }
        if text.is_empty() {
            return Ok(None);
        }
        if text.contains('@') {
            return Ok(Some(OrderSearch::Email(text.to_lowercase())));
        }
        if let Some(mobile) = typed_mobile_digits(text) {
            return Ok(Some(OrderSearch::Mobile(mobile)));
        }
        Ok(Some(OrderSearch::Number(text.to_uppercase())))
    }
}

/// Orders by where their refunds stand: the money their refunds give back (every refund recorded,
/// paid or still at the provider) against the order's total, or a refund still open at the
/// provider or failed there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundFilter {
    /// Nothing given back.
    None,
    /// Some of the total given back, not all.
    Partial,
    /// The whole total given back.
    Full,
    /// A refund asked for and not yet settled by the provider (`requested` or `pending`).
    Open,
    /// A refund the provider refused, to be retried.
    Failed,
}

impl RefundFilter {
    /// Every filter, as the list's query names them.
    pub const ALL: [RefundFilter; 5] =
        [RefundFilter::None, RefundFilter::Partial, RefundFilter::Full, RefundFilter::Open, RefundFilter::Failed];

    /// The filter's name in the list's query.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            RefundFilter::None => "none",
            RefundFilter::Partial => "partial",
            RefundFilter::Full => "full",
            RefundFilter::Open => "open",
            RefundFilter::Failed => "failed",
        }
    }

    /// The filter named `code`, if any.
    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.code() == code)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_text_is_read_as_what_it_can_only_be() {
        let cases = [
            ("  Asha@Example.IN ", OrderSearch::Email("asha@example.in".into())),
            ("98765 43210", OrderSearch::Mobile("9876543210".into())),
            ("+91 98765-43210", OrderSearch::Mobile("9876543210".into())),
            ("09876543210", OrderSearch::Mobile("9876543210".into())),
            ("mq-000042", OrderSearch::Number("MQ-000042".into())),
            ("MQ/26-27/000042", OrderSearch::Number("MQ/26-27/000042".into())),
            ("12345", OrderSearch::Number("12345".into())),
        ];
        for (text, search) in cases {
            assert_eq!(OrderSearch::parse(text), Ok(Some(search)), "{text:?}");
        }
        assert_eq!(OrderSearch::parse("   "), Ok(None));
        assert_eq!(OrderSearch::parse(&"x".repeat(101)), Err(Message::OrderFilterInvalid));
        assert_eq!(OrderSearch::parse("MQ\u{0}1"), Err(Message::OrderFilterInvalid));
    }

    proptest! {
        #[test]
        fn any_short_text_is_one_search_or_none(text in "\\PC{0,100}") {
            match OrderSearch::parse(&text) {
                Ok(None) => prop_assert!(text.trim().is_empty()),
                Ok(Some(OrderSearch::Mobile(m))) => prop_assert!(m.len() == 10 && m.bytes().all(|b| b.is_ascii_digit())),
                Ok(Some(OrderSearch::Email(e))) => prop_assert!(e.contains('@')),
                Ok(Some(OrderSearch::Number(n))) => prop_assert!(!n.is_empty()),
                Err(m) => prop_assert_eq!(m, Message::OrderFilterInvalid),
            }
        }
    }
}
