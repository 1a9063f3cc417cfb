//! What the customer is told when the shop moves their order: confirmed, shipped (courier, AWB and
//! tracking link), delivered, cancelled and refunded. Each notice has an email (subject and text)
//! and a short SMS, in English or Hindi, and names the SMS template (India's DLT) it is sent under.
//!
//! A notice is kept in the order's transaction and sent later by a worker that retries
//! ([`retry_after`]): a gateway that fails never undoes or blocks the staff member's action.

use crate::order::{ReturnOutcome, Shipment};
use crate::Money;

/// The languages a customer reads the shop in, as the storefront's selector names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Language {
    #[default]
    English,
    Hindi,
}

impl Language {
    /// `en`, `hi`: as stored and as the storefront's selector names them.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Hindi => "hi",
        }
    }

    /// The language named `code` (`en`, `hi`, or a tag starting with one, e.g. `hi-IN`).
    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        let primary = code.trim().split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Language::English),
            "hi" => Some(Language::Hindi),
            _ => None,
        }
    }
}

/// Which event a notice tells; its [`NoticeKind::template`] names the SMS template it goes under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NoticeKind {
    Confirmed,
    Shipped,
    Delivered,
    Cancelled,
    Refunded,
    ReturnRequested,
    ReturnApproved,
    ReturnRefused,
    ReturnReceived,
    ReturnResolved,
}

impl NoticeKind {
    pub const ALL: [NoticeKind; 10] = [
        NoticeKind::Confirmed,
        NoticeKind::Shipped,
        NoticeKind::Delivered,
        NoticeKind::Cancelled,
        NoticeKind::Refunded,
        NoticeKind::ReturnRequested,
        NoticeKind::ReturnApproved,
        NoticeKind::ReturnRefused,
        NoticeKind::ReturnReceived,
        NoticeKind::ReturnResolved,
    ];

    /// The SMS template's name (configuration maps it to the gateway's DLT template id):
    /// `order-confirmed`, `order-shipped`, `order-delivered`, `order-cancelled`, `order-refunded`.
    #[must_use]
    pub const fn template(self) -> &'static str {
        match self {
            NoticeKind::Confirmed => "order-confirmed",
            NoticeKind::Shipped => "order-shipped",
            NoticeKind::Delivered => "order-delivered",
            NoticeKind::Cancelled => "order-cancelled",
            NoticeKind::Refunded => "order-refunded",
            NoticeKind::ReturnRequested => "return-requested",
            NoticeKind::ReturnApproved => "return-approved",
            NoticeKind::ReturnRefused => "return-refused",
            NoticeKind::ReturnReceived => "return-received",
            NoticeKind::ReturnResolved => "return-resolved",
        }
    }
}

/// One event of an order the customer is told about, with what the texts need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderNotice {
    Confirmed,
    Shipped(Shipment),
    Delivered,
    /// Cancelled by the shop; `refund` is what the cancellation gives back (zero when nothing).
    Cancelled {
        refund: Money,
    },
    /// A refund of part of the order (or all of it) without a cancellation.
    Refunded {
        amount: Money,
    },
    /// The customer asked to return `part` (a line's product name).
    ReturnRequested {
        part: String,
    },
    /// The shop approved the return; the customer sends the part back.
    ReturnApproved {
        part: String,
        note: Option<String>,
    },
    /// The shop refused the return, with its note.
    ReturnRefused {
        part: String,
        note: Option<String>,
    },
    /// The shop received the part and inspects it.
    ReturnReceived {
        part: String,
    },
    /// The shop resolved the return: `amount` refunded or granted as store credit (zero for a
    /// replacement).
    ReturnResolved {
        part: String,
        outcome: ReturnOutcome,
        amount: Money,
    },
}

/// The texts of one notice in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoticeTexts {
    pub subject: String,
    pub email: String,
    pub sms: String,
}

/// What every notice names: the order, the customer and the shop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoticeContext<'a> {
    /// e.g. `MQ-000042`.
    pub order_number: &'a str,
    /// The customer's name as the order holds it (may be empty).
    pub customer: &'a str,
    /// The trading name, signing every message.
    pub shop: &'a str,
}

fn rupees(amount: Money) -> String {
    format!("₹{}", amount.to_the_paisa())
}

