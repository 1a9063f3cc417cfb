//! How a shipped order travels: the courier, its airway bill number (AWB) and the tracking link the
//! customer follows, built from the courier's own tracking page and the AWB.

use serde::{Deserialize, Serialize};

use crate::Message;

/// The couriers the shop hands parts to. `Other` carries its own tracking address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Courier {
    Delhivery,
    BlueDart,
    Dtdc,
    IndiaPost,
    Shiprocket,
    Ekart,
    /// Any other courier: staff type the shipment's tracking address ([`TrackingUrl`]).
    Other,
}

/// Where `{awb}` goes in a courier's tracking address.
const AWB_SLOT: &str = "{awb}";

impl Courier {
    /// Every courier, in the order the admin offers them.
    pub const ALL: [Courier; 7] = [
        Courier::Delhivery,
        Courier::BlueDart,
        Courier::Dtdc,
        Courier::IndiaPost,
        Courier::Shiprocket,
        Courier::Ekart,
        Courier::Other,
    ];

    /// The stored and wire name: `delhivery`, `bluedart`, `dtdc`, `indiapost`, `shiprocket`, `ekart`, `other`.
    #[must_use]
    pub const fn slug(self) -> &'static str {
        match self {
            Courier::Delhivery => "delhivery",
            Courier::BlueDart => "bluedart",
            Courier::Dtdc => "dtdc",
            Courier::IndiaPost => "indiapost",
            Courier::Shiprocket => "shiprocket",
            Courier::Ekart => "ekart",
            Courier::Other => "other",
        }
    }

    /// The name the customer reads, e.g. `Blue Dart`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Courier::Delhivery => "Delhivery",
            Courier::BlueDart => "Blue Dart",
            Courier::Dtdc => "DTDC",
            Courier::IndiaPost => "India Post",
            Courier::Shiprocket => "Shiprocket",
            Courier::Ekart => "Ekart",
            Courier::Other => "Other courier",
        }
    }

    /// The courier's public tracking page with `{awb}` where the AWB goes; `None` for [`Courier::Other`].
    /// India Post's page may ask the visitor for a CAPTCHA before it shows the consignment.
    #[must_use]
    pub const fn tracking_template(self) -> Option<&'static str> {
        match self {
            Courier::Delhivery => Some("https://www.delhivery.com/track/package/{awb}"),
            Courier::BlueDart => {
                Some("https://www.bluedart.com/web/guest/trackdartresultthirdparty?trackFor=0&trackNo={awb}")
            }
            Courier::Dtdc => Some("https://www.dtdc.in/tracking/tracking_results.asp?strCnno={awb}"),
            Courier::IndiaPost => Some(
                "https://www.indiapost.gov.in/_layouts/15/dop.portal.tracking/trackconsignment.aspx?consignmentno={awb}",
            ),
            Courier::Shiprocket => Some("https://shiprocket.co/tracking/{awb}"),
            Courier::Ekart => Some("https://ekartlogistics.com/shipmenttrack/{awb}"),
            Courier::Other => None,
        }
    }

    /// The courier named `slug` (exactly as [`Courier::slug`] writes it).
    ///
    /// # Errors
    /// [`Message::OrderCourierUnknown`] for any other text.
    pub fn parse(slug: &str) -> Result<Self, Message> {
        Courier::ALL.into_iter().find(|c| c.slug() == slug).ok_or(Message::OrderCourierUnknown)
    }
}

/// Fewest and most characters of an AWB.
pub const AWB_MIN: usize = 6;
pub const AWB_MAX: usize = 24;

/// A courier's airway bill number: 6–24 letters (A–Z, kept upper-case) and digits, nothing else,
/// so it can go into a tracking address as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Awb(String);

