//! The back office's calls, under `/api/admin/…`, each tag `admin-…` in the one API document.
//!
//! Every handler's FIRST argument is one of [`auth`]'s staff schemes (e.g. `ProductsStaff`): poem-openapi
//! runs it before it reads the body, so no token (or a customer's) is a 401 and a staff member of
//! the wrong role a 403, both JSON, before the body is looked at. The use case checks the role again
//! ([`marque_domain::staff::Staff::require`]).
//!
//! Conventions every admin call keeps: lists take `?page=&size=` (size at most 100) and answer
//! `{results, pages, total}` ([`list_window`]); a creation answers 201 with the new `_id`.

use marque_domain::paging::ListWindow;
use poem_openapi::payload::Json;

use crate::error::ErrorBody;

pub mod auth;

/// `?page=&size=` as the shop's one list window, or the 400 body of its fault (`page.invalid`,
/// `page.size_invalid`). A value too large for the query's type is the same fault
/// ([`ErrorBody::from_poem`]).
pub(crate) fn list_window(page: Option<u64>, size: Option<u64>) -> Result<ListWindow, Json<ErrorBody>> {
    ListWindow::new(page, size).map_err(|e| ErrorBody::from_rule(&e))
}

/// The response enum of an admin call: the variants given (the success ones first), plus 400 for a
/// request that does not parse (`request.invalid` or the field's own message), 401 without a valid
/// staff session (`staff.login_required`), 403 for a role that does not cover the call
/// (`staff.forbidden`) and 503 when the store cannot be reached (`staff.unavailable`).
///
/// A variant may carry headers beside its body and name its content type after `as` (a file).
///
/// ```ignore
/// admin_response!(ProductAnswer, product_bad_request, "product_bad_request", {
///     /// The product.
///     Ok(Json<AdminProduct>) = 200,
///     /// No product has this id (`admin.product_not_found`).
///     NotFound(Json<ErrorBody>) = 404,
/// });
/// admin_response!(ReportAnswer, report_bad_request, "report_bad_request", {
///     /// The report.
///     Ok(Binary<Vec<u8>>, #[oai(header = "Content-Disposition")] String) = 200 as "text/csv; charset=utf-8",
/// });
/// ```
#[allow(unused_macros)]
macro_rules! admin_response {
    ($name:ident, $handler:ident, $handler_name:tt, { $( $(#[doc = $doc:literal])* $variant:ident ( $( $(#[$field:meta])* $ty:ty ),+ ) = $status:literal $(as $content_type:literal)? ),* $(,)? }) => {
        // An answer is built once and moved straight into the response: the size of its largest
        // variant (a whole product) costs nothing worth a box.
        #[allow(clippy::large_enum_variant)]
        #[derive(poem_openapi::ApiResponse)]
        #[oai(bad_request_handler = $handler_name)]
        pub(crate) enum $name {
            $(
                $(#[doc = $doc])*
                #[oai(status = $status $(, content_type = $content_type)?)]
                $variant($( $(#[$field])* $ty ),+),
            )*
            /// A field or parameter that does not parse; its message and code come from the shop's rules.
            #[oai(status = 400)]
            BadRequest(poem_openapi::payload::Json<$crate::error::ErrorBody>),
            /// No valid staff session (`staff.login_required`): no token, a customer's, an expired or revoked one.
            #[oai(status = 401)]
            Unauthorized(poem_openapi::payload::Json<$crate::error::ErrorBody>),
            /// The staff member's role does not cover this call (`staff.forbidden`).
            #[oai(status = 403)]
            Forbidden(poem_openapi::payload::Json<$crate::error::ErrorBody>),
            /// A store the call needs cannot be reached right now.
            #[oai(status = 503)]
            Unavailable(poem_openapi::payload::Json<$crate::error::ErrorBody>),
        }

        fn $handler(err: poem::Error) -> $name {
            use marque_domain::Message;
            use $crate::error::ErrorBody;
            match err.status() {
                poem::http::StatusCode::UNAUTHORIZED => $name::Unauthorized(ErrorBody::from_message(Message::StaffLoginRequired)),
                poem::http::StatusCode::FORBIDDEN => $name::Forbidden(ErrorBody::from_message(Message::StaffForbidden)),
                poem::http::StatusCode::SERVICE_UNAVAILABLE => $name::Unavailable(ErrorBody::from_message(Message::StaffUnavailable)),
                _ => $name::BadRequest(ErrorBody::from_poem(&err)),
            }
        }
    };
}

/// The version an `If-Match` value names: `3`, `"3"` or `W/"3"`.
pub(crate) fn version_of(if_match: &str) -> Option<u64> {
    let text = if_match.trim();
    let text = text.strip_prefix("W/").unwrap_or(text);
    let text = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok()).flatten()
}

/// The version a change's `If-Match` header names, or the call's answer returned at once: 428
/// `PreconditionRequired` without the header, 400 `BadRequest` when it names no version, each with
/// the record's own `…version_required` message.
///
/// ```ignore
/// let version = required_version!(ChangeAnswer, if_match.0, Message::OrderVersionRequired);
/// ```
macro_rules! required_version {
    ($answer:ident, $header:expr, $message:expr) => {
        match $header {
            None => return $answer::PreconditionRequired($crate::error::ErrorBody::from_message($message)),
            Some(given) => match $crate::admin::version_of(&given) {
                Some(version) => version,
                None => return $answer::BadRequest($crate::error::ErrorBody::from_message($message)),
            },
        }
    };
}

pub mod audit;
pub mod customers;
pub mod staff;
pub mod stock;
// After the macro, which the modules below use.
pub mod catalog;
pub mod dashboard;
pub mod fitment;
pub mod grievances;
pub mod imports;
pub mod notices;
pub mod orders;
pub mod photos;
pub mod refunds;
pub mod returns;

#[cfg(test)]
mod tests {
    #[test]
    fn if_match_names_a_version_plain_or_quoted() {
        for (given, version) in [("3", Some(3)), ("\"3\"", Some(3)), ("W/\"12\"", Some(12)), (" 0 ", Some(0))] {
            assert_eq!(super::version_of(given), version, "{given:?}");
        }
        for bad in ["", "\"\"", "*", "v3", "-1", "3.0", "\"3", "99999999999999999999999"] {
            assert_eq!(super::version_of(bad), None, "{bad:?}");
        }
    }

    use super::*;

    #[test]
    fn every_list_answers_one_code_for_each_fault() {
        assert_eq!(list_window(None, None).ok(), Some(ListWindow::default()));
        assert_eq!(list_window(Some(100_000), Some(100)).ok().map(ListWindow::offset), Some(9_999_900));
        for (page, size, code) in [
            (Some(0), None, "page.invalid"),
            (Some(100_001), Some(20), "page.invalid"),
            (Some(u64::MAX), Some(0), "page.invalid"),
            (None, Some(0), "page.size_invalid"),
            (Some(1), Some(101), "page.size_invalid"),
            (None, Some(u64::MAX), "page.size_invalid"),
        ] {
            let refused = list_window(page, size).expect_err("refused");
            assert_eq!(
                (refused.0.status.as_str(), refused.0.code.as_deref()),
                ("failed", Some(code)),
                "{page:?} {size:?}"
            );
        }
    }
}