impl OrderNotice {
    #[must_use]
    pub fn kind(&self) -> NoticeKind {
        match self {
            OrderNotice::Confirmed => NoticeKind::Confirmed,
            OrderNotice::Shipped(_) => NoticeKind::Shipped,
            OrderNotice::Delivered => NoticeKind::Delivered,
            OrderNotice::Cancelled { .. } => NoticeKind::Cancelled,
            OrderNotice::Refunded { .. } => NoticeKind::Refunded,
            OrderNotice::ReturnRequested { .. } => NoticeKind::ReturnRequested,
            OrderNotice::ReturnApproved { .. } => NoticeKind::ReturnApproved,
            OrderNotice::ReturnRefused { .. } => NoticeKind::ReturnRefused,
            OrderNotice::ReturnReceived { .. } => NoticeKind::ReturnReceived,
            OrderNotice::ReturnResolved { .. } => NoticeKind::ReturnResolved,
        }
    }

    /// The email's subject and text and the SMS's text, in `language`.
    #[must_use]
    pub fn texts(&self, language: Language, cx: NoticeContext<'_>) -> NoticeTexts {
        match language {
            Language::English => self.english(cx),
            Language::Hindi => self.hindi(cx),
        }
    }

    fn english(&self, cx: NoticeContext<'_>) -> NoticeTexts {
        let NoticeContext { order_number: n, customer, shop } = cx;
        let dear =
            if customer.trim().is_empty() { "Dear customer".to_owned() } else { format!("Dear {}", customer.trim()) };
        let (subject, body, sms) = match self {
            OrderNotice::Confirmed => (
                format!("Order {n} confirmed"),
                format!("We have confirmed your order {n} and are getting your parts ready."),
                format!("{shop}: your order {n} is confirmed. We will tell you when it ships."),
            ),
            OrderNotice::Shipped(s) => {
                let (courier, awb, link) = (s.courier().name(), s.awb().as_str(), s.tracking_link());
                (
                    format!("Order {n} shipped"),
                    format!("Your order {n} is on its way.\n\nCourier: {courier}\nAWB: {awb}\nTrack it: {link}"),
                    format!("{shop}: order {n} shipped by {courier}, AWB {awb}. Track: {link}"),
                )
            }
            OrderNotice::Delivered => (
                format!("Order {n} delivered"),
                format!("Your order {n} has been delivered. Thank you for shopping with us."),
                format!("{shop}: your order {n} has been delivered. Thank you!"),
            ),
            OrderNotice::Cancelled { refund } if *refund > Money::ZERO => (
                format!("Order {n} cancelled"),
                format!(
                    "We have cancelled your order {n}. A refund of {} has been started; it reaches your account in \
                     5-7 working days.",
                    rupees(*refund)
                ),
                format!("{shop}: order {n} is cancelled. Refund of {} started, 5-7 working days.", rupees(*refund)),
            ),
            OrderNotice::Cancelled { .. } => (
                format!("Order {n} cancelled"),
                format!("We have cancelled your order {n}."),
                format!("{shop}: your order {n} is cancelled."),
            ),
            OrderNotice::Refunded { amount } => (
                format!("Refund for order {n}"),
                format!(
                    "We have started a refund of {} for your order {n}; it reaches your account in 5-7 working days.",
                    rupees(*amount)
                ),
                format!("{shop}: refund of {} for order {n} started, 5-7 working days.", rupees(*amount)),
            ),
            OrderNotice::ReturnRequested { part } => (
                format!("Return of {part} requested (order {n})"),
                format!("We have received your request to return {part} from order {n}. We will reply soon."),
                format!("{shop}: we got your request to return {part} (order {n}). We will reply soon."),
            ),
            OrderNotice::ReturnApproved { part, note } => (
                format!("Return of {part} approved (order {n})"),
                format!(
                    "We have approved the return of {part} from order {n}. Please send the part back with its                      invoice.{}",
                    note_en(note.as_deref())
                ),
                format!("{shop}: return of {part} (order {n}) approved. Please send it back with the invoice."),
            ),
            OrderNotice::ReturnRefused { part, note } => (
                format!("Return of {part} not accepted (order {n})"),
                format!("We cannot accept the return of {part} from order {n}.{}", note_en(note.as_deref())),
                format!("{shop}: we cannot accept the return of {part} (order {n}). Details in your email."),
            ),
            OrderNotice::ReturnReceived { part } => (
                format!("Returned {part} received (order {n})"),
                format!("We have received {part} from order {n} and are inspecting it. We will tell you the outcome."),
                format!("{shop}: we received {part} (order {n}) and are inspecting it."),
            ),
            OrderNotice::ReturnResolved { part, outcome, amount } => {
                let what = match outcome {
                    ReturnOutcome::Refund => format!(
                        "We have started a refund of {} for it; it reaches your account in 5-7 working days.",
                        rupees(*amount)
                    ),
                    ReturnOutcome::Replacement => "We are sending you a replacement at no charge as a new order.".to_owned(),
                    ReturnOutcome::StoreCredit => format!(
                        "We have added {} of store credit to your account, valid for 6 months.",
                        rupees(*amount)
                    ),
                };
                let short = match outcome {
                    ReturnOutcome::Refund => format!("refund of {} started", rupees(*amount)),
                    ReturnOutcome::Replacement => "replacement on its way".to_owned(),
                    ReturnOutcome::StoreCredit => format!("{} store credit added, valid 6 months", rupees(*amount)),
                };
                (
                    format!("Return of {part} resolved (order {n})"),
                    format!("We have inspected {part} from order {n}. {what}"),
                    format!("{shop}: return of {part} (order {n}): {short}."),
                )
            }
        };
        NoticeTexts { subject: format!("{subject} - {shop}"), email: format!("{dear},\n\n{body}\n\n{shop}\n"), sms }
    }

