//! Vectors of the catalog and order rules: titles, condition labels, filters, status badges.

use super::code;
use crate::json::{obj, Json};
use marque_domain::catalog::Condition;
use marque_domain::filters::{BrandSlug, ConditionFilter, FilterList, FilterValue, FuelFilter};
use marque_domain::order::OrderStatusBadge;
use marque_domain::titles::{truncate_title, TitlePlace};

pub(super) fn truncation() -> Json {
    let mut cases: Vec<(String, usize)> = vec![
        (String::new(), 40),
        ("Front Brake Pad Set".into(), 5),
        ("abc ".into(), 3),
        ("Caf\u{e9} Mirror".into(), 4),
        ("\u{92c}\u{94d}\u{930}\u{947}\u{915} \u{92a}\u{948}\u{921}".into(), 5),
        ("\u{1f697}".repeat(46), 45),
        ("x".into(), 0),
    ];
    for place in TitlePlace::ALL {
        let n = place.limit();
        cases.push(("a".repeat(n), n));
        cases.push(("b".repeat(n + 1), n));
    }
    cases
        .iter()
        .map(|(t, max)| obj! { "title" => t.as_str(), "max" => *max, "result" => truncate_title(t, *max).into_owned() })
        .collect::<Vec<_>>()
        .into()
}

pub(super) fn condition_labels() -> Json {
    let inputs = [
        "new",
        "new_without_box",
        "refurbished",
        "old",
        "used",
        "",
        "NEW",
        " new",
        "stock_lot",
        "constructor",
        "__proto__",
    ];
    inputs
        .iter()
        .map(|i| obj! { "producttype" => *i, "label" => Condition::from(*i).label() })
        .collect::<Vec<_>>()
        .into()
}

fn parsed<T: FilterValue>(kind: &str, raw: &str) -> Json {
    let r = FilterList::<T>::parse(raw);
    let values = r.as_ref().ok().map(|l| l.values().iter().map(|v| v.code().to_owned()).collect::<Vec<_>>());
    obj! { "kind" => kind, "raw" => raw, "values" => values, "code" => code(&r) }
}

pub(super) fn filter_parse() -> Json {
    let mut out = Vec::new();
    for raw in [
        "",
        "  ",
        "old",
        "old--new",
        "OLD--New",
        "new--old--new",
        "used",
        "refurbished",
        "old--",
        "old----new",
        "old-new",
        "--old",
        "old---new",
    ] {
        out.push(parsed::<ConditionFilter>("product_type", raw));
    }
    for raw in ["petrol--diesel", "Diesel", "hybrid", "petrol--petrol"] {
        out.push(parsed::<FuelFilter>("fuel_type", raw));
    }
    for raw in [
        "mercedes-benz--land-rover",
        "bmw",
        "AUDI",
        "mercedes---benz",
        "-bmw",
        "bmw-",
        "land rover",
        "audi_a4",
        "\u{212a}ia",
    ] {
        out.push(parsed::<BrandSlug>("oem", raw));
    }
    out.into()
}

fn printed<T: FilterValue>(kind: &str, codes: &[&str]) -> Json {
    let list = FilterList::new(codes.iter().filter_map(|c| T::from_code(c)));
    obj! { "kind" => kind, "values" => codes.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>(), "printed" => list.to_string() }
}

pub(super) fn filter_print() -> Json {
    vec![
        printed::<ConditionFilter>("product_type", &[]),
        printed::<ConditionFilter>("product_type", &["old"]),
        printed::<ConditionFilter>("product_type", &["old", "new"]),
        printed::<ConditionFilter>("product_type", &["new", "old", "new"]),
        printed::<FuelFilter>("fuel_type", &["diesel", "petrol"]),
        printed::<BrandSlug>("oem", &["mercedes-benz", "bmw", "land-rover"]),
    ]
    .into()
}

pub(super) fn order_status() -> Json {
    let cases = [
        (1, "placed"),
        (2, "confirmed"),
        (3, "packed"),
        (4, "shipped"),
        (5, "delivered"),
        (6, "cancelled"),
        (6, "admin-cancelled"),
        (0, "unknown"),
        (7, "returned"),
        (-1, ""),
        (6, "Admin-Cancelled"),
    ];
    cases
        .iter()
        .map(|(n, s)| {
            let badge = OrderStatusBadge::of(*n, s);
            obj! { "status" => *n, "statusString" => *s, "colour" => badge.colour.code(), "label" => badge.label }
        })
        .collect::<Vec<_>>()
        .into()
}
