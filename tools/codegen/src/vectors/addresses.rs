//! Vectors of the address and pricing rules: pincode, mobile, address, NCR, totals.

use super::code;
use crate::json::{obj, Json};
use marque_domain::address::{is_ncr_pincode, Address, AddressInput, DeliveryRegion, IndianMobile, Pincode};
use marque_domain::cart::Quantity;
use marque_domain::pricing::{DiscountPercent, Offer, PricedLine, Totals};
use marque_domain::tax::Gstin;
use marque_domain::Money;

pub(super) fn pincode() -> Json {
    let inputs = [
        "110001",
        " 560001 ",
        "",
        "11000",
        "1100011",
        "011001",
        "11000a",
        "110 001",
        "999999",
        "100000",
        "\u{ff11}10001",
    ];
    inputs.iter().map(|i| obj! { "input" => *i, "code" => code(&Pincode::parse(i)) }).collect::<Vec<_>>().into()
}

pub(super) fn address_mobile() -> Json {
    let inputs = [
        "6000000000",
        "5999999999",
        "9876543210",
        "7123456789",
        "8123456789",
        "987654321",
        "98765432101",
        "0876543210",
        " 9876543210 ",
        "98765 43210",
        "+919876543210",
        "",
    ];
    inputs.iter().map(|i| obj! { "input" => *i, "code" => code(&IndianMobile::parse(i)) }).collect::<Vec<_>>().into()
}