    fn hindi(&self, cx: NoticeContext<'_>) -> NoticeTexts {
        let NoticeContext { order_number: n, customer, shop } = cx;
        let dear = if customer.trim().is_empty() {
            "प्रिय ग्राहक".to_owned()
        } else {
            format!("प्रिय {}", customer.trim())
        };
        let (subject, body, sms) = match self {
            OrderNotice::Confirmed => (
                format!("ऑर्डर {n} की पुष्टि हो गई"),
                format!("हमने आपके ऑर्डर {n} की पुष्टि कर दी है और आपके पार्ट्स तैयार कर रहे हैं।"),
                format!("{shop}: आपके ऑर्डर {n} की पुष्टि हो गई है। भेजे जाने पर हम आपको बताएँगे।"),
            ),
            OrderNotice::Shipped(s) => {
                let (courier, awb, link) = (s.courier().name(), s.awb().as_str(), s.tracking_link());
                (
                    format!("ऑर्डर {n} भेज दिया गया"),
                    format!("आपका ऑर्डर {n} रास्ते में है।\n\nकूरियर: {courier}\nAWB: {awb}\nट्रैक करें: {link}"),
                    format!("{shop}: ऑर्डर {n} {courier} से भेजा गया, AWB {awb}। ट्रैक करें: {link}"),
                )
            }
            OrderNotice::Delivered => (
                format!("ऑर्डर {n} डिलीवर हो गया"),
                format!("आपका ऑर्डर {n} डिलीवर हो गया है। हमसे खरीदारी करने के लिए धन्यवाद।"),
                format!("{shop}: आपका ऑर्डर {n} डिलीवर हो गया है। धन्यवाद!"),
            ),
            OrderNotice::Cancelled { refund } if *refund > Money::ZERO => (
                format!("ऑर्डर {n} रद्द कर दिया गया"),
                format!(
                    "हमने आपका ऑर्डर {n} रद्द कर दिया है। {} का रिफ़ंड शुरू कर दिया गया है; यह 5-7 कार्यदिवसों में आपके \
                     खाते में पहुँच जाएगा।",
                    rupees(*refund)
                ),
                format!("{shop}: ऑर्डर {n} रद्द हो गया है। {} का रिफ़ंड शुरू, 5-7 कार्यदिवस।", rupees(*refund)),
            ),
            OrderNotice::Cancelled { .. } => (
                format!("ऑर्डर {n} रद्द कर दिया गया"),
                format!("हमने आपका ऑर्डर {n} रद्द कर दिया है।"),
                format!("{shop}: आपका ऑर्डर {n} रद्द हो गया है।"),
            ),
            OrderNotice::Refunded { amount } => (
                format!("ऑर्डर {n} का रिफ़ंड"),
                format!(
                    "हमने आपके ऑर्डर {n} के लिए {} का रिफ़ंड शुरू कर दिया है; यह 5-7 कार्यदिवसों में आपके खाते में \
                     पहुँच जाएगा।",
                    rupees(*amount)
                ),
                format!("{shop}: ऑर्डर {n} के लिए {} का रिफ़ंड शुरू, 5-7 कार्यदिवस।", rupees(*amount)),
            ),
            OrderNotice::ReturnRequested { part } => (
                format!("{part} की वापसी का अनुरोध मिला (ऑर्डर {n})"),
                format!("ऑर्डर {n} से {part} लौटाने का आपका अनुरोध हमें मिल गया है। हम जल्द ही उत्तर देंगे।"),
                format!("{shop}: {part} (ऑर्डर {n}) लौटाने का आपका अनुरोध मिल गया है। हम जल्द उत्तर देंगे।"),
            ),
            OrderNotice::ReturnApproved { part, note } => (
                format!("{part} की वापसी स्वीकृत (ऑर्डर {n})"),
                format!(
                    "हमने ऑर्डर {n} से {part} की वापसी स्वीकार कर ली है। कृपया पार्ट को उसके इनवॉइस के साथ वापस भेजें।{}",
                    note_hi(note.as_deref())
                ),
                format!("{shop}: {part} (ऑर्डर {n}) की वापसी स्वीकृत। कृपया इसे इनवॉइस के साथ वापस भेजें।"),
            ),
            OrderNotice::ReturnRefused { part, note } => (
                format!("{part} की वापसी स्वीकार नहीं (ऑर्डर {n})"),
                format!("हम ऑर्डर {n} से {part} की वापसी स्वीकार नहीं कर सकते।{}", note_hi(note.as_deref())),
                format!("{shop}: हम {part} (ऑर्डर {n}) की वापसी स्वीकार नहीं कर सकते। विवरण ईमेल में है।"),
            ),
            OrderNotice::ReturnReceived { part } => (
                format!("लौटाया गया {part} मिल गया (ऑर्डर {n})"),
                format!("हमें ऑर्डर {n} से {part} मिल गया है और हम इसकी जाँच कर रहे हैं। परिणाम हम आपको बताएँगे।"),
                format!("{shop}: हमें {part} (ऑर्डर {n}) मिल गया है, जाँच जारी है।"),
            ),
            OrderNotice::ReturnResolved { part, outcome, amount } => {
                let what = match outcome {
                    ReturnOutcome::Refund => format!(
                        "हमने इसके लिए {} का रिफ़ंड शुरू कर दिया है; यह 5-7 कार्यदिवसों में आपके खाते में पहुँच जाएगा।",
                        rupees(*amount)
                    ),
                    ReturnOutcome::Replacement => {
                        "हम आपको एक नए ऑर्डर के रूप में बिना किसी शुल्क के बदला हुआ पार्ट भेज रहे हैं।".to_owned()
                    }
                    ReturnOutcome::StoreCredit => {
                        format!("हमने आपके खाते में {} का स्टोर क्रेडिट जोड़ दिया है, जो 6 महीने तक मान्य है।", rupees(*amount))
                    }
                };
                let short = match outcome {
                    ReturnOutcome::Refund => format!("{} का रिफ़ंड शुरू", rupees(*amount)),
                    ReturnOutcome::Replacement => "बदला हुआ पार्ट भेजा जा रहा है".to_owned(),
                    ReturnOutcome::StoreCredit => format!("{} का स्टोर क्रेडिट जोड़ा गया, 6 महीने मान्य", rupees(*amount)),
                };
                (
                    format!("{part} की वापसी का निपटारा (ऑर्डर {n})"),
                    format!("हमने ऑर्डर {n} से {part} की जाँच कर ली है। {what}"),
                    format!("{shop}: {part} (ऑर्डर {n}) की वापसी: {short}।"),
                )
            }
        };
        NoticeTexts { subject: format!("{subject} - {shop}"), email: format!("{dear},\n\n{body}\n\n{shop}\n"), sms }
    }
}

