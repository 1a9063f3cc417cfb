//! Test vectors: chosen inputs and what the Rust rules answer for them. The
//! frontends run every vector through their TypeScript rules, so the two
//! cannot drift apart unnoticed. Inputs sit on the boundaries the tests name.

mod accounts;
mod addresses;
mod catalog;

use super::json::{obj, Json};
use marque_domain::message::UserFacing;

/// The code of a failed parse, or null.
fn code<T, E: UserFacing>(r: &Result<T, E>) -> Json {
    r.as_ref().err().map(UserFacing::code).into()
}

/// Every vector, by rule.
pub(super) fn all() -> Json {
    obj! {
        "loginMobile" => accounts::login_mobile(),
        "password" => accounts::password(),
        "confirmation" => accounts::confirmation(),
        "signUp" => accounts::sign_up(),
        "pincode" => addresses::pincode(),
        "addressMobile" => addresses::address_mobile(),
        "gstin" => addresses::gstin(),
        "address" => addresses::address(),
        "otp" => accounts::otp(),
        "email" => accounts::email(),
        "ncr" => addresses::ncr(),
        "truncate" => catalog::truncation(),
        "conditionLabel" => catalog::condition_labels(),
        "filterParse" => catalog::filter_parse(),
        "filterPrint" => catalog::filter_print(),
        "orderStatus" => catalog::order_status(),
        "totals" => addresses::totals(),
    }
}
