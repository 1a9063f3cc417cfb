//! Code generated from the domain: the rules' constants, messages and test
//! vectors, written out as a TypeScript module for the frontends' live
//! validation (`frontends/packages/rules/src/generated.ts`, its messages in `messages.generated.ts`), and the messages
//! only staff read as a second module the back office alone imports
//! (`office.generated.ts`), so a shopper's first page does not carry them.
//!
//! Generated rather than copied so a rule changed in `marque-domain` reaches
//! the browser: `tests/frontend_rules.rs` fails while the committed file
//! differs from [`typescript_module`], and the frontends' own tests run every
//! vector through their TypeScript, failing until it agrees with these rules.
//! A tool crate, so the domain ships no generator; it depends on the domain only.

pub(crate) mod json;
mod vectors;

use json::{obj, Json};

/// Every generated module: where it is committed (from the repository root) and what it must hold.
#[must_use]
pub fn generated_files() -> [(&'static str, String); 3] {
    [(GENERATED_TS_PATH, typescript_module()), (MESSAGES_TS_PATH, messages_module()), (OFFICE_TS_PATH, office_module())]
}

/// Writes every generated module under the repository root.
///
/// # Errors
/// When a file cannot be written.
pub fn write_generated(repo_root: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    generated_files()
        .into_iter()
        .map(|(relative, text)| {
            let path = repo_root.join(relative);
            std::fs::write(&path, text)?;
            Ok(path)
        })
        .collect()
}

use marque_domain::account::{
    MOBILE_LENGTH, OTP_LENGTH, OTP_RESEND_AFTER_SECONDS, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, PASSWORD_SPECIALS,
};
use marque_domain::address::{IndianMobile, Pincode, ADDRESS_LIMIT, NCR_PREFIXES, PINCODE_LENGTH};
use marque_domain::cart::Quantity;
use marque_domain::catalog::{Condition, FuelType};
use marque_domain::filters::{BrandSlug, ConditionFilter, FilterValue, FuelFilter, FILTER_SEPARATOR};
use marque_domain::invoice::DELIVERY_LINE_LABEL;
use marque_domain::message::{Audience, Message};
use marque_domain::order::{status_label, BadgeColour, OrderStatus, ADMIN_CANCELLED};
use marque_domain::tax::GST_STATES;
use marque_domain::titles::{TitlePlace, ELLIPSIS};
use marque_domain::wishlist::WISHLIST_LIMIT;

/// Where the generated module is committed, from the repository root.
pub const GENERATED_TS_PATH: &str = "frontends/packages/rules/src/generated.ts";

/// Where the shopper's messages are committed, from the repository root: a module of their own, so a page
/// that only needs the rules' constants (the catalog's title limits and filter values) does not carry them
/// (webpack keeps a module's used exports whole in every chunk that holds it).
pub const MESSAGES_TS_PATH: &str = "frontends/packages/rules/src/messages.generated.ts";

/// Where the back office's messages are committed, from the repository root.
pub const OFFICE_TS_PATH: &str = "frontends/packages/rules/src/office.generated.ts";

const HEADER: &str = "\
// GENERATED FILE - DO NOT EDIT.
// Written from the Rust rules in core/domain by tools/codegen (marque_codegen::generated_files()).
// Regenerate: make generate (UPDATE_GENERATED=1 cargo test -p marque-codegen --test frontend_rules)
// The Rust test fails while this file differs from what the rules generate.
";

/// Types of the vectors, so the frontends' tests are type-checked too.
const VECTOR_TYPES: &str = "\
export type Code = MessageCode | null;
export interface AddressFields {
  houseNo: string; street: string; landmark: string; city: string; state: string; mobileNo: string; pincode: string;
  gstin: string;
}
export interface SignUpFields { name: string; email: string; password: string; confirmation: string; mobile: string }
export type FilterKind = 'product_type' | 'fuel_type' | 'oem';
export interface PricedLineVector { unitPrice: number; quantity: number; insideNcr: number; outsideNcr: number }
export interface RuleVectors {
  loginMobile: { input: string; value: string; code: Code }[];
  password: { input: string; code: Code }[];
  confirmation: { password: string; confirmation: string; code: Code }[];
  signUp: { form: SignUpFields; allowed: boolean }[];
  pincode: { input: string; code: Code }[];
  addressMobile: { input: string; code: Code }[];
  gstin: { input: string; code: Code }[];
  address: { input: AddressFields; errors: Partial<Record<keyof AddressFields, MessageCode>> }[];
  otp: { input: string; code: Code }[];
  email: { input: string; value: string | null; code: Code }[];
  ncr: { pincode: string; ncr: boolean }[];
  truncate: { title: string; max: number; result: string }[];
  conditionLabel: { producttype: string; label: string }[];
  filterParse: { kind: FilterKind; raw: string; values: string[] | null; code: Code }[];
  filterPrint: { kind: FilterKind; values: string[]; printed: string }[];
  orderStatus: { status: number; statusString: string; colour: BadgeColour; label: string }[];
  /** Amounts in paise. */
  totals: {
    lines: PricedLineVector[]; pincode: string; offerExp: number; percentage: number;
    items: number; discount: number; delivery: number; total: number;
  }[];
}
";

fn constant(out: &mut String, doc: &str, name: &str, value: &Json) {
    out.push_str(&format!("/** {doc} */\nexport const {name} = {} as const;\n\n", value.render(0)));
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn codes<T: FilterValue>(values: impl IntoIterator<Item = T>) -> Json {
    values.into_iter().map(|v| v.code().to_owned()).collect::<Vec<_>>().into()
}

fn messages_of(audience: Audience) -> Json {
    Json::Obj(
        Message::ALL
            .iter()
            .filter(|m| m.audience() == audience)
            .map(|m| (m.code().to_owned(), Json::from(m.text())))
            .collect(),
    )
}

/// The whole `office.generated.ts`: the messages only staff read, deterministic byte for byte.
#[must_use]
pub fn office_module() -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    constant(
        &mut out,
        "Every message a rule shows staff in the back office only, by its stable code.",
        "OFFICE_MESSAGES",
        &messages_of(Audience::BackOffice),
    );
    out.push_str("export type OfficeMessageCode = keyof typeof OFFICE_MESSAGES;\n");
    out
}

/// The whole `messages.generated.ts`: every message a rule shows a shopper, deterministic byte for byte.
#[must_use]
pub fn messages_module() -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    constant(
        &mut out,
        "Every message a rule shows a shopper, by its stable code (the back office's are in office.generated.ts).",
        "MESSAGES",
        &messages_of(Audience::Storefront),
    );
    out.push_str("export type MessageCode = keyof typeof MESSAGES;\n");
    out
}