impl Awb {
    /// The AWB in `text`, spaces around it ignored, letters upper-cased (`ee123456789in` → `EE123456789IN`).
    ///
    /// # Errors
    /// [`Message::OrderAwbInvalid`] for anything but 6–24 ASCII letters and digits.
    pub fn parse(text: &str) -> Result<Self, Message> {
        let text = text.trim();
        let fits = (AWB_MIN..=AWB_MAX).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric());
        if fits {
            Ok(Awb(text.to_ascii_uppercase()))
        } else {
            Err(Message::OrderAwbInvalid)
        }
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Most characters of a typed tracking address.
pub const TRACKING_URL_MAX: usize = 500;

/// The tracking address of a shipment with [`Courier::Other`]: `https://`, a host, at most 500
/// characters, printable ASCII without spaces, quotes or angle brackets (it is shown as a link).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TrackingUrl(String);

impl TrackingUrl {
    /// # Errors
    /// [`Message::OrderTrackingUrlInvalid`] for anything else.
    pub fn parse(text: &str) -> Result<Self, Message> {
        let text = text.trim();
        let rest = text.get(..8).filter(|s| s.eq_ignore_ascii_case("https://")).map(|_| &text[8..]);
        let host = rest.map(|r| r.split(['/', '?', '#']).next().unwrap_or_default());
        let host_ok = host.is_some_and(|h| {
            let name = h.rsplit_once(':').map_or(h, |(name, port)| {
                if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) {
                    name
                } else {
                    h
                }
            });
            name.contains('.')
                && !name.starts_with(['.', '-'])
                && !name.ends_with(['.', '-'])
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        });
        let chars_ok =
            text.bytes().all(|b| b.is_ascii_graphic() && !matches!(b, b'"' | b'\'' | b'<' | b'>' | b'\\' | b'`'));
        if host_ok && chars_ok && text.len() <= TRACKING_URL_MAX {
            Ok(TrackingUrl(text.to_owned()))
        } else {
            Err(Message::OrderTrackingUrlInvalid)
        }
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A shipment: who carries the order, under which AWB, and (for [`Courier::Other`] only) the
/// tracking address staff typed. Holding one means the three fit together.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shipment {
    courier: Courier,
    awb: Awb,
    tracking_url: Option<TrackingUrl>,
}

impl Shipment {
    /// # Errors
    /// [`Message::OrderTrackingUrlRequired`] for [`Courier::Other`] without a tracking address;
    /// [`Message::OrderTrackingUrlUnexpected`] for a known courier with one (its link is built).
    pub fn new(courier: Courier, awb: Awb, tracking_url: Option<TrackingUrl>) -> Result<Self, Message> {
        match (courier, &tracking_url) {
            (Courier::Other, None) => Err(Message::OrderTrackingUrlRequired),
            (Courier::Other, Some(_)) | (_, None) => Ok(Shipment { courier, awb, tracking_url }),
            (_, Some(_)) => Err(Message::OrderTrackingUrlUnexpected),
        }
    }

    /// A shipment from the text staff type (or a store holds): courier slug, AWB and tracking address.
    ///
    /// # Errors
    /// The first of [`Courier::parse`], [`Awb::parse`], [`TrackingUrl::parse`] and [`Shipment::new`] to fail.
    pub fn parse(courier: &str, awb: &str, tracking_url: Option<&str>) -> Result<Self, Message> {
        let courier = Courier::parse(courier)?;
        let awb = Awb::parse(awb)?;
        let tracking_url = tracking_url.map(TrackingUrl::parse).transpose()?;
        Shipment::new(courier, awb, tracking_url)
    }

    #[must_use]
    pub fn courier(&self) -> Courier {
        self.courier
    }

    #[must_use]
    pub fn awb(&self) -> &Awb {
        &self.awb
    }

    /// The address staff typed, for [`Courier::Other`].
    #[must_use]
    pub fn tracking_url(&self) -> Option<&TrackingUrl> {
        self.tracking_url.as_ref()
    }