/// The shop's note after an email's paragraph, when there is one.
fn note_en(note: Option<&str>) -> String {
    note.map(|n| format!("\n\nOur note: {n}")).unwrap_or_default()
}

fn note_hi(note: Option<&str>) -> String {
    note.map(|n| format!("\n\nहमारी टिप्पणी: {n}")).unwrap_or_default()
}

/// How often a notice is tried before it is marked failed.
pub const NOTICE_MAX_ATTEMPTS: u32 = 8;

/// The first wait after a failed attempt, in seconds; it doubles with each attempt.
pub const NOTICE_FIRST_RETRY_SECS: i64 = 30;

/// The longest wait between two attempts, in seconds.
pub const NOTICE_MAX_RETRY_SECS: i64 = 3600;

/// After the `attempts`-th failed attempt: how many seconds until the next one, or `None` when the
/// notice has been tried [`NOTICE_MAX_ATTEMPTS`] times and is given up (marked failed).
/// 30 s, 60 s, 120 s, … capped at an hour.
#[must_use]
pub fn retry_after(attempts: u32) -> Option<i64> {
    if attempts >= NOTICE_MAX_ATTEMPTS {
        return None;
    }
    let doubled = NOTICE_FIRST_RETRY_SECS.saturating_mul(1_i64 << attempts.saturating_sub(1).min(30));
    Some(doubled.min(NOTICE_MAX_RETRY_SECS))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cx() -> NoticeContext<'static> {
        NoticeContext { order_number: "MQ-000042", customer: "Asha", shop: "Marque Parts" }
    }

    fn shipment() -> Shipment {
        Shipment::parse("bluedart", "BD123456789", None).expect("a shipment")
    }

    fn is_devanagari(c: char) -> bool {
        ('\u{0900}'..='\u{097F}').contains(&c)
    }

    #[test]
    fn languages_parse_from_their_codes_and_tags() {
        assert_eq!(Language::parse("hi"), Some(Language::Hindi));
        assert_eq!(Language::parse("hi-IN"), Some(Language::Hindi));
        assert_eq!(Language::parse(" EN "), Some(Language::English));
        assert_eq!(Language::parse("ta"), None);
        for l in [Language::English, Language::Hindi] {
            assert_eq!(Language::parse(l.code()), Some(l));
        }
    }

    #[test]
    fn a_shipped_notice_names_the_courier_the_awb_and_the_tracking_link_in_both_languages() {
        let link = "https://www.bluedart.com/web/guest/trackdartresultthirdparty?trackFor=0&trackNo=BD123456789";
        let notice = OrderNotice::Shipped(shipment());
        for language in [Language::English, Language::Hindi] {
            let t = notice.texts(language, cx());
            for text in [&t.email, &t.sms] {
                assert!(text.contains("Blue Dart"), "{language:?}: {text}");
                assert!(text.contains("BD123456789"), "{language:?}: {text}");
                assert!(text.contains(link), "{language:?}: {text}");
                assert!(text.contains("MQ-000042"), "{language:?}: {text}");
            }
            assert!(t.subject.contains("MQ-000042") && t.subject.ends_with("Marque Parts"), "{}", t.subject);
        }
        let en = notice.texts(Language::English, cx());
        assert_eq!(en.subject, "Order MQ-000042 shipped - Marque Parts");
        assert!(en.email.starts_with("Dear Asha,\n\nYour order MQ-000042 is on its way."), "{}", en.email);
        let hi = notice.texts(Language::Hindi, cx());
        assert_eq!(hi.subject, "ऑर्डर MQ-000042 भेज दिया गया - Marque Parts");
        assert!(hi.email.starts_with("प्रिय Asha,\n\nआपका ऑर्डर MQ-000042 रास्ते में है।"), "{}", hi.email);
        assert!(hi.email.contains("कूरियर: Blue Dart") && hi.sms.contains("ट्रैक करें"), "{}", hi.email);
    }

    #[test]
    fn another_couriers_notice_links_the_address_staff_typed() {
        let s = Shipment::parse("other", "XY99887766", Some("https://track.example.in/XY99887766")).expect("shipment");
        let t = OrderNotice::Shipped(s).texts(Language::English, cx());
        assert!(
            t.sms.contains("Other courier, AWB XY99887766. Track: https://track.example.in/XY99887766"),
            "{}",
            t.sms
        );
    }

    #[test]
    fn refund_and_cancellation_notices_give_the_amount_in_rupees() {
        let amount = Money::from_paise(1_234_550);
        let refunded = OrderNotice::Refunded { amount };
        let cancelled = OrderNotice::Cancelled { refund: amount };
        for notice in [&refunded, &cancelled] {
            for language in [Language::English, Language::Hindi] {
                let t = notice.texts(language, cx());
                assert!(t.email.contains("₹12,345.50") && t.sms.contains("₹12,345.50"), "{language:?}: {t:?}");
            }
        }
        assert_eq!(
            refunded.texts(Language::English, cx()).sms,
            "Marque Parts: refund of ₹12,345.50 for order MQ-000042 started, 5-7 working days."
        );
        assert_eq!(
            refunded.texts(Language::Hindi, cx()).sms,
            "Marque Parts: ऑर्डर MQ-000042 के लिए ₹12,345.50 का रिफ़ंड शुरू, 5-7 कार्यदिवस।"
        );
        let nothing = OrderNotice::Cancelled { refund: Money::ZERO }.texts(Language::English, cx());
        assert!(!nothing.email.contains('₹') && nothing.sms == "Marque Parts: your order MQ-000042 is cancelled.");
    }

    #[test]
    fn every_notice_has_its_own_template_and_hindi_texts_in_devanagari() {
        let notices = [
            OrderNotice::Confirmed,
            OrderNotice::Shipped(shipment()),
            OrderNotice::Delivered,
            OrderNotice::Cancelled { refund: Money::from_paise(100) },
            OrderNotice::Refunded { amount: Money::from_paise(100) },
            OrderNotice::ReturnRequested { part: "Brake disc".into() },
            OrderNotice::ReturnApproved { part: "Brake disc".into(), note: Some("Use the courier".into()) },
            OrderNotice::ReturnRefused { part: "Brake disc".into(), note: Some("Fitted already".into()) },
            OrderNotice::ReturnReceived { part: "Brake disc".into() },
            OrderNotice::ReturnResolved {
                part: "Brake disc".into(),
                outcome: ReturnOutcome::StoreCredit,
                amount: Money::from_paise(150_000),
            },
        ];
        let templates: std::collections::BTreeSet<_> = notices.iter().map(|n| n.kind().template()).collect();
        assert_eq!(templates.len(), NoticeKind::ALL.len());
        for notice in &notices {
            let en = notice.texts(Language::English, cx());
            let hi = notice.texts(Language::Hindi, cx());
            assert!(!en.email.chars().any(is_devanagari), "{en:?}");
            for text in [&hi.subject, &hi.email, &hi.sms] {
                assert!(text.chars().any(is_devanagari), "{text}");
                assert!(text.contains("MQ-000042"), "{text}");
            }
            assert_ne!(en, hi);
        }
        let unnamed = NoticeContext { customer: " ", ..cx() };
        assert!(OrderNotice::Delivered.texts(Language::English, unnamed).email.starts_with("Dear customer,"));
        assert!(OrderNotice::Delivered.texts(Language::Hindi, unnamed).email.starts_with("प्रिय ग्राहक,"));
    }

    #[test]
    fn a_resolved_return_names_its_outcome_and_amount_in_both_languages() {
        let credit = OrderNotice::ReturnResolved {
            part: "Brake disc".into(),
            outcome: ReturnOutcome::StoreCredit,
            amount: Money::from_paise(150_050),
        };
        let en = credit.texts(Language::English, cx());
        assert!(en.email.contains("₹1,500.50 of store credit") && en.email.contains("6 months"), "{}", en.email);
        let hi = credit.texts(Language::Hindi, cx());
        assert!(hi.sms.contains("₹1,500.50") && hi.sms.contains("स्टोर क्रेडिट"), "{}", hi.sms);
        let refused = OrderNotice::ReturnRefused { part: "Brake disc".into(), note: Some("Fitted already".into()) };
        assert!(refused.texts(Language::English, cx()).email.contains("Our note: Fitted already"));
        let replaced = OrderNotice::ReturnResolved {
            part: "Disc".into(),
            outcome: ReturnOutcome::Replacement,
            amount: Money::ZERO,
        };
        assert!(!replaced.texts(Language::English, cx()).sms.contains('₹'));
    }

    #[test]
    fn retries_back_off_doubling_to_an_hour_then_give_up() {
        assert_eq!(retry_after(1), Some(30));
        assert_eq!(retry_after(2), Some(60));
        assert_eq!(retry_after(3), Some(120));
        assert_eq!(retry_after(7), Some(1920));
        assert_eq!(retry_after(NOTICE_MAX_ATTEMPTS), None);
        assert_eq!(retry_after(NOTICE_MAX_ATTEMPTS + 5), None);
        let waits: Vec<i64> = (1..NOTICE_MAX_ATTEMPTS).filter_map(retry_after).collect();
        assert!(waits.windows(2).all(|w| w[0] <= w[1] && w[1] <= NOTICE_MAX_RETRY_SECS), "{waits:?}");
    }
}