/// Valid ones of several states and registration numbers, each part wrong in turn,
/// and every single-character mistype of one valid GSTIN's PAN (the check character catches each).
pub(super) fn gstin() -> Json {
    let mut inputs: Vec<String> = [
        "27AAPFU0939F1ZV",
        "07AAKCM4821R1ZU",
        "29AAGCB7383J1Z4",
        "33AAACH7409R1Z8",
        "24AAACC1206D1ZM",
        "09AAACH7409R1ZZ",
        " 27aapfu0939f1zv ",
        "27 AAPFU 0939F 1ZV",
        "27AAPFU0939F1ZW",
        "27AAPFU0939F1Z",
        "27AAPFU0939F1ZV1",
        "27AAPFU-939F1ZV",
        "00AAPFU0939F1ZV",
        "39AAPFU0939F1ZV",
        "97AAPFU0939F1ZV",
        "99AAPFU0939F1ZV",
        "A7AAPFU0939F1ZV",
        "27AAPF10939F1ZV",
        "27AAPFU093AF1ZV",
        "27AAPFU093911ZV",
        "27AAPFU0939F0ZV",
        "27AAPFU0939F1YV",
        "27AAPFU0939FAZV",
        "27AAPFU0939F\u{00e9}ZV",
        "",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let valid = "27AAPFU0939F1ZV";
    for at in 2..12 {
        let mut b = valid.as_bytes().to_vec();
        b[at] = if b[at].is_ascii_digit() { b'0' + (b[at] - b'0' + 3) % 10 } else { b'A' + (b[at] - b'A' + 3) % 26 };
        inputs.push(String::from_utf8(b).unwrap_or_default());
    }
    inputs.iter().map(|i| obj! { "input" => i.as_str(), "code" => code(&Gstin::parse(i)) }).collect::<Vec<_>>().into()
}

fn address_json(a: &AddressInput) -> Json {
    obj! {
        "houseNo" => a.house_no.as_str(), "street" => a.street.as_str(), "landmark" => a.landmark.as_str(),
        "city" => a.city.as_str(), "state" => a.state.as_str(), "mobileNo" => a.mobile_no.as_str(),
        "pincode" => a.pincode.as_str(), "gstin" => a.gstin.as_str(),
    }
}

pub(super) fn address() -> Json {
    let good = AddressInput {
        house_no: "12B".into(),
        street: String::new(),
        landmark: "Near Metro".into(),
        city: "New Delhi".into(),
        state: "Delhi".into(),
        mobile_no: "9876543210".into(),
        pincode: "110001".into(),
        gstin: String::new(),
    };
    let with_state = |state: &str| AddressInput { state: state.into(), ..good.clone() };
    let with_gstin = |gstin: &str| AddressInput { gstin: gstin.into(), ..good.clone() };
    let inputs = [
        good.clone(),
        AddressInput::default(),
        AddressInput { house_no: "  ".into(), ..good.clone() },
        AddressInput { city: String::new(), state: String::new(), ..good.clone() },
        AddressInput { mobile_no: "5876543210".into(), pincode: "011001".into(), ..good.clone() },
        with_state(" tamil nadu "),
        with_state("JAMMU AND KASHMIR"),
        with_state("Dadra and Nagar Haveli and Daman and Diu"),
        with_state("Atlantis"),
        with_state("Tamil  Nadu"),
        with_state("DL"),
        with_state("07"),
        with_state("Andaman & Nicobar Islands"),
        with_state(" "),
        with_gstin("07AAKCM4821R1ZU"),
        with_gstin(" 07aakcm4821r1zu "),
        with_gstin("  "),
        with_gstin("07AAKCM4821R1ZV"),
        with_gstin("07AAKCM4821R1Z"),
        AddressInput { state: "Nowhere".into(), gstin: "GSTIN".into(), city: " ".into(), ..good.clone() },
    ];
    inputs
        .iter()
        .map(|a| {
            let errors = match Address::parse(a) {
                Ok(_) => Json::Obj(vec![]),
                Err(e) => Json::Obj(e.iter().map(|(f, m)| (f.name().to_owned(), Json::from(m.code()))).collect()),
            };
            obj! { "input" => address_json(a), "errors" => errors }
        })
        .collect::<Vec<_>>()
        .into()
}

pub(super) fn ncr() -> Json {
    let inputs = [
        "110001", "121001", "201301", "122001", "109999", "111001", "120999", "123001", "200999", "202001", "560001",
        " 110001", "110", "11", "",
    ];
    inputs.iter().map(|i| obj! { "pincode" => *i, "ncr" => is_ncr_pincode(i) }).collect::<Vec<_>>().into()
}

#[expect(clippy::inconsistent_digit_grouping, reason = "paise written as rupees_paise, e.g. 2_499_50 is ₹2,499.50")]
pub(super) fn totals() -> Json {
    let line = |price: i64, qty: u32, inside: i64, outside: i64| PricedLine {
        unit_price: Money::from_paise(price),
        quantity: Quantity::new(qty).unwrap_or(Quantity::ONE),
        inside_ncr: Money::from_paise(inside),
        outside_ncr: Money::from_paise(outside),
    };
    let carts: Vec<(Vec<PricedLine>, &str, i64, u32)> = vec![
        (vec![line(1_000_00, 3, 50_00, 150_00), line(2_499_50, 1, 0, 200_00)], "110001", 1, 10),
        (vec![line(1_000_00, 3, 50_00, 150_00), line(2_499_50, 1, 0, 200_00)], "560001", 1, 10),
        (vec![line(99_999, 1, 0, 0)], "560001", 5, 10),
        (vec![line(123_450, 1, 10_00, 20_00)], "122001", 1, 7),
        (vec![line(500_00, 2, 10_00, 20_00)], "122001", 0, 50),
        (vec![line(500_00, 2, 10_00, 20_00)], "122001", -3, 50),
        (vec![line(50_050, 1, 0, 0)], "201301", 1, 100),
        (vec![], "110001", 1, 10),
    ];
    carts
        .iter()
        .map(|(lines, pincode, offer_exp, pct)| {
            let region = if is_ncr_pincode(pincode) { DeliveryRegion::Ncr } else { DeliveryRegion::OutsideNcr };
            let offer = Offer { offer_exp: *offer_exp, percentage: DiscountPercent::new(*pct).unwrap_or_default() };
            let t = Totals::of(lines, region, offer.percent_now());
            let lines: Vec<Json> = lines
                .iter()
                .map(|l| {
                    obj! {
                        "unitPrice" => l.unit_price.paise(), "quantity" => i64::from(l.quantity.get()),
                        "insideNcr" => l.inside_ncr.paise(), "outsideNcr" => l.outside_ncr.paise(),
                    }
                })
                .collect();
            obj! {
                "lines" => lines, "pincode" => *pincode, "offerExp" => *offer_exp, "percentage" => i64::from(*pct),
                "items" => t.items.paise(), "discount" => t.discount.paise(), "delivery" => t.delivery.paise(),
                "total" => t.total.paise(),
            }
        })
        .collect::<Vec<_>>()
        .into()
}