    /// Where the customer follows the parcel: the courier's tracking page for this AWB, or the
    /// typed address of another courier.
    #[must_use]
    pub fn tracking_link(&self) -> String {
        match (self.courier.tracking_template(), &self.tracking_url) {
            (Some(template), _) => template.replace(AWB_SLOT, self.awb.as_str()),
            (None, Some(url)) => url.as_str().to_owned(),
            // `new` refuses `Other` without an address; nothing else lacks a template.
            (None, None) => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn every_courier_has_one_slug_a_name_and_a_link_but_other() {
        for c in Courier::ALL {
            assert_eq!(Courier::parse(c.slug()), Ok(c));
            assert!(!c.name().is_empty());
            match c.tracking_template() {
                Some(t) => {
                    assert!(t.starts_with("https://") && t.matches(AWB_SLOT).count() == 1, "{t}");
                    assert!(TrackingUrl::parse(&t.replace(AWB_SLOT, "ABC123")).is_ok(), "{t}");
                }
                None => assert_eq!(c, Courier::Other),
            }
        }
        for bad in ["", "Delhivery", "blue dart", "fedex", "other "] {
            assert_eq!(Courier::parse(bad), Err(Message::OrderCourierUnknown), "{bad:?}");
        }
        assert_eq!(serde_json::to_string(&Courier::BlueDart).ok().as_deref(), Some("\"bluedart\""));
        assert_eq!(serde_json::to_string(&Courier::IndiaPost).ok().as_deref(), Some("\"indiapost\""));
    }

    #[test]
    fn awbs_are_six_to_twenty_four_letters_and_digits() {
        assert_eq!(Awb::parse(" ee123456789in ").map(|a| a.as_str().to_owned()), Ok("EE123456789IN".to_owned()));
        assert!(Awb::parse("123456").is_ok());
        assert!(Awb::parse(&"9".repeat(24)).is_ok());
        for bad in ["", "12345", &"9".repeat(25), "1234 5678", "1234-5678", "12345678/", "१२३४५६७८", "abc<script>"]
        {
            assert_eq!(Awb::parse(bad), Err(Message::OrderAwbInvalid), "{bad:?}");
        }
    }

    #[test]
    fn tracking_urls_are_https_with_a_host() {
        for good in [
            "https://track.example.in/awb/123",
            "HTTPS://courier.in",
            "https://courier.in:8443/t?awb=1&x=2#top",
            "https://a-b.co.in/",
        ] {
            assert!(TrackingUrl::parse(good).is_ok(), "{good}");
        }
        let long = format!("https://courier.in/{}", "a".repeat(TRACKING_URL_MAX));
        for bad in [
            "",
            "http://courier.in/1",
            "javascript:alert(1)",
            "https://",
            "https://localhost/x",
            "https://courier.in/a b",
            "https://courier.in/\"onmouseover=",
            "https://courier.in/<b>",
            "https://.courier.in",
            "https://user@courier.in/",
            "ftp://courier.in",
            long.as_str(),
        ] {
            assert_eq!(TrackingUrl::parse(bad), Err(Message::OrderTrackingUrlInvalid), "{bad:?}");
        }
    }

    #[test]
    fn links_are_built_from_the_couriers_page_and_the_awb() {
        let shipment = Shipment::parse("delhivery", "1234567890123", None).expect("valid");
        assert_eq!(shipment.tracking_link(), "https://www.delhivery.com/track/package/1234567890123");
        let shipment = Shipment::parse("bluedart", "77937279125", None).expect("valid");
        assert_eq!(
            shipment.tracking_link(),
            "https://www.bluedart.com/web/guest/trackdartresultthirdparty?trackFor=0&trackNo=77937279125"
        );
        let other = Shipment::parse("other", "XB1234567", Some("https://track.example.in/XB1234567")).expect("valid");
        assert_eq!(other.tracking_link(), "https://track.example.in/XB1234567");
        assert_eq!(Shipment::parse("other", "XB1234567", None), Err(Message::OrderTrackingUrlRequired));
        assert_eq!(
            Shipment::parse("ekart", "FMPC1234567890", Some("https://x.in/1")),
            Err(Message::OrderTrackingUrlUnexpected)
        );
        assert_eq!(Shipment::parse("fedex", "123456", None), Err(Message::OrderCourierUnknown));
        assert_eq!(Shipment::parse("dtdc", "12", None), Err(Message::OrderAwbInvalid));
    }

    proptest! {
        #[test]
        fn an_awb_is_valid_exactly_when_it_is_six_to_twenty_four_letters_and_digits(text in "\\PC{0,30}") {
            let trimmed = text.trim();
            let expected = (6..=24).contains(&trimmed.len()) && trimmed.bytes().all(|b| b.is_ascii_alphanumeric());
            prop_assert_eq!(Awb::parse(&text).is_ok(), expected);
        }

        #[test]
        fn every_known_couriers_link_holds_the_awb_once_and_parses_as_a_link(
            awb in "[A-Za-z0-9]{6,24}",
            index in 0usize..6,
        ) {
            let courier = Courier::ALL[index];
            let shipment = Shipment::parse(courier.slug(), &awb, None).expect("valid");
            let link = shipment.tracking_link();
            let upper = awb.to_ascii_uppercase();
            prop_assert_eq!(link.matches(upper.as_str()).count(), 1);
            prop_assert!(TrackingUrl::parse(&link).is_ok());
        }
    }
}