/// The whole `generated.ts`, deterministic byte for byte.
#[must_use]
pub fn typescript_module() -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    out.push_str("import type { MessageCode } from './messages.generated';\n\n");
    out.push_str("export type { MessageCode } from './messages.generated';\n\n");

    let numbers: [(&str, &str, i64); 9] = [
        ("Digits in a mobile number.", "MOBILE_LENGTH", count(MOBILE_LENGTH)),
        ("Digits in a pincode.", "PINCODE_LENGTH", count(PINCODE_LENGTH)),
        ("Digits in a one-time code.", "OTP_LENGTH", count(OTP_LENGTH)),
        (
            "Seconds before another code may be requested.",
            "OTP_RESEND_AFTER_SECONDS",
            i64::from(OTP_RESEND_AFTER_SECONDS),
        ),
        ("Fewest characters in a password.", "PASSWORD_MIN_CHARS", count(PASSWORD_MIN_CHARS)),
        ("Most characters in a password.", "PASSWORD_MAX_CHARS", count(PASSWORD_MAX_CHARS)),
        ("Most products in a wishlist.", "WISHLIST_LIMIT", count(WISHLIST_LIMIT)),
        ("Most addresses a customer keeps.", "ADDRESS_LIMIT", count(ADDRESS_LIMIT)),
        ("Smallest cart quantity.", "CART_MIN_QUANTITY", i64::from(Quantity::ONE.get())),
    ];
    for (doc, name, n) in numbers {
        constant(&mut out, doc, name, &Json::from(n));
    }
    constant(
        &mut out,
        "Quantity of a direct purchase (Buy now).",
        "DIRECT_PURCHASE_QUANTITY",
        &Json::from(i64::from(Quantity::DIRECT_PURCHASE.get())),
    );

    let texts: [(&str, &str, &str); 6] = [
        ("A password's allowed non-alphanumeric characters; one is required.", "PASSWORD_SPECIALS", PASSWORD_SPECIALS),
        ("Digits an address mobile number may start with.", "ADDRESS_MOBILE_FIRST_DIGITS", IndianMobile::FIRST_DIGITS),
        ("Digits a pincode may start with.", "PINCODE_FIRST_DIGITS", Pincode::FIRST_DIGITS),
        ("Joins several values of one filter in a query.", "FILTER_SEPARATOR", FILTER_SEPARATOR),
        ("A brand slug in the `oem` filter.", "BRAND_SLUG_PATTERN", BrandSlug::PATTERN),
        ("Appended to a shortened title.", "TITLE_ELLIPSIS", ELLIPSIS),
    ];
    for (doc, name, text) in texts {
        constant(&mut out, doc, name, &Json::from(text));
    }
    constant(
        &mut out,
        "How the delivery charge is labelled (it includes GST).",
        "DELIVERY_GST_LABEL",
        &Json::from(DELIVERY_LINE_LABEL),
    );

    constant(
        &mut out,
        "Pincode prefixes of the NCR delivery region.",
        "NCR_PREFIXES",
        &NCR_PREFIXES.iter().map(|p| (*p).to_owned()).collect::<Vec<_>>().into(),
    );
    let states: Vec<Json> = GST_STATES.iter().map(|s| obj! { "code" => s.code, "name" => s.name }).collect();
    constant(
        &mut out,
        "India's states and union territories with their GST state codes; an address names one.",
        "GST_STATES",
        &states.into(),
    );
    out.push_str("export type GstStateName = (typeof GST_STATES)[number]['name'];\n\n");
    constant(
        &mut out,
        "Values each fixed filter offers (`oem` takes brand slugs).",
        "FILTER_VALUES",
        &obj! { "product_type" => codes(ConditionFilter::ALL), "fuel_type" => codes(FuelFilter::ALL) },
    );

    let labels = Json::Obj(Condition::KNOWN.iter().map(|c| (c.code().to_owned(), Json::from(c.label()))).collect());
    constant(&mut out, "Label of each known `producttype`.", "CONDITION_LABELS", &labels);
    constant(
        &mut out,
        "Label of any other `producttype`.",
        "CONDITION_FALLBACK_LABEL",
        &Json::from(Condition::Other(String::new()).label()),
    );

    let fuels = Json::Obj(FuelType::ALL.iter().map(|f| (f.code().to_owned(), Json::from(f.label()))).collect());
    constant(&mut out, "Label of each `fuelType`.", "FUEL_LABELS", &fuels);

    let limits = Json::Obj(TitlePlace::ALL.iter().map(|p| (p.key().to_owned(), Json::from(p.limit()))).collect());
    constant(&mut out, "Most title characters shown before the ellipsis, per place.", "TITLE_LIMITS", &limits);

    let statuses: Vec<Json> = OrderStatus::ALL
        .iter()
        .map(|s| {
            obj! {
                "number" => s.number(), "name" => s.name(), "statusString" => s.status_string(),
                "colour" => BadgeColour::of(s.number()).code(),
            }
        })
        .collect();
    constant(&mut out, "Order statuses 1-6 and their badge colours.", "ORDER_STATUSES", &statuses.into());
    constant(
        &mut out,
        "Badge colour of any other status number.",
        "ORDER_STATUS_FALLBACK_COLOUR",
        &Json::from(BadgeColour::of(0).code()),
    );
    constant(
        &mut out,
        "Every badge colour token.",
        "BADGE_COLOURS",
        &BadgeColour::ALL.iter().map(|c| c.code().to_owned()).collect::<Vec<_>>().into(),
    );
    out.push_str("export type BadgeColour = (typeof BADGE_COLOURS)[number];\n\n");
    constant(
        &mut out,
        "`order_status_string` of an order the shop cancelled.",
        "ADMIN_CANCELLED",
        &Json::from(ADMIN_CANCELLED),
    );
    constant(
        &mut out,
        "How an admin cancellation is labelled.",
        "ADMIN_CANCELLED_LABEL",
        &Json::from(status_label(ADMIN_CANCELLED)),
    );

    out.push_str(VECTOR_TYPES);
    out.push_str(&format!(
        "\n/** Inputs and what the Rust rules answer; the TypeScript rules must answer the same. */\nexport const VECTORS: RuleVectors = {};\n",
        vectors::all().render(0)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::json::quote;
    use super::*;

    #[test]
    fn the_module_is_deterministic_and_complete() {
        let ts = typescript_module();
        assert_eq!(ts, typescript_module());
        assert!(ts.starts_with("// GENERATED FILE - DO NOT EDIT."));
        let office = office_module();
        assert_eq!(office, office_module());
        let messages = messages_module();
        assert_eq!(messages, messages_module());
        assert!(!ts.contains("export const MESSAGES"), "the shopper's messages are a module of their own");
        for m in Message::ALL {
            let (home, away) = match m.audience() {
                Audience::Storefront => (&messages, &office),
                Audience::BackOffice => (&office, &messages),
            };
            assert!(home.contains(&quote(m.code())), "{}", m.code());
            assert!(!away.contains(&format!("{}:", quote(m.code()))), "{} is in one module only", m.code());
            assert!(
                !ts.contains(&format!("{}:", quote(m.code()))),
                "{}: no message in the constants' module",
                m.code()
            );
        }
        for name in [
            "TITLE_LIMITS",
            "NCR_PREFIXES",
            "CONDITION_FALLBACK_LABEL",
            "VECTORS",
            "PASSWORD_SPECIALS",
            "GST_STATES",
            "ADDRESS_LIMIT",
        ] {
            assert!(ts.contains(&format!("export const {name}")), "{name}");
        }
        assert!(ts.contains(r#""homeCard": 50, "hotSelling": 45, "listingCard": 70, "wishlist": 45, "orderLine": 40"#));
        assert!(ts.is_ascii() && messages.is_ascii(), "non-ASCII is escaped");
    }
}
